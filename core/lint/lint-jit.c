/*
 * JIT-aware findings (DESIGN.md §8, docs/lint.md): a benchmark run by a
 * JIT runtime is measured before its code is final when time goes to the
 * interpreter, the lower tiers or the compilers (warm-up not over), or
 * when the hot method was compiled again during the measurement; and
 * JIT code no jitdump or perf map describes can only be shown as
 * addresses. ELF advice ("build with -g") is never given for JIT code.
 */
#include <stdio.h>
#include <string.h>

#include "benchtui/bench.h"
#include "jit/jitset.h"
#include "lint/lint-int.h"
#include "profile/profile.h"
#include "session/query.h"
#include "symbols/symbols.h"

#define WARMUP_MIN 10.0		/* percent of the samples in warm-up code */
#define RECOMPILED_HOT 20.0	/* the hot method's share to look at it */
#define RECOMPILED_LATE 0.05	/* loaded this far into the run */
#define UNCOVERED_MIN 10.0

static double
pct(const struct bt_selection *sel, double samples)
{
	return bt_selection_samples(sel) ? 100.0 * samples / (double)bt_selection_samples(sel) : 0;
}

static const struct bt_module *
module_of(struct bt_selection *sel, size_t fi)
{
	return bt_selection_func_module(sel, fi);
}

bool
bt_lint_is_jit(struct bt_selection *sel, size_t fi)
{
	enum bt_mod_kind k = module_of(sel, fi)->kind;

	return k == BT_MOD_JIT || k == BT_MOD_ANON;
}

/* Code that runs while a JIT runtime warms up: interpreters, low tiers, compilers. */
static const char *
warmup_kind(const char *name, bool jit)
{
	static const char *const compilers[] = {
		/* HotSpot's C2 and C1 (libjvm.so) */
		"Compile::", "PhaseIdealLoop", "PhaseChaitin", "PhaseIterGVN",
		"PhaseCFG", "PhaseLive", "PhaseOutput", "PhaseMacroExpand",
		"Parse::", "Matcher::", "C2Compiler", "Compilation::", "LinearScan",
		"GraphBuilder", "CompileBroker", "ciEnv::", "ciMethod",
		/* V8's TurboFan, Maglev, Sparkplug and its bytecode compiler */
		"v8::internal::compiler::", "v8::internal::maglev::",
		"v8::internal::baseline::", "v8::internal::interpreter::Bytecode",
		"v8::internal::Parser", "v8::internal::Scanner",
	};
	size_t i;

	if (jit) {
		if (strcmp(name, "Interpreter") == 0 || strncmp(name, "JS:~", 4) == 0 ||
		    strncmp(name, "BytecodeHandler:", 16) == 0)
			return "interpreter";
		if (strstr(name, " [c1 ") != NULL || strncmp(name, "JS:^", 4) == 0)
			return "baseline";
		return NULL;
	}
	if (strncmp(name, "Builtins_", 9) == 0 && strstr(name, "Handler") != NULL)
		return "interpreter";	/* V8's bytecode handlers, in node's text */
	for (i = 0; i < BT_ARRAY_SIZE(compilers); i++)
		if (strstr(name, compilers[i]) != NULL)
			return "compiler";
	return NULL;
}

/* The warm-up shares of sel's samples: interpreter, baseline, compilers (percent). */
static double
warmup_share(struct bt_selection *sel, double *interp_pct, double *base_pct,
	     double *comp_pct)
{
	double interp = 0, base = 0, comp = 0;
	size_t fi;

	for (fi = 0; fi < bt_selection_nfuncs(sel); fi++) {
		const struct bt_func *f = bt_selection_func(sel, fi);
		const char *k = warmup_kind(f->name, module_of(sel, fi)->kind == BT_MOD_JIT);

		if (k == NULL)
			continue;
		if (k[0] == 'i')
			interp += (double)f->samples;
		else if (k[0] == 'b')
			base += (double)f->samples;
		else
			comp += (double)f->samples;
	}
	*interp_pct = pct(sel, interp);
	*base_pct = pct(sel, base);
	*comp_pct = pct(sel, comp);
	return pct(sel, interp + base + comp);
}

