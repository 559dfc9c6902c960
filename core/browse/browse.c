/*
 * The browser as data: a stack of screens (hot functions -> annotated
 * function -> source, lint, timeline), each a mode (screen-*.c) with a
 * view and a position, plus the positions before followed jumps. Every
 * key of DESIGN.md's table is an action here; the TUI only maps keys and
 * paints.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "benchtui/bench.h"
#include "benchtui/selection.h"
#include "benchtui/session.h"
#include "browse/browse-int.h"

static struct screen *
top_screen(struct bt_browser *b)
{
	return &b->stack.v[b->stack.n - 1];
}

void
bt_browser_set_status(struct bt_browser *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(b->status, sizeof(b->status), fmt, ap);
	va_end(ap);
}

void
browse_show_cursor(struct bt_nav *n, size_t nrows, size_t height)
{
	if (height == 0)
		height = 1;
	if (nrows == 0) {
		n->cursor = n->top = 0;
		return;
	}
	if (n->cursor >= nrows)
		n->cursor = nrows - 1;
	if (n->cursor < n->top || n->cursor >= n->top + height)
		n->top = n->cursor > height / 2 ? n->cursor - height / 2 : 0;
	if (n->top + height > nrows)
		n->top = nrows > height ? nrows - height : 0;
}

static void
screen_release(struct screen *sc)
{
	bt_view_free(sc->view);
	BT_VEC_FREE(sc->jumps);
	free(sc->file);
	free(sc->name);
	free(sc->module);
}

static struct screen *
push(struct bt_browser *b, const struct screen_ops *ops, long func,
     const char *file, const uint64_t *addr, size_t height)
{
	struct bt_error err = { 0 };
	struct screen sc;

	memset(&sc, 0, sizeof(sc));
	sc.ops = ops;
	sc.func = func;
	if (addr != NULL) {
		sc.has_addr = true;
		sc.addr = *addr;
	}
	sc.file = file ? bt_xstrdup(file) : NULL;
	sc.nav.hot = -1;
	sc.mark_from = sc.mark_to = -1;
	sc.nbins = height > 4 ? BT_MIN(height, 200) : 20;
	sc.view = ops->build(b, &sc, &err);
	if (sc.view == NULL) {
		bt_browser_set_status(b, "%s", err.msg);
		free(sc.file);
		return NULL;
	}
	BT_VEC_PUSH(b->stack, sc);
	return top_screen(b);
}

struct screen *
browse_push_file(struct bt_browser *b, const struct screen_ops *ops, long func,
		 const char *file, size_t height)
{
	return push(b, ops, func, file, NULL, height);
}

struct screen *
browse_push_addr(struct bt_browser *b, const struct screen_ops *ops, long func,
		 uint64_t addr, size_t height)
{
	return push(b, ops, func, NULL, &addr, height);
}

struct screen *
browse_push(struct bt_browser *b, const struct screen_ops *ops, long func,
	    size_t height)
{
	return browse_push_file(b, ops, func, NULL, height);
}

void
browse_pop(struct bt_browser *b)
{
	if (b->stack.n > 1)
		screen_release(&b->stack.v[--b->stack.n]);
	/* back on the benchmark table: every sample again */
	if (top_screen(b)->ops == &screen_benches && bt_selection_bench_index(b->sel) >= 0)
		browse_select_bench(b, -1, NULL);
}

/* The function list: the first screen, or the one above the benchmark table. */
static struct screen *
funcs_screen(struct bt_browser *b)
{
	size_t i;

	for (i = 0; i < b->stack.n; i++)
		if (b->stack.v[i].ops == &screen_funcs)
			return &b->stack.v[i];
	return &b->stack.v[0];
}

/* B: the benchmark table, from anywhere (the stack under it goes). */
static void
bench_table(struct bt_browser *b, size_t height)
{
	if (bt_selection_nbenches(b->sel) == 0) {
		bt_browser_set_status(b, "no benchmarks: the output had no results of "
		    "a harness benchtui reads (docs/benchmarks.md)");
		return;
	}
	while (b->stack.n > 1)
		browse_pop(b);
	if (b->stack.v[0].ops != &screen_benches) {
		browse_select_bench(b, -1, NULL);
		screen_release(&b->stack.v[0]);
		b->stack.n = 0;
		browse_push(b, &screen_benches, -1, height);
	}
	b->bench_mark = -1;
	bt_browser_set_status(b, "%zu benchmarks: Enter opens one, m marks one to compare",
	    bt_selection_nbenches(b->sel));
}

int
browse_select(struct bt_browser *b, const struct bt_selection_opts *o,
	      struct bt_error *err)
{
	struct bt_selection *sel = bt_selection_new(bt_selection_session(b->sel), o, err);

