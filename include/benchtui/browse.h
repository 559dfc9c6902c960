/*
 * Navigation (STYLE.md §2.3 "navigation is pure core code"): the browser's
 * state as data, and every key's effect as an action on it. The TUI maps
 * keys to actions and paints bt_browser_view() rows [top, top + height);
 * everything else happens here, where unit tests reach it without a terminal.
 */
#ifndef BENCHTUI_BROWSE_H
#define BENCHTUI_BROWSE_H

#include <stdbool.h>
#include <stddef.h>

#include "benchtui/benchtui.h"
#include "benchtui/view.h"

struct bt_selection;

enum bt_action {
	BT_ACT_NONE,
	BT_ACT_UP, BT_ACT_DOWN, BT_ACT_PAGE_UP, BT_ACT_PAGE_DOWN,
	BT_ACT_HOME, BT_ACT_END,
	BT_ACT_ENTER,		/* open function / follow jump / open callee / line -> code */
	BT_ACT_BACK,		/* previous screen or position */
	BT_ACT_QUIT,		/* q: back, or quit on the first screen */
	BT_ACT_NEXT_HOT, BT_ACT_PREV_HOT, BT_ACT_HOTTEST,
	BT_ACT_NEXT_REGION, BT_ACT_PREV_REGION,
	BT_ACT_SEARCH, BT_ACT_SEARCH_BACK,	/* / ?: text first (bt_browser_prompt) */
	BT_ACT_SEARCH_NEXT, BT_ACT_SEARCH_PREV,	/* n N: repeat the last search */
	BT_ACT_TOGGLE_SOURCE,	/* s */
	BT_ACT_SOURCE_VIEW,	/* S */
	BT_ACT_TOGGLE_SKID,	/* K */
	BT_ACT_CYCLE_NUM,	/* t */
	BT_ACT_TOGGLE_PERCENT,	/* p */
	BT_ACT_TOGGLE_SYNTAX,	/* M */
	BT_ACT_TOGGLE_ADDR,	/* o */
	BT_ACT_LINT,		/* L: the lint findings */
	BT_ACT_TIMELINE,	/* T: samples over time */
	BT_ACT_MARK_FROM,	/* [ in the timeline: the window starts at this slice */
	BT_ACT_MARK_TO,		/* ] in the timeline: ... and ends at this one */
	BT_ACT_CLEAR_WINDOW,	/* c in the timeline: the whole run again */
	BT_ACT_NEXT_EVENT,	/* e: the next recorded event */
	BT_ACT_CYCLE_NAMES,	/* W: perf's short names, templates folded, whole */
	BT_ACT_TOGGLE_COLUMNS,	/* w: every column / the compact set */
	BT_ACT_ANNOTATE,	/* a: annotate the function here (perf's a) */
	BT_ACT_ZOOM_MODULE,	/* d: the function list of this module only (perf's d) */
	BT_ACT_BENCHES,		/* B: the benchmark table (every sample again) */
	BT_ACT_MARK_BENCH,	/* m in the benchmark table: mark one to compare */
	BT_ACT_CALLERS,		/* C: callers and callees (on an instruction: its entry stacks) */
	BT_ACT_TOGGLE_CHILDREN,	/* I: the function list by inclusive / self samples */
	BT_ACT_PROCS,		/* z: the processes and threads; Enter selects one */
	BT_ACT_OUTPUT,		/* O: the benchmark's output; Enter on a result selects it */
	BT_ACT_DATA_TYPES,	/* D: samples per data type and member (perf annotate --data-type) */
	BT_ACT_MCA,		/* X: predicted (llvm-mca) vs measured, the function's hot loops */
	BT_ACT_FLAME,		/* F: the flame graph (icicle) of the selection */
	BT_ACT_COUNT
};

/**
 * struct bt_nav - position in a view
 * @top: first row on screen
 * @cursor: selected row
 * @hot: position in the view's hot order (Tab), -1 before the first Tab
 */
struct bt_nav {
	size_t top;
	size_t cursor;
	long hot;
};

struct bt_browser;

/*
 * A browser on selection sel (it keeps a reference), opening on the
 * benchmark table when the recording has the harness's results and sel
 * is no benchmark's, else on the hot-function table.
 */
BT_API struct bt_browser *bt_browser_new(struct bt_selection *sel,
					 const struct bt_view_opts *o);
BT_API void bt_browser_free(struct bt_browser *b);

/*
 * Apply an action for a screen of height rows: the screen on top takes it
 * first, as it means it there. Returns 1 when the browser should quit, 0
 * otherwise; a message for the status line may be set.
 */
