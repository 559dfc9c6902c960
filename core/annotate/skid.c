/*
 * DESIGN.md §4 on the control-flow graph of one function (cfg.c):
 * skid-adjusted attribution, natural loops, hot regions.
 */
#include <stdlib.h>
#include <string.h>

#include "annotate/annotate.h"
#include "annotate/cfg.h"

#define SKID_PRIOR 1.0		/* equal prior added to each predecessor's block weight */
#define SKID_CLEAR 2.0 / 3.0	/* a share this big is no guess */

/*
 * Move each instruction's samples to its control-flow predecessors: the
 * previous instruction if it falls through, and every branch of the
 * function that targets it. Several predecessors share in proportion to
 * the raw samples of their basic blocks, plus a small equal prior, so a
 * hot back edge wins over a cold entry. Two kinds of instruction keep
 * what lands on them:
 * - an interruptible one (rep movs/stos/cmps/scas): an interrupt between
 *   iterations reports its own address, so its samples are its own;
 * and one kind of predecessor never takes a loop's weight:
 * - a block outside the innermost loop around the sampled instruction
 *   (the jump into the loop's condition Go emits before every for loop
 *   runs once per call, whatever its block weighs).
 * A split with no clear winner is marked as a guess.
 */
void
bt_skid_adjust(struct bt_annotation *a, const struct bt_cfg *g)
{
	size_t n = a->insns.n, i, k, np, *preds;
	double *bweight, *adj, *adjper;

	if (n == 0)
		return;
	bweight = bt_xcalloc(g->nb, sizeof(double));
	adj = bt_xcalloc(n, sizeof(double));
	adjper = bt_xcalloc(n, sizeof(double));
	preds = bt_xmalloc((g->pred_off[g->nb] + 2) * sizeof(size_t));
	for (i = 0; i < n; i++)
		bweight[g->block[i]] += (double)a->insns.v[i].samples;

	for (i = 0; i < n; i++) {
		const struct bt_ainsn *ai = &a->insns.v[i];
		double smp = (double)ai->samples, per = (double)ai->period;
		double total = 0, best = 0;
		size_t b = g->block[i];
		long loop = g->inner[b];
		bool inside = false;

		if (ai->samples == 0)
			continue;
		/* its predecessors: the one before it, or its block's predecessors' ends */
		np = 0;
		if (g->first[b] != i)
			preds[np++] = i - 1;
		else
			for (k = g->pred_off[b]; k < g->pred_off[b + 1]; k++)
				preds[np++] = g->last[g->pred[k]];
		if (np == 0 || (ai->in.flags & BT_INSN_F_INTERRUPTIBLE)) {
			/* the function's entry, or its own cost: keep */
			adj[i] += smp;
			adjper[i] += per;
			continue;
		}
		/* inside a loop, only predecessors inside it share */
		if (loop >= 0)
			for (k = 0; k < np; k++)
				inside |= bt_cfg_in_loop(g, g->block[preds[k]], loop);
		for (k = 0; k < np; k++) {
			if (inside && !bt_cfg_in_loop(g, g->block[preds[k]], loop))
				continue;
			total += bweight[g->block[preds[k]]] + SKID_PRIOR;
		}
		for (k = 0; k < np; k++) {
			double share;
			if (inside && !bt_cfg_in_loop(g, g->block[preds[k]], loop))
				continue;
			share = (bweight[g->block[preds[k]]] + SKID_PRIOR) / total;
			adj[preds[k]] += smp * share;
			adjper[preds[k]] += per * share;
			best = share > best ? share : best;
		}
		if (best < SKID_CLEAR)	/* several predecessors, none clearly the one */
			for (k = 0; k < np; k++)
				if (!inside || bt_cfg_in_loop(g, g->block[preds[k]], loop))
					a->insns.v[preds[k]].flags |= BT_AI_SKID_GUESS;
	}
	for (i = 0; i < n; i++) {
		struct bt_ainsn *ai = &a->insns.v[i];
		ai->adjusted = adj[i];
		ai->adjusted_period = adjper[i];
		if (adj[i] >= (double)ai->samples + 0.5)	/* credited at least half a sample */
			ai->flags |= BT_AI_SKID_TARGET;
		else
			ai->flags &= ~(unsigned)BT_AI_SKID_GUESS;
	}
	free(bweight);
	free(adj);
	free(adjper);
	free(preds);
}

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
