/*
 * The benchmark views (DESIGN.md §7): the table of the benchmarks the
 * harness printed, with its numbers exactly as printed and each
 * benchmark's samples, hottest function and worst finding; and two
 * benchmarks side by side.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "benchtui/bench.h"
#include "benchtui/lint.h"
#include "annotate/annotate.h"
#include "session/query.h"
#include "view/view-int.h"

#define NAME_MAX_COLS 40
#define HOT_MAX_COLS 32

const char *
bt_bench_time_unit(const struct bt_bench *b)
{
	static const struct { double f; const char *unit; } units[] = {
		{ 1, " ns" }, { 1e3, " \xc2\xb5s" }, { 1e6, " ms" }, { 1e9, " s" },
	};
	char num[64], *end;
	const char *p;
	size_t i, o = 0;
	double x;

	if (b->time_text == NULL || !isfinite(b->time_ns) || b->time_ns <= 0)
		return "";
	for (p = b->time_text; *p && o + 1 < sizeof(num); p++) {
		if (*p == ',' || *p == '_')	/* "1,234.5" */
			continue;
		if (!strchr("0123456789.eE+- ", *p))
			return "";	/* a unit, a '/': as printed */
		num[o++] = *p;
	}
	num[o] = '\0';
	x = strtod(num, &end);
	if (end == num || !(x > 0))
		return "";
	for (i = 0; i < BT_ARRAY_SIZE(units); i++)
		if (fabs(b->time_ns / (x * units[i].f) - 1) < 1e-6)
			return units[i].unit;
	return "";
}

/* b's time as printed, with its unit when the harness printed none */
static const char *
time_text(struct bt_view *v, const struct bt_bench *b)
{
	const char *unit = bt_bench_time_unit(b);

	return unit[0] ? view_cat(v, b->time_text, unit) : b->time_text;
}

/* "fastest", "1.53× as slow", "" */
static const char *
ratio_text(struct bt_view *v, const struct bt_bench *b)
{
	if (!isfinite(b->ratio))
		return "";
	if (b->ratio == 1)
		return "fastest";
	return bt_strpool_addf(&v->pool, b->ratio < 10 ? "%.2f× as slow" :
	    b->ratio < 100 ? "%.1f× as slow" : "%.0f× as slow", b->ratio);
}

