/* The lint findings: Enter opens the function a finding is about. */
#include "browse/browse-int.h"

static struct bt_view *
build(struct bt_browser *b, const struct screen *sc, struct bt_error *err)
{
	return bt_view_findings(b->sel);
}

static long
subject(const struct bt_browser *b, const struct screen *sc)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);

	return r != NULL && r->func != (size_t)-1 ? (long)r->func : -1;
}

static void
enter(struct bt_browser *b, struct screen *sc, size_t height)
{
	long f = subject(b, sc);

	if (f >= 0)
		bt_browser_open(b, (size_t)f, height);
	else
		bt_browser_set_status(b, "this finding is about the whole run");
}

static char *
export_name(const struct bt_browser *b, const struct screen *sc)
{
	return bt_xstrdup("lint");
}

const struct screen_ops screen_lint = {
	.kind = BT_SCREEN_LINT,
	.build = build,
	.enter = enter,
	.subject = subject,
	.export_name = export_name,
	.hint = "Enter open the function  E export  q back",
};
