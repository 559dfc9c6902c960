/*
 * The browser's insides: a stack of screens, each a mode with its own ops
 * table in its own file (screen-*.c), as tmux's window modes sit on
 * mode-tree.c. browse.c holds what every screen shares (moving, searching,
 * toggles, the stack); nothing in it switches on a screen's kind.
 */
#ifndef BENCHTUI_BROWSE_INT_H
#define BENCHTUI_BROWSE_INT_H

#include "base.h"
#include "benchtui/browse.h"
#include "benchtui/view.h"

struct bt_browser;
struct screen;

/*
 * A stable key for the row under the cursor, to find it again after a
 * rebuild: an instruction by address, a source line by number, a function
 * by index, anything else by row.
 */
struct anchor {
	enum bt_row_kind kind;
	uint64_t addr;
	unsigned line;
	size_t func;
	size_t row;
};

/**
 * struct screen_ops - one screen (mode)
 * @kind: what bt_browser_screen() says
 * @build: the view of sc with the browser's options; NULL with err set
 * @enter: Enter (and Right) on the cursor row
 * @subject: the function the screen is about or the cursor is on, -1 none
 *           (what S, T and the export name use)
 * @anchor: what the cursor row stands for (NULL: the row itself)
 * @export_name: the default file name for E, without ".txt"
 * @hint: the keys that matter here, for the status line
 */
struct screen_ops {
	enum bt_screen_kind kind;
	struct bt_view *(*build)(struct bt_browser *b, const struct screen *sc,
				 struct bt_error *err);
	void (*enter)(struct bt_browser *b, struct screen *sc, size_t height);
	long (*subject)(const struct bt_browser *b, const struct screen *sc);
	struct anchor (*anchor)(const struct screen *sc);
	char *(*export_name)(const struct bt_browser *b, const struct screen *sc);
	const char *hint;
};

/**
 * struct screen - a mode on the stack, its view and position
 * @func: the function it shows (annotate, source), or the timeline's
 *        (-1 none)
 * @file: the source view's file (NULL: the function's own), owned
 * @jumps: positions before followed jumps (Left goes back through them)
 * @nbins, @mark_from, @mark_to: the timeline's slices and marks (-1 none);
 *        a comparison's two benchmarks
 * @name, @module: the function a comparison shows (owned), NULL none
 */
struct screen {
	const struct screen_ops *ops;
	long func;
	char *file;
	struct bt_view *view;
	struct bt_nav nav;
	BT_VEC(struct bt_nav) jumps;
	size_t nbins;
	long mark_from, mark_to;
	bool has_addr;		/* the callers screen: entry stacks of addr */
	uint64_t addr;
	char *name, *module;
};

struct bt_browser {
	struct bt_selection *sel;	/* what every screen shows (a reference) */
	struct bt_view_opts o;
	BT_VEC(struct screen) stack;
	char *search;
	bool search_back;
	char *filter;
	char *module;		/* d: the function list's module (path), owned */
	bool columns_chosen;	/* w was pressed: the width no longer decides */
	long bench_mark;	/* m: the benchmark marked for a comparison, -1 none */
	char status[512];
};

extern const struct screen_ops screen_funcs, screen_annotate, screen_source,
    screen_lint, screen_timeline, screen_files, screen_benches, screen_compare,
    screen_compare_func, screen_callers;

/* Push the comparison of benchmarks x and y (screen-compare.c). */
struct screen *browse_push_compare(struct bt_browser *b, long x, long y, size_t height);
/* m on the benchmark table (screen-benches.c). */
void browse_bench_mark(struct bt_browser *b, struct screen *sc);
/* T on it: select the benchmark under the cursor (false: none there). */
bool browse_bench_timeline(struct bt_browser *b, struct screen *sc);

/*
 * Show the samples o selects from now on (the screens are rebuilt by the
 * caller); on error nothing changes.
 */
struct bt_selection_opts;
int browse_select(struct bt_browser *b, const struct bt_selection_opts *o,
		  struct bt_error *err);
/* The same, another benchmark (-1: none) with the same event and window. */
int browse_select_bench(struct bt_browser *b, long bi, struct bt_error *err);

/* Narrower screens than this get the compact columns (bt_view_opts.compact). */
#define BROWSE_COMPACT_BELOW 100

/* Push a new screen of ops for func; builds its view. NULL (status set) on failure. */
struct screen *browse_push(struct bt_browser *b, const struct screen_ops *ops,
			   long func, size_t height);
/* The same, for a screen about one file of the function (source view). */
struct screen *browse_push_file(struct bt_browser *b, const struct screen_ops *ops,
				long func, const char *file, size_t height);
/* The same, for a screen about one instruction of the function (entry stacks). */
struct screen *browse_push_addr(struct bt_browser *b, const struct screen_ops *ops,
				long func, uint64_t addr, size_t height);
/*
 * C: the callers/callees screen of the function the screen is about or the
 * cursor is on; on an instruction of an annotation, with its entry stacks
 * (screen-callers.c).
 */
void browse_callers(struct bt_browser *b, struct screen *sc, size_t height);
/* Keep the cursor on screen; center it when it had to move far. */
void browse_show_cursor(struct bt_nav *n, size_t nrows, size_t height);
/* Cursor on the hottest row of the view (the first in its hot order). */
void browse_cursor_hottest(struct bt_nav *n, const struct bt_view *v, size_t height);
/* Rebuild sc's view with the current options, the cursor on the same row. */
void browse_rebuild(struct bt_browser *b, struct screen *sc, size_t height);
/* Leave the top screen (the first one stays). */
void browse_pop(struct bt_browser *b);
/*
 * Open the source view of func on file (NULL: its own), on line if not 0,
 * else on the hottest line. When the screen under the top one is that
 * source view already (S, Enter, S...), go back to it instead: the
 * history does not grow with every round trip.
 */
void browse_open_source(struct bt_browser *b, long func, const char *file,
			unsigned line, size_t height);
/*
 * S on row `row` of view v, a screen about func: the source view of func's
 * own file, on the line that row's code counts for there (the hottest
 * line when it is no code); the status line says when that code comes
 * from another file.
 */
void browse_source_of_row(struct bt_browser *b, long func, const struct bt_view *v,
			  size_t row, size_t height);
/*
 * The export name of screen sc's function: its name (perf's short form),
 * made safe for a file name, then suffix.
 */
char *browse_func_file_name(const struct bt_browser *b, const struct screen *sc,
			    const char *suffix);
/*
 * Use the samples in [from, to) seconds of the run (whole: -1, -1), from
 * the timeline: it closes, and every screen under it stays on its
 * function and row.
 */
void browse_select_window(struct bt_browser *b, double from, double to,
			  size_t height);

#endif
