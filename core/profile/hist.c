/*
 * The histogram accumulator (hist.h): chunks of counts found through
 * regions.
 *
 * A million samples spread over a big function's code land in a new chunk
 * almost every time, so what an add costs is its cache misses. A chunk is
 * found in two steps: its region (REGION chunks, 4096 offsets: a hash of
 * (group, module, offset / 4096) over the regions' keys, a few hundred for
 * a program's whole text, which stay in the first-level cache), then the
 * region's array of chunk indices; the last region is remembered. A hash
 * of the chunks themselves (thousands: its slots and keys a miss each in
 * the second level) cost three quarters of an add. The counts of every
 * chunk are in one array, apart from the keys: an add is one miss, the
 * count's, and that one is not waited for: an add prefetches its count and
 * is done PENDING adds later, while the caller decodes the next samples.
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
#define REGION 64	/* chunks a region: BT_HIST_CHUNK * REGION offsets */
#define REGION_SPAN ((uint64_t)BT_HIST_CHUNK * REGION)

struct bt_hist {
	struct key *keys;	/* chunk i's key */
	struct slot *counts;	/* chunk i's counts: [i * BT_HIST_CHUNK, +BT_HIST_CHUNK) */
	size_t n, alloc;
	struct key *rkeys;	/* region r's key (base: a multiple of REGION_SPAN) */
	uint32_t *rchunks;	/* region r's chunks, index + 1 (0: none): [r * REGION, +REGION) */
	size_t nr, ralloc;
	struct bt_hash index;	/* (group, module, region base) -> region */
	size_t last;		/* the last chunk (SIZE_MAX: none), its key lastkey */
	struct key lastkey;
	size_t lastr;		/* the last region (SIZE_MAX: none), its key lastrkey */
	struct key lastrkey;
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
	h->lastr = SIZE_MAX;
	return h;
}

void
bt_hist_free(struct bt_hist *h)
{
	if (h == NULL)
		return;
	free(h->keys);
	free(h->counts);
	free(h->rkeys);
	free(h->rchunks);
	bt_hash_release(&h->index);
	free(h);
}

static uint64_t
hash(uint32_t group, uint32_t module, uint64_t base)
{
	return bt_hash64(base ^ (uint64_t)module << 40 ^ (uint64_t)group << 52);
}

/* The counts of n chunks grown to alloc, the new ones zero. */
static struct slot *
grow_counts(struct slot *c, size_t n, size_t alloc)
{
	c = bt_xrealloc(c, alloc * BT_HIST_CHUNK * sizeof(*c));
	memset(c + n * BT_HIST_CHUNK, 0, (alloc - n) * BT_HIST_CHUNK * sizeof(*c));
	return c;
}

/* The region of (group, module, rbase), made if new. */
static size_t
find_region(struct bt_hist *h, uint32_t group, uint32_t module, uint64_t rbase)
{
	struct bt_hash_pos pos;
	struct key *k;
	uint32_t i;

	for (i = bt_hash_first(&h->index, hash(group, module, rbase), &pos);
	    i != BT_HASH_NONE; i = bt_hash_next(&h->index, &pos)) {
		k = &h->rkeys[i];
		if (k->base == rbase && k->module == module && k->group == group)
			return i;
	}
	if (h->nr == h->ralloc) {
		size_t alloc = h->ralloc ? 2 * h->ralloc : 16;

		h->rkeys = bt_xrealloc(h->rkeys, alloc * sizeof(*h->rkeys));
		h->rchunks = bt_xrealloc(h->rchunks, alloc * REGION * sizeof(*h->rchunks));
		h->ralloc = alloc;
	}
	k = &h->rkeys[h->nr];
	k->base = rbase;
	k->module = module;
	k->group = group;
	memset(h->rchunks + h->nr * REGION, 0, REGION * sizeof(*h->rchunks));
	bt_hash_add(&h->index, &pos, (uint32_t)h->nr);
	return h->nr++;
}

/* The chunk of (group, module, base), made if new. */
static size_t
find_chunk(struct bt_hist *h, uint32_t group, uint32_t module, uint64_t base)
{
	uint64_t rbase = base - base % REGION_SPAN;
	uint32_t *c;
	struct key *k;

	if (h->lastr == SIZE_MAX || h->lastrkey.base != rbase ||
	    h->lastrkey.module != module || h->lastrkey.group != group) {
		h->lastr = find_region(h, group, module, rbase);
		h->lastrkey = h->rkeys[h->lastr];
	}
	c = &h->rchunks[h->lastr * REGION + (base - rbase) / BT_HIST_CHUNK];
	if (*c != 0)
		return *c - 1;
	if (h->n == h->alloc) {
		size_t alloc = h->alloc ? 2 * h->alloc : 64;

		h->keys = bt_xrealloc(h->keys, alloc * sizeof(*h->keys));
		h->counts = grow_counts(h->counts, h->alloc, alloc);
		h->alloc = alloc;
	}
	k = &h->keys[h->n];
	k->base = base;
	k->module = module;
	k->group = group;
	*c = (uint32_t)++h->n;
	return h->n - 1;
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
	FREE_AND_NULL(h->rkeys);
	FREE_AND_NULL(h->rchunks);
	h->n = h->alloc = 0;
	h->nr = h->ralloc = 0;
	h->last = SIZE_MAX;
	h->lastr = SIZE_MAX;
	bt_hash_clear(&h->index);
	*out = e;
	return n;
}
