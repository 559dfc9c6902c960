/*
 * Benchmarks as the unit (DESIGN.md §7): the harness's output, kept in
 * the recording with the time each chunk was read, is parsed again
 * (core/harness), its results are grouped into benchmarks, and each
 * benchmark gets the samples that belong to it.
 *
 * Which samples belong to a benchmark: with call chains, those whose
 * chain passes through its own code (its entry frame: by_chain(),
 * bt_bench_focus()); else, and for benchmarks that share their code
 * (GB ->Arg, Go b.Run), its time window (bt_bench_scan()): the harness
 * writes each result when the benchmark ends (Go and criterion also when
 * it starts), the output went through a pty so that lines arrive when
 * written, and output and samples are on CLOCK_MONOTONIC.
 * docs/benchmarks.md says the same.
 */
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "benchtui/bench.h"
#include "harness/harness.h"
#include "profile/chains.h"
#include "profile/profile.h"
#include "session/session-int.h"
#include "symbols/symbols.h"

#define SETTLE_NS 250000000ULL	/* how late a result line may be read: 250 ms */
#define SETTLE_SLOTS 1000		/* looked at in 0.25 ms slots */

struct bench {
	struct bt_bench pub;
	uint64_t lo, hi;		/* window in the recording's clock: [lo, hi) */
	const struct bt_bench_result *shown;	/* the result whose time is shown */
	bool at_end;			/* printed with the others at the end: no window */
};

/* The selected benchmark, for bt_callgraph_focus's matcher. */
struct bench_match {
	const struct bt_benches *bs;
	size_t bi;
};

struct bt_benches {
	struct bench_match match;
	struct bt_harness_parser *parser;
	BT_VEC(struct bench) v;
	bool windows;			/* sample times and output on one clock */
	int counted_attr;		/* samples counted for this event; -1 none */
	bool *chained;			/* per benchmark: its entry frame decides (count_samples) */
	uint64_t outside;
	char *frames;			/* --benchmark-frames */
	const char *note;
	struct bt_strpool pool;
	BT_VEC(double) err_times;	/* when each stderr chunk was read */
};

/*
 * Replay the recorded output ("NS LEN\n" + bytes chunks; "NS LEN 2\n"
 * for standard error) into a parser: standard output only, standard
 * error's times kept (where the first benchmark starts).
 */
static void
parse_output(struct bt_benches *bs, const char *d, size_t len)
{
	const char *end = d + len;
	double t = NAN;

	bs->parser = bt_harness_parser_new(BT_HARNESS_UNKNOWN);
	while (d < end) {
		const char *nl = memchr(d, '\n', (size_t)(end - d));
		unsigned long long ns;
		size_t n;
		int stream = 1;
		char head[64];

		if (nl == NULL || nl - d >= (long)sizeof(head))
			break;
		memcpy(head, d, (size_t)(nl - d));
		head[nl - d] = '\0';
		if (sscanf(head, "%llu %zu %d", &ns, &n, &stream) < 2 ||
		    n > (size_t)(end - nl - 1))
			break;
		if (stream == 2)
			BT_VEC_PUSH(bs->err_times, (double)ns / 1e9);
		else {
			t = (double)ns / 1e9;
			bt_harness_feed(bs->parser, nl + 1, n, t);
		}
		d = nl + 1 + n;
	}
	bt_harness_finish(bs->parser, t);
}

/* "BM_sum/8_mean" -> "BM_sum/8": the name a result groups under. */
static size_t
key_len(const struct bt_bench_result *r)
{
	size_t n = strlen(r->name), a;

	if (r->aggregate == NULL)
		return n;
	a = strlen(r->aggregate);
	if (n > a + 1 && r->name[n - a - 1] == '_' && strcmp(r->name + n - a, r->aggregate) == 0)
		return n - a - 1;
	return n;
}

