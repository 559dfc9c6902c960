/*
 * defer-dump: a recording's export (header, table, the 3 hottest functions
 * annotated) read as --stdio reads it, or as the browser does: its call
 * chains put off (bt_profile_open_deferred), the first selection made
 * without them, then the chains read (bt_session_read_chains) and the
 * selection made again. tests/test-deferred.sh compares the two.
 * --recorded: read as --stdio reads back benchtui's own recording
 * (bt_profile_open_recorded), which leaves its first read in the cache.
 *   defer-dump [--deferred | --recorded] [--json] FILE
 */
#include <stdio.h>
#include <string.h>

#include "benchtui/export.h"
#include "benchtui/profile.h"
#include "benchtui/selection.h"
#include "benchtui/session.h"

int
main(int argc, char **argv)
{
	struct bt_error err = { 0 };
	struct bt_export_opts eo;
	struct bt_profile *p;
	struct bt_session *s;
	struct bt_selection *sel;
	bool deferred = false, recorded = false;
	int i;

	memset(&eo, 0, sizeof(eo));
	bt_view_opts_init(&eo.view);
	eo.top = 3;
	for (i = 1; i < argc - 1; i++) {
		if (strcmp(argv[i], "--deferred") == 0)
			deferred = true;
		else if (strcmp(argv[i], "--recorded") == 0)
			recorded = true;
		else if (strcmp(argv[i], "--json") == 0)
			eo.format = BT_FORMAT_JSON;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: defer-dump [--deferred | --recorded] [--json] FILE\n");
		return 1;
	}
	if (recorded)
		p = bt_profile_open_recorded(argv[argc - 1], 0, &err);
	else
		p = deferred ? bt_profile_open_deferred(argv[argc - 1], &err) :
		    bt_profile_open(argv[argc - 1], &err);
	s = p ? bt_session_new(p, NULL, &err) : NULL;
	sel = s ? bt_selection_new(s, NULL, &err) : NULL;
	if (sel != NULL && deferred) {
		if (!bt_session_chains_pending(s) && bt_session_has_chains(s)) {
			fprintf(stderr, "defer-dump: the chains were read at once\n");
			return 3;
		}
		bt_selection_free(sel);
		sel = bt_session_read_chains(s, &err) < 0 ? NULL :
		    bt_selection_new(s, NULL, &err);
	}
	if (sel == NULL || bt_export(stdout, sel, &eo, &err) < 0) {
		fprintf(stderr, "defer-dump: %s\n", err.msg);
		return 2;
	}
	bt_selection_free(sel);
	bt_session_free(s);
	return 0;
}
