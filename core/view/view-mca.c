/*
 * Predicted vs measured (X; docs/browser.md "Predicted vs measured"): the
 * function's hottest innermost loops, each given to llvm-mca as a block
 * (its AT&T text, as the decoder prints it), its prediction (cycles per
 * iteration, the bottleneck, each instruction's resource pressure) beside
 * the measured distribution of the loop's samples and, with a cost per
 * op and a trip count per op, the measured cycles per iteration.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate/annotate.h"
#include "annotate/mca.h"
#include "profile/profile.h"
#include "session/query.h"
#include "view/view-int.h"

#define MAX_LOOPS 3		/* the hottest innermost loops shown */
#define MIN_LOOP_SHARE 0.01	/* of the function's samples */
#define DISAGREE 2.0		/* measured vs predicted: a finding past this ratio */

enum { C_SHARE, C_PEROP, C_UOPS, C_LAT, C_RTHR, C_PRESS, C_RES, C_ADDR, C_TEXT, NCOLS };
static const size_t widths[NCOLS] = { 8, 9, 5, 5, 6, 7, 12, 10, 0 };

static void
text_row(struct bt_view *v, enum bt_style style, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void
text_row(struct bt_view *v, enum bt_style style, const char *fmt, ...)
{
	struct bt_strbuf sb = BT_STRBUF_INIT;
	struct bt_row *r = view_add_row(v, BT_ROW_TEXT);
	va_list ap;

	va_start(ap, fmt);
	bt_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	r->text = bt_strpool_add(&v->pool, sb.buf, sb.len);
	view_add_cell(v, r->text, style);
	bt_strbuf_release(&sb);
}

/* Innermost loops with samples, hottest first: into out (at most max). */
static size_t
hot_loops(const struct bt_annotation *a, size_t *out, size_t max)
{
	size_t n = 0, i, k;

	for (i = 0; i < a->loops.n; i++) {
		bool inner = true;
		for (k = 0; k < a->loops.n && inner; k++)
			inner = a->loops.v[k].parent != (long)i;
		if (!inner || a->loops.v[i].samples == 0 ||
		    (double)a->loops.v[i].samples < MIN_LOOP_SHARE * (double)a->samples)
			continue;
		/* insertion by samples */
		for (k = n; k > 0 && a->loops.v[out[k - 1]].samples < a->loops.v[i].samples; k--)
			if (k < max)
				out[k] = out[k - 1];
		if (k < max) {
			out[k] = i;
			n += n < max;
		}
	}
	return n;
}

/* Why llvm-mca's model does not apply to the body, NULL when it does. */
static const char *
not_modelled(const struct bt_annotation *a, const size_t *body, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct bt_insn *in = &a->insns.v[body[i]].in;
		if (in->kind == BT_INSN_CALL || in->kind == BT_INSN_ICALL)
			return "it calls a function: llvm-mca models the loop's own "
			    "instructions only";
		if (in->kind == BT_INSN_SYSCALL)
			return "it makes a system call";
		if (in->kind == BT_INSN_BAD)
			return "it holds bytes that do not decode";
	}
	return NULL;
}

