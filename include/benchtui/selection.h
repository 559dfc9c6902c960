/*
 * A selection: what one choice of event, time window, processes or
 * threads, benchmark and focus gives of a session's recording (DESIGN.md §10): the hot-function table,
 * its call graph, the lint findings and the benchmarks' counts, computed
 * once when it is made. A selection is a value: it never changes after
 * bt_selection_new (what it looks up on first use, a function's source
 * line or annotation, it keeps), any number of them live side by side,
 * and views, lint, exports and the browser read one, never "the
 * session's current" one, for there is none.
 *
 * Functions are numbered within a selection (hottest first); across
 * selections a function is (module, start): bt_func.mod and bt_func.start,
 * found again with bt_selection_func_find().
 */
#ifndef BENCHTUI_SELECTION_H
#define BENCHTUI_SELECTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "benchtui/benchtui.h"
#include "benchtui/session.h"

struct bt_selection;

enum bt_func_kind {
	BT_FK_SYMBOL,		/* from the symbol table */
	BT_FK_STRIPPED,		/* bounds from .eh_frame (no symbol) */
	BT_FK_GUESSED,		/* bounds from the sampled range itself */
	BT_FK_KERNEL,		/* all kernel samples */
	BT_FK_UNKNOWN,		/* samples outside any known mapping */
	BT_FK_INLINE,		/* a function inlined into others: a frame of call
				   chains with no code of its own (no self samples,
				   no address range) */
};

/**
 * struct bt_func - one row of the hot-function table
 * @name: demangled symbol, or "module+0xaddr" for stripped code
 * @module: path of its module; @module_name: its basename
 * @mod: its module's index in the recording: (@mod, @start) names the
 *       function in every selection of the session
 * @start, @end: link-time address range ("what objdump -d prints")
 * @samples, @period: in the selection
 * @percent: of all samples of the selection
 * @file, @line: source location of its first instruction, NULL/0 if unknown
 *               or not looked up yet (see bt_selection_func_locate)
 * @can_annotate: its code bytes are available
 * @inclusive: samples whose call chain passes through it, counted once per
 *             sample however often it recurs (perf's "Children"); equal
 *             to @samples when the recording has no call chains
 * @inclusive_percent: of all samples of the selection
 */
struct bt_func {
	const char *name;
	const char *module, *module_name;
	uint32_t mod;
	uint64_t start, end;
	uint64_t samples, period;
	double percent;
	const char *file;
	unsigned line;
	enum bt_func_kind kind;
	bool can_annotate;
	uint64_t inclusive;
	double inclusive_percent;
};

/*
 * A focus keeps only the samples whose call chain passes through a
 * function match() accepts (a benchmark's entry frame: DESIGN.md §7).
 * match is called once per function of the selection (not per sample)
 * with the function's table entry; each distinct call chain is then
 * classified once.
 */
typedef bool (*bt_frame_match_fn)(const struct bt_func *f, void *arg);
/* A ready-made match: arg is a NULL-terminated array of names (bt_selection_find's rules, tier 0-1). */
BT_API bool bt_frame_match_names(const struct bt_func *f, void *arg);

/**
 * struct bt_selection_opts - which samples a selection holds
 * @event: event name; NULL for the session's default event (the first
 *         with samples)
 * @time_from, @time_to: keep samples in [from, to) seconds of the run;
 *                       negative: unbounded
 * @time_percent: from/to are percent of the run instead of seconds
 * @bench: only benchmark @bench's samples (benchtui/bench.h), -1 all
 * @focus, @focus_arg: only the samples whose chain passes through a
 *                     function @focus accepts (NULL: every sample);
 *                     needs call chains
 * @pid, @npid: only the samples of these processes (perf report --pid),
 *              @npid 0: of every one
 * @tid, @ntid: only the samples of these threads (--tid), 0: every one
 * @comm, @ncomm: only the samples of threads named one of these at the
 *                sample's time (perf report --comms: a thread's name
 *                changes at an exec or a prctl), 0: every one
 */
