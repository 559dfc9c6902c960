/*
 * llvm-mca as a child process: the block written to a temporary file, the
 * report read from a pipe (stderr into it too: its error is the message),
 * then parsed. Nothing is printed; a missing llvm-mca is an error the
 * caller turns into a note.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "annotate/mca.h"

extern char **environ;

#define MCA_ITERATIONS "100"
#define MCA_OUT_MAX (4 << 20)

static char tool[4096];
static bool tool_looked;

/* name as execvp would find it on PATH, into tool; false when not there. */
static bool
on_path(const char *name)
{
	const char *path = getenv("PATH"), *p, *e;
	struct stat st;

	if (strchr(name, '/') != NULL) {
		snprintf(tool, sizeof(tool), "%s", name);
		return access(tool, X_OK) == 0;
	}
	for (p = path ? path : "/usr/bin:/bin"; *p; p = *e ? e + 1 : e) {
		e = strchrnul(p, ':');
		snprintf(tool, sizeof(tool), "%.*s/%s", (int)(e - p), e == p ? "." : p, name);
		if (stat(tool, &st) == 0 && S_ISREG(st.st_mode) && access(tool, X_OK) == 0)
			return true;
	}
	return false;
}

const char *
bt_mca_tool(void)
{
	const char *env = getenv("BENCHTUI_LLVM_MCA");
	char name[32];
	int v;

	if (env != NULL)	/* "" or a missing file: none (tests) */
		return env[0] && on_path(env) ? tool : NULL;
	if (tool_looked)
		return tool[0] ? tool : NULL;
	tool_looked = true;
	if (on_path("llvm-mca"))
		return tool;
	for (v = 19; v >= 13; v--) {
		snprintf(name, sizeof(name), "llvm-mca-%d", v);
		if (on_path(name))
			return tool;
	}
	tool[0] = '\0';
	return NULL;
}

/* Run argv, its stdout and stderr into sb (at most MCA_OUT_MAX); its wait status. */
static int
run(char *const *argv, struct bt_strbuf *sb, int *status, struct bt_error *err)
{
	posix_spawn_file_actions_t fa;
	int fd[2], rc;
	pid_t pid;
	char buf[8192];
	ssize_t k;

	if (pipe2(fd, O_CLOEXEC) < 0)
		return bt_error_set(err, BT_EIO, "cannot make a pipe: %s", strerror(errno));
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
	posix_spawn_file_actions_adddup2(&fa, fd[1], 2);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fd[1]);
	if (rc != 0) {
		close(fd[0]);
		return bt_error_set(err, BT_EEXEC, "cannot run '%s': %s", argv[0],
		    strerror(rc));
	}
	while ((k = read(fd[0], buf, sizeof(buf))) > 0 || (k < 0 && errno == EINTR))
		if (k > 0 && sb->len < MCA_OUT_MAX)
			bt_strbuf_add(sb, buf, (size_t)k);
	close(fd[0]);
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return bt_error_set(err, BT_EIO, "cannot wait for '%s': %s", argv[0],
			    strerror(errno));
	return 0;
}

/* "Host CPU: znver3" of llvm-mca --version, into buf; false when unknown. */
static bool
host_cpu(const char *mca, char *buf, size_t len)
{
	static char known[32];
	static int looked;	/* 0 no, 1 known, -1 unknown */
	char *argv[] = { (char *)mca, (char *)"--version", NULL };
	struct bt_strbuf sb = BT_STRBUF_INIT;
	struct bt_error e = { 0 };
	const char *p;
	int st;

	if (looked == 0) {
		looked = -1;
		if (run(argv, &sb, &st, &e) == 0 && (p = strstr(sb.buf ? sb.buf : "",
		    "Host CPU:")) != NULL && sscanf(p, "Host CPU: %31s", known) == 1 &&
		    strcmp(known, "(unknown)") != 0)
			looked = 1;
		bt_strbuf_release(&sb);
	}
	if (looked < 0)
		return false;
	snprintf(buf, len, "%s", known);
	return true;
}