/* The measured side: per op, per iteration and the finding. */
static void
measured(struct bt_view *v, const struct bt_annotation *a, const size_t *body, size_t n,
	 const struct bt_mca *m, bool ran, bool has_loads, struct bt_view_loop *L)
{
	struct bt_row *f;
	const struct bt_per_op *p = &v->per_op;
	uint64_t period = 0;
	double per_op, cyc, per_iter, ratio;
	size_t i;

	for (i = 0; i < n; i++)
		period += a->insns.v[body[i]].period;
	if (!v->has_per_op) {
		text_row(v, BT_STYLE_DIM, "  measured: only the distribution below (%s)",
		    p->why);
		return;
	}
	per_op = (double)period * p->scale;
	cyc = strcmp(p->unit, "cycles") == 0 ? per_op :
	    p->mhz > 0 ? per_op * p->mhz / 1000 : NAN;
	L->cycles_per_op = cyc;
	if (!isfinite(cyc)) {
		text_row(v, BT_STYLE_NORMAL, "  measured: %.*f ns/op (no clock recorded: "
		    "no cycles)", bt_per_op_decimals(per_op), per_op);
		return;
	}
	if (!isfinite(p->items_per_op) || !(p->items_per_op > 0)) {
		text_row(v, BT_STYLE_NORMAL, "  measured: %.*f cycles/op at %.0f MHz; its "
		    "trip count per op is not known", cyc < 100 ? 2 : 0, cyc, p->mhz);
		if (ran && m->cycles_per_iter > 0)
			text_row(v, BT_STYLE_NORMAL, "  at the predicted %.3g cycles/iteration "
			    "it ran %.0f iterations per op: compare with the source's trip count",
			    m->cycles_per_iter, cyc / m->cycles_per_iter);
		return;
	}
	per_iter = cyc / p->items_per_op;
	L->iterations_per_op = p->items_per_op;
	L->measured_per_iter = per_iter;
	text_row(v, BT_STYLE_NORMAL, "  measured: %.*f cycles/op at %.0f MHz over %.0f "
	    "iterations/op (the harness's items per op): %.3g cycles/iteration",
	    cyc < 100 ? 2 : 0, cyc, p->mhz, p->items_per_op, per_iter);
	if (!ran || !(m->cycles_per_iter > 0))
		return;
	ratio = per_iter / m->cycles_per_iter;
	L->ratio = ratio;
	text_row(v, BT_STYLE_NORMAL, "  measured / predicted: %.2fx", ratio);
	if (ratio >= DISAGREE)
		text_row(v, BT_STYLE_WARN, "  finding: it runs %.1fx slower than llvm-mca "
		    "predicts: %s", ratio, has_loads ? "memory-bound (llvm-mca assumes every "
		    "load hits L1)" : "front-end bound or mispredicted branches (llvm-mca "
		    "assumes a perfect front end)");
	else if (ratio <= 1 / DISAGREE)
		text_row(v, BT_STYLE_WARN, "  finding: it runs %.1fx faster than llvm-mca "
		    "predicts: the loop runs fewer iterations than the source says (the "
		    "items per op are not its trip count)", 1 / ratio);
	else
		return;
	f = &v->rows.v[v->rows.n - 1];
	L->finding = f->text + 11;	/* after "  finding: " */
}

/* The body's rows: measured share and per op beside llvm-mca's numbers. */
static void
body_rows(struct bt_view *v, const struct bt_annotation *a, size_t func,
	  const size_t *body, size_t n, bool skid, const struct bt_mca *m)
{
	char buf[64];
	double total = 0, x, per;
	size_t i;

	/* the loop's samples, raw or skid-adjusted (K) */
	for (i = 0; i < n; i++)
		total += skid ? a->insns.v[body[i]].adjusted : (double)a->insns.v[body[i]].samples;

	for (i = 0; i < n; i++) {
		const struct bt_ainsn *ai = &a->insns.v[body[i]];
		const struct bt_mca_insn *mi = m != NULL && i < m->ninsns ? &m->insns[i] : NULL;
		struct bt_row *r = view_add_row(v, BT_ROW_INSN);

		r->func = func;
		r->insn = body[i];
		r->addr = ai->in.addr;
		r->size = ai->in.len;
		r->samples = ai->samples;
		r->period = ai->period;
		r->adjusted = ai->adjusted;
		x = skid ? ai->adjusted : (double)ai->samples;
		per = skid ? ai->adjusted_period : (double)ai->period;
		r->percent = total > 0 ? 100.0 * x / total : 0;
		r->weight = r->percent;
		r->text = ai->in.text;
		r->file = ai->file;
		r->line = ai->line;
		view_add_cell(v, r->percent >= 0.005 ? view_pad_2f(v, "", r->percent,
		    widths[C_SHARE]) : view_pad(v, "", widths[C_SHARE], true),
		    view_heat(r->percent, x > 0));
		view_add_cell(v, v->has_per_op && per > 0 ? view_per_op_cell(v,
		    per * v->per_op.scale, widths[C_PEROP]) :
		    view_pad(v, "", widths[C_PEROP], true), BT_STYLE_NORMAL);
		if (mi != NULL) {
			struct view_pred vp = { v->rows.n - 1, { mi->uops, mi->latency,
			    mi->rthroughput, mi->pressure, bt_strpool_addstr(&v->pool,
			    mi->resource) } };
			BT_VEC_PUSH(v->preds, vp);
			snprintf(buf, sizeof(buf), "%u", mi->uops);
			view_add_cell(v, view_pad(v, buf, widths[C_UOPS], true), BT_STYLE_DIM);
			snprintf(buf, sizeof(buf), "%.0f", mi->latency);
			view_add_cell(v, view_pad(v, buf, widths[C_LAT], true), BT_STYLE_DIM);
			snprintf(buf, sizeof(buf), "%.2f", mi->rthroughput);
			view_add_cell(v, view_pad(v, buf, widths[C_RTHR], true), BT_STYLE_DIM);
			snprintf(buf, sizeof(buf), "%.2f", mi->pressure);
			view_add_cell(v, view_pad(v, buf, widths[C_PRESS], true), BT_STYLE_NORMAL);
			view_add_cell(v, view_pad(v, bt_strpool_addf(&v->pool, " %s",
			    mi->resource), widths[C_RES], false), BT_STYLE_DIM);
		} else
			for (size_t k = C_UOPS; k <= C_RES; k++)
				view_add_cell(v, view_pad(v, "", widths[k], true), BT_STYLE_DIM);
		view_add_cell(v, view_hex_colon(v, ai->in.addr, widths[C_ADDR]), BT_STYLE_ADDR);
		view_add_cell(v, view_cat(v, "  ", ai->in.text), BT_STYLE_NORMAL);
	}
}