#define BT_SELECTION_MAX_THREADS 16
#define BT_COMM_LEN 16		/* a thread's name, NUL included (the kernel's TASK_COMM_LEN) */
struct bt_selection_opts {
	const char *event;
	double time_from, time_to;
	bool time_percent;
	long bench;
	bt_frame_match_fn focus;
	void *focus_arg;
	uint32_t pid[BT_SELECTION_MAX_THREADS], tid[BT_SELECTION_MAX_THREADS];
	size_t npid, ntid;
	char comm[BT_SELECTION_MAX_THREADS][BT_COMM_LEN];
	size_t ncomm;
};

/* The whole run of the default event: no window, no benchmark, no focus. */
BT_API void bt_selection_opts_init(struct bt_selection_opts *o);

/*
 * The selection o describes, computed now (it reads the recording again
 * for a window or a benchmark; nothing it answers later does). The
 * session keeps the selections that are alive: asking again for one that
 * is gives the same selection, with one more reference. NULL with err
 * set for an event the recording does not have, a benchmark with no
 * samples of its own, a focus without call chains.
 */
BT_API struct bt_selection *bt_selection_new(struct bt_session *s,
					     const struct bt_selection_opts *o,
					     struct bt_error *err);
/* One more reference to sel (each bt_selection_new or _ref needs a _free). */
BT_API struct bt_selection *bt_selection_ref(struct bt_selection *sel);
/* Drop a reference; the last one frees the selection. NULL is fine. */
BT_API void bt_selection_free(struct bt_selection *sel);

BT_API struct bt_session *bt_selection_session(const struct bt_selection *sel);
/* The options as resolved: @event is the event's name, never NULL. */
BT_API const struct bt_selection_opts *bt_selection_opts(const struct bt_selection *sel);
/* The event shown and the samples/period selected. */
BT_API const char *bt_selection_event(const struct bt_selection *sel);
BT_API uint64_t bt_selection_samples(const struct bt_selection *sel);
BT_API uint64_t bt_selection_period(const struct bt_selection *sel);
/* A time window was asked for. */
BT_API bool bt_selection_windowed(const struct bt_selection *sel);
/* The window actually used, in seconds from the first sample. */
BT_API void bt_selection_window(const struct bt_selection *sel, double *from,
				double *to);

/* Functions, hottest first. */
BT_API size_t bt_selection_nfuncs(const struct bt_selection *sel);
BT_API const struct bt_func *bt_selection_func(const struct bt_selection *sel,
					       size_t i);
/*
 * Look up a function's file and line if that was not done yet: with all,
 * always (exports); else only for a hot row (the first 30, or 0.5% of the
 * samples) or a module whose debug info is loaded anyway, so that a
 * library's debug info is not loaded for a function with a few samples.
 * The table calls it for the rows it shows, when it shows sources.
 */
BT_API void bt_selection_func_locate(struct bt_selection *sel, size_t i, bool all);
/*
 * Drop function i's cached annotations (an export of thousands of
 * functions is done with each one after writing it).
 */
BT_API void bt_selection_forget(struct bt_selection *sel, size_t i);
/*
 * Index of the function named name: its whole name, else the name as perf
 * prints it (no return type, no parameters: "ns::Acc<int>::add"), else a
 * prefix of either; the first of these that some function matches decides.
 * -1 when none does, -2 when several do (bt_selection_find_error says which).
 */
BT_API long bt_selection_find(const struct bt_selection *sel, const char *name);
/* The functions name matches, as bt_selection_find; idx[0..max) gets the first. */
BT_API size_t bt_selection_find_all(const struct bt_selection *sel, const char *name,
				    size_t *idx, size_t max);
/* Why name finds no one function, for a message (malloc'ed). */
BT_API char *bt_selection_find_error(const struct bt_selection *sel, const char *name);
/* The index of the function (mod, start) in the table, -1 when it is not there. */
BT_API long bt_selection_func_find(const struct bt_selection *sel, uint32_t mod,
				   uint64_t start);
/*
 * The function containing addr in module mod (a function with no extent:
 * the one starting there), added to the end of the table with no samples
 * if the selection has none there (so that a screen about it can stay on
 * it in a selection where it did not run: the one thing a selection adds
 * after it is made); -1 when no symbol covers addr. Pointers from
 * bt_selection_func() may move.
 */
