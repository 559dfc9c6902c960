/*
 * The flame graph (icicle) of the screen's selection (F from every
 * screen; docs/browser.md "Flame graph"): a row a call depth, the root
 * on top, each frame a bar as wide as its share (bt_view_flame). The
 * cursor is a frame: Up goes to its caller, Down to its hottest callee,
 * Tab and Shift-Tab to the frames beside it; Enter zooms into it, Left
 * (Esc) zooms back out, then leaves. a, C, S act on the frame's function.
 */
#include <stdlib.h>

#include "browse/browse-int.h"

struct flame {
	struct bt_flame *f;
	const struct bt_selection *of;	/* the selection f is of */
	size_t zoom, cur;
	BT_VEC(size_t) zooms;		/* the frames zoomed into before */
	long want;			/* a function to put the cursor on first, -1 none */
};

static void
init(struct screen *sc, const void *arg, size_t height)
{
	struct flame *d = bt_xcalloc(1, sizeof(*d));

	d->want = arg != NULL ? *(const long *)arg : -1;
	sc->data = d;
}

static void
free_data(struct screen *sc)
{
	struct flame *d = sc->data;

	bt_flame_free(d->f);
	BT_VEC_FREE(d->zooms);
	free(d);
}

/* The hottest frame of function fi, BT_FRAME_NONE if none. */
static size_t
hottest_of(const struct bt_flame *f, long fi)
{
	size_t i, best = BT_FRAME_NONE;

	for (i = 1; i < bt_flame_nframes(f); i++)
		if ((long)bt_flame_frame(f, i)->func == fi && (best == BT_FRAME_NONE ||
		    bt_flame_frame(f, i)->samples > bt_flame_frame(f, best)->samples))
			best = i;
	return best;
}

static struct bt_view *
build(struct bt_browser *b, const struct screen *sc, struct bt_error *err)
{
	struct flame *d = sc->data;

	if (d->f == NULL || d->of != sc->sel) {	/* a new event or window: afresh */
		bt_flame_free(d->f);
		d->f = bt_flame_new(sc->sel);
		d->of = sc->sel;
		d->zoom = d->cur = 0;
		d->zooms.n = 0;
	}
	if (d->want >= 0) {
		size_t at = hottest_of(d->f, d->want);

		if (at != BT_FRAME_NONE)
			d->cur = at;
		d->want = -1;
	}
	return bt_view_flame(sc->sel, d->f, d->zoom, d->cur, &b->o);
}

/* The cursor's row: the frame's depth under the zoomed one. */
static struct anchor
anchor(const struct screen *sc)
{
	const struct flame *d = sc->data;
	struct anchor a = { BT_ROW_FRAMES, 0, 0, NULL, 0 };

	if (d->f != NULL)
		a.row = bt_flame_frame(d->f, d->cur)->depth - bt_flame_frame(d->f, d->zoom)->depth;
	return a;
}

/* The frame beside cur on its row: the next (or previous) at its depth under zoom. */
static size_t
beside(const struct flame *d, bool next)
{
	size_t i, n = bt_flame_nframes(d->f), depth = bt_flame_frame(d->f, d->cur)->depth;
	size_t prev = BT_FRAME_NONE, first = BT_FRAME_NONE, last = BT_FRAME_NONE;
	size_t *order = bt_xcalloc(n + 1, sizeof(size_t)), top = 0, ret = BT_FRAME_NONE;
	bool seen = false;

	/* depth first in x order: the frames at depth, left to right */
	order[top++] = d->zoom;
	while (top > 0) {
		size_t fi = order[--top], c, k = 0;
		const struct bt_flame_frame *fr = bt_flame_frame(d->f, fi);

		if (fr->depth == depth) {
			if (first == BT_FRAME_NONE)
				first = fi;
			if (seen && next && ret == BT_FRAME_NONE)
				ret = fi;
			if (fi == d->cur) {
				seen = true;
				if (!next)
					ret = prev;
			}
			prev = last = fi;
			continue;
		}
		for (c = fr->child; c != BT_FRAME_NONE; c = bt_flame_frame(d->f, c)->next)
			k++;
		top += k;
		i = top;
		for (c = fr->child; c != BT_FRAME_NONE; c = bt_flame_frame(d->f, c)->next)
			order[--i] = c;
	}
	free(order);
	if (ret == BT_FRAME_NONE)	/* around the end */
		ret = next ? first : last;
	return ret != BT_FRAME_NONE ? ret : d->cur;
}

