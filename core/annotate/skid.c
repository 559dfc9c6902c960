/*
 * DESIGN.md §4: skid-adjusted attribution, loops and hot regions, on the
 * control-flow graph of one function.
 */
#include <stdlib.h>
#include <string.h>

#include "annotate/annotate.h"

#define SKID_PRIOR 1.0	/* equal prior added to each predecessor's block weight */

static bool
falls_through(const struct bt_insn *in)
{
	switch (in->kind) {
	case BT_INSN_JUMP:
	case BT_INSN_IJUMP:
	case BT_INSN_RET:
	case BT_INSN_STOP:
		return false;
	default:
		return true;
	}
}

static bool
ends_block(const struct bt_insn *in)
{
	return in->kind != BT_INSN_OTHER && in->kind != BT_INSN_SYSCALL &&
	    in->kind != BT_INSN_BAD;
}

/*
 * Move each instruction's samples to its control-flow predecessors: the
 * previous instruction if it falls through, and every branch of the
 * function that targets it. Several predecessors share in proportion to
 * the raw samples of their basic blocks, plus a small equal prior, so a
 * hot loop's back-edge wins over the one-time entry jump.
 */
void
bt_skid_adjust(struct bt_annotation *a)
{
	size_t n = a->insns.n, i, b, k;
	/* compact copies of what the graph needs: the instructions are large */
	uint8_t *fall = bt_xcalloc(n ? n : 1, 1);	/* falls through */
	long *tgt = bt_xcalloc(n ? n : 1, sizeof(long));
	double *smp = bt_xcalloc(n ? n : 1, sizeof(double));
	double *adj = bt_xcalloc(n ? n : 1, sizeof(double));
	double *per = bt_xcalloc(n ? n : 1, sizeof(double));	/* raw, then moved */
	double *adjper = bt_xcalloc(n ? n : 1, sizeof(double));
	size_t *block = bt_xcalloc(n ? n : 1, sizeof(size_t));
	size_t *pred_off = bt_xcalloc(n + 1, sizeof(size_t));
	bool *leader = bt_xcalloc(n ? n : 1, sizeof(bool));
	size_t *preds = NULL, *fill;
	double *bweight = NULL;

	if (n == 0)
		goto out;
	for (i = 0; i < n; i++) {
		const struct bt_ainsn *ai = &a->insns.v[i];
		fall[i] = falls_through(&ai->in);
		tgt[i] = ai->target_insn;
		smp[i] = (double)ai->samples;
		per[i] = (double)ai->period;
		/* basic blocks start at targets and after anything that ends one */
		if (tgt[i] >= 0)
			leader[tgt[i]] = true;
		if (ends_block(&ai->in) && i + 1 < n)
			leader[i + 1] = true;
	}
	leader[0] = true;
	for (i = 0, b = 0; i < n; i++) {
		if (leader[i] && i > 0)
			b++;
		block[i] = b;
	}
	bweight = bt_xcalloc(b + 1, sizeof(double));
	for (i = 0; i < n; i++)
		bweight[block[i]] += smp[i];

	/* predecessor lists (CSR): pred_off[t] ends t's list after the prefix sum */
	for (i = 0; i < n; i++) {
		if (i + 1 < n && fall[i])
			pred_off[i + 1]++;
		if (tgt[i] >= 0)
			pred_off[tgt[i]]++;
	}
	for (i = 0; i < n; i++)
		pred_off[i + 1] += pred_off[i];
	preds = bt_xcalloc(pred_off[n] ? pred_off[n] : 1, sizeof(size_t));
	fill = bt_xcalloc(n, sizeof(size_t));
	for (i = 0; i < n; i++) {
		size_t t;
		if (i + 1 < n && fall[i]) {
			t = i + 1;
			preds[(t ? pred_off[t - 1] : 0) + fill[t]++] = i;
		}
		if (tgt[i] >= 0) {
			t = (size_t)tgt[i];
			preds[(t ? pred_off[t - 1] : 0) + fill[t]++] = i;
		}
	}
	free(fill);

	for (i = 0; i < n; i++) {
		size_t lo = i ? pred_off[i - 1] : 0, hi = pred_off[i];
		double total = 0;

		if (smp[i] == 0)
			continue;
		if (lo == hi) {	/* entry with no predecessor here: keep */
			adj[i] += smp[i];
			adjper[i] += per[i];
			continue;
		}
		for (k = lo; k < hi; k++)
			total += bweight[block[preds[k]]] + SKID_PRIOR;
		for (k = lo; k < hi; k++) {
			double share = (bweight[block[preds[k]]] + SKID_PRIOR) / total;
			adj[preds[k]] += smp[i] * share;
			adjper[preds[k]] += per[i] * share;
		}
	}
	for (i = 0; i < n; i++) {
		struct bt_ainsn *ai = &a->insns.v[i];
		ai->adjusted = adj[i];
		ai->adjusted_period = adjper[i];
		if (adj[i] >= smp[i] + 0.5)	/* credited at least half a sample */
			ai->flags |= BT_AI_SKID_TARGET;
	}
out:
	free(fall);
	free(tgt);
	free(smp);
	free(adj);
	free(per);
	free(adjper);
	free(block);
	free(pred_off);
	free(leader);
	free(preds);
	free(bweight);
}

