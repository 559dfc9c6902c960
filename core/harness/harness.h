/*
 * Benchmark harnesses (DESIGN.md §7): what a harness printed, and which
 * frames of a call chain belong to one of its benchmarks.
 *
 * The parser reads a benchmark's output as it arrives (through a pty, so
 * with colours, carriage returns and partial lines), in chunks of any
 * size, and keeps one result per result line in the order printed. Every
 * number comes with the text it was parsed from: the value is that text
 * read as a number, times the unit's factor for times (which are always
 * in nanoseconds); nothing is rounded or recomputed, but a rate (ops/sec:
 * benchmark.js, bench-node), whose time per operation is 1e9 / rate ns
 * with the rate's text.
 *
 * Formats: Google Benchmark console (plain and tabular counters), JSON
 * (--benchmark_format=json, --benchmark_out) and CSV; go test -bench;
 * criterion's "time: [low estimate high]" blocks; libtest's "bench: N
 * ns/iter (+/- M)" (also criterion --output-format bencher); tinybench's
 * console.table (versions 2 to 6), mitata's table, benchmark.js's
 * "x N ops/sec ±X% (N runs sampled)", bench-node's text and pretty
 * reporters, and JMH's final table (with its runs' forks and
 * iterations); a program's own "NAME 1.5 ns/op" lines (custom.c) when
 * none of those printed a result. docs/benchmarks.md describes each, with the frames table
 * below.
 */
#ifndef BENCHTUI_HARNESS_H
#define BENCHTUI_HARNESS_H

#include <stdbool.h>
#include <stddef.h>

struct bt_error;

enum bt_harness {
	BT_HARNESS_UNKNOWN = 0,
	BT_HARNESS_GBENCH,	/* Google Benchmark (C++) */
	BT_HARNESS_GO,		/* go test -bench */
	BT_HARNESS_CRITERION,	/* Rust criterion */
	BT_HARNESS_LIBTEST,	/* Rust libtest #[bench] */
	BT_HARNESS_TINYBENCH,	/* JS tinybench */
	BT_HARNESS_MITATA,	/* JS mitata */
	BT_HARNESS_JMH,		/* Java JMH */
	BT_HARNESS_BENCHMARKJS,	/* JS benchmark.js (npm "benchmark") */
	BT_HARNESS_BENCHNODE,	/* JS bench-node */
	BT_HARNESS_CUSTOM,	/* the program's own "NAME 1.5 ns/op" lines */
	BT_HARNESS_OPENSSL,	/* openssl speed */
	BT_HARNESS_COUNT
};

/*
 * "gbench", "go", "criterion", "libtest", "tinybench", "mitata", "jmh",
 * "benchmark.js", "bench-node", "custom", "openssl" ("unknown").
 */
const char *bt_harness_name(enum bt_harness h);
/* The harness of that name, or BT_HARNESS_UNKNOWN. */
enum bt_harness bt_harness_from_name(const char *name);

/* How a harness prints its results (bt_harness_traits). */
enum bt_harness_traits {
	/* names a benchmark when it starts: a result's t_begin is its start (Go, criterion) */
	BT_HARNESS_T_ANNOUNCES = 1 << 0,
	/* prints its results once every benchmark has run (tinybench's table) */
	BT_HARNESS_T_AT_END = 1 << 1,
};

/* enum bt_harness_traits of @h, 0 for BT_HARNESS_UNKNOWN. */
unsigned bt_harness_traits(enum bt_harness h);

/**
 * struct bt_bench_num - a number as the harness printed it
 * @value: the number; times in ns (text value times the unit's factor);
 *	NAN when the harness did not print it
 * @text: the printed text with its unit ("5.35 ns", "2.6737 µs", "1,441"),
 *	NULL when absent
 */
struct bt_bench_num {
	double value;
	const char *text;
};

/**
 * struct bt_bench_counter - any other number printed for a benchmark
 * @name: "items_per_second", "MB/s" (Go names a metric by its unit),
 *	"thrpt", "p75", "Latency med (ns)"...
 * @unit: the unit as printed ("G/s", "GiB/s", "B/op", "%"), "" when none
 * @value: the number as printed, unscaled (GB's "1.56G/s" is 1.56 with
 *	unit "G/s"; its JSON prints 1.56e9 with unit "")
 * @text: the printed text
 */
struct bt_bench_counter {
	const char *name;
	const char *unit;
	double value;
	const char *text;
};

