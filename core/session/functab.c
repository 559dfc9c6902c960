/*
 * A selection's hot-function table: its samples by address are grouped
 * into functions with one binary search per function through the
 * module's symbol index (DESIGN.md §1: a million samples touch a few
 * thousand addresses), and each function's annotation is built on first
 * use and kept.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "disasm/disasm.h"
#include "jit/jitset.h"
#include "session/session-int.h"
#include "symbols/symbols.h"

#define GUESS_GAP 256	/* bytes between sampled addresses of one guessed function */
#define LOCATE_TOP 30	/* table rows that always get their source location */
#define LOCATE_MIN_PERCENT 0.5

void
bt_functab_add_hit(struct bt_selection *sel, const struct bt_hist_entry *e)
{
	struct bt_msyms *m = bt_session_syms(sel->s, e->module);
	struct bt_hit h;

	h.module = e->module;
	h.addr = e->off;
	h.samples = e->samples;
	h.period = e->period;
	if (m != NULL && bt_msyms_off_to_addr(m, e->off, &h.addr) < 0)
		h.addr = e->off;
	BT_VEC_PUSH(sel->hits, h);
	sel->samples += e->samples;
	sel->period += e->period;
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

void
bt_functab_sort_hits(struct bt_selection *sel)
{
	size_t i;

	/* the histogram's order, translated: sorted already, as a rule */
	for (i = 1; i < sel->hits.n && hit_cmp(&sel->hits.v[i - 1], &sel->hits.v[i]) <= 0; i++)
		;
	if (i < sel->hits.n)
		bt_qsort(sel->hits.v, sel->hits.n, sizeof(*sel->hits.v), hit_cmp);
}

void
bt_functab_sub_hits(struct bt_selection *sel, const struct bt_hist_entry *e, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		struct bt_msyms *m = bt_session_syms(sel->s, e[i].module);
		struct bt_hit key, *h;

		key.module = e[i].module;
		key.addr = e[i].off;
		if (m != NULL && bt_msyms_off_to_addr(m, e[i].off, &key.addr) < 0)
			key.addr = e[i].off;
		h = bsearch(&key, sel->hits.v, sel->hits.n, sizeof(*h), hit_cmp);
		if (h == NULL)
			continue;
		h->samples -= BT_MIN(h->samples, e[i].samples);
		h->period -= BT_MIN(h->period, e[i].period);
		sel->samples -= BT_MIN(sel->samples, e[i].samples);
		sel->period -= BT_MIN(sel->period, e[i].period);
	}
	for (i = 0, k = 0; i < sel->hits.n; i++)
		if (sel->hits.v[i].samples > 0)
			sel->hits.v[k++] = sel->hits.v[i];
	sel->hits.n = k;
}

static int
func_cmp(const void *a, const void *b)
{
	const struct bt_sfunc *x = a, *y = b;

	if (x->pub.samples != y->pub.samples)
		return x->pub.samples > y->pub.samples ? -1 : 1;
	if (x->pub.mod != y->pub.mod)
		return x->pub.mod < y->pub.mod ? -1 : 1;
	return x->pub.start < y->pub.start ? -1 : x->pub.start > y->pub.start;
}

static void
new_func(struct bt_selection *sel, uint32_t mi, size_t hit, const char *name,
	 uint64_t start, uint64_t end, enum bt_func_kind kind)
{
	struct bt_session *s = sel->s;
	const struct bt_module *m = &s->p->modules.v[mi];
	struct bt_sfunc f;

	memset(&f, 0, sizeof(f));
	f.pub.mod = mi;
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
	BT_VEC_PUSH(sel->funcs, f);
}

size_t
bt_functab_add(struct bt_selection *sel, uint32_t mi, const char *name,
	       uint64_t start, uint64_t end, enum bt_func_kind kind)
{
	struct bt_sfunc *f;

	new_func(sel, mi, sel->hits.n, name, start, end, kind);
	f = &sel->funcs.v[sel->funcs.n - 1];
	f->hit_lo = f->hit_hi = 0;
	if (kind == BT_FK_INLINE) {	/* no code, no line of its own */
		f->located = true;
		f->pub.can_annotate = false;
	}
	return sel->funcs.n - 1;
}

/* The source location of a function's first instruction. */
static void
entry_line(struct bt_session *s, struct bt_sfunc *f)
{
	const struct bt_line *rows;
	uint32_t mi = f->pub.mod;

	f->located = true;
	if (s->mods[mi].syms == NULL || f->pub.end <= f->pub.start ||
	    !bt_session_dwarf(s, mi))
		return;
	if (bt_msyms_lines(s->mods[mi].syms, f->pub.start, f->pub.start + 1, &rows) > 0 &&
	    rows[0].line) {
		f->pub.file = rows[0].file;
		f->pub.line = rows[0].line;
	}
}

