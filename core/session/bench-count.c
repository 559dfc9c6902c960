/*
 * Which samples belong to a benchmark (DESIGN.md §7), per event: with
 * call chains, those whose chain passes through its own code (its entry
 * frame: bench_focus()); else, and for benchmarks that share their
 * code (GB ->Arg, Go b.Run), those in its time window (bench_scan()).
 * Each event's counts are made once, with the first selection of it.
 */
#include <stdlib.h>
#include <string.h>

#include "profile/chains.h"
#include "session/bench-int.h"
#include "session/session-int.h"

/*
 * With call chains a benchmark's samples are those whose chain passes
 * through its own code, the entry frame the runner calls (DESIGN.md §7),
 * wherever they fall in time. That needs code no other benchmark shares:
 * GB's ->Arg variants and Go's b.Run cases are one function, told apart
 * by their windows still; and code known by name: criterion's closures
 * are not named after the benchmark. count_samples() decides, per event.
 */
static bool
chain_candidate(struct bt_session *s, const struct bt_benches *bs, size_t bi)
{
	const char *fam = bs->v.v[bi].pub.family;
	size_t j;

	if (s->p->chains == NULL || fam == NULL || fam[0] == '\0')
		return false;
	for (j = 0; j < bs->v.n; j++)
		if (j != bi && bs->v.v[j].pub.family != NULL &&
		    strcmp(bs->v.v[j].pub.family, fam) == 0)
			return false;
	return true;
}

/*
 * The benchmark whose code chain id passes through (the outermost: the
 * entry frame), -1 none. names caches each location's function name
 * ((const char *)-1: not looked up yet).
 */
static long
chain_bench(struct bt_session *s, const struct bt_benches *bs, const bool *chained,
	    uint32_t id, const char **names)
{
	const uint32_t *locs;
	size_t n = bt_chains_get(s->p, id, &locs), k, bi;
	long found = -1;

	for (k = 0; k < n; k++) {
		const struct bt_loc *l;
		const char *name;

		if (locs[k] == BT_LOC_GAP)
			continue;
		if (names[locs[k]] == (const char *)-1) {
			l = bt_chains_loc(s->p, locs[k]);
			names[locs[k]] = bench_func_name(s, l->module, l->off);
		}
		if ((name = names[locs[k]]) == NULL)
			continue;
		for (bi = 0; bi < bs->v.n; bi++)
			if (chained[bi] && bench_name_is(bs, bi, name))
				found = (long)bi;
	}
	return found;
}

/*
 * A chain through a benchmark's own code is that benchmark's (counted
 * from the windows' counts: group g is window g - 1, 0 outside). A
 * candidate whose code no chain passes through by name keeps its window:
 * a lambda (GB's RegisterBenchmark), a template argument printed as an
 * alias (BM_tmpl<uint32_t> is BM_tmpl<unsigned int>), criterion's
 * closures, or a body removed whole (BM_dead).
 */
static void
regroup_chains(struct bt_session *s, struct bt_benches *bs, struct bt_bench_counts *c,
	       struct bt_hist *h, const size_t *owner, size_t nw, bool *chained)
{
	struct bt_hist_entry *ch;
	size_t nc = bt_hist_take(h, &ch), nl = bt_chains_nlocs(s->p), i;
	const char **names = bt_xmalloc((nl + 1) * sizeof(*names));
	long *cb = bt_xmalloc((nc + 1) * sizeof(*cb));
	bool *seen = bt_xcalloc(bs->v.n + 1, sizeof(*seen));

	for (i = 0; i < nl; i++)
		names[i] = (const char *)-1;
	for (i = 0; i < nc; i++)
		if ((cb[i] = chain_bench(s, bs, chained, (uint32_t)ch[i].off, names)) >= 0)
			seen[cb[i]] = true;
	for (i = 0; i < bs->v.n; i++) {
		c->v[i].by_chain = chained[i] = chained[i] && seen[i];
		if (chained[i])
			c->v[i].split = "chain";
	}
	for (i = 0; i < nc; i++) {
		size_t g = ch[i].group;
		uint64_t *from;

		if (g > 0 && g <= nw && chained[owner[g - 1]])
			from = &c->v[owner[g - 1]].samples;
		else if (g == 0 || g > nw)
			from = &c->outside;
		else if (cb[i] >= 0 && chained[cb[i]])
			from = &c->v[owner[g - 1]].samples;	/* taken from a window */
		else
			continue;	/* a window that keeps its samples */
		*from -= BT_MIN(*from, ch[i].samples);
		if (cb[i] >= 0 && chained[cb[i]])
			c->v[cb[i]].samples += ch[i].samples;
		else
			c->outside += ch[i].samples;
	}
	free(seen);
	free(cb);
	free(names);
	free(ch);
}

