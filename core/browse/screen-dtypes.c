/*
 * Data types (D, from any screen): the samples of the loads and stores
 * whose type DWARF gives, per type and member, as perf annotate
 * --data-type sums them, of the samples the screen below shows (its
 * event, window, benchmark). The pane lists the cursor row's accesses;
 * Enter opens the annotation of its hottest one, the cursor on it.
 */
#include <stdio.h>

#include "browse/browse-int.h"

static struct bt_view *
build(struct bt_browser *b, const struct screen *sc, struct bt_error *err)
{
	return bt_view_data_types(sc->sel, &b->o, err);
}

static void
enter(struct bt_browser *b, struct screen *sc, size_t height)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);
	uint64_t addr = r->addr;
	struct screen *top;
	long k;

	if (bt_browser_open(b, r->func, height) < 0)
		return;
	top = &b->stack.v[b->stack.n - 1];
	k = bt_view_find_addr(top->view, addr);
	if (k < 0)
		return;
	top->nav.cursor = (size_t)k;
	browse_show_cursor(&top->nav, bt_view_nrows(top->view), height);
	bt_browser_set_status(b, "the hottest access to %s", r->text);
}

/* D here: already here. */
static bool
action(struct bt_browser *b, struct screen *sc, enum bt_action act,
       const char *text, size_t height)
{
	return act == BT_ACT_DATA_TYPES;
}

static void
dtypes_from(struct bt_browser *b, struct screen *from, size_t height)
{
	struct screen *sc = browse_push(b, &screen_dtypes, -1, NULL, height);

	if (sc != NULL && bt_view_nrows(sc->view) == 0)
		bt_browser_set_status(b, "no sampled load or store has a data type "
		    "DWARF knows (a base register holding a pointer to a struct)");
	else if (sc != NULL)
		bt_browser_set_status(b, "Enter: the hottest instruction of a type or member");
}

static long
subject(const struct bt_browser *b, const struct screen *sc)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);

	return r != NULL ? (long)r->func : -1;
}

/* The cursor row's accesses, hottest first: what Enter chooses among. */
static bool
pane(const struct bt_browser *b, const struct screen *sc, struct bt_pane *p)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);

	if (bt_view_nrows(sc->view) == 0)
		return false;
	if (r != NULL && r->dtype != NULL) {
		snprintf(p->head, sizeof(p->head), "%s: %llu samples (%.2f%%) in %zu "
		    "instruction%s", r->text, (unsigned long long)r->samples, r->percent,
		    r->dtype->naccesses, r->dtype->naccesses == 1 ? "" : "s");
		p->text = r->dtype->accesses;
	}
	return true;
}

static char *
export_name(const struct bt_browser *b, const struct screen *sc)
{
	return bt_xstrdup("datatypes");
}

const struct screen_ops screen_dtypes = {
	.name = "datatypes",
	.build = build,
	.enter = enter,
	.action = action,
	.subject = subject,
	.export_name = export_name,
	.pane = pane,
	.opens = BT_ACT_DATA_TYPES,
	.open = dtypes_from,
	.hint = "Enter the hottest access  D data types from anywhere  K skid  E export  q back",
};
