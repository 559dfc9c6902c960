/*
 * Data types (perf annotate --data-type's summary): the samples of the
 * loads and stores whose data type is known (core/symbols/dwfl-types.c),
 * per type, then per member, each with its hottest instruction. From
 * the annotations of every sampled function of the selection, so a time
 * window, an event or a benchmark narrows it as any screen.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate/annotate.h"
#include "session/query.h"
#include "view/view-int.h"

#define NTOP 6	/* the accesses a row's pane lists */

/* An instruction that reaches a type or member. */
struct access {
	size_t func;
	uint64_t addr;
	double w;
	uint64_t samples;
	const char *text;	/* the annotation's (the selection keeps it) */
};

/* One type, or one member of a type (member NULL: the type's own total). */
struct dsum {
	const char *type, *member;
	int64_t offset;
	uint64_t samples;
	double adjusted;
	long parent;		/* a member's type, by index */
	struct access top[NTOP];	/* the hottest accesses, hottest first */
	size_t ntop, naccess;
};

struct dsums {
	BT_VEC(struct dsum) v;
};

static long
find_sum(struct dsums *s, const char *type, const char *member, int64_t offset,
	 long parent)
{
	size_t i;

	for (i = 0; i < s->v.n; i++) {
		const struct dsum *d = &s->v.v[i];
		if (strcmp(d->type, type) == 0 && d->parent == parent &&
		    (parent < 0 || (d->offset == offset && (d->member == member ||
		    (d->member && member && strcmp(d->member, member) == 0)))))
			return (long)i;
	}
	{
		struct dsum d;

		memset(&d, 0, sizeof(d));
		d.type = type;
		d.member = member;
		d.offset = offset;
		d.parent = parent;
		BT_VEC_PUSH(s->v, d);
	}
	return (long)s->v.n - 1;
}

static void
add_sample(struct dsum *d, const struct bt_ainsn *ai, size_t fi, bool skid)
{
	struct access x = { fi, ai->in.addr, skid ? ai->adjusted : (double)ai->samples,
		ai->samples, ai->in.text };
	size_t k;

	d->samples += ai->samples;
	d->adjusted += ai->adjusted;
	d->naccess++;
	/* kept hottest first (the first found of equal ones first) */
	for (k = d->ntop; k > 0 && d->top[k - 1].w < x.w; k--)
		if (k < NTOP)
			d->top[k] = d->top[k - 1];
	if (k < NTOP) {
		d->top[k] = x;
		if (d->ntop < NTOP)
			d->ntop++;
	}
}

/* Every sampled function's loads and stores of a known type, summed. */
static void
collect(struct bt_selection *sel, const struct bt_view_opts *o, struct dsums *s)
{
	size_t fi, i, nf = bt_selection_nfuncs(sel);

	for (fi = 0; fi < nf; fi++) {
		const struct bt_func *f = bt_selection_func(sel, fi);
		const struct bt_annotation *a;

		if (f->samples == 0 || !f->can_annotate ||
		    (a = bt_selection_annotation(sel, fi, o->syntax, NULL)) == NULL)
			continue;
		for (i = 0; i < a->insns.n; i++) {
			const struct bt_ainsn *ai = &a->insns.v[i];
			const struct bt_data_type *dt;
			long t, m;

			/* what the primary column counts: raw, or skid-adjusted (K) */
			if (!ai->dtype || (o->skid ? ai->adjusted <= 0 : ai->samples == 0))
				continue;
			dt = &a->dtypes.v[ai->dtype - 1];
			/* the strings are the module's: they live as long as the session */
			t = find_sum(s, dt->type, NULL, 0, -1);
			m = find_sum(s, dt->type, dt->member, dt->offset, t);
			add_sample(&s->v.v[t], ai, fi, o->skid);
			add_sample(&s->v.v[m], ai, fi, o->skid);
		}
	}
}

static const struct bt_view_opts *sort_opts;
static const struct dsum *sort_base;

/* The types hottest first, each followed by its members, hottest first (then by offset). */
static int
dsum_cmp(const void *x, const void *y)
{
	const struct dsum *a = &sort_base[*(const size_t *)x];
	const struct dsum *b = &sort_base[*(const size_t *)y];
	const struct dsum *ta = a->parent < 0 ? a : &sort_base[a->parent];
	const struct dsum *tb = b->parent < 0 ? b : &sort_base[b->parent];
	double wa, wb;

	if (ta != tb) {
		wa = sort_opts->skid ? ta->adjusted : (double)ta->samples;
		wb = sort_opts->skid ? tb->adjusted : (double)tb->samples;
		if (wa != wb)
			return wa > wb ? -1 : 1;
		return strcmp(ta->type, tb->type);
	}
	if ((a->parent < 0) != (b->parent < 0))
		return a->parent < 0 ? -1 : 1;
	wa = sort_opts->skid ? a->adjusted : (double)a->samples;
	wb = sort_opts->skid ? b->adjusted : (double)b->samples;
	if (wa != wb)
		return wa > wb ? -1 : 1;
	return a->offset < b->offset ? -1 : a->offset > b->offset;
}

/* "chase+0x14": where an instruction is, as the function list names it. */
static const char *
func_off(struct bt_view *v, struct bt_selection *sel, const struct bt_view_opts *o,
	 size_t fi, uint64_t addr)
{
	const struct bt_func *f = bt_selection_func(sel, fi);
	const char *name = view_name(v, f->name, o);

	return addr > f->start ? bt_strpool_addf(&v->pool, "%s+0x%llx", name,
	    (unsigned long long)(addr - f->start)) : name;
}

