/*
 * The sampling event: one perf_event_open per online CPU for the command
 * (inherit, enable_on_exec), with the fallbacks a virtual machine or an
 * unprivileged user needs (DESIGN.md §1).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "base.h"
#include "perf/perfdata.h"
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
 * One event of the list: its name (member, with its own modifiers) and
 * the group's modifiers (gmods, "" outside a group) into e->attr, as perf
 * record sets them (u: exclude_kernel and exclude_hv, p: precise_ip...).
 * e->fixed: the precise_ip level the name fixes, or -1 (none given, or P:
 * the highest the machine takes, as benchtui's default).
 */
static int
parse_event(const char *member, const char *gmods, const char *list,
	    struct bt_rec_evsel *e, struct bt_error *err)
{
	struct bt_perf_evname ev;
	struct perf_event_attr *a = &e->attr;
	char full[256];
	int n;

	n = *gmods ? snprintf(full, sizeof(full), "{%s}:%s", member, gmods) :
	    snprintf(full, sizeof(full), "%s", member);
	if (*gmods && n > 0 && (size_t)n < sizeof(full) &&
	    bt_perf_evname_parse(full, &ev) < 0 && bt_perf_evname_parse(member, &ev) == 0)
		return bt_error_set(err, BT_EINVAL, "bad modifiers ':%s' of the "
		    "group in '%s' (perf's: u, k, h, G, H, I, p, P, S, D, e)",
		    gmods, list);
	if (n < 0 || (size_t)n >= sizeof(full) || bt_perf_evname_parse(full, &ev) < 0 ||
	    !ev.known)
		return bt_error_set(err, BT_EINVAL,
		    "unknown event '%s' (try cycles, instructions, cpu-clock, task-clock, branch-misses, cache-misses or rNNNN, with perf's modifiers: cycles:u, cycles:pp, and groups: '{cycles,instructions}:S')",
		    member);
	if (ev.unsupported)
		return bt_error_set(err, BT_EINVAL, "event '%s': benchtui records "
		    "without the W and b modifiers (perf record -e '%s' records "
		    "it; benchtui -i reads the recording)", member, member);
	snprintf(e->name, sizeof(e->name), "%s", member);	/* as perf names it */
	a->type = ev.type;
	a->config = ev.config;
	e->fixed = -1;
	e->sample_read = ev.sample_read;
	e->mods = ev.mods;
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
		e->fixed = (int)ev.attr.precise_ip;
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

/* Close every fd (a failed try; the events stay, to try again). */
static void
close_fds(struct bt_rec_events *ev)
{
	size_t i, c;

	for (i = 0; i < ev->nevs; i++) {
		for (c = 0; c < ev->n; c++)
			if (ev->evs[i].fds != NULL && ev->evs[i].fds[c] >= 0)
				close(ev->evs[i].fds[c]);
		FREE_AND_NULL(ev->evs[i].fds);
		FREE_AND_NULL(ev->evs[i].ids);
	}
	ev->fds = NULL;	/* the first event's */
	FREE_AND_NULL(ev->cpus);
	ev->n = 0;
}

void
bt_rec_events_close(struct bt_rec_events *ev)
{
	close_fds(ev);
	FREE_AND_NULL(ev->evs);
	ev->nevs = 0;
}

/* Add the event member (len bytes) with the group's modifiers gmods. */
static int
add_event(struct bt_rec_events *ev, const struct perf_event_attr *base,
	  const char *member, size_t len, const char *gmods, size_t leader,
	  struct bt_error *err)
{
	struct bt_rec_evsel *e;
	char name[sizeof(e->name)];

