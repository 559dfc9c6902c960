/*
 * The benchmark's own output (the browser's O screen): the lines the
 * recording kept (core/perf/meta.h "output"), each with its time into
 * the run, and the harness's result lines linked to their benchmark.
 * Lines are numbered as the harness parser numbers them (standard output
 * only, a line ends at '\n'), so that a result's line
 * (bt_selection_bench_runs) finds its row. What a terminal would have
 * shown: a line rewritten with '\r' is its last text, escape sequences
 * are dropped, tabs expanded; every other byte the recording holds is
 * escaped (bt_text_safe), never written raw.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchtui/bench.h"
#include "harness/harness.h"
#include "perf/meta.h"
#include "view/view-int.h"

/* A line being read from one stream: its bytes and when its first came. */
struct pending {
	struct bt_strbuf sb;
	double t;
	bool started;
};

struct output {
	struct bt_view *v;
	const long *bench;	/* stdout line -> benchmark index, -1 none */
	size_t nbench_lines;
	size_t lineno;		/* stdout lines so far */
	size_t linked;
	struct bt_strbuf tmp;
	struct bt_textbuf safe;
};

/* The text a terminal showed last of a line: after its last '\r' with text. */
static void
shown_text(const char *s, size_t n, struct bt_strbuf *out)
{
	size_t start = 0, i, col = 0;

	while (n > 0 && s[n - 1] == '\r')
		n--;
	for (i = n; i-- > 0;)
		if (s[i] == '\r') {
			start = i + 1;
			break;
		}
	bt_strbuf_reset(out);
	for (i = start; i < n; i++) {
		if (s[i] == '\t') {
			do
				bt_strbuf_addch(out, ' ');
			while (++col % 8);
			continue;
		}
		if (s[i] == '\0') {	/* the C string goes on: written as escaped */
			bt_strbuf_addstr(out, "\\x00");
			col += 4;
			continue;
		}
		bt_strbuf_addch(out, s[i]);
		col += ((unsigned char)s[i] & 0xc0) != 0x80;
	}
	out->len = bt_ansi_strip(out->buf, out->len);
	out->buf[out->len] = '\0';
}

static void
add_line(struct output *o, const struct pending *p, int stream)
{
	struct bt_row *r;
	long b = -1;
	const char *text;

	shown_text(p->sb.buf ? p->sb.buf : "", p->sb.len, &o->tmp);
	text = bt_text_safe(o->tmp.buf ? o->tmp.buf : "", &o->safe);
	r = view_add_row(o->v, BT_ROW_OUTPUT);
	if (stream != 2) {
		r->line = (unsigned)++o->lineno;
		if (o->lineno < o->nbench_lines)
			b = o->bench[o->lineno];
	}
	r->label = stream == 2 ? "stderr" : "stdout";
	r->t_from = r->t_to = p->t;
	r->text = bt_strpool_addstr(&o->v->pool, text);
	r->detail = r->text;	/* the status line: the line whole */
	r->func = b >= 0 ? (size_t)b : (size_t)-1;
	if (b >= 0) {
		/* its target, not @name: the browser cuts a row with a name in its middle */
		r->target_name = bt_selection_bench(o->v->sel, (size_t)b)->name;
		r->flags |= BT_ROW_F_HOT;	/* Tab: the next result line */
		r->weight = 1;
		o->linked++;
	}
	view_add_cell(o->v, isfinite(p->t) ? bt_strpool_addf(&o->v->pool, "%9.3f s  ",
	    p->t) : "        ?    ", BT_STYLE_DIM);
	view_add_cell(o->v, stream == 2 ? "  err  " : bt_strpool_addf(&o->v->pool,
	    "%5u  ", r->line), stream == 2 ? BT_STYLE_WARN : BT_STYLE_GUTTER);
	view_add_cell(o->v, r->text, b >= 0 ? BT_STYLE_HOT : stream == 2 ?
	    BT_STYLE_WARN : BT_STYLE_NORMAL);
}