/* This machine's CPU as "AuthenticAMD,26,2" (what the recorder writes). */
static void
this_cpu_id(char *buf, size_t len)
{
	struct bt_strbuf sb = BT_STRBUF_INIT;
	const char *v, *f, *m;

	buf[0] = '\0';
	if (bt_strbuf_read_file(&sb, "/proc/cpuinfo", 1 << 20) == 0 &&
	    (v = strstr(sb.buf, "vendor_id")) != NULL && (v = strchr(v, ':')) != NULL &&
	    (f = strstr(sb.buf, "cpu family")) != NULL && (f = strchr(f, ':')) != NULL &&
	    (m = strstr(sb.buf, "\nmodel\t")) != NULL && (m = strchr(m, ':')) != NULL)
		snprintf(buf, len, "%.*s,%d,%d", (int)strcspn(v + 2, " \n"), v + 2,
		    atoi(f + 1), atoi(m + 1));
	bt_strbuf_release(&sb);
}

/* Intel family 6 models, newest first within each, and what LLVM 14 calls them. */
static const struct { int model; const char *cpu; } intel6[] = {
	{ 0x8f, "sapphirerapids" }, { 0x97, "alderlake" }, { 0x9a, "alderlake" },
	{ 0xb7, "alderlake" }, { 0xba, "alderlake" }, { 0xbf, "alderlake" },
	{ 0x8c, "tigerlake" }, { 0x8d, "tigerlake" }, { 0xa7, "rocketlake" },
	{ 0x6a, "icelake-server" }, { 0x6c, "icelake-server" },
	{ 0x7d, "icelake-client" }, { 0x7e, "icelake-client" },
	{ 0x55, "cascadelake" }, { 0x66, "cannonlake" },
	{ 0x4e, "skylake" }, { 0x5e, "skylake" }, { 0x8e, "skylake" },
	{ 0x9e, "skylake" }, { 0xa5, "skylake" }, { 0xa6, "skylake" },
	{ 0x3d, "broadwell" }, { 0x47, "broadwell" }, { 0x4f, "broadwell" },
	{ 0x56, "broadwell" }, { 0x3c, "haswell" }, { 0x3f, "haswell" },
	{ 0x45, "haswell" }, { 0x46, "haswell" }, { 0x3a, "ivybridge" },
	{ 0x3e, "ivybridge" }, { 0x2a, "sandybridge" }, { 0x2d, "sandybridge" },
};

int
bt_mca_cpu_for(const char *id, char *cpu, size_t len)
{
	char vendor[32] = "";
	int family = -1, model = -1;
	size_t i;

	if (id == NULL || sscanf(id, "%31[^,],%d,%d", vendor, &family, &model) != 3)
		return -1;
	if (strcmp(vendor, "AuthenticAMD") == 0 || strcmp(vendor, "HygonGenuine") == 0) {
		/* LLVM 14 knows Zen 1-3: Zen 4 (0x19, model 0x10-0x1f, 0x60-0x7f...) and Zen 5 (0x1a) are newer */
		snprintf(cpu, len, "%s", family >= 0x19 ? "znver3" : family == 0x17 ?
		    (model >= 0x30 ? "znver2" : "znver1") : family == 0x16 ? "btver2" :
		    family == 0x15 ? "bdver2" : "x86-64");
		return family == 0x17 || (family == 0x19 && (model < 0x10 ||
		    (model >= 0x20 && model < 0x60))) ? 0 : 1;
	}
	if (strcmp(vendor, "GenuineIntel") == 0 && family == 6) {
		for (i = 0; i < BT_ARRAY_SIZE(intel6); i++)
			if (intel6[i].model == model) {
				snprintf(cpu, len, "%s", intel6[i].cpu);
				return 0;
			}
		snprintf(cpu, len, "skylake");
		return 1;
	}
	snprintf(cpu, len, "x86-64");
	return 1;
}

/*
 * The -mcpu for a recording made on the CPU id ("AuthenticAMD,26,2"; NULL
 * or "": this machine's): llvm-mca's name for this machine when the
 * recording was made on its kind of CPU and llvm-mca knows it, else the
 * model bt_mca_cpu_for() maps the id to; note says which, when not exact.
 */
