/*
 * One function of two builds side by side (benchtui/match.h, docs/diff.md
 * "Matching"): a row a block (its unit), then a row a pair of
 * instructions, inserted and deleted ones marked, each with its unit's
 * Δ and verdict.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "benchtui/match.h"
#include "diff/stats.h"
#include "view/view-int.h"

/* Marks: the same, the same opcode, moved, inserted, deleted. */
static const char *const marks[] = {
	[BT_AK_MATCHED] = " ", [BT_AK_OPCODE] = "~", [BT_AK_MOVED] = ">",
	[BT_AK_INSERTED] = "+", [BT_AK_DELETED] = "-", [BT_AK_BLOCK] = " ",
};

enum { C_MARK, C_AADDR, C_ATEXT, C_ASRC, C_SEP, C_BADDR, C_BTEXT, C_BSRC,
	C_A, C_B, C_DELTA, C_INT, C_MDE, C_Q, C_VERDICT, NCOL };

struct widths {
	size_t w[NCOL];
	bool compact;
};

static const char *
fmt_value(struct bt_view *v, double x, const char *unit)
{
	if (!isfinite(x))
		return "-";
	if (strcmp(unit, "share") == 0)
		return bt_strpool_addf(&v->pool, "%.2f%%", x);
	return bt_strpool_addf(&v->pool, "%.4g", x);
}

static const char *
fmt_pct(struct bt_view *v, double x)
{
	return isfinite(x) ? bt_strpool_addf(&v->pool, "%+.1f%%", 100 * x) : "-";
}

static enum bt_style
verdict_style(enum bt_verdict vd)
{
	switch (vd) {
	case BT_V_SLOWER: return BT_STYLE_HOT;
	case BT_V_FASTER: return BT_STYLE_SOURCE;
	case BT_V_UNCHANGED: return BT_STYLE_NORMAL;
	case BT_V_UNRESOLVED: return BT_STYLE_DIM;
	}
	return BT_STYLE_NORMAL;
}

static void
stat_cells(struct bt_view *v, const struct bt_align_unit *u, const char *unit,
	   const struct widths *w)
{
	const struct bt_diff_stat *s = &u->st;

	view_add_cell(v, view_pad(v, u->tested ? fmt_value(v, s->a, unit) : "-",
	    w->w[C_A], true), BT_STYLE_NORMAL);
	view_add_cell(v, view_pad(v, u->tested ? fmt_value(v, s->b, unit) : "-",
	    w->w[C_B], true), BT_STYLE_NORMAL);
	view_add_cell(v, view_pad(v, u->tested ? fmt_pct(v, s->delta) : "-",
	    w->w[C_DELTA], true), BT_STYLE_NORMAL);
	if (!w->compact) {
		view_add_cell(v, view_pad(v, u->tested && isfinite(s->lo) && isfinite(s->hi) ?
		    bt_strpool_addf(&v->pool, "[%+.1f%%, %+.1f%%]", 100 * s->lo, 100 * s->hi) :
		    "-", w->w[C_INT], true), BT_STYLE_NORMAL);
		view_add_cell(v, view_pad(v, u->tested && isfinite(s->mde) ?
		    bt_strpool_addf(&v->pool, "±%.1f%%", 100 * s->mde) : "-",
		    w->w[C_MDE], true), BT_STYLE_NORMAL);
		view_add_cell(v, view_pad(v, !u->tested ? "-" : s->q < 0.001 ? "<0.001" :
		    bt_strpool_addf(&v->pool, "%.3f", s->q), w->w[C_Q], true),
		    BT_STYLE_NORMAL);
	}
	view_add_cell(v, " ", BT_STYLE_NORMAL);
	view_add_cell(v, view_pad(v, u->tested ? bt_verdict_name(s->verdict) : "",
	    w->w[C_VERDICT], false), u->tested ? verdict_style(s->verdict) : BT_STYLE_DIM);
}

static const char *
src_of(struct bt_view *v, const struct bt_align_side *sd)
{
	if (!sd->present || sd->file == NULL || sd->line == 0)
		return "";
	return bt_strpool_addf(&v->pool, "%s:%u", view_basename(sd->file), sd->line);
}

/* file:line in width columns: the line kept, the file's start cut ("…ench.cc:23"). */
static const char *
src_fit(struct bt_view *v, const char *s, size_t width)
{
	size_t n = strlen(s);

	if (n <= width || width < 2)
		return s;
	return bt_strpool_addf(&v->pool, "…%s", s + n - (width - 1));
}

