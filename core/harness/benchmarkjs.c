/*
 * benchmark.js (npm "benchmark") under node: the harness itself prints
 * nothing; a script logs String(event.target) in the suite's 'cycle'
 * event, as benchmark.js's README does, when each benchmark is done:
 *	fib(15) x 217,325 ops/sec ±3.40% (9 runs sampled)
 * (hz below 100 with two decimals, "1 run sampled"). The time per
 * operation is 1e9 / ops/sec, its text the rate as printed; the ± is a
 * relative margin (rme); the runs are benchmark.js's samples, each many
 * operations: a counter, not iterations. A benchmark that threw prints
 * "NAME: " and the error instead, which no line shape tells from any
 * other text: not read.
 */
#include <math.h>
#include <string.h>

#include "harness-int.h"

#define PLUSMINUS "\xc2\xb1"	/* U+00B1 ± */
#define MAX_TOKENS 8

static void
benchmarkjs_line(struct bt_harness_parser *p, void *state, const struct hline *l)
{
	struct tok name, num, rest, t[MAX_TOKENS];
	struct bt_bench_result *r;
	size_t n;
	double pct, runs;

	(void)state;
	if (l->transient || !hp_ops_line(l, &name, &num, &rest))
		return;
	/* ±X% (N runs sampled) */
	n = hp_tokens(rest.s, rest.len, t, MAX_TOKENS);
	if (n != 4 || !hp_starts(t[0].s, t[0].len, PLUSMINUS) || t[0].len < 4 ||
	    t[0].s[t[0].len - 1] != '%' || !hp_number(t[0].s + 2, t[0].len - 3, &pct) ||
	    t[1].s[0] != '(' || !hp_number(t[1].s + 1, t[1].len - 1, &runs) ||
	    !(hp_eq(&t[2], "runs") || hp_eq(&t[2], "run")) || !hp_eq(&t[3], "sampled)"))
		return;
	r = hp_result_new(p, BT_HARNESS_BENCHMARKJS, "console", name.s, name.len, l);
	hp_set_rate(p, r, &num);
	hp_set_num(p, &r->err_pct, pct, t[0].s + 2, t[0].len - 2);
	hp_counter(p, r, "runs sampled", strlen("runs sampled"), "", 0, runs,
	    t[1].s + 1, t[1].len - 1);
}

/*
 * Frames under node as tinybench.c says. benchmark.js compiles each
 * benchmark's loop into a new function (Function(), no script: "JS:^ :1:1"
 * or named "JS:*runXXXX"), which calls the user's function unless
 * TurboFan inlines it.
 */
static const char *const bjs_runner[] = {
	"JS:* */node_modules/benchmark/*", "JS:? :*", NULL,
};

static const struct bt_harness_frames benchmarkjs_frames = {
	.harness = BT_HARNESS_BENCHMARKJS,
	.runner = bjs_runner,
	.pass = hp_js_pass,
	.pass_modules = hp_js_pass_modules,
	.entry = "JS:*NAME file:///path/bench.mjs:LINE:COL (the function given to add)",
};

const struct harness_ops harness_benchmarkjs = {
	.harness = BT_HARNESS_BENCHMARKJS,
	.name = "benchmark.js",
	.line = benchmarkjs_line,
	.frames = &benchmarkjs_frames,
};
