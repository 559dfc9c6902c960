/*
 * The text export: what the screen shows, without colour, in the spirit of
 * perf annotate --stdio. Every line is a view's cells or a view's fields.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "base.h"
#include "benchtui/bench.h"
#include "export/export-int.h"

/*
 * Every line of the text export goes out here, its newline added: names,
 * paths and command lines come from the recording, and a terminal must not
 * take their control bytes as commands (bt_text_safe), nor a newline in a
 * file name start a line.
 */
static void
put_buf(FILE *out, const char *s, size_t len)
{
	struct bt_textbuf tb = { 0 };
	const char *t = bt_text_safe_n(s, len, &tb);

	/* the export's own stream, written by this thread alone */
	fwrite_unlocked(t, 1, t == s ? len : tb.len, out);
	putc_unlocked('\n', out);
	bt_textbuf_release(&tb);
}

static void
put_str(FILE *out, const char *s)
{
	put_buf(out, s, strlen(s));
}

static void __attribute__((format(printf, 2, 3)))
put_line(FILE *out, const char *fmt, ...)
{
	struct bt_strbuf sb = BT_STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	bt_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	put_str(out, sb.buf);
	bt_strbuf_release(&sb);
}

/*
 * A row as one line; lead, if not 0, replaces the first character ('#').
 * line: the caller's, its memory reused from row to row.
 */
static void
put_cells(FILE *out, const struct bt_row *r, char lead, struct bt_strbuf *line)
{
	struct bt_strbuf *sb = line;
	size_t i;

	bt_strbuf_reset(sb);
	if (lead)
		bt_strbuf_addch(sb, lead);
	for (i = 0; i < r->ncells; i++)
		bt_strbuf_addstr(sb, r->cells[i].text);
	if (lead && sb->len > 1 && sb->buf[1] == ' ') {
		/* the lead takes the place of a leading space */
		memmove(sb->buf + 1, sb->buf + 2, sb->len - 1);
		sb->len--;
	}
	while (sb->len > 0 && sb->buf[sb->len - 1] == ' ')
		sb->buf[--sb->len] = '\0';
	put_buf(out, sb->buf, sb->len);	/* every line of an annotation: no printf */
}

/* ", 1.234 ns/op" of a region, when the view knows its cost per op. */
static void
per_op(FILE *out, const struct bt_view *v, const struct bt_view_region *rg)
{
	const struct bt_per_op *po = bt_view_per_op(v);

	if (po == NULL)
		return;
	if (po->ns_scale > 0)
		fprintf(out, ", %.*f ns/op", bt_per_op_decimals((double)rg->period *
		    po->ns_scale), (double)rg->period * po->ns_scale);
	if (strcmp(po->unit, "cycles") == 0)
		fprintf(out, ", %.*f cycles/op", bt_per_op_decimals(rg->per_op), rg->per_op);
}

static void
put_view(FILE *out, const struct bt_view *v, bool title)
{
	const struct bt_view_region *rg;
	size_t i, nr = bt_view_regions(v, &rg);
	struct bt_strbuf line = BT_STRBUF_INIT;

	if (title)
		put_line(out, "## %s", bt_view_title(v));
	for (i = 0; i < nr; i++) {
		fprintf(out, "# hot region %zu: %" PRIx64 "-%" PRIx64 ": %.2f%% (%.2f%% "
		    "skid-adjusted), %" PRIu64 " samples%s", i + 1, rg[i].start,
		    rg[i].end, rg[i].percent, rg[i].adjusted_percent, rg[i].samples,
		    rg[i].closes_loop ? ", closes a loop" : "");
		per_op(out, v, &rg[i]);
		fputc('\n', out);
	}
	for (i = 0; i < bt_view_nnotes(v); i++)
		put_line(out, "# note: %s", bt_view_note(v, i));
	if (bt_view_columns(v)->ncells)
		put_cells(out, bt_view_columns(v), '#', &line);
	for (i = 0; i < bt_view_nrows(v); i++)
		put_cells(out, bt_view_row(v, i), 0, &line);
	bt_strbuf_release(&line);
}

