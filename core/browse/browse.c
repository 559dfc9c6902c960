/*
 * The browser as data: a stack of screens (hot functions -> annotated
 * function -> source, lint, timeline...), each a mode (screen-*.c) with a
 * view, a position and data of its own, plus the positions before
 * followed jumps. Every key of DESIGN.md's table is an action here: the
 * screen on top takes it first (its ops' action hook); what every screen
 * shares is below; an action neither takes goes to the screen that
 * answers it from anywhere (browse-int.h). The TUI only maps keys and
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

#define BROWSE_ENTRY(name) &screen_##name,
static const struct screen_ops *const screens[] = { BROWSE_SCREENS(BROWSE_ENTRY) };
#undef BROWSE_ENTRY

static struct screen *
top_screen(struct bt_browser *b)
{
	return &b->stack.v[b->stack.n - 1];
}

static const struct screen *
top_screen_const(const struct bt_browser *b)
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
browse_release(struct screen *sc)
{
	bt_view_free(sc->view);
	BT_VEC_FREE(sc->jumps);
	if (sc->ops->free != NULL)
		sc->ops->free(sc);
	bt_selection_free(sc->sel);
}

struct screen *
browse_push(struct bt_browser *b, const struct screen_ops *ops, long func,
	    const void *arg, size_t height)
{
	struct bt_error err = { 0 };
	struct screen sc;

	memset(&sc, 0, sizeof(sc));
	sc.ops = ops;
	sc.sel = bt_selection_ref(b->sel);
	sc.func = func;
	if (func >= 0) {
		sc.mod = bt_selection_func(sc.sel, (size_t)func)->mod;
		sc.start = bt_selection_func(sc.sel, (size_t)func)->start;
	}
	sc.nav.hot = -1;
	if (ops->init != NULL)
		ops->init(&sc, arg, height);
	sc.view = ops->build(b, &sc, &err);
	if (sc.view == NULL) {
		bt_browser_set_status(b, "%s", err.msg);
		browse_release(&sc);
		browse_select_top(b);
		return NULL;
	}
	BT_VEC_PUSH(b->stack, sc);
	return top_screen(b);
}

void
browse_select_top(struct bt_browser *b)
{
	struct bt_selection *sel;

	if (b->stack.n == 0 || b->sel == top_screen(b)->sel)
		return;
	sel = bt_selection_ref(top_screen(b)->sel);
	bt_selection_free(b->sel);
	b->sel = sel;
}

static void
kept_drop(struct kept_view *k)
{
	bt_view_free(k->view);
	bt_selection_free(k->sel);
	memset(k, 0, sizeof(*k));
}

void
browse_kept_clear(struct bt_browser *b)
{
	size_t i;

	for (i = 0; i < BROWSE_KEPT; i++)
		kept_drop(&b->kept[i]);
}

struct bt_view *
browse_kept_take(struct bt_browser *b, struct bt_selection *sel, size_t func)
{
	struct bt_view *v;
	size_t i;

	for (i = 0; i < BROWSE_KEPT; i++) {
		struct kept_view *k = &b->kept[i];
		if (k->view != NULL && k->sel == sel && k->func == func) {
			v = k->view;
			k->view = NULL;
			kept_drop(k);
			return v;
		}
	}
	return NULL;
}

/*
 * Keep the annotation sc closes (its view is then the browser's), the
 * oldest dropped to stay within BROWSE_KEPT views and BROWSE_KEPT_ROWS
 * rows. Only a large annotation: the other screens build at once.
 */
