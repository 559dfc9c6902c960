/*
 * Unit tests: core/harness. The parsers run on output that
 * tests/test-harness.sh captured from the real fixtures in this run
 * (BT_HARNESS_OUT names the directory; without it those tests are
 * skipped); the lexing, escape removal and call-chain placing run always.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "harness/harness-int.h"

/* The capture NAME fed one byte at a time, the time being the byte's offset. */
static struct bt_harness_parser *
capture(const char *name, enum bt_harness only, struct bt_strbuf *raw)
{
	const char *dir = getenv("BT_HARNESS_OUT");
	struct bt_harness_parser *p;
	char *path;

	if (dir == NULL)
		return NULL;
	path = bt_xasprintf("%s/%s", dir, name);
	if (bt_strbuf_read_file(raw, path, 0) < 0) {
		free(path);
		return NULL;
	}
	free(path);
	p = bt_harness_parser_new(only);
	for (size_t i = 0; i < raw->len; i++)
		bt_harness_feed(p, raw->buf + i, 1, (double)i);
	bt_harness_finish(p, (double)raw->len);
	return p;
}

#define CAPTURE(p, name, only, raw) do {				\
	(p) = capture((name), (only), (raw));				\
	if ((p) == NULL) {						\
		bt_strbuf_release(raw);					\
		skip();							\
	}								\
} while (0)

static const struct bt_bench_result *
find(struct bt_harness_parser *p, const char *name)
{
	for (size_t i = 0; i < bt_harness_count(p); i++)
		if (strcmp(bt_harness_result(p, i)->name, name) == 0)
			return bt_harness_result(p, i);
	fail_msg("no result named '%s'", name);
	return NULL;
}

static const struct bt_bench_counter *
counter(const struct bt_bench_result *r, const char *name)
{
	for (size_t i = 0; i < r->ncounters; i++)
		if (strcmp(r->counters[i].name, name) == 0)
			return &r->counters[i];
	fail_msg("'%s' has no counter '%s'", r->name, name);
	return NULL;
}

/* The text's leading number, thousands separators dropped; *rest after it. */
static double
lead(const char *text, const char **rest)
{
	char buf[64];
	size_t o = 0;
	const char *s = text;

	while (*s != '\0' && o + 1 < sizeof(buf) && strchr("0123456789.,+-eE", *s) != NULL) {
		if (*s != ',')
			buf[o++] = *s;
		s++;
	}
	buf[o] = '\0';
	while (*s == ' ')
		s++;
	if (rest)
		*rest = s;
	return o ? strtod(buf, NULL) : NAN;
}

