/*
 * The source view: the function's file, one row per line, with the
 * samples of the instructions that count for it (code inlined from
 * elsewhere counts for its call site in this file).
 */
#include <stdlib.h>
#include <string.h>

#include "session/session-int.h"
#include "symbols/symbols.h"
#include "view/view-int.h"

struct line_sums {
	uint64_t samples, period;
	double adjusted, adjusted_period;
};

struct bt_view *
bt_view_source(struct bt_session *s, size_t func, const struct bt_view_opts *o,
	       struct bt_error *err)
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
	a = bt_session_annotation(s, func, o->syntax, err);
	if (a == NULL)
		return NULL;
	if (a->file == NULL) {
		bt_error_set(err, BT_ENODATA, "no source lines for '%s'",
		    bt_session_func(s, func)->name);
		return NULL;
	}
	f = bt_session_func(s, func);
	sf = bt_srccache_get(s->src, a->file);
	nlines = sf->nlines;
	for (i = 0; i < a->insns.n; i++) {
		unsigned l = bt_annotation_line_in(a, &a->insns.v[i], a->file);
		if (l > nlines && sf->missing)
			nlines = l;
	}
	sum = bt_xcalloc(nlines + 1, sizeof(*sum));
	for (i = 0; i < a->insns.n; i++) {
		const struct bt_ainsn *ai = &a->insns.v[i];
		unsigned l = bt_annotation_line_in(a, ai, a->file);
		if (l == 0 || l > nlines)
			continue;
		sum[l].samples += ai->samples;
		sum[l].period += ai->period;
		sum[l].adjusted += ai->adjusted;
		sum[l].adjusted_period += ai->adjusted_period;
	}
	v = view_new(s);
	view_set_func(v, func);
	denom = o->global_percent ? (double)bt_session_samples(s) : (double)a->samples;
	{
		char buf[32];
		wline = BT_MAX(wline, (size_t)snprintf(buf, sizeof(buf), "%zu", nlines));
	}
	/* a space wider than its heading, which the text export's '#' takes */
	wnum = BT_MAX(wnum, strlen(o->num == BT_NUM_PERCENT ? (o->skid ? "Skid%" :
	    "Percent") : o->num == BT_NUM_SAMPLES ? "Samples" : "Period") + 1);
	for (i = 1; i <= nlines; i++) {
		struct bt_row *r;
		const char *num;
		double primary;

		if (sf->missing && sum[i].samples == 0 && sum[i].adjusted == 0)
			continue;
		r = view_add_row(v, BT_ROW_LINE);
		r->func = func;
		r->file = a->file;
		r->line = (unsigned)i;
		primary = view_set_numbers(r, o, sum[i].samples, sum[i].period,
		    sum[i].adjusted, sum[i].adjusted_period, denom);
		r->text = sf->missing ? "" : sf->lines[i - 1];
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
		const char *h[4] = { o->num == BT_NUM_PERCENT ? (o->skid ? "Skid%" : "Percent") :
			o->num == BT_NUM_SAMPLES ? "Samples" : "Period", "Samples", "Line",
			"  Source" };
		size_t w[4] = { wnum, 8, wline + 2, 0 };
		bool right[4] = { true, true, true, false };
		view_set_columns(v, h, w, right, 4);
	}
	if (sf->missing)
		BT_VEC_PUSH(v->notes, bt_strpool_addf(&v->pool,
		    "source file '%s' not found: only lines with samples are listed",
		    a->file));
	free(sum);
	view_seal(v);
	v->title = bt_strpool_addf(&v->pool, "%s  (source of %s)", a->file, f->name);
	return v;
}
