/*
 * View rows (STYLE.md §2.3): the model computes every number, width and
 * string; the browser and the exports only walk the rows. This file holds
 * what every view is made of; the builders are in view-tables.c,
 * view-annotate.c and view-source.c.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "session/query.h"
#include "symbols/symbols.h"
#include "view/view-int.h"

void
bt_view_opts_init(struct bt_view_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->num = BT_NUM_PERCENT;
	o->source = true;
	o->addresses = true;
	o->syntax = BT_ASM_ATT;
	o->names = BT_NAMES_SHORT;
}

struct bt_view *
view_new(struct bt_selection *sel)
{
	struct bt_view *v = bt_xcalloc(1, sizeof(*v));

	v->sel = sel;
	v->arrow_col = -1;
	bt_strpool_init(&v->pool);
	return v;
}

/* The last row's cells are the ones added since it: point it at them. */
static void
finish_row(struct bt_view *v)
{
	struct bt_row *r;

	if (v->rows.n == 0)
		return;
	r = &v->rows.v[v->rows.n - 1];
	r->cells = v->cells.v + v->row_cells;
	r->ncells = v->cells.n - v->row_cells;
}

struct bt_row *
view_add_row(struct bt_view *v, enum bt_row_kind kind)
{
	struct bt_row *r;

	finish_row(v);
	v->row_cells = v->cells.n;
	/* in place: a big function's rows are megabytes, written once */
	BT_ALLOC_GROW(v->rows.v, v->rows.n + 1, v->rows.alloc);
	r = &v->rows.v[v->rows.n++];
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->func = (size_t)-1;
	r->target_row = -1;
	r->region = -1;
	return r;
}

void
view_grow_cells(struct bt_view *v)
{
	const struct bt_cell *old = v->cells.v;

	BT_ALLOC_GROW(v->cells.v, v->cells.n + 1, v->cells.alloc);
	if (v->cells.v != old)	/* rows before this one point at the old cells (or none) */
		v->cells_moved = true;
}

/* bt_name_short (the one implementation of perf's form) into buf; NULL when empty. */
static const char *
short_into(const char *name, bool fold, char *buf, size_t len)
{
	bt_name_short(name, fold, buf, len);
	return buf[0] == '\0' ? NULL : buf;
}

/* Folding "<>" into "<…>" adds 3 bytes per 2: room for any name. */
#define SHORT_ROOM(n) ((n) * 2 + 16)

const char *
view_short_name(struct bt_view *v, const char *name, bool fold)
{
	char stack[1024], *buf = stack;
	size_t len = SHORT_ROOM(strlen(name));
	const char *s;

	if (strchr(name, '(') == NULL && (!fold || strchr(name, '<') == NULL))
		return name;	/* C, most Rust, Go: nothing to shorten */
	if (len > sizeof(stack))
		buf = bt_xmalloc(len);
	s = short_into(name, fold, buf, len);
	s = s == NULL || strcmp(s, name) == 0 ? name : bt_strpool_addstr(&v->pool, s);
	if (buf != stack)
		free(buf);
	return s;
}

const char *
view_name(struct bt_view *v, const char *name, const struct bt_view_opts *o)
{
	return o->names == BT_NAMES_FULL ? name :
	    view_short_name(v, name, o->names == BT_NAMES_FOLDED);
}

bool
view_name_matches(const char *name, const regex_t *re)
{
	char stack[1024], *buf = stack;
	size_t len = SHORT_ROOM(strlen(name));
	const char *s;
	bool found = false;
	int fold;

	if (bt_pattern_match(re, name))
		return true;
	if (len > sizeof(stack))
		buf = bt_xmalloc(len);
	for (fold = 0; fold < 2 && !found; fold++)
		found = (s = short_into(name, fold, buf, len)) != NULL &&
		    bt_pattern_match(re, s);
	if (buf != stack)
		free(buf);
	return found;
}

