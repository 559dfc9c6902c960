/*
 * Harness output as it arrives: bytes to lines (terminal semantics for
 * '\r', escapes removed), lines to the per-harness parsers (one file
 * each, registered in the table below), results kept in the order printed.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "harness-int.h"

/* A longer line is cut (and still read): output is not unbounded memory. */
#define LINE_MAX_BYTES (64 * 1024)

/* The harnesses, in the order each line is offered to them. */
static const struct harness_ops *const harnesses[] = {
	&harness_gbench,
	&harness_go,
	&harness_criterion,
	&harness_libtest,
	&harness_tinybench,
	&harness_mitata,
	&harness_benchmarkjs,
	&harness_benchnode,
	&harness_jmh,
	&harness_openssl,
	&harness_custom,	/* last: only lines no other harness reads */
};
/* one harness an enum value: a parser's arrays hold every one of them */
_Static_assert(sizeof(harnesses) / sizeof(harnesses[0]) < BT_HARNESS_COUNT,
    "more harnesses than enum bt_harness values");

static const struct harness_ops *
ops_of(enum bt_harness h)
{
	for (size_t i = 0; i < BT_ARRAY_SIZE(harnesses); i++)
		if (harnesses[i]->harness == h)
			return harnesses[i];
	return NULL;
}

const char *
bt_harness_name(enum bt_harness h)
{
	const struct harness_ops *o = ops_of(h);

	return o != NULL ? o->name : "unknown";
}

enum bt_harness
bt_harness_from_name(const char *name)
{
	for (size_t i = 0; i < BT_ARRAY_SIZE(harnesses); i++)
		if (strcmp(name, harnesses[i]->name) == 0)
			return harnesses[i]->harness;
	return BT_HARNESS_UNKNOWN;
}

unsigned
bt_harness_traits(enum bt_harness h)
{
	const struct harness_ops *o = ops_of(h);

	return o != NULL ? o->traits : 0;
}

const struct bt_harness_frames *
bt_harness_frames(enum bt_harness h)
{
	const struct harness_ops *o = ops_of(h);

	return o != NULL ? o->frames : NULL;
}

struct bt_harness_parser *
bt_harness_parser_new(enum bt_harness only)
{
	struct bt_harness_parser *p = bt_xcalloc(1, sizeof(*p));

	p->only = only;
	bt_strpool_init(&p->pool);
	bt_strbuf_init(&p->seg);
	for (size_t i = 0; i < BT_ARRAY_SIZE(harnesses); i++) {
		const struct harness_ops *o = harnesses[i];

		if (only != BT_HARNESS_UNKNOWN && o->harness != only && o->also != only)
			continue;
		p->ops[p->nops] = o;
		p->state[p->nops++] = o->state_new != NULL ? o->state_new() : NULL;
	}
	return p;
}

void
bt_harness_parser_free(struct bt_harness_parser *p)
{
	if (p == NULL)
		return;
	for (size_t i = 0; i < p->results.n; i++) {
		BT_VEC_FREE(p->results.v[i]->counters);
		free(p->results.v[i]);
	}
	BT_VEC_FREE(p->results);
	bt_strbuf_release(&p->seg);
	bt_strpool_release(&p->pool);
	for (size_t i = 0; i < p->nops; i++)
		if (p->ops[i]->state_free != NULL)
			p->ops[i]->state_free(p->state[i]);
	free(p);
}

size_t
bt_harness_count(const struct bt_harness_parser *p)
{
	return p->results.n;
}

const struct bt_bench_result *
bt_harness_result(const struct bt_harness_parser *p, size_t i)
{
	if (i >= p->results.n)
		return NULL;
	return &p->results.v[i]->pub;
}

size_t
bt_harness_lines(const struct bt_harness_parser *p)
{
	return p->lineno;
}

const char *
hp_str(struct bt_harness_parser *p, const char *s, size_t len)
{
	return bt_strpool_add(&p->pool, s, len);
}

static const struct bt_bench_num no_num = { NAN, NULL };

struct bt_bench_result *
hp_result_new(struct bt_harness_parser *p, enum bt_harness h, const char *format,
    const char *name, size_t len, const struct hline *l)
{
	struct result_int *ri = bt_xcalloc(1, sizeof(*ri));
	struct bt_bench_result *r = &ri->pub;

	r->index = p->results.n;
	r->harness = h;
	r->format = format;
	r->name = hp_str(p, name, len);
	r->family = r->name;
	r->time = r->cpu_time = r->err = r->err_pct = no_num;
	r->low = r->high = r->iterations = no_num;
	r->text = hp_str(p, l->s, l->len);
	r->line = l->lineno;
	r->t_begin = l->t_begin;
	r->t_measure = NAN;
	r->t_end = l->t_end;
	r->t_start = NAN;
	BT_VEC_PUSH(p->results, ri);
	return r;
}

