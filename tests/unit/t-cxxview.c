/*
 * Unit tests: C++ names in the views and the browser, on a real templated
 * C++ benchmark (tests/fixtures/tmpl.cc, compiled here) and deterministic
 * recordings of it: perf's short names, folded templates, the whole name
 * for the status line, filters on every form, local jump targets, the
 * files a function's code comes from (a header inlined into it), compact
 * columns. Skipped without a C++ compiler.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "benchtui/browse.h"
#include "benchtui/profile.h"
#include "benchtui/selection.h"
#include "benchtui/session.h"
#include "benchtui/view.h"
#include "elf-funcs.h"
#include "symbols/symbols.h"
#include "synth.h"

#define H 20

static char dir[] = "/tmp/bt-cxx.XXXXXX";
static char bin[PATH_MAX], rec[PATH_MAX];
static bool have_cxx;
static char plus_sym[512], lambda_sym[512];

#define SHORT_PLUS "my::deeply::nested::Table<std::vector<double, " \
	"std::allocator<double> >, 16>::reduce<std::plus<double> >"

static void
find_reduce(uint64_t start, uint64_t size, const char *name, void *arg)
{
	(void)start;
	(void)size;
	(void)arg;
	if (strstr(name, "6reduceISt4plusIdEE") != NULL)
		snprintf(plus_sym, sizeof(plus_sym), "%s", name);
	else if (strstr(name, "6reduceIZ4main") != NULL)
		snprintf(lambda_sym, sizeof(lambda_sym), "%s", name);
}

static struct bt_selection *
open_session(void)
{
	struct bt_selection *s = test_open(rec);

	assert_non_null(s);
	return s;
}

static long
find_func(struct bt_selection *s, const char *needle)
{
	size_t i;

	for (i = 0; i < bt_selection_nfuncs(s); i++)
		if (strstr(bt_selection_func(s, i)->name, needle) != NULL)
			return (long)i;
	return -1;
}

static const char *
last_cell(const struct bt_row *r)
{
	return r->ncells ? r->cells[r->ncells - 1].text : "";
}

static bool
ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), m = strlen(end);

	return n >= m && strcmp(s + n - m, end) == 0;
}

/* The hot-function table: perf's form, the whole name beside it, the forms W cycles through. */
static void
test_table_names(void **state)
{
	struct bt_selection *s;
	struct bt_view_opts o;
	struct bt_view *v;
	const struct bt_row *r;
	size_t i;

	if (!have_cxx)
		skip();
	s = open_session();
	bt_view_opts_init(&o);
	v = bt_view_functions(s, &o, 0);
	r = bt_view_row(v, 0);
	assert_non_null(strstr(r->name, "reduce<std::plus<double> >(std::plus<double>, long) const"));
	assert_string_equal(r->short_name, SHORT_PLUS);
	assert_string_equal(last_cell(r), SHORT_PLUS);	/* the symbol is the last column */
	assert_string_equal(r->detail, r->name);	/* the status line's whole name */
	for (i = 0; i < bt_view_nrows(v); i++) {
		const struct bt_row *x = bt_view_row(v, i);
		for (size_t c = 0; c < x->ncells; c++) {
			assert_null(strstr(x->cells[c].text, "long) const"));
			/* no column padded to the longest name */
			assert_true(c + 1 == x->ncells || strlen(x->cells[c].text) < 40);
		}
	}
	bt_view_free(v);
	o.names = BT_NAMES_FOLDED;
	v = bt_view_functions(s, &o, 0);
	/* two instantiations of reduce: folded but for what tells them apart */
	assert_string_equal(last_cell(bt_view_row(v, 0)),
	    "my::deeply::nested::Table<\xe2\x80\xa6>::reduce<std::plus<double> >");
	bt_view_free(v);
	o.names = BT_NAMES_FULL;
	v = bt_view_functions(s, &o, 0);
	assert_string_equal(last_cell(bt_view_row(v, 0)), bt_view_row(v, 0)->name);
	assert_null(bt_view_row(v, 0)->detail);
	bt_view_free(v);
	/* C names are what they are in every form */
	r = NULL;
	o.names = BT_NAMES_SHORT;
	v = bt_view_functions(s, &o, 0);
	for (i = 0; i < bt_view_nrows(v); i++)
		if (strcmp(bt_view_row(v, i)->name, "main") == 0)
			r = bt_view_row(v, i);
	assert_non_null(r);
	assert_null(r->detail);
	assert_string_equal(r->short_name, "main");
	bt_view_free(v);
	test_close(s);
}

