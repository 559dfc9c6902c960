/*
 * An annotation's inline tree (docs/browser.md "Inline frames"): the
 * rows for the inline frames entered and left at each instruction, and
 * the frames as a view keeps them.
 */
#include <stdio.h>
#include <string.h>

#include "annotate/annotate.h"
#include "view/view-int.h"

/* The outermost inline frames of ai that were open before it (prev_chain, prev_depth). */
static size_t
inline_common(const struct bt_annotation *a, const struct bt_ainsn *ai,
	      uint32_t prev_chain, uint32_t prev_depth)
{
	size_t common = 0;

	while (common < ai->depth && common < prev_depth &&
	    a->frames.v[ai->chain + common].lo == a->frames.v[prev_chain + common].lo &&
	    a->frames.v[ai->chain + common].name == a->frames.v[prev_chain + common].name)
		common++;
	return common;
}

/*
 * The inline rows before ai: one back from the frames left when ai is in
 * none the code before it was not (a frame entered at the depth of one
 * left says so itself), one for each frame entered.
 */
size_t
view_inline_nrows(const struct bt_annotation *a, const struct bt_ainsn *ai,
	     uint32_t prev_chain, uint32_t prev_depth, size_t *common)
{
	*common = inline_common(a, ai, prev_chain, prev_depth);
	return (*common < prev_depth && *common == ai->depth) + ai->depth - *common;
}

/* An inline row: its chain is inl[0..depth), its name the innermost's (or func's). */
static struct bt_row *
inline_row(struct bt_view *v, const struct bt_row_inline *inl, uint32_t depth,
	   const char *func_name, size_t func)
{
	struct bt_row *r = view_add_row(v, BT_ROW_INLINE);

	r->func = func;
	r->inlines = inl;
	r->ninlines = depth;
	r->name = depth ? inl[depth - 1].name : func_name;
	return r;
}

/*
 * Rows for the inline frames left and entered at ai: "back in g()" at
 * the depth it goes back to, "inlined f() from x.c:12" for each frame
 * entered, indented by its depth: the inline tree.
 */
void
view_inline_rows(struct bt_view *v, const struct bt_annotation *a,
	    const struct bt_ainsn *ai, uint32_t prev_chain, uint32_t prev_depth,
	    const struct bt_row_inline *inl, const char *func_name, size_t func,
	    size_t wpre, const struct bt_view_opts *o)
{
	struct bt_row *r;
	const char *name;
	char bci[24];
	size_t k, common;

	if (view_inline_nrows(a, ai, prev_chain, prev_depth, &common) == 0)
		return;
	if (common < prev_depth && common == ai->depth) {
		r = inline_row(v, inl + ai->chain, ai->depth, func_name, func);
		r->flags |= BT_ROW_F_INLINE_LEAVE;
		name = view_name(v, r->name, o);
		if (name != r->name)
			r->detail = r->name;
		r->text = bt_strpool_addf(&v->pool, "%*sback in %s%s", (int)(2 * common),
		    "", name, strchr(name, '(') ? "" : "()");
		view_add_cell(v, view_pad(v, "", wpre, false), BT_STYLE_NORMAL);
		view_add_cell(v, r->text, BT_STYLE_INLINE);
	}
	for (k = common; k < ai->depth; k++) {
		const struct bt_row_inline *fr = &inl[ai->chain + k];

		r = inline_row(v, inl + ai->chain, (uint32_t)k + 1, func_name, func);
		name = fr->name ? view_name(v, fr->name, o) : "?";
		r->file = fr->call_file;
		r->line = fr->call_line;
		if (fr->name != NULL && name != fr->name)
			r->detail = fr->name;
		/*
		 * a whole C++ name has its parentheses already; HotSpot's
		 * call site also by its bytecode index in the caller
		 */
		bci[0] = '\0';
		if (fr->has_bci)
			snprintf(bci, sizeof(bci), " (bci %d)", (int)fr->call_bci);
		r->text = bt_strpool_addf(&v->pool, "%*sinlined %s%s from %s:%u%s",
		    (int)(2 * k), "", name, strchr(name, '(') ? "" : "()",
		    fr->call_file ? view_basename(fr->call_file) : "?", fr->call_line, bci);
		view_add_cell(v, view_pad(v, "", wpre, false), BT_STYLE_NORMAL);
		view_add_cell(v, r->text, BT_STYLE_INLINE);
	}
}

/*
 * The annotation's inline frames as the rows keep them (a view outlives
 * its selection): names and files copied once for each run of one string
 * at one depth. Sets *any when some instruction is inlined code.
 */
const struct bt_row_inline *
view_inline_frames(struct bt_view *v, const struct bt_annotation *a, bool *any)
{
	struct bt_row_inline *inl;
	const char *seen[64][2], *copy[64][2];
	size_t i, k;

	*any = false;
	for (i = 0; i < a->insns.n && !*any; i++)
		*any = a->insns.v[i].depth > 0;
	if (a->frames.n == 0)
		return NULL;
	inl = view_alloc(v, a->frames.n * sizeof(*inl));
	memset(seen, 0, sizeof(seen));
	memset(copy, 0, sizeof(copy));
	for (i = 0; i < a->insns.n; i++) {
		const struct bt_ainsn *ai = &a->insns.v[i];
		for (k = 0; k < ai->depth; k++) {
			const struct bt_inline *fr = &a->frames.v[ai->chain + k];
			size_t d = BT_MIN(k, 63);
			if (fr->name != seen[d][0] && fr->name != NULL) {
				seen[d][0] = fr->name;
				copy[d][0] = bt_strpool_addstr(&v->pool, fr->name);
			}
			if (fr->call_file != seen[d][1] && fr->call_file != NULL) {
				seen[d][1] = fr->call_file;
				copy[d][1] = bt_strpool_addstr(&v->pool, fr->call_file);
			}
			inl[ai->chain + k].name = fr->name ? copy[d][0] : NULL;
			inl[ai->chain + k].call_file = fr->call_file ? copy[d][1] : NULL;
			inl[ai->chain + k].call_line = fr->call_line;
			inl[ai->chain + k].call_bci = fr->call_bci;
			inl[ai->chain + k].has_bci = fr->has_bci;
		}
	}
	return inl;
}
