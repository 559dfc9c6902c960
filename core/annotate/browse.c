/*
 * The browser as data: a stack of screens (hot functions -> annotated
 * function -> source), each a view and a position, plus a history of
 * followed jumps per screen. Every key of DESIGN.md's table is an action
 * here; the TUI only maps keys and paints.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "annotate/annotate-int.h"
#include "annotate/session-int.h"
#include "benchtui/browse.h"

struct screen {
	enum bt_screen_kind kind;
	size_t func;
	struct bt_view *view;
	struct bt_nav nav;
	BT_VEC(struct bt_nav) jumps;	/* positions before followed jumps */
};

struct bt_browser;
static void apply_window(struct bt_browser *b, struct screen *sc, bool whole);

struct bt_browser {
	struct bt_session *s;
	struct bt_view_opts o;
	BT_VEC(struct screen) stack;
	char *search;
	bool search_back;
	char *filter;
	char status[512];
	size_t tl_bins;		/* timeline slices */
	long mark_from, mark_to;	/* timeline marks, -1 none */
};

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

/* Keep the cursor on screen; center it when it had to move far. */
static void
show_cursor(struct bt_nav *n, size_t nrows, size_t height)
{
	if (height == 0)
		height = 1;
	if (nrows == 0) {
		n->cursor = n->top = 0;
		return;
	}
	if (n->cursor >= nrows)
		n->cursor = nrows - 1;
	if (n->cursor < n->top || n->cursor >= n->top + height) {
		n->top = n->cursor > height / 2 ? n->cursor - height / 2 : 0;
	}
	if (n->top + height > nrows)
		n->top = nrows > height ? nrows - height : 0;
}

static struct bt_view *
build(struct bt_browser *b, enum bt_screen_kind kind, size_t func,
      struct bt_error *err)
{
	struct bt_view_opts o = b->o;

	switch (kind) {
	case BT_SCREEN_FUNCS:
		o.filter = b->filter;
		return bt_view_functions(b->s, &o, 0);
	case BT_SCREEN_ANNOTATE:
		return bt_view_annotate(b->s, func, &o, err);
	case BT_SCREEN_SOURCE:
		return bt_view_source(b->s, func, &o, err);
	case BT_SCREEN_LINT:
		return bt_view_findings(b->s);
	case BT_SCREEN_TIMELINE:
		return bt_view_timeline(b->s, (long)func, b->tl_bins, b->mark_from,
		    b->mark_to);
	}
	return NULL;
}

static void
screen_release(struct screen *sc)
{
	bt_view_free(sc->view);
	BT_VEC_FREE(sc->jumps);
}

static struct screen *
push(struct bt_browser *b, enum bt_screen_kind kind, size_t func,
     struct bt_view *v)
{
	struct screen sc;

	memset(&sc, 0, sizeof(sc));
	sc.kind = kind;
	sc.func = func;
	sc.view = v;
	sc.nav.hot = -1;
	BT_VEC_PUSH(b->stack, sc);
	return top_screen(b);
}

struct bt_browser *
bt_browser_new(struct bt_session *s, const struct bt_view_opts *o)
{
	struct bt_browser *b = bt_xcalloc(1, sizeof(*b));

	b->s = s;
	if (o != NULL)
		b->o = *o;
	else
		bt_view_opts_init(&b->o);
	b->o.filter = NULL;
	b->mark_from = b->mark_to = -1;
	push(b, BT_SCREEN_FUNCS, 0, build(b, BT_SCREEN_FUNCS, 0, NULL));
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
	free(b);
}

/* Cursor on the hottest row of v (the first in its hot order). */
static void
cursor_hottest(struct bt_nav *n, const struct bt_view *v, size_t height)
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
	show_cursor(n, bt_view_nrows(v), height);
}

int
bt_browser_open(struct bt_browser *b, size_t func, size_t height)
{
	struct bt_error err = { 0 };
	struct bt_view *v;
	struct screen *sc;

	if (func >= bt_session_nfuncs(b->s))
		return -BT_EINVAL;
	v = build(b, BT_SCREEN_ANNOTATE, func, &err);
	if (v == NULL) {
		bt_browser_set_status(b, "%s", err.msg);
		return -err.code;
	}
	sc = push(b, BT_SCREEN_ANNOTATE, func, v);
	cursor_hottest(&sc->nav, v, height);
	return 0;
}

