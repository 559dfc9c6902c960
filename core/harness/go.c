/*
 * go test -bench: "BenchmarkName-P \t N \t 12.3 ns/op \t 4.5 MB/s \t 16 B/op
 * \t 1 allocs/op \t 3.0 custom-unit". The name is written before the
 * benchmark runs (the numbers after), so through a pty the line's first
 * byte says when it started.
 */
#include <math.h>
#include <string.h>

#include "harness-int.h"

#define MAX_TOKENS 64

/* "BenchmarkSum/n=8-2" -> "BenchmarkSum"; "BenchmarkPopcnt-2" -> "BenchmarkPopcnt". */
static size_t
go_family(const char *name, size_t len)
{
	const char *slash = memchr(name, '/', len);
	size_t n;

	if (slash != NULL)
		return (size_t)(slash - name);
	/* Go identifiers hold no '-': a trailing -digits is GOMAXPROCS */
	n = len;
	while (n > 0 && name[n - 1] >= '0' && name[n - 1] <= '9')
		n--;
	if (n < len && n > 0 && name[n - 1] == '-')
		return n - 1;
	return len;
}

static void
go_line(struct bt_harness_parser *p, void *state, const struct hline *l)
{
	struct tok t[MAX_TOKENS];
	size_t n;
	struct bt_bench_result *r;
	double iters, v;

	if (l->transient || !hp_starts(l->s, l->len, "Benchmark"))
		return;
	n = hp_tokens(l->s, l->len, t, MAX_TOKENS);
	if (n >= 3 && hp_eq(&t[1], "---") &&
	    (hp_eq(&t[2], "FAIL:") || hp_eq(&t[2], "SKIP:"))) {
		/* the name was printed, then the benchmark failed or skipped */
		r = hp_result_new(p, BT_HARNESS_GO, "console", t[0].s, t[0].len, l);
		r->flags |= BT_BENCH_ERROR;
		r->error = hp_str(p, t[1].s, (size_t)(l->s + l->len - t[1].s));
		hp_set_family(p, r, go_family(t[0].s, t[0].len));
		return;
	}
	if (n < 4 || (n - 2) % 2 != 0 || !hp_number(t[1].s, t[1].len, &iters) ||
	    memchr(t[1].s, '.', t[1].len) != NULL || memchr(t[1].s, ',', t[1].len) != NULL)
		return;
	for (size_t i = 2; i < n; i += 2)
		if (!hp_number(t[i].s, t[i].len, &v))
			return;
	r = hp_result_new(p, BT_HARNESS_GO, "console", t[0].s, t[0].len, l);
	hp_set_family(p, r, go_family(t[0].s, t[0].len));
	hp_set_num(p, &r->iterations, iters, t[1].s, t[1].len);
	for (size_t i = 2; i < n; i += 2) {
		size_t tl = (size_t)(t[i + 1].s + t[i + 1].len - t[i].s);

		hp_number(t[i].s, t[i].len, &v);
		if (hp_eq(&t[i + 1], "ns/op"))	/* "5.599 ns", as the other harnesses' */
			hp_set_num(p, &r->time, v, t[i].s, tl - strlen("/op"));
		else
			hp_counter(p, r, t[i + 1].s, t[i + 1].len, t[i + 1].s, t[i + 1].len,
			    v, t[i].s, tl);
	}
}

/*
 * go test: the benchmark function runs in a goroutine started by doBench
 * (launch -> runN -> BenchmarkX) or by run1 (the N=1 trial run, and
 * b.Run's sub-benchmarks: runN -> BenchmarkX.func1). With frame pointers
 * a frameless leaf benchmark loses runN (BenchmarkPopcnt <- launch), so
 * launch and run1.func1 are runners too. runN's runtime.GC() and the
 * scheduler are passed.
 */
static const char *const go_runner[] = {
	"testing.(*B).runN",
	"testing.(*B).launch",
	"testing.(*B).run1.func1",
	"testing.(*B).doBench.func1",
	"testing.(*B).RunParallel.func1",
	NULL,
};
static const char *const go_pass[] = {
	"runtime.*", "testing.*", "sync.*", "time.*", NULL,
};
/* run1 runs the function once (b.N = 1) to see whether it has b.Run subs */
static const char *const go_warmup[] = { "testing.(*B).run1.func1", NULL };
/* launch grows b.N until the benchmark time is reached; the last run is the result */
static const char *const go_measure[] = { "testing.(*B).launch", NULL };

static const struct bt_harness_frames go_frames = {
	.harness = BT_HARNESS_GO,
	.runner = go_runner,
	.pass = go_pass,
	.pass_modules = hp_system_modules,
	.warmup = go_warmup,
	.measure = go_measure,
	.entry = "pkg.BenchmarkX, pkg.BenchmarkX.func1 (b.Run)",
};

const struct harness_ops harness_go = {
	.harness = BT_HARNESS_GO,
	.name = "go",
	.traits = BT_HARNESS_T_ANNOUNCES,
	.line = go_line,
	.frames = &go_frames,
};
