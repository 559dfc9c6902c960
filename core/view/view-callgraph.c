/*
 * The callers/callees view of one function (DESIGN.md §6): its callers
 * above (who called it, with the share of its inclusive samples that came
 * through each), the function itself, its callees below (where its
 * inclusive samples went), hottest first, as Hotspot's caller/callee view
 * and perf report -G show them. Given an instruction, the call paths whose
 * samples landed on it follow (Tracy's entry stacks).
 */
#include <inttypes.h>
#include <stdlib.h>

#include "benchtui/session.h"
#include "view/view-int.h"

#define NAME_W 48

static void
text_row(struct bt_view *v, const char *text)
{
	struct bt_row *r = view_add_row(v, BT_ROW_TEXT);

	r->func = (size_t)-1;
	r->text = text;
	view_add_cell(v, text, BT_STYLE_COMMENT);
}

/* Columns before a function row's name, and before an entry stack's chain. */
#define EDGE_BEFORE (8 + 9 + 5 + 1 + 16 + 1)
#define STACK_BEFORE (8 + 9 + 5 + 1)
#define MIN_NAME_COLS 20

/* What width the names have after before columns (0: whole). */
static size_t
name_room(const struct bt_view_opts *o, size_t before)
{
	size_t w = o->names == BT_NAMES_SHORT ? view_names_width(o) : 0;

	return w == 0 ? 0 : w > before + MIN_NAME_COLS ? w - before : MIN_NAME_COLS;
}

/*
 * The callers', the function's and the callees' names as their rows show
 * them (shown[], in that order): fitted to what the row leaves, never two
 * alike (docs/browser.md "Long names").
 */
static const char **
edge_names(struct bt_view *v, const struct bt_view_opts *o, const struct bt_func_edge *ce,
	   size_t nc, size_t func, const struct bt_func_edge *ee, size_t ne)
{
	const char **shown = bt_xcalloc(nc + ne + 2, sizeof(*shown));
	size_t i, k = 0, room = name_room(o, EDGE_BEFORE);

	for (i = 0; i < nc; i++)
		shown[k++] = view_name(v, bt_selection_func(v->sel, ce[i].func)->name, o);
	shown[k++] = view_name(v, bt_selection_func(v->sel, func)->name, o);
	for (i = 0; i < ne; i++)
		shown[k++] = view_name(v, bt_selection_func(v->sel, ee[i].func)->name, o);
	if (room > 0)
		view_fit_names(v, shown, k, room, shown);
	return shown;
}

/* One function row: percent (of the subject's inclusive), samples, arrow, name. */
static void
edge_row(struct bt_view *v, const char *shown, size_t func,
	 uint64_t samples, double percent, const char *arrow, const char *label)
{
	const struct bt_func *f = bt_selection_func(v->sel, func);
	struct bt_row *r = view_add_row(v, BT_ROW_FUNC);

	r->func = func;
	if (f->kind == BT_FK_INLINE)
		r->flags |= BT_ROW_F_INLINED;
	r->name = f->name;
	r->short_name = view_short_name(v, f->name, false);
	r->module = f->module;
	r->addr = f->start;
	r->samples = samples;
	r->percent = percent;
	r->weight = percent;
	r->label = label;
	r->text = f->name;
	if (percent >= HOT_MIN_PERCENT)
		r->flags |= BT_ROW_F_HOT;
	view_add_cell(v, view_pad(v, bt_strpool_addf(&v->pool, "%.2f%%", percent), 8,
	    true), view_heat(percent, samples > 0));
	view_add_cell(v, view_pad(v, bt_strpool_addf(&v->pool, "%" PRIu64, samples), 9,
	    true), BT_STYLE_NORMAL);
	view_add_cell(v, view_pad(v, arrow, 5, true), BT_STYLE_COMMENT);
	view_add_cell(v, " ", BT_STYLE_NORMAL);
	view_add_cell(v, view_pad(v, f->module_name, 16, false), BT_STYLE_ADDR);
	view_add_cell(v, " ", BT_STYLE_NORMAL);
	view_add_cell(v, shown, f->kind == BT_FK_SYMBOL ? BT_STYLE_NORMAL : BT_STYLE_COMMENT);
	if (shown != f->name)
		r->detail = f->name;
}

/*
 * An entry stack's callers ("a <- b <- main", cols columns whole) in what
 * its row leaves: NULL when it fits whole (or nothing is to fit). A
 * recursion's run of one function is one name with its depth ("fib ×24 <-
 * main"), so that stacks of different depths never look alike.
 */
static const char *
stack_line(struct bt_view *v, const struct bt_view_opts *o, const struct bt_stack *st,
	   size_t cols)
{
	size_t room = name_room(o, STACK_BEFORE), k, run, n = 0;
	const char **names;
	const char *line;

	if (room == 0 || cols <= room || st->nfuncs < 2)
		return NULL;
	names = bt_xcalloc(st->nfuncs, sizeof(*names));
	for (k = 1; k < st->nfuncs; k += run) {
		const char *name = view_name(v, bt_selection_func(v->sel, st->funcs[k])->name, o);

		for (run = 1; k + run < st->nfuncs && st->funcs[k + run] == st->funcs[k]; run++)
			;
		names[n++] = run == 1 ? name : bt_strpool_addf(&v->pool, "%s \xc3\x97%zu",
		    name, run);	/* × */
	}
	line = view_chain_fit(v, names, n, " <- ", room);
	free(names);
	return line;
}

