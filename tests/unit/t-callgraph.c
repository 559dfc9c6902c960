/*
 * Unit tests: the call graph of a session (inclusive samples, callers,
 * callees, entry stacks) and the focus selection (DESIGN.md §7's "samples
 * whose chain passes through frame F"), on a real recording of
 * tests/fixtures/chains.c made here with the default call chains (built
 * -O2 -g, no frame pointers). What the recording holds varies from run to
 * run; what is checked holds for every run: the focus keeps exactly the
 * samples through the frame, and is cheap (the match runs once per
 * function, not per sample).
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

#include "benchtui/browse.h"
#include "benchtui/profile.h"
#include "benchtui/record.h"
#include "benchtui/selection.h"
#include "benchtui/session.h"
#include "benchtui/view.h"
#include "synth.h"

static char dir[] = "/tmp/bt-callgraph.XXXXXX";
static char bin[PATH_MAX], rec[PATH_MAX + 16];
static bool recorded;

static struct bt_selection *
open_session(void)
{
	struct bt_selection *s = test_open(rec);

	assert_non_null(s);
	return s;
}

static long
find(struct bt_selection *s, const char *name)
{
	long i = bt_selection_find(s, name);

	assert_true(i >= 0);
	return i;
}

static uint64_t
caller_samples(struct bt_selection *s, size_t fi, const char *caller)
{
	const struct bt_func_edge *e;
	size_t n = bt_selection_callers(s, fi, &e), i;

	for (i = 0; i < n; i++)
		if (strcmp(bt_selection_func(s, e[i].func)->name, caller) == 0)
			return e[i].samples;
	return 0;
}

static void
test_graph(void **state)
{
	struct bt_selection *s;
	const struct bt_func_edge *e;
	struct bt_stack *st;
	long leaf, main_, c3, c1;
	size_t n, i, ns;
	uint64_t sum = 0, total;

	if (!recorded)
		skip();
	s = open_session();
	assert_true(bt_session_has_chains(bt_selection_session(s)));
	leaf = find(s, "leaf");
	main_ = find(s, "main");
	c3 = find(s, "caller_three");
	c1 = find(s, "caller_one");
	total = bt_selection_samples(s);
	/* main is in (nearly) every chain; a function's inclusive >= self */
	assert_true(bt_selection_func(s, main_)->inclusive * 100 >= total * 95);
	for (i = 0; i < bt_selection_nfuncs(s); i++) {
		const struct bt_func *f = bt_selection_func(s, i);
		assert_true(f->inclusive >= f->samples);
		assert_true(f->inclusive <= total);
	}
	/* leaf's callers: the two callers, and they sum to at most its inclusive */
	n = bt_selection_callers(s, (size_t)leaf, &e);
	assert_true(n >= 2);
	for (i = 0; i < n; i++) {
		sum += e[i].samples;
		if (i)
			assert_true(e[i - 1].samples >= e[i].samples);
	}
	assert_true(sum <= bt_selection_func(s, leaf)->inclusive);
	assert_true(caller_samples(s, (size_t)leaf, "caller_three") >
	    caller_samples(s, (size_t)leaf, "caller_one"));
	/* caller_three's callees: leaf */
	n = bt_selection_callees(s, (size_t)c3, &e);
	assert_true(n >= 1);
	assert_int_equal(e[0].func, (size_t)leaf);
	(void)c1;
	/* entry stacks of leaf's hottest instruction: leaf first, then a caller */
	{
		struct bt_annotation;
		uint64_t addr = bt_selection_func(s, leaf)->start;
		uint64_t best = 0, a;
		/* the address with the most paths: try every byte of leaf */
		for (a = bt_selection_func(s, leaf)->start; a < bt_selection_func(s, leaf)->end; a++) {
			uint64_t got = 0;
			ns = bt_selection_stacks(s, (size_t)leaf, a, &st);
			for (i = 0; i < ns; i++)
				got += st[i].samples;
			free(st);
			if (got > best) {
				best = got;
				addr = a;
			}
		}
		assert_true(best > 0);
		ns = bt_selection_stacks(s, (size_t)leaf, addr, &st);
		assert_true(ns >= 1);
		for (i = 0; i < ns; i++) {
			assert_int_equal(st[i].funcs[0], (size_t)leaf);
			if (i)
				assert_true(st[i - 1].samples >= st[i].samples);
		}
		free(st);
	}
	test_close(s);
}

struct counter {
	const char *name;
	size_t calls;
};

