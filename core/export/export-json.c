/*
 * The JSON export (DESIGN.md §3): the same rows as the text export, as
 * data. Addresses are hex strings of link-time addresses.
 */
#include <math.h>
#include <string.h>

#include "base.h"
#include "benchtui/bench.h"
#include "export/export-int.h"

static void
ci95(struct bt_jw *w, const struct bt_row *r)
{
	bt_jw_array(w, "ci95", BT_JW_COMPACT, 0);
	bt_jw_num(w, NULL, r->ci_lo);
	bt_jw_num(w, NULL, r->ci_hi);
	bt_jw_end(w);
}

/* perf annotate --data-type's: { "type", "offset", "member", "var", "text" } */
static void
dtype_json(struct bt_jw *w, const struct bt_row_dtype *d)
{
	bt_jw_object(w, "data_type", BT_JW_COMPACT, 0);
	bt_jw_str(w, "type", d->type);
	bt_jw_int(w, "offset", (long long)d->offset);
	if (d->member != NULL)
		bt_jw_str(w, "member", d->member);
	bt_jw_str(w, "var", d->var);
	bt_jw_str(w, "text", d->text);
	bt_jw_end(w);
}

/* The data types screen's (D) rows: a type, or a member of one. */
static void
dtype_sum_json(struct bt_jw *w, const struct bt_row *r)
{
	bt_jw_str(w, "kind", r->label);
	bt_jw_str(w, "type", r->dtype->type);
	if (r->dtype->member != NULL)
		bt_jw_str(w, "member", r->dtype->member);
	if (strcmp(r->label, "member") == 0)
		bt_jw_int(w, "offset", (long long)r->dtype->offset);
	bt_jw_u64(w, "samples", r->samples);
	bt_jw_num(w, "percent", r->percent);
	bt_jw_num(w, "adjusted_samples", r->adjusted);
	bt_jw_str(w, "hottest_function", r->name);
	bt_jw_hex(w, "hottest_address", r->addr);
	bt_jw_u64(w, "instructions", r->dtype->naccesses);
}

/* DESIGN.md §6: [{ "name", "module", "samples", "percent" }], hottest first */
static void
edges(struct bt_jw *w, const char *key, const struct bt_row_edge *e, size_t n)
{
	size_t i;

	bt_jw_array(w, key, BT_JW_SPACED, 0);
	for (i = 0; i < n; i++) {
		bt_jw_object(w, NULL, BT_JW_COMPACT, 0);
		bt_jw_str(w, "name", e[i].name);
		bt_jw_str(w, "module", e[i].module);
		bt_jw_u64(w, "samples", e[i].samples);
		bt_jw_num(w, "percent", e[i].percent);
		bt_jw_end(w);
	}
	bt_jw_end(w);
}

static void
func_row(struct bt_jw *w, const struct bt_row *r)
{
	bt_jw_object(w, NULL, BT_JW_SPACED, 0);
	bt_jw_str(w, "name", r->name);
	if (r->short_name != NULL && strcmp(r->short_name, r->name) != 0)
		bt_jw_str(w, "short_name", r->short_name);
	bt_jw_str(w, "module", r->module);
	if (r->flags & BT_ROW_F_INLINED)
		bt_jw_bool(w, "inlined", true);
	if (r->label != NULL)	/* the callers view: caller, function, callee, stack */
		bt_jw_str(w, "relation", r->label);
	if (r->label != NULL && strcmp(r->label, "stack") == 0)
		bt_jw_str(w, "path", r->text);
	bt_jw_hex(w, "address", r->addr);
	bt_jw_u64(w, "samples", r->samples);
	bt_jw_u64(w, "period", r->period);
	bt_jw_num(w, "percent", r->percent);
	ci95(w, r);
	if (r->file != NULL) {
		bt_jw_str(w, "file", r->file);
		bt_jw_u64(w, "line", r->line);
	}
	if (r->calls != NULL) {
		bt_jw_u64(w, "inclusive_samples", r->calls->inclusive);
		bt_jw_num(w, "inclusive_percent", r->calls->inclusive_percent);
		edges(w, "callers", r->calls->callers, r->calls->ncallers);
		edges(w, "callees", r->calls->callees, r->calls->ncallees);
	}
	bt_jw_end(w);
}