/* The filter (a regular expression) matches the whole name, perf's form and the folded form. */
static void
test_filter_forms(void **state)
{
	struct bt_selection *s;
	struct bt_view_opts o;
	struct bt_view *v;

	if (!have_cxx)
		skip();
	s = open_session();
	bt_view_opts_init(&o);
	o.filter = "reduce<std::plus";	/* both forms */
	v = bt_view_functions(s, &o, 0);
	assert_int_equal(bt_view_nrows(v), 1);
	bt_view_free(v);
	/* the whole name only (a regular expression: its parentheses escaped) */
	o.filter = "\\(std::plus<double>, long\\) const";
	v = bt_view_functions(s, &o, 0);
	assert_int_equal(bt_view_nrows(v), 1);
	bt_view_free(v);
	o.filter = "Table<\xe2\x80\xa6>::reduce<\xe2\x80\xa6>";	/* as W folds it */
	v = bt_view_functions(s, &o, 0);
	assert_int_equal(bt_view_nrows(v), 2);
	bt_view_free(v);
	o.filter = "no such function";
	v = bt_view_functions(s, &o, 0);
	assert_int_equal(bt_view_nrows(v), 0);
	assert_non_null(strstr(bt_view_note(v, 0), "no function matches 'no such function'"));
	bt_view_free(v);
	test_close(s);
}

/* The annotation: the short name in the title, local jumps as +0x28 with a direction. */
static void
test_annotation_names(void **state)
{
	struct bt_selection *s;
	struct bt_view_opts o;
	struct bt_view *v;
	size_t i, start, len, local = 0;
	long f;

	if (!have_cxx)
		skip();
	s = open_session();
	f = find_func(s, "reduce<std::plus");
	assert_true(f >= 0);
	bt_view_opts_init(&o);
	v = bt_view_annotate(s, (size_t)f, &o, NULL);
	assert_non_null(v);
	assert_int_equal(strncmp(bt_view_title(v), SHORT_PLUS "  tmpl  ", strlen(SHORT_PLUS) + 8), 0);
	assert_non_null(strstr(bt_view_title(v), "% of "));
	bt_view_title_span(v, &start, &len);
	assert_int_equal(start, 0);
	assert_int_equal(len, strlen(SHORT_PLUS));
	assert_string_equal(bt_view_func(v)->short_name, SHORT_PLUS);
	for (i = 0; i < bt_view_nrows(v); i++) {
		const struct bt_row *r = bt_view_row(v, i);
		if (r->kind != BT_ROW_INSN || !(r->flags & BT_ROW_F_JUMP) || r->target_row < 0)
			continue;
		/* inside the function: the offset and which way, not the name again */
		assert_non_null(strstr(last_cell(r), " <+0x"));
		assert_null(strstr(last_cell(r), "reduce"));
		assert_true(ends_with(last_cell(r), r->target <= r->addr ? "\xe2\x86\x91" :
		    "\xe2\x86\x93"));
		assert_non_null(strstr(r->target_name, "reduce"));	/* the data keeps it */
		local++;
	}
	assert_true(local >= 2);
	bt_view_free(v);
	test_close(s);
}

/*
 * The inline tree: at every instruction the chain the inline rows drew
 * (entered, back in) is the instruction's own, and the gutter's last
 * column is its depth; the view outlives the selection (the chain's
 * strings are the view's).
 */
