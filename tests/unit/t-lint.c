/*
 * Unit tests: the lint checks (benchtui/lint.h, docs/lint.md) on their
 * own. Each check that a deterministic recording can trigger fires where
 * it should, with its check name, function and percent, and stays silent
 * on a healthy profile and just under its threshold: few-samples (under
 * 20 samples; a wide interval), kernel-dominated, empty-loop
 * (tests/fixtures/emptyloop.c built -O2), unoptimized (split.c built
 * -O0: DW_AT_producer), no-debug-info (built without -g),
 * startup-dominated (code in a module named as the dynamic loader),
 * timer-dominated (a clock reader by name, rdtsc), lost-samples and
 * throttled (LOST and THROTTLE records). Findings are computed once per
 * selection and kept; a window has its own.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <limits.h>
#include <math.h>
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

#define TICK 0.00025
#define EDGE(k) (((double)(k) - 0.5) * TICK)

static char dir[] = "/tmp/bt-lint.XXXXXX";
static char split[PATH_MAX];		/* the committed binary (-O2 -g) */
static char loop[PATH_MAX + 16];	/* emptyloop.c -O2 -g */
static int nrec;

/* The 95% Wilson interval of k in n, in percent: the oracle. */
static void
wilson(uint64_t k, uint64_t n, double *lo, double *hi)
{
	const double z = 1.959964;
	double p = (double)k / (double)n, d = 1 + z * z / (double)n;
	double c = (p + z * z / (2.0 * (double)n)) / d;
	double h = z * sqrt(p * (1 - p) / (double)n + z * z / (4.0 * (double)n * (double)n)) / d;

	*lo = 100 * fmax(0, c - h);
	*hi = 100 * fmin(1, c + h);
}

/*
 * The whole run of a recording of binary with the samples specs says
 * (printf of fmt: specs separated by spaces, synth_recording's syntax).
 */
static struct bt_selection * __attribute__((format(printf, 2, 3)))
open_rec(const char *binary, const char *fmt, ...)
{
	char specs[1024], *sp[32], *save = NULL, *tok, path[PATH_MAX], msg[256];
	struct bt_selection *s;
	va_list ap;
	int n = 0;

	va_start(ap, fmt);
	vsnprintf(specs, sizeof(specs), fmt, ap);
	va_end(ap);
	for (tok = strtok_r(specs, " ", &save); tok != NULL && n < 32;
	    tok = strtok_r(NULL, " ", &save))
		sp[n++] = tok;
	snprintf(path, sizeof(path), "%s/r%d.data", dir, nrec++);
	if (synth_recording(path, binary, sp, n, msg, sizeof(msg)) != 0)
		fail_msg("%s", msg);
	s = test_open(path);
	assert_non_null(s);
	return s;
}

/* The findings' checks, in order, are exactly the NULL-terminated list. */
static void
expect_checks(struct bt_selection *s, ...)
{
	const struct bt_finding *f;
	size_t n = bt_selection_findings(s, &f), i = 0;
	const char *want;
	va_list ap;

	va_start(ap, s);
	while ((want = va_arg(ap, const char *)) != NULL) {
		if (i >= n)
			fail_msg("no finding '%s' (%zu findings)", want, n);
		if (strcmp(f[i].check, want) != 0)
			fail_msg("finding %zu is '%s' (%s), not '%s'", i, f[i].check,
			    f[i].message, want);
		i++;
	}
	va_end(ap);
	if (i != n)
		fail_msg("an unexpected finding '%s': %s", f[i].check, f[i].message);
}

/* The finding of check, which must be there once. */
static const struct bt_finding *
finding(struct bt_selection *s, const char *check)
{
	const struct bt_finding *f, *got = NULL;
	size_t n = bt_selection_findings(s, &f), i;

	for (i = 0; i < n; i++)
		if (strcmp(f[i].check, check) == 0) {
			if (got != NULL)
				fail_msg("two '%s' findings", check);
			got = &f[i];
		}
	if (got == NULL)
		fail_msg("no '%s' finding", check);
	return got;
}

