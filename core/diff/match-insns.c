/*
 * Two annotations of one function aligned (docs/diff.md "Matching").
 *
 * Basic blocks first, as BOLT's stale-profile matching pairs them: by a
 * strict hash (opcodes with their masked operands) together with the
 * loose hashes of their neighbours, then by a longest common subsequence
 * of the calls' targets (call anchors), then by the strict hash alone,
 * the loose one (opcodes only) with neighbours, the loose one alone, and
 * last from paired neighbours (a block whose one unpaired successor or
 * predecessor faces one unpaired block on the other side). The longest
 * chain of pairs in address order on both sides is kept in place; a pair
 * off the chain is a moved block, shown where A has it.
 *
 * Then instructions: inside two paired blocks, and between two pairs of
 * the chain (the unpaired blocks there, in address order), a longest
 * common subsequence of the instructions, weighted: the same opcode with
 * the same masked operands 4, the same opcode 2, and 3 more for the same
 * source line (across compilers the line says more than the operands). What is left is inserted (only in B) or deleted (only in
 * A). A long range is first cut at instructions whose strict key is
 * unique on both sides (patience diff), so that the table stays small.
 */
#include <stdlib.h>
#include <string.h>

#include "annotate/annotate.h"
#include "annotate/cfg.h"
#include "diff/match.h"
#include "diff/match-int.h"

/* Cells of one weighted LCS table at most (a byte each). */
#define DP_MAX (8u << 20)

struct side {
	const struct bt_annotation *an;
	struct match_key *k;
	struct bt_cfg *g;
	uint64_t *loose, *strict, *neigh;	/* per block */
	long *pair;				/* per block: the other side's, -1 */
	bool *moved;				/* per block: paired off the chain */
};

struct rowvec {
	BT_VEC(struct bt_match_row) v;
};

static unsigned
weight(const struct match_key *x, const struct match_key *y)
{
	unsigned w;

	if (x->strict == y->strict)
		w = 4;
	else if (x->loose == y->loose)
		w = 2;
	else
		return 0;
	return w + 3 * (x->line != 0 && x->line == y->line);
}

static void
push(struct rowvec *out, long a, long b, unsigned flags)
{
	struct bt_match_row r = { a, b, -1, -1, flags };

	BT_VEC_PUSH(out->v, r);
}

static void
push_pair(struct rowvec *out, const struct match_key *ka,
	  const struct match_key *kb, size_t a, size_t b, unsigned flags)
{
	if (ka[a].strict == kb[b].strict)
		flags |= BT_MR_OPERANDS;
	if (ka[a].line != 0 && ka[a].line == kb[b].line)
		flags |= BT_MR_LINE;
	push(out, (long)a, (long)b, flags);
}

/* The weighted LCS of a[0..na) and b[0..nb) by table (na * nb <= DP_MAX). */
static void
align_dp(const struct match_key *ka, const size_t *a, size_t na,
	 const struct match_key *kb, const size_t *b, size_t nb,
	 unsigned flags, struct rowvec *out)
{
	size_t w = nb + 1, i, j, n0 = out->v.n;
	uint32_t *prev = bt_xcalloc(w, sizeof(uint32_t));
	uint32_t *cur = bt_xcalloc(w, sizeof(uint32_t));
	uint8_t *dir = bt_xmalloc((na + 1) * w);	/* 0 diag, 1 up, 2 left */

	for (i = 1; i <= na; i++) {
		cur[0] = 0;
		for (j = 1; j <= nb; j++) {
			unsigned c = weight(&ka[a[i - 1]], &kb[b[j - 1]]);
			uint32_t best = prev[j];
			uint8_t d = 1;

			if (cur[j - 1] > best) {
				best = cur[j - 1];
				d = 2;
			}
			if (c && prev[j - 1] + c >= best) {
				best = prev[j - 1] + c;
				d = 0;
			}
			cur[j] = best;
			dir[i * w + j] = d;
		}
		memcpy(prev, cur, w * sizeof(uint32_t));
	}
	/* back from the end, then the rows reversed */
	for (i = na, j = nb; i > 0 || j > 0;) {
		if (i > 0 && j > 0 && dir[i * w + j] == 0) {
			push_pair(out, ka, kb, a[--i], b[--j], flags);
		} else if (i > 0 && (j == 0 || dir[i * w + j] == 1)) {
			push(out, (long)a[--i], -1, flags & ~BT_MR_MOVED);
		} else {
			push(out, -1, (long)b[--j], flags & ~BT_MR_MOVED);
		}
	}
	for (i = n0, j = out->v.n; i + 1 < j; i++, j--) {
		struct bt_match_row t = out->v.v[i];
		out->v.v[i] = out->v.v[j - 1];
		out->v.v[j - 1] = t;
	}
	free(prev);
	free(cur);
	free(dir);
}