static void
test_inline_tree(void **state)
{
	const struct bt_row_inline *drawn[64];
	struct bt_selection *s;
	struct bt_view *v;
	size_t i, depth = 0, k, entered = 0, left = 0, inlined = 0;
	long f;

	if (!have_cxx)
		skip();
	s = open_session();
	f = find_func(s, "reduce<std::plus");
	assert_true(f >= 0);
	v = bt_view_annotate(s, (size_t)f, NULL, NULL);
	assert_non_null(v);
	test_close(s);
	for (i = 0; i < bt_view_nrows(v); i++) {
		const struct bt_row *r = bt_view_row(v, i);
		const char *g;

		if (r->kind == BT_ROW_INLINE) {
			assert_true(r->ninlines < 64);
			if (r->flags & BT_ROW_F_INLINE_LEAVE) {
				assert_true(r->ninlines < depth);
				assert_non_null(strstr(r->text, "back in "));
				/* the frame gone back to, or the function: the view's strings */
				assert_true(strlen(r->name) > 0);
				assert_true(r->ninlines == 0 ||
				    r->name == r->inlines[r->ninlines - 1].name);
				left++;
			} else {
				assert_true(r->ninlines >= 1 && r->ninlines <= depth + 1);
				drawn[r->ninlines - 1] = &r->inlines[r->ninlines - 1];
				assert_string_equal(r->name, r->inlines[r->ninlines - 1].name);
				assert_non_null(strstr(r->text, "inlined "));
				entered++;
			}
			depth = r->ninlines;
			continue;
		}
		if (r->kind != BT_ROW_INSN)
			continue;
		assert_int_equal(r->ninlines, depth);
		for (k = 0; k < depth; k++) {
			assert_string_equal(r->inlines[k].name, drawn[k]->name);
			assert_int_equal(r->inlines[k].call_line, drawn[k]->call_line);
		}
		g = r->cells[r->ncells > 5 ? 4 : 2].text;	/* the gutter */
		assert_int_equal(g[strlen(g) - 1], depth == 0 ? ' ' : depth > 9 ? '+' :
		    (int)('0' + depth));
		inlined += depth > 0;
	}
	assert_true(entered > 0 && left > 0 && inlined > 0);
	bt_view_free(v);
}

/* Compact: two number columns fewer, source rows indented less. */
static void
test_compact(void **state)
{
	struct bt_selection *s;
	struct bt_view_opts o;
	struct bt_view *wide, *narrow;
	size_t i, indent_wide = 0, indent_narrow = 0;
	long f;

	if (!have_cxx)
		skip();
	s = open_session();
	f = find_func(s, "reduce<std::plus");
	bt_view_opts_init(&o);
	wide = bt_view_annotate(s, (size_t)f, &o, NULL);
	o.compact = true;
	narrow = bt_view_annotate(s, (size_t)f, &o, NULL);
	/* 7 and 5, and each the branch arrows' lanes */
	assert_int_equal(bt_view_columns(wide)->ncells, 8);
	assert_int_equal(bt_view_columns(narrow)->ncells, 6);
	for (i = 0; i < bt_view_columns(narrow)->ncells; i++) {
		assert_null(strstr(bt_view_columns(narrow)->cells[i].text, "\xc2\xb1" "95%"));
		assert_null(strstr(bt_view_columns(narrow)->cells[i].text, "Skid%"));
	}
	for (i = 0; i < bt_view_nrows(wide); i++)
		if (bt_view_row(wide, i)->kind == BT_ROW_SOURCE) {
			indent_wide = strlen(bt_view_row(wide, i)->cells[0].text);
			break;
		}
	for (i = 0; i < bt_view_nrows(narrow); i++) {
		const struct bt_row *r = bt_view_row(narrow, i);
		if (r->kind == BT_ROW_SOURCE && !indent_narrow)
			indent_narrow = strlen(r->cells[0].text);
		/* every instruction row has the columns the headings name */
		if (r->kind == BT_ROW_INSN)
			assert_true(r->ncells >= 5);
	}
	assert_true(indent_narrow > 0 && indent_narrow + 20 <= indent_wide);
	bt_view_free(wide);
	bt_view_free(narrow);
	/* the table drops its source column and cuts long module names */
	wide = bt_view_functions(s, &o, 0);
	assert_int_equal(bt_view_columns(wide)->ncells, 5);
	bt_view_free(wide);
	test_close(s);
}