static struct bench *
find_key(struct bt_benches *bs, const char *name, size_t len)
{
	size_t i;

	for (i = bs->v.n; i-- > 0;)
		if (strlen(bs->v.v[i].pub.name) == len &&
		    memcmp(bs->v.v[i].pub.name, name, len) == 0)
			return &bs->v.v[i];
	return NULL;
}

/* Seconds of CLOCK_MONOTONIC to the recording's nanoseconds (0 if unknown). */
static uint64_t
to_ns(double t)
{
	return isfinite(t) && t > 0 ? (uint64_t)llround(t * 1e9) : 0;
}

/*
 * When a result's benchmark ran: Go and criterion announce a benchmark
 * when it starts (t_begin), the others print one line when it is done,
 * so it began when the result before it ended (or the run began).
 */
static void
result_window(const struct bt_bench_result *r, double prev_end,
	      uint64_t *lo, uint64_t *hi)
{
	bool announced = (r->harness == BT_HARNESS_GO || r->harness == BT_HARNESS_CRITERION) &&
	    isfinite(r->t_begin) && r->t_begin < r->t_end;

	*lo = announced ? to_ns(r->t_begin) : to_ns(prev_end);
	*hi = to_ns(r->t_end) + 1;
}

static void
set_shown(struct bt_benches *bs, struct bench *b)
{
	const struct bt_bench_result *r = b->shown;
	struct bt_bench *pb = &b->pub;

	pb->time_text = r->time.text;
	pb->time_ns = r->time.text ? r->time.value : NAN;
	pb->iterations_text = r->iterations.text;
	pb->iterations = r->iterations.text ? r->iterations.value : NAN;
	if (r->err.text) {
		pb->pm_text = bt_strpool_addf(&bs->pool, "± %s", r->err.text);
		pb->ci_ns = r->err.value;
	} else if (r->err_pct.text) {
		pb->pm_text = bt_strpool_addf(&bs->pool, "± %s", r->err_pct.text);
		pb->ci_ns = NAN;
	} else if (r->low.text && r->high.text) {
		pb->pm_text = bt_strpool_addf(&bs->pool, "[%s %s]", r->low.text, r->high.text);
		pb->ci_ns = (r->high.value - r->low.value) / 2;
	}
}

/*
 * Where the first benchmark began, for a harness that prints nothing of it
 * before it ends: the last thing written to standard error before its
 * result (Google Benchmark's context, written just before it runs), else
 * the first sample (start-up then counts for the first benchmark).
 */
static double
run_start(struct bt_session *s, struct bt_benches *bs, const struct bt_bench_result *r)
{
	double start = (double)s->p->first_time / 1e9, before = r->t_begin;
	size_t i;

	if (!isfinite(before))
		before = r->t_end;
	for (i = 0; i < bs->err_times.n; i++)
		if (bs->err_times.v[i] < before && bs->err_times.v[i] > start)
			start = bs->err_times.v[i];
	return start;
}

static bool
is_agg(const struct bt_bench_result *r, const char *name)
{
	return r->aggregate != NULL && strcmp(r->aggregate, name) == 0;
}

