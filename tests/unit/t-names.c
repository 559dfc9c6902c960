/*
 * Names that fit and stay distinct (issue 25): the middle cut keeps a
 * name's start and end, the cut of a table never makes two names read the
 * same, folding falls back where two functions would fold alike, and a
 * time printed without its unit gets the one its value in ns says.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "base.h"
#include "benchtui/bench.h"
#include "benchtui/view.h"
#include "view/view-int.h"

static void
test_cut_middle(void **state)
{
	struct bt_view *v = view_new(NULL);
	const char *s = "BenchmarkCRC32/poly=Castagnoli/size=15/align=0-2";
	const char *c = view_cut_middle(v, s, 40);

	(void)state;
	assert_int_equal(view_ncols(c), 40);
	assert_non_null(strstr(c, "\xe2\x80\xa6"));
	assert_int_equal(strncmp(c, "BenchmarkCRC", 12), 0);
	assert_string_equal(c + strlen(c) - 17, "size=15/align=0-2");
	assert_string_equal(view_cut_middle(v, "short", 40), "short");
	/* characters, not bytes: "×" is one column */
	assert_int_equal(view_ncols(view_cut_middle(v,
	    "a\xc3\x97" "b\xc3\x97" "c\xc3\x97" "d\xc3\x97" "e\xc3\x97" "f\xc3\x97" "g",
	    7)), 7);
	bt_view_free(v);
}

static void
test_cut_distinct(void **state)
{
	struct bt_view *v = view_new(NULL);
	static const char *const names[] = {
		"BenchmarkX/aaaaaaaaaaaaaaaaaaaaaaaa/size=15/align=0",
		"BenchmarkX/bbbbbbbbbbbbbbbbbbbbbbbb/size=15/align=0",
		"BenchmarkX/aaaaaaaaaaaaaaaaaaaaaaaa/size=15/align=1",
		"BenchmarkX/short",
		"BenchmarkX/short",
	};
	const char *out[5];
	size_t i, j;

	(void)state;
	view_cut_distinct(v, names, 5, 20, false, out);
	for (i = 0; i < 5; i++) {
		assert_true(view_ncols(out[i]) <= view_ncols(names[i]));
		for (j = i + 1; j < 5; j++)
			if (strcmp(names[i], names[j]) != 0)
				assert_string_not_equal(out[i], out[j]);
	}
	assert_string_equal(out[3], "BenchmarkX/short");
	view_cut_distinct(v, names, 5, 20, true, out);
	for (i = 0; i < 5; i++)
		assert_string_equal(out[i], names[i]);
	bt_view_free(v);
}

static void
test_unfold_clashes(void **state)
{
	struct bt_view *v = view_new(NULL);
	static const char *const names[] = {
		"double T<int>::reduce<std::plus<double> >(long) const",
		"double T<int>::reduce<main::{lambda(double)#1}>(long) const",
		"ns::mix(double)", "ns::mix(long)", "ns::Acc<int>::add(int)",
	};
	const char *shown[5];
	size_t i;

	(void)state;
	for (i = 0; i < 5; i++)
		shown[i] = view_short_name(v, names[i], true);
	view_unfold_clashes(v, names, 5, shown);
	/* only what differs unfolded */
	assert_string_equal(shown[0], "T<\xe2\x80\xa6>::reduce<std::plus<double> >");
	assert_string_equal(shown[1], "T<\xe2\x80\xa6>::reduce<main::{lambda(double)#1}>");
	assert_string_equal(shown[2], "ns::mix(double)");
	assert_string_equal(shown[3], "ns::mix(long)");
	assert_string_equal(shown[4], "ns::Acc<\xe2\x80\xa6>::add");
	bt_view_free(v);
}

static void
test_time_unit(void **state)
{
	struct bt_bench b;

	(void)state;
	memset(&b, 0, sizeof(b));
	b.time_text = "4301.5";	/* tinybench's "Latency avg (ns)" */
	b.time_ns = 4301.5;
	assert_string_equal(bt_bench_time_unit(&b), " ns");
	b.time_text = "1,234.5";
	b.time_ns = 1234.5e3;
	assert_string_equal(bt_bench_time_unit(&b), " \xc2\xb5s");
	b.time_text = "6.595 ns";	/* Go: printed with its unit */
	b.time_ns = 6.595;
	assert_string_equal(bt_bench_time_unit(&b), "");
	b.time_text = "12";	/* a value no unit explains */
	b.time_ns = 17;
	assert_string_equal(bt_bench_time_unit(&b), "");
	b.time_ns = NAN;
	assert_string_equal(bt_bench_time_unit(&b), "");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cut_middle),
		cmocka_unit_test(test_cut_distinct),
		cmocka_unit_test(test_unfold_clashes),
		cmocka_unit_test(test_time_unit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