static double
unit_factor(const char *u)
{
	static const struct { const char *u; double f; } units[] = {
		{ "", 1 }, { "ps", 1e-3 }, { "ns", 1 }, { "ns/op", 1 }, { "ns/iter", 1 },
		{ "us", 1e3 }, { "\xc2\xb5s", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};

	for (size_t i = 0; i < BT_ARRAY_SIZE(units); i++)
		if (strcmp(units[i].u, u) == 0)
			return units[i].f;
	fail_msg("unknown time unit '%s'", u);
	return 0;
}

/* A time's value is its text's number times its unit, exactly. */
static void
check_time(const struct bt_bench_result *r, const struct bt_bench_num *n)
{
	const char *u;
	double v;

	if (n->text == NULL) {
		assert_true(isnan(n->value));
		return;
	}
	v = lead(n->text, &u);
	/* a rate (benchmark.js, bench-node): 1e9 / ops/sec ns */
	v = strcmp(u, "ops/sec") == 0 ? 1e9 / v : v * unit_factor(u);
	if (v != n->value)
		fail_msg("'%s': time '%s' read as %.17g", r->name, n->text, n->value);
}

/* Every number of every result equals the text it came from. */
static void
check_numbers(struct bt_harness_parser *p)
{
	for (size_t i = 0; i < bt_harness_count(p); i++) {
		const struct bt_bench_result *r = bt_harness_result(p, i);
		const char *rest;
		double v;

		assert_int_equal(r->index, i);
		check_time(r, &r->time);
		check_time(r, &r->cpu_time);
		check_time(r, &r->low);
		check_time(r, &r->high);
		if (r->err.text != NULL)
			assert_true(lead(r->err.text, NULL) == r->err.value);
		if (r->err_pct.text != NULL)
			assert_true(lead(r->err_pct.text, NULL) == r->err_pct.value);
		if (r->iterations.text != NULL) {
			v = lead(r->iterations.text, &rest);
			v *= *rest == 'k' ? 1e3 : *rest == 'M' ? 1e6 : *rest == 'B' ? 1e9 : 1;
			assert_true(v == r->iterations.value);
		}
		for (size_t k = 0; k < r->ncounters; k++) {
			const struct bt_bench_counter *c = &r->counters[k];

			v = lead(c->text, NULL);
			if (!(v == c->value || (isnan(v) && isnan(c->value))))
				fail_msg("'%s': counter %s '%s' read as %.17g", r->name,
				    c->name, c->text, c->value);
		}
		/* bench-node's pretty tree prints a path's last part on the line */
		if (r->harness == BT_HARNESS_BENCHNODE && strrchr(r->name, '/') != NULL)
			assert_non_null(strstr(r->text, strrchr(r->name, '/') + 1));
		else
			assert_non_null(strstr(r->text, r->name) ? r->text : NULL);
		assert_true(isnan(r->t_end) || r->t_begin <= r->t_end);
	}
}

static void
test_gbench_console(void **state)
{
	static const char *const names[] = {
		"BM_sum/8", "BM_sum/64", "BM_dead", "BM_memcpy", "BM_memcpy_trap",
		"VecFixture/Sum", "BM_tmpl<uint32_t>", "BM_tmpl<double>", "BM_counters",
		"lambda_mul",
	};
	struct bt_strbuf raw = BT_STRBUF_INIT;
	struct bt_harness_parser *p;
	const struct bt_bench_result *r;

	CAPTURE(p, "gb.pty", BT_HARNESS_UNKNOWN, &raw);
	assert_int_equal(bt_harness_count(p), BT_ARRAY_SIZE(names));
	for (size_t i = 0; i < BT_ARRAY_SIZE(names); i++) {
		r = bt_harness_result(p, i);
		assert_string_equal(r->name, names[i]);
		assert_int_equal(r->harness, BT_HARNESS_GBENCH);
		assert_string_equal(r->format, "console");
		assert_false(isnan(r->time.value));
		assert_false(isnan(r->cpu_time.value));
		assert_true(r->iterations.value >= 1);
		/* the colour codes are gone from the kept text */
		assert_null(strchr(r->text, 0x1b));
	}
	check_numbers(p);
	assert_string_equal(find(p, "BM_sum/64")->family, "BM_sum");
	assert_string_equal(find(p, "VecFixture/Sum")->family, "VecFixture");
	assert_string_equal(counter(find(p, "BM_sum/8"), "items_per_second")->unit, "G/s");
	assert_string_equal(counter(find(p, "BM_memcpy"), "bytes_per_second")->unit, "G/s");
	assert_true(counter(find(p, "BM_counters"), "depth")->value == 3);
	assert_non_null(counter(find(p, "BM_counters"), "hashes"));
	/* gcc removes the work of BM_dead entirely: 0.000 ns */
	assert_true(find(p, "BM_dead")->time.value < 0.01);
	bt_harness_parser_free(p);
	bt_strbuf_release(&raw);
}

static void
test_gbench_json(void **state)
{
	struct bt_strbuf raw = BT_STRBUF_INIT;
	struct bt_harness_parser *p, *f;
	const struct bt_bench_result *r;
	const char *dir = getenv("BT_HARNESS_OUT");
	struct bt_error err = { 0 };
	char *path;
	size_t aggs = 0;

	CAPTURE(p, "gb-json.pty", BT_HARNESS_GBENCH, &raw);
	check_numbers(p);
	for (size_t i = 0; i < bt_harness_count(p); i++) {
		r = bt_harness_result(p, i);
		assert_string_equal(r->format, "json");
		if (r->flags & BT_BENCH_AGGREGATE) {
			aggs++;
			assert_non_null(r->aggregate);
			assert_true(r->iterations.value == 3);	/* repetitions */
			if (strcmp(r->aggregate, "cv") == 0) {
				assert_true(isnan(r->time.value));
				assert_non_null(counter(r, "real_time"));
			}
		}
	}
	assert_int_equal(aggs, 8);	/* mean, median, stddev, cv of two benchmarks */
	r = find(p, "BM_sum/8_mean");
	assert_string_equal(r->family, "BM_sum");
	assert_string_equal(r->aggregate, "mean");
	/* a JSON object spans lines: its text is all of them */
	assert_non_null(strstr(r->text, "\"run_type\": \"aggregate\""));
	bt_harness_parser_free(p);
	bt_strbuf_release(&raw);

	/* the --benchmark_out file, through the file API */
	path = bt_xasprintf("%s/gb-out.json", dir);
	f = bt_harness_parser_new(BT_HARNESS_UNKNOWN);
	assert_int_equal(bt_harness_feed_file(f, path, &err), 0);
	assert_int_equal(bt_harness_count(f), 10);
	check_numbers(f);
	assert_true(isnan(bt_harness_result(f, 0)->t_end));
	bt_harness_parser_free(f);
	free(path);
	f = bt_harness_parser_new(BT_HARNESS_UNKNOWN);
	assert_int_equal(bt_harness_feed_file(f, "/nonexistent/gb.json", &err), -BT_EIO);
	assert_non_null(strstr(err.msg, "cannot read '/nonexistent/gb.json'"));
	bt_harness_parser_free(f);
}

static void
test_gbench_tabular_csv(void **state)
{
	struct bt_strbuf raw = BT_STRBUF_INIT, raw2 = BT_STRBUF_INIT;
	struct bt_harness_parser *p;
	const struct bt_bench_result *r;

	CAPTURE(p, "gb-tab.txt", BT_HARNESS_UNKNOWN, &raw);
	check_numbers(p);
	r = find(p, "BM_counters");
	assert_true(counter(r, "depth")->value == 3);
	/* GB scales the rate: M/s, or G/s on a faster or idler machine */
	assert_true(strcmp(counter(r, "hashes")->unit, "M/s") == 0 ||
	    strcmp(counter(r, "hashes")->unit, "G/s") == 0);
	bt_harness_parser_free(p);
	bt_strbuf_release(&raw);
	CAPTURE(p, "gb-out.csv", BT_HARNESS_GBENCH, &raw2);
	check_numbers(p);
	assert_int_equal(bt_harness_count(p), 6);
	assert_string_equal(bt_harness_result(p, 0)->format, "csv");
	assert_string_equal(find(p, "BM_counters_stddev")->aggregate, "stddev");
	bt_harness_parser_free(p);
	bt_strbuf_release(&raw2);
}

static void
test_go(void **state)
{
	struct bt_strbuf raw = BT_STRBUF_INIT, raw2 = BT_STRBUF_INIT;
	struct bt_harness_parser *p;
	const struct bt_bench_result *r;
	char *line;

	CAPTURE(p, "go.pty", BT_HARNESS_UNKNOWN, &raw);
	check_numbers(p);
	assert_int_equal(bt_harness_count(p), 6);
	r = bt_harness_result(p, 0);
	assert_int_equal(r->harness, BT_HARNESS_GO);
	assert_string_equal(r->family, "BenchmarkPopcnt");
	r = bt_harness_result(p, 3);
	assert_string_equal(r->family, "BenchmarkSum");
	assert_non_null(strstr(r->name, "BenchmarkSum/n=8"));
	assert_string_equal(counter(r, "MB/s")->unit, "MB/s");
	assert_true(counter(r, "B/op")->value == 0);
	r = bt_harness_result(p, 5);
	/* the length of the last slice: 64 + b.N % 2 */
	assert_true(counter(r, "bytes/last")->value == 64 || counter(r, "bytes/last")->value == 65);
	assert_true(counter(r, "allocs/op")->value == 1);
	/* t_begin is the name's first byte: the line's start in the file */
	line = strstr(raw.buf, bt_harness_result(p, 0)->name);
	assert_true(bt_harness_result(p, 0)->t_begin == (double)(line - raw.buf));
	bt_harness_parser_free(p);
	bt_strbuf_release(&raw);
	/* -v: lone name lines are no results; -count/-cpu repeat names */
	CAPTURE(p, "go-v.txt", BT_HARNESS_GO, &raw2);
	check_numbers(p);
	assert_int_equal(bt_harness_count(p), 12);
	assert_string_equal(bt_harness_result(p, 0)->name, bt_harness_result(p, 1)->name);
	assert_string_equal(bt_harness_result(p, 2)->family, "BenchmarkPopcnt");
	bt_harness_parser_free(p);
	bt_strbuf_release(&raw2);
}

static void
test_criterion(void **state)
{
	struct bt_strbuf raw = BT_STRBUF_INIT;
	struct bt_harness_parser *p;
	const struct bt_bench_result *r;
	char *bench, *collect;

	CAPTURE(p, "crit.pty", BT_HARNESS_UNKNOWN, &raw);
	check_numbers(p);
	assert_int_equal(bt_harness_count(p), 3);
	r = find(p, "fib 15");
	assert_int_equal(r->harness, BT_HARNESS_CRITERION);
	assert_true(r->low.value <= r->time.value && r->time.value <= r->high.value);
	/* the '\r' progress: announced, measured, then the result */
	bench = strstr(raw.buf, "Benchmarking fib 15");
	collect = strstr(raw.buf, "Benchmarking fib 15: Collecting");
	assert_true(r->t_begin == (double)(bench - raw.buf));
	assert_true(r->t_measure == (double)(collect - raw.buf));
	assert_true(r->t_measure < r->t_end);
	assert_non_null(r->iterations.text);
	/* black_box missing: criterion measures nothing */
	assert_true(find(p, "popcnt_dead")->time.value < 0.01);
	/* a long ID: its own line, "time:" on the next */
	r = find(p, "sum_of_squares_over_vec/64");
	assert_string_equal(r->family, "sum_of_squares_over_vec");
	assert_non_null(strchr(r->text, '\n'));
	assert_string_equal(counter(r, "thrpt")->unit, "GiB/s");
	assert_true(counter(r, "thrpt_low")->value <= counter(r, "thrpt_high")->value);
	bt_harness_parser_free(p);
	bt_strbuf_release(&raw);
}

static void
test_libtest(void **state)
{
	struct bt_strbuf raw = BT_STRBUF_INIT;
	struct bt_harness_parser *p;
	const struct bt_bench_result *r;

	CAPTURE(p, "libtest.pty", BT_HARNESS_UNKNOWN, &raw);
	check_numbers(p);
	assert_int_equal(bt_harness_count(p), 3);
	r = find(p, "inner::bench_sum");
	assert_int_equal(r->harness, BT_HARNESS_LIBTEST);
	assert_string_equal(r->family, "inner");
	assert_false(isnan(r->err.value));
	assert_string_equal(counter(r, "MB/s")->unit, "MB/s");
	r = find(p, "bench_fib");
	assert_non_null(strchr(r->time.text, ','));	/* 2,898 ns/iter */
	bt_harness_parser_free(p);
	bt_strbuf_release(&raw);
}

static void
test_js(void **state)
{
	struct bt_strbuf raw = BT_STRBUF_INIT, raw2 = BT_STRBUF_INIT, raw3 = BT_STRBUF_INIT;
	struct bt_harness_parser *p;
	const struct bt_bench_result *r;

	CAPTURE(p, "tinybench.pty", BT_HARNESS_UNKNOWN, &raw);
	check_numbers(p);
	assert_int_equal(bt_harness_count(p), 3);
	r = find(p, "sum squares 256");
	assert_int_equal(r->harness, BT_HARNESS_TINYBENCH);
	/* the cell's number with the header's unit */
	assert_non_null(strstr(r->time.text, " ns"));
	assert_false(isnan(r->err_pct.value));
	assert_true(r->iterations.value > 0);
	assert_string_equal(counter(r, "Throughput avg (ops/s)")->unit, "ops/s");
	bt_harness_parser_free(p);
	bt_strbuf_release(&raw);
	CAPTURE(p, "tinybench2.pty", BT_HARNESS_TINYBENCH, &raw2);
	check_numbers(p);
	r = find(p, "fib(15)");
	assert_non_null(strchr(counter(r, "ops/sec")->text, ','));
	assert_false(isnan(r->err_pct.value));
	bt_harness_parser_free(p);
	bt_strbuf_release(&raw2);
	CAPTURE(p, "mitata.pty", BT_HARNESS_UNKNOWN, &raw3);
	check_numbers(p);
	assert_int_equal(bt_harness_count(p), 2);
	r = find(p, "popcnt dead");
	assert_int_equal(r->harness, BT_HARNESS_MITATA);
	assert_non_null(counter(r, "p75"));
	assert_non_null(counter(r, "p99"));
	assert_true(counter(r, "min")->value > 0);
	/* the first benchmark began when the header was complete, before its line */
	r = bt_harness_result(p, 0);
	assert_true(r->t_start > 0 && r->t_start < r->t_begin);
	assert_true(isnan(bt_harness_result(p, 1)->t_start));
	bt_harness_parser_free(p);
	bt_strbuf_release(&raw3);
}

/* benchmark.js and bench-node: "NAME x N ops/sec", from the fixtures' runs. */
static void
test_rates(void **state)
{
	struct bt_strbuf raw = BT_STRBUF_INIT, raw2 = BT_STRBUF_INIT, raw3 = BT_STRBUF_INIT;
	struct bt_harness_parser *p;
	const struct bt_bench_result *r;

	CAPTURE(p, "benchmarkjs.pty", BT_HARNESS_UNKNOWN, &raw);
	check_numbers(p);
	assert_int_equal(bt_harness_count(p), 4);
	r = find(p, "lodash camelCase");
	assert_int_equal(r->harness, BT_HARNESS_BENCHMARKJS);
	assert_non_null(strstr(r->time.text, " ops/sec"));
	assert_true(r->time.value > 0 && r->err_pct.value > 0);
	assert_true(counter(r, "runs sampled")->value >= 1);
	assert_true(isnan(r->iterations.value));
	assert_true(isnan(r->t_start));
	bt_harness_parser_free(p);
	bt_strbuf_release(&raw);
	CAPTURE(p, "benchnode.pty", BT_HARNESS_UNKNOWN, &raw2);
	check_numbers(p);
	assert_int_equal(bt_harness_count(p), 4);
	r = find(p, "fib(15)");
	assert_int_equal(r->harness, BT_HARNESS_BENCHNODE);
	assert_true(r->time.value > 0);
	assert_true(isnan(r->err_pct.value));
	assert_true(counter(r, "runs sampled")->value >= 1);
	assert_true(counter(r, "min")->value > 0);
	assert_non_null(strstr("ns us ms s", counter(r, "max")->unit));
	bt_harness_parser_free(p);
	bt_strbuf_release(&raw2);
	/* the pretty reporter: results named by their path in the tree */
	CAPTURE(p, "benchnode-pretty.pty", BT_HARNESS_BENCHNODE, &raw3);
	check_numbers(p);
	assert_int_equal(bt_harness_count(p), 4);
	r = find(p, "work/fib(15)");
	assert_true(r->time.value > 0);
	assert_true(counter(r, "runs sampled")->value >= 1);
	assert_non_null(find(p, "lodash/camelCase"));
	bt_harness_parser_free(p);
	bt_strbuf_release(&raw3);
}

/* The shapes a fixture does not print: rates below 100, one run, errors. */
static void
test_rate_shapes(void **state)
{
	static const char out[] =
	    "slow x 3 x 12.34 ops/sec \xc2\xb1" "1.50% (1 run sampled)\n"
	    "Fastest is slow x 3\n"
	    "broken: TypeError: x is not a function\n"
	    "json parse                                    x 1,234,567 ops/sec (11 runs sampled) "
	    "v8-never-optimize=true min..max=(4.18us...1.20ms)\n"
	    "json total                                    x undefined total time (1 runs sampled) "
	    "min..max=(4.88us...4.88us)\n"
	    "not x 5 ops/sec at all\n";
	struct bt_harness_parser *p = bt_harness_parser_new(BT_HARNESS_UNKNOWN);
	const struct bt_bench_result *r;

	bt_harness_feed(p, out, sizeof(out) - 1, 0);
	bt_harness_finish(p, 1);
	check_numbers(p);
	assert_int_equal(bt_harness_count(p), 3);
	r = bt_harness_result(p, 0);
	assert_string_equal(r->name, "slow x 3");
	assert_int_equal(r->harness, BT_HARNESS_BENCHMARKJS);
	assert_string_equal(r->time.text, "12.34 ops/sec");
	assert_string_equal(r->err_pct.text, "1.50%");
	assert_string_equal(counter(r, "runs sampled")->text, "1");
	r = bt_harness_result(p, 1);
	assert_string_equal(r->name, "json parse");
	assert_int_equal(r->harness, BT_HARNESS_BENCHNODE);
	assert_string_equal(r->time.text, "1,234,567 ops/sec");
	assert_string_equal(counter(r, "v8-never-optimize")->text, "true");
	assert_string_equal(counter(r, "max")->text, "1.20ms");
	assert_string_equal(counter(r, "max")->unit, "ms");
	r = bt_harness_result(p, 2);
	assert_string_equal(r->name, "json total");
	assert_null(r->time.text);
	assert_string_equal(counter(r, "total time")->text, "undefined");
	bt_harness_parser_free(p);
}

static void
test_lexing(void **state)
{
	char s[] = "\x1b[0;32mBM_x\x1b[m \x1b[36mbench\x1b(B\x1b[m: 2.5 \xc2\xb5s"
	    "\x1b]0;title\x07!\x1b[2K\x1b=ok\bK";
	double v;

	s[bt_ansi_strip(s, strlen(s))] = '\0';
	assert_string_equal(s, "BM_x bench: 2.5 \xc2\xb5s!oK");
	assert_true(hp_number("1,441", 5, &v) && v == 1441);
	assert_true(hp_number("12,345,678.25", 13, &v) && v == 12345678.25);
	assert_true(hp_number("-3.5e-2", 7, &v) && v == -3.5e-2);
	assert_false(hp_number("1,44", 4, &v));
	assert_false(hp_number(",1", 2, &v));
	assert_false(hp_number("1e", 2, &v));
	assert_false(hp_number("12ns", 4, &v));
	assert_true(hp_time_unit("\xc2\xb5s", 3) == 1e3);
	assert_true(hp_time_unit("\xce\xbcs", 3) == 1e3);
	assert_true(hp_time_unit("ps", 2) == 1e-3);
	assert_true(hp_time_unit("%", 1) == 0);
	/* hp_find is memmem: needle at either end, overlaps, too long */
	{
		static const char *const hay[] = {
			"", "a", "aab", "abab", " ... bench: ", "xx ... bench:",
			"Iterations", "   Iterations ", "aaaa",
		};
		static const char *const nee[] = {
			"a", "ab", "aab", "bab", " ... bench:", "Iterations", "aaa",
			"b", "s ",
		};
		for (size_t i = 0; i < BT_ARRAY_SIZE(hay); i++)
			for (size_t j = 0; j < BT_ARRAY_SIZE(nee); j++)
				assert_ptr_equal(hp_find(hay[i], strlen(hay[i]), nee[j]),
				    memmem(hay[i], strlen(hay[i]), nee[j], strlen(nee[j])));
	}
	assert_true(bt_harness_glob("testing.(*B).runN", "testing.(*B).runN"));
	assert_true(bt_harness_glob("JS:? :*", "JS:^ :1:26"));
	assert_false(bt_harness_glob("JS:? :*", "JS:*fib file:///x.mjs:2:20"));
	assert_true(bt_harness_glob("libbenchmark*.so*", "libbenchmark.so.1.7.1"));
	assert_int_equal(bt_harness_from_name("criterion"), BT_HARNESS_CRITERION);
	assert_string_equal(bt_harness_name(BT_HARNESS_MITATA), "mitata");
}

/* Lines cut anywhere, '\r' overwrites, no final newline, a huge line. */
static void
test_feeding(void **state)
{
	struct bt_harness_parser *p = bt_harness_parser_new(BT_HARNESS_UNKNOWN);
	char *big = bt_xmalloc(200000);

	memset(big, 'x', 200000);
	bt_harness_feed(p, big, 200000, 0);
	bt_harness_feed(p, "\r\nBenchmarkA-2 \t 10\t 5.0 ns", 26, 1);
	bt_harness_feed(p, "/op\r", 4, 2);
	bt_harness_feed(p, "\n", 1, 3);
	bt_harness_feed(p, "BenchmarkB \t 7\t 1.5 ns/op", 25, 4);
	assert_int_equal(bt_harness_count(p), 1);
	bt_harness_finish(p, 5);
	assert_int_equal(bt_harness_count(p), 2);
	assert_int_equal(bt_harness_lines(p), 3);
	assert_true(bt_harness_result(p, 0)->t_begin == 1);
	assert_true(bt_harness_result(p, 0)->t_end == 3);
	assert_true(bt_harness_result(p, 1)->t_end == 5);
	assert_string_equal(bt_harness_result(p, 1)->name, "BenchmarkB");
	/* the time as the other harnesses give it: "/op" is the column's */
	assert_string_equal(bt_harness_result(p, 1)->time.text, "1.5 ns");
	/* random bytes: no crash, nothing read */
	srand(3);
	for (int i = 0; i < 200000; i++)
		big[i] = (char)(rand() % 256);
	bt_harness_feed(p, big, 200000, 6);
	bt_harness_finish(p, 7);
	free(big);
	bt_harness_parser_free(p);
}

/* Every registered harness: its name both ways, its frames, its traits. */
static void
test_registry(void **state)
{
	for (int h = 1; h < BT_HARNESS_COUNT; h++) {
		const char *name = bt_harness_name((enum bt_harness)h);
		const struct bt_harness_frames *hf = bt_harness_frames((enum bt_harness)h);

		assert_string_not_equal(name, "unknown");
		assert_int_equal(bt_harness_from_name(name), h);
		if (h == BT_HARNESS_CUSTOM || h == BT_HARNESS_OPENSSL) {
			/* no runner: a function named like it; openssl's binary is stripped */
			assert_null(hf);
			continue;
		}
		assert_non_null(hf);
		assert_int_equal(hf->harness, h);
		assert_non_null(hf->runner);
		assert_non_null(hf->entry);
	}
	assert_string_equal(bt_harness_name(BT_HARNESS_UNKNOWN), "unknown");
	assert_string_equal(bt_harness_name(BT_HARNESS_COUNT), "unknown");
	assert_int_equal(bt_harness_from_name("unknown"), BT_HARNESS_UNKNOWN);
	assert_int_equal(bt_harness_from_name("gbench2"), BT_HARNESS_UNKNOWN);
	assert_null(bt_harness_frames(BT_HARNESS_UNKNOWN));
	assert_int_equal(bt_harness_traits(BT_HARNESS_UNKNOWN), 0);
	assert_int_equal(bt_harness_traits(BT_HARNESS_GBENCH), 0);
	assert_int_equal(bt_harness_traits(BT_HARNESS_GO), BT_HARNESS_T_ANNOUNCES);
	assert_int_equal(bt_harness_traits(BT_HARNESS_CRITERION), BT_HARNESS_T_ANNOUNCES);
	assert_int_equal(bt_harness_traits(BT_HARNESS_LIBTEST), 0);
	assert_int_equal(bt_harness_traits(BT_HARNESS_TINYBENCH), BT_HARNESS_T_AT_END);
	assert_int_equal(bt_harness_traits(BT_HARNESS_MITATA), 0);
	assert_int_equal(bt_harness_traits(BT_HARNESS_BENCHMARKJS), 0);
	assert_int_equal(bt_harness_traits(BT_HARNESS_BENCHNODE), BT_HARNESS_T_AT_END);
	assert_int_equal(bt_harness_traits(BT_HARNESS_CUSTOM), BT_HARNESS_T_AT_END);
	assert_int_equal(bt_harness_traits(BT_HARNESS_OPENSSL), BT_HARNESS_T_ANNOUNCES);
}

static struct bt_harness_parser *
feed_text(const char *text)
{
	struct bt_harness_parser *p = bt_harness_parser_new(BT_HARNESS_UNKNOWN);

	bt_harness_feed(p, text, strlen(text), 1.0);
	bt_harness_finish(p, 2.0);
	return p;
}

/*
 * A program's own result lines (make demo's example): NAME N unit/what;
 * none when a harness the parsers know printed results in the same output.
 */
static void
test_custom(void **state)
{
	struct bt_harness_parser *p;
	const struct bt_bench_result *r;

	(void)state;
	p = feed_text("modsum      4.895 ns/element\n"
	    "popcount:   1.5 us/op\n"
	    "noop        0.006 ns/element  (too good to be true?)\n"
	    "1 2 ns/op\n  indented 3 ns/op\nsize 12 KiB/s\ntotal 5 ns\n");
	assert_int_equal(bt_harness_count(p), 3);
	r = find(p, "popcount");
	assert_int_equal(r->harness, BT_HARNESS_CUSTOM);
	assert_string_equal(r->family, "popcount");
	assert_string_equal(r->time.text, "1.5 us/op");
	assert_true(fabs(r->time.value - 1500) < 1e-9);
	r = find(p, "noop");
	assert_string_equal(r->time.text, "0.006 ns/element");
	assert_int_equal(r->index, 2);
	bt_harness_parser_free(p);
	/* Go's results after a line of the program's own: Go's only */
	p = feed_text("warmup 3 ms/run\n"
	    "BenchmarkB-2    \t      10\t         5.0 ns/op\n");
	assert_int_equal(bt_harness_count(p), 1);
	assert_int_equal(bt_harness_result(p, 0)->harness, BT_HARNESS_GO);
	assert_int_equal(bt_harness_result(p, 0)->index, 0);
	bt_harness_parser_free(p);
}

/*
 * openssl speed (on its standard error): the announcement, then the count
 * and CPU seconds on the same line, or -mr's +DT and +R lines.
 */
static void
test_openssl(void **state)
{
	struct bt_harness_parser *p = bt_harness_parser_new(BT_HARNESS_OPENSSL);
	static const char *const junk[] = {
		"Doing the dishes for you: now\n",
		"Doing sha256 for 3s on 16 size blocks: \n",
		"Doing sha256 for 3s on 16 size blocks: -5 sha256's in 2.98s\n",
		"Doing sha256 for 3s on 16 size blocks: 5 sha256's in soon\n",
		"+R:12:sha1:1.000000\n",
		"+DT:sha1:3:16\n+R:12:md5:1.000000\n",
		"+DT:sha1:3:16\n+R:1.5:sha1:1.000000\n",
	};
	const struct bt_bench_result *r;
	const char *a = "Doing sha256 for 1s on 64 size blocks: ", *b = "2242231 sha256's in 0.68s\n";

	(void)state;
	/* the announcement when the run begins, its end when the run ends */
	bt_harness_feed(p, a, strlen(a), 1.0);
	bt_harness_feed(p, b, strlen(b), 2.0);
	a = "Doing 2048 bits private rsa's for 10s: 1334 2048 bits private RSA's in 9.97s\n";
	bt_harness_feed(p, a, strlen(a), 3.0);
	a = "+DT:md5:3:16\n";
	bt_harness_feed(p, a, strlen(a), 4.0);
	a = "+R:16843574:md5:2.980000\n";
	bt_harness_feed(p, a, strlen(a), 7.0);
	bt_harness_finish(p, 8.0);
	assert_int_equal(bt_harness_count(p), 3);
	r = bt_harness_result(p, 0);
	assert_string_equal(r->name, "sha256/64");
	assert_string_equal(r->family, "sha256");
	assert_string_equal(r->iterations.text, "2242231");
	assert_true(r->iterations.value == 2242231);
	assert_true(r->time.value == 0.68 * 1e9 / 2242231);
	assert_string_equal(r->time.text, "303.3 ns");
	assert_string_equal(counter(r, "cpu")->text, "0.68s");
	assert_true(r->t_begin == 1.0 && r->t_end == 2.0);
	r = bt_harness_result(p, 1);
	assert_string_equal(r->name, "2048 bits private rsa");
	assert_true(r->iterations.value == 1334);
	assert_true(r->time.value == 9.97 * 1e9 / 1334);
	r = bt_harness_result(p, 2);
	assert_string_equal(r->name, "md5/16");
	assert_string_equal(r->family, "md5");
	assert_true(r->time.value == 2.98 * 1e9 / 16843574);
	assert_true(r->t_begin == 4.0 && r->t_end == 7.0);
	bt_harness_parser_free(p);
	/* " on " and " size blocks" overlapping: no block size to name */
	p = feed_text("Doing x for 1s on size blocks: 5 x's in 1.00s\n");
	assert_int_equal(bt_harness_count(p), 1);
	assert_string_equal(bt_harness_result(p, 0)->name, "x");
	bt_harness_parser_free(p);
	for (size_t i = 0; i < BT_ARRAY_SIZE(junk); i++) {
		p = feed_text(junk[i]);
		if (bt_harness_count(p) != 0)
			fail_msg("read a result in '%s'", junk[i]);
		bt_harness_parser_free(p);
	}
}

/* One line of each harness, in one output. */
static const char mixed[] =
	"Benchmark          Time             CPU   Iterations\n"
	"BM_a            5.00 ns         5.00 ns    100000000\n"
	"BenchmarkB-2    \t      10\t         5.0 ns/op\n"
	"Benchmarking crit_c: Analyzing\n"
	"crit_c                  time:   [1.0000 ns 2.0000 ns 3.0000 ns]\n"
	"test lt_d ... bench:           7 ns/iter (+/- 1)\n"
	"\xe2\x94\x82 (index) \xe2\x94\x82 Task name \xe2\x94\x82 Latency avg (ns) \xe2\x94\x82 Samples \xe2\x94\x82\n"
	"\xe2\x94\x82 0       \xe2\x94\x82 'tb_e'    \xe2\x94\x82 '10.5 \xc2\xb1 0.50%'  \xe2\x94\x82 '100'   \xe2\x94\x82\n"
	"\xe2\x94\x94\xe2\x94\x80\n"
	"benchmark                   avg (min \xe2\x80\xa6 max) p75 / p99\n"
	"mi_f                          10.65 \xc2\xb5s/iter  10.83 \xc2\xb5s  \xe2\x96\x82\xe2\x96\x83\n"
	"bj_g x 1,234 ops/sec \xc2\xb1" "0.50% (90 runs sampled)\n"
	"bn_h                                          x 1,234 ops/sec (9 runs sampled) "
	"min..max=(1.00us...2.00us)\n";

/* "harness:name ..." of the results of mixed, read by a parser for only. */
static char *
mixed_results(enum bt_harness only)
{
	struct bt_harness_parser *p = bt_harness_parser_new(only);
	struct bt_strbuf sb = BT_STRBUF_INIT;
	char *out;

	bt_harness_feed(p, mixed, sizeof(mixed) - 1, 0);
	bt_harness_finish(p, 1);
	for (size_t i = 0; i < bt_harness_count(p); i++) {
		const struct bt_bench_result *r = bt_harness_result(p, i);

		assert_int_equal(r->index, i);
		bt_strbuf_addf(&sb, "%s%s:%s", i ? " " : "", bt_harness_name(r->harness), r->name);
	}
	bt_harness_parser_free(p);
	out = bt_xstrdup(sb.buf);
	bt_strbuf_release(&sb);
	return out;
}

#define ASSERT_MIXED(only, expect) do {					\
	char *got_ = mixed_results(only);				\
	assert_string_equal(got_, (expect));				\
	free(got_);							\
} while (0)

