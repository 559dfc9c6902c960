/* The streaming JSON writer (json-writer.h). */
#include <inttypes.h>

#include "base.h"
#include "export/json-writer.h"

void
bt_jw_init(struct bt_jw *w, FILE *out)
{
	w->out = out;
	w->depth = -1;
	w->brk = -1;
}

static void
indent(struct bt_jw *w, int n)
{
	fputc('\n', w->out);
	while (n-- > 0)
		fputc(' ', w->out);
}

/*
 * The length of the valid UTF-8 sequence at p, 0 when p starts none: the
 * forms of RFC 3629, so no overlong form (c0 af, e0 80 af), no surrogate
 * (ed a0 80) and nothing above U+10FFFF (f4 90 80 80), which a JSON
 * reader would refuse. Stops at the NUL.
 */
static size_t
utf8_len(const unsigned char *p)
{
	unsigned lo = 0x80, hi = 0xbf;	/* the second byte's range */
	size_t n, k;

	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		n = 1;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		n = 2;
		if (p[0] == 0xe0)
			lo = 0xa0;
		else if (p[0] == 0xed)
			hi = 0x9f;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		n = 3;
		if (p[0] == 0xf0)
			lo = 0x90;
		else if (p[0] == 0xf4)
			hi = 0x8f;
	} else {
		return 0;
	}
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (k = 2; k <= n; k++)
		if ((p[k] & 0xc0) != 0x80)
			return 0;
	return n + 1;
}

static void
escape(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	fputc('"', out);
	while (*p) {
		unsigned c = *p;
		size_t n;

		if (c == '"' || c == '\\') {
			fputc('\\', out);
			fputc((int)c, out);
			p++;
			continue;
		}
		if (c < 0x20 || c == 0x7f) {
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
		/* UTF-8: copy a valid sequence, replace a byte that starts none */
		n = utf8_len(p);
		if (n == 0) {
			fputs("\\ufffd", out);
			p++;
			continue;
		}
		if (n == 2 && c == 0xc2 && p[1] < 0xa0) {
			/* a C1 control (U+0080-U+009F): a terminal showing the JSON obeys it */
			fprintf(out, "\\u%04x", p[1]);
			p += 2;
			continue;
		}
		fwrite(p, 1, n, out);
		p += n;
	}
	fputc('"', out);
}

/* The separator before a member, and its key. */
static void
member(struct bt_jw *w, const char *key)
{
	if (w->depth >= 0) {
		struct bt_jw_level *c = &w->st[w->depth];

		if (c->style == BT_JW_LINES) {
			if (!c->first)
				fputc(',', w->out);
			indent(w, c->indent);
		} else if (w->brk >= 0) {
			if (!c->first)
				fputc(',', w->out);
			indent(w, w->brk);
		} else if (c->style == BT_JW_SPACED)
			fputs(c->first ? " " : ", ", w->out);
		else if (!c->first)
			fputs(", ", w->out);
		c->first = false;
	}
	w->brk = -1;
	if (key != NULL) {
		escape(w->out, key);
		fputs(": ", w->out);
	}
}

static void
open_container(struct bt_jw *w, const char *key, bool array,
	       enum bt_jw_style style, int ind)
{
	member(w, key);
	if (w->depth + 1 >= BT_JW_DEPTH)
		BT_BUG("JSON nested too deep");
	w->depth++;
	w->st[w->depth].array = array;
	w->st[w->depth].first = true;
	w->st[w->depth].style = style;
	w->st[w->depth].indent = ind;
	fputc(array ? '[' : '{', w->out);
}

void
bt_jw_object(struct bt_jw *w, const char *key, enum bt_jw_style style, int ind)
{
	open_container(w, key, false, style, ind);
}

void
bt_jw_array(struct bt_jw *w, const char *key, enum bt_jw_style style, int ind)
{
	open_container(w, key, true, style, ind);
}

void
bt_jw_end(struct bt_jw *w)
{
	struct bt_jw_level *c = &w->st[w->depth];
	char close = c->array ? ']' : '}';

	if (c->style == BT_JW_LINES || (c->style == BT_JW_SPACED && !c->first))
		fputc(' ', w->out);
	fputc(close, w->out);
	w->depth--;
	w->brk = -1;
}

void
bt_jw_break(struct bt_jw *w, int ind)
{
	w->brk = ind;
}

void
bt_jw_str(struct bt_jw *w, const char *key, const char *s)
{
	member(w, key);
	escape(w->out, s);
}

void
bt_jw_u64(struct bt_jw *w, const char *key, uint64_t v)
{
	member(w, key);
	fprintf(w->out, "%" PRIu64, v);
}

void
bt_jw_int(struct bt_jw *w, const char *key, long long v)
{
	member(w, key);
	fprintf(w->out, "%lld", v);
}

/* (The range is tested before the cast: (int64_t)1e20 is undefined.) */
void
bt_jw_num(struct bt_jw *w, const char *key, double d)
{
	member(w, key);
	if (d != d || d > 1e300 || d < -1e300)
		fputs("0", w->out);
	else if (d < 1e15 && d > -1e15 && d == (double)(int64_t)d)
		fprintf(w->out, "%" PRId64, (int64_t)d);
	else
		fprintf(w->out, "%.2f", d);
}

void
bt_jw_exact(struct bt_jw *w, const char *key, double d)
{
	member(w, key);
	if (d != d || d > 1e300 || d < -1e300)
		fputs("null", w->out);
	else
		fprintf(w->out, "%.17g", d);
}

void
bt_jw_bool(struct bt_jw *w, const char *key, bool b)
{
	member(w, key);
	fputs(b ? "true" : "false", w->out);
}

void
bt_jw_hex(struct bt_jw *w, const char *key, uint64_t v)
{
	member(w, key);
	fprintf(w->out, "\"0x%" PRIx64 "\"", v);
}
