/*
 * The annotated function: one row per instruction with its numbers,
 * interleaved with the source lines and inline frames it came from; the
 * hot regions; the jump arrows' column.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "annotate/annotate.h"
#include "session/query.h"
#include "symbols/symbols.h"
#include "view/view-int.h"
#include "view/view-annotate-int.h"

#define WCI 7	/* the "±0.81" column, UTF-8 counted as one column */


static const char *
view_source_text(struct bt_selection *sel, struct src_at *at, const char *file,
		 unsigned line)
{
	if (file == NULL || line == 0)
		return NULL;
	if (file != at->path) {
		at->path = file;
		at->base = view_basename(file);
		at->sf = bt_srccache_get(bt_session_srccache(bt_selection_session(sel)),
		    file);
	}
	return bt_srcfile_line(at->sf, line);
}



/* Digits of x in base: what a number column needs, without printf. */
static size_t
ndigits(uint64_t x, unsigned base, size_t n)
{
	for (; x >= base; x /= base)
		n++;
	return n;
}

/* The largest period (raw or skid-adjusted) of an instruction. */
static uint64_t
max_period(const struct bt_annotation *a)
{
	uint64_t m = 0;

	for (size_t i = 0; i < a->insns.n; i++)
		m = BT_MAX(m, BT_MAX(a->insns.v[i].period,
		    (uint64_t)(a->insns.v[i].adjusted_period + 0.5)));
	return m;
}

/* The bytecode index of ai's line (JIT code: HotSpot), -1 when none. */
static int32_t
ai_bci(const struct bt_ainsn *ai)
{
	return ai->flags & BT_AI_BCI ? ai->bci : -1;
}

/*
 * Does ai need a source row of its own: a line, and another than the
 * previous one's (or, HotSpot's code, another bytecode of it)?
 */
static bool
new_place(const struct ann *c, const struct bt_ainsn *ai)
{
	return ai->file != NULL && (ai->file != c->prev_file ||
	    ai->line != c->prev_line || ai_bci(ai) != c->prev_bci);
}

/*
 * Widths first: numbers and addresses; and the rows and cells the rows'
 * pass adds, counted as it will decide them, for arrays of their size
 * (bt_xmalloc_big: no huge page half used).
 */