/* Module mi's code no symbol or FDE covers, sampled anywhere in the run, sorted. */
static void
guess_module(struct bt_session *s, uint32_t mi)
{
	struct bt_smod *sm = &s->mods[mi];
	const struct bt_profile *p = s->p;
	BT_VEC(uint64_t) a = { 0 };
	struct bt_func_sym fs;
	size_t i, hi;

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

/*
 * Code no symbol or FDE covers: functions guessed from the addresses the
 * whole run sampled (every event, whatever the window), grouped where they
 * lie less than GUESS_GAP apart, so that the same code has the same name
 * and bounds in every selection. Built once per module, for the session.
 */
static bool
guessed_range(struct bt_session *s, uint32_t mi, uint64_t addr, uint64_t *start,
	      uint64_t *end)
{
	struct bt_smod *sm = &s->mods[mi];
	size_t lo, hi;

	if (!sm->guessed_done)
		guess_module(s, mi);
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

/* The function hit h starts: by kallsyms, symbol, FDE, or a guess. */
static void
func_of_hit(struct bt_selection *sel, size_t i)
{
	struct bt_session *s = sel->s;
	const struct bt_hit *h = &sel->hits.v[i];
	const struct bt_module *m = &s->p->modules.v[h->module];
	struct bt_msyms *ms = s->mods[h->module].syms;
	struct bt_func_sym fs;
	const char *kname;
	uint64_t start, end;
	char name[512];

	if (m->kind == BT_MOD_KERNEL && bt_session_kernel_func(s, h->addr, &kname,
	    &start, &end))
		new_func(sel, h->module, i, kname, start, end, BT_FK_KERNEL);
	else if (m->kind == BT_MOD_KERNEL)
		new_func(sel, h->module, i, "[kernel]", 0, 0, BT_FK_KERNEL);
	else if (m->kind == BT_MOD_UNKNOWN)
		new_func(sel, h->module, i, "[unknown]", 0, 0, BT_FK_UNKNOWN);
	else if (m->kind == BT_MOD_ANON && strcmp(m->path, "[uprobes]") == 0)
		/*
		 * the kernel's page where it runs the instructions uprobes
		 * replaced (benchtui's probes on a harness), one slot a thread:
		 * one function, named as perf's [unknown] ([uprobes])
		 */
		new_func(sel, h->module, i, "[uprobes]", h->addr & ~(uint64_t)0xfff,
		    (h->addr & ~(uint64_t)0xfff) + 0x1000, BT_FK_GUESSED);
	else if (ms != NULL && bt_msyms_func(ms, h->addr, &fs) == 0)
		new_func(sel, h->module, i, fs.name, fs.start, fs.end,
		    fs.src == BT_FUNC_FDE ? BT_FK_STRIPPED : BT_FK_SYMBOL);
	else {
		if (!guessed_range(s, h->module, h->addr, &start, &end)) {
			start = h->addr;	/* not in the whole run: cannot be */
			end = h->addr + 1;
		}
		snprintf(name, sizeof(name), "%s+0x%llx", s->mods[h->module].name,
		    (unsigned long long)start);
		new_func(sel, h->module, i, name, start, end, BT_FK_GUESSED);
	}
}

void
bt_functab_build(struct bt_selection *sel)
{
	struct bt_sfunc *cur = NULL;
	size_t i;

	for (i = 0; i < sel->hits.n; i++) {
		const struct bt_hit *h = &sel->hits.v[i];

		if (cur != NULL && cur->pub.mod == h->module &&
		    (h->addr < cur->pub.end ||
		     (cur->pub.kind == BT_FK_KERNEL && cur->pub.end == 0) ||
		     cur->pub.kind == BT_FK_UNKNOWN)) {
			cur->hit_hi = i + 1;
			continue;
		}
		func_of_hit(sel, i);
		cur = &sel->funcs.v[sel->funcs.n - 1];
		cur->hit_hi = i + 1;
	}
	for (i = 0; i < sel->funcs.n; i++) {
		struct bt_sfunc *f = &sel->funcs.v[i];
		size_t k;

		for (k = f->hit_lo; k < f->hit_hi; k++) {
			f->pub.samples += sel->hits.v[k].samples;
			f->pub.period += sel->hits.v[k].period;
		}
		f->pub.percent = sel->samples ? 100.0 * (double)f->pub.samples /
		    (double)sel->samples : 0;
	}
	bt_qsort(sel->funcs.v, sel->funcs.n, sizeof(*sel->funcs.v), func_cmp);
	/*
	 * The hot rows' source locations now, unless sources are off: this
	 * loads the DWARF of their modules, which then also gives the call
	 * chains their inline frames (callgraph.c).
	 */
	for (i = 0; i < sel->funcs.n && !sel->s->o.no_source; i++)
		bt_selection_func_locate(sel, i, false);
}

/*
 * Source locations for the table, when it shows them: every row when
 * asked (exports), else the hot rows and any whose module's DWARF is
 * loaded anyway. Loading (often decompressing) a library's debug info for
 * a function with a few samples is what makes a first screen slow.
 */
void
bt_selection_func_locate(struct bt_selection *sel, size_t i, bool all)
{
	struct bt_sfunc *f;

	if (i >= sel->funcs.n || sel->funcs.v[i].located)
		return;
	f = &sel->funcs.v[i];
	if (all || i < LOCATE_TOP || f->pub.percent >= LOCATE_MIN_PERCENT ||
	    sel->s->mods[f->pub.mod].dwarf_checked)
		entry_line(sel->s, f);
}

void
bt_functab_release(struct bt_selection *sel)
{
	size_t i, j;

	for (i = 0; i < sel->funcs.n; i++)
		for (j = 0; j < BT_ARRAY_SIZE(sel->funcs.v[i].ann); j++)
			bt_annotation_free(sel->funcs.v[i].ann[j]);
	BT_VEC_FREE(sel->funcs);
	BT_VEC_FREE(sel->hits);
}

/*
 * Does the event sample the instruction itself? precise_ip 2 and up asks
 * the PMU for zero skid (PEBS, IBS); a software event (cpu-clock:pp) has
 * its skid whatever it asks, as perf accepts the modifier and ignores it.
 */
static bool
precise(const struct perf_event_attr *a)
{
	return a->precise_ip >= 2 && a->type != PERF_TYPE_SOFTWARE &&
	    a->type != PERF_TYPE_TRACEPOINT && a->type != PERF_TYPE_BREAKPOINT;
}

/* What function sf's annotation is made from; false with err set if nothing. */
static bool
annotate_in(struct bt_selection *sel, struct bt_sfunc *sf, enum bt_asm_syntax syntax,
	    bool lines, struct bt_annotate_in *in, struct bt_jit_ask *ask,
	    struct bt_error *err)
{
	struct bt_session *s = sel->s;
	const struct bt_func *f = &sf->pub;
	struct bt_msyms *m = bt_session_syms(s, f->mod);

	if (m == NULL || !f->can_annotate) {
		bt_error_set(err, BT_ENODATA, "no code for '%s' (%s)", f->name,
		    f->kind == BT_FK_KERNEL ? "kernel code is not annotated" :
		    "its module could not be read");
		return false;
	}
	memset(in, 0, sizeof(*in));
	in->syms = m;
	in->dis = bt_session_disasm(s, m, syntax, err);
	if (in->dis == NULL)
		return false;
	in->name = f->name;
	in->module_name = f->module_name;
	in->start = f->start;
	in->end = f->end;
	in->by_address = f->kind != BT_FK_SYMBOL;
	in->hits = sel->hits.v + sf->hit_lo;
	in->nhits = sf->hit_hi - sf->hit_lo;
	in->lines = lines && bt_session_dwarf(s, f->mod);
	in->precise = s->p->event_attrs != NULL && precise(&s->p->event_attrs[sel->attr]);
	in->intel = strncmp(s->p->meta.cpu_id, "GenuineIntel,", 13) == 0;
	in->region_threshold = s->o.region_threshold / 100;
	in->region_margin = s->o.region_margin;
	if (s->p->modules.v[f->mod].kind == BT_MOD_JIT) {
		in->name_at = bt_session_jit_name_at;
		in->slot_name = bt_session_jit_slot_name;
		if (s->p->modules.v[f->mod].jit->inl != NULL) {
			in->chain_at = bt_session_jit_chain_at;
			in->bci_at = bt_session_jit_bci_at;
		}
		in->name_arg = ask;
	}
	return true;
}

static struct bt_annotation *
annotate(struct bt_selection *sel, struct bt_sfunc *sf, enum bt_asm_syntax syntax,
	 bool lines, struct bt_error *err)
{
	struct bt_annotate_in in;
	struct bt_jit_ask ask = { sel->s, sf->pub.mod, NULL };
	struct bt_annotation *a = NULL;

	/*
	 * AT&T with lines when the code without them is made already (lint
	 * looked at the function's loops): the lines joined into it, in
	 * place, rather than the function decoded again
	 */
	if (syntax == BT_ASM_ATT && lines && sf->ann[2] != NULL) {
		if (!annotate_in(sel, sf, syntax, lines, &in, &ask, err))
			return NULL;
		a = sf->ann[2];
		sf->ann[2] = NULL;
		bt_annotate_add_lines(a, &in);
	} else if (annotate_in(sel, sf, syntax, lines, &in, &ask, err))
		a = bt_annotate(&in, err);
	bt_session_jit_ask_release(&ask);
	return a;
}

struct bt_annotation *
bt_selection_annotation(struct bt_selection *sel, size_t fi,
			enum bt_asm_syntax syntax, struct bt_error *err)
{
	struct bt_sfunc *sf;
	int k = syntax == BT_ASM_INTEL;

	if (fi >= sel->funcs.n) {
		bt_error_set(err, BT_EINVAL, "no function %zu", fi);
		return NULL;
	}
	sf = &sel->funcs.v[fi];
	if (sf->ann[k] == NULL)
		sf->ann[k] = annotate(sel, sf, syntax, true, err);
	return sf->ann[k];
}

bool
bt_selection_func_dwarf(struct bt_selection *sel, size_t fi)
{
	return fi < sel->funcs.n && bt_session_dwarf(sel->s, sel->funcs.v[fi].pub.mod);
}

struct bt_annotation *
bt_selection_code(struct bt_selection *sel, size_t fi)
{
	struct bt_sfunc *sf;

	if (fi >= sel->funcs.n)
		return NULL;
	sf = &sel->funcs.v[fi];
	if (sf->ann[0] != NULL)
		return sf->ann[0];
	/*
	 * Its module's DWARF read already (the table's Source column): the
	 * annotation Enter opens, built once for both (the hottest function
	 * is the lint's first and the one a user opens first)
	 */
	if (sf->ann[2] == NULL && sf->pub.end - sf->pub.start <= BT_CODE_SHARED_MAX &&
	    sel->s->mods[sf->pub.mod].dwarf_checked &&
	    bt_session_dwarf(sel->s, sf->pub.mod))
		return bt_selection_annotation(sel, fi, BT_ASM_ATT, NULL);
	if (sf->ann[2] == NULL)
		sf->ann[2] = annotate(sel, sf, BT_ASM_ATT, false, NULL);
	return sf->ann[2];
}

void
bt_selection_code_done(struct bt_selection *sel, size_t fi)
{
	if (fi >= sel->funcs.n)
		return;
	bt_annotation_free(sel->funcs.v[fi].ann[2]);
	sel->funcs.v[fi].ann[2] = NULL;
}

void
bt_selection_forget(struct bt_selection *sel, size_t fi)
{
	size_t j;

	if (fi >= sel->funcs.n)
		return;
	for (j = 0; j < BT_ARRAY_SIZE(sel->funcs.v[fi].ann); j++) {
		bt_annotation_free(sel->funcs.v[fi].ann[j]);
		sel->funcs.v[fi].ann[j] = NULL;
	}
}

/* Does function i match name in tier: 0 the whole name, 1 as perf prints it, 2 a prefix of either. */
static bool
name_matches(const struct bt_selection *sel, size_t i, const char *name, int tier)
{
	const char *full = sel->funcs.v[i].pub.name;
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

/* Is f in the module mod[0..len): its path, its basename, or the path's end after a '/'? */
static bool
module_matches(const struct bt_func *f, const char *mod, size_t len)
{
	size_t n = f->module != NULL ? strlen(f->module) : 0;

	if (len == 0)
		return true;
	if (f->module_name != NULL && strlen(f->module_name) == len &&
	    memcmp(f->module_name, mod, len) == 0)
		return true;
	return n >= len && memcmp(f->module + n - len, mod, len) == 0 &&
	    (n == len || f->module[n - len - 1] == '/');
}

/* Does s[0..] read as "0x" and hex digits only? Sets *addr. */
static bool
hex_addr(const char *s, uint64_t *addr)
{
	char *end;

	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || !isxdigit((unsigned char)s[2]))
		return false;
	errno = 0;
	*addr = strtoull(s + 2, &end, 16);
	return *end == '\0' && errno == 0;
}

/*
 * The functions a spec that is no function's name picks: "0xADDR" (the
 * one holding that link-time address, objdump's, in any module),
 * "MODULE+0xADDR" (in that module: as benchtui names code without a
 * symbol), "NAME@MODULE" (NAME by the name rules, in that module).
 */
static size_t
find_spec(const struct bt_selection *sel, const char *spec, size_t *idx, size_t max)
{
	const char *plus = strstr(spec, "+0x"), *at = strrchr(spec, '@'), *p;
	size_t i, n = 0, mlen = 0;
	char *name = NULL;
	uint64_t addr;
	int tier, ntiers;

	for (p = plus; p != NULL; p = strstr(p + 1, "+0x"))
		plus = p;	/* the last one */
	if (hex_addr(spec, &addr))
		plus = NULL;
	else if (plus != NULL && hex_addr(plus + 1, &addr))
		mlen = (size_t)(plus - spec);
	else if (at != NULL && at != spec && at[1] != '\0')
		name = bt_xstrndup(spec, (size_t)(at - spec));
	else
		return 0;
	ntiers = name != NULL ? 3 : 1;	/* addresses have no tiers */
	for (tier = 0; tier < ntiers && n == 0; tier++)
		for (i = 0; i < sel->funcs.n; i++) {
			const struct bt_func *f = &sel->funcs.v[i].pub;
			bool hit = name != NULL ? module_matches(f, at + 1, strlen(at + 1)) &&
			    name_matches(sel, i, name, tier) :
			    module_matches(f, spec, mlen) && (addr == f->start ||
			    (addr > f->start && addr < f->end));
			if (hit) {
				if (n < max)
					idx[n] = i;
				n++;
			}
		}
	free(name);
	return n;
}

size_t
bt_selection_find_all(const struct bt_selection *sel, const char *name, size_t *idx,
		      size_t max)
{
	size_t i, n = 0;
	int tier;

	for (tier = 0; tier < 3 && n == 0; tier++)
		for (i = 0; i < sel->funcs.n; i++)
			if (name_matches(sel, i, name, tier)) {
				if (n < max)
					idx[n] = i;
				n++;
			}
	return n ? n : find_spec(sel, name, idx, max);
}

long
bt_selection_find(const struct bt_selection *sel, const char *name)
{
	size_t idx[1];
	size_t n = bt_selection_find_all(sel, name, idx, 1);

	return n == 1 ? (long)idx[0] : n == 0 ? -1 : -2;
}

char *
bt_selection_find_error(const struct bt_selection *sel, const char *name)
{
	size_t idx[8], n = bt_selection_find_all(sel, name, idx, BT_ARRAY_SIZE(idx)), i;
	struct bt_strbuf sb = BT_STRBUF_INIT;

	if (n == 0)
		return bt_xasprintf("no sampled function '%s' (see the hot-function table)",
		    name);
	bt_strbuf_addf(&sb, "'%s' names %zu functions: ", name, n);
	for (i = 0; i < n && i < BT_ARRAY_SIZE(idx); i++) {
		const struct bt_func *f = &sel->funcs.v[idx[i]].pub;
		bt_strbuf_addf(&sb, "%s'%s' (%s+0x%llx)", i ? ", " : "", f->name,
		    f->module_name, (unsigned long long)f->start);
	}
	if (n > BT_ARRAY_SIZE(idx))
		bt_strbuf_addstr(&sb, ", ...");
	bt_strbuf_addstr(&sb, ": give one whole, as MODULE+0xADDR, or as NAME@MODULE");
	return bt_strbuf_detach(&sb, NULL);
}

long
bt_selection_func_find(const struct bt_selection *sel, uint32_t mod, uint64_t start)
{
	size_t i;

	for (i = 0; i < sel->funcs.n; i++)
		if (sel->funcs.v[i].pub.mod == mod && sel->funcs.v[i].pub.start == start)
			return (long)i;
	return -1;
}

long
bt_selection_func_at(struct bt_selection *sel, uint32_t mi, uint64_t addr)
{
	struct bt_sfunc *sf;
	struct bt_msyms *m;
	struct bt_func_sym fs;
	size_t i;

	for (i = 0; i < sel->funcs.n; i++) {
		sf = &sel->funcs.v[i];
		if (sf->pub.mod == mi && ((addr >= sf->pub.start && addr < sf->pub.end) ||
		    (addr == sf->pub.start && sf->pub.end <= sf->pub.start)))
			return (long)i;
	}
	if (mi >= sel->s->p->modules.n)
		return -1;
	m = bt_session_syms(sel->s, mi);
	if (m == NULL || bt_msyms_func(m, addr, &fs) < 0)
		return -1;
	new_func(sel, mi, sel->hits.n, fs.name, fs.start, fs.end,
	    fs.src == BT_FUNC_FDE ? BT_FK_STRIPPED : BT_FK_SYMBOL);
	sf = &sel->funcs.v[sel->funcs.n - 1];
	sf->hit_lo = sf->hit_hi = 0;
	entry_line(sel->s, sf);
	return (long)(sel->funcs.n - 1);
}
