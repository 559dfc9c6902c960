/*
 * The benchmarks' insides, for bench.c (the list: the harness's results,
 * their windows) and bench-count.c (each event's samples by benchmark).
 */
#ifndef BENCHTUI_BENCH_INT_H
#define BENCHTUI_BENCH_INT_H

#include "base.h"
#include "benchtui/bench.h"
#include "harness/harness.h"

struct bt_session;
struct bt_bench_result;
struct bt_meta;

/* Pairs [lo, hi) of times, sorted and disjoint once normalized. */
struct bench_pairs {
	uint64_t *v;
	size_t n, alloc;
};

/**
 * struct bench_phases - one benchmark's phases from the harness's probes
 * @span_lo, @span_hi: from its first run's start to its last run's end
 * @meas: sorted disjoint pairs [lo, hi): when its timer ran
 * @nruns: runs (GB: StartKeepRunning; Go: timed intervals; criterion: 1)
 * @launched, @order: Go: a launch() made it a result line, the how-manieth
 */
struct bench_phases {
	uint64_t span_lo, span_hi;
	struct bench_pairs meas;
	size_t nruns;
	bool launched;
	size_t order;
	struct bench_pairs reps;	/* GB: every run's span (threads' merged) */
	uint64_t reported;	/* GB: when its report began (0: unknown) */
	uint64_t last_run;	/* Go: when its last runN began (0: unknown) */
};

/*
 * Which part of a probed benchmark's phases a result line measured: the
 * group it was printed for, all of it (criterion: one line a group),
 * from its last runN on (Go: the runs before it estimated b.N) or, for a
 * GB repetition, [lo, hi) (its run); none for an aggregate.
 */
struct bench_runref {
	size_t group;
	uint64_t lo, hi;
	bool has;
};

struct bench_phase_set {
	enum bt_harness harness;
	BT_VEC(struct bench_phases) groups;
	size_t nlaunched;
	bool run1;		/* Go: run1 probed: each *B's start is known */
};

/* phases.c: the groups of the recording's probe hits (none: no groups). */
void bench_phases_read(const struct bt_meta *m, struct bench_phase_set *ps);
void bench_phases_release(struct bench_phase_set *ps);
struct bench;
struct bt_benches;
/* A result line of group g in benchmark b (its last run line): b's span grows. */
void bench_probe_add(struct bt_benches *bs, struct bench *b, size_t g);
/* Every benchmark's phases together, each result line's part of them. */
void bench_probe_finish(struct bt_benches *bs);

struct bench {
	struct bt_bench pub;
	uint64_t lo, hi;		/* window in the recording's clock: [lo, hi) */
	const struct bt_bench_result *shown;	/* the result whose time is shown */
	bool at_end;			/* printed with the others at the end: no window */
	BT_VEC(struct bt_bench_run) runs;	/* its result lines */
	BT_VEC(size_t) groups;		/* probed: its groups in the phase set */
	BT_VEC(struct bench_runref) rref;	/* probed: per result line */
	struct bench_phases all;	/* probed: its groups' phases together */
	BT_VEC(const char *) entries;	/* its entry frames' functions, by order (bench-entries.c) */
	bool forked;			/* JMH: its forks' processes (bench-forks.c) */
	BT_VEC(uint32_t) pids;		/* forked: their pids */
};

/* A probed benchmark's phases, NULL when its samples are not told by probes. */
static inline const struct bench_phases *
bench_ph(const struct bench *b)
{
	return b->groups.n || b->forked ? &b->all : NULL;
}

/* A benchmark, for bt_callgraph_focus's matcher. */
struct bench_match {
	const struct bt_benches *bs;
	size_t bi;
};

/**
 * struct bt_bench_counts - one event's samples by benchmark
 * @v: the benchmarks with their samples, percent and by_chain in it
 * @chained: per benchmark: its entry frame decides its samples
 * @outside: samples in no benchmark
 */
struct bt_bench_counts {
	struct bt_bench *v;	/* untimed_samples too */
	bool *chained;
	uint64_t outside;
	uint64_t **run_samples;	/* probed: per benchmark, per result line */
	uint64_t *timer;	/* probed: per benchmark, its untimed samples in
				   the timer's code while the timer ran */
	uint64_t *traps;	/* probed: and in the probes' traps */
	size_t nbench;
};

struct bt_benches {
	struct bt_harness_parser *parser;
	BT_VEC(struct bench) v;
	struct bench_match *match;	/* per benchmark */
	bool windows;			/* sample times and output on one clock */
	struct bt_bench_counts **counts;	/* per event, NULL: not counted yet */
	size_t nevents;
	const char *note;
	struct bt_strpool pool;
	BT_VEC(double) err_times;	/* when each stderr chunk was read */
	struct bench_phase_set phases;	/* from the harness's probes */
	bool probed;			/* the benchmarks are the probes' groups */
	bool forked;			/* JMH: split by fork process */
	BT_VEC(uint32_t) pids;		/* forked: every benchmark's processes */
};

/* bench.c */
/* The benchmarks, read from the output with the first selection (attr, its table). */
struct bt_benches *bench_list(struct bt_selection *first);
/* Is the function called name benchmark bi's own code (by its family)? */
bool bench_name_is(const struct bt_benches *bs, size_t bi, const char *name);
/* The name of the function at (module, offset), NULL if none. */
const char *bench_func_name(struct bt_session *s, uint32_t mi, uint64_t off);

/* The name of module mi ("[uprobes]", "libc.so.6"), NULL if none. */
const char *bench_module_name(struct bt_session *s, uint32_t mi);

/* bench-entries.c: an at-end harness's benchmarks by the order of their entry frames. */
void bench_entries(struct bt_session *s, struct bt_benches *bs, int attr);

/* bench-forks.c: JMH's benchmarks by their fork processes' measurement. */
void bench_forks(struct bt_session *s, struct bt_benches *bs);

/* bench-count.c */
/* Is the function (name, module) the harness's timer code (not the benchmark's)? */
bool bench_timer_func(const char *name, const char *module_name);
/*
 * Does chain id pass through the harness's timer code: 1 its code, 2 the
 * probes' trap, 0 neither (cache per location, -1 unknown)?
 */
int bench_timer_chain(struct bt_session *s, uint32_t id, signed char *cache);
/* Event attr's counts, made on first use. */
const struct bt_bench_counts *bench_counts(struct bt_session *s, struct bt_benches *bs,
					   int attr);
void bench_counts_free(struct bt_bench_counts *c);

#endif
