/*
 * Text and JSON exports. Both walk view rows: text prints the cells the
 * browser paints, JSON writes the rows' data fields.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "annotate/session-int.h"
#include "benchtui/export.h"
#include "benchtui/lint.h"
#include "benchtui/view.h"

/* Text. */

/* A row as one line; lead, if not 0, replaces the first character ('#'). */
static void
put_cells(FILE *out, const struct bt_row *r, char lead)
{
	struct bt_strbuf sb = BT_STRBUF_INIT;
	size_t i;

	for (i = 0; i < r->ncells; i++)
		bt_strbuf_addstr(&sb, r->cells[i].text);
	if (lead) {
		if (sb.len && sb.buf[0] == ' ')
			sb.buf[0] = lead;
		else {
			char c[2] = { lead, 0 };
			struct bt_strbuf t = BT_STRBUF_INIT;
			bt_strbuf_addstr(&t, c);
			bt_strbuf_add(&t, sb.buf, sb.len);
			bt_strbuf_release(&sb);
			sb = t;
		}
	}
	while (sb.len > 0 && sb.buf[sb.len - 1] == ' ')
		sb.buf[--sb.len] = '\0';
	fprintf(out, "%s\n", sb.buf);
	bt_strbuf_release(&sb);
}

/* Hot regions of an annotation view, hottest first: "# region 1: ..." */
static void
text_regions(FILE *out, const struct bt_view *v)
{
	int want;
	size_t i;

	for (want = 0;; want++) {
		uint64_t lo = 0, hi = 0, smp = 0;
		double pct = 0, adj = 0;
		bool seen = false, loop = false;

		for (i = 0; i < bt_view_nrows(v); i++) {
			const struct bt_row *r = bt_view_row(v, i);
			if (r->kind != BT_ROW_INSN || r->region != want)
				continue;
			if (!seen)
				lo = r->addr;
			seen = true;
			hi = r->addr + r->size;
			smp += r->samples;
			pct += r->percent;
			adj += r->adjusted_percent;
			loop |= (r->flags & BT_ROW_F_BACK_EDGE) != 0;
		}
		if (!seen)
			break;
		fprintf(out, "# hot region %d: %" PRIx64 "-%" PRIx64 ": %.2f%% (%.2f%% "
		    "skid-adjusted), %" PRIu64 " samples%s\n", want + 1, lo, hi, pct, adj,
		    smp, loop ? ", closes a loop" : "");
	}
}

static void
text_view(FILE *out, const struct bt_view *v, bool title)
{
	size_t i;

	if (title)
		fprintf(out, "## %s\n", bt_view_title(v));
	text_regions(out, v);
	for (i = 0; i < bt_view_nnotes(v); i++)
		fprintf(out, "# note: %s\n", bt_view_note(v, i));
	if (bt_view_columns(v)->ncells)
		put_cells(out, bt_view_columns(v), '#');
	for (i = 0; i < bt_view_nrows(v); i++)
		put_cells(out, bt_view_row(v, i), 0);
}

static void
text_header(FILE *out, struct bt_session *s)
{
	struct bt_view *h = bt_view_header(s);
	size_t i;

	fprintf(out, "# benchtui %s\n", BT_VERSION);
	for (i = 0; i < bt_view_nrows(h); i++)
		fprintf(out, "# %s\n", bt_view_row(h, i)->text);
	bt_view_free(h);
}

/* JSON. */