/*
 * The selected benchmark's measured phase when the harness tells it
 * (probes, JMH's forks): *m filled, true. False for the whole run and
 * for a benchmark known only by its window.
 */
static bool
measured(struct bt_selection *sel, struct bt_bench_measured *m)
{
	long b = bt_selection_bench_index(sel);

	return b >= 0 && bt_selection_bench_phase(sel, (size_t)b, m) && m->timed;
}

/* Does the run hold benchmarks with samples (each judged in its own phase)? */
static bool
has_benches(struct bt_selection *sel)
{
	size_t i;

	for (i = 0; i < bt_selection_nbenches(sel); i++)
		if (bt_selection_bench(sel, i) != NULL && bt_selection_bench(sel, i)->samples > 0)
			return true;
	return false;
}

/*
 * Warm-up in the second half of sel's window: the part of a run (or of a
 * benchmark's window) that a harness which warms up first measures. -1
 * when that selection cannot be made.
 */
static double
late_warmup(struct bt_selection *sel, double *ip, double *bp, double *cp, double *from)
{
	struct bt_selection_opts o = *bt_selection_opts(sel);
	struct bt_selection *late;
	double lo, hi, share = -1;

	bt_selection_window(sel, &lo, &hi);
	if (!(hi > lo))
		return -1;
	o.time_percent = false;
	o.time_from = *from = lo + (hi - lo) / 2;
	o.time_to = hi;
	if ((late = bt_selection_new(bt_selection_session(sel), &o, NULL)) == NULL)
		return -1;
	if (bt_selection_samples(late) >= 20)
		share = warmup_share(late, ip, bp, cp);
	bt_selection_free(late);
	return share;
}

/*
 * JIT warm-up while the benchmark measured: in its measured phase when
 * the harness tells it; else (the whole run, a benchmark's window) in the
 * second half of the window, so that the warm-up a harness does before
 * it measures is not taken for its measurement. The whole run of a
 * recording with benchmarks is left to them.
 */
static void
check_warmup(struct bt_selection *sel, bool any_jit)
{
	struct bt_bench_measured m;
	double ip, bp, cp, all, from = 0;
	bool timed = measured(sel, &m);
	long bi = bt_selection_bench_index(sel);
	const struct bt_bench *b = bi >= 0 ? bt_selection_bench(sel, (size_t)bi) : NULL;
	char msg[768];

	if (!any_jit || (bi < 0 && has_benches(sel)))
		return;
	all = warmup_share(sel, &ip, &bp, &cp);
	if (all < WARMUP_MIN)
		return;
	if (timed) {
		snprintf(msg, sizeof(msg), "%.1f%% of the samples of its measured phase "
		    "are JIT warm-up: %.1f%% in the interpreter, %.1f%% in "
		    "baseline-compiled code (C1, Sparkplug), %.1f%% in the JIT "
		    "compilers: the measurement includes code that is not the "
		    "benchmark's final code. Warm up longer before measuring (%s)",
		    all, ip, bp, cp, b != NULL && strcmp(b->harness, "jmh") == 0 ?
		    "JMH: more or longer warm-up iterations, -wi N -w TIME" :
		    "more warm-up iterations or time in the harness");
		lint_add(sel, "jit-warmup", -1, all, "%s", msg);
		return;
	}
	all = late_warmup(sel, &ip, &bp, &cp, &from);
	if (all < WARMUP_MIN)
		return;
	snprintf(msg, sizeof(msg), "%.1f%% of the samples after %.3f s (the second "
	    "half of %s) are still JIT warm-up: %.1f%% in the interpreter, %.1f%% in "
	    "baseline-compiled code (C1, Sparkplug), %.1f%% in the JIT compilers: "
	    "whatever part of it is measured includes code that is not the "
	    "benchmark's final code. Warm up longer before measuring", all, from,
	    bi >= 0 ? "its window" : "the run", ip, bp, cp);
	lint_add(sel, "jit-warmup", -1, all, "%s", msg);
}

