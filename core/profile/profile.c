/*
 * Build a profile from a perf.data file, in one pass (first_read): replay
 * the side-band records (MMAP/MMAP2, COMM exec, FORK) in time order into
 * per-process mapping histories as perf's rounds make them final, and
 * resolve every sample to (module, file offset) at its own time once
 * they are. Samples may come in any order; side-band records are few.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "base.h"
#include "hash.h"
#include "perf/perfdata.h"
#include "profile/chains.h"
#include "profile/profile-int.h"
#include "profile/readvals.h"

struct sideband {
	uint64_t time;
	uint64_t order;
	uint32_t type;
	uint32_t pid, ppid;
	uint64_t start, len, pgoff;
	uint32_t module;
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
	bool jit_open;		/* its JIT sources are open (open_jit) */
};

struct procs {
	BT_VEC(struct proc) v;
	struct bt_hash index;	/* pid -> process */
};

struct bt_resolver {
	struct procs ps;
	uint32_t kmod, umod;
	bool jit_times;		/* samples are on CLOCK_MONOTONIC, as jitdumps */
};

static int
proc_find(struct procs *ps, uint32_t pid, struct bt_hash_pos *pos)
{
	uint32_t i;

	for (i = bt_hash_first(&ps->index, bt_hash64(pid), pos); i != BT_HASH_NONE;
	    i = bt_hash_next(&ps->index, pos))
		if (ps->v.v[i].pid == pid)
			return (int)i;
	return -1;
}

/* The process pid, created if new (a process first seen as itself has no parent). */
static int
proc_get(struct procs *ps, uint32_t pid)
{
	struct bt_hash_pos pos;
	int i = proc_find(ps, pid, &pos);
	struct proc p;

	if (i >= 0)
		return i;
	memset(&p, 0, sizeof(p));
	p.pid = pid;
	p.parent = -1;
	BT_VEC_PUSH(ps->v, p);
	bt_hash_add(&ps->index, &pos, (uint32_t)ps->v.n - 1);
	return (int)ps->v.n - 1;
}

