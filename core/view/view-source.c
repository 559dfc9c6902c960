/*
 * The source view: one of the function's files, one row per line, with
 * the samples of the instructions that count for it (code inlined from
 * elsewhere counts for its call site in the file; code inlined from the
 * file counts for its own line). And the list of those files.
 */
#include <stdlib.h>
#include <string.h>

#include "annotate/annotate.h"
#include "session/query.h"
#include "symbols/symbols.h"
#include "view/view-int.h"

struct line_sums {
	uint64_t samples, period;
	double adjusted, adjusted_period;
};

/* The number column's heading. */
static const char *
num_head(const struct bt_view_opts *o)
{
	return o->num == BT_NUM_PERCENT ? (o->skid ? "Skid%" : "Percent") :
	    o->num == BT_NUM_SAMPLES ? "Samples" : "Period";
}

struct bt_view *
bt_view_source(struct bt_selection *sel, size_t func, const char *file,
	       const struct bt_view_opts *o, struct bt_error *err)
{
	const struct bt_annotation *a;
	const struct bt_srcfile *sf;
	const struct bt_func *f;
	struct bt_view *v;
	struct bt_view_opts def;
	struct line_sums *sum;
	size_t nlines, i, wnum = 7, wline = 4;
	double denom;

	if (o == NULL) {
		bt_view_opts_init(&def);
		o = &def;
	}
	a = bt_selection_annotation(sel, func, o->syntax, err);
	if (a == NULL)
		return NULL;
	if (file == NULL)
		file = a->file;
	if (file == NULL) {
		bt_error_set(err, BT_ENODATA, "no source lines for '%s'",
		    bt_selection_func(sel, func)->name);
		return NULL;
	}
	f = bt_selection_func(sel, func);
	sf = bt_srccache_get(bt_session_srccache(bt_selection_session(sel)), file);
	nlines = sf->nlines;
	for (i = 0; i < a->insns.n; i++) {
		unsigned l = bt_annotation_line_in(a, &a->insns.v[i], file);
		if (l > nlines && sf->missing)
			nlines = l;
	}
	sum = bt_xcalloc(nlines + 1, sizeof(*sum));
	for (i = 0; i < a->insns.n; i++) {
		const struct bt_ainsn *ai = &a->insns.v[i];
		unsigned l = bt_annotation_line_in(a, ai, file);
		if (l == 0 || l > nlines)
			continue;
		sum[l].samples += ai->samples;
		sum[l].period += ai->period;
		sum[l].adjusted += ai->adjusted;
		sum[l].adjusted_period += ai->adjusted_period;
	}
	v = view_new(sel);
	view_set_func(v, func);
	denom = o->global_percent ? (double)bt_selection_samples(sel) : (double)a->samples;
	{
		char buf[32];
		wline = BT_MAX(wline, (size_t)snprintf(buf, sizeof(buf), "%zu", nlines));
	}
	/* a space wider than its heading, which the text export's '#' takes */
	wnum = BT_MAX(wnum, strlen(num_head(o)) + 1);
	file = bt_strpool_addstr(&v->pool, file);
	for (i = 1; i <= nlines; i++) {
		struct bt_row *r;
		const char *num;
		double primary;

		if (sf->missing && sum[i].samples == 0 && sum[i].adjusted == 0)
			continue;
		r = view_add_row(v, BT_ROW_LINE);
		r->func = func;
		r->file = file;
		r->line = (unsigned)i;
		primary = view_set_numbers(r, o, sum[i].samples, sum[i].period,
		    sum[i].adjusted, sum[i].adjusted_period, denom);
		r->text = sf->missing ? "" : bt_srcfile_line(sf, i);
		if (o->num == BT_NUM_PERCENT)
			num = r->weight > 0 ? bt_strpool_addf(&v->pool, "%.2f", primary) : "";
		else
			num = r->weight > 0 ? bt_strpool_addf(&v->pool, "%.0f", r->weight) : "";
		view_add_cell(v, view_pad(v, num, wnum, true),
		    view_heat(primary, r->weight > 0));
		view_add_cell(v, view_pad(v, sum[i].samples ? bt_strpool_addf(&v->pool,
		    "%llu", (unsigned long long)sum[i].samples) : "", 8, true),
		    BT_STYLE_NORMAL);
		view_add_cell(v, view_pad(v, bt_strpool_addf(&v->pool, "%zu", i),
		    wline + 2, true), BT_STYLE_ADDR);
		view_add_cell(v, bt_strpool_addf(&v->pool, "  %s", r->text),
		    r->weight > 0 ? view_heat(primary, true) : BT_STYLE_SOURCE);
	}
	{
		/* raw counts: said on a screen under skid-adjusted percents */
		const char *h[4] = { num_head(o), o->skid && o->width > 0 &&
			o->num == BT_NUM_PERCENT ? "RawSmp" : "Samples", "Line", "  Source" };
		size_t w[4] = { wnum, 8, wline + 2, 0 };
		bool right[4] = { true, true, true, false };
		view_set_columns(v, h, w, right, 4);
	}
	if (sf->missing)
		BT_VEC_PUSH(v->notes, bt_strpool_addf(&v->pool,
		    "source file '%s' not found: only lines with samples are listed",
		    file));
	free(sum);
	view_seal(v);
	{
		const char *before = bt_strpool_addf(&v->pool, "%s  (source of ", file);
		view_set_title(v, before, view_name(v, f->name, o), ")");
	}
	return v;
}

