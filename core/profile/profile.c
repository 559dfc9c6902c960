/*
 * Build a profile from a perf.data file: replay the side-band records
 * (MMAP/MMAP2, COMM exec, FORK) in time order into per-process mapping
 * histories, then resolve every sample to (module, file offset) at its
 * own time. Samples may come in any order; side-band records are few.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base.h"
#include "profile/perfdata.h"
#include "profile/profile-int.h"

struct sideband {
	uint64_t time;
	uint64_t order;
	uint32_t type;
	uint32_t pid, ppid;
	uint64_t start, len, pgoff;
	uint32_t module;
	bool exec;
};

struct map {
	uint64_t start, end, pgoff;
	uint64_t t_start, t_end;
	uint32_t module;
};

struct proc {
	uint32_t pid;
	int parent;		/* index of the forking process, -1 */
	uint64_t fork_time;
	uint64_t exec_time;	/* last exec; inherited maps end there */
	BT_VEC(struct map) maps;
	size_t last_hit;
};

struct procs {
	BT_VEC(struct proc) v;
	int *slots;		/* open addressing: pid -> index + 1 */
	size_t nslots;
};

static int
proc_find(struct procs *ps, uint32_t pid)
{
	size_t i;

	if (ps->nslots == 0)
		return -1;
	for (i = bt_hash64(pid) & (ps->nslots - 1);; i = (i + 1) & (ps->nslots - 1)) {
		int s = ps->slots[i];
		if (s == 0)
			return -1;
		if (ps->v.v[s - 1].pid == pid)
			return s - 1;
	}
}

static void
proc_rehash(struct procs *ps)
{
	size_t i, j;

	free(ps->slots);
	ps->nslots = ps->nslots ? ps->nslots * 2 : 64;
	ps->slots = bt_xcalloc(ps->nslots, sizeof(int));
	for (i = 0; i < ps->v.n; i++) {
		j = bt_hash64(ps->v.v[i].pid) & (ps->nslots - 1);
		while (ps->slots[j])
			j = (j + 1) & (ps->nslots - 1);
		ps->slots[j] = (int)i + 1;
	}
}

/* The process pid, created if new (a process first seen as itself has no parent). */
static int
proc_get(struct procs *ps, uint32_t pid)
{
	int i = proc_find(ps, pid);
	struct proc p;

	if (i >= 0)
		return i;
	memset(&p, 0, sizeof(p));
	p.pid = pid;
	p.parent = -1;
	BT_VEC_PUSH(ps->v, p);
	if ((ps->v.n) * 2 > ps->nslots)
		proc_rehash(ps);
	else {
		size_t j = bt_hash64(pid) & (ps->nslots - 1);
		while (ps->slots[j])
			j = (j + 1) & (ps->nslots - 1);
		ps->slots[j] = (int)ps->v.n;
	}
	return (int)ps->v.n - 1;
}

static void
procs_release(struct procs *ps)
{
	size_t i;

	for (i = 0; i < ps->v.n; i++)
		BT_VEC_FREE(ps->v.v[i].maps);
	BT_VEC_FREE(ps->v);
	free(ps->slots);
}

uint32_t
bt_profile_module(struct bt_profile *p, enum bt_mod_kind kind, const char *path,
		  const uint8_t *bid, size_t bid_size)
{
	struct bt_module m;
	size_t i;

	for (i = 0; i < p->modules.n; i++) {
		struct bt_module *o = &p->modules.v[i];
		if (o->kind == kind && strcmp(o->path, path) == 0 &&
		    (bid_size == 0 || o->build_id_size == 0 ||
		     (o->build_id_size == bid_size &&
		      memcmp(o->build_id, bid, bid_size) == 0))) {
			if (o->build_id_size == 0 && bid_size) {
				memcpy(o->build_id, bid, bid_size);
				o->build_id_size = (uint8_t)bid_size;
			}
			return (uint32_t)i;
		}
	}
	memset(&m, 0, sizeof(m));
	m.path = bt_xstrdup(path);
	m.kind = kind;
	if (bid_size) {
		memcpy(m.build_id, bid, BT_MIN(bid_size, 20));
		m.build_id_size = (uint8_t)BT_MIN(bid_size, 20);
	}
	BT_VEC_PUSH(p->modules, m);
	return (uint32_t)(p->modules.n - 1);
}

