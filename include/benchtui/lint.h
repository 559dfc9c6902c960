/*
 * Benchmark lint (DESIGN.md §4): the pitfalls of microbenchmarks, found
 * in the profile. A check that cannot decide says nothing.
 */
#ifndef BENCHTUI_LINT_H
#define BENCHTUI_LINT_H

#include <stddef.h>

#include "benchtui/benchtui.h"

struct bt_session;

/**
 * struct bt_finding - one thing the profile says about the benchmark
 * @check: "empty-loop", "timer-dominated", "unoptimized", "few-samples",
 *         "lost-samples", "throttled", "startup-dominated",
 *         "kernel-dominated", "no-debug-info", "jit-warmup",
 *         "jit-recompiled", "jit-uncovered"
 * @function: the function it is about, NULL for the whole run
 * @func: its index in the session's table, -1 for the whole run
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

/* The findings for the session's current event and window (computed once). */
BT_API size_t bt_session_findings(struct bt_session *s,
				  const struct bt_finding **findings);

#endif