struct ukey {
	uint64_t key;
	int side;
	size_t pos;
};

static int
cmp_ukey(const void *x, const void *y)
{
	const struct ukey *p = x, *q = y;

	if (p->key != q->key)
		return p->key < q->key ? -1 : 1;
	if (p->side != q->side)
		return p->side - q->side;
	return p->pos < q->pos ? -1 : p->pos > q->pos;
}

/*
 * The longest increasing subsequence of v[0..n) (distinct values): its
 * indices into keep[] (true), in O(n log n).
 */
static void
lis(const size_t *v, size_t n, bool *keep)
{
	size_t *tail = bt_xmalloc((n + 1) * sizeof(size_t));
	long *prev = bt_xmalloc((n + 1) * sizeof(long));
	size_t len = 0, i;
	long k;

	for (i = 0; i < n; i++) {
		size_t lo = 0, hi = len;

		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (v[tail[mid]] < v[i])
				lo = mid + 1;
			else
				hi = mid;
		}
		prev[i] = lo > 0 ? (long)tail[lo - 1] : -1;
		tail[lo] = i;
		if (lo == len)
			len++;
		keep[i] = false;
	}
	for (k = len ? (long)tail[len - 1] : -1; k >= 0; k = prev[k])
		keep[k] = true;
	free(tail);
	free(prev);
}

static void align(const struct match_key *ka, const size_t *a, size_t na,
		  const struct match_key *kb, const size_t *b, size_t nb,
		  unsigned flags, struct rowvec *out);

/*
 * A range too long for one table: cut at the strict keys found once on
 * each side, the longest chain of them in order on both, and the pieces
 * between aligned on their own. No such key: in order, by position.
 */
static void
align_patience(const struct match_key *ka, const size_t *a, size_t na,
	       const struct match_key *kb, const size_t *b, size_t nb,
	       unsigned flags, struct rowvec *out)
{
	struct ukey *u = bt_xmalloc((na + nb) * sizeof(*u));
	size_t n = 0, i, j, nanc = 0, *ap, *bp, pa = 0, pb = 0;
	bool *keep;

	for (i = 0; i < na; i++)
		u[n++] = (struct ukey){ ka[a[i]].strict, 0, i };
	for (i = 0; i < nb; i++)
		u[n++] = (struct ukey){ kb[b[i]].strict, 1, i };
	bt_qsort(u, n, sizeof(*u), cmp_ukey);
	ap = bt_xmalloc((na + 1) * sizeof(size_t));
	bp = bt_xmalloc((na + 1) * sizeof(size_t));
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && u[j].key == u[i].key; j++)
			;
		if (j - i == 2 && u[i].side == 0 && u[i + 1].side == 1) {
			ap[nanc] = u[i].pos;
			bp[nanc++] = u[i + 1].pos;
		}
	}
	free(u);
	if (nanc == 0) {
		size_t m = na < nb ? na : nb;
		for (i = 0; i < m; i++)
			if (weight(&ka[a[i]], &kb[b[i]]))
				push_pair(out, ka, kb, a[i], b[i], flags);
			else {
				push(out, (long)a[i], -1, flags & ~BT_MR_MOVED);
				push(out, -1, (long)b[i], flags & ~BT_MR_MOVED);
			}
		for (; i < na; i++)
			push(out, (long)a[i], -1, flags & ~BT_MR_MOVED);
		for (; i < nb; i++)
			push(out, -1, (long)b[i], flags & ~BT_MR_MOVED);
		free(ap);
		free(bp);
		return;
	}
	/* anchors in A's order (the sort left them in key order) */
	{
		size_t *bya = bt_xmalloc(na * sizeof(size_t));
		size_t *tmp = bt_xmalloc(nanc * sizeof(size_t));

		for (i = 0; i < na; i++)
			bya[i] = SIZE_MAX;
		for (i = 0; i < nanc; i++)
			bya[ap[i]] = bp[i];
		for (i = 0, j = 0; i < na; i++)
			if (bya[i] != SIZE_MAX) {
				ap[j] = i;
				tmp[j++] = bya[i];
			}
		memcpy(bp, tmp, nanc * sizeof(size_t));
		free(tmp);
		free(bya);
	}
	keep = bt_xmalloc(nanc * sizeof(bool));
	lis(bp, nanc, keep);
	for (i = 0; i < nanc; i++) {
		if (!keep[i])
			continue;
		align(ka, a + pa, ap[i] - pa, kb, b + pb, bp[i] - pb, flags, out);
		push_pair(out, ka, kb, a[ap[i]], b[bp[i]], flags);
		pa = ap[i] + 1;
		pb = bp[i] + 1;
	}
	align(ka, a + pa, na - pa, kb, b + pb, nb - pb, flags, out);
	free(keep);
	free(ap);
	free(bp);
}