static void
put_header(FILE *out, const struct bt_view *h)
{
	size_t i;

	fprintf(out, "# benchtui %s\n", BT_VERSION);
	for (i = 0; i < bt_view_nrows(h); i++)
		put_line(out, "# %s", bt_view_row(h, i)->text);
	fputs("#\n", out);
}

/*
 * Callers and callees of every function of the table (DESIGN.md §6): the
 * function with its inclusive share, then "<-" a caller, "->" a callee,
 * each with its percent of the function's inclusive samples.
 */
static void
put_callgraph(FILE *out, const struct bt_view *funcs)
{
	size_t i, k;
	bool any = false;

	for (i = 0; i < bt_view_nrows(funcs); i++) {
		const struct bt_row *r = bt_view_row(funcs, i);
		const struct bt_row_calls *c = r->calls;

		if (c == NULL || c->ncallers + c->ncallees == 0)
			continue;
		if (!any)
			fputs("## callers and callees\n", out);
		any = true;
		put_line(out, "%s  %.2f%%  %" PRIu64, r->name, c->inclusive_percent,
		    c->inclusive);
		for (k = 0; k < c->ncallers; k++)
			put_line(out, "  <- %7.2f%% %8" PRIu64 "  %s", c->callers[k].percent,
			    c->callers[k].samples, c->callers[k].name);
		for (k = 0; k < c->ncallees; k++)
			put_line(out, "  -> %7.2f%% %8" PRIu64 "  %s", c->callees[k].percent,
			    c->callees[k].samples, c->callees[k].name);
	}
	if (any)
		fputs("\n", out);
}

static void
put_findings(FILE *out, const struct bt_view *findings)
{
	size_t i;

	for (i = 0; i < bt_view_nrows(findings); i++) {
		const struct bt_row *r = bt_view_row(findings, i);
		put_line(out, "# %s%s%s (%.1f%%): %s", r->label, r->name ? " in " : "",
		    r->name ? r->name : "", r->percent, r->text);
	}
}

#define CONTEXT_ROWS 6	/* rows shown before and after a benchmark's hottest region */

/*
 * A benchmark's hottest code, as perfasm and the seeds' report print it:
 * the annotation's hottest region with a few rows around it (the whole
 * function when it has no region).
 */
static void
put_hottest(FILE *out, const struct bt_view *v)
{
	const struct bt_view_region *rg;
	size_t nr = bt_view_regions(v, &rg), i, first = (size_t)-1, last = 0, n;
	struct bt_strbuf line = BT_STRBUF_INIT;

	if (nr == 0) {
		put_view(out, v, true);
		return;
	}
	n = bt_view_nrows(v);
	for (i = 0; i < n; i++) {
		const struct bt_row *r = bt_view_row(v, i);
		if (r->kind == BT_ROW_INSN && r->addr >= rg[0].start && r->addr < rg[0].end) {
			if (first == (size_t)-1)
				first = i;
			last = i;
		}
	}
	if (first == (size_t)-1) {
		put_view(out, v, true);
		return;
	}
	put_line(out, "## %s", bt_view_title(v));
	fprintf(out, "# hottest region: %" PRIx64 "-%" PRIx64 ": %.2f%% (%.2f%% "
	    "skid-adjusted), %" PRIu64 " samples%s; rows %zu-%zu of %zu\n", rg[0].start,
	    rg[0].end, rg[0].percent, rg[0].adjusted_percent, rg[0].samples,
	    rg[0].closes_loop ? ", closes a loop" : "",
	    first > CONTEXT_ROWS ? first - CONTEXT_ROWS + 1 : 1,
	    BT_MIN(last + CONTEXT_ROWS, n - 1) + 1, n);
	if (bt_view_columns(v)->ncells)
		put_cells(out, bt_view_columns(v), '#', &line);
	for (i = first > CONTEXT_ROWS ? first - CONTEXT_ROWS : 0;
	    i <= BT_MIN(last + CONTEXT_ROWS, n - 1); i++)
		put_cells(out, bt_view_row(v, i), 0, &line);
	bt_strbuf_release(&line);
}

