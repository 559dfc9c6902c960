/*
 * The browser's first screen without a terminal: what bt_tui_run() builds
 * before its first paint (the recording read, the session, the hot-function
 * table, the header with the lint findings), and with --open the hottest
 * function annotated, as Enter opens it; with --no-source, as benchtui
 * --no-source builds it (no Source column, no debug info read for it).
 * The recording is read as the browser reads it, its call chains put off
 * (bt_profile_open_deferred); --chains then reads them and builds the
 * screen again, as the browser does after its first paint; --eager reads
 * them first, as --stdio and the exports do. --recorded reads it as
 * benchtui reads back the recording it has just made (either way:
 * bt_profile_open_recorded), leaving its first read in the first-read
 * cache as the recorder leaves it; --keep does only what -o alone adds
 * after recording (bt_profile_keep_first_read: the first read for the
 * cache, nothing built). --export text|json prints
 * the export of what was built last (tests/test-deferred.sh compares the
 * two ways). bench/run.sh and bench/chains.sh time it. --phases prints the
 * CPU time (user + system, ms) each step took to standard error: what
 * limits a row.
 *
 *   first-screen [--open] [--no-source] [--chains] [--eager] [--recorded]
 *                [--phases] [--export text|json] FILE
 *   first-screen --keep FILE
 */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "benchtui/browse.h"
#include "benchtui/export.h"
#include "benchtui/profile.h"
#include "benchtui/selection.h"
#include "benchtui/session.h"
#include "benchtui/view.h"

static bool phases;

/* The CPU time since the last call, printed as "name ms". */
static void
phase(const char *name)
{
	static double last;
	struct rusage ru;
	double t;

	getrusage(RUSAGE_SELF, &ru);
	t = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	    (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	if (phases && name != NULL)
		fprintf(stderr, "%s %.1f\n", name, (t - last) * 1000);
	last = t;
}

int
main(int argc, char **argv)
{
	struct bt_error err = { 0 };
	struct bt_session_opts so;
	struct bt_selection_opts o;
	struct bt_export_opts eo;
	struct bt_profile *p;
	struct bt_session *s;
	struct bt_selection *sel;
	struct bt_browser *b;
	struct bt_view *h;
	bool open = false, chains = false, eager = false, recorded = false;
	bool keep = false;
	const char *export = NULL;
	int i;

	bt_session_opts_init(&so);
	memset(&eo, 0, sizeof(eo));
	bt_view_opts_init(&eo.view);
	for (i = 1; i < argc - 1; i++) {
		if (strcmp(argv[i], "--open") == 0)
			open = true;
		else if (strcmp(argv[i], "--no-source") == 0) {
			so.no_source = true;
			eo.view.source = false;
		} else if (strcmp(argv[i], "--phases") == 0)
			phases = true;
		else if (strcmp(argv[i], "--chains") == 0)
			chains = true;
		else if (strcmp(argv[i], "--eager") == 0)
			eager = true;
		else if (strcmp(argv[i], "--recorded") == 0)
			recorded = true;
		else if (strcmp(argv[i], "--keep") == 0)
			keep = true;
		else if (strcmp(argv[i], "--export") == 0 && i + 2 < argc)
			export = argv[++i];
	}
	if (argc < 2) {
		fprintf(stderr, "usage: first-screen [--open] [--no-source] [--chains] "
		    "[--eager] [--recorded] [--phases] [--export text|json] FILE\n"
		    "       first-screen --keep FILE\n");
		return 1;
	}
	phase(NULL);
	if (keep) {
		if (bt_profile_keep_first_read(argv[argc - 1], &err) < 0) {
			fprintf(stderr, "first-screen: %s\n", err.msg);
			return 2;
		}
		phase("keep");
		return 0;
	}
	if (recorded)
		p = bt_profile_open_recorded(argv[argc - 1],
		    eager ? 0 : BT_OPEN_DEFERRED, &err);
	else
		p = eager ? bt_profile_open(argv[argc - 1], &err) :
		    bt_profile_open_deferred(argv[argc - 1], &err);
	phase("read");
	s = p ? bt_session_new(p, &so, &err) : NULL;
	sel = s ? bt_selection_new(s, NULL, &err) : NULL;
	if (sel == NULL) {
		fprintf(stderr, "first-screen: %s\n", err.msg);
		return 2;
	}
	phase("selection");
	b = bt_browser_new(sel, &eo.view);
	phase("table");
	h = bt_view_header(sel);
	phase("header");
	if (open)
		bt_browser_apply(b, BT_ACT_ENTER, 40);
	phase("annotate");
	if (chains && bt_session_chains_pending(s)) {
		/* as bt_tui_run() after its first paint */
		o = *bt_selection_opts(sel);
		bt_view_free(h);
		bt_browser_free(b);
		bt_selection_free(sel);
		if (bt_session_read_chains(s, &err) < 0 ||
		    (sel = bt_selection_new(s, &o, &err)) == NULL) {
			fprintf(stderr, "first-screen: %s\n", err.msg);
			return 2;
		}
		phase("chains");
		b = bt_browser_new(sel, &eo.view);
		h = bt_view_header(sel);
		if (open)
			bt_browser_apply(b, BT_ACT_ENTER, 40);
		phase("again");
	}
	if (export != NULL) {
		eo.format = strcmp(export, "json") == 0 ? BT_FORMAT_JSON : BT_FORMAT_TEXT;
		eo.top = 3;
		if (bt_export(stdout, sel, &eo, &err) < 0) {
			fprintf(stderr, "first-screen: %s\n", err.msg);
			return 2;
		}
	}
	bt_view_free(h);
	bt_browser_free(b);
	bt_selection_free(sel);
	bt_session_free(s);
	phase("free");
	return 0;
}