static void
build(struct bt_session *s, struct bt_benches *bs)
{
	size_t i, n = bt_harness_count(bs->parser);
	double prev_end = NAN, fastest = INFINITY;

	for (i = 0; i < n; i++) {
		const struct bt_bench_result *r = bt_harness_result(bs->parser, i);
		size_t kl = key_len(r);
		struct bench *b = find_key(bs, r->name, kl);
		uint64_t lo, hi;

		if (!isfinite(prev_end))
			prev_end = run_start(s, bs, r);
		result_window(r, prev_end, &lo, &hi);
		prev_end = r->t_end;
		if (b == NULL) {
			struct bench nb;
			memset(&nb, 0, sizeof(nb));
			nb.pub.index = bs->v.n;
			nb.pub.name = bt_strpool_add(&bs->pool, r->name, kl);
			nb.pub.family = r->family;
			nb.pub.harness = bt_harness_name(r->harness);
			nb.pub.line = r->line;
			nb.pub.time_ns = nb.pub.ci_ns = nb.pub.iterations = NAN;
			nb.pub.ratio = NAN;
			nb.lo = lo;
			nb.hi = hi;
			/* tinybench prints its table when every task has run */
			nb.at_end = r->harness == BT_HARNESS_TINYBENCH;
			BT_VEC_PUSH(bs->v, nb);
			b = &bs->v.v[bs->v.n - 1];
		}
		b->pub.nresults++;
		b->lo = BT_MIN(b->lo, lo);
		b->hi = BT_MAX(b->hi, hi);
		if (r->error != NULL && b->pub.error == NULL)
			b->pub.error = r->error;
		if (r->flags & BT_BENCH_DEAD_HINT)
			b->pub.dead_hint = true;
		/* the mean of repetitions, else the first line of its own */
		if (b->shown == NULL)
			b->shown = r;
		else if (is_agg(r, "mean") && !is_agg(b->shown, "mean"))
			b->shown = r;
		else if (r->aggregate == NULL && b->shown->aggregate != NULL &&
		    !is_agg(b->shown, "mean"))
			b->shown = r;
		if (r->aggregate && strcmp(r->aggregate, "stddev") == 0 && r->time.text) {
			b->pub.pm_text = bt_strpool_addf(&bs->pool, "± %s", r->time.text);
			b->pub.ci_ns = r->time.value;
		}
	}
	for (i = 0; i < bs->v.n; i++) {
		struct bench *b = &bs->v.v[i];
		const char *pm = b->pub.pm_text;
		double ci = b->pub.ci_ns;

		set_shown(bs, b);
		if (pm != NULL) {	/* the _stddev aggregate's */
			b->pub.pm_text = pm;
			b->pub.ci_ns = ci;
		}
		if (b->pub.error == NULL && b->pub.time_ns > 0 && b->pub.time_ns < fastest)
			fastest = b->pub.time_ns;
		b->pub.has_window = bs->windows && b->hi > b->lo && !b->at_end;
		b->pub.t_from = b->lo > s->p->first_time ?
		    (double)(b->lo - s->p->first_time) / 1e9 : 0;
		b->pub.t_to = b->hi > s->p->first_time ?
		    (double)(b->hi - s->p->first_time) / 1e9 : 0;
	}
	for (i = 0; i < bs->v.n; i++) {
		struct bt_bench *b = &bs->v.v[i].pub;
		if (isfinite(fastest) && b->error == NULL && b->time_ns > 0)
			b->ratio = b->time_ns / fastest;
	}
}

static bool name_is_bench(const struct bt_benches *bs, size_t bi, const char *name);

/* The name of the function at (module, offset), NULL if none. */
static const char *
func_name(struct bt_session *s, uint32_t mi, uint64_t off)
{
	struct bt_msyms *m = bt_session_syms(s, mi);
	struct bt_func_sym fs;
	uint64_t addr;

	if (m == NULL || bt_msyms_off_to_addr(m, off, &addr) < 0 ||
	    bt_msyms_func(m, addr, &fs) < 0)
		return NULL;
	return fs.name;
}

/*
 * A result line is read a little after the harness wrote it (the reader's
 * wake-up on a busy machine: a few ms), and the harness starts the next
 * benchmark at once: the end of a window holds the first samples of the
 * benchmarks after it. Where the benchmarks' code is known by name, each
 * window's end moves back to where a later benchmark's own code starts
 * in the SETTLE_NS before it (never before its own code's last sample),
 * and the next window starts there (docs/benchmarks.md). With call
 * chains, the entry frame decides every sample and this goes.
 */
