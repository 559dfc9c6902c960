/*
 * A session: a profile being viewed, with its symbols, its hot-function
 * table and the annotations built so far (lazily, one function at a time,
 * cached). Every view and export starts here.
 */
#ifndef BENCHTUI_SESSION_H
#define BENCHTUI_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "benchtui/benchtui.h"
#include "benchtui/profile.h"

struct bt_session;

/* Assembly syntax: annotations are built (and cached) in either. */
enum bt_asm_syntax { BT_ASM_ATT, BT_ASM_INTEL };

/**
 * struct bt_session_opts - what part of the profile to look at
 * @event: event name to show; NULL for the first event of the file
 * @time_from, @time_to: keep samples in [from, to); negative: unbounded
 * @time_percent: from/to are percent of the run instead of seconds
 * @region_threshold: an instruction with at least this percent of its
 *                    function's samples (raw or adjusted) is hot (1)
 * @region_margin: hot instructions this many cold ones apart are one region (8)
 * @no_source: read no debug info up front for source lines (--no-source):
 *             the table locates the rows it shows only when it shows
 *             sources, and call chains get no inline frames from DWARF
 *             loaded for nothing else
 */
struct bt_session_opts {
	const char *event;
	double time_from, time_to;
	bool time_percent;
	double region_threshold;
	unsigned region_margin;
	bool no_source;
};

/* The defaults: first event, whole run, regions at 1% with margin 8. */
BT_API void bt_session_opts_init(struct bt_session_opts *o);

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
 * @start, @end: link-time address range ("what objdump -d prints")
 * @samples, @period: in the chosen event and time window
 * @percent: of all samples in the window
 * @file, @line: source location of its first instruction, NULL/0 if unknown
 *               or not looked up yet (see bt_session_func_locate)
 * @can_annotate: its code bytes are available
 * @inclusive: samples whose call chain passes through it, counted once per
 *             sample however often it recurs (perf's "Children"); equal
 *             to @samples when the recording has no call chains
 * @inclusive_percent: of all samples in the window
 */
struct bt_func {
	const char *name;
	const char *module, *module_name;
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

/* Takes ownership of p (freed with the session, also on failure). */
BT_API struct bt_session *bt_session_new(struct bt_profile *p,
					 const struct bt_session_opts *o,
					 struct bt_error *err);
BT_API void bt_session_free(struct bt_session *s);

BT_API const struct bt_profile_info *bt_session_info(const struct bt_session *s);
BT_API const struct bt_session_opts *bt_session_opts(const struct bt_session *s);
/* The event shown and the samples/period in the window. */
BT_API const char *bt_session_event(const struct bt_session *s);
BT_API uint64_t bt_session_samples(const struct bt_session *s);
BT_API uint64_t bt_session_period(const struct bt_session *s);
/* The window actually used, in seconds from the first sample. */
BT_API void bt_session_window(const struct bt_session *s, double *from, double *to);

/* Functions, hottest first. */
BT_API size_t bt_session_nfuncs(const struct bt_session *s);
BT_API const struct bt_func *bt_session_func(const struct bt_session *s, size_t i);
/*
 * Look up a function's file and line if that was not done yet: with all,
 * always (exports); else only for a hot row (the first 30, or 0.5% of the
 * samples) or a module whose debug info is loaded anyway, so that a
 * library's debug info is not loaded for a function with a few samples.
 * The table calls it for the rows it shows, when it shows sources.
 */
BT_API void bt_session_func_locate(struct bt_session *s, size_t i, bool all);
/*
 * Drop function i's cached annotations (an export of thousands of
 * functions is done with each one after writing it).
 */
BT_API void bt_session_forget(struct bt_session *s, size_t i);
/*
 * Index of the function named name: its whole name, else the name as perf
 * prints it (no return type, no parameters: "ns::Acc<int>::add"), else a
 * prefix of either; the first of these that some function matches decides.
 * -1 when none does, -2 when several do (bt_session_find_error says which).
 */
BT_API long bt_session_find(const struct bt_session *s, const char *name);
/* The functions name matches, as bt_session_find; idx[0..max) gets the first. */
BT_API size_t bt_session_find_all(const struct bt_session *s, const char *name,
				  size_t *idx, size_t max);
/* Why name finds no one function, for a message (malloc'ed). */
BT_API char *bt_session_find_error(const struct bt_session *s, const char *name);
/*
 * The function containing addr in the module of function func (a call
 * target), added to the end of the table with no samples if it had none.
 * -1 when no symbol covers addr. Pointers from bt_session_func() may move.
 */
BT_API long bt_session_callee(struct bt_session *s, size_t func, uint64_t addr);
/*
 * Look at another event or time window (as in bt_session_opts; event NULL
 * is the first). The function table and annotations are rebuilt: indexes
 * and pointers from before are invalid. On error nothing changes.
 */
BT_API int bt_session_select(struct bt_session *s, const char *event,
			     double from, double to, bool percent,
			     struct bt_error *err);

/*
 * Call chains (DESIGN.md §6, docs/callchains.md). True when the recording
 * has them (perf -g, --call-graph dwarf, benchtui's default): then every
 * function a chain passes through is in the table (with 0 self samples if
 * need be), with its inclusive samples.
 */
BT_API bool bt_session_has_chains(const struct bt_session *s);

/**
 * struct bt_func_edge - a caller or callee of a function
 * @func: its index in the function table
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

/* The callers / callees of function fi, hottest first (*e owned by the session). */
BT_API size_t bt_session_callers(const struct bt_session *s, size_t fi,
				 const struct bt_func_edge **e);
BT_API size_t bt_session_callees(const struct bt_session *s, size_t fi,
				 const struct bt_func_edge **e);

/*
 * On whose behalf function fi ran: for each sample in it (its self
 * samples), the first function of the chain outside fi's module (the
 * kernel and unknown frames skipped), hottest first, percent of fi's self
 * samples; *e malloc'ed. For a library function (memcpy), the benchmark's
 * function that called it, however deep inside the library the call went.
 */
BT_API size_t bt_session_outside_callers(struct bt_session *s, size_t fi,
					 struct bt_func_edge **e);

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
BT_API size_t bt_session_stacks(struct bt_session *s, size_t fi, uint64_t addr,
				struct bt_stack **out);

/*
 * A focus: keep only the samples whose call chain passes through a function
 * match() accepts (a benchmark's entry frame: DESIGN.md §7). match is
 * called once per function of the selection (not per sample) with the
 * function's table entry; each distinct call chain is then classified
 * once. The focus holds across bt_session_select() (with the event and the
 * time window) until it is cleared with match NULL. The function table,
 * annotations and inclusive counts are rebuilt; indexes and pointers from
 * before are invalid. -BT_ENODATA when the recording has no call chains.
 */
typedef bool (*bt_frame_match_fn)(const struct bt_func *f, void *arg);
BT_API int bt_session_focus(struct bt_session *s, bt_frame_match_fn match,
			    void *arg, struct bt_error *err);
/* A ready-made match: arg is a NULL-terminated array of names (bt_session_find's rules, tier 0-1). */
BT_API bool bt_frame_match_names(const struct bt_func *f, void *arg);

/*
 * Notes on what is missing or degraded ("no debug info for '/bin/x'",
 * "'/bin/x' changed since it was recorded (build-id mismatch)").
 */
BT_API size_t bt_session_nnotes(const struct bt_session *s);
BT_API const char *bt_session_note(const struct bt_session *s, size_t i);

#endif