static void
measure(struct ann *c, bool whole)
{
	const struct bt_annotation *a = c->a;
	const struct bt_view_opts *o = c->o;
	size_t i, n, nrows = 0, ncells = 0, njumps = 0;

	c->wnum = c->wadj = c->wsmp = 7;
	c->waddr = 4;
	c->row0 = bt_xmalloc((a->insns.n + 1) * sizeof(*c->row0));
	c->marks = bt_xmalloc((a->insns.n / c->window + 1) * sizeof(*c->marks));
	for (i = 0; i < a->insns.n; i++) {
		const struct bt_ainsn *ai = &a->insns.v[i];

		if (i % c->window == 0)
			c->marks[i / c->window] = (struct place){ c->prev_file, c->prev_line,
			    c->prev_bci, c->prev_chain, c->prev_depth };
		c->row0[i] = (uint32_t)nrows;
		if ((ai->flags & (BT_AI_SKID_TARGET | BT_AI_SKID_GUESS)) ==
		    (BT_AI_SKID_TARGET | BT_AI_SKID_GUESS))
			c->guesses++;

		c->wsmp = BT_MAX(c->wsmp, ndigits(o->num == BT_NUM_PERIOD ?
		    ai->period : ai->samples, 10, 1));
		c->waddr = BT_MAX(c->waddr, ndigits(o->addresses ? ai->in.addr :
		    ai->in.addr - c->f->start, 16, 2));
		/* the rows before it (as source_rows decides them), its own */
		if (o->source && a->has_lines) {
			if (ai->depth != c->prev_depth || ai->chain != c->prev_chain) {
				size_t common;
				n = view_inline_nrows(a, ai, c->prev_chain, c->prev_depth,
				    &common);
				nrows += n;
				ncells += 2 * n;
				c->prev_chain = ai->chain;
				c->prev_depth = ai->depth;
				c->prev_file = NULL;
			}
			if (new_place(c, ai)) {
				nrows++;
				ncells += 3;
				c->prev_file = ai->file;
				c->prev_line = ai->line;
				c->prev_bci = ai_bci(ai);
			}
		}
		njumps += ai->target_insn >= 0;
		nrows++;
		ncells += (o->compact ? 5 : 7) + (ai->target_name != NULL ||
		    (ai->in.flags & BT_INSN_F_RIPREL) || ai->dtype);
	}
	c->row0[a->insns.n] = (uint32_t)nrows;
	if (whole) {
		c->v->rows.alloc = nrows;
		c->v->rows.v = bt_xmalloc_big(nrows, nrows, sizeof(*c->v->rows.v));
		c->v->cells.alloc = ncells;
		c->v->cells.v = bt_xmalloc_big(ncells, ncells, sizeof(*c->v->cells.v));
	}
	c->prev_file = NULL;
	c->prev_line = 0;
	c->prev_bci = -1;
	c->prev_chain = c->prev_depth = 0;
	if (o->num == BT_NUM_PER_OP) {	/* "1234.5", "12.345": digits and 4 */
		c->wnum = c->wadj = BT_MAX(7, ndigits((uint64_t)((double)
		    max_period(a) * c->v->per_op.scale), 10, 1) + 4);
	} else if (o->num != BT_NUM_PERCENT)
		c->wnum = c->wadj = c->wsmp;
	/*
	 * Columns at least as wide as their headings; the first one a space
	 * wider, which the text export's '#' takes
	 */
	c->wnum = BT_MAX(c->wnum, strlen(o->skid ? "Skid%" : o->num == BT_NUM_PERCENT ?
	    "Percent" : o->num == BT_NUM_SAMPLES ? "Samples" : o->num == BT_NUM_PER_OP ?
	    "cyc/op" : "Period") + 1);
	c->waddr = BT_MAX(c->waddr, strlen(o->addresses ? "Address" : "Offset") - 1);
	/*
	 * numbers, the 95% interval, gutter, address: what source rows are
	 * indented by; compact: no second number, no interval, and source
	 * rows under the first number's column
	 */
	if (o->compact) {
		c->wadj = 0;
		c->wpre = c->wnum + 1;
	} else
		c->wpre = c->wnum + (c->wadj + 1) + (c->wsmp + 1) + WCI + 5 +
		    c->depth_col + c->waddr + 1;
	/*
	 * the branch arrows' lanes go where the source rows' indent ends:
	 * before the instruction, or compact, after the first number
	 */
	c->lanes_at = o->compact ? c->wnum : c->wpre;
	c->prefix = o->compact ? c->wnum + c->wsmp + 1 + 5 + c->depth_col + c->waddr + 1 + 2 :
	    c->wpre + 2;
	c->lanes_room = view_arrows_room(o, 1, c->prefix, njumps);
}

/*
 * HotSpot's code: ai's frames as perfasm prints them, innermost first,
 * "java.lang.Integer::valueOf@23 (line 1081) / Inl::run@13 (line 16)"
 * (the function as "Inl::run": its name up to the signature, the last
 * dot made "::"), for the status line on its source row.
 */
static const char *
perfasm_frames(struct ann *c, const struct bt_ainsn *ai)
{
	struct bt_view *v = c->v;
	const char *own = c->f->name, *s, *inner;
	size_t n = strcspn(own, "( "), dot = n;
	uint32_t k;

	if (c->pname == NULL) {
		while (dot > 0 && own[dot - 1] != '.')
			dot--;
		c->pname = dot > 0 ? bt_strpool_addf(&v->pool, "%.*s::%.*s", (int)(dot - 1),
		    own, (int)(n - dot), own + dot) :
		    bt_strpool_addf(&v->pool, "%.*s", (int)n, own);
	}
	own = c->pname;
	inner = ai->depth ? c->inl[ai->chain + ai->depth - 1].name : own;
	s = bt_strpool_addf(&v->pool, "%s@%d (line %u)", inner ? inner : "?", (int)ai->bci,
	    ai->line);
	for (k = ai->depth; k-- > 0;) {
		const struct bt_row_inline *fr = &c->inl[ai->chain + k];
		const char *caller = k ? c->inl[ai->chain + k - 1].name : own;

		if (fr->has_bci)
			s = bt_strpool_addf(&v->pool, "%s / %s@%d (line %u)", s,
			    caller ? caller : "?", (int)fr->call_bci, fr->call_line);
	}
	return s;
}

