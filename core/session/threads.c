/*
 * A selection of some processes or threads only (--pid, --tid, --comm, as
 * perf report's --pid, --tid and --comms): the samples are read again,
 * keeping theirs. A thread's name is the one it had at the sample's time
 * (profile/tasks.h).
 */
#include <string.h>

#include "session/session-int.h"

/* "'a', 'b'": the names the recording's threads had (at most 8). */
static void
known_names(const struct bt_tasks *t, struct bt_strbuf *sb)
{
	size_t i;

	for (i = 0; i < t->names.n && i < 8; i++)
		bt_strbuf_addf(sb, "%s'%s'", i ? ", " : "", t->names.v[i]);
	if (t->names.n > 8)
		bt_strbuf_addf(sb, " and %zu more", t->names.n - 8);
}

static int
check(struct bt_session *s, int attr, const struct bt_selection_opts *o,
      struct bt_error *err)
{
	const struct bt_tasks *t = &s->p->tasks;
	struct bt_strbuf sb = BT_STRBUF_INIT;
	size_t i;

	if (o->npid > BT_SELECTION_MAX_THREADS || o->ntid > BT_SELECTION_MAX_THREADS ||
	    o->ncomm > BT_SELECTION_MAX_THREADS)
		return bt_error_set(err, BT_EINVAL, "at most %d processes, threads and names",
		    BT_SELECTION_MAX_THREADS);
	for (i = 0; i < o->ncomm; i++) {
		if (bt_tasks_name(t, o->comm[i]) >= 0)
			continue;
		known_names(t, &sb);
		bt_error_set(err, BT_EINVAL, "no thread named '%s' in the recording (%s%s)",
		    o->comm[i], sb.len ? "it has " : "it names none", sb.buf);
		bt_strbuf_release(&sb);
		return -BT_EINVAL;
	}
	return 0;
}

static void
scan(struct bt_selection *sel, struct bt_scan *sc)
{
	const struct bt_tasks *t = &sel->s->p->tasks;
	size_t i;
	long c;

	sc->pids = sel->o.pid;
	sc->npids = sel->o.npid;
	sc->tids = sel->o.tid;
	sc->ntids = sel->o.ntid;
	sc->ncomms = 0;
	for (i = 0; i < sel->o.ncomm && i < BT_SCAN_MAX_COMMS; i++)
		if ((c = bt_tasks_name(t, sel->o.comm[i])) >= 0)
			sc->comms[sc->ncomms++] = (uint32_t)c;
}

static bool
rescan(const struct bt_selection_opts *o)
{
	return o->npid > 0 || o->ntid > 0 || o->ncomm > 0;
}

static bool
same(const struct bt_selection_opts *a, const struct bt_selection_opts *b)
{
	size_t i;

	if (a->npid != b->npid || a->ntid != b->ntid || a->ncomm != b->ncomm ||
	    memcmp(a->pid, b->pid, a->npid * sizeof(*a->pid)) != 0 ||
	    memcmp(a->tid, b->tid, a->ntid * sizeof(*a->tid)) != 0)
		return false;
	for (i = 0; i < a->ncomm; i++)
		if (strncmp(a->comm[i], b->comm[i], BT_COMM_LEN) != 0)
			return false;
	return true;
}

const struct sel_dim bt_dim_threads = {
	.check = check,
	.scan = scan,
	.rescan = rescan,
	.same = same,
};
