/*
 * The flame graph (Brendan Gregg's flamegraph.pl, perf report's flame
 * view): the selection's call paths merged into a tree, root first, each
 * frame with the samples of the paths through it. One model for the
 * browser's icicle screen (F, bt_view_flame: a row a depth, each frame a
 * bar as wide as its share) and the SVG export (core/export/export-flame.c).
 */
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "view/view-int.h"

#define FLAME_MAX_ROWS 128	/* depths the icicle view shows */
#define FLAME_TEXT_WIDTH 100

struct bt_flame {
	BT_VEC(struct bt_flame_frame) v;
	struct bt_hash hash;	/* (parent, func) */
};

static uint64_t
frame_hash(size_t parent, size_t func)
{
	return bt_hash64(((uint64_t)parent << 32) ^ (uint64_t)func ^ 0x9e3779b97f4a7c15ull);
}

static enum bt_frame_kind
kind_of(const struct bt_func *fn)
{
	const char *m = fn->module != NULL ? fn->module : "";

	switch (fn->kind) {
	case BT_FK_KERNEL:
		return BT_FRAME_KERNEL;
	case BT_FK_UNKNOWN:
		return BT_FRAME_UNKNOWN;
	case BT_FK_INLINE:
		return BT_FRAME_INLINE;
	default:
		break;
	}
	if (strcmp(m, "[jit]") == 0 || strncmp(m, "/tmp/perf-", 10) == 0 ||
	    strstr(m, "jitted-") != NULL)
		return BT_FRAME_JIT;
	if (strcmp(m, "[kernel]") == 0)
		return BT_FRAME_KERNEL;
	if (strstr(fn->module_name ? fn->module_name : m, ".so") != NULL ||
	    strcmp(m, "[vdso]") == 0)
		return BT_FRAME_LIBRARY;
	return BT_FRAME_PROGRAM;
}

const char *
bt_frame_kind_name(enum bt_frame_kind kind)
{
	static const char *const names[] = { "root", "program", "library", "kernel",
		"jit", "inline", "unknown" };

	return (size_t)kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "unknown";
}

size_t
bt_flame_find(const struct bt_flame *f, size_t parent, size_t func)
{
	struct bt_hash_pos pos;
	uint32_t i;

	for (i = bt_hash_first(&f->hash, frame_hash(parent, func), &pos);
	    i != BT_HASH_NONE; i = bt_hash_next(&f->hash, &pos))
		if (f->v.v[i].parent == parent && f->v.v[i].func == func)
			return i;
	return BT_FRAME_NONE;
}

/* The child of parent for function fi, made if need be. */
static size_t
child_of(struct bt_flame *f, struct bt_selection *sel, size_t parent, size_t fi)
{
	struct bt_hash_pos pos;
	struct bt_flame_frame fr;
	uint32_t i;

	for (i = bt_hash_first(&f->hash, frame_hash(parent, fi), &pos);
	    i != BT_HASH_NONE; i = bt_hash_next(&f->hash, &pos))
		if (f->v.v[i].parent == parent && f->v.v[i].func == fi)
			return i;
	memset(&fr, 0, sizeof(fr));
	fr.name = bt_selection_func(sel, fi)->name;
	fr.module = bt_selection_func(sel, fi)->module;
	fr.func = fi;
	fr.kind = kind_of(bt_selection_func(sel, fi));
	fr.parent = parent;
	fr.child = fr.next = BT_FRAME_NONE;
	fr.depth = f->v.v[parent].depth + 1;
	BT_VEC_PUSH(f->v, fr);
	bt_hash_add(&f->hash, &pos, (uint32_t)(f->v.n - 1));
	return f->v.n - 1;
}

/* One path, leaf first, with its samples. */
static void
add_path(struct bt_flame *f, struct bt_selection *sel, const size_t *funcs, size_t n,
	 uint64_t samples)
{
	size_t at = 0, k;

	f->v.v[0].samples += samples;
	for (k = n; k-- > 0;) {
		at = child_of(f, sel, at, funcs[k]);
		f->v.v[at].samples += samples;
	}
	f->v.v[at].self += samples;
}

static const struct bt_flame_frame *sort_base;

