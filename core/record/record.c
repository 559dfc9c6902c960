/*
 * Run a command under sampling (DESIGN.md §1 "record"): fork it stopped,
 * open the event on every CPU for it, map the rings, let it exec, and
 * drain the rings into a perf.data writer while it runs; then save the
 * features and benchtui's own section.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "base.h"
#include "benchtui/record.h"
#include "jit/jitcopy.h"
#include "perf/meta.h"
#include "perf/perfdata.h"
#include "record/record-int.h"
#include "symbols/symbols.h"

#define DEFAULT_FREQ 4000
/*
 * Ring pages a CPU. A sample with its 512-byte stack copy is ~10x the
 * record perf makes by default, in perf's default 128 pages: 512 (2 MiB)
 * give the recorder 4x perf's slack before the kernel drops records
 * (issue 25: 1,000 forks on a loaded machine lost samples and FORK records
 * in 128), no more than 16 MiB in all on a machine of many CPUs, never
 * fewer than 128; halved under a low locked-memory limit (bt_rings_map).
 */
#define DEFAULT_PAGES 512
#define MIN_PAGES 128
#define ALL_PAGES 4096
#define DWARF_PAGES 1024	/* 8 KiB a sample: 4 MiB of ring, as 512 samples */

/* The default ring of each of ncpus CPUs, a power of 2. */
static unsigned
default_pages(size_t ncpus)
{
	unsigned p = DEFAULT_PAGES;

	while (p > MIN_PAGES && p * ncpus > ALL_PAGES)
		p /= 2;
	return p;
}

static volatile sig_atomic_t interrupt_sig;

void
bt_record_interrupt(int sig)
{
	interrupt_sig = sig ? sig : SIGINT;
}

struct recorder {
	const struct bt_record_opts *o;
	struct bt_record_result *res;
	struct bt_rec_events ev;
	struct bt_pd_group groups[BT_REC_MAX_EVENTS];	/* -e '{a,b}' */
	size_t ngroups;
	struct bt_ring *rings;
	struct bt_pd_writer *w;
	struct bt_child child;
	struct bt_rec_output out;	/* the command's stdout and stderr, read */
	struct bt_rec_probes probes;	/* the harness's phase functions */
	struct bt_error werr;		/* the first write error */
	uint64_t first_time, last_time;	/* sample times */
	uint64_t start_time;		/* first record time (exec) */
	uint64_t delay_ns;
	uint8_t scratch[65536];		/* a record that wraps the ring end */

	/* executable mappings seen, for the BUILD_ID feature */
	struct bt_pd_buildid *bids;
	size_t nbids, bids_alloc;
};

static void
note_mapping(struct recorder *rc, const struct bt_pd_event *ev)
{
	const char *fn = ev->u.mmap.filename;
	struct bt_pd_buildid b;
	size_t i;

	if (!(ev->u.mmap.prot & PROT_EXEC) && ev->type == PERF_RECORD_MMAP2)
		return;
	if (fn[0] == '\0' || (fn[0] == '[' && strcmp(fn, "[vdso]") != 0) ||
	    strncmp(fn, "//anon", 6) == 0 || strncmp(fn, "/memfd:", 7) == 0)
		return;
	for (i = 0; i < rc->nbids; i++)
		if (strcmp(rc->bids[i].filename, fn) == 0)
			return;
	memset(&b, 0, sizeof(b));
	b.pid = strcmp(fn, "[vdso]") == 0 ? (int32_t)rc->child.pid : -1;
	b.misc = PERF_RECORD_MISC_USER;
	if (ev->u.mmap.build_id_size) {
		b.size = ev->u.mmap.build_id_size;
		memcpy(b.id, ev->u.mmap.build_id, b.size);
	}
	b.filename = bt_xstrdup(fn);
	BT_ALLOC_GROW(rc->bids, rc->nbids + 1, rc->bids_alloc);
	rc->bids[rc->nbids++] = b;
}

