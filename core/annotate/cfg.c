/*
 * The control-flow graph of one function (DESIGN.md §4): basic blocks,
 * their edges, dominators (Cooper, Harvey and Kennedy's iterative
 * algorithm over reverse postorder) and natural loops: a back edge is an
 * edge whose target dominates its source; the loop is the target and every
 * block that reaches the source without passing through it. An epilogue
 * that jumps back to shared code is a backward branch, not a back edge.
 *
 * Blocks nothing reaches from the entry (jump-table cases, code after a
 * tail call) are roots of their own, so that loops inside them are found.
 */
#include <stdlib.h>
#include <string.h>

#include "annotate/annotate.h"
#include "annotate/cfg.h"

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
 * Alignment padding: nops after an instruction that does not fall through,
 * which no branch targets. Nothing runs them; an edge from them into the
 * code after would make that code a second way into a loop.
 */
static bool
padding(const struct bt_cfg *g, const struct bt_annotation *a,
	const uint8_t *target, size_t b)
{
	size_t i;

	if (b == 0 || target[g->first[b]] ||
	    falls_through(&a->insns.v[g->last[b - 1]].in))
		return false;
	for (i = g->first[b]; i <= g->last[b]; i++)
		if (!(a->insns.v[i].in.flags & BT_INSN_F_NOP))
			return false;
	return true;
}

/* The edges: counted (fill false), then stored in the CSR lists. */
static void
edges(struct bt_cfg *g, const struct bt_annotation *a, const uint8_t *target,
      bool fill)
{
	size_t b, *cnt = fill ? bt_xcalloc(g->nb + 1, sizeof(size_t)) : NULL;

	for (b = 0; b < g->nb; b++) {
		const struct bt_ainsn *last = &a->insns.v[g->last[b]];
		size_t to[2], n = 0, k;

		if (falls_through(&last->in) && b + 1 < g->nb && !padding(g, a, target, b))
			to[n++] = b + 1;
		if (last->target_insn >= 0) {
			size_t t = g->block[last->target_insn];
			if (n == 0 || to[0] != t)
				to[n++] = t;
		}
		for (k = 0; k < n; k++) {
			if (!fill) {
				g->succ_off[b + 1]++;
				g->pred_off[to[k] + 1]++;
				continue;
			}
			g->succ[g->succ_off[b] + cnt[b]++] = to[k];
			g->pred[g->pred_off[to[k]] + g->pred_fill[to[k]]++] = b;
		}
	}
	free(cnt);
}

/* Reverse postorder from the entry, then from every block not yet reached. */
static void
order(struct bt_cfg *g)
{
	size_t *stack = bt_xmalloc((g->nb + 1) * sizeof(size_t));
	size_t *next = bt_xcalloc(g->nb, sizeof(size_t));
	uint8_t *seen = bt_xcalloc(g->nb, 1);
	size_t root, sp, n = 0, k;

	g->rpo = bt_xmalloc(g->nb * sizeof(size_t));
	g->rpo_index = bt_xmalloc(g->nb * sizeof(size_t));
	for (root = 0; root < g->nb; root++) {
		if (seen[root])
			continue;
		/* a root: the entry, or a block with no predecessor (or only unreached ones) */
		if (root != 0 && g->pred_off[root + 1] > g->pred_off[root]) {
			bool reached_pred = false;
			for (k = g->pred_off[root]; k < g->pred_off[root + 1]; k++)
				reached_pred |= seen[g->pred[k]] != 0;
			if (reached_pred)
				continue;	/* it will be reached from there */
		}
		sp = 0;
		stack[sp++] = root;
		seen[root] = 1;
		while (sp) {
			size_t b = stack[sp - 1];
			if (g->succ_off[b] + next[b] < g->succ_off[b + 1]) {
				size_t s = g->succ[g->succ_off[b] + next[b]++];
				if (!seen[s]) {
					seen[s] = 1;
					stack[sp++] = s;
				}
				continue;
			}
			g->rpo[n++] = b;	/* postorder for now */
			sp--;
		}
	}
	/* blocks in cycles no root reaches (rare): their own roots, in address order */
	for (root = 0; root < g->nb; root++)
		if (!seen[root]) {
			seen[root] = 1;
			g->rpo[n++] = root;
		}
	for (k = 0; k < n / 2; k++) {	/* postorder -> reverse postorder */
		size_t t = g->rpo[k];
		g->rpo[k] = g->rpo[n - 1 - k];
		g->rpo[n - 1 - k] = t;
	}
	for (k = 0; k < n; k++)
		g->rpo_index[g->rpo[k]] = k;
	free(stack);
	free(next);
	free(seen);
}

