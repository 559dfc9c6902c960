/*
 * Call chains, read and interned (chains.h). Every sample that carries a
 * chain, registers and a stack copy, or both (perf -g, --call-graph dwarf,
 * benchtui's hybrid) is unwound by core/unwind's bt_unwinder, each frame
 * resolved to (module, file offset) at the sample's time, and the list of
 * locations interned: a run of a million samples has a few thousand
 * distinct chains. A sample with an LBR call stack takes its user frames
 * from the stack instead (lbr.c).
 */
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "hash.h"
#include "perf/perfdata.h"
#include "profile/chains.h"
#include "profile/profile.h"
#include "unwind/unwind.h"

struct bt_chains {
	struct bt_unwinder *u;
	BT_VEC(struct bt_loc) locs;
	struct bt_hash loc_index;	/* (module, off) -> location id */
	/* chains: frames[start[i] .. start[i + 1]) */
	BT_VEC(uint32_t) frames;
	BT_VEC(uint32_t) start;
	BT_VEC(bool) lbr;	/* per chain: made from an LBR call stack */
	struct bt_hash chain_index;	/* frames -> chain id */
	uint64_t truncated;	/* samples whose chain ends at the stack copy */
	bool sealed;		/* the first read is done: count no more */
	uint64_t ips[BT_UNWIND_MAX_FRAMES];
	uint32_t key[BT_UNWIND_MAX_FRAMES * 2 + 2];
};

bool
bt_chains_wanted(const struct bt_pd_reader *r)
{
	size_t i;

	for (i = 0; i < bt_pd_nattrs(r); i++) {
		uint64_t st = bt_pd_attr(r, i)->attr.sample_type;
		if ((st & PERF_SAMPLE_CALLCHAIN) ||
		    ((st & PERF_SAMPLE_REGS_USER) && (st & PERF_SAMPLE_STACK_USER)))
			return true;
	}
	return false;
}

void
bt_chains_init(struct bt_profile *p, const struct bt_pd_reader *r)
{
	struct bt_chains *c = bt_xcalloc(1, sizeof(*c));

	c->u = bt_unwinder_new(p->machine);
	if (p->meta.vdso != NULL)
		bt_unwinder_set_vdso(c->u, p->meta.vdso, p->meta.vdso_len);
	BT_VEC_PUSH(c->start, 0);
	bt_hash_init(&c->loc_index, 512);
	bt_hash_init(&c->chain_index, 512);
	p->chains = c;
}

void
bt_chains_free(struct bt_profile *p)
{
	struct bt_chains *c = p->chains;

	if (c == NULL)
		return;
	bt_unwinder_free(c->u);
	BT_VEC_FREE(c->locs);
	BT_VEC_FREE(c->frames);
	BT_VEC_FREE(c->start);
	BT_VEC_FREE(c->lbr);
	bt_hash_release(&c->loc_index);
	bt_hash_release(&c->chain_index);
	free(c);
	p->chains = NULL;
}

static uint64_t
loc_hash(uint32_t module, uint64_t off)
{
	return bt_hash64(off ^ ((uint64_t)module << 47));
}

static uint32_t
loc_intern(struct bt_chains *c, uint32_t module, uint64_t off)
{
	struct bt_hash_pos pos;
	struct bt_loc l;
	uint32_t i;

	for (i = bt_hash_first(&c->loc_index, loc_hash(module, off), &pos);
	    i != BT_HASH_NONE; i = bt_hash_next(&c->loc_index, &pos))
		if (c->locs.v[i].module == module && c->locs.v[i].off == off)
			return i;
	l.module = module;
	l.off = off;
	BT_VEC_PUSH(c->locs, l);
	bt_hash_add(&c->loc_index, &pos, (uint32_t)c->locs.n - 1);
	return (uint32_t)c->locs.n - 1;
}

static uint64_t
key_hash(const uint32_t *k, size_t n)
{
	uint64_t h = n;
	size_t i;

	for (i = 0; i < n; i++)
		h = bt_hash64(h ^ k[i]) + i;
	return h;
}

