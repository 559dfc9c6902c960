/*
 * tinybench under node: console.table(bench.table()), a box-drawn table
 * whose columns changed between versions; cells are util.inspect()ed
 * (strings quoted). Columns are found by their header:
 *	v2:   Task Name | ops/sec ('1,234,567') | Average Time (ns) | Margin ('±0.50%') | Samples
 *	v3:   Task name | Latency average (ns) ('123.45 ± 0.50%') | ... | Samples
 *	v4-6: Task name | Latency avg (ns) | Latency med (ns) |
 *	      Throughput avg (ops/s) | ... | Samples
 * tinybench prints nothing while it runs: the table comes at the end.
 * A time's text is its cell's number with its header's unit ("6196.7 ns").
 */
#include <math.h>
#include <string.h>
#include <strings.h>

#include "harness-int.h"

#define BOX_V "\xe2\x94\x82"	/* U+2502 │ */
#define PLUSMINUS "\xc2\xb1"	/* U+00B1 ± */
#define MAX_CELLS 32

/* A parser's table: its header cells, once one was read. */
struct tinybench_state {
	bool table;			/* in a table whose header was read */
	BT_VEC(char *) columns;		/* the header cells */
};

static void *
tinybench_state_new(void)
{
	return bt_xcalloc(1, sizeof(struct tinybench_state));
}

static void
tinybench_state_free(void *state)
{
	struct tinybench_state *tb = state;

	HP_STRV_FREE(tb->columns);
	free(tb);
}

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
tinybench_row(struct bt_harness_parser *p, struct tinybench_state *tb, const struct hline *l,
    struct tok *c, size_t n)
{
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
			/* the cell's number with the header's unit: "6196.7 ns" */
			r->time.value = v * f;
			r->time.text = bt_strpool_addf(&p->pool, "%.*s %.*s", (int)num.len,
			    num.s, (int)ulen, unit);
			if (pm.s != NULL && pm.len > 1 && pm.s[pm.len - 1] == '%' &&
			    hp_number(pm.s, pm.len - 1, &v))
				hp_set_num(p, &r->err_pct, v, pm.s, pm.len);
		} else {
			hp_counter(p, r, h, strlen(h), unit, ulen,
			    hp_number(num.s, num.len, &v) ? v : NAN, c[i].s, c[i].len);
		}
	}
}

static void
tinybench_line(struct bt_harness_parser *p, void *state, const struct hline *l)
{
	struct tinybench_state *tb = state;
	struct tok c[MAX_CELLS];
	size_t n;

	if (l->transient)
		return;
	if (hp_starts(l->s, l->len, "\xe2\x94\x94")) {	/* └ */
		tb->table = false;
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
			tb->table = true;
			return;
		}
	if (tb->table)
		tinybench_row(p, tb, l, c, n);
}

/*
 * Frames under node --perf-basic-prof (or a jitdump) are
 * "JS:<tier><name> <script>:<line>:<col>"; the task is an anonymous
 * function known by its script position. tinybench's measuring loop is
 * in its dist file (minified names: #m, s, #_).
 */
static const char *const tb_runner[] = {
	"JS:* */node_modules/tinybench*/*", NULL,
};

static const struct bt_harness_frames tinybench_frames = {
	.harness = BT_HARNESS_TINYBENCH,
	.runner = tb_runner,
	.pass = hp_js_pass,
	.pass_modules = hp_js_pass_modules,
	.entry = "JS:*NAME file:///path/bench.mjs:LINE:COL (the task function)",
};

const struct harness_ops harness_tinybench = {
	.harness = BT_HARNESS_TINYBENCH,
	.name = "tinybench",
	.traits = BT_HARNESS_T_AT_END,
	.state_new = tinybench_state_new,
	.state_free = tinybench_state_free,
	.line = tinybench_line,
	.frames = &tinybench_frames,
};
