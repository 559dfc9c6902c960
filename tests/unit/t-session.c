/*
 * Unit tests: sessions and selections as values (benchtui/selection.h).
 * Two recordings of the prebuilt split fixture (tests/fixtures/prebuilt/
 * README) with known samples, open side by side in one process; many
 * selections of one, their lifetimes, sharing and independence; one
 * opened with its samples kept.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "benchtui/bench.h"
#include "benchtui/lint.h"
#include "benchtui/profile.h"
#include "benchtui/selection.h"
#include "benchtui/session.h"
#include "benchtui/view.h"
#include "synth.h"

static char dir[] = "/tmp/bt-session.XXXXXX";
static char bin[PATH_MAX], rec_a[256], rec_b[256];

/* What the two recordings hold (synthesized in this order in time). */
#define A_WORK_A 600
#define A_WORK_B 200
#define B_WORK_A 50
#define B_WORK_B 450

static struct bt_session *
open_session(const char *path)
{
	struct bt_error err = { 0 };
	struct bt_profile *p = bt_profile_open(path, &err);
	struct bt_session *s = p ? bt_session_new(p, NULL, &err) : NULL;

	assert_non_null(s);
	return s;
}

/* Samples of the function named name in sel, 0 when it is not there. */
static uint64_t
samples_of(const struct bt_selection *sel, const char *name)
{
	long f = bt_selection_find(sel, name);

	return f >= 0 ? bt_selection_func(sel, (size_t)f)->samples : 0;
}

/* Two recordings open at once: each selection sees its own samples only. */
static void
test_two_sessions(void **state)
{
	struct bt_session *sa = open_session(rec_a), *sb = open_session(rec_b);
	struct bt_selection *a = bt_selection_new(sa, NULL, NULL);
	struct bt_selection *b = bt_selection_new(sb, NULL, NULL);
	struct bt_view *va, *vb;

	assert_non_null(a);
	assert_non_null(b);
	assert_ptr_equal(bt_selection_session(a), sa);
	assert_ptr_equal(bt_selection_session(b), sb);
	assert_int_equal(bt_selection_samples(a), A_WORK_A + A_WORK_B);
	assert_int_equal(bt_selection_samples(b), B_WORK_A + B_WORK_B);
	assert_int_equal(samples_of(a, "work_a"), A_WORK_A);
	assert_int_equal(samples_of(b, "work_b"), B_WORK_B);
	/* hottest first, each in its own order */
	assert_string_equal(bt_selection_func(a, 0)->name, "work_a");
	assert_string_equal(bt_selection_func(b, 0)->name, "work_b");
	/* views of both, interleaved, then one session gone: the other's stand */
	va = bt_view_functions(a, NULL, 0);
	vb = bt_view_functions(b, NULL, 0);
	assert_string_equal(bt_view_row(va, 0)->name, "work_a");
	assert_string_equal(bt_view_row(vb, 0)->name, "work_b");
	bt_view_free(va);
	bt_selection_free(a);
	bt_session_free(sa);
	assert_int_equal(bt_view_row(vb, 0)->samples, B_WORK_B);
	va = bt_view_annotate(b, (size_t)bt_selection_find(b, "work_a"), NULL, NULL);
	assert_non_null(va);
	assert_int_equal(bt_view_func(va)->samples, B_WORK_A);
	bt_view_free(va);
	bt_view_free(vb);
	bt_selection_free(b);
	bt_session_free(sb);
}

/*
 * The same samples asked for twice: one selection, shared; each reference
 * freed in turn. A window beside the whole run changes neither.
 */