static bool
count_match(const struct bt_func *f, void *arg)
{
	struct counter *c = arg;

	c->calls++;
	return strcmp(f->name, c->name) == 0;
}

static void
test_focus(void **state)
{
	struct bt_error err = { 0 };
	struct bt_selection *s, *x, *y;
	struct bt_selection_opts o;
	struct counter c = { "caller_one", 0 };
	const char *names[] = { "caller_three", NULL };
	uint64_t total, incl1, incl3, leaf_via3;
	size_t nfuncs;
	long leaf, f;

	if (!recorded)
		skip();
	s = open_session();
	total = bt_selection_samples(s);
	incl1 = bt_selection_func(s, find(s, "caller_one"))->inclusive;
	incl3 = bt_selection_func(s, find(s, "caller_three"))->inclusive;
	leaf_via3 = caller_samples(s, (size_t)find(s, "leaf"), "caller_three");
	nfuncs = bt_selection_nfuncs(s);

	/* through caller_one: exactly its inclusive samples */
	bt_selection_opts_init(&o);
	o.focus = count_match;
	o.focus_arg = &c;
	x = bt_selection_new(bt_selection_session(s), &o, &err);
	assert_non_null(x);
	assert_int_equal(bt_selection_samples(x), incl1);
	assert_true(c.calls > 0 && c.calls <= nfuncs);	/* once per function */
	leaf = find(x, "leaf");
	assert_int_equal(caller_samples(x, (size_t)leaf, "caller_three"), 0);
	assert_true(caller_samples(x, (size_t)leaf, "caller_one") > 0);
	assert_int_equal(bt_selection_func(x, find(x, "caller_one"))->inclusive, incl1);
	f = bt_selection_find(x, "caller_three");
	assert_true(f < 0 || bt_selection_func(x, f)->inclusive == 0);
	bt_selection_free(x);

	/* by names; and with a window */
	o.focus = bt_frame_match_names;
	o.focus_arg = names;
	x = bt_selection_new(bt_selection_session(s), &o, &err);
	assert_non_null(x);
	assert_int_equal(bt_selection_samples(x), incl3);
	assert_int_equal(caller_samples(x, (size_t)find(x, "leaf"), "caller_three"),
	    leaf_via3);
	bt_selection_free(x);
	o.time_from = 0;
	o.time_to = 50;
	o.time_percent = true;
	x = bt_selection_new(bt_selection_session(s), &o, &err);
	assert_non_null(x);
	assert_true(bt_selection_samples(x) <= incl3);
	assert_true(bt_selection_samples(x) > 0);
	f = bt_selection_find(x, "caller_one");
	assert_true(f < 0 || bt_selection_func(x, f)->inclusive == 0);
	/* the same samples asked for again: the same selection */
	y = bt_selection_new(bt_selection_session(s), &o, &err);
	assert_ptr_equal(x, y);
	bt_selection_free(y);
	bt_selection_free(x);

	/* the selections beside it never changed the whole run's */
	assert_int_equal(bt_selection_samples(s), total);
	assert_int_equal(bt_selection_func(s, find(s, "caller_one"))->inclusive, incl1);
	test_close(s);
}

/* Row index of the first FUNC row of v with label and function name, -1 none. */
static long
row_of(const struct bt_view *v, const char *label, const char *name)
{
	size_t i;

	for (i = 0; i < bt_view_nrows(v); i++) {
		const struct bt_row *r = bt_view_row(v, i);
		if (r->kind == BT_ROW_FUNC && r->label != NULL && strcmp(r->label, label) == 0 &&
		    r->name != NULL && strcmp(r->name, name) == 0)
			return (long)i;
	}
	return -1;
}

