/*
 * JS harnesses under node.
 *
 * tinybench: console.table(bench.table()), a box-drawn table whose
 * columns changed between versions; cells are util.inspect()ed (strings
 * quoted). Columns are found by their header:
 *	v2:   Task Name | ops/sec ('1,234,567') | Average Time (ns) | Margin ('±0.50%') | Samples
 *	v3:   Task name | Latency average (ns) ('123.45 ± 0.50%') | ... | Samples
 *	v4-6: Task name | Latency avg (ns) | Latency med (ns) |
 *	      Throughput avg (ops/s) | ... | Samples
 * tinybench prints nothing while it runs: the table comes at the end.
 *
 * mitata 1.x: after a "benchmark  avg (min … max) p75 / p99" header,
 *	NAME    10.65 µs/iter  10.83 µs  ▂▃█▅   [!]
 *	      (10.31 µs … 10.89 µs)  10.88 µs  ▅▅▅
 *	      (  0.13  b …   0.19  b)   0.18  b  █▁▁   (heap, when measured)
 * each benchmark's lines printed when it finishes; "!" when mitata thinks
 * the body was optimized out. Coloured unless NO_COLOR is set.
 */
#include <math.h>
#include <string.h>
#include <strings.h>

#include "harness-int.h"

#define BOX_V "\xe2\x94\x82"	/* U+2502 │ */
#define ELLIPSIS "\xe2\x80\xa6"	/* U+2026 … */
#define PLUSMINUS "\xc2\xb1"	/* U+00B1 ± */
#define MAX_CELLS 32
#define MAX_TOKENS 64

/* Cells between '│' (the row's outer borders dropped), trimmed. */
static size_t
cells(const char *s, size_t len, struct tok *c, size_t max)
{
	const char *end = s + len, *at = hp_find(s, len, BOX_V), *next;
	size_t n = 0;

	if (at == NULL)
		return 0;
	while (n < max && at != NULL) {
		at += 3;
		next = hp_find(at, (size_t)(end - at), BOX_V);
		if (next == NULL)
			break;
		c[n].s = at;
		c[n].len = (size_t)(next - at);
		hp_trim(&c[n].s, &c[n].len);
		n++;
		at = next;
	}
	return n;
}

/* util.inspect's quotes: 'x', "x" (x holds '), `x` (x holds both). */
static void
unquote(struct tok *t)
{
	if (t->len >= 2 && strchr("'\"`", t->s[0]) != NULL &&
	    t->s[t->len - 1] == t->s[0]) {
		t->s++;
		t->len -= 2;
	}
}

static bool
header_is(const char *h, const char *prefix)
{
	return strncasecmp(h, prefix, strlen(prefix)) == 0;
}

/* "(ns)" at the end of a header: the unit of the column. */
static double
header_unit(const char *h, const char **unit, size_t *ulen)
{
	const char *open = strrchr(h, '('), *close = strrchr(h, ')');

	*unit = "";
	*ulen = 0;
	if (open == NULL || close == NULL || close < open)
		return 0;
	*unit = open + 1;
	*ulen = (size_t)(close - open - 1);
	return hp_time_unit(open + 1, *ulen);
}

/* "6196.7 ± 0.67%" or "±0.50%": leading number, then the ± part. */
static void
value_pm(const struct tok *c, struct tok *num, struct tok *pm)
{
	const char *at = hp_find(c->s, c->len, PLUSMINUS);

	num->s = c->s;
	num->len = at ? (size_t)(at - c->s) : c->len;
	hp_trim(&num->s, &num->len);
	pm->s = NULL;
	pm->len = 0;
	if (at != NULL) {
		pm->s = at + 2;
		pm->len = (size_t)(c->s + c->len - pm->s);
		hp_trim(&pm->s, &pm->len);
	}
}

