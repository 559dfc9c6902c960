/*
 * One small open-addressing hash table (linear probing) for every table of
 * the tree: it holds indices into the caller's own array of entries and
 * finds them by a 64-bit hash of their key; the caller says which of the
 * candidates is the one. So one table serves keys of any shape (a pid, a
 * (module, offset) pair, a call chain's list of frames), the entries stay
 * where the caller keeps them (an id is an index that never moves), and
 * nothing is copied in or out.
 *
 * A slot holds an entry's index and the high 32 bits of its hash: a probe
 * compares those before it looks at an entry, and the table grows (at
 * half full) without calling back. Lookups are inline:
 *
 *	struct bt_hash_pos pos;
 *	uint32_t i;
 *
 *	for (i = bt_hash_first(&t->hash, hash_of(key), &pos); i != BT_HASH_NONE;
 *	    i = bt_hash_next(&t->hash, &pos))
 *		if (equal(&t->v.v[i], key))
 *			return i;
 *	BT_VEC_PUSH(t->v, make(key));
 *	bt_hash_add(&t->hash, &pos, (uint32_t)t->v.n - 1);
 *
 * hash_of() must spread its bits (bt_hash64() of the key does): the slot
 * is chosen by the high bits. At most UINT32_MAX - 1 entries.
 */
#ifndef BENCHTUI_HASH_H
#define BENCHTUI_HASH_H

#include <stddef.h>
#include <stdint.h>

#define BT_HASH_NONE UINT32_MAX

/**
 * struct bt_hash - the table
 * @slots: (hash >> 32) << 32 | (index + 1) each; 0 is empty
 * @mask: slots - 1 (a power of two less one)
 * @n: indices in the table
 */
struct bt_hash {
	uint64_t *slots;
	size_t mask;
	size_t n;
};

/* Where a lookup stopped: bt_hash_add() puts the index there. */
struct bt_hash_pos {
	size_t i;
	uint32_t tag;
};

/* An empty table with room for about hint entries before it grows. */
void bt_hash_init(struct bt_hash *h, size_t hint);
void bt_hash_release(struct bt_hash *h);
/* Empty it (keeping its memory). */
void bt_hash_clear(struct bt_hash *h);
/*
 * Add index for the key whose lookup (bt_hash_first/next) just ended with
 * BT_HASH_NONE at pos, with nothing added between.
 */
void bt_hash_add(struct bt_hash *h, const struct bt_hash_pos *pos,
		 uint32_t index);
/* Add index under hash without looking (the caller knows it is new). */
void bt_hash_put(struct bt_hash *h, uint64_t hash, uint32_t index);

/* The candidate at pos or after it: an index whose hash may be the one. */
static inline uint32_t
bt_hash_probe(const struct bt_hash *h, struct bt_hash_pos *pos)
{
	uint64_t s;

	while ((s = h->slots[pos->i]) != 0) {
		if ((uint32_t)(s >> 32) == pos->tag)
			return (uint32_t)s - 1;
		pos->i = (pos->i + 1) & h->mask;
	}
	return BT_HASH_NONE;
}

/*
 * The first candidate for hash (BT_HASH_NONE: none, and pos is where to
 * add it).
 */
static inline uint32_t
bt_hash_first(const struct bt_hash *h, uint64_t hash, struct bt_hash_pos *pos)
{
	pos->tag = (uint32_t)(hash >> 32);
	pos->i = pos->tag & h->mask;
	return bt_hash_probe(h, pos);
}

/* The next candidate after the one pos is at. */
static inline uint32_t
bt_hash_next(const struct bt_hash *h, struct bt_hash_pos *pos)
{
	pos->i = (pos->i + 1) & h->mask;
	return bt_hash_probe(h, pos);
}

#endif
