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

static void
check_warmup(struct bt_selection *sel, bool any_jit)
{
	double interp = 0, base = 0, comp = 0, all;
	size_t fi;
	char msg[768];

	if (!any_jit)
		return;
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
	all = pct(sel, interp + base + comp);
	if (all < WARMUP_MIN)
		return;
	snprintf(msg, sizeof(msg), "%.1f%% of the samples are JIT warm-up: %.1f%% "
	    "in the interpreter, %.1f%% in baseline-compiled code (C1, Sparkplug), "
	    "%.1f%% in the JIT compilers: the measurement includes code that is not "
	    "the benchmark's final code. Warm up longer before measuring, or drop "
	    "the start with --delay MS (or --time)", all, pct(sel, interp),
	    pct(sel, base), pct(sel, comp));
	lint_add(sel, "jit-warmup", -1, all, "%s", msg);
}

static void
check_recompiled(struct bt_selection *sel)
{
	const struct bt_func *hot = NULL;
	const struct bt_module *hm = NULL;
	const char *hk, *k;
	size_t hn, fi, nver = 0, n;
	const struct bt_profile *p = bt_selection_profile(sel);
	uint64_t lo, hi, first = p->first_time, last = p->last_time;
	double other = 0;
	long hfi = -1;
	char msg[768];

	for (fi = 0; fi < bt_selection_nfuncs(sel); fi++)
		if (module_of(sel, fi)->kind == BT_MOD_JIT) {
			hot = bt_selection_func(sel, fi);
			hm = module_of(sel, fi);
			hfi = (long)fi;
			break;
		}
	if (hot == NULL || hot->percent < RECOMPILED_HOT || hm->jit->time == 0)
		return;
	bt_selection_window_clock(sel, &lo, &hi);
	if (lo > first)
		first = lo;
	if (hi < last)
		last = hi;
	if (last <= first || hm->jit->time <= first ||
	    (double)(hm->jit->time - first) < RECOMPILED_LATE * (double)(last - first))
		return;
	hn = bt_jit_method(hot->name, &hk);
	for (fi = 0; fi < bt_selection_nfuncs(sel); fi++) {
		const struct bt_func *f = bt_selection_func(sel, fi);
		if ((long)fi == hfi || module_of(sel, fi)->kind != BT_MOD_JIT)
			continue;
		n = bt_jit_method(f->name, &k);
		if (n == hn && strncmp(k, hk, n) == 0) {
			nver++;
			other += (double)f->samples;
		}
	}
	snprintf(msg, sizeof(msg), "the code of %s was loaded %.3f s into the "
	    "measured %.3f s (%.0f%%): the measurement before that ran other "
	    "code (the interpreter, a lower tier or an earlier compilation). "
	    "Warm up longer before measuring, or start the measurement later "
	    "with --delay %.0f (ms) or --time", hot->name,
	    (double)(hm->jit->time - first) / 1e9, (double)(last - first) / 1e9,
	    100.0 * (double)(hm->jit->time - first) / (double)(last - first),
	    (double)(hm->jit->time - p->first_time) / 1e6);
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