static bool
settle(struct bt_session *s, struct bt_benches *bs)
{
	bool moved = false;
	size_t nb = bs->v.n, i, k, nw = 0, n = 0;
	uint64_t *w = bt_xcalloc(2 * SETTLE_SLOTS * (nb + 1), sizeof(*w));
	size_t *first = bt_xcalloc(nb + 1, sizeof(*first));	/* first slot of each range */
	size_t *count = bt_xcalloc(nb + 1, sizeof(*count));
	long *own = bt_xcalloc(nb + 1, sizeof(*own)), *later = bt_xcalloc(nb + 1, sizeof(*later));
	bool *whole = bt_xcalloc(nb + 1, sizeof(*whole));	/* the range is all of the window */
	struct bt_hist_entry *e = NULL;
	struct bt_scan sc;
	const uint64_t slot = SETTLE_NS / SETTLE_SLOTS;
	uint64_t floor = 0;

	/* slots before each window's end that the next window starts at */
	for (i = 0; i + 1 < nb; i++) {
		const struct bench *b = &bs->v.v[i], *nx = &bs->v.v[i + 1];
		uint64_t lo;
		own[i] = later[i] = -1;
		first[i] = nw;
		if (!b->pub.has_window || !nx->pub.has_window || nx->lo + 1 < b->hi ||
		    b->hi < floor)
			continue;
		lo = BT_MAX(BT_MAX(b->lo, floor), b->hi > SETTLE_NS ? b->hi - SETTLE_NS : 0);
		whole[i] = lo < b->lo + slot;
		for (k = (size_t)((b->hi - lo) / slot); k > 0; k--) {
			w[2 * nw] = b->hi - k * slot;
			w[2 * nw + 1] = b->hi - (k - 1) * slot;
			nw++;
		}
		count[i] = nw - first[i];
		floor = b->hi;
	}
	memset(&sc, 0, sizeof(sc));
	sc.attr = s->attr;
	sc.t_hi = UINT64_MAX;
	sc.windows = w;
	sc.nwindows = nw;
	if (nw && bt_profile_scan(s->p, &sc, &e, &n, NULL) == 0)
		for (k = 0; k < n; k++) {
			size_t sl, bi, j;
			const char *name;
			if (e[k].group == 0)
				continue;
			sl = e[k].group - 1;
			for (bi = 0; bi + 1 < nb; bi++)
				if (count[bi] && sl >= first[bi] && sl < first[bi] + count[bi])
					break;
			if (bi + 1 >= nb || (name = func_name(s, e[k].module, e[k].off)) == NULL)
				continue;
			sl -= first[bi];
			if (name_is_bench(bs, bi, name)) {
				if ((long)sl > own[bi])
					own[bi] = (long)sl;
				continue;
			}
			for (j = bi + 1; j < nb; j++)
				if (name_is_bench(bs, j, name))
					break;
			if (j < nb && (later[bi] < 0 || (long)sl < later[bi]))
				later[bi] = (long)sl;
		}
	for (i = 0; i + 1 < nb; i++) {
		struct bench *b = &bs->v.v[i], *nx = &bs->v.v[i + 1];
		uint64_t old = b->hi, to;
		long cut;
		if (later[i] < 0)
			continue;
		cut = BT_MAX(later[i], own[i] + 1);
		if (cut >= (long)count[i])
			continue;
		/*
		 * none of its own code and a later one's from the start: all of
		 * it is the later one's (a window the one before moved into)
		 */
		to = cut == 0 && whole[i] ? b->lo : w[2 * (first[i] + (size_t)cut)];
		if (to < b->lo)
			to = b->lo;
		if (to == b->hi)
			continue;
		moved = true;
		b->hi = to;
		if (nx->lo + 1 >= old)	/* contiguous: the next one starts there */
			nx->lo = to;
	}
	free(e);
	free(w);
	free(first);
	free(count);
	free(own);
	free(later);
	free(whole);
	return moved;
}

