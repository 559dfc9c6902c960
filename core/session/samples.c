/*
 * A selection's samples as profile exporters want them (the pprof export,
 * docs/formats.md): read again once, grouped by (call chain, thread,
 * benchmark), every address once, symbolised with its inline chain and
 * its module's build-id. A benchmark's samples are those its own
 * selection holds (its window, its timer's phases, its entry frame): the
 * same as the benchmark table counts.
 */
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "base/hash.h"
#include "profile/chains.h"
#include "session/bench-int.h"
#include "session/session-int.h"
#include "symbols/symbols.h"

#define INLINE_MAX 32

/* One group before its locations are made: its chain, or its leaf. */
struct raw {
	uint32_t chain, module;
	uint64_t off;
	uint32_t pid, tid;
	long bench, rep;
	bool untimed;
	uint64_t samples, period;
};

struct collect {
	struct bt_selection *sel;
	BT_VEC(struct raw) raws;
	struct bt_hash hash;
	const unsigned char *keep;	/* per chain id: the selection holds it */
	size_t nkeep;
	long bench;			/* what the samples are labelled */
	bool untimed;			/* ... and whether measured */
	const struct bench *b;		/* measured: its runs' times (rep) */
	bool move;			/* take them from bench -1's */
	uint32_t *last;			/* per chain id: its last raw + 1 (a cache) */
	size_t nlast;
};

struct priv {
	struct bt_strpool pool;
	BT_VEC(struct bt_sample_line) lines;
	BT_VEC(uint32_t) chainlocs;
	struct bt_hash lhash;
	uint32_t *modmap;		/* profile module -> mods index + 1 */
	BT_VEC(size_t) first;		/* per location: its first line in lines */
	size_t nalloc;			/* set->locs' room */
	const struct bt_sample_line *lines_at;	/* lines.v when inl were set */
	long last_fi;			/* the function symbolise found last */
};

static uint64_t
raw_hash(const struct raw *r)
{
	return bt_hash64((uint64_t)r->chain * 0x9e3779b97f4a7c15ull ^ r->off ^
	    ((uint64_t)r->module << 40) ^ ((uint64_t)r->tid << 20) ^ r->pid ^
	    ((uint64_t)(r->bench + 1) << 52) ^ ((uint64_t)r->untimed << 63) ^
	    ((uint64_t)(r->rep + 1) << 56));
}

static bool
raw_same(const struct raw *a, const struct raw *b)
{
	return a->chain == b->chain && a->module == b->module && a->off == b->off &&
	    a->pid == b->pid && a->tid == b->tid && a->bench == b->bench &&
	    a->untimed == b->untimed && a->rep == b->rep;
}

static struct raw *
raw_find(struct collect *c, const struct raw *key, bool add)
{
	struct bt_hash_pos pos;
	uint32_t i, *last = key->chain < c->nlast ? &c->last[key->chain] : NULL;

	/* a chain's samples are mostly one thread's: one look, not the table's two */
	if (last != NULL && *last != 0 && raw_same(&c->raws.v[*last - 1], key))
		return &c->raws.v[*last - 1];
	for (i = bt_hash_first(&c->hash, raw_hash(key), &pos); i != BT_HASH_NONE;
	    i = bt_hash_next(&c->hash, &pos))
		if (raw_same(&c->raws.v[i], key))
			break;
	if (i == BT_HASH_NONE) {
		if (!add)
			return NULL;
		BT_VEC_PUSH(c->raws, *key);
		i = (uint32_t)c->raws.n - 1;
		bt_hash_add(&c->hash, &pos, i);
	}
	if (last != NULL)
		*last = i + 1;
	return &c->raws.v[i];
}

/* The result line of b whose run holds time t, -1 none (bench-count.c's). */
static long
run_of(const struct bench *b, uint64_t t)
{
	size_t j;

	for (j = 0; j < b->rref.n; j++)
		if (b->rref.v[j].has && b->rref.v[j].lo <= t && t < b->rref.v[j].hi)
			return (long)j;
	return -1;
}

