/*
 * Selections (benchtui/selection.h): the samples of one event, time
 * window, set of processes or threads, benchmark and focus, aggregated by (module, offset) first (the
 * profile's whole-run histogram, or the samples counted again), then
 * grouped into the function table (functab.c) with its call graph
 * (callgraph.c). The session keeps the live ones in a list, so that
 * asking twice for the same samples computes them once.
 */
#include <stdlib.h>
#include <string.h>

#include "session/session-int.h"

void
bt_selection_opts_init(struct bt_selection_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->time_from = o->time_to = -1;
	o->bench = -1;
}

/* The whole run's histogram of the event, and its chains, as they are. */
static void
whole_run(struct bt_selection *sel)
{
	const struct bt_profile *p = sel->s->p;
	size_t lo = p->hist_start[sel->attr], hi = p->hist_start[sel->attr + 1], i;

	BT_ALLOC_GROW(sel->hits.v, hi - lo, sel->hits.alloc);
	for (i = lo; i < hi; i++)
		bt_functab_add_hit(sel, &p->hist[i]);
	if (p->chains == NULL)
		return;
	lo = p->chist_start[sel->attr];
	hi = p->chist_start[sel->attr + 1];
	if (hi == lo)	/* no sample of the event: no array, memcpy(NULL) is undefined */
		return;
	BT_ALLOC_GROW(sel->cg.counts.v, hi - lo, sel->cg.counts.alloc);
	memcpy(sel->cg.counts.v, p->chist + lo, (hi - lo) * sizeof(*p->chist));
	sel->cg.counts.n = hi - lo;
}

/*
 * What narrows a selection besides its event, one struct sel_dim each
 * (session-int.h): a new one is its file and a line here. In this order:
 * a benchmark's window is cut by the time window, and the user's focus
 * comes before a benchmark's entry frame.
 */
static const struct sel_dim *const dims[] = {
	&bt_dim_window,
	&bt_dim_threads,
	&bt_dim_focus,
	&bt_dim_bench,
};

bool
bt_selection_scan_init(struct bt_selection *sel, struct bt_scan *sc)
{
	bool part = false;
	size_t i;

	bt_scan_init(sc, sel->attr);
	for (i = 0; i < BT_ARRAY_SIZE(dims); i++) {
		if (dims[i]->scan != NULL)
			dims[i]->scan(sel, sc);
		if (dims[i]->rescan != NULL && dims[i]->rescan(&sel->o))
			part = true;
	}
	return part;
}

/*
 * The event's samples by address: the profile's whole-run histogram, or,
 * when a dimension asks for part of the run, the samples counted again.
 */
static int
aggregate(struct bt_selection *sel, struct bt_error *err)
{
	struct bt_profile *p = sel->s->p;
	struct bt_scan sc;
	struct bt_hist_entry *e;
	size_t n, i;
	bool whole;

	whole = !bt_selection_scan_init(sel, &sc);
	sel->win_lo = sc.t_lo;
	sel->win_hi = sc.t_hi;
	if (whole) {
		whole_run(sel);
		return 0;
	}
	if (p->chains != NULL)
		sc.chains = bt_hist_new();
	sc.tasks = bt_hist_new();
	if (bt_profile_scan(p, &sc, &e, &n, err) < 0) {
		bt_hist_free(sc.chains);
		bt_hist_free(sc.tasks);
		return -BT_EIO;
	}
	sel->tasks.n = bt_hist_take(sc.tasks, &sel->tasks.v);
	sel->tasks.alloc = sel->tasks.n;
	sel->rescanned = true;
	bt_hist_free(sc.tasks);
	if (sc.chains != NULL) {
		sel->cg.counts.n = bt_hist_take(sc.chains, &sel->cg.counts.v);
		sel->cg.counts.alloc = sel->cg.counts.n;
		bt_hist_free(sc.chains);
	}
	BT_ALLOC_GROW(sel->hits.v, n, sel->hits.alloc);
	for (i = 0; i < n; i++)
		bt_functab_add_hit(sel, &e[i]);
	free(e);
	return 0;
}

/* Aggregate the samples, build the function table and the call graph. */
static int
compute(struct bt_selection *sel, struct bt_error *err)
{
	struct bt_profile *p = sel->s->p;
	bt_frame_match_fn match = NULL;
	void *arg = NULL;
	bool exclude = false;
	size_t i;

	if (aggregate(sel, err) < 0)
		return -BT_EIO;
	bt_functab_sort_hits(sel);
	bt_functab_build(sel);
	/*
	 * the first focus a dimension asks for: the user's, a benchmark's
	 * entry frame (or, measured by probes, none of its harness's timer code)
	 */
	for (i = 0; i < BT_ARRAY_SIZE(dims) && match == NULL && p->chains != NULL; i++)
		if (dims[i]->focus != NULL)
			dims[i]->focus(sel, &match, &arg, &exclude);
	if (match != NULL && p->chains != NULL) {
		/* the samples through the focus: their leaves are the hits */
		struct bt_hist_entry *leaves;
		size_t n = bt_callgraph_focus(sel, match, arg, exclude, &leaves);
		BT_VEC(struct bt_hit) hits = { NULL, 0, 0 };

		if (exclude) {	/* the others' leaves taken from the hits */
			bt_functab_sub_hits(sel, leaves, n);
			hits.v = sel->hits.v;
			hits.n = hits.alloc = sel->hits.n;
			sel->hits.v = NULL;
			sel->hits.n = sel->hits.alloc = 0;
		}
		bt_functab_release(sel);
		if (exclude) {
			sel->hits.v = hits.v;
			sel->hits.n = sel->hits.alloc = hits.n;
		} else {
			sel->samples = sel->period = 0;
			for (i = 0; i < n; i++)
				bt_functab_add_hit(sel, &leaves[i]);
		}
		free(leaves);
		bt_functab_sort_hits(sel);
		bt_functab_build(sel);
	}
	bt_callgraph_build(sel);
	return 0;
}

