/*
 * The files a function's code comes from (its own, and the headers inlined
 * into it: helper.h, the STL's), with their shares: S in the source view;
 * Enter shows the file in the source view.
 */
#include <stdlib.h>

#include "browse/browse-int.h"

static struct bt_view *
build(struct bt_browser *b, const struct screen *sc, struct bt_error *err)
{
	return bt_view_files(sc->sel, (size_t)sc->func, &b->o, err);
}

static void
enter(struct bt_browser *b, struct screen *sc, size_t height)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);
	long func = sc->func;
	char *file = bt_xstrdup(r->file);

	/* the list closes, and the source view it was opened from shows the file */
	browse_pop(b);
	if (browse_screen_on(b, 0, &screen_source, func) != NULL)
		browse_pop(b);
	browse_open_source(b, func, file, 0, height);
	free(file);
}

/* S here: Enter is what shows a file. */
static bool
action(struct bt_browser *b, struct screen *sc, enum bt_action act,
       const char *text, size_t height)
{
	if (act != BT_ACT_SOURCE_VIEW)
		return false;
	bt_browser_set_status(b, "Enter shows the file");
	return true;
}

static long
subject(const struct bt_browser *b, const struct screen *sc)
{
	return sc->func;
}

static char *
export_name(const struct bt_browser *b, const struct screen *sc)
{
	return browse_func_file_name(b, sc, ".files");
}

const struct screen_ops screen_files = {
	.name = "files",
	.build = build,
	.enter = enter,
	.action = action,
	.subject = subject,
	.export_name = export_name,
	.hint = "Enter show this file  E export  q back",
};