static void
tinybench_row(struct bt_harness_parser *p, const struct hline *l, struct tok *c, size_t n)
{
	struct table_state *tb = &p->table;
	struct bt_bench_result *r = NULL;
	struct tok num, pm;
	double v;

	for (size_t i = 0; i < n && i < tb->columns.n; i++)
		if (header_is(tb->columns.v[i], "task name")) {
			unquote(&c[i]);
			r = hp_result_new(p, BT_HARNESS_TINYBENCH, "table", c[i].s, c[i].len, l);
		}
	if (r == NULL)
		return;
	for (size_t i = 0; i < n && i < tb->columns.n; i++) {
		const char *h = tb->columns.v[i], *unit;
		size_t ulen;
		double f = header_unit(h, &unit, &ulen);

		if (header_is(h, "task name") || strcmp(h, "(index)") == 0)
			continue;
		unquote(&c[i]);
		value_pm(&c[i], &num, &pm);
		if (header_is(h, "Error")) {
			r->flags |= BT_BENCH_ERROR;
			r->error = hp_str(p, c[i].s, c[i].len);
		} else if (header_is(h, "Samples") && hp_number(num.s, num.len, &v)) {
			hp_set_num(p, &r->iterations, v, num.s, num.len);
		} else if (header_is(h, "Margin") && pm.s != NULL && pm.len > 1 &&
		    pm.s[pm.len - 1] == '%' && hp_number(pm.s, pm.len - 1, &v)) {
			hp_set_num(p, &r->err_pct, v, pm.s, pm.len);
		} else if (f > 0 && isnan(r->time.value) && (header_is(h, "Latency av") ||
		    header_is(h, "Average Time")) && hp_number(num.s, num.len, &v)) {
			hp_set_num(p, &r->time, v * f, num.s, num.len);
			if (pm.s != NULL && pm.len > 1 && pm.s[pm.len - 1] == '%' &&
			    hp_number(pm.s, pm.len - 1, &v))
				hp_set_num(p, &r->err_pct, v, pm.s, pm.len);
		} else {
			hp_counter(p, r, h, strlen(h), unit, ulen,
			    hp_number(num.s, num.len, &v) ? v : NAN, c[i].s, c[i].len);
		}
	}
}

void
tinybench_line(struct bt_harness_parser *p, const struct hline *l)
{
	struct table_state *tb = &p->table;
	struct tok c[MAX_CELLS];
	size_t n;

	if (l->transient)
		return;
	if (hp_starts(l->s, l->len, "\xe2\x94\x94")) {	/* └ */
		tb->kind = 0;
		return;
	}
	n = cells(l->s, l->len, c, MAX_CELLS);
	if (n == 0)
		return;
	for (size_t i = 0; i < n; i++)
		if (c[i].len == 9 && strncasecmp(c[i].s, "task name", 9) == 0) {
			HP_STRV_FREE(tb->columns);
			for (size_t k = 0; k < n; k++)
				BT_VEC_PUSH(tb->columns, bt_xstrndup(c[k].s, c[k].len));
			tb->kind = BT_HARNESS_TINYBENCH;
			return;
		}
	if (tb->kind == BT_HARNESS_TINYBENCH)
		tinybench_row(p, l, c, n);
}

/* Tokens k, k+1 as "number time-unit"; the value in ns. */
static bool
time_pair(const struct tok *t, size_t n, size_t k, double *ns)
{
	double v, f;

	if (k + 1 >= n || !hp_number(t[k].s, t[k].len, &v))
		return false;
	f = hp_time_unit(t[k + 1].s, t[k + 1].len);
	if (f == 0)
		return false;
	*ns = v * f;
	return true;
}

static size_t
span(const struct tok *a, const struct tok *b)
{
	return (size_t)(b->s + b->len - a->s);
}

/* A counter from the tokens "number" "unit", as printed. */
static void
pair_counter(struct bt_harness_parser *p, struct bt_bench_result *r, const char *name,
    const struct tok *num, const struct tok *unit)
{
	double v;

	hp_number(num->s, num->len, &v);
	hp_counter(p, r, name, strlen(name), unit->s, unit->len, v, num->s, span(num, unit));
}

