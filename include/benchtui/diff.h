/*
 * A comparison of two recordings (issue 28, docs/diff.md): benchmarks
 * paired by name, each benchmark's time and its functions' cost per
 * operation compared as units, each unit with its two vectors (the
 * harness's repetitions, the profile's samples per repetition or per
 * time slice), a permutation test, the change's interval, the minimum
 * detectable effect and a verdict, with the false discovery rate
 * controlled over every unit (core/diff/stats.h).
 */
#ifndef BENCHTUI_DIFF_H
#define BENCHTUI_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "benchtui/benchtui.h"
#include "benchtui/export.h"
#include "benchtui/view.h"

struct bt_selection;
struct bt_diff;
struct bt_browser;

enum bt_verdict { BT_V_UNCHANGED, BT_V_FASTER, BT_V_SLOWER, BT_V_UNRESOLVED };

/**
 * struct bt_diff_stat - one unit compared
 * @a, @b: the two means (ns per op, or the unit's own)
 * @delta: relative change (b - a) / a; NAN when a is 0 and b is not
 * @lo, @hi: its 95% interval (bootstrap percentile); NAN when a side has
 *           fewer than two values
 * @mde: minimum detectable effect (relative), at 80% power, from the
 *       pooled variance; NAN when there is no variance to pool
 * @p: the permutation p-value (two-sided, difference of means)
 * @q: the q-value after bt_diff_fdr (bt_diff_test sets it to @p)
 * @verdict: slower/faster where q <= level and the interval excludes 0;
 *           unchanged where the interval lies within ±mde; else unresolved
 */
struct bt_diff_stat {
	double a, b;
	double delta;
	double lo, hi;
	double mde;
	double p, q;
	enum bt_verdict verdict;
};

BT_API const char *bt_verdict_name(enum bt_verdict v);	/* "slower", ... */

enum bt_diff_kind {
	BT_DIFF_BENCH,		/* a benchmark's time per op */
	BT_DIFF_FUNC,		/* a function's cost per op in one benchmark */
};

/**
 * struct bt_diff_unit - one thing compared
 * @kind: what
 * @pair: the benchmark pair it belongs to
 * @name: the benchmark's or the function's name (B's, else A's)
 * @name_a: FUNC: A's name where it differs (a renamed or cloned function
 *          paired by diffmatch), NULL otherwise
 * @match: FUNC: how the two were paired ("name", "cfg"...: diffmatch's
 *         bt_match_how_name), NULL when on one side only
 * @module_a, @module_b: FUNC: the function's module on each side (NULL: absent)
 * @unit: what the numbers are: "ns/op", "cycles/op", "EVENT/op", or
 *        "share" (of the benchmark's samples: no iterations to divide by)
 * @vectors: where the vectors come from: "repetitions" (the harness's
 *           result lines), "runs" (the profile's samples of each
 *           repetition), "slices" (time slices of the measured phase),
 *           "one result" (nothing to resample); "repetitions (CPU)":
 *           the CPU time per op each printed (Google Benchmark)
 * @va, @vb, @na, @nb: the vectors
 * @fa, @fb: FUNC: the function's index in the pair's selection on each
 *           side (bt_diff_selection), -1 when absent
 * @st: the statistics
 */
struct bt_diff_unit {
	enum bt_diff_kind kind;
	size_t pair;
	const char *name;
	const char *name_a;
	const char *match;
	const char *module_a, *module_b;
	const char *unit;
	const char *vectors;
	const double *va, *vb;
	size_t na, nb;
	long fa, fb;
	struct bt_diff_stat st;
};

/**
 * struct bt_diff_pair - a benchmark of either recording, by name
 * @name: its name; "(whole run)" for recordings without benchmarks
 * @a, @b: its index in each recording's benchmarks, -1 when absent, -2
 *         both for the whole run
 * @time_a, @time_b: the time per op as printed, NULL when none
 * @unit: its BT_DIFF_BENCH unit
 * @funcs, @nfuncs: its BT_DIFF_FUNC units, in order of |Δ cost per op|
 */
struct bt_diff_pair {
	const char *name;
	long a, b;
	const char *time_a, *time_b;
	size_t unit;
	size_t funcs, nfuncs;
};