/*
 * Dominators over a virtual root (index nb) above every root, so that
 * blocks of different roots meet there: idom[nb] = nb.
 */
#define UNDEF SIZE_MAX

static long
rpo_of(const struct bt_cfg *g, size_t b)
{
	return b == g->nb ? -1 : (long)g->rpo_index[b];
}

static size_t
intersect(const struct bt_cfg *g, size_t a, size_t b)
{
	while (a != b) {
		while (rpo_of(g, a) > rpo_of(g, b))
			a = g->idom[a];
		while (rpo_of(g, b) > rpo_of(g, a))
			b = g->idom[b];
	}
	return a;
}

static void
dominators(struct bt_cfg *g)
{
	size_t k, i;
	bool changed = true;

	g->idom = bt_xmalloc((g->nb + 1) * sizeof(size_t));
	for (k = 0; k <= g->nb; k++)
		g->idom[k] = UNDEF;
	g->idom[g->nb] = g->nb;
	/* a root: no predecessor earlier in reverse postorder */
	for (k = 0; k < g->nb; k++) {
		size_t b = g->rpo[k];
		bool root = true;
		for (i = g->pred_off[b]; i < g->pred_off[b + 1]; i++)
			if (g->rpo_index[g->pred[i]] < k)
				root = false;
		if (root)
			g->idom[b] = g->nb;
	}
	while (changed) {
		changed = false;
		for (k = 0; k < g->nb; k++) {
			size_t b = g->rpo[k], nidom = UNDEF;
			if (g->idom[b] == g->nb)
				continue;	/* a root */
			for (i = g->pred_off[b]; i < g->pred_off[b + 1]; i++) {
				size_t p = g->pred[i];
				if (g->idom[p] == UNDEF)
					continue;
				nidom = nidom == UNDEF ? p : intersect(g, p, nidom);
			}
			if (nidom != UNDEF && g->idom[b] != nidom) {
				g->idom[b] = nidom;
				changed = true;
			}
		}
	}
}

bool
bt_cfg_dominates(const struct bt_cfg *g, size_t a, size_t b)
{
	while (b != g->nb && b != UNDEF) {
		if (a == b)
			return true;
		b = g->idom[b];
	}
	return false;
}