/* A line of the benchmark's output (the O screen). */
static void
output_row(struct bt_jw *w, const struct bt_row *r)
{
	bt_jw_str(w, "kind", "output");
	bt_jw_str(w, "stream", r->label);
	if (r->line)
		bt_jw_u64(w, "line", r->line);
	bt_jw_num(w, "time", r->t_from);
	bt_jw_str(w, "text", r->text);
	if (r->func != (size_t)-1)
		bt_jw_str(w, "benchmark", r->target_name);
}

/* An instruction's cost per op (po: the view's, NULL none). */
static void
per_op(struct bt_jw *w, uint64_t period, const struct bt_per_op *po)
{
	if (po == NULL)
		return;
	if (po->ns_scale > 0)
		bt_jw_num(w, "ns_per_op", (double)period * po->ns_scale);
	if (strcmp(po->unit, "cycles") == 0)
		bt_jw_num(w, "cycles_per_op", (double)period * po->scale);
}

/* llvm-mca's model of an instruction row (X's view), when it has one. */
static void
pred(struct bt_jw *w, const struct bt_view_pred *p)
{
	if (p == NULL)
		return;
	bt_jw_object(w, "predicted", BT_JW_COMPACT, 0);
	bt_jw_u64(w, "uops", p->uops);
	bt_jw_num(w, "latency", p->latency);
	bt_jw_num(w, "rthroughput", p->rthroughput);
	bt_jw_num(w, "pressure", p->pressure);
	bt_jw_str(w, "resource", p->resource);
	bt_jw_end(w);
}

/* Entering an inlined function, or back from one (docs/formats.md). */
static void
inline_row(struct bt_jw *w, const struct bt_row *r)
{
	bt_jw_str(w, "kind", "inline");
	bt_jw_str(w, "text", r->text);
	if (r->flags & BT_ROW_F_INLINE_LEAVE)
		bt_jw_bool(w, "leave", true);
	else {
		bt_jw_str(w, "call_file", r->file);
		bt_jw_u64(w, "call_line", r->line);
		if (r->ninlines > 0 && r->inlines[r->ninlines - 1].has_bci)
			bt_jw_int(w, "bci", r->inlines[r->ninlines - 1].call_bci);
	}
	bt_jw_str(w, "function", r->name);
	bt_jw_u64(w, "depth", r->ninlines);
}

/* An instruction's inline chain, outermost first. */
static void
inlines(struct bt_jw *w, const struct bt_row *r)
{
	unsigned k;

	bt_jw_array(w, "inlines", BT_JW_COMPACT, 0);
	for (k = 0; k < r->ninlines; k++) {
		const struct bt_row_inline *fr = &r->inlines[k];
		bt_jw_object(w, NULL, BT_JW_COMPACT, 0);
		bt_jw_str(w, "function", fr->name);
		if (fr->call_file != NULL) {
			bt_jw_str(w, "call_file", fr->call_file);
			bt_jw_u64(w, "call_line", fr->call_line);
		}
		if (fr->has_bci)
			bt_jw_int(w, "bci", fr->call_bci);
		bt_jw_end(w);
	}
	bt_jw_end(w);
}

/*
 * An instruction; arrow: the lane of its branch arrow, or NULL; po, pr:
 * its cost per op and llvm-mca's model (NULL: none).
 */
