/*
 * The benchmarks' phases from the harness's probe hits
 * (core/session/phases.c): hits as core/record/probes.c records them, in
 * the orders Google Benchmark, go test and criterion call the probed
 * functions (seen in real recordings: docs/benchmarks.md).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "base.h"
#include "perf/meta.h"
#include "session/bench-int.h"

static struct bt_probe_hit hits[64];
static size_t nhits;

static void
hit(uint64_t t, int role, uint64_t arg, uint32_t tid)
{
	struct bt_probe_hit h = { t, arg, tid, (uint16_t)role, 0 };

	hits[nhits++] = h;
}

static void
read_hits(struct bench_phase_set *ps)
{
	struct bt_meta m;

	memset(&m, 0, sizeof(m));
	m.hits = hits;
	m.nhits = nhits;
	bench_phases_read(&m, ps);
	nhits = 0;
}

/*
 * go test: the root B's runN holds everything; a parent with two
 * sub-benchmarks, the second at the address the first had (collected);
 * a StartTimer on a running timer does nothing; StopTimer inside a run.
 */
static void
test_go(void **state)
{
	struct bench_phase_set ps;
	const uint64_t root = 0x1000, parent = 0x2000, a = 0x3000;

	(void)state;
	hit(9, BT_PROBE_GO_RUN1, root, 1);
	hit(10, BT_PROBE_GO_RUNN, root, 1);
	hit(11, BT_PROBE_GO_START, root, 1);
	hit(12, BT_PROBE_GO_STARTED, 0, 1);
	hit(19, BT_PROBE_GO_RUN1, parent, 1);
	hit(20, BT_PROBE_GO_RUNN, parent, 1);
	hit(21, BT_PROBE_GO_START, parent, 1);
	hit(22, BT_PROBE_GO_STARTED, 0, 1);
	/* child a: the b.N = 1 trial, then launch and two runs */
	hit(29, BT_PROBE_GO_RUN1, a, 1);
	hit(30, BT_PROBE_GO_RUNN, a, 1);
	hit(31, BT_PROBE_GO_START, a, 1);
	hit(32, BT_PROBE_GO_STARTED, 0, 1);
	hit(33, BT_PROBE_GO_STOP, 0, 1);
	hit(40, BT_PROBE_GO_LAUNCH, a, 1);
	hit(41, BT_PROBE_GO_RUNN, a, 1);
	hit(42, BT_PROBE_GO_START, a, 1);
	hit(43, BT_PROBE_GO_STARTED, 0, 1);
	hit(44, BT_PROBE_GO_START, a, 1);	/* already running: nothing */
	hit(50, BT_PROBE_GO_STOP, 0, 2);	/* StopTimer in the benchmark */
	hit(55, BT_PROBE_GO_START, a, 2);
	hit(56, BT_PROBE_GO_STARTED, 0, 2);
	hit(60, BT_PROBE_GO_STOP, 0, 2);
	/* child b, a new B at a's address */
	hit(69, BT_PROBE_GO_RUN1, a, 1);
	hit(70, BT_PROBE_GO_RUNN, a, 1);
	hit(71, BT_PROBE_GO_START, a, 1);
	hit(72, BT_PROBE_GO_STARTED, 0, 1);
	hit(73, BT_PROBE_GO_STOP, 0, 1);
	hit(80, BT_PROBE_GO_LAUNCH, a, 1);
	hit(81, BT_PROBE_GO_RUNN, a, 1);
	hit(82, BT_PROBE_GO_START, a, 1);
	hit(83, BT_PROBE_GO_STARTED, 0, 1);
	hit(90, BT_PROBE_GO_STOP, 0, 1);
	hit(95, BT_PROBE_GO_STOP, 0, 1);	/* the parent's */
	hit(99, BT_PROBE_GO_STOP, 0, 1);	/* the root's */
	read_hits(&ps);
	assert_int_equal(ps.harness, BT_HARNESS_GO);
	assert_int_equal(ps.groups.n, 2);	/* the launched ones, in order */
	/* a: the trial [32, 33), then [43, 50) and [56, 60): from the timer's start */
	assert_int_equal(ps.groups.v[0].meas.n, 6);
	assert_int_equal(ps.groups.v[0].meas.v[0], 32);
	assert_int_equal(ps.groups.v[0].meas.v[1], 33);
	assert_int_equal(ps.groups.v[0].meas.v[2], 43);
	assert_int_equal(ps.groups.v[0].meas.v[3], 50);
	assert_int_equal(ps.groups.v[0].meas.v[4], 56);
	assert_int_equal(ps.groups.v[0].span_lo, 29);
	assert_int_equal(ps.groups.v[0].span_hi, 60);
	/* b: its own group although its B had a's address */
	assert_int_equal(ps.groups.v[1].span_lo, 69);
	assert_int_equal(ps.groups.v[1].meas.n, 4);
	assert_int_equal(ps.groups.v[1].meas.v[2], 83);
	assert_int_equal(ps.groups.v[1].meas.v[3], 90);
	/* the last runN of each (the b.N printed): its part of the samples */
	assert_int_equal(ps.groups.v[0].last_run, 41);
	assert_int_equal(ps.groups.v[1].last_run, 81);
	bench_phases_release(&ps);
}