/* Align a[0..na) (indexes into ka) with b[0..nb), rows appended to out. */
static void
align(const struct match_key *ka, const size_t *a, size_t na,
      const struct match_key *kb, const size_t *b, size_t nb,
      unsigned flags, struct rowvec *out)
{
	size_t pre = 0, suf = 0, i;

	while (pre < na && pre < nb && ka[a[pre]].strict == kb[b[pre]].strict)
		pre++;
	while (suf < na - pre && suf < nb - pre &&
	       ka[a[na - 1 - suf]].strict == kb[b[nb - 1 - suf]].strict)
		suf++;
	for (i = 0; i < pre; i++)
		push_pair(out, ka, kb, a[i], b[i], flags);
	if (na - pre - suf == 0 || nb - pre - suf == 0) {
		for (i = pre; i < na - suf; i++)
			push(out, (long)a[i], -1, flags & ~BT_MR_MOVED);
		for (i = pre; i < nb - suf; i++)
			push(out, -1, (long)b[i], flags & ~BT_MR_MOVED);
	} else if ((double)(na - pre - suf) * (double)(nb - pre - suf) <= DP_MAX) {
		align_dp(ka, a + pre, na - pre - suf, kb, b + pre, nb - pre - suf,
		    flags, out);
	} else {
		align_patience(ka, a + pre, na - pre - suf, kb, b + pre,
		    nb - pre - suf, flags, out);
	}
	for (i = 0; i < suf; i++)
		push_pair(out, ka, kb, a[na - suf + i], b[nb - suf + i], flags);
}

/* Each block's hashes: its opcodes, strict and loose, and its neighbours'. */
static void
side_init(struct side *s, const struct bt_annotation *an)
{
	struct bt_cfg *g;
	size_t b, e, i;

	s->an = an;
	s->k = bt_xmalloc((an->insns.n + 1) * sizeof(*s->k));
	match_keys(an, s->k);
	g = s->g = bt_cfg_build(an);
	s->loose = bt_xcalloc(g->nb + 1, sizeof(uint64_t));
	s->strict = bt_xcalloc(g->nb + 1, sizeof(uint64_t));
	s->neigh = bt_xcalloc(g->nb + 1, sizeof(uint64_t));
	s->pair = bt_xmalloc((g->nb + 1) * sizeof(long));
	s->moved = bt_xcalloc(g->nb + 1, sizeof(bool));
	for (b = 0; b < g->nb; b++) {
		uint64_t l = 0, st = 0;

		s->pair[b] = -1;
		for (i = g->first[b]; i <= g->last[b]; i++)
			if (!s->k[i].nop) {
				l = match_mix(l, s->k[i].loose);
				st = match_mix(st, s->k[i].strict);
			}
		s->loose[b] = l;
		s->strict[b] = st;
	}
	for (b = 0; b < g->nb; b++) {
		uint64_t h = 0;

		for (e = g->pred_off[b]; e < g->pred_off[b + 1]; e++)
			h += bt_hash64(s->loose[g->pred[e]]);
		for (e = g->succ_off[b]; e < g->succ_off[b + 1]; e++)
			h += bt_hash64(s->loose[g->succ[e]] ^ 0x77);
		s->neigh[b] = h;
	}
}

static void
side_release(struct side *s)
{
	free(s->k);
	free(s->loose);
	free(s->strict);
	free(s->neigh);
	free(s->pair);
	free(s->moved);
	bt_cfg_free(s->g);
}

