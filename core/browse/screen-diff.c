/*
 * A comparison of two recordings (benchtui diff, docs/diff.md): the
 * benchmark table (A, B, ratio, Δ, interval, MDE, q, verdict); Enter: the
 * benchmark's functions by Δ cost per op; Enter on a function: its
 * instructions in both (diff_func: the compare screen's columns, which
 * line up where both recordings ran the same build; two builds are
 * aligned by diffmatch's screen).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchtui/diff.h"
#include "browse/browse-int.h"

/* What a diff screen keeps: the comparison (borrowed), a pair, a unit. */
struct diffscr {
	const struct bt_diff *d;
	size_t pair, unit;
};

static void
init(struct screen *sc, const void *arg, size_t height)
{
	struct diffscr *ds = bt_xmalloc(sizeof(*ds));

	*ds = *(const struct diffscr *)arg;
	sc->data = ds;
}

static void
free_data(struct screen *sc)
{
	free(sc->data);
}

static long
subject(const struct bt_browser *b, const struct screen *sc)
{
	return -1;
}

static struct bt_view *
build(struct bt_browser *b, const struct screen *sc, struct bt_error *err)
{
	const struct diffscr *ds = sc->data;

	return bt_view_diff_benches(ds->d, &b->o);
}

/* Enter on a benchmark: its functions. */
static void
enter(struct bt_browser *b, struct screen *sc, size_t height)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);
	struct diffscr arg = *(const struct diffscr *)sc->data;
	const struct bt_diff_pair *p;
	struct screen *nsc;

	if (r == NULL || r->kind != BT_ROW_BENCH || (p = bt_diff_pair(arg.d, r->func)) == NULL)
		return;
	if (p->nfuncs == 0) {
		bt_browser_set_status(b, "%s: no function compared (%s)", p->name,
		    p->a < 0 ? "only in B" : p->b < 0 ? "only in A" : "no samples");
		return;
	}
	arg.pair = r->func;
	nsc = browse_push(b, &screen_diff_funcs, -1, &arg, height);
	if (nsc != NULL)
		bt_browser_set_status(b, "%s", bt_view_title(nsc->view));
}

static char *
export_name(const struct bt_browser *b, const struct screen *sc)
{
	return bt_xstrdup("diff");
}

const struct screen_ops screen_diff = {
	.name = "diff",
	.init = init,
	.free = free_data,
	.build = build,
	.enter = enter,
	.subject = subject,
	.export_name = export_name,
	.hint = "Enter its functions  q quit  / search  h help",
};

static struct bt_view *
build_funcs(struct bt_browser *b, const struct screen *sc, struct bt_error *err)
{
	const struct diffscr *ds = sc->data;

	return bt_view_diff_funcs(ds->d, ds->pair, &b->o);
}

/*
 * A function at another place in each build: diffmatch's screen aligns
 * its instructions (screen-match.c). True when it opened (or said why not).
 */
static bool
open_match(struct bt_browser *b, const struct diffscr *ds, const struct bt_diff_unit *u,
	   size_t height)
{
	const struct bt_diff_pair *p = bt_diff_pair(ds->d, ds->pair);
	struct browse_match_arg m;
	const struct bt_func *fx, *fy;

	m.sa = bt_diff_selection(ds->d, 0, ds->pair);
	m.sb = bt_diff_selection(ds->d, 1, ds->pair);
	if (m.sa == NULL || m.sb == NULL)
		return false;
	fx = bt_selection_func(m.sa, (size_t)u->fa);
	fy = bt_selection_func(m.sb, (size_t)u->fb);
	if (fx->module != NULL && fy->module != NULL && strcmp(fx->module, fy->module) == 0 &&
	    fx->start == fy->start)
		return false;
	m.fa = (size_t)u->fa;
	m.fb = (size_t)u->fb;
	m.bench_a = p->a < 0 ? -1 : p->a;	/* (whole run): none */
	m.bench_b = p->b < 0 ? -1 : p->b;
	browse_open_match(b, &m, height);
	return true;
}

