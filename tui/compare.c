/*
 * benchtui diff OLD NEW, --baseline, and query's diff tool (docs/diff.md):
 * the two recordings opened as -i opens one, compared, and the
 * comparison exported, printed or browsed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "benchtui/benchtui.h"
#include "benchtui/diff.h"
#include "benchtui/export.h"
#include "benchtui/match.h"
#include "benchtui/profile.h"
#include "benchtui/selection.h"
#include "benchtui/session.h"
#include "cli.h"
#include "front.h"
#include "query.h"
#include "tui.h"

/*
 * One side of a comparison: the recording at path, its selection as -e
 * says; recorded: the one benchtui has just made, its first read kept
 * for -i (docs/formats.md "First-read cache").
 */
static struct bt_selection *
open_side(const struct cli *c, const char *path, bool recorded)
{
	struct bt_error err = { 0 };
	struct bt_profile *p;
	struct bt_session *s;
	struct bt_selection *sel;

	if (!c->force && check_owner(path) < 0)
		return NULL;
	if (recorded)
		p = bt_profile_open_recorded(path, c->eo.format == BT_FORMAT_PPROF ?
		    BT_OPEN_KEPT : 0, &err);
	else if (c->eo.format == BT_FORMAT_PPROF)	/* every sample read again */
		p = bt_profile_open_kept(path, &err);
	else
		p = bt_profile_open(path, &err);
	if (p == NULL) {
		errmsg("%s", err.msg);
		return NULL;
	}
	s = bt_session_new(p, &c->so, &err);
	if (s == NULL) {
		errmsg("%s", err.msg);
		return NULL;
	}
	sel = bt_selection_new(s, &c->sel, &err);
	if (sel == NULL) {
		errmsg("'%s': %s", path, err.msg);
		bt_session_free(s);
	}
	return sel;
}

static void
close_side(struct bt_selection *sel)
{
	struct bt_session *s = sel ? bt_selection_session(sel) : NULL;

	bt_selection_free(sel);
	bt_session_free(s);
}

static int
write_diff(FILE *f, struct cli *c, void *d, struct bt_error *err)
{
	if (c->eo.format == BT_FORMAT_FLAMEGRAPH || c->eo.format == BT_FORMAT_PPROF)
		return bt_export_diff_sides(f, d, c->eo.format, c->bench, err);
	return bt_export_diff(f, d, c->eo.format, &c->eo.view, err);
}

/* The comparison as the export, the text report or the browser ask. */
static int
show_diff(struct cli *c, struct bt_diff *d, bool shown, struct bt_error *err)
{
	struct winsize ws;
	int ret;

	if (c->export_path != NULL)	/* whole or not at all, as export_file's */
		return write_file(c, write_diff, d, err);
	if (!shown)
		return 0;
	if (c->stdio || !isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO)) {
		if (c->eo.format == BT_FORMAT_TEXT)
			c->eo.view.text_width = isatty(STDOUT_FILENO) &&
			    ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 ?
			    ws.ws_col : TEXT_COLUMNS;
		return bt_export_diff(stdout, d, c->eo.format, &c->eo.view, err);
	}
	ret = bt_tui_run_diff(d, &c->eo, err);
	if (ret == -BT_ENOTSUP) {
		errmsg("%s; printing the report instead", err->msg);
		ret = bt_export_diff(stdout, d, c->eo.format, &c->eo.view, err);
	}
	return ret;
}

/*
 * benchtui diff OLD NEW -s FUNC: the function of both aligned (docs/diff.md
 * "Matching"), printed or exported; its vectors are time slices of the
 * whole runs (the browser's screen, from a benchmark's function row,
 * takes the benchmark's repetitions).
 */
static int
show_match(struct cli *c, struct bt_selection *a, struct bt_selection *b)
{
	struct bt_error err = { 0 };
	struct bt_align *al = bt_align_find(a, b, c->symbol, &err);
	FILE *f = stdout;
	struct winsize ws;
	int ret;

	if (al == NULL) {
		errmsg("%s", err.msg);
		return EXIT_NODATA;
	}
	if (c->export_path != NULL && (f = fopen(c->export_path, "w")) == NULL) {
		errmsg("cannot write '%s': %s", c->export_path, strerror(errno));
		bt_align_free(al);
		return EXIT_NODATA;
	}
	if (f == stdout && c->eo.format == BT_FORMAT_TEXT)
		c->eo.view.text_width = isatty(STDOUT_FILENO) &&
		    ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 ?
		    ws.ws_col : TEXT_COLUMNS;
	ret = bt_export_match(f, al, c->eo.format, &c->eo.view, &err);
	if (f != stdout && fclose(f) != 0 && ret == 0)
		ret = bt_error_set(&err, BT_EIO, "cannot write '%s'", c->export_path);
	if (ret < 0)
		errmsg("%s", err.msg);
	bt_align_free(al);
	return ret < 0 ? EXIT_NODATA : 0;
}