/* The files of the code, and the source view of the header inlined into it. */
static void
test_files_and_header_source(void **state)
{
	struct bt_selection *s;
	struct bt_view *v;
	bool header = false, stl = false, hot_line = false;
	size_t i;
	long f;

	if (!have_cxx)
		skip();
	s = open_session();
	f = find_func(s, "reduce<std::plus");
	v = bt_view_files(s, (size_t)f, NULL, NULL);
	assert_non_null(v);
	assert_true(ends_with(bt_view_row(v, 0)->file, "/tmpl.cc"));	/* its own first */
	assert_true(bt_view_row(v, 0)->samples == bt_view_func(v)->samples);
	for (i = 1; i < bt_view_nrows(v); i++) {
		const struct bt_row *r = bt_view_row(v, i);
		assert_int_equal(r->kind, BT_ROW_FILE);
		if (ends_with(r->file, "/tmpl.h")) {
			header = true;
			assert_int_equal(r->samples, 500);
		}
		if (strstr(r->file, "stl_vector.h") != NULL)
			stl = true;
	}
	assert_true(header && stl);
	bt_view_free(v);
	{
		const char *hfile = NULL;
		v = bt_view_files(s, (size_t)f, NULL, NULL);
		for (i = 0; i < bt_view_nrows(v); i++)
			if (ends_with(bt_view_row(v, i)->file, "/tmpl.h"))
				hfile = bt_view_row(v, i)->file;
		assert_non_null(hfile);
		{
			struct bt_view *src = bt_view_source(s, (size_t)f, hfile, NULL, NULL);
			assert_non_null(src);
			assert_non_null(strstr(bt_view_title(src), "tmpl.h  (source of " SHORT_PLUS ")"));
			for (i = 0; i < bt_view_nrows(src); i++) {
				const struct bt_row *r = bt_view_row(src, i);
				/* a line of blend(), with the samples put there */
				if (r->samples == 500 && r->line >= 12 && r->line <= 16 &&
				    strchr(r->text, 'y') != NULL)
					hot_line = true;
			}
			bt_view_free(src);
		}
		bt_view_free(v);
	}
	assert_true(hot_line);
	test_close(s);
}

/* The browser: S on the header's code, S again, Enter: that file, in a bounded history. */
static void
test_browser_header_file(void **state)
{
	struct bt_selection *s;
	struct bt_browser *b;
	const struct bt_view *v;
	size_t i;
	long f;

	if (!have_cxx)
		skip();
	s = open_session();
	b = bt_browser_new(s, NULL);
	f = find_func(s, "reduce<std::plus");
	assert_int_equal(bt_browser_open(b, (size_t)f, H), 0);
	/* the hottest instruction is the header's: S says so */
	assert_true(ends_with(bt_view_row(bt_browser_view(b), bt_browser_nav(b)->cursor)->file,
	    "/tmpl.h"));
	bt_browser_apply(b, BT_ACT_SOURCE_VIEW, H);
	assert_string_equal(bt_browser_screen(b), "source");
	assert_non_null(strstr(bt_view_title(bt_browser_view(b)), "tmpl.cc  (source of"));
	assert_non_null(strstr(bt_browser_status(b), "tmpl.h"));
	bt_browser_apply(b, BT_ACT_SOURCE_VIEW, H);
	assert_string_equal(bt_browser_screen(b), "files");
	v = bt_browser_view(b);
	for (i = 0; i < bt_view_nrows(v); i++)
		if (ends_with(bt_view_row(v, i)->file, "/tmpl.h"))
			bt_browser_select(b, i, H);
	bt_browser_apply(b, BT_ACT_ENTER, H);
	assert_string_equal(bt_browser_screen(b), "source");
	assert_non_null(strstr(bt_view_title(bt_browser_view(b)), "tmpl.h  (source of"));
	assert_int_equal(bt_browser_depth(b), 3);	/* list, annotation, source */
	/* on its hottest line: the helper's */
	assert_int_equal(bt_view_row(bt_browser_view(b), bt_browser_nav(b)->cursor)->samples, 500);
	/* Enter: back to the annotation (not a new one), on that line's code */
	bt_browser_apply(b, BT_ACT_ENTER, H);
	assert_string_equal(bt_browser_screen(b), "annotate");
	assert_int_equal(bt_browser_depth(b), 2);
	assert_int_equal(bt_view_row(bt_browser_view(b), bt_browser_nav(b)->cursor)->samples, 500);
	/* the export's file name: perf's form, one '_' for each run of other characters */
	{
		char *name = bt_browser_export_name(b);
		assert_string_equal(name, "my_deeply_nested_Table_std_vector_double_std_"
		    "allocator_double_16_reduce_std_plus_double.txt");
		free(name);
	}
	/* W: folded names, the cursor kept */
	bt_browser_apply(b, BT_ACT_CYCLE_NAMES, H);
	assert_int_equal(bt_browser_opts(b)->names, BT_NAMES_FOLDED);
	assert_int_equal(strncmp(bt_view_title(bt_browser_view(b)),
	    "my::deeply::nested::Table<\xe2\x80\xa6>::reduce<\xe2\x80\xa6>  ", 44), 0);
	assert_int_equal(bt_view_row(bt_browser_view(b), bt_browser_nav(b)->cursor)->samples, 500);
	bt_browser_free(b);
	test_close(s);
}

