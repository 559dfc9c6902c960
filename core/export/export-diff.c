/*
 * A comparison's export (docs/diff.md, docs/formats.md "diff"): as text,
 * the cells of the views the browser shows (the benchmark table, each
 * benchmark's functions); as JSON, every unit with its vectors and
 * statistics, for CI.
 */
#include <math.h>
#include <string.h>

#include "base.h"
#include "benchtui/diff.h"
#include "export/export-int.h"
#include "export/json-writer.h"

static void
put_row(FILE *out, const struct bt_row *r, char lead)
{
	struct bt_strbuf sb = BT_STRBUF_INIT;
	struct bt_textbuf tb = { 0 };
	size_t i;

	if (lead)
		bt_strbuf_addch(&sb, lead);
	for (i = 0; i < r->ncells; i++)
		bt_strbuf_addstr(&sb, r->cells[i].text);
	while (sb.len > 0 && sb.buf[sb.len - 1] == ' ')
		sb.buf[--sb.len] = '\0';
	fputs(bt_text_safe(sb.buf, &tb), out);
	fputc('\n', out);
	bt_textbuf_release(&tb);
	bt_strbuf_release(&sb);
}

void
export_plain_view(FILE *out, const struct bt_view *v)
{
	struct bt_textbuf tb = { 0 };
	size_t i;

	fprintf(out, "## %s\n", bt_text_safe(bt_view_title(v), &tb));
	bt_textbuf_release(&tb);
	put_row(out, bt_view_columns(v), '#');
	for (i = 0; i < bt_view_nrows(v); i++)
		put_row(out, bt_view_row(v, i), 0);
}

static int
diff_text(FILE *out, const struct bt_diff *d, const struct bt_view_opts *o)
{
	struct bt_view *v = bt_view_diff_benches(d, o);
	size_t i;

	export_plain_view(out, v);
	bt_view_free(v);
	for (i = 0; i < bt_diff_npairs(d); i++) {
		if (bt_diff_pair(d, i)->nfuncs == 0)
			continue;
		fputc('\n', out);
		v = bt_view_diff_funcs(d, i, o);
		export_plain_view(out, v);
		bt_view_free(v);
	}
	return 0;
}

static void
json_vec(struct bt_jw *w, const char *key, const double *v, size_t n)
{
	size_t i;

	bt_jw_array(w, key, BT_JW_COMPACT, 0);
	for (i = 0; i < n; i++)
		bt_jw_exact(w, NULL, v[i]);
	bt_jw_end(w);
}

static void
json_unit(struct bt_jw *w, const char *key, const struct bt_diff_unit *u, int indent)
{
	const struct bt_diff_stat *s = &u->st;

	bt_jw_object(w, key, BT_JW_SPACED, indent);
	bt_jw_str(w, "kind", u->kind == BT_DIFF_BENCH ? "benchmark" : "function");
	bt_jw_str(w, "name", u->name);
	if (u->kind == BT_DIFF_FUNC) {
		if (u->name_a != NULL)
			bt_jw_str(w, "name_a", u->name_a);
		bt_jw_str(w, "match", u->match);
		bt_jw_str(w, "module_a", u->module_a);
		bt_jw_str(w, "module_b", u->module_b);
	}
	bt_jw_str(w, "unit", u->unit);
	bt_jw_str(w, "vectors", u->vectors);
	bt_jw_break(w, indent + 2);
	json_vec(w, "va", u->va, u->na);
	json_vec(w, "vb", u->vb, u->nb);
	bt_jw_break(w, indent + 2);
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
	bt_jw_end(w);
}

