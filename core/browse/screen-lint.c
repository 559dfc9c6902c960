/*
 * The lint findings (L, from any screen): Enter opens the function a
 * finding is about; a pane below the rows holds the cursor's finding
 * whole, its message wrapped.
 */
#include <stdio.h>

#include "browse/browse-int.h"

static struct bt_view *
build(struct bt_browser *b, const struct screen *sc, struct bt_error *err)
{
	return bt_view_findings(sc->sel, &b->o);
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

/* L here: already here. */
static bool
action(struct bt_browser *b, struct screen *sc, enum bt_action act,
       const char *text, size_t height)
{
	return act == BT_ACT_LINT;
}

static void
lint_from(struct bt_browser *b, struct screen *from, size_t height)
{
	struct screen *sc = browse_push(b, &screen_lint, -1, NULL, height);

	if (sc != NULL && bt_view_nrows(sc->view) == 0)
		bt_browser_set_status(b, "no findings: nothing looks wrong with this benchmark");
}

/* The finding under the cursor whole: the row cuts its message at the screen's edge. */
static bool
pane(const struct bt_browser *b, const struct screen *sc, struct bt_pane *p)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);

	if (bt_view_nrows(sc->view) == 0)
		return false;
	if (r != NULL) {
		snprintf(p->head, sizeof(p->head), "%s, %.1f%%%s%s", r->label, r->percent,
		    r->name ? " in " : " of the run", r->name ? r->name : "");
		p->text = r->text;
	}
	return true;
}

static char *
export_name(const struct bt_browser *b, const struct screen *sc)
{
	return bt_xstrdup("lint");
}

const struct screen_ops screen_lint = {
	.name = "lint",
	.build = build,
	.enter = enter,
	.action = action,
	.subject = subject,
	.export_name = export_name,
	.pane = pane,
	.opens = BT_ACT_LINT,
	.open = lint_from,
	.hint = "Enter open the function  E export  q back",
};
