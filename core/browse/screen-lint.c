/*
 * The lint findings (L, from any screen): the selection's, and on the
 * whole run every benchmark's too (the benchmark table's Finding column,
 * whole). Enter opens the function a finding is about, or the benchmark;
 * a pane below the rows holds the cursor's finding whole, its message
 * wrapped.
 */
#include <stdio.h>

#include "benchtui/bench.h"
#include "browse/browse-int.h"

static struct bt_view *
build(struct bt_browser *b, const struct screen *sc, struct bt_error *err)
{
	return bt_view_lint(sc->sel, &b->o);
}

static long
subject(const struct bt_browser *b, const struct screen *sc)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);

	return r != NULL && r->func != (size_t)-1 ? (long)r->func : -1;
}

static void
enter(struct bt_browser *b, struct screen *sc, size_t height)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);
	long f = subject(b, sc);
	struct bt_error err = { 0 };

	if (r != NULL && (r->flags & BT_ROW_F_BENCH)) {
		/* a benchmark's finding: that benchmark, as Enter in its table opens it */
		if (browse_select_bench(b, (long)r->insn, &err) < 0) {
			bt_browser_set_status(b, "%s", err.msg);
			return;
		}
		if (browse_push(b, &screen_funcs, -1, NULL, height) != NULL)
			bt_browser_set_status(b, "%s: its functions; L its findings, B the "
			    "benchmarks", r->detail);
		return;
	}
	if (f >= 0)
		bt_browser_open(b, (size_t)f, height);
	else
		bt_browser_set_status(b, "this finding is about the whole run");
}

/* L here: already here. */
static bool
action(struct bt_browser *b, struct screen *sc, enum bt_action act,
       const char *text, size_t height)
{
	return act == BT_ACT_LINT;
}

static void
lint_from(struct bt_browser *b, struct screen *from, size_t height)
{
	struct screen *sc = browse_push(b, &screen_lint, -1, NULL, height);

	long bi;
	const struct bt_bench *bb;

	if (sc == NULL || bt_view_nrows(sc->view) > 0)
		return;
	bi = bt_selection_bench_index(sc->sel);
	bb = bi >= 0 ? bt_selection_bench(sc->sel, (size_t)bi) : NULL;
	/* no finding is not "nothing wrong" where no check could look */
	if (bt_selection_samples(sc->sel) == 0 && bb != NULL)
		bt_browser_set_status(b, "no check applies: none of the samples is known "
		    "to be %s's (%s), and its printed time says nothing alone", bb->name,
		    bb->has_window ? "no sample in its window or through its code" :
		    "no window, no function named like it on a call chain");
	else if (bt_selection_samples(sc->sel) == 0)
		bt_browser_set_status(b, "no check applies: no samples here");
	else
		bt_browser_set_status(b, "no findings: the checks (docs/lint.md) found "
		    "nothing in these %llu samples%s",
		    (unsigned long long)bt_selection_samples(sc->sel),
		    bb != NULL ? " of the benchmark" : "");
}

/* The finding under the cursor whole: the row cuts its message at the screen's edge. */
static bool
pane(const struct bt_browser *b, const struct screen *sc, struct bt_pane *p)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);

	if (bt_view_nrows(sc->view) == 0)
		return false;
	if (r != NULL && (r->flags & BT_ROW_F_BENCH)) {
		snprintf(p->head, sizeof(p->head), "%s, %.1f%% of benchmark %s", r->label,
		    r->percent, r->detail);
		p->text = r->text;
	} else if (r != NULL) {
		snprintf(p->head, sizeof(p->head), "%s, %.1f%%%s%s", r->label, r->percent,
		    r->name ? " in " : " of the run", r->name ? r->name : "");
		p->text = r->text;
	}
	return true;
}

static char *
export_name(const struct bt_browser *b, const struct screen *sc)
{
	return bt_xstrdup("lint");
}

const struct screen_ops screen_lint = {
	.name = "lint",
	.build = build,
	.enter = enter,
	.action = action,
	.subject = subject,
	.export_name = export_name,
	.pane = pane,
	.opens = BT_ACT_LINT,
	.open = lint_from,
	.hint = "Enter open the function or benchmark  E export  q back",
};
