/*
 * The views of a comparison (benchtui/diff.h, docs/diff.md): the
 * benchmark table of two recordings and one benchmark's functions by Δ
 * cost per op, each row a unit with its verdict.
 */
#include <math.h>
#include <string.h>

#include "benchtui/diff.h"
#include "view/view-int.h"

/* A number of the unit's, short: "16.5 ns", "3.21k cycles/op". */
static const char *
fmt_value(struct bt_view *v, double x, const char *unit)
{
	static const char *const ns[] = { "ns", "us", "ms", "s" };
	size_t i = 0;

	if (!isfinite(x))
		return "-";
	if (strcmp(unit, "ns/op") == 0) {
		while (fabs(x) >= 1000 && i + 1 < BT_ARRAY_SIZE(ns)) {
			x /= 1000;
			i++;
		}
		return bt_strpool_addf(&v->pool, "%.4g %s", x, ns[i]);
	}
	if (strcmp(unit, "share") == 0)
		return bt_strpool_addf(&v->pool, "%.2f%%", x);
	return bt_strpool_addf(&v->pool, "%.4g", x);
}

static const char *
fmt_pct(struct bt_view *v, double x)
{
	return isfinite(x) ? bt_strpool_addf(&v->pool, "%+.1f%%", 100 * x) : "-";
}

static const char *
fmt_interval(struct bt_view *v, const struct bt_diff_stat *s)
{
	if (!isfinite(s->lo) || !isfinite(s->hi))
		return "-";
	return bt_strpool_addf(&v->pool, "[%+.1f%%, %+.1f%%]", 100 * s->lo, 100 * s->hi);
}

static const char *
fmt_q(struct bt_view *v, double q)
{
	return q < 0.001 ? "<0.001" : bt_strpool_addf(&v->pool, "%.3f", q);
}

static enum bt_style
verdict_style(enum bt_verdict vd)
{
	switch (vd) {
	case BT_V_SLOWER: return BT_STYLE_HOT;
	case BT_V_FASTER: return BT_STYLE_SOURCE;
	case BT_V_UNCHANGED: return BT_STYLE_NORMAL;
	case BT_V_UNRESOLVED: return BT_STYLE_DIM;
	}
	return BT_STYLE_NORMAL;
}

#define NCOLS 10

/* The statistics' cells of unit u, after its name: widths w[1..]. */
static void
stat_cells(struct bt_view *v, const struct bt_diff_unit *u, const size_t *w)
{
	const struct bt_diff_stat *s = &u->st;
	const char *ratio = isfinite(s->a) && isfinite(s->b) && s->a > 0 ?
	    bt_strpool_addf(&v->pool, "%.3f", s->b / s->a) : "-";

	view_add_cell(v, view_pad(v, u->na ? fmt_value(v, s->a, u->unit) : "-", w[1], true),
	    BT_STYLE_NORMAL);
	view_add_cell(v, view_pad(v, u->nb ? fmt_value(v, s->b, u->unit) : "-", w[2], true),
	    BT_STYLE_NORMAL);
	view_add_cell(v, view_pad(v, ratio, w[3], true), BT_STYLE_NORMAL);
	view_add_cell(v, view_pad(v, fmt_pct(v, s->delta), w[4], true), BT_STYLE_NORMAL);
	view_add_cell(v, view_pad(v, fmt_interval(v, s), w[5], true), BT_STYLE_NORMAL);
	view_add_cell(v, view_pad(v, isfinite(s->mde) ?
	    bt_strpool_addf(&v->pool, "±%.1f%%", 100 * s->mde) : "-", w[6], true),
	    BT_STYLE_NORMAL);
	view_add_cell(v, view_pad(v, fmt_q(v, s->q), w[7], true), BT_STYLE_NORMAL);
	view_add_cell(v, "  ", BT_STYLE_NORMAL);
	view_add_cell(v, view_pad(v, bt_verdict_name(s->verdict), w[8], false),
	    verdict_style(s->verdict));
	view_add_cell(v, bt_strpool_addf(&v->pool, "  %zu+%zu %s%s", u->na, u->nb, u->vectors,
	    u->kind != BT_DIFF_FUNC ? "" : u->fa < 0 ? ", only in B" : u->fb < 0 ?
	    ", only in A" : u->name_a != NULL ? ", renamed" : ""), BT_STYLE_DIM);
}

static size_t
name_width(const char *const *names, size_t n, const struct bt_view_opts *o, size_t min)
{
	size_t w = min, i;

	for (i = 0; i < n; i++)
		w = BT_MAX(w, view_ncols(names[i]));
	return o != NULL && o->whole_names ? w : BT_MIN(w, 48);
}

