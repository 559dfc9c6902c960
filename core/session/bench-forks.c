/*
 * JMH runs each benchmark in fork processes of its own, one after
 * another, and prints when each fork is announced ("# Fork: k of M") and
 * when its measurement iterations run ("Iteration N: ..."): a benchmark's
 * samples are those of its forks' processes while they measured, as
 * perfasm takes them (docs/benchmarks.md "JMH"). The host JVM, JMH's
 * probe JVMs and warm-up forks are no benchmark's; a fork's start-up and
 * warm-up iterations are its untimed part.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/harness.h"
#include "session/bench-int.h"
#include "session/session-int.h"

static uint64_t
ns_of(double t)
{
	return isfinite(t) && t > 0 ? (uint64_t)llround(t * 1e9) : 0;
}

/*
 * The fork measuring from lo: the process started last before lo that ran
 * after it (JMH's probe JVMs and the forks before have ended; the output
 * is read a little late, so the announcement's time may come after the
 * fork's start). NULL if none.
 */
static const struct bt_proc *
measuring(struct bt_session *s, uint64_t lo)
{
	const struct bt_proc *best = NULL;
	size_t i, n = bt_session_nprocs(s);
	uint64_t best_t = 0;

	for (i = 0; i < n; i++) {
		const struct bt_proc *p = bt_session_proc(s, i);
		uint64_t t = p->start ? p->start : p->first;
		if (t < lo && p->last >= lo && (best == NULL || t > best_t)) {
			best = p;
			best_t = t;
		}
	}
	return best;
}

/* Benchmark b's measured forks (of its result r) as processes and phases. */
static bool
fork_phases(struct bt_session *s, struct bench *b, const struct bt_bench_result *r)
{
	size_t k;

	for (k = 0; k < r->nforks; k++) {
		const struct bt_bench_fork *f = &r->forks[k];
		uint64_t lo = ns_of(f->t_measure), hi = ns_of(f->t_end);
		const struct bt_proc *p;

		if (f->warmup || f->host || lo == 0 || hi <= lo)
			continue;
		p = measuring(s, lo);
		if (p == NULL)
			return false;
		BT_VEC_PUSH(b->pids, p->pid);
		BT_VEC_PUSH(b->all.meas, lo);
		BT_VEC_PUSH(b->all.meas, hi);
		lo = p->start ? p->start : p->first;
		hi = BT_MAX(hi, p->exit ? p->exit : p->last);
		if (b->all.span_lo == 0 || lo < b->all.span_lo)
			b->all.span_lo = lo;
		b->all.span_hi = BT_MAX(b->all.span_hi, hi);
	}
	return b->pids.n > 0;
}

void
bench_forks(struct bt_session *s, struct bt_benches *bs)
{
	size_t i, ok = 0;

	for (i = 0; i < bs->v.n; i++) {
		struct bench *b = &bs->v.v[i];
		const struct bt_bench_result *r = b->shown;

		if (r == NULL || r->harness != BT_HARNESS_JMH || r->nforks == 0)
			continue;
		memset(&b->all, 0, sizeof(b->all));
		if (!fork_phases(s, b, r)) {
			BT_VEC_FREE(b->pids);
			BT_VEC_FREE(b->all.meas);
			continue;
		}
		b->forked = true;
		b->lo = b->all.span_lo;
		b->hi = b->all.span_hi + 1;
		b->pub.has_window = true;
		b->pub.split = "process";
		ok++;
	}
	if (ok == 0)
		return;
	bs->forked = true;
	for (i = 0; i < bs->v.n; i++) {	/* the processes of all: the counts' scan */
		size_t k;
		for (k = 0; k < bs->v.v[i].pids.n; k++)
			BT_VEC_PUSH(bs->pids, bs->v.v[i].pids.v[k]);
	}
}
