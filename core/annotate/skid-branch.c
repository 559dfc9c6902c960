/*
 * A mispredicted branch told by its samples (docs/architecture.md, "The
 * skid model"), before the rest of skid.c's adjustment; and the retire
 * slots of Intel's fused compare and branch.
 */
#include <string.h>

#include "annotate/skid-int.h"

#define SKID_HEADS 2		/* instructions of each way on where a restart is sampled */
#define SKID_TAILS 2		/* the next ones, where its samples run on */
#define SKID_TAILS_INTEL 3	/* in slots, on Intel's cores (docs/architecture.md) */
#define SKID_MISP_MIN 20	/* samples on the heads that are evidence at all */
#define SKID_WAITS 3		/* mark: waits on a load of the way */
#define REG_FLAGS REG_BIT(63)	/* in way(): the flags, as a register */

static bool
induction(const struct bt_insn *in, const struct skid_regs *r)
{
	const char *m = in->mnemonic != NULL ? in->mnemonic : "";

	return r->reads == 0 || prefix(m, "add") || prefix(m, "sub") || prefix(m, "inc") ||
	    prefix(m, "dec") || prefix(m, "lea");
}

/* Is mnemonic m the integer operation o, with or without AT&T's size suffix? */
static bool
op(const char *m, const char *o)
{
	size_t n = strlen(o);

	return strncmp(m, o, n) == 0 && (m[n] == '\0' || (strchr("bwlq", m[n]) && m[n + 1] == '\0'));
}

/*
 * The retire slots instruction i takes, where a restart is sampled: 0 for
 * one that Intel's cores fuse with the conditional branch after it in its
 * block (a compare or test, or a flag-setting add, sub, and, inc or dec
 * with no memory operand: the two decode and retire as one, and a sample
 * never names the branch), else 1.
 */
unsigned
skid_slot(struct skid_walk *w, size_t i)
{
	const struct bt_ainsn *ai = &w->a->insns.v[i];
	const char *m = ai->in.mnemonic != NULL ? ai->in.mnemonic : "";
	bool mem = (ai->in.flags & (BT_INSN_F_MEM_READ | BT_INSN_F_MEM_WRITE)) != 0;

	if (!w->fuse || i + 1 >= w->a->insns.n || w->a->insns.v[i + 1].in.kind != BT_INSN_CJUMP ||
	    w->g->block[i + 1] != w->g->block[i] || (ai->in.flags & BT_INSN_F_MEM_WRITE))
		return 1;
	if (op(m, "cmp") || op(m, "test"))
		return 0;
	return !mem && (op(m, "add") || op(m, "sub") || op(m, "and") || op(m, "inc") ||
	    op(m, "dec")) ? 0 : 1;
}

/*
 * Does the condition of the branch that ends block b come from data: does
 * its compare read memory, or a register the loop writes other than by
 * stepping it (a load, an xorshift), rather than an induction variable or
 * a constant?
 */
static bool
data_cond(struct skid_walk *w, size_t b, const struct bt_cfg_loop *L)
{
	const struct bt_cfg *g = w->g;
	const struct bt_insn *c;
	uint64_t reads, written = 0;
	size_t k, i, pass;

	if (g->first[b] == g->last[b])
		return false;	/* no compare of its own */
	c = &w->a->insns.v[g->last[b] - 1].in;
	if ((c->flags & BT_INSN_F_MEM_READ) && !(c->flags & BT_INSN_F_RIPREL))
		return true;
	reads = skid_regs_of(w, g->last[b] - 1)->reads;
	for (pass = 0; pass < 2; pass++)
		for (k = L->body; k < L->body + L->nblocks; k++)
			for (i = g->first[g->body[k]]; i <= g->last[g->body[k]]; i++) {
				const struct bt_insn *in = &w->a->insns.v[i].in;
				const struct skid_regs *r = skid_regs_of(w, i);
				uint64_t other = r->reads & ~r->writes;

				if (pass == 0)
					written |= r->writes;
				else if ((r->writes & reads) && ((in->flags & BT_INSN_F_MEM_READ) ||
				    (other & written) || (other == 0 && !induction(in, r))))
					return true;
			}
	return false;
}

