/*
 * Unit tests: the zip reader of --source-path (core/symbols/srczip.c) on
 * archives built here: stored and deflated entries, a JDK-style module
 * directory, a missing entry; the archive cut at every byte and damaged
 * byte by byte, never read past (ASan) nor believed when it lies. And
 * the source cache's lines (core/symbols/srcfile.c), read as they are
 * asked for, against the file split whole (bt_src_index): CR LF, no last
 * newline, empty lines, a NUL, lines across its read buffer and window;
 * a file cut after it was indexed gives empty lines, not a crash.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "base.h"
#include "symbols/srczip.h"
#include "symbols/symbols.h"

static void
w16(struct bt_strbuf *b, unsigned v)
{
	uint8_t x[2] = { (uint8_t)v, (uint8_t)(v >> 8) };
	bt_strbuf_add(b, x, 2);
}

static void
w32(struct bt_strbuf *b, uint32_t v)
{
	w16(b, v & 0xffff);
	w16(b, v >> 16);
}

struct ent {
	const char *name;
	const char *text;
	int method;
	uint32_t off, csize;
	uint8_t *data;
};

static void
build(struct bt_strbuf *b, struct ent *e, size_t n)
{
	size_t i, cd;

	bt_strbuf_init(b);
	for (i = 0; i < n; i++) {
		size_t len = strlen(e[i].text);
		if (e[i].method == 8) {
			z_stream zs;
			memset(&zs, 0, sizeof(zs));
			assert_int_equal(deflateInit2(&zs, 9, Z_DEFLATED, -MAX_WBITS, 8,
			    Z_DEFAULT_STRATEGY), Z_OK);
			e[i].data = malloc(len + 64);
			zs.next_in = (Bytef *)e[i].text;
			zs.avail_in = (uInt)len;
			zs.next_out = e[i].data;
			zs.avail_out = (uInt)len + 64;
			assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
			e[i].csize = (uint32_t)zs.total_out;
			deflateEnd(&zs);
		} else {
			e[i].data = (uint8_t *)strdup(e[i].text);
			e[i].csize = (uint32_t)len;
		}
		e[i].off = (uint32_t)b->len;
		w32(b, 0x04034b50);
		w16(b, 20); w16(b, 0); w16(b, (unsigned)e[i].method);
		w16(b, 0); w16(b, 0x5821);	/* time, date: 2024-01-01 */
		w32(b, (uint32_t)crc32(0, (const Bytef *)e[i].text, (uInt)len));
		w32(b, e[i].csize); w32(b, (uint32_t)len);
		w16(b, (unsigned)strlen(e[i].name)); w16(b, 0);
		bt_strbuf_add(b, e[i].name, strlen(e[i].name));
		bt_strbuf_add(b, e[i].data, e[i].csize);
	}
	cd = b->len;
	for (i = 0; i < n; i++) {
		size_t len = strlen(e[i].text);
		w32(b, 0x02014b50);
		w16(b, 20); w16(b, 20); w16(b, 0); w16(b, (unsigned)e[i].method);
		w16(b, 0); w16(b, 0x5821);
		w32(b, (uint32_t)crc32(0, (const Bytef *)e[i].text, (uInt)len));
		w32(b, e[i].csize); w32(b, (uint32_t)len);
		w16(b, (unsigned)strlen(e[i].name)); w16(b, 0); w16(b, 0);
		w16(b, 0); w16(b, 0); w32(b, 0);
		w32(b, e[i].off);
		bt_strbuf_add(b, e[i].name, strlen(e[i].name));
		free(e[i].data);
	}
	w32(b, 0x06054b50);
	w16(b, 0); w16(b, 0); w16(b, (unsigned)n); w16(b, (unsigned)n);
	w32(b, (uint32_t)(b->len - cd - 12));
	w32(b, (uint32_t)cd);
	w16(b, 0);
}

static char path[] = "/tmp/bt-srczip.XXXXXX";

static struct bt_srczip *
open_bytes(const void *p, size_t n)
{
	int fd = mkstemp(path);
	struct bt_srczip *z;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, p, n), (ssize_t)n);
	close(fd);
	z = bt_srczip_open(path);
	unlink(path);
	strcpy(path + strlen(path) - 6, "XXXXXX");
	return z;
}

