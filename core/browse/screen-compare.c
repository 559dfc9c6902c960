/*
 * Two benchmarks side by side (DESIGN.md §7): the time ratio, then their
 * hot functions with both shares and the difference; Enter on a function
 * both ran shows its instructions with a column for each. The screens'
 * mark_from and mark_to hold the two benchmarks' indexes.
 */
#include <string.h>

#include "benchtui/bench.h"
#include "benchtui/selection.h"
#include "browse/browse-int.h"

static struct bt_view *
build(struct bt_browser *b, const struct screen *sc, struct bt_error *err)
{
	if (sc->mark_from < 0 || sc->mark_to < 0) {
		bt_error_set(err, BT_EINVAL, "no two benchmarks to compare");
		return NULL;
	}
	return bt_view_bench_compare(b->sel, (size_t)sc->mark_from, (size_t)sc->mark_to,
	    &b->o);
}

struct screen *
browse_push_compare(struct bt_browser *b, long x, long y, size_t height)
{
	struct bt_error err = { 0 };
	struct screen sc;

	memset(&sc, 0, sizeof(sc));
	sc.ops = &screen_compare;
	sc.func = -1;
	sc.nav.hot = -1;
	sc.mark_from = x;
	sc.mark_to = y;
	sc.view = build(b, &sc, &err);
	if (sc.view == NULL) {
		bt_browser_set_status(b, "%s", err.msg);
		return NULL;
	}
	BT_VEC_PUSH(b->stack, sc);
	bt_browser_set_status(b, "%s", bt_view_title(sc.view));
	return &b->stack.v[b->stack.n - 1];
}

/* The function in the two benchmarks' own selections, a column each. */
static struct bt_view *
build_func(struct bt_browser *b, const struct screen *sc, struct bt_error *err)
{
	struct bt_selection_opts o = *bt_selection_opts(b->sel);
	struct bt_session *s = bt_selection_session(b->sel);
	struct bt_selection *x, *y = NULL;
	struct bt_view *v = NULL;

	o.bench = sc->mark_from;
	if ((x = bt_selection_new(s, &o, err)) != NULL) {
		o.bench = sc->mark_to;
		y = bt_selection_new(s, &o, err);
	}
	if (y != NULL)
		v = bt_view_compare_func(x, y, sc->name, sc->module, &b->o, err);
	bt_selection_free(x);
	bt_selection_free(y);
	return v;
}

/* Enter on a function both ran: its instructions, a column for each. */
static void
enter(struct bt_browser *b, struct screen *sc, size_t height)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);
	struct bt_error err = { 0 };
	struct screen nsc;

	if (r == NULL || r->name == NULL)
		return;
	if (r->percent <= 0 || r->adjusted_percent <= 0) {
		bt_browser_set_status(b, "%s: %.2f%% of %s, %.2f%% of %s: only one of "
		    "them ran it", r->short_name ? r->short_name : r->name, r->percent,
		    bt_selection_bench(b->sel, (size_t)sc->mark_from)->name,
		    r->adjusted_percent, bt_selection_bench(b->sel, (size_t)sc->mark_to)->name);
		return;
	}
	memset(&nsc, 0, sizeof(nsc));
	nsc.ops = &screen_compare_func;
	nsc.func = -1;
	nsc.nav.hot = -1;
	nsc.mark_from = sc->mark_from;
	nsc.mark_to = sc->mark_to;
	nsc.name = bt_xstrdup(r->name);
	nsc.module = bt_xstrdup(r->module);
	nsc.view = build_func(b, &nsc, &err);
	if (nsc.view == NULL) {
		bt_browser_set_status(b, "%s", err.msg);
		free(nsc.name);
		free(nsc.module);
		return;
	}
	browse_cursor_hottest(&nsc.nav, nsc.view, height);
	BT_VEC_PUSH(b->stack, nsc);
	bt_browser_set_status(b, "%s", bt_view_title(nsc.view));
}

static void
enter_func(struct bt_browser *b, struct screen *sc, size_t height)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);

	if (r != NULL && r->text != NULL)
		bt_browser_set_status(b, "%s: %.2f%% and %.2f%% (%+.2f points)",
		    r->text, r->percent, r->adjusted_percent,
		    r->adjusted_percent - r->percent);
}

static long
subject(const struct bt_browser *b, const struct screen *sc)
{
	return -1;
}

static char *
export_name(const struct bt_browser *b, const struct screen *sc)
{
	return bt_xstrdup("compare");
}

const struct screen_ops screen_compare = {
	.kind = BT_SCREEN_COMPARE,
	.build = build,
	.enter = enter,
	.subject = subject,
	.export_name = export_name,
	.hint = "Enter the function, a column each  q back  B the benchmarks  h help",
};

static char *
export_name_func(const struct bt_browser *b, const struct screen *sc)
{
	return bt_xstrdup("compare-function");
}

const struct screen_ops screen_compare_func = {
	.kind = BT_SCREEN_COMPARE_FUNC,
	.build = build_func,
	.enter = enter_func,
	.subject = subject,
	.export_name = export_name_func,
	.hint = "Enter both shares  q back  B the benchmarks  h help",
};
