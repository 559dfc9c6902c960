/*
 * Unit tests: core/diff/stats.c against values computed by hand or by
 * python3 (itertools' exact permutation test, the statistics module;
 * scipy is not installed here): the exact p-values below are
 * hits / C(na + nb, na) of every split, counted by python.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>

#include "diff/stats.h"

#define N(v) (sizeof(v) / sizeof((v)[0]))

static void
test_exact(void **state)
{
	static const double a[] = { 10, 11, 12, 13, 14 }, b[] = { 15, 16, 17, 18, 19 };
	static const double c[] = { 1, 2, 3, 4 }, d[] = { 2, 3, 4, 5, 6 };
	static const double e[] = { 5.1, 4.9, 5.3, 5.0, 5.2 }, f[] = { 5.0, 5.4, 5.2, 5.3, 5.5 };
	struct bt_diff_stat s;

	bt_diff_test(a, N(a), b, N(b), 1, &s);
	assert_float_equal(s.p, 2.0 / 252, 1e-12);	/* only the two extreme splits */
	assert_float_equal(s.a, 12, 1e-12);
	assert_float_equal(s.b, 17, 1e-12);
	assert_float_equal(s.delta, 5.0 / 12, 1e-12);
	assert_true(s.lo > 0 && s.lo <= s.delta && s.delta <= s.hi);
	assert_int_equal(s.verdict, BT_V_SLOWER);
	bt_diff_test(b, N(b), a, N(a), 1, &s);
	assert_int_equal(s.verdict, BT_V_FASTER);
	bt_diff_test(c, N(c), d, N(d), 1, &s);
	assert_float_equal(s.p, 28.0 / 126, 1e-12);
	bt_diff_test(e, N(e), f, N(f), 1, &s);
	assert_float_equal(s.p, 50.0 / 252, 1e-12);
	assert_int_not_equal(s.verdict, BT_V_SLOWER);
}

static void
test_sampled(void **state)
{
	/* C(16, 8) = 12870 splits: 10,000 random ones; exact p is 1402/12870 */
	static const double a[] = { 100, 102, 98, 101, 99, 103, 97, 100 };
	static const double b[] = { 101, 104, 99, 103, 102, 105, 100, 101 };
	struct bt_diff_stat s, t;

	bt_diff_test(a, N(a), b, N(b), 42, &s);
	assert_float_equal(s.p, 1402.0 / 12870, 0.01);	/* 3 standard errors */
	bt_diff_test(a, N(a), b, N(b), 42, &t);
	assert_true(s.p == t.p && s.lo == t.lo && s.hi == t.hi);	/* seeded */
	bt_diff_test(a, N(a), b, N(b), 43, &t);
	assert_float_equal(t.p, 1402.0 / 12870, 0.01);
}

static void
test_mde(void **state)
{
	/* variances 4 and 4: sp 2, df 4: (2.776 + 0.941) * 2 * sqrt(2/3) / 12 */
	static const double a[] = { 10, 12, 14 }, b[] = { 11, 13, 15 };
	struct bt_diff_stat s;

	bt_diff_test(a, N(a), b, N(b), 1, &s);
	assert_float_equal(s.mde, 0.5058196318847262, 1e-9);
	assert_float_equal(bt_diff_var(a, N(a)), 4, 1e-12);
	assert_float_equal(bt_diff_tq(0.975, 4), 2.776, 1e-12);
	/* past the table: the series is within 0.001 of t(0.975, 40) = 2.021 */
	assert_float_equal(bt_diff_tq(0.975, 40), 2.021, 0.001);
	assert_float_equal(bt_diff_tq(0.8, 60), 0.848, 0.001);
}