	if (sel == NULL)
		return -1;
	bt_selection_free(b->sel);
	b->sel = sel;
	return 0;
}

int
browse_select_bench(struct bt_browser *b, long bi, struct bt_error *err)
{
	struct bt_selection_opts o = *bt_selection_opts(b->sel);

	o.bench = bi;
	return browse_select(b, &o, err);
}

struct bt_browser *
bt_browser_new(struct bt_selection *sel, const struct bt_view_opts *o)
{
	struct bt_browser *b = bt_xcalloc(1, sizeof(*b));

	b->sel = bt_selection_ref(sel);
	if (o != NULL)
		b->o = *o;
	else
		bt_view_opts_init(&b->o);
	b->o.filter = NULL;
	b->o.module = NULL;
	b->o.locate = false;
	b->bench_mark = -1;
	if (bt_selection_nbenches(sel) > 0 && bt_selection_bench_index(sel) < 0)
		browse_push(b, &screen_benches, -1, 0);
	if (b->stack.n == 0)
		browse_push(b, &screen_funcs, -1, 0);
	return b;
}

void
bt_browser_free(struct bt_browser *b)
{
	size_t i;

	if (b == NULL)
		return;
	for (i = 0; i < b->stack.n; i++)
		screen_release(&b->stack.v[i]);
	BT_VEC_FREE(b->stack);
	free(b->search);
	free(b->filter);
	free(b->module);
	bt_selection_free(b->sel);
	free(b);
}

void
browse_cursor_hottest(struct bt_nav *n, const struct bt_view *v, size_t height)
{
	const size_t *hot;
	size_t nh = bt_view_hot(v, &hot);

	if (nh) {
		n->cursor = hot[0];
		n->hot = 0;
	} else {
		/* no samples: the first instruction or line */
		size_t i;
		for (i = 0; i < bt_view_nrows(v); i++) {
			enum bt_row_kind k = bt_view_row(v, i)->kind;
			if (k == BT_ROW_INSN || k == BT_ROW_LINE || k == BT_ROW_FUNC)
				break;
		}
		n->cursor = i < bt_view_nrows(v) ? i : 0;
	}
	browse_show_cursor(n, bt_view_nrows(v), height);
}

int
bt_browser_open(struct bt_browser *b, size_t func, size_t height)
{
	struct screen *sc;

	if (func >= bt_selection_nfuncs(b->sel))
		return -BT_EINVAL;
	sc = browse_push(b, &screen_annotate, (long)func, height);
	if (sc == NULL)
		return -BT_ENODATA;
	browse_cursor_hottest(&sc->nav, sc->view, height);
	return 0;
}

static struct anchor
anchor_of(const struct screen *sc)
{
	struct anchor a = { BT_ROW_TEXT, 0, 0, 0, sc->nav.cursor };
	const struct bt_row *r;

	if (sc->ops->anchor != NULL)
		return sc->ops->anchor(sc);
	r = bt_view_row(sc->view, sc->nav.cursor);
	if (r != NULL) {
		a.kind = r->kind;
		a.addr = r->addr;
		a.line = r->line;
		a.func = r->func;
	}
	return a;
}

static long
find_anchor(const struct bt_view *v, const struct anchor *a)
{
	size_t i;

	for (i = 0; i < bt_view_nrows(v); i++) {
		const struct bt_row *r = bt_view_row(v, i);
		if (r->kind != a->kind)
			continue;
		if ((a->kind == BT_ROW_INSN && r->addr == a->addr) ||
		    (a->kind == BT_ROW_LINE && r->line == a->line) ||
		    (a->kind == BT_ROW_FUNC && r->func == a->func))
			return (long)i;
	}
	/* rows that are neither: the same row */
	return a->kind != BT_ROW_INSN && a->kind != BT_ROW_LINE &&
	    a->kind != BT_ROW_FUNC && a->row < bt_view_nrows(v) ? (long)a->row : -1;
}

/*
 * Put v in sc, the cursor on the row of a (at the same height on the
 * screen), else where it was. The followed jumps are kept when the rows
 * are the same (another event or window: the same code), else dropped.
 * Returns whether a's row was found.
 */
static bool
install(struct screen *sc, struct bt_view *v, const struct anchor *a, size_t height)
{
	size_t off = sc->nav.cursor >= sc->nav.top ? sc->nav.cursor - sc->nav.top : 0;
	bool same_rows = bt_view_nrows(v) == bt_view_nrows(sc->view);
	long row;

	bt_view_free(sc->view);
	sc->view = v;
	if (!same_rows)
		sc->jumps.n = 0;
	sc->nav.hot = -1;
	row = a != NULL ? find_anchor(v, a) : -1;
	if (row >= 0) {
		sc->nav.cursor = (size_t)row;
		sc->nav.top = sc->nav.cursor >= off ? sc->nav.cursor - off : 0;
	}
	browse_show_cursor(&sc->nav, bt_view_nrows(sc->view), height);
	return row >= 0;
}

