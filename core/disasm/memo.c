/*
 * The instructions of a buffer of code decoded once (disasm.h: struct
 * bt_insn_memo): a table from an instruction's bytes to the caller's id
 * of the instruction they decoded to.
 */
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "disasm/disasm.h"

#define MEMO_MAX_LEN 15	/* x86's longest instruction */

/* The hash of the bytes so far and one more, with len in its low 4 bits (never 0). */
static inline uint32_t
memo_step(uint64_t *h, uint8_t b, size_t len)
{
	*h = (*h + b + 1) * UINT64_C(0x9e3779b97f4a7c15);
	return ((uint32_t)(*h >> 32) & ~UINT32_C(0xf)) | (uint32_t)len;
}

/* The table's slot and the bit of seen[] for a hash. */
#define MEMO_SLOT(m, hash)	(((hash) >> 4) & (m)->mask)
#define MEMO_SEEN_WORD(hash)	((hash) >> 22)
#define MEMO_SEEN_BIT(hash)	((uint64_t)1 << (((hash) >> 16) & 63))

void
bt_insn_memo_init(struct bt_insn_memo *m, const uint8_t *code, size_t n)
{
	size_t size = 256;

	/* about 4 bytes an instruction, a third of them different: grown if need be */
	while (size < n / 8)
		size *= 2;
	memset(m, 0, sizeof(*m));
	m->code = code;
	m->slot = bt_xcalloc(size, sizeof(*m->slot));
	m->mask = size - 1;
}

void
bt_insn_memo_release(struct bt_insn_memo *m)
{
	free(m->slot);
	free(m->kept);
	m->slot = NULL;
	m->kept = NULL;
	m->n = m->alloc = 0;
}

/* Put a slot into the table (a free one is there). */
static void
memo_put(struct bt_insn_memo *m, struct bt_memo_slot s)
{
	size_t k;

	for (k = MEMO_SLOT(m, s.hash); m->slot[k].hash != 0; k = (k + 1) & m->mask)
		;
	m->slot[k] = s;
}

/* Twice the slots: the table stays at most half full. */
static void
memo_grow(struct bt_insn_memo *m)
{
	struct bt_memo_slot *old = m->slot;
	size_t n = m->mask + 1, i;

	m->slot = bt_xcalloc(2 * n, sizeof(*m->slot));
	m->mask = 2 * n - 1;
	for (i = 0; i < n; i++)
		if (old[i].hash != 0)
			memo_put(m, old[i]);
	free(old);
}

/* Are a[0..len) and b[0..len) the same (len at most 15: no call)? */
static inline bool
same_bytes(const uint8_t *a, const uint8_t *b, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

long
bt_insn_memo_find(const struct bt_insn_memo *m, size_t off, size_t avail)
{
	const uint8_t *p = m->code + off;
	size_t max = avail < MEMO_MAX_LEN ? avail : MEMO_MAX_LEN, len, k;
	uint64_t h = 0;
	uint32_t hash;

	for (len = 1; len <= max && (m->lens >> len) != 0; len++) {
		hash = memo_step(&h, p[len - 1], len);
		if (!(m->lens & (1u << len)) ||
		    !(m->seen[MEMO_SEEN_WORD(hash)] & MEMO_SEEN_BIT(hash)))
			continue;
		for (k = MEMO_SLOT(m, hash); m->slot[k].hash != 0; k = (k + 1) & m->mask) {
			const struct bt_memo_kept *e = &m->kept[m->slot[k].k];
			if (m->slot[k].hash == hash && same_bytes(m->code + e->off, p, len))
				return (long)e->id;
		}
	}
	return -1;
}

void
bt_insn_memo_add(struct bt_insn_memo *m, size_t off, size_t len, uint32_t id)
{
	const uint8_t *p = m->code + off;
	struct bt_memo_slot s = { 0, 0 };
	uint64_t h = 0;
	size_t i;

	if (len == 0 || len > MEMO_MAX_LEN || off > UINT32_MAX || m->n >= UINT32_MAX)
		return;
	if (2 * (m->n + 1) > m->mask + 1)
		memo_grow(m);
	for (i = 0; i < len; i++)
		s.hash = memo_step(&h, p[i], i + 1);
	s.k = (uint32_t)m->n;
	BT_ALLOC_GROW(m->kept, m->n + 1, m->alloc);
	m->kept[m->n].off = (uint32_t)off;
	m->kept[m->n].id = id;
	m->n++;
	memo_put(m, s);
	m->seen[MEMO_SEEN_WORD(s.hash)] |= MEMO_SEEN_BIT(s.hash);
	m->lens |= 1u << len;
}