static void
choose_cpu(const char *mca, const char *id, char *cpu, size_t len, char *note,
	   size_t nlen)
{
	char here[64], vendor[32] = "?";
	int family = 0, model = 0, r;
	bool same;

	this_cpu_id(here, sizeof(here));
	same = id == NULL || id[0] == '\0' || strcmp(id, here) == 0;
	if (same && host_cpu(mca, cpu, len))
		return;
	r = bt_mca_cpu_for(same ? here : id, cpu, len);
	sscanf(same ? here : id, "%31[^,],%d,%d", vendor, &family, &model);
	if (r != 0 || !same)
		snprintf(note, nlen, "%s %s family 0x%x model 0x%x%s: %s's model",
		    same ? "this machine's CPU," : "the recording's CPU,", vendor,
		    family, model, r != 0 ? ", newer than this llvm-mca knows" : "", cpu);
}

int
bt_mca_run(const char *const *lines, size_t n, const char *cpu, const char *cpu_id,
	   struct bt_mca *out, struct bt_error *err)
{
	const char *mca = bt_mca_tool(), *dir = getenv("TMPDIR");
	char path[4096], mcpu[64], cpubuf[32], note[160] = "";
	struct bt_strbuf text = BT_STRBUF_INIT, sb = BT_STRBUF_INIT;
	int fd, st = 0, rc;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (mca == NULL)
		return bt_error_set(err, BT_ENOENT, "no llvm-mca installed (Debian: "
		    "apt install llvm)");
	if (cpu != NULL && cpu[0])
		snprintf(cpubuf, sizeof(cpubuf), "%s", cpu);
	else
		choose_cpu(mca, cpu_id, cpubuf, sizeof(cpubuf), note, sizeof(note));
	snprintf(path, sizeof(path), "%s/benchtui-mca.XXXXXX", dir && dir[0] ? dir : "/tmp");
	if ((fd = mkstemp(path)) < 0)
		return bt_error_set(err, BT_EIO, "cannot write '%s': %s", path, strerror(errno));
	for (i = 0; i < n; i++) {
		bt_strbuf_addstr(&text, lines[i]);
		bt_strbuf_addch(&text, '\n');
	}
	rc = write(fd, text.buf ? text.buf : "", text.len) == (ssize_t)text.len ? 0 :
	    bt_error_set(err, BT_EIO, "cannot write '%s': %s", path, strerror(errno));
	close(fd);
	bt_strbuf_release(&text);
	if (rc == 0) {
		char *argv[] = { (char *)mca, mcpu, (char *)"-iterations=" MCA_ITERATIONS,
		    (char *)"-bottleneck-analysis", path, NULL };
		snprintf(mcpu, sizeof(mcpu), "-mcpu=%s", cpubuf);
		rc = run(argv, &sb, &st, err);
	}
	unlink(path);
	if (rc == 0 && (!WIFEXITED(st) || WEXITSTATUS(st) != 0)) {
		/* its first error line: "<stdin>:3:1: error: invalid instruction" */
		const char *e = strstr(sb.buf ? sb.buf : "", "error: ");
		rc = bt_error_set(err, BT_EFORMAT, "llvm-mca refused the block: %.*s",
		    e ? (int)strcspn(e + 7, "\n") : 20, e ? e + 7 : "no message");
	}
	if (rc == 0)
		rc = bt_mca_parse(sb.buf ? sb.buf : "", n, out, err);
	bt_strbuf_release(&sb);
	if (rc != 0)
		return rc;
	snprintf(out->cpu, sizeof(out->cpu), "%s", cpubuf);
	snprintf(out->cpu_note, sizeof(out->cpu_note), "%s", note);
	return 0;
}

/* The number after "key" on its line, NAN when none. */
static double
field(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	return p ? strtod(p + strlen(key), NULL) : NAN;
}

/* The line after the one that starts with head, NULL when none. */
static const char *
after(const char *text, const char *head)
{
	const char *p = strstr(text, head);

	return p && (p = strchr(p, '\n')) ? p + 1 : NULL;
}

/* "[6.0] - SBPort23" lines after "Resources:" into names; how many. */
static size_t
resources(const char *text, char (*names)[24], size_t max)
{
	const char *p = after(text, "Resources:");
	size_t n = 0;

	while (p != NULL && *p == '[' && n < max) {
		const char *d = strstr(p, "- "), *e = strchr(p, '\n');
		if (d == NULL || (e != NULL && d > e))
			break;
		snprintf(names[n++], sizeof(names[0]), "%.*s",
		    (int)strcspn(d + 2, " \n"), d + 2);
		p = e ? e + 1 : NULL;
	}
	return n;
}