/*
 * The harness's timer code: the functions its probes are on (a sample in
 * them while the timer runs is the probe's trap or the timer's own work:
 * Go's StartTimer reads the memory statistics, a stop-the-world, before
 * it reads the clock) and the kernel's uprobe trampoline.
 */
bool
bench_timer_func(const char *name, const char *module_name)
{
	static const char *const timer[] = {
		"testing.(*B).StartTimer", "testing.(*B).StopTimer",
		"benchmark::State::PauseTiming", "benchmark::State::ResumeTiming",
		"benchmark::State::StartKeepRunning", "benchmark::State::FinishKeepRunning",
		NULL,
	};
	size_t i;

	if (module_name != NULL && strcmp(module_name, "[uprobes]") == 0)
		return true;
	for (i = 0; name != NULL && timer[i] != NULL; i++)
		if (strncmp(name, timer[i], strlen(timer[i])) == 0 &&
		    (name[strlen(timer[i])] == '\0' || name[strlen(timer[i])] == '('))
			return true;
	return false;
}

/*
 * Does chain id pass through the harness's timer code? cache per location
 * (-1 unknown). The uprobe trampoline has no functions: only a sample in
 * it (the leaf) is its, as the selection's focus sees it. 1: the timer's
 * code (PauseTiming, StopTimer...), 2: the trampoline (or the kernel
 * below it: the trap), 0: neither.
 */
int
bench_timer_chain(struct bt_session *s, uint32_t id, signed char *cache)
{
	const uint32_t *locs;
	size_t n = bt_chains_get(s->p, id, &locs), k;
	bool kernel = true;	/* only the kernel's frames so far */
	bool trap = false;	/* the kernel's frames, then the trampoline */

	for (k = 0; k < n; k++) {
		const struct bt_loc *l;
		const char *mod;
		bool first_user;
		if (locs[k] == BT_LOC_GAP)
			continue;
		l = bt_chains_loc(s->p, locs[k]);
		mod = bench_module_name(s, l->module);
		if (k == 0 && bench_timer_func(NULL, mod))
			return 2;
		first_user = kernel && k > 0;
		kernel = kernel && mod != NULL && strncmp(mod, "[kernel", 7) == 0;
		first_user = first_user && !kernel;
		if (first_user && bench_timer_func(NULL, mod))
			trap = true;
		if (cache[locs[k]] < 0)
			cache[locs[k]] = bench_timer_func(bench_func_name(s, l->module, l->off),
			    NULL);
		/*
		 * the kernel called from the timer's code itself is the probe's
		 * trap: the timer reads its clocks through libc and the vDSO
		 */
		if (cache[locs[k]] > 0)
			return trap || first_user ? 2 : 1;
	}
	return 0;
}

/* A window of count_probed: whose, which result line's (-1 none), untimed. */
struct cell {
	size_t bench;
	long run;
	bool untimed;
};

struct cells {
	struct cell *v;
	size_t n, alloc;
};

static void
add_window(struct bench_pairs *w, struct cells *owner, uint64_t lo, uint64_t hi,
	   size_t bench, long run, bool untimed)
{
	struct cell c = { bench, run, untimed };

	BT_VEC_PUSH(*w, lo);
	BT_VEC_PUSH(*w, hi);
	BT_VEC_PUSH(*owner, c);
}

/* The result line of b whose run holds time t, -1 none. */
static long
run_of(const struct bench *b, uint64_t t)
{
	size_t j;

	for (j = 0; j < b->rref.n; j++)
		if (b->rref.v[j].has && b->rref.v[j].lo <= t && t < b->rref.v[j].hi)
			return (long)j;
	return -1;
}

/* Benchmark i's measured intervals and the gaps between them (untimed), from at. */
static uint64_t
bench_windows(const struct bench *b, size_t i, uint64_t at, struct bench_pairs *w,
	      struct cells *owner)
{
	const struct bench_phases *ph = bench_ph(b);
	size_t k;

