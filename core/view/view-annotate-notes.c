/*
 * An annotation's view beside its rows (view-annotate.c): the hot
 * regions, the notes above the rows, the per-op note, and the targets
 * and PC-relative data as a row names them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "annotate/annotate.h"
#include "session/query.h"
#include "symbols/symbols.h"
#include "view/view-int.h"

/* view_set_numbers's percent of x over denom. */
static double
percent_of(double x, double denom)
{
	return denom > 0 ? 100.0 * x / denom : 0;
}

/*
 * The hot regions as the rows show them, hottest first (the annotation's
 * order), from the annotation's instructions (an export writes them
 * before the rows are made): the same sums the rows make.
 */
void
view_ann_regions(struct bt_view *v, const struct bt_annotation *a, double denom)
{
	struct bt_view_region *g;
	bool *seen;
	size_t i, n = a->regions.n;

	/* one pass over the instructions: those of region k sum into g[k] */
	g = bt_xcalloc(n + 1, sizeof(*g));
	seen = bt_xcalloc(n + 1, sizeof(*seen));
	for (i = 0; i < a->insns.n; i++) {
		const struct bt_ainsn *ai = &a->insns.v[i];
		struct bt_view_region *x;
		if (ai->region < 0)
			continue;
		if ((size_t)ai->region >= n) {	/* not the annotation's: keep them all */
			size_t k = (size_t)ai->region + 1;
			g = bt_xreallocarray(g, k, sizeof(*g));
			seen = bt_xreallocarray(seen, k, sizeof(*seen));
			memset(g + n, 0, (k - n) * sizeof(*g));
			memset(seen + n, 0, (k - n) * sizeof(*seen));
			n = k;
		}
		x = &g[ai->region];
		if (!seen[ai->region])
			x->start = ai->in.addr;
		seen[ai->region] = true;
		x->end = ai->in.addr + ai->in.len;
		x->samples += ai->samples;
		x->adjusted += ai->adjusted;
		x->percent += percent_of((double)ai->samples, denom);
		x->adjusted_percent += percent_of(ai->adjusted, denom);
		x->period += ai->period;
		x->closes_loop |= (ai->flags & BT_AI_BACK_EDGE) != 0;
	}
	/* in index order, up to the first index no row has */
	for (i = 0; i < n && seen[i]; i++) {
		g[i].per_op = v->has_per_op ? (double)g[i].period * v->per_op.scale : NAN;
		BT_VEC_PUSH(v->regions, g[i]);
	}
	free(seen);
	free(g);
}

/*
 * A source file this much newer than its binary was edited after the
 * build. Less is a checkout writing both (git sets each file's time as it
 * writes it: a fresh clone of a repository with a built binary in it).
 */
#define STALE_SLACK 10	/* seconds */

void
view_ann_notes(struct bt_view *v, struct bt_selection *sel, const struct bt_annotation *a,
      size_t func, const struct bt_view_opts *o)
{
	const struct bt_func *f = bt_selection_func(sel, func);

	if (!a->has_lines)
		BT_VEC_PUSH(v->notes, bt_strpool_addf(&v->pool,
		    "no source lines for '%s' (no debug info for '%s')", f->name,
		    f->module));
	else if (o->source && a->file != NULL) {
		struct bt_session *s = bt_selection_session(sel);
		const struct bt_srcfile *sf = bt_srccache_get(bt_session_srccache(s), a->file);
		int64_t bin = bt_session_module_mtime(s, f->mod);
		if (sf->missing)
			BT_VEC_PUSH(v->notes, bt_strpool_addf(&v->pool,
			    "source file '%s' not found: lines shown without text", a->file));
		else if (bin && sf->mtime > bin + STALE_SLACK)
			BT_VEC_PUSH(v->notes, bt_strpool_addf(&v->pool,
			    "source file '%s' is newer than '%s': it was edited after the "
			    "build, the lines shown may not match the code", a->file, f->module));
	}
	if (a->cut)
		BT_VEC_PUSH(v->notes, bt_strpool_addf(&v->pool, "the code ends inside the "
		    "instruction at %llx (%u of its bytes): left out, not shown as (bad)",
		    (unsigned long long)a->cut, a->cut_len));
	if (a->overrun && f->kind == BT_FK_SYMBOL)
		BT_VEC_PUSH(v->notes, bt_strpool_addf(&v->pool, "the symbol's size ends "
		    "inside its last instruction, which runs %llu bytes past it: shown "
		    "whole", (unsigned long long)a->overrun));
	if (a->stray)
		BT_VEC_PUSH(v->notes, bt_strpool_addf(&v->pool,
		    "%llu samples fell between instruction starts",
		    (unsigned long long)a->stray));
}

/* Under the per-op column: what it is of, and the function's sum. */
void
view_ann_per_op_note(struct bt_view *v, const struct bt_annotation *a)
{
	const struct bt_per_op *p = &v->per_op;
	struct bt_strbuf sb = BT_STRBUF_INIT;
	bool ns = strcmp(p->unit, "ns") == 0;

	double fn = (double)a->period * p->scale;

	bt_strbuf_addf(&sb, "%s per op of '%s': this function %.*f %s/op of the "
	    "benchmark's %.*f (%.0f operations", ns ? "time" : "cycles", p->bench,
	    bt_per_op_decimals(fn), fn, ns ? "ns" : "cycles", bt_per_op_decimals(p->total),
	    p->total, p->iterations);
	if (p->iterations_from != NULL)
		bt_strbuf_addf(&sb, ": %s", p->iterations_from);
	if (p->run_known)
		bt_strbuf_addf(&sb, "; the measured run's %.1f%% of the samples",
		    100 * p->fraction);
	else
		bt_strbuf_addstr(&sb, "; every sample of its window, untimed runs too");
	bt_strbuf_addch(&sb, ')');
	if (isfinite(p->harness_ns))
		bt_strbuf_addf(&sb, "; the harness printed %.*f ns/op",
		    bt_per_op_decimals(p->harness_ns), p->harness_ns);
	if (!ns && isfinite(p->total_ns))
		bt_strbuf_addf(&sb, " (the profile: %.*f ns/op at %.0f MHz)",
		    bt_per_op_decimals(p->total_ns), p->total_ns,
		    p->mhz);
	BT_VEC_PUSH(v->notes, bt_strpool_add(&v->pool, sb.buf, sb.len));
	bt_strbuf_release(&sb);
}