BT_API long bt_selection_func_at(struct bt_selection *sel, uint32_t mod,
				 uint64_t addr);

/*
 * Call chains (DESIGN.md §6, docs/callchains.md): with them (perf -g,
 * --call-graph dwarf, benchtui's default: bt_session_has_chains), every
 * function a chain passes through is in the table (with 0 self samples if
 * need be), with its inclusive samples.
 */

/**
 * struct bt_func_edge - a caller or callee of a function
 * @func: its index in the selection
 * @samples: callers: samples of the function's inclusive total that came
 *           through this caller; callees: samples of the function's
 *           inclusive total spent in this callee (each once per sample)
 * @percent: of the function's inclusive samples
 */
struct bt_func_edge {
	size_t func;
	uint64_t samples;
	double percent;
};

/*
 * The callers / callees of function fi, hottest first (*e owned by the
 * selection). Each sample through fi counts once for one caller, the
 * caller of fi's innermost frame (perf report --children -g callee's
 * first level: a recursive fib is its own caller), and once for each
 * function fi called on its chain (fib -> fib, and build -> malloc below
 * a recursive build: a recursive function's callees overlap).
 */
BT_API size_t bt_selection_callers(const struct bt_selection *sel, size_t fi,
				   const struct bt_func_edge **e);
BT_API size_t bt_selection_callees(const struct bt_selection *sel, size_t fi,
				   const struct bt_func_edge **e);
/*
 * Who entered fi: the callers of its outermost frame (main for a
 * recursive fib; the callers above for a function never on its own chain
 * twice), as bt_selection_callers gives them.
 */
BT_API size_t bt_selection_entry_callers(const struct bt_selection *sel, size_t fi,
					 const struct bt_func_edge **e);
/*
 * On whose behalf function fi ran: for each sample in it (its self
 * samples), the first function of the chain outside fi's module (the
 * kernel and unknown frames skipped), hottest first, percent of fi's self
 * samples; *e malloc'ed. For a library function (memcpy), the benchmark's
 * function that called it, however deep inside the library the call went.
 */
BT_API size_t bt_selection_outside_callers(const struct bt_selection *sel,
					   size_t fi, struct bt_func_edge **e);

/**
 * struct bt_stack - one call path whose samples landed on an instruction
 *                   (Tracy's "entry stacks")
 * @funcs: function indexes, the sampled function first, then its caller...
 * @nfuncs: how many
 * @samples: samples on the instruction with this path
 */
struct bt_stack {
	const size_t *funcs;
	size_t nfuncs;
	uint64_t samples;
};
/*
 * The call paths of the samples at link-time address addr of function fi,
 * hottest first, into a malloc'ed array (*out, freed with free(); the
 * funcs arrays live in the same block). Returns how many.
 */
BT_API size_t bt_selection_stacks(struct bt_selection *sel, size_t fi,
				  uint64_t addr, struct bt_stack **out);
/*
 * Every call path of the selection's samples (as bt_selection_stacks, of
 * every instruction): the flame graph's. 0 without call chains.
 */
BT_API size_t bt_selection_chains(struct bt_selection *sel, struct bt_stack **out);

/*
 * Every sample of a selection as profile exporters want it (pprof:
 * docs/formats.md): grouped by (call chain, thread, benchmark), each
 * address once, symbolised with its inline chain.
 */

/**
 * struct bt_sample_line - one frame of an address's inline chain
 * @func: the function, demangled as the table names it (the innermost
 *        frame of inlined code: the inlined function)
 * @system_name: its symbol as in the ELF (mangled), else @func
 * @func_file, @func_line: where the function starts, NULL/0 unknown
 * @file, @line, @column: the source line (and column) of the address in
 *                        this frame (a frame outside the innermost: its
 *                        call site), NULL/0 unknown
 */
struct bt_sample_line {
	const char *func, *system_name;
	const char *func_file;
	unsigned func_line;
	const char *file;
	unsigned line, column;
};

