/*
 * Callers and callees of a function (DESIGN.md §6; Hotspot's and pprof's
 * caller/callee view, perf report -G): callers above, callees below, each
 * with its share of the function's inclusive samples. Enter on a caller or
 * callee follows it (another such screen), Enter on the function itself
 * annotates it, Left returns. Opened with C from every screen that has a
 * function; from an instruction, its entry stacks follow.
 */
#include <stdlib.h>
#include <string.h>

#include "benchtui/session.h"
#include "browse/browse-int.h"

/* A callers screen's own: the instruction whose entry stacks it shows, if any. */
struct callers {
	bool has_addr;
	uint64_t addr;
};

static void
init(struct screen *sc, const void *arg, size_t height)
{
	struct callers *c = bt_xcalloc(1, sizeof(*c));
	const uint64_t *addr = arg;

	if (addr != NULL) {
		c->has_addr = true;
		c->addr = *addr;
	}
	sc->data = c;
}

static void
free_data(struct screen *sc)
{
	free(sc->data);
}

static struct bt_view *
build(struct bt_browser *b, const struct screen *sc, struct bt_error *err)
{
	const struct callers *c = sc->data;

	if (sc->func < 0 || (size_t)sc->func >= bt_selection_nfuncs(sc->sel)) {
		bt_error_set(err, BT_EINVAL, "no function here");
		return NULL;
	}
	return bt_view_callers(sc->sel, (size_t)sc->func, c->has_addr ? &c->addr : NULL,
	    &b->o);
}

static long
subject(const struct bt_browser *b, const struct screen *sc)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);

	return r != NULL && r->kind == BT_ROW_FUNC && r->func != (size_t)-1 ?
	    (long)r->func : sc->func;
}

static void
enter(struct bt_browser *b, struct screen *sc, size_t height)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);

	if (r == NULL || r->kind != BT_ROW_FUNC || r->func == (size_t)-1) {
		bt_browser_set_status(b, "Enter on a caller or callee follows it");
		return;
	}
	if (r->func == (size_t)sc->func && r->label != NULL &&
	    strcmp(r->label, "function") == 0) {
		bt_browser_open(b, r->func, height);
		return;
	}
	if (r->func == (size_t)sc->func && r->label != NULL &&
	    strcmp(r->label, "stack") != 0) {	/* a self edge: this screen again */
		bt_browser_set_status(b, "a recursion: the function calls itself");
		return;
	}
	if (browse_push(b, &screen_callers, (long)r->func, NULL, height) != NULL)
		bt_browser_set_status(b, "%s: Left goes back", r->label);
}

/* The cursor stays on its row (not on a function by index, as the list's does). */
static struct anchor
anchor(const struct screen *sc)
{
	struct anchor a = { BT_ROW_TEXT, 0, 0, NULL, sc->nav.cursor };

	return a;
}

static char *
export_name(const struct bt_browser *b, const struct screen *sc)
{
	return browse_func_file_name(b, sc, ".callers");
}

/*
 * C: the callers/callees screen of the function the screen is about or the
 * cursor is on (an annotation adds an instruction's entry stacks itself).
 */
static void
callers_from(struct bt_browser *b, struct screen *from, size_t height)
{
	long f = from->ops->subject(b, from);

	if (f < 0) {
		bt_browser_set_status(b, "C shows the callers and callees of a function: "
		    "put the cursor on one");
		return;
	}
	if (!bt_session_has_chains(bt_selection_session(b->sel))) {
		bt_browser_set_status(b, "no call chains in this recording (benchtui "
		    "records them by default; perf needs -g or --call-graph)");
		return;
	}
	if (browse_push(b, &screen_callers, f, NULL, height) != NULL)
		bt_browser_set_status(b, "Enter follows a caller or callee, Left goes back");
}

const struct screen_ops screen_callers = {
	.name = "callers",
	.init = init,
	.free = free_data,
	.build = build,
	.enter = enter,
	.subject = subject,
	.anchor = anchor,
	.export_name = export_name,
	.opens = BT_ACT_CALLERS,
	.open = callers_from,
	.hint = "Enter follow  Left back  a annotate  S source  E export  h help  q back",
};