/*
 * How to measure after the load at t: warm up longer in the harness's
 * terms; --delay only where it drops no other benchmark (the one whose
 * phase starts at first, or the whole run).
 */
static void
recompiled_advice(struct bt_selection *sel, uint64_t first, uint64_t t, char *buf,
		  size_t size)
{
	const struct bt_profile *p = bt_selection_profile(sel);
	long bi = bt_selection_bench_index(sel);
	const struct bt_bench *b = bi >= 0 ? bt_selection_bench(sel, (size_t)bi) : NULL;
	double at = (double)(t - p->first_time) / 1e9;
	size_t i, before = 0;
	const char *h = b ? b->harness : "";
	const char *how = strcmp(h, "jmh") == 0 ?
	    "more or longer warm-up iterations (-wi N, -w TIME)" :
	    strcmp(h, "criterion") == 0 ? "a longer --warm-up-time" :
	    strcmp(h, "tinybench") == 0 ? "tinybench's warmupTime or warmupIterations" :
	    "a longer warm-up in the harness, or run the benchmark once before the suite";

	if (b == NULL) {
		snprintf(buf, size, "Warm up longer before measuring, or start the "
		    "measurement later with --delay %.0f (ms) or --time", at * 1e3);
		return;
	}
	for (i = 0; i < bt_selection_nbenches(sel); i++) {
		const struct bt_bench *o = bt_selection_bench(sel, i);
		if (i != (size_t)bi && o != NULL && o->samples > 0 && o->t_from < at)
			before++;
	}
	if (strcmp(h, "jmh") == 0)	/* its number is its iterations', whatever is recorded */
		snprintf(buf, size, "Warm it up longer before it measures: %s", how);
	else if (before == 0)
		snprintf(buf, size, "Warm it up longer before it measures (%s), or "
		    "drop the start with --delay %.0f (ms)", how, at * 1e3);
	else
		snprintf(buf, size, "Its measurement starts at %.3f s of the run, its "
		    "code was loaded at %.3f s: its own warm-up was too short. Warm it "
		    "up longer (%s); --delay would drop the %zu benchmark%s before it",
		    (double)(first - p->first_time) / 1e9, at, how, before,
		    before > 1 ? "s" : "");
}