/*
 * The seeds' report: the results fastest first with their ratios, then
 * each benchmark's hot functions, findings and hottest code.
 */
static void
put_benches(struct export_out *o)
{
	size_t i;

	put_view(o->f, o->benches, true);
	fputs("\n", o->f);
	for (i = 0; i < o->nbench; i++) {
		const struct export_bench *e = &o->bench[i];
		const struct bt_bench *b = e->b;
		char ratio[64] = "", samples[96];

		if (b->ratio == b->ratio && b->ratio != 1)
			snprintf(ratio, sizeof(ratio), ", %.2f× as slow as the fastest", b->ratio);
		if (b->has_window)
			snprintf(samples, sizeof(samples), "; %llu samples (%.1f%% of the run)",
			    (unsigned long long)b->samples, b->percent);
		else
			snprintf(samples, sizeof(samples), "; its samples cannot be told apart");
		put_line(o->f, "## benchmark %s: %s%s%s%s%s%s%s%s", b->name,
		    b->time_text ? b->time_text : "no time", bt_bench_time_unit(b),
		    b->time_text && !strchr(b->time_text, '/') ? "/op" : "",
		    b->pm_text ? " " : "", b->pm_text ? b->pm_text : "",
		    b->ratio == 1 ? ", fastest" : "", ratio, samples);
		if (b->error)
			put_line(o->f, "# error: %s", b->error);
		if (b->untimed_samples)
			put_line(o->f, "# untimed: %llu more samples (%.0f%% of its samples) while its "
			    "timer was off (%s): not in its time per op, not in this profile",
			    (unsigned long long)b->untimed_samples, 100.0 *
			    (double)b->untimed_samples / (double)(b->samples + b->untimed_samples),
			    strcmp(b->harness, "go") == 0 ? "StopTimer, runtime.GC before each run, "
			    "the trial run" : strcmp(b->harness, "gbench") == 0 ? "PauseTiming, "
			    "set-up, the runner between runs" : strcmp(b->harness, "criterion") == 0 ?
			    "warm-up, analysis" : strcmp(b->harness, "jmh") == 0 ? "the fork's "
			    "start-up and warm-up iterations" : "outside its measurement");
		if (e->findings)
			put_findings(o->f, e->findings);
		if (e->funcs && bt_view_nrows(e->funcs))
			put_view(o->f, e->funcs, false);
		fputs("\n", o->f);
		if (e->annotation) {
			put_hottest(o->f, e->annotation);
			fputs("\n", o->f);
		}
	}
	fputs("## the whole run\n", o->f);
}

static void
text_begin(struct export_out *o, const struct bt_view *header,
	   const struct bt_view *funcs, const struct bt_view *findings)
{
	put_header(o->f, header);
	if (o->benches != NULL && !o->bench_selected)
		put_benches(o);
	put_view(o->f, funcs, false);
	fputs("\n", o->f);
	put_callgraph(o->f, funcs);
	if (bt_view_nrows(findings) > 0) {
		fputs("## lint\n", o->f);
		put_findings(o->f, findings);
		fputs("\n", o->f);
	}
	if (o->procs_text) {
		put_view(o->f, o->procs, true);
		fputs("\n", o->f);
	}
}

static void
text_annotation(struct export_out *o, const struct bt_view *v)
{
	put_view(o->f, v, true);
	fputs("\n", o->f);
}

static void
text_failed(struct export_out *o, const char *name, const char *msg)
{
	put_line(o->f, "## %s", name);
	put_line(o->f, "# note: %s", msg);
	fputc('\n', o->f);
}

static void
text_end(struct export_out *o)
{
}

static void
text_view(struct export_out *o, const struct bt_view *header, const struct bt_view *v)
{
	put_header(o->f, header);
	put_view(o->f, v, true);
}

const struct export_ops export_text = {
	text_begin, text_annotation, text_failed, text_end, text_view,
};