/* f is about function name (NULL: the run), with percent pct (to 1e-9). */
static void
expect_finding(struct bt_selection *s, const struct bt_finding *f, const char *name,
	       double pct)
{
	if (name == NULL) {
		assert_null(f->function);
		assert_int_equal(f->func, -1);
	} else {
		assert_non_null(f->function);
		assert_string_equal(f->function, name);
		assert_int_equal(f->func, bt_selection_find(s, name));
	}
	if (fabs(f->percent - pct) > 1e-9)
		fail_msg("%s: %.6f%%, not %.6f%%", f->check, f->percent, pct);
}

static void
expect_prefix(const char *s, const char *prefix)
{
	if (strncmp(s, prefix, strlen(prefix)) != 0)
		fail_msg("'%s' does not start with '%s'", s, prefix);
}

/* A healthy profile: none of the checks says anything. */
static void
test_healthy(void **state)
{
	struct bt_selection *s = open_rec(split, "work_a+0x24=1500 work_a+0x2b=300 "
	    "work_b+0x24=500 main+0x10=5 kernel=10");
	const struct bt_finding *f;

	assert_int_equal(bt_selection_findings(s, &f), 0);
	test_close(s);
}

static void
test_few_samples(void **state)
{
	struct bt_selection *s;
	const struct bt_finding *f;
	double lo, hi;
	char want[256];

	/* under 20 samples: that, and nothing about what they are */
	s = open_rec(split, "work_a+0x24=10");
	expect_checks(s, "few-samples", NULL);
	f = finding(s, "few-samples");
	expect_finding(s, f, NULL, 100);
	expect_prefix(f->message, "only 10 samples: ");
	test_close(s);
	s = open_rec(split, "work_a+0x24=19");
	expect_prefix(finding(s, "few-samples")->message, "only 19 samples: ");
	test_close(s);

	/* 20 samples, all in one function: 100% known only to within 83.9-100% */
	s = open_rec(split, "work_a+0x24=20");
	f = finding(s, "few-samples");
	expect_finding(s, f, NULL, 100);
	wilson(20, 20, &lo, &hi);
	snprintf(want, sizeof(want), "20 samples: the hottest function's 100.0%% is known "
	    "only to within %.1f-%.1f%% (95%% interval)", lo, hi);
	expect_prefix(f->message, want);
	test_close(s);

	/*
	 * Two functions at 50%: the hottest's interval is +-3.1 points with
	 * 1000 samples (a finding), +-2.95 with 1100 (none)
	 */
	wilson(500, 1000, &lo, &hi);
	assert_true((hi - lo) / 2 > 3);
	s = open_rec(split, "work_a+0x24=500 work_b+0x24=500");
	f = finding(s, "few-samples");
	expect_finding(s, f, NULL, 100);
	snprintf(want, sizeof(want), "1000 samples: the hottest function's 50.0%% is known "
	    "only to within %.1f-%.1f%% (95%% interval)", lo, hi);
	expect_prefix(f->message, want);
	expect_checks(s, "few-samples", NULL);
	test_close(s);
	wilson(550, 1100, &lo, &hi);
	assert_true((hi - lo) / 2 <= 3);
	s = open_rec(split, "work_a+0x24=550 work_b+0x24=550");
	expect_checks(s, NULL);
	test_close(s);
}

static void
test_kernel(void **state)
{
	struct bt_selection *s;
	const struct bt_finding *f;

	s = open_rec(split, "work_a+0x24=650 kernel=350");
	expect_checks(s, "kernel-dominated", NULL);
	f = finding(s, "kernel-dominated");
	expect_finding(s, f, NULL, 35);
	expect_prefix(f->message, "35.0% of the samples are in the kernel");
	test_close(s);
	/* the threshold, 30%, is in (docs/lint.md: >= 30%) */
	s = open_rec(split, "work_a+0x24=700 kernel=300");
	expect_finding(s, finding(s, "kernel-dominated"), NULL, 30);
	test_close(s);
	s = open_rec(split, "work_a+0x24=701 kernel=299");
	expect_checks(s, NULL);
	test_close(s);
	/* unknown samples are not the kernel's */
	s = open_rec(split, "work_a+0x24=1200 unknown=800");
	expect_checks(s, NULL);
	test_close(s);
}

