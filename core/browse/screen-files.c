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
	return bt_view_files(b->sel, (size_t)sc->func, &b->o, err);
}

static void
enter(struct bt_browser *b, struct screen *sc, size_t height)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);
	long func = sc->func;
	char *file = bt_xstrdup(r->file);
	const struct screen *top;

	/* the list closes, and the source view it was opened from shows the file */
	browse_pop(b);
	top = &b->stack.v[b->stack.n - 1];
	if (top->ops == &screen_source && top->func == func)
		browse_pop(b);
	browse_open_source(b, func, file, 0, height);
	free(file);
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
	.kind = BT_SCREEN_FILES,
	.build = build,
	.enter = enter,
	.subject = subject,
	.export_name = export_name,
	.hint = "Enter show this file  E export  q back",
};