/* Look at one record before it is written; false drops it. */
static bool
inspect(struct recorder *rc, const struct perf_event_header *h)
{
	struct bt_pd_event ev;
	char scratch[16];

	if (bt_pd_decode(bt_rec_events_layout(&rc->ev, h), (const uint8_t *)h,
	    h->size, &ev, scratch, sizeof(scratch)) < 0)
		return true;	/* written as it came: the reader will say */
	/* the run starts at its first side-band record (exec) */
	if (ev.has_time && (h->type == PERF_RECORD_COMM ||
	    h->type == PERF_RECORD_MMAP || h->type == PERF_RECORD_MMAP2) &&
	    (rc->start_time == 0 || ev.time < rc->start_time))
		rc->start_time = ev.time;
	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		if (!ev.has_time)
			return true;
		if (rc->start_time == 0)
			rc->start_time = ev.time;
		if (rc->delay_ns && ev.time < rc->start_time + rc->delay_ns)
			return false;
		if (rc->first_time == 0 || ev.time < rc->first_time)
			rc->first_time = ev.time;
		if (ev.time > rc->last_time)
			rc->last_time = ev.time;
		rc->res->samples++;
		return true;
	case PERF_RECORD_LOST:
		rc->res->lost += ev.u.lost.lost;
		return true;
	case PERF_RECORD_FORK:
		bt_rec_probes_fork(&rc->probes, (pid_t)ev.u.task.ppid, (pid_t)ev.u.task.pid);
		return true;
	case PERF_RECORD_THROTTLE:
		rc->res->throttled++;
		return true;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		/* an unterminated name was copied, cut, into scratch: skip it */
		if (ev.u.mmap.filename != scratch)
			note_mapping(rc, &ev);
		return true;
	}
	return true;
}

static int
take_record(const struct perf_event_header *rec, void *arg)
{
	struct recorder *rc = arg;

	if (!inspect(rc, rec))
		return 0;
	return bt_pd_write(rc->w, rec, rec->size, &rc->werr);
}

/* Drain every ring; a FINISHED_ROUND after each pass that wrote, as perf does. */
static int
drain_all(struct recorder *rc)
{
	uint64_t before = bt_pd_written(rc->w);
	size_t i;
	int ret;

	for (i = 0; i < rc->ev.n; i++) {
		ret = bt_ring_drain(&rc->rings[i], rc->scratch, take_record, rc);
		if (ret)
			return ret;
	}
	bt_rec_probes_drain(&rc->probes, rc->scratch);
	if (bt_pd_written(rc->w) != before) {
		struct perf_event_header fr = {
			.type = BT_PD_FINISHED_ROUND, .misc = 0, .size = sizeof(fr),
		};
		return bt_pd_write(rc->w, &fr, sizeof(fr), &rc->werr);
	}
	return 0;
}

static void
close_rings(struct recorder *rc)
{
	size_t i;

	if (rc->rings != NULL)
		for (i = 0; i < rc->ev.n; i++)
			bt_ring_unmap(&rc->rings[i]);
	FREE_AND_NULL(rc->rings);
	bt_rec_events_close(&rc->ev);
	bt_rec_probes_close(&rc->probes);
}

static int
hit_cmp(const void *a, const void *b)
{
	const struct bt_probe_hit *x = a, *y = b;

	return x->time < y->time ? -1 : x->time > y->time;
}

/*
 * The build-ids of the mappings the kernel did not give one for. A file
 * without a GNU build-id (-Wl,--build-id=none, Go without -buildid) gets
 * no entry: perf takes an empty one for a build-id, and then shows the
 * file's samples as addresses.
 */
