/*
 * Command-line parsing (DESIGN.md §2): every option into a struct cli, every
 * mistake into a one-line message. Nothing here prints or exits, so that
 * the parser can be fuzzed (tests/fuzz/fuzz-cmdline.c).
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const char cli_usage[] =
"usage: benchtui [OPTIONS] [--] COMMAND [ARGS...]   record COMMAND, save, then browse\n"
"       benchtui [OPTIONS] -i FILE                  browse a saved recording (benchtui's or perf's)\n"
"       benchtui diff [OPTIONS] OLD NEW             compare two recordings (docs/diff.md;\n"
"                                                   benchtui -- diff ... records diff(1))\n"
"       benchtui query [OPTIONS] FILE               answer JSON-RPC (MCP tools/call) on stdin:\n"
"                                                   list_benchmarks, hot_functions, annotate, findings\n"
"\n"
"Recording:\n"
"  -F, --freq HZ          samples per second (default 4000)\n"
"  -e, --event EVENT      cycles, instructions, cpu-clock, task-clock, ... (default:\n"
"                         cycles, or cpu-clock where there is no hardware PMU),\n"
"                         with perf's modifiers (cycles:u, cycles:pp, ...); a\n"
"                         list or groups as perf takes them (-e a,b; -e again;\n"
"                         -e '{cycles,instructions}'; '{...}:S': leader samples);\n"
"                         with -i: which recorded event to show, by a name perf\n"
"                         prints (default: the first event with samples)\n"
"  -o, --output FILE      where to save the recording (default benchtui.data; a\n"
"                         symlink's target is written, a device written through)\n"
"  -m, --mmap-pages N     ring buffer pages per CPU, a power of 2 (default 512,\n"
"                         at most 4096 in all, 1024 with --call-graph dwarf;\n"
"                         halved automatically under a low locked-memory limit)\n"
"      --delay MS         drop the first MS milliseconds (warm-up)\n"
"  -g                     call chains from frame pointers (--call-graph fp)\n"
"      --call-graph MODE  fp, dwarf[,SIZE], lbr or none (default: frame pointers\n"
"                         plus a 512-byte stack copy, right for frameless leaves)\n"
"  -q, --quiet            no recording summary on stderr\n"
"      --no-jit           run node or java as given (by default benchtui turns on\n"
"                         their JIT code output: node --perf-prof, java with\n"
"                         benchtui's JVMTI agent)\n"
"      --no-probes        no probes on the harness's own timer (by default a Google\n"
"                         Benchmark, go test or criterion program gets uprobes that\n"
"                         tell each benchmark's measured phase)\n"
"      --jit-copy         hold the command at its exit and copy the code its\n"
"                         perf map (/tmp/perf-PID.map) names, to annotate it\n"
"                         (automatic for java without benchtui's agent)\n"
"Viewing:\n"
"  -i, --input FILE       open a recording instead of running a command (a\n"
"                         directory: perf record --threads; - reads it from\n"
"                         standard input: perf record -o - | ...)\n"
"  -f, --force            read a recording owned by another user (not you or\n"
"                         root), which is refused otherwise, as perf does\n"
"  -s, --symbol NAME      open this function (its name, perf's short name, or\n"
"                         a unique prefix); one of several: NAME@MODULE,\n"
"                         0xADDR or MODULE+0xADDR (objdump's addresses)\n"
"      --stdio            print the report instead of browsing (default with -i\n"
"                         when stdout is not a terminal; after a run, stdout\n"
"                         is the command's: no report there without it)\n"
"      --export FILE      write the export to FILE and exit\n"
"      --format FMT       text (default), json, flamegraph (an SVG of the call\n"
"                         chains, for a browser; per benchmark with -b), pprof\n"
"                         (gzip'ed profile.proto for go tool pprof, labels\n"
"                         bench.name, pid, tid) or bmf (Bencher's metric format:\n"
"                         latency, cycles per op...)\n"
"      --view SCREEN      print or export one screen instead of the report:\n"
"                         mca (X, predicted vs measured, of -s FUNC) or\n"
"                         data-types (D, of the selection); text or json\n"
"      --top N            annotate the N hottest functions in --stdio/--export\n"
"                         (default 5; 0: the table only)\n"
"      --all              annotate every sampled function\n"
"      --skid             skid-adjusted attribution as the primary column\n"
"      --per-op           the number column: ns (or cycles) per op of the benchmark\n"
"                         (-b NAME; t's fourth mode, JMH's norm)\n"
"      --children         order the function table by inclusive samples\n"
"      --no-children      order it by self samples (default)\n"
"      --no-source        no source lines (nor the table's Source column)\n"
"      --source-path DIRS where to look for sources their recorded paths miss:\n"
"                         directories and zip archives (a JDK's lib/src.zip),\n"
"                         colon-separated; Java's src/main/java/ layouts too\n"
"      --prefix PREFIX    read absolute source paths under PREFIX (perf's)\n"
"      --prefix-strip N   with --prefix: drop their first N directories\n"
"  -M, --syntax SYNTAX    att (default) or intel\n"
"      --percent WHICH    local (of the function, default) or global (of all samples)\n"
"      --names FORM       C++ names: short (as perf prints them, default), folded\n"
"                         (template arguments as <...>) or full\n"
"      --time FROM,TO     only samples in that part of the run: seconds, or N%\n"
"      --pid PID[,PID...] only the samples of these processes (as perf report's)\n"
"      --tid TID[,TID...] only the samples of these threads\n"
"      --comm NAME[,NAME...]  only the samples of threads of these names (as\n"
"                         perf report's --comms: the name at the sample's time)\n"
"      --region-threshold PCT  hot regions start at instructions with PCT% of\n"
"                         the function's samples (default 1)\n"
"      --region-margin N  merge hot instructions up to N cold ones apart (default 8)\n"
"Benchmarks (the harness's results, read from its output while it runs):\n"
"  -b, --benchmark NAME   only that benchmark's samples, in every view and output\n"
"                         (its name as the harness printed it, or a unique prefix)\n"
"      --benchmark-frames PATTERN  entry frames of a harness benchtui does not\n"
"                         know (globs, comma-separated): each function named is\n"
"                         a benchmark, with the samples whose chain holds it\n"
"Comparing (benchtui diff OLD NEW, or --baseline):\n"
"      --baseline OLD     record COMMAND, then compare the recording OLD with it\n"
"      --fail-on slower[=PCT]  exit with status 3 when a benchmark is significantly\n"
"                         slower (by more than PCT percent: its interval's low end)\n"
"      --noise PCT        the run-to-run noise floor: no change within PCT percent\n"
"                         is called slower or faster (default 10)\n"
"  -s NAME (with diff)    the function NAME of both builds aligned, instruction\n"
"                         by instruction, printed instead (docs/diff.md)\n"
"      --format flamegraph|pprof (with diff)  B's flame graph coloured by the\n"
"                         change from A, or both sides in one profile (label side)\n"
"  -b NAME (with diff)    with flamegraph or pprof: that benchmark pair only\n"
"  -h, --help             this help\n"
"      --version          print the version\n";

enum {
	OPT_DELAY = 256, OPT_STDIO, OPT_EXPORT, OPT_FORMAT, OPT_TOP, OPT_ALL,
	OPT_SKID, OPT_NO_SOURCE, OPT_PERCENT, OPT_TIME, OPT_VERSION,
	OPT_REGION_THRESHOLD, OPT_REGION_MARGIN, OPT_NAMES, OPT_NO_JIT, OPT_NO_PROBES,
	OPT_BENCH_FRAMES, OPT_CALL_GRAPH, OPT_CHILDREN, OPT_NO_CHILDREN,
	OPT_JIT_COPY, OPT_PID, OPT_TID, OPT_COMM, OPT_SOURCE_PATH, OPT_PREFIX,
	OPT_PREFIX_STRIP, OPT_PER_OP, OPT_BASELINE, OPT_FAIL_ON, OPT_NOISE, OPT_VIEW,
};

static const struct option long_opts[] = {
	{ "freq", required_argument, NULL, 'F' },
	{ "event", required_argument, NULL, 'e' },
	{ "output", required_argument, NULL, 'o' },
	{ "mmap-pages", required_argument, NULL, 'm' },
	{ "delay", required_argument, NULL, OPT_DELAY },
	{ "call-graph", required_argument, NULL, OPT_CALL_GRAPH },
	{ "children", no_argument, NULL, OPT_CHILDREN },
	{ "no-children", no_argument, NULL, OPT_NO_CHILDREN },
	{ "quiet", no_argument, NULL, 'q' },
	{ "no-jit", no_argument, NULL, OPT_NO_JIT },
	{ "no-probes", no_argument, NULL, OPT_NO_PROBES },
	{ "jit-copy", no_argument, NULL, OPT_JIT_COPY },
	{ "input", required_argument, NULL, 'i' },
	{ "force", no_argument, NULL, 'f' },
	{ "symbol", required_argument, NULL, 's' },
	{ "stdio", no_argument, NULL, OPT_STDIO },
	{ "export", required_argument, NULL, OPT_EXPORT },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "view", required_argument, NULL, OPT_VIEW },
	{ "all", no_argument, NULL, OPT_ALL },
	{ "skid", no_argument, NULL, OPT_SKID },
	{ "per-op", no_argument, NULL, OPT_PER_OP },
	{ "no-source", no_argument, NULL, OPT_NO_SOURCE },
	{ "source-path", required_argument, NULL, OPT_SOURCE_PATH },
	{ "prefix", required_argument, NULL, OPT_PREFIX },
	{ "prefix-strip", required_argument, NULL, OPT_PREFIX_STRIP },
	{ "syntax", required_argument, NULL, 'M' },
	{ "percent", required_argument, NULL, OPT_PERCENT },
	{ "names", required_argument, NULL, OPT_NAMES },
	{ "time", required_argument, NULL, OPT_TIME },
	{ "pid", required_argument, NULL, OPT_PID },
	{ "tid", required_argument, NULL, OPT_TID },
	{ "comm", required_argument, NULL, OPT_COMM },
	{ "region-threshold", required_argument, NULL, OPT_REGION_THRESHOLD },
	{ "region-margin", required_argument, NULL, OPT_REGION_MARGIN },
	{ "benchmark", required_argument, NULL, 'b' },
	{ "benchmark-frames", required_argument, NULL, OPT_BENCH_FRAMES },
	{ "baseline", required_argument, NULL, OPT_BASELINE },
	{ "fail-on", required_argument, NULL, OPT_FAIL_ON },
	{ "noise", required_argument, NULL, OPT_NOISE },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

struct perr {
	char *buf;
	size_t len;
};

static int __attribute__((format(printf, 2, 3)))
bad(struct perr *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->buf, e->len, fmt, ap);
	va_end(ap);
	return -1;
}

static int
parse_num(struct perr *e, const char *opt, const char *s, unsigned long min,
	  unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end != '\0' || s[0] == '-' || v < min || v > max)
		return bad(e, "bad value '%s' for %s (a number from %lu to %lu)", s,
		    opt, min, max);
	*out = v;
	return 0;
}

/* One side of --time: seconds or N%; empty means unbounded (-1). */
static int
parse_time_side(struct perr *e, const char *s, size_t n, bool *pct, double *out)
{
	char buf[64], *end;

	*out = -1;
	if (n == 0)
		return 0;
	if (n >= sizeof(buf))
		return bad(e, "bad --time value (FROM,TO in seconds or percent)");
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (buf[n - 1] == '%') {
		*pct = true;
		buf[--n] = '\0';
	}
	*out = strtod(buf, &end);
	if (end == buf || *end != '\0' || !(*out >= 0) || *out > 1e9)
		return bad(e, "bad --time value '%s' (FROM,TO in seconds or percent)", buf);
	return 0;
}

