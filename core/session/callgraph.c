/*
 * Callers, callees and inclusive samples of the selection (DESIGN.md §6),
 * from the profile's interned chains (core/profile/chains.h): each
 * distinct location is named once (its function in the table, added with
 * no self samples if it had none), then each distinct chain, with its
 * count, adds to the inclusive total of every function it passes through,
 * to the caller of each function's innermost frame and to each caller and
 * callee pair, all once per chain however deep a recursion goes
 * (chain_add; no edge across a gap in the chain, where frames may be
 * missing). The work grows with the distinct chains, not the samples.
 */
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "profile/chains.h"
#include "session/session-int.h"
#include "symbols/symbols.h"

/* a chain's frames: the kernel's one, a gap mark, the user part (chains.c) */
#define CHAIN_MAX 256

void
bt_callgraph_release(struct bt_cgraph *cg)
{
	BT_VEC_FREE(cg->counts);
	free(cg->locfunc);
	free(cg->locinl);
	BT_VEC_FREE(cg->inl);
	free(cg->callers);
	free(cg->callees);
	free(cg->caller_start);
	free(cg->callee_start);
	free(cg->entries);
	free(cg->entry_start);
	memset(cg, 0, sizeof(*cg));
	cg->kfunc = -1;
}

struct fidx {
	uint32_t module;
	uint64_t start, end;
	size_t func;
};

/*
 * The table's functions by address, and those added for chains (no self
 * samples) by (module, start).
 */
struct finder {
	struct fidx *v;
	size_t n;
	BT_VEC(struct fidx) added;
	struct bt_hash hash;	/* of added */
};

static uint64_t
added_hash(uint32_t module, uint64_t start)
{
	return bt_hash64(start ^ ((uint64_t)module << 48));
}

static int
fidx_cmp(const void *a, const void *b)
{
	const struct fidx *x = a, *y = b;

	if (x->module != y->module)
		return x->module < y->module ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

static void
finder_init(struct bt_selection *sel, struct finder *fd)
{
	size_t i;

	memset(fd, 0, sizeof(*fd));
	bt_hash_init(&fd->hash, 64);
	fd->v = bt_xcalloc(sel->funcs.n + 1, sizeof(*fd->v));
	for (i = 0; i < sel->funcs.n; i++) {
		const struct bt_sfunc *f = &sel->funcs.v[i];
		if (f->pub.end <= f->pub.start)
			continue;
		fd->v[fd->n].module = f->pub.mod;
		fd->v[fd->n].start = f->pub.start;
		fd->v[fd->n].end = f->pub.end;
		fd->v[fd->n].func = i;
		fd->n++;
	}
	bt_qsort(fd->v, fd->n, sizeof(*fd->v), fidx_cmp);
}

/*
 * The function of location l: the table's, else one added with no samples
 * (its source line is not looked up here: that would load a library's
 * DWARF for a frame like __libc_start_call_main; exports look it up).
 */
/* The table's function holding addr in module mi, -1 none. */
static long
finder_find(const struct finder *fd, uint32_t mi, uint64_t addr)
{
	size_t lo = 0, hi = fd->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct fidx *x = &fd->v[mid];
		if (x->module < mi || (x->module == mi && x->end <= addr))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < fd->n && fd->v[lo].module == mi && addr >= fd->v[lo].start &&
	    addr < fd->v[lo].end)
		return (long)fd->v[lo].func;
	return -1;
}

/* A function of module mi found outside the table, added once with no samples. */
static long
add_found(struct bt_selection *sel, struct finder *fd, uint32_t mi, const char *name,
	  uint64_t start, uint64_t end, enum bt_func_kind kind)
{
	struct bt_hash_pos pos;
	struct fidx x;
	uint32_t k;

	for (k = bt_hash_first(&fd->hash, added_hash(mi, start), &pos); k != BT_HASH_NONE;
	    k = bt_hash_next(&fd->hash, &pos))
		if (fd->added.v[k].module == mi && fd->added.v[k].start == start)
			return (long)fd->added.v[k].func;
	x.module = mi;
	x.start = start;
	x.end = end;
	x.func = bt_functab_add(sel, mi, name, start, end, kind);
	BT_VEC_PUSH(fd->added, x);
	bt_hash_add(&fd->hash, &pos, (uint32_t)fd->added.n - 1);
	return (long)x.func;
}

