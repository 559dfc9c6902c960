/*
 * The benchmark table (DESIGN.md §7), the first screen when the harness's
 * results were found: Enter opens a benchmark (every screen above it sees
 * that benchmark's samples only); m marks one, Enter on another compares
 * the two; B comes back here from anywhere.
 */
#include "benchtui/bench.h"
#include "benchtui/session.h"
#include "browse/browse-int.h"

static struct bt_view *
build(struct bt_browser *b, const struct screen *sc, struct bt_error *err)
{
	return bt_view_benches(b->sel, &b->o, false);
}

static void
enter(struct bt_browser *b, struct screen *sc, size_t height)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);
	struct bt_error err = { 0 };
	const struct bt_bench *bb;
	struct screen *nsc;

	if (r == NULL || r->kind != BT_ROW_BENCH)
		return;
	if (r->func == (size_t)-1) {
		bt_browser_set_status(b, "%llu samples in no benchmark: start-up, the "
		    "harness between benchmarks, reporting",
		    (unsigned long long)r->samples);
		return;
	}
	if (b->bench_mark >= 0 && (size_t)b->bench_mark != r->func) {
		browse_push_compare(b, b->bench_mark, (long)r->func, height);
		b->bench_mark = -1;
		return;
	}
	if (browse_select_bench(b, (long)r->func, &err) < 0) {
		bt_browser_set_status(b, "%s", err.msg);
		return;
	}
	nsc = browse_push(b, &screen_funcs, -1, height);
	if (nsc == NULL) {
		browse_select_bench(b, -1, NULL);
		return;
	}
	bb = bt_selection_bench(b->sel, r->func);
	bt_browser_set_status(b, "%s: %llu samples (%.3f-%.3f s); B: the benchmarks",
	    bb->name, (unsigned long long)bt_selection_samples(b->sel), bb->t_from, bb->t_to);
}

bool
browse_bench_timeline(struct bt_browser *b, struct screen *sc)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);
	struct bt_error err = { 0 };

	if (r == NULL || r->kind != BT_ROW_BENCH || r->func == (size_t)-1) {
		browse_select_bench(b, -1, NULL);	/* the whole run's */
		return true;
	}
	if (browse_select_bench(b, (long)r->func, &err) < 0) {
		bt_browser_set_status(b, "%s", err.msg);
		return false;
	}
	return true;
}

/* m: mark the benchmark under the cursor for a comparison. */
void
browse_bench_mark(struct bt_browser *b, struct screen *sc)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);

	if (sc->ops != &screen_benches || r == NULL || r->kind != BT_ROW_BENCH ||
	    r->func == (size_t)-1) {
		bt_browser_set_status(b, "m marks a benchmark in the benchmark table (B)");
		return;
	}
	if (b->bench_mark == (long)r->func) {
		b->bench_mark = -1;
		bt_browser_set_status(b, "mark cleared");
		return;
	}
	b->bench_mark = (long)r->func;
	bt_browser_set_status(b, "marked %s: Enter on another benchmark compares the two",
	    r->name);
}

static long
subject(const struct bt_browser *b, const struct screen *sc)
{
	return -1;
}

static char *
export_name(const struct bt_browser *b, const struct screen *sc)
{
	return bt_xstrdup("benchmarks");
}

const struct screen_ops screen_benches = {
	.kind = BT_SCREEN_BENCHES,
	.build = build,
	.enter = enter,
	.subject = subject,
	.export_name = export_name,
	.hint = "Enter open the benchmark  m mark, Enter on another: compare  h help  q quit",
};