	if (len == 0)
		return bt_error_set(err, BT_EINVAL, "an empty event name in '%s'",
		    ev->list);
	if (len >= sizeof(name))
		return bt_error_set(err, BT_EINVAL, "event name too long: '%.*s'",
		    (int)len, member);
	if (ev->nevs == BT_REC_MAX_EVENTS)
		return bt_error_set(err, BT_EINVAL, "more than %d events in '%s'",
		    BT_REC_MAX_EVENTS, ev->list);
	memcpy(name, member, len);
	name[len] = '\0';
	ev->evs = bt_xrealloc(ev->evs, (ev->nevs + 1) * sizeof(*ev->evs));
	e = &ev->evs[ev->nevs];
	memset(e, 0, sizeof(*e));
	e->attr = *base;
	e->leader = leader;
	e->nr_members = 1;
	ev->nevs++;
	return parse_event(name, gmods, ev->list, e, err);
}

/* The end of one name of a list at p: a ',' or the end, not inside /.../ */
static size_t
name_len(const char *p, const char *stops)
{
	size_t i;
	bool slash = false;

	for (i = 0; p[i] != '\0'; i++) {
		if (p[i] == '/')
			slash = !slash;
		else if (!slash && strchr(stops, p[i]) != NULL)
			break;
	}
	return i;
}

/*
 * The event list as perf's parser reads -e: names separated by ',', a
 * group in braces with its modifiers after them ("{a,b}:S"), several -e
 * joined by ','.
 */
static int
parse_list(struct bt_rec_events *ev, const char *list,
	   const struct perf_event_attr *base, struct bt_error *err)
{
	const char *p = list;
	int ret;

	snprintf(ev->list, sizeof(ev->list), "%s", list);
	for (;;) {
		size_t len;

		if (*p == '{') {
			const char *m = p + 1, *close = strchr(p, '}');
			char gmods[32] = "";
			size_t leader = ev->nevs, ml;

			if (close == NULL)
				return bt_error_set(err, BT_EINVAL, "no '}' closes "
				    "the group in '%s'", list);
			p = close + 1;
			if (*p == ':') {
				len = name_len(p + 1, ",{}");
				if (len == 0 || len >= sizeof(gmods))
					return bt_error_set(err, BT_EINVAL, "bad "
					    "modifiers of the group in '%s'", list);
				memcpy(gmods, p + 1, len);
				p += 1 + len;
			}
			for (;;) {
				ml = name_len(m, ",{}");
				if (m[ml] == '{' || (m + ml != close && m[ml] != ','))
					return bt_error_set(err, BT_EINVAL, "a group "
					    "inside a group in '%s'", list);
				ret = add_event(ev, base, m, ml, gmods, leader, err);
				if (ret)
					return ret;
				if (m + ml == close)
					break;
				m += ml + 1;
			}
			ev->evs[leader].nr_members = ev->nevs - leader;
			if (ev->nevs - leader > 1)
				ev->ngroups++;
		} else {
			len = name_len(p, ",{}");
			if (p[len] == '{' || p[len] == '}')
				return bt_error_set(err, BT_EINVAL, "a group must "
				    "start a name, in braces: '%s'", list);
			ret = add_event(ev, base, p, len, "", ev->nevs, err);
			if (ret)
				return ret;
			p += len;
		}
		if (*p == '\0')
			return 0;
		if (*p != ',')
			return bt_error_set(err, BT_EINVAL, "bad event list '%s' "
			    "(names separated by ',', a group in braces: "
			    "'{cycles,instructions}:S')", list);
		p++;
	}
}

/*
 * The attrs of a list of events or groups, as perf record sets them
 * (evsel__config): only the first event tracks mmaps, comms and tasks; a
 * group's members are enabled with their leader; the leader of an S group
 * samples for all, its samples carrying every member's count (READ,
 * read_format GROUP), the members not sampling; with several events, each
 * sample names its event (ID, or IDENTIFIER when their layouts differ).
 * One plain event keeps the attr it always had.
 */
static void
configure(struct bt_rec_events *ev)
{
	size_t i;
	bool same = true, ids = ev->nevs > 1;

	for (i = 0; i < ev->nevs; i++) {
		struct bt_rec_evsel *e = &ev->evs[i];
		const struct bt_rec_evsel *l = &ev->evs[e->leader];
		struct perf_event_attr *a = &e->attr;

		if (i > 0)
			a->mmap = a->mmap2 = a->comm = a->comm_exec = a->task =
			    a->build_id = 0;
		if (e->leader != i)
			a->disabled = a->enable_on_exec = 0;
		if (e->sample_read) {
			a->sample_type |= PERF_SAMPLE_READ;
			if (l->nr_members > 1)
				a->read_format |= PERF_FORMAT_GROUP;
			ids = true;
		}
		if (l->sample_read && e->leader != i) {
			a->freq = 0;
			a->sample_period = 0;
		}
		if (a->sample_type != ev->evs[0].attr.sample_type)
			same = false;
	}
	if (!ids)
		return;
	for (i = 0; i < ev->nevs; i++) {
		ev->evs[i].attr.sample_type |= same ? PERF_SAMPLE_ID :
		    PERF_SAMPLE_IDENTIFIER;
		ev->evs[i].attr.read_format |= PERF_FORMAT_ID;
	}
}

/*
 * Open every event on every CPU for pid, a group's members with their
 * leader's fd, each with its attr t[i]; on failure all are closed and
 * -errno returned (ev->failed: the event refused).
 */
static int
open_all(struct bt_rec_events *ev, const struct perf_event_attr *t, pid_t pid)
{
	int cpus[MAX_CPUS];
	int n = online_cpus(cpus, MAX_CPUS), c;
	size_t i;

	ev->cpus = bt_xcalloc((size_t)n, sizeof(int));
	for (i = 0; i < ev->nevs; i++) {
		ev->evs[i].fds = bt_xcalloc((size_t)n, sizeof(int));
		for (c = 0; c < n; c++)
			ev->evs[i].fds[c] = -1;
	}
	ev->n = (size_t)n;
	for (c = 0; c < n; c++) {
		ev->cpus[c] = cpus[c];
		for (i = 0; i < ev->nevs; i++) {
			struct bt_rec_evsel *e = &ev->evs[i];
			int group = e->leader == i ? -1 : ev->evs[e->leader].fds[c];
			long fd = perf_event_open((struct perf_event_attr *)&t[i], pid,
			    cpus[c], group, PERF_FLAG_FD_CLOEXEC);

			if (fd < 0) {
				int err = errno;

				ev->failed = i;
				close_fds(ev);
				return -err;
			}
			e->fds[c] = (int)fd;
		}
	}
	return 0;
}

/*
 * The attr to try for event e at precise level precise, variant v (1:
 * without build-ids, 2: without the clock, 3: without kernel samples);
 * noinherit: an S event not inherited (kernels before 6.12 refuse it).
 */
static void
variant(const struct bt_rec_evsel *e, struct perf_event_attr *t, int precise,
	int v, bool noinherit)
{
	bool hw = e->attr.type == PERF_TYPE_HARDWARE || e->attr.type == PERF_TYPE_RAW;

	*t = e->attr;
	t->precise_ip = (unsigned)(e->fixed >= 0 ? e->fixed : hw ? precise : 0);
	if (v >= 1)
		t->build_id = 0;
	if (v >= 2)
		t->use_clockid = 0, t->clockid = 0;
	if (v >= 3)
		t->exclude_kernel = 1;
	if (noinherit && (t->sample_type & PERF_SAMPLE_READ))
		t->inherit = 0;
}

/*
 * Open every event at precise level precise, dropping what older kernels
 * or unprivileged users refuse one variant at a time (variant()); mods:
 * the user chose the privilege levels (kernel samples are not dropped).
 * Returns 0 (t: the attrs taken) or the last -errno.
 */
static int
try_variants(struct bt_rec_events *ev, struct perf_event_attr *t, int precise,
	     pid_t pid, bool mods, bool *noinherit)
{
	bool reads = false;
	size_t i;
	int v, ret = -EINVAL;

	for (i = 0; i < ev->nevs; i++)
		if (ev->evs[i].attr.sample_type & PERF_SAMPLE_READ)
			reads = true;
	for (v = 0; v < 4; v++) {
		if (v >= 3 && mods)
			break;
		for (i = 0; i < ev->nevs; i++)
			variant(&ev->evs[i], &t[i], precise, v, *noinherit);
		ret = open_all(ev, t, pid);
		if (ret == 0)
			return 0;
		/*
		 * an inherited S group refused (kernels before 6.12): the
		 * same without inherit, kept if taken
		 */
		if (ret == -EINVAL && reads && !*noinherit) {
			for (i = 0; i < ev->nevs; i++)
				variant(&ev->evs[i], &t[i], precise, v, true);
			ret = open_all(ev, t, pid);
			if (ret == 0) {
				*noinherit = true;
				return 0;
			}
		}
		if (ret != -EINVAL && ret != -EACCES && ret != -EPERM)
			break;
	}
	return ret;
}

/* Opened with the attrs t: ids, layouts, names and the note. */
static void
opened(struct bt_rec_events *ev, const struct perf_event_attr *t, bool fell_back,
       bool cg_fell_back, bool lbr_refused, bool noinherit)
{
	size_t i;
	bool ek_added;

	/* kernel samples dropped by the fallback, not asked away */
	ek_added = t[0].exclude_kernel && !ev->evs[0].attr.exclude_kernel;
	for (i = 0; i < ev->nevs; i++) {
		struct bt_rec_evsel *e = &ev->evs[i];
		size_t c;

		e->attr = t[i];
		e->ids = bt_xcalloc(ev->n, sizeof(uint64_t));
		for (c = 0; c < ev->n; c++)
			if (ioctl(e->fds[c], PERF_EVENT_IOC_ID, &e->ids[c]) < 0)
				e->ids[c] = 0;
		bt_perf_layout_init(&e->layout, &e->attr);
		/* as perf names it: as given with modifiers, else its own name */
		if (strchr(e->name, ':') == NULL || fell_back)
			bt_perf_event_name(&e->attr, e->name, sizeof(e->name));
	}
	ev->attr = ev->evs[0].attr;
	ev->fds = ev->evs[0].fds;
	if (ev->nevs == 1)
		snprintf(ev->name, sizeof(ev->name), "%s", ev->evs[0].name);
	else
		bt_rec_events_list(ev, ev->name, sizeof(ev->name));
	snprintf(ev->note, sizeof(ev->note), "%s%s%s",
	    fell_back ? "no hardware cycles event here (no PMU): sampling cpu-clock instead" : "",
	    fell_back && ek_added ? "; " : "",
	    ek_added ?
	    "kernel samples excluded (perf_event_paranoid)" : "");
	if (cg_fell_back) {
		size_t l = strlen(ev->note);
		snprintf(ev->note + l, sizeof(ev->note) - l, "%scall chains from frame "
		    "pointers only (%s refused)", l ? "; " : "",
		    lbr_refused ? "LBR call stack" : "stack copy");
	}
	if (noinherit) {
		size_t l = strlen(ev->note);
		snprintf(ev->note + l, sizeof(ev->note) - l, "%sthe command's "
		    "threads and children not sampled (the kernel refuses inherited "
		    "group reads, S)", l ? "; " : "");
	}
}

int
bt_rec_events_open(struct bt_rec_events *ev, const char *event, unsigned freq,
		   enum bt_callgraph cg, unsigned stack_size, pid_t pid,
		   struct bt_error *err)
{
	const char *want = event ? event : "cycles";
	struct perf_event_attr a, t[BT_REC_MAX_EVENTS];
	int ret = -EINVAL, precise, pass, top;
	size_t i;
	char hint[256];
	bool fell_back = false, cg_fell_back = false, lbr_refused = false;
	bool mods = false, noinherit = false;

