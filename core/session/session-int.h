/*
 * The session's insides, for core/session only: the recording's modules
 * with their symbols (opened on first use), and each selection's function
 * table, call graph and annotations. The stages above read sessions and
 * selections through benchtui/session.h, benchtui/selection.h and
 * session/query.h.
 */
#ifndef BENCHTUI_SESSION_INT_H
#define BENCHTUI_SESSION_INT_H

#include "annotate/annotate.h"
#include "base.h"
#include "benchtui/selection.h"
#include "benchtui/session.h"
#include "profile/profile.h"
#include "session/query.h"

struct bt_msyms;
struct bt_srccache;
struct bt_disasm;
struct bt_annotation;
struct bt_v8_tables;

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
	struct bt_v8_tables *v8;	/* node: V8's builtin tables (jit.c), NULL: none */
	bool v8_tried;
};

/* A function of a selection: the public part plus where its hits are. */
struct bt_sfunc {
	struct bt_func pub;
	size_t hit_lo, hit_hi;		/* [lo, hi) in sel->hits */
	struct bt_annotation *ann[3];	/* per syntax, and AT&T without source
					   lines (bt_selection_code); on demand */
	bool located;			/* pub.file/line looked up */
};

/*
 * A selection's call graph (callgraph.c): the interned chains of the
 * selected samples with their counts, each location's function, and the
 * caller and callee lists of every function (grouped by function).
 */
struct bt_cgraph {
	BT_VEC(struct bt_hist_entry) counts;	/* off: chain id */
	long *locfunc;			/* per location: function, -1 none, -2 not yet */
	uint32_t *locinl;		/* per location: its inline frames in inl[] (+1), 0 none */
	BT_VEC(long) inl;		/* runs: count, then functions innermost first */
	size_t nlocs;
	size_t nfuncs;			/* functions when the lists were built */
	struct bt_func_edge *callers, *callees;
	size_t *caller_start, *callee_start;	/* per function: [start[i], start[i + 1]) */
	struct bt_func_edge *entries;	/* callers of each function's outermost frame */
	size_t *entry_start;
	long kfunc;			/* the [kernel] function, -1 */
};

/* A cache slot of the session or a selection: what a later stage keeps there. */
struct bt_cache_slot {
	void *data;
	void (*release)(void *data);
};

/* Put data in the slot, releasing what it held through its own hook. */
static inline void
bt_cache_slot_set(struct bt_cache_slot *slot, void *data, void (*release)(void *data))
{
	if (slot->data != NULL && slot->release != NULL)
		slot->release(slot->data);
	slot->data = data;
	slot->release = release;
}

/**
 * struct bt_selection - one choice of samples (benchtui/selection.h)
 * @o: the options as asked, the event resolved to its name
 * @attr: the event's index
 * @win_from, @win_to: the window used, seconds from the first sample
 * @win_lo, @win_hi: the same in the recording's clock: [lo, hi)
 * @hits: the samples by (module, link-time address), sorted
 * @funcs: hottest first, then the functions looked up with no samples
 * @counts: the benchmarks with their samples in this event (bench.c)
 * @tasks: when the samples were read again, each thread's under each
 *         name: (0, task, name) (profile/tasks.h); @rescanned says so
 */
struct bt_selection {
	struct bt_session *s;
	unsigned refs;
	struct bt_selection *next;	/* the session's live selections */
	struct bt_selection_opts o;
	int attr;
	double win_from, win_to;
	uint64_t win_lo, win_hi;
	uint64_t samples, period;
	BT_VEC(struct bt_hit) hits;
	BT_VEC(struct bt_sfunc) funcs;
	struct bt_cgraph cg;
	const struct bt_bench_counts *counts;
	BT_VEC(struct bt_hist_entry) tasks;
	bool rescanned;
	struct bt_cache_slot cache[BT_SEL_CACHE_COUNT];
};

struct bt_session {
	struct bt_profile *p;
	struct bt_session_opts o;
	struct bt_smod *mods;		/* parallel to p->modules */
	BT_VEC(char *) notes;
	bool noted;			/* the recording's own notes are in */
	size_t chains_note_at;		/* where the note on chains goes (deferred) */
	struct bt_strpool pool;		/* names, files: live as long as the session */
	struct bt_srccache *src;
	struct bt_disasm *dis[8][2];	/* by arch, syntax */
	struct bt_ksyms *ksyms;		/* kernel names (kernel.c) */
	bool ksyms_tried;
	struct bt_cache_slot cache[BT_CACHE_COUNT];
	struct bt_benches *benches;	/* bench.c, made with the first selection */
	char *bench_frames;		/* --benchmark-frames */
	struct bt_selection *live;	/* selections alive, newest first */
	struct bt_procs *procs;		/* procs.c, made on first use */
};

/**
 * struct sel_dim - one thing that narrows a selection besides its event
 * (selection.c's table of them)
 * @check: can a selection of o be made (its benchmark exists...); -1 with
 *         err set if not
 * @scan: narrow the scan of the samples (sc's window...), and set the
 *        selection's window if it is one
 * @rescan: o asks for part of the run: the samples are read again
 * @focus: o keeps the samples whose chain passes through a function
 *         *match accepts: true with it (chains only)
 * @same: a and b ask for the same samples in this dimension
 */