static void
insn_row(struct bt_jw *w, const struct bt_row *r, const struct bt_arrow *arrow,
	 const struct bt_per_op *po, const struct bt_view_pred *pr)
{
	bt_jw_str(w, "kind", "insn");
	bt_jw_hex(w, "address", r->addr);
	bt_jw_str(w, "text", r->text);
	bt_jw_u64(w, "samples", r->samples);
	bt_jw_u64(w, "period", r->period);
	bt_jw_num(w, "percent", r->percent);
	bt_jw_num(w, "adjusted_samples", r->adjusted);
	bt_jw_num(w, "adjusted_percent", r->adjusted_percent);
	bt_jw_bool(w, "skid_target", r->flags & BT_ROW_F_SKID_TARGET);
	if (r->flags & BT_ROW_F_SKID_GUESS)
		bt_jw_bool(w, "skid_guess", true);
	if (r->file != NULL) {
		bt_jw_str(w, "file", r->file);
		bt_jw_u64(w, "line", r->line);
		if (r->flags & BT_ROW_F_BCI)	/* HotSpot: the bytecode of that line */
			bt_jw_int(w, "bci", r->bci);
	}
	if (r->has_target) {
		bt_jw_hex(w, "target", r->target);
		if (r->target_name != NULL)
			bt_jw_str(w, "target_name", r->target_name);
	} else if (r->target_name != NULL) {	/* JIT: movabs, call *%reg */
		bt_jw_str(w, "target_name", r->target_name);
	}
	if (arrow != NULL) {	/* a branch inside the function: its arrow */
		bt_jw_int(w, "lane", arrow->lane);
		if (arrow->flags & BT_ARROW_FOLDED)
			bt_jw_bool(w, "lane_folded", true);
	}
	if (r->has_mem_target) {
		bt_jw_hex(w, "mem_target", r->mem_target);
		if (r->mem_name != NULL)
			bt_jw_str(w, "mem_target_name", r->mem_name);
	}
	if (r->dtype != NULL)
		dtype_json(w, r->dtype);
	if (r->region >= 0)
		bt_jw_int(w, "region", r->region);
	if (r->loop_depth)
		bt_jw_int(w, "loop_depth", r->loop_depth);
	if (r->ninlines)
		inlines(w, r);
	per_op(w, r->period, po);
	pred(w, pr);
	ci95(w, r);
}