/* The pane's list: the hottest accesses, "chase+0x14 add 0x8(%rdi),%rax (5)", "; " apart. */
static void
accesses(struct bt_view *v, struct bt_selection *sel, const struct bt_view_opts *o,
	 const struct dsum *d, struct bt_row_dtype *dt)
{
	struct bt_strbuf sb = BT_STRBUF_INIT;
	size_t k;

	for (k = 0; k < d->ntop; k++) {
		const struct access *x = &d->top[k];
		char *text = bt_xstrdup(x->text), *p;

		/* objdump's six-column mnemonic: one blank is enough here */
		if ((p = strstr(text, "  ")) != NULL) {
			char *q = p;
			while (*q == ' ')
				q++;
			memmove(p + 1, q, strlen(q) + 1);
		}
		bt_strbuf_addf(&sb, "%s%s  %s (%llu)", k ? "; " : "",
		    func_off(v, sel, o, x->func, x->addr), text,
		    (unsigned long long)x->samples);
		free(text);
	}
	if (d->naccess > d->ntop)
		bt_strbuf_addf(&sb, "; %zu more", d->naccess - d->ntop);
	dt->accesses = bt_strpool_addstr(&v->pool, sb.buf);
	dt->naccesses = d->naccess;
	bt_strbuf_release(&sb);
}

static void
dtype_row(struct bt_view *v, struct bt_selection *sel, const struct bt_view_opts *o,
	  const struct dsum *d, double denom, size_t wname)
{
	struct bt_row *r = view_add_row(v, BT_ROW_DTYPE);
	struct bt_row_dtype *dt = view_alloc(v, sizeof(*dt));
	const struct bt_func *f = bt_selection_func(sel, d->top[0].func);
	uint64_t addr = d->top[0].addr;
	const char *name, *where;
	double primary;

	dt->type = bt_strpool_addstr(&v->pool, d->type);
	dt->member = d->parent >= 0 && d->member ? bt_strpool_addstr(&v->pool, d->member) : NULL;
	dt->var = NULL;
	dt->offset = d->parent >= 0 ? d->offset : 0;
	dt->text = d->parent < 0 ? dt->type : dt->member ?
	    bt_strpool_addf(&v->pool, "+%lld (%s)", (long long)d->offset, dt->member) :
	    bt_strpool_addf(&v->pool, "+%lld", (long long)d->offset);
	r->dtype = dt;
	r->label = d->parent < 0 ? "type" : "member";
	r->func = d->top[0].func;
	r->addr = addr;
	r->module = f->module;
	r->name = f->name;
	primary = view_set_numbers(r, o, d->samples, 0, d->adjusted, 0, denom);
	name = view_name(v, f->name, o);
	where = func_off(v, sel, o, d->top[0].func, addr);
	r->text = d->parent < 0 ? dt->type : bt_strpool_addf(&v->pool, "%s %s",
	    dt->type, dt->text);
	view_add_cell(v, view_pad_2f(v, "", primary, 8), view_heat(primary, r->weight > 0));
	view_add_cell(v, view_pad_u64(v, d->samples, 9), BT_STYLE_NORMAL);
	view_add_cell(v, "  ", BT_STYLE_NORMAL);
	view_add_cell(v, view_pad(v, d->parent < 0 ? dt->type :
	    view_cat(v, "    ", dt->text), wname + 2, false),
	    d->parent < 0 ? BT_STYLE_SOURCE : BT_STYLE_NORMAL);
	view_add_cell(v, where, BT_STYLE_COMMENT);
	if (strcmp(name, f->name) != 0)
		r->detail = bt_strpool_addf(&v->pool, "%s: hottest in %s", r->text, f->name);
	accesses(v, sel, o, d, dt);
}

struct bt_view *
bt_view_data_types(struct bt_selection *sel, const struct bt_view_opts *o,
		   struct bt_error *err)
{
	struct bt_view_opts def;
	struct dsums s = { { NULL, 0, 0 } };
	struct bt_view *v;
	size_t *order, i, wname = 13, ntypes = 0;	/* "Type / member" */
	double denom;

	if (o == NULL) {
		bt_view_opts_init(&def);
		o = &def;
	}
	collect(sel, o, &s);
	order = bt_xcalloc(s.v.n + 1, sizeof(*order));
	for (i = 0; i < s.v.n; i++)
		order[i] = i;
	sort_opts = o;
	sort_base = s.v.v;
	bt_qsort(order, s.v.n, sizeof(*order), dsum_cmp);
	v = view_new(sel);
	denom = (double)bt_selection_samples(sel);
	for (i = 0; i < s.v.n; i++) {
		const struct dsum *d = &s.v.v[i];
		/* a member's cell: "    +16 (b.x)" */
		size_t w = d->parent < 0 ? view_ncols(d->type) : 4 +
		    (size_t)snprintf(NULL, 0, "+%lld", (long long)d->offset) +
		    (d->member ? 3 + view_ncols(d->member) : 0);
		wname = BT_MAX(wname, BT_MIN(w, 40));
		ntypes += d->parent < 0;
	}
	for (i = 0; i < s.v.n; i++)
		dtype_row(v, sel, o, &s.v.v[order[i]], denom, wname);
	{
		const char *h[5] = { o->skid ? "Skid%" : "Percent",
			o->skid && o->width > 0 ? "RawSmp" : "Samples", "",
			"Type / member", "Hottest at" };
		size_t w[5] = { 8, 9, 2, wname + 2, 0 };
		bool right[5] = { true, true, false, false, false };
		view_set_columns(v, h, w, right, 5);
	}
	free(order);
	BT_VEC_FREE(s.v);
	view_seal(v);
	view_set_title(v, "data types", "", ": %zu, of the loads and stores DWARF "
	    "knows", ntypes);
	(void)err;
	return v;
}
