/*
 * Every branch arrow of an annotation at once (issue 27), as JMH's perfasm
 * and Perfetto's annotator draw them, where perf draws the cursor's only.
 * The jumps to one row (of one kind: closing a loop or not) are one arrow,
 * from the first of its rows to the last, drawn in one lane; arrows are
 * packed into lanes as an interval graph is coloured, the shortest first
 * and each in the innermost lane free over all its rows, so that nested
 * arrows nest outward. Lanes past what the width allows share the
 * outermost one, marked. Every row gets a cell of the lanes' characters
 * (ASCII: the text export's, and the screen's without UTF-8) at one
 * column, and the view keeps the lines of each (bt_view_lanes) for the
 * screen to draw in colour, the cursor's arrow highlighted.
 */
#include <stdlib.h>
#include <string.h>

#include "view/view-int.h"

#define LANES_EXPORT 16	/* the lanes of a view with no width (exports) */
#define LANES_MIN 2
#define TEXT_ROOM 46	/* what an instruction and its target need past the lanes */

/*
 * The lanes are not kept for every row (a switch of 100,000 cases is
 * 600,000 rows): each row's are drawn again when asked for, from the
 * arrows over its block of BLOCK rows (an index of which arrows span
 * each block), in the arrows' order, as drawing every row at once did.
 */
#define BLOCK 64

struct view_arrows {
	BT_VEC(struct bt_arrow) arrows;
	int32_t *row_arrow;		/* each row's jump's arrow, -1 */
	size_t nrows;
	size_t nlanes;
	size_t width;			/* lane columns and the head's */
	uint32_t *block;		/* block b's arrows: idx[block[b]..block[b + 1]) */
	int32_t *idx;			/* ascending within a block */
	struct bt_lane row[LANES_EXPORT + 1];	/* bt_view_lanes' (the last row asked) */
	const char *last_text;		/* the last lanes cell made: the next is often the same */
	size_t last_len;
};

static int
jump_cmp(const void *x, const void *y)
{
	const struct view_jump *a = x, *b = y;

	if (a->target != b->target)
		return a->target < b->target ? -1 : 1;
	if (a->loop != b->loop)
		return a->loop < b->loop ? -1 : 1;
	return a->row < b->row ? -1 : a->row > b->row;
}

/* A lane's intervals, disjoint, in row order. */
struct lane {
	BT_VEC(struct bt_arrow *) v;
};

