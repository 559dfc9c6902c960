/*
 * What the stages after the session (lint, view, browse) ask of sessions
 * and selections beyond the public headers: a function's annotation and
 * code, a module's symbols and file, the source files, the recording
 * itself, and cache slots where they keep what they compute (the session
 * never calls them, and frees a slot through its own release function).
 */
#ifndef BENCHTUI_SESSION_QUERY_H
#define BENCHTUI_SESSION_QUERY_H

#include <stdbool.h>
#include <stdint.h>

#include "benchtui/bench.h"
#include "benchtui/selection.h"
#include "benchtui/session.h"

struct bt_annotation;
struct bt_msyms;
struct bt_srccache;
struct bt_profile;
struct bt_module;

/**
 * struct bt_proc_count - the samples of one thread under one name in one
 * event (perf report --sort comm,pid's rows)
 * @proc, @thread: bt_session_proc()'s index and its thread's
 * @first, @last: the times of its first and last sample (recording clock)
 */
struct bt_proc_count {
	size_t proc, thread;
	const char *comm;
	uint64_t samples, period;
	uint64_t first, last;
};
/*
 * Every (thread, name) with samples in the selection, by process (in
 * bt_session_proc's order), thread, then when it had the name; *out
 * malloc'ed. Returns how many. The samples are the selection's before a
 * focus (a benchmark found by its call chains counts its window's); the
 * times are the whole run's in its event.
 */
size_t bt_selection_proc_counts(struct bt_selection *sel,
				struct bt_proc_count **out);

/* Per-selection cache slots. */
enum bt_sel_cache {
	BT_SEL_CACHE_LINT,	/* lint's findings */
	BT_SEL_CACHE_COUNT
};

/* Per-session cache slots. */
enum bt_session_cache {
	BT_CACHE_BENCH,		/* every benchmark's summary, per event (lint) */
	BT_CACHE_COUNT
};

void *bt_selection_cache(const struct bt_selection *sel, enum bt_sel_cache which);
void bt_selection_set_cache(struct bt_selection *sel, enum bt_sel_cache which,
			    void *data, void (*release)(void *data));
void *bt_session_cache(const struct bt_session *s, enum bt_session_cache which);
void bt_session_set_cache(struct bt_session *s, enum bt_session_cache which,
			  void *data, void (*release)(void *data));

/*
 * The annotation of function fi in syntax, built on first use (owned by
 * the selection until bt_selection_forget or its end).
 */
struct bt_annotation *bt_selection_annotation(struct bt_selection *sel, size_t fi,
					      enum bt_asm_syntax syntax,
					      struct bt_error *err);
/*
 * Function fi's code as the lint reads it (instructions, loops, skid):
 * its AT&T annotation if one was built, else, where its module's debug
 * info is read already, that annotation built and kept (the one Enter
 * opens), else one without source lines, which reads no debug info (and
 * so for a function of more than BT_CODE_SHARED_MAX bytes: a switch of
 * 100,000 cases is not kept for a screen that may never open it). NULL
 * when it has no code.
 */
#define BT_CODE_SHARED_MAX (1u << 20)
struct bt_annotation *bt_selection_code(struct bt_selection *sel, size_t fi);
/*
 * The lint is done with function fi's code: the annotation without lines
 * bt_selection_code made for it is freed (one the browser or an export
 * asked for stays). For a look at a function that no screen is likely to
 * open: its code, kept, can be the largest thing in memory.
 */
void bt_selection_code_done(struct bt_selection *sel, size_t fi);
/*
 * Does function fi's module have DWARF? When it has none, the session
 * notes it (the header's and the reports' "no debug info" note). Reads the
 * DWARF: ask after bt_msyms_probe_dwarf() said no.
 */
bool bt_selection_func_dwarf(struct bt_selection *sel, size_t fi);
/* The event's index in the recording. */
int bt_selection_attr(const struct bt_selection *sel);
/* The time window in the recording's clock: [*lo, *hi). */
void bt_selection_window_clock(const struct bt_selection *sel, uint64_t *lo,
			       uint64_t *hi);
/*
 * The selected benchmark's samples in each of nbins slices of the run
 * (mine[], zeroed by the caller): false when none is selected.
 */
