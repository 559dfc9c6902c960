/*
 * The text export: what the screen shows, without colour, in the spirit of
 * perf annotate --stdio. Every line is a view's cells or a view's fields.
 */
#include <inttypes.h>
#include <string.h>

#include "base.h"
#include "export/export-int.h"

/* A row as one line; lead, if not 0, replaces the first character ('#'). */
static void
put_cells(FILE *out, const struct bt_row *r, char lead)
{
	struct bt_strbuf sb = BT_STRBUF_INIT;
	size_t i;

	if (lead)
		bt_strbuf_addch(&sb, lead);
	for (i = 0; i < r->ncells; i++)
		bt_strbuf_addstr(&sb, r->cells[i].text);
	if (lead && sb.len > 1 && sb.buf[1] == ' ') {
		/* the lead takes the place of a leading space */
		memmove(sb.buf + 1, sb.buf + 2, sb.len - 1);
		sb.len--;
	}
	while (sb.len > 0 && sb.buf[sb.len - 1] == ' ')
		sb.buf[--sb.len] = '\0';
	fprintf(out, "%s\n", sb.buf);
	bt_strbuf_release(&sb);
}

static void
put_view(FILE *out, const struct bt_view *v, bool title)
{
	const struct bt_view_region *rg;
	size_t i, nr = bt_view_regions(v, &rg);

	if (title)
		fprintf(out, "## %s\n", bt_view_title(v));
	for (i = 0; i < nr; i++)
		fprintf(out, "# hot region %zu: %" PRIx64 "-%" PRIx64 ": %.2f%% (%.2f%% "
		    "skid-adjusted), %" PRIu64 " samples%s\n", i + 1, rg[i].start,
		    rg[i].end, rg[i].percent, rg[i].adjusted_percent, rg[i].samples,
		    rg[i].closes_loop ? ", closes a loop" : "");
	for (i = 0; i < bt_view_nnotes(v); i++)
		fprintf(out, "# note: %s\n", bt_view_note(v, i));
	if (bt_view_columns(v)->ncells)
		put_cells(out, bt_view_columns(v), '#');
	for (i = 0; i < bt_view_nrows(v); i++)
		put_cells(out, bt_view_row(v, i), 0);
}

static void
put_header(FILE *out, const struct bt_view *h)
{
	size_t i;

	fprintf(out, "# benchtui %s\n", BT_VERSION);
	for (i = 0; i < bt_view_nrows(h); i++)
		fprintf(out, "# %s\n", bt_view_row(h, i)->text);
	fputs("#\n", out);
}

/*
 * Callers and callees of every function of the table (DESIGN.md §6): the
 * function with its inclusive share, then "<-" a caller, "->" a callee,
 * each with its percent of the function's inclusive samples.
 */
static void
put_callgraph(FILE *out, const struct bt_view *funcs)
{
	size_t i, k;
	bool any = false;

	for (i = 0; i < bt_view_nrows(funcs); i++) {
		const struct bt_row *r = bt_view_row(funcs, i);

		if (!r->has_inclusive || r->ncallers + r->ncallees == 0)
			continue;
		if (!any)
			fputs("## callers and callees\n", out);
		any = true;
		fprintf(out, "%s  %.2f%%  %" PRIu64 "\n", r->name, r->inclusive_percent,
		    r->inclusive);
		for (k = 0; k < r->ncallers; k++)
			fprintf(out, "  <- %7.2f%% %8" PRIu64 "  %s\n", r->callers[k].percent,
			    r->callers[k].samples, r->callers[k].name);
		for (k = 0; k < r->ncallees; k++)
			fprintf(out, "  -> %7.2f%% %8" PRIu64 "  %s\n", r->callees[k].percent,
			    r->callees[k].samples, r->callees[k].name);
	}
	if (any)
		fputs("\n", out);
}

static void
text_begin(struct export_out *o, const struct bt_view *header,
	   const struct bt_view *funcs, const struct bt_view *findings)
{
	size_t i;

	put_header(o->f, header);
	put_view(o->f, funcs, false);
	fputs("\n", o->f);
	put_callgraph(o->f, funcs);
	if (bt_view_nrows(findings) == 0)
		return;
	fputs("## lint\n", o->f);
	for (i = 0; i < bt_view_nrows(findings); i++) {
		const struct bt_row *r = bt_view_row(findings, i);
		fprintf(o->f, "# %s%s%s (%.1f%%): %s\n", r->label, r->name ? " in " : "",
		    r->name ? r->name : "", r->percent, r->text);
	}
	fputs("\n", o->f);
}

static void
text_annotation(struct export_out *o, const struct bt_view *v)
{
	put_view(o->f, v, true);
	fputs("\n", o->f);
}

static void
text_failed(struct export_out *o, const char *name, const char *msg)
{
	fprintf(o->f, "## %s\n# note: %s\n\n", name, msg);
}

static void
text_end(struct export_out *o)
{
}

static void
text_view(struct export_out *o, const struct bt_view *header, const struct bt_view *v)
{
	put_header(o->f, header);
	put_view(o->f, v, true);
}

const struct export_ops export_text = {
	text_begin, text_annotation, text_failed, text_end, text_view,
};
