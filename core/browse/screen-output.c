/*
 * The benchmark's own output (O, from any screen): its lines as the
 * recording kept them, each with its time into the run (bt_view_output);
 * Enter on a result line of the harness selects that benchmark, as Enter
 * in the benchmark table does (every screen above it shows its samples
 * only); Tab goes to the next result line.
 */
#include "benchtui/bench.h"
#include "browse/browse-int.h"

static struct bt_view *
build(struct bt_browser *b, const struct screen *sc, struct bt_error *err)
{
	return bt_view_output(sc->sel);
}

static void
enter(struct bt_browser *b, struct screen *sc, size_t height)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);
	struct bt_error err = { 0 };
	const struct bt_bench *bb;

	if (r == NULL || r->kind != BT_ROW_OUTPUT)
		return;
	if (r->func == (size_t)-1) {
		if (r->line)
			bt_browser_set_status(b, "line %u: no result of the harness (Tab: "
			    "the next one)", r->line);
		else
			bt_browser_set_status(b, "a line of standard error: no result of "
			    "the harness (Tab: the next one)");
		return;
	}
	if (browse_select_bench(b, (long)r->func, &err) < 0) {
		bt_browser_set_status(b, "%s", err.msg);
		return;
	}
	if (browse_push(b, &screen_funcs, -1, NULL, height) == NULL)
		return;		/* this screen's selection again */
	bb = bt_selection_bench(b->sel, r->func);
	bt_browser_set_status(b, "%s: %llu samples (%.3f-%.3f s); q: back to the output",
	    bb->name, (unsigned long long)bt_selection_samples(b->sel), bb->t_from, bb->t_to);
}

/* O here: already here. */
static bool
action(struct bt_browser *b, struct screen *sc, enum bt_action act,
       const char *text, size_t height)
{
	return act == BT_ACT_OUTPUT;
}

/* O: the output, from anywhere. */
static void
output_from(struct bt_browser *b, struct screen *from, size_t height)
{
	struct screen *sc = browse_push(b, &screen_output, -1, NULL, height);

	if (sc != NULL && bt_view_nrows(sc->view) == 0)
		bt_browser_set_status(b, "%s", bt_view_title(sc->view));
}

static long
subject(const struct bt_browser *b, const struct screen *sc)
{
	return -1;
}

static char *
export_name(const struct bt_browser *b, const struct screen *sc)
{
	return bt_xstrdup("output");
}

const struct screen_ops screen_output = {
	.name = "output",
	.build = build,
	.enter = enter,
	.action = action,
	.subject = subject,
	.export_name = export_name,
	.opens = BT_ACT_OUTPUT,
	.open = output_from,
	.hint = "Enter on a result: its benchmark  Tab next result  / search  E export  q back",
};