/*
 * The function of location l: the table's, else one added with no samples
 * (its source line is not looked up here: that would load a library's
 * DWARF for a frame like __libc_start_call_main; exports look it up).
 * Kernel addresses are named from kallsyms when the session can
 * (kernel.c), else they are the one [kernel] function.
 */
static long
loc_func(struct bt_selection *sel, struct finder *fd, const struct bt_loc *l)
{
	const struct bt_module *m = &sel->s->p->modules.v[l->module];
	struct bt_func_sym fs;
	struct bt_msyms *ms;
	uint64_t addr = l->off, start, end;
	const char *kname;
	size_t i;
	long fi;

	if (m->kind == BT_MOD_KERNEL) {
		if ((fi = finder_find(fd, l->module, addr)) >= 0)
			return fi;
		if (bt_session_kernel_func(sel->s, addr, &kname, &start, &end))
			return add_found(sel, fd, l->module, kname, start, end, BT_FK_KERNEL);
		if (sel->cg.kfunc < 0)
			for (i = 0; i < sel->funcs.n; i++)
				if (sel->funcs.v[i].pub.kind == BT_FK_KERNEL &&
				    sel->funcs.v[i].pub.end <= sel->funcs.v[i].pub.start)
					sel->cg.kfunc = (long)i;
		if (sel->cg.kfunc < 0)
			sel->cg.kfunc = (long)bt_functab_add(sel, l->module, "[kernel]",
			    0, 0, BT_FK_KERNEL);
		return sel->cg.kfunc;
	}
	if (m->kind == BT_MOD_UNKNOWN)
		return -1;
	ms = bt_session_syms(sel->s, l->module);
	if (ms != NULL && bt_msyms_off_to_addr(ms, l->off, &addr) < 0)
		addr = l->off;
	if ((fi = finder_find(fd, l->module, addr)) >= 0)
		return fi;
	if (ms == NULL || bt_msyms_func(ms, addr, &fs) < 0)
		return -1;
	return add_found(sel, fd, l->module, fs.name, fs.start, fs.end,
	    fs.src == BT_FUNC_FDE ? BT_FK_STRIPPED : BT_FK_SYMBOL);
}

struct inl_name {
	uint32_t module;
	const char *name;
	long func;
};

struct inl_names {
	struct inl_name *v;
	size_t n, alloc;
};

/*
 * The functions inlined at location l of function fi (inline frames are
 * frames: DESIGN.md §6), innermost first, as a run in cg->inl; each
 * inlined function is one BT_FK_INLINE entry of the table per module.
 */
static void
loc_inlines(struct bt_selection *sel, uint32_t id, const struct bt_loc *l, long fi,
	    struct inl_names *names)
{
	struct bt_cgraph *cg = &sel->cg;
	struct bt_inline chain[32];
	struct bt_msyms *ms;
	uint64_t addr = l->off;
	size_t n, k, j;
	const struct bt_sfunc *f = &sel->funcs.v[fi];

	if (f->pub.kind != BT_FK_SYMBOL || (ms = bt_session_syms(sel->s, l->module)) == NULL ||
	    !sel->s->mods[l->module].dwarf_checked || sel->s->mods[l->module].no_dwarf)
		return;
	if (bt_msyms_off_to_addr(ms, l->off, &addr) < 0)
		return;
	n = bt_msyms_inlines(ms, addr, chain, BT_ARRAY_SIZE(chain));
	if (n == 0)
		return;
	cg->locinl[id] = (uint32_t)cg->inl.n + 1;
	BT_VEC_PUSH(cg->inl, (long)n);
	for (k = n; k-- > 0;) {
		long g = -1;

		for (j = 0; j < names->n; j++)
			if (names->v[j].module == l->module &&
			    strcmp(names->v[j].name, chain[k].name) == 0)
				g = names->v[j].func;
		if (g < 0) {
			struct inl_name x;

			g = (long)bt_functab_add(sel, l->module, chain[k].name, 0, 0,
			    BT_FK_INLINE);
			x.module = l->module;
			x.name = sel->funcs.v[g].pub.name;
			x.func = g;
			BT_VEC_PUSH(*names, x);
		}
		BT_VEC_PUSH(cg->inl, g);
	}
}