/* arrow, po, pr: an instruction row's (insn_row), or NULL. */
static void
row(struct bt_jw *w, const struct bt_row *r, const struct bt_arrow *arrow,
    const struct bt_per_op *po, const struct bt_view_pred *pr)
{
	if (r->kind == BT_ROW_FUNC) {
		func_row(w, r);
		return;
	}
	bt_jw_object(w, NULL, BT_JW_SPACED, 0);
	switch (r->kind) {
	case BT_ROW_SOURCE:
		bt_jw_str(w, "kind", "source");
		bt_jw_str(w, "file", r->file);
		bt_jw_u64(w, "line", r->line);
		if (r->flags & BT_ROW_F_BCI)
			bt_jw_int(w, "bci", r->bci);
		bt_jw_str(w, "text", r->text);
		break;
	case BT_ROW_INLINE:
		inline_row(w, r);
		break;
	case BT_ROW_LINE:
		bt_jw_str(w, "kind", "line");
		bt_jw_u64(w, "line", r->line);
		bt_jw_u64(w, "samples", r->samples);
		bt_jw_num(w, "percent", r->percent);
		bt_jw_num(w, "adjusted_samples", r->adjusted);
		bt_jw_num(w, "adjusted_percent", r->adjusted_percent);
		ci95(w, r);
		bt_jw_str(w, "text", r->text);
		break;
	case BT_ROW_INSN:
		insn_row(w, r, arrow, po, pr);
		break;
	case BT_ROW_SLICE:
		bt_jw_str(w, "kind", "slice");
		bt_jw_num(w, "from_s", r->t_from);
		bt_jw_num(w, "to_s", r->t_to);
		bt_jw_u64(w, "samples", r->samples);
		bt_jw_u64(w, "function_samples", r->sub_samples);
		bt_jw_num(w, "function_percent", r->percent);
		break;
	case BT_ROW_FILE:
		bt_jw_str(w, "kind", "file");
		bt_jw_str(w, "file", r->file);
		bt_jw_u64(w, "samples", r->samples);
		bt_jw_num(w, "percent", r->percent);
		bt_jw_num(w, "adjusted_samples", r->adjusted);
		bt_jw_num(w, "adjusted_percent", r->adjusted_percent);
		break;
	case BT_ROW_BENCH:
		bt_jw_str(w, "kind", "benchmark");
		bt_jw_str(w, "name", r->name);
		bt_jw_u64(w, "samples", r->samples);
		bt_jw_num(w, "percent", r->percent);
		if (r->label != NULL)
			bt_jw_str(w, "finding", r->label);
		break;
	case BT_ROW_PROC:
		bt_jw_str(w, "kind", r->label);
		bt_jw_u64(w, "pid", r->addr);
		if (r->line)
			bt_jw_u64(w, "tid", r->line);
		bt_jw_str(w, "comm", r->name);
		bt_jw_u64(w, "samples", r->samples);
		bt_jw_num(w, "percent", r->percent);
		break;
	case BT_ROW_FINDING:
		bt_jw_str(w, "check", r->label);
		if (r->name != NULL)
			bt_jw_str(w, "function", r->name);
		if (r->short_name != NULL && strcmp(r->short_name, r->name) != 0)
			bt_jw_str(w, "short_name", r->short_name);
		bt_jw_num(w, "percent", r->percent);
		bt_jw_str(w, "message", r->text);
		break;
	case BT_ROW_OUTPUT:
		output_row(w, r);
		break;
	case BT_ROW_DTYPE:
		dtype_sum_json(w, r);
		break;
	case BT_ROW_FRAMES:	/* a depth of the flame graph: its path's frame */
		bt_jw_str(w, "kind", "frame");
		bt_jw_u64(w, "depth", r->line);
		if (r->name == NULL)	/* below the path's end */
			break;
		bt_jw_str(w, "function", r->name);
		if (r->module != NULL)
			bt_jw_str(w, "module", r->module);
		bt_jw_str(w, "module_kind", r->label);
		bt_jw_u64(w, "samples", r->samples);
		bt_jw_num(w, "percent", r->percent);
		break;
	case BT_ROW_FUNC:
	case BT_ROW_TEXT:
		bt_jw_str(w, "kind", "text");
		bt_jw_str(w, "text", r->text);
		break;
	}
	bt_jw_end(w);
}

/* Opens the top object and writes the run's fields; the caller closes it. */
static void
header(struct bt_jw *w, const struct bt_view *h)
{
	const struct bt_view_summary *m = bt_view_summary(h);
	size_t i;

	bt_jw_object(w, NULL, BT_JW_SPACED, 0);
	bt_jw_str(w, "format", "benchtui-1");
	bt_jw_int(w, "schema_version", 1);	/* docs/benchtui.schema.json */
	bt_jw_array(w, "command", BT_JW_COMPACT, 0);
	for (i = 0; i < m->argc; i++)
		bt_jw_str(w, NULL, m->argv[i]);
	if (m->argc == 0 && m->command[0])
		bt_jw_str(w, NULL, m->command);
	bt_jw_end(w);
	bt_jw_str(w, "event", m->event);
	if (m->event_group != NULL)
		bt_jw_str(w, "event_group", m->event_group);
	bt_jw_u64(w, "frequency", m->frequency);
	bt_jw_break(w, 2);
	bt_jw_u64(w, "samples", m->samples);
	bt_jw_u64(w, "lost", m->lost);
	bt_jw_u64(w, "throttled", m->throttled);
	bt_jw_num(w, "duration_s", m->duration);
	bt_jw_array(w, "window_s", BT_JW_COMPACT, 0);
	bt_jw_num(w, NULL, m->win_from);
	bt_jw_num(w, NULL, m->win_to);
	bt_jw_end(w);
	if (m->npid) {
		bt_jw_array(w, "pids", BT_JW_COMPACT, 0);
		for (i = 0; i < m->npid; i++)
			bt_jw_u64(w, NULL, m->pid[i]);
		bt_jw_end(w);
	}
	if (m->ntid) {
		bt_jw_array(w, "tids", BT_JW_COMPACT, 0);
		for (i = 0; i < m->ntid; i++)
			bt_jw_u64(w, NULL, m->tid[i]);
		bt_jw_end(w);
	}
	if (m->ncomm) {
		bt_jw_array(w, "comms", BT_JW_COMPACT, 0);
		for (i = 0; i < m->ncomm; i++)
			bt_jw_str(w, NULL, m->comm[i]);
		bt_jw_end(w);
	}
	if (m->has_status) {
		bt_jw_int(w, "exit_status", m->exit_code);
		if (m->signal)
			bt_jw_int(w, "signal", m->signal);
	}
	if (m->event_note[0])
		bt_jw_str(w, "event_note", m->event_note);
	if (m->hot_path != NULL)
		bt_jw_str(w, "hot_path", m->hot_path);
	bt_jw_break(w, 2);
	bt_jw_array(w, "notes", BT_JW_SPACED, 0);
	for (i = 0; i < m->nnotes; i++)
		bt_jw_str(w, NULL, m->notes[i]);
	bt_jw_end(w);
}

