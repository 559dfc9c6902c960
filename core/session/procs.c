/*
 * The recording's processes and threads (benchtui/session.h), made on
 * first use from the profile's tasks (profile/tasks.h): the threads
 * grouped by process, each with its names, samples and times.
 */
#include <stdlib.h>
#include <string.h>

#include "session/session-int.h"

/**
 * struct bt_procs - the processes, and where each task went
 * @v: the processes, in the order they started
 * @threads: every process's threads, one block
 * @comms: every process's names, one block
 * @task_proc, @task_thread: per task of the profile, its process and thread
 * @ntasks: the tasks then
 */
struct bt_procs {
	BT_VEC(struct bt_proc) v;
	struct bt_proc_thread *threads;
	const char **comms;
	size_t *task_proc, *task_thread;
	size_t ntasks;
};

/* Tasks (indexes in arg's) by process, then start, then tid. */
static int
cmp_task(const void *a, const void *b, void *arg)
{
	const struct bt_tasks *t = arg;
	const struct bt_task *x = &t->tasks.v[*(const size_t *)a];
	const struct bt_task *y = &t->tasks.v[*(const size_t *)b];

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->fork_time != y->fork_time)
		return x->fork_time < y->fork_time ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static int
cmp_proc(const void *a, const void *b)
{
	const struct bt_proc *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int
cmp_name(const void *a, const void *b)
{
	const struct bt_task_name *x = a, *y = b;

	return x->time < y->time ? -1 : x->time > y->time;
}

/*
 * Did task k have a name before its first own: its parent's at the fork,
 * or ":TID" when it has none?
 */
static bool
inherits(const struct bt_task *k)
{
	return k->names.n == 0 || (k->fork_time != 0 && k->names.v[0].time > k->fork_time);
}

/* Task ti as a thread: its last name, samples and times. */
static void
make_thread(struct bt_tasks *t, uint32_t ti, struct bt_proc_thread *th)
{
	const struct bt_task *k = &t->tasks.v[ti];

	th->tid = k->tid;
	th->comm = t->names.v[bt_tasks_comm_at(t, k->tid, UINT64_MAX)];
	th->ncomms = k->names.n + inherits(k);
	th->start = k->fork_time;
	th->exit = k->exit_time;
}

/* The names of the threads [lo, hi) of tasks idx[], in the order they got them. */
static size_t
proc_names(struct bt_tasks *t, const size_t *idx, size_t lo, size_t hi,
	   const char **out)
{
	BT_VEC(struct bt_task_name) all = { 0 };
	struct bt_task_name n;
	size_t i, j, m = 0;

	for (i = lo; i < hi; i++) {
		const struct bt_task *k = &t->tasks.v[idx[i]];
		if (inherits(k)) {
			n.time = k->fork_time;
			n.comm = bt_tasks_comm_at(t, k->tid, k->fork_time);
			BT_VEC_PUSH(all, n);
		}
		for (j = 0; j < k->names.n; j++)
			BT_VEC_PUSH(all, k->names.v[j]);
	}
	qsort(all.v, all.n, sizeof(*all.v), cmp_name);
	for (i = 0; i < all.n; i++) {
		for (j = 0; j < m && out[j] != t->names.v[all.v[i].comm]; j++)
			;
		if (j == m)
			out[m++] = t->names.v[all.v[i].comm];
	}
	BT_VEC_FREE(all);
	return m;
}

static struct bt_procs *
procs_make(struct bt_session *s)
{
	struct bt_tasks *t = &s->p->tasks;
	struct bt_procs *ps = bt_xcalloc(1, sizeof(*ps));
	size_t n = t->tasks.n, *idx = bt_xcalloc(n + 1, sizeof(size_t));
	size_t i, lo, ncomm = 0, total = 0;
	struct bt_proc *pr;

	for (i = 0; i < n; i++)
		idx[i] = i;
	qsort_r(idx, n, sizeof(*idx), cmp_task, t);
	ps->threads = bt_xcalloc(n + 1, sizeof(*ps->threads));
	for (i = 0; i < n; i++)
		total += t->tasks.v[i].names.n + 1;
	ps->comms = bt_xcalloc(total + 1, sizeof(*ps->comms));
	ps->task_proc = bt_xcalloc(n + 1, sizeof(size_t));
	ps->task_thread = bt_xcalloc(n + 1, sizeof(size_t));
	ps->ntasks = n;
	for (lo = 0; lo < n; lo = i) {
		const struct bt_task *main;
		struct bt_proc p = { 0 };

		for (i = lo; i < n && t->tasks.v[idx[i]].pid == t->tasks.v[idx[lo]].pid; i++)
			make_thread(t, (uint32_t)idx[i], &ps->threads[i]);
		main = &t->tasks.v[idx[lo]];
		for (size_t j = lo; j < i; j++)
			if (t->tasks.v[idx[j]].tid == t->tasks.v[idx[j]].pid)
				main = &t->tasks.v[idx[j]];
		p.pid = main->pid;
		p.ppid = main->ppid != main->pid ? main->ppid : 0;
		p.comm = ps->threads[lo].comm;
		for (size_t j = lo; j < i; j++)
			if (ps->threads[j].tid == main->tid)
				p.comm = ps->threads[j].comm;
		p.start = main->fork_time;
		p.exit = main->exit_time;
		p.threads = &ps->threads[lo];
		p.nthreads = i - lo;
		p.comms = &ps->comms[ncomm];
		p.ncomms = proc_names(t, idx, lo, i, &ps->comms[ncomm]);
		ncomm += p.ncomms;
		for (size_t j = lo; j < i; j++)
			ps->task_thread[idx[j]] = j - lo;
		BT_VEC_PUSH(ps->v, p);
	}
	qsort(ps->v.v, ps->v.n, sizeof(*ps->v.v), cmp_proc);
	for (i = 0; i < ps->v.n; i++) {
		pr = &ps->v.v[i];
		for (lo = 0; lo < pr->nthreads; lo++) {
			long ti = bt_tasks_find(t, pr->threads[lo].tid);
			if (ti >= 0)
				ps->task_proc[ti] = i;
		}
	}
	/* samples and times: every event's */
	for (i = 0; i < t->counts.n; i++) {
		const struct bt_task_count *c = &t->counts.v[i];
		struct bt_proc_thread *th;

		pr = &ps->v.v[ps->task_proc[c->task]];
		/* the process's threads are its part of ps->threads */
		th = &ps->threads[(size_t)(pr->threads - ps->threads) + ps->task_thread[c->task]];
		th->samples += c->samples;
		pr->samples += c->samples;
		if (th->first == 0 || c->first < th->first)
			th->first = c->first;
		if (c->last > th->last)
			th->last = c->last;
		if (pr->first == 0 || c->first < pr->first)
			pr->first = c->first;
		if (c->last > pr->last)
			pr->last = c->last;
	}
	free(idx);
	return ps;
}

void
bt_procs_free(struct bt_procs *ps)
{
	if (ps == NULL)
		return;
	BT_VEC_FREE(ps->v);
	free(ps->threads);
	free(ps->comms);
	free(ps->task_proc);
	free(ps->task_thread);
	free(ps);
}

static struct bt_procs *
procs_of(struct bt_session *s)
{
	if (s->procs == NULL)
		s->procs = procs_make(s);
	return s->procs;
}

size_t
bt_session_nprocs(struct bt_session *s)
{
	return procs_of(s)->v.n;
}

const struct bt_proc *
bt_session_proc(struct bt_session *s, size_t i)
{
	struct bt_procs *ps = procs_of(s);

	return i < ps->v.n ? &ps->v.v[i] : NULL;
}

double
bt_session_seconds(const struct bt_session *s, uint64_t t)
{
	return ((double)t - (double)s->p->first_time) / 1e9;
}

static int
cmp_count(const void *a, const void *b)
{
	const struct bt_proc_count *x = a, *y = b;

	if (x->proc != y->proc)
		return x->proc < y->proc ? -1 : 1;
	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

/* A count of task ti under name comm, its times the whole run's in the event. */
static void
add_count(struct bt_procs *ps, const struct bt_tasks *t, uint32_t attr,
	  uint32_t ti, uint32_t comm, uint64_t samples, uint64_t period,
	  struct bt_proc_count *o)
{
	const struct bt_task_count *c = bt_tasks_count(t, attr, ti, comm);

	o->proc = ps->task_proc[ti];
	o->thread = ps->task_thread[ti];
	o->comm = t->names.v[comm];
	o->samples = samples;
	o->period = period;
	o->first = c != NULL ? c->first : 0;
	o->last = c != NULL ? c->last : 0;
}

size_t
bt_selection_proc_counts(struct bt_selection *sel, struct bt_proc_count **out)
{
	struct bt_procs *ps = procs_of(sel->s);
	const struct bt_tasks *t = &sel->s->p->tasks;
	uint32_t attr = (uint32_t)sel->attr;
	size_t i, n = 0;

	if (sel->rescanned) {
		*out = bt_xcalloc(sel->tasks.n + 1, sizeof(**out));
		for (i = 0; i < sel->tasks.n; i++) {
			const struct bt_hist_entry *e = &sel->tasks.v[i];
			if (e->samples > 0 && e->module < ps->ntasks)
				add_count(ps, t, attr, e->module, (uint32_t)e->off,
				    e->samples, e->period, &(*out)[n++]);
		}
	} else {
		*out = bt_xcalloc(t->counts.n + 1, sizeof(**out));
		for (i = 0; i < t->counts.n; i++) {
			const struct bt_task_count *c = &t->counts.v[i];
			if (c->attr == attr && c->samples > 0 && c->task < ps->ntasks)
				add_count(ps, t, attr, c->task, c->comm, c->samples,
				    c->period, &(*out)[n++]);
		}
	}
	qsort(*out, n, sizeof(**out), cmp_count);
	return n;
}
