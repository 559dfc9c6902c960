/*
 * benchtui: command line (DESIGN.md §2). Records a command, or opens a
 * recording, then browses it on a terminal or prints the text export.
 * This file owns printing and exit codes; the library never prints.
 */
#include <errno.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "benchtui/bench.h"
#include "benchtui/benchtui.h"
#include "benchtui/diff.h"
#include "benchtui/match.h"
#include "benchtui/export.h"
#include "benchtui/jit.h"
#include "benchtui/profile.h"
#include "benchtui/record.h"
#include "benchtui/selection.h"
#include "benchtui/session.h"
#include "cli.h"
#include "front.h"
#include "query.h"
#include "tui.h"


static void
on_signal(int sig)
{
	bt_record_interrupt(sig);
}

/*
 * A message on stderr: "benchtui: " and the line, escaped (bt_text_safe):
 * messages name files and commands taken from the recording.
 */
void
errmsg(const char *fmt, ...)
{
	struct bt_textbuf tb = { 0 };
	char line[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fprintf(stderr, "benchtui: %s\n", bt_text_safe(line, &tb));
	bt_textbuf_release(&tb);
}

/*
 * -b NAME: *sel becomes that benchmark's selection. A usage error names
 * the benchmarks there are.
 */
static int
select_bench(struct bt_selection **sel, const char *name)
{
	struct bt_error err = { 0 };
	struct bt_selection_opts so = *bt_selection_opts(*sel);
	struct bt_selection *bsel;
	char list[2048];
	size_t o;
	long bi = bt_selection_find_bench(*sel, name);
	size_t i, n = bt_selection_nbenches(*sel);

	if (bi >= 0) {
		so.bench = bi;
		bsel = bt_selection_new(bt_selection_session(*sel), &so, &err);
		if (bsel != NULL) {
			bt_selection_free(*sel);
			*sel = bsel;
			return 0;
		}
		errmsg("%s", err.msg);
		return -1;
	}
	if (n == 0) {
		errmsg("-b '%s': the recording has no benchmark results "
		    "(docs/benchmarks.md says which harnesses benchtui reads)", name);
		return -1;
	}
	for (i = o = 0, list[0] = '\0'; i < n && i < 40 && o < sizeof(list); i++)
		o += (size_t)snprintf(list + o, sizeof(list) - o, "%s '%s'",
		    i ? "," : "", bt_selection_bench(*sel, i)->name);
	errmsg("-b '%s' %s; the benchmarks are:%s%s", name,
	    bi == -2 ? "names several benchmarks" : "names no benchmark", list,
	    i < n ? ", ..." : "");
	return -1;
}

/*
 * perf's rule (util/data.c): a recording owned by another user than the
 * one reading it, or root, is refused unless -f: it names files for
 * benchtui to open and programs whose code it shows. In a perf record
 * --threads directory, its header file too. Standard input is not checked.
 */
int
check_owner(const char *path)
{
	char data[4096], owner[300];
	const char *file = path;
	struct passwd *pw;
	struct stat st;

	if (strcmp(path, "-") == 0 || stat(path, &st) < 0)
		return 0;	/* opening it says why not */
	if (S_ISDIR(st.st_mode) && (st.st_uid == 0 || st.st_uid == geteuid())) {
		snprintf(data, sizeof(data), "%s/data", path);
		if (stat(data, &st) < 0)
			return 0;
		file = data;
	}
	if (st.st_uid == 0 || st.st_uid == geteuid())
		return 0;
	pw = getpwuid(st.st_uid);
	if (pw != NULL)
		snprintf(owner, sizeof(owner), "%s (uid %u)", pw->pw_name, (unsigned)st.st_uid);
	else
		snprintf(owner, sizeof(owner), "uid %u", (unsigned)st.st_uid);
	errmsg("'%s' is owned by %s, not by you or root: -f reads it anyway "
	    "(as perf report -f)", file, owner);
	return -1;
}

/* The exit code for the benchmark's own status (like time(1)). */
static int
bench_status(const struct bt_profile_info *in)
{
	return in->has_status ? bt_wait_code(in->wait_status) : 0;
}

/*
 * The live line while a long benchmark records: elapsed time, samples,
 * lost, as build tools show progress. It sits on the terminal's last line,
 * kept out of the benchmark's way by a scroll region (apt's progress bar
 * does the same): the benchmark's own output scrolls above it and never
 * runs into it. Only on a terminal that can place the cursor, never with
 * -q, and only once the run has lasted a second: a short run shows nothing.
 */
struct progress {
	int fd;
	const char *cmd;
	int rows;		/* the region is set for this many rows; 0: not yet */
	double last;		/* elapsed time of the last update */
	struct bt_textbuf tb;	/* the line, escaped (the command's name) */
};

#define PROGRESS_AFTER 1.0	/* seconds before the line shows */
#define PROGRESS_EVERY 0.25	/* seconds between updates */

static void
put_all(int fd, const char *buf, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, buf, n);
		if (w <= 0)
			return;
		buf += w;
		n -= (size_t)w;
	}
}