struct bt_view *
bt_view_callers(struct bt_selection *sel, size_t func, const uint64_t *addr,
		const struct bt_view_opts *o)
{
	struct bt_view *v = view_new(sel);
	const struct bt_func *f = bt_selection_func(sel, func);
	const struct bt_func_edge *e, *ee;
	struct bt_view_opts def;
	const char **shown;
	size_t n, ne, i, k;
	/* one base a section, said in its heading row: no column mixes two */
	static const char *const heads[] = { "Share", "Samples", "", "", "Module", "", "Symbol" };
	static const size_t widths[] = { 8, 9, 5, 1, 16, 1, 0 };
	static const bool right[] = { true, true, true, false, false, false, false };

	if (o == NULL) {
		bt_view_opts_init(&def);
		o = &def;
	}
	view_set_func(v, func);
	view_set_title(v, "", f->name, "  %.2f%% inclusive, %.2f%% self",
	    f->inclusive_percent, f->percent);
	if (!bt_session_has_chains(bt_selection_session(sel))) {
		BT_VEC_PUSH(v->notes, "the recording has no call chains "
		    "(record with benchtui's default, or perf record -g)");
	}
	n = bt_selection_callers(sel, func, &e);
	ne = bt_selection_callees(sel, func, &ee);
	shown = edge_names(v, o, e, n, func, ee, ne);
	text_row(v, n ? bt_strpool_addf(&v->pool, "callers: who called it (share of its %llu "
	    "inclusive samples through each)", (unsigned long long)f->inclusive) :
	    "callers: none known");
	for (i = 0; i < n; i++)
		edge_row(v, shown[i], e[i].func, e[i].samples, e[i].percent, "<-", "caller");
	/* the base of the shares above and below (its share of the run is in the title) */
	edge_row(v, shown[n], func, f->inclusive, f->inclusive ? 100.0 : 0, "=", "function");
	text_row(v, ne ? bt_strpool_addf(&v->pool, "callees: where its %llu inclusive samples "
	    "went (share of them in each)", (unsigned long long)f->inclusive) :
	    "callees: none (its samples are its own)");
	for (i = 0; i < ne; i++)
		edge_row(v, shown[n + 1 + i], ee[i].func, ee[i].samples, ee[i].percent, "->",
		    "callee");
	free(shown);
	if (addr != NULL) {
		struct bt_stack *st;
		uint64_t total = 0;

		n = bt_selection_stacks(sel, func, *addr, &st);
		for (i = 0; i < n; i++)
			total += st[i].samples;
		text_row(v, n ? bt_strpool_addf(&v->pool, "entry stacks of %" PRIx64
		    ": the call paths whose samples landed there (share of its %llu "
		    "samples)", *addr, (unsigned long long)total) :
		    bt_strpool_addf(&v->pool, "entry stacks of %" PRIx64
		    ": no samples there", *addr));
		for (i = 0; i < n; i++) {
			struct bt_strbuf sb = BT_STRBUF_INIT;
			double pct = total ? 100.0 * (double)st[i].samples / (double)total : 0;
			const char *fitted;
			struct bt_row *r;

			for (k = 1; k < st[i].nfuncs; k++)
				bt_strbuf_addf(&sb, "%s%s", k > 1 ? " <- " : "",
				    view_name(v, bt_selection_func(sel, st[i].funcs[k])->name, o));
			fitted = stack_line(v, o, &st[i], sb.len);
			r = view_add_row(v, BT_ROW_FUNC);
			r->func = st[i].nfuncs > 1 ? st[i].funcs[1] : func;
			r->name = bt_selection_func(sel, r->func)->name;
			r->samples = st[i].samples;
			r->percent = pct;
			r->weight = pct;
			r->label = "stack";
			r->text = bt_strpool_addstr(&v->pool, sb.len ? sb.buf : "(no caller known)");
			if (fitted != NULL)	/* the whole chain on the status line */
				r->detail = r->text;
			view_add_cell(v, view_pad(v, bt_strpool_addf(&v->pool, "%.2f%%", pct), 8,
			    true), view_heat(pct, st[i].samples > 0));
			view_add_cell(v, view_pad(v, bt_strpool_addf(&v->pool, "%" PRIu64,
			    st[i].samples), 9, true), BT_STYLE_NORMAL);
			view_add_cell(v, view_pad(v, "<-", 5, true), BT_STYLE_COMMENT);
			view_add_cell(v, " ", BT_STYLE_NORMAL);
			view_add_cell(v, fitted != NULL ? fitted : r->text, BT_STYLE_NORMAL);
			bt_strbuf_release(&sb);
		}
		free(st);
	}
	view_set_columns(v, heads, widths, right, 7);
	view_seal(v);
	return v;
}
