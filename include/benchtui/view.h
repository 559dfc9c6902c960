/*
 * View rows: the one model that the browser paints and both exports write
 * (STYLE.md §2.3). A view is built from a selection with explicit options
 * and is rebuilt rather than patched. Its strings live in the view, or in
 * the session (function and file names, source lines), which outlives it:
 * nothing a view holds is freed with its selection or by
 * bt_selection_forget. The renderers read views only.
 */
#ifndef BENCHTUI_VIEW_H
#define BENCHTUI_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "benchtui/benchtui.h"
#include "benchtui/flame.h"
#include "benchtui/selection.h"
#include "benchtui/session.h"

enum bt_style {
	BT_STYLE_NORMAL,
	BT_STYLE_DIM,		/* no samples, or an interval that reaches zero */
	BT_STYLE_MILD,		/* some samples (>= 0.5%) */
	BT_STYLE_WARM,		/* >= 2% */
	BT_STYLE_HOT,		/* >= 10% */
	BT_STYLE_ADDR,
	BT_STYLE_SOURCE,
	BT_STYLE_INLINE,
	BT_STYLE_JUMP,
	BT_STYLE_CALL,
	BT_STYLE_COMMENT,
	BT_STYLE_GUTTER,
	BT_STYLE_TITLE,
	BT_STYLE_WARN,
	BT_STYLE_ARROW,		/* a branch arrow's lanes */
	BT_STYLE_LOOP,		/* a loop's arrow (drawn by the screen over BT_STYLE_ARROW) */
	BT_STYLE_COUNT
};

/* text is owned by the view; cells are already padded to their column */
struct bt_cell {
	const char *text;
	enum bt_style style;
};

enum bt_row_kind {
	BT_ROW_TEXT,		/* a header or note line */
	BT_ROW_FUNC,		/* hot-function table */
	BT_ROW_INSN,		/* an instruction */
	BT_ROW_SOURCE,		/* an interleaved source line */
	BT_ROW_INLINE,		/* entering an inlined function, or back from one */
	BT_ROW_LINE,		/* source view: one line of the file */
	BT_ROW_FINDING,		/* a lint finding */
	BT_ROW_SLICE,		/* timeline: a slice of the run */
	BT_ROW_FILE,		/* a file a function's code comes from */
	BT_ROW_BENCH,		/* benchmark table: a benchmark (@func its index) or (outside) */
	BT_ROW_PROC,		/* processes: a process or a thread (bt_view_procs) */
	BT_ROW_OUTPUT,		/* a line of the benchmark's output (bt_view_output) */
	BT_ROW_DTYPE,		/* a data type or a member of one (bt_view_data_types) */
	BT_ROW_FRAMES,		/* flame graph: one depth's frames (bt_view_flame) */
};

/* Row flags. */
#define BT_ROW_F_SKID_TARGET	0x01	/* the skid adjustment credits it */
#define BT_ROW_F_HOT		0x02	/* a stop for Tab / Shift-Tab */
#define BT_ROW_F_LOOP_HEAD	0x04
#define BT_ROW_F_BACK_EDGE	0x08
#define BT_ROW_F_REGION_START	0x10	/* first instruction of a hot region */
#define BT_ROW_F_CALL		0x20	/* a call: Enter opens the callee */
#define BT_ROW_F_JUMP		0x40	/* a branch inside the function */
#define BT_ROW_F_SKID_GUESS	0x80	/* its skid credit is split by guess (several predecessors) */
#define BT_ROW_F_INDIRECT	0x100	/* an indirect jump or call: no target known */
#define BT_ROW_F_BENCH		0x200	/* FINDING: a benchmark's (@insn its index) */
#define BT_ROW_F_INLINE_LEAVE	0x400	/* INLINE: back from inlined code (@ninlines left open) */
#define BT_ROW_F_INLINED	0x800	/* FUNC: a function only inlined (BT_FK_INLINE) */
#define BT_ROW_F_BCI		0x1000	/* INSN, SOURCE: @bci is known (JIT code: HotSpot) */