static struct bt_benches *
benches(struct bt_session *s)
{
	struct bt_benches *bs = s->benches;

	if (bs != NULL)
		return bs;
	bs = s->benches = bt_xcalloc(1, sizeof(*bs));
	bt_strpool_init(&bs->pool);
	bs->counted_attr = -1;
	bs->note = "";
	if (s->p->meta.output == NULL)
		return bs;
	bs->windows = s->p->meta.clock_monotonic;
	parse_output(bs, s->p->meta.output, s->p->meta.output_len);
	build(s, bs);
	if (bs->windows) {
		size_t i;
		/* again while boundaries move: a window may now begin earlier */
		for (i = 0; i < 4 && settle(s, bs); i++)
			;
		for (i = 0; i < bs->v.n; i++) {
			struct bench *b = &bs->v.v[i];
			b->pub.t_from = b->lo > s->p->first_time ?
			    (double)(b->lo - s->p->first_time) / 1e9 : 0;
			b->pub.t_to = b->hi > s->p->first_time ?
			    (double)(b->hi - s->p->first_time) / 1e9 : 0;
		}
	}
	if (bs->v.n && !bs->windows)
		bs->note = "the samples' times are not on CLOCK_MONOTONIC: the "
		    "benchmarks' samples cannot be told apart";
	return bs;
}

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
			names[locs[k]] = func_name(s, l->module, l->off);
		}
		if ((name = names[locs[k]]) == NULL)
			continue;
		for (bi = 0; bi < bs->v.n; bi++)
			if (chained[bi] && name_is_bench(bs, bi, name))
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
regroup_chains(struct bt_session *s, struct bt_benches *bs, struct bt_hist *h,
	       const size_t *owner, size_t nw, bool *chained)
{
	struct bt_hist_entry *c;
	size_t nc = bt_hist_take(h, &c), nl = bt_chains_nlocs(s->p), i;
	const char **names = bt_xmalloc((nl + 1) * sizeof(*names));
	long *cb = bt_xmalloc((nc + 1) * sizeof(*cb));
	bool *seen = bt_xcalloc(bs->v.n + 1, sizeof(*seen));

	for (i = 0; i < nl; i++)
		names[i] = (const char *)-1;
	for (i = 0; i < nc; i++)
		if ((cb[i] = chain_bench(s, bs, chained, (uint32_t)c[i].off, names)) >= 0)
			seen[cb[i]] = true;
	for (i = 0; i < bs->v.n; i++)
		bs->v.v[i].pub.by_chain = chained[i] = chained[i] && seen[i];
	for (i = 0; i < nc; i++) {
		size_t g = c[i].group;
		uint64_t *from;

		if (g > 0 && g <= nw && chained[owner[g - 1]])
			from = &bs->v.v[owner[g - 1]].pub.samples;
		else if (g == 0 || g > nw)
			from = &bs->outside;
		else if (cb[i] >= 0 && chained[cb[i]])
			from = &bs->v.v[owner[g - 1]].pub.samples;	/* taken from a window */
		else
			continue;	/* a window that keeps its samples */
		*from -= BT_MIN(*from, c[i].samples);
		if (cb[i] >= 0 && chained[cb[i]])
			bs->v.v[cb[i]].pub.samples += c[i].samples;
		else
			bs->outside += c[i].samples;
	}
	free(seen);
	free(cb);
	free(names);
	free(c);
}

/*
 * The windows overlap when results interleave (a name printed again
 * later): each sample goes to the first window holding it. Sorted,
 * disjoint pairs for the scan, with the benchmark each came from.
 */