static int
loop_size_cmp(const void *x, const void *y, void *arg)
{
	const struct bt_cfg *g = arg;
	size_t a = *(const size_t *)x, b = *(const size_t *)y;

	if (g->loops[a].nblocks != g->loops[b].nblocks)
		return g->loops[a].nblocks > g->loops[b].nblocks ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* Natural loops, one per header (back edges to one header share a body). */
static void
loops(struct bt_cfg *g)
{
	uint8_t *in = bt_xcalloc(g->nb, 1);
	size_t *stack = bt_xmalloc((g->nb + 1) * sizeof(size_t));
	size_t h, i, k, *by_size;
	BT_VEC(size_t) body = { 0 };

	for (h = 0; h < g->nb; h++) {
		bool any = false;
		struct bt_cfg_loop L;
		size_t sp = 0;

		for (i = g->pred_off[h]; i < g->pred_off[h + 1] && !any; i++)
			any = bt_cfg_dominates(g, h, g->pred[i]);
		if (!any)
			continue;	/* no back edge: not a header (in[] stays clear) */
		memset(&L, 0, sizeof(L));
		L.header = h;
		L.latch_last = 0;
		for (i = g->pred_off[h]; i < g->pred_off[h + 1]; i++) {
			size_t p = g->pred[i];
			if (!bt_cfg_dominates(g, h, p))
				continue;
			/* p -> h is a back edge */
			if (g->last[p] > L.latch_last)
				L.latch_last = g->last[p];
			if (!in[p]) {
				in[p] = 1;
				stack[sp++] = p;
			}
		}
		in[h] = 1;
		while (sp) {	/* everything that reaches a latch without passing h */
			size_t b = stack[--sp];
			for (i = g->pred_off[b]; i < g->pred_off[b + 1]; i++) {
				size_t p = g->pred[i];
				if (!in[p] && bt_cfg_dominates(g, h, p)) {
					in[p] = 1;
					stack[sp++] = p;
				}
			}
		}
		L.body = body.n;
		for (k = 0; k < g->nb; k++)
			if (in[k])
				BT_VEC_PUSH(body, k);
		L.nblocks = body.n - L.body;
		for (k = L.body; k < body.n; k++)
			in[body.v[k]] = 0;	/* clear for the next header: its body only */
		BT_ALLOC_GROW(g->loops, g->nloops + 1, g->loops_alloc);
		g->loops[g->nloops++] = L;
	}
	g->body = body.v;
	/* nesting: the biggest loops first, so each block ends in its innermost */
	g->inner = bt_xmalloc(g->nb * sizeof(long));
	for (k = 0; k < g->nb; k++)
		g->inner[k] = -1;
	by_size = bt_xmalloc((g->nloops + 1) * sizeof(size_t));
	for (k = 0; k < g->nloops; k++)
		by_size[k] = k;
	qsort_r(by_size, g->nloops, sizeof(size_t), loop_size_cmp, g);
	for (k = 0; k < g->nloops; k++) {
		struct bt_cfg_loop *L = &g->loops[by_size[k]];
		L->parent = g->inner[L->header];
		L->depth = L->parent >= 0 ? g->loops[L->parent].depth + 1 : 0;
		for (i = L->body; i < L->body + L->nblocks; i++)
			g->inner[g->body[i]] = (long)by_size[k];
	}
	free(by_size);
	free(in);
	free(stack);
}

bool
bt_cfg_in_loop(const struct bt_cfg *g, size_t b, long loop)
{
	long l;

	for (l = g->inner[b]; l >= 0; l = g->loops[l].parent)
		if (l == loop)
			return true;
	return false;
}

struct bt_cfg *
bt_cfg_build(const struct bt_annotation *a)
{
	struct bt_cfg *g = bt_xcalloc(1, sizeof(*g));
	size_t n = a->insns.n, i, b;
	uint8_t *leader, *target;

	if (n == 0)
		return g;
	leader = bt_xcalloc(n, 1);
	target = bt_xcalloc(n, 1);
	leader[0] = 1;
	for (i = 0; i < n; i++) {
		const struct bt_ainsn *ai = &a->insns.v[i];
		if (ai->target_insn >= 0)
			leader[ai->target_insn] = target[ai->target_insn] = 1;
		if (ends_block(&ai->in) && i + 1 < n)
			leader[i + 1] = 1;
	}
	g->block = bt_xmalloc(n * sizeof(size_t));
	for (i = 0; i < n; i++)
		g->nb += leader[i];
	g->first = bt_xmalloc(g->nb * sizeof(size_t));
	g->last = bt_xmalloc(g->nb * sizeof(size_t));
	for (i = 0, b = 0; i < n; i++) {
		if (leader[i] && i > 0)
			b++;
		if (leader[i])
			g->first[b] = i;
		g->last[b] = i;
		g->block[i] = b;
	}
	free(leader);
	/* successor and predecessor lists (CSR): count, prefix sums, fill */
	g->succ_off = bt_xcalloc(g->nb + 1, sizeof(size_t));
	g->pred_off = bt_xcalloc(g->nb + 1, sizeof(size_t));
	edges(g, a, target, false);
	for (b = 0; b < g->nb; b++) {
		g->succ_off[b + 1] += g->succ_off[b];
		g->pred_off[b + 1] += g->pred_off[b];
	}
	g->succ = bt_xmalloc((g->succ_off[g->nb] + 1) * sizeof(size_t));
	g->pred = bt_xmalloc((g->pred_off[g->nb] + 1) * sizeof(size_t));
	g->pred_fill = bt_xcalloc(g->nb, sizeof(size_t));
	edges(g, a, target, true);
	free(target);
	order(g);
	dominators(g);
	loops(g);
	return g;
}

void
bt_cfg_free(struct bt_cfg *g)
{
	if (g == NULL)
		return;
	free(g->block);
	free(g->first);
	free(g->last);
	free(g->succ_off);
	free(g->succ);
	free(g->pred_off);
	free(g->pred);
	free(g->pred_fill);
	free(g->rpo);
	free(g->rpo_index);
	free(g->idom);
	free(g->loops);
	free(g->body);
	free(g->inner);
	free(g);
}