/**
 * struct bt_row - one row of a view, as data and as cells
 * @kind: what it is
 * @flags: BT_ROW_F_*
 * @func: FUNC rows: index in the selection; others: the function shown
 *        ((size_t)-1 for none)
 * @name, @module: FUNC and FINDING rows: the function's name and module
 *                 path (NULL for a finding about the whole run)
 * @short_name: FUNC and FINDING rows: @name as perf prints it (a C++ name
 *              without return type and parameters; other names whole)
 * @detail: the whole of what the row's cells show shortened (a C++ name
 *          without its parameters, a call's target), for a status line;
 *          NULL when the cells show everything
 * @label: FINDING rows: the check ("empty-loop")
 * @insn: INSN rows: instruction index in the annotation
 * @addr: INSN: link-time address; FUNC: start address
 * @size: INSN: length in bytes
 * @samples, @period, @adjusted: raw counts and skid-adjusted samples
 * @percent, @adjusted_percent: of the function or of all samples (opts)
 * @ci_lo, @ci_hi: 95% Wilson interval of @percent
 * @weight: the primary number (what sorting, heat and Tab use)
 * @file, @line: source location (INSN: innermost; SOURCE, LINE: the line)
 * @bci: INSN, SOURCE rows with BT_ROW_F_BCI: the bytecode index of @line's
 *       method there (HotSpot: the innermost frame's, perfasm's
 *       "java.lang.Integer::valueOf@23 (line 1081)"); a method's bytecode
 *       is shorter than 65536 bytes (JVMS 4.7.3), so 16 bits, in what
 *       was padding
 * @text: the instruction, source or note text without columns
 * @target: branch or call target address (has_target)
 * @target_name: "sym+0xoff" of the target, NULL if unknown
 * @target_row: row index of a branch target in this view, -1 if none
 * @mem_target: address of a PC-relative memory operand (has_mem_target)
 * @mem_name: the symbol there ("sink", "table+0x8"), NULL if none
 * @dtype: INSN rows: the data type its memory operand reaches (DWARF), NULL
 *         if unknown
 * @region: hot region index (0 is the hottest), -1 if none
 * @t_from, @t_to: TIMELINE rows: the slice, in seconds from the first sample
 * @sub_samples: TIMELINE rows: the function's samples in the slice
 * @loop_depth: loops around the instruction
 * @inlines, @ninlines: INSN rows: the instruction's inline chain,
 *                     outermost first (llvm-symbolizer --inlines' frames
 *                     but the innermost, in reverse); INLINE rows: the
 *                     chain the row enters or goes back to
 * @calls: FUNC rows of a recording with call chains: inclusive samples,
 *         callers and callees; NULL otherwise
 * @ncells, @cells: the row as the screen and the text export show it
 *
 * Kept small (fields by size, no holes; what only the function table uses
 * behind @calls; @target and @mem_target, which only instruction rows
 * have, share their bytes with @t_from, @t_to and @sub_samples, which
 * only SLICE, PROC and OUTPUT rows have): a 30,000-instruction function
 * is 50,000 rows, written once in fresh memory; a switch of 100,000
 * cases 600,000.
 */
/**
 * struct bt_row_inline - one inlined call of a row's inline chain
 * @name: the inlined function, whole (demangled)
 * @call_file, @call_line: its call site (NULL, 0: unknown)
 * @call_bci: the call's bytecode index in the caller (JIT code: HotSpot),
 *	only with @has_bci
 */
struct bt_row_inline {
	const char *name;
	const char *call_file;
	unsigned call_line;
	int32_t call_bci;
	bool has_bci;
};

/**
 * struct bt_row_dtype - what a load or store reaches, as perf annotate
 * --data-type says it: "struct point +8 (y)"
 * @type: "struct point", "class ns::Shape", "union u"
 * @member: the member path at @offset ("b.x", "[2].y"), NULL if no one member
 * @var: the variable or parameter its base register holds ("p", "this")
 * @offset: from the start of the object
 * @text: "struct point +8 (y)", as the row's cells show it
 * @accesses, @naccesses: the data types screen's rows (bt_view_data_types):
 *                        the instructions that reach it, the hottest
 *                        first ("chase+0x14  add 0x8(%rdi),%rax (5); ..."),
 *                        and how many there are
 */
struct bt_row_dtype {
	const char *type, *member, *var;
	int64_t offset;
	const char *text;
	const char *accesses;
	size_t naccesses;
};

/**
 * struct bt_row_edge - FUNC rows: a caller or callee (DESIGN.md §6)
 * @func: its index in the selection
 * @samples, @percent: as struct bt_func_edge
 */
struct bt_row_edge {
	size_t func;
	const char *name, *module;
	uint64_t samples;
	double percent;
};

