/*
 * The view's insides, shared by its builders: view.c (rows, cells and the
 * helpers every view uses), view-tables.c (header, hot functions,
 * findings, timeline), view-annotate.c, view-source.c.
 */
#ifndef BENCHTUI_VIEW_INT_H
#define BENCHTUI_VIEW_INT_H

#include "base.h"
#include "pattern.h"
#include "benchtui/view.h"

#define HOT_MIN_PERCENT 0.5	/* BT_ROW_F_HOT and the mild heat colour */

/* An instruction row's prediction (view-mca.c). */
struct view_pred {
	size_t row;
	struct bt_view_pred p;
};

struct bt_view {
	struct bt_selection *sel;
	BT_VEC(struct bt_row) rows;
	BT_VEC(struct bt_cell) cells;	/* each row's follow the row before's */
	size_t row_cells;		/* the last row's first cell */
	bool cells_moved;		/* cells reallocated: seal points rows again */
	struct bt_row columns;
	struct bt_cell colcells[16];
	BT_VEC(size_t) hot;
	BT_VEC(const char *) notes;
	BT_VEC(struct bt_view_region) regions;
	const char *title;
	size_t title_start, title_len;	/* the shortenable name in it */
	bool has_func;
	struct bt_view_func func;
	bool has_summary;
	struct bt_view_summary summary;
	long arrow_col;
	struct view_arrows *arrows;	/* an annotation's branch arrows (view-arrows.c) */
	BT_VEC(struct bt_view_loop) loops;	/* view-mca.c */
	BT_VEC(struct view_pred) preds;		/* by row, ascending */
	bool has_per_op;		/* per_op is known (view-perop.c) */
	struct bt_per_op per_op;
	struct bt_strpool pool;
	const char *blanks[64];		/* shared all-space cells, by width */
	struct view_lazy *lazy;		/* rows made a window at a time (view-annotate.c) */
};

struct bt_view *view_new(struct bt_selection *sel);
struct bt_row *view_add_row(struct bt_view *v, enum bt_row_kind kind);
void view_grow_cells(struct bt_view *v);

/* Inline: a big function's view adds a quarter of a million cells. */
static inline void
view_add_cell(struct bt_view *v, const char *text, enum bt_style style)
{
	if (v->cells.n == v->cells.alloc)
		view_grow_cells(v);
	v->cells.v[v->cells.n].text = text;
	v->cells.v[v->cells.n++].style = style;
}
/*
 * A row's cells are the ones added after it (and before the next row);
 * each row points at them as the next is added. Call seal once at the end:
 * it finishes the last row and builds the hot order.
 */
void view_seal(struct bt_view *v);
/* seal without the hot order: a window's rows (view-annotate.c) */
void view_finish(struct bt_view *v);
/* v->hot: rows[0..n) (ascending) of weights w[0..n), hottest first. */
void view_hot_of(struct bt_view *v, const size_t *rows, const double *w, size_t n);

/*
 * An annotation whose rows are made as they are asked for
 * (bt_view_annotate_stream, bt_view_annotate_lazy): window instructions'
 * rows at a time (0: an export's), the last nslots windows kept (1 to 4;
 * a row is valid until nslots other windows have been asked for since).
 * Its rows, the row i asks for (made with its window), the row of the
 * instruction containing addr (-1 none: from the annotation, no row made).
 */
struct view_lazy;
struct bt_view *view_annotate_windows(struct bt_selection *sel, size_t func,
				      const struct bt_view_opts *o, size_t window,
				      size_t nslots, struct bt_error *err);
size_t view_lazy_nrows(const struct view_lazy *l);
const struct bt_row *view_lazy_row(struct bt_view *v, size_t i);
long view_lazy_find_addr(const struct view_lazy *l, uint64_t addr);
void view_lazy_free(struct view_lazy *l);
void view_set_columns(struct bt_view *v, const char *const *heads,
		      const size_t *widths, const bool *right, size_t n);
/* The function a view is about (sets v->func). */
void view_set_func(struct bt_view *v, size_t fi);
/* The title: before, name (what a narrow screen may shorten), then printf of fmt. */
void view_set_title(struct bt_view *v, const char *before, const char *name,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * perf's form of a name (bt_name_short: no return type, no parameters;
 * templates folded with fold), or name itself when that is not a C++ name
 * or already short. Never NULL; the result lives in the view.
 */
const char *view_short_name(struct bt_view *v, const char *name, bool fold);
/* name as o->names shows it. */
const char *view_name(struct bt_view *v, const char *name, const struct bt_view_opts *o);
/* Does re (pattern.h) match name in any of the forms of enum bt_names? */
bool view_name_matches(const char *name, const regex_t *re);

