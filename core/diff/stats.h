/*
 * The statistics of a comparison (issue 28, docs/diff.md): two vectors of
 * one unit's measurements (a benchmark's repetitions, a function's cost
 * per op in each repetition or time slice), compared by a permutation
 * test of their means, with the relative change's 95% bootstrap interval
 * and the minimum detectable effect; Benjamini-Hochberg over every unit
 * shown gives the q-values and the verdicts.
 *
 * Every random draw comes from the seed: the same vectors and seed give
 * the same numbers on every machine.
 */
#ifndef BENCHTUI_DIFF_STATS_H
#define BENCHTUI_DIFF_STATS_H

#include <stddef.h>
#include <stdint.h>

/* enum bt_verdict, struct bt_diff_stat, bt_verdict_name(): in the public header */
#include "benchtui/diff.h"

/* Resamples: the permutation test (exact below), the bootstrap interval. */
#define BT_DIFF_PERMUTATIONS 10000
#define BT_DIFF_BOOTSTRAP 4000
/* Above this MDE a unit is never unchanged (bt_diff_verdict_floor). */
#define BT_DIFF_MDE_MAX 0.5
/* The level of the tests and of the false discovery rate. */
#define BT_DIFF_LEVEL 0.05

/*
 * A permutation test of two vectors (seeded: reproducible). Exact (every
 * split of the pooled values) when there are at most BT_DIFF_PERMUTATIONS
 * splits, else that many random ones. Sets @verdict as for one unit at
 * BT_DIFF_LEVEL; bt_diff_fdr sets it again over all units.
 */
void bt_diff_test(const double *a, size_t na, const double *b, size_t nb,
		  uint64_t seed, struct bt_diff_stat *out);
/* Benjamini-Hochberg over n units at level (0.05): sets q and each verdict. */
void bt_diff_fdr(struct bt_diff_stat *v, size_t n, double level);
/* The verdict a unit gets at level (its q-value, interval and MDE set). */
enum bt_verdict bt_diff_verdict(const struct bt_diff_stat *s, double level);
/*
 * The same where changes within ±noise (relative) are the run-to-run
 * noise of separate runs, which repetitions inside one run do not show:
 * slower/faster where the interval is beyond it, unchanged where it lies
 * within ±max(MDE, noise) and the MDE is at most BT_DIFF_MDE_MAX (a unit
 * that could not have seen a change of half its value is unresolved)
 * (docs/diff.md "The noise floor").
 */
enum bt_verdict bt_diff_verdict_floor(const struct bt_diff_stat *s, double level,
				      double noise);

/* The mean (NAN for n 0) and sample variance (0 for n < 2) of v. */
double bt_diff_mean(const double *v, size_t n);
double bt_diff_var(const double *v, size_t n);
/* Student's t quantile for p in {0.8, 0.975}, df >= 1 (a table to 30, then series). */
double bt_diff_tq(double p, size_t df);

#endif
