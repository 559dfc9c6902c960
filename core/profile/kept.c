/*
 * A recording's samples kept as the first read takes them
 * (bt_profile_open_kept), so that bt_profile_scan() goes over them in
 * memory instead of reading the file and unwinding again: the pprof
 * export reads every sample once more, and once more per benchmark.
 *
 * 16 bytes a sample, in its event's list in the order read: its time
 * as 32 bits after its block's (a block holds up to 65,536 samples and
 * starts anew where a time would not fit), its period (at most UINT32_MAX as read), its chain id and its
 * thread as an index in a table of (pid, tid). The leaf is not kept
 * where there is a chain: it is the chain's first location
 * (bt_chains_sample interns it so); a sample without one has its leaf
 * in its block's list of leaves, in the same order. On bt-1000000.data
 * (631,224 samples): 10 MiB. Writing each sample whole (40 bytes) took
 * 15 MiB more and some 5% more time (the stores push the first read's
 * tables out of the cache); interning (leaf, chain, thread) in a table
 * instead cost a lookup out of the cache a sample (1.12 s vs 0.80 s).
 */
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "hash.h"
#include "profile/chains.h"
#include "profile/profile-int.h"

struct kept_sample {
	uint32_t dt, period, chain, task;
};

struct kept_leaf {
	uint64_t off;
	uint32_t module;
};

/* Samples in blocks of at most BLOCK, each its own allocation: none is copied. */
#define BLOCK ((size_t)1 << 16)

struct kept_block {
	uint64_t base;		/* time = base + dt */
	struct kept_sample *s;
	size_t n;
	BT_VEC(struct kept_leaf) leaves;
};

struct kept_event {
	BT_VEC(struct kept_block) blocks;
};

struct kept_task {
	uint32_t pid, tid;
};

struct bt_kept {
	struct kept_event *ev;	/* per event */
	size_t nev;
	size_t bytes;
	BT_VEC(struct kept_task) tasks;
	struct bt_hash task_index;
	uint32_t last_task;
};

struct bt_kept *
bt_kept_new(size_t nevents)
{
	struct bt_kept *k = bt_xcalloc(1, sizeof(*k));

	k->ev = bt_xcalloc(nevents + 1, sizeof(*k->ev));
	k->nev = nevents;
	bt_hash_init(&k->task_index, 64);
	k->last_task = UINT32_MAX;
	return k;
}

void
bt_kept_free(struct bt_kept *k)
{
	size_t i, j;

	if (k == NULL)
		return;
	for (i = 0; i < k->nev; i++) {
		for (j = 0; j < k->ev[i].blocks.n; j++) {
			free(k->ev[i].blocks.v[j].s);
			BT_VEC_FREE(k->ev[i].blocks.v[j].leaves);
		}
		BT_VEC_FREE(k->ev[i].blocks);
	}
	free(k->ev);
	BT_VEC_FREE(k->tasks);
	bt_hash_release(&k->task_index);
	free(k);
}

/* The index of (pid, tid): most samples are the last one's thread's. */
static uint32_t
task_of(struct bt_kept *k, uint32_t pid, uint32_t tid)
{
	struct bt_hash_pos pos;
	struct kept_task t = { pid, tid };
	uint32_t i = k->last_task;

	if (i != UINT32_MAX && k->tasks.v[i].pid == pid && k->tasks.v[i].tid == tid)
		return i;
	for (i = bt_hash_first(&k->task_index, bt_hash64((uint64_t)pid << 32 | tid), &pos);
	    i != BT_HASH_NONE; i = bt_hash_next(&k->task_index, &pos))
		if (k->tasks.v[i].pid == pid && k->tasks.v[i].tid == tid)
			break;
	if (i == BT_HASH_NONE) {
		BT_VEC_PUSH(k->tasks, t);
		i = (uint32_t)k->tasks.n - 1;
		bt_hash_add(&k->task_index, &pos, i);
	}
	k->last_task = i;
	return i;
}

bool
bt_kept_add(struct bt_kept *k, const struct bt_sample *smp)
{
	struct kept_event *e;
	struct kept_sample one;
	struct kept_block *b;
	size_t bytes = sizeof(one);

	if (smp->attr >= k->nev)
		return true;
	e = &k->ev[smp->attr];
	if (smp->chain == BT_CHAIN_NONE)
		bytes += sizeof(struct kept_leaf);
	if (k->bytes + bytes > BT_KEPT_MAX)
		return false;
	k->bytes += bytes;
	b = e->blocks.n ? &e->blocks.v[e->blocks.n - 1] : NULL;
	if (b == NULL || b->n == BLOCK || smp->time < b->base ||
	    smp->time - b->base > UINT32_MAX) {
		struct kept_block nb;
		memset(&nb, 0, sizeof(nb));
		nb.base = smp->time;
		nb.s = bt_xmalloc(BLOCK * sizeof(*nb.s));
		BT_VEC_PUSH(e->blocks, nb);
		b = &e->blocks.v[e->blocks.n - 1];
	}
	one.dt = (uint32_t)(smp->time - b->base);
	one.period = (uint32_t)smp->period;	/* read as at most UINT32_MAX */
	one.chain = smp->chain;
	one.task = task_of(k, smp->pid, smp->tid);
	if (smp->chain == BT_CHAIN_NONE) {
		struct kept_leaf l = { smp->off, smp->module };
		BT_VEC_PUSH(b->leaves, l);
	}
	b->s[b->n++] = one;
	return true;
}

void
bt_kept_each(struct bt_profile *p, const struct bt_kept *k, int attr,
	     void (*fn)(struct bt_profile *, const struct bt_sample *, void *),
	     void *arg)
{
	const struct kept_event *e;
	struct bt_sample smp;
	size_t b, i, leaf;

	if (attr < 0 || (size_t)attr >= k->nev)
		return;
	e = &k->ev[attr];
	memset(&smp, 0, sizeof(smp));
	smp.attr = (uint8_t)attr;
	for (b = 0; b < e->blocks.n; b++) {
		const struct kept_block *bl = &e->blocks.v[b];
		for (i = 0, leaf = 0; i < bl->n; i++) {
			const struct kept_sample *s = &bl->s[i];
			smp.time = bl->base + s->dt;
			smp.period = s->period;
			smp.chain = s->chain;
			smp.pid = k->tasks.v[s->task].pid;
			smp.tid = k->tasks.v[s->task].tid;
			if (s->chain == BT_CHAIN_NONE) {
				smp.module = bl->leaves.v[leaf].module;
				smp.off = bl->leaves.v[leaf].off;
				leaf++;
			} else {
				const uint32_t *locs;
				const struct bt_loc *l;
				bt_chains_get(p, s->chain, &locs);
				l = bt_chains_loc(p, locs[0]);	/* the leaf */
				smp.module = l->module;
				smp.off = l->off;
			}
			fn(p, &smp, arg);
		}
	}
}
