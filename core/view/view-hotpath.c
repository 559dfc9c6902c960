/*
 * Call chains as one line, in a width (docs/browser.md "Long names"):
 * the header's hot path (docs/lint.md "Time in callees": the hottest
 * functions and on whose behalf they ran; whole for JSON), and the entry
 * stacks of the callers view. Their names are folded or cut first, then
 * the parts in the middle go.
 */
#include <stdlib.h>
#include <string.h>

#include "session/query.h"
#include "view/view-int.h"

#define HOT_PATH_MIN 5.0	/* percent of the samples */
#define HOT_PATH_FUNCS 3

/*
 * The hot path's parts: each hot function ("; " before all but the
 * first, its module and share after), then its callers (" from " or
 * " for " before the first, ", " before the others, their share after).
 */
struct hp_part {
	const char *name, *pre, *post;
	size_t group, caller;	/* caller 0: the hot function itself */
};

#define HP_MAX (HOT_PATH_FUNCS * 4)

/*
 * With call chains: the hottest functions, each with the functions it ran
 * for. A function of the benchmark's own executable (main's module) names
 * its immediate callers (of its outermost frame: who entered a recursion);
 * a library's (memcpy) the first caller outside
 * the library: the benchmark's function whose time it is.
 */
static size_t
hot_path_parts(struct bt_view *v, struct bt_selection *sel, struct hp_part *p)
{
	long mainf = bt_selection_find(sel, "main");
	const char *exe = mainf >= 0 ? bt_selection_func(sel, (size_t)mainf)->module : NULL;
	struct bt_view_opts o;
	size_t i, k, shown = 0, np = 0;

	if (!bt_session_has_chains(bt_selection_session(sel)))
		return 0;
	bt_view_opts_init(&o);
	for (i = 0; i < bt_selection_nfuncs(sel) && shown < HOT_PATH_FUNCS; i++) {
		const struct bt_func *f = bt_selection_func(sel, i);
		const struct bt_func_edge *ce;
		struct bt_func_edge *oe = NULL;
		bool lib = exe != NULL && f->kind != BT_FK_KERNEL && f->kind != BT_FK_UNKNOWN &&
		    strcmp(f->module, exe) != 0;
		size_t n;

		if (f->percent < HOT_PATH_MIN)
			break;
		if (lib)
			n = bt_selection_outside_callers(sel, i, &oe);
		else
			n = bt_selection_entry_callers(sel, i, &ce);
		p[np].name = view_name(v, f->name, &o);
		p[np].pre = shown ? "; " : "";
		p[np].post = lib ? bt_strpool_addf(&v->pool, " (%s) %.1f%%", f->module_name,
		    f->percent) : bt_strpool_addf(&v->pool, " %.1f%%", f->percent);
		p[np].group = shown;
		p[np++].caller = 0;
		for (k = 0; k < n && k < 3; k++) {
			const struct bt_func_edge *e = lib ? &oe[k] : &ce[k];

			p[np].name = view_name(v, bt_selection_func(sel, e->func)->name, &o);
			p[np].pre = k ? ", " : lib ? " for " : " from ";
			p[np].post = bt_strpool_addf(&v->pool, " %.0f%%", e->percent);
			p[np].group = shown;
			p[np++].caller = k + 1;
		}
		free(oe);
		shown++;
	}
	return np;
}

/* Is part i's function one between the first and the last, gone at elide 2? */
static bool
middle_gone(const struct hp_part *p, size_t np, size_t i, int elide)
{
	return elide >= 2 && p[i].group > 0 && p[i].group < p[np - 1].group;
}

/* Is part i shown at elide (hot_path_line's)? */
static bool
shown_at(const struct hp_part *p, size_t np, size_t i, int elide)
{
	return !middle_gone(p, np, i, elide) && !(elide >= 1 && p[i].caller > 1);
}

/*
 * The parts with names[] as one line; elide 1: the callers after the
 * first as "…", 2: also the functions between the first and the last.
 */
static const char *
hot_path_line(struct bt_view *v, const struct hp_part *p, size_t np,
	      const char *const *names, int elide)
{
	struct bt_strbuf sb = BT_STRBUF_INIT;
	size_t i;
	const char *out;

	for (i = 0; i < np; i++) {
		if (shown_at(p, np, i, elide))
			bt_strbuf_addf(&sb, "%s%s%s", p[i].pre, names ? names[i] : p[i].name,
			    p[i].post);
		else if (middle_gone(p, np, i, elide)) {
			if (p[i].caller == 0 && p[i].group == 1)
				bt_strbuf_addstr(&sb, "; \xe2\x80\xa6");
		} else if (p[i].caller == 2)
			bt_strbuf_addstr(&sb, ", \xe2\x80\xa6");
	}
	out = bt_strpool_add(&v->pool, sb.buf, sb.len);
	bt_strbuf_release(&sb);
	return out;
}

#define HP_MIN_NAME 24
#define HP_LAST_NAME 12

