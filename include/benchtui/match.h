/*
 * One function of two builds aligned side by side (issue 28, docs/diff.md
 * "Matching", core/diff/align.c): one row a pair of instructions (or an
 * instruction inserted in B or deleted from A), each row and each basic
 * block a unit compared, with Δ, its interval, MDE, q and verdict.
 */
#ifndef BENCHTUI_MATCH_H
#define BENCHTUI_MATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "benchtui/benchtui.h"
#include "benchtui/diff.h"
#include "benchtui/export.h"
#include "benchtui/view.h"

struct bt_selection;
struct bt_align;

/*
 * Function fa of selection sa (old) aligned with fb of sb (new); bench_a,
 * bench_b: the benchmark each ran (its repetitions are the vectors), -1
 * for none (time slices of the selection). Holds a reference to each
 * selection. NULL with err set when a side has no code.
 */
BT_API struct bt_align *bt_align_new(struct bt_selection *sa, size_t fa, long bench_a,
				     struct bt_selection *sb, size_t fb, long bench_b,
				     struct bt_error *err);
/*
 * The function named name in both (as bt_selection_find; on B's side also
 * its clones and renamings, by core/diff/match.c's pairing), aligned as
 * bt_align_new with no benchmark. NULL with err set when either lacks it.
 */
BT_API struct bt_align *bt_align_find(struct bt_selection *sa, struct bt_selection *sb,
				      const char *name, struct bt_error *err);
BT_API void bt_align_free(struct bt_align *al);

/**
 * struct bt_align_side - one side of a unit
 * @present: the side has it (an instruction, a block)
 * @addr: its (first) address; @text: the instruction (NULL for a block)
 * @file, @line: its source line (innermost), NULL/0 when unknown
 * @samples: its samples in the whole selection
 */
struct bt_align_side {
	bool present;
	uint64_t addr;
	const char *text;
	const char *file;
	unsigned line;
	uint64_t samples;
};

enum bt_align_kind {
	BT_AK_MATCHED,		/* the same opcode and masked operands */
	BT_AK_OPCODE,		/* the same opcode, other operands */
	BT_AK_MOVED,		/* matched, B's out of its address order */
	BT_AK_INSERTED,		/* only in B */
	BT_AK_DELETED,		/* only in A */
	BT_AK_BLOCK,		/* a basic block of A and what B has beside it */
};

/**
 * struct bt_align_unit - a row of the aligned function, or a block
 * @kind: what it is; @block: its block's index (bt_align_unit order of blocks)
 * @same_line: both sides have the same source line
 * @tested: it has samples on a side; else @st is all zero and not counted
 * @hottest: BLOCK: the changed block that changed most
 * @inserted, @deleted, @differ: BLOCK: its rows of each kind
 */
struct bt_align_unit {
	enum bt_align_kind kind;
	size_t block;
	struct bt_align_side a, b;
	bool same_line, tested, hottest;
	size_t inserted, deleted, differ;
	struct bt_diff_stat st;
};

/* Units in display order: each block, then its rows. */
BT_API size_t bt_align_nunits(const struct bt_align *al);
BT_API void bt_align_unit(const struct bt_align *al, size_t i, struct bt_align_unit *out);
/* "ns/op", "cycles/op", "events/op", or "share" (percent of each part's samples) */
BT_API const char *bt_align_cost_unit(const struct bt_align *al);
/* "repetitions" or "slices" (equal time slices: a run without repetitions) */
BT_API const char *bt_align_vectors(const struct bt_align *al, size_t *na, size_t *nb);
/* Function names of each side (side 0: A). */
BT_API const char *bt_align_func_name(const struct bt_align *al, int side);
BT_API const char *bt_align_kind_name(enum bt_align_kind k);

/*
 * The aligned function as rows (core/view/view-match.c): one BT_ROW_TEXT
 * row a block (its unit: A, B, Δ, interval, MDE, q, verdict; the changed
 * ones weighted by their change, so that H goes to the one that changed
 * most and Tab to the next), then one BT_ROW_INSN row a unit (@insn the
 * unit's index): mark, A's address, instruction and line, B's, and the
 * statistics. Under 100 columns (o->width) the addresses and lines go
 * and each side's instruction is cut to fit.
 */
BT_API struct bt_view *bt_view_match(const struct bt_align *al, const struct bt_view_opts *o);
/* The first row of the hottest changed block, 0 when none. */
BT_API size_t bt_view_match_hottest(const struct bt_view *v);
/* As text (the view's cells) or JSON (every unit: docs/formats.md "match"). */
BT_API int bt_export_match(FILE *out, const struct bt_align *al, enum bt_format format,
			   const struct bt_view_opts *o, struct bt_error *err);

#endif