struct file_sum {
	const char *file;
	uint64_t samples;
	double adjusted;
};

static int
file_cmp(const void *x, const void *y)
{
	const struct file_sum *a = x, *b = y;

	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	return strcmp(a->file, b->file);
}

/* Add file to the list once (files are compared by name: pointers differ by CU). */
static void
add_file(struct file_sum **fs, size_t *n, size_t *alloc, const char *file)
{
	size_t i;

	if (file == NULL)
		return;
	for (i = 0; i < *n; i++)
		if (strcmp((*fs)[i].file, file) == 0)
			return;
	BT_ALLOC_GROW(*fs, *n + 1, *alloc);
	memset(&(*fs)[*n], 0, sizeof(**fs));
	(*fs)[(*n)++].file = file;
}

struct bt_view *
bt_view_files(struct bt_selection *sel, size_t func, const struct bt_view_opts *o,
	      struct bt_error *err)
{
	const struct bt_annotation *a;
	struct bt_view_opts def;
	struct file_sum *fs = NULL;
	size_t n = 0, alloc = 0, i, k, wnum = 8, wname = 4;
	struct bt_view *v;
	double denom;

	if (o == NULL) {
		bt_view_opts_init(&def);
		o = &def;
	}
	a = bt_selection_annotation(sel, func, o->syntax, err);
	if (a == NULL)
		return NULL;
	if (a->file == NULL) {
		bt_error_set(err, BT_ENODATA, "no source lines for '%s'",
		    bt_selection_func(sel, func)->name);
		return NULL;
	}
	add_file(&fs, &n, &alloc, a->file);
	for (i = 0; i < a->insns.n; i++) {
		const struct bt_ainsn *ai = &a->insns.v[i];
		add_file(&fs, &n, &alloc, ai->file);
		for (k = 0; k < ai->depth; k++)
			add_file(&fs, &n, &alloc, a->frames.v[ai->chain + k].call_file);
	}
	for (k = 0; k < n; k++)
		for (i = 0; i < a->insns.n; i++)
			if (bt_annotation_line_in(a, &a->insns.v[i], fs[k].file)) {
				fs[k].samples += a->insns.v[i].samples;
				fs[k].adjusted += a->insns.v[i].adjusted;
			}
	/* its own file first (the call sites of everything), then the hottest */
	if (n > 2)
		bt_qsort(fs + 1, n - 1, sizeof(*fs), file_cmp);
	v = view_new(sel);
	view_set_func(v, func);
	denom = o->global_percent ? (double)bt_selection_samples(sel) : (double)a->samples;
	for (k = 0; k < n; k++)
		wname = BT_MAX(wname, view_ncols(view_basename(fs[k].file)));
	for (k = 0; k < n; k++) {
		struct bt_row *r = view_add_row(v, BT_ROW_FILE);
		double primary;

		r->func = func;
		r->file = bt_strpool_addstr(&v->pool, fs[k].file);
		primary = view_set_numbers(r, o, fs[k].samples, 0, fs[k].adjusted, 0, denom);
		r->text = r->file;
		view_add_cell(v, view_pad(v, r->weight > 0 ? bt_strpool_addf(&v->pool,
		    "%.2f", primary) : "", wnum, true), view_heat(primary, r->weight > 0));
		view_add_cell(v, view_pad(v, fs[k].samples ? bt_strpool_addf(&v->pool,
		    "%llu", (unsigned long long)fs[k].samples) : "", 9, true),
		    BT_STYLE_NORMAL);
		view_add_cell(v, "  ", BT_STYLE_NORMAL);
		view_add_cell(v, view_pad(v, view_basename(r->file), wname + 2, false),
		    BT_STYLE_SOURCE);
		view_add_cell(v, r->file, BT_STYLE_COMMENT);
	}
	{
		const char *h[5] = { o->skid ? "Skid%" : "Percent", o->skid && o->width > 0 ?
			"RawSmp" : "Samples", "", "File",
			"Path" };
		size_t w[5] = { wnum, 9, 2, wname + 2, 0 };
		bool right[5] = { true, true, false, false, false };
		view_set_columns(v, h, w, right, 5);
	}
	free(fs);
	view_seal(v);
	{
		const char *name = view_name(v, bt_selection_func(sel, func)->name, o);
		view_set_title(v, "files of ", name, ": %zu", n);
	}
	return v;
}