void
browse_rebuild(struct bt_browser *b, struct screen *sc, size_t height)
{
	struct anchor a = anchor_of(sc);
	struct bt_view *v = sc->ops->build(b, sc, NULL);

	if (v == NULL)
		return;
	/* a toggle changes the rows (source lines on, off): no jumps to undo */
	sc->jumps.n = 0;
	install(sc, v, &a, height);
}

/* Rebuild every screen's view after a toggle, keeping each cursor on its row. */
static void
rebuild_all(struct bt_browser *b, size_t height)
{
	size_t i;

	for (i = 0; i < b->stack.n; i++)
		browse_rebuild(b, &b->stack.v[i], height);
}

static void
move(struct screen *sc, long delta, size_t height)
{
	size_t n = bt_view_nrows(sc->view);
	long c = (long)sc->nav.cursor + delta;

	if (n == 0)
		return;
	if (c < 0)
		c = 0;
	if ((size_t)c >= n)
		c = (long)n - 1;
	sc->nav.cursor = (size_t)c;
	if (sc->nav.cursor < sc->nav.top)
		sc->nav.top = sc->nav.cursor;
	else if (sc->nav.cursor >= sc->nav.top + height)
		sc->nav.top = sc->nav.cursor - height + 1;
}

static void
page(struct screen *sc, long dir, size_t height)
{
	size_t n = bt_view_nrows(sc->view);
	long top = (long)sc->nav.top + dir * (long)height;
	long maxtop = n > height ? (long)(n - height) : 0;

	if (top < 0)
		top = 0;
	if (top > maxtop)
		top = maxtop;
	if (top == (long)sc->nav.top) {	/* at an end: move the cursor there */
		move(sc, dir * (long)height, height);
		return;
	}
	sc->nav.cursor = (size_t)((long)sc->nav.cursor + (top - (long)sc->nav.top));
	sc->nav.top = (size_t)top;
	/* the screen may have changed height since the last action */
	if (sc->nav.cursor < sc->nav.top)
		sc->nav.cursor = sc->nav.top;
	if (sc->nav.cursor >= sc->nav.top + height)
		sc->nav.cursor = sc->nav.top + height - 1;
	if (sc->nav.cursor >= n)
		sc->nav.cursor = n - 1;
}

static void
next_hot(struct bt_browser *b, struct screen *sc, int dir, size_t height)
{
	const size_t *hot;
	size_t nh = bt_view_hot(sc->view, &hot);

	if (nh == 0) {
		bt_browser_set_status(b, "no samples here");
		return;
	}
	if (sc->nav.hot < 0 || (size_t)sc->nav.hot >= nh ||
	    hot[sc->nav.hot] != sc->nav.cursor)
		sc->nav.hot = dir > 0 ? 0 : (long)nh - 1;
	else
		sc->nav.hot = (sc->nav.hot + dir + (long)nh) % (long)nh;
	sc->nav.cursor = hot[sc->nav.hot];
	browse_show_cursor(&sc->nav, bt_view_nrows(sc->view), height);
	bt_browser_set_status(b, "hot %ld of %zu", sc->nav.hot + 1, nh);
}

static void
next_region(struct bt_browser *b, struct screen *sc, int dir, size_t height)
{
	const struct bt_view_region *rg;
	size_t n = bt_view_nrows(sc->view), nr = bt_view_regions(sc->view, &rg), i, k;

	for (k = 1; k <= n; k++) {
		i = (sc->nav.cursor + n + (size_t)dir * k) % n;
		const struct bt_row *r = bt_view_row(sc->view, i);
		if (r->flags & BT_ROW_F_REGION_START) {
			sc->nav.cursor = i;
			browse_show_cursor(&sc->nav, n, height);
			if (r->region >= 0 && (size_t)r->region < nr)
				bt_browser_set_status(b,
				    "hot region %d of %zu: %.2f%% of the samples%s",
				    r->region + 1, nr, rg[r->region].percent,
				    rg[r->region].closes_loop ? ", a loop" : "");
			return;
		}
	}
	bt_browser_set_status(b, "no hot regions here");
}

