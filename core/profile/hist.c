/* The histogram accumulator (hist.h): chunks of counts behind a small hash. */
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "hash.h"
#include "profile/hist.h"

struct slot {
	uint64_t period;
	uint32_t samples;
};

struct chunk {
	uint32_t group;
	uint32_t module;
	uint64_t base;		/* first offset: a multiple of BT_HIST_CHUNK */
	struct slot s[BT_HIST_CHUNK];
};

struct bt_hist {
	struct chunk **chunks;
	size_t n, alloc;
	struct bt_hash index;	/* (group, module, base) -> chunk */
	struct chunk *last;
};

struct bt_hist *
bt_hist_new(void)
{
	struct bt_hist *h = bt_xcalloc(1, sizeof(*h));

	bt_hash_init(&h->index, 128);
	return h;
}

void
bt_hist_free(struct bt_hist *h)
{
	size_t i;

	if (h == NULL)
		return;
	for (i = 0; i < h->n; i++)
		free(h->chunks[i]);
	free(h->chunks);
	bt_hash_release(&h->index);
	free(h);
}

static uint64_t
hash(uint32_t group, uint32_t module, uint64_t base)
{
	return bt_hash64(base ^ (uint64_t)module << 40 ^ (uint64_t)group << 52);
}

static struct chunk *
find_chunk(struct bt_hist *h, uint32_t group, uint32_t module, uint64_t base)
{
	struct bt_hash_pos pos;
	struct chunk *c;
	uint32_t i;

	for (i = bt_hash_first(&h->index, hash(group, module, base), &pos);
	    i != BT_HASH_NONE; i = bt_hash_next(&h->index, &pos)) {
		c = h->chunks[i];
		if (c->base == base && c->module == module && c->group == group)
			return c;
	}
	c = bt_xcalloc(1, sizeof(*c));
	c->group = group;
	c->module = module;
	c->base = base;
	BT_ALLOC_GROW(h->chunks, h->n + 1, h->alloc);
	h->chunks[h->n++] = c;
	bt_hash_add(&h->index, &pos, (uint32_t)h->n - 1);
	return c;
}

void
bt_hist_add(struct bt_hist *h, uint32_t group, uint32_t module, uint64_t off,
	    uint64_t period)
{
	uint64_t base = off - off % BT_HIST_CHUNK;
	struct chunk *c = h->last;
	struct slot *s;

	if (c == NULL || c->base != base || c->module != module || c->group != group)
		c = h->last = find_chunk(h, group, module, base);
	s = &c->s[off - base];
	s->samples++;
	s->period += period;
}

static int
chunk_cmp(const void *a, const void *b)
{
	const struct chunk *x = *(const struct chunk *const *)a;
	const struct chunk *y = *(const struct chunk *const *)b;

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

	bt_qsort(h->chunks, h->n, sizeof(*h->chunks), chunk_cmp);
	for (i = 0; i < h->n; i++) {
		struct chunk *c = h->chunks[i];
		for (k = 0; k < BT_HIST_CHUNK; k++) {
			if (c->s[k].samples == 0)
				continue;
			BT_ALLOC_GROW(e, n + 1, alloc);
			e[n].group = c->group;
			e[n].module = c->module;
			e[n].off = c->base + k;
			e[n].samples = c->s[k].samples;
			e[n].period = c->s[k].period;
			n++;
		}
		free(c);
	}
	h->n = 0;
	h->last = NULL;
	bt_hash_clear(&h->index);
	*out = e;
	return n;
}
