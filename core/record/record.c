/*
 * Run a command under sampling (DESIGN.md §1 "record"): fork it stopped,
 * open one sampling event per CPU for it (inherit, enable_on_exec), map a
 * ring buffer per event, let it exec, and drain the rings into a perf.data
 * writer while it runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base.h"
#include "benchtui/record.h"
#include "perf/meta.h"
#include "perf/perfdata.h"
#include "record/record.h"

#define DEFAULT_FREQ 4000
#define DEFAULT_PAGES 128
#define MIN_PAGES 1

static volatile sig_atomic_t interrupt_sig;

void
bt_record_interrupt(int sig)
{
	interrupt_sig = sig ? sig : SIGINT;
}

struct ring {
	int fd;
	int cpu;
	void *base;
	size_t size;		/* data area bytes */
	uint64_t id;
};

struct recorder {
	const struct bt_record_opts *o;
	struct bt_record_result *res;
	struct perf_event_attr attr;
	struct bt_perf_layout layout;	/* of attr's samples */
	struct ring *rings;
	size_t nrings;
	size_t pagesz;
	struct bt_pd_writer *w;
	pid_t child;
	uint64_t first_time, last_time;	/* sample times */
	uint64_t start_time;		/* first record time (exec) */
	uint64_t delay_ns;
	uint8_t scratch[65536];		/* a record that wraps the ring end */

	/* executable mappings seen, for the BUILD_ID feature */
	struct bt_pd_buildid *bids;
	size_t nbids, bids_alloc;
};

static long
perf_event_open(struct perf_event_attr *a, pid_t pid, int cpu, int group,
		unsigned long flags)
{
	return syscall(SYS_perf_event_open, a, pid, cpu, group, flags);
}

static int
parse_event(const char *name, struct perf_event_attr *a, struct bt_error *err)
{
	uint64_t config;

	if (bt_perf_event_parse(name, &a->type, &config) == 0) {
		a->config = config;
		return 0;
	}
	return bt_error_set(err, BT_EINVAL,
	    "unknown event '%s' (try cycles, instructions, cpu-clock, task-clock, branch-misses, cache-misses or rNNNN)",
	    name);
}

static void
base_attr(struct perf_event_attr *a, unsigned freq)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
	    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	a->freq = 1;
	a->sample_freq = freq;
	a->disabled = 1;
	a->inherit = 1;
	a->enable_on_exec = 1;
	a->mmap = 1;
	a->mmap2 = 1;
	a->comm = 1;
	a->comm_exec = 1;
	a->task = 1;
	a->sample_id_all = 1;
	a->exclude_hv = 1;
	a->watermark = 1;
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC;
	a->build_id = 1;
}

static int
online_cpus(int *cpus, int max)
{
	char buf[256];
	int n = 0, fd = open("/sys/devices/system/cpu/online", O_RDONLY | O_CLOEXEC);
	ssize_t len;
	char *p;

	if (fd >= 0) {
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (len > 0) {
			buf[len] = '\0';
			for (p = buf; *p && *p != '\n';) {
				long lo = strtol(p, &p, 10), hi = lo;
				if (*p == '-')
					hi = strtol(p + 1, &p, 10);
				for (; lo <= hi && n < max; lo++)
					cpus[n++] = (int)lo;
				if (*p == ',')
					p++;
				else
					break;
			}
		}
	}
	if (n == 0) {
		long c = sysconf(_SC_NPROCESSORS_ONLN);
		for (n = 0; n < c && n < max; n++)
			cpus[n] = n;
	}
	return n;
}

static void
close_rings(struct recorder *rc)
{
	size_t i;

	for (i = 0; i < rc->nrings; i++) {
		if (rc->rings[i].base != NULL)
			munmap(rc->rings[i].base, rc->rings[i].size + rc->pagesz);
		if (rc->rings[i].fd >= 0)
			close(rc->rings[i].fd);
	}
	free(rc->rings);
	rc->rings = NULL;
	rc->nrings = 0;
}

static const char *
paranoid_hint(char *buf, size_t len)
{
	char v[32] = "?";
	int fd = open("/proc/sys/kernel/perf_event_paranoid", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		ssize_t n = read(fd, v, sizeof(v) - 1);
		v[n > 0 ? n : 0] = '\0';
		v[strcspn(v, "\n")] = '\0';
		close(fd);
	}
	snprintf(buf, len,
	    "/proc/sys/kernel/perf_event_paranoid is %s: run as root, grant CAP_PERFMON, or lower it (sysctl kernel.perf_event_paranoid=1)",
	    v);
	return buf;
}

/*
 * Open the event on every CPU for pid. On failure all fds are closed and
 * -errno returned.
 */
