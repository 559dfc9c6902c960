/*
 * Unit tests: recursion in the call graph (core/session/callgraph.c,
 * docs/callchains.md "Recursion"), on a recording of tests/fixtures/recur.c
 * written here with frame-pointer chains chosen so that every number is
 * known: each sample counts once in a function's inclusive samples, once
 * for the caller of the function's innermost frame (fib's caller is fib,
 * as perf report --children -g callee says), once for each caller and
 * callee pair on its chain (fib -> fib), once for the caller of its
 * outermost frame (who entered the recursion: main); the entry stacks
 * keep the whole path.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "benchtui/profile.h"
#include "benchtui/selection.h"
#include "benchtui/session.h"
#include "elf-funcs.h"
#include "perf/perfdata.h"
#include "synth.h"

#define BASE 0x555555554000ULL

struct sym {
	const char *name;
	uint64_t addr;
};

static struct sym syms[] = {
	{ "fib", 0 }, { "is_even", 0 }, { "is_odd", 0 }, { "main", 0 },
};

static void
find_sym(uint64_t start, uint64_t size, const char *name, void *arg)
{
	size_t i;

	(void)size;
	(void)arg;
	for (i = 0; i < BT_ARRAY_SIZE(syms); i++)
		if (strcmp(name, syms[i].name) == 0)
			syms[i].addr = BASE + start;
}

static uint64_t
at(const char *name, uint64_t off)
{
	size_t i;

	for (i = 0; i < BT_ARRAY_SIZE(syms); i++)
		if (strcmp(name, syms[i].name) == 0) {
			assert_true(syms[i].addr != 0);
			return syms[i].addr + off;
		}
	fail();
	return 0;
}

/* count samples (synth_attr's layout and a callchain, chain[0..nc)) at chain[1] */
static void
emit(struct bt_pd_writer *w, int count, const uint64_t *chain, size_t nc, uint64_t *t)
{
	uint64_t r[64];
	size_t n, i;
	int k;

	for (k = 0; k < count; k++) {
		n = 0;
		r[n++] = 0;	/* header: below */
		r[n++] = chain[1];
		r[n++] = (uint64_t)4242 << 32 | 4242;
		r[n++] = *t += 250000;
		r[n++] = 0;	/* cpu, reserved */
		r[n++] = 250000;
		r[n++] = nc;
		for (i = 0; i < nc; i++)
			r[n++] = chain[i];
		r[0] = (uint64_t)(n * 8) << 48 | (uint64_t)PERF_RECORD_MISC_USER << 32 |
		    PERF_RECORD_SAMPLE;
		assert_int_equal(bt_pd_write(w, r, n * 8, NULL), 0);
	}
}

static long
find(struct bt_selection *s, const char *name)
{
	long i = bt_selection_find(s, name);

	assert_true(i >= 0);
	return i;
}

/* "name samples, ..." of a list of edges, in its order */
static const char *
edges(struct bt_selection *s, const struct bt_func_edge *e, size_t n)
{
	static char buf[512];
	size_t i, len = 0;

	buf[0] = 0;
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s %llu",
		    i ? ", " : "", bt_selection_func(s, e[i].func)->name,
		    (unsigned long long)e[i].samples);
	return buf;
}

static const char *
callers(struct bt_selection *s, const char *name)
{
	const struct bt_func_edge *e;
	size_t n = bt_selection_callers(s, (size_t)find(s, name), &e);

	return edges(s, e, n);
}

static const char *
callees(struct bt_selection *s, const char *name)
{
	const struct bt_func_edge *e;
	size_t n = bt_selection_callees(s, (size_t)find(s, name), &e);

	return edges(s, e, n);
}

static const char *
entered(struct bt_selection *s, const char *name)
{
	const struct bt_func_edge *e;
	size_t n = bt_selection_entry_callers(s, (size_t)find(s, name), &e);

	return edges(s, e, n);
}