/**
 * struct bt_row_calls - a FUNC row's call graph (DESIGN.md §6)
 * @inclusive, @inclusive_percent: samples with the function on the stack
 * @callers, @callees: edges, @ncallers and @ncallees of them
 */
struct bt_row_calls {
	uint64_t inclusive;
	double inclusive_percent;
	const struct bt_row_edge *callers, *callees;
	size_t ncallers, ncallees;
};

struct bt_row {
	enum bt_row_kind kind;
	unsigned flags;
	size_t func;
	const char *name, *module, *label;
	const char *short_name;
	const char *detail;
	size_t insn;
	uint64_t addr;
	uint64_t samples, period;
	double adjusted;
	double percent, adjusted_percent;
	double ci_lo, ci_hi;
	double weight;
	const char *file;
	const char *text;
	const char *target_name;
	const char *mem_name;
	union {
		struct {	/* INSN rows */
			uint64_t target;
			uint64_t mem_target;
		};
		struct {	/* SLICE, PROC and OUTPUT rows */
			double t_from, t_to;
			uint64_t sub_samples;
		};
	};
	const struct bt_row_calls *calls;
	const struct bt_row_inline *inlines;
	const struct bt_row_dtype *dtype;
	const struct bt_cell *cells;
	uint32_t ncells;
	int32_t target_row;
	unsigned size;
	unsigned line;
	int region;
	int loop_depth;
	unsigned ninlines;
	uint16_t bci;
	bool has_target;
	bool has_mem_target;
};

/*
 * BT_NUM_PER_OP: the cost per operation of the selected benchmark (JMH's
 * "norm"): each instruction's period over the benchmark's iterations,
 * ns per op (cpu-clock, task-clock) or cycles per op (cycles); only
 * where bt_selection_per_op() is true.
 */
enum bt_numcol { BT_NUM_PERCENT, BT_NUM_SAMPLES, BT_NUM_PERIOD, BT_NUM_PER_OP };
#define BT_NUM_COUNT 4

/*
 * How names are shown: as perf and pprof print C++ names (no return type,
 * no parameters: "ns::Acc<int>::add"), that with template arguments folded
 * ("ns::Acc<…>::add"), or whole ("int ns::Acc<int>::add(int) const").
 * Names that are not C++ (C, Go, JIT frames) are always whole.
 */
enum bt_names { BT_NAMES_SHORT, BT_NAMES_FOLDED, BT_NAMES_FULL };

/**
 * struct bt_view_opts - how to show it (the browser's toggles)
 * @num: the number columns: percent (with samples), samples, or period
 * @skid: skid-adjusted attribution is the primary column
 * @global_percent: percent of all samples instead of the function's
 * @source: interleave source lines and inline markers
 * @addresses: absolute addresses instead of offsets in the function
 * @syntax: AT&T or Intel assembly
 * @names: how function names are shown (enum bt_names)
 * @compact: for narrow screens: no second number column (skid-adjusted or
 *           raw) and no ±95% column; source and inline rows indented less
 * @filter: hot-function table: only functions whose name contains it, in
 *          any of the forms of enum bt_names (NULL: all)
 * @module: hot-function table: only the functions of this module (its
 *          path; NULL: all)
 * @locate: hot-function table: look up every row's source file and line
 *          (exports), not only the hot rows' (the first screen)
 * @children: hot-function table: ordered by inclusive samples (perf's
 *            --children) instead of self samples
 * @width: the screen's columns: the benchmark table drops its columns of
 *         least priority until it fits (0: no limit, as exports)
 * @whole_names: no name cut to fit a column (exports to a file, which a
 *               tool reads whole); otherwise long names are cut in their
 *               middle, never so that two rows read the same
 * @text_width: the columns of a text report (--stdio) when no screen sets
 *              @width: the function table's and findings' names and the
 *              header's hot path fit in it, as on a screen that wide, and
 *              nothing else changes (0: names whole)
 */
struct bt_view_opts {
	enum bt_numcol num;
	bool skid;
	bool global_percent;
	bool source;
	bool addresses;
	enum bt_asm_syntax syntax;
	enum bt_names names;
	bool compact;
	const char *filter;
	const char *module;
	bool locate;
	bool children;
	size_t width;
	bool whole_names;
	size_t text_width;
};

/*
 * The defaults: percent, raw, local percent, source on, absolute addresses,
 * AT&T, perf's short names, every column.
 */
BT_API void bt_view_opts_init(struct bt_view_opts *o);

struct bt_view;

