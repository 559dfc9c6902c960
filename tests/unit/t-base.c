/* Unit tests: core/base (strbuf, strpool, vectors, errors). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "base.h"
#include "hash.h"

static void
test_strbuf(void **state)
{
	struct bt_strbuf sb = BT_STRBUF_INIT;

	assert_string_equal(sb.buf, "");
	bt_strbuf_addstr(&sb, "div");
	bt_strbuf_addch(&sb, ' ');
	bt_strbuf_addf(&sb, "%%r%s", "si");
	assert_string_equal(sb.buf, "div %rsi");
	for (int i = 0; i < 1000; i++)
		bt_strbuf_addf(&sb, "%04d", i);
	assert_int_equal(sb.len, 8 + 4000);
	assert_memory_equal(sb.buf + 8 + 4 * 999, "0999", 4);
	bt_strbuf_reset(&sb);
	assert_string_equal(sb.buf, "");
	bt_strbuf_release(&sb);
}

static void
test_strpool(void **state)
{
	struct bt_strpool p;
	const char *a, *b;
	char big[100000];

	bt_strpool_init(&p);
	a = bt_strpool_addstr(&p, "alpha");
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	b = bt_strpool_addstr(&p, big);
	assert_string_equal(a, "alpha");
	assert_int_equal(strlen(b), sizeof(big) - 1);
	assert_string_equal(bt_strpool_addf(&p, "%s+0x%x", "f", 0x20), "f+0x20");
	bt_strpool_release(&p);
}

static void
test_vec(void **state)
{
	BT_VEC(int) v = { 0 };

	for (int i = 0; i < 100; i++)
		BT_VEC_PUSH(v, i * i);
	assert_int_equal(v.n, 100);
	assert_int_equal(v.v[99], 99 * 99);
	BT_VEC_FREE(v);
	assert_null(v.v);
}

static void
test_error(void **state)
{
	struct bt_error err = { 0 };

	assert_int_equal(bt_error_set(&err, BT_ENOENT, "cannot open '%s'", "x"),
	    -BT_ENOENT);
	assert_int_equal(err.code, BT_ENOENT);
	assert_string_equal(err.msg, "cannot open 'x'");
	assert_int_equal(bt_error_set(NULL, BT_EIO, "ignored"), -BT_EIO);
	assert_string_equal(bt_strerror(-BT_EFORMAT), "malformed file");
	assert_string_equal(bt_strerror(999), "unknown error");
}

/* Text from a recording, made safe for a terminal: one function for all outputs. */
static void
test_text_safe(void **state)
{
	struct bt_textbuf tb = { 0 };
	const char *ok = "plain\ttext \xc3\xa9 \xe2\x86\x91 \xf0\x9f\x98\x80";

	(void)state;
	assert_true(bt_text_is_safe(ok));
	assert_ptr_equal(bt_text_safe(ok, &tb), ok);
	/* ESC, BEL, newline, DEL */
	assert_string_equal(bt_text_safe("a\x1b" "]0;T\x07" "b\nc\x7f", &tb),
	    "a\\x1b]0;T\\x07b\\x0ac\\x7f");
	/* C1 (U+009B, CSI) as UTF-8, a lone continuation byte, a cut sequence */
	assert_string_equal(bt_text_safe("\xc2\x9b" "1m\x80" "x\xe2\x86", &tb),
	    "\\xc2\\x9b1m\\x80x\\xe2\\x86");
	/* overlong, surrogate, beyond U+10FFFF */
	assert_string_equal(bt_text_safe("\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80", &tb),
	    "\\xc0\\xaf\\xed\\xa0\\x80\\xf4\\x90\\x80\\x80");
	assert_false(bt_text_is_safe("\x1b"));
	/*
	 * Long lines are checked eight bytes at a time: every byte that is
	 * not plain ASCII, at every place in a line, beside its edges
	 */
	{
		static const unsigned char odd[] = { 0x01, 0x09, 0x1f, 0x7f, 0x80, 0xc3, 0xff };
		char line[40];
		size_t i, k;

		for (k = 0; k < sizeof(odd); k++)
			for (i = 0; i + 1 < sizeof(line); i++) {
				memset(line, i % 2 ? ' ' : '~', sizeof(line) - 1);
				line[sizeof(line) - 1] = '\0';
				assert_true(bt_text_is_safe(line));
				line[i] = (char)odd[k];
				/* a tab prints; the rest need escaping (0xc3 cut short) */
				assert_int_equal(bt_text_is_safe(line), odd[k] == 0x09);
				/* and after an arrow's UTF-8 early in the line */
				if (i > 3) {
					memcpy(line, "\xe2\x86\x91", 3);
					assert_int_equal(bt_text_is_safe(line), odd[k] == 0x09);
					assert_int_equal(bt_text_safe_n(line, strlen(line), &tb) == line,
					    odd[k] == 0x09);
				}
			}
	}
	/* bt_text_safe_n: the length given, the same answers */
	assert_ptr_equal(bt_text_safe_n(ok, strlen(ok), &tb), ok);
	assert_string_equal(bt_text_safe_n("a\x1b" "b", 3, &tb), "a\\x1bb");
	bt_textbuf_release(&tb);
}

/* bt_fmt_2f and bt_fmt_u64 write what printf writes, ties and edges included. */
static void
check_2f(double x)
{
	char want[512], got[512];
	int n = snprintf(want, sizeof(want), "%.2f", x);

	assert_int_equal(bt_fmt_2f(got, sizeof(got), x), n);
	assert_string_equal(got, want);
}