static enum bt_mod_kind
kind_of(const char *fn)
{
	if (strcmp(fn, "[vdso]") == 0)
		return BT_MOD_VDSO;
	if (fn[0] == '/' && strncmp(fn, "//anon", 6) != 0 &&
	    strncmp(fn, "/memfd:", 7) != 0 && strncmp(fn, "/dev/zero", 9) != 0 &&
	    strncmp(fn, "/SYSV", 5) != 0)
		return BT_MOD_ELF;
	return BT_MOD_ANON;
}

static int
sb_cmp(const void *a, const void *b)
{
	const struct sideband *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static void
apply_sideband(struct bt_profile *p, struct procs *ps, const struct sideband *s)
{
	struct proc *pr;
	size_t i;
	int pi;

	switch (s->type) {
	case PERF_RECORD_FORK:
		if (s->pid == s->ppid)
			return;	/* a new thread shares its process's maps */
		pi = proc_get(ps, s->pid);
		{
			int parent = proc_get(ps, s->ppid);
			pr = &ps->v.v[pi];
			if (pr->maps.n == 0 && pr->parent < 0) {
				pr->parent = parent;
				pr->fork_time = s->time;
			}
		}
		return;
	case PERF_RECORD_COMM:
		pi = proc_get(ps, s->pid);
		pr = &ps->v.v[pi];
		for (i = 0; i < pr->maps.n; i++)
			if (pr->maps.v[i].t_end > s->time)
				pr->maps.v[i].t_end = s->time;
		pr->exec_time = s->time;
		return;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2: {
		struct map m;

		if (s->pid == (uint32_t)-1)
			return;	/* kernel maps: kernel samples are one bucket */
		pi = proc_get(ps, s->pid);
		pr = &ps->v.v[pi];
		for (i = 0; i < pr->maps.n; i++) {
			struct map *o = &pr->maps.v[i];
			if (o->start < s->start + s->len && s->start < o->end &&
			    o->t_end > s->time)
				o->t_end = s->time;
		}
		m.start = s->start;
		m.end = s->start + s->len;
		m.pgoff = s->pgoff;
		m.t_start = s->time;
		m.t_end = UINT64_MAX;
		m.module = s->module;
		BT_VEC_PUSH(pr->maps, m);
		return;
	}
	}
	(void)p;
}

/* The mapping of pid that held ip at time t. */
static const struct map *
resolve(struct procs *ps, uint32_t pid, uint64_t ip, uint64_t t)
{
	int pi = proc_find(ps, pid);
	int depth = 0;

	while (pi >= 0 && depth++ < 64) {
		struct proc *pr = &ps->v.v[pi];
		const struct map *best = NULL;
		size_t i;

		if (pr->last_hit < pr->maps.n) {
			const struct map *m = &pr->maps.v[pr->last_hit];
			if (ip >= m->start && ip < m->end && t >= m->t_start &&
			    t < m->t_end) {
				/* a later map over the same range would have ended m */
				return m;
			}
		}
		for (i = 0; i < pr->maps.n; i++) {
			const struct map *m = &pr->maps.v[i];
			if (ip >= m->start && ip < m->end && t >= m->t_start &&
			    t < m->t_end && (best == NULL || m->t_start >= best->t_start)) {
				best = m;
				pr->last_hit = i;
			}
		}
		if (best != NULL)
			return best;
		/* before its first exec, a child runs its parent's code */
		if (pr->parent < 0 || (pr->exec_time && t >= pr->exec_time))
			return NULL;
		if (t > pr->fork_time)
			t = pr->fork_time;
		pi = pr->parent;
	}
	return NULL;
}

static char *
join_command(char *const *argv, size_t argc)
{
	struct bt_strbuf sb = BT_STRBUF_INIT;
	size_t i;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (i)
			bt_strbuf_addch(&sb, ' ');
		if (a[0] != '\0' && strpbrk(a, " \t\n'\"\\$`") == NULL)
			bt_strbuf_addstr(&sb, a);
		else {
			bt_strbuf_addch(&sb, '\'');
			for (; *a; a++) {
				if (*a == '\'')
					bt_strbuf_addstr(&sb, "'\\''");
				else
					bt_strbuf_addch(&sb, *a);
			}
			bt_strbuf_addch(&sb, '\'');
		}
	}
	return bt_strbuf_detach(&sb, NULL);
}