/* The line with every name it shows fitted to b columns, none two alike. */
static const char *
line_at(struct bt_view *v, const struct hp_part *p, size_t np, int elide, size_t b)
{
	const char *names[HP_MAX] = { NULL }, *fit[HP_MAX], *all[HP_MAX];
	size_t i, n = 0;

	for (i = 0; i < np; i++)
		if (shown_at(p, np, i, elide))
			names[n++] = p[i].name;
	view_fit_names(v, names, n, b, fit);
	for (i = 0, n = 0; i < np; i++)
		all[i] = shown_at(p, np, i, elide) ? fit[n++] : p[i].name;
	return hot_path_line(v, p, np, all, elide);
}

/*
 * The hot path in width columns: its names fitted to the widest b that
 * lets the line fit (short names take what they need, the long ones
 * share the rest), b at least HP_MIN_NAME; else the callers after the
 * first go, then the functions in the middle (hot_path_line's elide),
 * the last time with b down to HP_LAST_NAME; what still does not fit
 * loses its middle.
 */
static const char *
hot_path_fit(struct bt_view *v, const struct hp_part *p, size_t np, size_t width)
{
	const char *line = NULL, *l;
	size_t lo, hi, mid;
	int elide;

	for (elide = 0; elide <= 2; elide++) {
		lo = elide == 2 ? HP_LAST_NAME : HP_MIN_NAME;
		line = line_at(v, p, np, elide, lo);
		if (view_ncols(line) > width)
			continue;
		for (hi = width; lo < hi; ) {	/* line fits at lo: the widest that does */
			mid = lo + (hi - lo + 1) / 2;
			l = line_at(v, p, np, elide, mid);
			if (view_ncols(l) <= width) {
				lo = mid;
				line = l;
			} else
				hi = mid - 1;
		}
		return line;
	}
	return view_cut_middle(v, line, width);
}

const char *
view_hot_path(struct bt_view *v, struct bt_selection *sel, size_t width,
	      const char **shown)
{
	struct hp_part parts[HP_MAX];
	size_t np = hot_path_parts(v, sel, parts);
	const char *whole = np ? hot_path_line(v, parts, np, NULL, 0) : NULL;

	*shown = whole != NULL && width > 0 && view_ncols(whole) > width ?
	    hot_path_fit(v, parts, np, width) : whole;
	return whole;
}

#define CHAIN_MAX 256	/* frames of a chain that fits (more: whole) */
#define CHAIN_MIN_NAME 16
#define CHAIN_LAST_NAME 8

/* names[keep[0..k)] joined by sep, each fitted to b columns; "…" where frames are gone. */
static const char *
chain_line(struct bt_view *v, const char *const *names, size_t n, const char *sep,
	   size_t first, size_t last, size_t b)
{
	const char *shown[CHAIN_MAX] = { NULL }, *fit[CHAIN_MAX];
	struct bt_strbuf sb = BT_STRBUF_INIT;
	size_t i, k = 0;
	const char *out;

	for (i = 0; i < n; i++)
		if (i < first || i >= n - last)
			shown[k++] = names[i];
	view_fit_names(v, shown, k, b, fit);
	for (i = 0; i < k; i++) {
		if (i)
			bt_strbuf_addstr(&sb, sep);
		if (i == first && first + last < n) {
			bt_strbuf_addstr(&sb, "\xe2\x80\xa6");
			bt_strbuf_addstr(&sb, sep);
		}
		bt_strbuf_addstr(&sb, fit[i]);
	}
	out = bt_strpool_add(&v->pool, sb.buf, sb.len);
	bt_strbuf_release(&sb);
	return out;
}

const char *
view_chain_fit(struct bt_view *v, const char *const *names, size_t n, const char *sep,
	       size_t width)
{
	size_t first = n, last = 0, lo, hi, mid, need, i, least = CHAIN_MIN_NAME;
	const char *line, *l;

	if (n == 0 || n > CHAIN_MAX)
		return NULL;
	line = chain_line(v, names, n, sep, n, 0, width);
	if (view_ncols(line) <= width)
		return line;
	/* frames from the middle go (the first and the last stay) till it fits at least */
	for (;;) {
		for (need = 0, i = 0; i < n; i++)
			if (i < first || i >= n - last)
				need += BT_MIN(view_ncols(names[i]), least) + strlen(sep);
		if (first + last < n)
			need += 1 + strlen(sep);
		if (need <= width || first + last <= 2) {
			if (need > width && least > CHAIN_LAST_NAME) {
				least = CHAIN_LAST_NAME;
				continue;
			}
			break;
		}
		if (first + last == n) {	/* the first elision: keep half each side */
			first = (n + 1) / 2;
			last = n - first;
		}
		if (first > last)
			first--;
		else
			last--;
	}
	line = chain_line(v, names, n, sep, first, last, least);
	if (view_ncols(line) > width)
		return view_cut_middle(v, line, width);
	for (lo = least, hi = width; lo < hi; ) {	/* the widest names that fit */
		mid = lo + (hi - lo + 1) / 2;
		l = chain_line(v, names, n, sep, first, last, mid);
		if (view_ncols(l) <= width) {
			lo = mid;
			line = l;
		} else
			hi = mid - 1;
	}
	return line;
}