/* The first of l's intervals starting after row, by binary search. */
static size_t
lane_after(const struct lane *l, long row)
{
	size_t lo = 0, hi = l->v.n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (l->v.v[mid]->first <= row)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Is l free over [first, last]? (Its intervals' ends grow with their starts.) */
static bool
lane_free(const struct lane *l, long first, long last)
{
	size_t k = lane_after(l, last);

	return k == 0 || l->v.v[k - 1]->last < first;
}

static void
lane_insert(struct lane *l, struct bt_arrow *a)
{
	size_t k = lane_after(l, a->first);

	BT_ALLOC_GROW(l->v.v, l->v.n + 1, l->v.alloc);
	memmove(l->v.v + k + 1, l->v.v + k, (l->v.n - k) * sizeof(*l->v.v));
	l->v.v[k] = a;
	l->v.n++;
}

static int
span_cmp(const void *x, const void *y)
{
	const struct bt_arrow *a = *(struct bt_arrow *const *)x, *b = *(struct bt_arrow *const *)y;
	long la = a->last - a->first, lb = b->last - b->first;

	if (la != lb)
		return la < lb ? -1 : 1;
	return a->first < b->first ? -1 : a->first > b->first;
}

/*
 * The arrows, each in the innermost lane free over its rows, the shortest
 * first; of max lanes, the last is shared (folded) by every arrow that
 * finds none free, and by those it held. Returns the lanes used.
 */
static size_t
pack(struct view_arrows *va, size_t max)
{
	size_t n = va->arrows.n, i, k, nlanes = 0;
	struct bt_arrow **order = bt_xcalloc(n + 1, sizeof(*order));
	struct lane *lanes = bt_xcalloc(max, sizeof(*lanes));
	bool folded = false;

	for (i = 0; i < n; i++)
		order[i] = &va->arrows.v[i];
	bt_qsort(order, n, sizeof(*order), span_cmp);
	for (i = 0; i < n; i++) {
		for (k = 0; k < max && !lane_free(&lanes[k], order[i]->first,
		    order[i]->last); k++)
			;
		if (k == max) {	/* none free: the last lane, shared */
			order[i]->lane = (int)max - 1;
			folded = true;
			continue;
		}
		lane_insert(&lanes[k], order[i]);
		order[i]->lane = (int)k;
		nlanes = BT_MAX(nlanes, k + 1);
	}
	for (i = 0; folded && i < n; i++)
		if ((size_t)va->arrows.v[i].lane == max - 1)
			va->arrows.v[i].flags |= BT_ARROW_FOLDED;
	for (k = 0; k < max; k++)
		free(lanes[k].v.v);
	free(lanes);
	free(order);
	return folded ? max : nlanes;
}

/* The jumps of v's rows (n of them; malloc'ed). */
static struct view_jump *
collect(const struct bt_view *v, size_t *n)
{
	struct view_jump *j;
	size_t i, k = 0;

	for (i = 0; i < v->rows.n; i++) {
		const struct bt_row *r = &v->rows.v[i];
		k += r->kind == BT_ROW_INSN && (r->flags & BT_ROW_F_JUMP) && r->target_row >= 0;
	}
	j = bt_xcalloc(k + 1, sizeof(*j));
	for (i = 0, k = 0; i < v->rows.n; i++) {
		const struct bt_row *r = &v->rows.v[i];
		if (r->kind != BT_ROW_INSN || !(r->flags & BT_ROW_F_JUMP) || r->target_row < 0)
			continue;
		j[k].target = r->target_row;
		j[k].loop = (r->flags & BT_ROW_F_BACK_EDGE) && r->target_row <= (long)i;
		j[k++].row = (long)i;
	}
	*n = k;
	return j;
}

/* The arrows of the jumps j[0..n) (sorted here): the jumps to one row of one kind make one. */
static void
arrows_of(struct view_arrows *va, struct view_jump *j, size_t n)
{
	size_t i;

	for (i = 0; i < va->nrows; i++)
		va->row_arrow[i] = -1;
	bt_qsort(j, n, sizeof(*j), jump_cmp);
	for (i = 0; i < n; i++) {
		struct bt_arrow *a;
		if (i == 0 || j[i].target != j[i - 1].target || j[i].loop != j[i - 1].loop) {
			BT_ALLOC_GROW(va->arrows.v, va->arrows.n + 1, va->arrows.alloc);
			a = &va->arrows.v[va->arrows.n++];
			memset(a, 0, sizeof(*a));
			a->target = a->first = a->last = j[i].target;
			a->flags = j[i].loop ? BT_ARROW_LOOP : 0;
		}
		a = &va->arrows.v[va->arrows.n - 1];
		a->first = BT_MIN(a->first, j[i].row);
		a->last = BT_MAX(a->last, j[i].row);
		va->row_arrow[j[i].row] = (int32_t)(va->arrows.n - 1);
	}
}

/* A line across a row's lane columns g from column c to the head's. */
static void
across(const struct view_arrows *va, struct bt_lane *g, size_t c, int arrow, bool head)
{
	size_t h = va->width - 1;

	g[c].mask |= BT_LANE_RIGHT;
	g[c].horiz = arrow;
	for (c++; c < h; c++) {
		g[c].mask |= BT_LANE_LEFT | BT_LANE_RIGHT;
		/* the outermost line across is the one seen */
		if (g[c].horiz < 0 || va->arrows.v[g[c].horiz].lane < va->arrows.v[arrow].lane)
			g[c].horiz = arrow;
	}
	g[h].mask |= BT_LANE_LEFT | (head ? BT_LANE_HEAD : 0);
	if (head || g[h].horiz < 0)
		g[h].horiz = arrow;
}

/*
 * Row r's lane columns into g (va->width of them): the arrows over it,
 * in their order, each its line down (or up) its lane, then across to
 * the heads from its jumps and to its target.
 */
static void
draw_row(const struct view_arrows *va, size_t r, struct bt_lane *g)
{
	size_t k, b = r / BLOCK;

	for (k = 0; k < va->width; k++) {
		g[k].mask = 0;
		g[k].vert = g[k].horiz = -1;
	}
	for (k = va->block[b]; k < va->block[b + 1]; k++) {
		int i = va->idx[k];
		const struct bt_arrow *a = &va->arrows.v[i];
		size_t c = va->nlanes - 1 - (size_t)a->lane;

		if ((long)r < a->first || (long)r > a->last)
			continue;
		g[c].mask |= ((long)r > a->first ? BT_LANE_UP : 0) |
		    ((long)r < a->last ? BT_LANE_DOWN : 0) |
		    (a->flags & BT_ARROW_FOLDED ? BT_LANE_FOLDED : 0);
		g[c].vert = i;
		if (va->row_arrow[r] == i)
			across(va, g, c, i, false);
		if (a->target == (long)r)
			across(va, g, c, i, true);
	}
}

/* The index of the arrows over each block of rows. */
static void
index_blocks(struct view_arrows *va)
{
	size_t nb = va->nrows / BLOCK + 1, i, b, total = 0;
	uint32_t *fill;

	va->block = bt_xcalloc(nb + 1, sizeof(*va->block));
	for (i = 0; i < va->arrows.n; i++)
		for (b = (size_t)va->arrows.v[i].first / BLOCK;
		    b <= (size_t)va->arrows.v[i].last / BLOCK; b++)
			va->block[b + 1]++;
	for (b = 0; b < nb; b++)
		va->block[b + 1] += va->block[b];
	total = va->block[nb];
	va->idx = bt_xcalloc(total + 1, sizeof(*va->idx));
	fill = bt_xcalloc(nb + 1, sizeof(*fill));
	memcpy(fill, va->block, nb * sizeof(*fill));
	for (i = 0; i < va->arrows.n; i++)
		for (b = (size_t)va->arrows.v[i].first / BLOCK;
		    b <= (size_t)va->arrows.v[i].last / BLOCK; b++)
			va->idx[fill[b]++] = (int32_t)i;
	free(fill);
}

/* One lane column as ASCII (objdump --visualize-jumps' characters). */
char
bt_lane_ascii(unsigned lines)
{
	unsigned ud = lines & (BT_LANE_UP | BT_LANE_DOWN);
	unsigned lr = lines & (BT_LANE_LEFT | BT_LANE_RIGHT);

	if (lines & BT_LANE_HEAD)
		return '>';
	if (ud && lr) {
		if (lines & BT_LANE_LEFT)
			return '+';	/* across another's line */
		return ud == BT_LANE_DOWN ? '/' : ud == BT_LANE_UP ? '\\' : '+';
	}
	if (ud)
		return lines & BT_LANE_FOLDED ? ':' : '|';
	if (lr)
		return '-';
	return ' ';
}

/* Row i's lanes cell: lead spaces, then one character a lane column. */
static const char *
lanes_text(struct bt_view *v, struct view_arrows *va, size_t i, size_t lead)
{
	char buf[64];
	size_t k, n = 0;
	bool any = false;

	draw_row(va, i, va->row);
	for (k = 0; k < lead; k++)
		buf[n++] = ' ';
	for (k = 0; k < va->width; k++) {
		unsigned l = va->row[k].mask;
		buf[n++] = bt_lane_ascii(l);
		any |= l != 0;
	}
	if (!any)
		return view_pad(v, "", n, false);
	/* a long arrow's line runs down thousands of rows: one string for them */
	if (va->last_text == NULL || va->last_len != n || memcmp(va->last_text, buf, n) != 0) {
		va->last_text = bt_strpool_add(&v->pool, buf, n);
		va->last_len = n;
	}
	return va->last_text;
}

/*
 * Where a cell goes in at column at of cells[0..n): before cell at, or
 * (right > 0) in place of the blank cell at that spans the column, as
 * left and right columns of blank either side.
 */
struct spot {
	uint32_t at;
	uint16_t left, right;
};

/* cells[0..n)'s spot for column at (*sp); returns the cells they become. */
static size_t
find_spot(const struct bt_cell *cells, size_t n, size_t at, struct spot *sp)
{
	size_t i, col = 0, w;

	/* only the cells before the column are measured */
	for (i = 0; i < n && col < at; i++, col += w) {
		w = view_ncols(cells[i].text);
		if (col + w > at && strspn(cells[i].text, " ") == strlen(cells[i].text)) {
			sp->at = (uint32_t)i;
			sp->left = (uint16_t)(at - col);
			sp->right = (uint16_t)(col + w - at);
			return n + 2;
		}
	}
	sp->at = (uint32_t)i;
	sp->left = sp->right = 0;
	return n + 1;
}

/* cells[0..n) with cell put in at sp, into out; returns the cells out has. */
static size_t
put_at_spot(struct bt_view *v, const struct bt_cell *cells, size_t n,
	    const struct spot *sp, struct bt_cell cell, struct bt_cell *out)
{
	size_t i, k = 0;

	for (i = 0; i < sp->at; i++)
		out[k++] = cells[i];
	if (sp->right > 0) {	/* splitting the blank there */
		out[k].text = view_pad(v, "", sp->left, false);
		out[k++].style = cells[i].style;
		out[k++] = cell;
		out[k].text = view_pad(v, "", sp->right, false);
		out[k++].style = cells[i++].style;
	} else
		out[k++] = cell;
	for (; i < n; i++)
		out[k++] = cells[i];
	return k;
}

#define ROW_CELLS 32	/* a row's cells copied aside while it moves */

/*
 * Every row's cells with its lanes cell at column at, in place (v's rows
 * are rows [base, base + v->rows.n) of the arrows'): the rows' new
 * counts first, then each row moved up to its new place, the last first
 * (the view's cells are not copied: a big function's are tens of
 * megabytes).
 */
void
view_arrows_cells(struct bt_view *v, size_t base, size_t at, size_t lead)
{
	struct view_arrows *va = v->arrows;
	size_t i, n, total = 0;
	struct spot *spot;
	struct bt_cell cell = { NULL, BT_STYLE_ARROW };
	struct bt_cell stack[ROW_CELLS];

	if (va == NULL || va->arrows.n == 0)
		return;
	va->last_text = NULL;	/* its pool may be gone (a window's) */
	spot = bt_xcalloc(v->rows.n + 1, sizeof(*spot));
	for (i = 0; i < v->rows.n; i++)
		total += find_spot(v->rows.v[i].cells, v->rows.v[i].ncells, at, &spot[i]);
	if (total > v->cells.alloc) {
		struct bt_cell *old = v->cells.v;
		v->cells.v = bt_xreallocarray(v->cells.v, total, sizeof(*v->cells.v));
		v->cells.alloc = total;
		for (i = 0; i < v->rows.n; i++)
			v->rows.v[i].cells = v->cells.v + (v->rows.v[i].cells - old);
	}
	for (i = v->rows.n, n = total; i-- > 0;) {
		struct bt_row *r = &v->rows.v[i];
		struct bt_cell *from = r->ncells <= ROW_CELLS ? stack :
		    bt_xcalloc(r->ncells, sizeof(*from));

		memcpy(from, r->cells, r->ncells * sizeof(*from));
		n -= r->ncells + (spot[i].right > 0 ? 2 : 1);
		cell.text = lanes_text(v, va, base + i, lead);
		r->ncells = (uint32_t)put_at_spot(v, from, r->ncells, &spot[i], cell,
		    v->cells.v + n);
		r->cells = v->cells.v + n;
		if (from != stack)
			free(from);
	}
	v->cells.n = total;
	free(spot);
}

void
view_arrows_heading(struct bt_view *v, size_t at, size_t lead)
{
	struct view_arrows *va = v->arrows;
	struct bt_cell cell, cols[BT_ARRAY_SIZE(v->colcells)];
	struct spot sp;

	if (va == NULL || va->arrows.n == 0)
		return;
	/* the headings: a blank over the lanes */
	if (v->columns.ncells + 2 <= BT_ARRAY_SIZE(v->colcells)) {
		cell.text = view_pad(v, "", lead + va->width, false);
		cell.style = BT_STYLE_TITLE;
		find_spot(v->colcells, v->columns.ncells, at, &sp);
		v->columns.ncells = put_at_spot(v, v->colcells, v->columns.ncells, &sp,
		    cell, cols);
		memcpy(v->colcells, cols, v->columns.ncells * sizeof(*cols));
	}
	v->arrow_col = (long)(at + lead);
}

/* The lanes a row of prefix columns before its text has room for. */
static size_t
lanes_max(const struct bt_view_opts *o, size_t prefix)
{
	if (o->width == 0)
		return LANES_EXPORT;
	/* what the screen leaves past the text's room */
	return o->width > prefix + TEXT_ROOM + 1 + LANES_MIN ?
	    BT_MIN(o->width - prefix - TEXT_ROOM - 1, LANES_EXPORT) : LANES_MIN;
}

size_t
view_arrows_room(const struct bt_view_opts *o, size_t lead, size_t prefix,
		 size_t njumps)
{
	/* a screen's; a text report's names fit as before (text_width) */
	if (o->width == 0 || njumps == 0)
		return 0;
	return lead + BT_MIN(njumps, lanes_max(o, prefix)) + 1;
}

bool
view_arrows_make(struct bt_view *v, const struct bt_view_opts *o, size_t nrows,
		 struct view_jump *j, size_t n, size_t prefix)
{
	struct view_arrows *va = bt_xcalloc(1, sizeof(*va));

	v->arrows = va;
	va->nrows = nrows;
	va->row_arrow = bt_xcalloc(nrows + 1, sizeof(*va->row_arrow));
	arrows_of(va, j, n);
	if (va->arrows.n == 0)
		return false;
	va->nlanes = pack(va, lanes_max(o, prefix));
	va->width = va->nlanes + 1;
	index_blocks(va);
	return true;
}

void
view_arrows_add(struct bt_view *v, const struct bt_view_opts *o, size_t at,
		size_t lead, size_t prefix)
{
	size_t n;
	struct view_jump *j = collect(v, &n);

	if (view_arrows_make(v, o, v->rows.n, j, n, prefix)) {
		view_arrows_cells(v, 0, at, lead);
		view_arrows_heading(v, at, lead);
	}
	free(j);
}

void
view_arrows_free(struct view_arrows *va)
{
	if (va == NULL)
		return;
	BT_VEC_FREE(va->arrows);
	free(va->row_arrow);
	free(va->block);
	free(va->idx);
	free(va);
}

size_t
bt_view_arrows(const struct bt_view *v, const struct bt_arrow **arrows)
{
	*arrows = v->arrows != NULL ? v->arrows->arrows.v : NULL;
	return v->arrows != NULL ? v->arrows->arrows.n : 0;
}

const struct bt_lane *
bt_view_lanes(const struct bt_view *v, size_t row, size_t *n)
{
	*n = 0;
	if (v->arrows == NULL || v->arrows->block == NULL || row >= v->arrows->nrows)
		return NULL;
	draw_row(v->arrows, row, v->arrows->row);
	*n = v->arrows->width;
	return v->arrows->row;
}

long
bt_view_row_arrow(const struct bt_view *v, size_t row)
{
	if (v->arrows == NULL || row >= v->arrows->nrows)
		return -1;
	return v->arrows->row_arrow[row];
}
