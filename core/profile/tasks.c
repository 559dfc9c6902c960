/*
 * The recording's processes and threads with their names over time, and
 * the samples of each (tasks.h).
 */
#include <stdio.h>
#include <string.h>

#include "perf/perfdata.h"
#include "profile/readcache.h"
#include "profile/tasks.h"

void
bt_tasks_init(struct bt_tasks *t)
{
	memset(t, 0, sizeof(*t));
	bt_hash_init(&t->task_index, 0);
	bt_hash_init(&t->name_index, 0);
	bt_hash_init(&t->count_index, 0);
	bt_strpool_init(&t->pool);
}

void
bt_tasks_release(struct bt_tasks *t)
{
	size_t i;

	for (i = 0; i < t->tasks.n; i++)
		BT_VEC_FREE(t->tasks.v[i].names);
	BT_VEC_FREE(t->tasks);
	BT_VEC_FREE(t->names);
	BT_VEC_FREE(t->counts);
	bt_hash_release(&t->task_index);
	bt_hash_release(&t->name_index);
	bt_hash_release(&t->count_index);
	bt_strpool_release(&t->pool);
}

long
bt_tasks_find(const struct bt_tasks *t, uint32_t tid)
{
	struct bt_hash_pos pos;
	uint32_t i;

	for (i = bt_hash_first(&t->task_index, bt_hash64(tid), &pos);
	    i != BT_HASH_NONE; i = bt_hash_next(&t->task_index, &pos))
		if (t->tasks.v[i].tid == tid)
			return i;
	return -1;
}

/* Thread tid's index, made when new. */
static uint32_t
task_get(struct bt_tasks *t, uint32_t tid)
{
	struct bt_hash_pos pos;
	struct bt_task k;
	uint32_t i;

	for (i = bt_hash_first(&t->task_index, bt_hash64(tid), &pos);
	    i != BT_HASH_NONE; i = bt_hash_next(&t->task_index, &pos))
		if (t->tasks.v[i].tid == tid)
			return i;
	memset(&k, 0, sizeof(k));
	k.tid = tid;
	BT_VEC_PUSH(t->tasks, k);
	bt_hash_add(&t->task_index, &pos, (uint32_t)t->tasks.n - 1);
	return (uint32_t)t->tasks.n - 1;
}

static uint64_t
hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return bt_hash64(h);
}

long
bt_tasks_name(const struct bt_tasks *t, const char *name)
{
	struct bt_hash_pos pos;
	uint32_t i;

	for (i = bt_hash_first(&t->name_index, hash_str(name), &pos);
	    i != BT_HASH_NONE; i = bt_hash_next(&t->name_index, &pos))
		if (strcmp(t->names.v[i], name) == 0)
			return i;
	return -1;
}

/* name's index, added when new. */
static uint32_t
name_get(struct bt_tasks *t, const char *name)
{
	struct bt_hash_pos pos;
	uint32_t i;

	for (i = bt_hash_first(&t->name_index, hash_str(name), &pos);
	    i != BT_HASH_NONE; i = bt_hash_next(&t->name_index, &pos))
		if (strcmp(t->names.v[i], name) == 0)
			return i;
	BT_VEC_PUSH(t->names, bt_strpool_addstr(&t->pool, name));
	bt_hash_add(&t->name_index, &pos, (uint32_t)t->names.n - 1);
	return (uint32_t)t->names.n - 1;
}

/* A name of task ti from time on, kept in time order (records of one time in file order). */
static void
add_name(struct bt_tasks *t, uint32_t ti, uint64_t time, uint32_t comm)
{
	struct bt_task *k = &t->tasks.v[ti];
	struct bt_task_name n = { time, comm };
	size_t i;

	BT_VEC_PUSH(k->names, n);
	for (i = k->names.n - 1; i > 0 && k->names.v[i - 1].time > time; i--)
		k->names.v[i] = k->names.v[i - 1];
	k->names.v[i] = n;
}

void
bt_tasks_read(struct bt_tasks *t, const struct bt_pd_event *ev)
{
	struct bt_task *k;
	uint32_t ti;

	t->gen++;
	switch (ev->type) {
	case PERF_RECORD_COMM:
		ti = task_get(t, ev->u.comm.tid);
		t->tasks.v[ti].pid = ev->u.comm.pid;
		add_name(t, ti, ev->time, name_get(t, ev->u.comm.comm));
		return;
	case PERF_RECORD_FORK:
		ti = task_get(t, ev->u.task.tid);	/* before tasks.v: it may move */
		k = &t->tasks.v[ti];
		k->pid = ev->u.task.pid;
		k->ptid = ev->u.task.ptid;
		k->ppid = ev->u.task.ppid;
		k->fork_time = ev->u.task.time;
		return;
	case PERF_RECORD_EXIT:
		ti = task_get(t, ev->u.task.tid);
		k = &t->tasks.v[ti];
		if (k->pid == 0)
			k->pid = ev->u.task.pid;
		k->exit_time = ev->u.task.time;
		return;
	}
}