/* The run's header lines ("command: ./bench", "event: cpu-clock"...). */
BT_API struct bt_view *bt_view_header(struct bt_selection *sel);
/*
 * The same, its "hot path: " line in o's width (bt_view_opts.width, else
 * .text_width; none with whole_names or o NULL): each name folded or cut
 * to fit, then the callers after the first, then the functions between
 * the first and the last, elided ("…"). The summary's hot_path stays
 * whole.
 */
BT_API struct bt_view *bt_view_header_opts(struct bt_selection *sel,
					   const struct bt_view_opts *o);

/**
 * struct bt_view_summary - the run, as the header view's fields
 * @command: the command line as one string; @argv, @argc the benchmark's
 *           own argv when the recording has it (argc 0 otherwise)
 * @event, @frequency, @event_note: the event shown (@frequency 0: by period)
 * @samples: in the event and window shown; @lost, @throttled: of the run
 * @windowed: a time window is chosen: [@win_from, @win_to) seconds
 * @threads: the processes and threads chosen ("pid 4242, 4243; tid 4244;
 *           comm java"), NULL when every one is; @pid/@npid, @tid/@ntid
 *           and @comm/@ncomm the same
 * @has_status: @exit_code (a shell's: 128 + signal when killed) and
 *              @signal (0 if none) are known; @status says it in words
 * @nfindings: lint findings for this event and window, with (for the whole
 *              run) every benchmark's: the rows of bt_view_lint
 * @benchmark: the selected benchmark's name (benchtui/bench.h), NULL none;
 *             @bench_time its time per operation as printed (or NULL);
 *             @bench_by_chain its samples are those through its code (else
 *             its window's)
 * @scope: what the selection is, for a header ("BM_sum/8", "pid 4242",
 *         "window 1.000-2.000 s", joined by ", "), NULL for the whole run
 * @has_span: @span is the selection's own duration in seconds (its
 *            benchmark's or time window, its processes' first to last
 *            sample); false for the whole run's or when not known (a
 *            benchmark found by its call chains)
 * @notes, @nnotes: what is missing or degraded
 * @hot_path: with call chains, the hottest functions and on whose behalf
 *            they ran ("leaf 72.4% from caller_three 74%, caller_one 26%;
 *            __memmove_avx512_unaligned_erms (libc.so.6) 27.2% for copier
 *            100%"), else NULL
 */
struct bt_view_summary {
	const char *command;
	const char *const *argv;
	size_t argc;
	const char *event;
	const char *event_group;	/* its group "{a,b}" (perf evlist -g), or NULL */
	unsigned frequency;
	const char *event_note;
	uint64_t samples, lost, throttled;
	double duration;
	bool windowed;
	double win_from, win_to;
	const char *threads;
	const uint32_t *pid, *tid;
	size_t npid, ntid;
	const char (*comm)[BT_COMM_LEN];
	size_t ncomm;
	bool has_status;
	int exit_code, signal;
	bool interrupted;
	const char *status;
	size_t nfindings;
	const char *benchmark, *bench_time;
	bool bench_by_chain;
	const char *scope;
	bool has_span;
	double span;
	const char *const *notes;
	size_t nnotes;
	const char *hot_path;
};
/* The summary of a header view (NULL for other views). */
BT_API const struct bt_view_summary *bt_view_summary(const struct bt_view *v);
/* The hot-function table, hottest first; max 0 for all. */
BT_API struct bt_view *bt_view_functions(struct bt_selection *sel,
					 const struct bt_view_opts *o, size_t max);
/* The annotated function. NULL with err set when it has no code. */
BT_API struct bt_view *bt_view_annotate(struct bt_selection *sel, size_t func,
					const struct bt_view_opts *o,
					struct bt_error *err);
/*
 * The same view for an export to write once, in order: every field as
 * bt_view_annotate's (regions, notes, arrows, hot order: from the
 * annotation), but its rows made as they are read, a window of a few
 * thousand at a time in the same memory: bt_view_row's row is valid
 * until the next call, and a function of 100,000 cases does not hold
 * its rows at once. The view reads its selection's annotation: it
 * holds a reference to the selection; free it before
 * bt_selection_forget of func.
 */
BT_API struct bt_view *bt_view_annotate_stream(struct bt_selection *sel, size_t func,
					       const struct bt_view_opts *o,
					       struct bt_error *err);