/* C on the list, Enter follows a caller, Left returns; I orders by children; C on an instruction. */
static void
test_browse(void **state)
{
	struct bt_selection *s;
	struct bt_browser *b;
	const struct bt_view *v;
	long leaf, r, i;

	if (!recorded)
		skip();
	s = open_session();
	b = bt_browser_new(s, NULL);
	leaf = find(s, "leaf");
	v = bt_browser_view(b);
	for (i = 0; i < (long)bt_view_nrows(v); i++)
		if (bt_view_row(v, (size_t)i)->func == (size_t)leaf)
			break;
	bt_browser_select(b, (size_t)i, 20);
	bt_browser_apply(b, BT_ACT_CALLERS, 20);
	assert_string_equal(bt_browser_screen(b), "callers");
	v = bt_browser_view(b);
	assert_true(row_of(v, "caller", "caller_three") >= 0);
	assert_true(row_of(v, "caller", "caller_one") >= 0);
	assert_true(row_of(v, "caller", "caller_three") < row_of(v, "function", "leaf"));
	/* Enter on caller_three: its own screen, leaf among its callees */
	r = row_of(v, "caller", "caller_three");
	bt_browser_select(b, (size_t)r, 20);
	bt_browser_apply(b, BT_ACT_ENTER, 20);
	assert_string_equal(bt_browser_screen(b), "callers");
	assert_int_equal(bt_browser_depth(b), 3);
	v = bt_browser_view(b);
	assert_true(row_of(v, "callee", "leaf") > row_of(v, "function", "caller_three"));
	assert_true(row_of(v, "caller", "main") >= 0);
	bt_browser_apply(b, BT_ACT_BACK, 20);
	assert_int_equal(bt_browser_depth(b), 2);
	/* Enter on the function itself annotates it; C on its hottest instruction */
	v = bt_browser_view(b);
	bt_browser_select(b, (size_t)row_of(v, "function", "leaf"), 20);
	bt_browser_apply(b, BT_ACT_ENTER, 20);
	assert_string_equal(bt_browser_screen(b), "annotate");
	bt_browser_apply(b, BT_ACT_HOTTEST, 20);
	bt_browser_apply(b, BT_ACT_CALLERS, 20);
	assert_string_equal(bt_browser_screen(b), "callers");
	v = bt_browser_view(b);
	for (i = 0; i < (long)bt_view_nrows(v); i++)
		if (bt_view_row(v, (size_t)i)->label != NULL &&
		    strcmp(bt_view_row(v, (size_t)i)->label, "stack") == 0)
			break;
	assert_true(i < (long)bt_view_nrows(v));
	assert_true(strstr(bt_view_row(v, (size_t)i)->text, "caller_") != NULL);
	/* back to the list; I orders it by inclusive samples: main before leaf */
	while (bt_browser_depth(b) > 1)
		bt_browser_apply(b, BT_ACT_BACK, 20);
	bt_browser_apply(b, BT_ACT_TOGGLE_CHILDREN, 20);
	v = bt_browser_view(b);
	{
		long m = -1, l = -1;
		for (i = 0; i < (long)bt_view_nrows(v); i++) {
			const char *n = bt_view_row(v, (size_t)i)->name;
			if (n != NULL && strcmp(n, "main") == 0)
				m = i;
			if (n != NULL && strcmp(n, "leaf") == 0)
				l = i;
		}
		assert_true(m >= 0 && l >= 0 && m < l);
	}
	bt_browser_free(b);
	test_close(s);
}

static int
setup(void **state)
{
	struct bt_record_opts o;
	struct bt_record_result res;
	struct bt_error err = { 0 };
	char *argv[3];

	if (test_tmpdir(dir) || test_compile(dir, "chains", "chains.c", "-O2 -g", bin,
	    sizeof(bin)))
		return -1;
	snprintf(rec, sizeof(rec), "%s/chains.data", dir);
	memset(&o, 0, sizeof(o));
	argv[0] = bin;
	argv[1] = "30000";
	argv[2] = NULL;
	o.argv = argv;
	o.event = "cpu-clock";
	o.output = rec;
	recorded = bt_record_run(&o, &res, &err) == 0;
	if (!recorded)
		fprintf(stderr, "cannot record here, skipping: %s\n", err.msg);
	return 0;
}

/* Is frame i under a frame of its own function (a recursion)? */
static bool
under_itself(const struct bt_flame *f, size_t i)
{
	size_t p;

	for (p = bt_flame_frame(f, i)->parent; p != BT_FRAME_NONE && p != 0;
	    p = bt_flame_frame(f, p)->parent)
		if (bt_flame_frame(f, p)->func == bt_flame_frame(f, i)->func)
			return true;
	return false;
}

/*
 * The flame graph: every frame holds its own samples and its callees';
 * callees hottest first; a function's frames not under itself add up to
 * its inclusive samples, which the call graph counts apart (chain_add);
 * the icicle view's bars fit the width, the path's frame on each row.
 */
