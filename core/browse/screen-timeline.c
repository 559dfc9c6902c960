/*
 * The timeline: the run in slices, with the share of the function it was
 * opened on; [ and ] mark a part of the run, Enter keeps it.
 */
#include "browse/browse-int.h"

static struct bt_view *
build(struct bt_browser *b, const struct screen *sc, struct bt_error *err)
{
	return bt_view_timeline(b->sel, sc->func, sc->nbins, sc->mark_from, sc->mark_to);
}

static void
enter(struct bt_browser *b, struct screen *sc, size_t height)
{
	long lo = sc->mark_from >= 0 ? sc->mark_from : (long)sc->nav.cursor;
	const struct bt_row *from = bt_view_row(sc->view, (size_t)lo);
	const struct bt_row *to = sc->mark_to >= 0 ?
	    bt_view_row(sc->view, (size_t)sc->mark_to) : NULL;

	if (from == NULL)
		return;
	if (to != NULL && to->t_to <= from->t_from) {
		bt_browser_set_status(b, "the end mark is before the start mark");
		return;
	}
	browse_select_window(b, from->t_from, to ? to->t_to : -1, height);
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

const struct screen_ops screen_timeline = {
	.kind = BT_SCREEN_TIMELINE,
	.build = build,
	.enter = enter,
	.subject = subject,
	.export_name = export_name,
	.hint = "[ start  ] end  Enter keep it  c whole run  q back",
};