static int
by_time(const void *x, const void *y, void *arg)
{
	struct bt_selection *sel = arg;
	const struct bt_bench *a = bt_selection_bench(sel, *(const size_t *)x);
	const struct bt_bench *b = bt_selection_bench(sel, *(const size_t *)y);
	double ta = isfinite(a->ratio) ? a->time_ns : INFINITY;
	double tb = isfinite(b->ratio) ? b->time_ns : INFINITY;

	if (ta != tb)
		return ta < tb ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

/* Benchmark indexes, in the order printed or fastest first. */
size_t *
view_bench_order(struct bt_selection *sel, bool fastest_first)
{
	size_t n = bt_selection_nbenches(sel), i;
	size_t *idx = bt_xcalloc(n + 1, sizeof(*idx));

	for (i = 0; i < n; i++)
		idx[i] = i;
	if (fastest_first)
		qsort_r(idx, n, sizeof(*idx), by_time, sel);
	return idx;
}

#define NCOLS 10
#define UNTIMED 7	/* the column of samples while the timer was off */

static const bool right[NCOLS] = { false, true, false, false, true, true,
	true, true, false, false };

/* Column c's text padded to its width, two spaces after all but the last. */
static const char *
cell(struct bt_view *v, const char *t, const size_t *w, size_t c)
{
	if (c == NCOLS - 1)
		return t;
	return view_cat(v, view_pad(v, t, w[c], right[c]), "  ");
}

/*
 * The Benchmark column of the rows idx[0..n) into txt (a row every NCOLS):
 * long names cut in their middle, never so that two read the same.
 */
static void
name_cells(struct bt_view *v, struct bt_selection *sel, const size_t *idx, size_t n,
	   const struct bt_view_opts *o, const char **txt)
{
	const char **names = bt_xcalloc(n + 1, sizeof(*names));
	const char **cut = bt_xcalloc(n + 1, sizeof(*cut));
	size_t i;

	for (i = 0; i < n; i++)
		names[i] = bt_selection_bench(sel, idx[i])->name;
	view_cut_distinct(v, names, n, NAME_MAX_COLS, o->whole_names, cut);
	for (i = 0; i < n; i++)
		txt[i * NCOLS] = cut[i];
	free(names);
	free(cut);
}

/* "name 42%": the hottest function's name folded or cut to fit, never its share. */
static const char *
hottest_cell(struct bt_view *v, const struct bt_bench_summary *sm,
	     const struct bt_view_opts *o)
{
	const char *pct, *name;

	if (sm == NULL || sm->nfuncs == 0)
		return "";
	pct = bt_strpool_addf(&v->pool, " %.0f%%", sm->funcs[0].percent);
	name = view_name(v, sm->funcs[0].name, o);
	if (!o->whole_names)	/* folded, then cut (docs/browser.md "Long names") */
		name = view_fit_name(v, name, HOT_MAX_COLS - strlen(pct));
	return view_cat(v, name, pct);
}

/* "BM_sum 99%" in width columns: the name shortened, its share kept. */
static const char *
hot_cell(struct bt_view *v, const char *name, double percent, size_t width)
{
	const char *pct = bt_strpool_addf(&v->pool, " %.0f%%", percent);
	size_t room = width > view_ncols(pct) + 2 ? width - view_ncols(pct) : 2;

	return view_cat(v, view_fit_name(v, name, room), pct);
}

/*
 * A row wider than the screen (o->width): the columns of least priority
 * go first, the hottest function shortened (its share kept) before it
 * goes; the name, the finding and the time stay. w[] and the hottest
 * function's texts (txt[i * NCOLS + 8]) change.
 */
static void
fit_columns(struct bt_view *v, struct bt_selection *sel, const struct bt_view_opts *o,
	    const size_t *idx, size_t n, const char **txt, size_t *w)
{
	static const size_t drop[] = { 4, 2, UNTIMED, 5, 8, 6, 3 };
	size_t k = 0, total, c, i;

	for (;;) {
		for (total = 0, c = 0; c < NCOLS; c++)
			total += w[c] ? w[c] + (c + 1 < NCOLS ? 2 : 0) : 0;
		if (total <= o->width || k == sizeof(drop) / sizeof(drop[0]))
			return;
		if (drop[k] == 8 && w[8] && total - o->width + 12 <= w[8]) {
			w[8] -= total - o->width;
			for (i = 0; i < n; i++) {
				const struct bt_bench_summary *sm =
				    bt_selection_bench_summary(sel, idx[i]);
				if (sm && sm->nfuncs)
					txt[i * NCOLS + 8] = hot_cell(v,
					    view_name(v, sm->funcs[0].name, o),
					    sm->funcs[0].percent, w[8]);
			}
			return;
		}
		w[drop[k++]] = 0;
	}
}

struct bt_view *
bt_view_benches(struct bt_selection *sel, const struct bt_view_opts *o, bool fastest_first)
{
	static const char *const heads[NCOLS] = { "Benchmark", "Time/op", "±",
		"vs fastest", "Iterations", "Samples", "Share", "Untimed",
		"Hottest function", "Finding" };
	struct bt_view *v = view_new(sel);
	size_t n = bt_selection_nbenches(sel), i, c;
	size_t w[NCOLS] = { 9, 7, 1, 10, 10, 7, 6, 7, 16, 7 };
	bool untimed = false;
	const char *splits = "";
	size_t *idx = view_bench_order(sel, fastest_first);
	const char **txt = bt_xcalloc((n + 1) * NCOLS, sizeof(char *));
	const char *harness = n ? bt_selection_bench(sel, 0)->harness : "";
	struct bt_view_opts def;
	uint64_t outside = n ? bt_selection_bench_outside(sel) : 0, all = 0;

	if (o == NULL) {
		bt_view_opts_init(&def);
		o = &def;
	}
	name_cells(v, sel, idx, n, o, txt);
	for (i = 0; i < n; i++) {
		const struct bt_bench *b = bt_selection_bench(sel, idx[i]);
		const struct bt_bench_summary *sm = bt_selection_bench_summary(sel, idx[i]);
		const char **t = txt + i * NCOLS;

		all += b->samples;
		t[1] = b->time_text ? time_text(v, b) : b->error ? "error" : "";
		t[2] = b->pm_text ? b->pm_text : "";
		t[3] = ratio_text(v, b);
		t[4] = b->iterations_text ? b->iterations_text : "";
		t[5] = b->has_window ? bt_strpool_addf(&v->pool, "%llu",
		    (unsigned long long)b->samples) : "?";
		t[6] = b->has_window ? bt_strpool_addf(&v->pool, "%.1f%%", b->percent) : "";
		t[UNTIMED] = b->untimed_samples ? bt_strpool_addf(&v->pool, "%llu",
		    (unsigned long long)b->untimed_samples) : "";
		untimed |= b->untimed_samples > 0;
		t[8] = hottest_cell(v, sm, o);
		t[9] = b->error ? b->error : sm && sm->worst ? sm->worst->check : "";
		if (b->has_window && b->split != NULL && strstr(splits, b->split) == NULL)
			splits = splits[0] ? bt_strpool_addf(&v->pool, "%s, %s", splits,
			    b->split) : b->split;
		for (c = 0; c < NCOLS; c++)
			w[c] = BT_MAX(w[c], view_ncols(t[c]));
	}
	if (o->compact) {	/* no ± and no iterations on a narrow screen */
		w[2] = w[4] = 0;
	}
	if (!untimed)
		w[UNTIMED] = 0;
	if (o->width > 0)
		fit_columns(v, sel, o, idx, n, txt, w);
	for (i = 0; i < n; i++) {
		const struct bt_bench *b = bt_selection_bench(sel, idx[i]);
		const struct bt_bench_summary *sm = bt_selection_bench_summary(sel, idx[i]);
		const char **t = txt + i * NCOLS;
		struct bt_row *r = view_add_row(v, BT_ROW_BENCH);
		enum bt_style st = b->error || (sm && sm->worst &&
		    (strcmp(sm->worst->check, "optimized-away") == 0 ||
		     strcmp(sm->worst->check, "empty-loop") == 0)) ? BT_STYLE_WARN :
		    BT_STYLE_NORMAL;

		r->func = idx[i];
		r->name = b->name;
		r->text = b->time_text;
		r->samples = b->samples;
		r->percent = b->percent;
		r->weight = b->percent;
		r->label = sm && sm->worst ? sm->worst->check : NULL;
		r->detail = sm && sm->worst ? sm->worst->message : b->error;
		if (b->has_window)
			bt_wilson(b->samples, all + outside, &r->ci_lo, &r->ci_hi);
		for (c = 0; c < NCOLS; c++)
			if (w[c])
				view_add_cell(v, cell(v, t[c], w, c),
				    c == 0 ? BT_STYLE_TITLE : c == 1 || c == 3 ?
				    BT_STYLE_HOT : c == 9 ? st : BT_STYLE_NORMAL);
	}
	if (n) {
		struct bt_row *r = view_add_row(v, BT_ROW_BENCH);
		r->func = (size_t)-1;
		r->name = "(outside)";
		r->samples = outside;
		r->percent = all + outside ? 100.0 * (double)outside / (double)(all + outside) : 0;
		r->detail = "samples in no benchmark: start-up, the harness between "
		    "benchmarks, reporting";
		for (c = 0; c < NCOLS; c++) {
			const char *t = c == 0 ? "(outside)" : c == 5 ?
			    bt_strpool_addf(&v->pool, "%llu", (unsigned long long)outside) :
			    c == 6 ? bt_strpool_addf(&v->pool, "%.1f%%", r->percent) : "";
			if (w[c])
				view_add_cell(v, cell(v, t, w, c), BT_STYLE_DIM);
		}
	}
	{
		const char *h[NCOLS];
		size_t hw[NCOLS], k = 0;
		bool hr[NCOLS];
		for (c = 0; c < NCOLS; c++) {
			if (w[c] == 0)
				continue;
			h[k] = cell(v, heads[c], w, c);
			hw[k] = 0;
			hr[k++] = false;
		}
		view_set_columns(v, h, hw, hr, k);
	}
	if (bt_selection_bench_note(sel)[0])
		BT_VEC_PUSH(v->notes, bt_strpool_addstr(&v->pool, bt_selection_bench_note(sel)));
	view_seal(v);
	v->title = bt_strpool_addf(&v->pool, "benchmarks: %zu (%s%s%s)%s", n, harness,
	    splits[0] ? ", split: " : "", splits, fastest_first ? ", fastest first" : "");
	free(idx);
	free(txt);
	return v;
}

/* Two benchmarks side by side. */

/*
 * A benchmark's name as a column heading, in width columns: its middle
 * gives way, for the ends tell BM_sum/8 from BM_sum/64.
 */
static const char *
side_head(struct bt_view *v, const char *s, size_t width)
{
	size_t n = view_ncols(s), head, i = 0, j = 0, col;

	if (n <= width || width < 3)
		return s;
	head = (width - 1) / 2;
	for (col = 0; col < head; col++)
		for (i++; ((unsigned char)s[i] & 0xc0) == 0x80; i++)
			;
	for (col = 0; col < n - (width - 1 - head); col++)
		for (j++; ((unsigned char)s[j] & 0xc0) == 0x80; j++)
			;
	return bt_strpool_addf(&v->pool, "%.*s\xe2\x80\xa6%s", (int)i, s, s + j);
}

struct pair {
	const char *name, *module;
	double pa, pb;
	uint64_t sa, sb;
};

static int
by_hotter(const void *x, const void *y)
{
	const struct pair *a = x, *b = y;
	double ha = BT_MAX(a->pa, a->pb), hb = BT_MAX(b->pa, b->pb);

	return ha > hb ? -1 : ha < hb;
}

struct bt_view *
bt_view_bench_compare(struct bt_selection *sel, size_t ia, size_t ib,
		      const struct bt_view_opts *o)
{
	struct bt_view *v = view_new(sel);
	const struct bt_bench *a = bt_selection_bench(sel, ia), *b = bt_selection_bench(sel, ib);
	const struct bt_bench_summary *sa = bt_selection_bench_summary(sel, ia);
	const struct bt_bench_summary *sb = bt_selection_bench_summary(sel, ib);
	struct pair *p;
	size_t n = 0, i, k, wside, wmod = 6;
	struct bt_view_opts def;

	if (o == NULL) {
		bt_view_opts_init(&def);
		o = &def;
	}
	if (a == NULL || b == NULL || sa == NULL || sb == NULL) {
		view_seal(v);
		v->title = "compare: no such benchmark";
		return v;
	}
	p = bt_xcalloc(sa->nfuncs + sb->nfuncs + 1, sizeof(*p));
	for (i = 0; i < sa->nfuncs; i++) {
		p[n].name = sa->funcs[i].name;
		p[n].module = sa->funcs[i].module;
		p[n].pa = sa->funcs[i].percent;
		p[n++].sa = sa->funcs[i].samples;
	}
	for (i = 0; i < sb->nfuncs; i++) {
		for (k = 0; k < n; k++)
			if (strcmp(p[k].name, sb->funcs[i].name) == 0 &&
			    strcmp(p[k].module, sb->funcs[i].module) == 0)
				break;
		if (k == n) {
			p[n].name = sb->funcs[i].name;
			p[n++].module = sb->funcs[i].module;
		}
		p[k].pb = sb->funcs[i].percent;
		p[k].sb = sb->funcs[i].samples;
	}
	qsort(p, n, sizeof(*p), by_hotter);
	/* a column a benchmark, headed by its name (up to 20 columns) */
	wside = BT_MIN(BT_MAX(BT_MAX(view_ncols(a->name), view_ncols(b->name)) + 1, 10),
	    o->compact ? 16 : 21);
	for (i = 0; i < n; i++) {
		const char *mod = view_basename(p[i].module);
		wmod = BT_MIN(BT_MAX(wmod, view_ncols(mod)), 16);
	}
	for (i = 0; i < n; i++) {
		struct bt_row *r = view_add_row(v, BT_ROW_FUNC);
		r->func = (size_t)-1;
		r->name = p[i].name;
		r->short_name = view_short_name(v, p[i].name, false);
		r->module = p[i].module;
		r->percent = p[i].pa;
		r->adjusted_percent = p[i].pb;
		r->samples = p[i].sa;
		r->weight = BT_MAX(p[i].pa, p[i].pb);
		view_add_cell(v, view_pad(v, bt_strpool_addf(&v->pool, "%.2f%%", p[i].pa),
		    wside, true), view_heat(p[i].pa, p[i].sa > 0));
		view_add_cell(v, view_pad(v, bt_strpool_addf(&v->pool, "%.2f%%", p[i].pb),
		    wside, true), view_heat(p[i].pb, p[i].sb > 0));
		view_add_cell(v, view_pad(v, bt_strpool_addf(&v->pool, "%+.2f",
		    p[i].pb - p[i].pa), 8, true), BT_STYLE_NORMAL);
		view_add_cell(v, "  ", BT_STYLE_NORMAL);
		/* the module before the symbol, which is last (as in the function list) */
		view_add_cell(v, view_pad(v, view_cut(v, view_basename(p[i].module), wmod),
		    wmod, false), BT_STYLE_DIM);
		view_add_cell(v, "  ", BT_STYLE_NORMAL);
		view_add_cell(v, view_name(v, p[i].name, o), BT_STYLE_NORMAL);
	}
	{
		const char *h[7] = { side_head(v, a->name, wside - 1),
			side_head(v, b->name, wside - 1), "Diff", "", "Module", "", "Symbol" };
		size_t hw[7] = { wside, wside, 8, 2, wmod, 2, 0 };
		bool hr[7] = { true, true, true, false, false, false, false };
		view_set_columns(v, h, hw, hr, 7);
	}
	if (isfinite(a->time_ns) && isfinite(b->time_ns) && a->time_ns > 0)
		v->title = bt_strpool_addf(&v->pool, "%s %s vs %s %s: %.2f× the time",
		    a->name, a->time_text, b->name, b->time_text, b->time_ns / a->time_ns);
	else
		v->title = bt_strpool_addf(&v->pool, "%s vs %s", a->name, b->name);
	BT_VEC_PUSH(v->notes, bt_strpool_addf(&v->pool,
	    "shares of each benchmark's own samples (%llu and %llu); Diff: second minus first",
	    (unsigned long long)a->samples, (unsigned long long)b->samples));
	view_seal(v);
	free(p);
	return v;
}

/* A selection's name in a comparison: its benchmark's, else its event's. */
static const char *
sel_label(const struct bt_selection *sel)
{
	long bi = bt_selection_bench_index(sel);

	return bi >= 0 ? bt_selection_bench(sel, (size_t)bi)->name : bt_selection_event(sel);
}

/* One instruction of a compared function: its samples in either selection. */
struct cmp_insn {
	uint64_t addr, off;
	const char *text;
	uint64_t n[2];
};

struct cmp_insns {
	struct cmp_insn *v;
	size_t n, alloc;
};

static int
cmp_addr(const void *x, const void *y)
{
	const struct cmp_insn *a = x, *b = y;

	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/*
 * Selection sel's samples in function name (module), instruction by
 * instruction, added to *v as column k; *total gets the function's
 * samples. -1 with err set when the selection has none there.
 */
static int
sel_insns(struct bt_selection *sel, struct bt_view *v, const char *name,
	  const char *module, const struct bt_view_opts *o, int k,
	  struct cmp_insns *out, uint64_t *total, struct bt_error *err)
{
	const struct bt_annotation *a;
	size_t i, n = bt_selection_nfuncs(sel), nold = out->n;
	long fi = -1;

	for (i = 0; i < n && fi < 0; i++) {
		const struct bt_func *f = bt_selection_func(sel, i);
		if (f->samples && strcmp(f->name, name) == 0 && strcmp(f->module, module) == 0)
			fi = (long)i;
	}
	if (fi < 0)
		return bt_error_set(err, BT_ENODATA, "%s has no samples in %s",
		    sel_label(sel), name);
	if ((a = bt_selection_annotation(sel, (size_t)fi, o->syntax, err)) == NULL)
		return -1;
	*total = a->samples;
	for (i = 0; i < a->insns.n; i++) {
		const struct bt_ainsn *ai = &a->insns.v[i];
		struct cmp_insn key = { .addr = ai->in.addr }, *c = NULL;

		if (nold)
			c = bsearch(&key, out->v, nold, sizeof(key), cmp_addr);
		if (c == NULL) {
			key.off = ai->in.addr - bt_selection_func(sel, (size_t)fi)->start;
			key.text = bt_strpool_addstr(&v->pool, ai->in.text);
			BT_VEC_PUSH(*out, key);
			c = &out->v[out->n - 1];
		}
		c->n[k] = ai->samples;
	}
	return 0;
}

struct bt_view *
bt_view_compare_func(struct bt_selection *x, struct bt_selection *y,
		     const char *name, const char *module,
		     const struct bt_view_opts *o, struct bt_error *err)
{
	struct bt_view *v = view_new(x);
	struct cmp_insns c = { 0 };
	uint64_t total[2] = { 0, 0 };
	struct bt_view_opts def;
	size_t i, wside;
	int ret;

	if (o == NULL) {
		bt_view_opts_init(&def);
		o = &def;
	}
	ret = sel_insns(x, v, name, module, o, 0, &c, &total[0], err);
	if (ret == 0) {
		qsort(c.v, c.n, sizeof(*c.v), cmp_addr);
		ret = sel_insns(y, v, name, module, o, 1, &c, &total[1], err);
	}
	if (ret < 0) {
		BT_VEC_FREE(c);
		bt_view_free(v);
		return NULL;
	}
	qsort(c.v, c.n, sizeof(*c.v), cmp_addr);
	/* a column a benchmark, headed by its name (as the comparison) */
	wside = BT_MIN(BT_MAX(BT_MAX(view_ncols(sel_label(x)), view_ncols(sel_label(y))) + 1,
	    10), o->compact ? 16 : 21);
	for (i = 0; i < c.n; i++) {
		struct bt_row *r = view_add_row(v, BT_ROW_TEXT);
		double pa = total[0] ? 100.0 * (double)c.v[i].n[0] / (double)total[0] : 0;
		double pb = total[1] ? 100.0 * (double)c.v[i].n[1] / (double)total[1] : 0;

		r->percent = pa;
		r->adjusted_percent = pb;
		r->samples = c.v[i].n[0];
		r->weight = BT_MAX(pa, pb);
		r->addr = c.v[i].addr;
		r->text = c.v[i].text;
		view_add_cell(v, view_pad(v, c.v[i].n[0] ? bt_strpool_addf(&v->pool,
		    "%.2f", pa) : "", wside, true), view_heat(pa, c.v[i].n[0] > 0));
		view_add_cell(v, view_pad(v, c.v[i].n[1] ? bt_strpool_addf(&v->pool,
		    "%.2f", pb) : "", wside, true), view_heat(pb, c.v[i].n[1] > 0));
		view_add_cell(v, view_pad(v, c.v[i].n[0] || c.v[i].n[1] ?
		    bt_strpool_addf(&v->pool, "%+.2f", pb - pa) : "", 8, true),
		    BT_STYLE_NORMAL);
		view_add_cell(v, view_hex_colon(v, o->addresses ? c.v[i].addr :
		    c.v[i].off, 10), BT_STYLE_ADDR);
		view_add_cell(v, view_cat(v, "  ", c.v[i].text), BT_STYLE_NORMAL);
	}
	{
		const char *h[5] = { side_head(v, sel_label(x), wside - 1),
			side_head(v, sel_label(y), wside - 1), "Diff", "Address",
			"  Instruction" };
		size_t hw[5] = { wside, wside, 8, 10, 0 };
		bool hr[5] = { true, true, true, true, false };

		view_set_columns(v, h, hw, hr, 5);
		v->title = bt_strpool_addf(&v->pool, "%s  %s: %llu samples in %s, %llu in %s",
		    view_name(v, name, o), view_basename(module),
		    (unsigned long long)total[0], sel_label(x),
		    (unsigned long long)total[1], sel_label(y));
	}
	BT_VEC_PUSH(v->notes, bt_strpool_addstr(&v->pool,
	    "each column: the share of the function's samples in that benchmark; "
	    "Diff: second minus first"));
	view_seal(v);
	BT_VEC_FREE(c);
	return v;
}