/* A stable key for the row under the cursor, to find it again after a rebuild. */
struct anchor {
	enum bt_row_kind kind;
	uint64_t addr;
	unsigned line;
	size_t func;
};

static struct anchor
anchor_of(const struct screen *sc)
{
	struct anchor a = { BT_ROW_TEXT, 0, 0, 0 };
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);
	const struct bt_view *v = sc->view;
	size_t i;

	if (r == NULL)
		return a;
	a.kind = r->kind;
	a.addr = r->addr;
	a.line = r->line;
	a.func = r->func;
	/* a source or inline row stands for the instruction after it */
	if (r->kind == BT_ROW_SOURCE || r->kind == BT_ROW_INLINE)
		for (i = sc->nav.cursor; i < bt_view_nrows(v); i++)
			if (bt_view_row(v, i)->kind == BT_ROW_INSN) {
				a.kind = BT_ROW_INSN;
				a.addr = bt_view_row(v, i)->addr;
				break;
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
	return -1;
}

/* Rebuild every screen's view after a toggle, keeping each cursor on its row. */
static void
rebuild(struct bt_browser *b, size_t height)
{
	size_t i;

	for (i = 0; i < b->stack.n; i++) {
		struct screen *sc = &b->stack.v[i];
		struct anchor a = anchor_of(sc);
		struct bt_view *v = build(b, sc->kind, sc->func, NULL);
		long row;
		size_t off = sc->nav.cursor >= sc->nav.top ? sc->nav.cursor - sc->nav.top : 0;

		if (v == NULL)
			continue;
		bt_view_free(sc->view);
		sc->view = v;
		sc->jumps.n = 0;
		sc->nav.hot = -1;
		row = find_anchor(v, &a);
		if (row >= 0) {
			sc->nav.cursor = (size_t)row;
			sc->nav.top = sc->nav.cursor >= off ? sc->nav.cursor - off : 0;
		}
		show_cursor(&sc->nav, bt_view_nrows(v), height);
	}
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
	show_cursor(&sc->nav, bt_view_nrows(sc->view), height);
	bt_browser_set_status(b, "hot %ld of %zu", sc->nav.hot + 1, nh);
}

static void
next_region(struct bt_browser *b, struct screen *sc, int dir, size_t height)
{
	size_t n = bt_view_nrows(sc->view), i, k;

	for (k = 1; k <= n; k++) {
		i = (sc->nav.cursor + n + (size_t)dir * k) % n;
		const struct bt_row *r = bt_view_row(sc->view, i);
		if (r->flags & BT_ROW_F_REGION_START) {
			sc->nav.cursor = i;
			show_cursor(&sc->nav, n, height);
			bt_browser_set_status(b, "hot region %d: %.2f%% starts here",
			    r->region + 1, r->percent);
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
			show_cursor(&sc->nav, n, height);
			return true;
		}
	}
	bt_browser_set_status(b, "pattern not found: '%s'", b->search);
	return false;
}

void
bt_browser_filter(struct bt_browser *b, const char *text)
{
	struct screen *sc = &b->stack.v[0];
	struct bt_view *v;

	free(b->filter);
	b->filter = text && text[0] ? bt_xstrdup(text) : NULL;
	v = build(b, BT_SCREEN_FUNCS, 0, NULL);
	bt_view_free(sc->view);
	sc->view = v;
	sc->nav.cursor = sc->nav.top = 0;
	sc->nav.hot = -1;
	if (b->filter)
		bt_browser_set_status(b, "%zu functions match '%s'", bt_view_nrows(v),
		    b->filter);
	else
		bt_browser_set_status(b, "filter cleared");
}

/* Enter on a source-view line: its hottest instruction in the annotation. */
static void
line_to_code(struct bt_browser *b, struct screen *sc, size_t height)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);
	struct bt_error err = { 0 };
	struct bt_annotation *a;
	struct bt_view *v;
	struct screen *nsc;
	long best = -1;
	double bw = -1;
	size_t i, func = sc->func;
	const char *file;

	if (r == NULL || r->kind != BT_ROW_LINE)
		return;
	v = build(b, BT_SCREEN_ANNOTATE, func, &err);
	if (v == NULL) {
		bt_browser_set_status(b, "%s", err.msg);
		return;
	}
	a = bt_session_annotation(b->s, func, NULL);
	file = r->file;
	for (i = 0; i < bt_view_nrows(v); i++) {
		const struct bt_row *ir = bt_view_row(v, i);

		if (ir->kind != BT_ROW_INSN)
			continue;
		if (bt_annotation_line_in(a, &a->insns.v[ir->insn], file) == r->line &&
		    ir->weight > bw) {
			bw = ir->weight;
			best = (long)i;
		}
	}
	if (best < 0) {
		bt_view_free(v);
		bt_browser_set_status(b, "no instructions for line %u", r->line);
		return;
	}
	nsc = push(b, BT_SCREEN_ANNOTATE, func, v);
	nsc->nav.cursor = (size_t)best;
	show_cursor(&nsc->nav, bt_view_nrows(v), height);
}