/* A live selection of the same samples, NULL if none. */
static struct bt_selection *
find_live(struct bt_session *s, int attr, const struct bt_selection_opts *o)
{
	struct bt_selection *x;
	size_t i;

	for (x = s->live; x != NULL; x = x->next) {
		if (x->attr != attr)
			continue;
		for (i = 0; i < BT_ARRAY_SIZE(dims) && dims[i]->same(&x->o, o); i++)
			;
		if (i == BT_ARRAY_SIZE(dims))
			return x;
	}
	return NULL;
}

static void
release(struct bt_selection *sel)
{
	size_t i;

	for (i = 0; i < BT_SEL_CACHE_COUNT; i++)
		bt_selection_set_cache(sel, (enum bt_sel_cache)i, NULL, NULL);
	bt_functab_release(sel);
	bt_callgraph_release(&sel->cg);
	BT_VEC_FREE(sel->tasks);
	free(sel);
}

struct bt_selection *
bt_selection_new(struct bt_session *s, const struct bt_selection_opts *o,
		 struct bt_error *err)
{
	struct bt_selection_opts def;
	struct bt_selection *sel;
	size_t i;
	int attr;

	if (o == NULL) {
		bt_selection_opts_init(&def);
		o = &def;
	}
	if ((attr = bt_session_find_event(s->p, o->event, err)) < 0)
		return NULL;
	if ((sel = find_live(s, attr, o)) != NULL)
		return bt_selection_ref(sel);
	for (i = 0; i < BT_ARRAY_SIZE(dims); i++)
		if (dims[i]->check != NULL && dims[i]->check(s, attr, o, err) < 0)
			return NULL;
	sel = bt_xcalloc(1, sizeof(*sel));
	sel->s = s;
	sel->refs = 1;
	sel->o = *o;
	sel->attr = attr;
	sel->o.event = s->p->info.nevents ? s->p->info.events[attr] : NULL;
	sel->cg.kfunc = -1;
	if (compute(sel, err) < 0) {
		release(sel);
		return NULL;
	}
	if (!s->noted)
		bt_session_recording_notes(s);
	sel->next = s->live;
	s->live = sel;
	bt_bench_prepare(sel);
	return sel;
}

struct bt_selection *
bt_selection_ref(struct bt_selection *sel)
{
	sel->refs++;
	return sel;
}

void
bt_selection_free(struct bt_selection *sel)
{
	struct bt_selection **pp;

	if (sel == NULL || --sel->refs > 0)
		return;
	for (pp = &sel->s->live; *pp != NULL; pp = &(*pp)->next)
		if (*pp == sel) {
			*pp = sel->next;
			break;
		}
	release(sel);
}

struct bt_session *
bt_selection_session(const struct bt_selection *sel)
{
	return sel->s;
}

const struct bt_selection_opts *
bt_selection_opts(const struct bt_selection *sel)
{
	return &sel->o;
}

const char *
bt_selection_event(const struct bt_selection *sel)
{
	return sel->o.event ? sel->o.event : "";
}

int
bt_selection_attr(const struct bt_selection *sel)
{
	return sel->attr;
}

uint64_t
bt_selection_samples(const struct bt_selection *sel)
{
	return sel->samples;
}

uint64_t
bt_selection_period(const struct bt_selection *sel)
{
	return sel->period;
}

bool
bt_selection_windowed(const struct bt_selection *sel)
{
	return sel->o.time_from >= 0 || sel->o.time_to >= 0;
}

void
bt_selection_window(const struct bt_selection *sel, double *from, double *to)
{
	*from = sel->win_from;
	*to = sel->win_to;
}

void
bt_selection_window_clock(const struct bt_selection *sel, uint64_t *lo, uint64_t *hi)
{
	*lo = sel->win_lo;
	*hi = sel->win_hi;
}

size_t
bt_selection_nfuncs(const struct bt_selection *sel)
{
	return sel->funcs.n;
}

const struct bt_func *
bt_selection_func(const struct bt_selection *sel, size_t i)
{
	return i < sel->funcs.n ? &sel->funcs.v[i].pub : NULL;
}

void *
bt_selection_cache(const struct bt_selection *sel, enum bt_sel_cache which)
{
	return sel->cache[which].data;
}

void
bt_selection_set_cache(struct bt_selection *sel, enum bt_sel_cache which,
		       void *data, void (*rel)(void *data))
{
	bt_cache_slot_set(&sel->cache[which], data, rel);
}

struct bt_msyms *
bt_selection_func_syms(struct bt_selection *sel, size_t fi)
{
	return fi < sel->funcs.n ? bt_session_syms(sel->s, sel->funcs.v[fi].pub.mod) : NULL;
}

const struct bt_module *
bt_selection_func_module(const struct bt_selection *sel, size_t fi)
{
	return fi < sel->funcs.n ? &sel->s->p->modules.v[sel->funcs.v[fi].pub.mod] : NULL;
}

struct bt_profile *
bt_selection_profile(const struct bt_selection *sel)
{
	return sel->s->p;
}
