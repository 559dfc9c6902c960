/*
 * The session's insides, for the stages after it (lint, view, browse):
 * the function table of the current selection (event and time window),
 * each module's symbols opened on first use, and each function's
 * annotation built on first use.
 */
#ifndef BENCHTUI_SESSION_INT_H
#define BENCHTUI_SESSION_INT_H

#include "annotate/annotate.h"
#include "base.h"
#include "benchtui/session.h"
#include "profile/profile.h"

struct bt_msyms;
struct bt_srccache;
struct bt_disasm;
struct bt_annotation;

struct bt_range {
	uint64_t start, end;
};

/* Per module of the profile: its symbols, opened on first use. */
struct bt_smod {
	struct bt_msyms *syms;	/* NULL: not openable (see note) */
	bool tried;
	bool dwarf_checked;	/* bt_session_dwarf() ran */
	bool no_dwarf;		/* opened, but no line info */
	char *name;		/* basename */
	void *image;		/* vDSO image, owned */
	size_t image_len;
	int64_t mtime;		/* of the file, to spot newer sources */
	BT_VEC(struct bt_range) guessed;	/* functions guessed from samples */
	bool guessed_done;
};

/* A function of the table: the public part plus where its hits are. */
struct bt_sfunc {
	struct bt_func pub;
	uint32_t module;
	size_t hit_lo, hit_hi;		/* [lo, hi) in s->hits */
	struct bt_annotation *ann[3];	/* per syntax, and AT&T without source
					   lines (bt_session_code); on demand */
	bool located;			/* pub.file/line looked up */
};

/*
 * Caches that later stages keep per selection (lint's findings): the
 * session frees them with their own release function when the selection
 * changes, without knowing what they hold.
 */
enum bt_session_cache {
	BT_CACHE_LINT,
	BT_CACHE_SELECTION,	/* the slots above are per selection; those below outlive one */
	BT_CACHE_BENCH = BT_CACHE_SELECTION,	/* every benchmark's summary (per event) */
	BT_CACHE_COUNT
};

/*
 * The selection's call graph (callgraph.c): the interned chains of the
 * selected samples with their counts, each location's function, and the
 * caller and callee lists of every function (grouped by function).
 */
struct bt_callgraph {
	BT_VEC(struct bt_hist_entry) counts;	/* off: chain id */
	long *locfunc;			/* per location: function, -1 none, -2 not yet */
	uint32_t *locinl;		/* per location: its inline frames in inl[] (+1), 0 none */
	BT_VEC(long) inl;		/* runs: count, then functions innermost first */
	size_t nlocs;
	size_t nfuncs;			/* functions when the lists were built */
	struct bt_func_edge *callers, *callees;
	size_t *caller_start, *callee_start;	/* per function: [start[i], start[i + 1]) */
	long kfunc;			/* the [kernel] function, -1 */
};

struct bt_session {
	struct bt_profile *p;
	struct bt_session_opts o;
	int attr;
	double win_from, win_to;	/* seconds from the first sample */
	uint64_t samples, period;

	struct bt_smod *mods;		/* parallel to p->modules */
	BT_VEC(struct bt_hit) hits;	/* sorted by (module, addr) */
	BT_VEC(struct bt_sfunc) funcs;	/* hottest first */
	BT_VEC(char *) notes;
	struct bt_strpool pool;		/* names, files: live as long as the session */
	struct bt_srccache *src;
	struct bt_disasm *dis[8][2];	/* by arch, syntax */
	struct bt_ksyms *ksyms;		/* kernel names (kernel.c) */
	bool ksyms_tried;
	struct {
		void *data;
		void (*release)(void *data);
	} cache[BT_CACHE_COUNT];
	uint64_t win_lo, win_hi;	/* the selection's samples: [lo, hi) of the clock */
	struct bt_benches *benches;	/* bench.c, made on first use */
	long bench;			/* the selected benchmark, -1 none */
	struct bt_callgraph cg;
	bt_frame_match_fn focus;	/* NULL: every sample */
	void *focus_arg;
};

/* callgraph.c */
void bt_callgraph_release(struct bt_callgraph *cg);
/*
 * With a focus: keep the chains that pass through a function the focus
 * accepts; their leaves, (module, file offset, samples, period) sorted, go
 * to *leaves (malloc'ed), from which the hits are counted again.
 */
size_t bt_callgraph_focus(struct bt_session *s, bt_frame_match_fn match,
			  void *arg, struct bt_hist_entry **leaves);