struct bt_bench_result *
hp_last(struct bt_harness_parser *p, enum bt_harness h)
{
	struct bt_bench_result *r;

	if (p->results.n == 0)
		return NULL;
	r = &p->results.v[p->results.n - 1]->pub;
	return r->harness == h ? r : NULL;
}

void
hp_counter(struct bt_harness_parser *p, struct bt_bench_result *r,
    const char *name, size_t nlen, const char *unit, size_t ulen, double value,
    const char *text, size_t tlen)
{
	struct result_int *ri = (struct result_int *)r;	/* pub is the first member */
	struct bt_bench_counter c;

	c.name = hp_str(p, name, nlen);
	c.unit = hp_str(p, unit, ulen);
	c.value = value;
	c.text = hp_str(p, text, tlen);
	BT_VEC_PUSH(ri->counters, c);
	r->counters = ri->counters.v;
	r->ncounters = ri->counters.n;
}

void
hp_set_num(struct bt_harness_parser *p, struct bt_bench_num *n, double value,
    const char *text, size_t len)
{
	n->value = value;
	n->text = hp_str(p, text, len);
}

void
hp_append_text(struct bt_harness_parser *p, struct bt_bench_result *r, const struct hline *l)
{
	size_t a = strlen(r->text);
	char *s = bt_strpool_alloc(&p->pool, a + 1 + l->len);

	memcpy(s, r->text, a);
	s[a] = '\n';
	memcpy(s + a + 1, l->s, l->len);
	s[a + 1 + l->len] = '\0';
	r->text = s;
}

void
hp_set_family(struct bt_harness_parser *p, struct bt_bench_result *r, size_t len)
{
	if (len < strlen(r->name))
		r->family = hp_str(p, r->name, len);
}

/* Lexing. */


bool
hp_eq(const struct tok *t, const char *s)
{
	return t->len == strlen(s) && memcmp(t->s, s, t->len) == 0;
}


void
hp_trim(const char **s, size_t *len)
{
	while (*len > 0 && ((*s)[0] == ' ' || (*s)[0] == '\t')) {
		(*s)++;
		(*len)--;
	}
	while (*len > 0 && ((*s)[*len - 1] == ' ' || (*s)[*len - 1] == '\t'))
		(*len)--;
}

#define OPS_SEC " ops/sec"

bool
hp_ops_line(const struct hline *l, struct tok *name, struct tok *num, struct tok *rest)
{
	const char *s = l->s, *end = l->s + l->len, *at = s, *x;
	double v;

	while ((at = hp_find(at, (size_t)(end - at), OPS_SEC)) != NULL) {
		/* back over the number to " x " */
		for (x = at; x > s && x[-1] != ' '; x--)
			;
		num->s = x;
		num->len = (size_t)(at - x);
		at += strlen(OPS_SEC);
		if (x - s < 3 || memcmp(x - 3, " x ", 3) != 0 ||
		    !hp_number(num->s, num->len, &v) || (at < end && *at != ' '))
			continue;
		name->s = s;
		name->len = (size_t)(x - 3 - s);
		hp_trim(&name->s, &name->len);
		rest->s = at;
		rest->len = (size_t)(end - at);
		hp_trim(&rest->s, &rest->len);
		return name->len > 0;
	}
	return false;
}

void
hp_set_rate(struct bt_harness_parser *p, struct bt_bench_result *r, const struct tok *num)
{
	double hz;

	hp_number(num->s, num->len, &hz);
	hp_set_num(p, &r->time, hz > 0 ? 1e9 / hz : NAN, num->s, num->len + strlen(OPS_SEC));
}

size_t
hp_tokens(const char *s, size_t len, struct tok *t, size_t max)
{
	size_t n = 0, i = 0;

	while (i < len && n < max) {
		while (i < len && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i == len)
			break;
		t[n].s = s + i;
		while (i < len && s[i] != ' ' && s[i] != '\t')
			i++;
		t[n].len = (size_t)(s + i - t[n].s);
		n++;
	}
	return n;
}

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * A whole token as a number: sign, digits (thousands grouped by ',' as
 * libtest and toLocaleString print them), fraction, exponent.
 */