static int
open_on_cpus(struct recorder *rc, struct perf_event_attr *a, pid_t pid)
{
	int cpus[1024];
	int n = online_cpus(cpus, 1024), i;

	rc->rings = bt_xcalloc((size_t)n, sizeof(*rc->rings));
	for (i = 0; i < n; i++) {
		long fd = perf_event_open(a, pid, cpus[i], -1, PERF_FLAG_FD_CLOEXEC);
		if (fd < 0) {
			int e = errno;
			close_rings(rc);
			return -e;
		}
		rc->rings[rc->nrings].fd = (int)fd;
		rc->rings[rc->nrings].cpu = cpus[i];
		rc->nrings++;
	}
	return 0;
}

/* Try attr variants from the most to the least demanding. */
static int
open_events(struct recorder *rc, pid_t pid, struct bt_error *err)
{
	const struct bt_record_opts *o = rc->o;
	unsigned freq = o->freq ? o->freq : DEFAULT_FREQ;
	const char *want = o->event ? o->event : "cycles";
	struct perf_event_attr a;
	int ret, precise, pass;
	char hint[256];
	bool fell_back = false;

	base_attr(&a, freq);
	ret = parse_event(want, &a, err);
	if (ret)
		return ret;

	for (pass = 0; pass < 2; pass++) {
		bool hw = a.type == PERF_TYPE_HARDWARE || a.type == PERF_TYPE_RAW;
		/* drop what older kernels or unprivileged users refuse, one at a time */
		for (precise = hw ? 3 : 0; precise >= 0; precise--) {
			struct perf_event_attr t = a;
			int v;

			t.precise_ip = (unsigned)precise;
			for (v = 0; v < 4; v++) {
				if (v >= 1)
					t.build_id = 0;
				if (v >= 2)
					t.use_clockid = 0, t.clockid = 0;
				if (v >= 3)
					t.exclude_kernel = 1;
				ret = open_on_cpus(rc, &t, pid);
				if (ret == 0) {
					rc->attr = t;
					bt_perf_layout_init(&rc->layout, &t);
					goto opened;
				}
				if (ret != -EINVAL && ret != -EACCES && ret != -EPERM)
					break;
			}
			if (ret == -EACCES || ret == -EPERM) {
				return bt_error_set(err, BT_EPERF,
				    "perf_event_open refused (%s): %s",
				    strerror(-ret), paranoid_hint(hint, sizeof(hint)));
			}
		}
		/* no PMU (virtual machines): cycles falls back to cpu-clock */
		if (o->event == NULL && pass == 0 &&
		    (ret == -ENOENT || ret == -EOPNOTSUPP || ret == -ENODEV ||
		     ret == -EINVAL)) {
			a.type = PERF_TYPE_SOFTWARE;
			a.config = PERF_COUNT_SW_CPU_CLOCK;
			fell_back = true;
			continue;
		}
		break;
	}
	if (ret == -ENOENT || ret == -EOPNOTSUPP || ret == -ENODEV)
		return bt_error_set(err, BT_EPERF,
		    "event '%s' is not supported here (%s); try -e cpu-clock",
		    want, strerror(-ret));
	return bt_error_set(err, BT_EPERF, "perf_event_open failed for '%s': %s",
	    want, strerror(-ret));
opened:
	{
		char name[64];
		bt_perf_event_name(&rc->attr, name, sizeof(name));
		snprintf(rc->res->event, sizeof(rc->res->event), "%s", name);
		snprintf(rc->res->event_note, sizeof(rc->res->event_note), "%s%s%s",
		    fell_back ? "no hardware cycles event here (no PMU): sampling cpu-clock instead" : "",
		    fell_back && rc->attr.exclude_kernel ? "; " : "",
		    rc->attr.exclude_kernel ? "kernel samples excluded (perf_event_paranoid)" : "");
	}
	return 0;
}

static int
map_rings(struct recorder *rc, struct bt_error *err)
{
	unsigned pages = rc->o->mmap_pages ? rc->o->mmap_pages : DEFAULT_PAGES;
	size_t i;

	for (; pages >= MIN_PAGES; pages /= 2) {
		bool ok = true;

		for (i = 0; i < rc->nrings; i++) {
			struct ring *rg = &rc->rings[i];
			rg->size = pages * rc->pagesz;
			rg->base = mmap(NULL, rg->size + rc->pagesz,
			    PROT_READ | PROT_WRITE, MAP_SHARED, rg->fd, 0);
			if (rg->base == MAP_FAILED) {
				rg->base = NULL;
				ok = false;
				break;
			}
			if (ioctl(rg->fd, PERF_EVENT_IOC_ID, &rg->id) < 0)
				rg->id = 0;
		}
		if (ok)
			return 0;
		for (i = 0; i < rc->nrings; i++)
			if (rc->rings[i].base != NULL) {
				munmap(rc->rings[i].base, rc->rings[i].size + rc->pagesz);
				rc->rings[i].base = NULL;
			}
		if (errno != EPERM && errno != ENOMEM)
			break;
	}
	return bt_error_errno(err, BT_EPERF, errno,
	    "cannot map the perf ring buffers (locked-memory limit: ulimit -l, /proc/sys/kernel/perf_event_mlock_kb)");
}

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
	b.pid = strcmp(fn, "[vdso]") == 0 ? (int32_t)rc->child : -1;
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

	if (bt_pd_decode(&rc->layout, (const uint8_t *)h, h->size, &ev, scratch,
	    sizeof(scratch)) < 0)
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