static void
side_cells(struct bt_view *v, const struct bt_align_side *sd, const struct widths *w,
	   int first, enum bt_style style)
{
	if (!w->compact)
		view_add_cell(v, sd->present ? view_hex_colon(v, sd->addr, w->w[first]) :
		    view_pad(v, "", w->w[first], false), BT_STYLE_ADDR);
	view_add_cell(v, " ", BT_STYLE_NORMAL);
	view_add_cell(v, view_pad(v, sd->present ? view_cut(v, sd->text, w->w[first + 1]) : "",
	    w->w[first + 1], false), style);
	if (!w->compact) {
		view_add_cell(v, " ", BT_STYLE_NORMAL);
		view_add_cell(v, view_pad(v, src_fit(v, src_of(v, sd), w->w[first + 2]),
		    w->w[first + 2], false), BT_STYLE_SOURCE);
	}
}

static void
insn_row(struct bt_view *v, const struct bt_align *al, size_t i,
	 const struct bt_align_unit *u, const struct widths *w)
{
	struct bt_row *r = view_add_row(v, BT_ROW_INSN);
	const struct bt_align_side *main = u->a.present ? &u->a : &u->b;
	enum bt_style sa = u->kind == BT_AK_DELETED ? BT_STYLE_WARN : BT_STYLE_NORMAL;
	enum bt_style sb = u->kind == BT_AK_INSERTED ? BT_STYLE_WARN : BT_STYLE_NORMAL;

	r->insn = i;
	r->addr = main->addr;
	r->text = main->text;
	r->file = main->file;
	r->line = main->line;
	r->samples = u->a.samples + u->b.samples;
	r->label = bt_align_kind_name(u->kind);
	r->detail = bt_strpool_addf(&v->pool, "%s: A %s%s%s | B %s%s%s",
	    bt_align_kind_name(u->kind), u->a.present ? u->a.text : "-",
	    u->a.present ? "  " : "", src_of(v, &u->a), u->b.present ? u->b.text : "-",
	    u->b.present ? "  " : "", src_of(v, &u->b));
	view_add_cell(v, marks[u->kind], u->kind == BT_AK_INSERTED ||
	    u->kind == BT_AK_DELETED ? BT_STYLE_WARN : BT_STYLE_GUTTER);
	side_cells(v, &u->a, w, C_AADDR, sa);
	view_add_cell(v, " │", BT_STYLE_GUTTER);
	side_cells(v, &u->b, w, C_BADDR, sb);
	view_add_cell(v, " ", BT_STYLE_NORMAL);
	stat_cells(v, u, bt_align_cost_unit(al), w);
}

static void
block_row(struct bt_view *v, const struct bt_align *al, size_t i,
	  const struct bt_align_unit *u, const struct widths *w)
{
	struct bt_row *r = view_add_row(v, BT_ROW_TEXT);
	size_t span = w->compact ? 1 + w->w[C_ATEXT] + 2 + 1 + w->w[C_BTEXT] :
	    w->w[C_AADDR] + 1 + w->w[C_ATEXT] + 1 + w->w[C_ASRC] + 2 +
	    w->w[C_BADDR] + 1 + w->w[C_BTEXT] + 1 + w->w[C_BSRC];
	bool changed = u->inserted + u->deleted + u->differ > 0;
	const char *what = changed ? bt_strpool_addf(&v->pool, "%s%zu+ %zu- %zu~",
	    u->hottest ? "hottest change: " : "", u->inserted, u->deleted, u->differ) : "same";
	const char *label = bt_strpool_addf(&v->pool, "── block %zu: A %s B %s: %s", u->block,
	    u->a.present ? bt_strpool_addf(&v->pool, "%" PRIx64, u->a.addr) : "-",
	    u->b.present ? bt_strpool_addf(&v->pool, "%" PRIx64, u->b.addr) : "-", what);

	r->insn = i;
	r->addr = u->a.present ? u->a.addr : u->b.addr;
	r->label = "block";
	r->detail = label;
	r->samples = u->a.samples + u->b.samples;
	if (changed && u->tested) {
		double d = fabs((isfinite(u->st.b) ? u->st.b : 0) - (isfinite(u->st.a) ? u->st.a : 0));
		r->weight = d > 0 ? d : 1e-9;
		r->flags |= BT_ROW_F_HOT;
	}
	view_add_cell(v, " ", BT_STYLE_GUTTER);
	view_add_cell(v, view_pad(v, view_cut(v, label, span), span, false),
	    changed ? BT_STYLE_TITLE : BT_STYLE_COMMENT);
	view_add_cell(v, " ", BT_STYLE_NORMAL);
	stat_cells(v, u, bt_align_cost_unit(al), w);
}

