/* Keys -> actions, and the help text generated from the same table. */
#ifndef BENCHTUI_KEYMAP_H
#define BENCHTUI_KEYMAP_H

#include "benchtui/browse.h"

/*
 * Actions the front end handles itself (the export's prompt, the help); a
 * core action may ask for text first (bt_browser_prompt: / is a filter on
 * the function list, a search elsewhere).
 */
enum tui_cmd {
	TUI_CMD_NONE,
	TUI_CMD_ACTION,		/* a core action: see .action */
	TUI_CMD_EXPORT,		/* E */
	TUI_CMD_PRINT,		/* P: the view to a file, no prompt (perf's P) */
	TUI_CMD_HINT,		/* a key perf users press: .help says benchtui's */
	TUI_CMD_HELP,		/* h F1 */
	TUI_CMD_REDRAW,		/* Ctrl-L */
	TUI_CMD_MORE,		/* ~: what the lines cut, whole */
};

struct tui_key {
	int keys[4];		/* curses key codes, 0-terminated */
	const char *names;	/* how the help shows them */
	enum tui_cmd cmd;
	enum bt_action action;
	const char *help;
};

extern const struct tui_key tui_keymap[];
extern const size_t tui_nkeys;

/* The entry for a key, or NULL. */
const struct tui_key *tui_key_lookup(int key);

#endif