/* Name every location of the selected chains (once per selection). */
static void
map_locs(struct bt_selection *sel)
{
	struct bt_cgraph *cg = &sel->cg;
	struct inl_names names = { 0 };
	struct finder fd;
	size_t i, k;

	free(cg->locfunc);
	free(cg->locinl);
	cg->inl.n = 0;
	cg->nlocs = bt_chains_nlocs(sel->s->p);
	cg->locfunc = bt_xcalloc(cg->nlocs + 1, sizeof(long));
	cg->locinl = bt_xcalloc(cg->nlocs + 1, sizeof(uint32_t));
	for (i = 0; i < cg->nlocs; i++)
		cg->locfunc[i] = -2;
	cg->kfunc = -1;
	finder_init(sel, &fd);
	for (i = 0; i < cg->counts.n; i++) {
		const uint32_t *locs;
		size_t n = bt_chains_get(sel->s->p, (uint32_t)cg->counts.v[i].off, &locs);
		for (k = 0; k < n; k++) {
			const struct bt_loc *l;

			if (locs[k] == BT_LOC_GAP || cg->locfunc[locs[k]] != -2)
				continue;
			l = bt_chains_loc(sel->s->p, locs[k]);
			cg->locfunc[locs[k]] = loc_func(sel, &fd, l);
			if (cg->locfunc[locs[k]] >= 0)
				loc_inlines(sel, locs[k], l, cg->locfunc[locs[k]], &names);
		}
	}
	BT_VEC_FREE(names);
	free(fd.v);
	BT_VEC_FREE(fd.added);
	bt_hash_release(&fd.hash);
}

/*
 * A chain as functions, leaf first: f[i], and gap[i] true when frames may
 * be missing between f[i - 1] and f[i]. Returns how many. A function
 * twice in a row is recursion, but for an LBR call stack's second
 * location (the last call's target) in the leaf's function: the leaf's
 * own frame again (chains.h).
 */
static size_t
chain_funcs(const struct bt_selection *sel, uint32_t id, long *f, bool *gap)
{
	const uint32_t *locs;
	size_t n = bt_chains_get(sel->s->p, id, &locs), k, m = 0;
	bool g = false, lbr = bt_chains_lbr(sel->s->p, id);

	for (k = 0; k < n; k++) {
		long fi = locs[k] == BT_LOC_GAP ? -1 : sel->cg.locfunc[locs[k]];
		uint32_t inl = fi >= 0 ? sel->cg.locinl[locs[k]] : 0;

		if (k == 1 && lbr && m > 0 && fi == f[m - 1] && inl == 0)
			continue;
		if (fi < 0) {
			g = true;	/* unknown frame: nothing is known across it */
			continue;
		}
		if (inl != 0) {	/* the inlined functions, innermost first */
			const long *run = sel->cg.inl.v + inl - 1;
			long j;

			for (j = 1; j <= run[0] && m + 1 < CHAIN_MAX; j++) {
				f[m] = run[j];
				gap[m] = g && m > 0;
				g = false;
				m++;
			}
		}
		if (m >= CHAIN_MAX)
			break;
		f[m] = fi;
		gap[m] = g && m > 0;
		g = false;
		m++;
	}
	return m;
}