/* The header: a cell a column, the blank before each folded into it. */
static void
columns(struct bt_view *v, const struct bt_align *al, const struct widths *w)
{
	bool share = strcmp(bt_align_cost_unit(al), "share") == 0;
	const char *h[16];
	size_t hw[16], n = 0;
	bool hr[16];

#define COL(t, width, right) do { h[n] = (t); hw[n] = (width); hr[n++] = (right); } while (0)
	if (w->compact) {
		COL(" A", 2 + w->w[C_ATEXT], false);
		COL(" │ B", 3 + w->w[C_BTEXT], false);
	} else {
		COL("A", 1 + w->w[C_AADDR], true);
		COL(" instruction", 1 + w->w[C_ATEXT], false);
		COL(" source", 1 + w->w[C_ASRC], false);
		COL(" │", 2, false);
		COL("B", w->w[C_BADDR], true);
		COL(" instruction", 1 + w->w[C_BTEXT], false);
		COL(" source", 1 + w->w[C_BSRC], false);
	}
	COL(share ? "A %" : "A", 1 + w->w[C_A], true);
	COL(share ? "B %" : "B", w->w[C_B], true);
	COL("Δ", w->w[C_DELTA], true);
	if (!w->compact) {
		COL("95% interval", w->w[C_INT], true);
		COL("MDE", w->w[C_MDE], true);
		COL("q", w->w[C_Q], true);
	}
	COL(" Verdict", 1 + w->w[C_VERDICT], false);
#undef COL
	view_set_columns(v, h, hw, hr, n);
}

static void
set_widths(struct widths *w, const struct bt_view_opts *o)
{
	size_t width = o ? (o->width ? o->width : o->text_width) : 0;
	static const size_t wide[NCOL] = { 1, 6, 32, 16, 2, 6, 32, 16, 8, 8, 8, 19, 8, 7, 10 };

	memcpy(w->w, wide, sizeof(wide));
	w->compact = width > 0 && width < 100;
	if (w->compact) {
		/* mark, two texts, separators, A, B, Δ, verdict */
		size_t fixed = 1 + 1 + 2 + 1 + 1 + 7 + 7 + 8 + 1 + 10, text;
		w->w[C_A] = w->w[C_B] = 7;
		text = width > fixed + 20 ? (width - fixed) / 2 : 10;
		w->w[C_ATEXT] = w->w[C_BTEXT] = BT_MIN(text, 32);
	}
}

struct bt_view *
bt_view_match(const struct bt_align *al, const struct bt_view_opts *o)
{
	struct bt_view *v = view_new(NULL);
	struct widths w;
	size_t i, n = bt_align_nunits(al), na, nb, kinds[6] = { 0 }, verdicts[4] = { 0 };
	size_t tested = 0;
	const char *vec = bt_align_vectors(al, &na, &nb);

	set_widths(&w, o);
	for (i = 0; i < n; i++) {
		struct bt_align_unit u;

		bt_align_unit(al, i, &u);
		kinds[u.kind]++;
		if (u.tested) {
			tested++;
			verdicts[u.st.verdict]++;
		}
		if (u.kind == BT_AK_BLOCK)
			block_row(v, al, i, &u, &w);
		else
			insn_row(v, al, i, &u, &w);
	}
	columns(v, al, &w);
	view_set_title(v, "match: ", bt_align_func_name(al, 0),
	    "%s%s: %zu blocks, %zu matched, %zu inserted, %zu deleted; %zu units: "
	    "%zu slower, %zu faster, %zu unchanged, %zu unresolved (q <= %.2f); %s over %zu+%zu %s",
	    strcmp(bt_align_func_name(al, 0), bt_align_func_name(al, 1)) ? " -> " : "",
	    strcmp(bt_align_func_name(al, 0), bt_align_func_name(al, 1)) ?
	    bt_align_func_name(al, 1) : "", kinds[BT_AK_BLOCK],
	    kinds[BT_AK_MATCHED] + kinds[BT_AK_OPCODE] + kinds[BT_AK_MOVED],
	    kinds[BT_AK_INSERTED], kinds[BT_AK_DELETED], tested, verdicts[BT_V_SLOWER],
	    verdicts[BT_V_FASTER], verdicts[BT_V_UNCHANGED], verdicts[BT_V_UNRESOLVED],
	    BT_DIFF_LEVEL, strcmp(bt_align_cost_unit(al), "share") == 0 ?
	    "shares of each part's samples (no iterations)" : bt_align_cost_unit(al), na, nb, vec);
	view_seal(v);
	return v;
}

size_t
bt_view_match_hottest(const struct bt_view *v)
{
	size_t i, best = 0;
	double w = 0;

	for (i = 0; i < v->rows.n; i++)
		if (v->rows.v[i].kind == BT_ROW_TEXT && v->rows.v[i].weight > w) {
			w = v->rows.v[i].weight;
			best = i;
		}
	return best;
}