/* Offsets in bench of its loop's instructions (the rows in a loop), and the head's. */
static size_t
loop_offsets(uint64_t *off, size_t max, uint64_t *head, size_t *real)
{
	struct bt_selection *s = open_rec(loop, "bench=1");
	long fi = bt_selection_find(s, "bench");
	struct bt_view *v;
	size_t i, n = 0;

	assert_true(fi >= 0);
	v = bt_view_annotate(s, (size_t)fi, NULL, NULL);
	assert_non_null(v);
	*real = 0;
	for (i = 0; i < bt_view_nrows(v); i++) {
		const struct bt_row *r = bt_view_row(v, i);
		if (r->kind != BT_ROW_INSN || r->loop_depth == 0)
			continue;
		if (r->flags & BT_ROW_F_LOOP_HEAD)
			*head = r->addr;
		if (n < max)
			off[n++] = r->addr - bt_selection_func(s, (size_t)fi)->start;
		*real += strncmp(r->text, "nop", 3) != 0;
	}
	bt_view_free(v);
	test_close(s);
	return n;
}

static void
test_empty_loop(void **state)
{
	struct bt_selection *s;
	const struct bt_finding *f;
	uint64_t off[16], head = 0;
	size_t real, n = loop_offsets(off, 16, &head, &real);
	char want[256];

	assert_true(n >= 2 && n <= 8);
	assert_true(real >= 2);
	/* 900 of 1000 samples in the loop, on its first two instructions */
	s = open_rec(loop, "bench+0x%llx=450 bench+0x%llx=450 main=100",
	    (unsigned long long)off[0], (unsigned long long)off[1]);
	expect_checks(s, "empty-loop", NULL);
	f = finding(s, "empty-loop");
	expect_finding(s, f, "bench", 90);
	snprintf(want, sizeof(want), "90.0%% of the samples are in a loop of %zu "
	    "instructions at 0x%llx that only counts", real, (unsigned long long)head);
	expect_prefix(f->message, want);
	test_close(s);
	/* the threshold: 20% of the samples in it (200 of 1000) */
	s = open_rec(loop, "bench+0x%llx=200 main=800", (unsigned long long)off[1]);
	expect_finding(s, finding(s, "empty-loop"), "bench", 20);
	test_close(s);
	s = open_rec(loop, "bench+0x%llx=199 main=801", (unsigned long long)off[1]);
	expect_checks(s, NULL);
	test_close(s);
	/* a loop that works (split's multiply): nothing */
	s = open_rec(split, "work_a+0x24=900 work_a+0x20=100");
	expect_checks(s, NULL);
	test_close(s);
}

/* split.c compiled with flags, as name in the test's directory. */
static const char *
build_split(const char *name, const char *flags)
{
	static char out[PATH_MAX];

	if (test_compile(dir, name, "split.c", flags, out, sizeof(out)) != 0)
		fail_msg("cc %s split.c failed", flags);
	return out;
}

