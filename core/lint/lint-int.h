/*
 * Lint's parts: lint.c (the checks of one selection), lint-bench.c (what
 * a benchmark adds: its harness's numbers, advice in its harness's terms,
 * and the summary of every benchmark for the benchmark table), lint-jit.c
 * (what JIT code adds).
 */
#ifndef BENCHTUI_LINT_INT_H
#define BENCHTUI_LINT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bt_selection;
struct bt_finding;

/* Add a finding to the current selection's list. */
void lint_add(struct bt_selection *sel, const char *check, long func, double percent,
	      const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* The findings added so far to the selection being checked. */
size_t lint_sofar(struct bt_selection *sel, const struct bt_finding **f);
/*
 * How to keep the work from being optimized away, in the terms of the
 * selected benchmark's harness (every harness's when none is selected).
 */
const char *lint_keep_advice(struct bt_selection *sel);
/*
 * The checks that need a selected benchmark (its printed time); true when
 * it was optimized away.
 */
/* pct: samples as a percent of the selection's */
double lint_pct(const struct bt_selection *sel, double samples);
/*
 * A file the system installed (a Debian package's /usr/lib, /lib, /usr/bin;
 * not /usr/local): built as it ships, not the benchmark's to rebuild.
 */
bool lint_system_path(const char *path);
/* The empty-loop check (lint-loops.c): findings added to sel's. */
void lint_empty_loops(struct bt_selection *sel);
bool lint_bench_checks(struct bt_selection *sel);
/*
 * An empty loop of ninsns instructions at addr, share% of the samples, in
 * function fi: when fi is the selected benchmark's own code, say so with
 * the benchmark's numbers and return true. what: what the loop does
 * ("only counts (no call, ...)").
 */
bool lint_bench_loop(struct bt_selection *sel, size_t fi, double share, size_t ninsns,
		     uint64_t addr, const char *what);
/*
 * The checks of a selected benchmark's measured phase (lint-phase.c):
 * untimed-work, machine-busy, timer-dominated by the harness's pauses
 * (true when that one was said).
 */
bool lint_phase_checks(struct bt_selection *sel);
/* The CPU time one sample of the selection stands for, in ns (0: unknown). */
double lint_sample_ns(struct bt_selection *sel);
/* The JIT checks (lint-jit.c, DESIGN.md §8). */
void bt_lint_jit(struct bt_selection *sel);
/* Is function fi JIT code, or code in anonymous memory? (no ELF advice for it) */
bool bt_lint_is_jit(struct bt_selection *sel, size_t fi);

#endif
