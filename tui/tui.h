/* The ncurses browser (tui/). */
#ifndef BENCHTUI_TUI_H
#define BENCHTUI_TUI_H

#include "benchtui/benchtui.h"

struct bt_selection;
struct bt_export_opts;

/*
 * Browse selection *sel until the user quits; the terminal is restored on every exit
 * path. Returns 0, the signal that ended it (SIGINT, SIGQUIT, SIGTERM...), or
 * a negative -BT_E* code with err set when the terminal cannot be used.
 * Call chains still to read (bt_profile_open_deferred) are read after the
 * first paint, and *sel is then a new selection of the same samples.
 */
int bt_tui_run(struct bt_selection **sel, const struct bt_export_opts *eo,
	       const char *symbol, struct bt_error *err);
/* The same on comparison d (benchtui diff, --baseline). */
struct bt_diff;
int bt_tui_run_diff(const struct bt_diff *d, const struct bt_export_opts *eo,
		    struct bt_error *err);
/*
 * The call chains of *sel's session read now, if they are still to read:
 * *sel freed and made again (same options). 0 or -BT_E* (then *sel is NULL).
 */
int bt_tui_read_chains(struct bt_selection **sel, struct bt_error *err);

#endif