static void
json_str(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	fputc('"', out);
	while (*p) {
		unsigned c = *p;
		size_t n = 0, k;

		if (c == '"' || c == '\\') {
			fputc('\\', out);
			fputc((int)c, out);
			p++;
			continue;
		}
		if (c < 0x20) {
			if (c == '\n')
				fputs("\\n", out);
			else if (c == '\t')
				fputs("\\t", out);
			else
				fprintf(out, "\\u%04x", c);
			p++;
			continue;
		}
		if (c < 0x80) {
			fputc((int)c, out);
			p++;
			continue;
		}
		/* UTF-8: copy a valid sequence, replace an invalid byte */
		if (c >= 0xc2 && c <= 0xdf)
			n = 1;
		else if (c >= 0xe0 && c <= 0xef)
			n = 2;
		else if (c >= 0xf0 && c <= 0xf4)
			n = 3;
		for (k = 1; k <= n; k++)
			if ((p[k] & 0xc0) != 0x80)
				break;
		if (n == 0 || k <= n) {
			fputs("\\ufffd", out);
			p++;
			continue;
		}
		fwrite(p, 1, n + 1, out);
		p += n + 1;
	}
	fputc('"', out);
}

static void
json_num(FILE *out, double d)
{
	if (d != d || d > 1e300 || d < -1e300)
		fputs("0", out);
	else if (d == (double)(int64_t)d && d < 1e15 && d > -1e15)
		fprintf(out, "%" PRId64, (int64_t)d);
	else
		fprintf(out, "%.2f", d);
}

/* , "ci95": [lo, hi] */
static void
json_ci95(FILE *out, double lo, double hi)
{
	fputs(", \"ci95\": [", out);
	json_num(out, lo);
	fputs(", ", out);
	json_num(out, hi);
	fputs("]", out);
}

static void
json_row(FILE *out, const struct bt_row *r)
{
	switch (r->kind) {
	case BT_ROW_SOURCE:
		fputs("{ \"kind\": \"source\", \"file\": ", out);
		json_str(out, r->file);
		fprintf(out, ", \"line\": %u, \"text\": ", r->line);
		json_str(out, r->text);
		fputs(" }", out);
		break;
	case BT_ROW_INLINE:
		fputs("{ \"kind\": \"inline\", \"text\": ", out);
		json_str(out, r->text);
		fputs(", \"call_file\": ", out);
		json_str(out, r->file);
		fprintf(out, ", \"call_line\": %u }", r->line);
		break;
	case BT_ROW_LINE:
		fprintf(out, "{ \"kind\": \"line\", \"line\": %u, \"samples\": %" PRIu64
		    ", \"percent\": ", r->line, r->samples);
		json_num(out, r->percent);
		fputs(", \"adjusted_samples\": ", out);
		json_num(out, r->adjusted);
		fputs(", \"adjusted_percent\": ", out);
		json_num(out, r->adjusted_percent);
		json_ci95(out, r->ci_lo, r->ci_hi);
		fputs(", \"text\": ", out);
		json_str(out, r->text);
		fputs(" }", out);
		break;
	case BT_ROW_INSN:
		fprintf(out, "{ \"kind\": \"insn\", \"address\": \"0x%" PRIx64
		    "\", \"text\": ", r->addr);
		json_str(out, r->text);
		fprintf(out, ", \"samples\": %" PRIu64 ", \"period\": %" PRIu64
		    ", \"percent\": ", r->samples, r->period);
		json_num(out, r->percent);
		fputs(", \"adjusted_samples\": ", out);
		json_num(out, r->adjusted);
		fputs(", \"adjusted_percent\": ", out);
		json_num(out, r->adjusted_percent);
		fprintf(out, ", \"skid_target\": %s",
		    r->flags & BT_ROW_F_SKID_TARGET ? "true" : "false");
		if (r->file != NULL) {
			fputs(", \"file\": ", out);
			json_str(out, r->file);
			fprintf(out, ", \"line\": %u", r->line);
		}
		if (r->has_target) {
			fprintf(out, ", \"target\": \"0x%" PRIx64 "\"", r->target);
			if (r->target_name != NULL) {
				fputs(", \"target_name\": ", out);
				json_str(out, r->target_name);
			}
		}
		if (r->has_mem_target) {
			fprintf(out, ", \"mem_target\": \"0x%" PRIx64 "\"", r->mem_target);
			if (r->mem_name != NULL) {
				fputs(", \"mem_target_name\": ", out);
				json_str(out, r->mem_name);
			}
		}
		if (r->region >= 0)
			fprintf(out, ", \"region\": %d", r->region);
		if (r->loop_depth)
			fprintf(out, ", \"loop_depth\": %d", r->loop_depth);
		json_ci95(out, r->ci_lo, r->ci_hi);
		fputs(" }", out);
		break;
	case BT_ROW_SLICE:
		fputs("{ \"kind\": \"slice\", \"from_s\": ", out);
		json_num(out, r->t_from);
		fputs(", \"to_s\": ", out);
		json_num(out, r->t_to);
		fprintf(out, ", \"samples\": %" PRIu64 ", \"function_percent\": ", r->samples);
		json_num(out, r->percent);
		fputs(" }", out);
		break;
	case BT_ROW_FUNC:
	case BT_ROW_TEXT:
	case BT_ROW_FINDING:
		fputs("{ \"kind\": \"text\", \"text\": ", out);
		json_str(out, r->text);
		fputs(" }", out);
		break;
	}
}

