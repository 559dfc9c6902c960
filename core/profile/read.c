/*
 * A recording's samples read into histograms: once in full (the first
 * read: core/perf's ordered stream builds the machine from the side-band
 * records and gives each sample once every record as old as it is in),
 * then again for a time window or the timeline (bt_profile_scan: the
 * machine is whole by then). Each sample is resolved at its own time to
 * (module, offset), its call chain unwound and interned, and counted.
 */
#include <string.h>

#include "perf/ordered.h"
#include "perf/perfdata.h"
#include "perf/sample.h"
#include "profile/chains.h"
#include "profile/profile-int.h"
#include "profile/readvals.h"

typedef void (*sample_fn)(struct bt_profile *p, const struct bt_sample *smp,
			  void *arg);

/* How samples are read: each to fn (with arg); chains: unwound too. */
struct sink {
	struct bt_profile *p;
	struct bt_pd_reader *r;
	sample_fn fn;
	void *arg;
	bool chains;
	bool replay;		/* the side-band again, for the machine only */
	struct bt_readvals *rv;
};

static void
sink_init(struct sink *k, struct bt_profile *p, struct bt_pd_reader *r,
	  sample_fn fn, void *arg, bool chains)
{
	k->p = p;
	k->r = r;
	k->fn = fn;
	k->arg = arg;
	k->chains = p->chains != NULL && chains;
	k->replay = false;
	k->rv = bt_readvals_new();
}

/*
 * What the stream must decode of each sample: the brief fields, unless
 * chains are read (every field) or samples carry counter values (the
 * group's credits: readvals.c).
 */
static unsigned
sink_flags(const struct sink *k)
{
	if (k->chains || (bt_pd_attr(k->r, 0)->attr.sample_type & PERF_SAMPLE_READ))
		return 0;
	return BT_ORDERED_BRIEF;
}

/* Resolve one sample to (module, offset); false when it is not a sample we keep. */
static bool
resolve_sample(struct bt_profile *p, const struct bt_pd_event *ev,
	       struct bt_sample *smp)
{
	unsigned mode = ev->misc & PERF_RECORD_MISC_CPUMODE_MASK;

	if (ev->attr < 0 || ev->attr > 255 || (size_t)ev->attr >= p->info.nevents)
		return false;
	smp->time = ev->time;
	smp->off = ev->sample.ip;
	smp->pid = ev->pid;
	smp->tid = ev->tid;
	smp->period = BT_MIN(ev->sample.period, UINT32_MAX);
	smp->cpu = (uint16_t)ev->cpu;
	smp->attr = (uint8_t)ev->attr;
	smp->mode = (uint8_t)mode;
	smp->chain = BT_CHAIN_NONE;
	if (mode == PERF_RECORD_MISC_KERNEL || mode == PERF_RECORD_MISC_GUEST_KERNEL ||
	    mode == PERF_RECORD_MISC_HYPERVISOR) {
		smp->module = BT_MODULE_KERNEL;
		return true;
	}
	bt_machine_resolve_code(p->machine, ev->pid, ev->sample.ip, ev->time,
	    &smp->module, &smp->off);
	return true;
}

/* A sample of the stream: resolved, its chain interned, to k->fn. */
static int
take_sample(void *arg, const struct bt_pd_event *ev, struct bt_error *err)
{
	struct sink *k = arg;
	struct bt_profile *p = k->p;
	const struct bt_read_credit *c;
	struct bt_sample smp;
	int i, n;

	if (!resolve_sample(p, ev, &smp))
		return 0;
	if (k->chains)
		smp.chain = bt_chains_sample(p, bt_pd_layout(k->r, (size_t)ev->attr),
		    ev, smp.module, smp.off);
	n = BT_PF_HAS(&ev->sample, BT_PF_READ) ?
	    bt_readvals_split(k->rv, k->r, ev, &c) : -1;
	if (n < 0)
		k->fn(p, &smp, k->arg);
	for (i = 0; i < n; i++) {
		if ((size_t)c[i].attr >= p->info.nevents || c[i].attr > 255)
			continue;
		smp.attr = (uint8_t)c[i].attr;
		smp.period = BT_MIN(c[i].period, UINT32_MAX);
		k->fn(p, &smp, k->arg);
	}
	return 0;
}

