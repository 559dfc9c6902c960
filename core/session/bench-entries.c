/*
 * A harness that prints its results only when every benchmark has run
 * (tinybench's console.table: BT_HARNESS_T_AT_END) gives no time to split
 * by, and its benchmarks' code is known by no name (a task is an
 * anonymous function, "JS:* file:///.../bench.mjs:16:18"). But it runs
 * its tasks one after another in the order they were added, the order of
 * its table: the entry frames (the functions its runner calls, found by
 * the harness's frame table on each call chain) in the order of the bulk
 * of their samples in time (the 90th percentile: tinybench warms every
 * task up first, then measures one after another) are the table's rows. Each benchmark's
 * samples are then those through its entry frame, as for a function named
 * like it (docs/benchmarks.md).
 */
#include <stdlib.h>
#include <string.h>

#include "harness/harness.h"
#include "profile/chains.h"
#include "session/bench-int.h"
#include "session/session-int.h"

#define ORDER_BINS 4000	/* the run's slices in which an entry first appears */
#define MAX_FRAMES 128

struct entry {
	const char *name;
	uint64_t samples;
	uint64_t *bins;		/* its samples per slice of the run */
	size_t p50, p75, p90;	/* the slices of those percentiles */
	size_t task;		/* after merge(): the task it is part of */
};

static int
by_p90(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->p90 != y->p90)
		return x->p90 < y->p90 ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void
percentiles(struct entry *e)
{
	uint64_t all = 0, run = 0;
	size_t i;

	for (i = 0; i < ORDER_BINS; i++)
		all += e->bins[i];
	e->samples = all;
	e->p50 = e->p75 = e->p90 = 0;
	for (i = 0; i < ORDER_BINS; i++) {
		run += e->bins[i];
		if (2 * run < all)
			e->p50 = i + 1;
		if (4 * run < 3 * all)
			e->p75 = i + 1;
		if (10 * run < 9 * all)
			e->p90 = i + 1;
	}
}

/*
 * Entries (sorted by their 90th percentile) into tasks: an entry whose
 * 75th percentile falls between a task's 50th and 90th ran with it (the
 * task's callee, called straight from the runner's loop once the
 * optimizing compiler inlined the task into it). Returns the tasks.
 */
static size_t
merge(struct entry *en, size_t n)
{
	size_t i, tasks = 0, cur = 0;

	for (i = 0; i < n; i++) {
		if (i > 0 && en[i].p75 >= en[cur].p50 && en[i].p75 <= en[cur].p90) {
			en[i].task = en[cur].task;
			continue;
		}
		cur = i;
		en[i].task = tasks++;
	}
	return tasks;
}

/* The distance in slices from slice x to [lo, hi]. */
static size_t
dist(size_t x, size_t lo, size_t hi)
{
	return x < lo ? lo - x : x > hi ? x - hi : 0;
}

/*
 * While there are more tasks than results, the smallest, when it holds
 * under a tenth of the samples (a callee seen on its own a few times, a
 * library function called straight from the loop), joins the task whose
 * samples' middle half is nearest to its own middle. Returns the tasks.
 */
static size_t
fold_small(struct entry *en, size_t n, size_t tasks, size_t want)
{
	uint64_t all = 0;
	size_t i;

	for (i = 0; i < n; i++)
		all += en[i].samples;
	while (tasks > want) {
		uint64_t *size = bt_xcalloc(tasks, sizeof(*size));
		size_t small = 0, into = SIZE_MAX, best = SIZE_MAX, t;

		for (i = 0; i < n; i++)
			size[en[i].task] += en[i].samples;
		for (t = 1; t < tasks; t++)
			if (size[t] < size[small])
				small = t;
		if (10 * size[small] >= all) {
			free(size);
			break;
		}
		for (i = 0; i < n; i++) {	/* its middle: its first entry's */
			size_t j, d;
			if (en[i].task == small)
				continue;
			for (j = 0; j < n && en[j].task != small; j++)
				;
			d = dist(en[j].p75, en[i].p50, en[i].p90);
			if (d < best) {
				best = d;
				into = en[i].task;
			}
		}
		for (i = 0; i < n; i++) {	/* renumbered in order */
			if (en[i].task == small)
				en[i].task = into;
			if (en[i].task > small)
				en[i].task--;
		}
		tasks--;
		free(size);
	}
	return tasks;
}

