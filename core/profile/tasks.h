/*
 * The recording's processes and threads (perf's threads: tools/perf/util/
 * thread.c, comm.c): each thread's names over time, from its COMM records
 * (an exec, a prctl(PR_SET_NAME)) and, before its first, its parent's at
 * the FORK; its FORK and EXIT times; and the samples of each (event,
 * thread, name) of the run. perf report's --sort comm,pid and --comms read
 * the same names: a sample's is its thread's at the sample's time.
 *
 * Fed by read.c: every COMM, FORK and EXIT record as it is read (the
 * ordered stream gives a sample once every record as old as it is read,
 * so the name at its time is known by then), every sample of the first
 * read counted.
 */
#ifndef BENCHTUI_PROFILE_TASKS_H
#define BENCHTUI_PROFILE_TASKS_H

#include <stdint.h>

#include "base.h"
#include "hash.h"

struct bt_pd_event;

/* A name of a thread from a time on (@comm: an index in bt_tasks.names). */
struct bt_task_name {
	uint64_t time;
	uint32_t comm;
};

/**
 * struct bt_task - one thread
 * @tid, @pid: the thread and its process (0 until a record or sample says)
 * @ptid: the thread that forked it, 0 if unknown
 * @ppid: its parent process (a new process's: the forking one), 0 if unknown
 * @fork_time, @exit_time: its FORK and EXIT records' times, 0 if none
 * @names: its names in time order; before the first: its parent's at the
 *         fork, else ":TID" (as perf names a thread it has no COMM for;
 *         the idle task 0 "swapper")
 */
struct bt_task {
	uint32_t tid, pid, ptid, ppid;
	uint64_t fork_time, exit_time;
	BT_VEC(struct bt_task_name) names;
};

/**
 * struct bt_task_count - the samples of one thread under one name in one event
 * @first, @last: the times of its first and last sample
 */
struct bt_task_count {
	uint32_t attr, task, comm;
	uint64_t samples, period;
	uint64_t first, last;
};

struct bt_tasks {
	BT_VEC(struct bt_task) tasks;
	struct bt_hash task_index;	/* tid -> tasks[] */
	BT_VEC(const char *) names;	/* every name, once (in pool) */
	struct bt_hash name_index;
	struct bt_strpool pool;
	BT_VEC(struct bt_task_count) counts;
	struct bt_hash count_index;	/* (attr, task, comm) -> counts[] */
	size_t last_count;		/* samples come in runs */
	uint64_t gen;			/* COMM, FORK and EXIT records read */
	/*
	 * The last sample's count (attr, tid), while the thread's name is the
	 * same: from lo to hi, and no record read since (gen).
	 */
	struct {
		uint64_t gen, lo, hi;
		uint32_t attr, tid;
		size_t count;
		bool valid;
	} memo;
};

void bt_tasks_init(struct bt_tasks *t);
void bt_tasks_release(struct bt_tasks *t);
/* A COMM, FORK or EXIT record as read (anything else is ignored). */
void bt_tasks_read(struct bt_tasks *t, const struct bt_pd_event *ev);
/* The count of a sample of thread tid of process pid at time in event attr. */
struct bt_task_count *bt_tasks_count_of(struct bt_tasks *t, uint32_t attr,
					uint32_t pid, uint32_t tid, uint64_t time);

/* Count a sample of thread tid of process pid at time in event attr. */
static inline void
bt_tasks_sample(struct bt_tasks *t, uint32_t attr, uint32_t pid, uint32_t tid,
		uint64_t time, uint64_t period)
{
	struct bt_task_count *x;

	/* a thread's samples come in runs, under one name */
	if (t->memo.valid && t->memo.gen == t->gen && t->memo.tid == tid &&
	    t->memo.attr == attr && time >= t->memo.lo && time < t->memo.hi)
		x = &t->counts.v[t->memo.count];
	else
		x = bt_tasks_count_of(t, attr, pid, tid, time);
	x->samples++;
	x->period += period;
	if (time < x->first)
		x->first = time;
	if (time > x->last)
		x->last = time;
}
/* The index of thread tid in t->tasks, -1 when the recording never named it. */
long bt_tasks_find(const struct bt_tasks *t, uint32_t tid);
/* The name (index in t->names) of thread tid at time. */
uint32_t bt_tasks_comm_at(struct bt_tasks *t, uint32_t tid, uint64_t time);
/* All of t, appended to sb (the first-read cache: readcache.h). */
struct bt_strbuf;
struct bt_rc_in;
void bt_tasks_save(const struct bt_tasks *t, struct bt_strbuf *sb);
/* t (initialized, empty) as bt_tasks_save() wrote it: 0, or -1 when damaged. */
int bt_tasks_load(struct bt_tasks *t, struct bt_rc_in *in);
/* The samples of task ti under name comm in event attr, NULL if none. */
const struct bt_task_count *bt_tasks_count(const struct bt_tasks *t, uint32_t attr,
					   uint32_t ti, uint32_t comm);
/* The index of name in t->names, -1 when no thread had it. */
long bt_tasks_name(const struct bt_tasks *t, const char *name);

#endif