static int
diff_json(FILE *out, const struct bt_diff *d)
{
	const struct bt_diff_opts *o = bt_diff_opts(d);
	struct bt_jw w;
	size_t i, k, counts[4] = { 0 };

	bt_jw_init(&w, out);
	bt_jw_object(&w, NULL, BT_JW_LINES, 0);
	bt_jw_str(&w, "kind", "diff");
	bt_jw_str(&w, "a", bt_session_info(bt_selection_session(bt_diff_side(d, 0)))->command);
	bt_jw_str(&w, "b", bt_session_info(bt_selection_session(bt_diff_side(d, 1)))->command);
	bt_jw_str(&w, "event_a", bt_selection_event(bt_diff_side(d, 0)));
	bt_jw_str(&w, "event_b", bt_selection_event(bt_diff_side(d, 1)));
	bt_jw_exact(&w, "level", o->level);
	bt_jw_exact(&w, "noise", o->noise);
	bt_jw_u64(&w, "seed", o->seed);
	bt_jw_u64(&w, "units", bt_diff_nunits(d));
	for (i = 0; i < bt_diff_nunits(d); i++)
		counts[bt_diff_unit(d, i)->st.verdict]++;
	bt_jw_object(&w, "verdicts", BT_JW_SPACED, 0);
	for (k = 0; k < 4; k++)
		bt_jw_u64(&w, bt_verdict_name((enum bt_verdict)k), counts[k]);
	bt_jw_end(&w);
	bt_jw_array(&w, "benchmarks", BT_JW_LINES, 2);
	for (i = 0; i < bt_diff_npairs(d); i++) {
		const struct bt_diff_pair *p = bt_diff_pair(d, i);
		bt_jw_object(&w, NULL, BT_JW_LINES, 4);
		bt_jw_str(&w, "name", p->name);
		bt_jw_str(&w, "time_a", p->time_a);
		bt_jw_str(&w, "time_b", p->time_b);
		if (p->a == -1 || p->b == -1)
			bt_jw_str(&w, "only", p->a == -1 ? "b" : "a");
		bt_jw_str(&w, "verdict", bt_verdict_name(bt_diff_unit(d, p->unit)->st.verdict));
		/* the benchmark's own unit, then its functions' */
		json_unit(&w, "time", bt_diff_unit(d, p->unit), 6);
		bt_jw_array(&w, "functions", BT_JW_LINES, 6);
		for (k = 0; k < p->nfuncs; k++)
			json_unit(&w, NULL, bt_diff_unit(d, p->funcs + k), 8);
		bt_jw_end(&w);
		bt_jw_end(&w);
	}
	bt_jw_end(&w);
	bt_jw_end(&w);
	fputc('\n', out);
	return 0;
}

/* The pair named bench, or by a unique prefix; -1 none, -2 several. */
static long
find_pair(const struct bt_diff *d, const char *bench)
{
	size_t i, len = strlen(bench);
	long found = -1;

	for (i = 0; i < bt_diff_npairs(d); i++)
		if (strcmp(bt_diff_pair(d, i)->name, bench) == 0)
			return (long)i;
	for (i = 0; i < bt_diff_npairs(d); i++)
		if (strncmp(bt_diff_pair(d, i)->name, bench, len) == 0) {
			if (found >= 0)
				return -2;
			found = (long)i;
		}
	return found;
}

int
bt_export_diff_sides(FILE *out, const struct bt_diff *d, enum bt_format format,
		     const char *bench, struct bt_error *err)
{
	struct bt_selection *a = bt_diff_side(d, 0), *b = bt_diff_side(d, 1);
	const char *name = NULL;
	int ret;

	if (bench != NULL) {
		long i = find_pair(d, bench);

		if (i < 0)
			return bt_error_set(err, BT_ENOENT, "benchmark '%s': %s", bench,
			    i == -2 ? "names several benchmarks" : "in neither recording");
		name = bt_diff_pair(d, (size_t)i)->name;
		a = bt_diff_selection(d, 0, (size_t)i);
		b = bt_diff_selection(d, 1, (size_t)i);
		if (b == NULL)
			return bt_error_set(err, BT_ENOENT, "benchmark '%s' is not in B "
			    "(the new recording)", name);
	}
	if (format == BT_FORMAT_FLAMEGRAPH)
		return export_flamegraph_diff(out, a, b, name, err);
	if (format != BT_FORMAT_PPROF)
		return bt_error_set(err, BT_EINVAL, "a diff's sides export as flamegraph or pprof");
	if (a == NULL)
		return bt_error_set(err, BT_ENOENT, "benchmark '%s' is not in A "
		    "(the old recording)", name);
	ret = bt_export_pprof_sides(out, a, b, err);
	if (ret == 0 && (fflush(out) != 0 || ferror(out)))
		return bt_error_set(err, BT_EIO, "cannot write the diff");
	return ret;
}

int
bt_export_diff(FILE *out, const struct bt_diff *d, enum bt_format format,
	       const struct bt_view_opts *o, struct bt_error *err)
{
	int ret;

	if (format == BT_FORMAT_FLAMEGRAPH || format == BT_FORMAT_PPROF)
		return bt_export_diff_sides(out, d, format, NULL, err);
	ret = format == BT_FORMAT_JSON ? diff_json(out, d) : diff_text(out, d, o);

	if (ferror(out))
		return bt_error_set(err, BT_EIO, "cannot write the diff");
	return ret;
}
