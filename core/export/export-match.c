/*
 * The aligned function's export (benchtui/match.h, docs/formats.md
 * "match"): as text, the view's cells; as JSON, every unit (each block,
 * then its instructions) with both sides and its Δ, interval, MDE, p, q
 * and verdict.
 */
#include <math.h>
#include <string.h>

#include "base.h"
#include "benchtui/match.h"
#include "export/export-int.h"
#include "export/json-writer.h"

static int
match_text(FILE *out, const struct bt_align *al, const struct bt_view_opts *o)
{
	struct bt_view *v = bt_view_match(al, o);

	export_plain_view(out, v);
	bt_view_free(v);
	return 0;
}

static void
json_side(struct bt_jw *w, const char *key, const struct bt_align_side *s, bool block)
{
	if (!s->present) {
		bt_jw_exact(w, key, NAN);	/* null */
		return;
	}
	bt_jw_object(w, key, BT_JW_COMPACT, 0);
	bt_jw_hex(w, "address", s->addr);
	if (!block)
		bt_jw_str(w, "text", s->text);
	bt_jw_str(w, "file", s->file);
	if (s->line)
		bt_jw_u64(w, "line", s->line);
	bt_jw_u64(w, "samples", s->samples);
	bt_jw_end(w);
}

static void
json_stat(struct bt_jw *w, const struct bt_diff_stat *s)
{
	bt_jw_exact(w, "a", s->a);
	bt_jw_exact(w, "b", s->b);
	bt_jw_exact(w, "delta", s->delta);
	bt_jw_array(w, "interval", BT_JW_COMPACT, 0);
	bt_jw_exact(w, NULL, s->lo);
	bt_jw_exact(w, NULL, s->hi);
	bt_jw_end(w);
	bt_jw_exact(w, "mde", s->mde);
	bt_jw_exact(w, "p", s->p);
	bt_jw_exact(w, "q", s->q);
	bt_jw_str(w, "verdict", bt_verdict_name(s->verdict));
}

static void
json_unit(struct bt_jw *w, const struct bt_align_unit *u)
{
	bool block = u->kind == BT_AK_BLOCK;

	bt_jw_object(w, NULL, BT_JW_SPACED, block ? 4 : 6);
	bt_jw_str(w, "kind", bt_align_kind_name(u->kind));
	bt_jw_u64(w, "block", u->block);
	if (block) {
		bt_jw_u64(w, "inserted", u->inserted);
		bt_jw_u64(w, "deleted", u->deleted);
		bt_jw_u64(w, "differ", u->differ);
		if (u->hottest)
			bt_jw_bool(w, "hottest", true);
	} else
		bt_jw_bool(w, "same_line", u->same_line);
	json_side(w, "code_a", &u->a, block);
	json_side(w, "code_b", &u->b, block);
	bt_jw_bool(w, "tested", u->tested);
	if (u->tested)
		json_stat(w, &u->st);
	bt_jw_end(w);
}

static int
match_json(FILE *out, const struct bt_align *al)
{
	struct bt_jw w;
	size_t i, n = bt_align_nunits(al), na, nb;
	const char *vec = bt_align_vectors(al, &na, &nb);

	bt_jw_init(&w, out);
	bt_jw_object(&w, NULL, BT_JW_LINES, 0);
	bt_jw_str(&w, "kind", "match");
	bt_jw_str(&w, "function_a", bt_align_func_name(al, 0));
	bt_jw_str(&w, "function_b", bt_align_func_name(al, 1));
	bt_jw_str(&w, "unit", bt_align_cost_unit(al));
	bt_jw_str(&w, "vectors", vec);
	bt_jw_u64(&w, "parts_a", na);
	bt_jw_u64(&w, "parts_b", nb);
	bt_jw_array(&w, "units", BT_JW_LINES, 2);
	for (i = 0; i < n; i++) {
		struct bt_align_unit u;

		bt_align_unit(al, i, &u);
		json_unit(&w, &u);
	}
	bt_jw_end(&w);
	bt_jw_end(&w);
	fputc('\n', out);
	return 0;
}

int
bt_export_match(FILE *out, const struct bt_align *al, enum bt_format format,
		const struct bt_view_opts *o, struct bt_error *err)
{
	int ret = format == BT_FORMAT_JSON ? match_json(out, al) : match_text(out, al, o);

	if (ferror(out))
		return bt_error_set(err, BT_EIO, "cannot write the aligned function");
	return ret;
}