static void
test_read(void **state)
{
	char text[4000];
	struct ent e[] = {
		{ "java.base/java/lang/Integer.java", text, 8, 0, 0, NULL },
		{ "Hot.java", "class Hot {}\n", 0, 0, 0, NULL },
		{ "src/", "", 0, 0, 0, NULL },
	};
	struct bt_strbuf b;
	struct bt_srczip *z;
	char *data;
	size_t len, cut, i;
	int64_t mt;

	for (i = 0, len = 0; i < 100; i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len,
		    "line %03zu of integer sources\n", i);
	build(&b, e, BT_ARRAY_SIZE(e));
	z = open_bytes(b.buf, b.len);
	assert_non_null(z);
	assert_int_equal(bt_srczip_read(z, "java/lang/Integer.java", 1 << 20, &data,
	    &len, &mt), 0);
	assert_int_equal(len, strlen(text));
	assert_memory_equal(data, text, len);
	assert_true(mt > 1700000000);
	free(data);
	assert_int_equal(bt_srczip_read(z, "Hot.java", 1 << 20, &data, &len, &mt), 0);
	assert_string_equal(data, "class Hot {}\n");
	free(data);
	assert_int_equal(bt_srczip_read(z, "Cold.java", 1 << 20, &data, &len, &mt), -BT_ENOENT);
	/* larger than the caller takes */
	assert_int_equal(bt_srczip_read(z, "java/lang/Integer.java", 100, &data, &len, &mt),
	    -BT_EFORMAT);
	bt_srczip_free(z);
	/* cut short: no end record, or one whose directory is past the end */
	for (cut = 0; cut + 1 < b.len; cut += 7) {
		z = open_bytes(b.buf, cut);
		if (z != NULL) {
			if (bt_srczip_read(z, "Hot.java", 1 << 20, &data, &len, &mt) == 0)
				free(data);
			bt_srczip_free(z);
		}
	}
	/* each byte damaged: read or refused, the text never wrong in length */
	for (i = 0; i < b.len; i++) {
		char *copy = bt_xmalloc(b.len);
		memcpy(copy, b.buf, b.len);
		copy[i] ^= 0x5a;
		z = open_bytes(copy, b.len);
		if (z != NULL) {
			if (bt_srczip_read(z, "java/lang/Integer.java", 1 << 20, &data, &len,
			    &mt) == 0) {
				assert_true(len <= 1 << 20);
				free(data);
			}
			bt_srczip_free(z);
		}
		free(copy);
	}
	bt_strbuf_release(&b);
}

/* text written to a file, read through a source cache: as split whole */
static void
check_lines(const char *text, size_t len)
{
	char fpath[] = "/tmp/bt-srcfile.XXXXXX";
	int fd = mkstemp(fpath);
	struct bt_srccache *c = bt_srccache_new();
	const struct bt_srcfile *sf;
	const char **want;
	char *copy = bt_xmalloc(len + 1);
	size_t n, i;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	close(fd);
	memcpy(copy, text, len);
	n = bt_src_index(copy, len, &want);
	sf = bt_srccache_get(c, fpath);
	assert_false(sf->missing);
	assert_int_equal(sf->nlines, n);
	/* backwards first: each line read through a window of its own */
	for (i = n; i > 0; i--)
		assert_string_equal(bt_srcfile_line(sf, i), want[i - 1]);
	for (i = 1; i <= n; i++)
		assert_string_equal(bt_srcfile_line(sf, i), want[i - 1]);
	assert_null(bt_srcfile_line(sf, n + 1));
	assert_null(bt_srcfile_line(sf, 0));
	unlink(fpath);
	bt_srccache_free(c);
	free(want);
	free(copy);
}

static void
test_lines(void **state)
{
	static const char *const small[] = { "", "\n", "a", "a\n", "a\r\nb", "\r\n",
		"x\n\ny\n", "\n\n", "one\ntwo\r\n\r\nthree" };
	struct bt_strbuf b = BT_STRBUF_INIT;
	char fpath[] = "/tmp/bt-srcfile.XXXXXX";
	struct bt_srccache *c;
	const struct bt_srcfile *sf;
	size_t i;
	int fd;

	for (i = 0; i < BT_ARRAY_SIZE(small); i++)
		check_lines(small[i], strlen(small[i]));
	check_lines("a\0b\nc\n", 6);	/* a NUL: the line ends there */
	/* a megabyte: lines across the 64 KiB reads and the 256 KiB window, CR LF across them */
	for (i = 0; b.len < (1u << 20); i++)
		bt_strbuf_addf(&b, "%zu%s%s", i, i % 7 ? "" : " some longer text of the line",
		    i % 3 ? "\r\n" : "\n");
	check_lines(b.buf, b.len);
	/* one long line, longer than the window */
	bt_strbuf_reset(&b);
	for (i = 0; i < 300000; i++)
		bt_strbuf_addch(&b, (char)('a' + i % 26));
	bt_strbuf_addstr(&b, "\nend");
	check_lines(b.buf, b.len);
	/* cut after it was indexed: the lines past the cut are empty */
	fd = mkstemp(fpath);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, b.buf, b.len), (ssize_t)b.len);
	c = bt_srccache_new();
	sf = bt_srccache_get(c, fpath);
	assert_int_equal(sf->nlines, 2);
	assert_int_equal(ftruncate(fd, 10), 0);
	close(fd);
	assert_string_equal(bt_srcfile_line(sf, 2), "");
	assert_string_equal(bt_srcfile_line(sf, 1), "");
	unlink(fpath);
	bt_srccache_free(c);
	bt_strbuf_release(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
