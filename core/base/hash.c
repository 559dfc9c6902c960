/* The hash table of indices (hash.h). */
#include <string.h>

#include "base.h"
#include "hash.h"

static void
alloc_slots(struct bt_hash *h, size_t nslots)
{
	h->slots = bt_xcalloc(nslots, sizeof(*h->slots));
	h->mask = nslots - 1;
}

void
bt_hash_init(struct bt_hash *h, size_t hint)
{
	size_t nslots = 16;

	while (nslots < hint * 2)
		nslots *= 2;
	alloc_slots(h, nslots);
	h->n = 0;
}

void
bt_hash_release(struct bt_hash *h)
{
	FREE_AND_NULL(h->slots);
	h->mask = 0;
	h->n = 0;
}

void
bt_hash_clear(struct bt_hash *h)
{
	memset(h->slots, 0, (h->mask + 1) * sizeof(*h->slots));
	h->n = 0;
}

/* Slot s in the first empty place of its probe. */
static void
place(struct bt_hash *h, uint64_t s)
{
	size_t i;

	for (i = (uint32_t)(s >> 32) & h->mask; h->slots[i]; i = (i + 1) & h->mask)
		;
	h->slots[i] = s;
}

static void
grow(struct bt_hash *h)
{
	uint64_t *old = h->slots;
	size_t n = h->mask + 1, i;

	alloc_slots(h, n * 2);
	for (i = 0; i < n; i++)
		if (old[i])
			place(h, old[i]);
	free(old);
}

void
bt_hash_add(struct bt_hash *h, const struct bt_hash_pos *pos, uint32_t index)
{
	uint64_t s = (uint64_t)pos->tag << 32 | ((uint64_t)index + 1);

	if (index == BT_HASH_NONE)
		BT_BUG("hash table index out of range");
	h->slots[pos->i] = s;
	if (++h->n * 2 > h->mask + 1)
		grow(h);
}

void
bt_hash_put(struct bt_hash *h, uint64_t hash, uint32_t index)
{
	struct bt_hash_pos pos;

	pos.tag = (uint32_t)(hash >> 32);
	for (pos.i = pos.tag & h->mask; h->slots[pos.i]; pos.i = (pos.i + 1) & h->mask)
		;
	bt_hash_add(h, &pos, index);
}