/* Task ti's name at time: depth bounds a chain of forks (a loop in a damaged file). */
static uint32_t
comm_at(struct bt_tasks *t, uint32_t ti, uint64_t time, unsigned depth)
{
	const struct bt_task *k = &t->tasks.v[ti];
	char buf[24];
	long parent;
	size_t i;

	for (i = k->names.n; i > 0; i--)
		if (k->names.v[i - 1].time <= time)
			return k->names.v[i - 1].comm;
	/* before its first name: its parent's at the fork, as perf's thread__fork */
	if (k->ptid != 0 && k->ptid != k->tid && depth < 64 &&
	    (parent = bt_tasks_find(t, k->ptid)) >= 0)
		return comm_at(t, (uint32_t)parent, k->fork_time, depth + 1);
	if (k->tid == 0)
		return name_get(t, "swapper");	/* the idle task, as perf names it */
	snprintf(buf, sizeof(buf), ":%u", k->tid);
	return name_get(t, buf);
}

/* comm_at(), and the times [*lo, *hi) that name holds over. */
static uint32_t
comm_span(struct bt_tasks *t, uint32_t ti, uint64_t time, uint64_t *lo,
	  uint64_t *hi)
{
	const struct bt_task *k = &t->tasks.v[ti];
	size_t i;

	*lo = 0;
	*hi = UINT64_MAX;
	for (i = k->names.n; i > 0; i--)
		if (k->names.v[i - 1].time <= time) {
			*lo = k->names.v[i - 1].time;
			if (i < k->names.n)
				*hi = k->names.v[i].time;
			return k->names.v[i - 1].comm;
		}
	if (k->names.n > 0)	/* before its first: the same until then */
		*hi = k->names.v[0].time;
	return comm_at(t, ti, time, 0);
}

uint32_t
bt_tasks_comm_at(struct bt_tasks *t, uint32_t tid, uint64_t time)
{
	return comm_at(t, task_get(t, tid), time, 0);
}

static uint64_t
count_hash(uint32_t attr, uint32_t task, uint32_t comm)
{
	return bt_hash64(((uint64_t)attr << 56) ^ ((uint64_t)comm << 32) ^ task);
}

const struct bt_task_count *
bt_tasks_count(const struct bt_tasks *t, uint32_t attr, uint32_t ti, uint32_t comm)
{
	struct bt_hash_pos pos;
	uint32_t i;

	for (i = bt_hash_first(&t->count_index, count_hash(attr, ti, comm), &pos);
	    i != BT_HASH_NONE; i = bt_hash_next(&t->count_index, &pos))
		if (t->counts.v[i].attr == attr && t->counts.v[i].task == ti &&
		    t->counts.v[i].comm == comm)
			return &t->counts.v[i];
	return NULL;
}

/* The count of a sample of (attr, tid) at time, made if new; remembered. */
static struct bt_task_count *
count_get(struct bt_tasks *t, uint32_t attr, uint32_t pid, uint32_t tid,
	  uint64_t time)
{
	uint32_t ti = task_get(t, tid), comm, i;
	struct bt_task_count c, *x;
	struct bt_hash_pos pos;
	uint64_t lo, hi;

	if (t->tasks.v[ti].pid == 0)
		t->tasks.v[ti].pid = pid;
	comm = comm_span(t, ti, time, &lo, &hi);
	x = t->last_count < t->counts.n ? &t->counts.v[t->last_count] : NULL;
	if (x == NULL || x->attr != attr || x->task != ti || x->comm != comm) {
		x = NULL;
		for (i = bt_hash_first(&t->count_index, count_hash(attr, ti, comm), &pos);
		    i != BT_HASH_NONE; i = bt_hash_next(&t->count_index, &pos))
			if (t->counts.v[i].attr == attr && t->counts.v[i].task == ti &&
			    t->counts.v[i].comm == comm) {
				x = &t->counts.v[i];
				break;
			}
		if (x == NULL) {
			memset(&c, 0, sizeof(c));
			c.attr = attr;
			c.task = ti;
			c.comm = comm;
			c.first = time;
			BT_VEC_PUSH(t->counts, c);
			bt_hash_add(&t->count_index, &pos, (uint32_t)t->counts.n - 1);
			x = &t->counts.v[t->counts.n - 1];
		}
		t->last_count = (size_t)(x - t->counts.v);
	}
	t->memo.valid = true;
	t->memo.gen = t->gen;
	t->memo.lo = lo;
	t->memo.hi = hi;
	t->memo.attr = attr;
	t->memo.tid = tid;
	t->memo.count = (size_t)(x - t->counts.v);
	return x;
}

