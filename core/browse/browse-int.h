/*
 * The browser's insides: a stack of screens, each a mode in its own file
 * (screen-*.c) with an ops table and data of its own, as tmux's window
 * modes (window-tree.c, window-buffer.c on mode-tree.c) each have a struct
 * window_mode and their state behind wme->data. The screen on top takes
 * every action first (its action hook); then comes what every screen
 * shares (browse.c: the stack, toggles, back; browse-move.c: moving and
 * searching in a view) and, for an action neither took, the screen that
 * answers it from anywhere (L opens the lint screen). Nothing in browse.c,
 * nor in the TUI, tests which screen is on top. browse-select.c keeps
 * every screen's place across a new event or time window. Adding a
 * screen: docs/architecture.md, "Adding a screen".
 */
#ifndef BENCHTUI_BROWSE_INT_H
#define BENCHTUI_BROWSE_INT_H

#include "base.h"
#include "pattern.h"
#include "benchtui/browse.h"
#include "benchtui/view.h"

struct bt_browser;
struct screen;

/*
 * A stable key for the row under the cursor, to find it again after a
 * rebuild or in another selection: an instruction by address, a source
 * line by number, a function by its module and start (@module, @addr:
 * the same function in every selection of the session), anything else
 * by row.
 */
struct anchor {
	enum bt_row_kind kind;
	uint64_t addr;
	unsigned line;
	const char *module;
	size_t row;
};

/* An action only some screens take, and what it says on the others. */
struct screen_key {
	enum bt_action action;
	const char *elsewhere;
};

/**
 * struct screen_ops - one screen (mode)
 * @name: what bt_browser_screen() says ("annotate")
 * @init: set sc->data up from what its opener passed to browse_push (arg);
 *        NULL: the screen keeps nothing of its own
 * @free: free sc->data
 * @build: the view of sc with the browser's options; NULL with err set
 * @enter: Enter (and Right) on the cursor row (there is one)
 * @action: what an action means on this screen, asked before what every
 *          screen shares; text is what was typed at its prompt (NULL when
 *          none). Returns true when that is all the action does
 * @prompt: the label of the prompt action a opens here; NULL: the common
 *          one ("/" and "?" search)
 * @subject: the function the screen is about or the cursor is on, -1 none
 *           (what S, T, C, d and the export name use)
 * @anchor: what the cursor row stands for (NULL: the row itself)
 * @export_name: the default file name for E, without ".txt"
 * @title_note: what the title adds, into buf (NULL: nothing)
 * @scope: what the header names instead of the selection's own scope,
 *         into buf (NULL: the selection's)
 * @pane: the pane below its rows (NULL: none), see bt_browser_pane()
 * @opens: the action this screen answers on every screen that does not
 *         take it itself (L opens the lint screen), BT_ACT_NONE: none;
 *         @open does it, from the screen on top
 * @keys: actions only this screen takes, with what they say elsewhere
 *        (ended by BT_ACT_NONE; NULL: none)
 * @hint: the keys that matter here, for the status line
 * @func_list: it holds the function list (the filter and d's zoom are its)
 * @whole_run: it shows every benchmark: back on it, every sample again
 */
struct screen_ops {
	const char *name;
	void (*init)(struct screen *sc, const void *arg, size_t height);
	void (*free)(struct screen *sc);
	struct bt_view *(*build)(struct bt_browser *b, const struct screen *sc,
				 struct bt_error *err);
	void (*enter)(struct bt_browser *b, struct screen *sc, size_t height);
	bool (*action)(struct bt_browser *b, struct screen *sc, enum bt_action a,
		       const char *text, size_t height);
	const char *(*prompt)(const struct bt_browser *b, const struct screen *sc,
			      enum bt_action a);
	long (*subject)(const struct bt_browser *b, const struct screen *sc);
	struct anchor (*anchor)(const struct screen *sc);
	char *(*export_name)(const struct bt_browser *b, const struct screen *sc);
	void (*title_note)(const struct bt_browser *b, const struct screen *sc,
			   char *buf, size_t len);
	void (*scope)(const struct bt_browser *b, const struct screen *sc,
		      char *buf, size_t len);
	bool (*pane)(const struct bt_browser *b, const struct screen *sc,
		     struct bt_pane *p);
	enum bt_action opens;
	void (*open)(struct bt_browser *b, struct screen *from, size_t height);
	const struct screen_key *keys;
	const char *hint;
	bool func_list;
	bool whole_run;
};

