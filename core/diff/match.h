/*
 * Matching code across builds (issue 28, docs/diff.md "Matching"): the
 * functions of two recordings paired (by name, then by a control-flow
 * hash for renamed or cloned ones), and two annotations of one function
 * aligned instruction by instruction (basic blocks by hash, as BOLT's
 * stale-profile matching pairs them, then a longest common subsequence of
 * masked opcodes inside and between them). Nothing here prints.
 */
#ifndef BENCHTUI_DIFF_MATCH_H
#define BENCHTUI_DIFF_MATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base.h"

struct bt_annotation;
struct bt_selection;

/* How two functions were paired. */
enum bt_match_how {
	BT_MATCH_NONE,		/* unpaired: only in A or only in B */
	BT_MATCH_NAME,		/* the same (demangled) name */
	BT_MATCH_SHORT,		/* the same short name (no parameters, templates folded) */
	BT_MATCH_BASE,		/* the same name without clone suffixes and lambda numbers */
	BT_MATCH_CFG,		/* the same control-flow hash */
};

/**
 * struct bt_func_pair - one row of the function pairing
 * @a, @b: the function's index on each side, -1 where it has none
 */
struct bt_func_pair {
	long a, b;
	enum bt_match_how how;
};

/*
 * The control-flow hash of side (0: A, 1: B)'s function i, 0 when it has
 * no code. Asked only of the functions the names leave unpaired.
 */
typedef uint64_t (*bt_match_hash_fn)(int side, size_t i, void *arg);

/*
 * Pair the functions named a[0..na) with those named b[0..nb): same name,
 * then same short name, then same base name (".constprop.0", ".isra.0",
 * ".part.0", ".cold", ".lto_priv.0" dropped, "{lambda()#3}" read as
 * "{lambda()#}"; several on a side: by control-flow hash, then in order),
 * then the rest by control-flow hash (hash may be NULL: names only).
 * Every function of either side is in exactly one row: pairs in A's
 * order, then B's unpaired. Returns the number of rows, *out malloc'ed.
 */
size_t bt_match_funcs(const char *const *a, size_t na, const char *const *b,
		      size_t nb, bt_match_hash_fn hash, void *arg,
		      struct bt_func_pair **out);
/* The same over the functions of two selections (bt_selection_func's order). */
size_t bt_match_selection_funcs(struct bt_selection *sa, struct bt_selection *sb,
				struct bt_func_pair **out);
/*
 * A function's control-flow hash: each block's opcodes (mnemonics, call
 * targets by name) and the edges between blocks, independent of the
 * blocks' order and of addresses. 0 for no code.
 */
uint64_t bt_match_cfg_hash(const struct bt_annotation *a);
const char *bt_match_how_name(enum bt_match_how how);

/* Flags of an aligned row. */
#define BT_MR_OPERANDS	0x01	/* the masked operands agree too */
#define BT_MR_LINE	0x02	/* the same source line (file's basename and line) */
#define BT_MR_BLOCK	0x04	/* in two paired blocks (else aligned in a gap) */
#define BT_MR_MOVED	0x08	/* B's side is out of its address order (a moved block) */

/**
 * struct bt_match_row - one row of the aligned function
 * @a, @b: the instruction on each side (index in the annotation), -1 for
 *         none: @a -1 is an instruction inserted in B, @b -1 one deleted
 * @block_a, @block_b: their basic blocks (bt_cfg numbering), -1 for none
 */
struct bt_match_row {
	long a, b;
	long block_a, block_b;
	unsigned flags;
};

/**
 * struct bt_insn_match - two annotations aligned
 * @rows: A's instructions in address order, B's matched beside them and
 *        its inserted ones where they fall between
 * @matched, @inserted, @deleted: rows of each kind
 * @nblocks_a, @nblocks_b: basic blocks on each side
 * @block_b: per block of A, the block of B it is paired with, -1
 * @blocks_paired: blocks of A paired; @blocks_by_call: by a call anchor
 */
struct bt_insn_match {
	BT_VEC(struct bt_match_row) rows;
	size_t matched, inserted, deleted;
	size_t nblocks_a, nblocks_b;
	long *block_b;
	size_t blocks_paired, blocks_by_call;
};

/* Align a and b into m (released by bt_insn_match_release). */
void bt_match_insns(const struct bt_annotation *a, const struct bt_annotation *b,
		    struct bt_insn_match *m);
void bt_insn_match_release(struct bt_insn_match *m);

#endif