/*
 * An instruction as llvm-mca reads it: a direct branch's target, which
 * objdump writes as bare hex ("jne    14b8"), as 0x14b8 (the assembler
 * reads "14b8" as local label 14, backward, then junk).
 */
static const char *
mca_text(struct bt_view *v, const struct bt_insn *in)
{
	const char *sp;

	if ((in->kind != BT_INSN_JUMP && in->kind != BT_INSN_CJUMP) ||
	    (sp = strrchr(in->text, ' ')) == NULL || sp[1] == '\0' ||
	    strspn(sp + 1, "0123456789abcdef") != strlen(sp + 1))
		return in->text;
	return bt_strpool_addf(&v->pool, "%.*s 0x%s", (int)(sp - in->text), in->text,
	    sp + 1);
}

/* One loop: its heading, llvm-mca's prediction, the measured side, its rows. */
static void
loop_rows(struct bt_view *v, const struct bt_annotation *a, size_t func, size_t li,
	  size_t rank, bool skid)
{
	const struct bt_loop *l = &a->loops.v[li];
	size_t *body = bt_xcalloc(l->tail - l->head + 2, sizeof(*body)), n = 0, i;
	const char **lines;
	const char *why;
	struct bt_mca m;
	struct bt_error err = { 0 };
	bool ran = false, loads = false;
	struct bt_view_loop L = { .cycles_per_iter = NAN, .block_rthroughput = NAN,
	    .ipc = NAN, .cycles_per_op = NAN, .iterations_per_op = NAN,
	    .measured_per_iter = NAN, .ratio = NAN };

	for (i = l->head; i <= l->tail; i++)
		if (l->contiguous || bt_annotation_in_loop(a, i, li)) {
			body[n++] = i;
			loads |= (a->insns.v[i].in.flags & BT_INSN_F_MEM_READ) != 0;
		}
	text_row(v, BT_STYLE_TITLE, "loop %zu: %llx-%llx, %zu instructions, %.1f%% of "
	    "the function's samples%s", rank + 1,
	    (unsigned long long)a->insns.v[l->head].in.addr,
	    (unsigned long long)(a->insns.v[l->tail].in.addr + a->insns.v[l->tail].in.len),
	    n, a->samples ? 100.0 * (double)l->samples / (double)a->samples : 0,
	    l->contiguous ? "" : " (not contiguous: its blocks in address order)");
	L.start = a->insns.v[l->head].in.addr;
	L.end = a->insns.v[l->tail].in.addr + a->insns.v[l->tail].in.len;
	L.ninsns = n;
	L.percent = a->samples ? 100.0 * (double)l->samples / (double)a->samples : 0;
	memset(&m, 0, sizeof(m));
	if ((why = not_modelled(a, body, n)) != NULL) {
		text_row(v, BT_STYLE_DIM, "  predicted: does not apply: %s", why);
		L.not_predicted = why;
	} else {
		lines = bt_xcalloc(n + 1, sizeof(*lines));
		for (i = 0; i < n; i++)
			lines[i] = mca_text(v, &a->insns.v[body[i]].in);
		ran = bt_mca_run(lines, n, getenv("BENCHTUI_MCA_CPU"),
		    bt_selection_profile(v->sel)->meta.cpu_id, &m, &err) == 0;
		free(lines);
		if (!ran) {
			text_row(v, BT_STYLE_DIM, "  predicted: none: %s", err.msg);
			L.not_predicted = bt_strpool_addstr(&v->pool, err.msg);
		} else {
			L.cpu = bt_strpool_addstr(&v->pool, m.cpu);
			L.cycles_per_iter = m.cycles_per_iter;
			L.block_rthroughput = m.block_rthroughput;
			L.ipc = m.ipc;
			L.bottleneck = bt_strpool_addstr(&v->pool, m.bottleneck);
			text_row(v, BT_STYLE_NORMAL, "  predicted (llvm-mca -mcpu=%s): %.3g "
			    "cycles/iteration (block throughput %.3g, IPC %.2f); bottleneck: %s",
			    m.cpu, m.cycles_per_iter, m.block_rthroughput, m.ipc, m.bottleneck);
			if (m.cpu_note[0])
				text_row(v, BT_STYLE_DIM, "  (%s)", m.cpu_note);
		}
	}
	measured(v, a, body, n, &m, ran, loads, &L);
	body_rows(v, a, func, body, n, skid, ran ? &m : NULL);
	BT_VEC_PUSH(v->loops, L);
	bt_mca_release(&m);
	free(body);
}