/*
 * Every screen: screen-*.c defines `const struct screen_ops screen_NAME`,
 * and one X(NAME) line here registers it (docs/architecture.md, "Adding a
 * screen"). The order is the order in which the screens are asked about an
 * action none on top took.
 */
#define BROWSE_SCREENS(X)	\
	X(benches)		\
	X(funcs)		\
	X(annotate)		\
	X(source)		\
	X(files)		\
	X(lint)			\
	X(timeline)		\
	X(callers)		\
	X(compare)		\
	X(compare_func)		\
	X(procs)		\
	X(mca)			\
	X(output)		\
	X(dtypes)		\
	X(diff)			\
	X(diff_funcs)		\
	X(diff_func)		\
	X(match)		\
	X(flame)		\
	/* a new screen: one more X(NAME) line above this one */

#define BROWSE_EXTERN(name) extern const struct screen_ops screen_##name;
BROWSE_SCREENS(BROWSE_EXTERN)
#undef BROWSE_EXTERN

/**
 * struct screen - a mode on the stack, its selection, view and position
 * @sel: the samples it shows (a reference): the benchmark table the whole
 *       run's, the screens above it a benchmark's
 * @func: the function it shows (annotate, source, files, callers), or the
 *        timeline's (-1 none), in @sel
 * @mod, @start: that function in any selection (bt_func.mod, .start)
 * @jumps: positions before followed jumps (Left goes back through them)
 * @data: the screen's own (ops->init, ops->free)
 */
struct screen {
	const struct screen_ops *ops;
	struct bt_selection *sel;
	long func;
	uint32_t mod;
	uint64_t start;
	struct bt_view *view;
	struct bt_nav nav;
	BT_VEC(struct bt_nav) jumps;
	void *data;
};

/*
 * @sel: the top screen's selection (a reference of its own), which a
 * screen pushed next shows too unless browse_select_bench() chose another
 */
/*
 * An annotation closed with q, kept to open again at once: function func
 * of sel (a reference) in the options it was built with. Only the large
 * ones (BROWSE_KEPT_MIN rows and up: a smaller one builds in well under
 * 5 ms), the least recently closed dropped first. A toggle, a new width
 * or the chains' arrival (a new browser) drops them all.
 */
#define BROWSE_KEPT		8
#define BROWSE_KEPT_MIN		2000
#define BROWSE_KEPT_ROWS	200000	/* rows kept at most, all together */
struct kept_view {
	struct bt_selection *sel;
	size_t func;
	struct bt_view *view;
};

struct bt_browser {
	struct bt_selection *sel;
	struct bt_view_opts o;
	BT_VEC(struct screen) stack;
	char *search;
	regex_t search_re;	/* search compiled (pattern.h), when search is set */
	bool search_back;
	char *filter;
	char *module;		/* d: the function list's module (path), owned */
	bool columns_chosen;	/* w was pressed: the width no longer decides */
	char status[512];
	struct kept_view kept[BROWSE_KEPT];	/* annotations closed, newest last */
	size_t kept_min;	/* rows to be kept (0: BROWSE_KEPT_MIN; tests set it) */
};

/*
 * Benchmark bi's samples (-1: every sample) in the top screen's event and
 * window, for the next screen pushed (b->sel); on error nothing changes.
 * browse_pop() or a failed push goes back to the top screen's.
 */
int browse_select_bench(struct bt_browser *b, long bi, struct bt_error *err);
/* b->sel is the top screen's selection again. */
void browse_select_top(struct bt_browser *b);

/* Narrower screens than this get the compact columns (bt_view_opts.compact). */
#define BROWSE_COMPACT_BELOW 100

/*
 * Push a new screen of ops for func, its data made from arg (ops->init);
 * builds its view. NULL (status set) on failure.
 */
