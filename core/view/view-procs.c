/*
 * The processes and threads of a selection with their shares (perf report
 * --sort comm,pid; Hotspot's thread list): a row a process, hottest first,
 * then a row a thread of it under each name it had (an exec or a prctl
 * renames a thread part way: perf's rows are per name too), hottest first.
 */
#include <stdlib.h>
#include <string.h>

#include "session/query.h"
#include "view/view-int.h"

#define NCOLS 6
#define COMM_COLS 17	/* a name is at most 15 characters, plus a thread's indent */

/* One process: its rows [lo, hi) of the counts, its samples. */
struct group {
	size_t proc, lo, hi;
	uint64_t samples, period;
	uint64_t first, last;
};

static int
by_samples(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return x->proc < y->proc ? -1 : x->proc > y->proc;
}

static int
count_by_samples(const void *a, const void *b)
{
	const struct bt_proc_count *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

static const char *
span(struct bt_view *v, struct bt_session *s, uint64_t first, uint64_t last)
{
	if (first == 0)
		return "";
	return bt_strpool_addf(&v->pool, "%.3f-%.3f", bt_session_seconds(s, first),
	    bt_session_seconds(s, last));
}

/* A row's cells: percent, samples, pid, tid, name, time span. */
static void
cells(struct bt_view *v, struct bt_row *r, const char *pid, const char *tid,
      const char *name, const char *when, const struct bt_view_opts *o, bool proc)
{
	enum bt_style heat = view_heat(r->percent, r->samples > 0);

	view_add_cell(v, view_cat(v, view_pad_2f(v, "", r->percent, 7), "%  "), heat);
	view_add_cell(v, view_cat(v, view_pad_u64(v, r->samples, 8), "  "), BT_STYLE_NORMAL);
	view_add_cell(v, view_cat(v, view_pad(v, pid, 7, true), "  "), BT_STYLE_NORMAL);
	view_add_cell(v, view_cat(v, view_pad(v, tid, 7, true), "  "), BT_STYLE_NORMAL);
	if (o->compact) {
		view_add_cell(v, name, proc ? BT_STYLE_TITLE : BT_STYLE_NORMAL);
		return;
	}
	view_add_cell(v, view_cat(v, view_pad(v, name, COMM_COLS, false), "  "),
	    proc ? BT_STYLE_TITLE : BT_STYLE_NORMAL);
	view_add_cell(v, when, BT_STYLE_DIM);
}

/* The rows of process g: the process, then its threads under each name. */
static void
add_proc(struct bt_view *v, struct bt_session *s, struct bt_proc_count *c,
	 const struct group *g, uint64_t total, const struct bt_view_opts *o)
{
	const struct bt_proc *p = bt_session_proc(s, g->proc);
	const char *pid = bt_strpool_addf(&v->pool, "%u", p->pid);
	struct bt_row *r = view_add_row(v, BT_ROW_PROC);
	size_t i;

	r->label = "process";
	r->func = g->proc;
	r->addr = p->pid;
	r->name = p->comm;
	r->samples = g->samples;
	r->period = g->period;
	r->percent = total ? 100.0 * (double)g->samples / (double)total : 0;
	r->weight = r->percent;
	r->t_from = g->first ? bt_session_seconds(s, g->first) : 0;
	r->t_to = g->last ? bt_session_seconds(s, g->last) : 0;
	if (p->ncomms > 1)
		r->detail = bt_strpool_addf(&v->pool, "process %u: %zu threads, named %s%s",
		    p->pid, p->nthreads, p->comms[0], p->ncomms > 2 ? ", ..." : "");
	if (r->percent >= HOT_MIN_PERCENT)
		r->flags |= BT_ROW_F_HOT;
	cells(v, r, pid, "", p->comm, span(v, s, g->first, g->last), o, true);
	qsort(c + g->lo, g->hi - g->lo, sizeof(*c), count_by_samples);
	for (i = g->lo; i < g->hi; i++) {
		const struct bt_proc_thread *th = &p->threads[c[i].thread];

		r = view_add_row(v, BT_ROW_PROC);
		r->label = "thread";
		r->func = g->proc;
		r->insn = c[i].thread;
		r->addr = p->pid;
		r->line = th->tid;
		r->name = c[i].comm;
		r->samples = c[i].samples;
		r->period = c[i].period;
		r->percent = total ? 100.0 * (double)c[i].samples / (double)total : 0;
		r->t_from = c[i].first ? bt_session_seconds(s, c[i].first) : 0;
		r->t_to = c[i].last ? bt_session_seconds(s, c[i].last) : 0;
		cells(v, r, "", bt_strpool_addf(&v->pool, "%u", th->tid),
		    view_cat(v, "  ", c[i].comm), span(v, s, c[i].first, c[i].last), o, false);
	}
}

struct bt_view *
bt_view_procs(struct bt_selection *sel, const struct bt_view_opts *o)
{
	static const char *const heads[NCOLS] = { "Percent  ", "Samples  ", "PID  ",
		"TID  ", "Command", "Time (s)" };
	static const size_t widths[NCOLS] = { 10, 10, 9, 9, COMM_COLS + 2, 0 };
	static const bool right[NCOLS] = { true, true, true, true, false, false };
	struct bt_session *s = bt_selection_session(sel);
	struct bt_view *v = view_new(sel);
	struct bt_proc_count *c;
	size_t n = bt_selection_proc_counts(sel, &c), ng = 0, i, nthreads = 0;
	struct group *g = bt_xcalloc(n + 1, sizeof(*g));
	struct bt_view_opts def;
	const char *h[NCOLS];
	uint64_t total = 0;

	if (o == NULL) {
		bt_view_opts_init(&def);
		o = &def;
	}
	for (i = 0; i < n; i++) {
		if (i == 0 || c[i].proc != c[i - 1].proc) {
			g[ng].proc = c[i].proc;
			g[ng++].lo = i;
		}
		if (i == 0 || c[i].proc != c[i - 1].proc || c[i].thread != c[i - 1].thread)
			nthreads++;
		g[ng - 1].hi = i + 1;
		g[ng - 1].samples += c[i].samples;
		g[ng - 1].period += c[i].period;
		if (c[i].first && (g[ng - 1].first == 0 || c[i].first < g[ng - 1].first))
			g[ng - 1].first = c[i].first;
		g[ng - 1].last = BT_MAX(g[ng - 1].last, c[i].last);
		total += c[i].samples;
	}
	qsort(g, ng, sizeof(*g), by_samples);
	for (i = 0; i < ng; i++)
		add_proc(v, s, c, &g[i], total, o);
	for (i = 0; i < NCOLS; i++)
		h[i] = heads[i];
	view_set_columns(v, h, widths, right, o->compact ? NCOLS - 1 : NCOLS);
	view_seal(v);
	v->title = bt_strpool_addf(&v->pool, "processes: %zu, threads: %zu, %llu samples "
	    "of %s", ng, nthreads, (unsigned long long)total, bt_selection_event(sel));
	free(g);
	free(c);
	return v;
}