static void
test_fmt(void **state)
{
	static const double edge[] = { 0, -0.0, 0.005, 0.004999999, 0.015, 0.025,
		0.125, 0.375, 0.625, 2.675, 1.005, 1.015, 99.995, 99.99499999999,
		100, 1e14 + 0.125, 1e15, 1e300, -1, -0.001, 4503599627370495.5 };
	char buf[32];
	uint64_t seed = 1;
	size_t i;

	(void)state;
	for (i = 0; i < BT_ARRAY_SIZE(edge); i++)
		check_2f(edge[i]);
	check_2f(INFINITY);
	check_2f(NAN);
	for (i = 0; i < 4096; i++) {	/* every tie k/8, and just around it */
		double t = (double)i / 8;
		check_2f(t);
		check_2f(nextafter(t, 0));
		check_2f(nextafter(t, 1e9));
	}
	for (i = 0; i < 200000; i++) {	/* shares as the views compute them */
		uint64_t k, d;
		seed = bt_hash64(seed + i);
		d = 1 + seed % 1000003;
		k = (seed >> 32) % (d + 1);
		check_2f(100.0 * (double)k / (double)d);
		check_2f((double)(seed >> 11) * 0x1p-53 * 1000);
	}
	/* bt_fmt_2f wants room for its fast path, else it is snprintf */
	assert_int_equal(bt_fmt_2f(buf, 4, 12.345), 5);
	assert_string_equal(buf, "12.");
	assert_int_equal(bt_fmt_u64(buf, 0), 1);
	assert_string_equal(buf, "0");
	assert_int_equal(bt_fmt_u64(buf, UINT64_MAX), 20);
	assert_string_equal(buf, "18446744073709551615");
	assert_int_equal(bt_fmt_u64(buf, 1000), 4);
	assert_string_equal(buf, "1000");
}

/* bt_xmalloc_big: plain memory, aligned to 2 MiB where huge pages are asked for. */
static void
test_xmalloc_big(void **state)
{
	size_t n = 3 << 20, i;	/* 3 MiB of bytes: one whole 2 MiB page */
	unsigned char *p = bt_xmalloc_big(n, n, 1), *q;
	uint32_t *w = bt_xmalloc_big(1000, 1000, sizeof(*w));

	(void)state;
	assert_int_equal((uintptr_t)p & ((2u << 20) - 1), 0);
	for (i = 0; i < n; i++)
		p[i] = (unsigned char)i;
	q = bt_xreallocarray(p, 2 * n, 1);	/* grows as any allocation */
	for (i = 0; i < n; i++)
		if (q[i] != (unsigned char)i)
			fail_msg("byte %zu lost in realloc", i);
	q[2 * n - 1] = 1;
	free(q);
	for (i = 0; i < 1000; i++)	/* small: malloc's */
		w[i] = (uint32_t)i;
	assert_int_equal(w[999], 999);
	free(w);
	/* nothing surely written: no page is whole, malloc's too */
	free(bt_xmalloc_big(n, 0, 1));
}

/* A (module, offset) table, as the profile's: find or add. */
struct hkey {
	uint32_t module;
	uint64_t off;
};

struct hkeys {
	struct hkey *v;
	size_t n, alloc;
};

static uint64_t
hkey_hash(uint32_t module, uint64_t off)
{
	return bt_hash64(off ^ (uint64_t)module << 47);
}

static uint32_t
hkey_intern(struct bt_hash *h, struct hkeys *v, uint32_t module,
	    uint64_t off, bool *added)
{
	struct bt_hash_pos pos;
	struct hkey k = { module, off };
	uint32_t i;

	*added = false;
	for (i = bt_hash_first(h, hkey_hash(module, off), &pos); i != BT_HASH_NONE;
	    i = bt_hash_next(h, &pos))
		if (v->v[i].module == module && v->v[i].off == off)
			return i;
	BT_VEC_PUSH(*v, k);
	bt_hash_add(h, &pos, (uint32_t)v->n - 1);
	*added = true;
	return (uint32_t)v->n - 1;
}

/* Every key found again after the table grew, ids in the order added. */
static void
test_hash(void **state)
{
	struct hkeys v = { 0 };
	struct bt_hash h;
	struct bt_hash_pos pos;
	uint32_t i, n = 100000;
	bool added;

	(void)state;
	bt_hash_init(&h, 0);
	assert_int_equal(bt_hash_first(&h, 42, &pos), BT_HASH_NONE);
	for (i = 0; i < n; i++) {
		assert_int_equal(hkey_intern(&h, &v, i % 7, (uint64_t)i * 64, &added), i);
		assert_true(added);
	}
	assert_int_equal(h.n, n);
	assert_true(h.mask + 1 >= 2 * (size_t)n);
	for (i = 0; i < n; i++) {
		assert_int_equal(hkey_intern(&h, &v, i % 7, (uint64_t)i * 64, &added), i);
		assert_false(added);
	}
	/* equal hashes: every candidate offered, each key its own entry */
	bt_hash_clear(&h);
	assert_int_equal(h.n, 0);
	for (i = 0; i < 100; i++)
		bt_hash_put(&h, 0x1234567800000000ULL, i);
	for (i = bt_hash_first(&h, 0x1234567800000000ULL, &pos), n = 0;
	    i != BT_HASH_NONE; i = bt_hash_next(&h, &pos))
		assert_int_equal(i, n++);
	assert_int_equal(n, 100);
	assert_int_equal(bt_hash_first(&h, 0x1234567900000000ULL, &pos), BT_HASH_NONE);
	bt_hash_release(&h);
	BT_VEC_FREE(v);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strbuf),
		cmocka_unit_test(test_strpool),
		cmocka_unit_test(test_vec),
		cmocka_unit_test(test_error),
		cmocka_unit_test(test_text_safe),
		cmocka_unit_test(test_fmt),
		cmocka_unit_test(test_xmalloc_big),
		cmocka_unit_test(test_hash),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