static void
test_recursion(void **state)
{
	char dir[] = "/tmp/bt-recursion.XXXXXX", bin[PATH_MAX], out[PATH_MAX + 16];
	struct bt_error err = { 0 };
	struct bt_pd_attr a;
	struct bt_pd_features f;
	struct bt_pd_writer *w;
	struct bt_profile *p;
	struct bt_selection *s;
	struct bt_stack *st;
	uint64_t ids[1] = { 1 }, t = 1000000000ULL, map_start = 0, map_len = 0,
	    pgoff = 0;
	size_t n;
	Elf *e;

	assert_int_equal(test_tmpdir(dir), 0);
	if (test_compile(dir, "recur", "recur.c", "-O2 -g -fno-omit-frame-pointer",
	    bin, sizeof(bin)) < 0) {
		test_rmdir(dir);
		skip();
	}
	e = tool_open_elf(bin);
	assert_non_null(e);
	assert_true(tool_elf_funcs(e, find_sym, NULL) > 0);
	assert_int_equal(tool_exec_mapping(e, BASE, &map_start, &map_len, &pgoff), 0);
	elf_end(e);
	synth_attr(&a);
	a.attr.sample_type |= PERF_SAMPLE_CALLCHAIN;
	a.ids = ids;
	a.nids = 1;
	snprintf(out, sizeof(out), "%s/recur.data", dir);
	w = bt_pd_create(out, &a, 1, &err);
	assert_non_null(w);
	assert_int_equal(synth_mmap2(w, 4242, map_start, map_len, pgoff, bin, t), 0);
	{
		/* A: fib three deep under main (return addresses: one past a call) */
		uint64_t c[] = { PERF_CONTEXT_USER, at("fib", 4), at("fib", 8), at("fib", 8),
			at("main", 8) };
		emit(w, 10, c, 5, &t);
	}
	{
		/* B: fib called by main */
		uint64_t c[] = { PERF_CONTEXT_USER, at("fib", 4), at("main", 8) };
		emit(w, 5, c, 3, &t);
	}
	{
		/* C: is_odd <- is_even <- is_odd <- is_even <- main */
		uint64_t c[] = { PERF_CONTEXT_USER, at("is_odd", 4), at("is_even", 8),
			at("is_odd", 8), at("is_even", 8), at("main", 8) };
		emit(w, 4, c, 6, &t);
	}
	{
		/* D: main's own */
		uint64_t c[] = { PERF_CONTEXT_USER, at("main", 4) };
		emit(w, 3, c, 2, &t);
	}
	memset(&f, 0, sizeof(f));
	f.first_sample_time = 1000000000ULL;
	f.last_sample_time = t;
	assert_int_equal(bt_pd_finish(w, &f, &err), 0);

	p = bt_profile_open(out, &err);
	assert_non_null(p);
	s = test_select(bt_session_new(p, NULL, &err));
	assert_non_null(s);
	assert_true(bt_session_has_chains(bt_selection_session(s)));
	assert_int_equal(bt_selection_samples(s), 22);
	/* inclusive: once per sample however deep */
	assert_int_equal(bt_selection_func(s, (size_t)find(s, "fib"))->inclusive, 15);
	assert_int_equal(bt_selection_func(s, (size_t)find(s, "is_even"))->inclusive, 4);
	assert_int_equal(bt_selection_func(s, (size_t)find(s, "is_odd"))->inclusive, 4);
	assert_int_equal(bt_selection_func(s, (size_t)find(s, "main"))->inclusive, 22);
	/* callers: of the innermost frame, a partition of the inclusive samples */
	assert_string_equal(callers(s, "fib"), "fib 10, main 5");
	assert_string_equal(callers(s, "is_odd"), "is_even 4");
	assert_string_equal(callers(s, "is_even"), "is_odd 4");
	/* callees: each pair once per sample */
	assert_string_equal(callees(s, "fib"), "fib 10");
	assert_string_equal(callees(s, "main"), "fib 15, is_even 4");
	assert_string_equal(callees(s, "is_even"), "is_odd 4");
	assert_string_equal(callees(s, "is_odd"), "is_even 4");
	/* who entered the recursion: the caller of the outermost frame */
	assert_string_equal(entered(s, "fib"), "main 15");
	assert_string_equal(entered(s, "is_even"), "main 4");
	assert_string_equal(entered(s, "is_odd"), "is_even 4");
	/* the entry stacks keep the whole path */
	n = bt_selection_stacks(s, (size_t)find(s, "fib"), at("fib", 4) - BASE, &st);
	assert_int_equal(n, 2);
	assert_int_equal(st[0].samples, 10);
	assert_int_equal(st[0].nfuncs, 4);
	assert_int_equal(st[0].funcs[1], (size_t)find(s, "fib"));
	assert_int_equal(st[0].funcs[2], (size_t)find(s, "fib"));
	assert_int_equal(st[0].funcs[3], (size_t)find(s, "main"));
	assert_int_equal(st[1].samples, 5);
	assert_int_equal(st[1].nfuncs, 2);
	free(st);
	test_close(s);
	test_rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recursion),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
