/*
 * A new selection under the open screens: another event (e) or part of the
 * run (the timeline's window) renumbers the session's function table, so
 * each screen's function is noted as (module, address) and its cursor as
 * an anchor, the session selects, and every screen is found again and
 * rebuilt in place (docs/browser.md, "Keeping one's place").
 */
#include <stdlib.h>
#include <string.h>

#include "benchtui/selection.h"
#include "benchtui/session.h"
#include "browse/browse-int.h"

/* Where a screen is, in terms a new selection keeps (the table is renumbered). */
struct place {
	bool has_func, anchor_func;
	uint32_t module, anchor_module;
	uint64_t start, anchor_start;
	struct anchor a;
};

static void
func_key(const struct bt_browser *b, long fi, uint32_t *mi, uint64_t *start)
{
	*mi = bt_selection_func(b->sel, (size_t)fi)->mod;
	*start = bt_selection_func(b->sel, (size_t)fi)->start;
}

/* The table's row of the function at (mi, start), without adding it; -1 if none. */
static long
func_in_table(const struct bt_browser *b, uint32_t mi, uint64_t start)
{
	size_t i;

	for (i = 0; i < bt_selection_nfuncs(b->sel); i++)
		if (bt_selection_func(b->sel, i)->mod == mi &&
		    bt_selection_func(b->sel, i)->start == start)
			return (long)i;
	return -1;
}

/*
 * Look at another event or time window, the screens [0, keep) staying on
 * their functions and rows: a function is found again by its module and
 * address (added to the table with no samples if the new selection has
 * none there), a row by its anchor. A screen whose function has no code
 * any more ends the stack. On error nothing changes.
 */
static int
reselect(struct bt_browser *b, const char *event, double from, double to,
	 bool percent, size_t keep, size_t height, struct bt_error *err)
{
	struct place *pl = bt_xcalloc(keep + 1, sizeof(*pl));
	struct bt_selection_opts so;
	size_t i;
	long f;

	for (i = 0; i < keep; i++) {
		struct screen *sc = &b->stack.v[i];
		pl[i].a = browse_anchor(sc);
		if ((pl[i].has_func = sc->func >= 0))
			func_key(b, sc->func, &pl[i].module, &pl[i].start);
		if ((pl[i].anchor_func = pl[i].a.kind == BT_ROW_FUNC &&
		    pl[i].a.func < bt_selection_nfuncs(b->sel)))
			func_key(b, (long)pl[i].a.func, &pl[i].anchor_module,
			    &pl[i].anchor_start);
	}
	so = *bt_selection_opts(b->sel);
	so.event = event;
	so.time_from = from;
	so.time_to = to;
	so.time_percent = percent;
	if (browse_select(b, &so, err) < 0) {
		free(pl);
		return -1;
	}
	while (b->stack.n > keep)
		browse_release(&b->stack.v[--b->stack.n]);
	/* the functions first: those found again join the table before it is built */
	for (i = 0; i < b->stack.n; i++) {
		if (!pl[i].has_func)
			continue;
		f = bt_selection_func_at(b->sel, pl[i].module, pl[i].start);
		if (f < 0)
			break;
		b->stack.v[i].func = f;
	}
	while (b->stack.n > BT_MAX(i, (size_t)1))
		browse_release(&b->stack.v[--b->stack.n]);
	for (i = 0; i < b->stack.n; i++) {
		struct screen *sc = &b->stack.v[i];
		struct bt_view *v;

		if (pl[i].anchor_func) {
			f = func_in_table(b, pl[i].anchor_module, pl[i].anchor_start);
			pl[i].a.func = f >= 0 ? (size_t)f : (size_t)-1;
		}
		v = sc->ops->build(b, sc, NULL);
		if (v == NULL)
			break;
		if (!browse_install(sc, v, &pl[i].a, height) && pl[i].a.kind == BT_ROW_FUNC)
			sc->nav.cursor = sc->nav.top = 0;	/* its function left the table */
	}
	while (b->stack.n > BT_MAX(i, (size_t)1))
		browse_release(&b->stack.v[--b->stack.n]);
	free(pl);
	return 0;
}

void
browse_select_window(struct bt_browser *b, double from, double to, size_t height)
{
	struct bt_error err = { 0 };
	char msg[200];

	/* the timeline (the top screen) closes: the part of the run is chosen */
	if (reselect(b, bt_selection_event(b->sel), from, to, false, b->stack.n - 1,
	    height, &err) < 0) {
		bt_browser_set_status(b, "%s", err.msg);
		return;
	}
	if (from < 0 && to < 0)
		snprintf(msg, sizeof(msg), "the whole run: %llu samples",
		    (unsigned long long)bt_selection_samples(b->sel));
	else {
		double f, t;
		bt_selection_window(b->sel, &f, &t);
		snprintf(msg, sizeof(msg), "window %.3f-%.3f s: %llu samples", f, t,
		    (unsigned long long)bt_selection_samples(b->sel));
	}
	bt_browser_set_status(b, "%s", msg);
}

void
browse_next_event(struct bt_browser *b, size_t height)
{
	const struct bt_profile_info *in = bt_session_info(bt_selection_session(b->sel));
	const char *cur = bt_selection_event(b->sel);
	struct bt_error err = { 0 };
	const struct bt_selection_opts *o = bt_selection_opts(b->sel);
	size_t i, k;

	if (in->nevents < 2) {
		bt_browser_set_status(b, "the recording has one event: %s", cur);
		return;
	}
	for (i = 0; i < in->nevents; i++)
		if (strcmp(in->events[i], cur) == 0)
			break;
	/* the next event with samples (events without any are only noise) */
	for (k = 1; k < in->nevents; k++)
		if (in->event_samples[(i + k) % in->nevents] > 0)
			break;
	if (k == in->nevents) {
		bt_browser_set_status(b, "no other event has samples (%zu events)",
		    in->nevents);
		return;
	}
	i = (i + k) % in->nevents;
	if (reselect(b, in->events[i], o->time_from, o->time_to, o->time_percent,
	    b->stack.n, height, &err) < 0) {
		bt_browser_set_status(b, "%s", err.msg);
		return;
	}
	bt_browser_set_status(b, "event %s: %llu samples", in->events[i],
	    (unsigned long long)bt_selection_samples(b->sel));
}