static void
rows(struct bt_jw *w, const struct bt_view *v, int indent)
{
	const struct bt_arrow *ar;
	size_t i, na = bt_view_arrows(v, &ar), nl;
	long a;

	if (na > 0 && bt_view_lanes(v, 0, &nl) != NULL) {
		/* where the text's rows draw the arrows: their lanes, then the heads' */
		bt_jw_int(w, "arrow_column", bt_view_arrow_col(v));
		bt_jw_int(w, "arrow_lanes", (long)nl - 1);
		bt_jw_break(w, indent - 2);
	}
	bt_jw_array(w, "rows", BT_JW_LINES, indent);
	for (i = 0; i < bt_view_nrows(v); i++) {
		a = bt_view_row_arrow(v, i);
		row(w, bt_view_row(v, i), a >= 0 && (size_t)a < na ? &ar[a] : NULL,
		    bt_view_per_op(v), bt_view_pred(v, i));
	}
	bt_jw_end(w);
}

/* One benchmark: the harness's numbers as printed, its samples, its profile. */
static void
bench(struct bt_jw *w, const struct export_bench *e)
{
	const struct bt_bench *b = e->b;
	size_t i;

	bt_jw_object(w, NULL, BT_JW_SPACED, 0);
	bt_jw_str(w, "name", b->name);
	bt_jw_str(w, "harness", b->harness);
	if (b->time_text != NULL) {
		bt_jw_exact(w, "time_per_op_ns", b->time_ns);
		bt_jw_str(w, "time_text", b->time_text);
	}
	if (b->pm_text != NULL) {
		if (b->ci_ns == b->ci_ns)
			bt_jw_exact(w, "ci_ns", b->ci_ns);
		bt_jw_str(w, "ci_text", b->pm_text);
	}
	if (b->iterations_text != NULL) {
		bt_jw_exact(w, "iterations", b->iterations);
		bt_jw_str(w, "iterations_text", b->iterations_text);
	}
	if (b->ratio == b->ratio)
		bt_jw_exact(w, "ratio", b->ratio);
	if (b->error != NULL)
		bt_jw_str(w, "error", b->error);
	bt_jw_u64(w, "results", b->nresults);
	if (b->has_window) {
		bt_jw_u64(w, "samples", b->samples);
		bt_jw_num(w, "percent", b->percent);
		bt_jw_str(w, "split", b->split ? b->split : b->by_chain ? "chain" : "window");
		if (b->split != NULL && (strcmp(b->split, "probe") == 0 ||
		    strcmp(b->split, "process") == 0))
			bt_jw_u64(w, "untimed_samples", b->untimed_samples);
		bt_jw_array(w, "window_s", BT_JW_COMPACT, 0);
		bt_jw_num(w, NULL, b->t_from);
		bt_jw_num(w, NULL, b->t_to);
		bt_jw_end(w);
	}
	bt_jw_break(w, 6);
	bt_jw_array(w, "runs", BT_JW_LINES, 8);
	for (i = 0; i < e->nruns; i++) {
		const struct bt_bench_run *r = &e->runs[i];
		bt_jw_object(w, NULL, BT_JW_COMPACT, 0);
		bt_jw_u64(w, "line", r->line);
		bt_jw_str(w, "name", r->name);
		if (r->aggregate != NULL)
			bt_jw_str(w, "aggregate", r->aggregate);
		if (r->time_text != NULL)
			bt_jw_str(w, "time_text", r->time_text);
		if (r->iterations_text != NULL)
			bt_jw_str(w, "iterations_text", r->iterations_text);
		if (r->error != NULL)
			bt_jw_str(w, "error", r->error);
		if (e->run_samples != NULL && e->run_samples[i] != UINT64_MAX)
			bt_jw_u64(w, "samples", e->run_samples[i]);
		bt_jw_end(w);
	}
	bt_jw_end(w);
	bt_jw_break(w, 6);
	bt_jw_array(w, "functions", BT_JW_LINES, 8);
	for (i = 0; e->funcs != NULL && i < bt_view_nrows(e->funcs); i++)
		func_row(w, bt_view_row(e->funcs, i));
	bt_jw_end(w);
	if (e->funcs != NULL) {
		bt_jw_object(w, "functions_omitted", BT_JW_COMPACT, 0);
		bt_jw_u64(w, "functions", e->other_funcs);
		bt_jw_u64(w, "samples", e->other_samples);
		bt_jw_end(w);
	}
	bt_jw_break(w, 6);
	bt_jw_array(w, "findings", BT_JW_LINES, 8);
	for (i = 0; e->findings != NULL && i < bt_view_nrows(e->findings); i++)
		row(w, bt_view_row(e->findings, i), NULL, NULL, NULL);
	bt_jw_end(w);
	bt_jw_end(w);
}

