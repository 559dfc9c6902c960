/* The machine's insides, shared by machine.c, maps.c and machine-jit.c. */
#ifndef BENCHTUI_MACHINE_INT_H
#define BENCHTUI_MACHINE_INT_H

#include "base.h"
#include "hash.h"
#include "machine/machine.h"

/* The mappings of one process over its time (maps.c). */
struct bt_maps {
	BT_VEC(struct bt_map) v;
	size_t last_hit;	/* the last mapping found: samples come in runs */
};

/*
 * Add [start, end) from time t on: the mappings it overlaps end at t, and
 * what they held outside it lives on as new pieces.
 */
void bt_maps_add(struct bt_maps *ms, const struct bt_map *map);
/* Every mapping ends at t (exec). */
void bt_maps_end(struct bt_maps *ms, uint64_t t);
/* The mapping that held ip at time t (the latest of several), or NULL. */
const struct bt_map *bt_maps_scan(struct bt_maps *ms, uint64_t ip, uint64_t t);

static inline bool
bt_map_holds(const struct bt_map *m, uint64_t ip, uint64_t t)
{
	return ip >= m->start && ip < m->end && t >= m->t_start && t < m->t_end;
}

/* bt_maps_scan(), the last mapping found first: samples come in runs. */
static inline const struct bt_map *
bt_maps_find(struct bt_maps *ms, uint64_t ip, uint64_t t)
{
	/* a later map over the same range would have ended the last one found */
	if (ms->last_hit < ms->v.n && bt_map_holds(&ms->v.v[ms->last_hit], ip, t))
		return &ms->v.v[ms->last_hit];
	return bt_maps_scan(ms, ip, t);
}
void bt_maps_release(struct bt_maps *ms);

/* One process: a pid from its first record on. */
struct proc {
	uint32_t pid;
	int parent;		/* index of the forking process, -1 */
	uint64_t fork_time;
	uint64_t exec_time;	/* last exec; inherited maps end there */
	struct bt_maps maps;
	bool jit_open;		/* its JIT sources were looked for */
	BT_VEC(size_t) jit;	/* its JIT sources (the jitset's), in order */
};

struct thread {
	uint32_t tid, pid;
	char *comm;
};

struct bt_mjit;		/* machine-jit.c */

struct bt_machine {
	struct bt_modules *mods;	/* the caller's */
	BT_VEC(struct proc) procs;
	struct bt_hash proc_index;	/* pid -> procs[] */
	int last_proc;			/* the last process found, -1 */
	BT_VEC(struct thread) threads;
	struct bt_hash thread_index;	/* tid -> threads[] */
	struct bt_pd_buildid *ids;	/* the BUILD_ID feature (filenames owned) */
	size_t nids;
	uint64_t ktext;
	uint64_t gen;			/* changes when a process's mappings do */
	struct bt_mjit *jit;
	uint64_t jit_asked;		/* samples asked of the JIT code */
	uint64_t jit_made;		/* its modules made (for frames too) */
	BT_VEC(char *) notes;
};

/* The process pid, -1 when unknown; created when new (machine.c). */
int bt_machine_proc(struct bt_machine *m, uint32_t pid);
int bt_machine_proc_get(struct bt_machine *m, uint32_t pid);

/* machine-jit.c */
/* The recording maps filename in pid: a jitdump to read? (true: new) */
bool bt_mjit_mmap(struct bt_machine *m, uint32_t pid, const char *filename);
/* Find and read the jitdumps and perf maps of pid (those it did not have). */
void bt_mjit_open(struct bt_machine *m, int proc);
/*
 * The JIT code of process proc at ip at time: its module and offset;
 * false when no source covers ip (anon: ip is in anonymous memory, counted
 * unless frame: ip is a call chain's frame, not a sample's own).
 */
bool bt_mjit_resolve(struct bt_machine *m, int proc, uint64_t ip, uint64_t time,
		     bool anon, bool frame, uint32_t *module, uint64_t *off);
void bt_mjit_free(struct bt_mjit *j);

#endif