static void
test_unoptimized(void **state)
{
	/* the flags, and what the producer then says */
	static const struct {
		const char *flags, *says;
	} fires[] = { { "-O0 -g", " -O0" }, { "-g", " -g" }, { "-O2 -g -O0", " -O0" } };
	static const char *const silent[] = { "-O2 -g", "-O2 -g -O0 -O2", "-O1 -g" };
	struct bt_selection *s;
	const struct bt_finding *f;
	char name[PATH_MAX];
	size_t i;

	for (i = 0; i < BT_ARRAY_SIZE(fires); i++) {
		snprintf(name, sizeof(name), "split-f%zu", i);
		/* work_a and work_b both: one finding for the module, the hottest's */
		s = open_rec(build_split(name, fires[i].flags), "work_a=700 work_b=300");
		expect_checks(s, "unoptimized", NULL);
		f = finding(s, "unoptimized");
		expect_finding(s, f, "work_a", 70);
		expect_prefix(f->message, "work_a (70.0% of the samples) was compiled without "
		    "optimization (DW_AT_producer \"GNU ");
		assert_non_null(strstr(f->message, fires[i].says));
		assert_non_null(strstr(f->message, "Build the benchmark as the product is built"));
		test_close(s);
	}
	for (i = 0; i < BT_ARRAY_SIZE(silent); i++) {
		snprintf(name, sizeof(name), "split-s%zu", i);
		s = open_rec(build_split(name, silent[i]), "work_a=700 work_b=300");
		expect_checks(s, NULL);
		test_close(s);
	}
	/* the threshold: a function with 5% of the samples */
	snprintf(name, sizeof(name), "%s", build_split("split-t", "-O0 -g"));
	s = open_rec(name, "work_a=50 kernel=950");
	expect_checks(s, "unoptimized", "kernel-dominated", NULL);
	expect_finding(s, finding(s, "unoptimized"), "work_a", 5);
	test_close(s);
	s = open_rec(name, "work_a=49 kernel=951");
	expect_checks(s, "kernel-dominated", NULL);
	test_close(s);
}

static void
test_no_debug_info(void **state)
{
	const char *nodebug = build_split("split-nodebug", "-O2");
	struct bt_selection *s;
	const struct bt_finding *f;
	char want[PATH_MAX + 64];

	s = open_rec(nodebug, "work_a=800 work_b=200");
	expect_checks(s, "no-debug-info", NULL);	/* once, for the hottest */
	f = finding(s, "no-debug-info");
	expect_finding(s, f, "work_a", 80);
	snprintf(want, sizeof(want), "no debug info for '%s', where work_a spends 80.0%% of "
	    "the samples", nodebug);
	expect_prefix(f->message, want);
	assert_non_null(strstr(f->message, "Build it with -g"));
	test_close(s);
	/* the threshold: the hottest function with 10% */
	s = open_rec(nodebug, "kernel=900 work_a=100");
	expect_checks(s, "no-debug-info", "kernel-dominated", NULL);
	expect_finding(s, finding(s, "no-debug-info"), "work_a", 10);
	test_close(s);
	s = open_rec(nodebug, "kernel=901 work_a=99");
	expect_checks(s, "kernel-dominated", NULL);
	test_close(s);
}

/* Code in a module named like ld.so: start-up. */
static void
test_startup(void **state)
{
	char ld[PATH_MAX + 32], cmd[2 * PATH_MAX + 64];
	struct bt_selection *s;
	const struct bt_finding *f;

	snprintf(ld, sizeof(ld), "%s/ld-linux-x86-64.so.2", dir);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", split, ld);
	assert_int_equal(system(cmd), 0);
	s = open_rec(ld, "work_a+0x24=250 kernel=750");
	expect_checks(s, "startup-dominated", "kernel-dominated", NULL);
	f = finding(s, "startup-dominated");
	expect_finding(s, f, NULL, 25);
	expect_prefix(f->message, "25.0% of the samples are in the dynamic loader: start-up "
	    "dominates a run of 0.250 s");
	test_close(s);
	s = open_rec(ld, "work_a+0x24=200 kernel=800");
	expect_finding(s, finding(s, "startup-dominated"), NULL, 20);
	test_close(s);
	s = open_rec(ld, "work_a+0x24=199 kernel=801");
	expect_checks(s, "kernel-dominated", NULL);
	test_close(s);
}