/* size bytes in the view's pool, aligned for any of its structs (not zeroed). */
void *view_alloc(struct bt_view *v, size_t size);
/* Columns a UTF-8 string takes (one per character). */
size_t view_ncols(const char *s);
/* s padded with spaces to width columns, right-aligned or left. */
const char *view_pad(struct bt_view *v, const char *s, size_t width, bool right);
/* s cut to width columns, its end replaced by "…" if it was longer. */
const char *view_cut(struct bt_view *v, const char *s, size_t width);
/*
 * s cut to width columns in its middle ("BenchmarkCRC32/p…e=15/align=0-2"):
 * its start and its end, which tells rows of one family apart, stay.
 */
/* The byte offset of column col of s (its length past the end). */
size_t view_col_offset(const char *s, size_t col);
const char *view_cut_middle(struct bt_view *v, const char *s, size_t width);
/*
 * Of n rows showing out[] for names[], those whose shown form another,
 * different name shares: clash[] marked, idx[] the rows sorted by shown
 * form (group[], when not NULL, numbering each run of one form). True
 * when any clash.
 */
bool view_clashes(const char *const *names, const char **out, size_t n,
		  size_t *idx, size_t *group, bool *clash);
/*
 * name in width columns: its template arguments folded, the deepest
 * first, as far as needed (bt_name_fit), then its middle cut.
 */
const char *view_fit_name(struct bt_view *v, const char *name, size_t width);
/*
 * The header's hot path, whole (NULL without call chains); *shown the
 * same in width columns (0: whole).
 */
const char *view_hot_path(struct bt_view *v, struct bt_selection *sel, size_t width,
			  const char **shown);
/*
 * names[0..n) joined by sep ("a <- b <- main") in width columns: each
 * name fitted to the widest width that lets the line fit, at least 16;
 * else frames in the middle go ("a <- … <- main"; the first and the last
 * stay) and the names shrink to 8; what still does not fit loses its
 * middle. NULL when n is 0 or past 256.
 */
const char *view_chain_fit(struct bt_view *v, const char *const *names, size_t n,
			   const char *sep, size_t width);
/* The width names fit in (bt_view_opts' width, else text_width), 0: whole. */
size_t view_names_width(const struct bt_view_opts *o);
/*
 * names[0..n) (as a table shows them, unfitted) each in width columns
 * (view_fit_name) into out[]; where two different names would read the
 * same, the template arguments that tell them apart stay unfolded, then
 * the cut shows where they differ ("ns::Ev…Align<32> >, 8…::run<…>"), and
 * only if that is not enough either is a name left wider than width.
 * out may be names.
 */
void view_fit_names(struct bt_view *v, const char *const *names, size_t n, size_t width,
		    const char **out);
/*
 * names[0..n) each cut to width columns (view_cut_middle) into out[],
 * cut less where two different names would read the same: never two
 * identical cells for two names. whole: every name uncut (exports).
 */
void view_cut_distinct(struct bt_view *v, const char *const *names, size_t n,
		       size_t width, bool whole, const char **out);
/*
 * shown[i] is names[i] folded (--names folded): where two different
 * names fold the same ("Table<…>::reduce<…>" for two instantiations),
 * show those unfolded, or whole when that is not enough either.
 */
void view_unfold_clashes(struct bt_view *v, const char *const *names, size_t n,
			 const char **shown);
/* a then b, in the pool (no printf: this runs for every row). */
const char *view_cat(struct bt_view *v, const char *a, const char *b);
/* "file.c:42" */
const char *view_file_line(struct bt_view *v, const char *file, unsigned line);
/* "1a2b:" right-aligned in width columns (view_pad's result, without a copy) */
const char *view_hex_colon(struct bt_view *v, uint64_t x, size_t width);
/* printf "%s%.2f" of prefix and x, then "%llu" of x, right-aligned the same way */
const char *view_pad_2f(struct bt_view *v, const char *prefix, double x, size_t width);
const char *view_pad_u64(struct bt_view *v, uint64_t x, size_t width);
const char *view_basename(const char *path);

/*
 * view-arrows.c: every branch arrow of an annotation's rows (their
 * target_row and flags), packed into lanes, drawn in a cell put in at
 * column at of every row (after lead spaces; the headings get a blank);
 * prefix is what an instruction row has before its text, which with the
 * text's room bounds the lanes on a screen of o->width. Sets arrow_col.
 * Call after view_seal.
 */
struct view_arrows;
void view_arrows_add(struct bt_view *v, const struct bt_view_opts *o, size_t at,
		     size_t lead, size_t prefix);
/* A jump inside the function: its row, the row it lands on, a loop's back edge. */
struct view_jump {
	long row, target;
	bool loop;
};
/*
 * The same in steps, for rows not all made at once: the arrows of the
 * jumps j[0..n) (sorted here) over nrows rows (false: none); then the
 * lanes cells of v's rows, rows [base, base + v->rows.n) of those (after
 * view_finish); the headings' blank and arrow_col once.
 */