static void
each_sample(void *arg, const struct bt_scan_sample *smp)
{
	struct collect *c = arg;
	struct raw key = { 0 }, *r;

	if (smp->chain != BT_CHAIN_NONE && c->keep != NULL &&
	    (smp->chain >= c->nkeep || !c->keep[smp->chain]))
		return;
	key.chain = smp->chain;
	if (smp->chain == BT_CHAIN_NONE) {
		key.module = smp->module;
		key.off = smp->off;
	}
	key.pid = smp->pid;
	key.tid = smp->tid;
	key.bench = key.rep = -1;
	if (c->move) {	/* a benchmark's: out of the unlabelled ones */
		r = raw_find(c, &key, false);
		if (r == NULL || r->samples == 0)
			return;
		r->samples--;
		r->period -= BT_MIN(r->period, smp->period);
	}
	key.bench = c->bench;
	key.untimed = c->untimed;
	key.rep = c->b != NULL && !c->untimed ? run_of(c->b, smp->time) : -1;
	r = raw_find(c, &key, true);
	r->samples++;
	r->period += smp->period;
}

/* Which chains sel holds (its focus: a benchmark's entry frame...). */
static unsigned char *
kept_chains(const struct bt_selection *sel, size_t *n)
{
	const struct bt_profile *p = sel->s->p;
	unsigned char *keep;
	size_t i;

	*n = 0;
	if (p->chains == NULL)
		return NULL;
	*n = bt_chains_count(p) + 1;
	keep = bt_xcalloc(*n, 1);
	for (i = 0; i < sel->cg.counts.n; i++)
		if (sel->cg.counts.v[i].off < *n)
			keep[sel->cg.counts.v[i].off] = 1;
	return keep;
}

/*
 * Read sel's samples into c; untimed: a benchmark's whole span instead,
 * its timer's phases and chains not kept (what is left of it once its
 * measured samples are taken: set-up, paused sections, warm-up).
 */
static int
collect_scan(struct collect *c, struct bt_selection *sel, bool untimed,
	     struct bt_error *err)
{
	struct bt_scan sc;
	struct bt_hist_entry *e = NULL;
	size_t n = 0;
	unsigned char *keep = NULL;
	int ret;

	bt_selection_scan_init(sel, &sc);
	if (untimed) {
		struct bt_bench_measured m;
		if (!bt_selection_bench_phase(sel, (size_t)c->bench, &m))
			return 0;
		sc.keep = NULL;
		sc.nkeep = 0;
		sc.t_lo = BT_MAX(sc.t_lo, m.span_lo);
		sc.t_hi = BT_MIN(sc.t_hi, m.span_hi + 1);
		if (sc.t_hi < sc.t_lo)
			return 0;
		c->nkeep = 0;
	} else
		keep = kept_chains(sel, &c->nkeep);
	c->keep = keep;
	sc.each = each_sample;
	sc.each_arg = c;
	sc.fold = true;		/* the histogram itself is not wanted */
	sc.fold_module = UINT32_MAX;
	ret = bt_profile_scan(sel->s->p, &sc, &e, &n, err);
	free(e);
	free(keep);
	c->keep = NULL;
	return ret;
}

/* The module's entry in set->mods, made on first use. */
static uint32_t
mod_of(struct bt_selection *sel, struct bt_sample_set *set, uint32_t mi)
{
	struct priv *pv = set->priv;
	const struct bt_module *m = &sel->s->p->modules.v[mi];
	struct bt_msyms *ms;
	struct bt_sample_mod *sm;

	if (pv->modmap[mi] != 0)
		return pv->modmap[mi] - 1;
	set->mods = bt_xrealloc(set->mods, (set->nmods + 1) * sizeof(*set->mods));
	sm = &set->mods[set->nmods];
	memset(sm, 0, sizeof(*sm));
	sm->path = m->kind == BT_MOD_JIT && m->jit_name != NULL ? m->jit_name : m->path;
	if (m->build_id_size > 0)
		bt_build_id_hex(m->build_id, m->build_id_size, sm->build_id);
	sm->lo = UINT64_MAX;
	ms = mi > BT_MODULE_UNKNOWN ? bt_session_syms(sel->s, mi) : NULL;
	if (ms != NULL) {
		sm->has_functions = true;
		sm->has_lines = sm->has_inlines = bt_msyms_has_dwarf(ms);
	}
	pv->modmap[mi] = (uint32_t)++set->nmods;
	return (uint32_t)(set->nmods - 1);
}

