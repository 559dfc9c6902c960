/*
 * Unit tests: core/diff/match.c on names, and on real annotations of
 * tests/fixtures/match.c built here several ways (no recording: the
 * binaries' own code, decoded).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annofile.h"
#include "annotate/annotate.h"
#include "annotate/cfg.h"
#include "diff/match.h"
#include "synth.h"

#define N(v) (sizeof(v) / sizeof((v)[0]))

static char dir[] = "/tmp/bt-match.XXXXXX";
static char plain[256], withdiv[256], moved[256], renamed[256];

static uint64_t
fake_hash(int side, size_t i, void *arg)
{
	const char *const *const *names = arg;

	/* "x" and "y" have the same code; nothing else does */
	if (strcmp(names[side][i], "x") == 0 || strcmp(names[side][i], "y") == 0)
		return 42;
	return 1000 + (uint64_t)side * 100 + i;
}

static long
paired(const struct bt_func_pair *rows, size_t n, long a, enum bt_match_how *how)
{
	for (size_t i = 0; i < n; i++)
		if (rows[i].a == a) {
			*how = rows[i].how;
			return rows[i].b;
		}
	return -2;
}

static void
test_funcs_by_name(void **state)
{
	static const char *const a[] = {
		"foo", "bar(int)", "baz.constprop.0", "ns::f<int>(int)",
		"main::{lambda()#2}::operator()() const", "x", "gone", "dup.part.0",
		"dup.part.1",
	};
	static const char *const b[] = {
		"bar(int)", "foo", "baz", "ns::f<int>(long)",
		"main::{lambda()#3}::operator()() const", "y", "dup.part.4", "dup.part.3",
		"new",
	};
	const char *const *names[2] = { a, b };
	struct bt_func_pair *rows;
	enum bt_match_how how;
	size_t n = bt_match_funcs(a, N(a), b, N(b), fake_hash, names, &rows);

	assert_int_equal(n, N(a) + 1);	/* "gone" and "new" unpaired */
	assert_int_equal(paired(rows, n, 0, &how), 1);
	assert_int_equal(how, BT_MATCH_NAME);
	assert_int_equal(paired(rows, n, 1, &how), 0);
	assert_int_equal(paired(rows, n, 2, &how), 2);
	assert_int_equal(how, BT_MATCH_BASE);
	assert_int_equal(paired(rows, n, 3, &how), 3);
	assert_int_equal(how, BT_MATCH_SHORT);
	assert_int_equal(paired(rows, n, 4, &how), 4);
	assert_int_equal(how, BT_MATCH_BASE);
	assert_int_equal(paired(rows, n, 5, &how), 5);
	assert_int_equal(how, BT_MATCH_CFG);
	assert_int_equal(paired(rows, n, 6, &how), -1);
	assert_int_equal(how, BT_MATCH_NONE);
	/* two clones each: in order */
	assert_int_equal(paired(rows, n, 7, &how), 6);
	assert_int_equal(paired(rows, n, 8, &how), 7);
	assert_int_equal(rows[n - 1].a, -1);
	assert_int_equal(rows[n - 1].b, 8);
	free(rows);
	/* no hash: names only, x and y stay apart */
	n = bt_match_funcs(a, N(a), b, N(b), NULL, NULL, &rows);
	assert_int_equal(n, N(a) + 2);
	assert_int_equal(paired(rows, n, 5, &how), -1);
	free(rows);
}

struct pair {
	struct annofile *fa, *fb;
	struct bt_annotation *a, *b;
	struct bt_insn_match m;
};

static void
pair_open(struct pair *p, const char *pa, const char *pb, const char *fa,
	  const char *fb)
{
	p->fa = annofile_open(pa);
	p->fb = annofile_open(pb);
	assert_non_null(p->fa);
	assert_non_null(p->fb);
	p->a = annofile_func(p->fa, fa);
	p->b = annofile_func(p->fb, fb);
	assert_non_null(p->a);
	assert_non_null(p->b);
	bt_match_insns(p->a, p->b, &p->m);
}

static void
pair_close(struct pair *p)
{
	bt_insn_match_release(&p->m);
	bt_annotation_free(p->a);
	bt_annotation_free(p->b);
	annofile_close(p->fa);
	annofile_close(p->fb);
}

/* Every instruction of each side in exactly one row, in order on A's side. */
static void
check_rows(const struct pair *p)
{
	bool *sa = calloc(p->a->insns.n + 1, 1), *sb = calloc(p->b->insns.n + 1, 1);
	long last = -1;
	size_t i;

	for (i = 0; i < p->m.rows.n; i++) {
		const struct bt_match_row *r = &p->m.rows.v[i];

		assert_true(r->a >= 0 || r->b >= 0);
		if (r->a >= 0) {
			assert_false(sa[r->a]);
			sa[r->a] = true;
			assert_true(r->a > last);
			last = r->a;
			assert_int_equal(r->block_a >= 0, 1);
		}
		if (r->b >= 0) {
			assert_false(sb[r->b]);
			sb[r->b] = true;
		}
	}
	for (i = 0; i < p->a->insns.n; i++)
		assert_true(sa[i]);
	for (i = 0; i < p->b->insns.n; i++)
		assert_true(sb[i]);
	assert_int_equal(p->m.matched + p->m.inserted + p->m.deleted, p->m.rows.n);
	free(sa);
	free(sb);
}