/* The inline frames entered at ai and its source line, as rows before it. */
static void
source_rows(struct ann *c, const struct bt_ainsn *ai)
{
	struct bt_view *v = c->v;
	struct bt_row *r;
	const char *t;

	if (ai->depth != c->prev_depth || ai->chain != c->prev_chain) {
		view_inline_rows(v, c->a, ai, c->prev_chain, c->prev_depth, c->inl,
		    c->fname, c->func, c->wpre, c->o);
		c->prev_chain = ai->chain;
		c->prev_depth = ai->depth;
		c->prev_file = NULL;
	}
	if (!new_place(c, ai))
		return;
	t = view_source_text(c->sel, &c->src, ai->file, ai->line);
	r = view_add_row(v, BT_ROW_SOURCE);
	r->func = c->func;
	r->file = ai->file;
	r->line = ai->line;
	r->text = t ? t : "";
	view_add_cell(v, view_pad(v, "", c->wpre, false), BT_STYLE_NORMAL);
	if (ai->flags & BT_AI_BCI) {
		/* HotSpot's code: the bytecode too, as perfasm's "valueOf@23" */
		r->flags |= BT_ROW_F_BCI;
		r->bci = (uint16_t)ai->bci;
		r->detail = perfasm_frames(c, ai);
		view_add_cell(v, bt_strpool_addf(&v->pool, "%s @%d",
		    view_file_line(v, c->src.base, ai->line), (int)ai->bci), BT_STYLE_SOURCE);
	} else
		view_add_cell(v, view_file_line(v, c->src.base, ai->line), BT_STYLE_SOURCE);
	view_add_cell(v, view_cat(v, "  ", r->text), BT_STYLE_SOURCE);
	c->prev_file = ai->file;
	c->prev_line = ai->line;
	c->prev_bci = ai_bci(ai);
}

/* The data type a load or store reaches: "struct point +8 (y)", copied. */
static void
dtype_field(struct bt_view *v, struct bt_row *r, const struct bt_data_type *dt)
{
	struct bt_row_dtype *d = view_alloc(v, sizeof(*d));

	memset(d, 0, sizeof(*d));
	d->type = bt_strpool_addstr(&v->pool, dt->type);
	d->member = dt->member ? bt_strpool_addstr(&v->pool, dt->member) : NULL;
	d->var = bt_strpool_addstr(&v->pool, dt->var);
	d->offset = dt->offset;
	d->text = d->member ? bt_strpool_addf(&v->pool, "%s +%lld (%s)", d->type,
	    (long long)d->offset, d->member) : bt_strpool_addf(&v->pool, "%s +%lld",
	    d->type, (long long)d->offset);
	r->dtype = d;
	if (r->detail == NULL)
		r->detail = bt_strpool_addf(&v->pool, "%s: %s", d->var, d->text);
}