static bool
row_matches(const struct bt_row *r, const char *text)
{
	size_t i;

	if (r->text != NULL && strstr(r->text, text) != NULL)
		return true;
	if (r->target_name != NULL && strstr(r->target_name, text) != NULL)
		return true;
	/* the whole name of what the cells shorten: a search matches either form */
	if ((r->name != NULL && strstr(r->name, text) != NULL) ||
	    (r->detail != NULL && strstr(r->detail, text) != NULL))
		return true;
	for (i = 0; i < r->ncells; i++)
		if (strstr(r->cells[i].text, text) != NULL)
			return true;
	return false;
}

bool
bt_browser_search(struct bt_browser *b, const char *text, bool backward,
		  size_t height)
{
	struct screen *sc = top_screen(b);
	size_t n = bt_view_nrows(sc->view), k;

	if (text != NULL && text[0] != '\0' && text != b->search) {
		free(b->search);
		b->search = bt_xstrdup(text);
		b->search_back = backward;
	}
	if (b->search == NULL) {
		bt_browser_set_status(b, "no search yet: / to search");
		return false;
	}
	for (k = 1; k <= n; k++) {
		size_t i = backward ? (sc->nav.cursor + n - k % n) % n :
		    (sc->nav.cursor + k) % n;
		if (row_matches(bt_view_row(sc->view, i), b->search)) {
			if ((backward && i > sc->nav.cursor) ||
			    (!backward && i < sc->nav.cursor))
				bt_browser_set_status(b, "search wrapped: '%s'", b->search);
			else
				bt_browser_set_status(b, "/%s", b->search);
			sc->nav.cursor = i;
			browse_show_cursor(&sc->nav, n, height);
			return true;
		}
	}
	bt_browser_set_status(b, "pattern not found: '%s'", b->search);
	return false;
}

void
bt_browser_filter(struct bt_browser *b, const char *text)
{
	struct screen *sc = funcs_screen(b);
	struct bt_view *v;

	free(b->filter);
	b->filter = text && text[0] ? bt_xstrdup(text) : NULL;
	v = sc->ops->build(b, sc, NULL);
	if (v == NULL)
		return;
	bt_view_free(sc->view);
	sc->view = v;
	sc->nav.cursor = sc->nav.top = 0;
	sc->nav.hot = -1;
	sc->jumps.n = 0;
	if (b->filter && bt_view_nrows(v) == 0)
		bt_browser_set_status(b, "no function matches '%s': Esc clears the filter",
		    b->filter);
	else if (b->filter)
		bt_browser_set_status(b, "%zu function%s match '%s' (Esc: all)",
		    bt_view_nrows(v), bt_view_nrows(v) == 1 ? "" : "s", b->filter);
	else
		bt_browser_set_status(b, "filter cleared");
}

/* Where a screen is, in terms a new selection keeps (the table is renumbered). */
struct place {
	bool has_func, anchor_func;
	uint32_t module, anchor_module;
	uint64_t start, anchor_start;
	struct anchor a;
};

static void
func_key(const struct bt_browser *b, long fi, uint32_t *mi, uint64_t *start)
{
	*mi = bt_selection_func(b->sel, (size_t)fi)->mod;
	*start = bt_selection_func(b->sel, (size_t)fi)->start;
}

/* The table's row of the function at (mi, start), without adding it; -1 if none. */
static long
func_in_table(const struct bt_browser *b, uint32_t mi, uint64_t start)
{
	size_t i;

	for (i = 0; i < bt_selection_nfuncs(b->sel); i++)
		if (bt_selection_func(b->sel, i)->mod == mi &&
		    bt_selection_func(b->sel, i)->start == start)
			return (long)i;
	return -1;
}

/*
 * Look at another event or time window, the screens [0, keep) staying on
 * their functions and rows: a function is found again by its module and
 * address (added to the table with no samples if the new selection has
 * none there), a row by its anchor. A screen whose function has no code
 * any more ends the stack. On error nothing changes.
 */