	memset(ev, 0, sizeof(*ev));
	base_attr(&a, freq ? freq : DEFAULT_FREQ);
	bt_rec_callgraph_attr(&a, cg, stack_size);
	ret = parse_list(ev, want, &a, err);
	if (ret) {
		bt_rec_events_close(ev);
		return ret;
	}
	configure(ev);
	for (i = 0; i < ev->nevs; i++) {
		const struct perf_event_attr *e = &ev->evs[i].attr;
		/* u, k or h given: the user's choice, not lowered to user-only */
		if (event != NULL && (e->exclude_user || e->exclude_kernel || !e->exclude_hv))
			mods = true;
	}

	for (pass = 0; pass < 2; pass++) {
		/* drop what older kernels or unprivileged users refuse, one at a time */
		/* p, pp, ppp: that level or none, as perf; else the highest taken */
		top = 0;
		for (i = 0; i < ev->nevs; i++)
			if (ev->evs[i].fixed < 0 && (ev->evs[i].attr.type ==
			    PERF_TYPE_HARDWARE || ev->evs[i].attr.type == PERF_TYPE_RAW))
				top = 3;
		for (precise = top; precise >= 0; precise--) {
			ret = try_variants(ev, t, precise, pid, mods, &noinherit);
			if (ret == 0)
				goto opened;
			if ((ret == -EINVAL || ret == -EOPNOTSUPP) && (a.sample_type &
			    (PERF_SAMPLE_STACK_USER | PERF_SAMPLE_BRANCH_STACK))) {
				/* no user registers, stack or LBR here: frame pointers */
				lbr_refused = (a.sample_type & PERF_SAMPLE_BRANCH_STACK) != 0;
				bt_rec_callgraph_attr(&a, BT_CG_FP, 0);
				for (i = 0; i < ev->nevs; i++)
					bt_rec_callgraph_attr(&ev->evs[i].attr, BT_CG_FP, 0);
				cg_fell_back = true;
				precise++;
				continue;
			}
			if (ret == -EACCES || ret == -EPERM) {
				bt_rec_events_close(ev);
				return bt_error_set(err, BT_EPERF,
				    "perf_event_open refused (%s): %s",
				    strerror(-ret), paranoid_hint(hint, sizeof(hint)));
			}
		}
		/* no PMU (virtual machines): cycles falls back to cpu-clock */
		if (event == NULL && pass == 0 &&
		    (ret == -ENOENT || ret == -EOPNOTSUPP || ret == -ENODEV ||
		     ret == -EINVAL)) {
			ev->evs[0].attr.type = PERF_TYPE_SOFTWARE;
			ev->evs[0].attr.config = PERF_COUNT_SW_CPU_CLOCK;
			fell_back = true;
			continue;
		}
		break;
	}
	want = ev->nevs > 1 ? ev->evs[ev->failed].name : want;
	bt_rec_events_close(ev);
	if (ret == -ENOENT || ret == -EOPNOTSUPP || ret == -ENODEV)
		return bt_error_set(err, BT_EPERF,
		    "event '%s' is not supported here (%s); try -e cpu-clock",
		    want, strerror(-ret));
	return bt_error_set(err, BT_EPERF, "perf_event_open failed for '%s': %s",
	    want, strerror(-ret));
opened:
	opened(ev, t, fell_back, cg_fell_back, lbr_refused, noinherit);
	return 0;
}

const char *
bt_rec_events_list(const struct bt_rec_events *ev, char *buf, size_t len)
{
	struct bt_strbuf sb = BT_STRBUF_INIT;
	size_t i;

	for (i = 0; i < ev->nevs; i++) {
		const struct bt_rec_evsel *e = &ev->evs[i];
		const struct bt_rec_evsel *l = &ev->evs[e->leader];

		if (i > 0)
			bt_strbuf_addch(&sb, ',');
		if (e->leader == i && e->nr_members > 1)
			bt_strbuf_addch(&sb, '{');
		bt_strbuf_addstr(&sb, e->name);
		if (l->nr_members > 1 && i == e->leader + l->nr_members - 1)
			bt_strbuf_addch(&sb, '}');
	}
	snprintf(buf, len, "%s", sb.buf ? sb.buf : "");
	bt_strbuf_release(&sb);
	return buf;
}

int
bt_rec_events_redirect(struct bt_rec_events *ev, struct bt_error *err)
{
	size_t i, c;

	for (i = 1; i < ev->nevs; i++)
		for (c = 0; c < ev->n; c++)
			if (ioctl(ev->evs[i].fds[c], PERF_EVENT_IOC_SET_OUTPUT,
			    ev->evs[0].fds[c]) < 0)
				return bt_error_errno(err, BT_EPERF, errno,
				    "cannot send '%s' into the ring buffers",
				    ev->evs[i].name);
	return 0;
}

size_t
bt_rec_events_attrs(const struct bt_rec_events *ev, struct bt_pd_attr *pa,
		    struct bt_pd_group *groups)
{
	size_t i, c, ng = 0;