void
view_set_title(struct bt_view *v, const char *before, const char *name,
	       const char *fmt, ...)
{
	struct bt_strbuf sb = BT_STRBUF_INIT;
	va_list ap;

	bt_strbuf_addstr(&sb, before);
	bt_strbuf_addstr(&sb, name);
	v->title_start = strlen(before);
	v->title_len = strlen(name);
	va_start(ap, fmt);
	bt_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	v->title = bt_strpool_add(&v->pool, sb.buf, sb.len);
	bt_strbuf_release(&sb);
}

void
view_set_func(struct bt_view *v, size_t fi)
{
	const struct bt_func *f = bt_selection_func(v->sel, fi);

	v->has_func = f != NULL;
	if (f == NULL)
		return;
	v->func.index = fi;
	v->func.name = f->name;
	v->func.short_name = view_short_name(v, f->name, false);
	v->func.module = f->module;
	v->func.module_name = f->module_name;
	v->func.address = f->start;
	v->func.samples = f->samples;
	v->func.percent = f->percent;
}

void *
view_alloc(struct bt_view *v, size_t size)
{
	/* the pool does not align: round up */
	return (void *)(((uintptr_t)bt_strpool_alloc(&v->pool, size + 7) + 7) &
	    ~(uintptr_t)7);
}

/*
 * Columns of s: its bytes but UTF-8 continuation bytes (10xxxxxx), these
 * counted eight at a time (bit 7 set, bit 6 clear).
 */
size_t
view_ncols(const char *s)
{
	const uint64_t tops = 0x8080808080808080ULL;
	size_t len = strlen(s), n = len, i = 0;
	uint64_t x;

	for (; i + 8 <= len; i += 8) {
		memcpy(&x, s + i, 8);
		x = (x & ~(x << 1) & tops) >> 7;	/* 1 in each continuation byte */
		n -= (size_t)((x * 0x0101010101010101ULL) >> 56);
	}
	for (; i < len; i++)
		n -= ((unsigned char)s[i] & 0xc0) == 0x80;
	return n;
}

const char *
view_pad(struct bt_view *v, const char *s, size_t width, bool right)
{
	size_t n, cols, fill;
	char *buf;

	if (s[0] == '\0' && width < BT_ARRAY_SIZE(v->blanks)) {
		/* most cells of a big function are empty: share them */
		if (v->blanks[width] == NULL) {
			buf = bt_strpool_alloc(&v->pool, width);
			memset(buf, ' ', width);
			buf[width] = '\0';
			v->blanks[width] = buf;
		}
		return v->blanks[width];
	}
	n = strlen(s);
	cols = view_ncols(s);

	if (cols >= width)
		return bt_strpool_add(&v->pool, s, n);
	fill = width - cols;
	buf = bt_strpool_alloc(&v->pool, n + fill);
	if (right) {
		memset(buf, ' ', fill);
		memcpy(buf + fill, s, n);
	} else {
		memcpy(buf, s, n);
		memset(buf + n, ' ', fill);
	}
	buf[n + fill] = '\0';
	return buf;
}

const char *
view_cut(struct bt_view *v, const char *s, size_t width)
{
	size_t i = 0, col;

	if (view_ncols(s) <= width || width < 2)
		return s;
	for (col = 0; col + 1 < width; col++)	/* width - 1 characters, then … */
		for (i++; ((unsigned char)s[i] & 0xc0) == 0x80; i++)
			;
	return bt_strpool_addf(&v->pool, "%.*s\xe2\x80\xa6", (int)i, s);
}

size_t
view_col_offset(const char *s, size_t col)
{
	size_t i = 0;

	for (; s[i] && col > 0; col--)
		for (i++; ((unsigned char)s[i] & 0xc0) == 0x80; i++)
			;
	return i;
}

/* The bytes (one column each) of name s's "+0xHEX" end when s is "MODULE+0xHEX", else 0. */
static size_t
addr_tail(const char *s)
{
	const char *at = strrchr(s, '+');

	if (at == NULL || at == s || strncmp(at, "+0x", 3) != 0 || at[3] == '\0' ||
	    at[3 + strspn(at + 3, "0123456789abcdef")] != '\0' || strchr(s, ' ') != NULL)
		return 0;
	return strlen(at);
}