/* --pid, --tid: a comma-separated list of ids, added to ids[*n]. */
static int
parse_ids(struct perr *e, const char *opt, const char *arg, uint32_t *ids, size_t *n)
{
	const char *p = arg;

	do {
		char *end;
		unsigned long v;

		errno = 0;
		v = strtoul(p, &end, 10);
		if (errno || end == p || (*end != ',' && *end != '\0') || *p == '-' ||
		    v > UINT32_MAX || (*end == ',' && end[1] == '\0'))
			return bad(e, "bad %s value '%s' (numbers, comma-separated)", opt, arg);
		if (*n >= BT_SELECTION_MAX_THREADS)
			return bad(e, "%s: at most %d of them", opt, BT_SELECTION_MAX_THREADS);
		ids[(*n)++] = (uint32_t)v;
		p = *end ? end + 1 : end;
	} while (*p);
	return 0;
}

/* --comm: a comma-separated list of thread names, added to so->comm. */
static int
parse_comms(struct perr *e, const char *arg, struct bt_selection_opts *so)
{
	const char *p = arg;

	do {
		size_t len = strcspn(p, ",");

		if (len == 0)
			return bad(e, "bad --comm value '%s' (names, comma-separated)", arg);
		if (len >= BT_COMM_LEN)
			return bad(e, "--comm: '%.*s' is longer than a thread's name can be "
			    "(%d characters)", (int)len, p, BT_COMM_LEN - 1);
		if (so->ncomm >= BT_SELECTION_MAX_THREADS)
			return bad(e, "--comm: at most %d of them", BT_SELECTION_MAX_THREADS);
		memcpy(so->comm[so->ncomm], p, len);
		so->comm[so->ncomm++][len] = '\0';
		p += len;
		if (*p == ',' && *++p == '\0')
			return bad(e, "bad --comm value '%s' (names, comma-separated)", arg);
	} while (*p);
	return 0;
}