/* An instruction row's flags, targets and the names they keep copies of. */
static void
insn_fields(struct ann *c, struct bt_row *r, size_t i)
{
	const struct bt_ainsn *ai = &c->a->insns.v[i];

	if (ai->flags & BT_AI_SKID_TARGET)
		r->flags |= BT_ROW_F_SKID_TARGET;
	if ((ai->flags & (BT_AI_SKID_TARGET | BT_AI_SKID_GUESS)) ==
	    (BT_AI_SKID_TARGET | BT_AI_SKID_GUESS))
		r->flags |= BT_ROW_F_SKID_GUESS;
	if (ai->flags & BT_AI_LOOP_HEAD)
		r->flags |= BT_ROW_F_LOOP_HEAD;
	if (ai->flags & BT_AI_BACK_EDGE)
		r->flags |= BT_ROW_F_BACK_EDGE;
	if (ai->region >= 0 && (i == 0 || c->a->insns.v[i - 1].region != ai->region))
		r->flags |= BT_ROW_F_REGION_START;
	if (ai->in.kind == BT_INSN_IJUMP || ai->in.kind == BT_INSN_ICALL)
		r->flags |= BT_ROW_F_INDIRECT;
	if (ai->in.kind == BT_INSN_CALL) {
		r->flags |= BT_ROW_F_CALL;
		r->has_target = true;
		r->target = ai->in.target;
	} else if (ai->in.kind == BT_INSN_JUMP || ai->in.kind == BT_INSN_CJUMP) {
		r->flags |= BT_ROW_F_JUMP;
		r->has_target = true;
		r->target = ai->in.target;
	}
	/* the annotation's strings go with it: the row keeps copies */
	if (ai->target_name != NULL)
		r->target_name = bt_strpool_addstr(&c->v->pool, ai->target_name);
	if (ai->in.flags & BT_INSN_F_RIPREL) {
		r->has_mem_target = true;
		r->mem_target = ai->in.mem_target;
		if (ai->mem_name != NULL)
			r->mem_name = bt_strpool_addstr(&c->v->pool, ai->mem_name);
	}
	if (ai->dtype)
		dtype_field(c->v, r, &c->a->dtypes.v[ai->dtype - 1]);
}

/* The number cells, padded as they are formatted (no printf: 30,000 rows). */
static void
number_cells(struct ann *c, const struct bt_row *r, const struct bt_ainsn *ai,
	     double primary)
{
	const struct bt_view_opts *o = c->o;
	struct bt_view *v = c->v;
	const char *c0, *c1, *c2;

	if (o->num == BT_NUM_PERCENT) {
		double pct = r->percent, apct = r->adjusted_percent;
		double first = o->skid ? ai->adjusted : (double)ai->samples;
		double second = o->skid ? (double)ai->samples : ai->adjusted;
		/* blank, not 0.00, where nothing shows at this precision */
		c0 = (o->skid ? apct : pct) >= 0.005 || (first > 0 && !o->skid) ?
		    view_pad_2f(v, "", o->skid ? apct : pct, c->wnum) :
		    view_pad(v, "", c->wnum, true);
		c1 = (o->skid ? pct : apct) >= 0.005 || (second > 0 && o->skid) ?
		    view_pad_2f(v, "", o->skid ? pct : apct, c->wadj + 1) :
		    view_pad(v, "", c->wadj + 1, true);
		c2 = ai->samples ? view_pad_u64(v, ai->samples, c->wsmp + 1) :
		    view_pad(v, "", c->wsmp + 1, true);
	} else if (o->num == BT_NUM_PER_OP) {
		/* cost per op: the period (raw, skid-adjusted) over the iterations */
		double raw = (double)ai->period * v->per_op.scale;
		double adj = ai->adjusted_period * v->per_op.scale;
		c0 = (o->skid ? adj > 0 : ai->period > 0) ? view_per_op_cell(v,
		    o->skid ? adj : raw, c->wnum) : view_pad(v, "", c->wnum, true);
		c1 = (o->skid ? ai->period > 0 : adj > 0) ? view_per_op_cell(v,
		    o->skid ? raw : adj, c->wadj + 1) : view_pad(v, "", c->wadj + 1, true);
		c2 = ai->samples ? view_pad_u64(v, ai->samples, c->wsmp + 1) :
		    view_pad(v, "", c->wsmp + 1, true);
	} else {
		/* counts: samples or period, raw and skid-adjusted */
		bool per = o->num == BT_NUM_PERIOD;
		uint64_t raw = per ? ai->period : ai->samples;
		uint64_t adj = (uint64_t)((per ? ai->adjusted_period : ai->adjusted) + 0.5);
		c0 = (o->skid ? adj : raw) ? view_pad_u64(v, o->skid ? adj : raw, c->wnum) :
		    view_pad(v, "", c->wnum, true);
		c1 = (o->skid ? raw : adj) ? view_pad_u64(v, o->skid ? raw : adj, c->wadj + 1) :
		    view_pad(v, "", c->wadj + 1, true);
		c2 = view_pad(v, "", c->wsmp + 1, true);
	}
	view_add_cell(v, c0, view_few_samples(r) ?
	    BT_STYLE_DIM : view_heat(primary, r->weight > 0));
	if (!o->compact)
		view_add_cell(v, c1, BT_STYLE_DIM);
	view_add_cell(v, c2, BT_STYLE_NORMAL);
	if (!o->compact)
		view_add_cell(v, o->num == BT_NUM_PERCENT && ai->samples ?
		    view_pad_2f(v, "±", (r->ci_hi - r->ci_lo) / 2, WCI) :
		    view_pad(v, "", WCI, true), BT_STYLE_DIM);
}