/* The inline chain of addr in module mi, innermost first, into pv->lines. */
static size_t
symbolise(struct bt_selection *sel, struct priv *pv, uint32_t mi, uint64_t addr)
{
	struct bt_msyms *m = mi > BT_MODULE_UNKNOWN ? bt_session_syms(sel->s, mi) : NULL;
	struct bt_inline chain[INLINE_MAX];
	const struct bt_line *rows;
	struct bt_func_sym fs;
	struct bt_sample_line ln = { 0 };
	const char *file = NULL;
	unsigned line = 0, col = 0;
	size_t depth = 0, k;
	long fi = pv->last_fi;
	const struct bt_func *f;

	/* addresses come in runs of one function (an annotation's) */
	f = fi >= 0 && (size_t)fi < bt_selection_nfuncs(sel) ? bt_selection_func(sel, (size_t)fi) : NULL;
	if (f == NULL || f->mod != mi || addr < f->start || addr >= f->end)
		fi = pv->last_fi = bt_selection_func_at(sel, mi, addr);

	if (fi < 0)
		return 0;
	bt_selection_func_locate(sel, (size_t)fi, false);
	f = bt_selection_func(sel, (size_t)fi);
	ln.func = ln.system_name = f->name;
	ln.func_file = f->file;
	ln.func_line = f->line;
	if (m != NULL && bt_msyms_func(m, addr, &fs) == 0 && fs.raw_name != NULL)
		ln.system_name = bt_strpool_addstr(&pv->pool, fs.raw_name);
	if (m != NULL && bt_msyms_has_dwarf(m)) {
		if (bt_msyms_lines(m, addr, addr + 1, &rows) > 0 && rows[0].addr <= addr) {
			file = rows[0].file;
			line = rows[0].line;
			col = rows[0].column;
		}
		depth = bt_msyms_inlines(m, addr, chain, INLINE_MAX);
	}
	/* innermost first: the line is in the innermost inlined function */
	for (k = depth; k > 0; k--) {
		struct bt_sample_line il = { 0 };
		il.func = il.system_name = chain[k - 1].name;
		il.func_file = il.file = file;	/* its code's file: where it is defined */
		il.line = line;
		il.column = col;
		BT_VEC_PUSH(pv->lines, il);
		file = chain[k - 1].call_file;
		line = chain[k - 1].call_line;
		col = chain[k - 1].call_column;
	}
	ln.file = file;
	ln.line = line;
	ln.column = col;
	BT_VEC_PUSH(pv->lines, ln);
	return depth + 1;
}

static uint32_t
loc_of(struct bt_selection *sel, struct bt_sample_set *set, uint32_t mi, uint64_t off)
{
	struct priv *pv = set->priv;
	struct bt_hash_pos pos;
	struct bt_msyms *m;
	struct bt_sample_loc *l;
	struct bt_sample_mod *sm;
	uint64_t addr = off;
	size_t first;
	uint32_t i, smi = mod_of(sel, set, mi);

	for (i = bt_hash_first(&pv->lhash, bt_hash64(off ^ ((uint64_t)mi << 44)), &pos);
	    i != BT_HASH_NONE; i = bt_hash_next(&pv->lhash, &pos))
		if (set->locs[i].mod == smi && set->locs[i].off == off)
			return i;
	if (mi != BT_MODULE_KERNEL && (m = bt_session_syms(sel->s, mi)) != NULL &&
	    bt_msyms_off_to_addr(m, off, &addr) < 0)
		addr = off;
	if (set->nlocs == pv->nalloc) {
		pv->nalloc = pv->nalloc ? 2 * pv->nalloc : 256;
		set->locs = bt_xrealloc(set->locs, pv->nalloc * sizeof(*set->locs));
	}
	l = &set->locs[set->nlocs];
	l->mod = smi;
	l->addr = addr;
	l->off = off;
	first = pv->lines.n;
	BT_VEC_PUSH(pv->first, first);
	l->nlines = symbolise(sel, pv, mi, addr);
	l->inl = NULL;	/* set when every location is in (set_lines) */
	sm = &set->mods[smi];
	if (addr < sm->lo) {
		sm->lo = addr;
		sm->off = off;
	}
	sm->hi = BT_MAX(sm->hi, addr + 1);
	bt_hash_add(&pv->lhash, &pos, (uint32_t)set->nlocs);
	return (uint32_t)set->nlocs++;
}

