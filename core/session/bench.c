/*
 * Benchmarks as the unit (DESIGN.md §7): the harness's output, kept in
 * the recording with the time each chunk was read, is parsed again
 * (core/harness) and its results are grouped into benchmarks, each with
 * its window: the harness writes each result when the benchmark ends (Go
 * and criterion also when it starts), the output went through a pty so
 * that lines arrive when written, and output and samples are on
 * CLOCK_MONOTONIC. Which samples belong to each, per event, is
 * bench-count.c's. docs/benchmarks.md says the same.
 */
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/harness.h"
#include "perf/meta.h"
#include "session/bench-int.h"
#include "session/session-int.h"
#include "symbols/symbols.h"

#define SETTLE_NS 250000000ULL	/* how late a result line may be read: 250 ms */
#define SETTLE_SLOTS 1000		/* looked at in 0.25 ms slots */

/*
 * Replay the recorded output (core/perf/meta.h's chunks) into a parser:
 * standard output, standard error's times kept (where the first
 * benchmark starts). openssl speed writes its results on standard error:
 * a second parser reads that for openssl's lines alone, and its results
 * are the run's when standard output had none.
 */
static void
parse_output(struct bt_benches *bs, const char *d, size_t len)
{
	struct bt_harness_parser *ep = bt_harness_parser_new(BT_HARNESS_OPENSSL);
	const char *end = d + len, *bytes;
	double t = NAN, te = NAN;
	uint64_t ns;
	size_t n;
	int stream;

	bs->parser = bt_harness_parser_new(BT_HARNESS_UNKNOWN);
	while (bt_meta_output_next(&d, end, &ns, &stream, &bytes, &n) > 0) {
		if (stream == 2) {
			te = (double)ns / 1e9;
			BT_VEC_PUSH(bs->err_times, te);
			bt_harness_feed(ep, bytes, n, te);
		} else {
			t = (double)ns / 1e9;
			bt_harness_feed(bs->parser, bytes, n, t);
		}
	}
	bt_harness_finish(bs->parser, t);
	bt_harness_finish(ep, te);
	if (bt_harness_count(bs->parser) == 0 && bt_harness_count(ep) > 0) {
		struct bt_harness_parser *x = bs->parser;

		bs->parser = ep;
		ep = x;
	}
	bt_harness_parser_free(ep);
}