/* One line on stderr: the benchmarks' verdicts, and how to see more. */
static void
diff_summary(const struct bt_diff *d, const char *old, const char *new)
{
	size_t n[4] = { 0 }, i;

	for (i = 0; i < bt_diff_npairs(d); i++)
		n[bt_diff_unit(d, bt_diff_pair(d, i)->unit)->st.verdict]++;
	errmsg("against '%s': %zu benchmarks slower, %zu faster, %zu unchanged, "
	    "%zu unresolved (benchtui diff '%s' '%s' shows them)", old, n[BT_V_SLOWER],
	    n[BT_V_FASTER], n[BT_V_UNCHANGED], n[BT_V_UNRESOLVED], old, new);
}

/*
 * benchtui diff OLD NEW, or --baseline OLD after recording NEW: 0 (or
 * status when nothing is wrong), EXIT_SLOWER for --fail-on, or an error.
 */
int
compare(struct cli *c, const char *old, const char *new, bool shown, int status)
{
	bool recorded = c->input == NULL && c->diff[0] == NULL;	/* --baseline */
	struct bt_selection *a = open_side(c, old, false);
	struct bt_selection *b = a ? open_side(c, new, recorded) : NULL;
	struct bt_error err = { 0 };
	struct bt_diff_opts o;
	struct bt_diff *d;
	size_t slower;
	int ret;

	if (b == NULL) {
		close_side(a);
		return EXIT_NODATA;
	}
	if (c->symbol != NULL && shown) {
		ret = show_match(c, a, b);
		d = NULL;
		goto out;
	}
	bt_diff_opts_init(&o);
	if (c->noise >= 0)
		o.noise = c->noise / 100;
	d = bt_diff_new(a, b, &o, &err);
	if (d == NULL) {
		errmsg("%s", err.msg);
		ret = EXIT_NODATA;
		goto out;
	}
	ret = show_diff(c, d, shown, &err);
	if (ret > 0) {
		ret = 128 + ret;
		goto out;
	}
	if (ret < 0) {
		errmsg("%s", err.msg);
		ret = EXIT_NODATA;
		goto out;
	}
	ret = status;
	if (!shown && c->export_path == NULL && !c->quiet)	/* --baseline, stdout not ours */
		diff_summary(d, old, new);
	slower = bt_diff_slower(d, c->fail_pct);
	if (c->fail_on && slower > 0) {
		if (!c->quiet)
			errmsg("%zu benchmark%s significantly slower than in '%s'%s",
			    slower, slower == 1 ? "" : "s", old, c->fail_pct > 0 ?
			    " by more than the --fail-on percentage" : "");
		ret = EXIT_SLOWER;
	}
out:
	bt_diff_free(d);
	close_side(a);
	close_side(b);
	return ret;
}

/* One side of the query's diff tool, as open_side without printing. */
static struct bt_selection *
query_side(const struct cli *c, const char *path, struct bt_error *err)
{
	struct bt_profile *p = bt_profile_open(path, err);
	struct bt_session *s;
	struct bt_selection *sel;

	if (p == NULL)
		return NULL;
	if ((s = bt_session_new(p, &c->so, err)) == NULL)
		return NULL;
	if ((sel = bt_selection_new(s, &c->sel, err)) == NULL)
		bt_session_free(s);
	return sel;
}

/* The query's diff tool: the JSON export of benchtui diff a b on out. */
int
query_diff(void *ctx, const char *a, const char *b, FILE *out, struct bt_error *err)
{
	struct cli *c = ctx;
	struct bt_selection *sa = query_side(c, a, err), *sb = NULL;
	struct bt_view_opts vo = c->eo.view;
	struct bt_diff_opts o;
	struct bt_diff *d = NULL;
	int ret = -BT_ENOENT;

	if (sa == NULL || (sb = query_side(c, b, err)) == NULL)
		goto out;
	bt_diff_opts_init(&o);
	if (c->noise >= 0)
		o.noise = c->noise / 100;
	if ((d = bt_diff_new(sa, sb, &o, err)) == NULL)
		goto out;
	vo.whole_names = true;
	ret = bt_export_diff(out, d, BT_FORMAT_JSON, &vo, err);
out:
	bt_diff_free(d);
	close_side(sa);
	close_side(sb);
	return ret < 0 ? ret : 0;
}