static void
count_samples(struct bt_session *s, struct bt_benches *bs)
{
	struct bt_scan sc;
	struct bt_hist_entry *e = NULL;
	uint64_t *w;
	size_t *owner, nw = 0, n = 0, i, total = 0;
	bool *chained, any_chained = false;

	if (bs->counted_attr == s->attr)
		return;
	bs->counted_attr = s->attr;
	bs->outside = 0;
	free(bs->chained);
	chained = bs->chained = bt_xcalloc(bs->v.n + 1, sizeof(*chained));
	for (i = 0; i < bs->v.n; i++) {
		bs->v.v[i].pub.samples = 0;
		bs->v.v[i].pub.by_chain = false;
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
	memset(&sc, 0, sizeof(sc));
	sc.attr = s->attr;
	sc.t_hi = UINT64_MAX;
	sc.fold = true;
	sc.fold_module = UINT32_MAX;
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
				bs->outside += e[i].samples;
			else if (e[i].group <= nw)
				bs->v.v[owner[e[i].group - 1]].pub.samples += e[i].samples;
		}
		if (any_chained)
			regroup_chains(s, bs, sc.chains, owner, nw, chained);
	}
	bt_hist_free(sc.chains);
	for (i = 0; i < bs->v.n; i++)
		bs->v.v[i].pub.percent = total ?
		    100.0 * (double)bs->v.v[i].pub.samples / (double)total : 0;
	free(e);
	free(w);
	free(owner);
}

/* Does benchmark bi's entry frame decide its samples (this event)? */
static bool
by_chain(struct bt_session *s, struct bt_benches *bs, size_t bi)
{
	if (s->p->chains == NULL)
		return false;
	count_samples(s, bs);
	return bs->chained[bi];
}

void
bt_bench_scan(struct bt_session *s, struct bt_scan *sc)
{
	const struct bench *b;

	if (s->bench < 0 || s->benches == NULL || (size_t)s->bench >= s->benches->v.n)
		return;
	if (by_chain(s, s->benches, (size_t)s->bench))
		return;	/* its entry frame decides: bt_bench_focus */
	b = &s->benches->v.v[s->bench];
	/* the split by time: the benchmark's code is not its own */
	sc->t_lo = BT_MAX(sc->t_lo, b->lo);
	sc->t_hi = BT_MIN(sc->t_hi, b->hi);
	if (sc->t_hi < sc->t_lo)
		sc->t_hi = sc->t_lo;
}

static bool
match_bench(const struct bt_func *f, void *arg)
{
	const struct bench_match *m = arg;

	return name_is_bench(m->bs, m->bi, f->name);
}

bool
bt_bench_focus(struct bt_session *s, bt_frame_match_fn *match, void **arg)
{
	struct bench_match *m;

	if (s->bench < 0 || s->benches == NULL || (size_t)s->bench >= s->benches->v.n ||
	    !by_chain(s, s->benches, (size_t)s->bench))
		return false;
	m = &s->benches->match;
	m->bs = s->benches;
	m->bi = (size_t)s->bench;
	*match = match_bench;
	*arg = m;
	return true;
}

void
bt_benches_free(struct bt_benches *bs)
{
	if (bs == NULL)
		return;
	bt_harness_parser_free(bs->parser);
	free(bs->chained);
	BT_VEC_FREE(bs->v);
	BT_VEC_FREE(bs->err_times);
	free(bs->frames);
	bt_strpool_release(&bs->pool);
	free(bs);
}

size_t
bt_session_nbenches(struct bt_session *s)
{
	return benches(s)->v.n;
}

const struct bt_bench *
bt_session_bench(struct bt_session *s, size_t i)
{
	struct bt_benches *bs = benches(s);

	if (i >= bs->v.n)
		return NULL;
	count_samples(s, bs);
	return &bs->v.v[i].pub;
}

uint64_t
bt_session_bench_outside(struct bt_session *s)
{
	struct bt_benches *bs = benches(s);

	count_samples(s, bs);
	return bs->outside;
}

long
bt_session_find_bench(struct bt_session *s, const char *name)
{
	struct bt_benches *bs = benches(s);
	size_t i, len = strlen(name);
	long found = -1;

	for (i = 0; i < bs->v.n; i++)
		if (strcmp(bs->v.v[i].pub.name, name) == 0)
			return (long)i;
	for (i = 0; i < bs->v.n; i++)
		if (strncmp(bs->v.v[i].pub.name, name, len) == 0) {
			if (found >= 0)
				return -2;
			found = (long)i;
		}
	return found;
}

