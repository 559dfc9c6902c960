/*
 * Entry frames: the frames a sample's call chain passes through when it
 * ran inside a benchmark, per harness. Each table was read off real call
 * chains of the fixtures (perf record -g and --call-graph dwarf, perf
 * script): docs/benchmarks.md shows them.
 */
#include <string.h>

#include "harness-int.h"

/* Frames of system libraries and of the kernel: never a benchmark's own code. */
static const char *const system_modules[] = {
	"libc.so*", "libm.so*", "libstdc++.so*", "libgcc_s.so*", "ld-linux*",
	"libpthread.so*", "[kernel*", "[vdso]", "[vsyscall]", NULL,
};

/*
 * Google Benchmark. Debian's libbenchmark.so keeps only its exported
 * symbols: the runner (RunSpecifiedBenchmarks -> RunBenchmarks ->
 * BenchmarkRunner::DoOneRepetition -> RunInThread -> BenchmarkInstance::Run)
 * shows as [unknown] frames of libbenchmark.so, and gcc turned the
 * virtual benchmark_->Run(st) into a direct call of the function
 * (FunctionBenchmark::Run never appears). So: runner = any frame of
 * libbenchmark; entry = the first frame below that is not a system
 * library: BM_x, LambdaBenchmark<...>::Run (the lambda inlined into it),
 * Fixture::Run -> X_Y_Benchmark::BenchmarkCase.
 */
static const char *const gb_runner[] = {
	"benchmark::RunSpecifiedBenchmarks*",
	"benchmark::internal::BenchmarkInstance::Run*",
	"benchmark::internal::FunctionBenchmark::Run*",
	NULL,
};
static const char *const gb_pass[] = {
	"benchmark::State::*",		/* KeepRunning, PauseTiming: timing code */
	"std::*", "__*", NULL,
};
static const char *const gb_wrapper[] = {
	"benchmark::Fixture::Run*",
	NULL,
};

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

/*
 * criterion 0.3: Routine::sample -> <Function as Routine>::warm_up or
 * ::bench -> BenchmarkGroup::bench_function::{{closure}} -> the closure
 * given to bench_function (crate::bench_fib::{{closure}}), which calls
 * Bencher::iter -> the routine (crate::bench_fib::{{closure}}::{{closure}}).
 * Analysis (criterion::analysis, rayon) is outside.
 */
static const char *const crit_runner[] = {
	"criterion::routine::Routine::sample*",
	"<criterion::routine::Function<*> as criterion::routine::Routine<*>>::*",
	NULL,
};
static const char *const crit_pass[] = {
	"criterion::*", "<criterion::*", "std::*", "<std::*", "core::*", "<core::*",
	"alloc::*", "<alloc::*", NULL,
};
static const char *const crit_warmup[] = {
	"<criterion::routine::Function<*> as criterion::routine::Routine<*>>::warm_up*",
	NULL,
};
static const char *const crit_measure[] = {
	"<criterion::routine::Function<*> as criterion::routine::Routine<*>>::bench*",
	NULL,
};

/*
 * libtest: test::bench::benchmark -> catch_unwind -> Bencher::bench -> the
 * #[bench] fn (often a tail call to Bencher::iter, so absent) ->
 * test::bench::Bencher::iter -> ns_iter_inner -> crate::bench_x::{{closure}}.
 */
static const char *const lt_runner[] = {
	"test::bench::benchmark*",
	"test::bench::Bencher::*",
	NULL,
};
static const char *const lt_pass[] = {
	"test::*", "std::*", "<std::*", "core::*", "<core::*", "alloc::*", "<alloc::*",
	NULL,
};

/*
 * JS under node --perf-basic-prof (or a jitdump): frames are
 * "JS:<tier><name> <script>:<line>:<col>"; the task is an anonymous
 * function known by its script position. tinybench's measuring loop is
 * in its dist file (minified names: #m, s, #_); mitata runs the task
 * from a generated function (no script: "JS:^ :1:26") or its main.mjs.
 */
static const char *const tb_runner[] = {
	"JS:* */node_modules/tinybench/*", NULL,
};
static const char *const mi_runner[] = {
	"JS:* */node_modules/mitata/*", "JS:? :*", NULL,
};
static const char *const js_pass[] = {
	"Builtins_*", "JS:* node:*", "Stub:*", "BytecodeHandler:*", "RegExp:*", NULL,
};
/* node's own code (V8, libuv, the GC): never a task */
static const char *const js_pass_modules[] = {
	"node", "libnode.so*", "libc.so*", "libm.so*", "libstdc++.so*", "libgcc_s.so*",
	"ld-linux*", "[kernel*", "[vdso]", NULL,
};

