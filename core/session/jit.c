/*
 * JIT modules in the session: each piece of JIT code the machine placed
 * (core/machine/machine-jit.c) is opened as an ELF image made of its code
 * bytes, with the line table the runtime wrote, so that the function
 * table, annotation, source view and exports treat it as any function.
 */
#include <stdlib.h>
#include <string.h>

#include "jit/jitdump.h"
#include "jit/jitelf.h"
#include "jit/jitset.h"
#include "jit/v8builtins.h"
#include "session/session-int.h"
#include "symbols/symbols.h"

static int
line_cmp(const void *a, const void *b)
{
	const struct bt_line *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/*
 * The script of a V8 name, "JS:*hotLoop /path/hot.js:6:17" -> "/path/hot.js"
 * (node 20 writes user scripts' file names in its line tables from freed
 * memory: the reader leaves them empty), into buf; NULL when none.
 */
static const char *
script_of(const char *name, char *buf, size_t len)
{
	const char *sp = strchr(name, ' ');
	size_t n;
	int k;

	if (sp == NULL || strncmp(name, "JS:", 3) != 0)
		return NULL;
	n = strlen(sp + 1);
	if (n == 0 || n >= len)
		return NULL;
	memcpy(buf, sp + 1, n + 1);
	for (k = 0; k < 2; k++) {	/* :line:column */
		char *c = strrchr(buf, ':');
		if (c == NULL || c[1] < '0' || c[1] > '9' || strspn(c + 1, "0123456789") != strlen(c + 1))
			break;
		*c = '\0';
	}
	return buf[0] ? buf : NULL;
}

/* V8's tier mark of a name ("JS:*f ..." -> '*'), 0 for none. */
static char
v8_tier(const char *name)
{
	if (strncmp(name, "JS:", 3) != 0 || name[3] == '\0' ||
	    strchr("*~^+-", name[3]) == NULL)
		return 0;
	return name[3];
}

static uint64_t
pos_key(uint32_t line, uint32_t col)
{
	return (uint64_t)line << 32 | col;
}

static int
u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static bool
has_key(const uint64_t *v, size_t n, uint64_t k)
{
	return n > 0 && bsearch(&k, v, n, sizeof(*v), u64_cmp) != NULL;
}

/* Sort and drop duplicates; the new count. */
static size_t
uniq(uint64_t *v, size_t n)
{
	size_t i, k = 0;

	if (n > 1)
		bt_qsort(v, n, sizeof(*v), u64_cmp);
	for (i = 0; i < n; i++)
		if (k == 0 || v[k - 1] != v[i])
			v[k++] = v[i];
	return k;
}

/*
 * Where V8's positions in optimized code come from (docs/jit.md, "node
 * code inlined from another script"). node 20's V8 writes every line
 * entry of a piece of code with the name of its outer function's script
 * (from freed memory: the reader leaves it ""), inlined functions' too,
 * whose lines and columns are their own script's. A position of the
 * outer function is one its unoptimized code (Sparkplug's, the
 * interpreter's) has, or where its name says it starts; any other comes
 * from a function inlined into it: the function of another load whose
 * table has that position, among those that hold the most of the code's
 * unexplained positions. When they are all of one script, the entry is
 * that script's; else it is unknown. struct whose holds the answer.
 */
struct whose {
	uint64_t *own, *unexpl;
	size_t nown, nunexpl;
	const char **script;	/* per unexplained position, NULL: unknown */
};

static bool
load_has(const struct bt_jit_load *l, uint64_t k)
{
	size_t i;

	for (i = 0; i < l->nlines; i++)
		if (pos_key(l->lines[i].line, l->lines[i].discrim) == k)
			return true;
	return false;
}

/*
 * An entry whose script cannot be trusted: its name unreadable, or the
 * outer function's script, which V8 writes for inlined functions too
 * (node 20 with an ES module's intact "file:///..." names: lib.mjs's
 * sq() inlined into main.mjs's work() is labelled main.mjs:1).
 */
static bool
doubtful(const struct bt_jit_line *l, const char *outer_script)
{
	return l->file[0] == '\0' ||
	    (outer_script != NULL && strcmp(l->file, outer_script) == 0);
}

static bool
whose_build(struct bt_session *s, const struct bt_jit_code *c, struct whose *w)
{
	const char *outer = bt_jit_untiered(c->name), *colon, *oscript;
	const struct bt_jit_load *loads;
	size_t n, i, k, *score;
	char buf[4096], obuf[4096];

	memset(w, 0, sizeof(*w));
	if (v8_tier(c->name) != '*' && v8_tier(c->name) != '+')
		return false;
	oscript = bt_text_is_safe(c->name) ? script_of(c->name, obuf, sizeof(obuf)) : NULL;
	for (i = 0; i < c->nlines; i++)
		if (doubtful(&c->lines[i], oscript))
			break;
	if (i == c->nlines)
		return false;	/* the names are the runtime's own: trusted */
	loads = bt_machine_jit_loads(s->p->machine, c, &n);
	if (loads == NULL)
		return false;
	w->own = bt_xcalloc(1, sizeof(*w->own));
	for (i = 0; i < n; i++) {
		const struct bt_jit_load *l = &loads[i];
		char t = v8_tier(l->name);

		if ((t != '~' && t != '^') || strcmp(bt_jit_untiered(l->name), outer) != 0)
			continue;
		w->own = bt_xreallocarray(w->own, w->nown + l->nlines + 2, sizeof(*w->own));
		for (k = 0; k < l->nlines; k++)
			w->own[w->nown++] = pos_key(l->lines[k].line, l->lines[k].discrim);
	}
	if (w->nown == 0) {	/* nothing to tell the outer function's positions by */
		free(w->own);
		w->own = NULL;
		return false;
	}
	/* where the name says the function starts: "... /path/x.js:2:17" */
	colon = strrchr(c->name, ':');
	if (colon != NULL && colon > c->name) {
		const char *p = colon - 1;
		while (p > c->name && *p >= '0' && *p <= '9')
			p--;
		if (*p == ':')
			w->own[w->nown++] = pos_key((uint32_t)strtoul(p + 1, NULL, 10),
			    (uint32_t)strtoul(colon + 1, NULL, 10));
	}
	w->nown = uniq(w->own, w->nown);
	w->unexpl = bt_xcalloc(c->nlines + 1, sizeof(*w->unexpl));
	for (i = 0; i < c->nlines; i++) {
		uint64_t key = pos_key(c->lines[i].line, c->lines[i].discrim);
		if (doubtful(&c->lines[i], oscript) && !has_key(w->own, w->nown, key))
			w->unexpl[w->nunexpl++] = key;
	}
	w->nunexpl = uniq(w->unexpl, w->nunexpl);
	w->script = bt_xcalloc(w->nunexpl + 1, sizeof(*w->script));
	if (w->nunexpl == 0)
		return true;
	/* how many of the unexplained positions each other function holds */
	score = bt_xcalloc(n + 1, sizeof(*score));
	for (i = 0; i < n; i++) {
		const struct bt_jit_load *l = &loads[i];

		if (l->nlines == 0 || strncmp(l->name, "JS:", 3) != 0 ||
		    strcmp(bt_jit_untiered(l->name), outer) == 0)
			continue;
		for (k = 0; k < l->nlines; k++)
			if (has_key(w->unexpl, w->nunexpl,
			    pos_key(l->lines[k].line, l->lines[k].discrim)))
				score[i]++;
	}
	for (k = 0; k < w->nunexpl; k++) {
		size_t best = 0;
		const char *found = NULL;
		bool one = true;

		for (i = 0; i < n; i++)
			if (score[i] > best && load_has(&loads[i], w->unexpl[k]))
				best = score[i];
		for (i = 0; best && i < n && one; i++) {
			const char *sc;
			if (score[i] != best || !load_has(&loads[i], w->unexpl[k]))
				continue;
			sc = bt_text_is_safe(loads[i].name) ?
			    script_of(loads[i].name, buf, sizeof(buf)) : NULL;
			if (sc == NULL)
				one = false;
			else if (found == NULL)
				found = bt_strpool_addstr(&s->pool, sc);
			else if (strcmp(found, sc) != 0)
				one = false;
		}
		w->script[k] = one ? found : NULL;
	}
	free(score);
	return true;
}

static void
whose_release(struct whose *w)
{
	free(w->own);
	free(w->unexpl);
	free(w->script);
}

struct bt_msyms *
bt_session_jit_syms(struct bt_session *s, const struct bt_module *m,
		    struct bt_error *err)
{
	const struct bt_jit_code *c = m->jit;
	struct bt_msyms *ms;
	size_t len, i;
	void *img;

	img = bt_jit_elf_image(c->e_machine, m->jit_name, c->start, c->size,
	    c->code, &len);
	ms = bt_msyms_open(m->path, img, len, err);
	free(img);
	if (ms == NULL || c->nlines == 0)
		return ms;
	{
		struct bt_line *rows = bt_xcalloc(c->nlines + 2, sizeof(*rows));
		char script[4096];
		const char *fallback = bt_text_is_safe(c->name) ?
		    script_of(c->name, script, sizeof(script)) : NULL;
		struct whose w;
		bool known = whose_build(s, c, &w);
		size_t n = 0;

		for (i = 0; i < c->nlines; i++) {
			const struct bt_jit_line *l = &c->lines[i];
			uint64_t a = l->addr - c->load_addr + c->start;

			if (l->addr < c->load_addr || l->addr - c->load_addr >= c->size)
				continue;
			rows[n].addr = a;
			rows[n].line = l->line;
			rows[n].file = l->file[0] && bt_text_is_safe(l->file) ? l->file : fallback;
			if (known && doubtful(l, fallback)) {
				uint64_t key = pos_key(l->line, l->discrim);
				uint64_t *u = bsearch(&key, w.unexpl, w.nunexpl,
				    sizeof(key), u64_cmp);
				/*
				 * inlined: its script, else unknown; a name that
				 * was read changes only for another script
				 */
				if (u != NULL && (l->file[0] == '\0' ||
				    w.script[u - w.unexpl] != NULL))
					rows[n].file = w.script[u - w.unexpl];
			}
			if (rows[n].file == NULL)
				rows[n].line = 0;
			n++;
		}
		bt_qsort(rows, n, sizeof(*rows), line_cmp);
		/*
		 * The runtime's table may start after the code does (HotSpot's
		 * first pc with a bytecode index is past the prologue): the
		 * prologue counts for the first line, as DWARF's would
		 */
		if (n > 0 && rows[0].addr > c->start && rows[0].line) {
			memmove(rows + 1, rows, n * sizeof(*rows));
			rows[0].addr = c->start;
			n++;
		}
		rows[n].addr = c->start + c->size;	/* the end of the code */
		rows[n].file = NULL;
		rows[n].line = 0;
		bt_msyms_set_lines(ms, rows, n + 1);
		free(rows);
		if (known)
			whose_release(&w);
	}
	return ms;
}

const char *
bt_session_jit_name_at(void *arg, uint64_t addr, uint64_t *start)
{
	struct bt_jit_ask *q = arg;
	struct bt_session *s = q->s;
	struct bt_machine *mach = s->p->machine;
	const struct bt_module *m = &s->p->modules.v[q->mi];
	const struct bt_map *map;
	struct bt_func_sym fs;
	struct bt_msyms *ms;
	uint64_t t, off, link;
	const char *n;

	/* the runtime's own code: stubs, builtins, other methods */
	n = bt_machine_jit_name(mach, m->jit, addr, start);
	if (n != NULL) {
		struct bt_textbuf tb = { 0 };
		n = bt_strpool_addstr(&s->pool, bt_text_safe(n, &tb));
		bt_textbuf_release(&tb);
		return n;
	}
	/* a file mapped there (the runtime's library, node's own text) */
	t = m->jit->time ? m->jit->time : UINT64_MAX - 1;
	map = bt_machine_find(mach, bt_machine_jit_pid(mach, m->jit), addr, t);
	if (map == NULL || map->anon)
		return NULL;
	if (s->p->modules.v[map->module].kind != BT_MOD_ELF ||
	    (ms = bt_session_syms(s, map->module)) == NULL)
		return NULL;
	off = addr - map->start + map->pgoff;
	if (bt_msyms_off_to_addr(ms, off, &link) != 0 ||
	    bt_msyms_func(ms, link, &fs) != 0)
		return NULL;
	*start = addr - (link - fs.start);
	return fs.name;
}

/*
 * node's builtin tables (jit/v8builtins.h) from its binary nm: the
 * Builtins_ symbols from the first one, in address order (their ids);
 * the full table's displacement from their own indexed calls; the tier-0
 * table of the V8 version the binary says it is. NULL unless the version
 * is one whose layout was checked and its first builtins are the tier-0
 * ones it names.
 */
static struct bt_v8_tables *
v8_tables(struct bt_msyms *nm, uint64_t first)
{
	struct bt_v8_tables *t;
	struct bt_func_sym fs;
	const struct bt_v8_tier0 *t0;
	const uint8_t *b;
	BT_VEC(const char *) names = { 0 };
	uint64_t a, sz, lo, hi = first;
	int32_t ver[2];
	size_t hits, agree, i;
	long n;

	/* the version: V8's Version::major_ and minor_, ints in .data (x86-64: little-endian) */
	if (bt_msyms_data_named(nm, "_ZN2v88internal7Version6major_E", &a, &sz) != 0 ||
	    sz != 4 || bt_msyms_code(nm, a, a + 4, &b) != 4)
		return NULL;
	ver[0] = (int32_t)((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	    (uint32_t)b[3] << 24);
	if (bt_msyms_data_named(nm, "_ZN2v88internal7Version6minor_E", &a, &sz) != 0 ||
	    sz != 4 || bt_msyms_code(nm, a, a + 4, &b) != 4)
		return NULL;
	ver[1] = (int32_t)((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	    (uint32_t)b[3] << 24);
	if ((t0 = bt_v8_tier0_layout(ver[0], ver[1])) == NULL)
		return NULL;
	for (lo = a = first; bt_msyms_func_from(nm, a, &fs) == 0 &&
	    strncmp(fs.name, "Builtins_", 9) == 0 && fs.end > fs.start; a = fs.end) {
		BT_VEC_PUSH(names, fs.name);
		hi = fs.end;
	}
	for (i = 0; i < t0->n; i++)
		if (i >= names.n || strcmp(names.v[i], t0->names[i]) != 0)
			break;
	n = hi > lo ? bt_msyms_code(nm, lo, hi, &b) : -1;
	if (i < t0->n || n <= 0) {
		BT_VEC_FREE(names);
		return NULL;
	}
	t = bt_xcalloc(1, sizeof(*t));
	t->names = names.v;
	t->n = names.n;
	t->tier0 = t0;
	t->full_disp = bt_v8_index_call_disp(b, (size_t)n, &hits, &agree);
	return t;
}

void
bt_session_v8_free(struct bt_smod *sm)
{
	if (sm->v8 == NULL)
		return;
	free((void *)sm->v8->names);
	free(sm->v8);
	sm->v8 = NULL;
}

const char *
bt_session_jit_slot_name(void *arg, int64_t disp)
{
	struct bt_jit_ask *q = arg;
	struct bt_session *s = q->s;
	struct bt_machine *mach = s->p->machine;
	const struct bt_module *m = &s->p->modules.v[q->mi];
	const struct bt_jit_load *l;
	const struct bt_map *map;
	struct bt_msyms *nm;
	struct bt_func_sym fs;
	uint64_t first = UINT64_MAX, link, t;
	size_t n, i;

	if (m->jit == NULL || (l = bt_machine_jit_loads(mach, m->jit, &n)) == NULL)
		return NULL;
	/* V8's code: its dump names node's embedded builtins "Builtin:X" */
	for (i = 0; i < n; i++)
		if (strncmp(l[i].name, "Builtin:", 8) == 0 && l[i].code_addr < first)
			first = l[i].code_addr;
	if (first == UINT64_MAX)
		return NULL;
	t = m->jit->time ? m->jit->time : UINT64_MAX - 1;
	map = bt_machine_find(mach, bt_machine_jit_pid(mach, m->jit), first, t);
	if (map == NULL || map->anon || s->p->modules.v[map->module].kind != BT_MOD_ELF ||
	    (nm = bt_session_syms(s, map->module)) == NULL ||
	    bt_msyms_off_to_addr(nm, first - map->start + map->pgoff, &link) != 0 ||
	    bt_msyms_func(nm, link, &fs) != 0 || fs.start != link)
		return NULL;
	if (!s->mods[map->module].v8_tried) {
		s->mods[map->module].v8_tried = true;
		s->mods[map->module].v8 = v8_tables(nm, link);
	}
	return s->mods[map->module].v8 != NULL ?
	    bt_v8_slot_name(s->mods[map->module].v8, disp) : NULL;
}

/*
 * The inline chains of one JIT function as bt_inline frames (what DWARF's
 * give), built once per annotation from its pc records: per pc, its frames
 * outermost first; a frame's range [lo, hi) the run of pcs around it whose
 * chains agree up to that frame (the code before the first pc, and after
 * the last, counts for them, as for lines). A pc whose innermost frame has
 * no line (HotSpot's bci -1 at entries and exits) starts nothing: the
 * agent's line table skips it too, so the chain and the line of an
 * instruction come from the same pc.
 */
struct jit_chains {
	const struct bt_jit_inl *in;
	uint64_t bias;			/* runtime start - load address */
	BT_VEC(const struct bt_jit_pc *) pcs;	/* the pcs kept, in address order */
	struct bt_inline *fr;		/* per kept pc: depth frames */
	uint32_t *first;		/* kept pc -> fr index */
	BT_VEC(const char *) raw, clean;	/* method names made safe, once each */
};

static const char *
chain_name(struct bt_session *s, struct jit_chains *c, const char *raw)
{
	struct bt_textbuf tb = { 0 };
	const char *n;
	size_t i;

	if (raw == NULL || raw[0] == '\0')
		return NULL;
	for (i = 0; i < c->raw.n; i++)
		if (c->raw.v[i] == raw)
			return c->clean.v[i];
	n = bt_strpool_addstr(&s->pool, bt_text_safe(raw, &tb));
	bt_textbuf_release(&tb);
	BT_VEC_PUSH(c->raw, raw);
	BT_VEC_PUSH(c->clean, n);
	return n;
}

/* Do pcs a and b have the same chain up to frame k (outermost 0)? */
static bool
same_upto(const struct bt_jit_inl *in, const struct bt_jit_pc *a,
	  const struct bt_jit_pc *b, size_t k)
{
	size_t d;

	if (a->nframes < k + 2 || b->nframes < k + 2)
		return false;
	for (d = 0; d <= k + 1; d++) {
		const struct bt_jit_frame *x = &in->frames[a->frame + a->nframes - 1 - d];
		const struct bt_jit_frame *y = &in->frames[b->frame + b->nframes - 1 - d];
		if (x->method != y->method || (d <= k && x->bci != y->bci))
			return false;
	}
	return true;
}

static struct jit_chains *
chains_build(struct bt_session *s, const struct bt_jit_code *code)
{
	const struct bt_jit_inl *in = code->inl;
	struct jit_chains *c = bt_xcalloc(1, sizeof(*c));
	size_t i, k, n, nfr = 0;

	c->in = in;
	c->bias = code->start - code->load_addr;
	for (i = 0; i < in->npcs; i++)
		if (in->pcs[i].nframes > 0 && in->frames[in->pcs[i].frame].line > 0)
			BT_VEC_PUSH(c->pcs, &in->pcs[i]);
	n = c->pcs.n;
	c->first = bt_xcalloc(n + 1, sizeof(*c->first));
	for (i = 0; i < n; i++) {
		c->first[i] = (uint32_t)nfr;
		nfr += c->pcs.v[i]->nframes - 1;
	}
	c->first[n] = (uint32_t)nfr;
	c->fr = bt_xcalloc(nfr + 1, sizeof(*c->fr));
	for (i = 0; i < n; i++) {
		const struct bt_jit_pc *p = c->pcs.v[i];
		size_t depth = c->first[i + 1] - c->first[i];

		for (k = 0; k < depth; k++) {
			/* frame k: the callee at depth k + 1, called from depth k */
			const struct bt_jit_frame *caller = &in->frames[p->frame + p->nframes - 1 - k];
			const struct bt_jit_frame *callee = caller - 1;
			struct bt_inline *f = &c->fr[c->first[i] + k];

			f->name = chain_name(s, c, callee->method);
			if (f->name == NULL)
				f->name = "?";
			f->call_file = caller->file[0] && bt_text_is_safe(caller->file) ?
			    caller->file : NULL;
			f->call_line = caller->line;
			f->call_bci = caller->bci;
			f->has_bci = true;
			/* the range: the run of pcs that agree up to k */
			if (i > 0 && same_upto(in, c->pcs.v[i - 1], p, k))
				f->lo = c->fr[c->first[i - 1] + k].lo;
			else
				f->lo = i == 0 ? code->start : p->pc + c->bias;
		}
	}
	for (i = n; i-- > 0;) {
		size_t depth = c->first[i + 1] - c->first[i];

		for (k = 0; k < depth; k++) {
			struct bt_inline *f = &c->fr[c->first[i] + k];
			if (i + 1 < n && same_upto(in, c->pcs.v[i], c->pcs.v[i + 1], k))
				f->hi = c->fr[c->first[i + 1] + k].hi;
			else
				f->hi = i + 1 < n ? c->pcs.v[i + 1]->pc + c->bias :
				    code->start + code->size;
		}
	}
	return c;
}

/*
 * The chains of q's module (built on first use) and the index of the kept
 * pc that holds addr: the last at or before it, else the first; NULL
 * when the code has no kept pc.
 */
static struct jit_chains *
chains_at(struct bt_jit_ask *q, uint64_t addr, size_t *at)
{
	const struct bt_module *m = &q->s->p->modules.v[q->mi];
	struct jit_chains *c;
	size_t lo = 0, hi;
	uint64_t pc;

	if (m->jit == NULL || m->jit->inl == NULL)
		return NULL;
	if (q->chains == NULL)
		q->chains = chains_build(q->s, m->jit);
	c = q->chains;
	if (c->pcs.n == 0)
		return NULL;
	pc = addr - c->bias;
	hi = c->pcs.n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (c->pcs.v[mid]->pc <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	*at = lo ? lo - 1 : 0;
	return c;
}

size_t
bt_session_jit_chain_at(void *arg, uint64_t addr, struct bt_inline *chain,
			size_t max)
{
	struct jit_chains *c;
	size_t at, k, depth;

	if ((c = chains_at(arg, addr, &at)) == NULL)
		return 0;
	depth = c->first[at + 1] - c->first[at];
	for (k = 0; k < depth && k < max; k++)
		chain[k] = c->fr[c->first[at] + k];
	return k;
}

/*
 * The innermost frame's bytecode index and line at addr, from the same pc
 * as its chain (perfasm's "java.lang.Integer::valueOf@23 (line 1081)");
 * false for HotSpot's special indexes (below 0) and for what no method's
 * bytecode reaches (65536 and above: a damaged file).
 */
bool
bt_session_jit_bci_at(void *arg, uint64_t addr, int32_t *bci, unsigned *line)
{
	struct jit_chains *c;
	const struct bt_jit_frame *fr;
	size_t at;

	if ((c = chains_at(arg, addr, &at)) == NULL)
		return false;
	fr = &c->in->frames[c->pcs.v[at]->frame];
	if (fr->bci < 0 || fr->bci > UINT16_MAX)
		return false;
	*bci = fr->bci;
	*line = fr->line;
	return true;
}

void
bt_session_jit_ask_release(struct bt_jit_ask *q)
{
	if (q->chains == NULL)
		return;
	free(q->chains->fr);
	free(q->chains->first);
	BT_VEC_FREE(q->chains->pcs);
	BT_VEC_FREE(q->chains->raw);
	BT_VEC_FREE(q->chains->clean);
	free(q->chains);
	q->chains = NULL;
}