/*
 * The same view for a browser, which reads a screen's rows at a time,
 * anywhere: its rows made as they are asked for, a window of a few
 * hundred instructions' at a time, the last four windows kept (a screen's
 * rows and where their jumps land): bt_view_row's row stays valid until
 * rows of four other windows have been asked for since; a walk over every
 * row uses each as it goes. bt_view_find_addr finds a row with none
 * made. A function of 30,000 instructions holds ~1 MB of rows, not ~20.
 * As bt_view_annotate_stream's, it holds a reference to the selection.
 */
BT_API struct bt_view *bt_view_annotate_lazy(struct bt_selection *sel, size_t func,
					     const struct bt_view_opts *o,
					     struct bt_error *err);
/*
 * The benchmark table (benchtui/bench.h): one BT_ROW_BENCH row a
 * benchmark (name, time/op and ± as printed, how many times as slow as
 * the fastest, iterations, samples, share of the run, hottest function,
 * worst finding: @label the check, @detail its message), in the order
 * printed or fastest first, then "(outside)" (@func (size_t)-1).
 */
BT_API struct bt_view *bt_view_benches(struct bt_selection *sel,
				       const struct bt_view_opts *o,
				       bool fastest_first);
/*
 * The processes and threads of the selection's samples (perf report
 * --sort comm,pid): one BT_ROW_PROC row a process (@label "process",
 * @func its index for bt_session_proc(), @addr its pid, @name its comm),
 * hottest first, then its threads under each name they had (@label
 * "thread", @insn the thread's index in the process, @line its tid,
 * @name the name), hottest first; @samples, @percent of the selection's,
 * @t_from and @t_to the first and last sample's time in the whole run.
 */
/*
 * The flame (icicle) view of f from frame zoom (the root: 0) down: one
 * row a depth (zoom's the first), each frame a bar as wide as its share of
 * zoom's samples of the width (bt_view_opts' width, else text_width, else
 * 100), its name cut to fit; frames under a column are left out. The
 * path from zoom through cur, then on through each frame's hottest child,
 * is the rows' own frame: row->func, name, samples, detail (the whole
 * name and share, for the status line) and insn, the index of its cell.
 */
BT_API struct bt_view *bt_view_flame(struct bt_selection *sel, const struct bt_flame *f,
				     size_t zoom, size_t cur, const struct bt_view_opts *o);
BT_API struct bt_view *bt_view_procs(struct bt_selection *sel,
				     const struct bt_view_opts *o);
/*
 * The data types the selection's loads and stores reach (perf annotate
 * --data-type's summary): per type (@label "type"), then its members
 * (@label "member"), hottest first: BT_ROW_DTYPE rows, @dtype the type
 * and member, @func and @addr the hottest instruction. From the
 * annotations of every sampled function.
 */
BT_API struct bt_view *bt_view_data_types(struct bt_selection *sel,
					  const struct bt_view_opts *o,
					  struct bt_error *err);
/*
 * Benchmarks a and b side by side: the time ratio in the title, then
 * their hot functions (BT_ROW_FUNC, @func (size_t)-1) with a's share
 * (@percent), b's (@adjusted_percent) and the difference.
 */
BT_API struct bt_view *bt_view_bench_compare(struct bt_selection *sel, size_t a,
					     size_t b, const struct bt_view_opts *o);
/*
 * The unit to write after b's time_text when the harness printed it
 * without one (tinybench's "Latency avg (ns)" column: "4301.5"): " ns",
 * " µs", " ms" or " s" as its time_ns says; "" when the text has its
 * unit or none is known.
 */
struct bt_bench;
BT_API const char *bt_bench_time_unit(const struct bt_bench *b);

/*
 * The benchmark's recorded output, a BT_ROW_OUTPUT row a line: @line its
 * line of standard output (from 1, as the harness parser counts; 0 for
 * standard error), @label "stdout" or "stderr", @t_from its time into the
 * run (s), @text what a terminal showed of it, escaped (bt_text_safe);
 * a result line of the harness has @func its benchmark's index and
 * @target_name its name (else @func (size_t)-1).
 */
BT_API struct bt_view *bt_view_output(struct bt_selection *sel);
/*
 * Function name (in module) as selections x and y ran it (two
 * benchmarks, say): one row an instruction, x's share of the function's
 * samples in x (@percent), y's (@adjusted_percent), the difference, the
 * address and the instruction. NULL with err set when either has no
 * samples in it.
 */
BT_API struct bt_view *bt_view_compare_func(struct bt_selection *x,
					    struct bt_selection *y,
					    const char *name, const char *module,
					    const struct bt_view_opts *o,
					    struct bt_error *err);
