/*
 * benchtui: command line (DESIGN.md §2). Records a command, or opens a
 * recording, then browses it on a terminal or prints the text export.
 * This file owns printing and exit codes; the library never prints.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "benchtui/benchtui.h"
#include "benchtui/export.h"
#include "benchtui/profile.h"
#include "benchtui/record.h"
#include "benchtui/session.h"
#include "tui.h"

#define EXIT_USAGE 1
#define EXIT_NODATA 2

static const char usage_text[] =
"usage: benchtui [OPTIONS] [--] COMMAND [ARGS...]   record COMMAND, save, then browse\n"
"       benchtui [OPTIONS] -i FILE                  browse a saved recording (benchtui's or perf's)\n"
"\n"
"Recording:\n"
"  -F, --freq HZ          samples per second (default 4000)\n"
"  -e, --event EVENT      cycles, instructions, cpu-clock, task-clock, ... (default:\n"
"                         cycles, or cpu-clock where there is no hardware PMU);\n"
"                         with -i: which recorded event to show (default: the first)\n"
"  -o, --output FILE      where to save the recording (default benchtui.data)\n"
"      --delay MS         drop the first MS milliseconds (warm-up)\n"
"  -q, --quiet            no recording summary on stderr\n"
"Viewing:\n"
"  -i, --input FILE       open a recording instead of running a command\n"
"  -s, --symbol NAME      open this function\n"
"      --stdio            print instead of browsing (default when stdout is not a terminal)\n"
"      --export FILE      write the export to FILE and exit\n"
"      --format FMT       text (default) or json\n"
"      --top N            annotate the N hottest functions in --stdio/--export\n"
"                         (default 5; 0: the table only)\n"
"      --all              annotate every sampled function\n"
"      --skid             skid-adjusted attribution as the primary column\n"
"      --no-source        no interleaved source lines\n"
"  -M, --syntax SYNTAX    att (default) or intel\n"
"      --percent WHICH    local (of the function, default) or global (of all samples)\n"
"      --time FROM,TO     only samples in that part of the run: seconds, or N%\n"
"      --region-threshold PCT  hot regions start at instructions with PCT% of\n"
"                         the function's samples (default 1)\n"
"      --region-margin N  merge hot instructions up to N cold ones apart (default 8)\n"
"  -h, --help             this help\n"
"      --version          print the version\n";

enum {
	OPT_DELAY = 256, OPT_STDIO, OPT_EXPORT, OPT_FORMAT, OPT_TOP, OPT_ALL,
	OPT_SKID, OPT_NO_SOURCE, OPT_PERCENT, OPT_TIME, OPT_VERSION,
	OPT_REGION_THRESHOLD, OPT_REGION_MARGIN,
};

static const struct option long_opts[] = {
	{ "freq", required_argument, NULL, 'F' },
	{ "event", required_argument, NULL, 'e' },
	{ "output", required_argument, NULL, 'o' },
	{ "delay", required_argument, NULL, OPT_DELAY },
	{ "quiet", no_argument, NULL, 'q' },
	{ "input", required_argument, NULL, 'i' },
	{ "symbol", required_argument, NULL, 's' },
	{ "stdio", no_argument, NULL, OPT_STDIO },
	{ "export", required_argument, NULL, OPT_EXPORT },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "all", no_argument, NULL, OPT_ALL },
	{ "skid", no_argument, NULL, OPT_SKID },
	{ "no-source", no_argument, NULL, OPT_NO_SOURCE },
	{ "syntax", required_argument, NULL, 'M' },
	{ "percent", required_argument, NULL, OPT_PERCENT },
	{ "time", required_argument, NULL, OPT_TIME },
	{ "region-threshold", required_argument, NULL, OPT_REGION_THRESHOLD },
	{ "region-margin", required_argument, NULL, OPT_REGION_MARGIN },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static void __attribute__((noreturn, format(printf, 1, 2)))
usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("benchtui: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (see benchtui --help)\n", stderr);
	exit(EXIT_USAGE);
}

static unsigned long
parse_num(const char *opt, const char *s, unsigned long min, unsigned long max)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end != '\0' || s[0] == '-' || v < min || v > max)
		usage_error("bad value '%s' for %s (a number from %lu to %lu)", s,
		    opt, min, max);
	return v;
}

/* One side of --time: seconds or N%; empty means unbounded. */
static double
parse_time_side(const char *s, size_t n, bool *pct)
{
	char buf[64], *end;
	double v;

	if (n == 0)
		return -1;
	if (n >= sizeof(buf))
		usage_error("bad --time value");
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (buf[n - 1] == '%') {
		*pct = true;
		buf[--n] = '\0';
	}
	v = strtod(buf, &end);
	if (end == buf || *end != '\0' || v < 0)
		usage_error("bad --time value '%s' (FROM,TO in seconds or percent)", s);
	return v;
}

