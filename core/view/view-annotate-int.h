/*
 * An annotation's view as view-annotate.c lays it out, shared with
 * view-annotate-lazy.c, which makes its rows a window at a time.
 */
#ifndef BENCHTUI_VIEW_ANNOTATE_INT_H
#define BENCHTUI_VIEW_ANNOTATE_INT_H

#include "view/view-int.h"

struct bt_annotation;
struct bt_func;
struct bt_srcfile;

/* The rows' source file: looked up once for all its lines in a row. */
struct src_at {
	const char *path, *base;
	const struct bt_srcfile *sf;
};

/*
 * An export's rows are made a window of WINDOW instructions at a time
 * (about twice as many rows with source lines), into the same memory.
 */
#define WINDOW 2048

/* Where the interleaving of source and inline rows is, before an instruction. */
struct place {
	const char *file;
	unsigned line;
	int32_t bci;
	uint32_t chain, depth;
};

/*
 * One annotation's rows as they are laid out: the column widths (from a
 * first pass), and where the interleaving of source and inline rows is.
 */
struct ann {
	struct bt_view_opts opts;		/* o's, or as period (no per-op scale) */
	struct bt_view *v;
	struct bt_selection *sel;
	const struct bt_annotation *a;
	const struct bt_func *f;		/* fn: its rows are made later */
	struct bt_func fn;			/* (a selection's table grows) */
	const struct bt_view_opts *o;
	size_t func;
	size_t wnum, wadj, wsmp, waddr, wpre;
	size_t lanes_at, prefix, lanes_room;	/* the branch arrows' (view-arrows.c) */
	double denom;
	const char *prev_file;
	unsigned prev_line;
	int32_t prev_bci;			/* -1: none */
	uint32_t prev_chain, prev_depth;
	const struct bt_row_inline *inl;	/* the frames as the rows keep them */
	const char *fname;			/* the function's name, the view's copy */
	const char *pname;			/* as perfasm names it (perfasm_frames) */
	bool depth_col;				/* the gutter shows the inline depth */
	size_t guesses;
	uint32_t *row0;				/* instruction i's first row; [n]: the rows */
	size_t window;				/* instructions a window (marks) */
	struct place *marks;			/* before each window's first instruction */
	struct src_at src;
	const char *gutters[NGUTTERS];
};

/*
 * What comes before the rows (the function, the widths, the rows'
 * count, where each window of window instructions starts; 0: the rows
 * all made at once, their arrays sized); NULL with err set when the
 * function has no annotation.
 */
struct bt_view *view_ann_begin(struct ann *c, struct bt_selection *sel, size_t func,
			       const struct bt_view_opts *o, size_t window,
			       struct bt_error *err);
/*
 * The rows of instructions [from, to), rows [base, ...) of the view, into
 * v->rows.
 */
void view_ann_rows(struct ann *c, size_t from, size_t to, size_t base);
/*
 * What comes with the rows: headings, notes, the arrows (their cells in
 * the rows, when made), regions, title.
 */
void view_ann_end(struct ann *c, struct bt_selection *sel);

#endif
