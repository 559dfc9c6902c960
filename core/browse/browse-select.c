/*
 * A new event (e) or part of the run (the timeline's window) under the
 * open screens: each screen gets the selection of its own samples (its
 * benchmark, if any) in that event and window, finds its function again
 * by module and start and its cursor by its anchor, and is rebuilt in
 * place (docs/browser.md, "Keeping one's place").
 */
#include <stdlib.h>
#include <string.h>

#include "benchtui/selection.h"
#include "benchtui/session.h"
#include "browse/browse-int.h"

/*
 * Screen sc's selection in another event and window: its options with
 * those. NULL with err set when there is none.
 */
static struct bt_selection *
moved(const struct screen *sc, const char *event, double from, double to,
      bool percent, struct bt_error *err)
{
	struct bt_selection_opts o = *bt_selection_opts(sc->sel);

	o.event = event;
	o.time_from = from;
	o.time_to = to;
	o.time_percent = percent;
	return bt_selection_new(bt_selection_session(sc->sel), &o, err);
}

/*
 * Look at another event or time window, the screens [0, keep) staying on
 * their functions and rows: a function is found again by its module and
 * start (added to the table with no samples if the new selection has none
 * there), a row by its anchor. A screen whose function has no code any
 * more ends the stack. On error nothing changes.
 */
static int
reselect(struct bt_browser *b, const char *event, double from, double to,
	 bool percent, size_t keep, size_t height, struct bt_error *err)
{
	struct bt_selection **sels = bt_xcalloc(keep + 1, sizeof(*sels));
	struct anchor *a = bt_xcalloc(keep + 1, sizeof(*a));
	size_t i, n;
	long f;

	for (i = 0; i < keep; i++) {
		sels[i] = moved(&b->stack.v[i], event, from, to, percent, err);
		if (sels[i] == NULL) {
			while (i-- > 0)
				bt_selection_free(sels[i]);
			free(sels);
			free(a);
			return -1;
		}
		a[i] = browse_anchor(&b->stack.v[i]);
	}
	while (b->stack.n > keep)
		browse_release(&b->stack.v[--b->stack.n]);
	for (i = 0; i < keep; i++) {
		bt_selection_free(b->stack.v[i].sel);
		b->stack.v[i].sel = sels[i];
	}
	/* the functions first: those found again join the table before it is built */
	for (n = 0; n < keep; n++) {
		struct screen *sc = &b->stack.v[n];
		if (sc->func < 0)
			continue;
		if ((f = bt_selection_func_at(sc->sel, sc->mod, sc->start)) < 0)
			break;
		sc->func = f;
	}
	for (i = 0; i < n; i++) {
		struct screen *sc = &b->stack.v[i];
		struct bt_view *v = sc->ops->build(b, sc, NULL);

		if (v == NULL)
			break;
		if (!browse_install(sc, v, &a[i], height) && a[i].kind == BT_ROW_FUNC)
			sc->nav.cursor = sc->nav.top = 0;	/* its function left the table */
	}
	while (b->stack.n > BT_MAX(i, (size_t)1))
		browse_release(&b->stack.v[--b->stack.n]);
	browse_select_top(b);
	free(sels);
	free(a);
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