/* The u64 field f of a native-order record (0 when it has none). */
static inline uint64_t
brief64(const struct bt_perf_layout *l, const uint8_t *rec, int f)
{
	uint64_t v = 0;

	if (l->off[f] >= 0)
		memcpy(&v, rec + l->off[f], 8);
	return v;
}

/*
 * A sample of the stream decoded briefly (one event, native byte order):
 * as resolve_sample() for it, its fields read from the record straight
 * into the sample, with no event made in between; false when it is not
 * a sample we keep.
 */
static inline bool
brief_sample(struct bt_profile *p, const struct bt_perf_layout *l,
	     const uint8_t *rec, struct bt_sample *smp)
{
	uint32_t w[2] = { 0, 0 };
	uint16_t misc;
	unsigned mode;

	if (p->info.nevents == 0)
		return false;
	memcpy(&misc, rec + 4, 2);
	mode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
	if (l->off[BT_PF_TID] >= 0)
		memcpy(w, rec + l->off[BT_PF_TID], 8);
	smp->pid = w[0];
	smp->tid = w[1];
	smp->time = brief64(l, rec, BT_PF_TIME);
	smp->off = brief64(l, rec, BT_PF_IP);
	smp->period = l->off[BT_PF_PERIOD] >= 0 ? brief64(l, rec, BT_PF_PERIOD) :
	    l->fixed_period;
	smp->period = BT_MIN(smp->period, UINT32_MAX);
	w[0] = 0;
	if (l->off[BT_PF_CPU] >= 0)
		memcpy(w, rec + l->off[BT_PF_CPU], 4);
	smp->cpu = (uint16_t)w[0];
	smp->attr = 0;
	smp->mode = (uint8_t)mode;
	smp->chain = BT_CHAIN_NONE;
	if (mode == PERF_RECORD_MISC_KERNEL || mode == PERF_RECORD_MISC_GUEST_KERNEL ||
	    mode == PERF_RECORD_MISC_HYPERVISOR)
		smp->module = BT_MODULE_KERNEL;
	else
		bt_machine_resolve_code(p->machine, smp->pid, smp->off, smp->time,
		    &smp->module, &smp->off);
	return true;
}

/* A sample decoded briefly (brief_sample), to k->fn. */
static void
take_brief(void *arg, const struct bt_perf_layout *l, const uint8_t *rec)
{
	struct sink *k = arg;
	struct bt_sample smp;

	if (brief_sample(k->p, l, rec, &smp))
		k->fn(k->p, &smp, k->arg);
}

/* A side-band record as it is read: counts, and the machine's modules. */
static bool
read_side(void *arg, struct bt_pd_event *ev, uint32_t *tag)
{
	struct sink *k = arg;
	struct bt_profile *p = k->p;

	switch (ev->type) {
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES:
		p->info.lost += ev->u.lost.lost;
		return false;
	case PERF_RECORD_THROTTLE:
		p->info.throttled++;
		return false;
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (!k->replay)	/* a replay's tasks come whole from the cache */
			bt_tasks_read(&p->tasks, ev);
		return bt_machine_read(p->machine, ev, tag);
	default:
		return bt_machine_read(p->machine, ev, tag);
	}
}

/* A side-band record in time order: into the machine. */
static void
apply_side(void *arg, const struct bt_pd_event *ev, uint32_t tag)
{
	struct sink *k = arg;

	bt_machine_apply(k->p->machine, ev, tag);
}

static const struct bt_ordered_ops sink_ops = {
	.read = read_side,
	.sideband = apply_side,
	.sample = take_sample,
	.brief = take_brief,
};

struct count_state {
	struct bt_hist *h, *ch;
};

/* The first read: every event's whole-run histogram, counts and times. */
static inline void
count_sample(struct bt_profile *p, const struct bt_sample *smp, void *arg)
{
	struct count_state *cs = arg;

	if (p->kept != NULL && !bt_kept_add(p->kept, smp)) {
		bt_kept_free(p->kept);	/* too long: read again */
		p->kept = NULL;
	}
	bt_hist_add(cs->h, smp->attr, smp->module, smp->off, smp->period);
	if (smp->chain != BT_CHAIN_NONE)
		bt_hist_add(cs->ch, smp->attr, 0, smp->chain, smp->period);
	bt_tasks_sample(&p->tasks, smp->attr, smp->pid, smp->tid, smp->time, smp->period);
	p->event_samples[smp->attr]++;
	p->event_period[smp->attr] += smp->period;
	if (smp->module == BT_MODULE_UNKNOWN)
		p->unresolved++;
	if (smp->time && (p->first_time == 0 || smp->time < p->first_time))
		p->first_time = smp->time;
	if (smp->time > p->last_time)
		p->last_time = smp->time;
}