int
bt_session_select_bench(struct bt_session *s, long i, struct bt_error *err)
{
	struct bt_benches *bs = benches(s);
	long old = s->bench;
	const struct bt_session_opts *o = &s->o;

	if (i >= 0 && (size_t)i >= bs->v.n)
		return bt_error_set(err, BT_EINVAL, "no benchmark %ld", i);
	if (i >= 0 && !bs->v.v[i].pub.has_window)
		return bt_error_set(err, BT_EINVAL, "'%s' has no samples of its own%s%s",
		    bs->v.v[i].pub.name, bs->note[0] ? ": " : "", bs->note);
	s->bench = i;
	if (bt_session_select(s, o->event, o->time_from, o->time_to, o->time_percent,
	    err) < 0) {
		s->bench = old;
		bt_session_select(s, o->event, o->time_from, o->time_to,
		    o->time_percent, NULL);
		return -BT_EINVAL;
	}
	return 0;
}

long
bt_session_current_bench(const struct bt_session *s)
{
	return s->bench;
}

/* Does name (perf's short form) end with sep + family + (end or one of ends)? */
static bool
names_family(const char *name, const char *fam, size_t flen)
{
	const char *p;

	for (p = name; (p = strstr(p, fam)) != NULL; p++) {
		char after = p[flen];
		bool start = p == name || p[-1] == '.' || p[-1] == ':' || p[-1] == ' ';
		if (start && (after == '\0' || after == '<' || after == '(' ||
		    after == '.' || after == ':' || after == '['))
			return true;
	}
	return false;
}

bool
bt_session_bench_code(struct bt_session *s, size_t bi, size_t fi)
{
	struct bt_benches *bs = benches(s);

	if (bi >= bs->v.n || fi >= bt_session_nfuncs(s))
		return false;
	return name_is_bench(bs, bi, bt_session_func(s, fi)->name);
}

/* Is the function called name benchmark bi's own code (by its family)? */
static bool
name_is_bench(const struct bt_benches *bs, size_t bi, const char *name)
{
	char fam[256], *c;
	size_t flen;

	if (bs->v.v[bi].pub.family == NULL)
		return false;
	snprintf(fam, sizeof(fam), "%s", bs->v.v[bi].pub.family);
	flen = strlen(fam);
	if (flen == 0)
		return false;
	if (names_family(name, fam, flen))
		return true;
	/* GB fixtures: "VecFixture/Sum" is VecFixture_Sum_Benchmark */
	for (c = fam; *c; c++)
		if (*c == '/')
			*c = '_';
	if (strchr(bs->v.v[bi].pub.family, '/') != NULL ||
	    strchr(bs->v.v[bi].pub.name, '/') != NULL) {
		char fx[300];
		const char *slash = strchr(bs->v.v[bi].pub.name, '/');
		/* the family of a fixture is the fixture; the name is Fixture/Method */
		if (slash != NULL) {
			const char *end = strchr(slash + 1, '/');
			size_t nl = end ? (size_t)(end - bs->v.v[bi].pub.name) :
			    strlen(bs->v.v[bi].pub.name);
			snprintf(fx, sizeof(fx), "%.*s_Benchmark", (int)nl,
			    bs->v.v[bi].pub.name);
			for (c = fx; *c; c++)
				if (*c == '/')
					*c = '_';
			if (strstr(name, fx) != NULL)
				return true;
		}
	}
	return false;
}

/* Does name match one of the comma-separated globs in patterns? */
static bool
frames_match(const char *patterns, const char *name)
{
	const char *p = patterns;

	while (*p) {
		size_t n = strcspn(p, ",");
		char glob[256];

		if (n > 0 && n < sizeof(glob)) {
			memcpy(glob, p, n);
			glob[n] = '\0';
			if (fnmatch(glob, name, 0) == 0)
				return true;
		}
		p += n + (p[n] == ',');
	}
	return false;
}