/* Copy out every complete record of one ring. Returns bytes consumed. */
static int
drain_ring(struct recorder *rc, struct ring *rg, struct bt_error *err)
{
	struct perf_event_mmap_page *mp = rg->base;
	const uint8_t *data = (const uint8_t *)rg->base + rc->pagesz;
	uint64_t head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = mp->data_tail;
	int ret = 0;

	while (tail < head) {
		size_t off = (size_t)(tail % rg->size);
		struct perf_event_header h;
		const struct perf_event_header *rec;

		if (off + sizeof(h) <= rg->size)
			memcpy(&h, data + off, sizeof(h));
		else {
			size_t first = rg->size - off;
			memcpy(&h, data + off, first);
			memcpy((uint8_t *)&h + first, data, sizeof(h) - first);
		}
		if (h.size < sizeof(h) || h.size > head - tail)
			break;	/* corrupt or partial: resynchronise at head */
		if (off + h.size <= rg->size)
			rec = (const void *)(data + off);
		else {
			size_t first = rg->size - off;
			memcpy(rc->scratch, data + off, first);
			memcpy(rc->scratch + first, data, h.size - first);
			rec = (const void *)rc->scratch;
		}
		if (inspect(rc, rec)) {
			ret = bt_pd_write(rc->w, rec, rec->size, err);
			if (ret)
				break;
		}
		tail += h.size;
	}
	if (tail < head && ret == 0)
		tail = head;
	__atomic_store_n(&mp->data_tail, tail, __ATOMIC_RELEASE);
	return ret;
}

static int
drain_all(struct recorder *rc, struct bt_error *err)
{
	uint64_t before = bt_pd_written(rc->w);
	size_t i;
	int ret;

	for (i = 0; i < rc->nrings; i++) {
		ret = drain_ring(rc, &rc->rings[i], err);
		if (ret)
			return ret;
	}
	if (bt_pd_written(rc->w) != before) {
		struct perf_event_header fr = {
			.type = BT_PD_FINISHED_ROUND, .misc = 0, .size = sizeof(fr),
		};
		return bt_pd_write(rc->w, &fr, sizeof(fr), err);
	}
	return 0;
}