	at = BT_MAX(ph->span_lo, at);
	for (k = 0; k < ph->meas.n; k += 2) {
		uint64_t lo = BT_MAX(ph->meas.v[k], at), hi = ph->meas.v[k + 1];
		if (lo > at)
			add_window(w, owner, at, lo, i, -1, true);
		if (hi > lo) {
			add_window(w, owner, lo, hi, i, run_of(b, lo), false);
			at = hi;
		}
	}
	if (ph->span_hi + 1 > at) {
		add_window(w, owner, at, ph->span_hi + 1, i, -1, true);
		at = ph->span_hi + 1;
	}
	return at;
}

/* Samples (by chain) in a measured window but under the timer's code: untimed. */
static void
untime_timer_chains(struct bt_session *s, struct bt_bench_counts *c,
		    const struct cells *owner, struct bt_hist *chains)
{
	struct bt_hist_entry *ch;
	size_t nc = bt_hist_take(chains, &ch), nl = bt_chains_nlocs(s->p), k;
	signed char *cache = bt_xmalloc(nl + 1);

	memset(cache, 0xff, nl + 1);
	for (k = 0; k < nc; k++) {
		size_t g = ch[k].group;
		const struct cell *o;
		int t;
		if (g == 0 || g > owner->n || (o = &owner->v[g - 1])->untimed ||
		    (t = bench_timer_chain(s, (uint32_t)ch[k].off, cache)) == 0)
			continue;
		c->v[o->bench].samples -= BT_MIN(c->v[o->bench].samples, ch[k].samples);
		c->v[o->bench].untimed_samples += ch[k].samples;
		if (t == 1)
			c->timer[o->bench] += ch[k].samples;
		else
			c->traps[o->bench] += ch[k].samples;
		if (o->run >= 0)
			c->run_samples[o->bench][o->run] -=
			    BT_MIN(c->run_samples[o->bench][o->run], ch[k].samples);
	}
	free(cache);
	free(ch);
}

/*
 * With the harness's probes: each benchmark's measured intervals (each
 * result line's part apart) and the gaps between them (its untimed part),
 * as the windows of one scan.
 */
static void
count_probed(struct bt_session *s, struct bt_benches *bs, int attr,
	     struct bt_bench_counts *c)
{
	struct bench_pairs w = { NULL, 0, 0 };
	struct cells owner = { NULL, 0, 0 };
	struct bt_hist_entry *e = NULL;
	struct bt_scan sc;
	size_t i, k, n = 0;
	uint64_t total = 0, at = 0;

	c->run_samples = bt_xcalloc(bs->v.n + 1, sizeof(*c->run_samples));
	c->timer = bt_xcalloc(bs->v.n + 1, sizeof(*c->timer));
	c->traps = bt_xcalloc(bs->v.n + 1, sizeof(*c->traps));
	for (i = 0; i < bs->v.n; i++) {
		c->run_samples[i] = bt_xcalloc(bs->v.v[i].runs.n + 1, sizeof(uint64_t));
		if (bench_ph(&bs->v.v[i]) != NULL)
			at = bench_windows(&bs->v.v[i], i, at, &w, &owner);
	}
	bt_scan_init_counts(&sc, attr);
	sc.windows = w.v;
	sc.nwindows = w.n / 2;
	sc.pids = bs->pids.v;	/* JMH: only its forks' processes */
	sc.npids = bs->pids.n;
	if (s->p->chains != NULL)
		sc.chains = bt_hist_new();
	if (bt_profile_scan(s->p, &sc, &e, &n, NULL) == 0) {
		for (k = 0; k < n; k++) {
			const struct cell *o;
			total += e[k].samples;
			if (e[k].group == 0 || e[k].group > owner.n) {
				c->outside += e[k].samples;
				continue;
			}
			o = &owner.v[e[k].group - 1];
			if (o->untimed) {
				c->v[o->bench].untimed_samples += e[k].samples;
				continue;
			}
			c->v[o->bench].samples += e[k].samples;
			if (o->run >= 0)
				c->run_samples[o->bench][o->run] += e[k].samples;
		}
		if (sc.chains != NULL)
			untime_timer_chains(s, c, &owner, sc.chains);
		if (bs->pids.n && (size_t)attr < s->p->info.nevents &&
		    s->p->info.event_samples[attr] > total) {
			/* the other processes' samples (the host JVM...): in none */
			c->outside += s->p->info.event_samples[attr] - total;
			total = s->p->info.event_samples[attr];
		}
	}
	bt_hist_free(sc.chains);
	for (i = 0; i < bs->v.n; i++)
		c->v[i].percent = total ?
		    100.0 * (double)c->v[i].samples / (double)total : 0;
	free(e);
	BT_VEC_FREE(w);
	BT_VEC_FREE(owner);
}