static void
finish_buildids(struct recorder *rc)
{
	size_t i, n = 0, vlen;
	const void *vdso = bt_own_vdso(&vlen);

	for (i = 0; i < rc->nbids; i++) {
		struct bt_pd_buildid *b = &rc->bids[i];
		if (b->size == 0 && strcmp(b->filename, "[vdso]") == 0)
			b->size = vdso ? (uint8_t)bt_elf_build_id_mem(vdso, vlen, b->id) : 0;
		else if (b->size == 0)
			b->size = (uint8_t)bt_elf_build_id(b->filename, b->id);
		if (b->size == 0) {
			free(b->filename);
			continue;
		}
		rc->bids[n++] = *b;
	}
	rc->nbids = n;
}

/*
 * The clock the core runs at, measured: chains of dependent adds of a
 * register to itself (one cycle each on every x86-64 core) timed, the
 * fastest of a few short runs (a preempted one only looks slower). Not
 * adds of an immediate: Intel's cores since Golden Cove fold those at
 * rename, and a chain of them measured 11 GHz on a 3 GHz Xeon. A virtual machine's
 * /proc/cpuinfo says its nominal clock: 2596 MHz here, where the core
 * turbos to 4200, and a one-cycle loop read as "less than one cycle".
 * 0 where it cannot be measured.
 */
static double
measured_mhz(void)
{
#if defined(__x86_64__)
	double best = 0;

	for (int r = 0; r < 5; r++) {
		const long n = 1000000;
		uint64_t x = 0;
		double t0 = bt_now(), t;

		for (long i = 0; i < n; i++)
			__asm__ volatile("add %0, %0\n\tadd %0, %0\n\t"
			    "add %0, %0\n\tadd %0, %0" : "+r"(x));
		t = bt_now() - t0;
		if (t > 0 && 4.0 * n / t / 1e6 > best)
			best = 4.0 * n / t / 1e6;
	}
	return best;
#else
	return 0;
#endif
}

/*
 * The fastest clock of the CPUs: /proc/cpuinfo's "cpu MHz" or the one
 * measured, whichever is faster (the lint's one cycle); 0 if neither.
 */
static double
cpu_mhz(void)
{
	struct bt_strbuf sb = BT_STRBUF_INIT;
	const char *p;
	double best = measured_mhz();

	if (bt_strbuf_read_file(&sb, "/proc/cpuinfo", 1 << 20) == 0)
		for (p = sb.buf; (p = strstr(p, "cpu MHz")) != NULL; p++) {
			const char *c = strchr(p, ':');
			double v = c ? strtod(c + 1, NULL) : 0;
			if (v > best)
				best = v;
		}
	bt_strbuf_release(&sb);
	return best;
}

/*
 * The CPU as perf's CPUID header says it, "AuthenticAMD,26,2" (vendor,
 * family, model from /proc/cpuinfo), for llvm-mca's model (X); "" unknown.
 */
static void
cpu_id(char *buf, size_t len)
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

/* The harness whose results the command prints, as far as one can tell; NULL. */
static const char *
expected_harness(const struct recorder *rc)
{
	char *const *a = rc->o->argv;
	const char *base = strrchr(a[0], '/') ? strrchr(a[0], '/') + 1 : a[0];
	bool go = strcmp(base, "go") == 0, cargo = strcmp(base, "cargo") == 0;
	size_t i;

	/* probe points found (docs/benchmarks.md "Phases from probes") */
	if (rc->probes.n > 0 || rc->probes.note[0]) {
		int r = rc->probes.n > 0 ? rc->probes.v[0].role : -1;
		return r >= BT_PROBE_CRIT_COMMON && r <= BT_PROBE_CRIT_WARMUP_END ? "criterion" :
		    (r >= BT_PROBE_GO_RUNN && r <= BT_PROBE_GO_STOP) ||
		    r == BT_PROBE_GO_STARTED || r == BT_PROBE_GO_RUN1 ? "go test" :
		    r >= 0 ? "Google Benchmark" : "the harness";
	}
	for (i = 1; a[i] != NULL; i++) {
		if (strncmp(a[i], "-test.bench", 11) == 0 ||
		    (go && strncmp(a[i], "-bench", 6) == 0))
			return "go test";
		if (cargo && strcmp(a[i], "bench") == 0)
			return "cargo bench";
		if (strncmp(a[i], "--benchmark_", 12) == 0)
			return "Google Benchmark";
	}
	return NULL;
}

