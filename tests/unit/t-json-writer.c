/*
 * Unit tests: core/export/json-writer.c on its own, as git's t0019 tests
 * its json-writer: nesting and commas in the three layouts, every escape,
 * invalid UTF-8, numbers of every kind, the depth limit. Each writer
 * writes into an open_memstream(); the text is compared whole.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base.h"
#include "export/json-writer.h"

/* A writer into memory. */
struct cap {
	FILE *f;
	char *buf;
	size_t len;
	struct bt_jw w;
};

static struct bt_jw *
cap_open(struct cap *c)
{
	c->buf = NULL;
	c->len = 0;
	c->f = open_memstream(&c->buf, &c->len);
	assert_non_null(c->f);
	bt_jw_init(&c->w, c->f);
	return &c->w;
}

/* The text written, to free. */
static char *
cap_close(struct cap *c)
{
	assert_int_equal(fclose(c->f), 0);
	return c->buf;
}

#define ASSERT_TEXT(c, expect) do {					\
	char *got_ = cap_close(c);					\
	assert_string_equal(got_, (expect));				\
	free(got_);							\
} while (0)

/* The JSON of one string s. */
static char *
str_json(const char *s)
{
	struct cap c;

	bt_jw_str(cap_open(&c), NULL, s);
	return cap_close(&c);
}

#define ASSERT_STR(s, expect) do {					\
	char *got_ = str_json(s);					\
	assert_string_equal(got_, (expect));				\
	free(got_);							\
} while (0)

/* The JSON of one number written by fn. */
static char *
num_json(void (*fn)(struct bt_jw *, const char *, double), double d)
{
	struct cap c;

	fn(cap_open(&c), NULL, d);
	return cap_close(&c);
}

#define ASSERT_NUM(fn, d, expect) do {					\
	char *got_ = num_json((fn), (d));				\
	assert_string_equal(got_, (expect));				\
	free(got_);							\
} while (0)

/* Values at the top level, one after another: no separator, no key. */
static void
test_top_level(void **state)
{
	struct cap c;
	struct bt_jw *w = cap_open(&c);

	bt_jw_str(w, NULL, "a");
	bt_jw_u64(w, NULL, 1);
	bt_jw_bool(w, NULL, true);
	ASSERT_TEXT(&c, "\"a\"1true");
}

static void
test_compact(void **state)
{
	struct cap c;
	struct bt_jw *w = cap_open(&c);

	bt_jw_object(w, NULL, BT_JW_COMPACT, 0);
	bt_jw_u64(w, "a", 1);
	bt_jw_str(w, "b", "x");
	bt_jw_array(w, "c", BT_JW_COMPACT, 0);
	bt_jw_int(w, NULL, -1);
	bt_jw_int(w, NULL, 2);
	bt_jw_end(w);
	bt_jw_bool(w, "d", false);
	bt_jw_end(w);
	ASSERT_TEXT(&c, "{\"a\": 1, \"b\": \"x\", \"c\": [-1, 2], \"d\": false}");
}

static void
test_spaced(void **state)
{
	struct cap c;
	struct bt_jw *w = cap_open(&c);

	bt_jw_array(w, NULL, BT_JW_SPACED, 0);
	bt_jw_u64(w, NULL, 1);
	bt_jw_object(w, NULL, BT_JW_SPACED, 0);
	bt_jw_u64(w, "a", 2);
	bt_jw_u64(w, "b", 3);
	bt_jw_end(w);
	bt_jw_end(w);
	ASSERT_TEXT(&c, "[ 1, { \"a\": 2, \"b\": 3 } ]");
}

/* One member per line at the container's indent, closed by " ]". */
static void
test_lines(void **state)
{
	struct cap c;
	struct bt_jw *w = cap_open(&c);

	bt_jw_object(w, NULL, BT_JW_LINES, 0);
	bt_jw_str(w, "name", "x");
	bt_jw_array(w, "rows", BT_JW_LINES, 2);
	bt_jw_object(w, NULL, BT_JW_COMPACT, 0);
	bt_jw_u64(w, "n", 1);
	bt_jw_end(w);
	bt_jw_object(w, NULL, BT_JW_COMPACT, 0);
	bt_jw_u64(w, "n", 2);
	bt_jw_end(w);
	bt_jw_end(w);
	bt_jw_end(w);
	ASSERT_TEXT(&c, "{\n\"name\": \"x\",\n\"rows\": [\n"
	    "  {\"n\": 1},\n  {\"n\": 2} ] }");
}