static void
procs_release(struct procs *ps)
{
	size_t i;

	for (i = 0; i < ps->v.n; i++)
		BT_VEC_FREE(ps->v.v[i].maps);
	BT_VEC_FREE(ps->v);
	bt_hash_release(&ps->index);
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

/*
 * A new mapping [start, end) at time t ends the older mappings it
 * overlaps, and what they kept outside it lives on as new pieces (perf's
 * maps__fixup_overlappings): the kernel reports ld.so, or any ELF whose
 * first segment is executable, with its whole reserved size, then maps
 * libraries into its tail; the head stays ld.so's.
 */
static void
trim_maps(struct proc *pr, uint64_t start, uint64_t end, uint64_t t)
{
	size_t i, n = pr->maps.n;

	for (i = 0; i < n; i++) {
		struct map o = pr->maps.v[i], piece;

		if (!(o.start < end && start < o.end && o.t_end > t))
			continue;
		pr->maps.v[i].t_end = t;
		piece = o;
		piece.t_start = t;
		if (o.start < start) {
			piece.end = start;
			BT_VEC_PUSH(pr->maps, piece);
		}
		if (end < o.end) {
			piece.start = end;
			piece.end = o.end;
			piece.pgoff = o.pgoff + (end - o.start);
			BT_VEC_PUSH(pr->maps, piece);
		}
	}
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
		trim_maps(pr, s->start, s->start + s->len, s->time);
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
	struct bt_hash_pos pos;
	int pi = proc_find(ps, pid, &pos);
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

void
bt_profile_resolve(struct bt_profile *p, uint32_t pid, uint64_t ip, uint64_t t,
		   uint32_t *module, uint64_t *off)
{
	const struct map *m = resolve(&p->res->ps, pid, ip, t);

	*off = ip;
	if (m == NULL) {
		*module = p->res->umod;
		return;
	}
	*module = m->module;
	if (p->modules.v[m->module].kind != BT_MOD_ANON)
		*off = ip - m->start + m->pgoff;
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
	const struct bt_pd_auxtrace *aux;
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
	in->argv = (const char *const *)p->meta.argv;
	in->argc = p->meta.argc;
	p->events = bt_xcalloc(bt_pd_nattrs(r) + 1, sizeof(char *));
	/* the histogram of an event with a name seen twice stays with its index */
	for (i = 0; i < bt_pd_nattrs(r); i++)
		p->events[i] = bt_xstrdup(bt_pd_attr(r, i)->name);
	in->events = (const char *const *)p->events;
	in->event_samples = p->event_samples;
	in->nevents = bt_pd_nattrs(r);
	in->frequency = a0->freq ? (unsigned)a0->sample_freq : 0;
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
	if (bt_pd_unfinished(r))
		BT_VEC_PUSH(p->notes, bt_xstrdup("the recording was not finished "
		    "(the size of its data was never written: was the recorder "
		    "killed?): read to its last whole record"));
	aux = bt_pd_auxtrace(r);
	if (aux->present) {
		char size[32];

		if (aux->bytes >= 1048576)
			snprintf(size, sizeof(size), "%.1f MiB", (double)aux->bytes / 1048576);
		else
			snprintf(size, sizeof(size), "%llu bytes", (unsigned long long)aux->bytes);
		BT_VEC_PUSH(p->notes, bt_xasprintf("the recording holds hardware "
		    "trace (%s, %llu records, %s) that is not decoded: only its "
		    "samples are shown", aux->kind ? aux->kind : "AUXTRACE",
		    (unsigned long long)aux->records, size));
	}
	in->notes = (const char *const *)p->notes.v;
	in->nnotes = p->notes.n;
}

/*
 * A side-band record as it is read: counts, modules and the unwinder's
 * copy now; true with *s to apply in time order (MMAP, COMM exec, FORK).
 */
static bool
side_record(struct bt_profile *p, struct bt_pd_reader *r, struct bt_pd_event *ev,
	    struct sideband *s)
{
	const struct bt_pd_buildid *bids;
	size_t nbids = bt_pd_buildids(r, &bids), i;

	bt_chains_event(p, ev);
	switch (ev->type) {
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES:
		p->info.lost += ev->u.lost.lost;
		return false;
	case PERF_RECORD_THROTTLE:
		p->info.throttled++;
		return false;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2: {
		const char *fn = ev->u.mmap.filename;
		const uint8_t *bid = ev->u.mmap.build_id;
		size_t bsz = ev->u.mmap.build_id_size;
		enum bt_mod_kind k;

		if (ev->u.mmap.pid == (uint32_t)-1 &&
		    strncmp(fn, "[kernel.kallsyms]", 17) == 0)
			p->ktext = ev->u.mmap.pgoff;	/* where _text was */
		if (ev->type == PERF_RECORD_MMAP2 &&
		    !(ev->u.mmap.prot & PROT_EXEC))
			return false;
		if (ev->type == PERF_RECORD_MMAP &&
		    (ev->misc & PERF_RECORD_MISC_MMAP_DATA))
			return false;
		k = kind_of(fn);
		if (bsz == 0)
			for (i = 0; i < nbids; i++)
				if (strcmp(bids[i].filename, fn) == 0) {
					bid = bids[i].id;
					bsz = bids[i].size;
					break;
				}
		memset(s, 0, sizeof(*s));
		s->pid = ev->u.mmap.pid;
		s->start = ev->u.mmap.start;
		s->len = ev->u.mmap.len;
		s->pgoff = k == BT_MOD_ELF ? ev->u.mmap.pgoff : 0;
		s->module = bt_profile_module(p, k, fn, bid, bsz);
		if (bt_pjit_mmap(p, s->pid, fn)) {
			/* a jitdump after the process's first JIT samples */
			struct bt_hash_pos pos;
			int pi = proc_find(&p->res->ps, s->pid, &pos);
			if (pi >= 0 && p->res->ps.v.v[pi].jit_open)
				bt_pjit_open(p, s->pid, p->res->jit_times);
		}
		{
			struct bt_module *mo = &p->modules.v[s->module];
			uint64_t hi = s->pgoff + s->len;
			if (mo->off_hi == 0 || s->pgoff < mo->off_lo)
				mo->off_lo = s->pgoff;
			if (hi > mo->off_hi)
				mo->off_hi = hi;
		}
		break;
	}
	case PERF_RECORD_COMM:
		if (!(ev->misc & PERF_RECORD_MISC_COMM_EXEC))
			return false;
		memset(s, 0, sizeof(*s));
		s->pid = ev->u.comm.pid;
		break;
	case PERF_RECORD_FORK:
		memset(s, 0, sizeof(*s));
		s->pid = ev->u.task.pid;
		s->ppid = ev->u.task.ppid;
		ev->time = ev->u.task.time;
		break;
	default:
		return false;
	}
	s->type = ev->type;
	s->time = ev->time;
	return true;
}

/**
 * struct bt_sample - one sample, resolved
 * @off: file offset in the module (ELF, vDSO), else the runtime address
 */
struct bt_sample {
	uint64_t time;
	uint64_t off;
	uint64_t period;
	uint32_t module;
	uint32_t tid;
	uint32_t chain;		/* BT_CHAIN_NONE: no call chains */
	uint16_t cpu;
	uint8_t attr;
	uint8_t mode;
};

/* The JIT sources of pid, opened the first time one of its samples needs them. */
static void
open_jit(struct bt_profile *p, uint32_t pid)
{
	int pi = proc_get(&p->res->ps, pid);	/* (may move the vector) */
	struct proc *pr = &p->res->ps.v.v[pi];

	if (pr->jit_open)
		return;
	pr->jit_open = true;
	bt_pjit_open(p, pid, p->res->jit_times);
}

/* Resolve one sample to (module, offset); false when it is not a sample we keep. */
static bool
resolve_sample(struct bt_profile *p, const struct bt_pd_event *ev,
	       struct bt_sample *smp)
{
	unsigned mode = ev->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	const struct map *m;

	if (ev->attr < 0 || ev->attr > 255 || (size_t)ev->attr >= p->info.nevents)
		return false;
	smp->time = ev->time;
	smp->off = ev->sample.ip;
	smp->tid = ev->tid;
	smp->period = BT_MIN(ev->sample.period, UINT32_MAX);
	smp->cpu = (uint16_t)ev->cpu;
	smp->attr = (uint8_t)ev->attr;
	smp->mode = (uint8_t)mode;
	smp->chain = BT_CHAIN_NONE;
	if (mode == PERF_RECORD_MISC_KERNEL || mode == PERF_RECORD_MISC_GUEST_KERNEL ||
	    mode == PERF_RECORD_MISC_HYPERVISOR) {
		smp->module = p->res->kmod;
		return true;
	}
	m = resolve(&p->res->ps, ev->pid, smp->off, smp->time);
	if (m == NULL || p->modules.v[m->module].kind == BT_MOD_ANON) {
		open_jit(p, ev->pid);
		if (bt_pjit_resolve(p, ev->pid, smp->off, smp->time, m != NULL,
		    &smp->module, &smp->off))
			return true;
	}
	if (m == NULL) {
		smp->module = p->res->umod;
		return true;
	}
	smp->module = m->module;
	if (p->modules.v[m->module].kind != BT_MOD_ANON)
		smp->off = smp->off - m->start + m->pgoff;
	return true;
}

typedef void (*sample_fn)(struct bt_profile *p, const struct bt_sample *smp,
			  void *arg);

/* How samples are read: each to fn (with arg); chains: unwound too. */
struct sample_sink {
	sample_fn fn;
	void *arg;
	bool chains;
	const struct bt_perf_layout *fast;	/* fields at fixed offsets, or NULL */
	struct bt_readvals *rv;
};

static void
sink_init(struct sample_sink *k, struct bt_profile *p, struct bt_pd_reader *r,
	  sample_fn fn, void *arg, bool chains)
{
	k->fn = fn;
	k->arg = arg;
	k->chains = p->chains != NULL && chains;
	/* call chains need every field decoded (a scan that needs none, not) */
	k->fast = k->chains ? NULL : bt_pd_fast_layout(r);
	if (k->fast != NULL && (k->fast->sample_type & PERF_SAMPLE_READ))
		k->fast = NULL;	/* counter values: bt_readvals_split() */
	k->rv = bt_readvals_new();
}

/*
 * Sample record rec (size bytes at position at) to k->fn: with the fast
 * layout, its fields read at their fixed offsets (no per-record decoding:
 * the first screen of a million samples depends on it).
 */
static int
take_sample(struct bt_profile *p, struct bt_pd_reader *r, struct sample_sink *k,
	    const uint8_t *rec, size_t size, uint64_t at, struct bt_error *err)
{
	const struct bt_perf_layout *l = k->fast;
	const struct bt_read_credit *c;
	struct bt_pd_event ev;
	struct bt_sample smp;
	int i, n;

	if (l != NULL) {
		if (bt_perf_sample_brief(l, rec, size, &ev.sample) < 0) {
			char where[384];

			return bt_error_set(err, BT_EFORMAT,
			    "sample at %s is shorter than its sample_type says",
			    bt_pd_where(r, at, where, sizeof(where)));
		}
		ev.type = PERF_RECORD_SAMPLE;
		memcpy(&ev.misc, rec + 4, 2);
		ev.attr = 0;
		ev.pid = ev.sample.pid;
		ev.tid = ev.sample.tid;
		ev.cpu = ev.sample.cpu;
		ev.time = ev.sample.time;
	} else if (bt_pd_event_at(r, rec, size, at, &ev, err) < 0)
		return -BT_EFORMAT;
	if (!resolve_sample(p, &ev, &smp))
		return 0;
	if (k->chains)
		smp.chain = bt_chains_sample(p, bt_pd_layout(r, (size_t)ev.attr),
		    &ev, smp.module, smp.off);
	n = l ? -1 : bt_readvals_split(k->rv, r, &ev, &c);
	if (n < 0)
		k->fn(p, &smp, k->arg);
	for (i = 0; i < n; i++) {
		if ((size_t)c[i].attr >= p->info.nevents || c[i].attr > 255)
			continue;
		smp.attr = (uint8_t)c[i].attr;
		smp.period = BT_MIN(c[i].period, UINT32_MAX);
		k->fn(p, &smp, k->arg);
	}
	return 0;
}

/*
 * Every sample of the file to fn, resolved at its own time, once every
 * side-band record is known (a time window, the timeline).
 */
static int
for_each_sample(struct bt_profile *p, struct bt_pd_reader *r, sample_fn fn,
		void *arg, bool chains, struct bt_error *err)
{
	struct sample_sink k;
	const uint8_t *rec;
	uint32_t type;
	uint16_t misc;
	size_t size;
	int ret;

	sink_init(&k, p, r, fn, arg, chains);
	bt_pd_rewind(r);
	while ((ret = bt_pd_next_raw(r, &type, &misc, &rec, &size, err)) > 0)
		if (type == PERF_RECORD_SAMPLE &&
		    (ret = take_sample(p, r, &k, rec, size, bt_pd_tell(r) - size, err)) < 0)
			break;
	bt_readvals_free(k.rv);
	return ret;
}

struct count_state {
	struct bt_hist *h, *ch;
};

/* The first read: every event's whole-run histogram, counts and times. */
static void
count_sample(struct bt_profile *p, const struct bt_sample *smp, void *arg)
{
	struct count_state *cs = arg;

	bt_hist_add(cs->h, smp->attr, smp->module, smp->off, smp->period);
	if (smp->chain != BT_CHAIN_NONE)
		bt_hist_add(cs->ch, smp->attr, 0, smp->chain, smp->period);
	p->event_samples[smp->attr]++;
	p->event_period[smp->attr] += smp->period;
	if (smp->module == p->res->umod)
		p->unresolved++;
	if (smp->time && (p->first_time == 0 || smp->time < p->first_time))
		p->first_time = smp->time;
	if (smp->time > p->last_time)
		p->last_time = smp->time;
}

/* A sample read before every side-band record as old as it was. */
struct waiting {
	const uint8_t *rec;	/* in the file; NULL: at copy in the copies */
	uint64_t at, time;
	size_t copy;
	uint32_t size;
	uint32_t round;		/* rounds read before it */
};

/*
 * A sample newer than all that follows (a clock gone wrong) waits this
 * many rounds at most: the samples after it wait in file order behind it.
 */
#define MAX_WAIT_ROUNDS 16

/*
 * The first read, in one pass (perf's ordered queue): perf record writes
 * a FINISHED_ROUND after each pass over its ring buffers, and no record
 * after the round that follows can be older than the newest of the one
 * before. So at each FINISHED_ROUND, side-band records up to the newest
 * time of the round before are final: they are applied in time order,
 * and then the samples waiting up to that time are resolved, in file
 * order. The file is read once (a DWARF recording is gigabytes of stack
 * copies) and what waits is a round or two. A recording without times
 * is read in file order; one without rounds, in two passes.
 */
struct first_read {
	struct bt_profile *p;
	struct bt_pd_reader *r;
	struct sample_sink k;
	BT_VEC(struct sideband) sb;	/* read, not applied yet */
	size_t sb_sorted;		/* sb[0..sb_sorted) are in time order */
	uint64_t order;
	BT_VEC(struct waiting) q;
	size_t head;			/* q[head..] wait */
	BT_VEC(uint8_t) copies;		/* records that came out of compressed data */
	uint64_t limit;			/* side-band and samples up to it are final */
	uint64_t newest, round_newest;	/* newest time read; at the last round */
	bool ordered, later;
	uint32_t rounds;		/* FINISHED_ROUND records read */
	uint64_t taken;
};

static int
sb_cmp(const void *a, const void *b)
{
	const struct sideband *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Apply the side-band up to fr->limit, then resolve the samples up to it. */
static int
settle(struct first_read *fr, struct bt_error *err)
{
	struct bt_profile *p = fr->p;
	size_t i, n;
	int ret;

	if (fr->sb.n > fr->sb_sorted) {
		bt_qsort(fr->sb.v, fr->sb.n, sizeof(*fr->sb.v), sb_cmp);
		fr->sb_sorted = fr->sb.n;
	}
	for (i = 0; i < fr->sb.n && fr->sb.v[i].time <= fr->limit; i++)
		apply_sideband(p, &p->res->ps, &fr->sb.v[i]);
	if (i) {
		memmove(fr->sb.v, fr->sb.v + i, (fr->sb.n - i) * sizeof(*fr->sb.v));
		fr->sb.n -= i;
		fr->sb_sorted -= i;
	}
	bt_chains_upto(p, fr->limit);
	for (; fr->head < fr->q.n; fr->head++) {
		const struct waiting *w = &fr->q.v[fr->head];

		if (w->time > fr->limit && fr->rounds - w->round < MAX_WAIT_ROUNDS)
			break;
		if (fr->head + 1 < fr->q.n && fr->q.v[fr->head + 1].rec != NULL)
			__builtin_prefetch(fr->q.v[fr->head + 1].rec + 64);
		ret = take_sample(p, fr->r, &fr->k, w->rec ? w->rec :
		    fr->copies.v + w->copy, w->size, w->at, err);
		if (ret < 0)
			return ret;
		fr->taken++;
	}
	n = fr->q.n - fr->head;
	if (n == 0)
		fr->copies.n = 0;
	else if (fr->head > 0) {
		memmove(fr->q.v, fr->q.v + fr->head, n * sizeof(*fr->q.v));
		for (i = 0; i < n && fr->q.v[i].rec != NULL; i++)
			;
		if (i < n && fr->q.v[i].copy > 0) {	/* the copies still waiting, to the front */
			size_t from = fr->q.v[i].copy;
			memmove(fr->copies.v, fr->copies.v + from, fr->copies.n - from);
			fr->copies.n -= from;
			for (; i < n; i++)
				if (fr->q.v[i].rec == NULL)
					fr->q.v[i].copy -= from;
		}
	}
	fr->q.n = n;
	fr->head = 0;
	/* the file's pages of what waits stay: they are read again soon */
	bt_pd_hold(fr->r, n && fr->q.v[0].rec ? fr->q.v[0].at : UINT64_MAX);
	return 0;
}

/* Sample rec: resolved now if nothing older can still come, else waits. */
static int
read_sample(struct first_read *fr, const uint8_t *rec, size_t size,
	    struct bt_error *err)
{
	uint64_t at = bt_pd_tell(fr->r) - size;
	struct waiting w;

	w.time = bt_pd_sample_time(fr->r, rec, size);
	if (w.time > fr->newest)
		fr->newest = w.time;
	if (fr->head == fr->q.n && fr->sb.n == 0 && w.time <= fr->limit) {
		fr->taken++;
		return take_sample(fr->p, fr->r, &fr->k, rec, size, at, err);
	}
	if (!fr->rounds && !fr->taken && fr->q.n >= 65536) {
		/* no rounds to go by: the side-band first, then the samples */
		fr->later = true;
		fr->q.n = 0;
		fr->copies.n = 0;
		bt_pd_hold(fr->r, UINT64_MAX);
		return 0;
	}
	w.at = at;
	w.size = (uint32_t)size;
	w.round = fr->rounds;
	w.copy = 0;
	w.rec = rec;
	if (!bt_pd_stable(fr->r)) {
		w.rec = NULL;
		w.copy = fr->copies.n;
		BT_ALLOC_GROW(fr->copies.v, fr->copies.n + size, fr->copies.alloc);
		memcpy(fr->copies.v + fr->copies.n, rec, size);
		fr->copies.n += size;
	}
	BT_VEC_PUSH(fr->q, w);
	return 0;
}

static bool
ordered(struct bt_pd_reader *r)
{
	size_t i;

	for (i = 0; i < bt_pd_nattrs(r); i++) {
		const struct perf_event_attr *a = &bt_pd_attr(r, i)->attr;
		if (!(a->sample_type & PERF_SAMPLE_TIME) || !a->sample_id_all)
			return false;
	}
	return true;
}

/*
 * Take h's entries into *out (sorted by group: the event) and free h;
 * returns where each event's entries start: [start[e], start[e + 1]).
 */
static size_t *
event_starts(struct bt_hist *h, struct bt_hist_entry **out, size_t nevents)
{
	size_t n = bt_hist_take(h, out), *start, e, i;

	bt_hist_free(h);
	start = bt_xcalloc(nevents + 1, sizeof(size_t));
	for (e = 0, i = 0; e <= nevents; e++) {
		while (i < n && (*out)[i].group < e)
			i++;
		start[e] = i;
	}
	return start;
}

/*
 * The first read: side-band records and counts, and every event's
 * whole-run histogram and call chains.
 */
static int
first_read(struct bt_profile *p, struct bt_pd_reader *r, struct bt_error *err)
{
	struct count_state cs = { bt_hist_new(), bt_hist_new() };
	struct first_read fr;
	struct bt_pd_event ev;
	int ret;

	memset(&fr, 0, sizeof(fr));
	fr.p = p;
	fr.r = r;
	fr.ordered = ordered(r);
	fr.limit = fr.ordered ? 0 : UINT64_MAX;
	sink_init(&fr.k, p, r, count_sample, &cs, true);
	bt_pd_rewind(r);
	for (;;) {
		const uint8_t *rec;
		uint32_t type;
		uint16_t misc;
		size_t size;
		struct sideband s;

		ret = bt_pd_next_raw(r, &type, &misc, &rec, &size, err);
		if (ret <= 0)
			break;
		if (type == PERF_RECORD_SAMPLE) {
			if (!fr.later && (ret = read_sample(&fr, rec, size, err)) < 0)
				break;
			continue;
		}
		if (type == BT_PD_FINISHED_ROUND && fr.ordered) {
			fr.rounds++;
			fr.limit = fr.round_newest;
			fr.round_newest = fr.newest;
			if (!fr.later && (ret = settle(&fr, err)) < 0)
				break;
			continue;
		}
		ret = bt_pd_event_at(r, rec, size, bt_pd_tell(r) - size, &ev, err);
		if (ret < 0)
			break;
		if (ev.has_time && ev.time > fr.newest)
			fr.newest = ev.time;
		if (side_record(p, r, &ev, &s)) {
			s.order = fr.order++;
			BT_VEC_PUSH(fr.sb, s);
			if (!fr.ordered && (ret = settle(&fr, err)) < 0)
				break;
		}
	}
	if (ret == 0) {
		fr.limit = UINT64_MAX;
		ret = settle(&fr, err);
		if (ret == 0 && fr.later)
			ret = for_each_sample(p, r, count_sample, &cs, true, err);
	}
	bt_pd_hold(r, UINT64_MAX);
	bt_readvals_free(fr.k.rv);
	BT_VEC_FREE(fr.sb);
	BT_VEC_FREE(fr.q);
	BT_VEC_FREE(fr.copies);
	bt_chains_seal(p);
	p->hist_start = event_starts(cs.h, &p->hist, p->info.nevents);
	p->chist_start = event_starts(cs.ch, &p->chist, p->info.nevents);
	return ret;
}

struct scan_state {
	const struct bt_scan *sc;
	struct bt_hist *h;
	double span;
};

static void
scan_sample(struct bt_profile *p, const struct bt_sample *smp, void *arg)
{
	struct scan_state *st = arg;
	const struct bt_scan *sc = st->sc;
	uint32_t group = 0;

	if (smp->attr != sc->attr || smp->time < sc->t_lo || smp->time >= sc->t_hi)
		return;
	if (sc->nbins) {
		group = (uint32_t)((double)(smp->time - p->first_time) / st->span *
		    (double)sc->nbins);
		if (group >= sc->nbins)
			group = (uint32_t)sc->nbins - 1;
	} else if (sc->nwindows) {
		size_t lo = 0, hi = sc->nwindows;
		while (lo < hi) {	/* the first window ending after the sample */
			size_t mid = lo + (hi - lo) / 2;
			if (sc->windows[2 * mid + 1] <= smp->time)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < sc->nwindows && sc->windows[2 * lo] <= smp->time)
			group = (uint32_t)lo + 1;
	}
	if (sc->fold)
		bt_hist_add(st->h, group, 0, smp->module == sc->fold_module &&
		    smp->off >= sc->fold_lo && smp->off < sc->fold_hi, smp->period);
	else
		bt_hist_add(st->h, group, smp->module, smp->off, smp->period);
	if (sc->chains != NULL && smp->chain != BT_CHAIN_NONE)
		bt_hist_add(sc->chains, group, 0, smp->chain, smp->period);
}

int
bt_profile_scan(struct bt_profile *p, const struct bt_scan *sc,
		struct bt_hist_entry **out, size_t *n, struct bt_error *err)
{
	struct scan_state st = { sc, NULL, 1 };
	struct bt_pd_reader *r;
	int ret;

	*out = NULL;
	*n = 0;
	r = p->mem ? bt_pd_open_mem(p->mem, p->mem_len, err) : bt_pd_open(p->path, err);
	if (r == NULL)
		return -BT_EIO;
	if (p->last_time > p->first_time)
		st.span = (double)(p->last_time - p->first_time);
	st.h = bt_hist_new();
	ret = for_each_sample(p, r, scan_sample, &st, sc->chains != NULL, err);
	bt_pd_close(r);
	*n = bt_hist_take(st.h, out);
	bt_hist_free(st.h);
	if (ret < 0) {
		FREE_AND_NULL(*out);
		*n = 0;
		return ret;
	}
	return 0;
}

struct bt_profile *
bt_profile_read(struct bt_pd_reader *r, const char *path, struct bt_error *err)
{
	struct bt_profile *p = bt_xcalloc(1, sizeof(*p));
	const void *btsec;
	size_t btlen, ne = bt_pd_nattrs(r), i;

	p->path = bt_xstrdup(path ? path : "");
	btsec = bt_pd_benchtui(r, &btlen);
	if (btsec != NULL)
		bt_meta_decode(btsec, btlen, &p->meta);
	p->res = bt_xcalloc(1, sizeof(*p->res));
	bt_hash_init(&p->res->ps.index, 0);
	p->res->kmod = bt_profile_module(p, BT_MOD_KERNEL, "[kernel]", NULL, 0);
	p->res->umod = bt_profile_module(p, BT_MOD_UNKNOWN, "[unknown]", NULL, 0);
	p->event_samples = bt_xcalloc(ne, sizeof(uint64_t));
	p->event_period = bt_xcalloc(ne, sizeof(uint64_t));
	p->info.nevents = ne;
	if (bt_chains_wanted(r))
		bt_chains_init(p, r);
	{
		const struct perf_event_attr *a = &bt_pd_attr(r, 0)->attr;
		p->res->jit_times = a->use_clockid && a->clockid == CLOCK_MONOTONIC;
	}
	if (first_read(p, r, err) < 0) {
		bt_profile_free(p);
		return NULL;
	}
	/* every process's JIT sources are named, with samples or not */
	for (i = 0; i < p->res->ps.v.n; i++)
		open_jit(p, p->res->ps.v.v[i].pid);
	bt_pjit_finish(p);
	for (i = 0; i < ne; i++)
		p->info.samples += p->event_samples[i];
	fill_info(p, r);
	return p;
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
	for (i = 0; i < p->modules.n; i++) {
		free(p->modules.v[i].path);
		free(p->modules.v[i].jit);
		free(p->modules.v[i].jit_name);
	}
	BT_VEC_FREE(p->modules);
	bt_pjit_free(p->jit);
	free(p->hist);
	free(p->hist_start);
	free(p->chist);
	free(p->chist_start);
	bt_chains_free(p);
	if (p->res != NULL) {
		procs_release(&p->res->ps);
		free(p->res);
	}
	free(p->event_period);
	for (i = 0; i < p->notes.n; i++)
		free(p->notes.v[i]);
	BT_VEC_FREE(p->notes);
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