/*
 * The windows overlap when results interleave (a name printed again
 * later): each sample goes to the first window holding it. Sorted,
 * disjoint pairs for the scan, with the benchmark each came from.
 */
static struct bt_bench_counts *
count_samples(struct bt_session *s, struct bt_benches *bs, int attr)
{
	struct bt_bench_counts *c = bt_xcalloc(1, sizeof(*c));
	struct bt_scan sc;
	struct bt_hist_entry *e = NULL;
	uint64_t *w;
	size_t *owner, nw = 0, n = 0, i, total = 0;
	bool *chained, any_chained = false;

	c->nbench = bs->v.n;
	chained = c->chained = bt_xcalloc(bs->v.n + 1, sizeof(*chained));
	c->v = bt_xcalloc(bs->v.n + 1, sizeof(*c->v));
	for (i = 0; i < bs->v.n; i++) {
		c->v[i] = bs->v.v[i].pub;
		c->v[i].samples = 0;
		c->v[i].by_chain = false;
	}
	if (bs->probed || bs->forked) {
		count_probed(s, bs, attr, c);
		return c;
	}
	w = bt_xcalloc(2 * bs->v.n + 2, sizeof(*w));
	owner = bt_xcalloc(bs->v.n + 1, sizeof(*owner));
	for (i = 0; i < bs->v.n; i++) {
		const struct bench *b = &bs->v.v[i];
		uint64_t lo = b->lo;
		size_t k;

		if (!b->pub.has_window)
			continue;
		/* insertion by lo; clipped against the windows before it */
		for (k = nw; k > 0 && w[2 * (k - 1)] > lo; k--)
			;
		if (k > 0 && w[2 * k - 1] > lo)
			lo = w[2 * k - 1];
		if (k < nw && b->hi > w[2 * k])
			continue;	/* inside another: its samples are that one's */
		if (lo >= b->hi)
			continue;
		memmove(w + 2 * k + 2, w + 2 * k, (nw - k) * 2 * sizeof(*w));
		memmove(owner + k + 1, owner + k, (nw - k) * sizeof(*owner));
		w[2 * k] = lo;
		w[2 * k + 1] = b->hi;
		owner[k] = i;
		nw++;
	}
	bt_scan_init_counts(&sc, attr);
	sc.windows = w;
	sc.nwindows = nw;
	for (i = 0; i < bs->v.n; i++)
		any_chained |= chained[i] = chain_candidate(s, bs, i);
	if (any_chained)
		sc.chains = bt_hist_new();
	if (bt_profile_scan(s->p, &sc, &e, &n, NULL) == 0) {
		for (i = 0; i < n; i++) {
			total += e[i].samples;
			if (e[i].group == 0)
				c->outside += e[i].samples;
			else if (e[i].group <= nw)
				c->v[owner[e[i].group - 1]].samples += e[i].samples;
		}
		if (any_chained)
			regroup_chains(s, bs, c, sc.chains, owner, nw, chained);
	}
	bt_hist_free(sc.chains);
	for (i = 0; i < bs->v.n; i++)
		c->v[i].percent = total ?
		    100.0 * (double)c->v[i].samples / (double)total : 0;
	free(e);
	free(w);
	free(owner);
	return c;
}

void
bench_counts_free(struct bt_bench_counts *c)
{
	size_t i;

	if (c == NULL)
		return;
	for (i = 0; c->run_samples != NULL && i < c->nbench; i++)
		free(c->run_samples[i]);
	free(c->run_samples);
	free(c->timer);
	free(c->traps);
	free(c->v);
	free(c->chained);
	free(c);
}

const struct bt_bench_counts *
bench_counts(struct bt_session *s, struct bt_benches *bs, int attr)
{
	if (attr < 0 || (size_t)attr >= bs->nevents)
		return NULL;
	if (bs->counts[attr] == NULL)
		bs->counts[attr] = count_samples(s, bs, attr);
	return bs->counts[attr];
}

