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
	{ { KEY_LEFT, 27, KEY_BACKSPACE, 0 }, "Left Esc", TUI_CMD_ACTION, BT_ACT_BACK,
	  "back: undo a followed jump, then the previous screen" },
	{ { 'q', 0 }, "q", TUI_CMD_ACTION, BT_ACT_QUIT, "back; on the first screen, quit" },
	{ { '\t', 0 }, "Tab", TUI_CMD_ACTION, BT_ACT_NEXT_HOT, "next hot instruction (hottest first)" },
	{ { KEY_BTAB, 0 }, "Shift-Tab", TUI_CMD_ACTION, BT_ACT_PREV_HOT, "previous hot instruction" },
	{ { 'H', 0 }, "H", TUI_CMD_ACTION, BT_ACT_HOTTEST, "the hottest instruction" },
	{ { 'r', 0 }, "r", TUI_CMD_ACTION, BT_ACT_NEXT_REGION, "next hot region" },
	{ { 'R', 0 }, "R", TUI_CMD_ACTION, BT_ACT_PREV_REGION, "previous hot region" },
	{ { '/', 0 }, "/", TUI_CMD_SEARCH, BT_ACT_NONE,
	  "search forward (in the function list: filter by name)" },
	{ { '?', 0 }, "?", TUI_CMD_SEARCH_BACK, BT_ACT_NONE, "search backward" },
	{ { 'n', 0 }, "n", TUI_CMD_ACTION, BT_ACT_SEARCH_NEXT, "repeat the search" },
	{ { 'N', 0 }, "N", TUI_CMD_ACTION, BT_ACT_SEARCH_PREV, "repeat the search the other way" },
	{ { 's', 0 }, "s", TUI_CMD_ACTION, BT_ACT_TOGGLE_SOURCE, "toggle interleaved source lines" },
	{ { 'S', 0 }, "S", TUI_CMD_ACTION, BT_ACT_SOURCE_VIEW,
	  "source view with per-line totals (Enter on a line shows its code)" },
	{ { 'K', 0 }, "K", TUI_CMD_ACTION, BT_ACT_TOGGLE_SKID,
	  "toggle skid-adjusted attribution as the primary column" },
	{ { 't', 0 }, "t", TUI_CMD_ACTION, BT_ACT_CYCLE_NUM, "number column: percent, samples, period" },
	{ { 'p', 0 }, "p", TUI_CMD_ACTION, BT_ACT_TOGGLE_PERCENT, "percent of the function / of all samples" },
	{ { 'M', 0 }, "M", TUI_CMD_ACTION, BT_ACT_TOGGLE_SYNTAX, "AT&T / Intel syntax" },
	{ { 'o', 0 }, "o", TUI_CMD_ACTION, BT_ACT_TOGGLE_ADDR, "absolute addresses / offsets in the function" },
	{ { 'L', 0 }, "L", TUI_CMD_ACTION, BT_ACT_LINT,
	  "lint findings: what may be wrong with the benchmark (Enter opens the function)" },
	{ { 'T', 0 }, "T", TUI_CMD_ACTION, BT_ACT_TIMELINE,
	  "timeline of samples over the run (with the current function's share)" },
	{ { '[', 0 }, "[", TUI_CMD_ACTION, BT_ACT_MARK_FROM, "timeline: the part to keep starts here" },
	{ { ']', 0 }, "]", TUI_CMD_ACTION, BT_ACT_MARK_TO,
	  "timeline: ... and ends here (Enter keeps it)" },
	{ { 'c', 0 }, "c", TUI_CMD_ACTION, BT_ACT_CLEAR_WINDOW, "timeline: keep the whole run" },
	{ { 'e', 0 }, "e", TUI_CMD_ACTION, BT_ACT_NEXT_EVENT, "next recorded event" },
	{ { 'E', 0 }, "E", TUI_CMD_EXPORT, BT_ACT_NONE, "export the current view to a text file" },
	{ { 'h', KEY_F(1), 0 }, "h F1", TUI_CMD_HELP, BT_ACT_NONE, "this help" },
	{ { CTRL('l'), 0 }, "Ctrl-L", TUI_CMD_REDRAW, BT_ACT_NONE, "redraw the screen" },
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