/*
 * The harnesses a parser offers lines to: all of them in printed order,
 * or one; criterion's also reads libtest's lines (--output-format bencher).
 */
static void
test_only(void **state)
{
	ASSERT_MIXED(BT_HARNESS_UNKNOWN, "gbench:BM_a go:BenchmarkB-2 criterion:crit_c "
	    "libtest:lt_d tinybench:tb_e mitata:mi_f benchmark.js:bj_g bench-node:bn_h");
	ASSERT_MIXED(BT_HARNESS_GBENCH, "gbench:BM_a");
	ASSERT_MIXED(BT_HARNESS_GO, "go:BenchmarkB-2");
	ASSERT_MIXED(BT_HARNESS_CRITERION, "criterion:crit_c libtest:lt_d");
	ASSERT_MIXED(BT_HARNESS_LIBTEST, "libtest:lt_d");
	ASSERT_MIXED(BT_HARNESS_TINYBENCH, "tinybench:tb_e");
	ASSERT_MIXED(BT_HARNESS_MITATA, "mitata:mi_f");
	ASSERT_MIXED(BT_HARNESS_BENCHMARKJS, "benchmark.js:bj_g");
	ASSERT_MIXED(BT_HARNESS_BENCHNODE, "bench-node:bn_h");
	ASSERT_MIXED(BT_HARNESS_COUNT, "");
}

