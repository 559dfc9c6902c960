/*
 * The views of the whole run: the header (and its summary), the
 * hot-function table, the lint findings and the timeline.
 */
#include <stdlib.h>
#include <string.h>

#include "benchtui/bench.h"
#include "benchtui/lint.h"
#include "session/query.h"
#include "symbols/symbols.h"
#include "view/view-int.h"

/* Header. */

static void
text_row(struct bt_view *v, enum bt_style style, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void
text_row(struct bt_view *v, enum bt_style style, const char *fmt, ...)
{
	struct bt_strbuf sb = BT_STRBUF_INIT;
	struct bt_row *r;
	va_list ap;

	va_start(ap, fmt);
	bt_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	r = view_add_row(v, BT_ROW_TEXT);
	r->text = bt_strpool_add(&v->pool, sb.buf, sb.len);
	view_add_cell(v, r->text, style);
	bt_strbuf_release(&sb);
}

/* The run as fields: what every header (screen, text, JSON) is made of. */

/*
 * "pid 4242, 4243; tid 4244; comm java", NULL when every process and
 * thread is selected.
 */
static const char *
threads(struct bt_view *v, const struct bt_selection_opts *o)
{
	struct bt_strbuf sb = BT_STRBUF_INIT;
	const char *out;
	size_t i;

	if (o->npid == 0 && o->ntid == 0 && o->ncomm == 0)
		return NULL;
	for (i = 0; i < o->npid; i++)
		bt_strbuf_addf(&sb, "%s%u", i ? ", " : "pid ", o->pid[i]);
	for (i = 0; i < o->ntid; i++)
		bt_strbuf_addf(&sb, "%s%u", i ? ", " : o->npid ? "; tid " : "tid ",
		    o->tid[i]);
	for (i = 0; i < o->ncomm; i++)
		bt_strbuf_addf(&sb, "%s%.*s", i ? ", " : o->npid || o->ntid ? "; comm " :
		    "comm ", BT_COMM_LEN, o->comm[i]);
	out = bt_strpool_add(&v->pool, sb.buf, sb.len);
	bt_strbuf_release(&sb);
	return out;
}

/*
 * What the selection is and its own duration, for the header: its
 * benchmark, its processes and threads, its window; the duration is the
 * window's (a benchmark's or one asked for), narrowed to the first and
 * last sample of the processes chosen.
 */
static void
scope(struct bt_view *v, struct bt_selection *sel)
{
	struct bt_view_summary *m = &v->summary;
	struct bt_strbuf sb = BT_STRBUF_INIT;
	double from = m->win_from, to = m->win_to;
	bool known = m->windowed || (m->benchmark != NULL && !m->bench_by_chain);

	if (m->benchmark != NULL)
		bt_strbuf_addf(&sb, "%s%s", m->benchmark, m->bench_by_chain ?
		    " (by its code)" : "");
	if (m->threads != NULL) {
		struct bt_session *s = bt_selection_session(sel);
		struct bt_proc_count *c;
		size_t n = bt_selection_proc_counts(sel, &c), i;
		uint64_t first = 0, last = 0;

		for (i = 0; i < n; i++) {
			if (c[i].first && (first == 0 || c[i].first < first))
				first = c[i].first;
			last = BT_MAX(last, c[i].last);
		}
		free(c);
		if (first != 0) {
			double f = bt_session_seconds(s, first), l = bt_session_seconds(s, last);
			from = known ? BT_MAX(from, f) : f;
			to = known ? BT_MIN(to, l) : l;
			known = !m->bench_by_chain;
		}
		bt_strbuf_addf(&sb, "%s%s", sb.len ? ", " : "", m->threads);
	}
	if (m->windowed)
		bt_strbuf_addf(&sb, "%swindow %.3f-%.3f s", sb.len ? ", " : "",
		    m->win_from, m->win_to);
	if (sb.len)
		m->scope = bt_strpool_add(&v->pool, sb.buf, sb.len);
	bt_strbuf_release(&sb);
	m->has_span = known && m->scope != NULL;
	m->span = m->has_span ? BT_MAX(to - from, 0.0) : 0;
}

static size_t lint_count(struct bt_selection *sel);

static void
summarize(struct bt_view *v, struct bt_selection *sel, size_t width,
	  const char **hot_path_shown)
{
	struct bt_session *s = bt_selection_session(sel);
	const struct bt_profile_info *in = bt_session_info(s);
	struct bt_view_summary *m = &v->summary;
	char buf[128];
	size_t i;

	v->has_summary = true;
	m->command = in->command;
	m->argv = in->argv;
	m->argc = in->argc;
	m->event = bt_selection_event(sel);
	m->event_group = NULL;
	for (i = 0; in->event_groups != NULL && i < in->nevents; i++)
		if (strcmp(in->events[i], m->event) == 0)
			m->event_group = in->event_groups[i];
	m->frequency = in->frequency;
	m->event_note = in->event_note ? in->event_note : "";
	m->samples = bt_selection_samples(sel);
	m->lost = in->lost;
	m->throttled = in->throttled;
	m->duration = in->duration;
	m->windowed = bt_selection_windowed(sel);
	m->threads = threads(v, bt_selection_opts(sel));
	m->pid = bt_selection_opts(sel)->pid;
	m->npid = bt_selection_opts(sel)->npid;
	m->tid = bt_selection_opts(sel)->tid;
	m->ntid = bt_selection_opts(sel)->ntid;
	m->comm = bt_selection_opts(sel)->comm;
	m->ncomm = bt_selection_opts(sel)->ncomm;
	bt_selection_window(sel, &m->win_from, &m->win_to);
	m->has_status = in->has_status;
	m->interrupted = in->interrupted;
	if (in->has_status) {
		m->exit_code = bt_wait_code(in->wait_status);
		m->signal = WIFSIGNALED(in->wait_status) ? WTERMSIG(in->wait_status) : 0;
		bt_wait_describe(in->wait_status, buf, sizeof(buf));
		m->status = m->signal && in->interrupted ?
		    bt_strpool_addf(&v->pool, "%s, interrupted", buf) :
		    bt_strpool_addstr(&v->pool, buf);
	} else
		m->status = "unknown";
	m->nfindings = lint_count(sel);
	if (bt_selection_bench_index(sel) >= 0) {
		const struct bt_bench *b = bt_selection_bench(sel,
		    (size_t)bt_selection_bench_index(sel));
		m->benchmark = b->name;
		m->bench_time = b->time_text && bt_bench_time_unit(b)[0] ?
		    view_cat(v, b->time_text, bt_bench_time_unit(b)) : b->time_text;
		m->bench_by_chain = b->by_chain;
	}
	scope(v, sel);
	for (i = 0; i < bt_session_nnotes(s); i++)
		BT_VEC_PUSH(v->notes, bt_strpool_addstr(&v->pool, bt_session_note(s, i)));
	m->notes = v->notes.v;
	m->nnotes = v->notes.n;
	/* "# hot path: " before it in the text report */
	m->hot_path = view_hot_path(v, sel, width > 12 ? width - 12 : 0, hot_path_shown);
}

struct bt_view *
bt_view_header(struct bt_selection *sel)
{
	return bt_view_header_opts(sel, NULL);
}

struct bt_view *
bt_view_header_opts(struct bt_selection *sel, const struct bt_view_opts *o)
{
	struct bt_view *v = view_new(sel);
	const struct bt_view_summary *m = &v->summary;
	const char *hot_path;
	size_t i;

	summarize(v, sel, o != NULL ? view_names_width(o) : 0, &hot_path);
	text_row(v, BT_STYLE_NORMAL, "command: %s", m->command);
	if (m->frequency)
		text_row(v, BT_STYLE_NORMAL, "event: %s, %u Hz%s%s%s%s%s", m->event,
		    m->frequency, m->event_group ? ", group " : "",
		    m->event_group ? m->event_group : "",
		    m->event_note[0] ? " (" : "", m->event_note,
		    m->event_note[0] ? ")" : "");
	else
		text_row(v, BT_STYLE_NORMAL, "event: %s%s%s", m->event,
		    m->event_group ? ", group " : "",
		    m->event_group ? m->event_group : "");
	text_row(v, m->lost ? BT_STYLE_WARN : BT_STYLE_NORMAL,
	    "samples: %llu, lost: %llu%s", (unsigned long long)m->samples,
	    (unsigned long long)m->lost, m->throttled ?
	    bt_strpool_addf(&v->pool, ", throttled: %llu",
		(unsigned long long)m->throttled) : "");
	if (m->windowed)
		text_row(v, BT_STYLE_NORMAL, "duration: %.3f s, window %.3f-%.3f s",
		    m->duration, m->win_from, m->win_to);
	else
		text_row(v, BT_STYLE_NORMAL, "duration: %.3f s", m->duration);
	if (m->threads != NULL)
		text_row(v, BT_STYLE_NORMAL, "threads: %s (their samples only)", m->threads);
	text_row(v, m->has_status && m->exit_code ? BT_STYLE_WARN : BT_STYLE_NORMAL,
	    "status: %s", m->status);
	if (m->benchmark && m->bench_by_chain)
		text_row(v, BT_STYLE_TITLE, "benchmark: %s%s%s%s (its samples only: "
		    "those whose call chain passes through its code)", m->benchmark,
		    m->bench_time ? ", " : "", m->bench_time ? m->bench_time : "",
		    m->bench_time && !strstr(m->bench_time, "/sec") ? "/op" : "");
	else if (m->benchmark)
		text_row(v, BT_STYLE_TITLE, "benchmark: %s%s%s%s (its samples only: "
		    "%.3f-%.3f s)", m->benchmark, m->bench_time ? ", " : "",
		    m->bench_time ? m->bench_time : "",
		    m->bench_time && !strstr(m->bench_time, "/sec") ? "/op" : "",
		    m->win_from, m->win_to);
	if (m->hot_path != NULL)
		text_row(v, BT_STYLE_NORMAL, "hot path: %s", hot_path);
	for (i = 0; i < m->nnotes; i++)
		text_row(v, BT_STYLE_WARN, "note: %s", m->notes[i]);
	view_seal(v);
	v->title = "header";
	return v;
}

/* Lint findings. */

#define FINDING_NAME_COLS 40

/* The benchmarks whose findings L lists besides the selection's: the whole run's. */
static size_t
lint_benches(struct bt_selection *sel)
{
	return bt_selection_bench_index(sel) < 0 ? bt_selection_nbenches(sel) : 0;
}

/* The rows of bt_view_lint, without making them. */
static size_t
lint_count(struct bt_selection *sel)
{
	const struct bt_finding *f;
	size_t n = bt_selection_findings(sel, &f), i;

	for (i = 0; i < lint_benches(sel); i++) {
		const struct bt_bench_summary *sm = bt_selection_bench_summary(sel, i);
		n += sm ? sm->nfindings : 0;
	}
	return n;
}

static struct bt_view *
findings_view(struct bt_selection *sel, const struct bt_view_opts *vo, bool benches)
{
	struct bt_view *v = view_new(sel);
	struct bt_view_opts o;
	const struct bt_finding *f;
	size_t n = bt_selection_findings(sel, &f), i, k, wname = 8;	/* "Function" */
	size_t nb = benches ? lint_benches(sel) : 0, nall = n, nbf;
	const char **shown = bt_xcalloc(n + 1, sizeof(char *));

	bt_view_opts_init(&o);
	for (i = 0; i < n; i++)
		shown[i] = f[i].function ? view_name(v, f[i].function, &o) : "(run)";
	if (vo != NULL && view_names_width(vo) > 0)	/* a screen: names fit the column */
		view_fit_names(v, shown, n, FINDING_NAME_COLS, shown);
	for (i = 0; i < n; i++)
		wname = BT_MIN(BT_MAX(wname, view_ncols(shown[i])), FINDING_NAME_COLS);
	for (i = 0; i < nb; i++) {
		const struct bt_bench_summary *sm = bt_selection_bench_summary(sel, i);
		if (sm != NULL && sm->nfindings)
			wname = BT_MIN(BT_MAX(wname, view_ncols(bt_selection_bench(sel,
			    i)->name)), FINDING_NAME_COLS);
	}
	for (i = 0; i < n; i++) {
		struct bt_row *r = view_add_row(v, BT_ROW_FINDING);
		r->func = f[i].func >= 0 ? (size_t)f[i].func : (size_t)-1;
		r->percent = f[i].percent;
		/* the findings are the selection's: copied, they outlive it */
		r->label = bt_strpool_addstr(&v->pool, f[i].check);
		r->name = f[i].function;
		r->short_name = f[i].function ? view_short_name(v, f[i].function, false) :
		    NULL;
		r->detail = f[i].function && shown[i] != f[i].function ? f[i].function :
		    NULL;
		r->module = f[i].func >= 0 ? bt_selection_func(sel, (size_t)f[i].func)->module :
		    NULL;
		r->text = bt_strpool_addstr(&v->pool, f[i].message);
		/* the message last: a narrow screen cuts only it (and shows it whole below) */
		view_add_cell(v, view_pad(v, r->label, 18, false), BT_STYLE_WARN);
		view_add_cell(v, view_pad(v, bt_strpool_addf(&v->pool, "%.1f%%",
		    r->percent), 7, true), BT_STYLE_HOT);
		view_add_cell(v, "  ", BT_STYLE_NORMAL);
		view_add_cell(v, view_pad(v, shown[i], wname + 2, false), BT_STYLE_NORMAL);
		view_add_cell(v, r->text, BT_STYLE_NORMAL);
	}
	/* every benchmark's, in the table's order: the Finding column's, whole */
	for (i = 0; i < nb; i++) {
		const struct bt_bench_summary *sm = bt_selection_bench_summary(sel, i);
		const char *name = bt_selection_bench(sel, i)->name;

		for (k = 0; sm != NULL && k < sm->nfindings; k++) {
			const struct bt_finding *bf = &sm->findings[k];
			struct bt_row *r = view_add_row(v, BT_ROW_FINDING);
			r->flags = BT_ROW_F_BENCH;
			r->insn = i;
			r->func = (size_t)-1;
			r->percent = bf->percent;
			r->label = bt_strpool_addstr(&v->pool, bf->check);
			r->detail = bt_strpool_addstr(&v->pool, name);
			r->text = bt_strpool_addstr(&v->pool, bf->message);
			view_add_cell(v, view_pad(v, r->label, 18, false), BT_STYLE_WARN);
			view_add_cell(v, view_pad(v, bt_strpool_addf(&v->pool, "%.1f%%",
			    r->percent), 7, true), BT_STYLE_HOT);
			view_add_cell(v, "  ", BT_STYLE_NORMAL);
			view_add_cell(v, view_pad(v, r->detail, wname + 2, false), BT_STYLE_TITLE);
			view_add_cell(v, r->text, BT_STYLE_NORMAL);
			nall++;
		}
	}
	nbf = nall - n;
	{
		const char *h[5] = { "Check", "Share", "", nbf ? "Where" : "Function", "Why" };
		size_t w[5] = { 18, 7, 2, wname + 2, 0 };
		bool right[5] = { false, true, false, false, false };
		if (nall)
			view_set_columns(v, h, w, right, 5);
	}
	free(shown);
	view_seal(v);
	if (nbf)
		v->title = bt_strpool_addf(&v->pool, "lint: %zu finding%s (%zu of the run, "
		    "%zu of the benchmarks: Enter opens one)", nall, nall == 1 ? "" : "s",
		    n, nbf);
	else
		v->title = nall ? bt_strpool_addf(&v->pool, "lint: %zu finding%s", nall,
		    nall == 1 ? "" : "s") : "lint: no findings";
	return v;
}

struct bt_view *
bt_view_findings(struct bt_selection *sel, const struct bt_view_opts *vo)
{
	return findings_view(sel, vo, false);
}

struct bt_view *
bt_view_lint(struct bt_selection *sel, const struct bt_view_opts *vo)
{
	return findings_view(sel, vo, true);
}

/* Timeline. */

/* The bar's width: a row (marker, seconds, three counts, bar) fits 80 columns. */
#define BAR 32

struct bt_view *
bt_view_timeline(struct bt_selection *sel, long func, size_t nbins, long mark_from,
		 long mark_to)
{
	struct bt_view *v = view_new(sel);
	const struct bt_func *f = func >= 0 ? bt_selection_func(sel, (size_t)func) : NULL;
	struct bt_slices sl;
	uint64_t *all, *mine, maxn = 1;
	double span;
	size_t b;
	bool bench, sub;

	bt_selection_slices(sel, nbins, f != NULL ? func : -1, &sl);
	nbins = sl.n;
	all = sl.all;
	mine = sl.mine;
	span = sl.span;
	bench = sl.of == BT_SLICES_BENCH;
	sub = sl.of != BT_SLICES_ALL;
	if (f != NULL)
		view_set_func(v, (size_t)func);
	for (b = 0; b < nbins; b++)
		maxn = BT_MAX(maxn, all[b]);
	/*
	 * The bar: the function's share of the slice when there is a
	 * function (under cpu-clock every slice holds the same number of
	 * samples, so a bar of counts says nothing), else the slice's samples
	 * against the busiest slice's. The counts are columns.
	 */
	for (b = 0; b < nbins; b++) {
		struct bt_row *r = view_add_row(v, BT_ROW_SLICE);
		char bar[BAR + 1];
		double frac = sub ? (all[b] ? (double)mine[b] / (double)all[b] : 0) :
		    (double)all[b] / (double)maxn;
		size_t w = (size_t)(frac * BAR + 0.5);
		bool marked = mark_from >= 0 && (long)b >= mark_from &&
		    (mark_to < 0 ? (long)b == mark_from : (long)b <= mark_to);

		r->func = f ? (size_t)func : (size_t)-1;
		r->samples = all[b];
		r->sub_samples = mine[b];
		r->t_from = span / 1e9 * (double)b / (double)nbins;
		r->t_to = span / 1e9 * (double)(b + 1) / (double)nbins;
		r->percent = all[b] ? 100.0 * (double)mine[b] / (double)all[b] : 0;
		r->weight = sub ? (double)mine[b] : (double)all[b];
		memset(bar, '#', w);
		bar[w] = '\0';
		view_add_cell(v, marked ? ">" : " ", BT_STYLE_WARN);
		view_add_cell(v, bt_strpool_addf(&v->pool, "%8.3f-%-8.3f", r->t_from,
		    r->t_to), BT_STYLE_ADDR);
		view_add_cell(v, bt_strpool_addf(&v->pool, "%8llu",
		    (unsigned long long)all[b]), BT_STYLE_NORMAL);
		if (sub) {
			view_add_cell(v, bt_strpool_addf(&v->pool, bench ? "%10llu" : "%9llu",
			    (unsigned long long)mine[b]), BT_STYLE_NORMAL);
			view_add_cell(v, view_pad(v, all[b] ? bt_strpool_addf(&v->pool,
			    "%.1f%%", r->percent) : "", 7, true),
			    view_heat(r->percent, mine[b] > 0));
		}
		view_add_cell(v, "  ", BT_STYLE_NORMAL);
		view_add_cell(v, bt_strpool_addstr(&v->pool, bar), marked ? BT_STYLE_WARN :
		    BT_STYLE_MILD);
	}
	if (sub) {
		const char *h[7] = { " ", "Seconds", "Samples", bench ? "Benchmark" : "Function",
			"Share", "", "" };
		size_t w[7] = { 1, 17, 8, bench ? 10 : 9, 7, 2, 0 };
		bool right[7] = { false, false, true, true, true, false, false };
		view_set_columns(v, h, w, right, 7);
	} else {
		const char *h[5] = { " ", "Seconds", "Samples", "", "" };
		size_t w[5] = { 1, 17, 8, 2, 0 };
		bool right[5] = { false, false, true, false, false };
		view_set_columns(v, h, w, right, 5);
	}
	bt_slices_release(&sl);
	view_seal(v);
	if (f != NULL) {
		const char *name = view_short_name(v, f->name, false);
		view_set_title(v, "timeline of ", name, ": %zu slices of %.3f s",
		    nbins, span / 1e9 / (double)nbins);
	} else if (bench)
		v->title = bt_strpool_addf(&v->pool, "timeline of benchmark %s: %zu slices of %.3f s",
		    bt_selection_bench(sel, (size_t)bt_selection_bench_index(sel))->name,
		    nbins, span / 1e9 / (double)nbins);
	else
		v->title = bt_strpool_addf(&v->pool, "timeline: %zu slices of %.3f s",
		    nbins, span / 1e9 / (double)nbins);
	return v;
}

/* Hot functions. */

/*
 * Does function f pass the table's filters (module, name: re compiled from
 * o->filter, NULL for none; invalid, *bad and no function passes)?
 */
static bool
func_shown(const struct bt_func *f, const struct bt_view_opts *o, const regex_t *re,
	   bool bad)
{
	if (bad || (o->module != NULL && strcmp(f->module, o->module) != 0))
		return false;
	return re == NULL || view_name_matches(f->name, re);
}

/*
 * Percent (or period), samples, module, source, symbol: the symbol last,
 * as perf puts it, so that a long C++ name pads no other column and cuts
 * nothing but itself. Compact: no source column, and module names cut
 * at 16 columns, to leave the names room.
 */
#define COMPACT_MODULE 16

/* A function's callers or callees, copied into the view (its pool and its edge blocks). */
static const struct bt_row_edge *
row_edges(struct bt_view *v, const struct bt_view_opts *o,
	  const struct bt_func_edge *e, size_t n)
{
	struct bt_row_edge *re;
	size_t i;

	if (n == 0)
		return NULL;
	re = view_alloc(v, n * sizeof(*re));
	for (i = 0; i < n; i++) {
		const struct bt_func *f = bt_selection_func(v->sel, e[i].func);
		re[i].func = e[i].func;
		re[i].name = f->name;
		re[i].module = f->module;
		re[i].samples = e[i].samples;
		re[i].percent = e[i].percent;
	}
	return re;
}

/* A function of the table by inclusive samples (perf's --children order). */
struct by_children {
	uint64_t inclusive, samples;
	size_t func;
};

static int
children_cmp(const void *a, const void *b)
{
	const struct by_children *x = a, *y = b;

	if (x->inclusive != y->inclusive)
		return x->inclusive > y->inclusive ? -1 : 1;
	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return x->func < y->func ? -1 : 1;
}

/* idx[0, k) ordered by inclusive, then self samples. */
static void
order_by_children(const struct bt_selection *sel, size_t *idx, size_t k)
{
	struct by_children *c = bt_xcalloc(k + 1, sizeof(*c));
	size_t i;

	for (i = 0; i < k; i++) {
		const struct bt_func *f = bt_selection_func(sel, idx[i]);
		c[i].inclusive = f->inclusive;
		c[i].samples = f->samples;
		c[i].func = idx[i];
	}
	bt_qsort(c, k, sizeof(*c), children_cmp);
	for (i = 0; i < k; i++)
		idx[i] = c[i].func;
	free(c);
}

/*
 * Function fi's row of the table: txt its texts (the columns of pass 1),
 * w the columns' widths, num the first number's column.
 */
static void
func_row(struct bt_view *v, struct bt_selection *sel, const struct bt_view_opts *o,
	 size_t fi, const char *const *txt, const size_t *w, int num)
{
	const struct bt_func *f = bt_selection_func(sel, fi);
	struct bt_row *r = view_add_row(v, BT_ROW_FUNC);
	enum bt_style hs = view_heat(f->percent, f->samples > 0);
	bool chains = bt_session_has_chains(bt_selection_session(sel));
	bool src = o->source && !o->compact;

	r->func = fi;
	if (f->kind == BT_FK_INLINE)
		r->flags |= BT_ROW_F_INLINED;
	r->name = f->name;
	r->short_name = view_short_name(v, f->name, false);
	r->detail = txt[4] != f->name ? f->name : NULL;
	r->module = f->module;
	r->addr = f->start;
	r->samples = f->samples;
	r->period = f->period;
	r->percent = f->percent;
	bt_wilson(f->samples, bt_selection_samples(sel), &r->ci_lo, &r->ci_hi);
	r->weight = o->num == BT_NUM_PERIOD ? (double)f->period :
	    chains && o->children ? f->inclusive_percent : f->percent;
	r->file = src ? f->file : NULL;
	r->line = src ? f->line : 0;
	r->text = f->name;
	if (chains) {
		const struct bt_func_edge *e;
		struct bt_row_calls *calls = view_alloc(v, sizeof(*calls));
		size_t ne;

		calls->inclusive = f->inclusive;
		calls->inclusive_percent = f->inclusive_percent;
		ne = bt_selection_callers(sel, fi, &e);
		calls->callers = row_edges(v, o, e, ne);
		calls->ncallers = ne;
		ne = bt_selection_callees(sel, fi, &e);
		calls->callees = row_edges(v, o, e, ne);
		calls->ncallees = ne;
		r->calls = calls;
	}
	view_add_cell(v, view_pad(v, txt[num], w[num] + 1, true), hs);
	if (!(chains && o->compact))	/* narrow: Children instead of Samples */
		view_add_cell(v, view_pad(v, txt[1], w[1] + 2, true),
		    BT_STYLE_NORMAL);
	if (chains)
		view_add_cell(v, view_pad(v, txt[6], w[6] + 2, true),
		    view_heat(f->inclusive_percent, f->inclusive > 0));
	view_add_cell(v, "  ", BT_STYLE_NORMAL);
	view_add_cell(v, view_pad(v, txt[3], w[3] + 2, false), BT_STYLE_ADDR);
	if (src)
		view_add_cell(v, view_pad(v, txt[5], w[5] + 2, false),
		    BT_STYLE_SOURCE);
	view_add_cell(v, txt[4],
	    f->kind == BT_FK_SYMBOL ? BT_STYLE_NORMAL : BT_STYLE_COMMENT);
}

/*
 * The Symbol column's least width: on a screen 20 (the screen is the
 * limit); in a text report 40, so that a C name (clock_gettime@@GLIBC_2.17)
 * stays whole, however wide the Module and Source columns before it
 */
#define MIN_SYMBOL_COLS 20
#define MIN_SYMBOL_COLS_TEXT 40

/*
 * The Symbol column (all[i * 7 + 4]) in what the screen (or --stdio's
 * width) leaves after the columns before it: each name folded, then cut,
 * only as far as it needs, never two functions read the same
 * (view_fit_names). w[] are the columns' widths, num the number's.
 */
static void
fit_symbols(struct bt_view *v, const struct bt_view_opts *o, bool chains,
	    const char **all, size_t n, const size_t *w, int num)
{
	size_t before = w[num] + 1 + 2 + w[3] + 2, i, least = o->width ? MIN_SYMBOL_COLS :
	    MIN_SYMBOL_COLS_TEXT;
	const char **names = bt_xcalloc(n, sizeof(*names));

	if (!(chains && o->compact))
		before += w[1] + 2;
	if (chains)
		before += w[6] + 2;
	if (o->source && !o->compact)
		before += w[5] + 2;
	for (i = 0; i < n; i++)
		names[i] = all[i * 7 + 4];
	view_fit_names(v, names, n, view_names_width(o) > before + least ?
	    view_names_width(o) - before : least, names);
	for (i = 0; i < n; i++)
		all[i * 7 + 4] = names[i];
	free(names);
}

/*
 * Percent (or period), samples, children (with call chains), module,
 * source, symbol: the symbol last, as perf puts it, so that a long C++
 * name pads no other column and cuts nothing but itself. Compact: no
 * source column, and module names cut at 16 columns, to leave the names
 * room; without sources (--no-source, s) no source column either, and
 * no debug info read for it. With call chains, Children is the inclusive
 * percent (perf's --children column; compact: in place of Samples);
 * o->children orders the table by it.
 */
struct bt_view *
bt_view_functions(struct bt_selection *sel, const struct bt_view_opts *o, size_t max)
{
	static const char *const heads[] = { "Percent", "Samples", "Period",
		"Module", "Symbol", "Source", "Children" };
	struct bt_view *v = view_new(sel);
	size_t n = bt_selection_nfuncs(sel), i, c, k = 0;
	size_t w[7] = { 7, 7, 6, 6, 6, 6, 8 };
	const char *txt[7];
	struct bt_view_opts def;
	size_t *idx;
	const char **all;
	int num = 0;
	bool chains = bt_session_has_chains(bt_selection_session(sel)), src;
	bool filtered, bad;
	regex_t re;

	if (o == NULL) {
		bt_view_opts_init(&def);
		o = &def;
	}
	num = o->num == BT_NUM_PERIOD ? 2 : 0;
	src = o->source && !o->compact;	/* the Source column */
	/* the functions shown: filtered, ordered, then cut at max */
	idx = bt_xcalloc(n + 1, sizeof(size_t));
	/* the filter: a regular expression, as less's search (pattern.h) */
	filtered = o->filter != NULL && o->filter[0] != '\0';
	bad = filtered && bt_pattern_compile(&re, o->filter, NULL) < 0;
	for (i = 0; i < n; i++)
		if (func_shown(bt_selection_func(sel, i), o, filtered && !bad ? &re : NULL, bad))
			idx[k++] = i;
	if (filtered && !bad)
		bt_pattern_release(&re);
	if (chains && o->children)
		order_by_children(sel, idx, k);
	n = max ? BT_MIN(k, max) : k;
	/* pass 1: texts and widths; pass 2: padded cells */
	all = bt_xcalloc(n * 7 + 1, sizeof(char *));
	for (i = 0; i < n; i++) {
		const struct bt_func *f;

		if (src)
			bt_selection_func_locate(sel, idx[i], o->locate);
		f = bt_selection_func(sel, idx[i]);
		txt[0] = bt_strpool_addf(&v->pool, "%.2f%%", f->percent);
		txt[1] = bt_strpool_addf(&v->pool, "%llu", (unsigned long long)f->samples);
		txt[2] = bt_strpool_addf(&v->pool, "%llu", (unsigned long long)f->period);
		txt[3] = o->compact ? view_cut(v, f->module_name, COMPACT_MODULE) :
		    f->module_name;
		txt[4] = view_name(v, f->name, o);
		txt[5] = f->file && src ? bt_strpool_addf(&v->pool, "%s:%u",
		    view_basename(f->file), f->line) : "";
		txt[6] = bt_strpool_addf(&v->pool, "%.2f%%", f->inclusive_percent);
		for (c = 0; c < 7; c++) {
			all[i * 7 + c] = txt[c];
			w[c] = BT_MAX(w[c], view_ncols(txt[c]));
		}
	}
	if (o->names == BT_NAMES_FOLDED && n > 1) {
		/* two functions never read the same */
		const char **names = bt_xcalloc(n, sizeof(*names));
		const char **shown = bt_xcalloc(n, sizeof(*shown));

		for (i = 0; i < n; i++) {
			names[i] = bt_selection_func(sel, idx[i])->name;
			shown[i] = all[i * 7 + 4];
		}
		view_unfold_clashes(v, names, n, shown);
		for (i = 0; i < n; i++)
			all[i * 7 + 4] = shown[i];
		free(names);
		free(shown);
	}
	if (o->names == BT_NAMES_SHORT && view_names_width(o) > 0 && n > 0)
		fit_symbols(v, o, chains, all, n, w, num);
	for (i = 0; i < n; i++)
		func_row(v, sel, o, idx[i], all + i * 7, w, num);
	{
		const char *h[7];
		size_t hw[7];
		bool hr[7];
		size_t nc = 0;

#define COL(t, wd, right) (h[nc] = (t), hw[nc] = (wd), hr[nc] = (right), nc++)
		COL(heads[num], w[num] + 1, true);
		if (!(chains && o->compact))
			COL(heads[1], w[1] + 2, true);
		if (chains)
			COL(heads[6], w[6] + 2, true);
		COL("", 2, false);
		COL(heads[3], w[3] + 2, false);
		if (src)
			COL(heads[5], w[5] + 2, false);
		COL(heads[4], 0, false);
#undef COL
		view_set_columns(v, h, hw, hr, nc);
	}
	if (n == 0 && bt_selection_nfuncs(sel) > 0 && (o->filter != NULL || o->module != NULL))
		BT_VEC_PUSH(v->notes, o->filter != NULL && o->filter[0] ?
		    bt_strpool_addf(&v->pool, "no function matches '%s'%s", o->filter,
			o->module ? " in this module" : "") :
		    bt_strpool_addstr(&v->pool, "no function in this module"));
	free(all);
	free(idx);
	view_seal(v);
	v->title = chains && o->children ? "hot functions (by children)" : "hot functions";
	return v;
}