/*
 * Can a selection hold benchmark o->bench's samples in event attr? Not
 * when there is no such benchmark or it has no samples of its own.
 */
static int
bench_check(struct bt_session *s, int attr, const struct bt_selection_opts *o,
	    struct bt_error *err)
{
	struct bt_benches *bs = s->benches;
	long bi = o->bench;

	if (bi < 0)
		return 0;
	if (bs == NULL || (size_t)bi >= bs->v.n)
		return bt_error_set(err, BT_EINVAL, "no benchmark %ld", bi);
	if (!bs->v.v[bi].pub.has_window)
		return bt_error_set(err, BT_EINVAL, "'%s' has no samples of its own%s%s",
		    bs->v.v[bi].pub.name, bs->note[0] ? ": " : "", bs->note);
	bench_counts(s, bs, attr);
	return 0;
}

/* Does benchmark bi's entry frame decide its samples in event attr? */
static bool
by_chain(struct bt_session *s, int attr, size_t bi)
{
	const struct bt_bench_counts *c;

	if (s->p->chains == NULL || s->benches == NULL || bi >= s->benches->v.n)
		return false;
	c = bench_counts(s, s->benches, attr);
	return c != NULL && c->chained[bi];
}

/*
 * A benchmark split by time: its window narrows the scan (and the window
 * shown is the part of it used). With its entry frame deciding, every
 * sample is read again, and bench_focus keeps its own.
 */
static void
bench_scan(struct bt_selection *sel, struct bt_scan *sc)
{
	const struct bt_profile *p = sel->s->p;
	const struct bench *b;
	long bi = sel->o.bench;
	double span = sel->win_to;

	if (bi < 0 || sel->s->benches == NULL || (size_t)bi >= sel->s->benches->v.n)
		return;
	if (!by_chain(sel->s, sel->attr, (size_t)bi)) {
		/* the split by time: the benchmark's code is not its own */
		b = &sel->s->benches->v.v[bi];
		sc->t_lo = BT_MAX(sc->t_lo, b->lo);
		sc->t_hi = BT_MIN(sc->t_hi, b->hi);
		if (sc->t_hi < sc->t_lo)
			sc->t_hi = sc->t_lo;
		if (bench_ph(b) != NULL) {	/* only while its timer ran */
			sc->keep = bench_ph(b)->meas.v;
			sc->nkeep = bench_ph(b)->meas.n / 2;
		}
		if (b->forked && sc->npids == 0) {	/* JMH: its forks only */
			sc->pids = b->pids.v;
			sc->npids = b->pids.n;
		}
	}
	sel->win_from = sc->t_lo > p->first_time ?
	    (double)(sc->t_lo - p->first_time) / 1e9 : 0;
	sel->win_to = sc->t_hi > p->first_time ?
	    BT_MIN(span, (double)(sc->t_hi - p->first_time) / 1e9) : 0;
}

static bool
bench_rescan(const struct bt_selection_opts *o)
{
	return o->bench >= 0;
}

static bool
match_bench(const struct bt_func *f, void *arg)
{
	const struct bench_match *m = arg;

	return bench_name_is(m->bs, m->bi, f->name);
}

/*
 * With call chains, a benchmark's samples are those whose chain passes
 * through its entry frame: true with the matcher to focus on (*arg points
 * into the session's benchmarks).
 */
static bool
match_timer(const struct bt_func *f, void *arg)
{
	(void)arg;
	return bench_timer_func(f->name, f->module_name);
}

static bool
bench_focus(struct bt_selection *sel, bt_frame_match_fn *match, void **arg,
	    bool *exclude)
{
	long bi = sel->o.bench;

	if (bi >= 0 && sel->s->benches != NULL && (size_t)bi < sel->s->benches->v.n &&
	    bench_ph(&sel->s->benches->v.v[bi]) != NULL) {
		/* its timer's phases, but not the harness's timer code in them */
		*match = match_timer;
		*arg = NULL;
		*exclude = true;
		return true;
	}
	if (bi < 0 || !by_chain(sel->s, sel->attr, (size_t)bi))
		return false;
	*match = match_bench;
	*arg = &sel->s->benches->match[bi];
	return true;
}

static bool
bench_same(const struct bt_selection_opts *a, const struct bt_selection_opts *b)
{
	return a->bench == b->bench;
}