static void
keep(struct bt_browser *b, struct screen *sc)
{
	size_t i, rows = 0, n = sc->view != NULL ? bt_view_nrows(sc->view) : 0;
	size_t min = b->kept_min > 0 ? b->kept_min : BROWSE_KEPT_MIN;

	if (sc->ops != &screen_annotate || n < min || n > BROWSE_KEPT_ROWS)
		return;
	for (i = BROWSE_KEPT; i-- > 0;) {
		if (b->kept[i].view == NULL)
			continue;
		rows += bt_view_nrows(b->kept[i].view);
		if (i == 0 || rows + n > BROWSE_KEPT_ROWS)
			kept_drop(&b->kept[i]);
	}
	for (i = 0; i + 1 < BROWSE_KEPT; i++) {		/* newest last */
		b->kept[i] = b->kept[i + 1];
		memset(&b->kept[i + 1], 0, sizeof(b->kept[i + 1]));
	}
	b->kept[BROWSE_KEPT - 1].sel = bt_selection_ref(sc->sel);
	b->kept[BROWSE_KEPT - 1].func = (size_t)sc->func;
	b->kept[BROWSE_KEPT - 1].view = sc->view;
	sc->view = NULL;
}

/* Back to the screen below, with its own selection (the table's: every sample). */
void
browse_pop(struct bt_browser *b)
{
	if (b->stack.n > 1) {
		keep(b, &b->stack.v[b->stack.n - 1]);
		browse_release(&b->stack.v[--b->stack.n]);
	}
	browse_select_top(b);
}

struct screen *
browse_screen_on(struct bt_browser *b, size_t depth, const struct screen_ops *ops,
		 long func)
{
	struct screen *sc;

	if (depth >= b->stack.n)
		return NULL;
	sc = &b->stack.v[b->stack.n - 1 - depth];
	return sc->ops == ops && sc->func == func ? sc : NULL;
}

/* The function list: the first screen, or the one above the benchmark table. */
struct screen *
browse_func_list(struct bt_browser *b)
{
	size_t i;

	for (i = 0; i < b->stack.n; i++)
		if (b->stack.v[i].ops->func_list)
			return &b->stack.v[i];
	return &b->stack.v[0];
}

int
browse_select_bench(struct bt_browser *b, long bi, struct bt_error *err)
{
	struct bt_selection_opts o = *bt_selection_opts(b->sel);
	struct bt_selection *sel;

	o.bench = bi;
	if ((sel = bt_selection_new(bt_selection_session(b->sel), &o, err)) == NULL)
		return -1;
	bt_selection_free(b->sel);
	b->sel = sel;
	return 0;
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
	if (bt_selection_nbenches(sel) > 0 && bt_selection_bench_index(sel) < 0)
		browse_push(b, &screen_benches, -1, NULL, 0);
	if (b->stack.n == 0)
		browse_push(b, &screen_funcs, -1, NULL, 0);
	return b;
}

void
bt_browser_free(struct bt_browser *b)
{
	size_t i;

	if (b == NULL)
		return;
	for (i = 0; i < b->stack.n; i++)
		browse_release(&b->stack.v[i]);
	BT_VEC_FREE(b->stack);
	browse_kept_clear(b);
	if (b->search != NULL)
		bt_pattern_release(&b->search_re);
	free(b->search);
	free(b->filter);
	free(b->module);
	bt_selection_free(b->sel);
	free(b);
}

int
bt_browser_open(struct bt_browser *b, size_t func, size_t height)
{
	struct screen *sc;

	if (func >= bt_selection_nfuncs(b->sel))
		return -BT_EINVAL;
	sc = browse_push(b, &screen_annotate, (long)func, NULL, height);
	if (sc == NULL)
		return -BT_ENODATA;
	browse_cursor_hottest(&sc->nav, sc->view, height);
	return 0;
}

struct anchor
browse_anchor(const struct screen *sc)
{
	struct anchor a = { BT_ROW_TEXT, 0, 0, NULL, sc->nav.cursor };
	const struct bt_row *r;

	if (sc->ops->anchor != NULL)
		return sc->ops->anchor(sc);
	r = bt_view_row(sc->view, sc->nav.cursor);
	if (r != NULL) {
		a.kind = r->kind;
		a.addr = r->addr;	/* a function row's: its start */
		a.line = r->line;
		a.module = r->module;
	}
	return a;
}