/**
 * struct skid_ways - the ways on from a branch, as skid_mispredicts() reads them
 * @mark: per instruction, 0 or what it is: 1 a head, 2 a tail (the next
 *        SKID_TAILS of its way), SKID_WAITS one that waits on a load of
 *        the way (no evidence either way)
 * @list, @nlist: the instructions marked
 * @nm, @sm: per mark, how many slots (skid_slot(): instructions but on
 *          Intel's cores) and their samples
 */
struct skid_ways {
	unsigned char *mark;
	size_t list[4 * (SKID_HEADS + SKID_TAILS_INTEL)], nlist, nm[4];
	double sm[4];
};

/*
 * Mark, with m, the instructions at positions [from, to) (in slots) of
 * the way on from block s inside loop l, the branch x (and a compare
 * fused with it) not among them nor any marked already; one that reads
 * what a load of the way wrote (a conditional branch reads the flags of a
 * compare with memory) with SKID_WAITS instead. A latch is followed back
 * into the loop.
 */
static void
way(struct skid_walk *w, const double *rem, struct skid_ways *v, size_t s, long l, size_t x,
    size_t from, size_t to, unsigned char m)
{
	const struct bt_cfg *g = w->g;
	size_t i = g->first[s], k;
	uint64_t loaded = 0;
	unsigned sl = 1;

	for (k = 0; k < to && i != x && !(i + 1 == x && skid_slot(w, i) == 0) &&
	    bt_cfg_in_loop(g, g->block[i], l); k += sl) {
		const struct bt_ainsn *ai = &w->a->insns.v[i];
		const struct skid_regs *r = skid_regs_of(w, i);
		uint64_t reads = r->reads | (ai->in.kind == BT_INSN_CJUMP ? REG_FLAGS : 0);
		bool on = ai->target_insn >= 0 && bt_cfg_in_loop(g, g->block[ai->target_insn], l);

		sl = skid_slot(w, i);
		if (k >= from && v->mark[i] == 0) {
			v->mark[i] = reads & loaded ? SKID_WAITS : m;
			v->list[v->nlist++] = i;
			v->nm[v->mark[i]] += sl;
			v->sm[v->mark[i]] += rem[i];
		}
		if (ai->in.flags & BT_INSN_F_MEM_READ)
			loaded |= r->writes | REG_FLAGS;
		else
			loaded &= ~(r->writes | REG_FLAGS);
		if (i + 1 == w->a->insns.n)
			break;
		if (ai->in.kind == BT_INSN_JUMP && on)
			i = (size_t)ai->target_insn;
		else if (ai->in.kind == BT_INSN_CJUMP && on != bt_cfg_in_loop(g, g->block[i + 1], l))
			i = on ? (size_t)ai->target_insn : i + 1;	/* a latch */
		else if (ai->in.kind != BT_INSN_OTHER)
			break;
		else
			i++;
	}
}

/*
 * Is the branch ending block b, in loop l, told mispredicted by its ways'
 * samples? Returns the share of the heads' samples it takes (0: none),
 * the instructions of the ways marked in v.
 */