/*
 * Callers and callees of function func (DESIGN.md §6): a text row, the
 * callers (FUNC rows, label "caller", percent of func's inclusive
 * samples), func itself (label "function"), a text row, the callees
 * (label "callee"); with addr (a link-time address in func), then the
 * entry stacks of that instruction (label "stack": the call paths of its
 * samples, text "caller <- caller's caller ...", percent of its samples).
 */
BT_API struct bt_view *bt_view_callers(struct bt_selection *sel, size_t func,
				       const uint64_t *addr,
				       const struct bt_view_opts *o);
/*
 * The lint findings (benchtui/lint.h), one row each: "check  percent
 * function  message"; the function's name fits its column (40) when o
 * sets a width (bt_view_opts.width or .text_width) without whole names
 * (o NULL: whole).
 */
BT_API struct bt_view *bt_view_findings(struct bt_selection *sel,
					const struct bt_view_opts *o);
/*
 * What L shows: the selection's findings, then, for the whole run of a
 * recording with benchmarks, every benchmark's (bt_bench_summary), each a
 * row flagged BT_ROW_F_BENCH with @insn the benchmark's index and @detail
 * its name. The header's count (bt_view_summary.nfindings) is its rows.
 */
BT_API struct bt_view *bt_view_lint(struct bt_selection *sel,
				    const struct bt_view_opts *o);
/*
 * The timeline: the run cut into nbins slices of time, one row each, with
 * the slice's samples as a bar and, for func >= 0, that function's share of
 * the slice. Rows in [mark_from, mark_to] (slice indexes, -1 none) are
 * marked. Uses every sample of the event, whatever the window.
 */
BT_API struct bt_view *bt_view_timeline(struct bt_selection *sel, long func,
					size_t nbins, long mark_from, long mark_to);
/*
 * A source file of the function with per-line totals: file is one its code
 * comes from (its own, or a header inlined into it: an instruction counts
 * for its line in file, however deep the inlining), NULL for the
 * function's own file.
 */
BT_API struct bt_view *bt_view_source(struct bt_selection *sel, size_t func,
				      const char *file,
				      const struct bt_view_opts *o,
				      struct bt_error *err);
/*
 * The files the function's code comes from, one BT_ROW_FILE row each
 * (@file, @samples, @percent of the function: the instructions that have
 * a line in it), its own file first, then hottest first.
 */
BT_API struct bt_view *bt_view_files(struct bt_selection *sel, size_t func,
				     const struct bt_view_opts *o,
				     struct bt_error *err);
BT_API void bt_view_free(struct bt_view *v);

BT_API size_t bt_view_nrows(const struct bt_view *v);
BT_API const struct bt_row *bt_view_row(const struct bt_view *v, size_t i);
/* The column headings, as one row of cells aligned with the rows. */
BT_API const struct bt_row *bt_view_columns(const struct bt_view *v);
/* A title: "divchain  split  97.92% of 2057 samples", "skid.c  (source of divchain)" ... */
BT_API const char *bt_view_title(const struct bt_view *v);
/*
 * The part of the title a narrow screen may shorten (the function's name):
 * bytes [*start, *start + *len) of bt_view_title(); *len 0 when none.
 */
BT_API void bt_view_title_span(const struct bt_view *v, size_t *start, size_t *len);
/**
 * struct bt_view_func - the function a view shows (annotation, source,
 * timeline of one function)
 */
struct bt_view_func {
	size_t index;
	const char *name, *short_name, *module, *module_name;
	uint64_t address;
	uint64_t samples;
	double percent;
};
/* The function, NULL for a view of no one function. */
BT_API const struct bt_view_func *bt_view_func(const struct bt_view *v);

/**
 * struct bt_view_region - a hot region of an annotation (perfasm), with the
 * share of the function's (or all, --percent global) samples it holds
 * @start, @end: addresses [start, end)
 * @samples, @adjusted: raw and skid-adjusted samples
 * @percent, @adjusted_percent: the same as percent
 * @closes_loop: its last branch jumps back into it
 * @period: the period of its samples
 * @per_op: its cost per operation in the view's per-op unit
 *          (bt_view_per_op), NAN when not known
 */
struct bt_view_region {
	uint64_t start, end;
	uint64_t samples;
	double adjusted;
	double percent, adjusted_percent;
	bool closes_loop;
	uint64_t period;
	double per_op;
};
/* An annotation's hot regions, hottest first; *regions owned by the view. */
BT_API size_t bt_view_regions(const struct bt_view *v,
			      const struct bt_view_region **regions);