static void
pair_blocks(struct side *a, struct side *b, size_t x, size_t y)
{
	a->pair[x] = (long)y;
	b->pair[y] = (long)x;
}

/*
 * Pair the unpaired blocks by one key (pass: 0 strict and neighbours, 1
 * strict, 2 loose and neighbours, 3 loose). A key found once on each side
 * pairs; as often on both sides, in order; once on one side, the block
 * of the other at the nearest relative position.
 */
static void
pair_pass(struct side *sa, struct side *sb, int pass)
{
	size_t na = sa->g->nb, nb = sb->g->nb, n = 0, i, j;
	struct ukey *u = bt_xmalloc((na + nb + 1) * sizeof(*u));

	for (int s = 0; s < 2; s++) {
		struct side *sd = s ? sb : sa;
		for (i = 0; i < sd->g->nb; i++) {
			uint64_t k = pass < 2 ? sd->strict[i] : sd->loose[i];
			if (sd->pair[i] >= 0 || k == 0)
				continue;
			if (pass == 0 || pass == 2)
				k = match_mix(k, sd->neigh[i]);
			u[n++] = (struct ukey){ k, s, i };
		}
	}
	bt_qsort(u, n, sizeof(*u), cmp_ukey);
	for (i = 0; i < n; i = j) {
		size_t ca = 0, cb;

		for (j = i; j < n && u[j].key == u[i].key; j++)
			ca += u[j].side == 0;
		cb = j - i - ca;
		if (ca == 0 || cb == 0)
			continue;
		if (ca == cb) {
			for (size_t k = 0; k < ca; k++)
				pair_blocks(sa, sb, u[i + k].pos, u[i + ca + k].pos);
		} else if (ca == 1 || cb == 1) {
			/* the one, and the nearest of the many by relative place */
			size_t one = ca == 1 ? i : i + ca, from = ca == 1 ? i + 1 : i;
			size_t to = ca == 1 ? j : i + ca, best = from;
			double n1 = (double)(ca == 1 ? na : nb), n2 = (double)(ca == 1 ? nb : na);
			double at = (double)u[one].pos / n1, d = 2;

			for (size_t k = from; k < to; k++) {
				double dk = (double)u[k].pos / n2 - at;
				if (dk < 0)
					dk = -dk;
				if (dk < d) {
					d = dk;
					best = k;
				}
			}
			if (ca == 1)
				pair_blocks(sa, sb, u[one].pos, u[best].pos);
			else
				pair_blocks(sa, sb, u[best].pos, u[one].pos);
		}
	}
	free(u);
}

/* Call anchors: a longest common subsequence of the calls' targets. */
static size_t
pair_calls(struct side *sa, struct side *sb)
{
	size_t *ca = bt_xmalloc((sa->an->insns.n + 1) * sizeof(size_t));
	size_t *cb = bt_xmalloc((sb->an->insns.n + 1) * sizeof(size_t));
	size_t na = 0, nb = 0, i, paired = 0;
	struct rowvec rows = { 0 };

	for (i = 0; i < sa->an->insns.n; i++)
		if (sa->an->insns.v[i].in.kind == BT_INSN_CALL && sa->an->insns.v[i].target_name)
			ca[na++] = i;
	for (i = 0; i < sb->an->insns.n; i++)
		if (sb->an->insns.v[i].in.kind == BT_INSN_CALL && sb->an->insns.v[i].target_name)
			cb[nb++] = i;
	if (na && nb)
		align(sa->k, ca, na, sb->k, cb, nb, 0, &rows);
	for (i = 0; i < rows.v.n; i++) {
		const struct bt_match_row *r = &rows.v.v[i];
		size_t x, y;

		if (r->a < 0 || r->b < 0 || !(r->flags & BT_MR_OPERANDS))
			continue;
		x = sa->g->block[r->a];
		y = sb->g->block[r->b];
		if (sa->pair[x] < 0 && sb->pair[y] < 0) {
			pair_blocks(sa, sb, x, y);
			paired++;
		}
	}
	BT_VEC_FREE(rows.v);
	free(ca);
	free(cb);
	return paired;
}

