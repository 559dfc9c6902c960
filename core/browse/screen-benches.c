/*
 * The benchmark table (DESIGN.md §7), the first screen when the harness's
 * results were found: Enter opens a benchmark (every screen above it sees
 * that benchmark's samples only); m marks one, Enter on another compares
 * the two; T shows a benchmark's share of the run; B comes back here from
 * anywhere.
 */
#include <stdio.h>
#include <stdlib.h>

#include "benchtui/bench.h"
#include "benchtui/lint.h"
#include "benchtui/session.h"
#include "browse/browse-int.h"

/*
 * The table's own: the benchmark marked for a comparison (m), -1 none;
 * the pane's text (the cursor's benchmark's findings, whole).
 */
struct benches {
	long mark;
	struct bt_strbuf pane;
};

static void
init(struct screen *sc, const void *arg, size_t height)
{
	struct benches *t = bt_xcalloc(1, sizeof(*t));

	t->mark = -1;
	bt_strbuf_init(&t->pane);
	sc->data = t;
}

static void
free_data(struct screen *sc)
{
	struct benches *t = sc->data;

	bt_strbuf_release(&t->pane);
	free(t);
}

static struct bt_view *
build(struct bt_browser *b, const struct screen *sc, struct bt_error *err)
{
	return bt_view_benches(sc->sel, &b->o, false);
}

static void
enter(struct bt_browser *b, struct screen *sc, size_t height)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);
	struct benches *t = sc->data;
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
	if (t->mark >= 0 && (size_t)t->mark != r->func) {
		long mark = t->mark;

		t->mark = -1;
		browse_push_compare(b, mark, (long)r->func, height);
		return;
	}
	if (browse_select_bench(b, (long)r->func, &err) < 0) {
		bt_browser_set_status(b, "%s", err.msg);
		return;
	}
	nsc = browse_push(b, &screen_funcs, -1, NULL, height);
	if (nsc == NULL)
		return;		/* the table's selection again */
	bb = bt_selection_bench(b->sel, r->func);
	bt_browser_set_status(b, "%s: %llu samples (%.3f-%.3f s); B: the benchmarks",
	    bb->name, (unsigned long long)bt_selection_samples(b->sel), bb->t_from, bb->t_to);
}

/*
 * T: the timeline opens on the benchmark under the cursor's selection
 * (false: failed, status set); elsewhere than on a benchmark, the whole
 * run's (the table's).
 */
static bool
bench_timeline(struct bt_browser *b, struct screen *sc)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);
	struct bt_error err = { 0 };

	if (r == NULL || r->kind != BT_ROW_BENCH || r->func == (size_t)-1)
		return true;
	if (browse_select_bench(b, (long)r->func, &err) < 0) {
		bt_browser_set_status(b, "%s", err.msg);
		return false;
	}
	return true;
}

/* m: mark the benchmark under the cursor for a comparison. */
static void
bench_mark(struct bt_browser *b, struct screen *sc)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);
	struct benches *t = sc->data;

	if (r == NULL || r->kind != BT_ROW_BENCH || r->func == (size_t)-1) {
		bt_browser_set_status(b, "m marks a benchmark in the benchmark table (B)");
		return;
	}
	if (t->mark == (long)r->func) {
		t->mark = -1;
		bt_browser_set_status(b, "mark cleared");
		return;
	}
	t->mark = (long)r->func;
	bt_browser_set_status(b, "marked %s: Enter on another benchmark compares the two",
	    r->name);
}

/*
 * m marks; T first selects the benchmark under the cursor, then the
 * timeline opens as from anywhere (its share of each slice).
 */
static bool
action(struct bt_browser *b, struct screen *sc, enum bt_action act,
       const char *text, size_t height)
{
	switch (act) {
	case BT_ACT_MARK_BENCH:
		bench_mark(b, sc);
		return true;
	case BT_ACT_TIMELINE:
		return !bench_timeline(b, sc);
	default:
		return false;
	}
}

/* B: the benchmark table, from anywhere (the stack under it goes). */
static void
bench_table(struct bt_browser *b, struct screen *from, size_t height)
{
	struct benches *t;

	if (bt_selection_nbenches(b->sel) == 0) {
		bt_browser_set_status(b, "no benchmarks: the output had no results of "
		    "a harness benchtui reads (docs/benchmarks.md)");
		return;
	}
	while (b->stack.n > 1)
		browse_pop(b);
	/* the first screen is the table already, or the function list of -b NAME */
	if (!b->stack.v[0].ops->whole_run) {
		browse_select_bench(b, -1, NULL);
		browse_release(&b->stack.v[0]);
		b->stack.n = 0;
		browse_push(b, &screen_benches, -1, NULL, height);
	}
	t = b->stack.v[0].data;
	t->mark = -1;
	bt_browser_set_status(b, "%zu benchmarks: Enter opens one, m marks one to compare",
	    bt_selection_nbenches(b->sel));
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

/*
 * The findings of the benchmark under the cursor, whole: the Finding
 * column holds only the worst one's check, and a narrow screen drops it.
 * Kept (the table's rows stay put) when any benchmark has a finding.
 */
static bool
pane(const struct bt_browser *b, const struct screen *sc, struct bt_pane *p)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);
	struct benches *t = sc->data;
	const struct bt_bench_summary *sm;
	size_t i, n = bt_selection_nbenches(sc->sel), k;
	bool any = false;

	for (i = 0; i < n && !any; i++)
		any = (sm = bt_selection_bench_summary(sc->sel, i)) != NULL && sm->nfindings;
	if (!any)
		return false;
	p->text = NULL;
	if (r == NULL || r->kind != BT_ROW_BENCH)
		return true;
	if (r->func == (size_t)-1) {
		snprintf(p->head, sizeof(p->head), "(outside): samples in no benchmark");
		p->text = "";
		return true;
	}
	sm = bt_selection_bench_summary(sc->sel, r->func);
	bt_strbuf_reset(&t->pane);
	if (sm == NULL || sm->nfindings == 0)
		snprintf(p->head, sizeof(p->head), "%s: no findings",
		    bt_selection_bench(sc->sel, r->func)->name);
	else if (sm->nfindings == 1)
		snprintf(p->head, sizeof(p->head), "%s, %.1f%% of benchmark %s",
		    sm->findings[0].check, sm->findings[0].percent,
		    bt_selection_bench(sc->sel, r->func)->name);
	else
		snprintf(p->head, sizeof(p->head), "%s: %zu findings (L lists them)",
		    bt_selection_bench(sc->sel, r->func)->name, sm->nfindings);
	for (k = 0; sm != NULL && k < sm->nfindings; k++) {
		if (sm->nfindings > 1)
			bt_strbuf_addf(&t->pane, "%s%s: ", k ? " " : "", sm->findings[k].check);
		bt_strbuf_addstr(&t->pane, sm->findings[k].message);
	}
	p->text = t->pane.buf ? t->pane.buf : "";
	return true;
}

static const struct screen_key keys[] = {
	{ BT_ACT_MARK_BENCH, "m marks a benchmark in the benchmark table (B)" },
	{ BT_ACT_NONE, NULL },
};

const struct screen_ops screen_benches = {
	.name = "benchmarks",
	.init = init,
	.free = free_data,
	.build = build,
	.enter = enter,
	.action = action,
	.subject = subject,
	.export_name = export_name,
	.pane = pane,
	.opens = BT_ACT_BENCHES,
	.open = bench_table,
	.keys = keys,
	.hint = "Enter open the benchmark  m mark, Enter on another: compare  h help  q quit",
	.whole_run = true,
};