/*
 * Why the command's output is not in the recording, when its stdout was
 * not read (/dev/null, a device, closed): no harness results, and so no
 * benchmark table where a harness was expected. "" otherwise.
 */
static void
output_note(const struct recorder *rc, char *buf, size_t size)
{
	const char *what = rc->out.s[0].unread, *h;

	buf[0] = '\0';
	if (what == NULL)
		return;
	h = expected_harness(rc);
	snprintf(buf, size, "the benchmark's standard output was %s: not read, "
	    "%s%s%s (run with stdout to a file, a pipe or a terminal)", what,
	    h ? "so " : "no harness results", h ? h : "",
	    h ? "'s results, and the benchmark table, are missing" : "");
}

static int
save(struct recorder *rc, struct bt_error *err)
{
	struct bt_pd_features f;
	struct bt_meta m;
	struct bt_strbuf sec = BT_STRBUF_INIT;
	struct utsname u;
	char *cmd[256 + 2];
	size_t i, argc = 0, vlen;
	int ret;

	while (rc->o->argv[argc] != NULL && argc < 256)
		argc++;
	memset(&m, 0, sizeof(m));
	m.argv = (char **)rc->o->argv;
	m.argc = argc;
	snprintf(m.event_note, sizeof(m.event_note), "%s", rc->res->event_note);
	m.freq = rc->o->freq ? rc->o->freq : DEFAULT_FREQ;
	m.has_status = true;
	m.wait_status = rc->res->wait_status;
	m.duration = rc->res->duration;
	m.lost = rc->res->lost;
	m.throttled = rc->res->throttled;
	m.delay_ms = rc->o->delay_ms;
	m.interrupted = rc->res->interrupted;
	m.vdso = bt_own_vdso(&vlen);
	m.vdso_len = vlen;
	if (rc->out.bytes) {
		m.output = rc->out.data.buf;
		m.output_len = rc->out.data.len;
		m.output_truncated = rc->out.truncated;
	}
	/* the output's times and the samples' are on one clock */
	m.clock_monotonic = rc->ev.attr.use_clockid &&
	    rc->ev.attr.clockid == CLOCK_MONOTONIC;
	m.cpu_mhz = cpu_mhz();
	cpu_id(m.cpu_id, sizeof(m.cpu_id));
	snprintf(m.probe_note, sizeof(m.probe_note), "%s", rc->probes.note);
	output_note(rc, m.output_note, sizeof(m.output_note));
	if (rc->probes.n > 0) {
		m.had_probes = true;
		qsort(rc->probes.hits.v, rc->probes.hits.n, sizeof(*rc->probes.hits.v), hit_cmp);
		m.hits = rc->probes.hits.v;
		m.nhits = rc->probes.hits.n;
		m.probe_lost = rc->probes.lost;
	}
	bt_meta_encode(&m, &sec);

	cmd[0] = (char *)"benchtui";
	for (i = 0; i < argc; i++)
		cmd[i + 1] = rc->o->argv[i];
	cmd[argc + 1] = NULL;

	finish_buildids(rc);
	memset(&f, 0, sizeof(f));
	if (uname(&u) == 0) {
		f.hostname = u.nodename;
		f.osrelease = u.release;
		f.arch = u.machine;
	}
	f.version = "benchtui " BT_VERSION;
	f.nr_cpus_online = (uint32_t)sysconf(_SC_NPROCESSORS_ONLN);
	f.nr_cpus_avail = (uint32_t)sysconf(_SC_NPROCESSORS_CONF);
	f.cmdline = cmd;
	f.buildids = rc->bids;
	f.nbuildids = rc->nbids;
	f.groups = rc->groups;
	f.ngroups = rc->ngroups;
	f.first_sample_time = rc->first_time;
	f.last_sample_time = rc->last_time;
	f.benchtui = sec.buf;
	f.benchtui_len = sec.len;
	ret = bt_pd_finish(rc->w, &f, err);
	rc->w = NULL;
	bt_strbuf_release(&sec);
	return ret;
}