	for (i = 0; i < ev->nevs; i++) {
		const struct bt_rec_evsel *e = &ev->evs[i];

		memset(&pa[i], 0, sizeof(pa[i]));
		pa[i].attr = e->attr;
		pa[i].name = (char *)e->name;
		pa[i].ids = bt_xcalloc(ev->n, sizeof(uint64_t));
		for (c = 0; c < ev->n; c++)
			if (e->ids[c])
				pa[i].ids[pa[i].nids++] = e->ids[c];
		if (e->leader == i && e->nr_members > 1 && groups != NULL) {
			groups[ng].name = NULL;	/* perf's "{anon_group}" */
			groups[ng].leader = (uint32_t)i;
			groups[ng].nr_members = (uint32_t)e->nr_members;
			ng++;
		}
	}
	return ng;
}

const struct bt_perf_layout *
bt_rec_events_layout(const struct bt_rec_events *ev, const void *rec)
{
	const struct bt_perf_layout *l0 = &ev->evs[0].layout;
	const struct perf_event_header *h = rec;
	const uint8_t *p = rec;
	uint64_t id;
	size_t i, c;

	if (ev->nevs < 2 || !(l0->sample_type & PERF_SAMPLE_IDENTIFIER))
		return l0;
	if (h->type == PERF_RECORD_SAMPLE && h->size >= 16)
		memcpy(&id, p + 8, 8);
	else if (h->type != PERF_RECORD_SAMPLE && h->size >= 16 && l0->sample_id_all)
		memcpy(&id, p + h->size - 8, 8);
	else
		return l0;
	for (i = 0; i < ev->nevs; i++)
		for (c = 0; c < ev->n; c++)
			if (ev->evs[i].ids[c] == id)
				return &ev->evs[i].layout;
	return l0;
}
