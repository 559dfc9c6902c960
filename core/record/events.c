/*
 * The sampling event: one perf_event_open per online CPU for the command
 * (inherit, enable_on_exec), with the fallbacks a virtual machine or an
 * unprivileged user needs (DESIGN.md §1).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "base.h"
#include "perf/sample.h"
#include "record/record-int.h"

#define DEFAULT_FREQ 4000
#define MAX_CPUS 1024

static long
perf_event_open(struct perf_event_attr *a, pid_t pid, int cpu, int group,
		unsigned long flags)
{
	return syscall(SYS_perf_event_open, a, pid, cpu, group, flags);
}

/*
 * The event and its modifiers into a, as perf record sets them (u:
 * exclude_kernel and exclude_hv, p: precise_ip...). *precise: the
 * precise_ip level the name fixes, or -1 (none given, or P: the highest
 * the machine takes, as benchtui's default).
 */
static int
parse_event(const char *name, struct perf_event_attr *a, int *precise,
	    struct bt_error *err)
{
	struct bt_perf_evname ev;

	if (bt_perf_evname_parse(name, &ev) < 0 || !ev.known)
		return bt_error_set(err, BT_EINVAL,
		    "unknown event '%s' (try cycles, instructions, cpu-clock, task-clock, branch-misses, cache-misses or rNNNN, with perf's modifiers: cycles:u, cycles:pp)",
		    name);
	if (ev.group || ev.sample_read || ev.unsupported)
		return bt_error_set(err, BT_EINVAL, "event '%s': benchtui records "
		    "one event, without %s (perf record -e '%s' records it; "
		    "benchtui -i reads the recording)", name, ev.group ? "groups" :
		    ev.sample_read ? "the S modifier" : "the W and b modifiers", name);
	a->type = ev.type;
	a->config = ev.config;
	*precise = -1;
	if (!ev.mods)
		return 0;
	a->exclude_user = ev.attr.exclude_user;
	a->exclude_kernel = ev.attr.exclude_kernel;
	a->exclude_hv = ev.attr.exclude_hv;
	a->exclude_host = ev.attr.exclude_host;
	a->exclude_guest = ev.attr.exclude_guest;
	a->exclude_idle = ev.attr.exclude_idle;
	a->pinned = ev.attr.pinned;
	a->exclusive = ev.attr.exclusive;
	if (!ev.precise_max && ev.attr.precise_ip)
		*precise = (int)ev.attr.precise_ip;
	return 0;
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

void
bt_rec_events_close(struct bt_rec_events *ev)
{
	size_t i;

	for (i = 0; i < ev->n; i++)
		close(ev->fds[i]);
	FREE_AND_NULL(ev->fds);
	FREE_AND_NULL(ev->cpus);
	ev->n = 0;
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

/* Open a on every CPU for pid; on failure all are closed and -errno returned. */
static int
open_on_cpus(struct bt_rec_events *ev, struct perf_event_attr *a, pid_t pid)
{
	int cpus[MAX_CPUS];
	int n = online_cpus(cpus, MAX_CPUS), i;

	ev->fds = bt_xcalloc((size_t)n, sizeof(int));
	ev->cpus = bt_xcalloc((size_t)n, sizeof(int));
	for (i = 0; i < n; i++) {
		long fd = perf_event_open(a, pid, cpus[i], -1, PERF_FLAG_FD_CLOEXEC);
		if (fd < 0) {
			int e = errno;
			bt_rec_events_close(ev);
			return -e;
		}
		ev->fds[ev->n] = (int)fd;
		ev->cpus[ev->n] = cpus[i];
		ev->n++;
	}
	return 0;
}

int
bt_rec_events_open(struct bt_rec_events *ev, const char *event, unsigned freq,
		   enum bt_callgraph cg, unsigned stack_size, pid_t pid,
		   struct bt_error *err)
{
	const char *want = event ? event : "cycles";
	struct perf_event_attr a;
	int ret, precise, pass, fixed = -1;
	char hint[256];
	bool fell_back = false, cg_fell_back = false, lbr_refused = false, mods;

	memset(ev, 0, sizeof(*ev));
	base_attr(&a, freq ? freq : DEFAULT_FREQ);
	bt_rec_callgraph_attr(&a, cg, stack_size);
	ret = parse_event(want, &a, &fixed, err);
	if (ret)
		return ret;
	/* u, k or h given: the user's choice, not lowered to user-only */
	mods = event != NULL && (a.exclude_user || a.exclude_kernel || !a.exclude_hv);

	for (pass = 0; pass < 2; pass++) {
		bool hw = a.type == PERF_TYPE_HARDWARE || a.type == PERF_TYPE_RAW;
		/* drop what older kernels or unprivileged users refuse, one at a time */
		/* p, pp, ppp: that level or none, as perf; else the highest taken */
		for (precise = fixed >= 0 ? fixed : hw ? 3 : 0;
		    precise >= (fixed >= 0 ? fixed : 0); precise--) {
			struct perf_event_attr t = a;
			int v;

			t.precise_ip = (unsigned)precise;
			for (v = 0; v < 4; v++) {
				if (v >= 1)
					t.build_id = 0;
				if (v >= 2)
					t.use_clockid = 0, t.clockid = 0;
				if (v >= 3 && mods)
					break;
				if (v >= 3)
					t.exclude_kernel = 1;
				ret = open_on_cpus(ev, &t, pid);
				if (ret == 0) {
					ev->attr = t;
					goto opened;
				}
				if (ret != -EINVAL && ret != -EACCES && ret != -EPERM)
					break;
			}
			if ((ret == -EINVAL || ret == -EOPNOTSUPP) && (a.sample_type &
			    (PERF_SAMPLE_STACK_USER | PERF_SAMPLE_BRANCH_STACK))) {
				/* no user registers, stack or LBR here: frame pointers */
				lbr_refused = (a.sample_type & PERF_SAMPLE_BRANCH_STACK) != 0;
				bt_rec_callgraph_attr(&a, BT_CG_FP, 0);
				cg_fell_back = true;
				precise++;
				continue;
			}
			if (ret == -EACCES || ret == -EPERM) {
				return bt_error_set(err, BT_EPERF,
				    "perf_event_open refused (%s): %s",
				    strerror(-ret), paranoid_hint(hint, sizeof(hint)));
			}
		}
		/* no PMU (virtual machines): cycles falls back to cpu-clock */
		if (event == NULL && pass == 0 &&
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
	bt_perf_event_name(&ev->attr, ev->name, sizeof(ev->name));
	if (event != NULL && strchr(event, ':') != NULL && !fell_back)
		snprintf(ev->name, sizeof(ev->name), "%s", event);	/* as perf names it */
	snprintf(ev->note, sizeof(ev->note), "%s%s%s",
	    fell_back ? "no hardware cycles event here (no PMU): sampling cpu-clock instead" : "",
	    fell_back && ev->attr.exclude_kernel && !a.exclude_kernel ? "; " : "",
	    ev->attr.exclude_kernel && !a.exclude_kernel ?
	    "kernel samples excluded (perf_event_paranoid)" : "");
	if (cg_fell_back) {
		size_t l = strlen(ev->note);
		snprintf(ev->note + l, sizeof(ev->note) - l, "%scall chains from frame "
		    "pointers only (%s refused)", l ? "; " : "",
		    lbr_refused ? "LBR call stack" : "stack copy");
	}
	return 0;
}