/* Events, rings and the writer, before the command may exec. */
static int
setup(struct recorder *rc, struct bt_error *err)
{
	const struct bt_record_opts *o = rc->o;
	struct bt_pd_attr *pa;
	size_t i;
	int ret;

	ret = bt_rec_events_open(&rc->ev, o->event, o->freq, o->callgraph,
	    o->stack_size, rc->child.pid, err);
	if (ret)
		return ret;
	if (!o->no_probes)
		bt_rec_probes_open(&rc->probes, o->argv, rc->child.pid, rc->ev.cpus,
		    rc->ev.n);
	snprintf(rc->res->event, sizeof(rc->res->event), "%s", rc->ev.name);
	snprintf(rc->res->event_note, sizeof(rc->res->event_note), "%s", rc->ev.note);
	rc->rings = bt_xcalloc(rc->ev.n, sizeof(*rc->rings));
	ret = bt_rings_map(rc->rings, rc->ev.fds, rc->ev.n,
	    o->mmap_pages ? o->mmap_pages :
	    o->callgraph == BT_CG_DWARF ? DWARF_PAGES : default_pages(rc->ev.n), err);
	if (ret)
		return ret;
	ret = bt_rec_events_redirect(&rc->ev, err);
	if (ret)
		return ret;
	pa = bt_xcalloc(rc->ev.nevs, sizeof(*pa));
	rc->ngroups = bt_rec_events_attrs(&rc->ev, pa, rc->groups);
	rc->w = bt_pd_create(o->output ? o->output : "benchtui.data", pa,
	    rc->ev.nevs, err);
	for (i = 0; i < rc->ev.nevs; i++)
		free(pa[i].ids);
	free(pa);
	return rc->w == NULL ? -BT_EIO : 0;
}

static void
on_sigchld(int sig)
{
	(void)sig;
}

/*
 * The command is held at its exit (o->jit_copy_dir): copy its JIT code,
 * let it go. Its run ended when it began to exit.
 */
static void
at_exit_stop(struct recorder *rc, double *end)
{
	*end = bt_now();
	bt_jit_copy_at_exit(rc->child.pid, rc->o->jit_copy_dir, rc->res->jit_note,
	    sizeof(rc->res->jit_note));
	bt_child_detach(&rc->child);
}

/* Drain while the command runs; stop it step by step when interrupted. */
static int
run(struct recorder *rc, double t0)
{
	bool failed = false;
	int status = 0;
	double end = 0;
	sigset_t chld, orig_mask, wait_mask;
	bool traced = rc->child.traced;
	struct sigaction sa, old_sa;
	struct timespec tick = { 0, 50 * 1000000L };

	rc->res->pid = (int)rc->child.pid;	/* reaping forgets it */
	/* a traced child's stops wake the loop (SIGCHLD), not the next tick */
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, traced ? &chld : NULL, &orig_mask);
	wait_mask = orig_mask;
	sigdelset(&wait_mask, SIGCHLD);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigchld;
	if (traced)
		sigaction(SIGCHLD, &sa, &old_sa);
	for (;;) {
		struct pollfd pfd[256];
		size_t np = BT_MIN(rc->ev.n, BT_ARRAY_SIZE(pfd)), i;

		for (i = 0; i < np; i++) {
			pfd[i].fd = rc->ev.fds[i];
			pfd[i].events = POLLIN;
		}
		np += bt_output_poll(&rc->out, pfd + np, BT_ARRAY_SIZE(pfd) - np);
		np += bt_rec_probes_poll(&rc->probes, pfd + np, BT_ARRAY_SIZE(pfd) - np);
		ppoll(pfd, np, &tick, traced ? &wait_mask : NULL);
		bt_output_read(&rc->out);
		if (!failed && drain_all(rc))
			failed = true;
		if (rc->o->progress != NULL)
			rc->o->progress(rc->res, bt_now() - t0, rc->o->progress_arg);
		/* before reaping: the child the signal killed may be gone already */
		if (interrupt_sig) {
			rc->res->interrupted = true;
			bt_child_interrupt(&rc->child, interrupt_sig, bt_now());
		}
		if (bt_child_reap(&rc->child, &status))
			break;
		if (rc->child.at_exit)
			at_exit_stop(rc, &end);
	}
	if (traced) {
		sigaction(SIGCHLD, &old_sa, NULL);
		sigprocmask(SIG_SETMASK, &orig_mask, NULL);
	}
	rc->res->duration = (end ? end : bt_now()) - t0;
	rc->res->wait_status = status;
	bt_output_finish(&rc->out);	/* what is left; a daemon may hold it open */
	if (!failed && drain_all(rc))
		failed = true;
	return failed ? -1 : 0;
}

