/*
 * The control-flow graph of an annotated function (cfg.c): basic blocks,
 * edges, dominators, natural loops. Built once per annotation, then used
 * by the skid adjustment, loops and regions, and freed.
 */
#ifndef BENCHTUI_CFG_H
#define BENCHTUI_CFG_H

#include <stdbool.h>
#include <stddef.h>

struct bt_annotation;

/**
 * struct bt_cfg_loop - a natural loop
 * @header: its header block (the target of its back edges)
 * @latch_last: the last instruction of its latest back edge (the closing branch)
 * @body, @nblocks: its blocks are body[@body .. @body + @nblocks), sorted
 * @parent: the innermost loop around it, -1 if none
 * @depth: loops around it (0 for an outermost loop)
 */
struct bt_cfg_loop {
	size_t header;
	size_t latch_last;
	size_t body, nblocks;
	long parent;
	int depth;
};

/**
 * struct bt_cfg - blocks 0..nb-1 in address order
 * @block: per instruction, its block; @first, @last: per block, its
 *         first and last instruction
 * @succ_off/@succ, @pred_off/@pred: edges as CSR lists
 * @inner: per block, the innermost loop holding it, -1 if none
 */
struct bt_cfg {
	size_t nb;
	size_t *block, *first, *last;
	size_t *succ_off, *succ, *pred_off, *pred, *pred_fill;
	size_t *rpo, *rpo_index, *idom;
	struct bt_cfg_loop *loops;
	size_t nloops, loops_alloc;
	size_t *body;
	long *inner;
};

struct bt_cfg *bt_cfg_build(const struct bt_annotation *a);
void bt_cfg_free(struct bt_cfg *g);
/* Does block a dominate block b? */
bool bt_cfg_dominates(const struct bt_cfg *g, size_t a, size_t b);
/* Is block b in loop (or in a loop nested in it)? */
bool bt_cfg_in_loop(const struct bt_cfg *g, size_t b, long loop);

#endif
