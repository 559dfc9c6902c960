/* The source view: Enter on a line shows its hottest instruction. */
#include "benchtui/session.h"
#include "browse/browse-int.h"
#include "session/session-int.h"

static struct bt_view *
build(struct bt_browser *b, const struct screen *sc, struct bt_error *err)
{
	return bt_view_source(b->s, (size_t)sc->func, &b->o, err);
}

static void
enter(struct bt_browser *b, struct screen *sc, size_t height)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);
	const struct bt_annotation *a;
	struct screen *nsc;
	long best = -1;
	double bw = -1;
	size_t i;

	if (r->kind != BT_ROW_LINE)
		return;
	nsc = browse_push(b, &screen_annotate, sc->func, height);
	if (nsc == NULL)
		return;
	a = bt_session_annotation(b->s, (size_t)sc->func, b->o.syntax, NULL);
	for (i = 0; i < bt_view_nrows(nsc->view); i++) {
		const struct bt_row *ir = bt_view_row(nsc->view, i);

		if (ir->kind != BT_ROW_INSN)
			continue;
		if (bt_annotation_line_in(a, &a->insns.v[ir->insn], r->file) == r->line &&
		    ir->weight > bw) {
			bw = ir->weight;
			best = (long)i;
		}
	}
	if (best < 0) {
		bt_view_free(nsc->view);
		BT_VEC_FREE(nsc->jumps);
		b->stack.n--;
		bt_browser_set_status(b, "no instructions for line %u", r->line);
		return;
	}
	nsc->nav.cursor = (size_t)best;
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
	return browse_func_file_name(b, sc->func, ".source");
}

const struct screen_ops screen_source = {
	.kind = BT_SCREEN_SOURCE,
	.build = build,
	.enter = enter,
	.subject = subject,
	.export_name = export_name,
	.hint = "Enter code  Tab hot  E export  h help  q back",
};