static void
child_exec(char *const *argv, int go_fd, int err_fd)
{
	char c;
	int e;

	/* wait until the events are attached */
	while (read(go_fd, &c, 1) < 0 && errno == EINTR)
		;
	close(go_fd);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	execvp(argv[0], argv);
	e = errno;
	if (write(err_fd, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

static void
finish_buildids(struct recorder *rc)
{
	size_t i, vlen;
	const void *vdso = bt_own_vdso(&vlen);

	for (i = 0; i < rc->nbids; i++) {
		struct bt_pd_buildid *b = &rc->bids[i];
		if (b->size)
			continue;
		if (strcmp(b->filename, "[vdso]") == 0)
			b->size = vdso ? (uint8_t)bt_elf_build_id_mem(vdso, vlen, b->id) : 0;
		else
			b->size = (uint8_t)bt_elf_build_id(b->filename, b->id);
	}
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
	f.first_sample_time = rc->first_time;
	f.last_sample_time = rc->last_time;
	f.benchtui = sec.buf;
	f.benchtui_len = sec.len;
	ret = bt_pd_finish(rc->w, &f, err);
	rc->w = NULL;
	bt_strbuf_release(&sec);
	return ret;
}

int
bt_record_run(const struct bt_record_opts *o, struct bt_record_result *res,
	      struct bt_error *err)
{
	struct recorder rc;
	int go[2] = { -1, -1 }, ep[2] = { -1, -1 };
	struct bt_pd_attr pa;
	double t0 = 0;
	int ret, status = 0, e;
	bool exited = false, saved_error = false;
	ssize_t n;
	size_t i;
	struct bt_error werr = { 0 };
	double kill_at = 0;
	int kill_stage = 0;

	memset(res, 0, sizeof(*res));
	memset(&rc, 0, sizeof(rc));
	rc.o = o;
	rc.res = res;
	rc.pagesz = (size_t)sysconf(_SC_PAGESIZE);
	rc.delay_ns = (uint64_t)o->delay_ms * 1000000ULL;
	interrupt_sig = 0;
	if (o->argv == NULL || o->argv[0] == NULL)
		return bt_error_set(err, BT_EINVAL, "no command to run");

	if (pipe2(go, O_CLOEXEC) < 0 || pipe2(ep, O_CLOEXEC) < 0) {
		ret = bt_error_errno(err, BT_EIO, errno, "cannot create a pipe");
		goto out_pipes;
	}
	rc.child = fork();
	if (rc.child < 0) {
		ret = bt_error_errno(err, BT_EIO, errno, "cannot fork");
		goto out_pipes;
	}
	if (rc.child == 0) {
		close(go[1]);
		close(ep[0]);
		child_exec(o->argv, go[0], ep[1]);
	}
	close(go[0]);
	close(ep[1]);
	go[0] = ep[1] = -1;

	ret = open_events(&rc, rc.child, err);
	if (ret == 0)
		ret = map_rings(&rc, err);
	if (ret == 0) {
		memset(&pa, 0, sizeof(pa));
		pa.attr = rc.attr;
		pa.name = res->event;
		pa.ids = bt_xcalloc(rc.nrings, sizeof(uint64_t));
		for (i = 0; i < rc.nrings; i++)
			if (rc.rings[i].id)
				pa.ids[pa.nids++] = rc.rings[i].id;
		rc.w = bt_pd_create(o->output ? o->output : "benchtui.data",
		    &pa, 1, err);
		free(pa.ids);
		if (rc.w == NULL)
			ret = -BT_EIO;
	}
	if (ret) {
		kill(rc.child, SIGKILL);
		waitpid(rc.child, NULL, 0);
		goto out_rings;
	}

	/* let it run, then see whether exec worked */
	t0 = bt_now();
	n = write(go[1], "g", 1);	/* a dead child shows up in waitpid */
	close(go[1]);
	go[1] = -1;
	do
		n = read(ep[0], &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(ep[0]);
	ep[0] = -1;
	if (n == (ssize_t)sizeof(e)) {
		struct stat st;
		waitpid(rc.child, NULL, 0);
		bt_pd_abort(rc.w);
		rc.w = NULL;
		if (e == EACCES && strchr(o->argv[0], '/') != NULL &&
		    stat(o->argv[0], &st) == 0 && S_ISDIR(st.st_mode))
			ret = bt_error_set(err, BT_EEXEC,
			    "cannot execute '%s': it is a directory", o->argv[0]);
		else
			ret = bt_error_set(err, e == ENOENT ? BT_ENOENT : BT_EEXEC,
			    "cannot execute '%s': %s", o->argv[0], strerror(e));
		goto out_rings;
	}

	while (!exited) {
		struct pollfd pfd[256];
		size_t np = BT_MIN(rc.nrings, BT_ARRAY_SIZE(pfd));
		pid_t w;

		for (i = 0; i < np; i++) {
			pfd[i].fd = rc.rings[i].fd;
			pfd[i].events = POLLIN;
		}
		poll(pfd, np, 50);
		if (!saved_error && drain_all(&rc, &werr))
			saved_error = true;
		w = waitpid(rc.child, &status, WNOHANG);
		if (w == rc.child)
			exited = true;
		else if (interrupt_sig) {
			double now = bt_now();
			res->interrupted = true;
			if (kill_stage == 0) {
				/* the terminal's SIGINT reached it too; SIGTERM is ours */
				if (interrupt_sig != SIGINT)
					kill(rc.child, interrupt_sig);
				kill_at = now + 1.0;
				kill_stage = 1;
			} else if (kill_stage == 1 && now >= kill_at) {
				kill(rc.child, SIGTERM);
				kill_at = now + 2.0;
				kill_stage = 2;
			} else if (kill_stage == 2 && now >= kill_at) {
				kill(rc.child, SIGKILL);
				kill_stage = 3;
			}
		}
	}
	res->duration = bt_now() - t0;
	res->wait_status = status;
	if (!saved_error && drain_all(&rc, &werr))
		saved_error = true;
	close_rings(&rc);
	if (saved_error) {
		bt_pd_abort(rc.w);
		rc.w = NULL;
		ret = bt_error_set(err, werr.code, "%s", werr.msg);
		goto out;
	}
	ret = save(&rc, err);
	goto out;

out_rings:
	close_rings(&rc);
out:
	for (i = 0; i < rc.nbids; i++)
		free(rc.bids[i].filename);
	free(rc.bids);
out_pipes:
	for (i = 0; i < 2; i++) {
		if (go[i] >= 0)
			close(go[i]);
		if (ep[i] >= 0)
			close(ep[i]);
	}
	return ret;
}