BT_API int bt_browser_apply(struct bt_browser *b, enum bt_action a, size_t height);
/*
 * What action a asks to be typed first on the current screen: the label
 * of its prompt ("/", "?", "filter: " on the function list), or NULL when
 * it needs nothing. The front end shows the prompt, then hands what was
 * typed to bt_browser_apply_text ("" too: an empty filter clears it).
 * bt_browser_apply does nothing for such an action.
 */
BT_API const char *bt_browser_prompt(const struct bt_browser *b, enum bt_action a);
BT_API int bt_browser_apply_text(struct bt_browser *b, enum bt_action a,
				 const char *text, size_t height);
/* Search forward or backward for text in the rows (also sets n/N). */
BT_API bool bt_browser_search(struct bt_browser *b, const char *text,
			      bool backward, size_t height);
/*
 * Hot-function table only: keep rows whose symbol contains text, in any
 * form names are shown in ("" clears; so does Left or Esc on the table).
 */
BT_API void bt_browser_filter(struct bt_browser *b, const char *text);
/*
 * The screen is width columns wide: under 100 the views leave out the
 * columns a narrow screen cannot afford (bt_view_opts.compact), until the
 * w key chooses for itself. Rebuilds the views when that changes.
 */
BT_API void bt_browser_set_width(struct bt_browser *b, size_t width, size_t height);
/* Open the function at index func of the browser's selection. */
BT_API int bt_browser_open(struct bt_browser *b, size_t func, size_t height);
/* Put the cursor on row (a mouse click); clamps. */
BT_API void bt_browser_select(struct bt_browser *b, size_t row, size_t height);
/* Scroll by delta rows, keeping the cursor visible (mouse wheel). */
BT_API void bt_browser_scroll(struct bt_browser *b, long delta, size_t height);

/* The current screen's name: "functions", "annotate", "source", "timeline"... */
BT_API const char *bt_browser_screen(const struct bt_browser *b);
BT_API const struct bt_view *bt_browser_view(const struct bt_browser *b);
BT_API const struct bt_nav *bt_browser_nav(const struct bt_browser *b);
BT_API const struct bt_view_opts *bt_browser_opts(const struct bt_browser *b);
/* The selection the screens show now (an event, window or benchmark changes it). */
BT_API struct bt_selection *bt_browser_selection(const struct bt_browser *b);
BT_API const char *bt_browser_filter_text(const struct bt_browser *b);
/* The module the function list is zoomed into with d (its basename), NULL if none. */
BT_API const char *bt_browser_zoom(const struct bt_browser *b);
/* The keys that matter on the current screen, for an idle status line. */
BT_API const char *bt_browser_hint(const struct bt_browser *b);
/*
 * What the current screen adds to its title ("  module: libc.so.6  filter:
 * sum" on the function list), into buf; "" when nothing. Returns buf.
 */
BT_API const char *bt_browser_title_note(const struct bt_browser *b, char *buf,
					 size_t len);

/**
 * struct bt_pane - what a screen shows below its rows: the cursor row whole
 * (the lint screen: a finding's message, which the row cuts)
 * @head: the first line (the warning style)
 * @text: then this, wrapped; NULL when the cursor is on no row
 */
struct bt_pane {
	char head[1024];
	const char *text;
};
/*
 * What the header names when the current screen shows more than its
 * selection (a comparison: "BM_sum/8 vs BM_sum/64"), into buf; "" when the
 * selection's own summary says it (bt_view_summary.scope). Returns buf.
 */
BT_API const char *bt_browser_scope(const struct bt_browser *b, char *buf, size_t len);
/* Does the current screen keep a pane below its rows? Then p (if not NULL) is it. */
BT_API bool bt_browser_pane(const struct bt_browser *b, struct bt_pane *p);
/* The message for the status line after the last action, "" if none. */
BT_API const char *bt_browser_status(const struct bt_browser *b);
BT_API void bt_browser_set_status(struct bt_browser *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Default export file name for the current screen ("work_a.txt"). */
BT_API char *bt_browser_export_name(const struct bt_browser *b);
/*
 * The current screen's view again, for an export to a file (E, P): its
 * rows and options, every name whole (bt_view_opts.whole_names). The
 * caller frees it; NULL with err set on failure.
 */
BT_API struct bt_view *bt_browser_export_view(struct bt_browser *b, struct bt_error *err);
/* Depth of the screen stack (1 on the first screen). */
BT_API size_t bt_browser_depth(const struct bt_browser *b);

#endif