/* Empty containers in each layout. */
static void
test_empty(void **state)
{
	struct cap c;
	struct bt_jw *w = cap_open(&c);

	bt_jw_array(w, NULL, BT_JW_COMPACT, 0);
	bt_jw_object(w, NULL, BT_JW_COMPACT, 0);
	bt_jw_end(w);
	bt_jw_array(w, NULL, BT_JW_SPACED, 0);
	bt_jw_end(w);
	bt_jw_object(w, NULL, BT_JW_SPACED, 0);
	bt_jw_end(w);
	bt_jw_array(w, NULL, BT_JW_LINES, 4);
	bt_jw_end(w);
	bt_jw_object(w, "k", BT_JW_LINES, 4);
	bt_jw_end(w);
	bt_jw_end(w);
	ASSERT_TEXT(&c, "[{}, [], {}, [ ], \"k\": { }]");
}

/* bt_jw_break: the next member of a spaced container on a new line; once. */
static void
test_break(void **state)
{
	struct cap c;
	struct bt_jw *w = cap_open(&c);

	bt_jw_object(w, NULL, BT_JW_SPACED, 0);
	bt_jw_break(w, 2);
	bt_jw_u64(w, "a", 1);
	bt_jw_break(w, 4);
	bt_jw_u64(w, "b", 2);
	bt_jw_u64(w, "c", 3);
	bt_jw_break(w, 6);	/* cleared by the end: nothing follows */
	bt_jw_end(w);
	bt_jw_u64(w, NULL, 4);
	ASSERT_TEXT(&c, "{\n  \"a\": 1,\n    \"b\": 2, \"c\": 3 }4");
}

/* Deep nesting: BT_JW_DEPTH levels open and close. */
static void
test_depth(void **state)
{
	struct cap c;
	struct bt_jw *w = cap_open(&c);
	char expect[2 * BT_JW_DEPTH + 1];

	for (int i = 0; i < BT_JW_DEPTH; i++) {
		bt_jw_array(w, NULL, BT_JW_COMPACT, 0);
		expect[i] = '[';
		expect[2 * BT_JW_DEPTH - 1 - i] = ']';
	}
	expect[2 * BT_JW_DEPTH] = '\0';
	for (int i = 0; i < BT_JW_DEPTH; i++)
		bt_jw_end(w);
	ASSERT_TEXT(&c, expect);
}

/* One more level than BT_JW_DEPTH is a bug: the writer aborts (in a child). */
static void
test_too_deep(void **state)
{
	pid_t pid = fork();
	int status;

	assert_true(pid >= 0);
	if (pid == 0) {
		struct bt_jw w;
		FILE *f = fopen("/dev/null", "w");

		if (f == NULL || dup2(fileno(f), STDERR_FILENO) < 0)
			_exit(2);
		bt_jw_init(&w, f);
		for (int i = 0; i <= BT_JW_DEPTH; i++)
			bt_jw_object(&w, NULL, BT_JW_COMPACT, 0);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGABRT);
}

/* Quotes, backslashes, every control byte, in values and keys. */
static void
test_escapes(void **state)
{
	struct cap c;
	struct bt_jw *w;
	char s[2] = { 0, 0 };

	ASSERT_STR("", "\"\"");
	ASSERT_STR(NULL, "\"\"");
	ASSERT_STR("a\"b\\c/d", "\"a\\\"b\\\\c/d\"");
	ASSERT_STR("\n\t", "\"\\n\\t\"");
	ASSERT_STR("\r\b\f\x01\x1f", "\"\\u000d\\u0008\\u000c\\u0001\\u001f\"");
	/* DEL and the C1 controls too: a terminal showing the JSON would obey them */
	ASSERT_STR(" ~\x7f", "\" ~\\u007f\"");
	ASSERT_STR("\xc2\x80\xc2\x9b\xc2\x9f\xc2\xa0", "\"\\u0080\\u009b\\u009f\xc2\xa0\"");
	for (int ch = 1; ch < 0x20; ch++) {
		char expect[16];
		char *got;

		s[0] = (char)ch;
		if (ch == '\n')
			strcpy(expect, "\"\\n\"");
		else if (ch == '\t')
			strcpy(expect, "\"\\t\"");
		else
			snprintf(expect, sizeof(expect), "\"\\u%04x\"", ch);
		got = str_json(s);
		assert_string_equal(got, expect);
		free(got);
	}
	w = cap_open(&c);
	bt_jw_object(w, NULL, BT_JW_COMPACT, 0);
	bt_jw_str(w, "k\"\n", "v");
	bt_jw_end(w);
	ASSERT_TEXT(&c, "{\"k\\\"\\n\": \"v\"}");
}