/* Each location's lines, where they are now; a module with none gets 0-0. */
static void
set_lines(struct bt_sample_set *set)
{
	struct priv *pv = set->priv;
	size_t i;

	for (i = 0; i < set->nlocs; i++)
		set->locs[i].inl = pv->lines.v + pv->first.v[i];
	pv->lines_at = pv->lines.v;
	for (i = 0; i < set->nmods; i++)
		if (set->mods[i].lo == UINT64_MAX || set->mods[i].lo > set->mods[i].hi)
			set->mods[i].lo = set->mods[i].hi = 0;
}

uint32_t
bt_sample_set_loc(struct bt_selection *sel, struct bt_sample_set *set, uint32_t mod,
		  uint64_t addr)
{
	struct bt_msyms *m;
	uint64_t off = addr;
	uint32_t i;

	if (mod > BT_MODULE_UNKNOWN && (m = bt_session_syms(sel->s, mod)) != NULL &&
	    bt_msyms_addr_to_off(m, addr, &off) < 0)
		off = addr;
	i = loc_of(sel, set, mod, off);
	if (((struct priv *)set->priv)->lines_at != ((struct priv *)set->priv)->lines.v)
		set_lines(set);		/* moved */
	else
		set->locs[i].inl = ((struct priv *)set->priv)->lines.v +
		    ((struct priv *)set->priv)->first.v[i];
	return i;
}

/* The groups with their locations, from the raw counts. */
static void
make_groups(struct bt_selection *sel, struct bt_sample_set *set, struct collect *c)
{
	struct priv *pv = set->priv;
	const struct bt_profile *p = sel->s->p;
	size_t i, k;
	size_t *start = bt_xcalloc(c->raws.n + 1, sizeof(*start));

	set->groups = bt_xcalloc(c->raws.n + 1, sizeof(*set->groups));
	for (i = 0; i < c->raws.n; i++) {
		const struct raw *r = &c->raws.v[i];
		struct bt_sample_group *g = &set->groups[set->ngroups];
		if (r->samples == 0)
			continue;
		start[set->ngroups] = pv->chainlocs.n;
		if (r->chain == BT_CHAIN_NONE)
			BT_VEC_PUSH(pv->chainlocs, loc_of(sel, set, r->module, r->off));
		else {
			const uint32_t *locs;
			size_t n = bt_chains_get(p, r->chain, &locs);
			for (k = 0; k < n; k++) {
				const struct bt_loc *l;
				if (locs[k] == BT_LOC_GAP)
					continue;
				l = bt_chains_loc(p, locs[k]);
				BT_VEC_PUSH(pv->chainlocs, loc_of(sel, set,
				    l->module, l->off));
			}
		}
		g->nlocs = pv->chainlocs.n - start[set->ngroups];
		g->pid = r->pid;
		g->tid = r->tid;
		g->bench = r->bench;
		g->untimed = r->untimed;
		g->rep = r->rep;
		g->samples = r->samples;
		g->period = r->period;
		set->ngroups++;
	}
	for (i = 0; i < set->ngroups; i++)
		set->groups[i].locs = pv->chainlocs.v + start[i];
	set_lines(set);
	free(start);
}

int
bt_selection_sample_set(struct bt_selection *sel, bool benches,
			struct bt_sample_set *out, struct bt_error *err)
{
	struct collect c = { 0 };
	struct priv *pv;
	long cur = bt_selection_bench_index(sel);
	size_t b, nb = bt_selection_nbenches(sel);
	struct bt_selection_opts so;
	struct bt_selection *bsel;
	int ret, pass;

