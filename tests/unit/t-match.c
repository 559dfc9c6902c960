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
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annofile.h"
#include "benchtui/browse.h"
#include "benchtui/match.h"
#include "benchtui/selection.h"
#include "benchtui/view.h"
#include "browse/browse-int.h"
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

/* JIT code loaded more than once is named by its load time: not a key */
static void
test_funcs_jit_versions(void **state)
{
	static const char *const a[] = {
		"JS:* :1:26 (loaded at 5.071 s)", "JS:*fib work.mjs:2:20",
	};
	static const char *const b[] = {
		"JS:*fib work.mjs:2:20", "JS:* :1:26 (loaded at 5.088 s)",
	};
	struct bt_func_pair *rows;
	enum bt_match_how how;
	size_t n = bt_match_funcs(a, N(a), b, N(b), NULL, NULL, &rows);

	(void)state;
	assert_int_equal(n, 2);
	assert_int_equal(paired(rows, n, 0, &how), 1);
	assert_int_equal(how, BT_MATCH_BASE);
	assert_int_equal(paired(rows, n, 1, &how), 0);
	assert_int_equal(how, BT_MATCH_NAME);
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

/* A random function of n instructions (x86-like: jumps, calls, rets, nops). */
static void
random_insn(struct bt_ainsn *ai, size_t i, size_t n, unsigned *seed)
{
	static const char *const mn[] = { "mov", "add", "sub", "jne", "jmp", "call", "ret", "nop",
		"lea", "cmp" };
	static const char *const text[] = { "mov    %rax,%rbx", "add    $0x1,%rax", "sub    %rcx,%rdx",
		"jne    0", "jmp    0", "call   0", "ret", "nop", "lea    (%rdi,%rsi,8),%rax",
		"cmp    %rdi,%rsi" };
	static const char *const callee[] = { "f", "g", "h" };
	size_t k = (size_t)rand_r(seed) % BT_ARRAY_SIZE(mn);

	memset(ai, 0, sizeof(*ai));
	ai->in.addr = 0x1000 + 4 * i;
	ai->in.len = 4;
	ai->in.mnemonic = mn[k];
	ai->in.text = text[k];
	ai->target_insn = -1;
	ai->line = 10 + (unsigned)(i / 3);
	ai->file = "x.c";
	ai->in.kind = k == 3 ? BT_INSN_CJUMP : k == 4 ? BT_INSN_JUMP : k == 5 ? BT_INSN_CALL :
	    k == 6 ? BT_INSN_RET : BT_INSN_OTHER;
	if (k == 7)
		ai->in.flags = BT_INSN_F_NOP;
	if ((k == 3 || k == 4) && n > 0)
		ai->target_insn = (long)((size_t)rand_r(seed) % n);
	if (k == 5)
		ai->target_name = callee[(size_t)rand_r(seed) % 3];
}

/* Random functions and edits of them: every instruction in exactly one row. */
static void
test_random(void **state)
{
	unsigned seed = 7;

	for (int round = 0; round < 300; round++) {
		struct bt_annotation a, b;
		struct pair p;
		size_t na = (size_t)rand_r(&seed) % 200, i, j = 0;

		memset(&a, 0, sizeof(a));
		memset(&b, 0, sizeof(b));
		for (i = 0; i < na; i++) {
			struct bt_ainsn ai;
			random_insn(&ai, i, na, &seed);
			BT_VEC_PUSH(a.insns, ai);
		}
		/* B: A with some instructions dropped, changed or added */
		for (i = 0; i < na; i++) {
			int r = rand_r(&seed) % 10;
			struct bt_ainsn ai = a.insns.v[i];
			if (r == 0)
				continue;
			if (r == 1)
				random_insn(&ai, j, na, &seed);
			if (r == 2) {
				struct bt_ainsn x;
				random_insn(&x, j, na, &seed);
				BT_VEC_PUSH(b.insns, x);
				j++;
			}
			ai.in.addr = 0x2000 + 4 * j++;
			BT_VEC_PUSH(b.insns, ai);
		}
		for (i = 0; i < b.insns.n; i++)	/* targets inside B */
			if (b.insns.v[i].target_insn >= (long)b.insns.n)
				b.insns.v[i].target_insn = (long)b.insns.n - 1;
		memset(&p, 0, sizeof(p));
		p.a = &a;
		p.b = &b;
		bt_match_insns(&a, &b, &p.m);
		check_rows(&p);
		if (round % 50 == 0) {	/* the same function: all matched */
			struct bt_insn_match m;
			bt_match_insns(&a, &a, &m);
			assert_int_equal(m.matched, na);
			bt_insn_match_release(&m);
		}
		bt_insn_match_release(&p.m);
		BT_VEC_FREE(a.insns);
		BT_VEC_FREE(b.insns);
	}
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

/* "scale+0xOFF" of the instruction after the first mnemonic mn in func (+1: after it) */
static void
spec_at(const char *bin, const char *func, const char *mn, int after, char *out, size_t len)
{
	struct annofile *f = annofile_open(bin);
	struct bt_annotation *an = annofile_func(f, func);
	size_t i;

	assert_non_null(an);
	for (i = 0; i < an->insns.n; i++)
		if (strcmp(an->insns.v[i].in.mnemonic, mn) == 0)
			break;
	assert_true(i + (size_t)after < an->insns.n);
	snprintf(out, len, "%s+0x%" PRIx64, func,
	    an->insns.v[i + (size_t)after].in.addr - an->insns.v[0].in.addr);
	bt_annotation_free(an);
	annofile_close(f);
}

/* Columns of a row's cells (UTF-8 characters). */
static size_t
row_cols(const struct bt_row *r)
{
	size_t n = 0, i;

	for (i = 0; i < r->ncells; i++)
		for (const char *c = r->cells[i].text; *c; c++)
			n += ((unsigned char)*c & 0xc0) != 0x80;
	return n;
}

/*
 * Two recordings (synthesized): A's samples in scale's loop and in
 * kernel, B's mostly after the divide. The aligned scale: the divide
 * inserted, the loop's block the hottest change and slower, the view
 * and the exports of every unit; the screen opens on that block.
 */
static void
test_align(void **state)
{
	char ra[300], rb[300], sa_spec[64], sb_spec[64], ka[64], kb[64], msg[256];
	char *specs[40];
	struct bt_selection *sa, *sb;
	struct bt_error err = { 0 };
	struct bt_align *al;
	struct bt_align_unit u;
	struct bt_view *v;
	struct bt_view_opts o;
	struct bt_browser *b;
	struct screen *sc;
	size_t i, n, ins = 0, hot = 0;
	bool div_inserted = false;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;

	snprintf(ra, sizeof(ra), "%s/a.data", dir);
	snprintf(rb, sizeof(rb), "%s/b.data", dir);
	spec_at(plain, "scale", "add", 1, sa_spec, sizeof(sa_spec));
	spec_at(withdiv, "scale", "idiv", 1, sb_spec, sizeof(sb_spec));
	spec_at(plain, "kernel", "cmp", 0, ka, sizeof(ka));
	spec_at(withdiv, "kernel", "cmp", 0, kb, sizeof(kb));
	{
		struct bt_strpool pool;
		bt_strpool_init(&pool);
		for (i = 0; i < 20; i++) {
			specs[2 * i] = (char *)bt_strpool_addf(&pool, "%s=3", sa_spec);
			specs[2 * i + 1] = (char *)bt_strpool_addf(&pool, "%s=1", ka);
		}
		assert_int_equal(synth_recording(ra, plain, specs, 40, msg, sizeof(msg)), 0);
		for (i = 0; i < 20; i++) {
			specs[2 * i] = (char *)bt_strpool_addf(&pool, "%s=9", sb_spec);
			specs[2 * i + 1] = (char *)bt_strpool_addf(&pool, "%s=1", kb);
		}
		assert_int_equal(synth_recording(rb, withdiv, specs, 40, msg, sizeof(msg)), 0);
		bt_strpool_release(&pool);
	}
	sa = test_open(ra);
	sb = test_open(rb);
	assert_non_null(sa);
	assert_non_null(sb);
	al = bt_align_find(sa, sb, "scale", &err);
	assert_non_null(al);
	assert_string_equal(bt_align_cost_unit(al), "share");
	assert_string_equal(bt_align_vectors(al, NULL, NULL), "slices");
	n = bt_align_nunits(al);
	for (i = 0; i < n; i++) {
		bt_align_unit(al, i, &u);
		if (u.kind == BT_AK_INSERTED) {
			ins++;
			div_inserted |= strstr(u.b.text, "div") != NULL;
		}
		if (u.kind == BT_AK_BLOCK && u.hottest) {
			hot++;
			assert_true(u.tested);
			assert_true(u.inserted >= 2);
			assert_int_equal(u.st.verdict, BT_V_SLOWER);
		}
		if (u.kind == BT_AK_DELETED)	/* only padding goes */
			assert_non_null(strstr(u.a.text, "nop"));
	}
	assert_true(div_inserted);
	assert_true(ins >= 2);
	assert_int_equal(hot, 1);

	/* the view: one row a unit; at 80 columns none wider */
	bt_view_opts_init(&o);
	v = bt_view_match(al, &o);
	assert_int_equal(bt_view_nrows(v), n);
	assert_non_null(strstr(bt_view_row(v, bt_view_match_hottest(v))->detail,
	    "hottest change"));
	bt_view_free(v);
	o.text_width = 80;
	v = bt_view_match(al, &o);
	for (i = 0; i < bt_view_nrows(v); i++)
		assert_true(row_cols(bt_view_row(v, i)) <= 80);
	assert_true(row_cols(bt_view_columns(v)) <= 80);
	bt_view_free(v);

	/* JSON: every unit, a verdict where tested */
	mem = open_memstream(&buf, &len);
	assert_int_equal(bt_export_match(mem, al, BT_FORMAT_JSON, NULL, &err), 0);
	fclose(mem);
	assert_non_null(strstr(buf, "\"kind\": \"match\""));
	assert_non_null(strstr(buf, "\"verdict\": \"slower\""));
	{
		size_t units = 0;
		for (char *p = buf; (p = strstr(p, "{ \"kind\": ")) != NULL; p++)
			units++;
		assert_int_equal(units, n);
	}
	free(buf);
	bt_align_free(al);

	/* the screen: on the block that changed most; H goes back to it */
	b = bt_browser_new(sb, NULL);
	{
		struct browse_match_arg arg = { sa, sb, (size_t)bt_selection_find(sa, "scale"),
			(size_t)bt_selection_find(sb, "scale"), -1, -1 };
		sc = browse_open_match(b, &arg, 30);
	}
	assert_non_null(sc);
	assert_string_equal(bt_browser_screen(b), "match");
	hot = sc->nav.cursor;
	assert_int_equal(hot, bt_view_match_hottest(sc->view));
	bt_browser_apply(b, BT_ACT_HOME, 30);
	bt_browser_apply(b, BT_ACT_HOTTEST, 30);
	assert_int_equal(b->stack.v[b->stack.n - 1].nav.cursor, hot);
	bt_browser_apply(b, BT_ACT_QUIT, 30);
	assert_string_not_equal(bt_browser_screen(b), "match");
	bt_browser_free(b);
	test_close(sa);
	test_close(sb);
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
		cmocka_unit_test(test_funcs_jit_versions),
		cmocka_unit_test(test_same),
		cmocka_unit_test(test_moved),
		cmocka_unit_test(test_divide),
		cmocka_unit_test(test_renamed),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_align),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
