/*
 * Exports (DESIGN.md §3): what a whole-profile export holds (the header,
 * the hot-function table, the findings, the annotated functions), built as
 * views and handed to the text or the JSON renderer. Both see the same
 * views, so they carry the same rows and numbers.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "benchtui/bench.h"
#include "benchtui/export.h"
#include "benchtui/selection.h"
#include "benchtui/session.h"
#include "export/export-int.h"

/* The functions a whole-profile export annotates; (size_t)-1 when -s names none. */
static size_t
pick(struct bt_selection *sel, const struct bt_export_opts *o, size_t *idx,
     struct bt_error *err)
{
	size_t n = 0, i;

	if (o->func != NULL) {
		long f = bt_selection_find(sel, o->func);
		if (f < 0) {
			char *why = bt_selection_find_error(sel, o->func);
			bt_error_set(err, BT_ENOENT, "%s", why);
			free(why);
			return (size_t)-1;
		}
		idx[0] = (size_t)f;
		return 1;
	}
	for (i = 0; i < bt_selection_nfuncs(sel); i++) {
		if (!bt_selection_func(sel, i)->can_annotate)
			continue;
		if (!o->all && n >= o->top)
			break;
		idx[n++] = i;
	}
	return n;
}

static const struct export_ops *
ops_of(enum bt_format format)
{
	return format == BT_FORMAT_JSON ? &export_json : &export_text;
}

static int
finish(FILE *out, struct bt_error *err)
{
	if (fflush(out) != 0 || ferror(out))
		return bt_error_errno(err, BT_EIO, errno, "cannot write the export");
	return 0;
}

static void
bench_parts_free(struct export_bench *eb, size_t n, struct bt_view *table)
{
	size_t i;

	for (i = 0; i < n; i++) {
		bt_view_free(eb[i].funcs);
		bt_view_free(eb[i].findings);
		bt_view_free(eb[i].annotation);
		free(eb[i].run_samples);
	}
	free(eb);
	bt_view_free(table);
}

#define BENCH_FUNCS 10	/* hot functions shown per benchmark */

/* What e->funcs leaves out of bsel's functions: their number and samples. */
static void
other_funcs(struct export_bench *e, struct bt_selection *bsel)
{
	uint64_t all = 0, shown = 0;
	size_t i, n = 0, rows = bt_view_nrows(e->funcs);

	for (i = 0; i < bt_selection_nfuncs(bsel); i++)
		if (bt_selection_func(bsel, i)->samples > 0) {
			all += bt_selection_func(bsel, i)->samples;
			n++;
		}
	for (i = 0; i < rows; i++)
		shown += bt_view_row(e->funcs, i)->samples;
	e->other_samples = all - BT_MIN(all, shown);
	e->other_funcs = n > rows ? n - rows : 0;
}

/*
 * Each benchmark's part (DESIGN.md §7), fastest first, from its own
 * selection (views outlive their selection). With -b, only that
 * benchmark: sel is its selection.
 */
static struct export_bench *
bench_parts(struct bt_selection *sel, const struct bt_export_opts *o,
	    struct bt_view **table, size_t *n)
{
	long cur = bt_selection_bench_index(sel);
	struct bt_selection_opts so = *bt_selection_opts(sel);
	size_t nb = bt_selection_nbenches(sel), i, k = 0;
	struct bt_view_opts vo = o->view;
	struct export_bench *eb;

	*table = NULL;
	*n = 0;
	if (nb == 0)
		return NULL;
	vo.locate = true;
	*table = bt_view_benches(sel, &vo, true);
	eb = bt_xcalloc(nb, sizeof(*eb));
	for (i = 0; i < bt_view_nrows(*table); i++) {
		const struct bt_row *r = bt_view_row(*table, i);
		struct export_bench *e = &eb[k];
		struct bt_selection *bsel;
		size_t f;

		if (r->kind != BT_ROW_BENCH || r->func == (size_t)-1 ||
		    (cur >= 0 && (long)r->func != cur))
			continue;
		e->b = bt_selection_bench(sel, r->func);
		e->nruns = bt_selection_bench_runs(sel, r->func, &e->runs);
		e->run_samples = bt_xcalloc(e->nruns + 1, sizeof(uint64_t));
		for (f = 0; f < e->nruns; f++)
			if (!bt_selection_bench_run_samples(sel, r->func, f, &e->run_samples[f]))
				e->run_samples[f] = UINT64_MAX;
		k++;
		if (!e->b->has_window)
			continue;
		so.bench = (long)r->func;
		bsel = cur >= 0 ? bt_selection_ref(sel) :
		    bt_selection_new(bt_selection_session(sel), &so, NULL);
		if (bsel == NULL)
			continue;
		e->funcs = bt_view_functions(bsel, &vo, BENCH_FUNCS);
		other_funcs(e, bsel);
		e->findings = bt_view_findings(bsel, &vo);
		for (f = 0; cur < 0 && f < bt_selection_nfuncs(bsel); f++)
			if (bt_selection_func(bsel, f)->can_annotate) {
				e->annotation = bt_view_annotate(bsel, f, &o->view, NULL);
				break;
			}
		bt_selection_free(bsel);
	}
	*n = k;
	return eb;
}