bool
hp_number(const char *s, size_t len, double *v)
{
	char buf[64];
	size_t i = 0, o = 0, run = 0, digits = 0;
	bool grouped = false;
	char *end;

	if (len == 0 || len >= sizeof(buf))
		return false;
	if (s[0] == '+' || s[0] == '-')
		buf[o++] = s[i++];
	for (; i < len; i++) {
		if (is_digit(s[i])) {
			buf[o++] = s[i];
			run++;
			digits++;
		} else if (s[i] == ',' && run > 0 && (grouped ? run == 3 : run <= 3)) {
			grouped = true;
			run = 0;
		} else {
			break;
		}
	}
	if (grouped && run != 3)
		return false;
	if (i < len && s[i] == '.') {
		buf[o++] = s[i++];
		while (i < len && is_digit(s[i])) {
			buf[o++] = s[i++];
			digits++;
		}
	}
	if (digits == 0)
		return false;
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		buf[o++] = s[i++];
		if (i < len && (s[i] == '+' || s[i] == '-'))
			buf[o++] = s[i++];
		if (i == len || !is_digit(s[i]))
			return false;
		while (i < len && is_digit(s[i]))
			buf[o++] = s[i++];
	}
	if (i != len)
		return false;
	buf[o] = '\0';
	*v = strtod(buf, &end);
	return *end == '\0';
}

double
hp_time_unit(const char *s, size_t len)
{
	static const struct { const char *u; double f; } units[] = {
		{ "ps", 1e-3 }, { "ns", 1 }, { "us", 1e3 },
		{ "\xc2\xb5s", 1e3 },	/* U+00B5 MICRO SIGN, criterion and mitata */
		{ "\xce\xbcs", 1e3 },	/* U+03BC GREEK SMALL LETTER MU */
		{ "ms", 1e6 }, { "s", 1e9 },
		{ "m", 60e9 }, { "h", 3600e9 },	/* mitata */
	};

	for (size_t i = 0; i < BT_ARRAY_SIZE(units); i++)
		if (strlen(units[i].u) == len && memcmp(units[i].u, s, len) == 0)
			return units[i].f;
	return 0;
}

/*
 * ANSI escapes: CSI (ESC [ ... final), OSC/DCS/SOS/PM/APC strings (to BEL
 * or ESC \), nF escapes (ESC, intermediates 0x20-0x2f, final: ESC ( B, as
 * terminfo's sgr0 writes), and two-byte escapes. C1 controls are not
 * recognized: in UTF-8 text those bytes are continuation bytes.
 */
size_t
bt_ansi_strip(char *s, size_t len)
{
	size_t i = 0, o = 0;
	unsigned char c;

	while (i < len) {
		c = (unsigned char)s[i];
		if (c != 0x1b) {
			if (c >= 0x20 || c == '\t')
				s[o++] = (char)c;
			else if (c == '\b' && o > 0)
				o--;
			i++;
			continue;
		}
		if (++i >= len)
			break;
		c = (unsigned char)s[i];
		if (c == '[') {
			for (i++; i < len; i++) {
				c = (unsigned char)s[i];
				if (c >= 0x40 && c <= 0x7e) {
					i++;
					break;
				}
				if (c < 0x20)
					break;
			}
		} else if (c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_') {
			for (i++; i < len; i++) {
				if (s[i] == '\a') {
					i++;
					break;
				}
				if (s[i] == 0x1b && i + 1 < len && s[i + 1] == '\\') {
					i += 2;
					break;
				}
			}
		} else if (c >= 0x20 && c <= 0x2f) {
			while (i < len && (unsigned char)s[i] >= 0x20 &&
			    (unsigned char)s[i] <= 0x2f)
				i++;
			if (i < len)
				i++;
		} else {
			i++;
		}
	}
	return o;
}

/* Line assembly. */

static void
dispatch(struct bt_harness_parser *p, const struct hline *l)
{
	for (size_t i = 0; i < p->nops; i++)
		p->ops[i]->line(p, p->state[i], l);
}

/* Hand the current segment on: a line, or text a '\r' will overwrite. */
static void
emit(struct bt_harness_parser *p, bool transient, double t)
{
	struct hline l;
	size_t n = bt_ansi_strip(p->seg.buf, p->seg.len);

	p->seg.buf[n] = '\0';
	l.s = p->seg.buf;
	l.len = n;
	l.transient = transient;
	l.t_begin = transient ? (p->seg_shown ? p->seg_t0 : t) : (p->line_shown ? p->line_t0 : t);
	l.t_end = t;
	if (!transient)
		l.lineno = ++p->lineno;
	else
		l.lineno = p->lineno + 1;
	/* blank progress text (criterion erases with spaces) says nothing */
	if (!transient || strspn(l.s, " \t") < n)
		dispatch(p, &l);
	bt_strbuf_reset(&p->seg);
	p->seg_shown = false;
	if (!transient)
		p->line_started = p->line_shown = false;
}