/* The lines under a result: "(min … max) p99", heap or gc. */
static void
mitata_detail(struct bt_harness_parser *p, const struct hline *l)
{
	struct bt_bench_result *r = hp_last(p, BT_HARNESS_MITATA);
	struct tok t[MAX_TOKENS];
	size_t n;
	double a, b, c;
	const char *s = l->s;
	size_t len = l->len;

	if (r == NULL || r->line + 3 < l->lineno)
		return;
	hp_trim(&s, &len);
	if (len == 0 || s[0] != '(' || hp_find(s, len, ELLIPSIS) == NULL)
		return;
	/* "(" a u "…" b u ")" c u: spaces around the parens vary */
	n = hp_tokens(s + 1, len - 1, t, MAX_TOKENS);
	if (n >= 7 && time_pair(t, n, 0, &a) && hp_eq(&t[2], ELLIPSIS) &&
	    t[4].len > 1 && t[4].s[t[4].len - 1] == ')') {
		struct tok u = t[4];

		u.len--;
		if (hp_number(t[3].s, t[3].len, &b) && hp_time_unit(u.s, u.len) > 0 &&
		    time_pair(t, n, 5, &c)) {
			pair_counter(p, r, "min", &t[0], &t[1]);
			pair_counter(p, r, "max", &t[3], &u);
			pair_counter(p, r, "p99", &t[5], &t[6]);
		}
	}
	hp_append_text(p, r, l);
}

void
mitata_line(struct bt_harness_parser *p, const struct hline *l)
{
	struct tok t[MAX_TOKENS];
	size_t n, k, namelen;
	struct bt_bench_result *r;
	double ns, v;
	const char *err;

	if (l->transient)
		return;
	if (hp_starts(l->s, l->len, "benchmark ") &&
	    hp_find(l->s, l->len, "avg (min " ELLIPSIS " max)") != NULL) {
		p->mitata = 1;
		return;
	}
	if (!p->mitata || l->len == 0)
		return;
	if (l->s[0] == ' ') {
		mitata_detail(p, l);
		return;
	}
	n = hp_tokens(l->s, l->len, t, MAX_TOKENS);
	/* NAME avg u/iter p75 u [p99 u] histogram [!] */
	for (k = 1; k + 1 < n; k++) {
		if (t[k + 1].len > 5 && memcmp(t[k + 1].s + t[k + 1].len - 5, "/iter", 5) == 0 &&
		    hp_number(t[k].s, t[k].len, &v) &&
		    hp_time_unit(t[k + 1].s, t[k + 1].len - 5) > 0)
			break;
	}
	if (k + 1 >= n) {
		err = hp_find(l->s, l->len, " error: ");
		if (err == NULL)
			return;
		namelen = (size_t)(err - l->s);
		while (namelen > 0 && l->s[namelen - 1] == ' ')
			namelen--;
		if (namelen == 0)
			return;
		r = hp_result_new(p, BT_HARNESS_MITATA, "table", l->s, namelen, l);
		r->flags |= BT_BENCH_ERROR;
		r->error = hp_str(p, err + 8, (size_t)(l->s + l->len - err - 8));
		return;
	}
	namelen = (size_t)(t[k].s - l->s);
	while (namelen > 0 && l->s[namelen - 1] == ' ')
		namelen--;
	if (namelen == 0)
		return;
	r = hp_result_new(p, BT_HARNESS_MITATA, "table", l->s, namelen, l);
	hp_set_num(p, &r->time, v * hp_time_unit(t[k + 1].s, t[k + 1].len - 5), t[k].s,
	    span(&t[k], &t[k + 1]) - 5);
	k += 2;
	if (time_pair(t, n, k, &ns)) {
		pair_counter(p, r, "p75", &t[k], &t[k + 1]);
		k += 2;
		if (time_pair(t, n, k, &ns))	/* compact layout */
			pair_counter(p, r, "p99", &t[k], &t[k + 1]);
	}
	if (n > 0 && hp_eq(&t[n - 1], "!"))
		r->flags |= BT_BENCH_DEAD_HINT;
}