static int
reselect(struct bt_browser *b, const char *event, double from, double to,
	 bool percent, size_t keep, size_t height, struct bt_error *err)
{
	struct place *pl = bt_xcalloc(keep + 1, sizeof(*pl));
	struct bt_selection_opts so;
	size_t i;
	long f;

	for (i = 0; i < keep; i++) {
		struct screen *sc = &b->stack.v[i];
		pl[i].a = anchor_of(sc);
		if ((pl[i].has_func = sc->func >= 0))
			func_key(b, sc->func, &pl[i].module, &pl[i].start);
		if ((pl[i].anchor_func = pl[i].a.kind == BT_ROW_FUNC &&
		    pl[i].a.func < bt_selection_nfuncs(b->sel)))
			func_key(b, (long)pl[i].a.func, &pl[i].anchor_module,
			    &pl[i].anchor_start);
	}
	so = *bt_selection_opts(b->sel);
	so.event = event;
	so.time_from = from;
	so.time_to = to;
	so.time_percent = percent;
	if (browse_select(b, &so, err) < 0) {
		free(pl);
		return -1;
	}
	while (b->stack.n > keep)
		screen_release(&b->stack.v[--b->stack.n]);
	/* the functions first: those found again join the table before it is built */
	for (i = 0; i < b->stack.n; i++) {
		if (!pl[i].has_func)
			continue;
		f = bt_selection_func_at(b->sel, pl[i].module, pl[i].start);
		if (f < 0)
			break;
		b->stack.v[i].func = f;
	}
	while (b->stack.n > BT_MAX(i, (size_t)1))
		screen_release(&b->stack.v[--b->stack.n]);
	for (i = 0; i < b->stack.n; i++) {
		struct screen *sc = &b->stack.v[i];
		struct bt_view *v;

		if (pl[i].anchor_func) {
			f = func_in_table(b, pl[i].anchor_module, pl[i].anchor_start);
			pl[i].a.func = f >= 0 ? (size_t)f : (size_t)-1;
		}
		v = sc->ops->build(b, sc, NULL);
		if (v == NULL)
			break;
		if (!install(sc, v, &pl[i].a, height) && pl[i].a.kind == BT_ROW_FUNC)
			sc->nav.cursor = sc->nav.top = 0;	/* its function left the table */
	}
	while (b->stack.n > BT_MAX(i, (size_t)1))
		screen_release(&b->stack.v[--b->stack.n]);
	free(pl);
	return 0;
}

void
browse_select_window(struct bt_browser *b, double from, double to, size_t height)
{
	struct bt_error err = { 0 };
	char msg[200];

	/* the timeline (the top screen) closes: the part of the run is chosen */
	if (reselect(b, bt_selection_event(b->sel), from, to, false, b->stack.n - 1,
	    height, &err) < 0) {
		bt_browser_set_status(b, "%s", err.msg);
		return;
	}
	if (from < 0 && to < 0)
		snprintf(msg, sizeof(msg), "the whole run: %llu samples",
		    (unsigned long long)bt_selection_samples(b->sel));
	else {
		double f, t;
		bt_selection_window(b->sel, &f, &t);
		snprintf(msg, sizeof(msg), "window %.3f-%.3f s: %llu samples", f, t,
		    (unsigned long long)bt_selection_samples(b->sel));
	}
	bt_browser_set_status(b, "%s", msg);
}

static void
next_event(struct bt_browser *b, size_t height)
{
	const struct bt_profile_info *in = bt_session_info(bt_selection_session(b->sel));
	const char *cur = bt_selection_event(b->sel);
	struct bt_error err = { 0 };
	const struct bt_selection_opts *o = bt_selection_opts(b->sel);
	size_t i, k;

	if (in->nevents < 2) {
		bt_browser_set_status(b, "the recording has one event: %s", cur);
		return;
	}
	for (i = 0; i < in->nevents; i++)
		if (strcmp(in->events[i], cur) == 0)
			break;
	/* the next event with samples (events without any are only noise) */
	for (k = 1; k < in->nevents; k++)
		if (in->event_samples[(i + k) % in->nevents] > 0)
			break;
	if (k == in->nevents) {
		bt_browser_set_status(b, "no other event has samples (%zu events)",
		    in->nevents);
		return;
	}
	i = (i + k) % in->nevents;
	if (reselect(b, in->events[i], o->time_from, o->time_to, o->time_percent,
	    b->stack.n, height, &err) < 0) {
		bt_browser_set_status(b, "%s", err.msg);
		return;
	}
	bt_browser_set_status(b, "event %s: %llu samples", in->events[i],
	    (unsigned long long)bt_selection_samples(b->sel));
}

/* The function list's filters changed: rebuild it, the cursor on its function. */
static void
refilter(struct bt_browser *b, size_t height)
{
	browse_rebuild(b, funcs_screen(b), height);
}

/*
 * Back: undo a followed jump, else leave the screen; on the function
 * list, clear its filter and zoom. Returns 1 when there is nothing to undo.
 */
static int
back(struct bt_browser *b, struct screen *sc, size_t height)
{
	if (sc->jumps.n > 0) {
		sc->nav = sc->jumps.v[--sc->jumps.n];
		return 0;
	}
	if (sc->ops == &screen_funcs && (b->filter != NULL || b->module != NULL)) {
		FREE_AND_NULL(b->filter);
		FREE_AND_NULL(b->module);
		refilter(b, height);
		bt_browser_set_status(b, "every function again");
		return 0;
	}
	if (b->stack.n == 1)
		return 1;
	browse_pop(b);
	return 0;
}