static long
find_anchor(const struct bt_view *v, const struct anchor *a)
{
	size_t i;
	long at;

	/*
	 * an instruction: the first row holding its address is the first
	 * with it at its start, when that is where it starts (an
	 * annotation's rows are found with none made)
	 */
	if (a->kind == BT_ROW_INSN && (at = bt_view_find_addr(v, a->addr)) >= 0 &&
	    bt_view_row(v, (size_t)at)->addr == a->addr)
		return at;
	for (i = 0; i < bt_view_nrows(v); i++) {
		const struct bt_row *r = bt_view_row(v, i);
		if (r->kind != a->kind)
			continue;
		if ((a->kind == BT_ROW_INSN && r->addr == a->addr) ||
		    (a->kind == BT_ROW_LINE && r->line == a->line) ||
		    (a->kind == BT_ROW_FUNC && r->addr == a->addr &&
		     r->module != NULL && a->module != NULL &&
		     strcmp(r->module, a->module) == 0))
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
bool
browse_install(struct screen *sc, struct bt_view *v, const struct anchor *a,
	       size_t height)
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
	struct anchor a = browse_anchor(sc);
	struct bt_view *v = sc->ops->build(b, sc, NULL);

	if (v == NULL)
		return;
	/* a toggle changes the rows (source lines on, off): no jumps to undo */
	sc->jumps.n = 0;
	browse_install(sc, v, &a, height);
}

void
browse_rebuild_all(struct bt_browser *b, size_t height)
{
	size_t i;

	browse_kept_clear(b);
	for (i = 0; i < b->stack.n; i++)
		browse_rebuild(b, &b->stack.v[i], height);
}

/* A toggle of the view options: every screen rebuilt, status said. */
static void
toggled(struct bt_browser *b, size_t height, const char *fmt, const char *what)
{
	browse_rebuild_all(b, height);
	bt_browser_set_status(b, fmt, what);
}

/*
 * t: percent, samples, period, then the cost per op where the selection
 * has one (a benchmark with iterations), else back to percent, saying why.
 */
static void
cycle_num(struct bt_browser *b, size_t height)
{
	struct bt_view_opts *o = &b->o;
	struct bt_per_op p;
	bool none = false;

	o->num = (enum bt_numcol)((o->num + 1) % BT_NUM_COUNT);
	if (o->num == BT_NUM_PER_OP && !bt_selection_per_op(b->sel, &p)) {
		o->num = BT_NUM_PERCENT;
		none = true;
	}
	browse_rebuild_all(b, height);
	if (none)
		bt_browser_set_status(b, "showing percent (%s)", p.why);
	else if (o->num == BT_NUM_PER_OP)
		bt_browser_set_status(b, "showing %s per op of '%s' (JMH's norm)",
		    strcmp(p.unit, "ns") == 0 ? "time" : "cycles", p.bench);
	else
		bt_browser_set_status(b, "showing %s", o->num == BT_NUM_PERCENT ?
		    "percent" : o->num == BT_NUM_SAMPLES ? "samples" : "period");
}

/* The view options' toggles: true when act is one of those. */
static bool
toggle(struct bt_browser *b, enum bt_action act, size_t height)
{
	struct bt_view_opts *o = &b->o;

	switch (act) {
	case BT_ACT_TOGGLE_SOURCE:
		o->source = !o->source;
		toggled(b, height, "source lines %s", o->source ? "on" : "off");
		return true;
	case BT_ACT_TOGGLE_SKID:
		o->skid = !o->skid;
		toggled(b, height, "%s attribution", o->skid ? "skid-adjusted" : "raw");
		return true;
	case BT_ACT_CYCLE_NUM:
		cycle_num(b, height);
		return true;
	case BT_ACT_TOGGLE_PERCENT:
		o->global_percent = !o->global_percent;
		toggled(b, height, "percent of %s", o->global_percent ?
		    "all samples" : "the function");
		return true;
	case BT_ACT_TOGGLE_SYNTAX:
		o->syntax = o->syntax == BT_ASM_ATT ? BT_ASM_INTEL : BT_ASM_ATT;
		toggled(b, height, "%s syntax", o->syntax == BT_ASM_ATT ? "AT&T" : "Intel");
		return true;
	case BT_ACT_TOGGLE_ADDR:
		o->addresses = !o->addresses;
		toggled(b, height, "%s", o->addresses ? "addresses" :
		    "offsets in the function");
		return true;
	case BT_ACT_TOGGLE_CHILDREN:
		o->children = !o->children;
		toggled(b, height, "function list by %s samples", o->children ?
		    "inclusive (children)" : "self");
		return true;
	case BT_ACT_CYCLE_NAMES:
		o->names = (enum bt_names)((o->names + 1) % 3);
		toggled(b, height, "%s", o->names == BT_NAMES_SHORT ?
		    "names as perf prints them (no return type, no parameters)" :
		    o->names == BT_NAMES_FOLDED ? "names with template arguments folded" :
		    "whole names");
		return true;
	case BT_ACT_TOGGLE_COLUMNS:
		b->columns_chosen = true;
		o->compact = !o->compact;
		toggled(b, height, "%s", o->compact ?
		    "compact: no skid or ±95% column (w: every column)" : "every column");
		return true;
	default:
		return false;
	}
}

/* What every screen shares: true when act is one of those. */
static bool
common(struct bt_browser *b, struct screen *sc, enum bt_action act,
       const char *text, size_t height)
{
	switch (act) {
	case BT_ACT_NONE:
	case BT_ACT_COUNT:
		return true;
	case BT_ACT_ENTER:
		if (bt_view_row(sc->view, sc->nav.cursor) != NULL)
			sc->ops->enter(b, sc, height);
		return true;
	case BT_ACT_QUIT:
		sc->jumps.n = 0;
		/* FALLTHROUGH */
	case BT_ACT_BACK:
		/* undo a followed jump, else leave the screen (not the first) */
		if (sc->jumps.n > 0)
			sc->nav = sc->jumps.v[--sc->jumps.n];
		else if (b->stack.n > 1)
			browse_pop(b);
		return true;
	case BT_ACT_SEARCH:
	case BT_ACT_SEARCH_BACK:
		if (text != NULL && text[0] != '\0')
			bt_browser_search(b, text, act == BT_ACT_SEARCH_BACK, height);
		return true;
	case BT_ACT_SEARCH_NEXT:
		bt_browser_search(b, b->search, b->search_back, height);
		return true;
	case BT_ACT_SEARCH_PREV:
		bt_browser_search(b, b->search, !b->search_back, height);
		return true;
	case BT_ACT_NEXT_EVENT:
		browse_next_event(b, height);
		return true;
	default:
		return browse_navigate(b, sc, act, height) || toggle(b, act, height);
	}
}

/*
 * act on the top screen: its own meaning first, then what every screen
 * shares, then the screen that answers act from anywhere, else what act
 * is for on the screen that takes it.
 */
static int
dispatch(struct bt_browser *b, enum bt_action act, const char *text, size_t height)
{
	struct screen *sc = top_screen(b);
	const struct screen_key *k;
	size_t i;

	if (height == 0)
		height = 1;
	if (act == BT_ACT_QUIT && b->stack.n == 1)
		return 1;
	if (sc->ops->action != NULL && sc->ops->action(b, sc, act, text, height))
		return 0;
	if (common(b, sc, act, text, height))
		return 0;
	for (i = 0; i < BT_ARRAY_SIZE(screens); i++) {
		if (screens[i]->opens == act) {
			screens[i]->open(b, sc, height);
			return 0;
		}
		for (k = screens[i]->keys; k != NULL && k->action != BT_ACT_NONE; k++)
			if (k->action == act) {
				bt_browser_set_status(b, "%s", k->elsewhere);
				return 0;
			}
	}
	return 0;
}

/* An action, then the top screen's selection is the browser's, whatever it did. */
static int
apply(struct bt_browser *b, enum bt_action act, const char *text, size_t height)
{
	int ret = dispatch(b, act, text, height);

	browse_select_top(b);
	return ret;
}

int
bt_browser_apply(struct bt_browser *b, enum bt_action act, size_t height)
{
	b->status[0] = '\0';
	return apply(b, act, NULL, height);
}

/* The status stays when nothing was typed: the prompt was all that happened. */
int
bt_browser_apply_text(struct bt_browser *b, enum bt_action act, const char *text,
		      size_t height)
{
	return apply(b, act, text != NULL ? text : "", height);
}

const char *
bt_browser_prompt(const struct bt_browser *b, enum bt_action act)
{
	const struct screen *sc = top_screen_const(b);
	const char *label = sc->ops->prompt != NULL ? sc->ops->prompt(b, sc, act) : NULL;

	if (label != NULL)
		return label;
	return act == BT_ACT_SEARCH ? "/" : act == BT_ACT_SEARCH_BACK ? "?" : NULL;
}

const char *
bt_browser_screen(const struct bt_browser *b)
{
	return top_screen_const(b)->ops->name;
}

const struct bt_view *
bt_browser_view(const struct bt_browser *b)
{
	return top_screen_const(b)->view;
}

const struct bt_nav *
bt_browser_nav(const struct bt_browser *b)
{
	return &top_screen_const(b)->nav;
}

const struct bt_view_opts *
bt_browser_opts(const struct bt_browser *b)
{
	return &b->o;
}

struct bt_selection *
bt_browser_selection(const struct bt_browser *b)
{
	return b->sel;
}

void
bt_browser_set_width(struct bt_browser *b, size_t width, size_t height)
{
	bool compact = width < BROWSE_COMPACT_BELOW;

	if ((b->columns_chosen || compact == b->o.compact) && width == b->o.width)
		return;
	if (!b->columns_chosen)
		b->o.compact = compact;
	b->o.width = width;
	browse_rebuild_all(b, height);
}

const char *
bt_browser_status(const struct bt_browser *b)
{
	return b->status;
}

const char *
bt_browser_hint(const struct bt_browser *b)
{
	return top_screen_const(b)->ops->hint;
}

const char *
bt_browser_title_note(const struct bt_browser *b, char *buf, size_t len)
{
	const struct screen *sc = top_screen_const(b);

	if (len > 0)
		buf[0] = '\0';
	if (sc->ops->title_note != NULL && len > 0)
		sc->ops->title_note(b, sc, buf, len);
	return buf;
}

const char *
bt_browser_scope(const struct bt_browser *b, char *buf, size_t len)
{
	const struct screen *sc = top_screen_const(b);

	if (len > 0)
		buf[0] = '\0';
	if (sc->ops->scope != NULL && len > 0)
		sc->ops->scope(b, sc, buf, len);
	return buf;
}

bool
bt_browser_pane(const struct bt_browser *b, struct bt_pane *p)
{
	const struct screen *sc = top_screen_const(b);
	struct bt_pane none;

	if (p == NULL)
		p = &none;
	p->head[0] = '\0';
	p->text = NULL;
	return sc->ops->pane != NULL && sc->ops->pane(b, sc, p);
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
	const struct bt_func *f = sc->func >= 0 ? bt_selection_func(sc->sel, (size_t)sc->func) :
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
	const struct screen *sc = top_screen_const(b);
	char *base = sc->ops->export_name(b, sc);
	char *out = bt_xasprintf("%s.txt", base);

	free(base);
	return out;
}

struct bt_view *
bt_browser_export_view(struct bt_browser *b, struct bt_error *err)
{
	const struct screen *sc = top_screen_const(b);
	bool whole = b->o.whole_names;
	struct bt_view *v;

	b->o.whole_names = true;
	v = sc->ops->build(b, sc, err);
	b->o.whole_names = whole;
	return v;
}