/*
 * The processes (perf report --sort comm,pid): one line a process with
 * its threads, a thread once under each name it had.
 */
static void
processes(struct bt_jw *w, const struct bt_view *v)
{
	size_t i;
	bool open = false;

	bt_jw_break(w, 2);
	bt_jw_array(w, "processes", BT_JW_LINES, 4);
	for (i = 0; i < bt_view_nrows(v); i++) {
		const struct bt_row *r = bt_view_row(v, i);

		if (r->kind != BT_ROW_PROC)
			continue;
		if (strcmp(r->label, "process") == 0) {
			if (open) {
				bt_jw_end(w);	/* threads */
				bt_jw_end(w);
			}
			bt_jw_object(w, NULL, BT_JW_SPACED, 0);
			bt_jw_u64(w, "pid", r->addr);
			bt_jw_str(w, "comm", r->name);
			bt_jw_u64(w, "samples", r->samples);
			bt_jw_num(w, "percent", r->percent);
			bt_jw_array(w, "time_s", BT_JW_COMPACT, 0);
			bt_jw_num(w, NULL, r->t_from);
			bt_jw_num(w, NULL, r->t_to);
			bt_jw_end(w);
			bt_jw_array(w, "threads", BT_JW_SPACED, 0);
			open = true;
			continue;
		}
		bt_jw_object(w, NULL, BT_JW_COMPACT, 0);
		bt_jw_u64(w, "tid", r->line);
		bt_jw_str(w, "comm", r->name);
		bt_jw_u64(w, "samples", r->samples);
		bt_jw_end(w);
	}
	if (open) {
		bt_jw_end(w);
		bt_jw_end(w);
	}
	bt_jw_end(w);
}

