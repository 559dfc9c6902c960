/*
 * The time window of a selection (--time, the timeline's marks): samples
 * in [from, to) seconds of the run, or percent of it.
 */
#include "session/session-int.h"

/*
 * [from, to) seconds of the run (percent of it), negative: open, as the
 * recording's times [*lo, *hi); *span: the run's length in seconds.
 */
void
bt_window_bounds(const struct bt_profile *p, double from, double to, bool percent,
		 uint64_t *lo, uint64_t *hi, double *span)
{
	*span = p->last_time > p->first_time ? (double)(p->last_time - p->first_time) / 1e9 : 0;
	if (percent) {
		from = from >= 0 ? from / 100 * *span : from;
		to = to >= 0 ? to / 100 * *span : to;
	}
	*lo = from >= 0 ? p->first_time + (uint64_t)(from * 1e9) : 0;
	*hi = to >= 0 ? p->first_time + (uint64_t)(to * 1e9) : UINT64_MAX;
}

static void
scan(struct bt_selection *sel, struct bt_scan *sc)
{
	double span, from = sel->o.time_from, to = sel->o.time_to;

	bt_window_bounds(sel->s->p, from, to, sel->o.time_percent, &sc->t_lo, &sc->t_hi,
	    &span);
	if (sel->o.time_percent) {
		from = from >= 0 ? from / 100 * span : from;
		to = to >= 0 ? to / 100 * span : to;
	}
	/* the part of the run it holds: a window past the end holds none of it */
	sel->win_from = from >= 0 ? BT_MIN(from, span) : 0;
	sel->win_to = to >= 0 ? BT_MIN(to, span) : span;
}

static bool
rescan(const struct bt_selection_opts *o)
{
	return o->time_from >= 0 || o->time_to >= 0;
}

static bool
same(const struct bt_selection_opts *a, const struct bt_selection_opts *b)
{
	return a->time_from == b->time_from && a->time_to == b->time_to &&
	    a->time_percent == b->time_percent;
}

const struct sel_dim bt_dim_window = {
	.scan = scan,
	.rescan = rescan,
	.same = same,
};
