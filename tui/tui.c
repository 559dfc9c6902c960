/* The browser arrives with issue 3; until then a terminal gets the text export. */
#include <stdio.h>

#include "benchtui/export.h"
#include "tui.h"

int
bt_tui_run(struct bt_session *s, const struct bt_export_opts *eo,
	   const char *symbol, struct bt_error *err)
{
	(void)symbol;
	return bt_export(stdout, s, eo, err);
}