static void
test_flame(void **state)
{
	struct bt_selection *s;
	struct bt_flame *f;
	struct bt_view_opts o;
	struct bt_view *v;
	uint64_t *incl;
	size_t i, n, nf, d;
	long leaf;

	if (!recorded)
		skip();
	s = open_session();
	f = bt_flame_new(s);
	n = bt_flame_nframes(f);
	nf = bt_selection_nfuncs(s);
	incl = calloc(nf + 1, sizeof(uint64_t));
	assert_true(n > 3);
	assert_true(bt_flame_frame(f, 0)->samples > 0);
	assert_true(bt_flame_frame(f, 0)->samples <= bt_selection_samples(s));
	for (i = 0; i < n; i++) {
		const struct bt_flame_frame *x = bt_flame_frame(f, i);
		uint64_t sum = x->self, last = UINT64_MAX;
		size_t c;

		for (c = x->child; c != BT_FRAME_NONE; c = bt_flame_frame(f, c)->next) {
			assert_true(bt_flame_frame(f, c)->samples <= last);
			last = bt_flame_frame(f, c)->samples;
			assert_int_equal(bt_flame_frame(f, c)->parent, i);
			assert_int_equal(bt_flame_frame(f, c)->depth, x->depth + 1);
			sum += last;
		}
		assert_int_equal(sum, x->samples);
		if (i > 0 && !under_itself(f, i))
			incl[x->func] += x->samples;
	}
	for (i = 0; i < nf; i++)
		if (incl[i] > 0)
			assert_int_equal(incl[i], bt_selection_func(s, i)->inclusive);
	leaf = find(s, "leaf");
	assert_true(incl[leaf] > 0);
	bt_view_opts_init(&o);
	o.width = 80;
	v = bt_view_flame(s, f, 0, 0, &o);
	assert_true(bt_view_nrows(v) > 3);
	for (d = 0; d < bt_view_nrows(v); d++) {
		const struct bt_row *r = bt_view_row(v, d);
		size_t w = 0;

		for (i = 0; i < r->ncells; i++) {	/* columns: UTF-8 characters */
			const char *c;

			for (c = r->cells[i].text; *c; c++)
				w += ((unsigned char)*c & 0xc0) != 0x80;
		}
		assert_true(w <= 80);
		assert_true(r->kind == BT_ROW_FRAMES);
		if (d == 0)
			assert_int_equal(w, 80);
	}
	assert_true(bt_view_row(v, 0)->insn == 0);	/* the root's bar, the cursor's */
	bt_view_free(v);
	bt_flame_free(f);
	free(incl);
	test_close(s);
}

/* F from the function list on leaf: the cursor on leaf's hottest frame; Enter, Left. */
static void
test_flame_screen(void **state)
{
	struct bt_selection *s;
	struct bt_browser *b;
	const struct bt_view *v;
	const struct bt_row *r;
	long leaf, i;

	if (!recorded)
		skip();
	s = open_session();
	b = bt_browser_new(s, NULL);
	leaf = find(s, "leaf");
	v = bt_browser_view(b);
	for (i = 0; i < (long)bt_view_nrows(v); i++)
		if (bt_view_row(v, (size_t)i)->func == (size_t)leaf)
			break;
	bt_browser_select(b, (size_t)i, 20);
	bt_browser_apply(b, BT_ACT_FLAME, 20);
	assert_string_equal(bt_browser_screen(b), "flame");
	v = bt_browser_view(b);
	r = bt_view_row(v, bt_browser_nav(b)->cursor);
	assert_int_equal(r->func, (size_t)leaf);
	assert_non_null(strstr(r->detail, "leaf"));
	bt_browser_apply(b, BT_ACT_ENTER, 20);
	v = bt_browser_view(b);
	assert_int_equal(bt_browser_nav(b)->cursor, 0);
	assert_int_equal(bt_view_row(v, 0)->func, (size_t)leaf);
	assert_non_null(strstr(bt_view_title(v), "leaf"));
	bt_browser_apply(b, BT_ACT_BACK, 20);
	assert_string_equal(bt_browser_screen(b), "flame");
	v = bt_browser_view(b);
	assert_int_equal(bt_view_row(v, bt_browser_nav(b)->cursor)->func, (size_t)leaf);
	assert_int_equal(bt_view_row(v, 0)->func, (size_t)-1);	/* all */
	bt_browser_apply(b, BT_ACT_BACK, 20);
	assert_string_not_equal(bt_browser_screen(b), "flame");
	bt_browser_free(b);
	test_close(s);
}

static int
teardown(void **state)
{
	return test_rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_graph),
		cmocka_unit_test(test_focus),
		cmocka_unit_test(test_browse),
		cmocka_unit_test(test_flame),
		cmocka_unit_test(test_flame_screen),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