static void
fill_info(struct bt_profile *p, struct bt_pd_reader *r)
{
	struct bt_profile_info *in = &p->info;
	const struct perf_event_attr *a0 = &bt_pd_attr(r, 0)->attr;
	const char *s;
	size_t i, argc;
	char *const *cmd;

	if (p->meta.argc)
		p->command = join_command(p->meta.argv, p->meta.argc);
	else if ((cmd = bt_pd_cmdline(r, &argc)) != NULL && argc)
		p->command = join_command(cmd, argc);
	else
		p->command = bt_xstrdup("");
	in->command = p->command;
	p->events = bt_xcalloc(bt_pd_nattrs(r) + 1, sizeof(char *));
	for (i = 0; i < bt_pd_nattrs(r); i++)
		p->events[i] = bt_xstrdup(bt_pd_attr(r, i)->name);
	in->events = (const char *const *)p->events;
	in->nevents = bt_pd_nattrs(r);
	in->frequency = a0->freq ? (unsigned)a0->sample_freq : 0;
	in->samples = p->samples.n;
	in->duration = p->meta.duration > 0 ? p->meta.duration :
	    p->last_time > p->first_time ?
	    (double)(p->last_time - p->first_time) / 1e9 : 0;
	in->has_status = p->meta.has_status;
	in->wait_status = p->meta.wait_status;
	in->interrupted = p->meta.interrupted;
	in->event_note = p->meta.event_note;
	s = bt_pd_feature_str(r, BT_FEAT_HOSTNAME);
	p->hostname = bt_xstrdup(s ? s : "");
	s = bt_pd_feature_str(r, BT_FEAT_OSRELEASE);
	p->osrelease = bt_xstrdup(s ? s : "");
	s = bt_pd_feature_str(r, BT_FEAT_VERSION);
	if (s != NULL && strncmp(s, "benchtui", 8) == 0)
		p->recorder = bt_xstrdup(s);
	else
		p->recorder = bt_xasprintf("perf %s", s ? s : "(unknown version)");
	in->hostname = p->hostname;
	in->osrelease = p->osrelease;
	in->recorder = p->recorder;
}