static void
check_recompiled(struct bt_selection *sel)
{
	const struct bt_func *hot = NULL;
	const struct bt_module *hm = NULL;
	const char *hk, *kn;
	size_t hn, fi, nver = 0, n, k;
	const struct bt_profile *p = bt_selection_profile(sel);
	uint64_t lo, hi, first = p->first_time, last = p->last_time;
	double other = 0;
	long hfi = -1, bench = bt_selection_bench_index(sel);
	struct bt_bench_measured m;
	char msg[2048];

	memset(&m, 0, sizeof(m));

	for (fi = 0; fi < bt_selection_nfuncs(sel); fi++)
		if (module_of(sel, fi)->kind == BT_MOD_JIT) {
			hot = bt_selection_func(sel, fi);
			hm = module_of(sel, fi);
			hfi = (long)fi;
			break;
		}
	if (hot == NULL || hot->percent < RECOMPILED_HOT || hm->jit->time == 0)
		return;
	if (bench < 0 && has_benches(sel))
		return;		/* each benchmark's measured phase says */
	if (measured(sel, &m)) {
		/* loaded while it measured: in one of its intervals (a JMH fork's iterations) */
		for (k = 0; k < m.npairs; k++)
			if (m.pairs[2 * k] <= hm->jit->time && hm->jit->time < m.pairs[2 * k + 1])
				break;
		if (k == m.npairs)
			return;	/* in its warm-up, or between its runs */
		first = m.pairs[2 * k];
		last = m.pairs[2 * k + 1];
	} else {
		bt_selection_window_clock(sel, &lo, &hi);
		if (lo > first)
			first = lo;
		if (hi < last)
			last = hi;
		/*
		 * a benchmark known by its window only (the output's, a custom
		 * harness's): the second half, where a harness that warms up
		 * first measures, as check_warmup reads it
		 */
		if (bench >= 0 && last > first)
			first += (last - first) / 2;
	}
	if (last <= first || hm->jit->time <= first ||
	    (double)(hm->jit->time - first) < RECOMPILED_LATE * (double)(last - first))
		return;
	hn = bt_jit_method(hot->name, &hk);
	for (fi = 0; fi < bt_selection_nfuncs(sel); fi++) {
		const struct bt_func *f = bt_selection_func(sel, fi);
		if ((long)fi == hfi || module_of(sel, fi)->kind != BT_MOD_JIT)
			continue;
		n = bt_jit_method(f->name, &kn);
		if (n == hn && strncmp(kn, hk, n) == 0) {
			nver++;
			other += (double)f->samples;
		}
	}
	snprintf(msg, sizeof(msg), "the code of %s was loaded %.3f s into the "
	    "measured %.3f s%s (%.0f%%): the measurement before that ran other "
	    "code (the interpreter, a lower tier or an earlier compilation). ",
	    hot->name, (double)(hm->jit->time - first) / 1e9,
	    (double)(last - first) / 1e9,
	    m.timed && m.npairs > 1 ? " of one of its measured intervals (a fork's "
	    "iterations, a run)" : !m.timed && bench >= 0 ? " of the second half of "
	    "its window (where a harness that warms up first measures)" : "",
	    100.0 * (double)(hm->jit->time - first) / (double)(last - first));
	recompiled_advice(sel, first, hm->jit->time, msg + strlen(msg),
	    sizeof(msg) - strlen(msg));
	if (nver) {
		size_t len = strlen(msg);
		snprintf(msg + len, sizeof(msg) - len, "; %zu other version%s of the "
		    "method hold%s %.1f%% of the samples", nver, nver > 1 ? "s" : "",
		    nver > 1 ? "" : "s",
		    pct(sel, other));
	}
	lint_add(sel, "jit-recompiled", hfi, hot->percent, "%s", msg);
}

static void
check_uncovered(struct bt_selection *sel)
{
	double anon = 0;
	size_t fi;
	long first = -1;
	char msg[768];

	for (fi = 0; fi < bt_selection_nfuncs(sel); fi++)
		if (module_of(sel, fi)->kind == BT_MOD_ANON) {
			anon += (double)bt_selection_func(sel, fi)->samples;
			if (first < 0)
				first = (long)fi;
		}
	if (pct(sel, anon) < UNCOVERED_MIN)
		return;
	snprintf(msg, sizeof(msg), "%.1f%% of the samples are in anonymous executable "
	    "memory that no jitdump or perf map describes (JIT code, most likely): "
	    "they show as addresses, with no code. Let benchtui start the runtime "
	    "(node and java are set up without flags), or have it write "
	    "/tmp/perf-PID.map or jit-PID.dump (docs/jit.md lists the flags)",
	    pct(sel, anon));
	lint_add(sel, "jit-uncovered", first, pct(sel, anon), "%s", msg);
}

void
bt_lint_jit(struct bt_selection *sel)
{
	bool any_jit = false;
	size_t fi;

	for (fi = 0; fi < bt_selection_nfuncs(sel) && !any_jit; fi++)
		any_jit = module_of(sel, fi)->kind == BT_MOD_JIT;
	check_warmup(sel, any_jit);
	check_recompiled(sel);
	check_uncovered(sel);
}
