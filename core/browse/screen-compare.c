/*
 * Two benchmarks side by side (DESIGN.md §7): the time ratio, then their
 * hot functions with both shares and the difference; Enter on a function
 * both ran shows its instructions with a column for each (a second
 * screen, compare_func, on the same data).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchtui/bench.h"
#include "benchtui/selection.h"
#include "browse/browse-int.h"

/*
 * A comparison's own: its two benchmarks (indexes), and the function
 * compare_func shows (owned; NULL in the comparison itself).
 */
struct compare {
	long x, y;
	char *name, *module;
};

/* What an opener passes: the same, borrowed. */
struct compare_arg {
	long x, y;
	const char *name, *module;
};

static void
init(struct screen *sc, const void *arg, size_t height)
{
	const struct compare_arg *in = arg;
	struct compare *c = bt_xcalloc(1, sizeof(*c));

	c->x = in->x;
	c->y = in->y;
	c->name = in->name != NULL ? bt_xstrdup(in->name) : NULL;
	c->module = in->module != NULL ? bt_xstrdup(in->module) : NULL;
	sc->data = c;
}

static void
free_data(struct screen *sc)
{
	struct compare *c = sc->data;

	if (c != NULL) {
		free(c->name);
		free(c->module);
	}
	free(c);
}

static struct bt_view *
build(struct bt_browser *b, const struct screen *sc, struct bt_error *err)
{
	const struct compare *c = sc->data;

	if (c->x < 0 || c->y < 0) {
		bt_error_set(err, BT_EINVAL, "no two benchmarks to compare");
		return NULL;
	}
	return bt_view_bench_compare(sc->sel, (size_t)c->x, (size_t)c->y, &b->o);
}

struct screen *
browse_push_compare(struct bt_browser *b, long x, long y, size_t height)
{
	struct compare_arg arg = { x, y, NULL, NULL };
	struct screen *sc = browse_push(b, &screen_compare, -1, &arg, height);

	if (sc != NULL)
		bt_browser_set_status(b, "%s", bt_view_title(sc->view));
	return sc;
}

/* The function in the two benchmarks' own selections, a column each. */
static struct bt_view *
build_func(struct bt_browser *b, const struct screen *sc, struct bt_error *err)
{
	const struct compare *c = sc->data;
	struct bt_selection_opts o = *bt_selection_opts(sc->sel);
	struct bt_session *s = bt_selection_session(sc->sel);
	struct bt_selection *x, *y = NULL;
	struct bt_view *v = NULL;

	o.bench = c->x;
	if ((x = bt_selection_new(s, &o, err)) != NULL) {
		o.bench = c->y;
		y = bt_selection_new(s, &o, err);
	}
	if (y != NULL)
		v = bt_view_compare_func(x, y, c->name, c->module, &b->o, err);
	bt_selection_free(x);
	bt_selection_free(y);
	return v;
}

/* Enter on a function both ran: its instructions, a column for each. */
static void
enter(struct bt_browser *b, struct screen *sc, size_t height)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);
	const struct compare *c = sc->data;
	struct compare_arg arg = { c->x, c->y, NULL, NULL };
	struct screen *nsc;

	if (r == NULL || r->name == NULL)
		return;
	if (r->percent <= 0 || r->adjusted_percent <= 0) {
		bt_browser_set_status(b, "%s: %.2f%% of %s, %.2f%% of %s: only one of "
		    "them ran it", r->short_name ? r->short_name : r->name, r->percent,
		    bt_selection_bench(sc->sel, (size_t)c->x)->name,
		    r->adjusted_percent, bt_selection_bench(sc->sel, (size_t)c->y)->name);
		return;
	}
	arg.name = r->name;
	arg.module = r->module;
	nsc = browse_push(b, &screen_compare_func, -1, &arg, height);
	if (nsc == NULL)
		return;
	browse_cursor_hottest(&nsc->nav, nsc->view, height);
	bt_browser_set_status(b, "%s", bt_view_title(nsc->view));
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

/* One side for the header: "BM_sum/8 (2641 samples, 1.050 s)". */
static int
side(char *buf, size_t len, const struct bt_bench *x)
{
	if (x->has_window && !x->by_chain)
		return snprintf(buf, len, "%s (%llu samples, %.3f s)", x->name,
		    (unsigned long long)x->samples, x->t_to - x->t_from);
	return snprintf(buf, len, "%s (%llu samples)", x->name,
	    (unsigned long long)x->samples);
}

/*
 * The header: the two benchmarks, each with its own samples and duration
 * (the screen's selection is the whole run's).
 */
static void
scope(const struct bt_browser *b, const struct screen *sc, char *buf, size_t len)
{
	const struct compare *c = sc->data;
	int n;

	if (c->x < 0 || c->y < 0)
		return;
	n = side(buf, len, bt_selection_bench(sc->sel, (size_t)c->x));
	if (n < 0 || (size_t)n + 4 >= len)
		return;
	memcpy(buf + n, " vs ", 5);
	side(buf + n + 4, len - (size_t)n - 4, bt_selection_bench(sc->sel, (size_t)c->y));
}

const struct screen_ops screen_compare = {
	.name = "compare",
	.init = init,
	.free = free_data,
	.build = build,
	.enter = enter,
	.subject = subject,
	.export_name = export_name,
	.scope = scope,
	.hint = "Enter the function, a column each  q back  B the benchmarks  h help",
};

static char *
export_name_func(const struct bt_browser *b, const struct screen *sc)
{
	return bt_xstrdup("compare-function");
}

const struct screen_ops screen_compare_func = {
	.name = "compare-function",
	.init = init,
	.free = free_data,
	.build = build_func,
	.enter = enter_func,
	.subject = subject,
	.export_name = export_name_func,
	.scope = scope,
	.hint = "Enter both shares  q back  B the benchmarks  h help",
};
