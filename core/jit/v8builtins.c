/*
 * V8's builtin entry tables, as JIT code calls through them (v8builtins.h).
 */
#include <stdlib.h>
#include <string.h>

#include "jit/v8builtins.h"

int32_t
bt_v8_index_call_disp(const uint8_t *code, size_t len, size_t *hits,
		      size_t *agree)
{
	/* few distinct values: count them in a small table */
	struct { int32_t disp; size_t n; } seen[8];
	size_t nseen = 0, i, k, best = 0;

	*hits = *agree = 0;
	for (i = 0; i + 8 <= len; i++) {
		const uint8_t *p = code + i;
		int32_t d;

		/* REX with B (r13 as base), W and R clear; ff /2; SIB */
		if ((p[0] & 0xfc) != 0x40 || !(p[0] & 1) || p[1] != 0xff ||
		    p[2] != 0x94 || (p[3] & 0xc7) != 0xc5)
			continue;
		/* index 100 without REX.X is "no index" */
		if ((p[3] & 0x38) == 0x20 && !(p[0] & 2))
			continue;
		d = (int32_t)((uint32_t)p[4] | (uint32_t)p[5] << 8 |
		    (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24);
		(*hits)++;
		for (k = 0; k < nseen && seen[k].disp != d; k++)
			;
		if (k == nseen) {
			if (nseen == 8)
				continue;
			seen[nseen].disp = d;
			seen[nseen++].n = 0;
		}
		seen[k].n++;
	}
	for (k = 1; k < nseen; k++)
		if (seen[k].n > seen[best].n)
			best = k;
	if (nseen == 0)
		return BT_V8_NO_DISP;
	*agree = seen[best].n;
	if (*agree < 3 || *agree * 10 < *hits * 9)
		return BT_V8_NO_DISP;
	return seen[best].disp;
}

/*
 * V8 11.3 (node 20): IsolateData starts with cage_base (8 bytes), the
 * stack guard (7 words), 8 bytes of flags, then the tier-0 entry table
 * of Builtins::kBuiltinTier0Count (7) entries: at offset 72, -0x38 from
 * r13 (node's v8-internal.h: kBuiltinTier0EntryTableOffset, size 7 words;
 * read back from a running node 20.20.2). Newer V8s put more fields
 * before it (V8 13: the regexp result vector, -0x30).
 */
static const char *const tier0_11_3[] = {
	"Builtins_DeoptimizationEntry_Eager",
	"Builtins_DeoptimizationEntry_Lazy",
	"Builtins_RecordWriteSaveFP",
	"Builtins_RecordWriteIgnoreFP",
	"Builtins_EphemeronKeyBarrierSaveFP",
	"Builtins_EphemeronKeyBarrierIgnoreFP",
	"Builtins_AdaptorWithBuiltinExitFrame",
};

static const struct bt_v8_tier0 tier0s[] = {
	{ 11, 3, -0x38, 7, tier0_11_3 },
};

const struct bt_v8_tier0 *
bt_v8_tier0_layout(int major, int minor)
{
	size_t i;

	for (i = 0; i < sizeof(tier0s) / sizeof(tier0s[0]); i++)
		if (tier0s[i].major == major && tier0s[i].minor == minor)
			return &tier0s[i];
	return NULL;
}

const char *
bt_v8_slot_name(const struct bt_v8_tables *t, int64_t disp)
{
	int64_t off;

	if (t->tier0 != NULL && disp >= t->tier0->disp &&
	    disp < t->tier0->disp + 8 * (int64_t)t->tier0->n) {
		off = disp - t->tier0->disp;
		return off % 8 == 0 && (size_t)(off / 8) < t->n ? t->names[off / 8] : NULL;
	}
	if (t->full_disp == BT_V8_NO_DISP || disp < t->full_disp)
		return NULL;
	off = disp - t->full_disp;
	if (off % 8 != 0 || (uint64_t)(off / 8) >= t->n)
		return NULL;
	return t->names[off / 8];
}