/**
 * struct bt_sample_loc - one address samples or their chains hold
 * @mod: its module (bt_sample_set.mods' index)
 * @addr: its link-time address (a caller's: the call instruction's last
 *        byte, the return address less one, as perf and pprof take it)
 * @off: its offset in the module's file
 * @inl, @nlines: its inline chain, innermost first (the function that
 *                  holds it last); @nlines 0: no symbol covers it
 */
struct bt_sample_loc {
	uint32_t mod;
	uint64_t addr, off;
	const struct bt_sample_line *inl;
	size_t nlines;
};

/**
 * struct bt_sample_mod - a module a location is in
 * @path: its file as recorded ("[kernel]", a JIT piece's name...)
 * @build_id: hex, "" when none
 * @lo, @hi, @off: its locations' lowest and highest+1 link-time address
 *                 and the file offset of @lo
 * @has_functions, @has_lines, @has_inlines: its symbols, its DWARF's lines
 *                                           and inline frames were read
 */
struct bt_sample_mod {
	const char *path;
	char build_id[41];
	uint64_t lo, hi, off;
	bool has_functions, has_lines, has_inlines;
};

/**
 * struct bt_sample_group - the samples of one call chain in one thread
 * @locs, @nlocs: the chain, leaf first (indices into bt_sample_set.locs;
 *                the leaf alone without call chains)
 * @pid, @tid: the thread
 * @bench: the benchmark whose samples they are, -1 none
 * @untimed: of its samples, those while its timer was off (its probes
 *           tell: bt_bench.untimed_samples), else measured
 * @rep: the result line (bt_selection_bench_runs' index) whose run they
 *       are, when known (probes), else -1
 */
struct bt_sample_group {
	const uint32_t *locs;
	size_t nlocs;
	uint32_t pid, tid;
	long bench, rep;
	bool untimed;
	uint64_t samples, period;
};

struct bt_sample_set {
	struct bt_sample_group *groups;
	size_t ngroups;
	struct bt_sample_loc *locs;
	size_t nlocs;
	struct bt_sample_mod *mods;
	size_t nmods;
	void *priv;
};

/*
 * The selection's samples by (chain, thread, benchmark): read again
 * (once, and once more per benchmark when benches is true and the
 * selection is not one benchmark's; from memory, not the file, when the
 * profile was opened with bt_profile_open_kept). Returns 0 or -BT_E*
 * with err set; release with bt_sample_set_release.
 */
BT_API int bt_selection_sample_set(struct bt_selection *sel, bool benches,
				   struct bt_sample_set *out, struct bt_error *err);
BT_API void bt_sample_set_release(struct bt_sample_set *set);
/*
 * The location of link-time address addr of module mod in set, added
 * (symbolised) when it has none: its index in set->locs (which may move).
 */
BT_API uint32_t bt_sample_set_loc(struct bt_selection *sel, struct bt_sample_set *set,
				  uint32_t mod, uint64_t addr);

/**
 * struct bt_time_part - a time window of a selection's samples for
 * bt_selection_split: [from, to) seconds of the run, or percent of it
 */
struct bt_time_part {
	double from, to;
	bool percent;
};

/*
 * sel's samples cut by each of n time windows, read once (benchtui diff's
 * repetitions and time slices): part k holds what a selection of sel's
 * options with that time window holds. period[k * nfuncs + f]: the period
 * of function f of sel's table in part k (nfuncs: bt_selection_nfuncs
 * now), total[k]: of all its samples. *period malloc'ed. Returns 0 or
 * -BT_E* with err set.
 */
BT_API int bt_selection_split(struct bt_selection *sel, const struct bt_time_part *parts,
			      size_t n, uint64_t **period, uint64_t *total,
			      struct bt_error *err);
/*
 * The same over n equal time slices of the span of sel's own samples,
 * its first to its last (a benchmark told apart by its entry frame: its
 * samples are not one window of the run); read twice. Parts of no
 * samples: total 0.
 */
BT_API int bt_selection_split_span(struct bt_selection *sel, size_t n, uint64_t **period,
				   uint64_t *total, struct bt_error *err);

#endif