struct bt_view *
bt_view_mca(struct bt_selection *sel, size_t func, const struct bt_view_opts *o,
	    struct bt_error *err)
{
	/* llvm-mca reads AT&T: the block and its rows in that syntax */
	const struct bt_annotation *a = bt_selection_annotation(sel, func, BT_ASM_ATT, err);
	const struct bt_func *f;
	static const char *const heads[NCOLS] = { "Loop%", "", "uOps", "Lat",
	    "RThru", "Press", " Resource", "Address", "  Instruction" };
	const bool right[NCOLS] = { true, true, true, true, true, true, false, true, false };
	size_t loops[MAX_LOOPS], n, i;
	struct bt_view *v;
	const char *h[NCOLS];

	struct bt_view_opts def;

	if (a == NULL)
		return NULL;
	if (o == NULL) {
		bt_view_opts_init(&def);
		o = &def;
	}
	f = bt_selection_func(sel, func);
	v = view_new(sel);
	view_set_func(v, func);
	v->has_per_op = bt_selection_per_op(sel, &v->per_op);
	n = hot_loops(a, loops, MAX_LOOPS);
	if (bt_mca_tool() == NULL)
		BT_VEC_PUSH(v->notes, "no llvm-mca installed (Debian: apt install llvm): "
		    "the measured side only");
	if (n == 0)
		text_row(v, BT_STYLE_DIM, "no loop with samples in this function: "
		    "nothing to predict");
	for (i = 0; i < n; i++)
		loop_rows(v, a, func, loops[i], i, o->skid);
	memcpy(h, heads, sizeof(h));
	if (o->skid)
		h[C_SHARE] = "Skid%";
	h[C_PEROP] = !v->has_per_op ? "" : strcmp(v->per_op.unit, "ns") == 0 ?
	    "ns/op" : "cyc/op";
	view_set_columns(v, h, widths, right, NCOLS);
	view_seal(v);
	view_set_title(v, "", view_name(v, f->name, o),
	    "  predicted (llvm-mca) vs measured, %zu loop%s", n, n == 1 ? "" : "s");
	return v;
}

size_t
bt_view_loops(const struct bt_view *v, const struct bt_view_loop **loops)
{
	*loops = v->loops.v;
	return v->loops.n;
}

const struct bt_view_pred *
bt_view_pred(const struct bt_view *v, size_t row)
{
	size_t lo = 0, hi = v->preds.n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v->preds.v[mid].row == row)
			return &v->preds.v[mid].p;
		if (v->preds.v[mid].row < row)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