struct bt_task_count *
bt_tasks_count_of(struct bt_tasks *t, uint32_t attr, uint32_t pid, uint32_t tid,
		  uint64_t time)
{
	return count_get(t, attr, pid, tid, time);
}

void
bt_tasks_save(const struct bt_tasks *t, struct bt_strbuf *sb)
{
	size_t i, j;

	bt_rc_put64(sb, t->names.n);
	for (i = 0; i < t->names.n; i++) {
		bt_rc_put64(sb, strlen(t->names.v[i]));
		bt_strbuf_add(sb, t->names.v[i], strlen(t->names.v[i]));
	}
	bt_rc_put64(sb, t->tasks.n);
	for (i = 0; i < t->tasks.n; i++) {
		const struct bt_task *k = &t->tasks.v[i];

		bt_rc_put64(sb, (uint64_t)k->tid << 32 | k->pid);
		bt_rc_put64(sb, (uint64_t)k->ptid << 32 | k->ppid);
		bt_rc_put64(sb, k->fork_time);
		bt_rc_put64(sb, k->exit_time);
		bt_rc_put64(sb, k->names.n);
		for (j = 0; j < k->names.n; j++) {
			bt_rc_put64(sb, k->names.v[j].time);
			bt_rc_put64(sb, k->names.v[j].comm);
		}
	}
	bt_rc_put64(sb, t->counts.n);
	for (i = 0; i < t->counts.n; i++) {
		const struct bt_task_count *c = &t->counts.v[i];

		bt_rc_put64(sb, (uint64_t)c->attr << 32 | c->task);
		bt_rc_put64(sb, c->comm);
		bt_rc_put64(sb, c->samples);
		bt_rc_put64(sb, c->period);
		bt_rc_put64(sb, c->first);
		bt_rc_put64(sb, c->last);
	}
	bt_rc_put64(sb, t->last_count);
}

int
bt_tasks_load(struct bt_tasks *t, struct bt_rc_in *in)
{
	uint64_t n, i, j, len, w;

	n = bt_rc_get64(in);
	for (i = 0; i < n && !in->bad; i++) {
		const uint8_t *s;

		len = bt_rc_get64(in);
		if ((s = bt_rc_get(in, len)) == NULL)
			break;
		BT_VEC_PUSH(t->names, bt_strpool_add(&t->pool, (const char *)s, (size_t)len));
		bt_hash_put(&t->name_index, hash_str(t->names.v[i]), (uint32_t)i);
	}
	n = bt_rc_get64(in);
	for (i = 0; i < n && !in->bad; i++) {
		struct bt_task k;

		memset(&k, 0, sizeof(k));
		w = bt_rc_get64(in);
		k.tid = (uint32_t)(w >> 32);
		k.pid = (uint32_t)w;
		w = bt_rc_get64(in);
		k.ptid = (uint32_t)(w >> 32);
		k.ppid = (uint32_t)w;
		k.fork_time = bt_rc_get64(in);
		k.exit_time = bt_rc_get64(in);
		len = bt_rc_get64(in);
		for (j = 0; j < len && !in->bad; j++) {
			struct bt_task_name nm;

			nm.time = bt_rc_get64(in);
			nm.comm = (uint32_t)bt_rc_get64(in);
			if (nm.comm >= t->names.n)
				in->bad = true;
			BT_VEC_PUSH(k.names, nm);
		}
		BT_VEC_PUSH(t->tasks, k);
		bt_hash_put(&t->task_index, bt_hash64(k.tid), (uint32_t)i);
	}
	n = bt_rc_get64(in);
	for (i = 0; i < n && !in->bad; i++) {
		struct bt_task_count c;

		w = bt_rc_get64(in);
		c.attr = (uint32_t)(w >> 32);
		c.task = (uint32_t)w;
		c.comm = (uint32_t)bt_rc_get64(in);
		c.samples = bt_rc_get64(in);
		c.period = bt_rc_get64(in);
		c.first = bt_rc_get64(in);
		c.last = bt_rc_get64(in);
		if (c.task >= t->tasks.n || c.comm >= t->names.n)
			in->bad = true;
		BT_VEC_PUSH(t->counts, c);
		bt_hash_put(&t->count_index, count_hash(c.attr, c.task, c.comm), (uint32_t)i);
	}
	t->last_count = (size_t)bt_rc_get64(in);
	return in->bad ? -1 : 0;
}