static void
open_source(struct bt_browser *b, size_t func, const char *file, unsigned line,
	    size_t height)
{
	struct bt_error err = { 0 };
	struct bt_view *v = build(b, BT_SCREEN_SOURCE, func, &err);
	struct screen *sc;
	long row;

	if (v == NULL) {
		bt_browser_set_status(b, "%s", err.msg);
		return;
	}
	sc = push(b, BT_SCREEN_SOURCE, func, v);
	row = line && file && bt_view_nrows(v) &&
	    strcmp(bt_view_row(v, 0)->file, file) == 0 ? bt_view_find_line(v, line) : -1;
	if (row >= 0) {
		sc->nav.cursor = (size_t)row;
		show_cursor(&sc->nav, bt_view_nrows(v), height);
	} else
		cursor_hottest(&sc->nav, v, height);
}

static void
enter(struct bt_browser *b, struct screen *sc, size_t height)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);

	if (r == NULL)
		return;
	switch (sc->kind) {
	case BT_SCREEN_FUNCS:
		bt_browser_open(b, r->func, height);
		return;
	case BT_SCREEN_SOURCE:
		line_to_code(b, sc, height);
		return;
	case BT_SCREEN_LINT:
		if (r->func != (size_t)-1)
			bt_browser_open(b, r->func, height);
		else
			bt_browser_set_status(b, "this finding is about the whole run");
		return;
	case BT_SCREEN_TIMELINE:
		apply_window(b, sc, false);
		return;
	case BT_SCREEN_ANNOTATE:
		break;
	}
	if (r->kind != BT_ROW_INSN) {
		bt_browser_set_status(b, "Enter follows a jump or opens a call");
		return;
	}
	if ((r->flags & BT_ROW_F_JUMP) && r->target_row >= 0) {
		BT_VEC_PUSH(sc->jumps, sc->nav);
		sc->nav.cursor = (size_t)r->target_row;
		show_cursor(&sc->nav, bt_view_nrows(sc->view), height);
		bt_browser_set_status(b, "jumped to %s (<- back)",
		    r->target_name ? r->target_name : "target");
		return;
	}
	if (r->flags & BT_ROW_F_CALL) {
		long f = bt_session_callee(b->s, sc->func, r->target);
		if (f < 0) {
			bt_browser_set_status(b, "no code for the callee %s",
			    r->target_name ? r->target_name : "");
			return;
		}
		if (bt_browser_open(b, (size_t)f, height) == 0)
			bt_browser_set_status(b, "opened %s (<- back)",
			    bt_session_func(b->s, (size_t)f)->name);
		return;
	}
	if (r->flags & BT_ROW_F_JUMP)
		bt_browser_set_status(b, "the jump leaves the function (%s)",
		    r->target_name ? r->target_name : "?");
	else
		bt_browser_set_status(b, "not a jump or a call");
}

/* After the event or window changed: only the function list stays, rebuilt. */
static void
reset_to_functions(struct bt_browser *b)
{
	struct screen *sc;

	while (b->stack.n > 1)
		screen_release(&b->stack.v[--b->stack.n]);
	sc = &b->stack.v[0];
	bt_view_free(sc->view);
	sc->view = build(b, BT_SCREEN_FUNCS, 0, NULL);
	sc->jumps.n = 0;
	sc->nav.cursor = sc->nav.top = 0;
	sc->nav.hot = -1;
}