/* The gutter, address, instruction and target cells. */
static void
text_cells(struct ann *c, struct bt_row *r, const struct bt_ainsn *ai,
	   double primary)
{
	const struct bt_view_opts *o = c->o;
	const struct bt_func *f = c->f;
	struct bt_view *v = c->v;
	const char *text;

	view_add_cell(v, view_ann_gutter(v, ai, o->skid, c->depth_col, c->gutters),
	    BT_STYLE_GUTTER);
	view_add_cell(v, view_hex_colon(v, o->addresses ? ai->in.addr :
	    ai->in.addr - f->start, c->waddr + 1), BT_STYLE_ADDR);
	text = view_cat(v, "  ", ai->in.text);
	r->text = text + 2;
	view_add_cell(v, text,
	    ai->in.kind == BT_INSN_CALL || ai->in.kind == BT_INSN_ICALL ?
	    BT_STYLE_CALL : r->flags & BT_ROW_F_JUMP ||
	    ai->in.kind == BT_INSN_IJUMP || ai->in.kind == BT_INSN_RET ?
	    BT_STYLE_JUMP : ai->samples ? view_heat(primary, true) : BT_STYLE_NORMAL);
	if (r->target_name != NULL) {
		/* the space before the target, the arrows' lanes (added later) */
		size_t k, before = 1 + c->lanes_room;
		const char *t;

		for (k = v->row_cells; k < v->cells.n; k++)
			before += view_ncols(v->cells.v[k].text);
		t = view_target_shown(v, r, f, o, before);
		if (!(r->flags & BT_ROW_F_JUMP && r->target >= f->start &&
		    r->target < f->end) && strncmp(t + 1, r->target_name,
		    strlen(r->target_name)) != 0)
			r->detail = r->target_name;
		view_add_cell(v, view_cat(v, " ", t), BT_STYLE_COMMENT);
	} else if (ai->in.flags & BT_INSN_F_RIPREL) {	/* objdump's "        # 4020 <sink>" */
		const char *addr = bt_strpool_addf(&v->pool, "        # %llx",
		    (unsigned long long)ai->in.mem_target), *t;
		size_t k, before = view_ncols(addr) + 1;

		if (r->mem_name == NULL) {
			view_add_cell(v, addr, BT_STYLE_COMMENT);
			return;
		}
		for (k = v->row_cells; k < v->cells.n; k++)
			before += view_ncols(v->cells.v[k].text);
		t = view_symbol_shown(v, r->mem_name, o, before);
		if (strncmp(t + 1, r->mem_name, strlen(r->mem_name)) != 0)
			r->detail = r->mem_name;
		view_add_cell(v, bt_strpool_addf(&v->pool, "%s %s", addr, t), BT_STYLE_COMMENT);
	} else if (r->dtype != NULL)	/* perf annotate --data-type's type and member */
		view_add_cell(v, view_cat(v, "  # ", r->dtype->text), BT_STYLE_COMMENT);
}

/* Instruction i's row. */
static void
insn_row(struct ann *c, size_t i)
{
	const struct bt_ainsn *ai = &c->a->insns.v[i];
	struct bt_row *r = view_add_row(c->v, BT_ROW_INSN);
	double primary;

	r->func = c->func;
	r->insn = i;
	r->addr = ai->in.addr;
	r->size = ai->in.len;
	primary = view_set_numbers(r, c->o, ai->samples, ai->period, ai->adjusted,
	    ai->adjusted_period, c->denom);
	r->file = ai->file;
	r->line = ai->line;
	if (ai->flags & BT_AI_BCI) {
		r->flags |= BT_ROW_F_BCI;
		r->bci = (uint16_t)ai->bci;
	}
	r->region = ai->region;
	r->loop_depth = ai->loop_depth;
	if (ai->depth) {
		r->inlines = c->inl + ai->chain;
		r->ninlines = ai->depth;
	}
	insn_fields(c, r, i);
	number_cells(c, r, ai, primary);
	text_cells(c, r, ai, primary);
}