static void
columns(struct bt_view *v, const char *first, size_t *w, const char *unit)
{
	const char *h[NCOLS + 1] = { first, "A", "B", "B/A", "Δ", "95% interval", "MDE", "q",
		"", "Verdict", "Vectors" };
	size_t hw[NCOLS + 1] = { w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], 2, w[8], 0 };
	bool hr[NCOLS + 1] = { false, true, true, true, true, true, true, true, false, false, false };

	(void)unit;
	view_set_columns(v, h, hw, hr, NCOLS + 1);
}

static const size_t stat_w[NCOLS] = { 0, 12, 12, 7, 8, 19, 8, 7, 10, 0 };

struct bt_view *
bt_view_diff_benches(const struct bt_diff *d, const struct bt_view_opts *o)
{
	struct bt_view *v = view_new(bt_diff_side(d, 1));
	size_t np = bt_diff_npairs(d), i, w[NCOLS], counts[4] = { 0 };
	const char **names = bt_xcalloc(np + 1, sizeof(*names));

	memcpy(w, stat_w, sizeof(w));
	for (i = 0; i < np; i++)
		names[i] = bt_diff_pair(d, i)->name;
	w[0] = name_width(names, np, o, 9);
	for (i = 0; i < np; i++) {
		const struct bt_diff_pair *p = bt_diff_pair(d, i);
		const struct bt_diff_unit *u = bt_diff_unit(d, p->unit);
		struct bt_row *r = view_add_row(v, BT_ROW_BENCH);
		r->func = i;
		r->name = p->name;
		r->insn = p->unit;
		r->weight = isfinite(u->st.delta) ? fabs(u->st.delta) : 0;
		counts[u->st.verdict]++;
		view_add_cell(v, view_pad(v, o && o->whole_names ? p->name :
		    view_cut_middle(v, p->name, w[0]), w[0], false), BT_STYLE_NORMAL);
		stat_cells(v, u, w);
	}
	columns(v, "Benchmark", w, "ns/op");
	v->title = bt_strpool_addf(&v->pool, "diff: %zu benchmarks: %zu slower, %zu faster, "
	    "%zu unchanged, %zu unresolved (q <= %.2f over %zu units)", np,
	    counts[BT_V_SLOWER], counts[BT_V_FASTER], counts[BT_V_UNCHANGED],
	    counts[BT_V_UNRESOLVED], bt_diff_opts(d)->level, bt_diff_nunits(d));
	free(names);
	view_seal(v);
	return v;
}

struct bt_view *
bt_view_diff_funcs(const struct bt_diff *d, size_t pair, const struct bt_view_opts *o)
{
	const struct bt_diff_pair *p = bt_diff_pair(d, pair);
	struct bt_view *v = view_new(bt_diff_side(d, 1));
	size_t i, w[NCOLS];
	const char **names;
	const char *unit = "ns/op";

	memcpy(w, stat_w, sizeof(w));
	if (p == NULL) {
		view_seal(v);
		v->title = "diff: no such benchmark";
		return v;
	}
	names = bt_xcalloc(p->nfuncs + 1, sizeof(*names));
	for (i = 0; i < p->nfuncs; i++)
		names[i] = view_name(v, bt_diff_unit(d, p->funcs + i)->name, o);
	w[0] = name_width(names, p->nfuncs, o, 8);
	for (i = 0; i < p->nfuncs; i++) {
		const struct bt_diff_unit *u = bt_diff_unit(d, p->funcs + i);
		struct bt_row *r = view_add_row(v, BT_ROW_FUNC);
		r->func = u->fb >= 0 ? (size_t)u->fb : u->fa >= 0 ? (size_t)u->fa : (size_t)-1;
		r->insn = p->funcs + i;
		r->name = u->name;
		r->short_name = view_short_name(v, u->name, false);
		r->module = u->module_b ? u->module_b : u->module_a;
		r->weight = fabs((isfinite(u->st.b) ? u->st.b : 0) - (isfinite(u->st.a) ? u->st.a : 0));
		unit = u->unit;
		view_add_cell(v, view_pad(v, o && o->whole_names ? names[i] :
		    view_cut_middle(v, names[i], w[0]), w[0], false), BT_STYLE_NORMAL);
		stat_cells(v, u, w);
	}
	columns(v, "Function", w, unit);
	if (strcmp(unit, "share") == 0)	/* nothing better: say so */
		v->title = bt_strpool_addf(&v->pool, "diff %s: functions by Δ share of the "
		    "samples (no iterations to count per op)", p->name);
	else
		v->title = bt_strpool_addf(&v->pool, "diff %s: %s -> %s; functions by Δ cost "
		    "per op (%s)", p->name, p->time_a ? p->time_a : "-",
		    p->time_b ? p->time_b : "-", unit);
	free(names);
	view_seal(v);
	return v;
}
