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
#include "symbols/symbols.h"
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
	/* a module and address: the address whole, never another module's name */
	assert_string_equal(view_cut_middle(v, "libcrypto.so.3+0x240ce0", 13),
	    "lib\xe2\x80\xa6+0x240ce0");
	assert_string_equal(view_cut_middle(v, "libcrypto.so.3+0x240ce0", 10),
	    "lib\xe2\x80\xa6" "240ce0");	/* too narrow for the rule: as before */
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

/* Eigen-like: instantiations that differ only deep inside */
#define EV(al, w) "bench::internal::Evaluator<bench::linalg::Product<bench::linalg::Matrix<" \
	"double, bench::linalg::Layout<bench::linalg::RowMajor, bench::linalg::Align<16> >, 8, 8>, " \
	"bench::linalg::Matrix<double, bench::linalg::Layout<bench::linalg::ColMajor, " \
	"bench::linalg::Align<" al "> >, 8, 8> >, bench::linalg::Kernel<bench::linalg::Packet<" \
	"double, " w ">, bench::linalg::UnrollBy<4> > >::run<bench::Policy<true> >"

static void
test_spans(void **state)
{
	struct bt_name_span sp[8];
	const char *s = "a::B<c::D<int>, E<F<x> > >::g<h>";
	size_t n = bt_name_spans(s, sp, 8);

	(void)state;
	assert_int_equal(n, 5);
	assert_int_equal(sp[0].depth, 1);
	assert_int_equal(sp[0].parent, -1);
	assert_int_equal(sp[0].close - sp[0].open, strlen("<c::D<int>, E<F<x> > >"));
	assert_int_equal(sp[1].parent, 0);	/* <int> */
	assert_int_equal(sp[3].depth, 3);	/* <x> */
	assert_int_equal(sp[3].parent, 2);
	assert_int_equal(sp[4].depth, 1);	/* <h> */
	/* operator< is no list; a comparison inside parentheses neither */
	assert_int_equal(bt_name_spans("ns::operator<", sp, 8), 0);
	assert_int_equal(bt_name_spans("f<(sizeof (T))<(8)>", sp, 8), 1);
	assert_int_equal(bt_name_spans("a<b<c<d<e> > > >", sp, 3), 4);	/* more than max */
}

static void
test_fit(void **state)
{
	struct bt_strbuf sb = BT_STRBUF_INIT;
	const char *s = "my::Table<std::vector<double, std::allocator<double> >, 16>"
	    "::reduce<std::plus<double> >";

	(void)state;
	/* it fits: untouched */
	assert_true(bt_name_fit(s, 200, NULL, &sb));
	assert_string_equal(sb.buf, s);
	bt_strbuf_reset(&sb);
	/* the deepest list first, only as far as needed */
	assert_true(bt_name_fit(s, 82, NULL, &sb));
	assert_string_equal(sb.buf, "my::Table<std::vector<double, std::allocator<\xe2\x80\xa6> >, 16>"
	    "::reduce<std::plus<double> >");
	bt_strbuf_reset(&sb);
	assert_true(bt_name_fit(s, 60, NULL, &sb));
	assert_true(view_ncols(sb.buf) <= 60);
	assert_non_null(strstr(sb.buf, "my::Table<std::vector<\xe2\x80\xa6>, 16>::reduce<"));
	bt_strbuf_reset(&sb);
	/* all folded: pprof's form; narrower, false (the caller cuts) */
	assert_true(bt_name_fit(s, 30, NULL, &sb));
	assert_string_equal(sb.buf, "my::Table<\xe2\x80\xa6>::reduce<\xe2\x80\xa6>");
	bt_strbuf_reset(&sb);
	assert_false(bt_name_fit(s, 20, NULL, &sb));
	assert_string_equal(sb.buf, "my::Table<\xe2\x80\xa6>::reduce<\xe2\x80\xa6>");
	bt_strbuf_release(&sb);
}