/* A recording with samples at these specs ("SYM+0xOFF=N"). */
static int
record(char **specs, int n)
{
	char msg[256];

	if (synth_recording(rec, bin, specs, n, msg, sizeof(msg)) != 0) {
		fprintf(stderr, "%s\n", msg);
		return -1;
	}
	return 0;
}

static int
setup(void **state)
{
	char cmd[PATH_MAX * 2 + 128], s1[600], s2[600], s3[600];
	char *specs[4];
	struct bt_selection *s;
	struct bt_view *v;
	Elf *e;
	long f;
	size_t i;

	if (test_tmpdir(dir))
		return -1;
	snprintf(bin, sizeof(bin), "%s/tmpl", dir);
	snprintf(rec, sizeof(rec), "%s/tmpl.data", dir);
	snprintf(cmd, sizeof(cmd), "c++ -O2 -g -o %s tests/fixtures/tmpl.cc 2>/dev/null", bin);
	if (system(cmd) != 0)
		return 0;	/* no C++ compiler: every test skips */
	{
		char abs[PATH_MAX];
		if (realpath(bin, abs) == NULL)
			return -1;
		snprintf(bin, sizeof(bin), "%s", abs);
	}
	e = tool_open_elf(bin);
	if (e == NULL)
		return -1;
	tool_elf_funcs(e, find_reduce, NULL);
	tool_close_elf(e);
	if (!plus_sym[0] || !lambda_sym[0])
		return -1;
	/* first the function starts, to find where the header's code sits */
	snprintf(s1, sizeof(s1), "%s+0x0=100", plus_sym);
	snprintf(s2, sizeof(s2), "%s+0x0=30", lambda_sym);
	specs[0] = s1;
	specs[1] = s2;
	specs[2] = (char *)"main+0x0=1";
	if (record(specs, 3))
		return -1;
	s = open_session();
	f = find_func(s, "reduce<std::plus");
	v = f >= 0 ? bt_view_annotate(s, (size_t)f, NULL, NULL) : NULL;
	s3[0] = '\0';
	for (i = 0; v != NULL && i < bt_view_nrows(v) && !s3[0]; i++) {
		const struct bt_row *r = bt_view_row(v, i);
		if (r->kind == BT_ROW_INSN && r->file && strstr(r->file, "/tmpl.h") &&
		    r->addr > bt_view_func(v)->address)
			snprintf(s3, sizeof(s3), "%s+0x%llx=500", plus_sym,
			    (unsigned long long)(r->addr - bt_view_func(v)->address));
	}
	bt_view_free(v);
	test_close(s);
	if (!s3[0])
		return -1;
	specs[3] = s3;
	if (record(specs, 4))
		return -1;
	have_cxx = true;
	return 0;
}

static int
teardown(void **state)
{
	return test_rmdir(dir);
}

