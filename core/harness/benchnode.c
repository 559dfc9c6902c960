/*
 * bench-node (npm) under node --allow-natives-syntax: its default text
 * reporter prints every benchmark's line once all of them have run:
 *	fib(15)       x 229,673 ops/sec (11 runs sampled) min..max=(4.18us...4.72us)
 * (the name padded to 45 columns, the rate coloured under a terminal;
 * older versions and plugins add "v8-never-optimize=true " before
 * "min..max"). benchmarkMode 'time' prints "x T total time" instead of a
 * rate (0.15.0 prints "undefined total time"): a result without a time.
 * The time per operation is 1e9 / ops/sec, its text the rate as printed;
 * the runs are bench-node's samples, each many operations: a counter, not
 * iterations; min and max are counters in bench-node's units ("4.18us").
 * The pretty reporter ({ pretty: true }) prints, after "Benchmark results
 * (N total):", a tree of the names' '/'-separated parts:
 *	├─ work
 *	│ ├─ fib(15)           72,498 ops/sec (9 runs sampled) min..max=(4.18us...5.20us)
 * whose result is named by its path ("work/fib(15)", the name given to
 * add()); its rates have no " x " before them.
 */
#include <math.h>
#include <string.h>

#include "harness-int.h"

#define MAX_TOKENS 32
#define TOTAL_TIME " total time "
#define OPS_SEC " ops/sec "
#define TREE_V "\xe2\x94\x82 "		/* "│ " */
#define TREE_TEE "\xe2\x94\x9c\xe2\x94\x80 "	/* "├─ " */
#define TREE_END "\xe2\x94\x94\xe2\x94\x80 "	/* "└─ " */

/* The pretty reporter's tree, once its header was read. */
struct benchnode_state {
	bool tree;
	BT_VEC(char *) path;	/* the groups above the current line, by depth */
};

static void *
benchnode_state_new(void)
{
	return bt_xcalloc(1, sizeof(struct benchnode_state));
}

static void
benchnode_state_free(void *state)
{
	struct benchnode_state *bs = state;

	HP_STRV_FREE(bs->path);
	free(bs);
}

/* "(N runs sampled)" at @t[k]: N in *runs */
static bool
runs_sampled(const struct tok *t, size_t n, size_t k, double *runs)
{
	return k + 2 < n && t[k].s[0] == '(' && hp_number(t[k].s + 1, t[k].len - 1, runs) &&
	    (hp_eq(&t[k + 1], "runs") || hp_eq(&t[k + 1], "run")) &&
	    hp_eq(&t[k + 2], "sampled)");
}

/* A time as bench-node formats it ("4.18us", "260.00ns"): a counter @name. */
static void
time_counter(struct bt_harness_parser *p, struct bt_bench_result *r, const char *name,
    const char *s, const char *end)
{
	const char *u = s;
	double v;

	while (u < end && ((*u >= '0' && *u <= '9') || *u == '.' || *u == ','))
		u++;
	hp_counter(p, r, name, strlen(name), u, (size_t)(end - u),
	    hp_number(s, (size_t)(u - s), &v) ? v : NAN, s, (size_t)(end - s));
}

/* "min..max=(A...B)" and the plugins' "name=value" before it */
static void
benchnode_tail(struct bt_harness_parser *p, struct bt_bench_result *r,
    const struct tok *t, size_t n, size_t k)
{
	for (; k < n; k++) {
		const char *s = t[k].s, *end = t[k].s + t[k].len;
		const char *eq = memchr(s, '=', t[k].len), *dots;
		double v;

		if (hp_starts(s, t[k].len, "min..max=(") && end[-1] == ')' &&
		    (dots = hp_find(s, t[k].len, "...")) != NULL) {
			time_counter(p, r, "min", s + 10, dots);
			time_counter(p, r, "max", dots + 3, end - 1);
		} else if (eq != NULL && eq > s) {
			hp_counter(p, r, s, (size_t)(eq - s), "", 0,
			    hp_number(eq + 1, (size_t)(end - eq - 1), &v) ? v : NAN,
			    eq + 1, (size_t)(end - eq - 1));
		}
	}
}

/* "NAME x T total time (N runs sampled) ...": benchmarkMode 'time' */
static void
benchnode_total(struct bt_harness_parser *p, const struct hline *l)
{
	const char *tt = hp_find(l->s, l->len, TOTAL_TIME), *x;
	struct tok name, t[MAX_TOKENS];
	struct bt_bench_result *r;
	size_t n;
	double runs, v;

	if (tt == NULL)
		return;
	for (x = tt; x > l->s && x[-1] != ' '; x--)
		;
	if (x - l->s < 4 || memcmp(x - 3, " x ", 3) != 0)
		return;
	n = hp_tokens(tt + strlen(TOTAL_TIME), (size_t)(l->s + l->len - tt - strlen(TOTAL_TIME)),
	    t, MAX_TOKENS);
	if (!runs_sampled(t, n, 0, &runs))
		return;
	name.s = l->s;
	name.len = (size_t)(x - 3 - l->s);
	hp_trim(&name.s, &name.len);
	if (name.len == 0)
		return;
	r = hp_result_new(p, BT_HARNESS_BENCHNODE, "console", name.s, name.len, l);
	hp_counter(p, r, "total time", strlen("total time"), "", 0,
	    hp_number(x, (size_t)(tt - x), &v) ? v : NAN, x, (size_t)(tt - x));
	hp_counter(p, r, "runs sampled", strlen("runs sampled"), "", 0, runs,
	    t[0].s + 1, t[0].len - 1);
	benchnode_tail(p, r, t, n, 3);
}