/* Lone unpaired neighbours of paired blocks pair, until nothing changes. */
static void
pair_neighbours(struct side *sa, struct side *sb)
{
	bool changed = true;

	while (changed) {
		changed = false;
		for (size_t x = 0; x < sa->g->nb; x++) {
			long y = sa->pair[x];
			const struct bt_cfg *ga = sa->g, *gb = sb->g;

			if (y < 0)
				continue;
			for (int dir = 0; dir < 2; dir++) {
				const size_t *offa = dir ? ga->pred_off : ga->succ_off;
				const size_t *la = dir ? ga->pred : ga->succ;
				const size_t *offb = dir ? gb->pred_off : gb->succ_off;
				const size_t *lb = dir ? gb->pred : gb->succ;
				size_t ua = 0, ub = 0, xa = 0, yb = 0, e;

				for (e = offa[x]; e < offa[x + 1]; e++)
					if (sa->pair[la[e]] < 0 && sa->strict[la[e]]) {
						ua++;
						xa = la[e];
					}
				for (e = offb[y]; e < offb[y + 1]; e++)
					if (sb->pair[lb[e]] < 0 && sb->strict[lb[e]]) {
						ub++;
						yb = lb[e];
					}
				if (ua == 1 && ub == 1) {
					pair_blocks(sa, sb, xa, yb);
					changed = true;
				}
			}
		}
	}
}

static void
append_block(const struct side *s, size_t b, size_t *v, size_t *n)
{
	for (size_t i = s->g->first[b]; i <= s->g->last[b]; i++)
		v[(*n)++] = i;
}

/* Align paired blocks x and y. */
static void
emit_pair(struct side *sa, struct side *sb, size_t x, size_t y, unsigned flags,
	  size_t *ba, size_t *bb, struct rowvec *out)
{
	size_t na = 0, nb = 0;

	append_block(sa, x, ba, &na);
	append_block(sb, y, bb, &nb);
	align(sa->k, ba, na, sb->k, bb, nb, flags | BT_MR_BLOCK, out);
}

/*
 * The gap between two pairs of the chain: A's blocks (pa, xa), B's
 * (pb, xb). Their unpaired instructions aligned; a moved block of A
 * emitted with its partner where it stands.
 */
static void
emit_gap(struct side *sa, struct side *sb, long pa, size_t xa, long pb, size_t xb,
	 size_t *ba, size_t *bb, struct rowvec *out)
{
	struct rowvec gap = { 0 };
	size_t na = 0, nb = 0, r = 0, x;

	for (x = (size_t)(pa + 1); x < xa; x++)
		if (sa->pair[x] < 0)
			append_block(sa, x, ba, &na);
	for (x = (size_t)(pb + 1); x < xb; x++)
		if (sb->pair[x] < 0)
			append_block(sb, x, bb, &nb);
	if (na || nb)
		align(sa->k, ba, na, sb->k, bb, nb, 0, &gap);
	for (x = (size_t)(pa + 1); x < xa; x++) {
		if (sa->pair[x] >= 0) {
			emit_pair(sa, sb, x, (size_t)sa->pair[x], BT_MR_MOVED, ba, bb, out);
			continue;
		}
		while (r < gap.v.n && (gap.v.v[r].a < 0 ||
		    (size_t)gap.v.v[r].a <= sa->g->last[x]))
			BT_VEC_PUSH(out->v, gap.v.v[r++]);
	}
	while (r < gap.v.n)
		BT_VEC_PUSH(out->v, gap.v.v[r++]);
	BT_VEC_FREE(gap.v);
}

/* Keep the longest chain of pairs in order on both sides; the rest moved. */
static size_t
chain(struct side *sa, struct side *sb, size_t *cx, size_t *cy)
{
	size_t n = 0, i, k = 0;
	bool *keep;

	for (i = 0; i < sa->g->nb; i++)
		if (sa->pair[i] >= 0) {
			cx[n] = i;
			cy[n++] = (size_t)sa->pair[i];
		}
	keep = bt_xmalloc((n + 1) * sizeof(bool));
	lis(cy, n, keep);
	for (i = 0; i < n; i++) {
		if (keep[i]) {
			cx[k] = cx[i];
			cy[k++] = cy[i];
		} else {
			sa->moved[cx[i]] = true;
			sb->moved[cy[i]] = true;
		}
	}
	free(keep);
	return k;
}

/*
 * Reordered instructions (a scheduler's swap): a deleted row and an
 * inserted one of the same strict key at most MOVE_WINDOW rows apart,
 * in two paired blocks or of the same source line, become one row, B's
 * side marked moved.
 */