/*
 * Google Benchmark: runs between reports; the file reporter's report of
 * the same runs is no benchmark; two threads' runs overlap.
 */
static void
test_gbench(void **state)
{
	struct bench_phase_set ps;

	(void)state;
	hit(10, BT_PROBE_GB_START, 0, 1);
	hit(11, BT_PROBE_GB_RESUME, 0, 1);
	hit(20, BT_PROBE_GB_PAUSE, 0, 1);	/* PauseTiming in the loop */
	hit(25, BT_PROBE_GB_RESUME, 0, 1);
	hit(30, BT_PROBE_GB_PAUSE, 0, 1);
	hit(31, BT_PROBE_GB_FINISH, 0, 1);
	hit(40, BT_PROBE_GB_REPORT, 0, 1);
	hit(41, BT_PROBE_GB_REPORT, 0, 1);	/* --benchmark_out's */
	hit(50, BT_PROBE_GB_START, 0, 1);
	hit(51, BT_PROBE_GB_START, 0, 2);
	hit(52, BT_PROBE_GB_RESUME, 0, 1);
	hit(53, BT_PROBE_GB_RESUME, 0, 2);
	hit(60, BT_PROBE_GB_PAUSE, 0, 2);
	hit(62, BT_PROBE_GB_PAUSE, 0, 1);
	hit(63, BT_PROBE_GB_FINISH, 0, 2);
	hit(64, BT_PROBE_GB_FINISH, 0, 1);
	hit(70, BT_PROBE_GB_REPORT, 0, 1);
	read_hits(&ps);
	assert_int_equal(ps.harness, BT_HARNESS_GBENCH);
	assert_int_equal(ps.groups.n, 2);
	assert_int_equal(ps.groups.v[0].meas.n, 4);
	assert_int_equal(ps.groups.v[0].meas.v[1], 20);
	assert_int_equal(ps.groups.v[0].meas.v[2], 25);
	assert_int_equal(ps.groups.v[0].reported, 40);
	assert_int_equal(ps.groups.v[0].reps.n, 2);
	/* the threads' phases merged: [52, 62) */
	assert_int_equal(ps.groups.v[1].meas.n, 2);
	assert_int_equal(ps.groups.v[1].meas.v[0], 52);
	assert_int_equal(ps.groups.v[1].meas.v[1], 62);
	assert_int_equal(ps.groups.v[1].reps.n, 2);
	assert_int_equal(ps.groups.v[1].nruns, 2);
	bench_phases_release(&ps);
}

/* criterion: measured from the end of the warm-up to the end of sample. */
static void
test_criterion(void **state)
{
	struct bench_phase_set ps;

	(void)state;
	hit(10, BT_PROBE_CRIT_COMMON, 0, 1);
	hit(11, BT_PROBE_CRIT_SAMPLE, 0, 1);
	hit(12, BT_PROBE_CRIT_WARMUP, 0, 1);
	hit(20, BT_PROBE_CRIT_WARMUP_END, 0, 1);
	hit(30, BT_PROBE_CRIT_SAMPLE_END, 0, 1);
	hit(40, BT_PROBE_CRIT_COMMON_END, 0, 1);
	hit(50, BT_PROBE_CRIT_COMMON, 0, 1);	/* measured nothing: no benchmark */
	hit(51, BT_PROBE_CRIT_COMMON_END, 0, 1);
	read_hits(&ps);
	assert_int_equal(ps.harness, BT_HARNESS_CRITERION);
	assert_int_equal(ps.groups.n, 1);
	assert_int_equal(ps.groups.v[0].meas.v[0], 20);
	assert_int_equal(ps.groups.v[0].meas.v[1], 30);
	assert_int_equal(ps.groups.v[0].span_hi, 40);
	bench_phases_release(&ps);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_go),
		cmocka_unit_test(test_gbench),
		cmocka_unit_test(test_criterion),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