static void
test_edges(void **state)
{
	static const double one[] = { 5 }, two[] = { 6 };
	static const double flat[] = { 3, 3, 3, 3 }, flat2[] = { 4, 4, 4, 4 };
	static const double v[] = { 1, 2, 3, 4, 5 }, zero[] = { 0, 0, 0 };
	struct bt_diff_stat s;

	/* n = 1: two splits, both as extreme: p 1, no interval, no MDE */
	bt_diff_test(one, 1, two, 1, 1, &s);
	assert_float_equal(s.p, 1, 1e-12);
	assert_true(isnan(s.lo) && isnan(s.hi) && isnan(s.mde));
	assert_int_equal(s.verdict, BT_V_UNRESOLVED);
	/* zero variance, equal: nothing changed, and nothing could have */
	bt_diff_test(flat, N(flat), flat, N(flat), 1, &s);
	assert_float_equal(s.p, 1, 1e-12);
	assert_float_equal(s.delta, 0, 0);
	assert_float_equal(s.mde, 0, 0);
	assert_int_equal(s.verdict, BT_V_UNCHANGED);
	/* zero variance, different: the extreme split of C(8, 4) = 70, twice */
	bt_diff_test(flat, N(flat), flat2, N(flat2), 1, &s);
	assert_float_equal(s.p, 2.0 / 70, 1e-12);
	assert_float_equal(s.lo, 1.0 / 3, 1e-12);
	assert_float_equal(s.hi, 1.0 / 3, 1e-12);
	assert_int_equal(s.verdict, BT_V_SLOWER);
	/* equal vectors with variance: p 1, delta 0 inside its interval */
	bt_diff_test(v, N(v), v, N(v), 1, &s);
	assert_float_equal(s.p, 1, 1e-12);
	assert_true(s.lo <= 0 && 0 <= s.hi);
	assert_int_not_equal(s.verdict, BT_V_SLOWER);
	assert_int_not_equal(s.verdict, BT_V_FASTER);
	/* all zero: unchanged; an empty side: unresolved */
	bt_diff_test(zero, N(zero), zero, N(zero), 1, &s);
	assert_int_equal(s.verdict, BT_V_UNCHANGED);
	bt_diff_test(zero, 0, v, N(v), 1, &s);
	assert_int_equal(s.verdict, BT_V_UNRESOLVED);
	/* A's mean 0, B's not: no relative change */
	bt_diff_test(zero, N(zero), v, N(v), 1, &s);
	assert_true(isnan(s.delta));
	assert_int_equal(s.verdict, BT_V_UNRESOLVED);
}

static void
test_fdr(void **state)
{
	/* by hand: sorted 0.005 0.01 0.03 0.04 0.5, p(k) 5 / k = .025 .025 .05 .05 .5 */
	struct bt_diff_stat v[5] = { 0 };
	static const double p[] = { 0.01, 0.04, 0.03, 0.005, 0.5 };
	static const double q[] = { 0.025, 0.05, 0.05, 0.025, 0.5 };
	size_t i;

	for (i = 0; i < 5; i++) {
		v[i].p = p[i];
		v[i].lo = 0.1;	/* every interval above 0 */
		v[i].hi = 0.2;
		v[i].mde = 0.05;
	}
	bt_diff_fdr(v, 5, 0.05);
	for (i = 0; i < 5; i++)
		assert_float_equal(v[i].q, q[i], 1e-12);
	assert_int_equal(v[0].verdict, BT_V_SLOWER);
	assert_int_equal(v[1].verdict, BT_V_SLOWER);	/* q 0.05 <= 0.05 */
	assert_int_equal(v[4].verdict, BT_V_UNRESOLVED);	/* [0.1, 0.2] beyond ±0.05 */
	bt_diff_fdr(v, 5, 0.025);
	assert_int_equal(v[1].verdict, BT_V_UNRESOLVED);
	assert_int_equal(v[3].verdict, BT_V_SLOWER);
	v[4].lo = -0.01;
	v[4].hi = 0.02;
	bt_diff_fdr(v, 5, 0.05);
	assert_int_equal(v[4].verdict, BT_V_UNCHANGED);
	/* a noise floor of 10%: [+10%, +20%] is not beyond it; [-1%, +2%] unchanged */
	assert_int_equal(bt_diff_verdict_floor(&v[0], 0.05, 0.1), BT_V_UNRESOLVED);
	assert_int_equal(bt_diff_verdict_floor(&v[0], 0.05, 0.05), BT_V_SLOWER);
	assert_int_equal(bt_diff_verdict_floor(&v[4], 0.05, 0.1), BT_V_UNCHANGED);
	v[4].mde = 0.6;		/* could not have seen +50%: never unchanged */
	assert_int_equal(bt_diff_verdict_floor(&v[4], 0.05, 0.1), BT_V_UNRESOLVED);
	assert_int_equal(bt_diff_verdict(&v[4], 0.05), BT_V_UNCHANGED);	/* the plain rule */
	v[4].mde = NAN;		/* no variance to pool: never unchanged */
	assert_int_equal(bt_diff_verdict_floor(&v[4], 0.05, 0.1), BT_V_UNRESOLVED);
	assert_string_equal(bt_verdict_name(BT_V_UNRESOLVED), "unresolved");
	assert_string_equal(bt_verdict_name(BT_V_SLOWER), "slower");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact),
		cmocka_unit_test(test_sampled),
		cmocka_unit_test(test_mde),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_fdr),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