int
bt_record_run(const struct bt_record_opts *o, struct bt_record_result *res,
	      struct bt_error *err)
{
	struct recorder *rc;
	struct sigaction ign, old_pipe;
	double t0;
	size_t i;
	int ret;

	memset(res, 0, sizeof(*res));
	interrupt_sig = 0;
	if (o->argv == NULL || o->argv[0] == NULL)
		return bt_error_set(err, BT_EINVAL, "no command to run");
	rc = bt_xcalloc(1, sizeof(*rc));
	rc->o = o;
	rc->res = res;
	rc->delay_ns = (uint64_t)o->delay_ms * 1000000ULL;
	for (i = 0; i < 2; i++)
		rc->out.s[i].master = rc->out.s[i].slave = -1;
	bt_strbuf_init(&rc->out.data);
	if (!o->pass_output)	/* else the output goes straight through, unread */
		bt_output_open(&rc->out, NULL);

	ret = bt_child_fork_out(&rc->child, o->argv,
	    bt_output_child_fd(&rc->out, 0), bt_output_child_fd(&rc->out, 1), err);
	bt_output_parent(&rc->out);
	if (ret)
		goto out;
	ret = setup(rc, err);
	if (ret) {
		bt_child_kill(&rc->child);
		goto out;
	}
	/*
	 * Seized before its exec: the command never runs untraced (a program
	 * that reads its TracerPid first thing sees it).
	 */
	if (o->jit_copy_dir != NULL && (ret = bt_child_seize(&rc->child)) < 0)
		snprintf(res->jit_note, sizeof(res->jit_note), "no JIT code "
		    "copied: the command cannot be held at its exit (ptrace: %s)",
		    strerror(-ret));
	t0 = bt_now();
	ret = bt_child_start(&rc->child, o->argv, err);
	if (ret)
		goto out;
	/*
	 * A reader of our stdout that goes away (| head) must not kill the
	 * recorder through its copy of the output: the write fails, copying
	 * stops, recording goes on (the child's own SIGPIPE is the default).
	 */
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &ign, &old_pipe);
	ret = run(rc, t0);
	sigaction(SIGPIPE, &old_pipe, NULL);
	close_rings(rc);
	if (ret) {
		ret = bt_error_set(err, rc->werr.code, "%s", rc->werr.msg);
		goto out;
	}
	ret = save(rc, err);
out:
	if (rc->w != NULL)
		bt_pd_abort(rc->w);
	close_rings(rc);
	bt_rec_probes_release(&rc->probes);
	bt_child_release(&rc->child);
	bt_output_release(&rc->out);
	for (i = 0; i < rc->nbids; i++)
		free(rc->bids[i].filename);
	free(rc->bids);
	free(rc);
	return ret;
}
