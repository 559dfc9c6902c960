/*
 * The key table (DESIGN.md "Keys"): one row per command, as htop's
 * Action_setBindings() fills its key array. The help screen and the man
 * page's KEYS section are checked against this table.
 */
#include <curses.h>
#include <stddef.h>

#include "keymap.h"

#define CTRL(c) ((c) & 0x1f)

const struct tui_key tui_keymap[] = {
	{ { KEY_UP, 'k', 0 }, "Up k", TUI_CMD_ACTION, BT_ACT_UP, "move up" },
	{ { KEY_DOWN, 'j', 0 }, "Down j", TUI_CMD_ACTION, BT_ACT_DOWN, "move down" },
	{ { KEY_PPAGE, 'b', 0 }, "PgUp b", TUI_CMD_ACTION, BT_ACT_PAGE_UP, "page up" },
	{ { KEY_NPAGE, ' ', 0 }, "PgDn Space", TUI_CMD_ACTION, BT_ACT_PAGE_DOWN, "page down" },
	{ { KEY_HOME, 'g', 0 }, "Home g", TUI_CMD_ACTION, BT_ACT_HOME, "first row" },
	{ { KEY_END, 'G', 0 }, "End G", TUI_CMD_ACTION, BT_ACT_END, "last row" },
	{ { '\n', KEY_ENTER, KEY_RIGHT, '\r' }, "Enter Right", TUI_CMD_ACTION, BT_ACT_ENTER,
	  "open the function; on a jump go to its target; on a call open the callee; on a source line show its code" },
	{ { 'a', 0 }, "a", TUI_CMD_ACTION, BT_ACT_ANNOTATE,
	  "annotate, as in perf: the function under the cursor; on a call, the callee" },
	{ { KEY_LEFT, 27, KEY_BACKSPACE, 0 }, "Left Esc", TUI_CMD_ACTION, BT_ACT_BACK,
	  "back: undo a followed jump, then the previous screen; on the function list, clear the filter" },
	{ { 'q', 0 }, "q", TUI_CMD_ACTION, BT_ACT_QUIT, "back; on the first screen, quit" },
	{ { '\t', 0 }, "Tab", TUI_CMD_ACTION, BT_ACT_NEXT_HOT, "next hot instruction (hottest first)" },
	{ { KEY_BTAB, 0 }, "Shift-Tab", TUI_CMD_ACTION, BT_ACT_PREV_HOT, "previous hot instruction" },
	{ { 'H', 0 }, "H", TUI_CMD_ACTION, BT_ACT_HOTTEST, "the hottest instruction" },
	{ { 'r', 0 }, "r", TUI_CMD_ACTION, BT_ACT_NEXT_REGION, "next hot region" },
	{ { 'R', 0 }, "R", TUI_CMD_ACTION, BT_ACT_PREV_REGION, "previous hot region" },
	{ { '/', 0 }, "/", TUI_CMD_ACTION, BT_ACT_SEARCH,
	  "search forward for a regular expression (case ignored when it is all lower case; "
	  "in the function list: filter by name, in any form it is shown in)" },
	{ { '?', 0 }, "?", TUI_CMD_ACTION, BT_ACT_SEARCH_BACK, "search backward" },
	{ { 'n', 0 }, "n", TUI_CMD_ACTION, BT_ACT_SEARCH_NEXT, "repeat the search" },
	{ { 'N', 0 }, "N", TUI_CMD_ACTION, BT_ACT_SEARCH_PREV, "repeat the search the other way" },
	{ { 's', 0 }, "s", TUI_CMD_ACTION, BT_ACT_TOGGLE_SOURCE, "toggle source lines (and the Source column)" },
	{ { 'S', 0 }, "S", TUI_CMD_ACTION, BT_ACT_SOURCE_VIEW,
	  "source view with per-line totals (Enter on a line shows its code); in it, S picks another file (headers inlined into the function)" },
	{ { 'K', 0 }, "K", TUI_CMD_ACTION, BT_ACT_TOGGLE_SKID,
	  "toggle skid-adjusted attribution as the primary column" },
	{ { 't', 0 }, "t", TUI_CMD_ACTION, BT_ACT_CYCLE_NUM, "number column: percent, samples, period, cost per op (ns or cycles per op of the selected benchmark, JMH's norm)" },
	{ { 'p', 0 }, "p", TUI_CMD_ACTION, BT_ACT_TOGGLE_PERCENT, "percent of the function / of all samples" },
	{ { 'M', 0 }, "M", TUI_CMD_ACTION, BT_ACT_TOGGLE_SYNTAX, "AT&T / Intel syntax" },
	{ { 'o', 'f', 0 }, "o f", TUI_CMD_ACTION, BT_ACT_TOGGLE_ADDR,
	  "absolute addresses / offsets in the function (f as in perf annotate)" },
	{ { 'W', 0 }, "W", TUI_CMD_ACTION, BT_ACT_CYCLE_NAMES,
	  "names: as perf prints C++ (no return type, no parameters), with template arguments folded <\u2026>, whole" },
	{ { 'w', 0 }, "w", TUI_CMD_ACTION, BT_ACT_TOGGLE_COLUMNS,
	  "every column / compact: no skid and \u00b195% columns (under 100 columns compact comes by itself)" },
	{ { 'L', 0 }, "L", TUI_CMD_ACTION, BT_ACT_LINT,
	  "lint findings: what may be wrong with the benchmark, on the whole run every benchmark's too (the cursor's in full below; Enter opens the function or the benchmark)" },
	{ { 'C', 0 }, "C", TUI_CMD_ACTION, BT_ACT_CALLERS,
	  "callers and callees of the function (share of its inclusive samples through each; Enter follows, Left returns); on an instruction, also the call paths of its samples" },
	{ { 'I', 0 }, "I", TUI_CMD_ACTION, BT_ACT_TOGGLE_CHILDREN,
	  "function list by inclusive (children, perf's --children) / self samples" },
	{ { 'd', 0 }, "d", TUI_CMD_ACTION, BT_ACT_ZOOM_MODULE,
	  "the function list of this function's module only (perf's zoom into a DSO); d again or Esc: every module" },
	{ { 'T', 0 }, "T", TUI_CMD_ACTION, BT_ACT_TIMELINE,
	  "timeline of the run: each slice's samples and the current function's share (the bar); not perf's thread zoom" },
	{ { '[', 0 }, "[", TUI_CMD_ACTION, BT_ACT_MARK_FROM, "timeline: the part to keep starts here" },
	{ { ']', 0 }, "]", TUI_CMD_ACTION, BT_ACT_MARK_TO,
	  "timeline: ... and ends here (Enter keeps it)" },
	{ { 'c', 0 }, "c", TUI_CMD_ACTION, BT_ACT_CLEAR_WINDOW, "timeline: keep the whole run" },
	{ { 'B', 0 }, "B", TUI_CMD_ACTION, BT_ACT_BENCHES,
	  "the benchmark table (the harness's results): Enter opens a benchmark, every screen then shows its samples only" },
	{ { 'm', 0 }, "m", TUI_CMD_ACTION, BT_ACT_MARK_BENCH,
	  "benchmark table: mark this benchmark; Enter on another compares the two side by side" },
	{ { 'z', 0 }, "z", TUI_CMD_ACTION, BT_ACT_PROCS,
	  "processes and threads with their shares (perf's --sort comm,pid); Enter: only that one's samples, in every screen after it (q comes back)" },
	{ { 'X', 0 }, "X", TUI_CMD_ACTION, BT_ACT_MCA,
	  "predicted vs measured: llvm-mca's cycles per iteration, bottleneck and pressure for the function's hottest loops beside their measured samples and cost per op" },
	{ { 'F', 0 }, "F", TUI_CMD_ACTION, BT_ACT_FLAME,
	  "flame graph (icicle) of the samples shown: a row a call depth, each frame as wide as its share, coloured by module kind; "
	  "Up/Down the caller / hottest callee, Tab Shift-Tab the next / previous frame beside, Enter zooms in, Left zooms out" },
	{ { 'O', 0 }, "O", TUI_CMD_ACTION, BT_ACT_OUTPUT,
	  "the benchmark's own output, each line with its time into the run; Enter on a result line of the harness opens its benchmark" },
	{ { 'D', 0 }, "D", TUI_CMD_ACTION, BT_ACT_DATA_TYPES,
	  "data types, as perf annotate --data-type: samples of the loads and stores per struct and member (DWARF); Enter opens the hottest access" },
	{ { 'e', 0 }, "e", TUI_CMD_ACTION, BT_ACT_NEXT_EVENT,
	  "next recorded event (every screen stays on its function and row)" },
	{ { 'E', 0 }, "E", TUI_CMD_EXPORT, BT_ACT_NONE,
	  "export the current view to a file, JSON if its name ends in .json, else text; names whole (a prompt; y or n if the file exists)" },
	{ { 'P', 0 }, "P", TUI_CMD_PRINT, BT_ACT_NONE,
	  "print the current view to a file at once, as perf's P (FUNCTION.txt, else FUNCTION.1.txt...)" },
	{ { 'h', KEY_F(1), 0 }, "h F1", TUI_CMD_HELP, BT_ACT_NONE, "this help" },
	{ { '~', 0 }, "~", TUI_CMD_MORE, BT_ACT_NONE,
	  "whole, wrapped: the last message, the status line, the header, the title, the cursor row, the pane and the notes (a line that ends in ~ was cut; tmux's ~ shows its messages)" },
	{ { CTRL('l'), 0 }, "Ctrl-L", TUI_CMD_REDRAW, BT_ACT_NONE, "redraw the screen" },
	/* keys perf users press that benchtui has no use for: say what to press */
	{ { 'i', 0 }, "i", TUI_CMD_HINT, BT_ACT_NONE,
	  "perf's i (header information): the bar at the top is the run; --stdio prints all of it" },
	{ { '<', '>', 0 }, "< >", TUI_CMD_HINT, BT_ACT_NONE,
	  "perf's < > (previous/next function): q to the list, then Up/Down and Enter (or a)" },
	{ { 'J', 0 }, "J", TUI_CMD_HINT, BT_ACT_NONE,
	  "perf's J (jump counts): benchtui draws every jump as an arrow, the cursor's lit; Enter follows it" },
	{ { 'l', 0 }, "l", TUI_CMD_HINT, BT_ACT_NONE,
	  "perf's l (source location): source rows show file:line; S shows the file" },
	{ { 'V', 0 }, "V", TUI_CMD_HINT, BT_ACT_NONE,
	  "perf's V (verbose): the status line shows the cursor row's whole name; W shows whole names" },
};
const size_t tui_nkeys = sizeof(tui_keymap) / sizeof(tui_keymap[0]);

const struct tui_key *
tui_key_lookup(int key)
{
	size_t i, k;

	for (i = 0; i < tui_nkeys; i++)
		for (k = 0; k < 4 && tui_keymap[i].keys[k]; k++)
			if (tui_keymap[i].keys[k] == key)
				return &tui_keymap[i];
	return NULL;
}