static void
test_shared_and_independent(void **state)
{
	struct bt_session *s = open_session(rec_a);
	struct bt_selection_opts o;
	struct bt_selection *whole, *again, *first, *second;
	const struct bt_finding *f1, *f2;
	size_t n1, n2;
	double from, to;

	whole = bt_selection_new(s, NULL, NULL);
	again = bt_selection_new(s, NULL, NULL);
	assert_ptr_equal(whole, again);
	bt_selection_free(again);
	assert_int_equal(bt_selection_samples(whole), A_WORK_A + A_WORK_B);

	/* work_a's samples come first in time: the first half is all work_a */
	bt_selection_opts_init(&o);
	o.time_from = 0;
	o.time_to = 50;
	o.time_percent = true;
	first = bt_selection_new(s, &o, NULL);
	o.time_from = 80;
	o.time_to = 100;
	second = bt_selection_new(s, &o, NULL);
	assert_non_null(first);
	assert_non_null(second);
	assert_true(first != second && first != whole);
	assert_true(bt_selection_windowed(first));
	assert_false(bt_selection_windowed(whole));
	bt_selection_window(first, &from, &to);
	assert_true(from == 0 && to > 0);
	assert_int_equal(samples_of(first, "work_b"), 0);
	assert_true(samples_of(first, "work_a") > 0);
	assert_int_equal(samples_of(second, "work_a"), 0);
	assert_int_equal(samples_of(second, "work_b"), bt_selection_samples(second));
	assert_true(bt_selection_samples(second) > 0 &&
	    bt_selection_samples(second) < A_WORK_B);
	/* the whole run's table is as it was */
	assert_int_equal(bt_selection_samples(whole), A_WORK_A + A_WORK_B);
	assert_int_equal(samples_of(whole, "work_a"), A_WORK_A);
	/* a function looked up by address where it has no samples joins that table only */
	{
		long fa = bt_selection_find(whole, "work_a");
		const struct bt_func *f = bt_selection_func(whole, (size_t)fa);
		uint32_t mod = f->mod;
		uint64_t start = f->start;
		size_t n = bt_selection_nfuncs(second);
		long g = bt_selection_func_at(second, mod, start + 1);

		assert_true(g >= 0);
		assert_int_equal(bt_selection_nfuncs(second), n + 1);
		assert_int_equal(bt_selection_func(second, (size_t)g)->samples, 0);
		assert_int_equal(bt_selection_func_find(second, mod, start), g);
		assert_int_equal(bt_selection_func_find(whole, mod, start), fa);
		assert_int_equal(bt_selection_func_at(second, mod, start), g);
		assert_int_equal(bt_selection_nfuncs(second), n + 1);
	}
	/* findings are a selection's, computed once */
	n1 = bt_selection_findings(whole, &f1);
	n2 = bt_selection_findings(whole, &f2);
	assert_int_equal(n1, n2);
	assert_ptr_equal(f1, f2);
	bt_selection_free(first);
	bt_selection_free(second);
	/* asked again after it was freed: made again, the same samples */
	o.time_from = 0;
	o.time_to = 50;
	first = bt_selection_new(s, &o, NULL);
	assert_int_equal(samples_of(first, "work_b"), 0);
	bt_selection_free(first);
	bt_selection_free(whole);
	bt_session_free(s);
}

/* What a selection cannot be: the error says why, and nothing is left behind. */
static void
test_errors(void **state)
{
	struct bt_session *s = open_session(rec_a);
	struct bt_selection_opts o;
	struct bt_error err = { 0 };
	struct bt_selection *sel;

	bt_selection_opts_init(&o);
	o.event = "cycles";
	assert_null(bt_selection_new(s, &o, &err));
	assert_int_equal(err.code, BT_EINVAL);
	assert_non_null(strstr(err.msg, "no event 'cycles'"));
	assert_non_null(strstr(err.msg, "'cpu-clock'"));
	bt_selection_opts_init(&o);
	o.bench = 3;
	memset(&err, 0, sizeof(err));
	sel = bt_selection_new(s, NULL, NULL);	/* the first one makes the benchmarks: none */
	assert_int_equal(bt_selection_nbenches(sel), 0);
	assert_null(bt_selection_new(s, &o, &err));
	assert_int_equal(err.code, BT_EINVAL);
	bt_selection_opts_init(&o);
	o.focus = bt_frame_match_names;
	memset(&err, 0, sizeof(err));
	assert_null(bt_selection_new(s, &o, &err));	/* no call chains in it */
	assert_int_equal(err.code, BT_ENODATA);
	bt_selection_free(sel);
	bt_session_free(s);
}