const struct sel_dim bt_dim_bench = {
	.check = bench_check,
	.scan = bench_scan,
	.rescan = bench_rescan,
	.focus = bench_focus,
	.same = bench_same,
};

void
bt_bench_prepare(struct bt_selection *sel)
{
	struct bt_session *s = sel->s;

	if (s->benches == NULL)
		s->benches = bench_list(sel);
	sel->counts = s->benches->v.n ? bench_counts(s, s->benches, sel->attr) : NULL;
}

const struct bt_bench *
bt_selection_bench(const struct bt_selection *sel, size_t i)
{
	if (sel->counts == NULL || i >= sel->s->benches->v.n)
		return NULL;
	return &sel->counts->v[i];
}

bool
bt_selection_bench_run_samples(const struct bt_selection *sel, size_t b, size_t r,
			       uint64_t *samples)
{
	const struct bt_bench_counts *c = sel->counts;
	const struct bt_benches *bs = sel->s->benches;

	*samples = 0;
	if (c == NULL || c->run_samples == NULL || b >= c->nbench ||
	    r >= bs->v.v[b].rref.n || !bs->v.v[b].rref.v[r].has)
		return false;
	*samples = c->run_samples[b][r];
	return true;
}

bool
bt_selection_bench_run_window(const struct bt_selection *sel, size_t b, size_t r,
			      double *from, double *to)
{
	const struct bt_benches *bs = sel->s->benches;
	const struct bench_runref *rr;
	uint64_t t0 = sel->s->p->first_time;

	if (bs == NULL || b >= bs->v.n || r >= bs->v.v[b].rref.n ||
	    !(rr = &bs->v.v[b].rref.v[r])->has)
		return false;
	*from = rr->lo > t0 ? (double)(rr->lo - t0) / 1e9 : 0;
	*to = rr->hi > t0 ? (double)(rr->hi - t0) / 1e9 : 0;
	return true;
}

uint64_t
bt_selection_bench_outside(const struct bt_selection *sel)
{
	return sel->counts ? sel->counts->outside : 0;
}

long
bt_selection_bench_index(const struct bt_selection *sel)
{
	return sel->o.bench;
}

bool
bt_selection_bench_slices(const struct bt_selection *sel, size_t nbins, uint64_t *mine)
{
	struct bt_session *s = sel->s;
	struct bt_benches *bs = s->benches;
	long bi = sel->o.bench;
	struct bt_hist_entry *e = NULL;
	struct bt_scan sc;
	size_t n = 0, i;
	const struct bench *b;

	if (bi < 0 || bs == NULL || (size_t)bi >= bs->v.n)
		return false;
	b = &bs->v.v[bi];
	bt_scan_init_counts(&sc, sel->attr);
	sc.nbins = nbins;
	if (by_chain(s, sel->attr, (size_t)bi)) {
		/* every sample, by slice and chain: the chains through its code */
		struct bt_hist_entry *c;
		size_t nc, nl = bt_chains_nlocs(s->p);
		const char **names;

		sc.chains = bt_hist_new();
		if (bt_profile_scan(s->p, &sc, &e, &n, NULL) < 0) {
			bt_hist_free(sc.chains);
			return false;
		}
		nc = bt_hist_take(sc.chains, &c);
		bt_hist_free(sc.chains);
		names = bt_xmalloc((nl + 1) * sizeof(*names));
		for (i = 0; i < nl; i++)
			names[i] = (const char *)-1;
		for (i = 0; i < nc; i++)
			if (c[i].group < nbins && chain_bench(s, bs, bench_counts(s, bs, sel->attr)->chained,
			    (uint32_t)c[i].off, names) == bi)
				mine[c[i].group] += c[i].samples;
		free(names);
		free(c);
	} else {
		/* its window's samples, by slice of the whole run */
		sc.t_lo = b->lo;
		sc.t_hi = b->hi;
		if (bench_ph(b) != NULL) {
			sc.keep = bench_ph(b)->meas.v;
			sc.nkeep = bench_ph(b)->meas.n / 2;
		}
		if (bt_profile_scan(s->p, &sc, &e, &n, NULL) < 0)
			return false;
		for (i = 0; i < n; i++)
			if (e[i].group < nbins)
				mine[e[i].group] += e[i].samples;
	}
	free(e);
	return true;
}