/*
 * S: the source view of the screen's function, on the line the cursor's
 * code counts for in its file; in the source view, the list of the files
 * its code comes from (headers inlined into it).
 */
static void
source_view(struct bt_browser *b, struct screen *sc, size_t height)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);
	struct screen *nsc;

	if (sc->ops == &screen_files) {
		bt_browser_set_status(b, "Enter shows the file");
		return;
	}
	if (sc->ops == &screen_source) {
		nsc = browse_push(b, &screen_files, sc->func, height);
		if (nsc == NULL)
			return;
		/* on the file shown */
		for (size_t i = 0; i < bt_view_nrows(nsc->view); i++)
			if (r != NULL && strcmp(bt_view_row(nsc->view, i)->file, r->file) == 0)
				nsc->nav.cursor = i;
		browse_show_cursor(&nsc->nav, bt_view_nrows(nsc->view), height);
		bt_browser_set_status(b, "the files %s's code comes from: Enter shows one",
		    bt_view_func(nsc->view)->short_name);
		return;
	}
	browse_source_of_row(b, sc->ops->subject(b, sc), sc->view, sc->nav.cursor, height);
}

/* A toggle of the view options: every screen rebuilt, status said. */
static void
toggled(struct bt_browser *b, size_t height, const char *fmt, const char *what)
{
	rebuild_all(b, height);
	bt_browser_set_status(b, fmt, what);
}

/* a: perf's annotate key: the function under the cursor, or a call's callee. */
static void
annotate(struct bt_browser *b, struct screen *sc, size_t height)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);
	long f = sc->ops->subject(b, sc);

	if (sc->ops == &screen_annotate || sc->ops == &screen_source) {
		if (r != NULL && (r->kind == BT_ROW_LINE || (r->flags & BT_ROW_F_CALL)))
			sc->ops->enter(b, sc, height);	/* the line's code, the callee */
		else
			bt_browser_set_status(b, "annotating %s (a on a call opens the callee)",
			    bt_view_func(sc->view)->short_name);
		return;
	}
	if (f < 0) {
		bt_browser_set_status(b, "no function here to annotate");
		return;
	}
	bt_browser_open(b, (size_t)f, height);
}

/* d: perf's zoom into a DSO: the function list of the cursor's module only; again, all. */
static void
zoom_module(struct bt_browser *b, struct screen *sc, size_t height)
{
	long f = sc->ops->subject(b, sc);

	if (b->module != NULL) {
		FREE_AND_NULL(b->module);
		refilter(b, height);
		bt_browser_set_status(b, "every module again");
		return;
	}
	if (f < 0) {
		bt_browser_set_status(b, "no function here: d zooms into its module");
		return;
	}
	b->module = bt_xstrdup(bt_selection_func(b->sel, (size_t)f)->module);
	refilter(b, height);
	bt_browser_set_status(b, "%zu functions of %s (d or Esc on the list: every module)",
	    bt_view_nrows(funcs_screen(b)->view), bt_selection_func(b->sel, (size_t)f)->module_name);
}

