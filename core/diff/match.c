/*
 * Functions paired across two builds (docs/diff.md "Matching"): by name
 * first (the demangled name, the short form, the name without the
 * compiler's clone suffixes), then by a control-flow hash for the rest;
 * and the instruction keys both this and the alignment (match-insns.c)
 * compare.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "annotate/annotate.h"
#include "annotate/cfg.h"
#include "diff/match.h"
#include "diff/match-int.h"
#include "session/query.h"
#include "symbols/symbols.h"

uint64_t
match_mix(uint64_t h, uint64_t x)
{
	return bt_hash64(h * 0x9e3779b97f4a7c15ULL + x + 1);
}

/* FNV-1a of s[0..len) */
static uint64_t
hash_mem(uint64_t h, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
	return h;
}

#define FNV0 0xcbf29ce484222325ULL

/*
 * The operands with registers and numbers masked: "%rax" and "eax" are
 * "r", "0x10" and "-8" are "N"; punctuation and upper-case keywords
 * ("DWORD PTR") stay.
 */
static uint64_t
hash_masked(uint64_t h, const char *s)
{
	while (*s) {
		unsigned char c = (unsigned char)*s;

		if (c == '%' || isalpha(c) || c == '_') {
			const char *w = s + (c == '%');
			bool upper = true;

			for (s = w; isalnum((unsigned char)*s) || *s == '_'; s++)
				if (!isupper((unsigned char)*s))
					upper = false;
			h = upper && s > w ? hash_mem(h, w, (size_t)(s - w)) :
			    hash_mem(h, "r", 1);
		} else if (isdigit(c)) {
			while (isalnum((unsigned char)*s))
				s++;
			h = hash_mem(h, "N", 1);
		} else {
			h = hash_mem(h, s, 1);
			s++;
		}
	}
	return h;
}

/* "sym+0x10" -> the length of "sym" */
static size_t
sym_len(const char *name)
{
	const char *plus = strstr(name, "+0x");

	return plus ? (size_t)(plus - name) : strlen(name);
}

static uint64_t
line_key(const struct bt_ainsn *ai)
{
	const char *base;

	if (ai->file == NULL || ai->line == 0)
		return 0;
	base = strrchr(ai->file, '/');
	base = base ? base + 1 : ai->file;
	return match_mix(hash_mem(FNV0, base, strlen(base)), ai->line) | 1;
}

void
match_keys(const struct bt_annotation *a, struct match_key *keys)
{
	size_t i;

	for (i = 0; i < a->insns.n; i++) {
		const struct bt_ainsn *ai = &a->insns.v[i];
		const char *mn = ai->in.mnemonic ? ai->in.mnemonic : "";
		const char *ops = ai->in.text ? strstr(ai->in.text, mn) : NULL;
		struct match_key *k = &keys[i];
		uint64_t h;

		k->nop = (ai->in.flags & BT_INSN_F_NOP) != 0;
		k->loose = k->nop ? hash_mem(FNV0, "nop", 3) :
		    hash_mem(FNV0, mn, strlen(mn));
		h = k->loose;
		if (k->nop)
			;
		else if (ai->in.kind == BT_INSN_CALL && ai->target_name)
			h = hash_mem(h ^ 1, ai->target_name, sym_len(ai->target_name));
		else if (ai->target_insn >= 0 || ai->in.kind == BT_INSN_JUMP ||
			 ai->in.kind == BT_INSN_CJUMP)
			h = hash_mem(h, "T", 1);
		else if (ops) {
			h = hash_masked(h, ops + strlen(mn));
			if (ai->mem_name)
				h = hash_mem(h ^ 2, ai->mem_name, sym_len(ai->mem_name));
		}
		k->strict = h;
		k->line = line_key(ai);
	}
}

uint64_t
bt_match_cfg_hash(const struct bt_annotation *a)
{
	struct bt_cfg *g;
	struct match_key *k;
	uint64_t *bh, sum = 0;
	size_t b, e;

	if (a == NULL || a->insns.n == 0)
		return 0;
	k = bt_xmalloc(a->insns.n * sizeof(*k));
	match_keys(a, k);
	g = bt_cfg_build(a);
	bh = bt_xcalloc(g->nb, sizeof(*bh));
	for (b = 0; b < g->nb; b++) {
		uint64_t h = FNV0;
		size_t i;

		for (i = g->first[b]; i <= g->last[b]; i++)
			if (!k[i].nop)
				h = match_mix(h, k[i].strict);
		bh[b] = h;
	}
	/* blocks and edges as multisets: the blocks' order does not count */
	for (b = 0; b < g->nb; b++) {
		sum += bt_hash64(bh[b]);
		for (e = g->succ_off[b]; e < g->succ_off[b + 1]; e++)
			sum += bt_hash64(match_mix(bh[b], bh[g->succ[e]]) ^ 0x5bd1e995);
	}
	sum = match_mix(sum, g->nb) | 1;
	free(bh);
	bt_cfg_free(g);
	free(k);
	return sum;
}