/* Enter on a function: its instructions in both, where they line up. */
static void
enter_funcs(struct bt_browser *b, struct screen *sc, size_t height)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);
	struct diffscr arg = *(const struct diffscr *)sc->data;
	const struct bt_diff_unit *u;
	struct screen *nsc;

	if (r == NULL || r->kind != BT_ROW_FUNC || (u = bt_diff_unit(arg.d, r->insn)) == NULL)
		return;
	if (u->fa < 0 || u->fb < 0) {
		bt_browser_set_status(b, "%s: only %s has samples in it", u->name,
		    u->fa < 0 ? "B" : "A");
		return;
	}
	arg.unit = r->insn;
	if (open_match(b, &arg, u, height))
		return;
	nsc = browse_push(b, &screen_diff_func, -1, &arg, height);
	if (nsc != NULL)
		bt_browser_set_status(b, "%s", bt_view_title(nsc->view));
}

static char *
export_name_funcs(const struct bt_browser *b, const struct screen *sc)
{
	const struct diffscr *ds = sc->data;
	char *s = NULL;

	if (asprintf(&s, "diff-%s", bt_diff_pair(ds->d, ds->pair)->name) < 0)
		return bt_xstrdup("diff-functions");
	for (char *c = s; *c; c++)
		if (*c == '/' || *c == ' ')
			*c = '_';
	return s;
}

const struct screen_ops screen_diff_funcs = {
	.name = "diff-functions",
	.init = init,
	.free = free_data,
	.build = build_funcs,
	.enter = enter_funcs,
	.subject = subject,
	.export_name = export_name_funcs,
	.hint = "Enter its instructions in both  q back  / search  h help",
};

/*
 * The function's instructions in both benchmarks' selections, by address
 * (bt_view_compare_func): right where both ran one build; two builds
 * differ in their addresses, and their alignment is diffmatch's.
 */
static struct bt_view *
build_func(struct bt_browser *b, const struct screen *sc, struct bt_error *err)
{
	const struct diffscr *ds = sc->data;
	const struct bt_diff_unit *u = bt_diff_unit(ds->d, ds->unit);
	struct bt_selection *x = bt_diff_selection(ds->d, 0, ds->pair);
	struct bt_selection *y = bt_diff_selection(ds->d, 1, ds->pair);
	const struct bt_func *fx, *fy;

	if (x == NULL || y == NULL || u->fa < 0 || u->fb < 0) {
		bt_error_set(err, BT_ENOENT, "'%s' is not in both recordings", u->name);
		return NULL;
	}
	fx = bt_selection_func(x, (size_t)u->fa);
	fy = bt_selection_func(y, (size_t)u->fb);
	if (fx->module == NULL || fy->module == NULL || strcmp(fx->module, fy->module) != 0 ||
	    fx->start != fy->start) {
		bt_error_set(err, BT_ENOTSUP, "'%s' is at another place in each build: "
		    "aligning its instructions is the matching screen's (issue 28)", u->name);
		return NULL;
	}
	return bt_view_compare_func(x, y, fx->name, fx->module, &b->o, err);
}

/* Enter on an instruction: both shares, whole, on the status line. */
static void
enter_func(struct bt_browser *b, struct screen *sc, size_t height)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);

	if (r != NULL && r->text != NULL)
		bt_browser_set_status(b, "%s: %.2f%% in A, %.2f%% in B (%+.2f points)",
		    r->text, r->percent, r->adjusted_percent,
		    r->adjusted_percent - r->percent);
}

static char *
export_name_func(const struct bt_browser *b, const struct screen *sc)
{
	return bt_xstrdup("diff-function");
}

const struct screen_ops screen_diff_func = {
	.name = "diff-function",
	.init = init,
	.free = free_data,
	.build = build_func,
	.enter = enter_func,
	.subject = subject,
	.export_name = export_name_func,
	.hint = "q back  / search  h help",
};

struct bt_browser *
bt_browser_new_diff(const struct bt_diff *d, const struct bt_view_opts *o)
{
	struct bt_browser *b = bt_xcalloc(1, sizeof(*b));
	struct diffscr arg = { d, 0, 0 };

	b->sel = bt_selection_ref(bt_diff_side(d, 1));
	if (o != NULL)
		b->o = *o;
	else
		bt_view_opts_init(&b->o);
	b->o.filter = NULL;
	b->o.module = NULL;
	b->o.locate = false;
	browse_push(b, &screen_diff, -1, &arg, 0);
	return b;
}
