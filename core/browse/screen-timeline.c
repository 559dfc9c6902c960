/*
 * The timeline (T, from any screen): the run in slices, with the share of
 * the function it was opened on; [ and ] mark a part of the run, Enter
 * keeps it, c keeps the whole run.
 */
#include <stdlib.h>

#include "browse/browse-int.h"

/* A timeline's own: its slices, and the slices marked (-1 none). */
struct timeline {
	size_t nbins;
	long mark_from, mark_to;
};

static void
init(struct screen *sc, const void *arg, size_t height)
{
	struct timeline *tl = bt_xcalloc(1, sizeof(*tl));

	tl->nbins = height > 4 ? BT_MIN(height, 200) : 20;
	tl->mark_from = tl->mark_to = -1;
	sc->data = tl;
}

static void
free_data(struct screen *sc)
{
	free(sc->data);
}

static struct bt_view *
build(struct bt_browser *b, const struct screen *sc, struct bt_error *err)
{
	const struct timeline *tl = sc->data;

	return bt_view_timeline(sc->sel, sc->func, tl->nbins, tl->mark_from, tl->mark_to);
}

static void
enter(struct bt_browser *b, struct screen *sc, size_t height)
{
	const struct timeline *tl = sc->data;
	long lo = tl->mark_from >= 0 ? tl->mark_from : (long)sc->nav.cursor;
	const struct bt_row *from = bt_view_row(sc->view, (size_t)lo);
	const struct bt_row *to = tl->mark_to >= 0 ?
	    bt_view_row(sc->view, (size_t)tl->mark_to) : NULL;

	if (from == NULL)
		return;
	if (to != NULL && to->t_to <= from->t_from) {
		bt_browser_set_status(b, "the end mark is before the start mark");
		return;
	}
	browse_select_window(b, from->t_from, to ? to->t_to : -1, height);
}

static bool
action(struct bt_browser *b, struct screen *sc, enum bt_action act,
       const char *text, size_t height)
{
	struct timeline *tl = sc->data;

	switch (act) {
	case BT_ACT_TIMELINE:
		return true;
	case BT_ACT_MARK_FROM:
	case BT_ACT_MARK_TO:
		if (act == BT_ACT_MARK_FROM)
			tl->mark_from = (long)sc->nav.cursor;
		else
			tl->mark_to = (long)sc->nav.cursor;
		browse_rebuild(b, sc, height);
		bt_browser_set_status(b, "Enter keeps the marked part of the run");
		return true;
	case BT_ACT_CLEAR_WINDOW:
		browse_select_window(b, -1, -1, height);
		return true;
	default:
		return false;
	}
}

/* T: the timeline of the function the screen is about (none: the run's). */
static void
timeline_from(struct bt_browser *b, struct screen *from, size_t height)
{
	if (browse_push(b, &screen_timeline, from->ops->subject(b, from), NULL,
	    height) != NULL)
		bt_browser_set_status(b, "[ and ] mark the part of the run to keep, Enter keeps it, c the whole run");
}

static long
subject(const struct bt_browser *b, const struct screen *sc)
{
	return sc->func;
}

static char *
export_name(const struct bt_browser *b, const struct screen *sc)
{
	return sc->func >= 0 ? browse_func_file_name(b, sc, ".timeline") :
	    bt_xstrdup("timeline");
}

static const struct screen_key keys[] = {
	{ BT_ACT_MARK_FROM, "[ and ] mark a window in the timeline (T)" },
	{ BT_ACT_MARK_TO, "[ and ] mark a window in the timeline (T)" },
	{ BT_ACT_CLEAR_WINDOW, "c in the timeline (T) keeps the whole run" },
	{ BT_ACT_NONE, NULL },
};

const struct screen_ops screen_timeline = {
	.name = "timeline",
	.init = init,
	.free = free_data,
	.build = build,
	.enter = enter,
	.action = action,
	.subject = subject,
	.export_name = export_name,
	.opens = BT_ACT_TIMELINE,
	.open = timeline_from,
	.keys = keys,
	.hint = "[ start  ] end  Enter keep it  c whole run  q back",
};