static void
parse_time(const char *arg, struct bt_session_opts *so)
{
	const char *comma = strchr(arg, ',');
	bool p1 = false, p2 = false;

	if (comma == NULL)
		usage_error("bad --time value '%s' (FROM,TO, e.g. 0.5,2 or 10%%,90%%)", arg);
	so->time_from = parse_time_side(arg, (size_t)(comma - arg), &p1);
	so->time_to = parse_time_side(comma + 1, strlen(comma + 1), &p2);
	/* 0 is 0 in both units; otherwise the two sides must agree */
	if (comma > arg && comma[1] != '\0' && p1 != p2 &&
	    so->time_from != 0 && so->time_to != 0)
		usage_error("--time: use seconds or percent on both sides");
	so->time_percent = p1 || p2;
	if (so->time_from >= 0 && so->time_to >= 0 && so->time_to <= so->time_from)
		usage_error("--time: TO must be after FROM");
}

static void
on_signal(int sig)
{
	bt_record_interrupt(sig);
}

/* The exit code for the benchmark's own status (like time(1)). */
static int
bench_status(const struct bt_profile_info *in)
{
	if (!in->has_status)
		return 0;
	if (WIFEXITED(in->wait_status))
		return WEXITSTATUS(in->wait_status);
	if (WIFSIGNALED(in->wait_status))
		return 128 + WTERMSIG(in->wait_status);
	return 0;
}

static int
record(char **argv, const char *event, unsigned freq, unsigned delay,
       const char *output, bool quiet)
{
	struct bt_record_opts ro = { 0 };
	struct bt_record_result res;
	struct bt_error err = { 0 };
	struct sigaction sa;
	int ret;

	ro.argv = argv;
	ro.event = event;
	ro.freq = freq;
	ro.delay_ms = delay;
	ro.output = output;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	ret = bt_record_run(&ro, &res, &err);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	if (ret < 0) {
		fprintf(stderr, "benchtui: %s\n", err.msg);
		return err.code == BT_EINVAL ? EXIT_USAGE : EXIT_NODATA;
	}
	if (WIFSIGNALED(res.wait_status) && !res.interrupted)
		fprintf(stderr, "benchtui: '%s' was killed by signal %d (%s); its profile was saved to '%s'\n",
		    argv[0], WTERMSIG(res.wait_status),
		    strsignal(WTERMSIG(res.wait_status)), output);
	else if (WIFEXITED(res.wait_status) && WEXITSTATUS(res.wait_status))
		fprintf(stderr, "benchtui: '%s' exited with status %d; its profile was saved to '%s'\n",
		    argv[0], WEXITSTATUS(res.wait_status), output);
	if (res.interrupted)
		fprintf(stderr, "benchtui: interrupted: '%s' stopped, %llu samples kept in '%s'\n",
		    argv[0], (unsigned long long)res.samples, output);
	if (!quiet)
		fprintf(stderr, "benchtui: %llu samples of %s at %u Hz in %.3f s%s%s%s, lost %llu; saved to '%s'\n",
		    (unsigned long long)res.samples, res.event, freq ? freq : 4000,
		    res.duration, res.event_note[0] ? " (" : "", res.event_note,
		    res.event_note[0] ? ")" : "", (unsigned long long)res.lost, output);
	return 0;
}