/*
 * A result named @name (@len) whose rate is @num, followed by @rest:
 * "(N runs sampled) [plugin reports] min..max=(A...B)".
 */
static void
benchnode_result(struct bt_harness_parser *p, const struct hline *l, const char *name,
    size_t len, const struct tok *num, const struct tok *rest)
{
	struct tok t[MAX_TOKENS];
	struct bt_bench_result *r;
	size_t n = hp_tokens(rest->s, rest->len, t, MAX_TOKENS);
	double runs;

	if (!runs_sampled(t, n, 0, &runs) || n < 4 ||
	    !hp_starts(t[n - 1].s, t[n - 1].len, "min..max=("))
		return;
	r = hp_result_new(p, BT_HARNESS_BENCHNODE, "console", name, len, l);
	hp_set_rate(p, r, num);
	hp_counter(p, r, "runs sampled", strlen("runs sampled"), "", 0, runs,
	    t[0].s + 1, t[0].len - 1);
	benchnode_tail(p, r, t, n, 3);
}

/* A line of the pretty reporter's tree: a group, or a result under them. */
static void
benchnode_tree(struct bt_harness_parser *p, struct benchnode_state *bs, const struct hline *l)
{
	const char *s = l->s, *end = l->s + l->len, *at;
	struct tok name, num, rest;
	struct bt_strbuf full = BT_STRBUF_INIT;
	size_t depth = 0, v = strlen(TREE_V), c = strlen(TREE_TEE);
	double hz;

	for (;; depth++) {
		if ((size_t)(end - s) >= v && memcmp(s, TREE_V, v) == 0)
			s += v;
		else if (end - s >= 2 && memcmp(s, "  ", 2) == 0)
			s += 2;
		else
			break;
	}
	if ((size_t)(end - s) < c || (memcmp(s, TREE_TEE, c) != 0 && memcmp(s, TREE_END, c) != 0) ||
	    depth > bs->path.n)
		return;
	s += c;
	while (bs->path.n > depth)
		free(bs->path.v[--bs->path.n]);
	at = hp_find(s, (size_t)(end - s), OPS_SEC);
	if (at == NULL) {	/* a group: its children follow */
		name.s = s;
		name.len = (size_t)(end - s);
		hp_trim(&name.s, &name.len);
		BT_VEC_PUSH(bs->path, bt_xstrndup(name.s, name.len));
		return;
	}
	for (num.s = at; num.s > s && num.s[-1] != ' '; num.s--)
		;
	num.len = (size_t)(at - num.s);
	name.s = s;
	name.len = (size_t)(num.s - s);
	hp_trim(&name.s, &name.len);
	if (name.len == 0 || !hp_number(num.s, num.len, &hz))
		return;
	rest.s = at + strlen(OPS_SEC);
	rest.len = (size_t)(end - rest.s);
	for (size_t i = 0; i < depth; i++)
		bt_strbuf_addf(&full, "%s/", bs->path.v[i]);
	bt_strbuf_add(&full, name.s, name.len);
	benchnode_result(p, l, full.buf, full.len, &num, &rest);
	bt_strbuf_release(&full);
}

static void
benchnode_line(struct bt_harness_parser *p, void *state, const struct hline *l)
{
	struct benchnode_state *bs = state;
	struct tok name, num, rest;

	if (l->transient)
		return;
	if (hp_starts(l->s, l->len, "Benchmark results (")) {
		bs->tree = true;
		HP_STRV_FREE(bs->path);
		return;
	}
	if (bs->tree) {
		if (l->len == 0)
			bs->tree = false;
		else
			benchnode_tree(p, bs, l);
		return;
	}
	if (hp_ops_line(l, &name, &num, &rest))
		benchnode_result(p, l, name.s, name.len, &num, &rest);
	else
		benchnode_total(p, l);
}

/*
 * Frames under node as tinybench.c says. bench-node compiles each
 * benchmark's timing loop into a new function (Function(): no script,
 * "JS:^ :LINE:COL"), which calls the function given to add(); its
 * default plugin keeps that function from being optimized
 * (%NeverOptimizeFunction), so it stays a frame of its own.
 */
static const char *const bn_runner[] = {
	"JS:* */node_modules/bench-node/*", "JS:? :*", NULL,
};
/* the default plugin's generated DoNotOptimize ("JS:^DoNotOptimize :7:23") */
static const char *const bn_pass[] = {
	"Builtins_*", "JS:* node:*", "Stub:*", "BytecodeHandler:*", "RegExp:*",
	"JS:?DoNotOptimize :*", NULL,
};

static const struct bt_harness_frames benchnode_frames = {
	.harness = BT_HARNESS_BENCHNODE,
	.runner = bn_runner,
	.pass = bn_pass,
	.pass_modules = hp_js_pass_modules,
	.entry = "JS:*NAME file:///path/bench.mjs:LINE:COL (the function given to add)",
};

const struct harness_ops harness_benchnode = {
	.harness = BT_HARNESS_BENCHNODE,
	.name = "bench-node",
	.traits = BT_HARNESS_T_AT_END,
	.state_new = benchnode_state_new,
	.state_free = benchnode_state_free,
	.line = benchnode_line,
	.frames = &benchnode_frames,
};