const char *
bt_match_how_name(enum bt_match_how how)
{
	static const char *const names[] = {
		[BT_MATCH_NONE] = "none", [BT_MATCH_NAME] = "name",
		[BT_MATCH_SHORT] = "short-name", [BT_MATCH_BASE] = "base-name",
		[BT_MATCH_CFG] = "cfg-hash",
	};
	return (size_t)how < sizeof(names) / sizeof(names[0]) ? names[how] : "?";
}

/* Is s[0..n) a clone suffix GCC or LLVM adds (".constprop.0", ".cold")? */
static bool
clone_suffix(const char *s, size_t n)
{
	static const char *const kinds[] = {
		".constprop", ".isra", ".part", ".cold", ".lto_priv", ".llvm",
		".clone", ".specialized", ".localalias", ".hot",
	};
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		size_t l = strlen(kinds[i]), j;

		if (n < l || memcmp(s, kinds[i], l) != 0)
			continue;
		for (j = l; j < n; j++)
			if (s[j] != '.' && !isdigit((unsigned char)s[j]))
				break;
		if (j == n)
			return true;
	}
	return false;
}

/*
 * The hash of name without clone suffixes, with lambdas' "#N" as "#",
 * and without the load time that tells apart JIT code of one name loaded
 * more than once (" (loaded at 5.071 s)": another run loads it at
 * another time).
 */
static uint64_t
base_key(const char *name)
{
	size_t n = strlen(name), i;
	const char *lt = strstr(name, " (loaded ");
	uint64_t h = FNV0;

	if (lt != NULL && n > 0 && name[n - 1] == ')')
		n = (size_t)(lt - name);

	/* drop ".kind[.N]" suffixes from the end */
	for (;;) {
		size_t cut = n;
		for (i = n; i-- > 0;)
			if (name[i] == '.' && i + 1 < n && isalpha((unsigned char)name[i + 1])) {
				cut = i;
				break;
			}
		if (cut == n || !clone_suffix(name + cut, n - cut))
			break;
		n = cut;
	}
	for (i = 0; i < n; i++) {
		h = hash_mem(h, name + i, 1);
		if (name[i] == '#')
			while (i + 1 < n && isdigit((unsigned char)name[i + 1]))
				i++;
	}
	return h;
}

struct fkey {
	uint64_t key;
	int side;
	size_t i;
};

static int
cmp_fkey(const void *x, const void *y)
{
	const struct fkey *p = x, *q = y;

	if (p->key != q->key)
		return p->key < q->key ? -1 : 1;
	if (p->side != q->side)
		return p->side - q->side;
	return p->i < q->i ? -1 : p->i > q->i;
}

struct fmatch {
	long *pa, *pb;
	enum bt_match_how *how_a;
	bt_match_hash_fn hash;
	void *arg;
	uint64_t *ha, *hb;	/* control-flow hashes, asked once (0: not yet) */
};

static uint64_t
cfg_of(struct fmatch *m, int side, size_t i)
{
	uint64_t *h = side ? m->hb : m->ha;

	if (h[i] == 0)
		h[i] = m->hash ? (m->hash(side, i, m->arg) | 2) : 2;
	return h[i];
}

static void
pair(struct fmatch *m, size_t a, size_t b, enum bt_match_how how)
{
	m->pa[a] = (long)b;
	m->pb[b] = (long)a;
	m->how_a[a] = how;
}

/*
 * One group of equal keys: na of A's (g[0..na)), nb of B's after them.
 * With several on a side, equal control-flow hashes first, then in order.
 */
static void
pair_group(struct fmatch *m, const struct fkey *g, size_t na, size_t nb,
	   enum bt_match_how how)
{
	size_t i, j;

	if ((na > 1 || nb > 1) && m->hash)
		for (i = 0; i < na; i++)
			for (j = 0; j < nb; j++)
				if (m->pb[g[na + j].i] < 0 && m->pa[g[i].i] < 0 &&
				    cfg_of(m, 0, g[i].i) == cfg_of(m, 1, g[na + j].i))
					pair(m, g[i].i, g[na + j].i, how);
	for (i = 0, j = 0; i < na && j < nb;) {
		if (m->pa[g[i].i] >= 0)
			i++;
		else if (m->pb[g[na + j].i] >= 0)
			j++;
		else
			pair(m, g[i++].i, g[na + j++].i, how);
	}
}