static void
open_timeline(struct bt_browser *b, struct screen *sc, size_t height)
{
	long func = -1;
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);
	struct screen *nsc;

	if (sc->kind == BT_SCREEN_TIMELINE)
		return;
	if (sc->kind == BT_SCREEN_FUNCS && r != NULL)
		func = (long)r->func;
	else if (sc->kind == BT_SCREEN_ANNOTATE || sc->kind == BT_SCREEN_SOURCE)
		func = (long)sc->func;
	b->tl_bins = height > 4 ? BT_MIN(height, 200) : 20;
	b->mark_from = b->mark_to = -1;
	nsc = push(b, BT_SCREEN_TIMELINE, (size_t)func,
	    build(b, BT_SCREEN_TIMELINE, (size_t)func, NULL));
	(void)nsc;
	bt_browser_set_status(b, "[ and ] mark the part of the run to keep, Enter keeps it, c the whole run");
}

/* Redraw the timeline with the marks, cursor kept. */
static void
remark(struct bt_browser *b, struct screen *sc)
{
	bt_view_free(sc->view);
	sc->view = build(b, BT_SCREEN_TIMELINE, sc->func, NULL);
}

static void
apply_window(struct bt_browser *b, struct screen *sc, bool whole)
{
	struct bt_error err = { 0 };
	const struct bt_row *from, *to;
	double t0 = -1, t1 = -1;
	char msg[200];

	if (!whole) {
		long lo = b->mark_from >= 0 ? b->mark_from : (long)sc->nav.cursor;
		long hi = b->mark_to >= 0 ? b->mark_to : -1;
		from = bt_view_row(sc->view, (size_t)lo);
		to = hi >= 0 ? bt_view_row(sc->view, (size_t)hi) : NULL;
		if (from == NULL)
			return;
		t0 = from->t_from;
		t1 = to ? to->t_to : -1;
		if (to != NULL && t1 <= t0) {
			bt_browser_set_status(b, "the end mark is before the start mark");
			return;
		}
	}
	if (bt_session_select(b->s, bt_session_event(b->s), t0, t1, false, &err) < 0) {
		bt_browser_set_status(b, "%s", err.msg);
		return;
	}
	if (whole)
		snprintf(msg, sizeof(msg), "the whole run: %llu samples",
		    (unsigned long long)bt_session_samples(b->s));
	else {
		double f, t;
		bt_session_window(b->s, &f, &t);
		snprintf(msg, sizeof(msg), "window %.3f-%.3f s: %llu samples", f, t,
		    (unsigned long long)bt_session_samples(b->s));
	}
	reset_to_functions(b);
	bt_browser_set_status(b, "%s", msg);
}

static void
next_event(struct bt_browser *b)
{
	const struct bt_profile_info *in = bt_session_info(b->s);
	const char *cur = bt_session_event(b->s);
	struct bt_error err = { 0 };
	const struct bt_session_opts *o = bt_session_opts(b->s);
	size_t i;

	if (in->nevents < 2) {
		bt_browser_set_status(b, "the recording has one event: %s", cur);
		return;
	}
	for (i = 0; i < in->nevents; i++)
		if (strcmp(in->events[i], cur) == 0)
			break;
	i = (i + 1) % in->nevents;
	if (bt_session_select(b->s, in->events[i], o->time_from, o->time_to,
	    o->time_percent, &err) < 0) {
		bt_browser_set_status(b, "%s", err.msg);
		return;
	}
	reset_to_functions(b);
	bt_browser_set_status(b, "event %s: %llu samples", in->events[i],
	    (unsigned long long)bt_session_samples(b->s));
}

/* Back: undo a followed jump, else leave the screen. Returns 1 on the first screen. */
static int
back(struct bt_browser *b, struct screen *sc)
{
	if (sc->jumps.n > 0) {
		sc->nav = sc->jumps.v[--sc->jumps.n];
		return 0;
	}
	if (b->stack.n == 1)
		return 1;
	screen_release(sc);
	b->stack.n--;
	return 0;
}