static double
mispredicted(struct skid_walk *w, const double *rem, struct skid_ways *v, size_t b, long l)
{
	const struct bt_cfg *g = w->g;
	const struct bt_cfg_loop *L = &g->loops[l];
	size_t x = g->last[b], k, i;
	double rest = 0;

	for (k = g->succ_off[b]; k < g->succ_off[b + 1]; k++)
		way(w, rem, v, g->succ[k], l, x, 0, SKID_HEADS, 1);
	for (k = g->succ_off[b]; k < g->succ_off[b + 1]; k++)
		way(w, rem, v, g->succ[k], l, x, SKID_HEADS,
		    SKID_HEADS + (w->fuse ? SKID_TAILS_INTEL : SKID_TAILS), 2);
	if (v->nm[1] == 0 || v->sm[1] < SKID_MISP_MIN || !data_cond(w, b, L))
		return 0;
	/* a long wait on the heads or before the branch explains them better */
	for (i = g->first[b]; i <= x; i++)
		if (skid_class_of(w, i) == SKID_LONG)
			return 0;
	for (k = 0; k < v->nlist; k++)
		if (skid_class_of(w, v->list[k]) == SKID_LONG)
			return 0;
	v->nm[0] = 0;
	for (k = L->body; k < L->body + L->nblocks; k++)
		for (i = g->first[g->body[k]]; i <= g->last[g->body[k]]; i++)
			if (v->mark[i] == 0)
				rest += rem[i], v->nm[0] += skid_slot(w, i);
	v->sm[0] = rest;
	/* the heads' rate against the rest's, the tails among the rest */
	if (v->sm[0] + v->sm[2] == 0)
		return 1;
	return v->sm[1] * (double)(v->nm[0] + v->nm[2]) /
	    ((v->sm[0] + v->sm[2]) * (double)v->nm[1]) - 1;
}

/*
 * A mispredicted branch, told by its samples: the pipeline restarts on
 * the way the branch went, and a timer sample names the first
 * instructions of that way while they are fetched again. Where the
 * branch predicts they are cheap work whose operands are ready, sampled
 * less often than the loop's other instructions (0.4 to 0.9 times as
 * often on the predicted loops measured, docs/architecture.md); a
 * restart on every other pass has them sampled 2.3 to 4.6 times as often.
 * So a conditional branch inside a loop, both ways staying in it, whose
 * compare reads data (not an induction variable or a constant), takes
 * the samples of its heads (the first SKID_HEADS instructions of both
 * ways) when they are sampled at least twice as often per instruction as
 * the rest of the loop, and of the next SKID_TAILS of each way (where
 * the restart's samples run on to; on Intel's cores, counted in slots,
 * three) what they have beyond the rate of the
 * loop's other instructions. Between once and twice as often, it takes
 * that share of them, a guess. rem: what is left of each instruction's
 * samples (rem[n + i]: its period) for the rest of the adjustment; mark:
 * n bytes of zeros.
 */
void
skid_mispredicts(struct skid_walk *w, double *rem, unsigned char *mark)
{
	const struct bt_annotation *a = w->a;
	const struct bt_cfg *g = w->g;
	size_t n = a->insns.n, b, k, i;
	struct skid_ways v;

	for (b = 0; b < g->nb; b++) {
		size_t x = g->last[b];
		long l = g->inner[b];
		double take, f[4] = { 0, 0, 0, 0 };
		bool ok = l >= 0 && a->insns.v[x].in.kind == BT_INSN_CJUMP &&
		    g->succ_off[b + 1] - g->succ_off[b] == 2;

		for (k = g->succ_off[b]; ok && k < g->succ_off[b + 1]; k++)
			ok = bt_cfg_in_loop(g, g->succ[k], l);
		if (!ok)
			continue;
		memset(&v, 0, sizeof(v));
		v.mark = mark;
		if ((take = mispredicted(w, rem, &v, b, l)) > 0) {
			if (take < 1)
				a->insns.v[x].flags |= BT_AI_SKID_GUESS;
			f[1] = take < 1 ? take : 1;
			if (v.nm[0] > 0 && v.sm[2] > 0)
				f[2] = f[1] * (1 - v.sm[0] * (double)v.nm[2] / ((double)v.nm[0] * v.sm[2]));
			f[2] = f[2] > 0 ? f[2] : 0;
			for (k = 0; k < v.nlist; k++) {
				i = v.list[k];
				a->insns.v[x].adjusted += rem[i] * f[mark[i]];
				a->insns.v[x].adjusted_period += rem[n + i] * f[mark[i]];
				rem[i] -= rem[i] * f[mark[i]];
				rem[n + i] -= rem[n + i] * f[mark[i]];
			}
		}
		for (k = 0; k < v.nlist; k++)
			mark[v.list[k]] = 0;
	}
}
