/*
 * The browser's first screen without a terminal: what bt_tui_run() builds
 * before its first paint (the recording read, the session, the hot-function
 * table, the header with the lint findings), and with --open the hottest
 * function annotated, as Enter opens it. bench/run.sh times it.
 *
 *   first-screen [--open] FILE
 */
#include <stdio.h>
#include <string.h>

#include "benchtui/browse.h"
#include "benchtui/profile.h"
#include "benchtui/session.h"
#include "benchtui/view.h"

int
main(int argc, char **argv)
{
	int open = argc > 2 && strcmp(argv[1], "--open") == 0;
	struct bt_error err = { 0 };
	struct bt_profile *p;
	struct bt_session *s;
	struct bt_browser *b;
	struct bt_view *h;

	if (argc < 2) {
		fprintf(stderr, "usage: first-screen [--open] FILE\n");
		return 1;
	}
	p = bt_profile_open(argv[argc - 1], &err);
	s = p ? bt_session_new(p, NULL, &err) : NULL;
	if (s == NULL) {
		fprintf(stderr, "first-screen: %s\n", err.msg);
		return 2;
	}
	b = bt_browser_new(s, NULL);
	h = bt_view_header(s);
	if (open)
		bt_browser_apply(b, BT_ACT_ENTER, 40);
	bt_view_free(h);
	bt_browser_free(b);
	bt_session_free(s);
	return 0;
}
