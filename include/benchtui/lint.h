/*
 * Benchmark lint (DESIGN.md §4): the pitfalls of microbenchmarks, found
 * in the profile. A check that cannot decide says nothing.
 */
#ifndef BENCHTUI_LINT_H
#define BENCHTUI_LINT_H

#include <stddef.h>
#include <stdint.h>

#include "benchtui/benchtui.h"

struct bt_selection;

/**
 * struct bt_finding - one thing the profile says about the benchmark
 * @check: "empty-loop", "timer-dominated", "unoptimized", "few-samples",
 *         "lost-samples", "throttled", "startup-dominated",
 *         "kernel-dominated", "no-debug-info", "jit-warmup",
 *         "jit-recompiled", "jit-uncovered"
 * @function: the function it is about, NULL for the whole run
 * @func: its index in the selection, -1 for the whole run
 * @percent: the share of all samples it concerns
 * @message: what was found, why it matters, what to change (one paragraph)
 */
struct bt_finding {
	const char *check;
	const char *function;
	long func;
	double percent;
	const char *message;
};

/* The findings of a selection (computed on first use, then kept with it). */
BT_API size_t bt_selection_findings(struct bt_selection *sel,
				    const struct bt_finding **findings);

/**
 * struct bt_bench_func - a hot function of one benchmark
 * @samples, @percent: of the benchmark's samples
 */
struct bt_bench_func {
	const char *name, *module;
	uint64_t samples;
	double percent;
};

/**
 * struct bt_bench_summary - one benchmark's profile in brief (benchmark
 * table, comparison, stdio report): its hottest functions (up to 20) and
 * its findings (@func -1 in them: indexes are the benchmark selection's), @worst
 * the one that matters most (optimized-away first), NULL when none
 */
struct bt_bench_summary {
	const struct bt_bench_func *funcs;
	size_t nfuncs;
	const struct bt_finding *findings;
	size_t nfindings;
	const struct bt_finding *worst;
};

/*
 * The summary of benchmark i (benchtui/bench.h) in sel's event, made for
 * every benchmark of that event on first use, each from the benchmark's
 * own selection (which the session then keeps: selecting a benchmark
 * afterwards finds it made). NULL when there is no benchmark i.
 */
BT_API const struct bt_bench_summary *bt_selection_bench_summary(struct bt_selection *sel,
								 size_t i);

#endif
