/*
 * DESIGN.md §4 on the control-flow graph of one function (cfg.c): natural
 * loops and hot regions as the annotation shows them (skid.c: the
 * skid-adjusted attribution).
 */
#include <stdlib.h>
#include <string.h>

#include "annotate/annotate.h"
#include "annotate/cfg.h"

/*
 * Natural loops as the annotation shows them: from the first instruction
 * of the body to its last, which for a body laid out in one piece is the
 * branch that closes it; the closing branches are the backward branches
 * inside the body (a rotated loop's header is its condition, after the
 * body in address order: its jb back to the body's top is what a reader
 * calls the back edge).
 */
void
bt_find_loops(struct bt_annotation *a, const struct bt_cfg *g)
{
	size_t i, k;

	for (i = 0; i < a->insns.n; i++)
		a->insns.v[i].loop = (int)g->inner[g->block[i]];
	for (k = 0; k < g->nloops; k++) {
		const struct bt_cfg_loop *L = &g->loops[k];
		struct bt_loop l;
		size_t b;

		memset(&l, 0, sizeof(l));
		l.head = g->first[g->body[L->body]];
		l.tail = g->last[g->body[L->body + L->nblocks - 1]];
		l.depth = L->depth;
		l.parent = L->parent;
		l.contiguous = true;
		for (b = L->body; b < L->body + L->nblocks; b++) {
			size_t blk = g->body[b];
			const struct bt_ainsn *last = &a->insns.v[g->last[blk]];

			if (b > L->body && g->body[b - 1] + 1 != blk)
				l.contiguous = false;
			for (i = g->first[blk]; i <= g->last[blk]; i++) {
				l.ninsns++;
				l.samples += a->insns.v[i].samples;
				l.adjusted += a->insns.v[i].adjusted;
				if (a->insns.v[i].loop_depth < UINT16_MAX)
					a->insns.v[i].loop_depth++;
			}
			if (last->target_insn >= 0 && (size_t)last->target_insn <= g->last[blk] &&
			    bt_cfg_in_loop(g, g->block[last->target_insn], (long)k))
				a->insns.v[g->last[blk]].flags |= BT_AI_BACK_EDGE;
		}
		a->insns.v[l.head].flags |= BT_AI_LOOP_HEAD;
		BT_VEC_PUSH(a->loops, l);
	}
}

bool
bt_annotation_in_loop(const struct bt_annotation *a, size_t insn, size_t loop)
{
	long l;

	for (l = a->insns.v[insn].loop; l >= 0; l = a->loops.v[l].parent)
		if ((size_t)l == loop)
			return true;
	return false;
}

static int
region_cmp(const void *x, const void *y)
{
	const struct bt_region *a = x, *b = y;

	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	return a->first < b->first ? -1 : a->first > b->first;
}

/*
 * A region inside a loop whose body is contiguous takes the rest of the
 * body when that is at most margin cold instructions on either side: a
 * loop body's region ends with the branch that closes it.
 */
static void
loop_extend(struct bt_annotation *a, struct bt_region *r, size_t margin)
{
	long l = a->insns.v[r->first].loop;

	for (; l >= 0; l = a->loops.v[l].parent) {
		const struct bt_loop *L = &a->loops.v[l];
		if (!L->contiguous || r->last > L->tail || r->first < L->head)
			continue;	/* the region reaches out of this loop */
		if (r->first - L->head <= margin && L->tail - r->last <= margin + 1) {
			r->first = L->head;
			r->last = L->tail;
		}
		return;
	}
}

/*
 * Hot regions, as perfasm: instructions with at least threshold of the
 * function's samples (raw or adjusted) start a region; it grows over
 * following hot instructions separated by at most margin cold ones.
 */
void
bt_find_regions(struct bt_annotation *a, double threshold, size_t margin)
{
	double min = threshold * (double)a->samples;
	size_t i, k, out, cold = 0;
	bool open = false;
	struct bt_region r;

	if (a->samples == 0)
		return;
	if (min < 1)
		min = 1;
	memset(&r, 0, sizeof(r));
	for (i = 0; i < a->insns.n; i++) {
		const struct bt_ainsn *ai = &a->insns.v[i];
		bool hot = (double)ai->samples >= min || ai->adjusted >= min;

		if (hot) {
			if (!open) {
				memset(&r, 0, sizeof(r));
				r.first = i;
				open = true;
			}
			r.last = i;
			cold = 0;
		} else if (open && ++cold > margin) {
			BT_VEC_PUSH(a->regions, r);
			open = false;
		}
	}
	if (open)
		BT_VEC_PUSH(a->regions, r);
	/* loop bodies whole, then regions that now overlap merged (in address order) */
	for (i = 0; i < a->regions.n; i++)
		loop_extend(a, &a->regions.v[i], margin);
	for (i = 0, out = 0; i < a->regions.n; i++) {
		if (out > 0 && a->regions.v[i].first <= a->regions.v[out - 1].last + 1) {
			if (a->regions.v[i].last > a->regions.v[out - 1].last)
				a->regions.v[out - 1].last = a->regions.v[i].last;
			continue;
		}
		a->regions.v[out++] = a->regions.v[i];
	}
	a->regions.n = out;
	for (i = 0; i < a->regions.n; i++) {
		struct bt_region *g = &a->regions.v[i];
		g->samples = 0;
		g->adjusted = 0;
		for (k = g->first; k <= g->last; k++) {
			g->samples += a->insns.v[k].samples;
			g->adjusted += a->insns.v[k].adjusted;
		}
	}
	bt_qsort(a->regions.v, a->regions.n, sizeof(*a->regions.v), region_cmp);
	for (i = 0; i < a->regions.n; i++)
		for (k = a->regions.v[i].first; k <= a->regions.v[i].last; k++)
			a->insns.v[k].region = (int)i;
}
