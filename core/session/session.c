/*
 * The hot-function table: samples of the chosen event and time window are
 * aggregated by (module, offset) first, then each distinct address is
 * translated and resolved through the module's symbol index (DESIGN.md §1:
 * a million samples touch a few thousand addresses).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "disasm/disasm.h"
#include "profile/chains.h"
#include "session/session-int.h"
#include "symbols/symbols.h"

#define GUESS_GAP 256	/* bytes between sampled addresses of one guessed function */
#define LOCATE_TOP 30	/* table rows that always get their source location */
#define LOCATE_MIN_PERCENT 0.5

/* Time window in nanoseconds of the recording's clock. */
static void
window(struct bt_session *s, uint64_t *lo, uint64_t *hi)
{
	struct bt_profile *p = s->p;
	double span = p->last_time > p->first_time ?
	    (double)(p->last_time - p->first_time) / 1e9 : 0;
	double from = s->o.time_from, to = s->o.time_to;

	if (s->o.time_percent) {
		from = from >= 0 ? from / 100 * span : from;
		to = to >= 0 ? to / 100 * span : to;
	}
	s->win_from = from >= 0 ? from : 0;
	s->win_to = to >= 0 ? BT_MIN(to, span) : span;
	*lo = from >= 0 ? p->first_time + (uint64_t)(from * 1e9) : 0;
	*hi = to >= 0 ? p->first_time + (uint64_t)(to * 1e9) : UINT64_MAX;
}

void
bt_session_window_clock(const struct bt_session *s, uint64_t *lo, uint64_t *hi)
{
	*lo = s->win_lo;
	*hi = s->win_hi;
}

/* A hit from (module, offset): translated to the module's link-time address. */
static void
add_hit(struct bt_session *s, const struct bt_hist_entry *e)
{
	struct bt_msyms *m = bt_session_syms(s, e->module);
	struct bt_hit h;

	h.module = e->module;
	h.addr = e->off;
	h.samples = e->samples;
	h.period = e->period;
	if (m != NULL && bt_msyms_off_to_addr(m, e->off, &h.addr) < 0)
		h.addr = e->off;
	BT_VEC_PUSH(s->hits, h);
	s->samples += e->samples;
	s->period += e->period;
}

/*
 * The chosen event's samples by address: the profile's whole-run
 * histogram, or, for a time window, the samples in it counted again.
 */
static int
aggregate(struct bt_session *s, struct bt_error *err)
{
	struct bt_profile *p = s->p;
	struct bt_scan sc;
	struct bt_hist_entry *e;
	size_t n, i;

	memset(&sc, 0, sizeof(sc));
	sc.attr = s->attr;
	window(s, &sc.t_lo, &sc.t_hi);
	bt_bench_scan(s, &sc);		/* a benchmark's samples (bench.c) */
	s->win_lo = sc.t_lo;
	s->win_hi = sc.t_hi;
	if (s->bench >= 0) {
		double span = s->win_to;
		s->win_from = sc.t_lo > p->first_time ?
		    (double)(sc.t_lo - p->first_time) / 1e9 : 0;
		s->win_to = sc.t_hi > p->first_time ?
		    BT_MIN(span, (double)(sc.t_hi - p->first_time) / 1e9) : 0;
	}
	if (s->o.time_from < 0 && s->o.time_to < 0 && s->bench < 0) {
		size_t lo = p->hist_start[s->attr], hi = p->hist_start[s->attr + 1];
		BT_ALLOC_GROW(s->hits.v, hi - lo, s->hits.alloc);
		for (i = lo; i < hi; i++)
			add_hit(s, &p->hist[i]);
		if (p->chains != NULL) {
			lo = p->chist_start[s->attr];
			hi = p->chist_start[s->attr + 1];
			BT_ALLOC_GROW(s->cg.counts.v, hi - lo, s->cg.counts.alloc);
			memcpy(s->cg.counts.v, p->chist + lo, (hi - lo) * sizeof(*p->chist));
			s->cg.counts.n = hi - lo;
		}
		return 0;
	}
	if (p->chains != NULL)
		sc.chains = bt_hist_new();
	if (bt_profile_scan(p, &sc, &e, &n, err) < 0) {
		bt_hist_free(sc.chains);
		return -BT_EIO;
	}
	if (sc.chains != NULL) {
		s->cg.counts.n = bt_hist_take(sc.chains, &s->cg.counts.v);
		s->cg.counts.alloc = s->cg.counts.n;
		bt_hist_free(sc.chains);
	}
	BT_ALLOC_GROW(s->hits.v, n, s->hits.alloc);
	for (i = 0; i < n; i++)
		add_hit(s, &e[i]);
	free(e);
	return 0;
}