/* The column headings: the compact set drops the second number and the interval. */
static void
columns(struct ann *c)
{
	const struct bt_view_opts *o = c->o;
	const char *h[7];
	size_t w[7] = { c->wnum, c->wadj + 1, c->wsmp + 1, WCI, 5 + c->depth_col,
	    c->waddr + 1, 0 };
	bool right[7] = { true, true, true, true, false, true, false };
	size_t i;

	if (o->num == BT_NUM_PERCENT) {
		h[0] = o->skid ? "Skid%" : "Percent";
		h[1] = o->skid ? "Raw%" : "Skid%";
		/*
		 * the counts are raw: under skid-adjusted percents a screen
		 * says so (the text export keeps its heading)
		 */
		h[2] = o->skid && o->width > 0 ? "RawSmp" : "Samples";
	} else if (o->num == BT_NUM_PER_OP) {
		const char *u = strcmp(c->v->per_op.unit, "ns") == 0 ? "ns/op" : "cyc/op";
		h[0] = o->skid ? "Skid/op" : u;
		h[1] = o->skid ? u : "Skid/op";
		h[2] = "Samples";
	} else {
		const char *u = o->num == BT_NUM_PERIOD ? "Period" : "Samples";
		h[0] = o->skid ? "Skid" : u;
		h[1] = o->skid ? u : "Skid";
		h[2] = "";
	}
	h[3] = o->num == BT_NUM_PERCENT ? "±95%" : "";
	h[4] = "";
	h[5] = o->addresses ? "Address" : "Offset";
	h[6] = "  Instruction";
	if (o->compact) {	/* the columns the rows have */
		h[1] = h[2], w[1] = w[2], right[1] = right[2];
		for (i = 2; i < 5; i++)
			h[i] = h[i + 2], w[i] = w[i + 2], right[i] = right[i + 2];
	}
	view_set_columns(c->v, h, w, right, o->compact ? 5 : 7);
}

/*
 * The rows of instructions [from, to), rows [base, ...) of the view, into
 * v->rows; branch targets as rows (through the instructions: rows are
 * big).
 */
void
view_ann_rows(struct ann *c, size_t from, size_t to, size_t base)
{
	const struct bt_annotation *a = c->a;
	struct bt_view *v = c->v;
	size_t i;

	for (i = from; i < to; i++) {
		if (c->o->source && a->has_lines)
			source_rows(c, &a->insns.v[i]);
		insn_row(c, i);
		if (base + v->rows.n != c->row0[i + 1])
			BT_BUG("an annotation's rows are not those measure counted");
	}
	for (i = from; i < to; i++)
		if (a->insns.v[i].target_insn >= 0)
			v->rows.v[c->row0[i + 1] - 1 - base].target_row =
			    (int32_t)(c->row0[a->insns.v[i].target_insn + 1] - 1);
}

/* Does instruction ai jump inside the function (an arrow's jump)? */
static bool
jumps_inside(const struct bt_ainsn *ai)
{
	return ai->target_insn >= 0 && (ai->in.kind == BT_INSN_JUMP ||
	    ai->in.kind == BT_INSN_CJUMP);
}

