/*
 * One function of two recordings aligned, with a unit compared per row
 * and per block (issue 28, docs/diff.md "Matching"): the two annotations
 * matched (match.h), each side's samples split into parts (the
 * benchmark's repetitions where the harness printed them with their
 * iterations: cost per op; else equal time slices: the share of the
 * part's samples, said so), each instruction's and each block's two
 * vectors tested (stats.h), the false discovery rate controlled over
 * all of them.
 */
#ifndef BENCHTUI_DIFF_ALIGN_H
#define BENCHTUI_DIFF_ALIGN_H

#include <stdbool.h>
#include <stddef.h>

#include "benchtui/match.h"
#include "diff/match.h"
#include "diff/stats.h"

struct bt_selection;
struct bt_annotation;
struct bt_error;

/**
 * struct bt_align_block - a block of A with what B has beside it
 * @block_a, @block_b: A's block and the block of B paired with it, -1
 * @first, @n: its rows
 * @inserted, @deleted: rows of each kind in it; @differ: matched rows
 *                      whose operands differ
 * @tested: it has samples on a side (a unit); else @st is zeros
 */
struct bt_align_block {
	long block_a, block_b;
	size_t first, n;
	size_t inserted, deleted, differ;
	bool tested;
	struct bt_diff_stat st;
};

/**
 * struct bt_align - the aligned function
 * @sel, @fi: each side's selection (referenced) and function
 * @an: each side's annotation (the selection's)
 * @m: the rows
 * @unit: "ns/op", "EVENT/op" (repetitions with iterations) or "share"
 *        (percent of each part's samples of the selection's event)
 * @vectors: "repetitions" or "slices"
 * @nparts: parts on each side
 * @st, @tested: per row of @m
 * @blocks: by A's address, @hottest the changed block with the largest
 *          absolute change (-1: none changed)
 * @nunits: units tested; @counts per verdict
 * @unit_row: per unit (bt_align_unit's order), its row of @m, or
 *            -1 - its block
 */
struct bt_align {
	struct bt_selection *sel[2];
	size_t fi[2];
	struct bt_annotation *an[2];
	struct bt_insn_match m;
	const char *unit, *vectors;
	size_t nparts[2];
	struct bt_diff_stat *st;
	bool *tested;
	BT_VEC(struct bt_align_block) blocks;
	long hottest;
	size_t nunits;
	size_t counts[4];
	BT_VEC(long) unit_row;
	size_t *row_block;	/* per row of @m, its block */
};

/* (bt_align_new, bt_align_free...: benchtui/match.h) */

/* Time slices of a run without repetitions. */
#define BT_ALIGN_SLICES 5

#endif