static int
parse_time(struct perr *e, const char *arg, struct bt_selection_opts *so)
{
	const char *comma = strchr(arg, ',');
	bool p1 = false, p2 = false;

	if (comma == NULL)
		return bad(e, "bad --time value '%s' (FROM,TO, e.g. 0.5,2 or 10%%,90%%)", arg);
	if (parse_time_side(e, arg, (size_t)(comma - arg), &p1, &so->time_from) ||
	    parse_time_side(e, comma + 1, strlen(comma + 1), &p2, &so->time_to))
		return -1;
	/* 0 is 0 in both units; otherwise the two sides must agree */
	if (comma > arg && comma[1] != '\0' && p1 != p2 &&
	    so->time_from != 0 && so->time_to != 0)
		return bad(e, "--time: use seconds or percent on both sides");
	so->time_percent = p1 || p2;
	if ((p1 && so->time_from > 100) || (p2 && so->time_to > 100))
		return bad(e, "--time: a percent is at most 100");
	if (so->time_from >= 0 && so->time_to >= 0 && so->time_to <= so->time_from)
		return bad(e, "--time: TO must be after FROM");
	return 0;
}

/* A recording option: 0 taken, -1 a mistake (e set), 1 not one of these. */
static int
record_opt(struct perr *e, struct cli *c, int opt)
{
	unsigned long v;

	switch (opt) {
	case 'F':
		if (parse_num(e, "-F", optarg, 1, 100000, &v))
			return -1;
		c->freq = (unsigned)v;
		return 0;
	case 'e':	/* several: one list, as perf joins them */
		c->event_last = optarg;
		if (c->event == NULL) {
			c->event = optarg;
			return 0;
		}
		if (strlen(c->event) + 1 + strlen(optarg) >= sizeof(c->events))
			return bad(e, "-e: too many events (%zu bytes at most)",
			    sizeof(c->events) - 1);
		if (c->event != c->events)
			snprintf(c->events, sizeof(c->events), "%s", c->event);
		strcat(c->events, ",");
		strcat(c->events, optarg);
		c->event = c->events;
		return 0;
	case 'o':
		/* refused before the run: the recording would be lost after it */
		if (optarg[0] == '\0')
			return bad(e, "-o needs a file name, not an empty one");
		c->output = optarg;
		return 0;
	case 'm':
		if (parse_num(e, "-m", optarg, 1, 65536, &v))
			return -1;
		if (v & (v - 1))
			return bad(e, "bad value '%s' for -m (a power of 2)", optarg);
		c->mmap_pages = (unsigned)v;
		return 0;
	case OPT_DELAY:
		if (parse_num(e, "--delay", optarg, 0, 86400000, &v))
			return -1;
		c->delay = (unsigned)v;
		return 0;
	case 'q':
		c->quiet = true;
		return 0;
	case OPT_NO_PROBES:
		c->no_probes = true;
		return 0;
	case OPT_NO_JIT:
		c->no_jit = true;
		return 0;
	case 'g':
		c->callgraph = BT_CG_FP;
		c->callgraph_set = true;
		return 0;
	case OPT_CALL_GRAPH: {
		struct bt_error be = { 0 };
		if (bt_callgraph_parse(optarg, &c->callgraph, &c->stack_size, &be) < 0)
			return bad(e, "%s", be.msg);
		c->callgraph_set = true;
		return 0;
	}
	case OPT_JIT_COPY:
		c->jit_copy = true;
		return 0;
	default:
		return 1;
	}
}