static int
leaf_cmp(const void *a, const void *b)
{
	const struct bt_hist_entry *x = a, *y = b;

	if (x->module != y->module)
		return x->module < y->module ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

size_t
bt_callgraph_focus(struct bt_selection *sel, bt_frame_match_fn match, void *arg,
		   bool exclude, struct bt_hist_entry **leaves)
{
	struct bt_cgraph *cg = &sel->cg;
	signed char *verdict;
	long f[CHAIN_MAX];
	bool gap[CHAIN_MAX];
	BT_VEC(struct bt_hist_entry) out = { 0 };
	size_t i, k, n, keep = 0, nf;

	map_locs(sel);
	nf = sel->funcs.n;
	verdict = bt_xcalloc(nf + 1, 1);
	for (i = 0; i < cg->counts.n; i++) {
		uint32_t id = (uint32_t)cg->counts.v[i].off;
		const uint32_t *locs;
		bool in = false;

		n = chain_funcs(sel, id, f, gap);
		for (k = 0; k < n && !in; k++) {
			size_t fi = (size_t)f[k];
			if (fi >= nf)
				continue;
			if (verdict[fi] == 0)
				verdict[fi] = match(&sel->funcs.v[fi].pub, arg) ? 1 : -1;
			in = verdict[fi] > 0;
		}
		if (in != exclude)
			cg->counts.v[keep++] = cg->counts.v[i];
		if (in != exclude && exclude)
			continue;	/* kept: its leaf is among the hits already */
		if (in == exclude && !exclude)
			continue;
		bt_chains_get(sel->s->p, id, &locs);
		{
			const struct bt_loc *l = bt_chains_loc(sel->s->p, locs[0]);
			struct bt_hist_entry e = cg->counts.v[i];
			e.module = l->module;
			e.off = l->off;
			BT_VEC_PUSH(out, e);
		}
	}
	cg->counts.n = keep;
	free(verdict);
	/* merge equal leaves */
	bt_qsort(out.v, out.n, sizeof(*out.v), leaf_cmp);
	for (i = 0, k = 0; i < out.n; i++) {
		if (k > 0 && leaf_cmp(&out.v[k - 1], &out.v[i]) == 0) {
			out.v[k - 1].samples += out.v[i].samples;
			out.v[k - 1].period += out.v[i].period;
		} else
			out.v[k++] = out.v[i];
	}
	*leaves = out.v;
	return k;
}

struct edge {
	uint32_t caller, callee;
	uint32_t chain;		/* the last chain that added to it (+1) */
	uint64_t samples;
};

struct edges {
	BT_VEC(struct edge) v;
	struct bt_hash hash;
};

static void
edge_add(struct edges *e, uint32_t caller, uint32_t callee, uint64_t samples,
	 uint32_t chain)
{
	struct bt_hash_pos pos;
	struct edge x;
	uint32_t i;

	for (i = bt_hash_first(&e->hash, bt_hash64((uint64_t)caller << 32 | callee), &pos);
	    i != BT_HASH_NONE; i = bt_hash_next(&e->hash, &pos))
		if (e->v.v[i].caller == caller && e->v.v[i].callee == callee) {
			if (e->v.v[i].chain != chain)	/* once per chain */
				e->v.v[i].samples += samples;
			e->v.v[i].chain = chain;
			return;
		}
	x.caller = caller;
	x.callee = callee;
	x.chain = chain;
	x.samples = samples;
	BT_VEC_PUSH(e->v, x);
	bt_hash_add(&e->hash, &pos, (uint32_t)e->v.n - 1);
}

static int
fedge_cmp(const void *a, const void *b)
{
	const struct bt_func_edge *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return x->func < y->func ? -1 : x->func > y->func;
}

/* Group the edges by one end into lists sorted hottest first. */
static void
group_edges(struct bt_selection *sel, const struct edges *e, bool by_callee,
	    struct bt_func_edge **list, size_t **start)
{
	size_t nf = sel->cg.nfuncs, i;
	size_t *st = bt_xcalloc(nf + 2, sizeof(size_t));
	struct bt_func_edge *l = bt_xcalloc(e->v.n + 1, sizeof(*l));
	size_t *fill;

	for (i = 0; i < e->v.n; i++)
		st[(by_callee ? e->v.v[i].callee : e->v.v[i].caller) + 1]++;
	for (i = 0; i < nf; i++)
		st[i + 1] += st[i];
	fill = bt_xcalloc(nf + 1, sizeof(size_t));
	for (i = 0; i < e->v.n; i++) {
		uint32_t key = by_callee ? e->v.v[i].callee : e->v.v[i].caller;
		uint32_t other = by_callee ? e->v.v[i].caller : e->v.v[i].callee;
		uint64_t incl = sel->funcs.v[key].pub.inclusive;
		struct bt_func_edge *x = &l[st[key] + fill[key]++];

		x->func = other;
		x->samples = e->v.v[i].samples;
		x->percent = incl ? 100.0 * (double)x->samples / (double)incl : 0;
	}
	for (i = 0; i < nf; i++)
		bt_qsort(l + st[i], st[i + 1] - st[i], sizeof(*l), fedge_cmp);
	free(fill);
	*list = l;
	*start = st;
}

/*
 * Chain i (functions f[0..n), leaf first) into the inclusive totals and
 * the edges, each once per chain however deep the recursion: a function
 * counts once, for the caller of its innermost frame (the call that made
 * the frame the sample is under: perf report --children -g callee's first
 * level; fib's caller is fib) in up, and for the caller of its outermost
 * frame (who entered the recursion: main for fib) in entry; each pair of
 * caller and callee once in down (fib -> fib, and build -> malloc below
 * a recursive build). stamp[] holds 2i + 1 for a function seen innermost,
 * 2i + 2 outermost.
 */
static void
chain_add(struct bt_selection *sel, size_t i, const long *f, const bool *gap, size_t n,
	  uint32_t *stamp, struct edges *up, struct edges *down, struct edges *entry)
{
	uint64_t c = sel->cg.counts.v[i].samples;
	uint32_t in = (uint32_t)(2 * i + 1), out = in + 1;
	size_t k;

	for (k = 0; k < n; k++) {
		if (k + 1 < n && !gap[k + 1])
			edge_add(down, (uint32_t)f[k + 1], (uint32_t)f[k], c, (uint32_t)i + 1);
		if (stamp[f[k]] == in)
			continue;
		stamp[f[k]] = in;
		sel->funcs.v[f[k]].pub.inclusive += c;
		if (k + 1 < n && !gap[k + 1])
			edge_add(up, (uint32_t)f[k + 1], (uint32_t)f[k], c, (uint32_t)i + 1);
	}
	for (k = n; k-- > 0;) {
		if (stamp[f[k]] == out)
			continue;
		stamp[f[k]] = out;
		if (k + 1 < n && !gap[k + 1])
			edge_add(entry, (uint32_t)f[k + 1], (uint32_t)f[k], c, (uint32_t)i + 1);
	}
}

void
bt_callgraph_build(struct bt_selection *sel)
{
	struct bt_cgraph *cg = &sel->cg;
	long f[CHAIN_MAX];
	bool gap[CHAIN_MAX];
	struct edges up, down, entry;
	uint32_t *stamp;
	size_t i, n;

	if (sel->s->p->chains == NULL) {
		for (i = 0; i < sel->funcs.n; i++) {
			sel->funcs.v[i].pub.inclusive = sel->funcs.v[i].pub.samples;
			sel->funcs.v[i].pub.inclusive_percent = sel->funcs.v[i].pub.percent;
		}
		return;
	}
	map_locs(sel);
	memset(&up, 0, sizeof(up));
	memset(&down, 0, sizeof(down));
	memset(&entry, 0, sizeof(entry));
	bt_hash_init(&up.hash, 256);
	bt_hash_init(&down.hash, 256);
	bt_hash_init(&entry.hash, 256);
	cg->nfuncs = sel->funcs.n;	/* every chain's functions are in the table now */
	stamp = bt_xcalloc(cg->nfuncs + 1, sizeof(uint32_t));
	for (i = 0; i < cg->counts.n; i++) {
		n = chain_funcs(sel, (uint32_t)cg->counts.v[i].off, f, gap);
		chain_add(sel, i, f, gap, n, stamp, &up, &down, &entry);
	}
	free(stamp);
	for (i = 0; i < sel->funcs.n; i++)
		sel->funcs.v[i].pub.inclusive_percent = sel->samples ? 100.0 *
		    (double)sel->funcs.v[i].pub.inclusive / (double)sel->samples : 0;
	group_edges(sel, &up, true, &cg->callers, &cg->caller_start);
	group_edges(sel, &down, false, &cg->callees, &cg->callee_start);
	group_edges(sel, &entry, true, &cg->entries, &cg->entry_start);
	BT_VEC_FREE(up.v);
	BT_VEC_FREE(down.v);
	BT_VEC_FREE(entry.v);
	bt_hash_release(&up.hash);
	bt_hash_release(&down.hash);
	bt_hash_release(&entry.hash);
}

size_t
bt_selection_callers(const struct bt_selection *sel, size_t fi, const struct bt_func_edge **e)
{
	const struct bt_cgraph *cg = &sel->cg;

	*e = NULL;
	if (cg->callers == NULL || fi >= cg->nfuncs)
		return 0;
	*e = cg->callers + cg->caller_start[fi];
	return cg->caller_start[fi + 1] - cg->caller_start[fi];
}

size_t
bt_selection_callees(const struct bt_selection *sel, size_t fi, const struct bt_func_edge **e)
{
	const struct bt_cgraph *cg = &sel->cg;

	*e = NULL;
	if (cg->callees == NULL || fi >= cg->nfuncs)
		return 0;
	*e = cg->callees + cg->callee_start[fi];
	return cg->callee_start[fi + 1] - cg->callee_start[fi];
}

size_t
bt_selection_entry_callers(const struct bt_selection *sel, size_t fi,
			   const struct bt_func_edge **e)
{
	const struct bt_cgraph *cg = &sel->cg;

	*e = NULL;
	if (cg->entries == NULL || fi >= cg->nfuncs)
		return 0;
	*e = cg->entries + cg->entry_start[fi];
	return cg->entry_start[fi + 1] - cg->entry_start[fi];
}

size_t
bt_selection_outside_callers(const struct bt_selection *sel, size_t fi, struct bt_func_edge **out)
{
	const struct bt_cgraph *cg = &sel->cg;
	BT_VEC(struct bt_func_edge) acc = { 0 };
	long f[CHAIN_MAX];
	bool gap[CHAIN_MAX];
	uint64_t self = 0;
	size_t i, k, j, n;
	uint32_t mi;

	*out = NULL;
	if (sel->s->p->chains == NULL || fi >= cg->nfuncs || cg->locfunc == NULL)
		return 0;
	mi = sel->funcs.v[fi].pub.mod;
	for (i = 0; i < cg->counts.n; i++) {
		n = chain_funcs(sel, (uint32_t)cg->counts.v[i].off, f, gap);
		if (n == 0 || (size_t)f[0] != fi)
			continue;
		self += cg->counts.v[i].samples;
		for (k = 1; k < n; k++) {
			const struct bt_sfunc *sf = &sel->funcs.v[f[k]];
			if (sf->pub.mod != mi && sf->pub.kind != BT_FK_KERNEL &&
			    sf->pub.kind != BT_FK_UNKNOWN)
				break;
		}
		if (k == n)
			continue;
		for (j = 0; j < acc.n && acc.v[j].func != (size_t)f[k]; j++)
			;
		if (j == acc.n) {
			struct bt_func_edge e = { (size_t)f[k], 0, 0 };
			BT_VEC_PUSH(acc, e);
		}
		acc.v[j].samples += cg->counts.v[i].samples;
	}
	for (j = 0; j < acc.n; j++)
		acc.v[j].percent = self ? 100.0 * (double)acc.v[j].samples / (double)self : 0;
	bt_qsort(acc.v, acc.n, sizeof(*acc.v), fedge_cmp);
	*out = acc.v;
	return acc.n;
}

struct stack_acc {
	size_t n;
	uint64_t samples;
	size_t *funcs;
};

static int
stack_cmp(const void *a, const void *b)
{
	const struct stack_acc *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	return memcmp(x->funcs, y->funcs, x->n * sizeof(size_t));
}

/* The chains as function paths (all, or those whose leaf is (mi, off)), merged. */
static size_t
stacks_of(struct bt_selection *sel, bool all, uint32_t mi, uint64_t off, struct bt_stack **out)
{
	struct bt_cgraph *cg = &sel->cg;
	BT_VEC(struct stack_acc) acc = { 0 };
	long f[CHAIN_MAX];
	bool gap[CHAIN_MAX];
	size_t i, k, n, total = 0;
	struct bt_stack *st;
	size_t *fl;
	struct bt_hash seen;	/* acc's paths, by their hash */

	bt_hash_init(&seen, 256);
	for (i = 0; i < cg->counts.n; i++) {
		const uint32_t *locs;
		const struct bt_loc *l;
		struct stack_acc a;
		struct bt_hash_pos pos;
		uint64_t h;
		uint32_t at;

		if (!all) {
			bt_chains_get(sel->s->p, (uint32_t)cg->counts.v[i].off, &locs);
			l = bt_chains_loc(sel->s->p, locs[0]);
			if (l->module != mi || l->off != off)
				continue;
		}
		n = chain_funcs(sel, (uint32_t)cg->counts.v[i].off, f, gap);
		a.n = n;
		a.samples = cg->counts.v[i].samples;
		a.funcs = bt_xcalloc(n + 1, sizeof(size_t));
		for (k = 0; k < n; k++)
			a.funcs[k] = (size_t)f[k];
		/* chains that differ below the function level are one path */
		h = bt_hash64(n);
		for (k = 0; k < n; k++)
			h = bt_hash64(h ^ a.funcs[k]);
		for (at = bt_hash_first(&seen, h, &pos); at != BT_HASH_NONE;
		    at = bt_hash_next(&seen, &pos))
			if (acc.v[at].n == n && memcmp(acc.v[at].funcs, a.funcs,
			    n * sizeof(size_t)) == 0)
				break;
		if (at != BT_HASH_NONE) {
			acc.v[at].samples += a.samples;
			free(a.funcs);
			continue;
		}
		bt_hash_add(&seen, &pos, (uint32_t)acc.n);
		BT_VEC_PUSH(acc, a);
		total += n;
	}
	bt_hash_release(&seen);
	bt_qsort(acc.v, acc.n, sizeof(*acc.v), stack_cmp);
	st = bt_xmalloc(acc.n * sizeof(*st) + total * sizeof(size_t) + 1);
	fl = (size_t *)(st + acc.n);
	for (i = 0; i < acc.n; i++) {
		memcpy(fl, acc.v[i].funcs, acc.v[i].n * sizeof(size_t));
		st[i].funcs = fl;
		st[i].nfuncs = acc.v[i].n;
		st[i].samples = acc.v[i].samples;
		fl += acc.v[i].n;
		free(acc.v[i].funcs);
	}
	n = acc.n;
	BT_VEC_FREE(acc);
	*out = st;
	return n;
}

size_t
bt_selection_stacks(struct bt_selection *sel, size_t fi, uint64_t addr, struct bt_stack **out)
{
	struct bt_msyms *ms;
	uint64_t off = addr;
	uint32_t mi;

	*out = NULL;
	if (sel->s->p->chains == NULL || fi >= sel->funcs.n || sel->cg.locfunc == NULL)
		return 0;
	mi = sel->funcs.v[fi].pub.mod;
	ms = bt_session_syms(sel->s, mi);
	if (ms != NULL && bt_msyms_addr_to_off(ms, addr, &off) < 0)
		return 0;
	return stacks_of(sel, false, mi, off, out);
}

size_t
bt_selection_chains(struct bt_selection *sel, struct bt_stack **out)
{
	*out = NULL;
	if (sel->s->p->chains == NULL || sel->cg.locfunc == NULL)
		return 0;
	return stacks_of(sel, true, 0, 0, out);
}

bool
bt_frame_match_names(const struct bt_func *f, void *arg)
{
	const char *const *names = arg;
	char buf[1024];
	size_t i;

	for (i = 0; names[i] != NULL; i++)
		if (strcmp(f->name, names[i]) == 0 ||
		    strcmp(bt_name_short(f->name, false, buf, sizeof(buf)), names[i]) == 0)
			return true;
	return false;
}

/* The user's focus (bt_selection_opts.focus): needs call chains. */
static int
focus_check(struct bt_session *s, int attr, const struct bt_selection_opts *o,
	    struct bt_error *err)
{
	if (o->focus != NULL && s->p->chains == NULL)
		return bt_error_set(err, BT_ENODATA,
		    "the recording has no call chains to focus on");
	return 0;
}

static bool
focus_of(struct bt_selection *sel, bt_frame_match_fn *match, void **arg,
	 bool *exclude)
{
	(void)exclude;
	*match = sel->o.focus;
	*arg = sel->o.focus_arg;
	return *match != NULL;
}

static bool
focus_same(const struct bt_selection_opts *a, const struct bt_selection_opts *b)
{
	return a->focus == b->focus && a->focus_arg == b->focus_arg;
}

const struct sel_dim bt_dim_focus = {
	.check = focus_check,
	.focus = focus_of,
	.same = focus_same,
};