const char *
view_cut_middle(struct bt_view *v, const char *s, size_t width)
{
	size_t cols = view_ncols(s), head, tail, h, t;

	if (cols <= width || width < 2)
		return s;
	/* a third the start, the rest the end: the end tells rows apart */
	head = (width - 1) / 3;
	tail = width - 1 - head;
	/*
	 * a function known by its module and address keeps "+0x..." whole and
	 * loses the module's end: "libcrypto.so.3+0x240ce0" in 13 columns is
	 * "lib…+0x240ce0", never "libc…0x240ce0" (another module's name)
	 */
	if ((t = addr_tail(s)) > 0 && t + 2 <= width)
		tail = t, head = width - 1 - t;
	h = view_col_offset(s, head);
	t = view_col_offset(s, cols - tail);
	return bt_strpool_addf(&v->pool, "%.*s\xe2\x80\xa6%s", (int)h, s, s + t);
}

/* Indexes into the shown names (arg), by name, then index. */
static int
by_shown(const void *x, const void *y, void *arg)
{
	const char **out = arg;
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	int d = strcmp(out[a], out[b]);

	return d ? d : a < b ? -1 : a > b;
}

bool
view_clashes(const char *const *names, const char **out, size_t n, size_t *idx,
	     size_t *group, bool *clash)
{
	size_t i, j, k;
	bool any = false;

	for (i = 0; i < n; i++)
		idx[i] = i;
	qsort_r(idx, n, sizeof(*idx), by_shown, out);
	for (i = 0; i < n; i = j) {
		bool differ = false;

		for (j = i + 1; j < n && strcmp(out[idx[i]], out[idx[j]]) == 0; j++)
			differ |= strcmp(names[idx[i]], names[idx[j]]) != 0;
		for (k = i; k < j; k++) {
			clash[idx[k]] = differ;
			if (group != NULL)
				group[idx[k]] = i;
		}
		any |= differ;
	}
	return any;
}

void
view_cut_distinct(struct bt_view *v, const char *const *names, size_t n,
		  size_t width, bool whole, const char **out)
{
	size_t *idx, *w, i;
	bool *clash, again = true;

	for (i = 0; i < n; i++)
		out[i] = whole ? names[i] : view_cut_middle(v, names[i], width);
	if (whole || n < 2)
		return;
	idx = bt_xcalloc(n, sizeof(*idx));
	w = bt_xcalloc(n, sizeof(*w));
	clash = bt_xcalloc(n, sizeof(*clash));
	for (i = 0; i < n; i++)
		w[i] = width;
	/* the same cell for different names: show more of each */
	while (again && view_clashes(names, out, n, idx, NULL, clash)) {
		again = false;
		for (i = 0; i < n; i++) {
			size_t cols = view_ncols(names[i]);

			if (!clash[i] || w[i] >= cols)
				continue;
			w[i] = BT_MIN(w[i] + 4, cols);
			out[i] = view_cut_middle(v, names[i], w[i]);
			again = true;
		}
	}
	free(idx);
	free(w);
	free(clash);
}

#define MAX_SPANS 16

/*
 * group[x]'s short form with only the template argument lists unfolded
 * that differ from those of another name of group (names of one folded
 * form): "Table<…>::reduce<std::plus<double> >" against
 * "Table<…>::reduce<main::{lambda(double)#1}>".
 */
static const char *
unfold_differing(struct bt_view *v, const char *const *group, size_t n, size_t x)
{
	const char *sx = view_short_name(v, group[x], false), *sy;
	size_t ax[MAX_SPANS][2], ay[MAX_SPANS][2], nx, i, k;
	bool keep[MAX_SPANS] = { false };
	struct bt_strbuf sb = BT_STRBUF_INIT;
	const char *out;

	nx = bt_name_template_spans(sx, ax, MAX_SPANS);
	if (nx == 0 || nx > MAX_SPANS)
		return sx;
	for (i = 0; i < n; i++) {
		if (strcmp(group[i], group[x]) == 0)
			continue;
		sy = view_short_name(v, group[i], false);
		if (bt_name_template_spans(sy, ay, MAX_SPANS) != nx)
			return sx;
		for (k = 0; k < nx; k++)
			keep[k] |= ax[k][1] - ax[k][0] != ay[k][1] - ay[k][0] ||
			    memcmp(sx + ax[k][0], sy + ay[k][0], ax[k][1] - ax[k][0]) != 0;
	}
	for (i = 0, k = 0; k < nx; k++) {
		bt_strbuf_add(&sb, sx + i, ax[k][0] - i);
		if (keep[k])
			bt_strbuf_add(&sb, sx + ax[k][0], ax[k][1] - ax[k][0]);
		else
			bt_strbuf_addstr(&sb, "<\xe2\x80\xa6>");
		i = ax[k][1];
	}
	bt_strbuf_addstr(&sb, sx + i);
	out = bt_strpool_add(&v->pool, sb.buf, sb.len);
	bt_strbuf_release(&sb);
	return out;
}

