/*
 * The processes and threads (z, from any screen: perf report --sort
 * comm,pid, Hotspot's thread list): a row a process with its threads
 * under it, each with its share of the samples. Enter on a row selects
 * that process or thread (as --pid or --tid): the function list above it,
 * and every screen opened from there, shows its samples only, and the
 * header says which; q comes back here, z from anywhere.
 */
#include <string.h>

#include "benchtui/selection.h"
#include "benchtui/session.h"
#include "browse/browse-int.h"

static struct bt_view *
build(struct bt_browser *b, const struct screen *sc, struct bt_error *err)
{
	return bt_view_procs(sc->sel, &b->o);
}

/*
 * The screen's selection with only the process or thread of row r (a
 * thread that had several names: under the row's name, the row's samples).
 */
static struct bt_selection *
select_row(const struct screen *sc, const struct bt_row *r, struct bt_error *err)
{
	struct bt_session *s = bt_selection_session(sc->sel);
	struct bt_selection_opts o = *bt_selection_opts(sc->sel);
	const struct bt_proc *p = bt_session_proc(s, r->func);

	o.npid = o.ntid = o.ncomm = 0;
	if (r->line == 0) {
		o.pid[o.npid++] = (uint32_t)r->addr;
		return bt_selection_new(s, &o, err);
	}
	o.tid[o.ntid++] = r->line;
	if (p != NULL && r->insn < p->nthreads && p->threads[r->insn].ncomms > 1 &&
	    strlen(r->name) < BT_COMM_LEN)
		strcpy(o.comm[o.ncomm++], r->name);
	return bt_selection_new(s, &o, err);
}

static void
enter(struct bt_browser *b, struct screen *sc, size_t height)
{
	const struct bt_row *r = bt_view_row(sc->view, sc->nav.cursor);
	struct bt_error err = { 0 };
	struct bt_selection *sel;

	if (r == NULL || r->kind != BT_ROW_PROC)
		return;
	if ((sel = select_row(sc, r, &err)) == NULL) {
		bt_browser_set_status(b, "%s", err.msg);
		return;
	}
	bt_selection_free(b->sel);
	b->sel = sel;
	if (browse_push(b, &screen_funcs, -1, NULL, height) == NULL)
		return;		/* the list's selection again */
	bt_browser_set_status(b, "%s %llu (%s): %llu samples; q: back to the processes",
	    r->line ? "thread" : "process",
	    (unsigned long long)(r->line ? r->line : r->addr), r->name,
	    (unsigned long long)bt_selection_samples(b->sel));
}

/* z here: already here. */
static bool
action(struct bt_browser *b, struct screen *sc, enum bt_action act,
       const char *text, size_t height)
{
	return act == BT_ACT_PROCS;
}

/* z: the processes of the samples the screen on top shows. */
static void
procs_from(struct bt_browser *b, struct screen *from, size_t height)
{
	struct screen *sc = browse_push(b, &screen_procs, -1, NULL, height);

	if (sc != NULL)
		bt_browser_set_status(b, "Enter: only this process's or thread's samples");
}

static long
subject(const struct bt_browser *b, const struct screen *sc)
{
	return -1;
}

static char *
export_name(const struct bt_browser *b, const struct screen *sc)
{
	return bt_xstrdup("processes");
}

const struct screen_ops screen_procs = {
	.name = "processes",
	.build = build,
	.enter = enter,
	.action = action,
	.subject = subject,
	.export_name = export_name,
	.opens = BT_ACT_PROCS,
	.open = procs_from,
	.hint = "Enter only its samples  z processes from anywhere  E export  q back",
};