static void
json_func(FILE *out, struct bt_session *s, size_t i)
{
	const struct bt_func *f;

	bt_session_func_locate(s, i);
	f = bt_session_func(s, i);

	fputs("{ \"name\": ", out);
	json_str(out, f->name);
	fputs(", \"module\": ", out);
	json_str(out, f->module);
	fprintf(out, ", \"address\": \"0x%" PRIx64 "\", \"samples\": %" PRIu64
	    ", \"period\": %" PRIu64 ", \"percent\": ", f->start, f->samples,
	    f->period);
	json_num(out, f->percent);
	{
		double lo, hi;
		bt_wilson(f->samples, bt_session_samples(s), &lo, &hi);
		json_ci95(out, lo, hi);
	}
	if (f->file != NULL) {
		fputs(", \"file\": ", out);
		json_str(out, f->file);
		fprintf(out, ", \"line\": %u", f->line);
	}
	fputs(" }", out);
}

/* Regions of an annotation view, hottest first. */
static void
json_regions(FILE *out, const struct bt_view *v)
{
	size_t i, nr = 0;
	int want;
	bool first = true;

	for (i = 0; i < bt_view_nrows(v); i++)
		if (bt_view_row(v, i)->region >= 0)
			nr = BT_MAX(nr, (size_t)bt_view_row(v, i)->region + 1);
	fputs("\"regions\": [", out);
	for (want = 0; (size_t)want < nr; want++) {
		uint64_t lo = 0, hi = 0, smp = 0;
		double adj = 0, pct = 0;
		bool seen = false;
		for (i = 0; i < bt_view_nrows(v); i++) {
			const struct bt_row *r = bt_view_row(v, i);
			if (r->kind != BT_ROW_INSN || r->region != want)
				continue;
			if (!seen)
				lo = r->addr;
			hi = r->addr + r->size;
			seen = true;
			smp += r->samples;
			adj += r->adjusted;
			pct += r->percent;
		}
		fprintf(out, "%s{ \"start\": \"0x%" PRIx64 "\", \"end\": \"0x%" PRIx64
		    "\", \"samples\": %" PRIu64 ", \"percent\": ", first ? " " : ", ",
		    lo, hi, smp);
		json_num(out, pct);
		fputs(", \"adjusted_samples\": ", out);
		json_num(out, adj);
		fputs(" }", out);
		first = false;
	}
	fputs(first ? "]" : " ]", out);
}

