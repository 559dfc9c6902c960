/*
 * The machine (machine.h): its modules, processes and threads, built from
 * the side-band records, and what was at an address of a process at a
 * time. A process's mappings over time are in maps.c, its JIT code in
 * machine-jit.c.
 */
#include <string.h>
#include <sys/mman.h>

#include "machine/machine-int.h"
#include "perf/perfdata.h"

uint32_t
bt_modules_get(struct bt_modules *mods, enum bt_mod_kind kind, const char *path,
	       const uint8_t *bid, size_t bid_size)
{
	struct bt_module m;
	size_t i;

	for (i = 0; i < mods->n; i++) {
		struct bt_module *o = &mods->v[i];
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
	BT_VEC_PUSH(*mods, m);
	return (uint32_t)(mods->n - 1);
}

void
bt_modules_release(struct bt_modules *mods)
{
	size_t i;

	for (i = 0; i < mods->n; i++) {
		free(mods->v[i].path);
		free(mods->v[i].jit);
		free(mods->v[i].jit_name);
	}
	BT_VEC_FREE(*mods);
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

struct bt_machine *
bt_machine_new(struct bt_modules *mods)
{
	struct bt_machine *m = bt_xcalloc(1, sizeof(*m));

	if (mods->n != 0)
		BT_BUG("a machine starts with an empty modules table");
	m->mods = mods;
	bt_modules_get(mods, BT_MOD_KERNEL, "[kernel]", NULL, 0);
	bt_modules_get(mods, BT_MOD_UNKNOWN, "[unknown]", NULL, 0);
	bt_hash_init(&m->proc_index, 0);
	bt_hash_init(&m->thread_index, 0);
	m->last_proc = -1;
	return m;
}

void
bt_machine_free(struct bt_machine *m)
{
	size_t i;

	if (m == NULL)
		return;
	for (i = 0; i < m->procs.n; i++) {
		bt_maps_release(&m->procs.v[i].maps);
		BT_VEC_FREE(m->procs.v[i].jit);
	}
	BT_VEC_FREE(m->procs);
	bt_hash_release(&m->proc_index);
	for (i = 0; i < m->threads.n; i++)
		free(m->threads.v[i].comm);
	BT_VEC_FREE(m->threads);
	bt_hash_release(&m->thread_index);
	for (i = 0; i < m->nids; i++)
		free(m->ids[i].filename);
	free(m->ids);
	bt_mjit_free(m->jit);
	for (i = 0; i < m->notes.n; i++)
		free(m->notes.v[i]);
	BT_VEC_FREE(m->notes);
	free(m);
}

void
bt_machine_set_buildids(struct bt_machine *m, const struct bt_pd_buildid *ids,
			size_t n)
{
	size_t i;

	for (i = 0; i < m->nids; i++)
		free(m->ids[i].filename);
	free(m->ids);
	m->ids = n ? bt_xcalloc(n, sizeof(*m->ids)) : NULL;
	m->nids = n;
	for (i = 0; i < n; i++) {
		m->ids[i] = ids[i];
		m->ids[i].filename = bt_xstrdup(ids[i].filename ? ids[i].filename : "");
	}
}

/* Processes. */

static int
proc_find(struct bt_machine *m, uint32_t pid, struct bt_hash_pos *pos)
{
	uint32_t i;

	for (i = bt_hash_first(&m->proc_index, bt_hash64(pid), pos);
	    i != BT_HASH_NONE; i = bt_hash_next(&m->proc_index, pos))
		if (m->procs.v[i].pid == pid)
			return (int)i;
	return -1;
}

int
bt_machine_proc(struct bt_machine *m, uint32_t pid)
{
	struct bt_hash_pos pos;

	if (m->last_proc >= 0 && m->procs.v[m->last_proc].pid == pid)
		return m->last_proc;
	return proc_find(m, pid, &pos);
}

/* The process pid, created if new (a process first seen as itself has no parent). */
int
bt_machine_proc_get(struct bt_machine *m, uint32_t pid)
{
	struct bt_hash_pos pos;
	int i = proc_find(m, pid, &pos);
	struct proc p;

	if (i >= 0)
		return i;
	memset(&p, 0, sizeof(p));
	p.pid = pid;
	p.parent = -1;
	BT_VEC_PUSH(m->procs, p);
	bt_hash_add(&m->proc_index, &pos, (uint32_t)m->procs.n - 1);
	return (int)m->procs.n - 1;
}

/* Threads: their process and name, as read. */

static struct thread *
thread_get(struct bt_machine *m, uint32_t tid)
{
	struct bt_hash_pos pos;
	struct thread t = { tid, 0, NULL };
	uint32_t i;

	for (i = bt_hash_first(&m->thread_index, bt_hash64(tid), &pos);
	    i != BT_HASH_NONE; i = bt_hash_next(&m->thread_index, &pos))
		if (m->threads.v[i].tid == tid)
			return &m->threads.v[i];
	BT_VEC_PUSH(m->threads, t);
	bt_hash_add(&m->thread_index, &pos, (uint32_t)m->threads.n - 1);
	return &m->threads.v[m->threads.n - 1];
}

const char *
bt_machine_thread(const struct bt_machine *m, uint32_t tid, uint32_t *pid)
{
	struct bt_hash_pos pos;
	uint32_t i;

	*pid = 0;
	for (i = bt_hash_first(&m->thread_index, bt_hash64(tid), &pos);
	    i != BT_HASH_NONE; i = bt_hash_next(&m->thread_index, &pos))
		if (m->threads.v[i].tid == tid) {
			*pid = m->threads.v[i].pid;
			return m->threads.v[i].comm;
		}
	return NULL;
}

static void
read_thread(struct bt_machine *m, const struct bt_pd_event *ev)
{
	struct thread *t;

	if (ev->type == PERF_RECORD_COMM) {
		t = thread_get(m, ev->u.comm.tid);
		t->pid = ev->u.comm.pid;
		free(t->comm);
		t->comm = bt_xstrdup(ev->u.comm.comm);
	} else if (ev->type == PERF_RECORD_FORK)
		thread_get(m, ev->u.task.tid)->pid = ev->u.task.pid;
}

/* Side-band records. */

/* An executable mapping as read: its module, numbered in file order. */
static uint32_t
read_mmap(struct bt_machine *m, const struct bt_pd_event *ev)
{
	const char *fn = ev->u.mmap.filename;
	const uint8_t *bid = ev->u.mmap.build_id;
	size_t bsz = ev->u.mmap.build_id_size, i;
	enum bt_mod_kind k = kind_of(fn);
	uint64_t pgoff = k == BT_MOD_ELF ? ev->u.mmap.pgoff : 0, hi;
	struct bt_module *mo;
	uint32_t module;
	int pi;

	if (bsz == 0)
		for (i = 0; i < m->nids; i++)
			if (strcmp(m->ids[i].filename, fn) == 0) {
				bid = m->ids[i].id;
				bsz = m->ids[i].size;
				break;
			}
	module = bt_modules_get(m->mods, k, fn, bid, bsz);
	if (bt_mjit_mmap(m, ev->u.mmap.pid, fn)) {
		/* a jitdump after the process's first JIT samples */
		pi = bt_machine_proc(m, ev->u.mmap.pid);
		if (pi >= 0 && m->procs.v[pi].jit_open)
			bt_mjit_open(m, pi);
	}
	mo = &m->mods->v[module];
	hi = pgoff + ev->u.mmap.len;
	if (mo->off_hi == 0 || pgoff < mo->off_lo)
		mo->off_lo = pgoff;
	if (hi > mo->off_hi)
		mo->off_hi = hi;
	return module;
}

bool
bt_machine_read(struct bt_machine *m, const struct bt_pd_event *ev,
		uint32_t *module)
{
	*module = 0;
	switch (ev->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if (ev->u.mmap.pid == (uint32_t)-1 &&
		    strncmp(ev->u.mmap.filename, "[kernel.kallsyms]", 17) == 0)
			m->ktext = ev->u.mmap.pgoff;	/* where _text was */
		if (ev->type == PERF_RECORD_MMAP2 ? !(ev->u.mmap.prot & PROT_EXEC) :
		    (ev->misc & PERF_RECORD_MISC_MMAP_DATA) != 0)
			return false;
		*module = read_mmap(m, ev);
		return true;
	case PERF_RECORD_COMM:
		read_thread(m, ev);
		return (ev->misc & PERF_RECORD_MISC_COMM_EXEC) != 0;
	case PERF_RECORD_FORK:
		read_thread(m, ev);
		return true;
	default:
		return false;
	}
}

void
bt_machine_apply(struct bt_machine *m, const struct bt_pd_event *ev,
		 uint32_t module)
{
	struct proc *pr;
	struct bt_map map;
	int pi, parent;

	switch (ev->type) {
	case PERF_RECORD_FORK:
		if (ev->u.task.pid == ev->u.task.ppid)
			return;	/* a new thread shares its process's maps */
		pi = bt_machine_proc_get(m, ev->u.task.pid);
		parent = bt_machine_proc_get(m, ev->u.task.ppid);
		pr = &m->procs.v[pi];
		if (pr->maps.v.n == 0 && pr->parent < 0) {
			pr->parent = parent;
			pr->fork_time = ev->time;
			m->gen++;
		}
		return;
	case PERF_RECORD_COMM:	/* an exec: what was mapped is gone */
		pi = bt_machine_proc_get(m, ev->u.comm.pid);
		pr = &m->procs.v[pi];
		bt_maps_end(&pr->maps, ev->time);
		pr->exec_time = ev->time;
		m->gen++;
		return;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if (ev->u.mmap.pid == (uint32_t)-1)
			return;	/* kernel maps: kernel samples are one bucket */
		pi = bt_machine_proc_get(m, ev->u.mmap.pid);
		pr = &m->procs.v[pi];
		map.start = ev->u.mmap.start;
		map.end = ev->u.mmap.start + ev->u.mmap.len;
		map.pgoff = m->mods->v[module].kind == BT_MOD_ELF ? ev->u.mmap.pgoff : 0;
		map.t_start = ev->time;
		map.t_end = UINT64_MAX;
		map.module = module;
		map.anon = m->mods->v[module].kind == BT_MOD_ANON;
		/*
		 * the page where the kernel runs the instructions its uprobes
		 * replaced (benchtui's probes on a harness): no JIT's code
		 */
		map.no_jit = strcmp(m->mods->v[module].path, "[uprobes]") == 0;
		bt_maps_add(&pr->maps, &map);
		m->gen++;
		return;
	}
}

/* Lookups. */

/*
 * The mapping that held ip in process pi at time t when pi itself had
 * none there: before its first exec, its parent's at the fork.
 */
static __attribute__((noinline)) const struct bt_map *
find_inherited(struct bt_machine *m, int pi, uint64_t ip, uint64_t t)
{
	int depth = 0;

	while (depth++ < 64) {
		struct proc *pr = &m->procs.v[pi];
		const struct bt_map *best;

		/* before its first exec, a child runs its parent's code */
		if (pr->parent < 0 || (pr->exec_time && t >= pr->exec_time))
			return NULL;
		if (t > pr->fork_time)
			t = pr->fork_time;
		pi = pr->parent;
		best = bt_maps_find(&m->procs.v[pi].maps, ip, t);
		if (best != NULL)
			return best;
	}
	return NULL;
}

/*
 * The mapping that held ip in process pid at time t (its own, else its
 * parent's), the last process asked about first: samples come in runs.
 */
static inline const struct bt_map *
lookup(struct bt_machine *m, uint32_t pid, uint64_t ip, uint64_t t)
{
	struct bt_hash_pos pos;
	int pi = m->last_proc;

	const struct bt_map *map;

	if (pi < 0 || m->procs.v[pi].pid != pid) {
		pi = proc_find(m, pid, &pos);
		if (pi < 0)
			return NULL;
		m->last_proc = pi;
	}
	map = bt_maps_find(&m->procs.v[pi].maps, ip, t);
	return map != NULL ? map : find_inherited(m, pi, ip, t);
}

const struct bt_map *
bt_machine_find(struct bt_machine *m, uint32_t pid, uint64_t ip, uint64_t t)
{
	return lookup(m, pid, ip, t);
}

void
bt_machine_each_map(struct bt_machine *m, uint32_t pid, uint64_t t,
		    bool (*fn)(void *arg, const struct bt_map *map), void *arg)
{
	int pi = bt_machine_proc(m, pid), depth = 0;
	size_t i;

	while (pi >= 0 && depth++ < 64) {
		const struct proc *pr = &m->procs.v[pi];

		for (i = 0; i < pr->maps.v.n; i++) {
			const struct bt_map *map = &pr->maps.v.v[i];
			if (t >= map->t_start && t < map->t_end && !fn(arg, map))
				return;
		}
		if (pr->parent < 0 || (pr->exec_time && t >= pr->exec_time))
			return;
		if (t > pr->fork_time)
			t = pr->fork_time;
		pi = pr->parent;
	}
}

/* ip in map as a module offset: a file offset, else the address itself. */
static void
place(const struct bt_machine *m, const struct bt_map *map, uint64_t ip,
      uint32_t *module, uint64_t *off)
{
	*off = ip;
	if (map == NULL) {
		*module = BT_MODULE_UNKNOWN;
		return;
	}
	*module = map->module;
	if (!map->anon)
		*off = ip - map->start + map->pgoff;
}

void
bt_machine_resolve(struct bt_machine *m, uint32_t pid, uint64_t ip, uint64_t t,
		   uint32_t *module, uint64_t *off)
{
	place(m, lookup(m, pid, ip, t), ip, module, off);
}

/* resolve_code() where anonymous memory (or none) holds ip: JIT code? */
static __attribute__((noinline)) void
resolve_jit(struct bt_machine *m, uint32_t pid, uint64_t ip, uint64_t t,
	    const struct bt_map *map, bool frame, uint32_t *module, uint64_t *off)
{
	/* its sources are read the first time it may be */
	int pi = bt_machine_proc_get(m, pid);

	if (!frame)
		m->jit_asked++;
	if (!m->procs.v[pi].jit_open) {
		m->procs.v[pi].jit_open = true;
		bt_mjit_open(m, pi);
	}
	if (!bt_mjit_resolve(m, pi, ip, t, map != NULL, frame, module, off))
		place(m, map, ip, module, off);
}

void
bt_machine_resolve_code(struct bt_machine *m, uint32_t pid, uint64_t ip,
			uint64_t t, uint32_t *module, uint64_t *off)
{
	const struct bt_map *map = lookup(m, pid, ip, t);

	if (map == NULL || (map->anon && !map->no_jit))
		resolve_jit(m, pid, ip, t, map, false, module, off);
	else
		place(m, map, ip, module, off);
}

void
bt_machine_resolve_frame(struct bt_machine *m, uint32_t pid, uint64_t ip,
			 uint64_t t, uint32_t *module, uint64_t *off)
{
	const struct bt_map *map = lookup(m, pid, ip, t);

	if (map == NULL || (map->anon && !map->no_jit))
		resolve_jit(m, pid, ip, t, map, true, module, off);
	else
		place(m, map, ip, module, off);
}

const struct bt_module *
bt_machine_module(const struct bt_machine *m, uint32_t i)
{
	return &m->mods->v[i];
}

uint64_t
bt_machine_generation(const struct bt_machine *m)
{
	return m->gen;
}

uint64_t
bt_machine_jit_asked(const struct bt_machine *m)
{
	return m->jit_asked + m->jit_made;
}

uint64_t
bt_machine_ktext(const struct bt_machine *m)
{
	return m->ktext;
}

size_t
bt_machine_take_notes(struct bt_machine *m, char ***notes)
{
	size_t n = m->notes.n;

	*notes = m->notes.v;
	m->notes.v = NULL;
	m->notes.n = m->notes.alloc = 0;
	return n;
}
