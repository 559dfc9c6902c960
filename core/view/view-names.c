/*
 * Names that fit their column (docs/browser.md "Long names"): a C++ name
 * wider than its column has its template argument lists folded, the
 * deepest first and only as far as needed (bt_name_fit), then its middle
 * cut; two different names of one table never read the same: where they
 * would, the lists that tell them apart stay unfolded, and a cut that
 * would hide their difference shows it between two "…".
 */
#include <stdlib.h>
#include <string.h>

#include "symbols/symbols.h"
#include "view/view-int.h"

#define MAX_LISTS 256
#define CUT_PASSES 5
#define MAX_COMPARED 512	/* others of a group a name is compared with, a pass */


/* name folded (keeping the lists keep) as far as it needs to fit width: in the pool. */
static const char *
folded(struct bt_view *v, const char *name, size_t width, const bool *keep)
{
	struct bt_strbuf sb = BT_STRBUF_INIT;
	const char *out;

	if (view_ncols(name) <= width)
		return name;
	bt_name_fit(name, width, keep, &sb);
	out = strcmp(sb.buf, name) == 0 ? name : bt_strpool_add(&v->pool, sb.buf, sb.len);
	bt_strbuf_release(&sb);
	return out;
}

size_t
view_names_width(const struct bt_view_opts *o)
{
	return o->whole_names ? 0 : o->width ? o->width : o->text_width;
}

#define ELLIPSIS "\xe2\x80\xa6"

/* s with every "……" (a cut next to a fold's "<…>") as one "…". */
static const char *
squeeze(struct bt_view *v, const char *s)
{
	struct bt_strbuf sb = BT_STRBUF_INIT;
	const char *p, *out;

	if (strstr(s, ELLIPSIS ELLIPSIS) == NULL)
		return s;
	for (p = s; *p; ) {
		bt_strbuf_add(&sb, p, strncmp(p, ELLIPSIS, 3) == 0 ? 3 : 1);
		if (strncmp(p, ELLIPSIS, 3) == 0)
			while (strncmp(p, ELLIPSIS, 3) == 0)
				p += 3;
		else
			p++;
	}
	out = bt_strpool_add(&v->pool, sb.buf, sb.len);
	bt_strbuf_release(&sb);
	return out;
}

const char *
view_fit_name(struct bt_view *v, const char *name, size_t width)
{
	return squeeze(v, view_cut_middle(v, folded(v, name, width, NULL), width));
}

#define MAX_WINDOWS 4
#define MAX_COLS 32	/* places a name differs from others, remembered */

/*
 * Windows of win columns (each starting a third of it before its column)
 * that show columns col[0..n) (ascending) of a name cols wide, past its
 * first head and before its last tail columns, into ws[] (at most max:
 * the last); returns how many it takes.
 */
static size_t
windows(const size_t *col, size_t n, size_t cols, size_t head, size_t tail, size_t win,
	size_t *ws, size_t max)
{
	size_t i, k = 0, end = 0;

	for (i = 0; i < n; i++) {
		size_t w;

		if (col[i] < head || col[i] + tail >= cols || (k && col[i] < end))
			continue;	/* shown already */
		w = col[i] > win / 3 ? col[i] - win / 3 : 0;
		w = BT_MIN(w, cols - tail > win ? cols - tail - win : 0);
		w = BT_MAX(w, k ? end : head);
		if (k >= max)	/* the last places tell the closest names apart */
			memmove(ws, ws + 1, (max - 1) * sizeof(*ws));
		ws[BT_MIN(k, max - 1)] = w;
		k++;
		end = w + win;
	}
	return k;
}

/*
 * s (wider than width) cut so that columns col[0..n) (ascending: where s
 * differs from names that read the same) show: its start, "…", a window
 * around each (as few as cover them, at most MAX_WINDOWS), "…", its end
 * ("ns::Ev…Align<32> >, 8…Packet<double, 8>…::run<…>"); windows that meet
 * are one.
 */
static const char *
cut_at(struct bt_view *v, const char *s, size_t width, const size_t *col, size_t n)
{
	size_t cols = view_ncols(s), seg[MAX_WINDOWS + 2][2], nseg = 0, i, k, nw = 0;
	size_t head = 0, tail = 0, win = 0, ws[MAX_WINDOWS];
	struct bt_strbuf sb = BT_STRBUF_INIT;
	const char *out;

	for (k = 1; k <= MAX_WINDOWS && width >= 3 * k + 4; k++) {
		head = width / 8;
		tail = width / 4;
		if (head + tail + (k + 1) + 3 * k > width) {	/* narrow: the windows first */
			head = 1;
			tail = 2;
		}
		win = (width - head - tail - (k + 1)) / k;
		nw = windows(col, n, cols, head, tail, win, ws, k);
		if (nw <= k)
			break;	/* k windows are enough */
	}
	if (n == 0 || win == 0)
		return view_cut_middle(v, s, width);
	nw = BT_MIN(nw, k > MAX_WINDOWS ? MAX_WINDOWS : k);
	seg[nseg][0] = 0;
	seg[nseg++][1] = head;
	for (i = 0; i < nw; i++) {
		if (ws[i] <= seg[nseg - 1][1])	/* meets the one before: one window */
			seg[nseg - 1][1] = BT_MIN(ws[i] + win, cols - tail);
		else {
			seg[nseg][0] = ws[i];
			seg[nseg++][1] = BT_MIN(ws[i] + win, cols - tail);
		}
	}
	if (seg[nseg - 1][1] >= cols - tail)
		seg[nseg - 1][1] = cols;
	else {
		seg[nseg][0] = cols - tail;
		seg[nseg++][1] = cols;
	}
	for (i = 0; i < nseg; i++) {
		size_t from = view_col_offset(s, seg[i][0]), to = view_col_offset(s, seg[i][1]);

		if (i)
			bt_strbuf_addstr(&sb, "\xe2\x80\xa6");
		bt_strbuf_add(&sb, s + from, to - from);
	}
	out = bt_strpool_add(&v->pool, sb.buf, sb.len);
	bt_strbuf_release(&sb);
	return out;
}