/* Pair the unpaired functions whose keys agree (key 0: no key). */
static void
pair_by(struct fmatch *m, const char *const *a, size_t na,
	const char *const *b, size_t nb, int stage)
{
	struct fkey *v = bt_xmalloc((na + nb + 1) * sizeof(*v));
	size_t n = 0, i, j;
	enum bt_match_how how = stage == 0 ? BT_MATCH_NAME : stage == 1 ?
	    BT_MATCH_SHORT : stage == 2 ? BT_MATCH_BASE : BT_MATCH_CFG;

	for (int side = 0; side < 2; side++) {
		const char *const *names = side ? b : a;
		size_t cnt = side ? nb : na;
		long *paired = side ? m->pb : m->pa;

		for (i = 0; i < cnt; i++) {
			char buf[1024];
			uint64_t k;

			if (paired[i] >= 0)
				continue;
			if (stage == 0)
				k = hash_mem(FNV0, names[i], strlen(names[i]));
			else if (stage == 1) {
				bt_name_short(names[i], true, buf, sizeof(buf));
				k = hash_mem(FNV0, buf, strlen(buf));
			} else if (stage == 2)
				k = base_key(bt_name_short(names[i], true, buf, sizeof(buf)));
			else
				k = cfg_of(m, side, i) == 2 ? 0 : cfg_of(m, side, i);
			if (k != 0)
				v[n++] = (struct fkey){ k, side, i };
		}
	}
	bt_qsort(v, n, sizeof(*v), cmp_fkey);
	for (i = 0; i < n; i = j) {
		size_t nA = 0;

		for (j = i; j < n && v[j].key == v[i].key; j++)
			nA += v[j].side == 0;
		if (nA > 0 && j - i > nA)
			pair_group(m, v + i, nA, j - i - nA, how);
	}
	free(v);
}

size_t
bt_match_funcs(const char *const *a, size_t na, const char *const *b,
	       size_t nb, bt_match_hash_fn hash, void *arg,
	       struct bt_func_pair **out)
{
	struct fmatch m = { 0 };
	struct bt_func_pair *rows = bt_xmalloc((na + nb + 1) * sizeof(*rows));
	size_t n = 0, i;
	int stage;

	m.pa = bt_xmalloc((na + 1) * sizeof(long));
	m.pb = bt_xmalloc((nb + 1) * sizeof(long));
	m.how_a = bt_xcalloc(na + 1, sizeof(*m.how_a));
	m.ha = bt_xcalloc(na + 1, sizeof(uint64_t));
	m.hb = bt_xcalloc(nb + 1, sizeof(uint64_t));
	m.hash = hash;
	m.arg = arg;
	for (i = 0; i < na; i++)
		m.pa[i] = -1;
	for (i = 0; i < nb; i++)
		m.pb[i] = -1;
	for (stage = 0; stage < (hash ? 4 : 3); stage++)
		pair_by(&m, a, na, b, nb, stage);
	for (i = 0; i < na; i++)
		rows[n++] = (struct bt_func_pair){ (long)i, m.pa[i], m.how_a[i] };
	for (i = 0; i < nb; i++)
		if (m.pb[i] < 0)
			rows[n++] = (struct bt_func_pair){ -1, (long)i, BT_MATCH_NONE };
	free(m.pa);
	free(m.pb);
	free(m.how_a);
	free(m.ha);
	free(m.hb);
	*out = rows;
	return n;
}

static uint64_t
selection_hash(int side, size_t i, void *arg)
{
	struct bt_selection **sel = arg;

	return bt_match_cfg_hash(bt_selection_code(sel[side], i));
}

size_t
bt_match_selection_funcs(struct bt_selection *sa, struct bt_selection *sb,
			 struct bt_func_pair **out)
{
	struct bt_selection *sel[2] = { sa, sb };
	size_t na = bt_selection_nfuncs(sa), nb = bt_selection_nfuncs(sb), i, n;
	const char **a = bt_xmalloc((na + 1) * sizeof(*a));
	const char **b = bt_xmalloc((nb + 1) * sizeof(*b));

	for (i = 0; i < na; i++)
		a[i] = bt_selection_func(sa, i)->name;
	for (i = 0; i < nb; i++)
		b[i] = bt_selection_func(sb, i)->name;
	n = bt_match_funcs(a, na, b, nb, selection_hash, sel, out);
	free(a);
	free(b);
	return n;
}