/* A clock reader named as the vDSO's, and rdtsc in the benchmark's own code. */
static const char clock_src[] =
	"__attribute__((noinline)) long __vdso_clock_gettime(long c) { return c * 3 + 1; }\n"
	"__attribute__((noinline)) unsigned long long stamp(void)\n"
	"{\n"
	"\tunsigned long long t = __builtin_ia32_rdtsc();\n"
	"\treturn t * 7;\n"
	"}\n"
	"__attribute__((noinline)) long work(long n)\n"
	"{\n"
	"\tlong s = 0;\n"
	"\tfor (long i = 0; i < n; i++)\n"
	"\t\ts += i * i;\n"
	"\treturn s;\n"
	"}\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"\t(void)argv;\n"
	"\treturn (int)(__vdso_clock_gettime(argc) + (long)stamp() + work(argc));\n"
	"}\n";

static void
test_timer(void **state)
{
	char src[PATH_MAX + 16], exe[PATH_MAX + 16], cmd[3 * PATH_MAX];
	struct bt_selection *s;
	const struct bt_finding *f;
	uint64_t after = 0;
	FILE *out;

	snprintf(src, sizeof(src), "%s/clockname.c", dir);
	snprintf(exe, sizeof(exe), "%s/clockname", dir);
	out = fopen(src, "w");
	assert_non_null(out);
	fputs(clock_src, out);
	assert_int_equal(fclose(out), 0);
	snprintf(cmd, sizeof(cmd), "cc -O2 -g -o '%s' '%s'", exe, src);
	assert_int_equal(system(cmd), 0);

	/* by name: 10% of the samples, the threshold */
	s = open_rec(exe, "work=900 __vdso_clock_gettime=100");
	expect_checks(s, "timer-dominated", NULL);
	f = finding(s, "timer-dominated");
	expect_finding(s, f, NULL, 10);
	expect_prefix(f->message, "10.0% of the samples are spent reading the clock "
	    "(__vdso_clock_gettime): ");
	test_close(s);
	s = open_rec(exe, "work=901 __vdso_clock_gettime=99");
	expect_checks(s, NULL);
	test_close(s);

	/* rdtsc: the samples on the instruction after it are its (skid) */
	s = open_rec(exe, "stamp=1");
	{
		long fi = bt_selection_find(s, "stamp");
		struct bt_view *v = bt_view_annotate(s, (size_t)fi, NULL, NULL);
		size_t i;
		for (i = 0; v != NULL && i + 1 < bt_view_nrows(v); i++)
			if (bt_view_row(v, i)->kind == BT_ROW_INSN &&
			    strcmp(bt_view_row(v, i)->text, "rdtsc") == 0)
				after = bt_view_row(v, i + 1)->addr -
				    bt_selection_func(s, (size_t)fi)->start;
		bt_view_free(v);
	}
	test_close(s);
	assert_true(after > 0);
	s = open_rec(exe, "work=700 stamp+0x%llx=300", (unsigned long long)after);
	expect_checks(s, "timer-dominated", NULL);
	f = finding(s, "timer-dominated");
	assert_null(f->function);
	/* the skid-adjusted weight of the rdtsc: most of the 30% */
	assert_true(f->percent > 20 && f->percent <= 30 + 1e-9);
	assert_non_null(strstr(f->message, "(rdtsc)"));
	test_close(s);
	/* the same samples on work: nothing */
	s = open_rec(exe, "work=1000");
	expect_checks(s, NULL);
	test_close(s);
}

static void
test_lost_throttled(void **state)
{
	struct bt_selection *s;
	const struct bt_finding *f;

	s = open_rec(split, "work_a+0x24=900 lost=100 work_b+0x24=100 throttle=3");
	expect_checks(s, "lost-samples", "throttled", NULL);
	f = finding(s, "lost-samples");
	expect_finding(s, f, NULL, 100.0 * 100 / 1100);
	expect_prefix(f->message, "the kernel dropped 100 samples (9.1% of all)");
	f = finding(s, "throttled");
	expect_finding(s, f, NULL, 0);
	expect_prefix(f->message, "sampling was throttled 3 times");
	test_close(s);
}