static const struct bt_harness_frames tables[] = {
	{
		.harness = BT_HARNESS_GBENCH,
		.module = "libbenchmark*.so*",
		.runner = gb_runner,
		.pass = gb_pass,
		.pass_modules = system_modules,
		.wrapper = gb_wrapper,
		.entry = "BM_x (BENCHMARK), X_Y_Benchmark::BenchmarkCase (BENCHMARK_F), "
		    "benchmark::internal::LambdaBenchmark<...>::Run (RegisterBenchmark)",
	},
	{
		.harness = BT_HARNESS_GO,
		.runner = go_runner,
		.pass = go_pass,
		.pass_modules = system_modules,
		.warmup = go_warmup,
		.measure = go_measure,
		.entry = "pkg.BenchmarkX, pkg.BenchmarkX.func1 (b.Run)",
	},
	{
		.harness = BT_HARNESS_CRITERION,
		.runner = crit_runner,
		.pass = crit_pass,
		.pass_modules = system_modules,
		.warmup = crit_warmup,
		.measure = crit_measure,
		.entry = "crate::bench_fn::{{closure}} (the closure given to bench_function)",
	},
	{
		.harness = BT_HARNESS_LIBTEST,
		.runner = lt_runner,
		.pass = lt_pass,
		.pass_modules = system_modules,
		.entry = "crate::bench_x or crate::bench_x::{{closure}}",
	},
	{
		.harness = BT_HARNESS_TINYBENCH,
		.runner = tb_runner,
		.pass = js_pass,
		.pass_modules = js_pass_modules,
		.entry = "JS:*NAME file:///path/bench.mjs:LINE:COL (the task function)",
	},
	{
		.harness = BT_HARNESS_MITATA,
		.runner = mi_runner,
		.pass = js_pass,
		.pass_modules = js_pass_modules,
		.entry = "JS:*NAME file:///path/bench.mjs:LINE:COL (the bench function)",
	},
};

const struct bt_harness_frames *
bt_harness_frames(enum bt_harness h)
{
	for (size_t i = 0; i < BT_ARRAY_SIZE(tables); i++)
		if (tables[i].harness == h)
			return &tables[i];
	return NULL;
}

bool
bt_harness_glob(const char *pat, const char *s)
{
	const char *star = NULL, *resume = NULL;

	while (*s != '\0') {
		if (*pat == '*') {
			star = pat++;
			resume = s;
		} else if (*pat == '?' || *pat == *s) {
			pat++;
			s++;
		} else if (star != NULL) {
			pat = star + 1;
			s = ++resume;
		} else {
			return false;
		}
	}
	while (*pat == '*')
		pat++;
	return *pat == '\0';
}

static bool
any(const char *const *pats, const char *s)
{
	if (pats == NULL || s == NULL)
		return false;
	for (; *pats != NULL; pats++)
		if (bt_harness_glob(*pats, s))
			return true;
	return false;
}

static const char *
base_name(const char *path)
{
	const char *slash;

	if (path == NULL)
		return NULL;
	slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static bool
is_runner(const struct bt_harness_frames *hf, const struct bt_frame *f)
{
	if (hf->module != NULL && f->module != NULL &&
	    bt_harness_glob(hf->module, base_name(f->module)))
		return true;
	return any(hf->runner, f->symbol);
}

static bool
is_pass(const struct bt_harness_frames *hf, const struct bt_frame *f)
{
	if (f->symbol == NULL)
		return true;
	if (f->module != NULL && any(hf->pass_modules, base_name(f->module)))
		return true;
	return any(hf->pass, f->symbol);
}

void
bt_harness_match_chain(const struct bt_harness_frames *hf,
    const struct bt_frame *frames, size_t n, struct bt_chain_match *m)
{
	size_t i, j;

	m->place = BT_CHAIN_OUTSIDE;
	m->entry = 0;
	m->phase = BT_PHASE_UNKNOWN;
	if (hf == NULL || n == 0)
		return;
	/* the runner frame nearest the root */
	for (i = n; i-- > 0;)
		if (is_runner(hf, &frames[i]))
			break;
	if (i == (size_t)-1)
		return;
	m->place = BT_CHAIN_HARNESS;
	/* down through the runner's, the harness's and the runtime's frames */
	for (j = i + 1; j-- > 0;) {
		if (any(hf->warmup, frames[j].symbol))
			m->phase = BT_PHASE_WARMUP;
		else if (any(hf->measure, frames[j].symbol))
			m->phase = BT_PHASE_MEASURE;
		if (!is_runner(hf, &frames[j]) && !is_pass(hf, &frames[j]))
			break;
	}
	if (j == (size_t)-1)
		return;
	while (j > 0 && any(hf->wrapper, frames[j].symbol))
		j--;
	m->place = BT_CHAIN_BENCHMARK;
	m->entry = j;
}
