/*
 * The text export: what the screen shows, without colour, in the spirit of
 * perf annotate --stdio. Every line is a view's cells or a view's fields.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "base.h"
#include "export/export-int.h"

/*
 * Every line of the text export goes out here, its newline added: names,
 * paths and command lines come from the recording, and a terminal must not
 * take their control bytes as commands (bt_text_safe), nor a newline in a
 * file name start a line.
 */
static void __attribute__((format(printf, 2, 3)))
put_line(FILE *out, const char *fmt, ...)
{
	struct bt_strbuf sb = BT_STRBUF_INIT;
	struct bt_textbuf tb = { 0 };
	va_list ap;

	va_start(ap, fmt);
	bt_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	fputs(bt_text_safe(sb.buf, &tb), out);
	fputc('\n', out);
	bt_textbuf_release(&tb);
	bt_strbuf_release(&sb);
}

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
	put_line(out, "%s", sb.buf);
	bt_strbuf_release(&sb);
}

static void
put_view(FILE *out, const struct bt_view *v, bool title)
{
	const struct bt_view_region *rg;
	size_t i, nr = bt_view_regions(v, &rg);

	if (title)
		put_line(out, "## %s", bt_view_title(v));
	for (i = 0; i < nr; i++)
		fprintf(out, "# hot region %zu: %" PRIx64 "-%" PRIx64 ": %.2f%% (%.2f%% "
		    "skid-adjusted), %" PRIu64 " samples%s\n", i + 1, rg[i].start,
		    rg[i].end, rg[i].percent, rg[i].adjusted_percent, rg[i].samples,
		    rg[i].closes_loop ? ", closes a loop" : "");
	for (i = 0; i < bt_view_nnotes(v); i++)
		put_line(out, "# note: %s", bt_view_note(v, i));
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
		put_line(out, "# %s", bt_view_row(h, i)->text);
	fputs("#\n", out);
}

static void
text_begin(struct export_out *o, const struct bt_view *header,
	   const struct bt_view *funcs, const struct bt_view *findings)
{
	size_t i;

	put_header(o->f, header);
	put_view(o->f, funcs, false);
	fputs("\n", o->f);
	if (bt_view_nrows(findings) == 0)
		return;
	fputs("## lint\n", o->f);
	for (i = 0; i < bt_view_nrows(findings); i++) {
		const struct bt_row *r = bt_view_row(findings, i);
		put_line(o->f, "# %s%s%s (%.1f%%): %s", r->label, r->name ? " in " : "",
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
	put_line(o->f, "## %s", name);
	put_line(o->f, "# note: %s", msg);
	fputc('\n', o->f);
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