int
bt_browser_apply(struct bt_browser *b, enum bt_action act, size_t height)
{
	struct screen *sc = top_screen(b);
	const struct bt_row *r;

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
		show_cursor(&sc->nav, bt_view_nrows(sc->view), height);
		break;
	case BT_ACT_ENTER:
		enter(b, sc, height);
		break;
	case BT_ACT_BACK:
		back(b, sc);
		break;
	case BT_ACT_QUIT:
		if (b->stack.n == 1)
			return 1;
		sc->jumps.n = 0;
		back(b, sc);
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
		rebuild(b, height);
		bt_browser_set_status(b, "source lines %s", b->o.source ? "on" : "off");
		break;
	case BT_ACT_SOURCE_VIEW:
		r = bt_view_row(sc->view, sc->nav.cursor);
		if (r == NULL)
			break;
		if (sc->kind == BT_SCREEN_FUNCS)
			open_source(b, r->func, NULL, 0, height);
		else if (sc->kind == BT_SCREEN_ANNOTATE)
			open_source(b, sc->func, r->file, r->line, height);
		else
			bt_browser_set_status(b, "already in the source view");
		break;
	case BT_ACT_TOGGLE_SKID:
		b->o.skid = !b->o.skid;
		rebuild(b, height);
		bt_browser_set_status(b, "%s attribution", b->o.skid ?
		    "skid-adjusted" : "raw");
		break;
	case BT_ACT_CYCLE_NUM:
		b->o.num = (enum bt_numcol)((b->o.num + 1) % 3);
		rebuild(b, height);
		bt_browser_set_status(b, "showing %s", b->o.num == BT_NUM_PERCENT ?
		    "percent" : b->o.num == BT_NUM_SAMPLES ? "samples" : "period");
		break;
	case BT_ACT_TOGGLE_PERCENT:
		b->o.global_percent = !b->o.global_percent;
		rebuild(b, height);
		bt_browser_set_status(b, "percent of %s", b->o.global_percent ?
		    "all samples" : "the function");
		break;
	case BT_ACT_TOGGLE_SYNTAX:
		bt_session_set_syntax(b->s, bt_session_opts(b->s)->syntax == BT_ASM_ATT ?
		    BT_ASM_INTEL : BT_ASM_ATT);
		rebuild(b, height);
		bt_browser_set_status(b, "%s syntax",
		    bt_session_opts(b->s)->syntax == BT_ASM_ATT ? "AT&T" : "Intel");
		break;
	case BT_ACT_LINT:
		if (sc->kind != BT_SCREEN_LINT) {
			struct screen *nsc = push(b, BT_SCREEN_LINT, 0,
			    build(b, BT_SCREEN_LINT, 0, NULL));
			if (bt_view_nrows(nsc->view) == 0)
				bt_browser_set_status(b, "no findings: nothing looks wrong with this benchmark");
		}
		break;
	case BT_ACT_TIMELINE:
		open_timeline(b, sc, height);
		break;
	case BT_ACT_MARK_FROM:
	case BT_ACT_MARK_TO:
		if (sc->kind != BT_SCREEN_TIMELINE) {
			bt_browser_set_status(b, "[ and ] mark a window in the timeline (T)");
			break;
		}
		if (act == BT_ACT_MARK_FROM)
			b->mark_from = (long)sc->nav.cursor;
		else
			b->mark_to = (long)sc->nav.cursor;
		remark(b, sc);
		bt_browser_set_status(b, "Enter keeps the marked part of the run");
		break;
	case BT_ACT_CLEAR_WINDOW:
		if (sc->kind == BT_SCREEN_TIMELINE)
			apply_window(b, sc, true);
		else
			bt_browser_set_status(b, "c in the timeline (T) keeps the whole run");
		break;
	case BT_ACT_NEXT_EVENT:
		next_event(b);
		break;
	case BT_ACT_TOGGLE_ADDR:
		b->o.addresses = !b->o.addresses;
		rebuild(b, height);
		bt_browser_set_status(b, "%s", b->o.addresses ? "addresses" :
		    "offsets in the function");
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
	show_cursor(&sc->nav, bt_view_nrows(sc->view), height);
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
	return b->stack.v[b->stack.n - 1].kind;
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
bt_browser_status(const struct bt_browser *b)
{
	return b->status;
}

size_t
bt_browser_depth(const struct bt_browser *b)
{
	return b->stack.n;
}

char *
bt_browser_export_name(const struct bt_browser *b)
{
	const struct screen *sc = &b->stack.v[b->stack.n - 1];
	const char *name = sc->kind == BT_SCREEN_FUNCS ? "functions" :
	    bt_session_func(b->s, sc->func)->name;
	char *out = bt_xasprintf("%s%s.txt", name,
	    sc->kind == BT_SCREEN_SOURCE ? ".source" : "");
	char *p;

	for (p = out; *p; p++)
		if (*p == '/' || isspace((unsigned char)*p) || *p == '*' ||
		    *p == '?' || *p == '<' || *p == '>' || *p == '|' || *p == ':')
			*p = '_';
	return out;
}