/* Which benchmark each stdout line is a result of (-1: none); *n lines. */
static long *
bench_lines(struct bt_selection *sel, size_t *n)
{
	size_t nb = bt_selection_nbenches(sel), i, k, max = 0, nr;
	const struct bt_bench_run *runs;
	long *map;

	for (i = 0; i < nb; i++) {
		max = BT_MAX(max, bt_selection_bench(sel, i)->line);
		nr = bt_selection_bench_runs(sel, i, &runs);
		for (k = 0; k < nr; k++)
			max = BT_MAX(max, runs[k].line);
	}
	*n = max + 1;
	map = bt_xcalloc(*n, sizeof(*map));
	for (i = 0; i < *n; i++)
		map[i] = -1;
	for (i = 0; i < nb; i++) {
		size_t line = bt_selection_bench(sel, i)->line;

		if (line > 0)
			map[line] = (long)i;
		nr = bt_selection_bench_runs(sel, i, &runs);
		for (k = 0; k < nr; k++)
			if (runs[k].line > 0)
				map[runs[k].line] = (long)i;
	}
	return map;
}

struct bt_view *
bt_view_output(struct bt_selection *sel)
{
	struct bt_session *s = bt_selection_session(sel);
	struct output o = { .v = view_new(sel), .tmp = BT_STRBUF_INIT };
	struct pending p[2] = { { .sb = BT_STRBUF_INIT }, { .sb = BT_STRBUF_INIT } };
	const char *d, *end, *bytes;
	uint64_t ns;
	size_t len, n, i;
	int stream;
	bool same_clock, truncated;
	double first = NAN;
	long *map;

	if (!bt_session_output(s, &d, &len, &same_clock, &truncated)) {
		o.v->title = "output: none recorded (a recording of perf record, "
		    "or made with -q and no harness)";
		view_seal(o.v);
		return o.v;
	}
	map = bench_lines(sel, &o.nbench_lines);
	o.bench = map;
	end = d + len;
	while (bt_meta_output_next(&d, end, &ns, &stream, &bytes, &n) > 0) {
		double t;
		struct pending *q;

		if (!isfinite(first))
			first = (double)ns;
		t = same_clock ? bt_session_seconds(s, ns) : ((double)ns - first) / 1e9;
		q = &p[stream == 2];
		for (i = 0; i < n; i++) {
			char c = bytes[i];

			if (!q->started) {
				q->started = true;
				q->t = t;
			}
			if (c == '\n') {
				add_line(&o, q, stream);
				bt_strbuf_reset(&q->sb);
				q->started = false;
			} else
				bt_strbuf_addch(&q->sb, c);
		}
	}
	for (i = 0; i < 2; i++) {	/* a last line without its newline */
		if (p[i].started)
			add_line(&o, &p[i], i == 1 ? 2 : 1);
		bt_strbuf_release(&p[i].sb);
	}
	{
		static const char *const h[3] = { "     Time  ", " Line  ", "Output" };
		static const size_t hw[3] = { 0, 0, 0 };
		static const bool hr[3] = { false, false, false };

		view_set_columns(o.v, h, hw, hr, 3);
	}
	view_seal(o.v);
	o.v->title = bt_selection_nbenches(sel) == 0 ?
	    bt_strpool_addf(&o.v->pool, "output: %zu lines%s; no results of a harness%s",
		o.lineno, o.v->rows.n > o.lineno ? " and standard error" : "",
		truncated ? "; only its start was kept" : "") :
	    bt_strpool_addf(&o.v->pool, "output: %zu lines%s; %zu result lines of %zu "
		"benchmarks (Enter on one: its benchmark)%s", o.lineno,
		o.v->rows.n > o.lineno ? " and standard error" : "", o.linked,
		bt_selection_nbenches(sel), truncated ? "; only its start was kept" : "");
	free(map);
	bt_strbuf_release(&o.tmp);
	bt_textbuf_release(&o.safe);
	return o.v;
}