enum { ESC_NONE, ESC_START, ESC_CSI, ESC_STRING, ESC_STRING_END, ESC_NF };

/*
 * Follow escape sequences byte by byte, only to know when a line's first
 * visible byte arrived: GB writes a colour reset right after each '\n',
 * long before the next line's text (bt_ansi_strip removes them later).
 */
static bool
visible(struct bt_harness_parser *p, unsigned char c)
{
	switch (p->esc) {
	case ESC_START:
		p->esc = c == '[' ? ESC_CSI : (c != 0 && strchr("]PX^_", c)) ? ESC_STRING :
		    c >= 0x20 && c <= 0x2f ? ESC_NF : ESC_NONE;
		return false;
	case ESC_CSI:
		if (c >= 0x40 && c <= 0x7e)
			p->esc = ESC_NONE;
		return false;
	case ESC_STRING:
		if (c == 0x07)
			p->esc = ESC_NONE;
		else if (c == 0x1b)
			p->esc = ESC_STRING_END;
		return false;
	case ESC_STRING_END:
		p->esc = ESC_NONE;
		return false;
	case ESC_NF:
		if (c >= 0x30)
			p->esc = ESC_NONE;
		return false;
	default:
		if (c == 0x1b) {
			p->esc = ESC_START;
			return false;
		}
		return c >= 0x20 || c == '\t';
	}
}

/* n bytes of the segment, which a visible one among them shows at time t. */
static void
add_bytes(struct bt_harness_parser *p, const char *s, size_t n, bool shown, double t)
{
	p->line_started = true;
	if (shown && !p->line_shown) {
		p->line_shown = true;
		p->line_t0 = t;
	}
	if (shown && !p->seg_shown) {
		p->seg_shown = true;
		p->seg_t0 = t;
	}
	if (p->seg.len < LINE_MAX_BYTES)
		bt_strbuf_add(&p->seg, s, BT_MIN(n, LINE_MAX_BYTES - p->seg.len));
}

/*
 * The plain text from s[i] (visible bytes, outside an escape sequence),
 * added at once. Returns where it stopped.
 */
static size_t
add_plain(struct bt_harness_parser *p, const char *s, size_t i, size_t len,
	  double t)
{
	size_t j = i;

	while (j < len && ((unsigned char)s[j] >= 0x20 || s[j] == '\t'))
		j++;
	if (j > i)
		add_bytes(p, s + i, j - i, true, t);
	return j;
}

void
bt_harness_feed(struct bt_harness_parser *p, const void *buf, size_t len, double t)
{
	const char *s = buf;

	for (size_t i = 0; i < len; i++) {
		char c;

		if (!p->pending_cr && p->esc == ESC_NONE) {
			i = add_plain(p, s, i, len, t);
			if (i == len)
				break;
		}
		c = s[i];
		if (p->pending_cr) {
			p->pending_cr = false;
			if (c == '\n') {
				emit(p, false, t);
				continue;
			}
			emit(p, true, p->cr_t);
		}
		if (c == '\r') {
			p->line_started = true;
			p->pending_cr = true;
			p->cr_t = t;
		} else if (c == '\n') {
			emit(p, false, t);
		} else {
			add_bytes(p, &c, 1, visible(p, (unsigned char)c), t);
		}
	}
}

void
bt_harness_finish(struct bt_harness_parser *p, double t)
{
	if (p->pending_cr || p->line_started)
		bt_harness_feed(p, "\n", 1, t);
	p->pending_cr = false;
	for (size_t i = 0; i < p->nops; i++)
		if (p->ops[i]->finish != NULL)
			p->ops[i]->finish(p, p->state[i]);
}

int
bt_harness_feed_file(struct bt_harness_parser *p, const char *path, struct bt_error *err)
{
	struct bt_strbuf sb = BT_STRBUF_INIT;
	int rc = bt_strbuf_read_file(&sb, path, 0);

	if (rc < 0) {
		bt_strbuf_release(&sb);
		return bt_error_errno(err, BT_EIO, -rc, "cannot read '%s'", path);
	}
	bt_harness_feed(p, sb.buf, sb.len, NAN);
	bt_harness_finish(p, NAN);
	bt_strbuf_release(&sb);
	return 0;
}
