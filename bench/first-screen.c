/*
 * The browser's first screen without a terminal: what bt_tui_run() builds
 * before its first paint (the recording read, the session, the hot-function
 * table, the header with the lint findings), and with --open the hottest
 * function annotated, as Enter opens it; with --no-source, as benchtui
 * --no-source builds it (no Source column, no debug info read for it).
 * bench/run.sh and bench/chains.sh time it.
 *
 *   first-screen [--open] [--no-source] FILE
 */
#include <stdio.h>
#include <string.h>

#include "benchtui/browse.h"
#include "benchtui/profile.h"
#include "benchtui/selection.h"
#include "benchtui/session.h"
#include "benchtui/view.h"

int
main(int argc, char **argv)
{
	struct bt_error err = { 0 };
	struct bt_session_opts so;
	struct bt_view_opts vo;
	struct bt_profile *p;
	struct bt_session *s;
	struct bt_selection *sel;
	struct bt_browser *b;
	struct bt_view *h;
	bool open = false;
	int i;

	bt_session_opts_init(&so);
	bt_view_opts_init(&vo);
	for (i = 1; i < argc - 1; i++) {
		if (strcmp(argv[i], "--open") == 0)
			open = true;
		else if (strcmp(argv[i], "--no-source") == 0) {
			so.no_source = true;
			vo.source = false;
		}
	}
	if (argc < 2) {
		fprintf(stderr, "usage: first-screen [--open] [--no-source] FILE\n");
		return 1;
	}
	p = bt_profile_open(argv[argc - 1], &err);
	s = p ? bt_session_new(p, &so, &err) : NULL;
	sel = s ? bt_selection_new(s, NULL, &err) : NULL;
	if (sel == NULL) {
		fprintf(stderr, "first-screen: %s\n", err.msg);
		return 2;
	}
	b = bt_browser_new(sel, &vo);
	h = bt_view_header(sel);
	if (open)
		bt_browser_apply(b, BT_ACT_ENTER, 40);
	bt_view_free(h);
	bt_browser_free(b);
	bt_selection_free(sel);
	bt_session_free(s);
	return 0;
}