struct sel_dim {
	int (*check)(struct bt_session *s, int attr, const struct bt_selection_opts *o,
		     struct bt_error *err);
	void (*scan)(struct bt_selection *sel, struct bt_scan *sc);
	bool (*rescan)(const struct bt_selection_opts *o);
	bool (*focus)(struct bt_selection *sel, bt_frame_match_fn *match, void **arg,
		      bool *exclude);
	bool (*same)(const struct bt_selection_opts *a, const struct bt_selection_opts *b);
};
/* window.c, threads.c, callgraph.c, bench-count.c */
extern const struct sel_dim bt_dim_window, bt_dim_threads, bt_dim_focus, bt_dim_bench;
/* A time window's bounds as the recording's times (window.c). */
void bt_window_bounds(const struct bt_profile *p, double from, double to, bool percent,
		      uint64_t *lo, uint64_t *hi, double *span);

/*
 * The scan that reads sel's samples again (every dimension's part set);
 * true when a dimension asks for part of the run.
 */
bool bt_selection_scan_init(struct bt_selection *sel, struct bt_scan *sc);

/* functab.c: the selection's function table */
/* Group the sorted hits into functions, hottest first (the table). */
void bt_functab_build(struct bt_selection *sel);
/* A hit from (module, offset), translated to the link-time address. */
void bt_functab_add_hit(struct bt_selection *sel, const struct bt_hist_entry *e);
/* Sort the hits by (module, address). */
void bt_functab_sort_hits(struct bt_selection *sel);
/*
 * Add a function with no samples to the end of the table; its index. Its
 * source line is looked up later (bt_selection_func_locate).
 */
size_t bt_functab_add(struct bt_selection *sel, uint32_t mi, const char *name,
		      uint64_t start, uint64_t end, enum bt_func_kind kind);
/* Take n leaves (sorted, as bt_callgraph_focus gives them) from the hits. */
void bt_functab_sub_hits(struct bt_selection *sel, const struct bt_hist_entry *e,
			 size_t n);
/* Drop the table and its annotations. */
void bt_functab_release(struct bt_selection *sel);

/* callgraph.c */
void bt_callgraph_release(struct bt_cgraph *cg);
/*
 * With a focus: keep the chains that pass through a function the focus
 * accepts; their leaves, (module, file offset, samples, period) sorted, go
 * to *leaves (malloc'ed), from which the hits are counted again. With
 * exclude, keep those that pass through none, and *leaves are the leaves
 * of the others, to take from the hits (samples without a chain stay).
 */
size_t bt_callgraph_focus(struct bt_selection *sel, bt_frame_match_fn match,
			  void *arg, bool exclude, struct bt_hist_entry **leaves);
/* Inclusive counts and caller/callee lists of the function table. */
void bt_callgraph_build(struct bt_selection *sel);

/*
 * bench.c and bench-count.c: the one place that says which samples
 * belong to a benchmark.
 */
/*
 * The benchmarks and this event's counts, for a new selection (the first
 * one makes the list): sel->counts.
 */
void bt_bench_prepare(struct bt_selection *sel);
void bt_benches_free(struct bt_benches *bs);

/* procs.c */
struct bt_procs;
void bt_procs_free(struct bt_procs *ps);

/* The decoder for m's machine in syntax, made on first use. */
struct bt_disasm *bt_session_disasm(struct bt_session *s, struct bt_msyms *m,
				    enum bt_asm_syntax syntax, struct bt_error *err);
/* Load module mi's DWARF once; false (and a note) when it has none. */
bool bt_session_dwarf(struct bt_session *s, uint32_t mi);
void bt_session_notef(struct bt_session *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The recording's own notes, after what the first selection found. */
void bt_session_recording_notes(struct bt_session *s);
/* The symbols of a JIT module: an image of its code, its line table (jit.c). */
struct bt_msyms *bt_session_jit_syms(struct bt_session *s, const struct bt_module *m,
				     struct bt_error *err);
/*
 * What the annotation of JIT module mi asks of the runtime's files
 * (bt_annotate_in.name_at, .chain_at, .bci_at, .name_arg = a struct
 * bt_jit_ask): a call target's name (the process's other JIT code, stubs
 * and builtins, else the function of the file mapped there); the inline
 * chain at an address and its innermost bytecode index (HotSpot's
 * inlining records, from the agent).
 */
struct bt_jit_ask {
	struct bt_session *s;
	uint32_t mi;
	struct jit_chains *chains;	/* built on first use */
};
const char *bt_session_jit_name_at(void *arg, uint64_t addr, uint64_t *start);
/*
 * The builtin a "call *disp(%r13)" of V8 code reaches through the
 * isolate's builtin tables ("Builtins_DeoptimizationEntry_Eager"), from
 * the node binary that made the code; NULL when not known.
 */
const char *bt_session_jit_slot_name(void *arg, int64_t disp);
/* Free a module's V8 tables (session free). */
void bt_session_v8_free(struct bt_smod *sm);
size_t bt_session_jit_chain_at(void *arg, uint64_t addr, struct bt_inline *chain,
			       size_t max);
bool bt_session_jit_bci_at(void *arg, uint64_t addr, int32_t *bci, unsigned *line);
void bt_session_jit_ask_release(struct bt_jit_ask *q);
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
/*
 * events.c: the event shown when none is asked for (the first one with
 * samples: on hybrid machines and after perf inject the first event of a
 * file is often empty), and the note that lists the events with samples.
 */
int bt_session_default_event(const struct bt_profile *p);
void bt_session_events_note(struct bt_session *s);
/* The event named event (NULL: the default); -1 with err set when none. */
int bt_session_find_event(const struct bt_profile *p, const char *event,
			  struct bt_error *err);

#endif