/* Valid UTF-8 is copied: two, three and four bytes, at the edges of each. */
static void
test_utf8(void **state)
{
	/* U+00B5 */
	ASSERT_STR("\xc2\xb5s", "\"\xc2\xb5s\"");
	/* U+00A0 (U+0080-U+009F are C1 controls: escaped), U+07FF */
	ASSERT_STR("\xc2\xa0\xdf\xbf", "\"\xc2\xa0\xdf\xbf\"");
	/* U+0800, U+2026 */
	ASSERT_STR("\xe0\xa0\x80\xe2\x80\xa6", "\"\xe0\xa0\x80\xe2\x80\xa6\"");
	/* U+D7FF, U+E000: around the surrogates */
	ASSERT_STR("\xed\x9f\xbf\xee\x80\x80", "\"\xed\x9f\xbf\xee\x80\x80\"");
	/* U+FFFF */
	ASSERT_STR("\xef\xbf\xbf", "\"\xef\xbf\xbf\"");
	/* U+10000, U+10FFFF */
	ASSERT_STR("\xf0\x90\x80\x80\xf4\x8f\xbf\xbf",
	    "\"\xf0\x90\x80\x80\xf4\x8f\xbf\xbf\"");
}

#define FFFD "\\ufffd"

/*
 * Invalid UTF-8: each byte that does not start a valid sequence becomes
 * U+FFFD (\ufffd) and the next byte is read afresh, so the output is
 * valid UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing
 * above U+10FFFF).
 */
static void
test_invalid_utf8(void **state)
{
	/* a lone continuation byte; Latin-1 "\xe9t\xe9" */
	ASSERT_STR("a\x80z", "\"a" FFFD "z\"");
	ASSERT_STR("\xe9t\xe9", "\"" FFFD "t" FFFD "\"");
	/* overlong forms of two, three and four bytes */
	ASSERT_STR("\xc0\xaf", "\"" FFFD FFFD "\"");
	ASSERT_STR("\xc1\xbf", "\"" FFFD FFFD "\"");
	ASSERT_STR("\xe0\x80\xaf", "\"" FFFD FFFD FFFD "\"");
	ASSERT_STR("\xe0\x9f\xbf", "\"" FFFD FFFD FFFD "\"");
	ASSERT_STR("\xf0\x8f\xbf\xbf", "\"" FFFD FFFD FFFD FFFD "\"");
	/* surrogates U+D800 and U+DFFF */
	ASSERT_STR("\xed\xa0\x80", "\"" FFFD FFFD FFFD "\"");
	ASSERT_STR("\xed\xbf\xbf", "\"" FFFD FFFD FFFD "\"");
	/* above U+10FFFF; bytes no form starts with */
	ASSERT_STR("\xf4\x90\x80\x80", "\"" FFFD FFFD FFFD FFFD "\"");
	ASSERT_STR("\xf5\x80\x80\x80", "\"" FFFD FFFD FFFD FFFD "\"");
	ASSERT_STR("\xfe\xff", "\"" FFFD FFFD "\"");
	/* cut short: at the end, before ASCII */
	ASSERT_STR("\xe2\x82", "\"" FFFD FFFD "\"");
	ASSERT_STR("\xe2\x82z", "\"" FFFD FFFD "z\"");
	ASSERT_STR("\xf0\x9f\x98", "\"" FFFD FFFD FFFD "\"");
}

/*
 * The code point of the strict (RFC 3629) UTF-8 sequence at s, its
 * length in *len; -1 when s starts none.
 */
