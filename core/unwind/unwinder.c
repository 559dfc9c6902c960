/*
 * A recording's processes, for unwinding its samples (unwind.h): one
 * address space (a libdwfl session) per process of the machine, and the
 * method each sample's contents call for. What each process had mapped,
 * and when, is the machine's: the unwinder keeps no side-band of its own.
 */
#include <string.h>

#include "base.h"
#include "hash.h"
#include "perf/perfdata.h"
#include "unwind/unwind-int.h"

struct space_of {
	uint32_t pid;
	struct bt_unwind_space *s;
};

/*
 * The processes whose spaces keep their session (libdwfl's, its open
 * files and mapped ELF, the cached rows: ~0.3 MB for a small program and
 * libc): the most recently unwound. A process beyond them has its space
 * trimmed, made again if it has samples later. Samples come in runs of
 * one process, a few processes at a time (a 1,000-fork recording has two).
 */
#define LIVE_SPACES 64

struct bt_unwinder {
	struct bt_machine *machine;
	BT_VEC(struct space_of) spaces;
	struct bt_hash space_index;	/* pid -> spaces[] */
	uint32_t last_pid;		/* spaces[last]: samples come in runs */
	size_t last;
	size_t live[LIVE_SPACES];	/* spaces[] indices, most recent first */
	size_t nlive;
	struct bt_unwind_rows rows;	/* every space's CFI rows, by file */
	uint8_t *vdso;
	size_t vdso_len;
	BT_VEC(uint64_t) chain;		/* the sample's callchain, native */
	unsigned flags;
};

struct bt_unwinder *
bt_unwinder_new(struct bt_machine *m)
{
	struct bt_unwinder *u = bt_xcalloc(1, sizeof(struct bt_unwinder));

	u->machine = m;
	u->last = SIZE_MAX;
	bt_hash_init(&u->space_index, 0);
	return u;
}

void
bt_unwinder_free(struct bt_unwinder *u)
{
	size_t i;

	if (u == NULL)
		return;
	for (i = 0; i < u->spaces.n; i++)
		bt_unwind_space_free(u->spaces.v[i].s);
	BT_VEC_FREE(u->spaces);
	bt_hash_release(&u->space_index);
	BT_VEC_FREE(u->chain);
	bt_unwind_rows_release(&u->rows);
	free(u->vdso);
	free(u);
}

void
bt_unwinder_set_vdso(struct bt_unwinder *u, const void *image, size_t len)
{
	size_t i;

	free(u->vdso);
	u->vdso = NULL;
	u->vdso_len = 0;
	bt_unwind_rows_clear(&u->rows);	/* the vDSO's were the old image's */
	if (image != NULL && len) {
		u->vdso = bt_xmalloc(len);
		memcpy(u->vdso, image, len);
		u->vdso_len = len;
	}
	for (i = 0; i < u->spaces.n; i++)
		bt_unwind_space_set_vdso(u->spaces.v[i].s, u->vdso, u->vdso_len);
}

void
bt_unwinder_set_flags(struct bt_unwinder *u, unsigned flags)
{
	size_t i;

	u->flags = flags;
	for (i = 0; i < u->spaces.n; i++)
		bt_unwind_space_set_flags(u->spaces.v[i].s, flags);
}

void
bt_unwinder_stats(const struct bt_unwinder *u, struct bt_unwind_stats *st)
{
	size_t i;

	memset(st, 0, sizeof(*st));
	for (i = 0; i < u->spaces.n; i++) {
		const struct bt_unwind_stats *s = bt_unwind_space_stats(u->spaces.v[i].s);
		st->samples += s->samples;
		st->libdw += s->libdw;
		st->rules += s->rules;
		st->shared += s->shared;
		st->mismatched += s->mismatched;
	}
}

/* spaces[i] is the most recently used: the least, beyond LIVE_SPACES, trimmed. */
static void
use_space(struct bt_unwinder *u, size_t i)
{
	size_t k;

	for (k = 0; k < u->nlive && u->live[k] != i; k++)
		;
	if (k == u->nlive) {
		if (u->nlive == LIVE_SPACES)
			bt_unwind_space_trim(u->spaces.v[u->live[--k]].s);
		else
			u->nlive++;
	}
	memmove(u->live + 1, u->live, k * sizeof(u->live[0]));
	u->live[0] = i;
}

struct bt_unwind_space *
bt_unwinder_space(struct bt_unwinder *u, uint32_t pid)
{
	struct space_of so;
	struct bt_hash_pos pos;
	uint32_t i;

	if (u->last != SIZE_MAX && u->last_pid == pid)
		return u->spaces.v[u->last].s;
	for (i = bt_hash_first(&u->space_index, bt_hash64(pid), &pos);
	    i != BT_HASH_NONE; i = bt_hash_next(&u->space_index, &pos))
		if (u->spaces.v[i].pid == pid)
			break;
	if (i == BT_HASH_NONE) {
		so.pid = pid;
		so.s = bt_unwind_space_new(u->machine, pid);
		bt_unwind_space_set_vdso(so.s, u->vdso, u->vdso_len);
		bt_unwind_space_set_flags(so.s, u->flags);
		bt_unwind_space_share(so.s, &u->rows);
		BT_VEC_PUSH(u->spaces, so);
		i = (uint32_t)u->spaces.n - 1;
		bt_hash_add(&u->space_index, &pos, i);
	}
	use_space(u, i);
	u->last = i;
	u->last_pid = pid;
	return u->spaces.v[i].s;
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
		return bt_unwind_dwarf(bt_unwinder_space(u, s->pid), &r,
		    ips, max, res, err);
	/* frame pointers only */
	res->end = have_regs ? BT_UNWIND_END_STACK : BT_UNWIND_END_NOREGS;
	res->splice = cc->nuser ? BT_SPLICE_FP : BT_SPLICE_NONE;
	res->n = BT_MIN(cc->nuser, max);
	if (res->n)
		memcpy(ips, cc->user, res->n * sizeof(*ips));
	return (int)res->n;
}