/* perf's short form of a function's name (no parameters), kept in bs. */
static const char *
short_of(struct bt_benches *bs, const char *name)
{
	char buf[1024];

	bt_name_short(name, false, buf, sizeof(buf));
	return buf[0] ? bt_strpool_addstr(&bs->pool, buf) : name;
}

/*
 * --benchmark-frames: each function of the run (self or inclusive
 * samples) that a pattern names is a benchmark of its own, its samples
 * those whose chain passes through it (no harness numbers: "frames").
 */
static void
frame_benches(struct bt_session *s, struct bt_benches *bs)
{
	size_t i, n = bt_session_nfuncs(s);

	for (i = 0; i < n; i++) {
		const struct bt_func *f = bt_session_func(s, i);
		struct bench nb;
		size_t k;

		if (f->inclusive == 0 && f->samples == 0)
			continue;
		if (!frames_match(bs->frames, f->name) &&
		    !frames_match(bs->frames, short_of(bs, f->name)))
			continue;
		for (k = 0; k < bs->v.n; k++)
			if (strcmp(bs->v.v[k].pub.family, f->name) == 0)
				break;
		if (k < bs->v.n)
			continue;
		memset(&nb, 0, sizeof(nb));
		nb.pub.index = bs->v.n;
		nb.pub.name = short_of(bs, f->name);
		nb.pub.family = bt_strpool_addstr(&bs->pool, f->name);
		nb.pub.harness = "frames";
		nb.pub.time_ns = nb.pub.ci_ns = nb.pub.iterations = NAN;
		nb.pub.ratio = NAN;
		nb.lo = 0;
		nb.hi = UINT64_MAX;
		nb.pub.has_window = true;
		BT_VEC_PUSH(bs->v, nb);
	}
	bs->counted_attr = -1;
}

void
bt_session_set_bench_frames(struct bt_session *s, const char *patterns)
{
	struct bt_benches *bs = benches(s);

	free(bs->frames);
	bs->frames = patterns ? bt_xstrdup(patterns) : NULL;
	if (bs->frames == NULL)
		return;
	if (s->p->chains == NULL)
		bs->note = "--benchmark-frames needs call chains: the recording has none";
	else
		frame_benches(s, bs);
}

const char *
bt_session_bench_frames(const struct bt_session *s)
{
	return s->benches ? s->benches->frames : NULL;
}

const char *
bt_session_bench_note(struct bt_session *s)
{
	return benches(s)->note;
}

bool
bt_bench_slices(struct bt_session *s, size_t nbins, uint64_t *mine)
{
	struct bt_benches *bs = s->benches;
	struct bt_hist_entry *e = NULL;
	struct bt_scan sc;
	size_t n = 0, i;
	const struct bench *b;

	if (s->bench < 0 || bs == NULL || (size_t)s->bench >= bs->v.n)
		return false;
	b = &bs->v.v[s->bench];
	memset(&sc, 0, sizeof(sc));
	sc.attr = s->attr;
	sc.nbins = nbins;
	sc.fold = true;
	sc.fold_module = UINT32_MAX;
	if (by_chain(s, bs, (size_t)s->bench)) {
		/* every sample, by slice and chain: the chains through its code */
		struct bt_hist_entry *c;
		size_t nc, nl = bt_chains_nlocs(s->p);
		const char **names;

		sc.t_hi = UINT64_MAX;
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
			if (c[i].group < nbins && chain_bench(s, bs, bs->chained,
			    (uint32_t)c[i].off, names) == s->bench)
				mine[c[i].group] += c[i].samples;
		free(names);
		free(c);
	} else {
		/* its window's samples, by slice of the whole run */
		sc.t_lo = b->lo;
		sc.t_hi = b->hi;
		if (bt_profile_scan(s->p, &sc, &e, &n, NULL) < 0)
			return false;
		for (i = 0; i < n; i++)
			if (e[i].group < nbins)
				mine[e[i].group] += e[i].samples;
	}
	free(e);
	return true;
}