/* One of --syntax, --names, --percent into v: 0, -1 (e set), 1 not one of these. */
static int
view_enum_opt(struct perr *e, struct bt_view_opts *v, int opt)
{
	switch (opt) {
	case 'M':
		if (strcmp(optarg, "att") == 0)
			v->syntax = BT_ASM_ATT;
		else if (strcmp(optarg, "intel") == 0)
			v->syntax = BT_ASM_INTEL;
		else
			return bad(e, "unknown syntax '%s' (att or intel)", optarg);
		return 0;
	case OPT_NAMES:
		if (strcmp(optarg, "short") == 0)
			v->names = BT_NAMES_SHORT;
		else if (strcmp(optarg, "folded") == 0)
			v->names = BT_NAMES_FOLDED;
		else if (strcmp(optarg, "full") == 0)
			v->names = BT_NAMES_FULL;
		else
			return bad(e, "unknown --names '%s' (short, folded or full)", optarg);
		return 0;
	case OPT_PERCENT:
		if (strcmp(optarg, "local") == 0)
			v->global_percent = false;
		else if (strcmp(optarg, "global") == 0)
			v->global_percent = true;
		else
			return bad(e, "unknown --percent '%s' (local or global)", optarg);
		return 0;
	default:
		return 1;
	}
}

