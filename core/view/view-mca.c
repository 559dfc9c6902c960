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
#define DISAGREE 2.0
#define PATH_MIN_SAMPLES 30	/* a loop's samples that can tell its hot path */		/* measured vs predicted: a finding past this ratio */

enum { C_SHARE, C_PEROP, C_UOPS, C_LAT, C_RTHR, C_PRESS, C_RES, C_ADDR, C_TEXT, NCOLS };
static const size_t widths[NCOLS] = { 8, 9, 5, 5, 6, 7, 12, 10, 0 };
/* On a narrow screen the columns that go first, before the instruction is cut. */
static const int drop_order[] = { C_RES, C_PRESS, C_RTHR, C_LAT, C_UOPS };

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

/*
 * The body's rows: measured share and per op beside llvm-mca's numbers
 * (pred[i]: body[i]'s instruction in m, -1 none); the columns !show[]
 * left out, the status line (detail) then has the whole row.
 */
static void
body_rows(struct bt_view *v, const struct bt_annotation *a, size_t func,
	  const size_t *body, size_t n, bool skid, const struct bt_mca *m,
	  const long *pred, const bool *show)
{
	char buf[64];
	double total = 0, x, per;
	bool cut = false;
	size_t i, k;

	for (k = C_UOPS; k <= C_RES; k++)
		cut |= !show[k];
	/* the loop's samples, raw or skid-adjusted (K) */
	for (i = 0; i < n; i++)
		total += skid ? a->insns.v[body[i]].adjusted : (double)a->insns.v[body[i]].samples;

	for (i = 0; i < n; i++) {
		const struct bt_ainsn *ai = &a->insns.v[body[i]];
		const struct bt_mca_insn *mi = m != NULL && pred[i] >= 0 &&
		    (size_t)pred[i] < m->ninsns ? &m->insns[pred[i]] : NULL;
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
		if (show[C_PEROP])
			view_add_cell(v, v->has_per_op && per > 0 ? view_per_op_cell(v,
			    per * v->per_op.scale, widths[C_PEROP]) :
			    view_pad(v, "", widths[C_PEROP], true), BT_STYLE_NORMAL);
		if (mi != NULL) {
			struct view_pred vp = { v->rows.n - 1, { mi->uops, mi->latency,
			    mi->rthroughput, mi->pressure, bt_strpool_addstr(&v->pool,
			    mi->resource) } };
			BT_VEC_PUSH(v->preds, vp);
			snprintf(buf, sizeof(buf), "%u", mi->uops);
			if (show[C_UOPS])
				view_add_cell(v, view_pad(v, buf, widths[C_UOPS], true),
				    BT_STYLE_DIM);
			snprintf(buf, sizeof(buf), "%.0f", mi->latency);
			if (show[C_LAT])
				view_add_cell(v, view_pad(v, buf, widths[C_LAT], true),
				    BT_STYLE_DIM);
			snprintf(buf, sizeof(buf), "%.2f", mi->rthroughput);
			if (show[C_RTHR])
				view_add_cell(v, view_pad(v, buf, widths[C_RTHR], true),
				    BT_STYLE_DIM);
			snprintf(buf, sizeof(buf), "%.2f", mi->pressure);
			if (show[C_PRESS])
				view_add_cell(v, view_pad(v, buf, widths[C_PRESS], true),
				    BT_STYLE_NORMAL);
			if (show[C_RES])
				view_add_cell(v, view_pad(v, bt_strpool_addf(&v->pool, " %s",
				    mi->resource), widths[C_RES], false), BT_STYLE_DIM);
			if (cut)
				r->detail = bt_strpool_addf(&v->pool, "%s  uOps %u Lat %.0f "
				    "RThru %.2f Press %.2f%s%s", ai->in.text, mi->uops,
				    mi->latency, mi->rthroughput, mi->pressure,
				    mi->resource[0] ? " " : "", mi->resource);
		} else
			for (k = C_UOPS; k <= C_RES; k++)
				if (show[k])
					view_add_cell(v, view_pad(v, "", widths[k], true),
					    BT_STYLE_DIM);
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

/* The loop's instructions in address order, into body (room for tail - head + 1). */
static size_t
loop_body(const struct bt_annotation *a, size_t li, size_t *body)
{
	const struct bt_loop *l = &a->loops.v[li];
	size_t n = 0, i;

	for (i = l->head; i <= l->tail; i++)
		if (l->contiguous || bt_annotation_in_loop(a, i, li))
			body[n++] = i;
	return n;
}

static bool
is_jump(const struct bt_insn *in)
{
	return in->kind == BT_INSN_JUMP || in->kind == BT_INSN_CJUMP;
}

/* Does control leave the straight line after in (a branch, a return, a stop)? */
static bool
ends_block(const struct bt_insn *in)
{
	return is_jump(in) || in->kind == BT_INSN_IJUMP || in->kind == BT_INSN_RET ||
	    in->kind == BT_INSN_STOP;
}

/* Is instruction insn the target of a jump of the function? */
static bool
jump_target(const struct bt_annotation *a, size_t insn)
{
	for (size_t k = 0; k < a->insns.n; k++)
		if (is_jump(&a->insns.v[k].in) && a->insns.v[k].target_insn == (long)insn)
			return true;
	return false;
}

/*
 * The loop's branches other than its back edges (to its head), and its
 * basic blocks: block[i] the block of body[i]; the number of blocks.
 */
static size_t
loop_blocks(const struct bt_annotation *a, const struct bt_loop *l, const size_t *body,
	    size_t n, size_t *block, size_t *branches)
{
	size_t i, nb = 0;

	*branches = 0;
	for (i = 0; i < n; i++) {
		const struct bt_ainsn *ai = &a->insns.v[body[i]];
		bool leader = i == 0 || body[i - 1] + 1 != body[i] ||
		    ends_block(&a->insns.v[body[i - 1]].in) || jump_target(a, body[i]);

		nb += leader;
		block[i] = nb - 1;
		if ((is_jump(&ai->in) && ai->target_insn != (long)l->head) ||
		    ai->in.kind == BT_INSN_IJUMP)
			(*branches)++;
	}
	return nb;
}

/*
 * The loop's hottest path where its samples tell it: the blocks that ran,
 * in address order, when some did not. A block ran when it has samples,
 * or when it falls through into a block that ran and is no jump's target
 * (the only way in is through it: a lone `jbe` bounds check between two
 * hot blocks, too short to be sampled). Into pred (body[i]'s index in the
 * block given to llvm-mca, -1 left out); the instructions kept, 0 when the
 * whole body is the block.
 */
static size_t
hot_path(const struct bt_annotation *a, const size_t *body, size_t n, const size_t *block,
	 size_t nb, long *pred, size_t *nhot)
{
	bool *hot = bt_xcalloc(nb + 1, sizeof(*hot));
	size_t *first = bt_xcalloc(nb + 1, sizeof(*first));
	size_t i, b, kept = 0;

	*nhot = 0;
	for (i = n; i-- > 0;)
		first[block[i]] = i;
	for (i = 0; i < n; i++)
		if (a->insns.v[body[i]].samples > 0)
			hot[block[i]] = true;
	for (b = nb - 1; b-- > 0;) {
		size_t last = first[b + 1] - 1, next = first[b + 1];
		const struct bt_insn *in = &a->insns.v[body[last]].in;

		if (!hot[b] && hot[b + 1] && body[last] + 1 == body[next] &&
		    (!ends_block(in) || in->kind == BT_INSN_CJUMP) &&
		    !jump_target(a, body[next]))
			hot[b] = true;
	}
	for (b = 0; b < nb; b++)
		*nhot += hot[b];
	for (i = 0; i < n; i++)
		pred[i] = *nhot > 0 && *nhot < nb && !hot[block[i]] ? -1 : (long)kept++;
	free(first);
	free(hot);
	return *nhot > 0 && *nhot < nb ? kept : 0;
}

/* The address ranges of the instructions pred[] keeps: "4b10-4b2c, 4b40-4b58". */
static const char *
path_ranges(struct bt_view *v, const struct bt_annotation *a, const size_t *body, size_t n,
	    const long *pred)
{
	struct bt_strbuf sb = BT_STRBUF_INIT;
	const char *s;
	size_t i, j;

	for (i = 0; i < n; i = j) {
		if (pred[i] < 0) {
			j = i + 1;
			continue;
		}
		for (j = i + 1; j < n && pred[j] >= 0 && body[j] == body[j - 1] + 1; j++)
			;
		bt_strbuf_addf(&sb, "%s%llx-%llx", sb.len ? ", " : "",
		    (unsigned long long)a->insns.v[body[i]].in.addr,
		    (unsigned long long)(a->insns.v[body[j - 1]].in.addr +
		    a->insns.v[body[j - 1]].in.len));
	}
	s = bt_strpool_add(&v->pool, sb.buf ? sb.buf : "", sb.len);
	bt_strbuf_release(&sb);
	return s;
}

/* One loop: its heading, llvm-mca's prediction, the measured side, its rows. */
static void
loop_rows(struct bt_view *v, const struct bt_annotation *a, size_t func, size_t li,
	  size_t rank, bool skid, const bool *show)
{
	const struct bt_loop *l = &a->loops.v[li];
	size_t *body = bt_xcalloc(l->tail - l->head + 2, sizeof(*body)), n, i;
	size_t *block, nb, branches, kept, nhot, npred;
	long *pred;
	const char **lines;
	const size_t *sel;
	size_t *pbody;
	const char *why;
	struct bt_mca m;
	struct bt_error err = { 0 };
	bool ran = false, loads = false;
	struct bt_view_loop L = { .cycles_per_iter = NAN, .block_rthroughput = NAN,
	    .ipc = NAN, .cycles_per_op = NAN, .iterations_per_op = NAN,
	    .measured_per_iter = NAN, .ratio = NAN };

	n = loop_body(a, li, body);
	block = bt_xcalloc(n + 1, sizeof(*block));
	pred = bt_xcalloc(n + 1, sizeof(*pred));
	pbody = bt_xcalloc(n + 1, sizeof(*pbody));
	nb = loop_blocks(a, l, body, n, block, &branches);
	kept = branches > 0 && l->samples >= PATH_MIN_SAMPLES ?
	    hot_path(a, body, n, block, nb, pred, &nhot) : 0;
	if (kept == 0)
		for (i = 0; i < n; i++)
			pred[i] = (long)i;
	for (i = 0, npred = 0; i < n; i++) {
		loads |= (a->insns.v[body[i]].in.flags & BT_INSN_F_MEM_READ) != 0;
		if (pred[i] >= 0)
			pbody[npred++] = body[i];
	}
	sel = pbody;
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
	L.branches = branches;
	L.npredicted = npred;
	if (kept > 0) {
		L.path = path_ranges(v, a, body, n, pred);
		L.path_note = bt_strpool_addf(&v->pool, "the loop has %zu branch%s inside: "
		    "predicted its hottest path, the %zu of its %zu blocks that ran "
		    "(%zu of %zu instructions, in address order: %s)", branches,
		    branches == 1 ? "" : "es", nhot, nb, npred, n, L.path);
	} else if (branches > 0)
		L.path_note = bt_strpool_addf(&v->pool, "predicted as one straight-line "
		    "pass through the loop's %zu instructions; the loop has %zu branch%s "
		    "inside: no path it takes is exactly this%s", n, branches,
		    branches == 1 ? "" : "es", l->samples < PATH_MIN_SAMPLES ?
		    " (too few samples to tell its hot path)" : "");
	memset(&m, 0, sizeof(m));
	if ((why = not_modelled(a, sel, npred)) != NULL) {
		text_row(v, BT_STYLE_DIM, "  predicted: does not apply: %s", why);
		L.not_predicted = why;
	} else {
		lines = bt_xcalloc(npred + 1, sizeof(*lines));
		for (i = 0; i < npred; i++)
			lines[i] = mca_text(v, &a->insns.v[sel[i]].in);
		ran = bt_mca_run(lines, npred, getenv("BENCHTUI_MCA_CPU"),
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
	if (L.path_note != NULL)
		text_row(v, BT_STYLE_WARN, "  %s", L.path_note);
	measured(v, a, body, n, &m, ran, loads, &L);
	body_rows(v, a, func, body, n, skid, ran ? &m : NULL, pred, show);
	BT_VEC_PUSH(v->loops, L);
	bt_mca_release(&m);
	free(pbody);
	free(pred);
	free(block);
	free(body);
}

/*
 * The columns a screen o->width wide shows (show[]): every one when they
 * fit the widest instruction, else Resource, Press, RThru, Lat and uOps go
 * in that order before the instruction is cut (docs/browser.md "Narrow
 * terminals"). Without a width (--view) every column.
 */
static void
fit_columns(const struct bt_annotation *a, const size_t *loops, size_t nl,
	    const struct bt_view_opts *o, bool *show)
{
	size_t widest = 0, total = 0, i, j, k, n;

	for (k = 0; k < NCOLS; k++)
		show[k] = true;
	if (o->width == 0)
		return;
	for (i = 0; i < nl; i++) {
		const struct bt_loop *l = &a->loops.v[loops[i]];
		size_t *body = bt_xcalloc(l->tail - l->head + 2, sizeof(*body));

		n = loop_body(a, loops[i], body);
		for (j = 0; j < n; j++)
			widest = BT_MAX(widest, view_ncols(a->insns.v[body[j]].in.text));
		free(body);
	}
	for (k = 0; k < NCOLS; k++)
		total += widths[k];
	total += 2 + widest;
	for (k = 0; k < sizeof(drop_order) / sizeof(drop_order[0]) && total > o->width; k++) {
		show[drop_order[k]] = false;
		total -= widths[drop_order[k]];
	}
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
	size_t loops[MAX_LOOPS], n, i, k;
	struct bt_view *v;
	const char *h[NCOLS], *hs[NCOLS];
	size_t ws[NCOLS];
	bool rs[NCOLS], show[NCOLS];

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
	fit_columns(a, loops, n, o, show);
	for (i = 0; i < n; i++)
		loop_rows(v, a, func, loops[i], i, o->skid, show);
	memcpy(h, heads, sizeof(h));
	if (o->skid)
		h[C_SHARE] = "Skid%";
	h[C_PEROP] = !v->has_per_op ? "" : strcmp(v->per_op.unit, "ns") == 0 ?
	    "ns/op" : "cyc/op";
	for (i = 0, k = 0; i < NCOLS; i++)
		if (show[i]) {
			hs[k] = h[i];
			ws[k] = widths[i];
			rs[k++] = right[i];
		}
	view_set_columns(v, hs, ws, rs, k);
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