static uint32_t
chain_intern(struct bt_chains *c, const uint32_t *k, size_t n, bool lbr)
{
	struct bt_hash_pos pos;
	uint32_t i, nc = (uint32_t)c->start.n - 1;

	for (i = bt_hash_first(&c->chain_index, key_hash(k, n), &pos);
	    i != BT_HASH_NONE; i = bt_hash_next(&c->chain_index, &pos))
		if (c->start.v[i + 1] - c->start.v[i] == n &&
		    memcmp(c->frames.v + c->start.v[i], k, n * sizeof(*k)) == 0) {
			c->lbr.v[i] |= lbr;
			return i;
		}
	BT_ALLOC_GROW(c->frames.v, c->frames.n + n, c->frames.alloc);
	memcpy(c->frames.v + c->frames.n, k, n * sizeof(*k));
	c->frames.n += n;
	BT_VEC_PUSH(c->start, (uint32_t)c->frames.n);
	BT_VEC_PUSH(c->lbr, lbr);
	bt_hash_add(&c->chain_index, &pos, nc);
	return nc;
}

uint32_t
bt_chains_sample(struct bt_profile *p, const struct bt_perf_layout *l,
		 const struct bt_pd_event *ev, uint32_t module, uint64_t off)
{
	struct bt_chains *c = p->chains;
	unsigned mode = ev->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	bool kernel = mode == PERF_RECORD_MISC_KERNEL ||
	    mode == PERF_RECORD_MISC_GUEST_KERNEL || mode == PERF_RECORD_MISC_HYPERVISOR;
	struct bt_unwind_result res;
	struct bt_callchain cc;
	size_t n = 0, i;
	int got;

	if (c == NULL)
		return BT_CHAIN_NONE;
	/* a kernel leaf by its address: kallsyms may name it (session/kernel.c) */
	c->key[n++] = loc_intern(c, module, off);
	if (bt_lbr_callstack(l) &&
	    (got = bt_lbr_chain(&ev->sample, c->ips, BT_UNWIND_MAX_FRAMES)) >= 0) {
		/* call instructions and a call's target: looked up as they are */
		for (i = 0; i < (size_t)got; i++) {
			uint32_t m;
			uint64_t o;

			bt_profile_resolve(p, ev->pid, c->ips[i], ev->time, &m, &o);
			c->key[n++] = loc_intern(c, m, o);
		}
		return chain_intern(c, c->key, n, true);
	}
	got = bt_unwinder_sample(c->u, l, ev,
	    c->ips, BT_UNWIND_MAX_FRAMES, &cc, &res, NULL);
	if (got > 0 && res.splice == BT_SPLICE_CFI_ONLY && !c->sealed)
		c->truncated++;
	for (i = 0; got > 0 && i < (size_t)got; i++) {
		uint32_t m;
		uint64_t o;

		if (i == 0 && !kernel)
			continue;	/* the leaf, resolved already */
		if (res.splice == BT_SPLICE_GAP && i == res.ncfi && i > 0)
			c->key[n++] = BT_LOC_GAP;
		/* a return address stands for its call, one byte before */
		bt_profile_resolve(p, ev->pid, i == 0 ? c->ips[i] : c->ips[i] - 1,
		    ev->time, &m, &o);
		c->key[n++] = loc_intern(c, m, o);
	}
	return chain_intern(c, c->key, n, false);
}

void
bt_chains_seal(struct bt_profile *p)
{
	if (p->chains != NULL)
		p->chains->sealed = true;
}

uint64_t
bt_chains_truncated(const struct bt_profile *p)
{
	return p->chains ? p->chains->truncated : 0;
}

size_t
bt_chains_count(const struct bt_profile *p)
{
	return p->chains ? p->chains->start.n - 1 : 0;
}

size_t
bt_chains_get(const struct bt_profile *p, uint32_t id, const uint32_t **locs)
{
	const struct bt_chains *c = p->chains;

	*locs = c->frames.v + c->start.v[id];
	return c->start.v[id + 1] - c->start.v[id];
}

bool
bt_chains_lbr(const struct bt_profile *p, uint32_t id)
{
	return p->chains->lbr.v[id];
}

size_t
bt_chains_nlocs(const struct bt_profile *p)
{
	return p->chains ? p->chains->locs.n : 0;
}

const struct bt_loc *
bt_chains_loc(const struct bt_profile *p, uint32_t id)
{
	return &p->chains->locs.v[id];
}