static int
loop_cmp(const void *x, const void *y)
{
	const struct bt_loop *a = x, *b = y;

	if (a->head != b->head)
		return a->head < b->head ? -1 : 1;
	return a->tail > b->tail ? -1 : a->tail < b->tail;	/* outer first */
}

/* Loops: every backward branch closes [target, branch]; nesting by containment. */
void
bt_find_loops(struct bt_annotation *a)
{
	size_t i, j;

	for (i = 0; i < a->insns.n; i++) {
		struct bt_ainsn *ai = &a->insns.v[i];
		struct bt_loop l;

		if (ai->target_insn < 0 || (size_t)ai->target_insn > i)
			continue;
		memset(&l, 0, sizeof(l));
		l.head = (size_t)ai->target_insn;
		l.tail = i;
		ai->flags |= BT_AI_BACK_EDGE;
		a->insns.v[l.head].flags |= BT_AI_LOOP_HEAD;
		BT_VEC_PUSH(a->loops, l);
	}
	bt_qsort(a->loops.v, a->loops.n, sizeof(*a->loops.v), loop_cmp);
	for (i = 0; i < a->loops.n; i++) {
		struct bt_loop *l = &a->loops.v[i];
		for (j = 0; j < i; j++)
			if (a->loops.v[j].head <= l->head && a->loops.v[j].tail >= l->tail)
				l->depth++;
		for (j = l->head; j <= l->tail; j++) {
			l->samples += a->insns.v[j].samples;
			l->adjusted += a->insns.v[j].adjusted;
			a->insns.v[j].loop_depth++;
		}
	}
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
 * Hot regions, as perfasm: instructions with at least threshold of the
 * function's samples (raw or adjusted) start a region; it grows over
 * following hot instructions separated by at most margin cold ones.
 */
void
bt_find_regions(struct bt_annotation *a, double threshold, size_t margin)
{
	double min = threshold * (double)a->samples;
	size_t i, cold = 0;
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
	for (i = 0; i < a->regions.n; i++) {
		struct bt_region *g = &a->regions.v[i];
		size_t k;
		for (k = g->first; k <= g->last; k++) {
			g->samples += a->insns.v[k].samples;
			g->adjusted += a->insns.v[k].adjusted;
		}
	}
	bt_qsort(a->regions.v, a->regions.n, sizeof(*a->regions.v), region_cmp);
	for (i = 0; i < a->regions.n; i++) {
		size_t k;
		for (k = a->regions.v[i].first; k <= a->regions.v[i].last; k++)
			a->insns.v[k].region = (int)i;
	}
}