/* The entry frame of chain id under hf's runner, NULL when none. */
static const char *
chain_entry(struct bt_session *s, const struct bt_harness_frames *hf, uint32_t id)
{
	struct bt_frame f[MAX_FRAMES];
	struct bt_chain_match m;
	const uint32_t *locs;
	size_t n = bt_chains_get(s->p, id, &locs), k, nf = 0;

	for (k = 0; k < n && nf < MAX_FRAMES; k++) {
		const struct bt_loc *l;
		if (locs[k] == BT_LOC_GAP)
			continue;
		l = bt_chains_loc(s->p, locs[k]);
		f[nf].symbol = bench_func_name(s, l->module, l->off);
		f[nf].module = l->module < s->p->modules.n ?
		    s->p->modules.v[l->module].path : NULL;
		nf++;
	}
	bt_harness_match_chain(hf, f, nf, &m);
	return m.place == BT_CHAIN_BENCHMARK ? bt_jit_untiered(f[m.entry].symbol) : NULL;
}

struct entries {
	struct entry *v;
	size_t n, alloc;
};

static void
free_entries(struct entries *en)
{
	size_t i;

	for (i = 0; i < en->n; i++)
		free(en->v[i].bins);
	BT_VEC_FREE(*en);
}

void
bench_entries(struct bt_session *s, struct bt_benches *bs, int attr)
{
	const struct bt_harness_frames *hf;
	struct bt_hist_entry *e = NULL, *ch = NULL;
	struct entries en = { NULL, 0, 0 };
	struct bt_scan sc;
	size_t i, k, n = 0, nc;

	if (bs->v.n == 0 || !bs->v.v[0].at_end || s->p->chains == NULL ||
	    (hf = bt_harness_frames(bt_harness_from_name(bs->v.v[0].pub.harness))) == NULL)
		return;
	bt_scan_init_counts(&sc, attr);
	sc.nbins = ORDER_BINS;
	sc.chains = bt_hist_new();
	if (bt_profile_scan(s->p, &sc, &e, &n, NULL) < 0) {
		bt_hist_free(sc.chains);
		return;
	}
	free(e);
	nc = bt_hist_take(sc.chains, &ch);	/* sorted by (bin, chain) */
	bt_hist_free(sc.chains);
	for (i = 0; i < nc; i++) {
		const char *name = chain_entry(s, hf, (uint32_t)ch[i].off);
		if (name == NULL)
			continue;
		for (k = 0; k < en.n && strcmp(en.v[k].name, name) != 0; k++)
			;
		if (k == en.n) {
			struct entry x = { name, 0, bt_xcalloc(ORDER_BINS, sizeof(uint64_t)), 0, 0, 0, 0 };
			BT_VEC_PUSH(en, x);
		}
		if (ch[i].group < ORDER_BINS)
			en.v[k].bins[ch[i].group] += ch[i].samples;
	}
	free(ch);
	for (k = 0; k < en.n; k++)
		percentiles(&en.v[k]);
	qsort(en.v, en.n, sizeof(*en.v), by_p90);
	k = fold_small(en.v, en.n, merge(en.v, en.n), bs->v.n);
	if (bs->v.n == 1 && en.n > 0) {	/* one task: every entry is its */
		for (i = 0; i < en.n; i++)
			en.v[i].task = 0;
		k = 1;
	}
	if (k != bs->v.n) {
		bs->note = bt_strpool_addf(&bs->pool, "%zu task functions ran under "
		    "%s's runner, for %zu results: the benchmarks' samples cannot be "
		    "told apart", k, bs->v.v[0].pub.harness, bs->v.n);
		free_entries(&en);
		return;
	}
	for (i = 0; i < en.n; i++) {
		struct bench *b = &bs->v.v[en.v[i].task];
		BT_VEC_PUSH(b->entries, bt_strpool_addstr(&bs->pool, en.v[i].name));
		b->pub.has_window = true;	/* its samples are known: by chain */
		b->lo = b->hi = 0;
	}
	free_entries(&en);
}