/* "BM_sum/8_mean" -> "BM_sum/8": the name a result groups under. */
static size_t
key_len(const struct bt_bench_result *r)
{
	size_t n = strlen(r->name), a;

	if (r->aggregate == NULL)
		return n;
	a = strlen(r->aggregate);
	/* GB's "_mean", JMH's secondary results' ":p0.50" */
	if (n > a + 1 && (r->name[n - a - 1] == '_' || r->name[n - a - 1] == ':') &&
	    strcmp(r->name + n - a, r->aggregate) == 0)
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
 * when it starts (t_begin: BT_HARNESS_T_ANNOUNCES), the others print one
 * line when it is done, so it began when the result before it ended (or
 * the run began).
 */
static void
result_window(const struct bt_bench_result *r, double prev_end,
	      uint64_t *lo, uint64_t *hi)
{
	bool announced = (bt_harness_traits(r->harness) & BT_HARNESS_T_ANNOUNCES) &&
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
 * before it ends: where the harness says (mitata's header, t_start), else
 * the last thing written to standard error before its result (Google
 * Benchmark's context, written just before it runs), else the first
 * sample (start-up then counts for the first benchmark).
 */
static double
run_start(struct bt_session *s, struct bt_benches *bs, const struct bt_bench_result *r)
{
	double start = (double)s->p->first_time / 1e9, before = r->t_begin;
	size_t i;

	if (isfinite(r->t_start))	/* the harness says: mitata's header */
		return BT_MAX(r->t_start, start);
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

/*
 * The probes' groups matched to the result lines, in order: *batch[i] is
 * the group result i belongs to (-1: none, an error line Go printed for a
 * benchmark that never ran). GB reports a benchmark's repetitions and
 * aggregates together: consecutive lines of one name are one group. False
 * when the counts disagree (then the split falls back, and says so).
 */
/*
 * The report before GB's result r was read: the last group reported
 * before its line was complete.
 */
static long
reported_before(const struct bench_phase_set *ps, const struct bt_bench_result *r)
{
	uint64_t t = to_ns(r->t_end);
	long g = -1;
	size_t i;

	for (i = 0; i < ps->groups.n && ps->groups.v[i].reported <= t; i++)
		g = (long)i;
	return g;
}

/*
 * Number the groups of the result lines in *batch, the last one's into
 * *last: a new group at every line (Go, criterion), or for GB at each new
 * name, and (by_time) where a line was read after another report than the
 * line before it (two benchmarks registered under one name).
 */
static bool
number_groups(struct bt_benches *bs, long *batch, size_t n, bool by_time, long *last)
{
	const struct bench_phase_set *ps = &bs->phases;
	const struct bt_bench_result *prev = NULL;
	long k = -1, tprev = -1;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct bt_bench_result *r = bt_harness_result(bs->parser, i);
		long t = by_time ? reported_before(ps, r) : -1;

		batch[i] = -1;
		if (r->harness != ps->harness)
			return false;
		if (ps->harness == BT_HARNESS_GO && (r->flags & BT_BENCH_ERROR) &&
		    !r->time.text)
			continue;
		if (ps->harness != BT_HARNESS_GBENCH || prev == NULL ||
		    key_len(r) != key_len(prev) || t > tprev ||
		    memcmp(r->name, prev->name, key_len(r)) != 0)
			k++;
		batch[i] = k;
		prev = r;
		tprev = t;
	}
	*last = k;
	return true;
}

static bool
match_groups(struct bt_benches *bs, long *batch, size_t n)
{
	const struct bench_phase_set *ps = &bs->phases;
	long k;

	if (!number_groups(bs, batch, n, false, &k))
		return false;
	if ((size_t)(k + 1) != ps->groups.n && ps->harness == BT_HARNESS_GBENCH &&
	    !number_groups(bs, batch, n, true, &k))
		return false;
	if ((size_t)(k + 1) != ps->groups.n) {
		bs->note = bt_strpool_addf(&bs->pool, "the harness's probes saw %zu "
		    "benchmarks where it printed %ld: split by output times instead",
		    ps->groups.n, k + 1);
		return false;
	}
	return true;
}

/*
 * The benchmark result i of a probed run joins: the one before when it
 * has its name (GB: and it is of the same report, so that two benchmarks
 * registered under one name stay apart; Go -count repeats a benchmark
 * one run after another), else a new one (NULL).
 */
static struct bench *
probe_bench(struct bt_benches *bs, const long *batch, size_t i,
	    const struct bt_bench_result *r)
{
	struct bench *last = bs->v.n ? &bs->v.v[bs->v.n - 1] : NULL;
	size_t kl = key_len(r);

	if (last == NULL || strlen(last->pub.name) != kl ||
	    memcmp(last->pub.name, r->name, kl) != 0)
		return NULL;
	if (bs->phases.harness == BT_HARNESS_GBENCH &&
	    last->groups.v[last->groups.n - 1] != (size_t)batch[i])
		return NULL;
	return last;
}

static void
build(struct bt_session *s, struct bt_benches *bs)
{
	size_t i, n = bt_harness_count(bs->parser);
	double prev_end = NAN, fastest = INFINITY;
	long *batch = bt_xcalloc(n + 1, sizeof(*batch));

	bs->probed = bs->phases.groups.n > 0 && match_groups(bs, batch, n);
	for (i = 0; i < n; i++) {
		const struct bt_bench_result *r = bt_harness_result(bs->parser, i);
		size_t kl = key_len(r);
		struct bench *b;
		uint64_t lo, hi;

		if (bs->probed && batch[i] < 0)
			continue;
		if (bs->probed)
			b = probe_bench(bs, batch, i, r);
		else
			b = find_key(bs, r->name, kl);

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
			nb.at_end = (bt_harness_traits(r->harness) & BT_HARNESS_T_AT_END) != 0;
			BT_VEC_PUSH(bs->v, nb);
			b = &bs->v.v[bs->v.n - 1];
		}
		b->pub.nresults++;
		{
			struct bt_bench_run run = { r->line, r->name, r->aggregate,
				r->time.text, r->iterations.text, r->error,
				r->cpu_time.text ? r->cpu_time.value : NAN };
			BT_VEC_PUSH(b->runs, run);
		}
		if (bs->probed) {
			bench_probe_add(bs, b, (size_t)batch[i]);
			lo = b->lo;
			hi = b->hi;
		}
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
	if (bs->probed)
		bench_probe_finish(bs);
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
		b->pub.split = bench_ph(b) ? "probe" : "window";
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
	free(batch);
}

/* The name of the function at (module, offset), NULL if none. */
const char *
bench_func_name(struct bt_session *s, uint32_t mi, uint64_t off)
{
	struct bt_msyms *m = bt_session_syms(s, mi);
	struct bt_func_sym fs;
	uint64_t addr;

	if (m == NULL || bt_msyms_off_to_addr(m, off, &addr) < 0 ||
	    bt_msyms_func(m, addr, &fs) < 0)
		return NULL;
	return fs.name;
}

const char *
bench_module_name(struct bt_session *s, uint32_t mi)
{
	return mi < s->p->modules.n ? s->mods[mi].name : NULL;
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
settle(struct bt_session *s, struct bt_benches *bs, int attr)
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
	bt_scan_init(&sc, attr);
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
			if (bi + 1 >= nb || (name = bench_func_name(s, e[k].module, e[k].off)) == NULL)
				continue;
			sl -= first[bi];
			if (bench_name_is(bs, bi, name)) {
				if ((long)sl > own[bi])
					own[bi] = (long)sl;
				continue;
			}
			for (j = bi + 1; j < nb; j++)
				if (bench_name_is(bs, j, name))
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

/* Is the function called name benchmark bi's own code (by its family)? */
bool
bench_name_is(const struct bt_benches *bs, size_t bi, const char *name)
{
	char fam[256], *c;
	size_t flen;

	if (bs->v.v[bi].entries.n) {
		size_t k;
		for (k = 0; name != NULL && k < bs->v.v[bi].entries.n; k++)
			if (strcmp(bt_jit_untiered(name), bs->v.v[bi].entries.v[k]) == 0)
				return true;
		return false;
	}
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
frame_benches(const struct bt_selection *sel, struct bt_benches *bs, const char *frames)
{
	size_t i, n = bt_selection_nfuncs(sel);

	for (i = 0; i < n; i++) {
		const struct bt_func *f = bt_selection_func(sel, i);
		struct bench nb;
		size_t k;

		if (f->inclusive == 0 && f->samples == 0)
			continue;
		if (!frames_match(frames, f->name) &&
		    !frames_match(frames, short_of(bs, f->name)))
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
}

struct bt_benches *
bench_list(struct bt_selection *first)
{
	struct bt_session *s = first->s;
	struct bt_benches *bs = bt_xcalloc(1, sizeof(*bs));
	size_t i;

	bt_strpool_init(&bs->pool);
	bs->nevents = s->p->info.nevents;
	bs->counts = bt_xcalloc(bs->nevents + 1, sizeof(*bs->counts));
	bs->note = "";
	if (s->p->meta.output != NULL) {
		bs->windows = s->p->meta.clock_monotonic;
		parse_output(bs, s->p->meta.output, s->p->meta.output_len);
		if (bs->windows)
			bench_phases_read(&s->p->meta, &bs->phases);
		build(s, bs);
		if (!bs->probed && s->p->meta.probe_note[0])
			bs->note = bt_strpool_addf(&bs->pool, "%s: split by call chains "
			    "and output times instead", s->p->meta.probe_note);
		else if (s->p->meta.probe_lost)
			bs->note = bt_strpool_addf(&bs->pool, "the kernel dropped %llu of "
			    "the harness's probe hits", (unsigned long long)s->p->meta.probe_lost);
	}
	if (bs->windows && !bs->probed)
		bench_forks(s, bs);
	if (bs->windows && !bs->probed && !bs->forked) {
		/* again while boundaries move: a window may now begin earlier */
		for (i = 0; i < 4 && settle(s, bs, first->attr); i++)
			;
		for (i = 0; i < bs->v.n; i++) {
			struct bench *b = &bs->v.v[i];
			b->pub.t_from = b->lo > s->p->first_time ?
			    (double)(b->lo - s->p->first_time) / 1e9 : 0;
			b->pub.t_to = b->hi > s->p->first_time ?
			    (double)(b->hi - s->p->first_time) / 1e9 : 0;
		}
	}
	bench_entries(s, bs, first->attr);
	/*
	 * A program's own "NAME 1.5 ns/op" lines (no runner, no frames
	 * table): a chain through the function named like a result is its
	 */
	for (i = 0; s->p->chains != NULL && i < bs->v.n; i++)
		if (bs->v.v[i].at_end && bs->v.v[i].entries.n == 0 &&
		    bt_harness_frames(bt_harness_from_name(bs->v.v[i].pub.harness)) == NULL) {
			bs->v.v[i].pub.has_window = true;
			bs->v.v[i].lo = bs->v.v[i].hi = 0;
		}
	if (bs->v.n && !bs->windows && bs->v.v[0].entries.n == 0)
		bs->note = "the samples' times are not on CLOCK_MONOTONIC: the "
		    "benchmarks' samples cannot be told apart";
	if (s->bench_frames != NULL && s->p->chains == NULL)
		bs->note = "--benchmark-frames needs call chains: the recording has none";
	else if (s->bench_frames != NULL)
		frame_benches(first, bs, s->bench_frames);
	bs->match = bt_xcalloc(bs->v.n + 1, sizeof(*bs->match));
	for (i = 0; i < bs->v.n; i++) {
		bs->match[i].bs = bs;
		bs->match[i].bi = i;
	}
	return bs;
}

void
bt_benches_free(struct bt_benches *bs)
{
	size_t i;

	if (bs == NULL)
		return;
	for (i = 0; i < bs->nevents; i++)
		bench_counts_free(bs->counts[i]);
	for (i = 0; i < bs->v.n; i++) {
		BT_VEC_FREE(bs->v.v[i].runs);
		BT_VEC_FREE(bs->v.v[i].groups);
		BT_VEC_FREE(bs->v.v[i].rref);
		BT_VEC_FREE(bs->v.v[i].all.meas);
		BT_VEC_FREE(bs->v.v[i].entries);
		BT_VEC_FREE(bs->v.v[i].pids);
	}
	free(bs->counts);
	free(bs->match);
	bt_harness_parser_free(bs->parser);
	BT_VEC_FREE(bs->v);
	BT_VEC_FREE(bs->err_times);
	BT_VEC_FREE(bs->pids);
	bench_phases_release(&bs->phases);
	bt_strpool_release(&bs->pool);
	free(bs);
}

void
bt_session_set_bench_frames(struct bt_session *s, const char *patterns)
{
	free(s->bench_frames);
	s->bench_frames = patterns ? bt_xstrdup(patterns) : NULL;
}

const char *
bt_session_bench_frames(const struct bt_session *s)
{
	return s->bench_frames;
}

size_t
bt_selection_bench_runs(const struct bt_selection *sel, size_t b,
			const struct bt_bench_run **runs)
{
	const struct bt_benches *bs = sel->s->benches;

	*runs = NULL;
	if (bs == NULL || b >= bs->v.n)
		return 0;
	*runs = bs->v.v[b].runs.v;
	return bs->v.v[b].runs.n;
}

size_t
bt_selection_nbenches(const struct bt_selection *sel)
{
	return sel->s->benches ? sel->s->benches->v.n : 0;
}

long
bt_selection_find_bench(const struct bt_selection *sel, const char *name)
{
	const struct bt_benches *bs = sel->s->benches;
	size_t i, len = strlen(name);
	long found = -1;

	for (i = 0; bs != NULL && i < bs->v.n; i++)
		if (strcmp(bs->v.v[i].pub.name, name) == 0)
			return (long)i;
	for (i = 0; bs != NULL && i < bs->v.n; i++)
		if (strncmp(bs->v.v[i].pub.name, name, len) == 0) {
			if (found >= 0)
				return -2;
			found = (long)i;
		}
	return found;
}

bool
bt_selection_bench_code(const struct bt_selection *sel, size_t bi, size_t fi)
{
	const struct bt_benches *bs = sel->s->benches;

	if (bs == NULL || bi >= bs->v.n || fi >= sel->funcs.n)
		return false;
	return bench_name_is(bs, bi, sel->funcs.v[fi].pub.name);
}

const char *
bt_selection_bench_note(const struct bt_selection *sel)
{
	return sel->s->benches ? sel->s->benches->note : "";
}