/* A viewing option: 0 taken, -1 a mistake (e set), 1 not one of these. */
static int
view_opt(struct perr *e, struct cli *c, int opt)
{
	unsigned long v;

	switch (opt) {
	case OPT_PER_OP:
		c->eo.view.num = BT_NUM_PER_OP;
		return 0;
	case OPT_CHILDREN:
		c->eo.view.children = true;
		return 0;
	case OPT_NO_CHILDREN:
		c->eo.view.children = false;
		return 0;
	case OPT_FORMAT:
		if (strcmp(optarg, "text") == 0)
			c->eo.format = BT_FORMAT_TEXT;
		else if (strcmp(optarg, "json") == 0)
			c->eo.format = BT_FORMAT_JSON;
		else if (strcmp(optarg, "flamegraph") == 0)
			c->eo.format = BT_FORMAT_FLAMEGRAPH;
		else if (strcmp(optarg, "pprof") == 0)
			c->eo.format = BT_FORMAT_PPROF;
		else if (strcmp(optarg, "bmf") == 0)
			c->eo.format = BT_FORMAT_BMF;
		else
			return bad(e, "unknown format '%s' (text, json, flamegraph, pprof or bmf)",
			    optarg);
		return 0;
	case OPT_VIEW:
		if (strcmp(optarg, "mca") == 0)
			c->eo.screen = BT_EXPORT_MCA;
		else if (strcmp(optarg, "data-types") == 0)
			c->eo.screen = BT_EXPORT_DATA_TYPES;
		else
			return bad(e, "unknown view '%s' (mca or data-types)", optarg);
		return 0;
	case OPT_TOP:
		if (parse_num(e, "--top", optarg, 0, 1000000, &v))
			return -1;
		c->eo.top = v;
		return 0;
	case OPT_ALL:
		c->eo.all = true;
		return 0;
	case OPT_SKID:
		c->eo.view.skid = true;
		return 0;
	case OPT_NO_SOURCE:
		c->eo.view.source = false;
		c->so.no_source = true;
		return 0;
	case OPT_TIME:
		return parse_time(e, optarg, &c->sel) ? -1 : 0;
	case OPT_PID:
		return parse_ids(e, "--pid", optarg, c->sel.pid, &c->sel.npid);
	case OPT_TID:
		return parse_ids(e, "--tid", optarg, c->sel.tid, &c->sel.ntid);
	case OPT_COMM:
		return parse_comms(e, optarg, &c->sel);
	case OPT_REGION_THRESHOLD: {
		char *end;
		double t = strtod(optarg, &end);
		if (end == optarg || *end != '\0' || !(t > 0) || t > 100)
			return bad(e, "bad --region-threshold '%s' (a percent, above 0)", optarg);
		c->so.region_threshold = t;
		return 0;
	}
	case OPT_REGION_MARGIN:
		if (parse_num(e, "--region-margin", optarg, 0, 10000, &v))
			return -1;
		c->so.region_margin = (unsigned)v;
		return 0;
	case OPT_SOURCE_PATH:
		c->so.source_path = optarg;
		return 0;
	case OPT_PREFIX:
		c->so.prefix = optarg;
		return 0;
	case OPT_PREFIX_STRIP:
		if (parse_num(e, "--prefix-strip", optarg, 0, 4096, &v))
			return -1;
		c->so.prefix_strip = (unsigned)v;
		return 0;
	default:
		return view_enum_opt(e, &c->eo.view, opt);
	}
}