/* What bounds the loop, from the bottleneck analysis. */
static void
bottleneck(const char *text, char *buf, size_t len)
{
	double rp = field(text, "Resource Pressure       [");
	double dd = field(text, "Data Dependencies:      [");
	const char *p;

	if (strstr(text, "No resource or data dependency bottlenecks") != NULL ||
	    (!isfinite(rp) && !isfinite(dd))) {
		snprintf(buf, len, "none found (dispatch width, throughput)");
		return;
	}
	if (isfinite(rp) && (!isfinite(dd) || rp >= dd)) {
		/*
		 * The busiest of the "  - NAME  [ X% ]" lines under it, not
		 * the first: llvm-mca lists them by resource, not by pressure.
		 */
		const char *best = "?";
		int bestn = 1;
		double bestx = -1;

		for (p = after(text, "Resource Pressure       [");
		    p != NULL && strncmp(p, "  - ", 4) == 0; p = after(p, "\n")) {
			const char *b = strchr(p, '['), *e = strchr(p, '\n');
			double x = b && (e == NULL || b < e) ?
			    strtod(b + 1, NULL) : NAN;

			if (isfinite(x) && x > bestx) {
				bestx = x;
				best = p + 4;
				bestn = (int)strcspn(best, " \n");
			}
		}
		snprintf(buf, len, "resource pressure: %.*s (%.0f%% of cycles)",
		    bestn, best, rp);
		return;
	}
	snprintf(buf, len, "%s dependencies (%.0f%% of cycles)",
	    field(text, "- Memory Dependencies   [") > field(text,
	    "- Register Dependencies [") ? "memory" : "register", dd);
}

int
bt_mca_parse(const char *text, size_t n, struct bt_mca *out, struct bt_error *err)
{
	char names[64][24];
	size_t nres = resources(text, names, 64), i, k;
	const char *p;

	memset(out, 0, sizeof(*out));
	out->iterations = field(text, "Iterations:");
	out->total_cycles = field(text, "Total Cycles:");
	out->block_rthroughput = field(text, "Block RThroughput:");
	out->ipc = field(text, "IPC:");
	if (!(out->iterations > 0) || !(out->total_cycles > 0) || nres == 0)
		return bt_error_set(err, BT_EFORMAT, "llvm-mca's report has no %s",
		    !(out->iterations > 0) ? "Iterations" : nres == 0 ? "Resources" :
		    "Total Cycles");
	out->cycles_per_iter = out->total_cycles / out->iterations;
	bottleneck(text, out->bottleneck, sizeof(out->bottleneck));
	out->insns = bt_xcalloc(n + 1, sizeof(*out->insns));
	out->ninsns = n;
	/* "[1] [2] [3] ... Instructions:" then " 2  6  0.50  *  addq ..." */
	p = after(text, "[1]    [2]    [3]");
	for (i = 0; p != NULL && i < n; i++) {
		char *e;
		out->insns[i].uops = (unsigned)strtoul(p, &e, 10);
		out->insns[i].latency = strtod(e, &e);
		out->insns[i].rthroughput = strtod(e, NULL);
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	p = after(text, "Resource pressure by instruction:");
	p = p ? strchr(p, '\n') : NULL;	/* the column heading */
	for (i = 0; p != NULL && i < n; i++) {
		const char *q = p + 1;
		for (k = 0; k < nres; k++) {
			char *e;
			double x;
			q += strspn(q, " ");
			if (*q == '-') {
				q++;
				continue;
			}
			x = strtod(q, &e);
			if (e == q)
				break;
			q = e;
			out->insns[i].pressure += x;
			if (x > out->insns[i].resource_pressure) {
				out->insns[i].resource_pressure = x;
				snprintf(out->insns[i].resource, sizeof(out->insns[i].resource),
				    "%.23s", names[k]);
			}
		}
		p = strchr(p + 1, '\n');
	}
	return 0;
}

void
bt_mca_release(struct bt_mca *m)
{
	free(m->insns);
	memset(m, 0, sizeof(*m));
}