	memset(out, 0, sizeof(*out));
	c.sel = sel;
	c.bench = cur;
	bt_hash_init(&c.hash, 1024);
	c.nlast = bt_chains_count(sel->s->p);
	c.last = bt_xcalloc(c.nlast + 1, sizeof(*c.last));
	c.untimed = false;
	c.b = cur >= 0 && sel->s->benches != NULL && (size_t)cur < sel->s->benches->v.n ?
	    &sel->s->benches->v.v[cur] : NULL;	/* -b: its result lines' runs */
	ret = collect_scan(&c, sel, false, err);
	/*
	 * each benchmark's samples, labelled with it: every one's measured
	 * samples, then, in the order they ran, what is left of each one's
	 * span (its untimed samples, as bench-count.c counts them)
	 */
	for (pass = 0; pass < 2; pass++)
		for (b = 0; ret == 0 && benches && cur < 0 && b < nb; b++) {
			if (!bt_selection_bench(sel, b)->has_window ||
			    (pass == 1 && bt_selection_bench(sel, b)->untimed_samples == 0))
				continue;
			so = *bt_selection_opts(sel);
			so.bench = (long)b;
			bsel = bt_selection_new(sel->s, &so, NULL);
			if (bsel == NULL)
				continue;
			c.bench = (long)b;
			c.move = true;
			c.untimed = pass == 1;
			c.b = sel->s->benches != NULL && b < sel->s->benches->v.n ?
			    &sel->s->benches->v.v[b] : NULL;
			ret = collect_scan(&c, bsel, pass == 1, err);
			bt_selection_free(bsel);
		}
	free(c.last);
	if (ret < 0) {
		BT_VEC_FREE(c.raws);
		bt_hash_release(&c.hash);
		return ret;
	}
	pv = bt_xcalloc(1, sizeof(*pv));
	out->priv = pv;
	bt_strpool_init(&pv->pool);
	bt_hash_init(&pv->lhash, 1024);
	pv->modmap = bt_xcalloc(sel->s->p->modules.n + 1, sizeof(*pv->modmap));
	pv->last_fi = -1;
	make_groups(sel, out, &c);
	BT_VEC_FREE(c.raws);
	bt_hash_release(&c.hash);
	return 0;
}

void
bt_sample_set_release(struct bt_sample_set *set)
{
	struct priv *pv = set->priv;

	if (pv != NULL) {
		bt_strpool_release(&pv->pool);
		BT_VEC_FREE(pv->lines);
		BT_VEC_FREE(pv->chainlocs);
		bt_hash_release(&pv->lhash);
		free(pv->modmap);
		BT_VEC_FREE(pv->first);
		free(pv);
	}
	free(set->groups);
	free(set->locs);
	free(set->mods);
	memset(set, 0, sizeof(*set));
}

/* bt_selection_split's pass: each sample to its parts and function. */
struct split {
	struct bt_selection *sel;
	const unsigned char *keep;	/* per chain id: the selection holds it */
	size_t nkeep;
	uint64_t (*win)[2];		/* per part: [lo, hi) of sample times */
	size_t nparts, nfuncs;
	long *hitfunc;			/* per hit: its function, -1 none */
	uint64_t *period, *total;
	uint64_t t_min, t_max;		/* the samples' first and last times */
	uint32_t last_mod;		/* the last leaf's function, a cache */
	uint64_t last_off;
	long last_fi;
};