enum bt_bench_flags {
	BT_BENCH_AGGREGATE = 1 << 0,	/* GB _mean, _median, _stddev, _cv, _BigO, _RMS */
	BT_BENCH_ERROR = 1 << 1,	/* the harness reported an error or skip */
	BT_BENCH_DEAD_HINT = 1 << 2,	/* the harness says it was optimized out (mitata "!") */
};

/**
 * struct bt_bench_fork - one fork of a benchmark run (JMH): a process of
 *	its own, told apart by time
 * @t_announce: when its "# Fork: k of M" line was complete
 * @t_measure: when its first measurement iteration's line began ("Iteration
 *	1: " is printed as the iteration starts), NAN when it had none
 * @t_end: when its last measurement iteration's line ended, NAN when none
 * @warmup_iterations: its "# Warmup Iteration" lines
 * @iterations: its measurement "Iteration" lines
 * @warmup: a warm-up fork ("# Warmup Fork: k of M"): no measurement counts
 * @host: "# Fork: N/A": the benchmark ran in the host JVM (-f 0)
 *
 * A fork's process starts after @t_announce; its warm-up is what it ran
 * before @t_measure; it ends after @t_end (the next fork's announcement,
 * or the run's result, follow it).
 */
struct bt_bench_fork {
	double t_announce, t_measure, t_end;
	size_t warmup_iterations, iterations;
	bool warmup, host;
};

/**
 * struct bt_bench_result - one benchmark result as printed
 * @index: position in the output, from 0
 * @harness: which harness printed it
 * @format: "console", "json", "csv", "table", "bencher"
 * @name: exactly as printed (padding and colour removed): "BM_sum/8",
 *	"BenchmarkSum/n=8-2", "sum_of_squares_over_vec/64", "fib(15)"; JMH
 *	the table's name and its parameters as "# Parameters:" prints them,
 *	"JmhBench.hash (len = 16)", then a secondary result's ":LABEL"
 * @family: the part of the name that names code: GB "BM_sum" (before the
 *	first '/'), Go "BenchmarkSum" (before the first '/', without the
 *	-GOMAXPROCS suffix), libtest and criterion the first path component,
 *	JS the name, JMH the generated class whose stub runs it ("JmhBench_hash_jmhTest")
 * @aggregate: "mean", "median", "stddev", "cv", "BigO", "RMS" or NULL;
 *	JMH a secondary result's label ("p0.50", "gc.alloc.rate")
 * @flags: enum bt_bench_flags
 * @time: time per operation (ns): GB real time, Go ns/op, criterion's
 *	estimate, libtest ns/iter, tinybench's latency average, mitata avg,
 *	JMH's score (time/op; ops/time inverted, its text as printed:
 *	"0.515 ops/us" is 1941.7 ns)
 * @cpu_time: GB's CPU time per iteration (ns)
 * @err: an absolute ± (ns): libtest "(+/- M)", JMH's Error (ops/time:
 *	its text, value NAN)
 * @err_pct: a relative ± (percent): tinybench "± 0.67%"
 * @low: lower bound of the interval (criterion)
 * @high: upper bound of the interval (criterion)
 * @iterations: GB and Go iterations, tinybench samples, criterion's
 *	estimate of the iterations it will run ("31M"), JMH's Cnt
 * @counters: every other number, in the order printed
 * @ncounters: number of @counters
 * @error: the harness's error message, NULL when none
 * @text: the output line(s) it was parsed from, escapes removed
 * @line: number of its first line in the output, from 1
 * @t_begin: when the harness announced this benchmark (the first visible
 *	byte of its result line, its "Benchmarking NAME" line), NAN when
 *	unknown
 * @t_measure: when its measurement began (criterion "Collecting"), NAN
 *	when unknown
 * @t_end: when its result line was complete
 * @t_start: when the benchmark began, where the harness prints something
 *	just before it runs and nothing else tells: the first result of a
 *	mitata table begins when mitata's header (clk:, cpu:, runtime:, the
 *	column header and its rule) is complete, after node's start-up and
 *	mitata's clock calibration; NAN otherwise
 * @forks: JMH: the run's forks in order (the times below), NULL when none
 * @nforks: number of @forks
 *
 * Times are the values passed to bt_harness_feed(). A result may still
 * gain counters from the lines after it (criterion's thrpt, mitata's
 * min…max line) until the next result begins. JMH's results are its final
 * table's rows: @t_begin is its run's first fork's announcement,
 * @t_measure its first measurement iteration's start, @t_end its last
 * one's end. Pointers stay valid until
 * the parser is freed; @counters until the next bt_harness_feed().
 */