/*
 * The text export lists the processes and threads when the samples are
 * of more than one thread, or of one under two names (an exec): a forking
 * harness, a threaded benchmark, a build (perf report --sort comm,pid's
 * rows). One thread's run under one name needs no list.
 */
static bool
procs_shown(const struct bt_view *pv)
{
	size_t i, rows = 0;

	for (i = 0; i < bt_view_nrows(pv); i++)
		if (strcmp(bt_view_row(pv, i)->label, "thread") == 0)
			rows++;
	return rows > 1;
}

/*
 * The pprof export, with the skid-adjusted weights of the functions a text
 * export would annotate (--top, --all, -s).
 */
static int
export_pprof(FILE *out, struct bt_selection *sel, const struct bt_export_opts *o,
	     struct bt_error *err)
{
	size_t *idx = bt_xcalloc(bt_selection_nfuncs(sel) + 1, sizeof(size_t));
	size_t n = pick(sel, o, idx, err);
	int ret = n == (size_t)-1 ? -BT_ENOENT : bt_export_pprof(out, sel, o, idx, n, err);

	free(idx);
	return ret < 0 ? ret : finish(out, err);
}

/* --view: one screen's view, as E writes it from the browser. */
static int
export_screen(FILE *out, struct bt_selection *sel, const struct bt_export_opts *o,
	      struct bt_error *err)
{
	const char *name = o->screen == BT_EXPORT_MCA ? "mca" : "data-types";
	struct bt_view *v;
	size_t idx;
	int ret;

	if (o->format != BT_FORMAT_TEXT && o->format != BT_FORMAT_JSON)
		return bt_error_set(err, BT_EINVAL, "--view %s is written as text or "
		    "json only", name);
	if (o->screen == BT_EXPORT_MCA) {
		if (o->func == NULL)
			return bt_error_set(err, BT_EINVAL, "--view mca predicts one "
			    "function's loops: name it with -s FUNC");
		if (pick(sel, o, &idx, err) == (size_t)-1)
			return -BT_ENOENT;
		v = bt_view_mca(sel, idx, &o->view, err);
	} else
		v = bt_view_data_types(sel, &o->view, err);
	if (v == NULL)
		return -BT_EINVAL;
	ret = bt_export_view(out, sel, v, o->format, err);
	bt_view_free(v);
	return ret;
}

int
bt_export(FILE *out, struct bt_selection *sel, const struct bt_export_opts *o,
	  struct bt_error *err)
{
	const struct export_ops *ops = ops_of(o->format);
	struct export_out eo = { .f = out };
	size_t *idx, n, i, nbench;
	struct bt_view_opts vo = o->view;
	struct bt_view *h, *fv, *lv, *pv, *table;
	struct export_bench *eb;

	if (o->screen != BT_EXPORT_REPORT)
		return export_screen(out, sel, o, err);
	if (o->format == BT_FORMAT_FLAMEGRAPH)
		return export_flamegraph(out, sel, err);
	if (o->format == BT_FORMAT_PPROF)
		return export_pprof(out, sel, o, err);
	if (o->format == BT_FORMAT_BMF)
		return bt_export_bmf(out, sel, &o->view) < 0 ? -BT_EIO : finish(out, err);
	eb = bench_parts(sel, o, &table, &nbench);
	eo.benches = table;
	eo.bench = eb;
	eo.nbench = nbench;
	eo.bench_selected = bt_selection_bench_index(sel) >= 0;
	idx = bt_xcalloc(bt_selection_nfuncs(sel) + 1, sizeof(size_t));
	n = pick(sel, o, idx, err);
	if (n == (size_t)-1) {
		free(idx);
		bench_parts_free(eb, nbench, table);
		return -BT_ENOENT;
	}
	vo.locate = true;	/* every row's source, in text and JSON alike */
	h = bt_view_header_opts(sel, &vo);
	fv = bt_view_functions(sel, &vo, 0);
	lv = bt_view_findings(sel, &vo);
	pv = bt_view_procs(sel, &o->view);
	eo.procs = pv;
	eo.procs_text = procs_shown(pv);
	ops->begin(&eo, h, fv, lv);
	for (i = 0; i < n; i++) {
		struct bt_error aerr = { 0 };
		/* its rows written as they are made (a window at a time) */
		struct bt_view *v = bt_view_annotate_stream(sel, idx[i], &o->view, &aerr);

		if (v == NULL) {
			ops->failed(&eo, bt_selection_func(sel, idx[i])->name, aerr.msg);
			continue;
		}
		ops->annotation(&eo, v);
		bt_view_free(v);
		/*
		 * written: its annotation is not needed again (thousands of
		 * functions keep memory flat; a big one is not kept beside the
		 * next one's view)
		 */
		bt_selection_forget(sel, idx[i]);
	}
	ops->end(&eo);
	bt_view_free(h);
	bt_view_free(fv);
	bt_view_free(lv);
	bt_view_free(pv);
	bench_parts_free(eb, nbench, table);
	free(idx);
	return finish(out, err);
}

int
bt_export_view(FILE *out, struct bt_selection *sel, const struct bt_view *v,
	       enum bt_format format, struct bt_error *err)
{
	struct export_out eo = { .f = out };
	struct bt_view *h = bt_view_header(sel);

	ops_of(format)->view(&eo, h, v);
	bt_view_free(h);
	return finish(out, err);
}