static bool
action(struct bt_browser *b, struct screen *sc, enum bt_action a, const char *text,
       size_t height)
{
	struct flame *d = sc->data;
	const struct bt_flame_frame *fr;

	if (d->f == NULL)
		return false;
	fr = bt_flame_frame(d->f, d->cur);
	switch (a) {
	case BT_ACT_UP:
		if (d->cur != d->zoom)
			d->cur = fr->parent;
		break;
	case BT_ACT_DOWN:
		if (fr->child != BT_FRAME_NONE)
			d->cur = fr->child;
		break;
	case BT_ACT_HOME:
		d->cur = d->zoom;
		break;
	case BT_ACT_END:
		while (bt_flame_frame(d->f, d->cur)->child != BT_FRAME_NONE)
			d->cur = bt_flame_frame(d->f, d->cur)->child;
		break;
	case BT_ACT_NEXT_HOT:
	case BT_ACT_PREV_HOT:
		d->cur = beside(d, a == BT_ACT_NEXT_HOT);
		break;
	case BT_ACT_PAGE_UP:
	case BT_ACT_PAGE_DOWN:
	case BT_ACT_HOTTEST:
	case BT_ACT_NEXT_REGION:
	case BT_ACT_PREV_REGION:
		return true;	/* the rows are the depths: nothing to page */
	case BT_ACT_BACK:
		if (d->zooms.n == 0)
			return false;	/* not zoomed: back to the screen before */
		d->cur = d->zoom;
		d->zoom = d->zooms.v[--d->zooms.n];
		bt_browser_set_status(b, "zoomed out to %s", bt_flame_frame(d->f, d->zoom)->name);
		break;
	default:
		return false;
	}
	browse_rebuild(b, sc, height);
	return true;
}

static void
enter(struct bt_browser *b, struct screen *sc, size_t height)
{
	struct flame *d = sc->data;

	if (d->f == NULL || d->cur == d->zoom) {
		bt_browser_set_status(b, "zoomed in on it already: a annotates it, Left zooms out");
		return;
	}
	BT_VEC_PUSH(d->zooms, d->zoom);
	d->zoom = d->cur;
	browse_rebuild(b, sc, height);
	bt_browser_set_status(b, "zoomed in on %s: Left zooms out",
	    bt_flame_frame(d->f, d->zoom)->name);
}

static long
subject(const struct bt_browser *b, const struct screen *sc)
{
	const struct flame *d = sc->data;

	if (d->f == NULL || d->cur == 0)
		return -1;
	return (long)bt_flame_frame(d->f, d->cur)->func;
}

static char *
export_name(const struct bt_browser *b, const struct screen *sc)
{
	return bt_xstrdup("flame");
}

/* F: the flame graph, the cursor on the hottest frame of the function here. */
static void
flame_from(struct bt_browser *b, struct screen *from, size_t height)
{
	long f = from->ops->subject != NULL ? from->ops->subject(b, from) : -1;
	struct screen *sc = browse_push(b, &screen_flame, -1, &f, height);

	if (sc == NULL)
		return;
	sc->nav.cursor = anchor(sc).row;	/* on the function's frame */
	browse_show_cursor(&sc->nav, bt_view_nrows(sc->view), height);
	if (!bt_session_has_chains(bt_selection_session(b->sel)))
		bt_browser_set_status(b, "no call chains in this recording: each function's own samples");
}

const struct screen_ops screen_flame = {
	.name = "flame",
	.init = init,
	.free = free_data,
	.build = build,
	.enter = enter,
	.action = action,
	.subject = subject,
	.anchor = anchor,
	.export_name = export_name,
	.opens = BT_ACT_FLAME,
	.open = flame_from,
	.hint = "Up caller  Down callee  Tab beside  Enter zoom  Left out  a annotate  q back",
};