static int
u64_cmp(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

static int
hit_cmp(const void *a, const void *b)
{
	const struct bt_hit *x = a, *y = b;

	if (x->module != y->module)
		return x->module < y->module ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int
func_cmp(const void *a, const void *b)
{
	const struct bt_sfunc *x = a, *y = b;

	if (x->pub.samples != y->pub.samples)
		return x->pub.samples > y->pub.samples ? -1 : 1;
	if (x->module != y->module)
		return x->module < y->module ? -1 : 1;
	return x->pub.start < y->pub.start ? -1 : x->pub.start > y->pub.start;
}

static void
new_func(struct bt_session *s, uint32_t mi, size_t hit, const char *name,
	 uint64_t start, uint64_t end, enum bt_func_kind kind)
{
	const struct bt_module *m = &s->p->modules.v[mi];
	struct bt_sfunc f;

	memset(&f, 0, sizeof(f));
	f.module = mi;
	f.hit_lo = hit;
	f.hit_hi = hit;
	f.pub.name = bt_strpool_addstr(&s->pool, name);
	f.pub.module = m->path;
	f.pub.module_name = s->mods[mi].name;
	f.pub.start = start;
	f.pub.end = end;
	f.pub.kind = kind;
	f.pub.can_annotate = s->mods[mi].syms != NULL &&
	    (kind == BT_FK_SYMBOL || kind == BT_FK_STRIPPED || kind == BT_FK_GUESSED);
	BT_VEC_PUSH(s->funcs, f);
}

size_t
bt_session_add_func(struct bt_session *s, uint32_t mi, const char *name,
		    uint64_t start, uint64_t end, enum bt_func_kind kind)
{
	struct bt_sfunc *f;

	new_func(s, mi, s->hits.n, name, start, end, kind);
	f = &s->funcs.v[s->funcs.n - 1];
	f->hit_lo = f->hit_hi = 0;
	if (kind == BT_FK_INLINE) {	/* no code, no line of its own */
		f->located = true;
		f->pub.can_annotate = false;
	}
	return s->funcs.n - 1;
}

/* The source location of a function's first instruction. */
static void
entry_line(struct bt_session *s, struct bt_sfunc *f)
{
	const struct bt_line *rows;

	f->located = true;
	if (s->mods[f->module].syms == NULL || f->pub.end <= f->pub.start ||
	    !bt_session_dwarf(s, f->module))
		return;
	if (bt_msyms_lines(s->mods[f->module].syms, f->pub.start,
	    f->pub.start + 1, &rows) > 0 && rows[0].line) {
		f->pub.file = rows[0].file;
		f->pub.line = rows[0].line;
	}
}

/*
 * Code no symbol or FDE covers: functions guessed from the addresses the
 * whole run sampled (every event, whatever the window), grouped where they
 * lie less than GUESS_GAP apart, so that the same code has the same name
 * and bounds in every window and event. Built once per module.
 */
static bool
guessed_range(struct bt_session *s, uint32_t mi, uint64_t addr, uint64_t *start,
	      uint64_t *end)
{
	struct bt_smod *sm = &s->mods[mi];
	const struct bt_profile *p = s->p;
	size_t i, lo, hi;

	if (!sm->guessed_done) {
		BT_VEC(uint64_t) a = { 0 };
		struct bt_func_sym fs;

		sm->guessed_done = true;
		for (i = 0; i < p->hist_start[p->info.nevents]; i++) {
			uint64_t x = p->hist[i].off;
			if (p->hist[i].module != mi)
				continue;
			if (sm->syms != NULL && bt_msyms_off_to_addr(sm->syms, x, &x) < 0)
				x = p->hist[i].off;
			if (sm->syms != NULL && bt_msyms_func(sm->syms, x, &fs) == 0)
				continue;
			BT_VEC_PUSH(a, x);
		}
		bt_qsort(a.v, a.n, sizeof(*a.v), u64_cmp);
		for (i = 0; i < a.n; i = hi) {
			struct bt_range r;
			for (hi = i + 1; hi < a.n && a.v[hi] - a.v[hi - 1] < GUESS_GAP; hi++)
				;
			r.start = a.v[i];
			r.end = a.v[hi - 1] + 16;	/* past the last sampled instruction */
			BT_VEC_PUSH(sm->guessed, r);
		}
		BT_VEC_FREE(a);
	}
	lo = 0;
	hi = sm->guessed.n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (sm->guessed.v[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == sm->guessed.n || addr < sm->guessed.v[lo].start)
		return false;
	*start = sm->guessed.v[lo].start;
	*end = sm->guessed.v[lo].end;
	return true;
}

/* Group the sorted hits into functions. */
static void
build_funcs(struct bt_session *s)
{
	size_t i;
	struct bt_sfunc *cur = NULL;

	for (i = 0; i < s->hits.n; i++) {
		const struct bt_hit *h = &s->hits.v[i];
		const struct bt_module *m = &s->p->modules.v[h->module];
		struct bt_msyms *ms = s->mods[h->module].syms;
		struct bt_func_sym fs;
		const char *kname;
		uint64_t start, end;

		if (cur != NULL && cur->module == h->module &&
		    (h->addr < cur->pub.end ||
		     (cur->pub.kind == BT_FK_KERNEL && cur->pub.end == 0) ||
		     cur->pub.kind == BT_FK_UNKNOWN)) {
			cur->hit_hi = i + 1;
			continue;
		}
		if (m->kind == BT_MOD_KERNEL && bt_session_kernel_func(s, h->addr,
		    &kname, &start, &end))
			new_func(s, h->module, i, kname, start, end, BT_FK_KERNEL);
		else if (m->kind == BT_MOD_KERNEL)
			new_func(s, h->module, i, "[kernel]", 0, 0, BT_FK_KERNEL);
		else if (m->kind == BT_MOD_UNKNOWN)
			new_func(s, h->module, i, "[unknown]", 0, 0, BT_FK_UNKNOWN);
		else if (ms != NULL && bt_msyms_func(ms, h->addr, &fs) == 0)
			new_func(s, h->module, i, fs.name, fs.start, fs.end,
			    fs.src == BT_FUNC_FDE ? BT_FK_STRIPPED : BT_FK_SYMBOL);
		else {
			char name[512];
			if (!guessed_range(s, h->module, h->addr, &start, &end)) {
				start = h->addr;	/* not in the whole run: cannot be */
				end = h->addr + 1;
			}
			snprintf(name, sizeof(name), "%s+0x%llx", s->mods[h->module].name,
			    (unsigned long long)start);
			new_func(s, h->module, i, name, start, end, BT_FK_GUESSED);
		}
		cur = &s->funcs.v[s->funcs.n - 1];
		cur->hit_hi = i + 1;
	}
	for (i = 0; i < s->funcs.n; i++) {
		struct bt_sfunc *f = &s->funcs.v[i];
		size_t k;

		for (k = f->hit_lo; k < f->hit_hi; k++) {
			f->pub.samples += s->hits.v[k].samples;
			f->pub.period += s->hits.v[k].period;
		}
		f->pub.percent = s->samples ? 100.0 * (double)f->pub.samples /
		    (double)s->samples : 0;
	}
	bt_qsort(s->funcs.v, s->funcs.n, sizeof(*s->funcs.v), func_cmp);
	/*
	 * The hot rows' source locations now, unless sources are off: this
	 * loads the DWARF of their modules, which then also gives the call
	 * chains their inline frames (callgraph.c).
	 */
	for (i = 0; i < s->funcs.n && !s->o.no_source; i++)
		bt_session_func_locate(s, i, false);
}

/*
 * Source locations for the table, when it shows them: every row when
 * asked (exports), else the hot rows and any whose module's DWARF is
 * loaded anyway. Loading (often decompressing) a library's debug info for
 * a function with a few samples is what makes a first screen slow.
 */
void
bt_session_func_locate(struct bt_session *s, size_t i, bool all)
{
	struct bt_sfunc *f;

	if (i >= s->funcs.n || s->funcs.v[i].located)
		return;
	f = &s->funcs.v[i];
	if (all || i < LOCATE_TOP || f->pub.percent >= LOCATE_MIN_PERCENT ||
	    s->mods[f->module].dwarf_checked)
		entry_line(s, f);
}

/* Forget the function table and annotations of the last selection. */
static void
drop_selection(struct bt_session *s)
{
	size_t i, j;

	for (i = 0; i < s->funcs.n; i++)
		for (j = 0; j < BT_ARRAY_SIZE(s->funcs.v[i].ann); j++)
			bt_annotation_free(s->funcs.v[i].ann[j]);
	s->funcs.n = 0;
	s->hits.n = 0;
	s->samples = s->period = 0;
	bt_callgraph_release(&s->cg);
	for (i = 0; i < BT_CACHE_SELECTION; i++)
		bt_session_set_cache(s, (enum bt_session_cache)i, NULL, NULL);
}

void *
bt_session_cache(const struct bt_session *s, enum bt_session_cache which)
{
	return s->cache[which].data;
}

void
bt_session_set_cache(struct bt_session *s, enum bt_session_cache which,
		     void *data, void (*release)(void *data))
{
	if (s->cache[which].data != NULL && s->cache[which].release != NULL)
		s->cache[which].release(s->cache[which].data);
	s->cache[which].data = data;
	s->cache[which].release = release;
}

static struct bt_annotation *
annotate(struct bt_session *s, struct bt_sfunc *sf, enum bt_asm_syntax syntax,
	 bool lines, struct bt_error *err)
{
	const struct bt_func *f = &sf->pub;
	struct bt_msyms *m = bt_session_syms(s, sf->module);
	struct bt_annotate_in in;

	if (m == NULL || !f->can_annotate) {
		bt_error_set(err, BT_ENODATA, "no code for '%s' (%s)", f->name,
		    f->kind == BT_FK_KERNEL ? "kernel code is not annotated" :
		    "its module could not be read");
		return NULL;
	}
	memset(&in, 0, sizeof(in));
	in.syms = m;
	in.dis = bt_session_disasm(s, m, syntax, err);
	if (in.dis == NULL)
		return NULL;
	in.name = f->name;
	in.module_name = f->module_name;
	in.start = f->start;
	in.end = f->end;
	in.by_address = f->kind != BT_FK_SYMBOL;
	in.hits = s->hits.v + sf->hit_lo;
	in.nhits = sf->hit_hi - sf->hit_lo;
	in.lines = lines && bt_session_dwarf(s, sf->module);
	in.region_threshold = s->o.region_threshold / 100;
	in.region_margin = s->o.region_margin;
	return bt_annotate(&in, err);
}

struct bt_annotation *
bt_session_annotation(struct bt_session *s, size_t fi, enum bt_asm_syntax syntax,
		      struct bt_error *err)
{
	struct bt_sfunc *sf;
	int k = syntax == BT_ASM_INTEL;

	if (fi >= s->funcs.n) {
		bt_error_set(err, BT_EINVAL, "no function %zu", fi);
		return NULL;
	}
	sf = &s->funcs.v[fi];
	if (sf->ann[k] == NULL)
		sf->ann[k] = annotate(s, sf, syntax, true, err);
	return sf->ann[k];
}

struct bt_annotation *
bt_session_code(struct bt_session *s, size_t fi)
{
	struct bt_sfunc *sf;

	if (fi >= s->funcs.n)
		return NULL;
	sf = &s->funcs.v[fi];
	if (sf->ann[0] != NULL)
		return sf->ann[0];
	if (sf->ann[2] == NULL)
		sf->ann[2] = annotate(s, sf, BT_ASM_ATT, false, NULL);
	return sf->ann[2];
}

void
bt_session_forget(struct bt_session *s, size_t fi)
{
	size_t j;

	if (fi >= s->funcs.n)
		return;
	for (j = 0; j < BT_ARRAY_SIZE(s->funcs.v[fi].ann); j++) {
		bt_annotation_free(s->funcs.v[fi].ann[j]);
		s->funcs.v[fi].ann[j] = NULL;
	}
}

uint32_t
bt_session_func_module(const struct bt_session *s, size_t fi)
{
	return s->funcs.v[fi].module;
}

/* Resolve the event, aggregate the window's samples, build the function table. */
static int
select_data(struct bt_session *s, struct bt_error *err)
{
	struct bt_profile *p = s->p;
	bt_frame_match_fn match;
	void *arg;
	size_t i;
	int attr = bt_session_default_event(p);

	if (s->o.event != NULL) {
		attr = -1;
		for (i = 0; i < p->info.nevents; i++)
			if (strcmp(p->info.events[i], s->o.event) == 0)
				attr = (int)i;
		if (attr < 0) {
			struct bt_strbuf sb = BT_STRBUF_INIT;
			for (i = 0; i < p->info.nevents; i++)
				bt_strbuf_addf(&sb, "%s'%s'", i ? ", " : "",
				    p->info.events[i]);
			bt_error_set(err, BT_EINVAL,
			    "no event '%s' in the recording (it has %s)",
			    s->o.event, sb.buf);
			bt_strbuf_release(&sb);
			return -BT_EINVAL;
		}
	}
	drop_selection(s);
	s->attr = attr;
	s->o.event = p->info.nevents ? p->info.events[attr] : NULL;
	if (aggregate(s, err) < 0)
		return -BT_EIO;
	bt_qsort(s->hits.v, s->hits.n, sizeof(*s->hits.v), hit_cmp);
	build_funcs(s);
	/* a focus, or the selected benchmark's entry frame (bench.c) */
	match = s->focus;
	arg = s->focus_arg;
	if (match == NULL && p->chains != NULL)
		bt_bench_focus(s, &match, &arg);
	if (match != NULL && p->chains != NULL) {
		/* the samples through the focus: their leaves are the hits */
		struct bt_hist_entry *leaves;
		size_t n = bt_callgraph_focus(s, match, arg, &leaves);

		s->funcs.n = 0;
		s->hits.n = 0;
		s->samples = s->period = 0;
		for (i = 0; i < n; i++)
			add_hit(s, &leaves[i]);
		free(leaves);
		bt_qsort(s->hits.v, s->hits.n, sizeof(*s->hits.v), hit_cmp);
		build_funcs(s);
	}
	bt_callgraph_build(s);
	return 0;
}

void
bt_session_opts_init(struct bt_session_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->time_from = o->time_to = -1;
	o->region_threshold = 1;
	o->region_margin = 8;
}

struct bt_session *
bt_session_new(struct bt_profile *p, const struct bt_session_opts *o,
	       struct bt_error *err)
{
	struct bt_session *s = bt_xcalloc(1, sizeof(*s));
	size_t i;

	s->p = p;
	s->bench = -1;
	if (o != NULL)
		s->o = *o;
	else
		bt_session_opts_init(&s->o);
	bt_strpool_init(&s->pool);
	s->cg.kfunc = -1;
	s->mods = bt_xcalloc(p->modules.n, sizeof(*s->mods));
	for (i = 0; i < p->modules.n; i++) {
		const char *slash = strrchr(p->modules.v[i].path, '/');
		s->mods[i].name = bt_xstrdup(slash && slash[1] ? slash + 1 :
		    p->modules.v[i].path);
	}
	s->src = bt_srccache_new();
	if (select_data(s, err) < 0) {
		bt_session_free(s);
		return NULL;
	}
	for (i = 0; i < p->info.nnotes; i++)
		bt_session_notef(s, "%s", p->info.notes[i]);
	bt_session_events_note(s);
	if (p->chains != NULL && bt_chains_truncated(p) >= 20 &&
	    bt_chains_truncated(p) * 50 > p->info.samples)
		bt_session_notef(s, "the call chains of %.0f%% of the samples end early "
		    "(code without frame pointers deeper than the stack copy): "
		    "outer functions' inclusive shares are low; record with "
		    "--call-graph dwarf, or build with -fno-omit-frame-pointer",
		    100.0 * (double)bt_chains_truncated(p) / (double)p->info.samples);
	if (p->unresolved)
		bt_session_notef(s, "%llu samples fell outside every recorded mapping",
		    (unsigned long long)p->unresolved);
	return s;
}

int
bt_session_select(struct bt_session *s, const char *event, double from,
		  double to, bool percent, struct bt_error *err)
{
	struct bt_session_opts old = s->o;

	s->o.event = event;
	s->o.time_from = from;
	s->o.time_to = to;
	s->o.time_percent = percent;
	if (select_data(s, err) < 0) {
		/* back to what worked: its data is at hand, this cannot fail */
		s->o = old;
		select_data(s, NULL);
		return -BT_EINVAL;
	}
	return 0;
}

void
bt_session_free(struct bt_session *s)
{
	size_t i, j;

	if (s == NULL)
		return;
	drop_selection(s);
	for (i = 0; i < BT_CACHE_COUNT; i++)
		bt_session_set_cache(s, (enum bt_session_cache)i, NULL, NULL);
	bt_benches_free(s->benches);
	BT_VEC_FREE(s->funcs);
	BT_VEC_FREE(s->hits);
	if (s->mods != NULL)
		for (i = 0; i < s->p->modules.n; i++) {
			bt_msyms_free(s->mods[i].syms);
			BT_VEC_FREE(s->mods[i].guessed);
			free(s->mods[i].name);
			free(s->mods[i].image);
		}
	free(s->mods);
	for (i = 0; i < s->notes.n; i++)
		free(s->notes.v[i]);
	BT_VEC_FREE(s->notes);
	for (i = 0; i < BT_ARRAY_SIZE(s->dis); i++)
		for (j = 0; j < 2; j++)
			bt_disasm_free(s->dis[i][j]);
	if (s->src != NULL)
		bt_srccache_free(s->src);
	bt_ksyms_free(s->ksyms);
	bt_strpool_release(&s->pool);
	bt_profile_free(s->p);
	free(s);
}

const struct bt_profile_info *
bt_session_info(const struct bt_session *s)
{
	return &s->p->info;
}

const struct bt_session_opts *
bt_session_opts(const struct bt_session *s)
{
	return &s->o;
}

const char *
bt_session_event(const struct bt_session *s)
{
	return s->p->info.nevents ? s->p->info.events[s->attr] : "";
}

uint64_t
bt_session_samples(const struct bt_session *s)
{
	return s->samples;
}

uint64_t
bt_session_period(const struct bt_session *s)
{
	return s->period;
}

void
bt_session_window(const struct bt_session *s, double *from, double *to)
{
	*from = s->win_from;
	*to = s->win_to;
}

size_t
bt_session_nfuncs(const struct bt_session *s)
{
	return s->funcs.n;
}

const struct bt_func *
bt_session_func(const struct bt_session *s, size_t i)
{
	return i < s->funcs.n ? &s->funcs.v[i].pub : NULL;
}

/* Does function i match name in tier: 0 the whole name, 1 as perf prints it, 2 a prefix of either. */
static bool
name_matches(const struct bt_session *s, size_t i, const char *name, int tier)
{
	const char *full = s->funcs.v[i].pub.name;
	char buf[1024];

	switch (tier) {
	case 0:
		return strcmp(full, name) == 0;
	case 1:
		return strcmp(bt_name_short(full, false, buf, sizeof(buf)), name) == 0;
	default:
		return strncmp(full, name, strlen(name)) == 0 ||
		    strncmp(bt_name_short(full, false, buf, sizeof(buf)), name,
		    strlen(name)) == 0;
	}
}

size_t
bt_session_find_all(const struct bt_session *s, const char *name, size_t *idx,
		    size_t max)
{
	size_t i, n = 0;
	int tier;

	for (tier = 0; tier < 3 && n == 0; tier++)
		for (i = 0; i < s->funcs.n; i++)
			if (name_matches(s, i, name, tier)) {
				if (n < max)
					idx[n] = i;
				n++;
			}
	return n;
}

long
bt_session_find(const struct bt_session *s, const char *name)
{
	size_t idx[1];
	size_t n = bt_session_find_all(s, name, idx, 1);

	return n == 1 ? (long)idx[0] : n == 0 ? -1 : -2;
}

char *
bt_session_find_error(const struct bt_session *s, const char *name)
{
	size_t idx[8], n = bt_session_find_all(s, name, idx, BT_ARRAY_SIZE(idx)), i;
	struct bt_strbuf sb = BT_STRBUF_INIT;

	if (n == 0)
		return bt_xasprintf("no sampled function '%s' (see the hot-function table)",
		    name);
	bt_strbuf_addf(&sb, "'%s' names %zu functions: ", name, n);
	for (i = 0; i < n && i < BT_ARRAY_SIZE(idx); i++)
		bt_strbuf_addf(&sb, "%s'%s'", i ? ", " : "", s->funcs.v[idx[i]].pub.name);
	if (n > BT_ARRAY_SIZE(idx))
		bt_strbuf_addstr(&sb, ", ...");
	bt_strbuf_addstr(&sb, " (give one of them whole)");
	return bt_strbuf_detach(&sb, NULL);
}

long
bt_session_func_at(struct bt_session *s, uint32_t mi, uint64_t addr)
{
	struct bt_sfunc *sf;
	struct bt_msyms *m;
	struct bt_func_sym fs;
	size_t i;

	for (i = 0; i < s->funcs.n; i++) {
		sf = &s->funcs.v[i];
		if (sf->module == mi && ((addr >= sf->pub.start && addr < sf->pub.end) ||
		    (addr == sf->pub.start && sf->pub.end <= sf->pub.start)))
			return (long)i;
	}
	m = bt_session_syms(s, mi);
	if (m == NULL || bt_msyms_func(m, addr, &fs) < 0)
		return -1;
	new_func(s, mi, s->hits.n, fs.name, fs.start, fs.end,
	    fs.src == BT_FUNC_FDE ? BT_FK_STRIPPED : BT_FK_SYMBOL);
	sf = &s->funcs.v[s->funcs.n - 1];
	sf->hit_lo = sf->hit_hi = 0;
	entry_line(s, sf);
	return (long)(s->funcs.n - 1);
}

long
bt_session_callee(struct bt_session *s, size_t func, uint64_t addr)
{
	if (func >= s->funcs.n)
		return -1;
	return bt_session_func_at(s, s->funcs.v[func].module, addr);
}

size_t
bt_session_nnotes(const struct bt_session *s)
{
	return s->notes.n;
}

const char *
bt_session_note(const struct bt_session *s, size_t i)
{
	return i < s->notes.n ? s->notes.v[i] : NULL;
}
