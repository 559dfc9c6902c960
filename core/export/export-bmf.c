/*
 * Bencher's Metric Format (docs/formats.md "bmf"): one object per
 * benchmark, its measures by name, each a value with its bounds where
 * known: the harness's latency and ±, and what the profile adds (cycles
 * per operation, the hottest loop's share, the lint findings), so that
 * profile-derived numbers land on regression charts beside the times.
 */
#include <math.h>
#include <string.h>

#include "benchtui/bench.h"
#include "benchtui/selection.h"
#include "benchtui/view.h"
#include "export/export-int.h"

static void
measure(struct bt_jw *w, const char *name, double value, double lo, double hi)
{
	bt_jw_break(w, 4);
	bt_jw_object(w, name, BT_JW_COMPACT, 0);
	bt_jw_exact(w, "value", value);
	if (!isnan(lo) && !isnan(hi)) {
		bt_jw_exact(w, "lower_value", lo);
		bt_jw_exact(w, "upper_value", hi);
	}
	bt_jw_end(w);
}

/*
 * The share of the benchmark's samples in the hottest region that closes
 * a loop of its hottest function (NAN when none).
 */
static double
hot_loop_share(struct bt_selection *bsel, const struct bt_view_opts *vo)
{
	const struct bt_view_region *rg;
	struct bt_view *v;
	double share = NAN;
	size_t f, n, i;
	uint64_t all = bt_selection_samples(bsel);

	for (f = 0; f < bt_selection_nfuncs(bsel); f++)
		if (bt_selection_func(bsel, f)->can_annotate)
			break;
	if (f == bt_selection_nfuncs(bsel) || all == 0 ||
	    (v = bt_view_annotate(bsel, f, vo, NULL)) == NULL)
		return NAN;
	n = bt_view_regions(v, &rg);
	for (i = 0; i < n; i++)
		if (rg[i].closes_loop) {
			share = 100.0 * (double)rg[i].samples / (double)all;
			break;
		}
	bt_view_free(v);
	return share;
}

static size_t
findings(struct bt_selection *bsel, const struct bt_view_opts *vo)
{
	struct bt_view *v = bt_view_findings(bsel, vo);
	size_t i, n = 0;

	for (i = 0; v != NULL && i < bt_view_nrows(v); i++)
		if (bt_view_row(v, i)->kind == BT_ROW_FINDING)
			n++;
	bt_view_free(v);
	return n;
}

/* The profile's measures of benchmark b (its own selection's). */
static void
profile_measures(struct bt_jw *w, struct bt_selection *sel, size_t b,
		 const struct bt_view_opts *vo)
{
	struct bt_selection_opts so = *bt_selection_opts(sel);
	struct bt_selection *bsel;
	struct bt_per_op po;
	double share;

	if (bt_selection_bench_index(sel) >= 0)
		bsel = bt_selection_ref(sel);
	else {
		so.bench = (long)b;
		bsel = bt_selection_new(bt_selection_session(sel), &so, NULL);
	}
	if (bsel == NULL)
		return;
	if (bt_selection_per_op(bsel, &po) && strcmp(po.unit, "cycles") == 0 &&
	    isfinite(po.total))
		measure(w, "cycles-per-op", po.total, NAN, NAN);
	if (!isnan(share = hot_loop_share(bsel, vo)))
		measure(w, "hot-loop-share", share, NAN, NAN);
	measure(w, "lint-findings", (double)findings(bsel, vo), NAN, NAN);
	bt_selection_free(bsel);
}

int
bt_export_bmf(FILE *out, struct bt_selection *sel, const struct bt_view_opts *vo)
{
	struct bt_jw jw, *w = &jw;
	size_t i, n = bt_selection_nbenches(sel);
	long cur = bt_selection_bench_index(sel);

	bt_jw_init(w, out);
	bt_jw_object(w, NULL, BT_JW_SPACED, 0);
	for (i = 0; i < n; i++) {
		const struct bt_bench *b = bt_selection_bench(sel, i);
		if ((cur >= 0 && (long)i != cur) || (isnan(b->time_ns) && !b->has_window))
			continue;
		bt_jw_break(w, 2);
		bt_jw_object(w, b->name, BT_JW_SPACED, 4);
		if (!isnan(b->time_ns)) {
			if (isnan(b->ci_ns))
				measure(w, "latency", b->time_ns, NAN, NAN);
			else
				measure(w, "latency", b->time_ns, b->time_ns - b->ci_ns,
				    b->time_ns + b->ci_ns);
		}
		if (b->has_window)
			profile_measures(w, sel, i, vo);
		bt_jw_end(w);
	}
	bt_jw_end(w);
	fputc('\n', out);
	return 0;
}