static void
json_annotation(FILE *out, struct bt_session *s, const struct bt_view *v)
{
	const struct bt_row *r0 = bt_view_nrows(v) ? bt_view_row(v, 0) : NULL;
	const struct bt_func *f = bt_session_func(s, r0 ? r0->func : 0);
	size_t i;

	fputs("{ \"function\": ", out);
	json_str(out, f->name);
	fputs(", \"module\": ", out);
	json_str(out, f->module);
	fprintf(out, ", \"address\": \"0x%" PRIx64 "\", \"samples\": %" PRIu64 ",\n      ",
	    f->start, f->samples);
	fputs("\"notes\": [", out);
	for (i = 0; i < bt_view_nnotes(v); i++) {
		fputs(i ? ", " : " ", out);
		json_str(out, bt_view_note(v, i));
	}
	fputs(bt_view_nnotes(v) ? " ],\n      " : "],\n      ", out);
	json_regions(out, v);
	fputs(",\n      \"rows\": [", out);
	for (i = 0; i < bt_view_nrows(v); i++) {
		fputs(i ? ",\n        " : "\n        ", out);
		json_row(out, bt_view_row(v, i));
	}
	fputs(" ] }", out);
}

static void
json_header(FILE *out, struct bt_session *s)
{
	const struct bt_profile_info *in = bt_session_info(s);
	struct bt_profile *p = s->p;
	double from, to;
	size_t i;

	fprintf(out, "{ \"format\": \"benchtui-1\", \"command\": [");
	if (p->meta.argc) {
		for (i = 0; i < p->meta.argc; i++) {
			fputs(i ? ", " : "", out);
			json_str(out, p->meta.argv[i]);
		}
	} else if (in->command[0]) {
		json_str(out, in->command);
	}
	fputs("], \"event\": ", out);
	json_str(out, bt_session_event(s));
	fprintf(out, ", \"frequency\": %u,\n  \"samples\": %" PRIu64
	    ", \"lost\": %" PRIu64 ", \"throttled\": %" PRIu64 ", \"duration_s\": ",
	    in->frequency, bt_session_samples(s), in->lost, in->throttled);
	json_num(out, in->duration);
	bt_session_window(s, &from, &to);
	fputs(", \"window_s\": [", out);
	json_num(out, from);
	fputs(", ", out);
	json_num(out, to);
	fputs("]", out);
	if (in->has_status) {
		int st = in->wait_status;
		fprintf(out, ", \"exit_status\": %d",
		    WIFEXITED(st) ? WEXITSTATUS(st) :
		    WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 0);
		if (WIFSIGNALED(st))
			fprintf(out, ", \"signal\": %d", WTERMSIG(st));
	}
	if (in->event_note && in->event_note[0]) {
		fputs(", \"event_note\": ", out);
		json_str(out, in->event_note);
	}
	fputs(",\n  \"notes\": [", out);
	for (i = 0; i < bt_session_nnotes(s); i++) {
		fputs(i ? ", " : " ", out);
		json_str(out, bt_session_note(s, i));
	}
	fputs(bt_session_nnotes(s) ? " ]" : "]", out);
}

/* The functions a whole-profile export annotates. */
static size_t
pick(struct bt_session *s, const struct bt_export_opts *o, size_t *idx, size_t max,
     struct bt_error *err)
{
	size_t n = 0, i, top = o->top;

	if (o->func != NULL) {
		long f = bt_session_find(s, o->func);
		if (f < 0) {
			bt_error_set(err, BT_ENOENT,
			    "no sampled function '%s' (see the hot-function table)",
			    o->func);
			return (size_t)-1;
		}
		idx[0] = (size_t)f;
		return 1;
	}
	for (i = 0; i < bt_session_nfuncs(s) && n < max; i++) {
		const struct bt_func *f = bt_session_func(s, i);
		if (!f->can_annotate)
			continue;
		if (!o->all && n >= top)
			break;
		idx[n++] = i;
	}
	return n;
}

int
bt_export(FILE *out, struct bt_session *s, const struct bt_export_opts *o,
	  struct bt_error *err)
{
	size_t nf = bt_session_nfuncs(s), n, i;
	size_t *idx = bt_xcalloc(nf + 1, sizeof(size_t));
	struct bt_view *fv;
	bool first = true;