static int
by_samples(const void *a, const void *b)
{
	const struct bt_flame_frame *x = &sort_base[*(const size_t *)a];
	const struct bt_flame_frame *y = &sort_base[*(const size_t *)b];
	int c;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	c = strcmp(x->name, y->name);
	if (c != 0)
		return c;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* Each frame's children linked, hottest first (then by name). */
static void
link_children(struct bt_flame *f)
{
	size_t n = f->v.n, i, *order = bt_xcalloc(n + 1, sizeof(size_t));

	for (i = 0; i < n; i++)
		order[i] = i;
	sort_base = f->v.v;
	qsort(order + 1, n - 1, sizeof(size_t), by_samples);
	/* backwards: each child put in front leaves the hottest first */
	for (i = n; i-- > 1;) {
		struct bt_flame_frame *fr = &f->v.v[order[i]];

		fr->next = f->v.v[fr->parent].child;
		f->v.v[fr->parent].child = order[i];
	}
	free(order);
}

struct bt_flame *
bt_flame_new(struct bt_selection *sel)
{
	struct bt_flame *f = bt_xcalloc(1, sizeof(*f));
	struct bt_flame_frame root;
	struct bt_stack *st;
	size_t n = bt_selection_chains(sel, &st), i;

	bt_hash_init(&f->hash, 256);
	memset(&root, 0, sizeof(root));
	root.name = "all";
	root.func = root.parent = root.child = root.next = BT_FRAME_NONE;
	root.kind = BT_FRAME_ROOT;
	BT_VEC_PUSH(f->v, root);
	for (i = 0; i < n; i++)
		add_path(f, sel, st[i].funcs, st[i].nfuncs, st[i].samples);
	free(st);
	if (n == 0)	/* no call chains: each function's own samples */
		for (i = 0; i < bt_selection_nfuncs(sel); i++)
			if (bt_selection_func(sel, i)->samples > 0)
				add_path(f, sel, &i, 1, bt_selection_func(sel, i)->samples);
	link_children(f);
	return f;
}

void
bt_flame_free(struct bt_flame *f)
{
	if (f == NULL)
		return;
	BT_VEC_FREE(f->v);
	bt_hash_release(&f->hash);
	free(f);
}

size_t
bt_flame_nframes(const struct bt_flame *f)
{
	return f->v.n;
}

const struct bt_flame_frame *
bt_flame_frame(const struct bt_flame *f, size_t i)
{
	return i < f->v.n ? &f->v.v[i] : NULL;
}

/* A frame placed on a row: its first sample's position under zoom. */
struct placed {
	size_t frame;
	uint64_t at;
};

struct placed_row {
	struct placed *v;
	size_t n, alloc;
};

static enum bt_style
frame_style(enum bt_frame_kind k)
{
	switch (k) {
	case BT_FRAME_ROOT:
		return BT_STYLE_TITLE;
	case BT_FRAME_PROGRAM:
		return BT_STYLE_HOT;
	case BT_FRAME_LIBRARY:
		return BT_STYLE_WARM;
	case BT_FRAME_KERNEL:
		return BT_STYLE_JUMP;
	case BT_FRAME_JIT:
		return BT_STYLE_SOURCE;
	case BT_FRAME_INLINE:
		return BT_STYLE_INLINE;
	default:
		return BT_STYLE_DIM;
	}
}

/* A bar of w columns: the name cut to w - 1, padded, then a '|'. */
static const char *
bar_text(struct bt_view *v, const char *name, size_t w)
{
	const char *s;

	if (w <= 1)
		return "|";
	s = w - 1 >= 2 ? view_cut(v, name, w - 1) : bt_strpool_addf(&v->pool, "%.1s", name);
	return view_cat(v, view_pad(v, s, w - 1, false), "|");
}

/* Where each frame under zoom starts, by depth, each depth in x order. */
static size_t
place(const struct bt_flame *f, size_t zoom, struct placed_row *rows)
{
	struct placed_row todo = { 0 };
	struct placed p = { zoom, 0 };
	size_t depth0 = f->v.v[zoom].depth, nrows = 0;

	BT_VEC_PUSH(todo, p);
	while (todo.n > 0) {
		struct placed cur = todo.v[--todo.n];
		size_t d = f->v.v[cur.frame].depth - depth0, c, k, nc = 0;
		uint64_t at = cur.at;

		if (d >= FLAME_MAX_ROWS)
			continue;
		BT_VEC_PUSH(rows[d], cur);
		nrows = BT_MAX(nrows, d + 1);
		/* children pushed last first, so they are placed in order */
		for (c = f->v.v[cur.frame].child; c != BT_FRAME_NONE; c = f->v.v[c].next)
			nc++;
		for (k = 0; k < nc; k++)
			BT_VEC_PUSH(todo, p);
		k = todo.n;
		for (c = f->v.v[cur.frame].child; c != BT_FRAME_NONE; c = f->v.v[c].next) {
			todo.v[--k].frame = c;
			todo.v[k].at = at;
			at += f->v.v[c].samples;
		}
	}
	BT_VEC_FREE(todo);
	return nrows;
}

/* Rows up to the deepest with a frame a column wide, or with cur. */
static size_t
visible_rows(const struct bt_flame *f, const struct placed_row *rows, size_t nrows,
	     uint64_t total, size_t width, size_t cur_row)
{
	size_t d, i, last = cur_row;

	for (d = cur_row + 1; d < nrows; d++)
		for (i = 0; i < rows[d].n; i++) {
			uint64_t at = rows[d].v[i].at, s = f->v.v[rows[d].v[i].frame].samples;

			if ((size_t)((double)(at + s) * width / total) >
			    (size_t)((double)at * width / total)) {
				last = d;
				break;
			}
		}
	return last + 1;
}

/* The row's own frame: the path's at depth d. */
static void
row_frame(struct bt_view *v, struct bt_row *r, const struct bt_flame *f, size_t fr,
	  uint64_t all)
{
	const struct bt_flame_frame *x = &f->v.v[fr];
	const struct bt_flame_frame *up = x->parent != BT_FRAME_NONE ? &f->v.v[x->parent] : NULL;

	r->func = x->func;
	r->name = x->name;
	r->module = x->module;
	r->label = bt_frame_kind_name(x->kind);
	r->samples = x->samples;
	r->addr = fr;
	r->percent = all ? 100.0 * (double)x->samples / (double)all : 0;
	r->weight = r->percent;
	if (up == NULL)
		r->detail = bt_strpool_addf(&v->pool, "all: %llu samples",
		    (unsigned long long)x->samples);
	else
		r->detail = bt_strpool_addf(&v->pool, "%.2f%% of all, %.2f%% of %s, %llu "
		    "samples%s: %s (%s)", r->percent, up->samples ? 100.0 *
		    (double)x->samples / (double)up->samples : 0, up->name,
		    (unsigned long long)x->samples, x->self ? bt_strpool_addf(&v->pool,
		    " (%llu its own)", (unsigned long long)x->self) : "", x->name,
		    x->module ? view_basename(x->module) : "?");
}

struct bt_view *
bt_view_flame(struct bt_selection *sel, const struct bt_flame *f, size_t zoom, size_t cur,
	      const struct bt_view_opts *o)
{
	struct bt_view *v = view_new(sel);
	size_t width = o != NULL && o->width ? o->width : o != NULL && o->text_width ?
	    o->text_width : FLAME_TEXT_WIDTH;
	struct placed_row rows[FLAME_MAX_ROWS];
	size_t path[FLAME_MAX_ROWS], nrows, shown, d, i, p;
	uint64_t total, all = f->v.v[0].samples;

	if (zoom >= f->v.n)
		zoom = 0;
	if (cur >= f->v.n)
		cur = zoom;
	total = f->v.v[zoom].samples;
	memset(rows, 0, sizeof(rows));
	nrows = place(f, zoom, rows);
	for (d = 0; d < FLAME_MAX_ROWS; d++)
		path[d] = BT_FRAME_NONE;
	/* the path: cur's frames up to zoom, then the hottest children */
	for (p = cur; p != zoom && p != BT_FRAME_NONE; p = f->v.v[p].parent)
		;
	if (p != zoom || f->v.v[cur].depth - f->v.v[zoom].depth >= FLAME_MAX_ROWS)
		cur = zoom;	/* not under zoom, or too deep to show */
	d = f->v.v[cur].depth - f->v.v[zoom].depth;
	for (p = cur; ; p = f->v.v[p].parent) {
		path[d] = p;
		if (p == zoom)
			break;
		d--;
	}
	d = f->v.v[cur].depth - f->v.v[zoom].depth;
	shown = total ? visible_rows(f, rows, nrows, total, width, d) : d + 1;
	for (p = cur; d + 1 < shown && f->v.v[p].child != BT_FRAME_NONE; )
		path[++d] = p = f->v.v[p].child;
	for (d = shown; d < nrows; d++)
		BT_VEC_FREE(rows[d]);
	for (d = 0; d < shown; d++) {
		struct bt_row *r = view_add_row(v, BT_ROW_FRAMES);
		size_t x = 0, ncell = 0;

		r->insn = (size_t)-1;
		r->line = (unsigned)d;
		r->func = BT_FRAME_NONE;
		if (path[d] != BT_FRAME_NONE)	/* below the path's leaf: none */
			row_frame(v, r, f, path[d], all);
		for (i = 0; i < rows[d].n; i++) {
			const struct placed *pl = &rows[d].v[i];
			const struct bt_flame_frame *fr = &f->v.v[pl->frame];
			size_t c0 = total ? (size_t)((double)pl->at * width / total) : 0;
			size_t c1 = total ? (size_t)((double)(pl->at + fr->samples) * width /
			    total) : 0;

			if (c1 <= c0)
				continue;
			if (c0 > x) {
				view_add_cell(v, view_pad(v, "", c0 - x, false), BT_STYLE_NORMAL);
				ncell++;
			}
			if (pl->frame == path[d])
				r->insn = ncell;
			view_add_cell(v, bar_text(v, fr->name, c1 - c0), frame_style(fr->kind));
			ncell++;
			x = c1;
		}
		BT_VEC_FREE(rows[d]);
	}
	view_seal(v);
	if (!bt_session_has_chains(bt_selection_session(sel)))
		BT_VEC_PUSH(v->notes, "no call chains: each function's own samples, one level");
	v->title = bt_strpool_addf(&v->pool, "flame graph: %s, %llu samples (%.2f%%)",
	    f->v.v[zoom].name, (unsigned long long)total,
	    all ? 100.0 * (double)total / (double)all : 0);
	return v;
}