int
main(int argc, char **argv)
{
	const char *event = NULL, *output = "benchtui.data", *input = NULL;
	const char *symbol = NULL, *export_path = NULL;
	unsigned freq = 0, delay = 0;
	bool quiet = false, stdio = false;
	struct bt_session_opts so;
	struct bt_export_opts eo;
	struct bt_error err = { 0 };
	struct bt_profile *p;
	struct bt_session *s;
	int c, ret, status;

	memset(&eo, 0, sizeof(eo));
	eo.top = 5;
	bt_view_opts_init(&eo.view);
	bt_session_opts_init(&so);
	while ((c = getopt_long(argc, argv, "+F:e:o:qi:s:M:h", long_opts, NULL)) != -1) {
		switch (c) {
		case 'F':
			freq = (unsigned)parse_num("-F", optarg, 1, 100000);
			break;
		case 'e':
			event = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case OPT_DELAY:
			delay = (unsigned)parse_num("--delay", optarg, 0, 86400000);
			break;
		case 'q':
			quiet = true;
			break;
		case 'i':
			input = optarg;
			break;
		case 's':
			symbol = optarg;
			break;
		case OPT_STDIO:
			stdio = true;
			break;
		case OPT_EXPORT:
			export_path = optarg;
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "text") == 0)
				eo.format = BT_FORMAT_TEXT;
			else if (strcmp(optarg, "json") == 0)
				eo.format = BT_FORMAT_JSON;
			else
				usage_error("unknown format '%s' (text or json)", optarg);
			break;
		case OPT_TOP:
			eo.top = parse_num("--top", optarg, 0, 1000000);
			break;
		case OPT_ALL:
			eo.all = true;
			break;
		case OPT_SKID:
			eo.view.skid = true;
			break;
		case OPT_NO_SOURCE:
			eo.view.source = false;
			break;
		case 'M':
			if (strcmp(optarg, "att") == 0)
				so.syntax = BT_ASM_ATT;
			else if (strcmp(optarg, "intel") == 0)
				so.syntax = BT_ASM_INTEL;
			else
				usage_error("unknown syntax '%s' (att or intel)", optarg);
			break;
		case OPT_PERCENT:
			if (strcmp(optarg, "local") == 0)
				eo.view.global_percent = false;
			else if (strcmp(optarg, "global") == 0)
				eo.view.global_percent = true;
			else
				usage_error("unknown --percent '%s' (local or global)", optarg);
			break;
		case OPT_TIME:
			parse_time(optarg, &so);
			break;
		case OPT_REGION_THRESHOLD: {
			char *end;
			so.region_threshold = strtod(optarg, &end);
			if (end == optarg || *end != '\0' || so.region_threshold <= 0 ||
			    so.region_threshold > 100)
				usage_error("bad --region-threshold '%s' (a percent, above 0)", optarg);
			break;
		}
		case OPT_REGION_MARGIN:
			so.region_margin = (unsigned)parse_num("--region-margin", optarg, 0, 10000);
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		case OPT_VERSION:
			printf("benchtui %s\n", BT_VERSION);
			return 0;
		default:
			fprintf(stderr, "(see benchtui --help)\n");
			return EXIT_USAGE;
		}
	}
	if (input != NULL && optind < argc)
		usage_error("give either -i FILE or a command, not both");
	if (input == NULL && optind >= argc)
		usage_error("no command to run and no recording to open (-i FILE)");
	if (input != NULL && (freq || delay))
		usage_error("-F and --delay are for recording, not with -i");
	if (input != NULL)
		so.event = event;

	if (input == NULL) {
		ret = record(argv + optind, event, freq, delay, output, quiet);
		if (ret)
			return ret;
		input = output;
	}
	p = bt_profile_open(input, &err);
	if (p == NULL) {
		fprintf(stderr, "benchtui: %s\n", err.msg);
		return EXIT_NODATA;
	}
	status = bench_status(bt_profile_info(p));
	s = bt_session_new(p, &so, &err);
	if (s == NULL) {
		fprintf(stderr, "benchtui: %s\n", err.msg);
		return err.code == BT_EINVAL ? EXIT_USAGE : EXIT_NODATA;
	}
	eo.func = symbol;
	if (export_path != NULL) {
		FILE *f = fopen(export_path, "w");
		if (f == NULL) {
			fprintf(stderr, "benchtui: cannot write '%s': %s\n",
			    export_path, strerror(errno));
			bt_session_free(s);
			return EXIT_NODATA;
		}
		ret = bt_export(f, s, &eo, &err);
		if (fclose(f) != 0 && ret == 0)
			ret = bt_error_set(&err, BT_EIO, "cannot write '%s': %s",
			    export_path, strerror(errno));
	} else if (stdio || !isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO))
		ret = bt_export(stdout, s, &eo, &err);
	else {
		ret = bt_tui_run(s, &eo, symbol, &err);
		if (ret > 0) {	/* ended by a signal, terminal restored */
			bt_session_free(s);
			return 128 + ret;
		}
	}
	if (ret < 0) {
		fprintf(stderr, "benchtui: %s\n", err.msg);
		bt_session_free(s);
		return err.code == BT_ENOENT ? EXIT_USAGE : EXIT_NODATA;
	}
	bt_session_free(s);
	return status;
}
