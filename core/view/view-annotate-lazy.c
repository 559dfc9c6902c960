/*
 * An annotation's view with its rows made as they are read
 * (bt_view_annotate_stream for an export, bt_view_annotate_lazy for the
 * browser): view-annotate.c's first pass, then a window of instructions'
 * rows at a time, into memory a later window reuses.
 */
#include <stdlib.h>
#include <string.h>

#include "annotate/annotate.h"
#include "view/view-int.h"
#include "view/view-annotate-int.h"

/*
 * A browser's rows are made BROWSE_WINDOW instructions at a time, the
 * last SLOTS windows kept (a screen's rows, and where its jumps land).
 */
#ifndef BROWSE_WINDOW
#define BROWSE_WINDOW 256
#endif
#define SLOTS 4

/*
 * One window's rows: their memory (rows, cells, the text the cells
 * show), the view's while they are made, reused by the window that
 * takes the slot next.
 */
struct slot {
	struct bt_row *rows;
	size_t nrows, arows;
	struct bt_cell *cells;
	size_t acells;
	struct bt_strpool pool;
	size_t win;		/* the window in it, (size_t)-1 none */
	size_t first;		/* its first row */
	unsigned long used;	/* when last asked for */
};

/*
 * An annotation whose rows are made a window at a time, as they are
 * read: the last nslots windows kept (one for an export, which reads
 * each row once, in order), the least recently asked for made again
 * into; what outlives a window in keep.
 */
struct view_lazy {
	struct ann c;
	struct bt_selection *sel;	/* a reference: its annotation is read */
	struct bt_strpool keep;
	size_t nslots;
	struct slot slots[SLOTS];
	struct slot *last;	/* the slot of the row last asked for */
	unsigned long clock;
};

struct bt_view *
view_annotate_windows(struct bt_selection *sel, size_t func, const struct bt_view_opts *o,
		      size_t window, size_t nslots, struct bt_error *err)
{
	struct view_lazy *l = bt_xcalloc(1, sizeof(*l));
	struct bt_view *v = view_ann_begin(&l->c, sel, func, o,
	    window > 0 ? window : WINDOW, err);
	size_t i;

	if (v == NULL) {
		free(l);
		return NULL;
	}
	v->lazy = l;
	/*
	 * the annotation read as rows are asked for is the selection's: held
	 * with it, as long as the view (a view outlives the selection it was
	 * built from: the browser frees a screen's before its view when it
	 * selects other samples)
	 */
	l->sel = bt_selection_ref(sel);
	l->nslots = BT_MAX(1, BT_MIN(nslots, (size_t)SLOTS));
	for (i = 0; i < SLOTS; i++) {
		l->slots[i].win = (size_t)-1;
		bt_strpool_init(&l->slots[i].pool);
	}
	view_ann_end(&l->c, sel);
	view_ann_hot(v, l->c.a, l->c.o, l->c.row0, l->c.denom);
	/* what is made from here on is a window's */
	l->keep = v->pool;
	bt_strpool_init(&v->pool);
	return v;
}

struct bt_view *
bt_view_annotate_stream(struct bt_selection *sel, size_t func,
			const struct bt_view_opts *o, struct bt_error *err)
{
	return view_annotate_windows(sel, func, o, WINDOW, 1, err);
}

struct bt_view *
bt_view_annotate_lazy(struct bt_selection *sel, size_t func,
		      const struct bt_view_opts *o, struct bt_error *err)
{
	return view_annotate_windows(sel, func, o, BROWSE_WINDOW, SLOTS, err);
}

size_t
view_lazy_nrows(const struct view_lazy *l)
{
	return l->c.row0[l->c.a->insns.n];
}

/* The slot window w goes into: a free one, else the least recently asked for. */
static struct slot *
lazy_slot(struct view_lazy *l)
{
	struct slot *s = &l->slots[0];
	size_t k;

	for (k = 0; k < l->nslots; k++) {
		if (l->slots[k].win == (size_t)-1)
			return &l->slots[k];
		if (l->slots[k].used < s->used)
			s = &l->slots[k];
	}
	return s;
}