/* The findings of a selection: computed once, kept; a window has its own. */
static void
test_kept_and_windowed(void **state)
{
	struct bt_selection *s = open_rec(split, "work_a+0x24=1500 work_b+0x24=400 kernel=100");
	struct bt_selection *w, *again, *work;
	struct bt_selection_opts o;
	const struct bt_finding *f1, *f2, *fw;
	struct bt_view *h;

	/* the whole run: none, and the same (empty) list twice */
	assert_int_equal(bt_selection_findings(s, &f1), 0);
	assert_int_equal(bt_selection_findings(s, &f2), 0);
	assert_ptr_equal(f1, f2);

	/* the window over the kernel's samples (the last 100): the kernel's, 100% */
	bt_selection_opts_init(&o);
	o.time_from = EDGE(1900);
	w = bt_selection_new(bt_selection_session(s), &o, NULL);
	assert_non_null(w);
	assert_int_equal(bt_selection_samples(w), 100);
	expect_checks(w, "kernel-dominated", NULL);
	expect_finding(w, finding(w, "kernel-dominated"), NULL, 100);
	assert_int_equal(bt_selection_findings(w, &fw), 1);
	assert_ptr_equal(fw, finding(w, "kernel-dominated"));
	/* asked for again: the same selection, the same findings, not computed again */
	again = bt_selection_new(bt_selection_session(s), &o, NULL);
	assert_ptr_equal(again, w);
	assert_int_equal(bt_selection_findings(again, &f2), 1);
	assert_ptr_equal(f2, fw);
	bt_selection_free(again);
	/* the header counts them */
	h = bt_view_header(w);
	assert_int_equal(bt_view_summary(h)->nfindings, 1);
	bt_view_free(h);
	h = bt_view_header(s);
	assert_int_equal(bt_view_summary(h)->nfindings, 0);
	bt_view_free(h);

	/* work_a's samples alone: none */
	o.time_from = -1;
	o.time_to = EDGE(1500);
	work = bt_selection_new(bt_selection_session(s), &o, NULL);
	assert_int_equal(bt_selection_samples(work), 1500);
	expect_checks(work, NULL);
	bt_selection_free(work);

	/* the whole run's are as they were */
	assert_int_equal(bt_selection_findings(s, &f2), 0);
	assert_ptr_equal(f2, f1);
	bt_selection_free(w);
	test_close(s);

	/* a list that is not empty: the same pointer too */
	s = open_rec(split, "work_a+0x24=5");
	assert_int_equal(bt_selection_findings(s, &f1), 1);
	assert_int_equal(bt_selection_findings(s, &f2), 1);
	assert_ptr_equal(f1, f2);
	test_close(s);
}

static void
test_bench_summary(void **state)
{
	struct bt_selection *s = open_rec(split, "work_a+0x24=100");

	assert_int_equal(bt_selection_nbenches(s), 0);
	assert_null(bt_selection_bench_summary(s, 0));
	assert_null(bt_selection_bench_summary(s, 1));
	assert_null(bt_selection_bench_summary(s, (size_t)-1));
	test_close(s);
}

static int
setup(void **state)
{
	if (test_tmpdir(dir) || realpath("tests/fixtures/prebuilt/split", split) == NULL)
		return -1;
	if (test_compile(dir, "emptyloop", "emptyloop.c", "-O2 -g", loop, sizeof(loop)))
		return -1;
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
		cmocka_unit_test(test_healthy),
		cmocka_unit_test(test_few_samples),
		cmocka_unit_test(test_kernel),
		cmocka_unit_test(test_empty_loop),
		cmocka_unit_test(test_unoptimized),
		cmocka_unit_test(test_no_debug_info),
		cmocka_unit_test(test_startup),
		cmocka_unit_test(test_timer),
		cmocka_unit_test(test_lost_throttled),
		cmocka_unit_test(test_kept_and_windowed),
		cmocka_unit_test(test_bench_summary),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