	n = pick(s, o, idx, nf, err);
	if (n == (size_t)-1) {
		free(idx);
		return -BT_ENOENT;
	}
	fv = bt_view_functions(s, &o->view, 0);
	if (o->format == BT_FORMAT_TEXT) {
		const struct bt_finding *fd;
		size_t nf2 = bt_session_findings(s, &fd);

		text_header(out, s);
		fputs("#\n", out);
		text_view(out, fv, false);
		fputs("\n", out);
		if (nf2) {
			fputs("## lint\n", out);
			for (i = 0; i < nf2; i++)
				fprintf(out, "# %s%s%s (%.1f%%): %s\n", fd[i].check,
				    fd[i].function ? " in " : "",
				    fd[i].function ? fd[i].function : "", fd[i].percent,
				    fd[i].message);
			fputs("\n", out);
		}
		for (i = 0; i < n; i++) {
			struct bt_error aerr = { 0 };
			struct bt_view *v = bt_view_annotate(s, idx[i], &o->view, &aerr);
			if (v == NULL) {
				fprintf(out, "## %s\n# note: %s\n\n",
				    bt_session_func(s, idx[i])->name, aerr.msg);
				continue;
			}
			text_view(out, v, true);
			fputs("\n", out);
			bt_view_free(v);
			if (o->all)	/* thousands of functions: keep memory flat */
				bt_session_forget(s, idx[i]);
		}
	} else {
		json_header(out, s);
		fputs(",\n  \"functions\": [", out);
		for (i = 0; i < bt_view_nrows(fv); i++) {
			fputs(i ? ",\n    " : "\n    ", out);
			json_func(out, s, bt_view_row(fv, i)->func);
		}
		fputs(" ],\n  \"findings\": [", out);
		{
			const struct bt_finding *fd;
			size_t nf2 = bt_session_findings(s, &fd);
			for (i = 0; i < nf2; i++) {
				fputs(i ? ",\n    " : "\n    ", out);
				fputs("{ \"check\": ", out);
				json_str(out, fd[i].check);
				if (fd[i].function != NULL) {
					fputs(", \"function\": ", out);
					json_str(out, fd[i].function);
				}
				fputs(", \"percent\": ", out);
				json_num(out, fd[i].percent);
				fputs(", \"message\": ", out);
				json_str(out, fd[i].message);
				fputs(" }", out);
			}
		}
		fputs(" ],\n  \"annotations\": [", out);
		for (i = 0; i < n; i++) {
			struct bt_view *v = bt_view_annotate(s, idx[i], &o->view, NULL);
			if (v == NULL)
				continue;
			fputs(first ? "\n    " : ",\n    ", out);
			first = false;
			json_annotation(out, s, v);
			bt_view_free(v);
			if (o->all)
				bt_session_forget(s, idx[i]);
		}
		fputs(" ] }\n", out);
	}
	bt_view_free(fv);
	free(idx);
	if (fflush(out) != 0 || ferror(out))
		return bt_error_errno(err, BT_EIO, errno, "cannot write the export");
	return 0;
}

int
bt_export_view(FILE *out, struct bt_session *s, const struct bt_view *v,
	       enum bt_format format, struct bt_error *err)
{
	size_t i;

	if (format == BT_FORMAT_TEXT) {
		text_header(out, s);
		fputs("#\n", out);
		text_view(out, v, true);
	} else {
		json_header(out, s);
		fputs(",\n  \"view\": { \"title\": ", out);
		json_str(out, bt_view_title(v));
		fputs(", \"rows\": [", out);
		for (i = 0; i < bt_view_nrows(v); i++) {
			const struct bt_row *r = bt_view_row(v, i);
			fputs(i ? ",\n    " : "\n    ", out);
			if (r->kind == BT_ROW_FUNC)
				json_func(out, s, r->func);
			else
				json_row(out, r);
		}
		fputs(" ] } }\n", out);
	}
	if (fflush(out) != 0 || ferror(out))
		return bt_error_errno(err, BT_EIO, errno, "cannot write the export");
	return 0;
}