static void
json_begin(struct export_out *o, const struct bt_view *h,
	   const struct bt_view *funcs, const struct bt_view *findings)
{
	struct bt_jw *w = &o->jw;
	size_t i;

	bt_jw_init(w, o->f);
	header(w, h);
	bt_jw_break(w, 2);
	bt_jw_array(w, "functions", BT_JW_LINES, 4);
	for (i = 0; i < bt_view_nrows(funcs); i++)
		func_row(w, bt_view_row(funcs, i));
	bt_jw_end(w);
	bt_jw_break(w, 2);
	bt_jw_array(w, "findings", BT_JW_LINES, 4);
	for (i = 0; i < bt_view_nrows(findings); i++)
		row(w, bt_view_row(findings, i), NULL, NULL, NULL);
	bt_jw_end(w);
	if (o->benches != NULL) {
		bt_jw_break(w, 2);
		bt_jw_array(w, "benchmarks", BT_JW_LINES, 4);
		for (i = 0; i < o->nbench; i++)
			bench(w, &o->bench[i]);
		bt_jw_end(w);
	}
	if (o->procs != NULL)
		processes(w, o->procs);
	bt_jw_break(w, 2);
	bt_jw_array(w, "annotations", BT_JW_LINES, 4);
}

/* What the annotation's per-op numbers are of (docs/formats.md). */
static void
per_op_summary(struct bt_jw *w, const struct bt_per_op *po)
{
	bt_jw_break(w, 6);
	bt_jw_object(w, "per_op", BT_JW_SPACED, 0);
	bt_jw_str(w, "benchmark", po->bench);
	bt_jw_str(w, "unit", po->unit);
	bt_jw_num(w, "iterations", po->iterations);
	if (po->iterations_from != NULL)
		bt_jw_str(w, "iterations_from", po->iterations_from);
	bt_jw_num(w, "measured_fraction", po->fraction);
	bt_jw_bool(w, "measured_run_known", po->run_known);
	bt_jw_num(w, "benchmark_per_op", po->total);
	if (isfinite(po->total_ns))
		bt_jw_num(w, "benchmark_ns_per_op", po->total_ns);
	if (isfinite(po->harness_ns))
		bt_jw_num(w, "harness_ns_per_op", po->harness_ns);
	if (isfinite(po->cpu_ns))
		bt_jw_num(w, "harness_cpu_ns_per_op", po->cpu_ns);
	if (po->mhz > 0)
		bt_jw_num(w, "mhz", po->mhz);
	if (isfinite(po->items_per_op))
		bt_jw_num(w, "items_per_op", po->items_per_op);
	bt_jw_end(w);
}

static void
json_annotation(struct export_out *o, const struct bt_view *v)
{
	struct bt_jw *w = &o->jw;
	const struct bt_view_func *f = bt_view_func(v);
	const struct bt_view_region *rg;
	size_t i, nr = bt_view_regions(v, &rg);

	bt_jw_object(w, NULL, BT_JW_SPACED, 0);
	bt_jw_str(w, "function", f->name);
	if (strcmp(f->short_name, f->name) != 0)
		bt_jw_str(w, "short_name", f->short_name);
	bt_jw_str(w, "module", f->module);
	bt_jw_hex(w, "address", f->address);
	bt_jw_u64(w, "samples", f->samples);
	bt_jw_break(w, 6);
	bt_jw_array(w, "notes", BT_JW_SPACED, 0);
	for (i = 0; i < bt_view_nnotes(v); i++)
		bt_jw_str(w, NULL, bt_view_note(v, i));
	bt_jw_end(w);
	bt_jw_break(w, 6);
	bt_jw_array(w, "regions", BT_JW_SPACED, 0);
	for (i = 0; i < nr; i++) {
		bt_jw_object(w, NULL, BT_JW_SPACED, 0);
		bt_jw_hex(w, "start", rg[i].start);
		bt_jw_hex(w, "end", rg[i].end);
		bt_jw_u64(w, "samples", rg[i].samples);
		bt_jw_num(w, "percent", rg[i].percent);
		bt_jw_num(w, "adjusted_samples", rg[i].adjusted);
		bt_jw_num(w, "adjusted_percent", rg[i].adjusted_percent);
		per_op(w, rg[i].period, bt_view_per_op(v));
		bt_jw_end(w);
	}
	bt_jw_end(w);
	if (bt_view_per_op(v) != NULL)
		per_op_summary(w, bt_view_per_op(v));
	bt_jw_break(w, 6);
	rows(w, v, 8);
	bt_jw_end(w);
}