void
view_unfold_clashes(struct bt_view *v, const char *const *names, size_t n,
		    const char **shown)
{
	size_t *idx = bt_xcalloc(n + 1, sizeof(*idx)), i, j, k;
	const char **group = bt_xcalloc(n + 1, sizeof(*group));
	const char **next = bt_xcalloc(n + 1, sizeof(*next));
	bool *clash = bt_xcalloc(n + 1, sizeof(*clash));
	int pass;

	for (pass = 0; pass < 2; pass++) {
		if (!view_clashes(names, shown, n, idx, NULL, clash))
			break;
		/* runs of one shown form in idx: each member against the others */
		for (i = 0; i < n; i = j) {
			for (j = i + 1; j < n && strcmp(shown[idx[i]], shown[idx[j]]) == 0; j++)
				;
			if (!clash[idx[i]])
				continue;
			for (k = i; k < j; k++)
				group[k - i] = names[idx[k]];
			for (k = i; k < j; k++)
				next[idx[k]] = pass == 0 ? unfold_differing(v, group, j - i,
				    k - i) : names[idx[k]];
		}
		for (i = 0; i < n; i++)
			if (clash[i])
				shown[i] = next[i];
	}
	free(idx);
	free(group);
	free(next);
	free(clash);
}

const char *
view_cat(struct bt_view *v, const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);
	char *buf = bt_strpool_alloc(&v->pool, na + nb);

	memcpy(buf, a, na);
	memcpy(buf + na, b, nb + 1);
	return buf;
}

const char *
view_file_line(struct bt_view *v, const char *file, unsigned line)
{
	char num[16];
	int n = 0;
	size_t nf = strlen(file);
	char *buf;

	do {
		num[n++] = (char)('0' + line % 10);
		line /= 10;
	} while (line);
	buf = bt_strpool_alloc(&v->pool, nf + 1 + (size_t)n);
	memcpy(buf, file, nf);
	buf[nf] = ':';
	for (int i = 0; i < n; i++)
		buf[nf + 1 + i] = num[n - 1 - i];
	buf[nf + 1 + n] = '\0';
	return buf;
}

/* s[0..n), cols columns wide, right-aligned in width columns: view_pad's result. */
static const char *
pad_right(struct bt_view *v, const char *s, size_t n, size_t cols, size_t width)
{
	size_t fill = cols < width ? width - cols : 0;
	char *buf = bt_strpool_alloc(&v->pool, n + fill);

	memset(buf, ' ', fill);
	memcpy(buf + fill, s, n);
	buf[n + fill] = '\0';
	return buf;
}