/* Inclusive counts and caller/callee lists of the current function table. */
void bt_callgraph_build(struct bt_session *s);

/*
 * The one place that says which samples belong to the selected benchmark
 * (bench.c): narrows sc to them. Today a time window; with call chains,
 * the chain's passing through the benchmark's entry frame.
 */
struct bt_scan;
void bt_bench_scan(struct bt_session *s, struct bt_scan *sc);
/*
 * With call chains, the selected benchmark's samples are those whose chain
 * passes through its entry frame: true with the matcher to focus on.
 */
bool bt_bench_focus(struct bt_session *s, bt_frame_match_fn *match, void **arg);
/*
 * The selected benchmark's samples in each of nbins slices of the run
 * (mine[], zeroed by the caller): false when none is selected.
 */
bool bt_bench_slices(struct bt_session *s, size_t nbins, uint64_t *mine);
void bt_benches_free(struct bt_benches *bs);

/*
 * The annotation of function fi in syntax, built on first use (owned by
 * the session until bt_session_forget or a new selection).
 */
struct bt_annotation *bt_session_annotation(struct bt_session *s, size_t fi,
					    enum bt_asm_syntax syntax,
					    struct bt_error *err);
/*
 * Function fi's code as the lint reads it (instructions, loops, skid):
 * its AT&T annotation if one was built, else one without source lines,
 * which reads no debug info. NULL when it has no code.
 */
struct bt_annotation *bt_session_code(struct bt_session *s, size_t fi);
/*
 * The function containing addr in module mi (a function with no extent:
 * the one starting there), added to the end of the table with no samples
 * if the selection has none there; -1 when no symbol covers addr.
 * Indexes survive nothing but this: a new selection renumbers the table,
 * and (mi, start) is how a function is found again.
 */
long bt_session_func_at(struct bt_session *s, uint32_t mi, uint64_t addr);
/*
 * Add a function with no samples to the end of the table; its index. Its
 * source line is looked up later (bt_session_func_locate).
 */
size_t bt_session_add_func(struct bt_session *s, uint32_t mi, const char *name,
			   uint64_t start, uint64_t end, enum bt_func_kind kind);
/* The module index of function fi. */
uint32_t bt_session_func_module(const struct bt_session *s, size_t fi);
/* The time window in the recording's clock: [*lo, *hi). */
void bt_session_window_clock(const struct bt_session *s, uint64_t *lo, uint64_t *hi);

/* The decoder for m's machine in syntax, made on first use. */
struct bt_disasm *bt_session_disasm(struct bt_session *s, struct bt_msyms *m,
				    enum bt_asm_syntax syntax, struct bt_error *err);
/* The symbols of module mi, opening it on first use; NULL if unavailable. */
struct bt_msyms *bt_session_syms(struct bt_session *s, uint32_t mi);
/* The symbols of a JIT module: an image of its code, its line table (jit.c). */
struct bt_msyms *bt_session_jit_syms(const struct bt_module *m,
				     struct bt_error *err);
/*
 * buildid-cache.c: found (the module's file as recorded, NULL when it
 * could not be opened, why says why) when it has the recorded build-id, else the copy
 * in perf's build-id cache (found is freed, a note says so), else found.
 */
struct bt_msyms *bt_session_syms_cached(struct bt_session *s, uint32_t mi,
					struct bt_msyms *found, const char *why);
/*
 * kernel.c: the kernel function holding addr (name borrowed from the
 * session), from this machine's /proc/kallsyms when the recording's
 * kernel is this one; false otherwise (kernel samples stay one bucket,
 * and a note says why).
 */
bool bt_session_kernel_func(struct bt_session *s, uint64_t addr,
			    const char **name, uint64_t *start, uint64_t *end);
/* Load module mi's DWARF once; false (and a note) when it has none. */
bool bt_session_dwarf(struct bt_session *s, uint32_t mi);
void bt_session_notef(struct bt_session *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * events.c: the event shown when none is asked for (the first one with
 * samples: on hybrid machines and after perf inject the first event of a
 * file is often empty), and the note that lists the events with samples.
 */
int bt_session_default_event(const struct bt_profile *p);
void bt_session_events_note(struct bt_session *s);

/* A per-selection cache slot: get it, or set it with its release function. */
void *bt_session_cache(const struct bt_session *s, enum bt_session_cache which);
void bt_session_set_cache(struct bt_session *s, enum bt_session_cache which,
			  void *data, void (*release)(void *data));

#endif