static void
json_failed(struct export_out *o, const char *name, const char *msg)
{
}

static void
json_end(struct export_out *o)
{
	bt_jw_end(&o->jw);	/* annotations */
	bt_jw_end(&o->jw);	/* the top object */
	fputc('\n', o->f);
}

/* A number, or nothing when it is not known (NAN). */
static void
num_known(struct bt_jw *w, const char *key, double x)
{
	if (isfinite(x))
		bt_jw_num(w, key, x);
}

/* X's loops: llvm-mca's prediction and the measurement, each (docs/formats.md). */
static void
loops(struct bt_jw *w, const struct bt_view *v)
{
	const struct bt_view_loop *l;
	size_t i, n = bt_view_loops(v, &l);

	if (n == 0)
		return;
	bt_jw_break(w, 4);
	bt_jw_array(w, "loops", BT_JW_LINES, 6);
	for (i = 0; i < n; i++) {
		bt_jw_object(w, NULL, BT_JW_SPACED, 0);
		bt_jw_hex(w, "start", l[i].start);
		bt_jw_hex(w, "end", l[i].end);
		bt_jw_u64(w, "instructions", l[i].ninsns);
		bt_jw_num(w, "percent", l[i].percent);
		if (l[i].cpu != NULL)
			bt_jw_str(w, "mcpu", l[i].cpu);
		if (l[i].not_predicted != NULL)
			bt_jw_str(w, "not_predicted", l[i].not_predicted);
		num_known(w, "predicted_cycles_per_iteration", l[i].cycles_per_iter);
		num_known(w, "block_rthroughput", l[i].block_rthroughput);
		num_known(w, "ipc", l[i].ipc);
		if (l[i].bottleneck != NULL)
			bt_jw_str(w, "bottleneck", l[i].bottleneck);
		num_known(w, "cycles_per_op", l[i].cycles_per_op);
		num_known(w, "iterations_per_op", l[i].iterations_per_op);
		num_known(w, "measured_cycles_per_iteration", l[i].measured_per_iter);
		num_known(w, "ratio", l[i].ratio);
		if (l[i].finding != NULL)
			bt_jw_str(w, "finding", l[i].finding);
		if (l[i].branches > 0) {
			bt_jw_u64(w, "branches_inside", l[i].branches);
			bt_jw_u64(w, "predicted_instructions", l[i].npredicted);
		}
		if (l[i].path != NULL)
			bt_jw_str(w, "predicted_path", l[i].path);
		if (l[i].path_note != NULL)
			bt_jw_str(w, "prediction_note", l[i].path_note);
		bt_jw_end(w);
	}
	bt_jw_end(w);
	bt_jw_break(w, 4);
}

static void
json_view(struct export_out *o, const struct bt_view *h, const struct bt_view *v)
{
	struct bt_jw *w = &o->jw;

	bt_jw_init(w, o->f);
	header(w, h);
	bt_jw_break(w, 2);
	bt_jw_object(w, "view", BT_JW_SPACED, 0);
	bt_jw_str(w, "title", bt_view_title(v));
	loops(w, v);
	rows(w, v, 4);
	bt_jw_end(w);
	bt_jw_end(w);
	fputc('\n', o->f);
}

const struct export_ops export_json = {
	json_begin, json_annotation, json_failed, json_end, json_view,
};