bool view_arrows_make(struct bt_view *v, const struct bt_view_opts *o, size_t nrows,
		      struct view_jump *j, size_t n, size_t prefix);
void view_arrows_cells(struct bt_view *v, size_t base, size_t at, size_t lead);
void view_arrows_heading(struct bt_view *v, size_t at, size_t lead);
void view_arrows_free(struct view_arrows *va);
/*
 * At most the columns view_arrows_add takes for njumps jumps on a screen
 * (o->width); 0 for a text report, whose names fit text_width as before.
 */
size_t view_arrows_room(const struct bt_view_opts *o, size_t lead, size_t prefix,
			size_t njumps);
/* x per op as the per-op column prints it ("12.34"), right-aligned in width. */
const char *view_per_op_cell(struct bt_view *v, double x, size_t width);

/* The benchmarks' indexes, in the order printed or fastest first (malloc'ed). */
size_t *view_bench_order(struct bt_selection *sel, bool fastest_first);

enum bt_style view_heat(double percent, bool any);
/* Too few samples to tell the number from noise: dimmed, not coloured hot. */
bool view_few_samples(const struct bt_row *r);
/*
 * The number fields of an instruction or line row from its raw and
 * skid-adjusted counts: percent and adjusted_percent of denom, the 95%
 * interval, the primary weight (what sorts, colours and Tab walk) and the
 * HOT flag. Returns the primary percent.
 */
double view_set_numbers(struct bt_row *r, const struct bt_view_opts *o,
			uint64_t samples, uint64_t period, double adjusted,
			double adjusted_period, double denom);

struct bt_annotation;
struct bt_ainsn;
/*
 * view-inline.c: an annotation's inline tree. The inline rows before ai
 * (one back from the frames left when ai is in none the code before it
 * was not, one for each frame entered; *common: the frames still open),
 * given the chain and depth of the instruction before it.
 */
size_t view_inline_nrows(const struct bt_annotation *a, const struct bt_ainsn *ai,
			 uint32_t prev_chain, uint32_t prev_depth, size_t *common);
/*
 * Those rows: "back in g()" at the depth it goes back to, "inlined f()
 * from x.c:12" for each frame entered, indented by its depth, after wpre
 * columns; inl: view_inline_frames's.
 */
void view_inline_rows(struct bt_view *v, const struct bt_annotation *a,
		      const struct bt_ainsn *ai, uint32_t prev_chain, uint32_t prev_depth,
		      const struct bt_row_inline *inl, const char *func_name, size_t func,
		      size_t wpre, const struct bt_view_opts *o);
/*
 * The annotation's inline frames as the rows keep them (a view outlives
 * its selection); *any: some instruction is inlined code.
 */
const struct bt_row_inline *view_inline_frames(struct bt_view *v,
					       const struct bt_annotation *a, bool *any);

/* view-annotate-notes.c: what an annotation's view shows beside its rows */
struct bt_annotation;
struct bt_ainsn;
#define NDEPTHS 11	/* inline depth: none, 1-9, 10 or more */
#define NGUTTERS (81 * NDEPTHS)	/* 3 skid marks, 3 loop bars of 3 kinds, depths */
/*
 * An instruction's gutter: skid mark, loop bars, then (depth_col) its
 * inline depth; each of the NGUTTERS made once, into made.
 */
const char *view_ann_gutter(struct bt_view *v, const struct bt_ainsn *ai, bool skid_col,
			    bool depth_col, const char **made);
/* The hot order of a view whose rows are made later (instruction i's last row: row0[i + 1] - 1). */
void view_ann_hot(struct bt_view *v, const struct bt_annotation *a,
		  const struct bt_view_opts *o, const uint32_t *row0, double denom);
/* The hot regions, hottest first, from the annotation (the rows' sums). */
void view_ann_regions(struct bt_view *v, const struct bt_annotation *a, double denom);
/* The notes above the rows: no lines, a missing or newer source, cut code. */
void view_ann_notes(struct bt_view *v, struct bt_selection *sel,
		    const struct bt_annotation *a, size_t func,
		    const struct bt_view_opts *o);
/* Under the per-op column: what it is of, and the function's sum. */
void view_ann_per_op_note(struct bt_view *v, const struct bt_annotation *a);
/* "<sym+0xoff>", the name fitted to what the row leaves after before columns. */
const char *view_symbol_shown(struct bt_view *v, const char *full,
			      const struct bt_view_opts *o, size_t before);
/* A branch or call target as the row shows it ("<+0x28> ↑" inside the function). */
const char *view_target_shown(struct bt_view *v, const struct bt_row *r,
			      const struct bt_func *f, const struct bt_view_opts *o,
			      size_t before);

#endif
