/*
 * A selection of some processes or threads only (--pid, --tid, as perf
 * report's): the samples are read again, keeping theirs.
 */
#include <string.h>

#include "session/session-int.h"

static int
check(struct bt_session *s, int attr, const struct bt_selection_opts *o,
      struct bt_error *err)
{
	if (o->npid > BT_SELECTION_MAX_THREADS || o->ntid > BT_SELECTION_MAX_THREADS)
		return bt_error_set(err, BT_EINVAL, "at most %d processes and %d threads",
		    BT_SELECTION_MAX_THREADS, BT_SELECTION_MAX_THREADS);
	return 0;
}

static void
scan(struct bt_selection *sel, struct bt_scan *sc)
{
	sc->pids = sel->o.pid;
	sc->npids = sel->o.npid;
	sc->tids = sel->o.tid;
	sc->ntids = sel->o.ntid;
}

static bool
rescan(const struct bt_selection_opts *o)
{
	return o->npid > 0 || o->ntid > 0;
}

static bool
same(const struct bt_selection_opts *a, const struct bt_selection_opts *b)
{
	return a->npid == b->npid && a->ntid == b->ntid &&
	    memcmp(a->pid, b->pid, a->npid * sizeof(*a->pid)) == 0 &&
	    memcmp(a->tid, b->tid, a->ntid * sizeof(*a->tid)) == 0;
}

const struct sel_dim bt_dim_threads = {
	.check = check,
	.scan = scan,
	.rescan = rescan,
	.same = same,
};