static int
hit_key_cmp(const void *key, const void *elt)
{
	const struct bt_hit *x = key, *y = elt;

	if (x->module != y->module)
		return x->module < y->module ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The function of sel's table its hits put (module, off) in, -1 none. */
static long
split_func(struct split *sp, uint32_t module, uint64_t off)
{
	struct bt_selection *sel = sp->sel;
	struct bt_msyms *m = bt_session_syms(sel->s, module);
	struct bt_hit key;
	const struct bt_hit *h;

	if (module == sp->last_mod && off == sp->last_off)
		return sp->last_fi;
	key.module = module;
	key.addr = off;
	if (m != NULL && bt_msyms_off_to_addr(m, off, &key.addr) < 0)
		key.addr = off;
	h = sel->hits.n ? bsearch(&key, sel->hits.v, sel->hits.n, sizeof(*h), hit_key_cmp) : NULL;
	sp->last_mod = module;
	sp->last_off = off;
	sp->last_fi = h != NULL ? sp->hitfunc[h - sel->hits.v] : -1;
	return sp->last_fi;
}

static void
split_sample(void *arg, const struct bt_scan_sample *smp)
{
	struct split *sp = arg;
	long fi = -2;
	size_t k;

	if (smp->chain != BT_CHAIN_NONE && sp->keep != NULL &&
	    (smp->chain >= sp->nkeep || !sp->keep[smp->chain]))
		return;
	sp->t_min = BT_MIN(sp->t_min, smp->time);
	sp->t_max = BT_MAX(sp->t_max, smp->time);
	/* windows overlap where a run ends as the next begins: each its own */
	for (k = 0; k < sp->nparts; k++) {
		if (smp->time < sp->win[k][0] || smp->time >= sp->win[k][1])
			continue;
		if (fi == -2)
			fi = split_func(sp, smp->module, smp->off);
		sp->total[k] += smp->period;
		if (fi >= 0)
			sp->period[k * sp->nfuncs + (size_t)fi] += smp->period;
	}
}

/* sel's samples into sp's parts, one pass. */
static int
split_scan(struct bt_selection *sel, struct split *sp, struct bt_error *err)
{
	struct bt_scan sc;
	struct bt_hist_entry *e = NULL;
	size_t ne = 0, i, k;
	unsigned char *keep;
	int ret;

	sp->sel = sel;
	sp->nfuncs = sel->funcs.n;
	memset(sp->period, 0, (sp->nparts * sp->nfuncs + 1) * sizeof(*sp->period));
	memset(sp->total, 0, sp->nparts * sizeof(*sp->total));
	sp->hitfunc = bt_xcalloc(sel->hits.n + 1, sizeof(*sp->hitfunc));
	for (i = 0; i < sel->hits.n; i++)
		sp->hitfunc[i] = -1;
	for (i = 0; i < sel->funcs.n; i++)
		for (k = sel->funcs.v[i].hit_lo; k < sel->funcs.v[i].hit_hi; k++)
			sp->hitfunc[k] = (long)i;
	sp->last_mod = UINT32_MAX;
	sp->last_fi = -1;
	sp->t_min = UINT64_MAX;
	sp->t_max = 0;

	/* the selection's own samples (its window, phases, entry frame), once */
	bt_selection_scan_init(sel, &sc);
	keep = kept_chains(sel, &sp->nkeep);
	sp->keep = keep;
	sc.each = split_sample;
	sc.each_arg = sp;
	sc.fold = true;		/* the histogram itself is not wanted */
	sc.fold_module = UINT32_MAX;
	ret = bt_profile_scan(sel->s->p, &sc, &e, &ne, err);
	free(e);
	free(keep);
	free(sp->hitfunc);
	sp->hitfunc = NULL;
	sp->keep = NULL;
	return ret;
}

int
bt_selection_split(struct bt_selection *sel, const struct bt_time_part *parts, size_t n,
		   uint64_t **period, uint64_t *total, struct bt_error *err)
{
	struct split sp;
	double span;
	size_t k;
	int ret;

	memset(&sp, 0, sizeof(sp));
	sp.nparts = n;
	sp.win = bt_xcalloc(n + 1, sizeof(*sp.win));
	sp.period = *period = bt_xcalloc(n * sel->funcs.n + 1, sizeof(**period));
	sp.total = total;
	for (k = 0; k < n; k++)
		bt_window_bounds(sel->s->p, parts[k].from, parts[k].to, parts[k].percent,
		    &sp.win[k][0], &sp.win[k][1], &span);
	ret = split_scan(sel, &sp, err);
	free(sp.win);
	if (ret < 0) {
		free(*period);
		*period = NULL;
	}
	return ret;
}

int
bt_selection_split_span(struct bt_selection *sel, size_t n, uint64_t **period,
			uint64_t *total, struct bt_error *err)
{
	struct split sp;
	uint64_t lo, len;
	size_t k;
	int ret;

	memset(&sp, 0, sizeof(sp));
	sp.win = bt_xcalloc(n + 1, sizeof(*sp.win));
	sp.period = *period = bt_xcalloc(n * sel->funcs.n + 1, sizeof(**period));
	sp.total = total;
	/* its span first (no parts), then its slices */
	if ((ret = split_scan(sel, &sp, err)) == 0 && sp.t_min <= sp.t_max) {
		lo = sp.t_min;
		len = sp.t_max + 1 - lo;
		for (k = 0; k < n; k++) {
			sp.win[k][0] = lo + (uint64_t)((double)len * (double)k / (double)n);
			sp.win[k][1] = k + 1 == n ? sp.t_max + 1 :
			    lo + (uint64_t)((double)len * (double)(k + 1) / (double)n);
		}
		sp.nparts = n;
		ret = split_scan(sel, &sp, err);
	}
	free(sp.win);
	if (ret < 0) {
		free(*period);
		*period = NULL;
	}
	return ret;
}