const char *
view_hex_colon(struct bt_view *v, uint64_t x, size_t width)
{
	char tmp[24], buf[24];
	int n = 0;

	do {
		tmp[n++] = "0123456789abcdef"[x & 15];
		x >>= 4;
	} while (x);
	for (int i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	buf[n] = ':';
	return pad_right(v, buf, (size_t)n + 1, (size_t)n + 1, width);
}

const char *
view_pad_2f(struct bt_view *v, const char *prefix, double x, size_t width)
{
	char buf[64];
	size_t np = strlen(prefix);
	int n;

	if (np >= 16)
		return view_pad(v, bt_strpool_addf(&v->pool, "%s%.2f", prefix, x),
		    width, true);
	memcpy(buf, prefix, np);
	n = bt_fmt_2f(buf + np, sizeof(buf) - np, x);
	if (n < 0 || (size_t)n >= sizeof(buf) - np)
		return view_pad(v, bt_strpool_addf(&v->pool, "%s%.2f", prefix, x),
		    width, true);
	return pad_right(v, buf, np + (size_t)n, view_ncols(prefix) + (size_t)n, width);
}

const char *
view_pad_u64(struct bt_view *v, uint64_t x, size_t width)
{
	char buf[24];
	size_t n = bt_fmt_u64(buf, x);

	return pad_right(v, buf, n, n, width);
}

const char *
view_basename(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/*
 * Too few samples to tell the number from noise: the 95% interval's low
 * end is under a third of the estimate (1 or 2 samples in a normal run).
 * Such numbers are dimmed instead of coloured hot.
 */
bool
view_few_samples(const struct bt_row *r)
{
	return r->samples > 0 && r->ci_lo < r->percent / 3;
}

enum bt_style
view_heat(double percent, bool any)
{
	if (!any)
		return BT_STYLE_DIM;
	if (percent >= 10)
		return BT_STYLE_HOT;
	if (percent >= 2)
		return BT_STYLE_WARM;
	if (percent >= HOT_MIN_PERCENT)
		return BT_STYLE_MILD;
	return BT_STYLE_NORMAL;
}

double
view_set_numbers(struct bt_row *r, const struct bt_view_opts *o,
		 uint64_t samples, uint64_t period, double adjusted,
		 double adjusted_period, double denom)
{
	double pct = denom > 0 ? 100.0 * (double)samples / denom : 0;
	double apct = denom > 0 ? 100.0 * adjusted / denom : 0;
	double primary = o->skid ? apct : pct;

	r->samples = samples;
	r->period = period;
	r->adjusted = adjusted;
	r->percent = pct;
	r->adjusted_percent = apct;
	bt_wilson(samples, (uint64_t)denom, &r->ci_lo, &r->ci_hi);
	r->weight = o->num == BT_NUM_PERCENT ? primary :
	    o->num == BT_NUM_SAMPLES ? (o->skid ? adjusted : (double)samples) :
	    (o->skid ? adjusted_period : (double)period);
	if (primary >= HOT_MIN_PERCENT)
		r->flags |= BT_ROW_F_HOT;
	return primary;
}

void
view_set_columns(struct bt_view *v, const char *const *heads, const size_t *widths,
		 const bool *right, size_t n)
{
	size_t i;

	for (i = 0; i < n && i < BT_ARRAY_SIZE(v->colcells); i++) {
		v->colcells[i].text = view_pad(v, heads[i], widths[i], right[i]);
		v->colcells[i].style = BT_STYLE_TITLE;
	}
	v->columns.kind = BT_ROW_TEXT;
	v->columns.cells = v->colcells;
	v->columns.ncells = i;
}

struct hot_key {
	double w;
	size_t row;
};

static int
hot_cmp(const void *a, const void *b)
{
	const struct hot_key *x = a, *y = b;

	if (x->w != y->w)
		return x->w > y->w ? -1 : 1;
	return x->row < y->row ? -1 : 1;
}

void
view_hot_of(struct bt_view *v, const size_t *rows, const double *w, size_t n)
{
	struct hot_key *k = bt_xmalloc((n + 1) * sizeof(*k));
	size_t i;

	for (i = 0; i < n; i++) {
		k[i].w = w[i];
		k[i].row = rows[i];
	}
	bt_qsort(k, n, sizeof(*k), hot_cmp);
	BT_ALLOC_GROW(v->hot.v, n, v->hot.alloc);
	for (i = 0; i < n; i++)
		v->hot.v[i] = k[i].row;
	v->hot.n = n;
	free(k);
}

/* Rows with weight, hottest first (sorted as flat keys: a big function has thousands). */
static void
build_hot(struct bt_view *v)
{
	size_t *rows = bt_xmalloc((v->rows.n + 1) * sizeof(*rows)), i, n = 0;
	double *w = bt_xmalloc((v->rows.n + 1) * sizeof(*w));

	for (i = 0; i < v->rows.n; i++)
		if (v->rows.v[i].weight > 0) {
			w[n] = v->rows.v[i].weight;
			rows[n++] = i;
		}
	view_hot_of(v, rows, w, n);
	free(rows);
	free(w);
}

void
view_finish(struct bt_view *v)
{
	size_t i, off = 0;

	finish_row(v);
	if (v->cells_moved)	/* each row's cells follow the row before's */
		for (i = 0; i < v->rows.n; i++) {
			v->rows.v[i].cells = v->cells.v + off;
			off += v->rows.v[i].ncells;
		}
	v->cells_moved = false;
}

void
view_seal(struct bt_view *v)
{
	view_finish(v);
	build_hot(v);
}

void
bt_view_free(struct bt_view *v)
{
	if (v == NULL)
		return;
	BT_VEC_FREE(v->rows);
	BT_VEC_FREE(v->cells);
	BT_VEC_FREE(v->hot);
	BT_VEC_FREE(v->notes);
	BT_VEC_FREE(v->regions);
	view_arrows_free(v->arrows);
	BT_VEC_FREE(v->loops);
	BT_VEC_FREE(v->preds);
	view_lazy_free(v->lazy);
	bt_strpool_release(&v->pool);
	free(v);
}

size_t
bt_view_nrows(const struct bt_view *v)
{
	return v->lazy != NULL ? view_lazy_nrows(v->lazy) : v->rows.n;
}

const struct bt_row *
bt_view_row(const struct bt_view *v, size_t i)
{
	/*
	 * an annotation made as it is read makes the window of rows i is in
	 * (the view is not const: bt_view_annotate_stream and
	 * bt_view_annotate_lazy made it, and say so)
	 */
	if (v->lazy != NULL)
		return view_lazy_row((struct bt_view *)v, i);
	return i < v->rows.n ? &v->rows.v[i] : NULL;
}

const struct bt_row *
bt_view_columns(const struct bt_view *v)
{
	return &v->columns;
}

const char *
bt_view_title(const struct bt_view *v)
{
	return v->title;
}

void
bt_view_title_span(const struct bt_view *v, size_t *start, size_t *len)
{
	*start = v->title_start;
	*len = v->title_len;
}

size_t
bt_view_nnotes(const struct bt_view *v)
{
	return v->notes.n;
}

const char *
bt_view_note(const struct bt_view *v, size_t i)
{
	return i < v->notes.n ? v->notes.v[i] : NULL;
}

size_t
bt_view_hot(const struct bt_view *v, const size_t **rows)
{
	*rows = v->hot.v;
	return v->hot.n;
}

const struct bt_view_summary *
bt_view_summary(const struct bt_view *v)
{
	return v->has_summary ? &v->summary : NULL;
}

const struct bt_view_func *
bt_view_func(const struct bt_view *v)
{
	return v->has_func ? &v->func : NULL;
}

size_t
bt_view_regions(const struct bt_view *v, const struct bt_view_region **regions)
{
	*regions = v->regions.v;
	return v->regions.n;
}

long
bt_view_arrow_col(const struct bt_view *v)
{
	return v->arrow_col;
}

long
bt_view_find_addr(const struct bt_view *v, uint64_t addr)
{
	size_t i, n = bt_view_nrows(v);

	if (v->lazy != NULL)	/* no rows made to find it */
		return view_lazy_find_addr(v->lazy, addr);
	for (i = 0; i < n; i++) {
		const struct bt_row *r = &v->rows.v[i];
		if (r->kind == BT_ROW_INSN && addr >= r->addr && addr < r->addr + r->size)
			return (long)i;
	}
	return -1;
}

long
bt_view_find_line(const struct bt_view *v, unsigned line)
{
	size_t i, n = bt_view_nrows(v);

	if (v->lazy != NULL)	/* an annotation's: no file lines */
		return -1;
	for (i = 0; i < n; i++) {
		const struct bt_row *r = &v->rows.v[i];
		if (r->kind == BT_ROW_LINE && r->line == line)
			return (long)i;
	}
	return -1;
}