/* Window w's rows, in the slot of the window least recently asked for. */
static struct slot *
lazy_window(struct bt_view *v, size_t w)
{
	struct view_lazy *l = v->lazy;
	struct ann *c = &l->c;
	size_t from = w * c->window, to = BT_MIN(from + c->window, c->a->insns.n);
	const struct place *p = &c->marks[w];
	struct slot *s = lazy_slot(l);

	/* the slot's memory is the view's while the rows are made */
	s->win = (size_t)-1;
	v->rows.v = s->rows;
	v->rows.alloc = s->arows;
	v->rows.n = 0;
	v->cells.v = s->cells;
	v->cells.alloc = s->acells;
	v->cells.n = 0;
	v->row_cells = 0;
	v->cells_moved = false;
	/* the window before's text, and what pointed into it */
	bt_strpool_release(&s->pool);
	v->pool = s->pool;
	memset(v->blanks, 0, sizeof(v->blanks));
	memset(c->gutters, 0, sizeof(c->gutters));
	c->pname = NULL;
	c->prev_file = p->file;
	c->prev_line = p->line;
	c->prev_bci = p->bci;
	c->prev_chain = p->chain;
	c->prev_depth = p->depth;
	view_ann_rows(c, from, to, c->row0[from]);
	view_finish(v);
	view_arrows_cells(v, c->row0[from], c->lanes_at, 1);
	/* and the slot's again */
	s->rows = v->rows.v;
	s->nrows = v->rows.n;
	s->arows = v->rows.alloc;
	s->cells = v->cells.v;
	s->acells = v->cells.alloc;
	s->pool = v->pool;
	memset(&v->rows, 0, sizeof(v->rows));
	memset(&v->cells, 0, sizeof(v->cells));
	bt_strpool_init(&v->pool);
	memset(v->blanks, 0, sizeof(v->blanks));
	s->win = w;
	s->first = c->row0[from];
	return s;
}

/* Is row i in slot s? */
static bool
in_slot(const struct slot *s, size_t i)
{
	return s->win != (size_t)-1 && i >= s->first && i - s->first < s->nrows;
}

const struct bt_row *
view_lazy_row(struct bt_view *v, size_t i)
{
	struct view_lazy *l = v->lazy;
	const uint32_t *row0 = l->c.row0;
	struct slot *s = l->last;
	size_t lo = 0, hi, k;

	if (i >= view_lazy_nrows(l))
		return NULL;
	if (s == NULL || !in_slot(s, i)) {
		for (k = 0, s = NULL; k < l->nslots && s == NULL; k++)
			if (in_slot(&l->slots[k], i))
				s = &l->slots[k];
		if (s == NULL) {
			/* the last window starting at or before row i */
			hi = (l->c.a->insns.n - 1) / l->c.window + 1;
			while (hi - lo > 1) {
				size_t mid = lo + (hi - lo) / 2;
				if (row0[mid * l->c.window] <= i)
					lo = mid;
				else
					hi = mid;
			}
			s = lazy_window(v, lo);
		}
		l->last = s;
	}
	s->used = ++l->clock;
	return &s->rows[i - s->first];
}

long
view_lazy_find_addr(const struct view_lazy *l, uint64_t addr)
{
	const struct bt_annotation *a = l->c.a;
	size_t lo = 0, hi = a->insns.n;

	/* the last instruction starting at or before addr */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (a->insns.v[mid].in.addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	if (a->insns.n == 0 || addr < a->insns.v[lo].in.addr ||
	    addr - a->insns.v[lo].in.addr >= a->insns.v[lo].in.len)
		return -1;
	return (long)l->c.row0[lo + 1] - 1;
}

void
view_lazy_free(struct view_lazy *l)
{
	size_t k;

	if (l == NULL)
		return;
	for (k = 0; k < SLOTS; k++) {
		free(l->slots[k].rows);
		free(l->slots[k].cells);
		bt_strpool_release(&l->slots[k].pool);
	}
	free(l->c.row0);
	free(l->c.marks);
	bt_strpool_release(&l->keep);
	bt_selection_free(l->sel);
	free(l);
}