/* The column where a and b first differ. */
static size_t
diff_col(const char *a, const char *b)
{
	size_t i = 0, col = 0;

	for (; a[i] && a[i] == b[i]; i++)
		col += ((unsigned char)a[i] & 0xc0) != 0x80;
	return col;
}

/* col into the ascending set c (n of MAX_COLS), if new and there is room. */
static void
add_col(size_t *c, size_t *n, size_t col)
{
	size_t i;

	for (i = 0; i < *n && c[i] < col; i++)
		;
	if ((i < *n && c[i] == col) || *n == MAX_COLS)
		return;
	memmove(c + i + 1, c + i, (*n - i) * sizeof(*c));
	c[i] = col;
	(*n)++;
}

void
view_fit_names(struct bt_view *v, const char *const *in, size_t n, size_t width,
	       const char **out)
{
	const char **names = bt_xcalloc(n + 1, sizeof(*names));
	size_t *idx, *group, i, k;
	const char **pre, **base;
	bool *clash, **keep;
	size_t (*cols)[MAX_COLS], *ncols;
	int pass;

	memcpy(names, in, n * sizeof(*names));	/* out may be in */
	pre = bt_xcalloc(n + 1, sizeof(*pre));
	for (i = 0; i < n; i++) {
		pre[i] = folded(v, names[i], width, NULL);
		out[i] = squeeze(v, view_cut_middle(v, pre[i], width));
	}
	if (n < 2) {
		free(pre);
		free(names);
		return;
	}
	base = bt_xcalloc(n, sizeof(*base));
	memcpy(base, pre, n * sizeof(*base));
	idx = bt_xcalloc(n, sizeof(*idx));
	group = bt_xcalloc(n, sizeof(*group));
	clash = bt_xcalloc(n, sizeof(*clash));
	cols = bt_xcalloc(n, sizeof(*cols));
	ncols = bt_xcalloc(n, sizeof(*ncols));
	keep = bt_xcalloc(n, sizeof(*keep));
	/*
	 * 0: the lists that tell a name from the others of its group stay
	 * unfolded; then the cut shows where it differs from the others
	 * that still read the same (a group of several may take a pass for
	 * each place they differ); last, a few columns wider each pass
	 */
	for (pass = 0; view_clashes(names, out, n, idx, group, clash); pass++) {
		size_t w = pass <= CUT_PASSES ? width : width + 4 * (size_t)(pass - CUT_PASSES);
		bool wider = false;

		for (i = 0; i < n; i++) {
			size_t x = idx[i], seen = 0;
			bool refold = pass == 0;

			if (!clash[x])
				continue;
			for (k = group[x]; k < n && group[idx[k]] == group[x]; k++) {
				size_t y = idx[k];

				if (strcmp(names[x], names[y]) == 0)
					continue;
				/* folded alike: what tells them apart stays unfolded */
				if (strcmp(pass ? pre[x] : base[x], pass ? pre[y] : base[y]) == 0) {
					if (keep[x] == NULL)
						keep[x] = bt_xcalloc(MAX_LISTS + 1, sizeof(bool));
					bt_name_keep_differing(names[x], names[y], keep[x],
					    MAX_LISTS);
					refold = true;
				} else if (pass > 0 && seen++ < MAX_COMPARED)
					add_col(cols[x], &ncols[x], diff_col(pre[x], pre[y]));
			}
			if (refold) {
				pre[x] = folded(v, names[x], width, keep[x]);
				out[x] = squeeze(v, view_cut_middle(v, pre[x], width));
			} else if (view_ncols(pre[x]) <= w)
				out[x] = pre[x];
			else {
				out[x] = squeeze(v, cut_at(v, pre[x], w, cols[x], ncols[x]));
				wider = true;
			}
		}
		if (pass > CUT_PASSES && !wider)
			break;	/* whole, or alike whole */
	}
	free(idx);
	free(group);
	free(clash);
	free(cols);
	free(ncols);
	free(pre);
	free(base);
	for (i = 0; i < n; i++)
		free(keep[i]);
	free(keep);
	free(names);
}
