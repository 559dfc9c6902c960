/* The hot-function table, the first screen. */
#include "benchtui/session.h"
#include "browse/browse-int.h"

static struct bt_view *
build(struct bt_browser *b, const struct screen *sc, struct bt_error *err)
{
	struct bt_view_opts o = b->o;

	o.filter = b->filter;
	o.module = b->module;
	return bt_view_functions(b->sel, &o, 0);
}

static void
enter(struct bt_browser *b, struct screen *sc, size_t height)
{
	bt_browser_open(b, bt_view_row(sc->view, sc->nav.cursor)->func, height);
}

static long
subject(const struct bt_browser *b, const struct screen *sc)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);

	return r != NULL && r->func != (size_t)-1 ? (long)r->func : -1;
}

static char *
export_name(const struct bt_browser *b, const struct screen *sc)
{
	return bt_xstrdup("functions");
}

const struct screen_ops screen_funcs = {
	.kind = BT_SCREEN_FUNCS,
	.build = build,
	.enter = enter,
	.subject = subject,
	.export_name = export_name,
	.hint = "Enter annotate  S source  / filter  d module  L lint  T timeline  h help  q quit",
};