/* The jumps inside the function, as rows (n of them; malloc'ed). */
static struct view_jump *
ann_jumps(const struct ann *c, size_t *n)
{
	const struct bt_annotation *a = c->a;
	struct view_jump *j;
	size_t i, k = 0;

	/* counted first: a switch of calls has few among its instructions */
	for (i = 0; i < a->insns.n; i++)
		k += jumps_inside(&a->insns.v[i]);
	j = bt_xcalloc(k + 1, sizeof(*j));
	for (i = 0, k = 0; i < a->insns.n; i++) {
		const struct bt_ainsn *ai = &a->insns.v[i];
		if (!jumps_inside(ai))
			continue;
		j[k].row = (long)c->row0[i + 1] - 1;
		j[k].target = (long)c->row0[ai->target_insn + 1] - 1;
		j[k].loop = (ai->flags & BT_AI_BACK_EDGE) && j[k].target <= j[k].row;
		k++;
	}
	*n = k;
	return j;
}

/*
 * What comes before the rows (the function, the widths, the rows'
 * count); NULL with err set when the function has no annotation.
 */
struct bt_view *
view_ann_begin(struct ann *c, struct bt_selection *sel, size_t func,
	       const struct bt_view_opts *o, size_t window, struct bt_error *err)
{
	struct bt_view *v;

	memset(c, 0, sizeof(*c));
	c->window = window > 0 ? window : WINDOW;
	if (o == NULL)
		bt_view_opts_init(&c->opts);
	else
		c->opts = *o;
	c->o = o = &c->opts;
	c->prev_bci = -1;
	c->a = bt_selection_annotation(sel, func, o->syntax, err);
	if (c->a == NULL)
		return NULL;
	c->sel = sel;
	c->func = func;
	/*
	 * a copy: a function asked for by address joins the selection's
	 * table (bt_selection_func_at), which may move it before a window's
	 * rows are made
	 */
	c->fn = *bt_selection_func(sel, func);
	c->f = &c->fn;
	c->v = v = view_new(sel);
	view_set_func(v, func);
	c->inl = view_inline_frames(v, c->a, &c->depth_col);
	if (c->depth_col)	/* "back in f()" rows name it */
		c->fname = bt_strpool_addstr(&v->pool, c->f->name);
	c->denom = o->global_percent ? (double)bt_selection_samples(sel) :
	    (double)c->a->samples;
	v->has_per_op = bt_selection_per_op(sel, &v->per_op);
	if (o->num == BT_NUM_PER_OP && !v->has_per_op) {	/* as period, and why */
		c->opts.num = BT_NUM_PERIOD;
		BT_VEC_PUSH(v->notes, bt_strpool_addstr(&v->pool, v->per_op.why));
	}
	measure(c, window == 0);
	return v;
}

/*
 * What comes with the rows: headings, notes, the arrows (their cells in
 * the rows, when made), regions, title.
 */
void
view_ann_end(struct ann *c, struct bt_selection *sel)
{
	const struct bt_view_opts *o = c->o;
	struct bt_view *v = c->v;
	struct view_jump *j;
	size_t nj;

	columns(c);
	view_ann_notes(v, sel, c->a, c->func, o);
	if (o->num == BT_NUM_PER_OP)
		view_ann_per_op_note(v, c->a);
	if (c->guesses)
		BT_VEC_PUSH(v->notes, bt_strpool_addf(&v->pool,
		    "skid-adjusted samples marked ? are split between several "
		    "predecessors with no clear winner: a guess"));
	j = ann_jumps(c, &nj);
	if (view_arrows_make(v, o, c->row0[c->a->insns.n], j, nj, c->prefix)) {
		if (v->lazy == NULL)
			view_arrows_cells(v, 0, c->lanes_at, 1);
		view_arrows_heading(v, c->lanes_at, 1);
	}
	free(j);
	view_ann_regions(v, c->a, c->denom);
	view_set_title(v, "", view_name(v, c->f->name, o), "  %s  %.2f%% of %llu samples",
	    c->f->module_name, c->f->percent, (unsigned long long)bt_selection_samples(sel));
}

struct bt_view *
bt_view_annotate(struct bt_selection *sel, size_t func, const struct bt_view_opts *o,
		 struct bt_error *err)
{
	struct ann c;
	struct bt_view *v = view_ann_begin(&c, sel, func, o, 0, err);

	if (v == NULL)
		return NULL;
	view_ann_rows(&c, 0, c.a->insns.n, 0);
	view_seal(v);
	view_ann_end(&c, sel);
	free(c.row0);
	free(c.marks);
	return v;
}
