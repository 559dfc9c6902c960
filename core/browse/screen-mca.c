/*
 * Predicted vs measured (X, from every screen with a function): llvm-mca's
 * prediction for the function's hottest loops beside their measured
 * samples and cost per op (bt_view_mca). Enter on an instruction opens
 * the annotation there; q goes back.
 */
#include "browse/browse-int.h"

static struct bt_view *
build(struct bt_browser *b, const struct screen *sc, struct bt_error *err)
{
	if (sc->func < 0 || (size_t)sc->func >= bt_selection_nfuncs(sc->sel)) {
		bt_error_set(err, BT_EINVAL, "no function here");
		return NULL;
	}
	return bt_view_mca(sc->sel, (size_t)sc->func, &b->o, err);
}

static void
enter(struct bt_browser *b, struct screen *sc, size_t height)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);
	struct screen *nsc;
	uint64_t addr;
	long row;

	if (r == NULL || r->kind != BT_ROW_INSN) {
		bt_browser_set_status(b, "Enter on an instruction annotates it there");
		return;
	}
	addr = r->addr;
	if ((nsc = browse_push(b, &screen_annotate, sc->func, NULL, height)) == NULL)
		return;
	if ((row = bt_view_find_addr(nsc->view, addr)) >= 0)
		nsc->nav.cursor = (size_t)row;
	browse_show_cursor(&nsc->nav, bt_view_nrows(nsc->view), height);
}

static long
subject(const struct bt_browser *b, const struct screen *sc)
{
	return sc->func;
}

static char *
export_name(const struct bt_browser *b, const struct screen *sc)
{
	return browse_func_file_name(b, sc, ".mca");
}

/* X: the screen of the function the screen is about or the cursor is on. */
static void
mca_from(struct bt_browser *b, struct screen *from, size_t height)
{
	long f = from->ops->subject != NULL ? from->ops->subject(b, from) : -1;

	if (f < 0) {
		bt_browser_set_status(b, "X predicts a function's hot loops: put the "
		    "cursor on one");
		return;
	}
	if (browse_push(b, &screen_mca, f, NULL, height) != NULL)
		bt_browser_set_status(b, "predicted (llvm-mca) vs measured; Enter annotates "
		    "an instruction, q goes back");
}

const struct screen_ops screen_mca = {
	.name = "mca",
	.build = build,
	.enter = enter,
	.subject = subject,
	.export_name = export_name,
	.opens = BT_ACT_MCA,
	.open = mca_from,
	.hint = "Enter annotate here  t cost per op  E export  h help  q back",
};