/* perf's short names for C++; Go, Rust and JS names have no parameter list. */
static void
test_short_name_forms(void **state)
{
	static const char *const cases[][2] = {
		{ "int ns::Acc<int>::add(int) const", "ns::Acc<int>::add" },
		{ "ns::f()", "ns::f" },
		{ "bool std::operator< <char>(a const&, b const&)", "std::operator< <char>" },
		{ "(anonymous namespace)::g(int)", "(anonymous namespace)::g" },
		{ "memcpy@plt", "memcpy@plt" },
		{ "main.(*T).M", "main.(*T).M" },
		{ "main.main.func1", "main.main.func1" },
		{ "type..eq.[2]interface {}", "type..eq.[2]interface {}" },
		{ "fn (x.js:3)", "fn (x.js:3)" },
		{ "(anonymous)", "(anonymous)" },
		{ "<rust_bench::Foo as core::ops::Drop>::drop", "<rust_bench::Foo as core::ops::Drop>::drop" },
	};
	char buf[256];
	size_t i;

	(void)state;
	for (i = 0; i < BT_ARRAY_SIZE(cases); i++)
		assert_string_equal(bt_name_short(cases[i][0], false, buf, sizeof(buf)),
		    cases[i][1]);
	assert_string_equal(bt_name_short("ns::Acc<int>::add(int)", true, buf,
	    sizeof(buf)), "ns::Acc<\xe2\x80\xa6>::add");
}

/*
 * Folded or not, the name is the function's, never its return type: a
 * '>' or "<=" inside parentheses compares (GCC's and Clang's demangled
 * enable_if of Google Benchmark's DoNotOptimize).
 */
static void
test_short_name_return_type(void **state)
{
	static const char *const cases[][3] = {
		{ "std::enable_if<std::is_trivially_copyable<bool volatile>::value&&"
		  "((sizeof (bool volatile))<=(sizeof (bool volatile*))), void>::type "
		  "benchmark::DoNotOptimize<bool volatile>(bool volatile&)",
		  "benchmark::DoNotOptimize<bool volatile>",
		  "benchmark::DoNotOptimize<\xe2\x80\xa6>" },
		{ "std::enable_if<(!std::is_trivially_copyable<Big>::value)||"
		  "(((sizeof (Big))>(sizeof (Big*)))), void>::type "
		  "benchmark::DoNotOptimize<Big>(Big&)",
		  "benchmark::DoNotOptimize<Big>", "benchmark::DoNotOptimize<\xe2\x80\xa6>" },
		{ "void std::vector<int, std::allocator<int> >::_M_realloc_insert<int const&>"
		  "(__gnu_cxx::__normal_iterator<int*, std::vector<int> >, int const&)",
		  "std::vector<int, std::allocator<int> >::_M_realloc_insert<int const&>",
		  "std::vector<\xe2\x80\xa6>::_M_realloc_insert<\xe2\x80\xa6>" },
		{ "ns::(anonymous namespace)::{lambda(int)#1}::operator()(int) const",
		  "ns::(anonymous namespace)::{lambda(int)#1}::operator()",
		  "ns::(anonymous namespace)::{lambda(int)#1}::operator()" },
		/* a lambda in a function: named in it, never the function's name */
		{ "work(int)::{lambda(int)#1}::operator()(int) const",
		  "work(int)::{lambda(int)#1}::operator()",
		  "work(int)::{lambda(int)#1}::operator()" },
		{ "ns::work(long) const::$_0::operator()(int) const",
		  "ns::work(long) const::$_0::operator()",
		  "ns::work(long) const::$_0::operator()" },
		{ "void ns::run<int>(int)::{lambda()#2}::operator()() const",
		  "ns::run<int>(int)::{lambda()#2}::operator()",
		  "ns::run<\xe2\x80\xa6>(int)::{lambda()#2}::operator()" },
		{ "ns::work(int)::Local::get() const", "ns::work(int)::Local::get",
		  "ns::work(int)::Local::get" },
	};
	char buf[512];
	size_t i;

	(void)state;
	for (i = 0; i < BT_ARRAY_SIZE(cases); i++) {
		assert_string_equal(bt_name_short(cases[i][0], false, buf, sizeof(buf)),
		    cases[i][1]);
		assert_string_equal(bt_name_short(cases[i][0], true, buf, sizeof(buf)),
		    cases[i][2]);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_short_name_forms),
		cmocka_unit_test(test_short_name_return_type),
		cmocka_unit_test(test_table_names),
		cmocka_unit_test(test_filter_forms),
		cmocka_unit_test(test_annotation_names),
		cmocka_unit_test(test_inline_tree),
		cmocka_unit_test(test_compact),
		cmocka_unit_test(test_files_and_header_source),
		cmocka_unit_test(test_browser_header_file),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
