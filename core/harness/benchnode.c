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
 * The pretty reporter's tree ({ pretty: true }) is not read.
 */
#include <math.h>
#include <string.h>

#include "harness-int.h"

#define MAX_TOKENS 32
#define TOTAL_TIME " total time "

/* "(N runs sampled)" at @t[k]: N in *runs */
static bool
runs_sampled(const struct tok *t, size_t n, size_t k, double *runs)
{
	return k + 2 < n && t[k].s[0] == '(' && hp_number(t[k].s + 1, t[k].len - 1, runs) &&
	    (hp_eq(&t[k + 1], "runs") || hp_eq(&t[k + 1], "run")) &&
	    hp_eq(&t[k + 2], "sampled)");
}

/* "min..max=(A...B)" and the plugins' "name=value" before it */
static void
benchnode_tail(struct bt_harness_parser *p, struct bt_bench_result *r,
    const struct tok *t, size_t n, size_t k)
{
	for (; k < n; k++) {
		const char *eq = memchr(t[k].s, '=', t[k].len), *dots, *end;
		double v;

		if (hp_starts(t[k].s, t[k].len, "min..max=(") && t[k].s[t[k].len - 1] == ')' &&
		    (dots = hp_find(t[k].s, t[k].len, "...")) != NULL) {
			const char *a = t[k].s + 10, *b = dots + 3;

			end = t[k].s + t[k].len - 1;
			for (int i = 0; i < 2; i++) {
				const char *s = i ? b : a, *e = i ? end : dots, *u = s;

				while (u < e && ((*u >= '0' && *u <= '9') || *u == '.' || *u == ','))
					u++;
				hp_counter(p, r, i ? "max" : "min", 3, u, (size_t)(e - u),
				    hp_number(s, (size_t)(u - s), &v) ? v : NAN, s, (size_t)(e - s));
			}
		} else if (eq != NULL && eq > t[k].s) {
			hp_counter(p, r, t[k].s, (size_t)(eq - t[k].s), "", 0,
			    hp_number(eq + 1, (size_t)(t[k].s + t[k].len - eq - 1), &v) ? v : NAN,
			    eq + 1, (size_t)(t[k].s + t[k].len - eq - 1));
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

static void
benchnode_line(struct bt_harness_parser *p, void *state, const struct hline *l)
{
	struct tok name, num, rest, t[MAX_TOKENS];
	struct bt_bench_result *r;
	size_t n;
	double runs;

	(void)state;
	if (l->transient)
		return;
	if (!hp_ops_line(l, &name, &num, &rest)) {
		benchnode_total(p, l);
		return;
	}
	/* (N runs sampled) [plugin reports] min..max=(A...B) */
	n = hp_tokens(rest.s, rest.len, t, MAX_TOKENS);
	if (!runs_sampled(t, n, 0, &runs) || n < 4 ||
	    !hp_starts(t[n - 1].s, t[n - 1].len, "min..max=("))
		return;
	r = hp_result_new(p, BT_HARNESS_BENCHNODE, "console", name.s, name.len, l);
	hp_set_rate(p, r, &num);
	hp_counter(p, r, "runs sampled", strlen("runs sampled"), "", 0, runs,
	    t[0].s + 1, t[0].len - 1);
	benchnode_tail(p, r, t, n, 3);
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
	.line = benchnode_line,
	.frames = &benchnode_frames,
};