struct screen *browse_push(struct bt_browser *b, const struct screen_ops *ops,
			   long func, const void *arg, size_t height);
/*
 * The aligned function of two builds (screen-match.c): function fa of sa
 * beside fb of sb, each benchmark's repetitions as its vectors (-1: time
 * slices), the cursor on the block that changed most.
 */
struct browse_match_arg {
	struct bt_selection *sa, *sb;
	size_t fa, fb;
	long bench_a, bench_b;
};
struct screen *browse_open_match(struct bt_browser *b, const struct browse_match_arg *arg,
				 size_t height);
/* Leave the top screen (the first one stays). */
void browse_pop(struct bt_browser *b);
/* The kept annotation of func in sel, now the caller's; NULL if none. */
struct bt_view *browse_kept_take(struct bt_browser *b, struct bt_selection *sel,
				 size_t func);
/* Drop every kept annotation. */
void browse_kept_clear(struct bt_browser *b);
/* Release a screen that is off the stack: its view, jumps and data. */
void browse_release(struct screen *sc);
/*
 * The screen depth places under the top (0: the top itself) when it is a
 * screen of ops on func, else NULL: going back to a screen rather than
 * stacking another like it (S, Enter, S...).
 */
struct screen *browse_screen_on(struct bt_browser *b, size_t depth,
				const struct screen_ops *ops, long func);
/* The screen that holds the function list (ops->func_list), else the first. */
struct screen *browse_func_list(struct bt_browser *b);
/* Keep the cursor on screen; center it when it had to move far. */
void browse_show_cursor(struct bt_nav *n, size_t nrows, size_t height);
/* Cursor on the hottest row of the view (the first in its hot order). */
void browse_cursor_hottest(struct bt_nav *n, const struct bt_view *v, size_t height);
/* What the cursor row of sc stands for (ops->anchor, else the row). */
struct anchor browse_anchor(const struct screen *sc);
/*
 * Put v in sc, the cursor on the row of a (NULL: where it was). Returns
 * whether a's row was found.
 */
bool browse_install(struct screen *sc, struct bt_view *v, const struct anchor *a,
		    size_t height);
/* Rebuild sc's view with the current options, the cursor on the same row. */
void browse_rebuild(struct bt_browser *b, struct screen *sc, size_t height);
/* Rebuild every screen's view, each cursor on its row. */
void browse_rebuild_all(struct bt_browser *b, size_t height);
/*
 * The actions that move in sc's view (cursor, pages, hot rows, regions):
 * true when act is one of those (browse-move.c).
 */
bool browse_navigate(struct bt_browser *b, struct screen *sc, enum bt_action act,
		     size_t height);

/* e: the next recorded event with samples, every screen kept (browse-select.c). */
void browse_next_event(struct bt_browser *b, size_t height);
/*
 * Use the samples in [from, to) seconds of the run (whole: -1, -1), from
 * the timeline: it closes, and every screen under it stays on its
 * function and row (browse-select.c).
 */
void browse_select_window(struct bt_browser *b, double from, double to,
			  size_t height);

/*
 * The export name of screen sc's function: its name (perf's short form),
 * made safe for a file name, then suffix.
 */
char *browse_func_file_name(const struct bt_browser *b, const struct screen *sc,
			    const char *suffix);

/* Push the comparison of benchmarks x and y (screen-compare.c). */
struct screen *browse_push_compare(struct bt_browser *b, long x, long y, size_t height);
/*
 * a on an annotation or a source view: a source line's code, a call's
 * callee; on anything else, say so (screen-annotate.c).
 */
void browse_annotate_here(struct bt_browser *b, struct screen *sc, size_t height);
/*
 * Open the source view of func on file (NULL: its own), on line if not 0,
 * else on the hottest line. When the screen under the top one is that
 * source view already (S, Enter, S...), go back to it instead: the
 * history does not grow with every round trip (screen-source.c). Returns
 * the source view, NULL (status set) when there is none.
 */
struct screen *browse_open_source(struct bt_browser *b, long func, const char *file,
				  unsigned line, size_t height);

#endif