static void
test_keep_differing(void **state)
{
	struct bt_strbuf sb = BT_STRBUF_INIT;
	struct bt_name_span sp[64];
	bool keep[64] = { false };
	const char *a = EV("16", "4"), *b = EV("32", "4");
	size_t n = bt_name_spans(a, sp, 64), i, nkeep = 0;

	(void)state;
	bt_name_keep_differing(a, b, keep, 64);
	for (i = 0; i < n; i++)
		if (keep[i]) {
			nkeep++;
			/* each kept list holds the difference */
			assert_true((long)sp[i].open < strstr(a, "Align<16> >, 8, 8> >, bench::linalg::K") -
			    a + 6 && (long)sp[i].close > (strstr(a, "Align<16> >, 8, 8> >, bench::linalg::K")
			    - a + 6));
		}
	assert_int_equal(nkeep, 5);	/* Evaluator, Product, Matrix, Layout, Align */
	assert_false(bt_name_fit(a, 60, keep, &sb));
	assert_non_null(strstr(sb.buf, "Align<16>"));
	assert_non_null(strstr(sb.buf, "Kernel<\xe2\x80\xa6>"));
	assert_non_null(strstr(sb.buf, "::run<\xe2\x80\xa6>"));
	bt_strbuf_release(&sb);
	/* folded forms that differ need nothing kept */
	memset(keep, 0, sizeof(keep));
	bt_name_keep_differing("a<int>::f", "a<int>::g", keep, 64);
	assert_false(keep[0]);
}

static void
test_fit_names(void **state)
{
	struct bt_view *v = view_new(NULL);
	const char *names[] = { EV("16", "4"), EV("32", "4"), EV("16", "8"), EV("32", "8"),
		"bench::internal::Runner<bench::Policy<true> >::measure", "main", EV("16", "4") };
	const char *out[7];
	size_t i, j, w;

	(void)state;
	for (w = 30; w <= 120; w += 10) {
		view_fit_names(v, names, 7, w, out);
		for (i = 0; i < 7; i++) {
			if (view_ncols(out[i]) > w) print_message("%zu: %s\n", w, out[i]);
			assert_true(view_ncols(out[i]) <= w);
			for (j = 0; j < i; j++)
				if (strcmp(names[i], names[j]) != 0)
					assert_string_not_equal(out[i], out[j]);
				else
					assert_string_equal(out[i], out[j]);
		}
	}
	/* what fits stays whole; a lone long name folds to fit, no cut */
	view_fit_names(v, names + 4, 2, 60, out);
	assert_string_equal(out[0], "bench::internal::Runner<bench::Policy<true> >::measure");
	view_fit_names(v, names + 4, 1, 40, out);
	assert_string_equal(out[0], "bench::internal::Runner<\xe2\x80\xa6>::measure");
	bt_view_free(v);
}

/* A call chain as one line: names fitted, then the middle frames gone, the first and last kept. */
static void
test_chain_fit(void **state)
{
	struct bt_view *v = view_new(NULL);
	const char *chain[] = { EV("16", "4"), "bench::internal::Runner<bench::Policy<true> >::measure",
		"benchmark::internal::BenchmarkInstance::Run", "benchmark::internal::BenchmarkRunner::DoNIterations",
		"benchmark::RunSpecifiedBenchmarks", "main", "__libc_start_call_main", "_start" };
	const char *l;
	size_t w;

	(void)state;
	l = view_chain_fit(v, chain + 5, 3, " <- ", 80);	/* fits: whole */
	assert_string_equal(l, "main <- __libc_start_call_main <- _start");
	for (w = 30; w <= 300; w += 15) {
		l = view_chain_fit(v, chain, 8, " <- ", w);
		assert_non_null(l);
		assert_true(view_ncols(l) <= w);
		if (w >= 40) {	/* the first frame's start and the last frame stay */
			assert_int_equal(strncmp(l, "bench", 5), 0);
			assert_string_equal(l + strlen(l) - 10, " <- _start");
		}
	}
	l = view_chain_fit(v, chain, 8, " <- ", 60);
	assert_non_null(strstr(l, " <- \xe2\x80\xa6 <- "));	/* frames in the middle gone */
	assert_null(view_chain_fit(v, chain, 0, " <- ", 60));
	bt_view_free(v);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cut_middle),
		cmocka_unit_test(test_cut_distinct),
		cmocka_unit_test(test_unfold_clashes),
		cmocka_unit_test(test_time_unit),
		cmocka_unit_test(test_spans),
		cmocka_unit_test(test_fit),
		cmocka_unit_test(test_keep_differing),
		cmocka_unit_test(test_fit_names),
		cmocka_unit_test(test_chain_fit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