/*
 * The first read's samples decoded briefly: take_brief() with
 * count_sample() for k->fn, called directly.
 */
static void
count_brief(void *arg, const struct bt_perf_layout *l, const uint8_t *rec)
{
	struct sink *k = arg;
	struct bt_sample smp;

	if (brief_sample(k->p, l, rec, &smp))
		count_sample(k->p, &smp, k->arg);
}

static const struct bt_ordered_ops count_ops = {
	.read = read_side,
	.sideband = apply_side,
	.sample = take_sample,
	.brief = count_brief,
};

/*
 * Take h's entries into *out (sorted by group: the event) and free h;
 * returns where each event's entries start: [start[e], start[e + 1]).
 */
static size_t *
event_starts(struct bt_hist *h, struct bt_hist_entry **out, size_t nevents)
{
	size_t n = bt_hist_take(h, out), *start, e, i;

	bt_hist_free(h);
	start = bt_xcalloc(nevents + 1, sizeof(size_t));
	for (e = 0, i = 0; e <= nevents; e++) {
		while (i < n && (*out)[i].group < e)
			i++;
		start[e] = i;
	}
	return start;
}

int
bt_profile_first_read(struct bt_profile *p, struct bt_pd_reader *r,
		      struct bt_ordered_log *log, struct bt_error *err)
{
	struct count_state cs = { bt_hist_new(), bt_hist_new() };
	struct sink k;
	int ret;

	sink_init(&k, p, r, count_sample, &cs, true);
	ret = bt_ordered_read_log(r, &count_ops, &k, sink_flags(&k), log, err);
	bt_readvals_free(k.rv);
	bt_chains_seal(p);
	p->hist_start = event_starts(cs.h, &p->hist, p->info.nevents);
	p->chist_start = event_starts(cs.ch, &p->chist, p->info.nevents);
	return ret;
}

int
bt_profile_replay(struct bt_profile *p, struct bt_pd_reader *r,
		  const struct bt_ordered_step *steps, size_t n, struct bt_error *err)
{
	struct sink k;
	int ret;

	sink_init(&k, p, r, count_sample, NULL, false);
	k.replay = true;
	ret = bt_ordered_replay(r, steps, n, &sink_ops, &k, err);
	bt_readvals_free(k.rv);
	return ret;
}

/* The deferred chains: each sample's chain counted, as count_sample does. */
static void
count_chain(struct bt_profile *p, const struct bt_sample *smp, void *arg)
{
	if (p->kept != NULL && !bt_kept_add(p->kept, smp)) {
		bt_kept_free(p->kept);	/* too long: read again */
		p->kept = NULL;
	}
	if (smp->chain != BT_CHAIN_NONE)
		bt_hist_add(arg, smp->attr, 0, smp->chain, smp->period);
}

int
bt_profile_chains_read(struct bt_profile *p, struct bt_pd_reader *r,
		       struct bt_error *err)
{
	struct bt_hist *ch = bt_hist_new();
	struct sink k;
	int ret;

	sink_init(&k, p, r, count_chain, ch, true);
	ret = bt_ordered_samples(r, &sink_ops, &k, sink_flags(&k), err);
	bt_readvals_free(k.rv);
	bt_chains_seal(p);
	free(p->chist);
	free(p->chist_start);
	p->chist_start = event_starts(ch, &p->chist, p->info.nevents);
	return ret;
}

struct scan_state {
	const struct bt_scan *sc;
	struct bt_hist *h;
	double span;
};

/* The group of a sample at time t: its slice of the run, or its window. */
static uint32_t
scan_group(const struct bt_profile *p, const struct scan_state *st, uint64_t t)
{
	const struct bt_scan *sc = st->sc;
	uint32_t group = 0;

	if (sc->nbins) {
		group = (uint32_t)((double)(t - p->first_time) / st->span *
		    (double)sc->nbins);
		if (group >= sc->nbins)
			group = (uint32_t)sc->nbins - 1;
	} else if (sc->nwindows) {
		size_t lo = 0, hi = sc->nwindows;
		while (lo < hi) {	/* the first window ending after the sample */
			size_t mid = lo + (hi - lo) / 2;
			if (sc->windows[2 * mid + 1] <= t)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < sc->nwindows && sc->windows[2 * lo] <= t)
			group = (uint32_t)lo + 1;
	}
	return group;
}

