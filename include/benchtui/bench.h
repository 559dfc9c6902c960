/*
 * Benchmarks as the unit (DESIGN.md §7, docs/benchmarks.md): the results
 * the harness printed while it ran (read from the recording), each with
 * the samples that belong to it. A selected benchmark restricts every
 * view and export to its samples, as a time window does.
 *
 * Which samples belong to a benchmark is decided in one place
 * (core/session/bench.c, bench_scan()): today by time, the window between
 * the harness's output lines; with call chains, by the benchmark's entry
 * frame on the chain.
 */
#ifndef BENCHTUI_BENCH_H
#define BENCHTUI_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "benchtui/benchtui.h"

struct bt_session;
struct bt_selection;

/**
 * struct bt_bench - one benchmark: the harness's result lines of one name
 * (repetitions and aggregates such as GB's _mean grouped under it)
 * @index: position in the list (the order printed)
 * @name: as printed, without an aggregate suffix ("BM_sum/8",
 *        "BenchmarkSum/n=8-2")
 * @family: the part of the name that names code ("BM_sum", "BenchmarkSum")
 * @harness: "gbench", "go", "criterion", "libtest", "tinybench", "mitata",
 *           or "frames" (--benchmark-frames)
 * @time_text: the time per operation exactly as printed ("7.16 ns"; the
 *             _mean aggregate's where there is one), NULL when none
 * @time_ns: the same in ns, NAN when none
 * @pm_text: the harness's ± as printed ("± 0.23 ns" from GB's _stddev,
 *           "± 207 ns" libtest, "± 0.67%" tinybench, "[27.686 ns 35.532 ns]"
 *           criterion's interval), NULL when none
 * @ci_ns: half the width of that ± in ns, NAN when none or relative
 * @iterations_text, @iterations: as printed, NULL / NAN when none
 * @error: the harness's error or skip message, NULL when none
 * @dead_hint: the harness itself says the body was optimized out (mitata !)
 * @ratio: @time_ns over the fastest benchmark's (1 for the fastest), NAN
 *         when either has no time
 * @nresults: result lines grouped here
 * @line: the output line of its first result
 * @has_window: its samples are known (times on one clock)
 * @by_chain: its samples are those whose call chain passes through its
 *            own code (its entry frame), else those of its window
 * @t_from, @t_to: its window, seconds from the first sample
 * @samples: its samples in the selection's event: with probes, those
 *           of its measured phase only
 * @percent: of all samples of that event
 * @split: how its samples were found: "probe" (the harness's own timer,
 *         from probes on its code), "chain" (its entry frame), "window"
 *         (the time between its output lines)
 * @untimed_samples: with probes, its samples while its timer was off
 *                   (set-up, StopTimer, the harness between runs,
 *                   criterion's warm-up); 0 otherwise
 */
struct bt_bench {
	size_t index;
	const char *name, *family, *harness;
	const char *time_text;
	double time_ns;
	const char *pm_text;
	double ci_ns;
	const char *iterations_text;
	double iterations;
	const char *error;
	bool dead_hint;
	double ratio;
	size_t nresults;
	size_t line;
	bool has_window;
	bool by_chain;
	double t_from, t_to;
	uint64_t samples;
	double percent;
	const char *split;
	uint64_t untimed_samples;
};

/**
 * struct bt_bench_run - one result line a benchmark's row holds (a
 * repetition, an aggregate such as GB's _mean, the one line of most)
 * @line: its line in the output, from 1
 * @name: as printed, with an aggregate's suffix ("BM_sum/8_mean")
 * @aggregate: "mean", "median", "stddev", "cv"..., NULL for a run
 * @time_text, @iterations_text: as printed, NULL when none
 * @error: the harness's error for it, NULL when none
 * @cpu_ns: the CPU time per op it printed besides (Google Benchmark's CPU
 *          column), in ns; NAN when none
 */
struct bt_bench_run {
	size_t line;
	const char *name;
	const char *aggregate;
	const char *time_text, *iterations_text;
	const char *error;
	double cpu_ns;
};

/* Benchmark b's result lines in the order printed (*runs valid with the session). */
BT_API size_t bt_selection_bench_runs(const struct bt_selection *sel, size_t b,
				      const struct bt_bench_run **runs);
/*
 * The samples of the selection's event that result line r of benchmark b
 * measured (its run's measured phase: a GB repetition's run, a Go -count
 * line's launch); false when its own are not known (an aggregate, a split
 * without probes).
 */
BT_API bool bt_selection_bench_run_samples(const struct bt_selection *sel, size_t b,
					   size_t r, uint64_t *samples);

/*
 * The run result line r of benchmark b measured, in seconds from the
 * first sample (a selection's time window: with the benchmark's, that
 * run's measured samples); false as bt_selection_bench_run_samples.
 */
BT_API bool bt_selection_bench_run_window(const struct bt_selection *sel, size_t b,
					  size_t r, double *from, double *to);

/*
 * The benchmarks, the same in every selection of a session (made with its
 * first selection: the harness's output read again, each result's window
 * found on that selection's event), in the order printed, with their
 * samples in the selection's event.
 */
BT_API size_t bt_selection_nbenches(const struct bt_selection *sel);
BT_API const struct bt_bench *bt_selection_bench(const struct bt_selection *sel,
						 size_t i);
/* Samples of the selection's event in no benchmark (start-up, harness, reporting). */
BT_API uint64_t bt_selection_bench_outside(const struct bt_selection *sel);
/*
 * The benchmark named name: exactly, else the only one it is a prefix of.
 * -1 when none, -2 when several.
 */
BT_API long bt_selection_find_bench(const struct bt_selection *sel, const char *name);
/* The benchmark the selection holds the samples of, -1 when none. */
BT_API long bt_selection_bench_index(const struct bt_selection *sel);
/* Is function fi (of the selection) benchmark b's own code, by name? */
BT_API bool bt_selection_bench_code(const struct bt_selection *sel, size_t b,
				    size_t fi);
/* Why benchmarks have no samples ("" when they have). */
BT_API const char *bt_selection_bench_note(const struct bt_selection *sel);
/*
 * --benchmark-frames: glob patterns of the entry frames of a harness
 * benchtui does not know, kept for the call-chain split (NULL: none).
 * Before the session's first selection.
 */
BT_API void bt_session_set_bench_frames(struct bt_session *s, const char *patterns);
BT_API const char *bt_session_bench_frames(const struct bt_session *s);

#endif
