/*
 * Each benchmark's measured phases from the harness's probes (recorded by
 * core/record/probes.c; docs/benchmarks.md "Phases from probes"): when
 * the harness's own timer ran, on the samples' clock, grouped into one
 * group per benchmark the harness reported, in the order it reported
 * them:
 *
 * - Google Benchmark: the timer runs from ResumeTiming to PauseTiming
 *   (StartKeepRunning and FinishKeepRunning call them); a reporter's
 *   ReportRuns ends a benchmark (the second reporter of --benchmark_out
 *   reports the same runs: a report with no run since the last is not
 *   another benchmark).
 * - go test: StartTimer(b) to the next StopTimer (timers nest: a parent's
 *   runs around its sub-benchmarks'); each launch(b) is one result line,
 *   and its group holds every run of that b (the b.N = 1 trial too).
 * - criterion: analysis::common is one benchmark; Routine::sample its
 *   measurement, from the end of its warm_up.
 *
 * Between its first run's start and its last run's end, the time a
 * benchmark's timer is off is its untimed part (set-up, StopTimer,
 * runtime.GC() before each Go run, criterion's warm-up; criterion's
 * analysis after the measurement).
 */
#include <stdlib.h>
#include <string.h>

#include "session/bench-int.h"
#include "session/session-int.h"

/* A new group, its span from t. */
static struct bench_phases *
new_group(struct bench_phase_set *ps, uint64_t t)
{
	struct bench_phases g;

	memset(&g, 0, sizeof(g));
	g.span_lo = g.span_hi = t;
	BT_VEC_PUSH(ps->groups, g);
	return &ps->groups.v[ps->groups.n - 1];
}

static void
add_pair(struct bench_pairs *p, uint64_t lo, uint64_t hi)
{
	BT_VEC_PUSH(*p, lo);
	BT_VEC_PUSH(*p, hi);
}