/* Is t in one of the n sorted, disjoint pairs [lo, hi) of w (n 0: yes)? */
static bool
in_pairs(const uint64_t *w, size_t n, uint64_t t)
{
	size_t lo = 0, hi = n;

	if (n == 0)
		return true;
	while (lo < hi) {	/* the first pair ending after t */
		size_t mid = lo + (hi - lo) / 2;
		if (w[2 * mid + 1] <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && w[2 * lo] <= t;
}

/* Is x one of the n in list (n 0: any is)? */
static bool
one_of(uint32_t x, const uint32_t *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (list[i] == x)
			return true;
	return n == 0;
}

static void
scan_sample(struct bt_profile *p, const struct bt_sample *smp, void *arg)
{
	struct scan_state *st = arg;
	const struct bt_scan *sc = st->sc;
	uint32_t group;

	if (smp->attr != sc->attr || smp->time < sc->t_lo || smp->time >= sc->t_hi ||
	    !one_of(smp->pid, sc->pids, sc->npids) || !one_of(smp->tid, sc->tids, sc->ntids) ||
	    !in_pairs(sc->keep, sc->nkeep, smp->time))
		return;
	if (sc->ncomms > 0 && !one_of(bt_tasks_comm_at(&p->tasks, smp->tid, smp->time),
	    sc->comms, sc->ncomms))
		return;
	group = scan_group(p, st, smp->time);
	if (sc->fold)
		bt_hist_add(st->h, group, 0, smp->module == sc->fold_module &&
		    smp->off >= sc->fold_lo && smp->off < sc->fold_hi, smp->period);
	else
		bt_hist_add(st->h, group, smp->module, smp->off, smp->period);
	if (sc->chains != NULL && smp->chain != BT_CHAIN_NONE)
		bt_hist_add(sc->chains, group, 0, smp->chain, smp->period);
	if (sc->tasks != NULL)
		bt_hist_add(sc->tasks, group, (uint32_t)bt_tasks_find(&p->tasks, smp->tid),
		    bt_tasks_comm_at(&p->tasks, smp->tid, smp->time), smp->period);
	if (sc->each != NULL) {
		struct bt_scan_sample one = { smp->time, smp->off, smp->period,
		    smp->module, smp->pid, smp->tid, smp->chain };
		sc->each(sc->each_arg, &one);
	}
}

void
bt_scan_init(struct bt_scan *sc, int attr)
{
	memset(sc, 0, sizeof(*sc));
	sc->attr = attr;
	sc->t_hi = UINT64_MAX;
}

void
bt_scan_init_counts(struct bt_scan *sc, int attr)
{
	bt_scan_init(sc, attr);
	sc->fold = true;
	sc->fold_module = UINT32_MAX;
}

int
bt_profile_scan(struct bt_profile *p, const struct bt_scan *sc,
		struct bt_hist_entry **out, size_t *n, struct bt_error *err)
{
	struct scan_state st = { sc, NULL, 1 };
	struct bt_pd_reader *r;
	struct sink k;
	int ret;

	*out = NULL;
	*n = 0;
	if (p->last_time > p->first_time)
		st.span = (double)(p->last_time - p->first_time);
	if (p->kept != NULL) {	/* the samples are here */
		st.h = bt_hist_new();
		bt_kept_each(p, p->kept, sc->attr, scan_sample, &st);
		*n = bt_hist_take(st.h, out);
		bt_hist_free(st.h);
		return 0;
	}
	r = p->mem ? bt_pd_open_mem(p->mem, p->mem_len, err) : bt_pd_open(p->path, err);
	if (r == NULL)
		return -BT_EIO;
	st.h = bt_hist_new();
	sink_init(&k, p, r, scan_sample, &st, sc->chains != NULL || sc->each != NULL);
	ret = bt_ordered_samples(r, &sink_ops, &k, sink_flags(&k), err);
	bt_readvals_free(k.rv);
	bt_pd_close(r);
	*n = bt_hist_take(st.h, out);
	bt_hist_free(st.h);
	if (ret < 0) {
		FREE_AND_NULL(*out);
		*n = 0;
		return ret;
	}
	return 0;
}
