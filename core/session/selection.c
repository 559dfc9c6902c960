/*
 * Selections (benchtui/selection.h): the samples of one event, time
 * window, benchmark and focus, aggregated by (module, offset) first (the
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

/* The asked window: seconds from the first sample, and the recording's clock. */
static void
window(struct bt_selection *sel, uint64_t *lo, uint64_t *hi)
{
	const struct bt_profile *p = sel->s->p;
	double span = p->last_time > p->first_time ?
	    (double)(p->last_time - p->first_time) / 1e9 : 0;
	double from = sel->o.time_from, to = sel->o.time_to;

	if (sel->o.time_percent) {
		from = from >= 0 ? from / 100 * span : from;
		to = to >= 0 ? to / 100 * span : to;
	}
	sel->win_from = from >= 0 ? from : 0;
	sel->win_to = to >= 0 ? BT_MIN(to, span) : span;
	*lo = from >= 0 ? p->first_time + (uint64_t)(from * 1e9) : 0;
	*hi = to >= 0 ? p->first_time + (uint64_t)(to * 1e9) : UINT64_MAX;
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
	BT_ALLOC_GROW(sel->cg.counts.v, hi - lo, sel->cg.counts.alloc);
	memcpy(sel->cg.counts.v, p->chist + lo, (hi - lo) * sizeof(*p->chist));
	sel->cg.counts.n = hi - lo;
}

/*
 * The event's samples by address: the profile's whole-run histogram, or,
 * for a time window or a benchmark, the samples in it counted again.
 */
static int
aggregate(struct bt_selection *sel, struct bt_error *err)
{
	struct bt_profile *p = sel->s->p;
	struct bt_scan sc;
	struct bt_hist_entry *e;
	size_t n, i;

	memset(&sc, 0, sizeof(sc));
	sc.attr = sel->attr;
	window(sel, &sc.t_lo, &sc.t_hi);
	if (sel->o.bench >= 0 && bt_bench_scan(sel, &sc)) {
		/* a benchmark's window: the window shown is the part of it used */
		double span = sel->win_to;
		sel->win_from = sc.t_lo > p->first_time ?
		    (double)(sc.t_lo - p->first_time) / 1e9 : 0;
		sel->win_to = sc.t_hi > p->first_time ?
		    BT_MIN(span, (double)(sc.t_hi - p->first_time) / 1e9) : 0;
	}
	sel->win_lo = sc.t_lo;
	sel->win_hi = sc.t_hi;
	if (sel->o.time_from < 0 && sel->o.time_to < 0 && sel->o.bench < 0) {
		whole_run(sel);
		return 0;
	}
	if (p->chains != NULL)
		sc.chains = bt_hist_new();
	if (bt_profile_scan(p, &sc, &e, &n, err) < 0) {
		bt_hist_free(sc.chains);
		return -BT_EIO;
	}
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
	bt_frame_match_fn match;
	void *arg;
	size_t i;

	if (aggregate(sel, err) < 0)
		return -BT_EIO;
	bt_functab_sort_hits(sel);
	bt_functab_build(sel);
	/* a focus, or the benchmark's entry frame (bench-count.c) */
	match = sel->o.focus;
	arg = sel->o.focus_arg;
	if (match == NULL && p->chains != NULL && sel->o.bench >= 0)
		bt_bench_focus(sel, &match, &arg);
	if (match != NULL && p->chains != NULL) {
		/* the samples through the focus: their leaves are the hits */
		struct bt_hist_entry *leaves;
		size_t n = bt_callgraph_focus(sel, match, arg, &leaves);

		bt_functab_release(sel);
		sel->samples = sel->period = 0;
		for (i = 0; i < n; i++)
			bt_functab_add_hit(sel, &leaves[i]);
		free(leaves);
		bt_functab_sort_hits(sel);
		bt_functab_build(sel);
	}
	bt_callgraph_build(sel);
	return 0;
}

/* The event o names (NULL: the default), -1 with err set when there is none. */
static int
event_of(const struct bt_profile *p, const char *event, struct bt_error *err)
{
	struct bt_strbuf sb = BT_STRBUF_INIT;
	size_t i;

	if (event == NULL)
		return bt_session_default_event(p);
	for (i = 0; i < p->info.nevents; i++)
		if (strcmp(p->info.events[i], event) == 0)
			return (int)i;
	for (i = 0; i < p->info.nevents; i++)
		bt_strbuf_addf(&sb, "%s'%s'", i ? ", " : "", p->info.events[i]);
	bt_error_set(err, BT_EINVAL, "no event '%s' in the recording (it has %s)",
	    event, sb.buf);
	bt_strbuf_release(&sb);
	return -1;
}

/* A live selection of the same samples, NULL if none. */
static struct bt_selection *
find_live(struct bt_session *s, int attr, const struct bt_selection_opts *o)
{
	struct bt_selection *x;

	for (x = s->live; x != NULL; x = x->next)
		if (x->attr == attr && x->o.time_from == o->time_from &&
		    x->o.time_to == o->time_to && x->o.time_percent == o->time_percent &&
		    x->o.bench == o->bench && x->o.focus == o->focus &&
		    x->o.focus_arg == o->focus_arg)
			return x;
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
	free(sel);
}

struct bt_selection *
bt_selection_new(struct bt_session *s, const struct bt_selection_opts *o,
		 struct bt_error *err)
{
	struct bt_selection_opts def;
	struct bt_selection *sel;
	int attr;

	if (o == NULL) {
		bt_selection_opts_init(&def);
		o = &def;
	}
	if ((attr = event_of(s->p, o->event, err)) < 0)
		return NULL;
	if ((sel = find_live(s, attr, o)) != NULL)
		return bt_selection_ref(sel);
	if (o->focus != NULL && s->p->chains == NULL) {
		bt_error_set(err, BT_ENODATA, "the recording has no call chains to focus on");
		return NULL;
	}
	sel = bt_xcalloc(1, sizeof(*sel));
	sel->s = s;
	sel->refs = 1;
	sel->o = *o;
	sel->attr = attr;
	sel->o.event = s->p->info.nevents ? s->p->info.events[attr] : NULL;
	sel->cg.kfunc = -1;
	if (o->bench >= 0 && bt_bench_check(s, attr, o->bench, err) < 0) {
		release(sel);
		return NULL;
	}
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
	if (sel->cache[which].data != NULL && sel->cache[which].release != NULL)
		sel->cache[which].release(sel->cache[which].data);
	sel->cache[which].data = data;
	sel->cache[which].release = rel;
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