/**
 * struct bt_diff_opts - how to compare
 * @level: of the tests and the false discovery rate (0.05)
 * @seed: of every resample (1)
 * @slices: time slices of a benchmark run once (10)
 * @min_share: a function is compared where it has this percent of its
 *             benchmark's samples on either side (1; a kernel function
 *             10: the scheduler's and interrupts' share moves with the
 *             machine's load)
 * @max_funcs: at most this many functions a benchmark (20)
 * @noise: the run-to-run noise floor (relative, 0.10): two runs of one
 *         build differ by this much although their repetitions agree,
 *         so no smaller change is called slower or faster, and an
 *         interval within ±max(MDE, @noise) is unchanged
 */
struct bt_diff_opts {
	double level;
	uint64_t seed;
	size_t slices;
	double min_share;
	size_t max_funcs;
	double noise;
};

BT_API void bt_diff_opts_init(struct bt_diff_opts *o);
/*
 * The comparison of selections a (old) and b (new), computed now (each
 * benchmark's repetitions are read again from each recording). Holds a
 * reference to each. Recordings without benchmarks (perf's, a program
 * without a harness) are compared as one pair, their whole runs: the
 * functions' shares of 10 time slices of each.
 */
BT_API struct bt_diff *bt_diff_new(struct bt_selection *a, struct bt_selection *b,
				   const struct bt_diff_opts *o, struct bt_error *err);
BT_API void bt_diff_free(struct bt_diff *d);
BT_API const struct bt_diff_opts *bt_diff_opts(const struct bt_diff *d);
BT_API size_t bt_diff_npairs(const struct bt_diff *d);
BT_API const struct bt_diff_pair *bt_diff_pair(const struct bt_diff *d, size_t i);
BT_API size_t bt_diff_nunits(const struct bt_diff *d);
BT_API const struct bt_diff_unit *bt_diff_unit(const struct bt_diff *d, size_t i);
/* The whole-run selection of side 0 (a) or 1 (b). */
BT_API struct bt_selection *bt_diff_side(const struct bt_diff *d, int side);
/* Pair i's benchmark selection on side 0 or 1 (NULL when absent). */
BT_API struct bt_selection *bt_diff_selection(const struct bt_diff *d, int side, size_t i);
/*
 * Benchmarks significantly slower (verdict slower) by more than pct
 * percent (the interval's low end above it): --fail-on slower=PCT.
 */
BT_API size_t bt_diff_slower(const struct bt_diff *d, double pct);


/*
 * The views of a comparison (core/view/view-diff.c), the browser's and
 * the text export's rows: the benchmark table (one BT_ROW_BENCH row a
 * pair, @func the pair's index: name, A, B, B/A, Δ, its interval, MDE,
 * q, verdict, the vectors), and a pair's functions by Δ cost per op (one
 * BT_ROW_FUNC row a unit, @insn the unit's index, @func its function's
 * index on side B, else A's, else (size_t)-1).
 */
BT_API struct bt_view *bt_view_diff_benches(const struct bt_diff *d,
					    const struct bt_view_opts *o);
BT_API struct bt_view *bt_view_diff_funcs(const struct bt_diff *d, size_t pair,
					  const struct bt_view_opts *o);
/*
 * The comparison as text (the benchmark table, then each pair's
 * functions) or JSON (every unit with its vectors, a, b, delta, interval,
 * MDE, p, q, verdict: docs/formats.md).
 */
BT_API int bt_export_diff(FILE *out, const struct bt_diff *d, enum bt_format format,
			  const struct bt_view_opts *o, struct bt_error *err);
/*
 * The comparison's two sides as one profile: format flamegraph, B's
 * flame graph coloured by each frame's change of share from A's
 * (red: larger in B, blue: smaller); pprof, both sides' samples, each
 * labelled side = "a" or "b". bench: one benchmark pair's samples (its
 * name or a unique prefix, -b), NULL the whole runs.
 */
BT_API int bt_export_diff_sides(FILE *out, const struct bt_diff *d, enum bt_format format,
				const char *bench, struct bt_error *err);
/*
 * A browser on comparison d (core/browse/screen-diff.c), which must
 * outlive it: the benchmark table, Enter its functions, Enter a
 * function's instructions in both.
 */
BT_API struct bt_browser *bt_browser_new_diff(const struct bt_diff *d,
					      const struct bt_view_opts *o);

#endif