static int
pair_cmp(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* Sorted, and overlapping pairs (threads) merged. */
static void
normalize(struct bench_pairs *p)
{
	size_t i, k = 0;

	if (p->n == 0)
		return;		/* p->v may be NULL: no qsort of it (UBSan) */
	qsort(p->v, p->n / 2, 2 * sizeof(uint64_t), pair_cmp);
	for (i = 0; i < p->n; i += 2) {
		if (k > 0 && p->v[k - 1] >= p->v[i]) {
			if (p->v[i + 1] > p->v[k - 1])
				p->v[k - 1] = p->v[i + 1];
			continue;
		}
		p->v[k++] = p->v[i];
		p->v[k++] = p->v[i + 1];
	}
	p->n = k;
}

static void
add_interval(struct bench_phases *g, uint64_t lo, uint64_t hi)
{
	if (hi <= lo)
		return;
	add_pair(&g->meas, lo, hi);
	if (hi > g->span_hi)
		g->span_hi = hi;
}

/* Per thread, since when its timer runs (0: off). */
struct on_since {
	BT_VEC(uint64_t) tid_on;	/* pairs: tid, time */
};

static uint64_t *
on_of(struct on_since *o, uint32_t tid)
{
	size_t i;

	for (i = 0; i < o->tid_on.n; i += 2)
		if (o->tid_on.v[i] == tid)
			return &o->tid_on.v[i + 1];
	BT_VEC_PUSH(o->tid_on, tid);
	BT_VEC_PUSH(o->tid_on, 0);
	return &o->tid_on.v[o->tid_on.n - 1];
}

static void
gbench_groups(const struct bt_meta *m, struct bench_phase_set *ps)
{
	struct on_since on = { { NULL, 0, 0 } }, started = { { NULL, 0, 0 } };
	struct bench_phases *g = NULL;
	size_t i;

	for (i = 0; i < m->nhits; i++) {
		const struct bt_probe_hit *h = &m->hits[i];
		uint64_t *since;

		switch (h->role) {
		case BT_PROBE_GB_START:
			if (g == NULL)
				g = new_group(ps, h->time);
			g->nruns++;
			*on_of(&started, h->tid) = h->time;
			break;
		case BT_PROBE_GB_RESUME:
			*on_of(&on, h->tid) = h->time;
			break;
		case BT_PROBE_GB_PAUSE:
			since = on_of(&on, h->tid);
			if (g != NULL && *since)
				add_interval(g, *since, h->time);
			*since = 0;
			break;
		case BT_PROBE_GB_FINISH:
			since = on_of(&started, h->tid);
			if (g != NULL && *since)
				add_pair(&g->reps, *since, h->time + 1);
			*since = 0;
			if (g != NULL && h->time > g->span_hi)
				g->span_hi = h->time;
			break;
		case BT_PROBE_GB_REPORT:
			if (g != NULL)
				g->reported = h->time;
			g = NULL;	/* a report with no run since: the same one */
			break;
		}
	}
	BT_VEC_FREE(on.tid_on);
	BT_VEC_FREE(started.tid_on);
}

struct go_timer {
	uint64_t b, since;
	size_t group;
};

struct go_timers {
	struct go_timer *v;
	size_t n, alloc;
};

/*
 * b's group: its last one, else a new one. With run1 probed (every *B
 * calls it once, first), run1 always makes a new one: a B at the address
 * of one collected is another. Without it (an older recording), a
 * launched b's group is open while its runs follow one another.
 */
static size_t
go_group(struct bench_phase_set *ps, struct go_timers *bs, uint64_t b,
	 uint64_t t, uint64_t last_b, bool run1)
{
	size_t i;

	for (i = bs->n; !run1 && i-- > 0;)
		if (bs->v[i].b == b) {
			const struct bench_phases *g = &ps->groups.v[bs->v[i].group];
			if (!g->launched || b == last_b || ps->run1)
				return bs->v[i].group;
			break;
		}
	new_group(ps, t);
	{
		struct go_timer gt = { b, 0, ps->groups.n - 1 };
		BT_VEC_PUSH(*bs, gt);
	}
	return ps->groups.n - 1;
}

static void
go_groups(const struct bt_meta *m, struct bench_phase_set *ps)
{
	struct go_timers bs = { NULL, 0, 0 };
	BT_VEC(size_t) stack = { NULL, 0, 0 };	/* timers on, innermost last (into bs) */
	size_t i, k;
	uint64_t last_b = 0;	/* the b of the last runN or launch */

	for (i = 0; i < m->nhits; i++) {
		const struct bt_probe_hit *h = &m->hits[i];
		size_t gi;

		switch (h->role) {
		case BT_PROBE_GO_RUN1:
			go_group(ps, &bs, h->arg, h->time, last_b, true);
			last_b = h->arg;
			break;
		case BT_PROBE_GO_RUNN:
			gi = go_group(ps, &bs, h->arg, h->time, last_b, false);
			ps->groups.v[gi].last_run = h->time;
			last_b = h->arg;
			break;
		case BT_PROBE_GO_LAUNCH:
			gi = go_group(ps, &bs, h->arg, h->time, last_b, false);
			if (!ps->groups.v[gi].launched) {
				ps->groups.v[gi].launched = true;
				ps->groups.v[gi].order = ps->nlaunched++;
			}
			last_b = h->arg;
			break;
		case BT_PROBE_GO_START:
			gi = go_group(ps, &bs, h->arg, h->time, last_b, false);
			for (k = 0; k < bs.n && bs.v[k].group != gi; k++)
				;
			if (k < bs.n && bs.v[k].since == 0) {
				bs.v[k].since = h->time;
				BT_VEC_PUSH(stack, k);
			}
			break;
		case BT_PROBE_GO_STARTED:
			/* the timer the entry started: from here (its clock is next) */
			if (stack.n > 0 && bs.v[stack.v[stack.n - 1]].since < h->time)
				bs.v[stack.v[stack.n - 1]].since = h->time;
			break;
		case BT_PROBE_GO_STOP:
			if (stack.n == 0)
				break;
			k = stack.v[--stack.n];
			add_interval(&ps->groups.v[bs.v[k].group], bs.v[k].since, h->time);
			ps->groups.v[bs.v[k].group].nruns++;
			bs.v[k].since = 0;
			break;
		}
	}
	BT_VEC_FREE(bs);
	BT_VEC_FREE(stack);
}

static void
criterion_groups(const struct bt_meta *m, struct bench_phase_set *ps)
{
	struct bench_phases *g = NULL;
	uint64_t from = 0;
	size_t i;

	for (i = 0; i < m->nhits; i++) {
		const struct bt_probe_hit *h = &m->hits[i];

		switch (h->role) {
		case BT_PROBE_CRIT_COMMON:
			g = new_group(ps, h->time);
			break;
		case BT_PROBE_CRIT_SAMPLE:
		case BT_PROBE_CRIT_WARMUP_END:
			from = h->time;
			break;
		case BT_PROBE_CRIT_SAMPLE_END:
			if (g != NULL && from) {
				add_interval(g, from, h->time);
				g->nruns++;
			}
			from = 0;
			break;
		case BT_PROBE_CRIT_COMMON_END:
			if (g != NULL && h->time > g->span_hi)
				g->span_hi = h->time;
			g = NULL;
			break;
		}
	}
}

void
bench_phases_read(const struct bt_meta *m, struct bench_phase_set *ps)
{
	bool roles[BT_PROBE_NROLES] = { false };
	size_t i, k;

	memset(ps, 0, sizeof(*ps));
	for (i = 0; i < m->nhits; i++)
		if (m->hits[i].role < BT_PROBE_NROLES)
			roles[m->hits[i].role] = true;
	if (roles[BT_PROBE_GB_START]) {
		ps->harness = BT_HARNESS_GBENCH;
		gbench_groups(m, ps);
	} else if (roles[BT_PROBE_GO_LAUNCH]) {
		ps->harness = BT_HARNESS_GO;
		ps->run1 = roles[BT_PROBE_GO_RUN1];
		go_groups(m, ps);
		/* the results are the launched groups, in launch order */
		for (i = 0, k = 0; i < ps->groups.n; i++)
			if (ps->groups.v[i].launched) {
				struct bench_phases g = ps->groups.v[i];
				ps->groups.v[i] = ps->groups.v[k];
				ps->groups.v[k++] = g;
			} else {
				BT_VEC_FREE(ps->groups.v[i].meas);
				BT_VEC_FREE(ps->groups.v[i].reps);
			}
		ps->groups.n = k;
	} else if (roles[BT_PROBE_CRIT_COMMON]) {
		ps->harness = BT_HARNESS_CRITERION;
		criterion_groups(m, ps);
	}
	for (i = 0, k = 0; i < ps->groups.n; i++) {	/* groups that measured */
		struct bench_phases *g = &ps->groups.v[i];
		if (g->meas.n == 0) {
			BT_VEC_FREE(g->meas);
			BT_VEC_FREE(g->reps);
			continue;
		}
		normalize(&g->meas);
		normalize(&g->reps);
		ps->groups.v[k++] = *g;
	}
	ps->groups.n = k;
}

void
bench_probe_add(struct bt_benches *bs, struct bench *b, size_t g)
{
	const struct bench_phases *ph = &bs->phases.groups.v[g];
	struct bench_runref rr = { g, 0, 0, false };

	if (b->groups.n == 0 || b->groups.v[b->groups.n - 1] != g)
		BT_VEC_PUSH(b->groups, g);
	BT_VEC_PUSH(b->rref, rr);
	b->lo = bs->phases.groups.v[b->groups.v[0]].span_lo;
	b->hi = ph->span_hi + 1;
}

/*
 * Each result line's part: Go and criterion print one line per group,
 * Go for its last runN (the b.N printed; the runs before it estimated
 * it); GB's repetition lines are its group's last runs, in order (the
 * runs before them estimated the iterations), its aggregates none.
 */
static void
run_parts(struct bt_benches *bs, struct bench *b)
{
	size_t j, k;

	for (j = 0; j < b->rref.n; j++) {
		struct bench_runref *rr = &b->rref.v[j];
		const struct bench_phases *g = &bs->phases.groups.v[rr->group];
		size_t nlines = 0, nth = 0;

		if (b->runs.v[j].aggregate != NULL)
			continue;
		if (bs->phases.harness != BT_HARNESS_GBENCH) {
			rr->lo = bs->phases.harness == BT_HARNESS_GO && g->last_run > g->span_lo ?
			    g->last_run : g->span_lo;
			rr->hi = g->span_hi + 1;
			rr->has = true;
			continue;
		}
		for (k = 0; k < b->rref.n; k++)	/* its group's runs printed, and which */
			if (b->rref.v[k].group == rr->group && b->runs.v[k].aggregate == NULL) {
				if (k < j)
					nth++;
				nlines++;
			}
		if (g->reps.n / 2 < nlines)
			continue;
		k = g->reps.n / 2 - nlines + nth;
		rr->lo = g->reps.v[2 * k];
		rr->hi = g->reps.v[2 * k + 1];
		rr->has = true;
	}
}

void
bench_probe_finish(struct bt_benches *bs)
{
	size_t i, k;

	for (i = 0; i < bs->v.n; i++) {
		struct bench *b = &bs->v.v[i];

		if (b->groups.n == 0)
			continue;
		memset(&b->all, 0, sizeof(b->all));
		for (k = 0; k < b->groups.n; k++) {
			const struct bench_phases *g = &bs->phases.groups.v[b->groups.v[k]];
			size_t m;
			for (m = 0; m < g->meas.n; m += 2)
				add_pair(&b->all.meas, g->meas.v[m], g->meas.v[m + 1]);
		}
		normalize(&b->all.meas);
		b->all.span_lo = b->lo;
		b->all.span_hi = b->hi - 1;
		run_parts(bs, b);
	}
}

void
bench_phases_release(struct bench_phase_set *ps)
{
	size_t i;

	for (i = 0; i < ps->groups.n; i++) {
		BT_VEC_FREE(ps->groups.v[i].meas);
		BT_VEC_FREE(ps->groups.v[i].reps);
	}
	BT_VEC_FREE(ps->groups);
}