int
bt_browser_apply(struct bt_browser *b, enum bt_action act, size_t height)
{
	struct screen *sc = top_screen(b);

	b->status[0] = '\0';
	if (height == 0)
		height = 1;
	switch (act) {
	case BT_ACT_NONE:
	case BT_ACT_COUNT:
		break;
	case BT_ACT_UP:
		move(sc, -1, height);
		break;
	case BT_ACT_DOWN:
		move(sc, 1, height);
		break;
	case BT_ACT_PAGE_UP:
		page(sc, -1, height);
		break;
	case BT_ACT_PAGE_DOWN:
		page(sc, 1, height);
		break;
	case BT_ACT_HOME:
		sc->nav.cursor = sc->nav.top = 0;
		break;
	case BT_ACT_END:
		if (bt_view_nrows(sc->view))
			sc->nav.cursor = bt_view_nrows(sc->view) - 1;
		browse_show_cursor(&sc->nav, bt_view_nrows(sc->view), height);
		break;
	case BT_ACT_ENTER:
		if (bt_view_row(sc->view, sc->nav.cursor) != NULL)
			sc->ops->enter(b, sc, height);
		break;
	case BT_ACT_BACK:
		back(b, sc, height);
		break;
	case BT_ACT_QUIT:
		if (b->stack.n == 1)
			return 1;
		sc->jumps.n = 0;
		back(b, sc, height);
		break;
	case BT_ACT_NEXT_HOT:
		next_hot(b, sc, 1, height);
		break;
	case BT_ACT_PREV_HOT:
		next_hot(b, sc, -1, height);
		break;
	case BT_ACT_HOTTEST:
		sc->nav.hot = -1;
		next_hot(b, sc, 1, height);
		break;
	case BT_ACT_NEXT_REGION:
		next_region(b, sc, 1, height);
		break;
	case BT_ACT_PREV_REGION:
		next_region(b, sc, -1, height);
		break;
	case BT_ACT_SEARCH_NEXT:
		bt_browser_search(b, b->search, b->search_back, height);
		break;
	case BT_ACT_SEARCH_PREV:
		bt_browser_search(b, b->search, !b->search_back, height);
		break;
	case BT_ACT_TOGGLE_SOURCE:
		b->o.source = !b->o.source;
		toggled(b, height, "source lines %s", b->o.source ? "on" : "off");
		break;
	case BT_ACT_SOURCE_VIEW:
		source_view(b, sc, height);
		break;
	case BT_ACT_TOGGLE_SKID:
		b->o.skid = !b->o.skid;
		toggled(b, height, "%s attribution", b->o.skid ? "skid-adjusted" : "raw");
		break;
	case BT_ACT_CYCLE_NUM:
		b->o.num = (enum bt_numcol)((b->o.num + 1) % 3);
		toggled(b, height, "showing %s", b->o.num == BT_NUM_PERCENT ? "percent" :
		    b->o.num == BT_NUM_SAMPLES ? "samples" : "period");
		break;
	case BT_ACT_TOGGLE_PERCENT:
		b->o.global_percent = !b->o.global_percent;
		toggled(b, height, "percent of %s", b->o.global_percent ?
		    "all samples" : "the function");
		break;
	case BT_ACT_TOGGLE_SYNTAX:
		b->o.syntax = b->o.syntax == BT_ASM_ATT ? BT_ASM_INTEL : BT_ASM_ATT;
		toggled(b, height, "%s syntax", b->o.syntax == BT_ASM_ATT ? "AT&T" : "Intel");
		break;
	case BT_ACT_TOGGLE_ADDR:
		b->o.addresses = !b->o.addresses;
		toggled(b, height, "%s", b->o.addresses ? "addresses" :
		    "offsets in the function");
		break;
	case BT_ACT_BENCHES:
		bench_table(b, height);
		break;
	case BT_ACT_MARK_BENCH:
		browse_bench_mark(b, sc);
		break;
	case BT_ACT_LINT:
		if (sc->ops != &screen_lint) {
			struct screen *nsc = browse_push(b, &screen_lint, -1, height);
			if (nsc != NULL && bt_view_nrows(nsc->view) == 0)
				bt_browser_set_status(b, "no findings: nothing looks wrong with this benchmark");
		}
		break;
	case BT_ACT_CALLERS:
		browse_callers(b, sc, height);
		break;
	case BT_ACT_TOGGLE_CHILDREN:
		b->o.children = !b->o.children;
		toggled(b, height, "function list by %s samples", b->o.children ?
		    "inclusive (children)" : "self");
		break;
	case BT_ACT_TIMELINE:
		/* on the benchmark table: that benchmark's share of each slice */
		if (sc->ops == &screen_benches && !browse_bench_timeline(b, sc))
			break;
		if (sc->ops != &screen_timeline &&
		    browse_push(b, &screen_timeline, sc->ops->subject(b, sc), height) != NULL)
			bt_browser_set_status(b, "[ and ] mark the part of the run to keep, Enter keeps it, c the whole run");
		break;
	case BT_ACT_MARK_FROM:
	case BT_ACT_MARK_TO:
		if (sc->ops != &screen_timeline) {
			bt_browser_set_status(b, "[ and ] mark a window in the timeline (T)");
			break;
		}
		if (act == BT_ACT_MARK_FROM)
			sc->mark_from = (long)sc->nav.cursor;
		else
			sc->mark_to = (long)sc->nav.cursor;
		browse_rebuild(b, sc, height);
		bt_browser_set_status(b, "Enter keeps the marked part of the run");
		break;
	case BT_ACT_CLEAR_WINDOW:
		if (sc->ops == &screen_timeline)
			browse_select_window(b, -1, -1, height);
		else
			bt_browser_set_status(b, "c in the timeline (T) keeps the whole run");
		break;
	case BT_ACT_NEXT_EVENT:
		next_event(b, height);
		break;
	case BT_ACT_CYCLE_NAMES:
		b->o.names = (enum bt_names)((b->o.names + 1) % 3);
		toggled(b, height, "%s", b->o.names == BT_NAMES_SHORT ?
		    "names as perf prints them (no return type, no parameters)" :
		    b->o.names == BT_NAMES_FOLDED ? "names with template arguments folded" :
		    "whole names");
		break;
	case BT_ACT_TOGGLE_COLUMNS:
		b->columns_chosen = true;
		b->o.compact = !b->o.compact;
		toggled(b, height, "%s", b->o.compact ?
		    "compact: no skid or ±95% column (w: every column)" : "every column");
		break;
	case BT_ACT_ANNOTATE:
		annotate(b, sc, height);
		break;
	case BT_ACT_ZOOM_MODULE:
		zoom_module(b, sc, height);
		break;
	}
	return 0;
}