#define MIN_TARGET_COLS 24

/*
 * "<sym+0xoff>" with sym in the names' form, fitted to what the row
 * leaves it after before columns (when o sets a width): a call target's
 * name, or the data a PC-relative operand names.
 */
const char *
view_symbol_shown(struct bt_view *v, const char *full, const struct bt_view_opts *o,
	     size_t before)
{
	const char *plus, *p, *name;
	size_t n;

	/* the symbol, then "+0x..." (or objdump's "-0x...") if any */
	for (plus = NULL, p = full; (p = strstr(p, "0x")) != NULL; p++)
		if (p > full && (p[-1] == '+' || p[-1] == '-'))
			plus = p - 1;
	if (plus != NULL && plus[3] && strspn(plus + 3, "0123456789abcdef") == strlen(plus + 3))
		n = (size_t)(plus - full);
	else
		n = strlen(full), plus = "";
	name = view_name(v, bt_strpool_add(&v->pool, full, n), o);
	if (o->names == BT_NAMES_SHORT && view_names_width(o) > 0) {
		/* what the row leaves it (docs/browser.md "Long names") */
		size_t used = before + 2 + strlen(plus), w = view_names_width(o);
		name = view_fit_name(v, name, w > used + MIN_TARGET_COLS ? w - used :
		    MIN_TARGET_COLS);
	}
	return bt_strpool_addf(&v->pool, "<%s%s>", name, plus);
}

/*
 * A branch or call target as the row shows it: "+0x28 ↑" inside the
 * function (as perf shows local targets: the function's name says nothing
 * there), else "sym+0xoff" with sym in the names' form, fitted to what
 * the row leaves it after before columns (when o sets a width).
 */
const char *
view_target_shown(struct bt_view *v, const struct bt_row *r, const struct bt_func *f,
	     const struct bt_view_opts *o, size_t before)
{
	if ((r->flags & BT_ROW_F_JUMP) && r->target >= f->start && r->target < f->end)
		return bt_strpool_addf(&v->pool, "<+0x%llx> %s",
		    (unsigned long long)(r->target - f->start),
		    r->target <= r->addr ? "\xe2\x86\x91" : "\xe2\x86\x93");	/* ↑ ↓ */
	return view_symbol_shown(v, r->target_name, o, before);
}

/*
 * Gutter: skid mark, loop bars, then (depth_col) the inline depth;
 * each of the NGUTTERS made once, into made.
 */
const char *
view_ann_gutter(struct bt_view *v, const struct bt_ainsn *ai, bool skid_col,
       bool depth_col, const char **made)
{
	static const char mark[] = " ?*", bar[] = " |+";
	static const char depth[] = " 123456789+";
	char g[8];
	int k = 0, d, key, b;

	key = skid_col || !(ai->flags & BT_AI_SKID_TARGET) ? 0 :
	    ai->flags & BT_AI_SKID_GUESS ? 1 : 2;
	g[k++] = ' ';
	g[k++] = mark[key];
	for (d = 0; d < 3; d++) {
		b = d < ai->loop_depth ? (ai->flags & BT_AI_BACK_EDGE &&
		    d == ai->loop_depth - 1 ? 2 : 1) : 0;
		g[k++] = bar[b];
		key = key * 3 + b;
	}
	if (depth_col) {
		d = (int)BT_MIN(ai->depth, NDEPTHS - 1);
		g[k++] = depth[d];
		key = key * NDEPTHS + d;
	}
	g[k] = '\0';
	if (made[key] == NULL)
		made[key] = bt_strpool_add(&v->pool, g, (size_t)k);
	return made[key];
}

/*
 * The hot order of a view whose rows are made later, as view_seal makes it
 * from the rows: only instruction rows weigh (instruction i the last of
 * its rows, row0[i + 1] - 1).
 */
void
view_ann_hot(struct bt_view *v, const struct bt_annotation *a,
	     const struct bt_view_opts *o, const uint32_t *row0, double denom)
{
	size_t *rows = bt_xcalloc(a->insns.n + 1, sizeof(*rows)), i, n = 0;
	double *w = bt_xcalloc(a->insns.n + 1, sizeof(*w));

	for (i = 0; i < a->insns.n; i++) {
		const struct bt_ainsn *ai = &a->insns.v[i];
		struct bt_row r = { 0 };
		if (ai->samples == 0 && ai->period == 0 && ai->adjusted == 0 &&
		    ai->adjusted_period == 0)
			continue;
		view_set_numbers(&r, o, ai->samples, ai->period, ai->adjusted,
		    ai->adjusted_period, denom);
		if (r.weight > 0) {
			rows[n] = row0[i + 1] - 1;
			w[n++] = r.weight;
		}
	}
	view_hot_of(v, rows, w, n);
	free(rows);
	free(w);
}