static long
utf8_decode(const unsigned char *s, size_t *len)
{
	unsigned c = s[0];
	long cp;
	size_t n;

	if (c < 0x80) {
		*len = 1;
		return c;
	}
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return -1;
	for (size_t k = 1; k < n; k++) {
		if ((s[k] & 0xc0) != 0x80)
			return -1;
		cp = cp << 6 | (s[k] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return -1;
	*len = n;
	return cp;
}

static void
put_utf8(struct bt_strbuf *sb, long cp)
{
	if (cp < 0x80) {
		bt_strbuf_addch(sb, (int)cp);
	} else if (cp < 0x800) {
		bt_strbuf_addch(sb, (int)(0xc0 | cp >> 6));
		bt_strbuf_addch(sb, (int)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		bt_strbuf_addch(sb, (int)(0xe0 | cp >> 12));
		bt_strbuf_addch(sb, (int)(0x80 | (cp >> 6 & 0x3f)));
		bt_strbuf_addch(sb, (int)(0x80 | (cp & 0x3f)));
	} else {
		bt_strbuf_addch(sb, (int)(0xf0 | cp >> 18));
		bt_strbuf_addch(sb, (int)(0x80 | (cp >> 12 & 0x3f)));
		bt_strbuf_addch(sb, (int)(0x80 | (cp >> 6 & 0x3f)));
		bt_strbuf_addch(sb, (int)(0x80 | (cp & 0x3f)));
	}
}

/* Four hex digits at s as a number; -1 when they are not. */
static long
hex4(const unsigned char *s)
{
	long v = 0;

	for (int i = 0; i < 4; i++) {
		if (s[i] >= '0' && s[i] <= '9')
			v = v * 16 + (s[i] - '0');
		else if (s[i] >= 'a' && s[i] <= 'f')
			v = v * 16 + (s[i] - 'a' + 10);
		else if (s[i] >= 'A' && s[i] <= 'F')
			v = v * 16 + (s[i] - 'A' + 10);
		else
			return -1;
	}
	return v;
}

/*
 * Read the JSON string literal json (RFC 8259: no raw control character,
 * quote or backslash inside, known escapes, valid UTF-8) into out; false
 * when it is not one.
 */
static bool
json_string_read(const char *json, struct bt_strbuf *out)
{
	const unsigned char *p = (const unsigned char *)json;
	size_t len;
	long cp;

	if (*p++ != '"')
		return false;
	while (*p != '"') {
		if (*p == '\0' || *p < 0x20)
			return false;
		if (*p == '\\') {
			const char *esc = strchr("\"\\/bfnrt", p[1]);

			if (p[1] == 'u') {
				if ((cp = hex4(p + 2)) < 0 || (cp >= 0xd800 && cp <= 0xdfff))
					return false;
				put_utf8(out, cp);
				p += 6;
				continue;
			}
			if (p[1] == '\0' || esc == NULL)
				return false;
			bt_strbuf_addch(out, "\"\\/\b\f\n\r\t"[esc - "\"\\/bfnrt"]);
			p += 2;
			continue;
		}
		if ((cp = utf8_decode(p, &len)) < 0)
			return false;
		bt_strbuf_add(out, (const char *)p, len);
		p += len;
	}
	return p[1] == '\0';
}

/*
 * Random byte strings: the output is always a valid JSON string, and
 * reads back as the input with each byte that starts no valid sequence
 * replaced by U+FFFD.
 */
static void
test_random_strings(void **state)
{
	struct bt_strbuf in = BT_STRBUF_INIT, back = BT_STRBUF_INIT;
	struct bt_strbuf expect = BT_STRBUF_INIT;

	srand(19);
	for (int round = 0; round < 20000; round++) {
		size_t n = (size_t)(rand() % 12), len;
		char *json;

		bt_strbuf_reset(&in);
		for (size_t i = 0; i < n; i++) {
			int r = rand() % 4;
			/* favour the bytes around the edges of the UTF-8 forms */
			int b = r == 0 ? 1 + rand() % 0x7f : r == 1 ? 0x80 + rand() % 0x40 :
			    r == 2 ? 0xc0 + rand() % 0x40 : 1 + rand() % 0xff;
			bt_strbuf_addch(&in, b);
		}
		bt_strbuf_reset(&expect);
		for (const unsigned char *p = (const unsigned char *)in.buf; *p; ) {
			if (utf8_decode(p, &len) >= 0) {
				bt_strbuf_add(&expect, (const char *)p, len);
				p += len;
			} else {
				bt_strbuf_addstr(&expect, "\xef\xbf\xbd");
				p++;
			}
		}
		json = str_json(in.buf);
		bt_strbuf_reset(&back);
		if (!json_string_read(json, &back))
			fail_msg("not a JSON string: %s", json);
		assert_string_equal(back.buf, expect.buf);
		free(json);
	}
	bt_strbuf_release(&in);
	bt_strbuf_release(&back);
	bt_strbuf_release(&expect);
}

static void
test_integers(void **state)
{
	struct cap c;
	struct bt_jw *w = cap_open(&c);

	bt_jw_array(w, NULL, BT_JW_COMPACT, 0);
	bt_jw_u64(w, NULL, 0);
	bt_jw_u64(w, NULL, UINT64_MAX);
	bt_jw_int(w, NULL, 0);
	bt_jw_int(w, NULL, -1);
	bt_jw_int(w, NULL, LLONG_MIN);
	bt_jw_int(w, NULL, LLONG_MAX);
	bt_jw_hex(w, NULL, 0);
	bt_jw_hex(w, NULL, 0x11a0);
	bt_jw_hex(w, NULL, UINT64_MAX);
	bt_jw_bool(w, NULL, true);
	bt_jw_bool(w, NULL, false);
	bt_jw_end(w);
	ASSERT_TEXT(&c, "[0, 18446744073709551615, 0, -1, -9223372036854775808, "
	    "9223372036854775807, \"0x0\", \"0x11a0\", \"0xffffffffffffffff\", "
	    "true, false]");
}

/*
 * bt_jw_num: an integer when it is one (under 1e15), else two decimals;
 * not finite or beyond 1e300: 0.
 */
static void
test_num(void **state)
{
	ASSERT_NUM(bt_jw_num, 0, "0");
	ASSERT_NUM(bt_jw_num, -0.0, "0");
	ASSERT_NUM(bt_jw_num, 3, "3");
	ASSERT_NUM(bt_jw_num, -42, "-42");
	ASSERT_NUM(bt_jw_num, 1.5, "1.50");
	ASSERT_NUM(bt_jw_num, 100.0 / 3, "33.33");
	ASSERT_NUM(bt_jw_num, -2.25, "-2.25");
	ASSERT_NUM(bt_jw_num, -0.004, "-0.00");
	ASSERT_NUM(bt_jw_num, 999999999999999, "999999999999999");
	ASSERT_NUM(bt_jw_num, -999999999999999, "-999999999999999");
	ASSERT_NUM(bt_jw_num, 1e15, "1000000000000000.00");
	ASSERT_NUM(bt_jw_num, 1e20, "100000000000000000000.00");
	ASSERT_NUM(bt_jw_num, -1e20, "-100000000000000000000.00");
	ASSERT_NUM(bt_jw_num, 0x1p63, "9223372036854775808.00");
	ASSERT_NUM(bt_jw_num, NAN, "0");
	ASSERT_NUM(bt_jw_num, INFINITY, "0");
	ASSERT_NUM(bt_jw_num, -INFINITY, "0");
	ASSERT_NUM(bt_jw_num, 1e301, "0");
	ASSERT_NUM(bt_jw_num, -1e301, "0");
}

/* bt_jw_exact: every digit (%.17g); not finite or beyond 1e300: null. */
static void
test_exact(void **state)
{
	ASSERT_NUM(bt_jw_exact, 0, "0");
	ASSERT_NUM(bt_jw_exact, -0.0, "-0");
	ASSERT_NUM(bt_jw_exact, 3, "3");
	ASSERT_NUM(bt_jw_exact, 0.1, "0.10000000000000001");
	ASSERT_NUM(bt_jw_exact, 2673.7, "2673.6999999999998");
	ASSERT_NUM(bt_jw_exact, 1e20, "1e+20");
	ASSERT_NUM(bt_jw_exact, -1.5e-7, "-1.4999999999999999e-07");
	ASSERT_NUM(bt_jw_exact, 1e300, "1.0000000000000001e+300");
	ASSERT_NUM(bt_jw_exact, NAN, "null");
	ASSERT_NUM(bt_jw_exact, INFINITY, "null");
	ASSERT_NUM(bt_jw_exact, -INFINITY, "null");
	ASSERT_NUM(bt_jw_exact, 1e301, "null");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_top_level),
		cmocka_unit_test(test_compact),
		cmocka_unit_test(test_spaced),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_break),
		cmocka_unit_test(test_depth),
		cmocka_unit_test(test_too_deep),
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_invalid_utf8),
		cmocka_unit_test(test_random_strings),
		cmocka_unit_test(test_integers),
		cmocka_unit_test(test_num),
		cmocka_unit_test(test_exact),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