/* --fail-on slower[=PCT] */
static int
fail_on_opt(struct perr *e, struct cli *c, const char *arg)
{
	char *end;

	if (strncmp(arg, "slower", 6) != 0 || (arg[6] != '\0' && arg[6] != '='))
		return bad(e, "--fail-on takes slower or slower=PCT, not '%s'", arg);
	c->fail_on = true;
	c->fail_pct = 0;
	if (arg[6] == '=') {
		errno = 0;
		c->fail_pct = strtod(arg + 7, &end);
		if (end == arg + 7 || *end != '\0' || errno || !(c->fail_pct >= 0))
			return bad(e, "--fail-on slower=PCT takes a percentage, not '%s'",
			    arg + 7);
	}
	return 0;
}

/* What to open and how: 0 taken, -1 a mistake (e set), 2 stop (-h, --version). */
static int
other_opt(struct perr *e, struct cli *c, int opt, char **argv)
{
	switch (opt) {
	case 'i':
		c->input = optarg;
		return 0;
	case 'f':
		c->force = true;
		return 0;
	case 's':
		c->symbol = optarg;
		return 0;
	case 'b':
		c->bench = optarg;
		return 0;
	case OPT_BENCH_FRAMES:
		c->bench_frames = optarg;
		return 0;
	case OPT_STDIO:
		c->stdio = true;
		return 0;
	case OPT_BASELINE:
		c->baseline = optarg;
		return 0;
	case OPT_FAIL_ON:
		return fail_on_opt(e, c, optarg);
	case OPT_NOISE: {
		char *end;
		errno = 0;
		c->noise = strtod(optarg, &end);
		if (end == optarg || *end != '\0' || errno || !(c->noise >= 0 && c->noise < 1000))
			return bad(e, "--noise takes a percentage, not '%s'", optarg);
		return 0;
	}
	case OPT_EXPORT:
		if (optarg[0] == '\0')
			return bad(e, "--export needs a file name, not an empty one");
		c->export_path = optarg;
		return 0;
	case 'h':
		c->help = true;
		return 2;
	case OPT_VERSION:
		c->version = true;
		return 2;
	case ':':
		return bad(e, "option '%s' needs a value", argv[optind - 1]);
	default:
		if (optopt)
			return bad(e, "unknown option '-%c'", optopt);
		return bad(e, "unknown option '%s'", argv[optind - 1]);
	}
}