/*
 * The screen column (counted in characters from the row's start) where the
 * branch arrows' lanes of an annotation start (bt_view_lanes); -1 if none.
 */
BT_API long bt_view_arrow_col(const struct bt_view *v);

#define BT_ARROW_LOOP	0x01	/* closes a loop: its jumps are CFG back edges */
#define BT_ARROW_FOLDED	0x02	/* shares the outermost lane: too many for the width */

/**
 * struct bt_arrow - an annotation's branch arrow: the jumps inside the
 * function to one row, of one kind (closing a loop or not), drawn as one
 * line in one lane (docs/browser.md "Branch arrows")
 * @target: the row they land on
 * @first, @last: the rows it spans (the target and every jump to it)
 * @lane: 0 next to the text, then outward
 * @flags: BT_ARROW_*
 */
struct bt_arrow {
	long target, first, last;
	int lane;
	unsigned flags;
};
/* An annotation's arrows (*arrows owned by the view); 0 for other views. */
BT_API size_t bt_view_arrows(const struct bt_view *v, const struct bt_arrow **arrows);
/* The arrow of row i's jump, -1 when it has none. */
BT_API long bt_view_row_arrow(const struct bt_view *v, size_t i);

#define BT_LANE_UP	0x01	/* lines from the column's middle: up */
#define BT_LANE_DOWN	0x02
#define BT_LANE_LEFT	0x04
#define BT_LANE_RIGHT	0x08
#define BT_LANE_HEAD	0x10	/* the arrowhead, next to the target's text */
#define BT_LANE_FOLDED	0x20	/* a line of several arrows (BT_ARROW_FOLDED) */

/**
 * struct bt_lane - one column of a row's lanes, as the row's lanes cell
 * shows it in ASCII (| - / \ + > and : for a folded lane)
 * @mask: BT_LANE_*
 * @vert: the arrow whose line runs down it, -1
 * @horiz: the arrow whose line runs across it (the outermost), -1
 */
struct bt_lane {
	unsigned char mask;
	int vert, horiz;
};
/*
 * Row i's lane columns, from bt_view_arrow_col() rightward, the last the
 * arrowheads'; NULL (*n 0) when the view has no arrows. Drawn when asked
 * (a view keeps no lanes for every row): valid until the next call for
 * the view.
 */
BT_API const struct bt_lane *bt_view_lanes(const struct bt_view *v, size_t i,
					   size_t *n);
/* A lane column's ASCII character, as the lanes cell has it. */
BT_API char bt_lane_ascii(unsigned mask);

/**
 * struct bt_per_op - what a sample's period is worth per operation of the
 * selected benchmark (core/view/view-perop.c, docs/browser.md "Cost per
 * operation")
 * @unit: "ns" (cpu-clock, task-clock: a period is ns) or "cycles"
 * @scale: per-op units for one unit of period: @fraction / @iterations
 * @ns_scale: ns per op for one unit of period (cycles: at @mhz), 0 unknown
 * @iterations: the benchmark's iterations (operations) as the harness
 *              printed them, or as @iterations_from says
 * @iterations_from: NULL: printed; else how they were found ("its
 *                   measured time over its score": JMH's Cnt counts
 *                   measurement iterations, not operations)
 * @fraction: the share of the selection's samples that the run whose
 *            time is printed measured (1: every sample of its window, the
 *            harness's estimation runs too)
 * @run_known: @fraction is that run's, not 1 for want of knowing
 * @total: the selection's whole period per op, in @unit
 * @total_ns: the same in ns (NAN unknown)
 * @harness_ns: the harness's own time per op (NAN none)
 * @cpu_ns: the harness's CPU time per op (GB's CPU column; NAN none)
 * @mhz: the recording's measured clock (0 unknown)
 * @items_per_op: items (GB's SetItemsProcessed: the rate times the CPU
 *                time per op) per op, the trip count of a loop over
 *                them; NAN unknown
 * @bench: the benchmark's name
 * @why: when it is not known, why (for a status line)
 */
