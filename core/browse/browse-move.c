/*
 * Moving in a screen's view: the cursor, pages, hot rows (Tab), hot
 * regions (r), searching (/ ? n N), the mouse's clicks and wheel. The same
 * on every screen: each view says which rows are hot and where its
 * regions start.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "browse/browse-int.h"
#include "symbols/symbols.h"

static struct screen *
top_screen(struct bt_browser *b)
{
	return &b->stack.v[b->stack.n - 1];
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

/* "hot region 1 of 2: 99.86% of the samples, a loop, 1040 ns/op" */
static void
region_status(struct bt_browser *b, const struct bt_view *v,
	      const struct bt_view_region *rg, int k, size_t nr)
{
	const struct bt_per_op *po = bt_view_per_op(v);
	char per[64] = "";

	if (po != NULL && isfinite(rg[k].per_op))
		snprintf(per, sizeof(per), ", %.*f %s/op", bt_per_op_decimals(rg[k].per_op),
		    rg[k].per_op, strcmp(po->unit, "ns") == 0 ? "ns" : "cycles");
	bt_browser_set_status(b, "hot region %d of %zu: %.2f%% of the samples%s%s",
	    k + 1, nr, rg[k].percent, rg[k].closes_loop ? ", a loop" : "", per);
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
				region_status(b, sc->view, rg, r->region, nr);
			return;
		}
	}
	bt_browser_set_status(b, "no hot regions here");
}

/* Does re match name in any form it is shown in (whole, perf's short form, folded)? */
static bool
name_matches(const regex_t *re, const char *name)
{
	char stack[1024], *buf = stack;
	size_t len = strlen(name) * 2 + 16;	/* folding adds 3 bytes per 2 */
	bool found = bt_pattern_match(re, name);
	int fold;

	if (found || strchr(name, '(') == NULL)
		return found;
	if (len > sizeof(stack))
		buf = bt_xmalloc(len);
	for (fold = 0; fold < 2 && !found; fold++)
		found = bt_name_short(name, fold, buf, len) != NULL && buf[0] &&
		    bt_pattern_match(re, buf);
	if (buf != stack)
		free(buf);
	return found;
}

/*
 * Does re match row r: its text (an instruction, a source line), a name
 * in any form, or the row's whole text as shown (its cells, the branch
 * arrows' lanes left out)?
 */
static bool
row_matches(const struct bt_row *r, const regex_t *re, struct bt_strbuf *sb)
{
	size_t i;

	if (bt_pattern_match(re, r->text) || bt_pattern_match(re, r->target_name))
		return true;
	/* the whole name of what the cells shorten: a search matches either form */
	if ((r->name != NULL && name_matches(re, r->name)) ||
	    (r->detail != NULL && name_matches(re, r->detail)))
		return true;
	bt_strbuf_reset(sb);
	for (i = 0; i < r->ncells; i++)
		if (r->cells[i].style != BT_STYLE_ARROW)
			bt_strbuf_addstr(sb, r->cells[i].text);
	return bt_pattern_match(re, sb->buf);
}

/* A new search: text compiled, or false with the reason on the status line. */
static bool
new_search(struct bt_browser *b, const char *text, bool backward)
{
	struct bt_error err = { 0 };
	regex_t re;

	if (bt_pattern_compile(&re, text, &err) < 0) {
		bt_browser_set_status(b, "%s", err.msg);
		return false;
	}
	if (b->search != NULL)
		bt_pattern_release(&b->search_re);
	free(b->search);
	b->search = bt_xstrdup(text);
	b->search_re = re;
	b->search_back = backward;
	return true;
}

bool
bt_browser_search(struct bt_browser *b, const char *text, bool backward,
		  size_t height)
{
	struct screen *sc = top_screen(b);
	size_t n = bt_view_nrows(sc->view), k;
	struct bt_strbuf sb = BT_STRBUF_INIT;
	bool found = false;

	if (text != NULL && text[0] != '\0' && text != b->search &&
	    !new_search(b, text, backward))
		return false;
	if (b->search == NULL) {
		bt_browser_set_status(b, "no search yet: / to search");
		return false;
	}
	for (k = 1; k <= n && !found; k++) {
		size_t i = backward ? (sc->nav.cursor + n - k % n) % n :
		    (sc->nav.cursor + k) % n;
		if (!row_matches(bt_view_row(sc->view, i), &b->search_re, &sb))
			continue;
		if ((backward && i >= sc->nav.cursor) || (!backward && i <= sc->nav.cursor))
			bt_browser_set_status(b, "search wrapped %s: '%s'",
			    backward ? "to the bottom" : "to the top", b->search);
		else
			bt_browser_set_status(b, "/%s", b->search);
		sc->nav.cursor = i;
		browse_show_cursor(&sc->nav, n, height);
		found = true;
	}
	bt_strbuf_release(&sb);
	if (!found)
		bt_browser_set_status(b, "pattern not found: '%s'", b->search);
	return found;
}

/* Moving the cursor: true when act is one of those. */
bool
browse_navigate(struct bt_browser *b, struct screen *sc, enum bt_action act,
		size_t height)
{
	switch (act) {
	case BT_ACT_UP:
		move(sc, -1, height);
		return true;
	case BT_ACT_DOWN:
		move(sc, 1, height);
		return true;
	case BT_ACT_PAGE_UP:
		page(sc, -1, height);
		return true;
	case BT_ACT_PAGE_DOWN:
		page(sc, 1, height);
		return true;
	case BT_ACT_HOME:
		sc->nav.cursor = sc->nav.top = 0;
		return true;
	case BT_ACT_END:
		if (bt_view_nrows(sc->view))
			sc->nav.cursor = bt_view_nrows(sc->view) - 1;
		browse_show_cursor(&sc->nav, bt_view_nrows(sc->view), height);
		return true;
	case BT_ACT_NEXT_HOT:
		next_hot(b, sc, 1, height);
		return true;
	case BT_ACT_PREV_HOT:
		next_hot(b, sc, -1, height);
		return true;
	case BT_ACT_HOTTEST:
		sc->nav.hot = -1;
		next_hot(b, sc, 1, height);
		return true;
	case BT_ACT_NEXT_REGION:
		next_region(b, sc, 1, height);
		return true;
	case BT_ACT_PREV_REGION:
		next_region(b, sc, -1, height);
		return true;
	default:
		return false;
	}
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
