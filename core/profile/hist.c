/*
 * The histogram accumulator (hist.h): chunks of counts behind a small hash.
 *
 * A million samples spread over a big function's code land in a new chunk
 * almost every time, so what an add costs is its cache misses: the chunks'
 * keys are kept apart from their counts, in one small array the hash's
 * candidates are checked against (it stays in cache), and the counts of
 * every chunk in one array indexed as the keys are: an add is one miss, the
 * count's, where a chunk with its key in front cost three (the hash slot,
 * the chunk's key, its count). That one miss is not waited for: an add
 * prefetches its count and is done PENDING adds later, while the caller
 * decodes the next samples.
 */
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "hash.h"
#include "profile/hist.h"

struct slot {
	uint64_t period;
	uint32_t samples;
};

struct key {
	uint64_t base;		/* first offset: a multiple of BT_HIST_CHUNK */
	uint32_t module;
	uint32_t group;
};

#define PENDING 16	/* adds under way: a power of two */

struct bt_hist {
	struct key *keys;	/* chunk i's key */
	struct slot *counts;	/* chunk i's counts: [i * BT_HIST_CHUNK, +BT_HIST_CHUNK) */
	size_t n, alloc;
	struct bt_hash index;	/* (group, module, base) -> chunk */
	size_t last;		/* the last chunk (SIZE_MAX: none), its key lastkey */
	struct key lastkey;
	/* the adds not done yet: count index, period; pend[(head + i) % PENDING] */
	struct {
		size_t slot;
		uint64_t period;
	} pend[PENDING];
	unsigned head, npend;
};

struct bt_hist *
bt_hist_new(void)
{
	struct bt_hist *h = bt_xcalloc(1, sizeof(*h));

	bt_hash_init(&h->index, 128);
	h->last = SIZE_MAX;
	return h;
}

void
bt_hist_free(struct bt_hist *h)
{
	if (h == NULL)
		return;
	free(h->keys);
	free(h->counts);
	bt_hash_release(&h->index);
	free(h);
}

static uint64_t
hash(uint32_t group, uint32_t module, uint64_t base)
{
	return bt_hash64(base ^ (uint64_t)module << 40 ^ (uint64_t)group << 52);
}

static size_t
find_chunk(struct bt_hist *h, uint32_t group, uint32_t module, uint64_t base)
{
	struct bt_hash_pos pos;
	struct key *k;
	uint32_t i;

	for (i = bt_hash_first(&h->index, hash(group, module, base), &pos);
	    i != BT_HASH_NONE; i = bt_hash_next(&h->index, &pos)) {
		k = &h->keys[i];
		if (k->base == base && k->module == module && k->group == group)
			return i;
	}
	if (h->n == h->alloc) {
		size_t alloc = h->alloc ? 2 * h->alloc : 64;

		h->keys = bt_xrealloc(h->keys, alloc * sizeof(*h->keys));
		h->counts = bt_xrealloc(h->counts, alloc * BT_HIST_CHUNK * sizeof(*h->counts));
		memset(h->counts + h->alloc * BT_HIST_CHUNK, 0,
		    (alloc - h->alloc) * BT_HIST_CHUNK * sizeof(*h->counts));
		h->alloc = alloc;
	}
	k = &h->keys[h->n];
	k->base = base;
	k->module = module;
	k->group = group;
	bt_hash_add(&h->index, &pos, (uint32_t)h->n);
	return h->n++;
}

/* Do the oldest pending add. */
static inline void
settle_one(struct bt_hist *h)
{
	struct slot *s = &h->counts[h->pend[h->head].slot];

	s->samples++;
	s->period += h->pend[h->head].period;
	h->head = (h->head + 1) % PENDING;
	h->npend--;
}

void
bt_hist_add(struct bt_hist *h, uint32_t group, uint32_t module, uint64_t off,
	    uint64_t period)
{
	uint64_t base = off - off % BT_HIST_CHUNK;
	size_t slot;
	unsigned tail;

	if (h->last == SIZE_MAX || h->lastkey.base != base ||
	    h->lastkey.module != module || h->lastkey.group != group) {
		h->last = find_chunk(h, group, module, base);
		h->lastkey.base = base;
		h->lastkey.module = module;
		h->lastkey.group = group;
	}
	slot = h->last * BT_HIST_CHUNK + (size_t)(off - base);
	__builtin_prefetch(&h->counts[slot], 1);
	if (h->npend == PENDING)
		settle_one(h);
	tail = (h->head + h->npend) % PENDING;
	h->pend[tail].slot = slot;
	h->pend[tail].period = period;
	h->npend++;
}

/* A chunk in the order of its key, for bt_hist_take. */
struct order {
	struct key k;
	size_t i;
};

static int
order_cmp(const void *a, const void *b)
{
	const struct key *x = &((const struct order *)a)->k;
	const struct key *y = &((const struct order *)b)->k;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	if (x->module != y->module)
		return x->module < y->module ? -1 : 1;
	return x->base < y->base ? -1 : x->base > y->base;
}

size_t
bt_hist_take(struct bt_hist *h, struct bt_hist_entry **out)
{
	size_t i, k, n = 0, alloc = 0;
	struct bt_hist_entry *e = NULL;
	struct order *o = bt_xcalloc(h->n ? h->n : 1, sizeof(*o));

	while (h->npend > 0)
		settle_one(h);
	for (i = 0; i < h->n; i++) {
		o[i].k = h->keys[i];
		o[i].i = i;
	}
	bt_qsort(o, h->n, sizeof(*o), order_cmp);
	for (i = 0; i < h->n; i++) {
		const struct slot *c = h->counts + o[i].i * BT_HIST_CHUNK;
		for (k = 0; k < BT_HIST_CHUNK; k++) {
			if (c[k].samples == 0)
				continue;
			BT_ALLOC_GROW(e, n + 1, alloc);
			e[n].group = o[i].k.group;
			e[n].module = o[i].k.module;
			e[n].off = o[i].k.base + k;
			e[n].samples = c[k].samples;
			e[n].period = c[k].period;
			n++;
		}
	}
	free(o);
	FREE_AND_NULL(h->keys);
	FREE_AND_NULL(h->counts);
	h->n = h->alloc = 0;
	h->last = SIZE_MAX;
	bt_hash_clear(&h->index);
	*out = e;
	return n;
}