struct bt_profile *
bt_profile_read(struct bt_pd_reader *r, const char *path, struct bt_error *err)
{
	struct bt_profile *p = bt_xcalloc(1, sizeof(*p));
	BT_VEC(struct sideband) sb = { 0 };
	BT_VEC(uint32_t) pids = { 0 };
	struct procs ps = { 0 };
	const struct bt_pd_buildid *bids;
	size_t nbids, i;
	struct bt_pd_event ev;
	uint64_t order = 0;
	const void *btsec;
	size_t btlen;
	uint32_t kmod, umod;
	int ret;

	p->path = bt_xstrdup(path ? path : "");
	btsec = bt_pd_benchtui(r, &btlen);
	if (btsec != NULL)
		bt_meta_decode(btsec, btlen, &p->meta);
	nbids = bt_pd_buildids(r, &bids);
	kmod = bt_profile_module(p, BT_MOD_KERNEL, "[kernel]", NULL, 0);
	umod = bt_profile_module(p, BT_MOD_UNKNOWN, "[unknown]", NULL, 0);
	p->event_samples = bt_xcalloc(bt_pd_nattrs(r), sizeof(uint64_t));

	bt_pd_rewind(r);
	while ((ret = bt_pd_next(r, &ev, err)) > 0) {
		struct sideband s;

		switch (ev.type) {
		case PERF_RECORD_SAMPLE: {
			struct bt_sample smp;
			unsigned mode = ev.misc & PERF_RECORD_MISC_CPUMODE_MASK;

			if (ev.attr < 0 || ev.attr > 255)
				continue;
			smp.time = ev.time;
			smp.off = ev.u.sample.ip;
			smp.tid = ev.tid;
			smp.period = (uint32_t)BT_MIN(ev.u.sample.period, UINT32_MAX);
			smp.cpu = (uint16_t)ev.cpu;
			smp.attr = (uint8_t)ev.attr;
			smp.flags = (uint8_t)mode;
			smp.module = UINT32_MAX;
			if (mode == PERF_RECORD_MISC_KERNEL ||
			    mode == PERF_RECORD_MISC_GUEST_KERNEL ||
			    mode == PERF_RECORD_MISC_HYPERVISOR)
				smp.module = kmod;
			BT_VEC_PUSH(p->samples, smp);
			BT_VEC_PUSH(pids, ev.pid);
			p->event_samples[ev.attr]++;
			if (ev.time && (p->first_time == 0 || ev.time < p->first_time))
				p->first_time = ev.time;
			if (ev.time > p->last_time)
				p->last_time = ev.time;
			continue;
		}
		case PERF_RECORD_LOST:
		case PERF_RECORD_LOST_SAMPLES:
			p->info.lost += ev.u.lost.lost;
			continue;
		case PERF_RECORD_THROTTLE:
			p->info.throttled++;
			continue;
		case PERF_RECORD_MMAP:
		case PERF_RECORD_MMAP2: {
			const char *fn = ev.u.mmap.filename;
			const uint8_t *bid = ev.u.mmap.build_id;
			size_t bsz = ev.u.mmap.build_id_size;
			enum bt_mod_kind k;

			if (ev.type == PERF_RECORD_MMAP2 &&
			    !(ev.u.mmap.prot & PROT_EXEC))
				continue;
			if (ev.type == PERF_RECORD_MMAP &&
			    (ev.misc & PERF_RECORD_MISC_MMAP_DATA))
				continue;
			k = kind_of(fn);
			if (bsz == 0)
				for (i = 0; i < nbids; i++)
					if (strcmp(bids[i].filename, fn) == 0) {
						bid = bids[i].id;
						bsz = bids[i].size;
						break;
					}
			memset(&s, 0, sizeof(s));
			s.pid = ev.u.mmap.pid;
			s.start = ev.u.mmap.start;
			s.len = ev.u.mmap.len;
			s.pgoff = k == BT_MOD_ELF ? ev.u.mmap.pgoff : 0;
			s.module = bt_profile_module(p, k, fn, bid, bsz);
			break;
		}
		case PERF_RECORD_COMM:
			if (!(ev.misc & PERF_RECORD_MISC_COMM_EXEC))
				continue;
			memset(&s, 0, sizeof(s));
			s.pid = ev.u.comm.pid;
			break;
		case PERF_RECORD_FORK:
			memset(&s, 0, sizeof(s));
			s.pid = ev.u.task.pid;
			s.ppid = ev.u.task.ppid;
			ev.time = ev.u.task.time;
			break;
		default:
			continue;
		}
		s.type = ev.type;
		s.time = ev.time;
		s.order = order++;
		BT_VEC_PUSH(sb, s);
	}
	if (ret < 0)
		goto fail;

	bt_qsort(sb.v, sb.n, sizeof(*sb.v), sb_cmp);
	for (i = 0; i < sb.n; i++)
		apply_sideband(p, &ps, &sb.v[i]);
	for (i = 0; i < p->samples.n; i++) {
		struct bt_sample *smp = &p->samples.v[i];
		const struct map *m;

		if (smp->module != UINT32_MAX)
			continue;
		m = resolve(&ps, pids.v[i], smp->off, smp->time);
		if (m == NULL) {
			smp->module = umod;
			p->unresolved++;
			continue;
		}
		smp->module = m->module;
		if (p->modules.v[m->module].kind != BT_MOD_ANON)
			smp->off = smp->off - m->start + m->pgoff;
	}
	fill_info(p, r);
	BT_VEC_FREE(sb);
	BT_VEC_FREE(pids);
	procs_release(&ps);
	return p;
fail:
	BT_VEC_FREE(sb);
	BT_VEC_FREE(pids);
	procs_release(&ps);
	bt_profile_free(p);
	return NULL;
}

struct bt_profile *
bt_profile_open(const char *path, struct bt_error *err)
{
	struct bt_pd_reader *r = bt_pd_open(path, err);
	struct bt_profile *p;

	if (r == NULL)
		return NULL;
	p = bt_profile_read(r, path, err);
	if (p != NULL && p->meta.vdso != NULL) {
		/* the image points into the mapped file: keep a copy */
		void *copy = bt_xmalloc(p->meta.vdso_len);
		memcpy(copy, p->meta.vdso, p->meta.vdso_len);
		p->meta.vdso = copy;
		p->vdso_owned = copy;
	}
	bt_pd_close(r);
	return p;
}

void
bt_profile_free(struct bt_profile *p)
{
	size_t i;

	if (p == NULL)
		return;
	for (i = 0; i < p->modules.n; i++)
		free(p->modules.v[i].path);
	BT_VEC_FREE(p->modules);
	BT_VEC_FREE(p->samples);
	bt_meta_release(&p->meta);
	free(p->vdso_owned);
	if (p->events != NULL)
		for (i = 0; p->events[i] != NULL; i++)
			free(p->events[i]);
	free(p->events);
	free(p->event_samples);
	free(p->command);
	free(p->hostname);
	free(p->osrelease);
	free(p->recorder);
	free(p->path);
	free(p);
}

const struct bt_profile_info *
bt_profile_info(const struct bt_profile *p)
{
	return &p->info;
}
