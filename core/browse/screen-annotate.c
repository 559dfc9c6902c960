/*
 * The annotated function: Enter follows a jump or opens a call; a (from
 * any screen) annotates the function there; C on an instruction adds the
 * call paths of its samples.
 */
#include <string.h>

#include "benchtui/session.h"
#include "browse/browse-int.h"

/*
 * The function's annotation: kept from when it was last closed, else
 * built, its rows made as the screen shows them (a function of 30,000
 * instructions is 50,000 rows: a few windows of them are made)
 */
static struct bt_view *
build(struct bt_browser *b, const struct screen *sc, struct bt_error *err)
{
	struct bt_view *v = browse_kept_take(b, sc->sel, (size_t)sc->func);

	return v != NULL ? v : bt_view_annotate_lazy(sc->sel, (size_t)sc->func, &b->o, err);
}

static void
enter(struct bt_browser *b, struct screen *sc, size_t height)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);
	long f;

	if (r->kind != BT_ROW_INSN) {
		bt_browser_set_status(b, "Enter follows a jump or opens a call");
		return;
	}
	if ((r->flags & BT_ROW_F_JUMP) && r->target_row >= 0) {
		const struct bt_view_func *vf = bt_view_func(sc->view);
		BT_VEC_PUSH(sc->jumps, sc->nav);
		sc->nav.cursor = (size_t)r->target_row;
		browse_show_cursor(&sc->nav, bt_view_nrows(sc->view), height);
		/* inside the function: its offset, as the row shows it */
		bt_browser_set_status(b, "jumped %s to +0x%llx (<- back)",
		    r->target <= r->addr ? "back" : "forward",
		    (unsigned long long)(r->target - vf->address));
		return;
	}
	if (r->flags & BT_ROW_F_CALL) {
		f = bt_selection_func_at(sc->sel, bt_selection_func(sc->sel, (size_t)sc->func)->mod, r->target);
		if (f < 0) {
			bt_browser_set_status(b, "no code for the callee %s",
			    r->target_name ? r->target_name : "");
			return;
		}
		if (bt_browser_open(b, (size_t)f, height) == 0)
			bt_browser_set_status(b, "opened %s (<- back)",
			    bt_view_func(bt_browser_view(b))->short_name);
		return;
	}
	if (r->flags & BT_ROW_F_JUMP)
		bt_browser_set_status(b, "the jump leaves the function (%s)",
		    r->target_name ? r->target_name : "?");
	else if (r->flags & BT_ROW_F_INDIRECT)
		bt_browser_set_status(b, "an indirect %s: its target is known only when it runs",
		    strstr(r->text, "call") != NULL ? "call" : "jump");
	else
		bt_browser_set_status(b, "not a jump or a call");
}

void
browse_annotate_here(struct bt_browser *b, struct screen *sc, size_t height)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);

	if (r != NULL && (r->kind == BT_ROW_LINE || (r->flags & BT_ROW_F_CALL)))
		sc->ops->enter(b, sc, height);	/* the line's code, the callee */
	else
		bt_browser_set_status(b, "annotating %s (a on a call opens the callee)",
		    bt_view_func(sc->view)->short_name);
}

/* a: perf's annotate key, from any other screen: the function under the cursor. */
static void
annotate_from(struct bt_browser *b, struct screen *from, size_t height)
{
	long f = from->ops->subject(b, from);

	if (f < 0) {
		bt_browser_set_status(b, "no function here to annotate");
		return;
	}
	bt_browser_open(b, (size_t)f, height);
}

static bool
action(struct bt_browser *b, struct screen *sc, enum bt_action act,
       const char *text, size_t height)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);

	switch (act) {
	case BT_ACT_ANNOTATE:
		browse_annotate_here(b, sc, height);
		return true;
	case BT_ACT_CALLERS:
		/* on an instruction: its entry stacks too */
		if (r == NULL || r->kind != BT_ROW_INSN || !bt_session_has_chains(bt_selection_session(b->sel)))
			return false;
		if (browse_push(b, &screen_callers, sc->func, &r->addr, height) != NULL)
			bt_browser_set_status(b, "callers, callees and the entry stacks of %llx",
			    (unsigned long long)r->addr);
		return true;
	default:
		return false;
	}
}

static long
subject(const struct bt_browser *b, const struct screen *sc)
{
	return sc->func;
}

/* A source or inline row stands for the instruction after it. */
static struct anchor
anchor(const struct screen *sc)
{
	struct anchor a = { BT_ROW_TEXT, 0, 0, NULL, sc->nav.cursor };
	size_t i;

	for (i = sc->nav.cursor; i < bt_view_nrows(sc->view); i++) {
		const struct bt_row *r = bt_view_row(sc->view, i);
		if (r->kind == BT_ROW_INSN) {
			a.kind = BT_ROW_INSN;
			a.addr = r->addr;
			break;
		}
	}
	return a;
}

static char *
export_name(const struct bt_browser *b, const struct screen *sc)
{
	return browse_func_file_name(b, sc, "");
}

const struct screen_ops screen_annotate = {
	.name = "annotate",
	.build = build,
	.enter = enter,
	.action = action,
	.subject = subject,
	.anchor = anchor,
	.export_name = export_name,
	.opens = BT_ACT_ANNOTATE,
	.open = annotate_from,
	.hint = "Tab hot  Enter follow  s/S source  K skid  W names  E export  h help  q back",
};