void
bt_browser_select(struct bt_browser *b, size_t row, size_t height)
{
	struct screen *sc = top_screen(b);

	sc->nav.cursor = row;
	if (sc->nav.cursor >= bt_view_nrows(sc->view))
		sc->nav.cursor = bt_view_nrows(sc->view) ? bt_view_nrows(sc->view) - 1 : 0;
	browse_show_cursor(&sc->nav, bt_view_nrows(sc->view), height);
}

void
bt_browser_scroll(struct bt_browser *b, long delta, size_t height)
{
	struct screen *sc = top_screen(b);
	size_t n = bt_view_nrows(sc->view);
	long top = (long)sc->nav.top + delta;
	long maxtop = n > height ? (long)(n - height) : 0;

	if (top < 0)
		top = 0;
	if (top > maxtop)
		top = maxtop;
	sc->nav.top = (size_t)top;
	if (sc->nav.cursor < sc->nav.top)
		sc->nav.cursor = sc->nav.top;
	if (sc->nav.cursor >= sc->nav.top + height)
		sc->nav.cursor = sc->nav.top + height - 1;
	if (n && sc->nav.cursor >= n)
		sc->nav.cursor = n - 1;
}

enum bt_screen_kind
bt_browser_screen(const struct bt_browser *b)
{
	return b->stack.v[b->stack.n - 1].ops->kind;
}

const struct bt_view *
bt_browser_view(const struct bt_browser *b)
{
	return b->stack.v[b->stack.n - 1].view;
}

const struct bt_nav *
bt_browser_nav(const struct bt_browser *b)
{
	return &b->stack.v[b->stack.n - 1].nav;
}

struct bt_selection *
bt_browser_selection(const struct bt_browser *b)
{
	return b->sel;
}

const struct bt_view_opts *
bt_browser_opts(const struct bt_browser *b)
{
	return &b->o;
}

const char *
bt_browser_filter_text(const struct bt_browser *b)
{
	return b->filter ? b->filter : "";
}

const char *
bt_browser_zoom(const struct bt_browser *b)
{
	const char *slash;

	if (b->module == NULL)
		return NULL;
	slash = strrchr(b->module, '/');
	return slash ? slash + 1 : b->module;
}

void
bt_browser_set_width(struct bt_browser *b, size_t width, size_t height)
{
	bool compact = width < BROWSE_COMPACT_BELOW;

	if (b->columns_chosen || compact == b->o.compact)
		return;
	b->o.compact = compact;
	rebuild_all(b, height);
}

const char *
bt_browser_status(const struct bt_browser *b)
{
	return b->status;
}

const char *
bt_browser_hint(const struct bt_browser *b)
{
	return b->stack.v[b->stack.n - 1].ops->hint;
}

size_t
bt_browser_depth(const struct bt_browser *b)
{
	return b->stack.n;
}

char *
browse_func_file_name(const struct bt_browser *b, const struct screen *sc,
		      const char *suffix)
{
	const struct bt_view_func *vf = bt_view_func(sc->view);
	const struct bt_func *f = sc->func >= 0 ? bt_selection_func(b->sel, (size_t)sc->func) :
	    NULL;
	/* perf's short form of a C++ name: a file name, not a signature */
	const char *name = vf != NULL ? vf->short_name : f != NULL ? f->name : "";
	char *out = bt_xmalloc(strlen(name) + strlen(suffix) + 1), *o = out;
	const char *p;
	bool replaced = false;

	for (p = name; *p; p++) {
		if (isspace((unsigned char)*p) || strchr("/*?<>|:,()&[]'\"\\;`$", *p)) {
			/* a run of them is one '_': "my::Table<int>" -> "my_Table_int" */
			if (!replaced && o != out)
				*o++ = '_';
			replaced = true;
			continue;
		}
		*o++ = *p;
		replaced = false;
	}
	while (o > out && replaced && o[-1] == '_')
		o--;
	strcpy(o, suffix);
	return out;
}

char *
bt_browser_export_name(const struct bt_browser *b)
{
	const struct screen *sc = &b->stack.v[b->stack.n - 1];
	char *base = sc->ops->export_name(b, sc);
	char *out = bt_xasprintf("%s.txt", base);

	free(base);
	return out;
}
