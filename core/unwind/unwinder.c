/*
 * The processes of a recording, for unwinding its samples (unwind.h):
 * one address space per pid, kept from MMAP/MMAP2, FORK and COMM-exec
 * records, and the choice of method per sample.
 */
#include <string.h>
#include <sys/mman.h>

#include "base.h"
#include "perf/perfdata.h"
#include "unwind/unwind.h"

struct proc {
	uint32_t pid;
	struct bt_unwind_space *space;
};

struct bt_unwinder {
	BT_VEC(struct proc) procs;
	size_t last;			/* index of the last process looked up */
	uint8_t *vdso;
	size_t vdso_len;
	BT_VEC(uint64_t) chain;		/* the current sample's callchain, native */
	unsigned flags;
};

void
bt_unwinder_set_flags(struct bt_unwinder *u, unsigned flags)
{
	size_t i;

	u->flags = flags;
	for (i = 0; i < u->procs.n; i++)
		bt_unwind_space_set_flags(u->procs.v[i].space, flags);
}

void
bt_unwinder_stats(const struct bt_unwinder *u, struct bt_unwind_stats *st)
{
	size_t i;

	memset(st, 0, sizeof(*st));
	for (i = 0; i < u->procs.n; i++) {
		const struct bt_unwind_stats *s = bt_unwind_space_stats(u->procs.v[i].space);
		st->samples += s->samples;
		st->libdw += s->libdw;
		st->rules += s->rules;
	}
}

struct bt_unwinder *
bt_unwinder_new(void)
{
	return bt_xcalloc(1, sizeof(struct bt_unwinder));
}

void
bt_unwinder_free(struct bt_unwinder *u)
{
	size_t i;

	if (u == NULL)
		return;
	for (i = 0; i < u->procs.n; i++)
		bt_unwind_space_free(u->procs.v[i].space);
	BT_VEC_FREE(u->procs);
	BT_VEC_FREE(u->chain);
	free(u->vdso);
	free(u);
}

void
bt_unwinder_set_vdso(struct bt_unwinder *u, const void *image, size_t len)
{
	free(u->vdso);
	u->vdso = NULL;
	u->vdso_len = 0;
	if (image != NULL && len) {
		u->vdso = bt_xmalloc(len);
		memcpy(u->vdso, image, len);
		u->vdso_len = len;
	}
}

static struct proc *
find_proc(struct bt_unwinder *u, uint32_t pid)
{
	size_t i;

	if (u->last < u->procs.n && u->procs.v[u->last].pid == pid)
		return &u->procs.v[u->last];
	for (i = 0; i < u->procs.n; i++)
		if (u->procs.v[i].pid == pid) {
			u->last = i;
			return &u->procs.v[i];
		}
	return NULL;
}

static struct proc *
add_proc(struct bt_unwinder *u, uint32_t pid, struct bt_unwind_space *space)
{
	struct proc p = { pid, space };

	bt_unwind_space_set_flags(space, u->flags);
	BT_VEC_PUSH(u->procs, p);
	u->last = u->procs.n - 1;
	return &u->procs.v[u->last];
}

struct bt_unwind_space *
bt_unwinder_space(struct bt_unwinder *u, uint32_t pid)
{
	struct proc *p = find_proc(u, pid);

	if (p == NULL)
		p = add_proc(u, pid, bt_unwind_space_new(pid));
	return p->space;
}

void
bt_unwinder_event(struct bt_unwinder *u, const struct bt_pd_event *ev)
{
	struct bt_unwind_space *s;
	struct proc *p;

	switch (ev->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if ((ev->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL)
			return;
		if (ev->type == PERF_RECORD_MMAP2 && !(ev->u.mmap.prot & PROT_EXEC))
			return;
		s = bt_unwinder_space(u, ev->u.mmap.pid);
		if (strcmp(ev->u.mmap.filename, "[vdso]") == 0)
			bt_unwind_space_map_image(s, ev->u.mmap.start, ev->u.mmap.len,
			    ev->u.mmap.pgoff, "[vdso]", u->vdso, u->vdso_len);
		else
			bt_unwind_space_map(s, ev->u.mmap.start, ev->u.mmap.len,
			    ev->u.mmap.pgoff, ev->u.mmap.filename);
		return;
	case PERF_RECORD_FORK:
		/* a new thread of the same process shares its space */
		if (ev->u.task.pid == ev->u.task.ppid || find_proc(u, ev->u.task.pid))
			return;
		p = find_proc(u, ev->u.task.ppid);
		add_proc(u, ev->u.task.pid, p ? bt_unwind_space_fork(p->space,
		    ev->u.task.pid) : bt_unwind_space_new(ev->u.task.pid));
		return;
	case PERF_RECORD_COMM:
		/* exec: a new image, new mappings follow */
		if (ev->misc & PERF_RECORD_MISC_COMM_EXEC) {
			p = find_proc(u, ev->u.comm.pid);
			if (p != NULL)
				bt_unwind_space_reset(p->space);
		}
		return;
	}
}

int
bt_unwinder_sample(struct bt_unwinder *u, const struct bt_perf_layout *l,
		   const struct bt_pd_event *ev, uint64_t *ips, size_t max,
		   struct bt_callchain *cc, struct bt_unwind_result *res,
		   struct bt_error *err)
{
	const struct bt_perf_sample *s = &ev->sample;
	struct bt_callchain mine;
	struct bt_unwind_regs r;
	uint64_t regbuf[64];
	uint64_t i;
	bool have_regs;

	if (cc == NULL)
		cc = &mine;
	memset(res, 0, sizeof(*res));
	u->chain.n = 0;
	if (BT_PF_HAS(s, BT_PF_CALLCHAIN)) {
		for (i = 0; i < s->callchain.n; i++)
			BT_VEC_PUSH(u->chain, bt_perf_u64(&s->callchain, s->swapped, i));
	}
	bt_callchain_split(u->chain.v, u->chain.n, cc);
	have_regs = bt_unwind_regs_from_sample(&r, l, s, regbuf) == 0;
	if (have_regs && cc->nuser > 0)
		return bt_unwind_splice(bt_unwinder_space(u, s->pid), &r,
		    cc->user, cc->nuser, ips, max, res, err);
	if (have_regs && r.stack_size > 0)
		return bt_unwind_dwarf(bt_unwinder_space(u, s->pid), &r, ips,
		    max, res, err);
	/* frame pointers only */
	res->end = have_regs ? BT_UNWIND_END_STACK : BT_UNWIND_END_NOREGS;
	res->splice = cc->nuser ? BT_SPLICE_FP : BT_SPLICE_NONE;
	res->n = BT_MIN(cc->nuser, max);
	memcpy(ips, cc->user, res->n * sizeof(*ips));
	return (int)res->n;
}