static void
progress_update(const struct bt_record_result *r, double elapsed, void *arg)
{
	struct progress *p = arg;
	struct winsize ws;
	char buf[1024], line[256];
	int n = 0;

	if (elapsed < PROGRESS_AFTER || elapsed - p->last < PROGRESS_EVERY)
		return;
	p->last = elapsed;
	if (ioctl(p->fd, TIOCGWINSZ, &ws) < 0 || ws.ws_row < 4 || ws.ws_col < 20)
		return;
	if (p->rows != ws.ws_row) {
		if (p->rows)	/* resized: the old line goes */
			n += snprintf(buf + n, sizeof(buf) - (size_t)n,
			    "\0337\033[%d;1H\033[K\0338", p->rows);
		/*
		 * down a line (scrolling if at the bottom, keeping the column),
		 * the region above the last line (which homes the cursor: saved
		 * and restored around it), and back up
		 */
		n += snprintf(buf + n, sizeof(buf) - (size_t)n,
		    "\033D\0337\033[1;%dr\0338\033[1A", ws.ws_row - 1);
		p->rows = ws.ws_row;
	}
	snprintf(line, sizeof(line),
	    "benchtui: recording %s: %.1f s, %llu samples, %llu lost (Ctrl-C stops, keeps them)",
	    p->cmd, elapsed, (unsigned long long)r->samples,
	    (unsigned long long)r->lost);
	n += snprintf(buf + n, sizeof(buf) - (size_t)n,
	    "\0337\033[%d;1H\033[K\033[7m%.*s\033[m\0338", ws.ws_row,
	    (int)ws.ws_col - 1, bt_text_safe(line, &p->tb));
	put_all(p->fd, buf, n < (int)sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

/* The terminal as it was: the whole screen scrolls again, the line is gone. */
static void
progress_end(struct progress *p)
{
	char buf[128];
	int n;

	if (p->rows == 0)
		return;
	n = snprintf(buf, sizeof(buf), "\0337\033[r\0338\0337\033[%d;1H\033[K\0338",
	    p->rows);
	put_all(p->fd, buf, (size_t)n);
	p->rows = 0;
}

/* Can the progress line go to stderr? */
static bool
progress_wanted(const struct cli *c)
{
	const char *term = getenv("TERM");

	return !c->quiet && isatty(STDERR_FILENO) && term != NULL && term[0] &&
	    strcmp(term, "dumb") != 0;
}

/*
 * Is a report shown after recording? Standard output is the benchmark's:
 * where it is a file or a pipe the report goes there only with --stdio
 * (docs/benchmarks.md "Reading the harness while it runs"); --export
 * writes its file; a terminal browses (or prints, when standard input is
 * not one).
 */
static bool
report_shown(const struct cli *c)
{
	return c->stdio || c->export_path != NULL || isatty(STDOUT_FILENO);
}

static int
record(const struct cli *c, int *wait_status)
{
	char **argv = c->cmd;
	const char *output = c->output;
	unsigned freq = c->freq;
	struct bt_record_opts ro = { 0 };
	struct bt_record_result res;
	struct bt_error err = { 0 };
	struct sigaction sa;
	struct progress prog = { STDERR_FILENO, NULL, 0, 0, { 0 } };
	struct bt_jit_setup js;
	struct stat st;
	char jmsg[512];
	bool hint;
	int ret;

	/* node, java: their JIT code output on (DESIGN.md §8), unless --no-jit */
	if (c->no_jit)
		memset(&js, 0, sizeof(js));
	else if (bt_jit_setup(argv, output, &js, &err) < 0) {
		errmsg("%s", err.msg);
		return EXIT_NODATA;
	} else if (js.runtime != BT_JIT_NONE) {
		argv = js.argv;
		if (js.env_name != NULL)
			setenv(js.env_name, js.env_value, 1);
		if (!c->quiet && js.note != NULL)
			errmsg("%s", js.note);
	}
	if (c->jit_copy) {
		if (bt_jit_setup_copy(argv, output, &js, &err) < 0) {
			errmsg("%s", err.msg);
			bt_jit_setup_release(&js);
			return EXIT_NODATA;
		}
		argv = js.argv;
	}

	prog.cmd = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	if (progress_wanted(c)) {
		ro.progress = progress_update;
		ro.progress_arg = &prog;
	}
	ro.argv = (char *const *)argv;
	ro.event = c->event;
	ro.freq = c->freq;
	ro.delay_ms = c->delay;
	ro.output = output;
	ro.mmap_pages = c->mmap_pages;
	ro.callgraph = c->callgraph;
	ro.stack_size = c->stack_size;
	ro.jit_copy_dir = js.copy_code ? js.dir : NULL;
	ro.no_probes = c->no_probes;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	ret = bt_record_run(&ro, &res, &err);
	progress_end(&prog);
	bt_textbuf_release(&prog.tb);
	if (js.env_name != NULL)
		unsetenv(js.env_name);
	if (ret == 0 && !c->quiet && res.jit_note[0])
		errmsg("%s", res.jit_note);
	if (js.dir != NULL && ret == 0 &&
	    bt_jit_collect(&js, res.pid, jmsg, sizeof(jmsg)) >= 0 && jmsg[0])
		errmsg("%s", jmsg);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	bt_jit_setup_release(&js);
	argv = c->cmd;		/* js.argv is gone: the command as the user gave it */
	if (ret < 0) {
		errmsg("%s", err.msg);
		return err.code == BT_EINVAL ? EXIT_USAGE : EXIT_NODATA;
	}
	if (WIFSIGNALED(res.wait_status) && !res.interrupted)
		errmsg("'%s' was killed by signal %d (%s); its profile was saved to '%s'",
		    argv[0], WTERMSIG(res.wait_status),
		    strsignal(WTERMSIG(res.wait_status)), output);
	else if (WIFEXITED(res.wait_status) && WEXITSTATUS(res.wait_status))
		errmsg("'%s' exited with status %d; its profile was saved to '%s'",
		    argv[0], WEXITSTATUS(res.wait_status), output);
	if (res.interrupted)
		errmsg("interrupted: '%s' stopped, %llu samples kept in '%s'",
		    argv[0], (unsigned long long)res.samples, output);
	*wait_status = res.wait_status;
	/* no report follows: how to see it, as perf record says */
	hint = !report_shown(c) && stat(output, &st) == 0 && S_ISREG(st.st_mode);
	if (!c->quiet)
		errmsg("%llu samples of %s at %u Hz in %.3f s%s%s%s, lost %llu; saved to '%s'%s%s%s",
		    (unsigned long long)res.samples, res.event, freq ? freq : 4000,
		    res.duration, res.event_note[0] ? " (" : "", res.event_note,
		    res.event_note[0] ? ")" : "", (unsigned long long)res.lost, output,
		    hint ? " (benchtui -i '" : "", hint ? output : "",
		    hint ? "' shows it)" : "");
	return 0;
}


/*
 * The text report to stdout: its long names fit the terminal's width, or
 * 100 columns in a file or a pipe (docs/browser.md "Long names"); JSON
 * keeps them whole.
 */
static int
print_report(struct cli *c, struct bt_selection *sel, struct bt_error *err)
{
	struct winsize ws;

	if (c->eo.format == BT_FORMAT_PPROF && isatty(STDOUT_FILENO))
		return bt_error_set(err, BT_EINVAL, "the pprof format is binary (gzip): "
		    "not to a terminal (--export FILE, or a pipe)");
	if (c->eo.format == BT_FORMAT_TEXT)
		c->eo.view.text_width = isatty(STDOUT_FILENO) &&
		    ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 ?
		    ws.ws_col : TEXT_COLUMNS;
	return bt_export(stdout, sel, &c->eo, err);
}

/* Will the browser show the recording (show() below)? */
static bool
browsing(const struct cli *c)
{
	return c->export_path == NULL && !c->stdio && isatty(STDOUT_FILENO) &&
	    isatty(STDIN_FILENO) && c->bench == NULL &&
	    c->eo.screen == BT_EXPORT_REPORT;
}

/*
 * --export FILE: a file (new, or one there already: replaced) is written
 * as FILE.XXXXXX and renamed when the export is whole, so that a failed
 * export leaves no partial file and an older FILE as it was; a device, a
 * FIFO or a symbolic link is written through, as before, and so is a
 * file in a directory where no other file can be made.
 */
int
write_file(struct cli *c, int (*fn)(FILE *, struct cli *, void *, struct bt_error *),
	   void *arg, struct bt_error *err)
{
	const char *path = c->export_path;
	struct stat st;
	char *tmp = NULL;
	FILE *f;
	mode_t mask;
	int ret, fd;

	c->eo.view.whole_names = true;	/* a file: read whole, by tools too */
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
		f = fopen(path, "w");
	else {
		tmp = malloc(strlen(path) + 8);
		if (tmp == NULL)
			return bt_error_set(err, BT_EIO, "out of memory");
		sprintf(tmp, "%s.XXXXXX", path);
		mask = umask(0);
		umask(mask);
		fd = mkstemp(tmp);
		f = fd < 0 ? NULL : fdopen(fd, "w");
		if (fd >= 0 && (f == NULL || fchmod(fd, 0666 & ~mask) != 0)) {
			if (f != NULL)
				fclose(f);
			else
				close(fd);
			unlink(tmp);
			f = NULL;
		}
		if (fd < 0) {	/* a directory we cannot write to: the file itself */
			free(tmp);
			tmp = NULL;
			f = fopen(path, "w");
		}
	}
	if (f == NULL) {
		ret = bt_error_set(err, BT_EIO, "cannot write '%s': %s", path, strerror(errno));
		free(tmp);
		return ret;
	}
	ret = fn(f, c, arg, err);
	if (fclose(f) != 0 && ret == 0)
		ret = bt_error_set(err, BT_EIO, "cannot write '%s': %s", path, strerror(errno));
	if (tmp != NULL && ret == 0 && rename(tmp, path) != 0)
		ret = bt_error_set(err, BT_EIO, "cannot write '%s': %s", path, strerror(errno));
	if (tmp != NULL && ret != 0)
		unlink(tmp);
	free(tmp);
	return ret;
}

static int
write_export(FILE *f, struct cli *c, void *sel, struct bt_error *err)
{
	return bt_export(f, sel, &c->eo, err);
}

static int
export_file(struct cli *c, struct bt_selection *sel, struct bt_error *err)
{
	return write_file(c, write_export, sel, err);
}

/*
 * The export, the text report or the browser, as the command line and the
 * terminal say: 0, a signal number (the browser ended by it), or -BT_E*.
 */
static int
show(struct cli *c, struct bt_selection **selp, struct bt_error *err)
{
	struct bt_selection *sel = *selp;
	int ret;

	c->eo.func = c->symbol;
	if (c->export_path != NULL)
		return export_file(c, sel, err);
	if (c->stdio || !isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO) ||
	    c->eo.screen != BT_EXPORT_REPORT)	/* --view prints */
		return print_report(c, sel, err);
	ret = bt_tui_run(selp, &c->eo, c->symbol, err);
	if (ret == -BT_ENOTSUP) {	/* no usable terminal: print instead */
		errmsg("%s; printing the report instead", err->msg);
		if ((ret = bt_tui_read_chains(selp, err)) == 0)
			ret = print_report(c, *selp, err);
	}
	return ret;
}

/*
 * benchtui query [OPTIONS] RECORDING: argv as the rest of the command
 * line reads it, OPTIONS then -i RECORDING (malloc'ed); NULL when no
 * recording is named.
 */
static char **
query_argv(int argc, char **argv, int *nargc)
{
	char **a;
	int i, n = 0;

	if (argc < 3 || argv[argc - 1][0] == '-')
		return NULL;
	a = calloc((size_t)argc + 2, sizeof(char *));
	if (a == NULL)
		return NULL;
	a[n++] = argv[0];
	for (i = 2; i < argc - 1; i++)
		a[n++] = argv[i];
	a[n++] = "-i";
	a[n++] = argv[argc - 1];
	*nargc = n;
	return a;
}

/*
 * The recording to show, read as what shows it needs: the browser paints
 * its first screen before the call chains are read (docs/callchains.md
 * "Deferred chains"), the reports read them first, the pprof export keeps
 * every sample to read them again; benchtui's own recording read back
 * keeps its first read for -i (docs/formats.md "First-read cache").
 */
static struct bt_profile *
open_input(const struct cli *c, const char *input, bool query, struct bt_error *err)
{
	unsigned how = 0;

	if (browsing(c) && !query)	/* query answers from the export */
		how = BT_OPEN_DEFERRED;
	else if (c->eo.format == BT_FORMAT_PPROF && !query)
		how = BT_OPEN_KEPT;	/* read again whole */
	if (c->input == NULL)
		return bt_profile_open_recorded(input, how, err);
	if (how == BT_OPEN_DEFERRED)
		return bt_profile_open_deferred(input, err);
	if (how == BT_OPEN_KEPT)
		return bt_profile_open_kept(input, err);
	return bt_profile_open(input, err);
}

int
main(int argc, char **argv)
{
	struct cli c;
	struct bt_error err = { 0 };
	struct bt_profile *p;
	struct bt_session *s;
	struct bt_selection *sel;
	const char *input;
	char msg[512];
	char **qargv = NULL;
	int ret, status;

	if (argc >= 2 && strcmp(argv[1], "query") == 0) {
		qargv = query_argv(argc, argv, &argc);
		if (qargv == NULL) {
			errmsg("usage: benchtui query [OPTIONS] RECORDING (see benchtui --help)");
			return EXIT_USAGE;
		}
		argv = qargv;
	}
	if (cli_parse(argc, argv, &c, msg, sizeof(msg)) < 0) {
		errmsg("%s (see benchtui --help)", msg);
		return EXIT_USAGE;
	}
	if (c.help) {
		fputs(cli_usage, stdout);
		return 0;
	}
	if (c.version) {
		printf("benchtui %s\n", BT_VERSION);
		return 0;
	}
	if (c.diff[0] != NULL)
		return compare(&c, c.diff[0], c.diff[1], true, 0);
	input = c.input;
	if (input == NULL) {
		struct stat st;
		int ws = 0;

		ret = record(&c, &ws);
		if (ret)
			return ret;
		if (c.baseline != NULL)	/* the comparison is the report */
			return compare(&c, c.baseline, c.output, report_shown(&c),
			    bt_wait_code(ws));
		if (!report_shown(&c)) {	/* the summary said how to open it */
			/*
			 * its first read kept: that opening reads no sample (a
			 * file it cannot read says so when it is opened)
			 */
			if (stat(c.output, &st) == 0 && S_ISREG(st.st_mode))
				bt_profile_keep_first_read(c.output, &err);
			return bt_wait_code(ws);
		}
		input = c.output;
		if (stat(input, &st) == 0 && !S_ISREG(st.st_mode)) {
			/* -o /dev/null: written through, nothing to read back */
			errmsg("the recording went to '%s', which "
			    "cannot be read back: nothing to show", input);
			return bt_wait_code(ws);
		}
	}
	if (c.input != NULL && !c.force && check_owner(input) < 0)
		return EXIT_NODATA;
	if ((p = open_input(&c, input, qargv != NULL, &err)) == NULL) {
		errmsg("%s", err.msg);
		return EXIT_NODATA;
	}
	/* -i: the recorded benchmark's status is shown, not returned (DESIGN §2) */
	status = c.input != NULL ? 0 : bench_status(bt_profile_info(p));
	s = bt_session_new(p, &c.so, &err);
	if (c.bench_frames != NULL)
		bt_session_set_bench_frames(s, c.bench_frames);
	sel = bt_selection_new(s, &c.sel, &err);
	if (sel == NULL) {
		errmsg("%s", err.msg);
		bt_session_free(s);
		return err.code == BT_EINVAL ? EXIT_USAGE : EXIT_NODATA;
	}
	/* benchmarks are placed by their entry frames: chains first */
	if (bt_selection_nbenches(sel) > 0 && bt_tui_read_chains(&sel, &err) < 0) {
		errmsg("%s", err.msg);
		ret = EXIT_NODATA;
		goto out;
	}
	if (c.bench != NULL && select_bench(&sel, c.bench) < 0) {
		ret = EXIT_USAGE;
		goto out;
	}
	if (qargv != NULL) {	/* benchtui query: answer on stdout until stdin ends */
		struct query q = { sel, &c.eo, input, query_diff, &c };

		c.eo.func = c.symbol;
		ret = query_run(&q, stdin, stdout) < 0 ? EXIT_NODATA : 0;
		goto out;
	}
	ret = show(&c, &sel, &err);
	if (ret > 0) {		/* ended by a signal, terminal restored */
		ret = 128 + ret;
		goto out;
	}
	if (ret < 0) {
		errmsg("%s", err.msg);
		ret = err.code == BT_ENOENT ? EXIT_USAGE : EXIT_NODATA;
		goto out;
	}
	ret = status;
out:
	bt_selection_free(sel);
	bt_session_free(s);
	free(qargv);
	return ret;
}