static struct bt_chain_match
place(enum bt_harness h, const struct bt_frame *f, size_t n)
{
	struct bt_chain_match m;

	bt_harness_match_chain(bt_harness_frames(h), f, n, &m);
	return m;
}

#define CRIT_FN "<criterion::routine::Function<M,F,T> as criterion::routine::Routine<M,T>>"
#define MAP_FOLD "<core::iter::adapters::map::Map<I,F> as core::iter::traits::iterator::Iterator>::fold"

/* Chains as perf script showed them for the fixtures (docs/benchmarks.md). */
static void
test_chains(void **state)
{
	static const struct bt_frame gb_sum[] = {
		{ "BM_sum", "/b/gbench" },
		{ NULL, "/usr/lib/x86_64-linux-gnu/libbenchmark.so.1.7.1" },
		{ NULL, "/usr/lib/x86_64-linux-gnu/libbenchmark.so.1.7.1" },
		{ "benchmark::RunSpecifiedBenchmarks",
		  "/usr/lib/x86_64-linux-gnu/libbenchmark.so.1.7.1" },
		{ "main", "/b/gbench" },
		{ "__libc_start_call_main", "/usr/lib/x86_64-linux-gnu/libc.so.6" },
	}, gb_fixture[] = {
		{ "VecFixture_Sum_Benchmark::BenchmarkCase", "/b/gbench" },
		{ "benchmark::Fixture::Run", "/b/gbench" },
		{ NULL, "libbenchmark.so.1.7.1" },
		{ "main", "/b/gbench" },
	}, gb_report[] = {
		{ "std::num_put<char>::do_put", "libstdc++.so.6.0.30" },
		{ "std::ostream::_M_insert<long>", "libstdc++.so.6.0.30" },
		{ NULL, "libbenchmark.so.1.7.1" },
		{ "benchmark::CPUInfo::Get", "libbenchmark.so.1.7.1" },
		{ "main", "/b/gbench" },
	}, gb_fp_memmove[] = {
		/* frame pointers: memmove sets up no frame, BM_memcpy is lost */
		{ "__memmove_avx512_unaligned_erms", "libc.so.6" },
		{ NULL, "libbenchmark.so.1.7.1" },
	}, go_leaf[] = {
		/* frame pointers: frameless leaf, runN lost */
		{ "benchtui.test/gobench.BenchmarkPopcnt", "gobench.test" },
		{ "testing.(*B).launch", "gobench.test" },
		{ "testing.(*B).doBench.func1", "gobench.test" },
		{ "runtime.goexit.abi0", "gobench.test" },
	}, go_gc[] = {
		{ "runtime.casgstatus", "gobench.test" },
		{ "runtime.mcall", "gobench.test" },
		{ "testing.(*B).runN", "gobench.test" },
		{ "testing.(*B).launch", "gobench.test" },
	}, go_gcworker[] = {
		{ "runtime.scanblock", "gobench.test" },
		{ "runtime.gcBgMarkWorker.func2", "gobench.test" },
		{ "runtime.goexit.abi0", "gobench.test" },
	}, crit_measure[] = {
		{ "rustbench::fib", "crit" },
		{ "crit::bench_fib::{{closure}}::{{closure}}", "inlined" },
		{ "criterion::bencher::Bencher<M>::iter", "crit" },
		{ "crit::bench_fib::{{closure}}", "inlined" },
		{ "criterion::benchmark_group::BenchmarkGroup<M>::bench_function::{{closure}}",
		  "inlined" },
		{ CRIT_FN "::bench::{{closure}}", "inlined" },
		{ "core::iter::adapters::map::map_fold::{{closure}}", "inlined" },
		{ MAP_FOLD, "crit" },
		{ "criterion::routine::Routine::sample", "crit" },
		{ "criterion::analysis::common", "crit" },
		{ "crit::main", "crit" },
		{ "core::ops::function::FnOnce::call_once", "crit" },
		{ "std::rt::lang_start::{{closure}}", "crit" },
	}, crit_timer[] = {
		{ "__vdso_clock_gettime", "[vdso]" },
		{ "std::time::Instant::now", "crit" },
		{ "criterion::bencher::Bencher<M>::iter", "crit" },
		{ "crit::bench_popcnt_dead::{{closure}}", "inlined" },
		{ CRIT_FN "::warm_up", "crit" },
		{ "criterion::routine::Routine::sample", "crit" },
		{ "crit::main", "crit" },
	}, crit_analysis[] = {
		{ "rayon::slice::quicksort::shift_tail", "crit" },
		{ "criterion::analysis::common", "crit" },
		{ "crit::main", "crit" },
		{ "core::ops::function::FnOnce::call_once", "crit" },
	}, lt_closure[] = {
		{ "libtest::fib", "libtest" },
		{ "libtest::bench_fib::{{closure}}", "inlined" },
		{ "test::bench::ns_iter_inner", "inlined" },
		{ "test::bench::Bencher::iter", "libtest" },
		{ "core::ops::function::FnMut::call_mut", "inlined" },
		{ "test::bench::Bencher::bench", "inlined" },
		{ "std::panicking::try", "inlined" },
		{ "test::bench::benchmark", "libtest" },
		{ "test::run_test", "libtest" },
	}, js_task[] = {
		{ "JS:*fib file:///b/js/work.mjs:2:20", "perf-1.map" },
		{ "JS:* file:///b/js/tinybench.mjs:13:18", "perf-1.map" },
		{ "Builtins_Call_ReceiverIsAny", "node" },
		{ "JS:*#m file:///b/js/node_modules/tinybench/dist/index.js:416:10", "perf-1.map" },
		{ "Builtins_RunMicrotasks", "node" },
	}, mitata_task[] = {
		{ "JS:* file:///b/js/mitata.mjs:10:19", "perf-1.map" },
		{ "JS:^ :1:26", "perf-1.map" },
		{ "Builtins_InterpreterEntryTrampoline", "node" },
	};
	struct bt_chain_match m;

	m = place(BT_HARNESS_GBENCH, gb_sum, BT_ARRAY_SIZE(gb_sum));
	assert_int_equal(m.place, BT_CHAIN_BENCHMARK);
	assert_int_equal(m.entry, 0);
	m = place(BT_HARNESS_GBENCH, gb_fixture, BT_ARRAY_SIZE(gb_fixture));
	assert_int_equal(m.place, BT_CHAIN_BENCHMARK);
	assert_int_equal(m.entry, 0);	/* Fixture::Run is a wrapper */
	assert_int_equal(place(BT_HARNESS_GBENCH, gb_report, BT_ARRAY_SIZE(gb_report)).place,
	    BT_CHAIN_HARNESS);
	assert_int_equal(place(BT_HARNESS_GBENCH, gb_fp_memmove,
	    BT_ARRAY_SIZE(gb_fp_memmove)).place, BT_CHAIN_HARNESS);
	m = place(BT_HARNESS_GO, go_leaf, BT_ARRAY_SIZE(go_leaf));
	assert_int_equal(m.place, BT_CHAIN_BENCHMARK);
	assert_int_equal(m.entry, 0);
	assert_int_equal(m.phase, BT_PHASE_MEASURE);
	assert_int_equal(place(BT_HARNESS_GO, go_gc, BT_ARRAY_SIZE(go_gc)).place, BT_CHAIN_HARNESS);
	assert_int_equal(place(BT_HARNESS_GO, go_gcworker, BT_ARRAY_SIZE(go_gcworker)).place,
	    BT_CHAIN_OUTSIDE);
	m = place(BT_HARNESS_CRITERION, crit_measure, BT_ARRAY_SIZE(crit_measure));
	assert_int_equal(m.place, BT_CHAIN_BENCHMARK);
	assert_int_equal(m.entry, 3);
	assert_int_equal(m.phase, BT_PHASE_MEASURE);
	m = place(BT_HARNESS_CRITERION, crit_timer, BT_ARRAY_SIZE(crit_timer));
	assert_int_equal(m.place, BT_CHAIN_BENCHMARK);
	assert_int_equal(m.entry, 3);
	assert_int_equal(m.phase, BT_PHASE_WARMUP);
	assert_int_equal(place(BT_HARNESS_CRITERION, crit_analysis,
	    BT_ARRAY_SIZE(crit_analysis)).place, BT_CHAIN_OUTSIDE);
	m = place(BT_HARNESS_LIBTEST, lt_closure, BT_ARRAY_SIZE(lt_closure));
	assert_int_equal(m.place, BT_CHAIN_BENCHMARK);
	assert_int_equal(m.entry, 1);
	m = place(BT_HARNESS_TINYBENCH, js_task, BT_ARRAY_SIZE(js_task));
	assert_int_equal(m.place, BT_CHAIN_BENCHMARK);
	assert_int_equal(m.entry, 1);
	m = place(BT_HARNESS_MITATA, mitata_task, BT_ARRAY_SIZE(mitata_task));
	assert_int_equal(m.place, BT_CHAIN_BENCHMARK);
	assert_int_equal(m.entry, 0);
	/* a harness without a table places nothing */
	bt_harness_match_chain(NULL, gb_sum, BT_ARRAY_SIZE(gb_sum), &m);
	assert_int_equal(m.place, BT_CHAIN_OUTSIDE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lexing),
		cmocka_unit_test(test_feeding),
		cmocka_unit_test(test_chains),
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_custom),
		cmocka_unit_test(test_openssl),
		cmocka_unit_test(test_only),
		cmocka_unit_test(test_gbench_console),
		cmocka_unit_test(test_gbench_json),
		cmocka_unit_test(test_gbench_tabular_csv),
		cmocka_unit_test(test_go),
		cmocka_unit_test(test_criterion),
		cmocka_unit_test(test_libtest),
		cmocka_unit_test(test_js),
		cmocka_unit_test(test_rates),
		cmocka_unit_test(test_rate_shapes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