static void
test_same(void **state)
{
	struct pair p;
	struct bt_cfg *g;
	size_t code = 0;

	pair_open(&p, plain, plain, "sorted", "sorted");
	check_rows(&p);
	assert_int_equal(p.m.matched, p.a->insns.n);
	assert_int_equal(p.m.inserted + p.m.deleted, 0);
	/* every block paired with itself, but padding (nops only) */
	g = bt_cfg_build(p.a);
	assert_int_equal(g->nb, p.m.nblocks_a);
	for (size_t b = 0; b < g->nb; b++) {
		bool nops = true;
		for (size_t i = g->first[b]; i <= g->last[b]; i++)
			nops &= (p.a->insns.v[i].in.flags & BT_INSN_F_NOP) != 0;
		if (!nops) {
			code++;
			assert_int_equal(p.m.block_b[b], (long)b);
		}
	}
	assert_int_equal(p.m.blocks_paired, code);
	bt_cfg_free(g);
	for (size_t i = 0; i < p.m.rows.n; i++) {
		assert_int_equal(p.m.rows.v[i].a, p.m.rows.v[i].b);
		assert_true(p.m.rows.v[i].flags & BT_MR_OPERANDS);
	}
	pair_close(&p);
}

/* Only moved (a function before, aligned to 64): every instruction matched. */
static void
test_moved(void **state)
{
	static const char *const funcs[] = { "fill", "scale", "kernel", "sorted" };

	for (size_t f = 0; f < N(funcs); f++) {
		struct pair p;

		pair_open(&p, plain, moved, funcs[f], funcs[f]);
		check_rows(&p);
		assert_true(p.a->insns.v[0].in.addr != p.b->insns.v[0].in.addr);
		assert_int_equal(p.m.inserted + p.m.deleted, 0);
		for (size_t i = 0; i < p.m.rows.n; i++)
			assert_true(p.m.rows.v[i].flags & BT_MR_LINE);
		pair_close(&p);
	}
}

static bool
is_div(const struct bt_annotation *an, long i)
{
	return strncmp(an->insns.v[i].in.mnemonic, "idiv", 4) == 0 ||
	    strncmp(an->insns.v[i].in.mnemonic, "div", 3) == 0;
}

/* A dependent divide added: inserted, the rest of A matched. */
static void
test_divide(void **state)
{
	struct pair p;
	bool div = false;

	pair_open(&p, plain, withdiv, "scale", "scale");
	check_rows(&p);
	for (size_t i = 0; i < p.m.rows.n; i++) {
		const struct bt_match_row *r = &p.m.rows.v[i];

		if (r->b >= 0 && is_div(p.b, r->b)) {
			assert_int_equal(r->a, -1);
			div = true;
		}
		if (r->a >= 0 && !(p.a->insns.v[r->a].in.flags & BT_INSN_F_NOP))
			assert_true(r->b >= 0);
	}
	assert_true(div);
	assert_true(p.m.inserted >= 2);
	pair_close(&p);
}

/* A renamed function found by its control-flow hash. */
static void
test_renamed(void **state)
{
	struct annofile *fa = annofile_open(plain), *fb = annofile_open(renamed);
	struct bt_annotation *a = annofile_func(fa, "kernel");
	struct bt_annotation *b = annofile_func(fb, "kernel_renamed");
	struct bt_annotation *c = annofile_func(fb, "sorted");

	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(bt_match_cfg_hash(a), bt_match_cfg_hash(b));
	assert_int_not_equal(bt_match_cfg_hash(a), bt_match_cfg_hash(c));
	assert_int_not_equal(bt_match_cfg_hash(a), 0);
	bt_annotation_free(a);
	bt_annotation_free(b);
	bt_annotation_free(c);
	annofile_close(fa);
	annofile_close(fb);
}

static int
setup(void **state)
{
	if (test_tmpdir(dir) ||
	    test_compile(dir, "plain", "match.c", "-O2 -g", plain, sizeof(plain)) ||
	    test_compile(dir, "div", "match.c", "-O2 -g -DWITH_DIV", withdiv, sizeof(withdiv)) ||
	    test_compile(dir, "moved", "match.c", "-O2 -g -DWITH_NEW -falign-functions=64",
	    moved, sizeof(moved)) ||
	    test_compile(dir, "renamed", "match.c", "-O2 -g -DRENAMED", renamed,
	    sizeof(renamed)))
		return -1;
	return 0;
}

static int
teardown(void **state)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_funcs_by_name),
		cmocka_unit_test(test_same),
		cmocka_unit_test(test_moved),
		cmocka_unit_test(test_divide),
		cmocka_unit_test(test_renamed),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