/* Two sample sets alike: the same groups, in the same order, at the same addresses. */
static void
assert_same_sets(const struct bt_sample_set *a, const struct bt_sample_set *b)
{
	size_t i, k;

	assert_int_equal(a->ngroups, b->ngroups);
	assert_int_equal(a->nlocs, b->nlocs);
	for (i = 0; i < a->ngroups; i++) {
		const struct bt_sample_group *x = &a->groups[i], *y = &b->groups[i];
		assert_int_equal(x->samples, y->samples);
		assert_int_equal(x->period, y->period);
		assert_int_equal(x->pid, y->pid);
		assert_int_equal(x->tid, y->tid);
		assert_int_equal(x->nlocs, y->nlocs);
		for (k = 0; k < x->nlocs; k++)
			assert_int_equal(a->locs[x->locs[k]].addr, b->locs[y->locs[k]].addr);
	}
}

/*
 * A recording opened with its samples kept (bt_profile_open_kept): a
 * window's selection and the pprof export's sample set, read again from
 * the samples in memory, are what reading the file again gives.
 */
static void
test_kept(void **state)
{
	static const double win[][2] = { { 0, 100 }, { 0, 50 }, { 30, 90 }, { 80, 100 } };
	struct bt_error err = { 0 };
	struct bt_profile *p = bt_profile_open_kept(rec_a, &err);
	struct bt_session *kept = p ? bt_session_new(p, NULL, &err) : NULL;
	struct bt_session *s = open_session(rec_a);
	struct bt_selection_opts o;
	struct bt_sample_set a, b;
	size_t i;

	assert_non_null(kept);
	for (i = 0; i < sizeof(win) / sizeof(win[0]); i++) {
		struct bt_selection *x, *y;
		bt_selection_opts_init(&o);
		o.time_from = win[i][0];
		o.time_to = win[i][1];
		o.time_percent = true;
		x = bt_selection_new(s, &o, NULL);
		y = bt_selection_new(kept, &o, NULL);
		assert_non_null(x);
		assert_non_null(y);
		assert_true(bt_selection_samples(x) > 0);
		assert_int_equal(bt_selection_samples(x), bt_selection_samples(y));
		assert_int_equal(samples_of(x, "work_a"), samples_of(y, "work_a"));
		assert_int_equal(samples_of(x, "work_b"), samples_of(y, "work_b"));
		assert_int_equal(bt_selection_sample_set(x, true, &a, NULL), 0);
		assert_int_equal(bt_selection_sample_set(y, true, &b, NULL), 0);
		assert_same_sets(&a, &b);
		bt_sample_set_release(&a);
		bt_sample_set_release(&b);
		bt_selection_free(x);
		bt_selection_free(y);
	}
	bt_session_free(kept);
	bt_session_free(s);
}

/* A session freed with selections still alive frees them (ASan: no leak). */
static void
test_session_frees_the_rest(void **state)
{
	struct bt_session *s = open_session(rec_b);
	struct bt_selection_opts o;

	bt_selection_opts_init(&o);
	o.time_to = 1;
	assert_non_null(bt_selection_new(s, NULL, NULL));
	assert_non_null(bt_selection_new(s, &o, NULL));
	assert_non_null(bt_selection_ref(bt_selection_new(s, NULL, NULL)));
	bt_session_free(s);
}

static int
setup(void **state)
{
	char msg[256];
	char *a[] = { (char *)"work_a+0x24=600", (char *)"work_b+0x24=200" };
	char *b[] = { (char *)"work_a+0x24=50", (char *)"work_b+0x24=450" };

	if (test_tmpdir(dir) || realpath("tests/fixtures/prebuilt/split", bin) == NULL)
		return -1;
	snprintf(rec_a, sizeof(rec_a), "%s/a.data", dir);
	snprintf(rec_b, sizeof(rec_b), "%s/b.data", dir);
	if (synth_recording(rec_a, bin, a, 2, msg, sizeof(msg)) != 0 ||
	    synth_recording(rec_b, bin, b, 2, msg, sizeof(msg)) != 0) {
		fprintf(stderr, "%s\n", msg);
		return -1;
	}
	return 0;
}

static int
teardown(void **state)
{
	return test_rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_sessions),
		cmocka_unit_test(test_shared_and_independent),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_session_frees_the_rest),
		cmocka_unit_test(test_kept),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