/* The options until getopt stops: 1 all taken, 0 stop (-h), -1 a mistake. */
static int
parse_opts(struct perr *e, struct cli *c, int argc, char **argv, const char *optstring)
{
	int opt, r;

	while ((opt = getopt_long(argc, argv, optstring, long_opts, NULL)) != -1) {
		if ((r = record_opt(e, c, opt)) == 1 && (r = view_opt(e, c, opt)) == 1)
			r = other_opt(e, c, opt, argv);
		if (r < 0)
			return -1;
		if (r == 2)
			return 0;
	}
	return 1;
}

/* diff OLD NEW, options anywhere after diff (argv[0] is "diff"). */
static int
parse_diff(struct perr *e, struct cli *c, int argc, char **argv)
{
	int opt, r, n = 0;

	optind = 0;
	while ((opt = getopt_long(argc, argv, "-:e:fs:M:b:h", long_opts, NULL)) != -1) {
		if (opt == 1) {		/* a recording */
			if (n == 2)
				return bad(e, "diff compares two recordings (OLD NEW), "
				    "not a third ('%s')", optarg);
			c->diff[n++] = optarg;
			continue;
		}
		if ((r = record_opt(e, c, opt)) == 1 && (r = view_opt(e, c, opt)) == 1)
			r = other_opt(e, c, opt, argv);
		if (r < 0)
			return -1;
		if (r == 2)
			return 0;
	}
	if (n < 2)
		return bad(e, "diff compares two recordings: benchtui diff OLD NEW");
	if (c->input != NULL || c->baseline != NULL)
		return bad(e, "diff compares OLD and NEW: not with -i or --baseline");
	if (c->freq || c->delay || c->mmap_pages || c->callgraph_set)
		return bad(e, "-F, -m, --delay and --call-graph are for recording, not with diff");
	if (c->bench != NULL && c->eo.format != BT_FORMAT_FLAMEGRAPH &&
	    c->eo.format != BT_FORMAT_PPROF)
		return bad(e, "-b with diff is for --format flamegraph or pprof (one benchmark pair)");
	c->sel.event = c->event_last;
	return 0;
}

int
cli_parse(int argc, char **argv, struct cli *c, char *err, size_t errlen)
{
	struct perr e = { err, errlen };
	int r;

	memset(c, 0, sizeof(*c));
	c->output = "benchtui.data";
	c->noise = -1;
	c->eo.top = 5;
	bt_view_opts_init(&c->eo.view);
	bt_session_opts_init(&c->so);
	bt_selection_opts_init(&c->sel);
	err[0] = '\0';
	optind = 0;	/* GNU getopt: start over */
	opterr = 0;
	if ((r = parse_opts(&e, c, argc, argv, "+:F:e:o:m:qi:fs:M:b:hg")) != 1)
		return r;
	/* benchtui [OPTIONS] diff OLD NEW [OPTIONS] (not after --: diff(1) recorded) */
	if (optind < argc && strcmp(argv[optind], "diff") == 0 &&
	    strcmp(argv[optind - 1], "--") != 0)
		return parse_diff(&e, c, argc - optind, argv + optind);
	if (c->input != NULL && optind < argc)
		return bad(&e, "give either -i FILE or a command, not both");
	if (c->input != NULL && c->baseline != NULL)
		return bad(&e, "--baseline records a command to compare: not with -i");
	if ((c->fail_on || c->noise >= 0) && c->baseline == NULL)
		return bad(&e, "--fail-on and --noise need a comparison: benchtui diff or --baseline");
	if (c->input == NULL && optind >= argc)
		return bad(&e, "no command to run and no recording to open (-i FILE)");
	if (c->input != NULL && (c->freq || c->delay || c->mmap_pages))
		return bad(&e, "-F, -m and --delay are for recording, not with -i");
	if (c->input == NULL && c->force)
		return bad(&e, "-f is for reading a recording (-i FILE)");
	if (c->input != NULL && c->callgraph_set)
		return bad(&e, "-g and --call-graph are for recording, not with -i");
	if (c->so.prefix_strip && c->so.prefix == NULL)
		return bad(&e, "--prefix-strip needs --prefix");
	if (c->input != NULL)
		c->sel.event = c->event_last;	/* one to show: the last -e */
	else
		c->cmd = argv + optind;
	return 0;
}