#define MOVE_WINDOW 16

static void
pair_swapped(struct rowvec *out, const struct side *sa, const struct side *sb)
{
	const struct match_key *ka = sa->k, *kb = sb->k;
	size_t i, j, n = out->v.n, w = 0;
	struct bt_match_row *v = out->v.v;
	bool *gone = bt_xcalloc(n + 1, sizeof(bool));

	for (i = 0; i < n; i++) {
		if (v[i].b >= 0 || gone[i])
			continue;
		for (j = i > MOVE_WINDOW ? i - MOVE_WINDOW : 0; j < n && j <= i + MOVE_WINDOW; j++)
			if (!gone[j] && v[j].a < 0 &&
			    ka[v[i].a].strict == kb[v[j].b].strict &&
			    ((ka[v[i].a].line && ka[v[i].a].line == kb[v[j].b].line) ||
			    sa->pair[sa->g->block[v[i].a]] == (long)sb->g->block[v[j].b])) {
				v[i].b = v[j].b;
				v[i].flags |= BT_MR_OPERANDS | BT_MR_MOVED;
				if (ka[v[i].a].line && ka[v[i].a].line == kb[v[j].b].line)
					v[i].flags |= BT_MR_LINE;
				gone[j] = true;
				break;
			}
	}
	for (i = 0; i < n; i++)
		if (!gone[i])
			v[w++] = v[i];
	out->v.n = w;
	free(gone);
}

void
bt_match_insns(const struct bt_annotation *a, const struct bt_annotation *b,
	       struct bt_insn_match *m)
{
	struct side sa, sb;
	struct rowvec out = { 0 };
	size_t *cx, *cy, nc, k, *ba, *bb;
	long pa = -1, pb = -1;

	memset(m, 0, sizeof(*m));
	side_init(&sa, a);
	side_init(&sb, b);
	pair_pass(&sa, &sb, 0);
	m->blocks_by_call = pair_calls(&sa, &sb);
	for (int pass = 1; pass < 4; pass++)
		pair_pass(&sa, &sb, pass);
	pair_neighbours(&sa, &sb);
	cx = bt_xmalloc((sa.g->nb + 1) * sizeof(size_t));
	cy = bt_xmalloc((sa.g->nb + 1) * sizeof(size_t));
	ba = bt_xmalloc((a->insns.n + 1) * sizeof(size_t));
	bb = bt_xmalloc((b->insns.n + 1) * sizeof(size_t));
	nc = chain(&sa, &sb, cx, cy);
	for (k = 0; k <= nc; k++) {
		size_t xa = k < nc ? cx[k] : sa.g->nb, xb = k < nc ? cy[k] : sb.g->nb;

		emit_gap(&sa, &sb, pa, xa, pb, xb, ba, bb, &out);
		if (k < nc)
			emit_pair(&sa, &sb, xa, xb, 0, ba, bb, &out);
		pa = (long)xa;
		pb = (long)xb;
	}
	pair_swapped(&out, &sa, &sb);
	m->nblocks_a = sa.g->nb;
	m->nblocks_b = sb.g->nb;
	m->block_b = bt_xmalloc((sa.g->nb + 1) * sizeof(long));
	for (k = 0; k < sa.g->nb; k++) {
		m->block_b[k] = sa.pair[k];
		m->blocks_paired += sa.pair[k] >= 0;
	}
	for (k = 0; k < out.v.n; k++) {
		struct bt_match_row *r = &out.v.v[k];

		r->block_a = r->a >= 0 ? (long)sa.g->block[r->a] : -1;
		r->block_b = r->b >= 0 ? (long)sb.g->block[r->b] : -1;
		if (r->a >= 0 && r->b >= 0)
			m->matched++;
		else if (r->a >= 0)
			m->deleted++;
		else
			m->inserted++;
	}
	m->rows.v = out.v.v;
	m->rows.n = out.v.n;
	m->rows.alloc = out.v.alloc;
	free(cx);
	free(cy);
	free(ba);
	free(bb);
	side_release(&sa);
	side_release(&sb);
}

void
bt_insn_match_release(struct bt_insn_match *m)
{
	BT_VEC_FREE(m->rows);
	free(m->block_b);
	m->block_b = NULL;
}