bool bt_selection_bench_slices(const struct bt_selection *sel, size_t nbins,
			       uint64_t *mine);

/**
 * struct bt_bench_measured - what lint reads of a benchmark's measured phase
 * @timed: the harness's own timer (probes) or its forks' measurement
 *         (JMH) tell it, in @pairs; else @first..@last is its window
 * @first, @last: its first start and last end, the recording's clock
 * @span_lo, @span_hi: from its first run's start to its last run's end
 *                     (with its untimed parts), else its window
 * @pairs, @npairs: [lo, hi) pairs, sorted (borrowed; 0 when !@timed)
 * @seconds: wall time measured: the pairs' sum, else the window's
 * @timer_samples: samples in the timer's own code (PauseTiming,
 *                 StopTimer...) while it ran, counted untimed
 * @trap_samples: samples in the probes' traps while it ran (benchtui's
 *                cost, not the harness's), counted untimed
 * @cpu_ns, @cpu_text: the harness's CPU time per operation as printed
 *                     (GB's CPU column): NAN, NULL when none
 * @run_known, @run_samples: the measured samples of the result line
 *                           whose time is shown, when known
 * @items_per_op: GB's items_per_second of that result times its CPU
 *                time per op (the items SetItemsProcessed counted per
 *                iteration), NAN when not printed
 */
struct bt_bench_measured {
	bool timed;
	uint64_t first, last;
	uint64_t span_lo, span_hi;
	const uint64_t *pairs;
	size_t npairs;
	double seconds;
	uint64_t timer_samples, trap_samples;
	double cpu_ns;
	const char *cpu_text;
	bool run_known;
	uint64_t run_samples;
	double items_per_op;
};
/* Benchmark b's measured phase in the selection's event; false: no such benchmark. */
bool bt_selection_bench_phase(const struct bt_selection *sel, size_t b,
			      struct bt_bench_measured *out);
struct bt_bench_func;
/*
 * Benchmark b's samples while its timer was off (set-up, paused
 * sections, the runner between runs) by function, hottest first: at most
 * max into out, @percent of those samples (names live with the session);
 * with call chains, a sample in the kernel by the function that entered
 * it, and the probes' traps apart, their samples in *traps. Reads the
 * samples again. Returns how many; 0 without probes.
 */
size_t bt_selection_bench_untimed_funcs(struct bt_selection *sel, size_t b,
					struct bt_bench_func *out, size_t max,
					uint64_t *traps);

/**
 * struct bt_slices - the run cut into equal slices of time (the timeline)
 * @n: how many; @span: the run's length in ns (of the recording's clock)
 * @all: each slice's samples of the selection's event, whatever its window
 * @mine: of those, the function's (@of BT_SLICES_FUNC) or the selected
 *        benchmark's (BT_SLICES_BENCH); none (BT_SLICES_ALL)
 */
enum bt_slices_of { BT_SLICES_ALL, BT_SLICES_FUNC, BT_SLICES_BENCH };
struct bt_slices {
	size_t n;
	double span;
	uint64_t *all, *mine;
	enum bt_slices_of of;
};
/*
 * The selection's event over nbins slices of the run, with function func
 * (-1: none, then the selected benchmark's share if there is one). Reads
 * the samples again (an empty timeline when that fails).
 */
void bt_selection_slices(struct bt_selection *sel, size_t nbins, long func,
			 struct bt_slices *out);
void bt_slices_release(struct bt_slices *sl);

/* The symbols of function fi's module, opened on first use; NULL if unavailable. */
struct bt_msyms *bt_selection_func_syms(struct bt_selection *sel, size_t fi);
/* Function fi's module. */
const struct bt_module *bt_selection_func_module(const struct bt_selection *sel,
						 size_t fi);
/* The recording of the selection's session. */
struct bt_profile *bt_selection_profile(const struct bt_selection *sel);

/* The symbols of module mi, opening it on first use; NULL if unavailable. */
struct bt_msyms *bt_session_syms(struct bt_session *s, uint32_t mi);
/* Module mi's file's modification time (0 unknown), to spot newer sources. */
int64_t bt_session_module_mtime(const struct bt_session *s, uint32_t mi);
/* The source files read so far, read on first use. */
struct bt_srccache *bt_session_srccache(const struct bt_session *s);

#endif
