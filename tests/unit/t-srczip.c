/*
 * Unit tests: the zip reader of --source-path (core/symbols/srczip.c) on
 * archives built here: stored and deflated entries, a JDK-style module
 * directory, a missing entry; the archive cut at every byte and damaged
 * byte by byte, never read past (ASan) nor believed when it lies.
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