struct bt_bench_result {
	size_t index;
	enum bt_harness harness;
	const char *format;
	const char *name;
	const char *family;
	const char *aggregate;
	unsigned flags;
	struct bt_bench_num time;
	struct bt_bench_num cpu_time;
	struct bt_bench_num err;
	struct bt_bench_num err_pct;
	struct bt_bench_num low, high;
	struct bt_bench_num iterations;
	const struct bt_bench_counter *counters;
	size_t ncounters;
	const char *error;
	const char *text;
	size_t line;
	double t_begin, t_measure, t_end;
	double t_start;
	const struct bt_bench_fork *forks;
	size_t nforks;
};

struct bt_harness_parser;

/*
 * A parser for one output stream. @only restricts it to one harness;
 * BT_HARNESS_UNKNOWN recognizes them all (each format is gated by a line
 * no other writes: a table header, "time:   [", "bench:", "ns/op").
 */
struct bt_harness_parser *bt_harness_parser_new(enum bt_harness only);
void bt_harness_parser_free(struct bt_harness_parser *p);

/*
 * Feed the next @len bytes of output, read at time @t (any clock, e.g.
 * seconds of CLOCK_MONOTONIC; NAN when unknown). Lines end at '\n';
 * text overwritten with '\r' is read as the lines a terminal would have
 * shown in turn (criterion's progress), ANSI escapes are removed.
 */
void bt_harness_feed(struct bt_harness_parser *p, const void *buf, size_t len, double t);
/* End of output: a last line without '\n' is read. */
void bt_harness_finish(struct bt_harness_parser *p, double t);
/* Read a whole file (GB's --benchmark_out) into @p; 0 or -BT_EIO. */
int bt_harness_feed_file(struct bt_harness_parser *p, const char *path, struct bt_error *err);

size_t bt_harness_count(const struct bt_harness_parser *p);
const struct bt_bench_result *bt_harness_result(const struct bt_harness_parser *p, size_t i);
/* Lines read so far. */
size_t bt_harness_lines(const struct bt_harness_parser *p);

/* Remove ANSI escape sequences and C0 controls but tab from @s in place; returns the new length. */
size_t bt_ansi_strip(char *s, size_t len);

/*
 * Entry frames: how a sample's call chain shows that it ran inside a
 * benchmark. A chain passes through the harness's runner (frames of the
 * harness's @module, or matching @runner), then through frames that are
 * still the harness's or the runtime's (@pass, @pass_modules: timers,
 * GC, the runtime's scheduler), and then reaches the benchmark's own
 * code: its entry frame. Wrappers (@wrapper: GB's Fixture::Run) are
 * skipped when the chain goes deeper. Patterns are globs: '*' any text,
 * '?' one character, everything else literal; @module and @pass_modules
 * match a module's base name.
 */
struct bt_harness_frames {
	enum bt_harness harness;
	const char *module;
	const char *const *runner;
	const char *const *pass;
	const char *const *pass_modules;
	const char *const *wrapper;
	const char *const *warmup;
	const char *const *measure;
	const char *entry;	/* what the entry frame looks like (for docs and help) */
};

/* The table for @h, NULL for BT_HARNESS_UNKNOWN. */
const struct bt_harness_frames *bt_harness_frames(enum bt_harness h);
/* Glob match as described above. */
bool bt_harness_glob(const char *pattern, const char *s);

/**
 * struct bt_frame - one frame of a call chain
 * @symbol: function name (demangled), NULL when unknown
 * @module: path or base name of the module, NULL when unknown
 */
struct bt_frame {
	const char *symbol;
	const char *module;
};

enum bt_chain_place {
	BT_CHAIN_OUTSIDE,	/* not under the runner: start-up, reporting, analysis */
	BT_CHAIN_HARNESS,	/* under the runner, in harness or runtime code only */
	BT_CHAIN_BENCHMARK,	/* in a benchmark: frames[entry] is its entry frame */
};

enum bt_bench_phase { BT_PHASE_UNKNOWN, BT_PHASE_WARMUP, BT_PHASE_MEASURE };

struct bt_chain_match {
	enum bt_chain_place place;
	size_t entry;
	enum bt_bench_phase phase;
};

/*
 * Place a call chain (@frames[0] the leaf, @frames[n - 1] the root, as
 * perf stores them). Which benchmark a sample belongs to is then told by
 * the entry frame where it names one, else by time: docs/benchmarks.md.
 */
void bt_harness_match_chain(const struct bt_harness_frames *hf,
    const struct bt_frame *frames, size_t n, struct bt_chain_match *m);

#endif