struct bt_per_op {
	const char *unit;
	double scale, ns_scale;
	double iterations, fraction;
	const char *iterations_from;
	bool run_known;
	double total, total_ns;
	double harness_ns, cpu_ns;
	double mhz;
	double items_per_op;
	const char *bench;
	char why[200];
};
/* The decimals a cost per op is printed with: 4 digits, never an exponent. */
static inline int
bt_per_op_decimals(double x)
{
	return x >= 1000 ? 0 : x >= 100 ? 1 : x >= 10 ? 2 : 3;
}
/* The selection's cost per operation; false with out->why set when none. */
BT_API bool bt_selection_per_op(struct bt_selection *sel, struct bt_per_op *out);
/*
 * Predicted vs measured (X): the function's hottest innermost loops, each
 * a title row, llvm-mca's prediction and the measured cycles per
 * iteration as text rows (a finding where they disagree by 2x, style
 * BT_STYLE_WARN), then its instructions (BT_ROW_INSN: @percent of the
 * loop's samples, llvm-mca's uops, latency, throughput, pressure and
 * busiest resource in the cells). Runs llvm-mca (a child process); where
 * it is missing or cannot apply, rows and notes say so. NULL with err set
 * when the function has no code.
 */
BT_API struct bt_view *bt_view_mca(struct bt_selection *sel, size_t func,
				   const struct bt_view_opts *o, struct bt_error *err);
/**
 * struct bt_view_loop - one loop of bt_view_mca, as data
 * @start, @end: its addresses, [start, end); @ninsns: its instructions
 * @percent: its share of the function's samples
 * @cpu: the -mcpu llvm-mca ran with; NULL when it did not run, and
 *       @not_predicted says why (a call in it, no llvm-mca, its error)
 * @cycles_per_iter, @block_rthroughput, @ipc, @bottleneck: llvm-mca's
 *                   prediction (NAN, NULL when none)
 * @cycles_per_op: measured, per op of the selected benchmark (NAN unknown)
 * @iterations_per_op: its trip count per op (the harness's items), NAN unknown
 * @measured_per_iter: measured cycles per iteration (NAN unknown)
 * @ratio: @measured_per_iter over @cycles_per_iter (NAN unknown)
 * @finding: the finding where they differ by 2x, NULL none
 * @branches: its branches other than its back edges (exits, inner jumps)
 * @npredicted: the instructions given to llvm-mca (@ninsns, or its hot path's)
 * @path: the hot path predicted instead of the whole body, its address
 *        ranges ("4b10-4b2c, 4b40-4b58"); NULL: the whole body
 * @path_note: what the prediction is of when the loop branches inside, NULL none
 */
struct bt_view_loop {
	uint64_t start, end;
	size_t ninsns;
	double percent;
	const char *cpu, *not_predicted;
	double cycles_per_iter, block_rthroughput, ipc;
	const char *bottleneck;
	double cycles_per_op, iterations_per_op, measured_per_iter, ratio;
	const char *finding;
	size_t branches, npredicted;
	const char *path, *path_note;
};
/* bt_view_mca's loops, in its order; *loops owned by the view. */
BT_API size_t bt_view_loops(const struct bt_view *v, const struct bt_view_loop **loops);
/**
 * struct bt_view_pred - llvm-mca's model of one instruction (bt_view_mca)
 * @uops, @latency, @rthroughput: its "Instruction Info"
 * @pressure: its resource pressure per iteration, all resources
 * @resource: the one it presses most ("Zn3ALU1"), "" none
 */
struct bt_view_pred {
	unsigned uops;
	double latency, rthroughput, pressure;
	const char *resource;
};
/* Row row's prediction in a bt_view_mca view; NULL when none. */
BT_API const struct bt_view_pred *bt_view_pred(const struct bt_view *v, size_t row);
/* The per-op scale an annotation was built with (BT_NUM_PER_OP or not); NULL: none. */
BT_API const struct bt_per_op *bt_view_per_op(const struct bt_view *v);

/* Notes about the view ("no source lines: no debug info for 'x'"). */
BT_API size_t bt_view_nnotes(const struct bt_view *v);
BT_API const char *bt_view_note(const struct bt_view *v, size_t i);
/* Row of the instruction containing addr, or of the file line; -1 if none. */
BT_API long bt_view_find_addr(const struct bt_view *v, uint64_t addr);
BT_API long bt_view_find_line(const struct bt_view *v, unsigned line);

/*
 * Rows with a non-zero primary number, hottest first (Tab, Shift-Tab and
 * H walk this order, as in perf annotate). *rows is owned by the view.
 */
BT_API size_t bt_view_hot(const struct bt_view *v, const size_t **rows);


#endif
