/*
 * Unit tests: the jitdump and perf-PID.map readers on files built here,
 * in both byte orders, then cut short at every byte, with bad sizes and
 * with random damage; opening what is not a regular file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <byteswap.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base.h"
#include "jit/jitdump.h"
#include "jit/jitinline.h"
#include "jit/perfmap.h"
#include "jit/v8builtins.h"

static char dir[] = "/tmp/bt-jit.XXXXXX";

/* A jitdump writer, in either byte order. */
struct jw {
	struct bt_strbuf sb;
	bool swap;
	size_t rec;	/* start of the open record */
};

static void
w32(struct jw *w, uint32_t v)
{
	if (w->swap)
		v = bswap_32(v);
	bt_strbuf_add(&w->sb, &v, 4);
}

static void
w64(struct jw *w, uint64_t v)
{
	if (w->swap)
		v = bswap_64(v);
	bt_strbuf_add(&w->sb, &v, 8);
}

static void
wstr(struct jw *w, const char *s)
{
	bt_strbuf_add(&w->sb, s, strlen(s) + 1);
}

static void
jw_header(struct jw *w, bool swap, uint32_t reserved)
{
	bt_strbuf_init(&w->sb);
	w->swap = swap;
	w32(w, BT_JITDUMP_MAGIC);
	w32(w, 1);
	w32(w, 40);
	w32(w, 62);
	w32(w, reserved);
	w32(w, 4242);
	w64(w, 1000);
	w64(w, 0);
}

static void
rec_begin(struct jw *w, uint32_t id, uint64_t time)
{
	w->rec = w->sb.len;
	w32(w, id);
	w32(w, 0);
	w64(w, time);
}

static void
rec_end(struct jw *w)
{
	uint32_t size = (uint32_t)(w->sb.len - w->rec);

	if (w->swap)
		size = bswap_32(size);
	memcpy(w->sb.buf + w->rec + 4, &size, 4);
}

static void
jw_load(struct jw *w, uint64_t time, uint64_t addr, uint64_t size,
	uint64_t index, const char *name)
{
	uint64_t i;

	rec_begin(w, BT_JIT_CODE_LOAD, time);
	w32(w, 4242);
	w32(w, 4243);
	w64(w, addr);
	w64(w, addr);
	w64(w, size);
	w64(w, index);
	wstr(w, name);
	for (i = 0; i < size; i++)
		bt_strbuf_addch(&w->sb, (int)((index + i) & 0xff));
	rec_end(w);
}

struct line { uint64_t addr; uint32_t line; const char *file; };

static void
jw_debug(struct jw *w, uint64_t time, uint64_t addr, const struct line *l, size_t n)
{
	size_t i;

	rec_begin(w, BT_JIT_CODE_DEBUG_INFO, time);
	w64(w, addr);
	w64(w, n);
	for (i = 0; i < n; i++) {
		w64(w, l[i].addr);
		w32(w, l[i].line);
		w32(w, 7);
		wstr(w, l[i].file);
	}
	rec_end(w);
}

static void
jw_move(struct jw *w, uint64_t time, uint64_t from, uint64_t to, uint64_t size,
	uint64_t index)
{
	rec_begin(w, BT_JIT_CODE_MOVE, time);
	w32(w, 4242);
	w32(w, 4243);
	w64(w, to);
	w64(w, from);
	w64(w, to);
	w64(w, size);
	w64(w, index);
	rec_end(w);
}

static void
jw_unwind(struct jw *w, uint64_t time, size_t size, size_t hdr)
{
	size_t i;

	rec_begin(w, BT_JIT_CODE_UNWINDING_INFO, time);
	w64(w, size);
	w64(w, hdr);
	w64(w, size);
	for (i = 0; i < size; i++)
		bt_strbuf_addch(&w->sb, 0xe0 + (int)i % 16);
	rec_end(w);
}

static void
jw_close(struct jw *w, uint64_t time)
{
	rec_begin(w, BT_JIT_CODE_CLOSE, time);
	rec_end(w);
}

/*
 * The reference file: f's code is at 0x1000 (a line table before it), g at
 * 0x2000 then moved to 0x3000, h replaces f at 0x1000 later, an unknown
 * record, unwinding info before h, then CLOSE.
 */
static void
build(struct jw *w, bool swap)
{
	static const struct line fl[] = {
		{ 0x1000, 10, "f.js" }, { 0x1004, 11, "f.js" }, { 0x1008, 3, "lib.js" },
	};

	jw_header(w, swap, 0);
	jw_debug(w, 100, 0x1000, fl, 3);
	jw_load(w, 101, 0x1000, 16, 1, "f");
	jw_load(w, 200, 0x2000, 32, 2, "g with spaces");
	rec_begin(w, 99, 250);		/* unknown: skipped */
	w64(w, 0);
	rec_end(w);
	jw_move(w, 300, 0x2000, 0x3000, 32, 2);
	jw_unwind(w, 350, 24, 8);
	jw_load(w, 400, 0x1000, 8, 3, "h");
	jw_close(w, 500);
}

static void
check_reference(const struct bt_jitdump *jd, bool swapped)
{
	const struct bt_jitdump_header *h = bt_jitdump_header(jd);
	const struct bt_jitdump_stats *st = bt_jitdump_stats(jd);
	const struct bt_jit_load *l, *f;
	const struct bt_jit_move *m;
	uint64_t start;
	size_t n, nm;

	assert_int_equal(h->version, 1);
	assert_int_equal(h->elf_mach, 62);
	assert_int_equal(h->pid, 4242);
	assert_int_equal(h->timestamp, 1000);
	assert_int_equal(h->swapped, swapped);
	assert_int_equal(h->line_bias, 0);
	l = bt_jitdump_loads(jd, &n);
	assert_int_equal(n, 3);
	assert_string_equal(l[0].name, "f");
	assert_int_equal(l[0].code_addr, 0x1000);
	assert_int_equal(l[0].code_size, 16);
	assert_int_equal(l[0].code_index, 1);
	assert_int_equal(l[0].time, 101);
	assert_int_equal(l[0].tid, 4243);
	assert_non_null(l[0].code);
	assert_int_equal(l[0].code[0], 1);
	assert_int_equal(l[0].code[15], 16);
	assert_int_equal(l[0].nlines, 3);
	assert_int_equal(l[0].lines[1].addr, 0x1004);
	assert_int_equal(l[0].lines[1].line, 11);
	assert_int_equal(l[0].lines[1].discrim, 7);
	assert_string_equal(l[0].lines[2].file, "lib.js");
	assert_null(l[0].unwind_data);
	assert_string_equal(l[1].name, "g with spaces");
	assert_int_equal(l[1].nlines, 0);
	assert_int_equal(l[1].code[31], (2 + 31) & 0xff);
	assert_string_equal(l[2].name, "h");
	assert_int_equal(l[2].nlines, 0);	/* f's table is not h's */
	assert_non_null(l[2].unwind_data);
	assert_int_equal(l[2].unwind_size, 24);
	assert_int_equal(l[2].eh_frame_hdr_size, 8);
	assert_int_equal(l[2].unwind_data[1], 0xe1);
	m = bt_jitdump_moves(jd, &nm);
	assert_int_equal(nm, 1);
	assert_int_equal(m[0].load, 1);
	assert_int_equal(m[0].new_code_addr, 0x3000);
	assert_int_equal(st->records, 8);
	assert_int_equal(st->unknown, 1);
	assert_int_equal(st->bad, 0);
	assert_int_equal(st->orphan_debug, 0);
	assert_true(st->closed);
	assert_int_equal(st->close_time, 500);
	assert_false(st->truncated);
	assert_int_equal(st->good_size, st->size);
	assert_string_equal(st->damage, "");

	/* which code ran at an address, when */
	f = bt_jitdump_find(jd, 0x1004, 150, &start);
	assert_ptr_equal(f, &l[0]);
	assert_int_equal(start, 0x1000);
	assert_ptr_equal(bt_jitdump_find(jd, 0x1004, 450, NULL), &l[2]);
	assert_ptr_equal(bt_jitdump_find(jd, 0x1004, UINT64_MAX, NULL), &l[2]);
	assert_ptr_equal(bt_jitdump_find(jd, 0x100c, 450, NULL), &l[0]);	/* past h */
	assert_ptr_equal(bt_jitdump_find(jd, 0x1000, 50, NULL), &l[0]);	/* before any: the first */
	assert_null(bt_jitdump_find(jd, 0x1010, 450, NULL));
	assert_null(bt_jitdump_find(jd, 0xfff, 450, NULL));
	f = bt_jitdump_find(jd, 0x3008, 350, &start);
	assert_ptr_equal(f, &l[1]);
	assert_int_equal(start, 0x3000);
	assert_ptr_equal(bt_jitdump_find(jd, 0x2008, 250, NULL), &l[1]);
}

static void
test_reference(void **state)
{
	struct bt_error err = { 0 };
	struct bt_jitdump *jd;
	struct jw w;
	int swap;

	for (swap = 0; swap < 2; swap++) {
		build(&w, swap);
		jd = bt_jitdump_open_mem(w.sb.buf, w.sb.len, &err);
		assert_non_null(jd);
		check_reference(jd, swap);
		bt_jitdump_free(jd);
		bt_strbuf_release(&w.sb);
	}
}

/* The file, cut at every byte: the records before the cut, nothing else. */
static void
test_truncated(void **state)
{
	struct bt_error err = { 0 };
	const struct bt_jitdump_stats *st;
	struct bt_jitdump *jd;
	struct jw w;
	size_t cut, n, nfull = 0, prev_loads = 0;

	build(&w, false);
	for (cut = 0; cut <= w.sb.len; cut++) {
		/* a copy of exactly cut bytes, so that ASan sees any overrun */
		char *copy = bt_xmalloc(cut ? cut : 1);
		memcpy(copy, w.sb.buf, cut);
		jd = bt_jitdump_open_mem(copy, cut, &err);
		if (cut < 40) {
			assert_null(jd);
			free(copy);
			continue;
		}
		assert_non_null(jd);
		st = bt_jitdump_stats(jd);
		bt_jitdump_loads(jd, &n);
		assert_true(n >= prev_loads);	/* never fewer for more bytes */
		prev_loads = n;
		assert_true(st->good_size <= cut);
		assert_int_equal(st->truncated, st->good_size != cut);
		if (st->truncated)
			assert_string_not_equal(st->damage, "");
		else
			nfull++;
		bt_jitdump_free(jd);
		free(copy);
	}
	assert_int_equal(prev_loads, 3);
	assert_int_equal(nfull, 9);	/* the header alone, then after each record */
	bt_strbuf_release(&w.sb);
}

static struct bt_jitdump *
open_buf(struct jw *w)
{
	struct bt_error err = { 0 };

	return bt_jitdump_open_mem(w->sb.buf, w->sb.len, &err);
}

static void
test_bad_sizes(void **state)
{
	const struct bt_jitdump_stats *st;
	struct bt_jitdump *jd;
	struct jw w;
	size_t n, off;

	/* a record of size 8 cannot frame anything: reading stops there */
	jw_header(&w, false, 0);
	jw_load(&w, 1, 0x1000, 4, 1, "a");
	rec_begin(&w, BT_JIT_CODE_LOAD, 2);
	rec_end(&w);
	memcpy(w.sb.buf + w.rec + 4, "\x08\0\0\0", 4);
	off = w.rec;
	jw_load(&w, 3, 0x2000, 4, 2, "b");
	jd = open_buf(&w);
	st = bt_jitdump_stats(jd);
	bt_jitdump_loads(jd, &n);
	assert_int_equal(n, 1);
	assert_true(st->truncated);
	assert_int_equal(st->good_size, off);
	assert_non_null(strstr(st->damage, "size 8"));
	bt_jitdump_free(jd);
	bt_strbuf_release(&w.sb);

	/* a size past the end */
	jw_header(&w, false, 0);
	jw_load(&w, 1, 0x1000, 4, 1, "a");
	memcpy(w.sb.buf + 40 + 4, "\xff\xff\0\0", 4);
	jd = open_buf(&w);
	bt_jitdump_loads(jd, &n);
	assert_int_equal(n, 0);
	assert_true(bt_jitdump_stats(jd)->truncated);
	bt_jitdump_free(jd);
	bt_strbuf_release(&w.sb);

	/* sound frames, unsound contents: skipped, the next record is read */
	jw_header(&w, false, 0);
	rec_begin(&w, BT_JIT_CODE_LOAD, 1);	/* name without its NUL */
	w32(&w, 1); w32(&w, 1); w64(&w, 0x1000); w64(&w, 0x1000); w64(&w, 0);
	w64(&w, 1);
	bt_strbuf_addstr(&w.sb, "abc");
	rec_end(&w);
	rec_begin(&w, BT_JIT_CODE_LOAD, 2);	/* code size past the record */
	w32(&w, 1); w32(&w, 1); w64(&w, 0x1000); w64(&w, 0x1000); w64(&w, 100);
	w64(&w, 2);
	wstr(&w, "x");
	bt_strbuf_addstr(&w.sb, "code");
	rec_end(&w);
	rec_begin(&w, BT_JIT_CODE_LOAD, 3);	/* wraps around */
	w32(&w, 1); w32(&w, 1); w64(&w, ~0ULL - 1); w64(&w, ~0ULL - 1); w64(&w, 4);
	w64(&w, 3);
	wstr(&w, "y");
	rec_end(&w);
	rec_begin(&w, BT_JIT_CODE_DEBUG_INFO, 4);	/* more entries than bytes */
	w64(&w, 0x1000);
	w64(&w, 1ULL << 60);
	rec_end(&w);
	rec_begin(&w, BT_JIT_CODE_UNWINDING_INFO, 5);	/* data past the record */
	w64(&w, 1000); w64(&w, 0); w64(&w, 0);
	rec_end(&w);
	rec_begin(&w, BT_JIT_CODE_MOVE, 6);	/* too short */
	w64(&w, 0);
	rec_end(&w);
	rec_begin(&w, BT_JIT_CODE_DEBUG_INFO, 7);	/* too short */
	w32(&w, 0);
	rec_end(&w);
	jw_load(&w, 8, 0x5000, 0, 9, "no code");	/* fine: empty code */
	jw_load(&w, 9, 0x6000, 2, 10, "good");
	jd = open_buf(&w);
	st = bt_jitdump_stats(jd);
	assert_int_equal(st->bad, 7);
	assert_false(st->truncated);
	assert_non_null(strstr(st->damage, "NUL"));
	{
		const struct bt_jit_load *l = bt_jitdump_loads(jd, &n);
		assert_int_equal(n, 2);
		assert_string_equal(l[0].name, "no code");
		assert_null(l[0].code);
		assert_string_equal(l[1].name, "good");
	}
	bt_jitdump_free(jd);
	bt_strbuf_release(&w.sb);

	/* a load that carries no bytes for its size: kept, without code */
	jw_header(&w, false, 0);
	rec_begin(&w, BT_JIT_CODE_LOAD, 1);
	w32(&w, 1); w32(&w, 1); w64(&w, 0x1000); w64(&w, 0x1000); w64(&w, 64);
	w64(&w, 1);
	wstr(&w, "bytes elsewhere");
	rec_end(&w);
	jd = open_buf(&w);
	{
		const struct bt_jit_load *l = bt_jitdump_loads(jd, &n);
		assert_int_equal(n, 1);
		assert_null(l[0].code);
		assert_int_equal(l[0].code_size, 64);
		assert_ptr_equal(bt_jitdump_find(jd, 0x1030, 5, NULL), &l[0]);
	}
	bt_jitdump_free(jd);
	bt_strbuf_release(&w.sb);
}

/* Headers: magic, size below 40, size past the end. */
static void
test_bad_headers(void **state)
{
	struct bt_error err = { 0 };
	struct bt_jitdump *jd;
	struct jw w;

	assert_null(bt_jitdump_open_mem("\x7f" "ELF", 4, &err));
	assert_non_null(strstr(err.msg, "magic"));
	assert_null(bt_jitdump_open_mem("DTiJ\1\0\0\0", 8, &err));
	assert_non_null(strstr(err.msg, "cut short"));
	assert_null(bt_jitdump_open_mem(NULL, 0, &err));
	jw_header(&w, false, 0);
	memcpy(w.sb.buf + 8, "\x10\0\0\0", 4);
	assert_null(open_buf(&w));
	memcpy(w.sb.buf + 8, "\x00\x10\0\0", 4);
	jd = open_buf(&w);
	assert_non_null(jd);
	assert_true(bt_jitdump_stats(jd)->truncated);
	bt_jitdump_free(jd);
	bt_strbuf_release(&w.sb);
}

/* Which load gets which line table. */
static void
test_debug_attach(void **state)
{
	static const struct line a[] = { { 0x1000, 1, "a" } };
	static const struct line b[] = { { 0x2000, 2, "b" } };
	const struct bt_jit_load *l;
	struct bt_jitdump *jd;
	struct jw w;
	size_t n;

	jw_header(&w, false, 0);
	jw_debug(&w, 1, 0x1000, a, 1);
	jw_debug(&w, 2, 0x2000, b, 1);	/* threads interleaved: b's table first */
	jw_load(&w, 3, 0x2000, 4, 1, "b");
	jw_load(&w, 4, 0x1000, 4, 2, "a");
	jw_load(&w, 5, 0x1000, 4, 3, "a again");	/* no table of its own */
	jw_debug(&w, 6, 0x9000, a, 1);	/* nobody's */
	jd = open_buf(&w);
	l = bt_jitdump_loads(jd, &n);
	assert_int_equal(n, 3);
	assert_int_equal(l[0].nlines, 1);
	assert_string_equal(l[0].lines[0].file, "b");
	assert_int_equal(l[1].nlines, 1);
	assert_string_equal(l[1].lines[0].file, "a");
	assert_int_equal(l[2].nlines, 0);
	assert_int_equal(bt_jitdump_stats(jd)->orphan_debug, 1);
	bt_jitdump_free(jd);
	bt_strbuf_release(&w.sb);
}

/* V8: 0xDEADBEEF, lines 0x40 ahead, "\xff" for a repeated file, and names from freed memory. */
static void
test_v8(void **state)
{
	static const struct line l3[] = {
		{ 0x1040, 1, "s.js" }, { 0x1048, 2, "\xff" }, { 0x1050, 3, "\xff" },
	};
	const struct bt_jit_load *l;
	struct bt_jitdump *jd;
	struct jw w;
	size_t n, i;

	jw_header(&w, false, BT_JITDUMP_V8_RESERVED);
	jw_debug(&w, 1, 0x1000, l3, 3);
	bt_strbuf_addchars(&w.sb, 0, 5);	/* V8 pads records to 8 */
	rec_end(&w);
	jw_load(&w, 2, 0x1000, 16, 1, "JS:*f s.js:1:1");
	/* node 20: each name the length of "s.js", bytes from anywhere */
	rec_begin(&w, BT_JIT_CODE_DEBUG_INFO, 3);
	w64(&w, 0x2000);
	w64(&w, 3);
	for (i = 0; i < 3; i++) {
		w64(&w, 0x2040 + i * 4);
		w32(&w, 10 + (uint32_t)i);
		w32(&w, 1);
		bt_strbuf_add(&w.sb, "\xa1\x34\0\0\0", 5);
	}
	bt_strbuf_addchars(&w.sb, 0, 1);
	rec_end(&w);
	jw_load(&w, 4, 0x2000, 16, 2, "JS:*g s.js:5:1");
	jd = open_buf(&w);
	assert_int_equal(bt_jitdump_header(jd)->line_bias, 0x40);
	l = bt_jitdump_loads(jd, &n);
	assert_int_equal(n, 2);
	assert_int_equal(l[0].nlines, 3);
	assert_int_equal(l[0].lines[0].addr, 0x1000);
	assert_int_equal(l[0].lines[2].addr, 0x1010);
	assert_string_equal(l[0].lines[1].file, "s.js");
	assert_string_equal(l[0].lines[2].file, "s.js");
	assert_int_equal(l[1].nlines, 3);
	assert_int_equal(l[1].lines[2].addr, 0x2008);
	assert_int_equal(l[1].lines[2].line, 12);
	assert_string_equal(l[1].lines[0].file, "");
	assert_int_equal(bt_jitdump_stats(jd)->debug_repaired, 1);
	assert_int_equal(bt_jitdump_stats(jd)->bad, 0);
	bt_jitdump_free(jd);
	bt_strbuf_release(&w.sb);
}

/* Random damage to the reference file: answers, never crashes. */
static void
test_random(void **state)
{
	struct bt_error err = { 0 };
	struct jw w;
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	int round, k;

	build(&w, false);
	for (round = 0; round < 20000; round++) {
		char *copy = bt_xmalloc(w.sb.len);
		size_t len = w.sb.len;
		struct bt_jitdump *jd;

		memcpy(copy, w.sb.buf, len);
		for (k = 0; k < 1 + round % 4; k++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			copy[40 + (seed >> 33) % (len - 40)] = (char)(seed >> 13);
		}
		if (round % 3 == 0)
			len -= (seed >> 40) % 16;
		jd = bt_jitdump_open_mem(copy, len, &err);
		if (jd != NULL) {
			size_t n, i, j;
			const struct bt_jit_load *l = bt_jitdump_loads(jd, &n);
			for (i = 0; i < n; i++) {
				assert_true(strlen(l[i].name) < len);
				for (j = 0; j < l[i].nlines; j++)
					assert_true(strlen(l[i].lines[j].file) < len);
				if (l[i].code != NULL)
					assert_true((const char *)l[i].code + l[i].code_size <=
					    copy + len);
				bt_jitdump_find(jd, l[i].code_addr, l[i].time, NULL);
			}
			bt_jitdump_free(jd);
		}
		free(copy);
	}
	bt_strbuf_release(&w.sb);
}

/* Files: a regular one; never a FIFO (it would block), a device, a directory. */
static void
test_files(void **state)
{
	struct bt_error err = { 0 };
	char *path = bt_xasprintf("%s/jit-1.dump", dir);
	char *fifo = bt_xasprintf("%s/fifo", dir);
	char *link = bt_xasprintf("%s/link", dir);
	struct bt_jitdump *jd;
	struct bt_perfmap *m;
	struct jw w;
	FILE *f;

	build(&w, true);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(w.sb.buf, 1, w.sb.len, f), w.sb.len);
	fclose(f);
	jd = bt_jitdump_open(path, &err);
	assert_non_null(jd);
	check_reference(jd, true);
	bt_jitdump_free(jd);

	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(symlink(fifo, link), 0);
	assert_null(bt_jitdump_open(fifo, &err));
	assert_non_null(strstr(err.msg, "not a regular file"));
	assert_null(bt_jitdump_open(link, &err));
	assert_non_null(strstr(err.msg, "not a regular file"));
	assert_null(bt_perfmap_open(fifo, &err));
	assert_null(bt_jitdump_open("/dev/null", &err));
	assert_null(bt_perfmap_open("/dev/zero", &err));
	assert_null(bt_jitdump_open(dir, &err));
	assert_null(bt_jitdump_open("/nonexistent/jit-1.dump", &err));
	assert_int_equal(err.code, BT_ENOENT);
	assert_null(bt_perfmap_open("/nonexistent/perf-1.map", &err));
	assert_int_equal(err.code, BT_ENOENT);

	/* an empty map is an empty map; an empty dump is not a dump */
	f = fopen(path, "w");
	fclose(f);
	m = bt_perfmap_open(path, &err);
	assert_non_null(m);
	assert_int_equal(bt_perfmap_stats(m)->entries, 0);
	assert_null(bt_perfmap_find(m, 0));
	bt_perfmap_free(m);
	assert_null(bt_jitdump_open(path, &err));

	unlink(path);
	unlink(link);
	unlink(fifo);
	free(path);
	free(fifo);
	free(link);
	bt_strbuf_release(&w.sb);
}

static void
test_perfmap(void **state)
{
	static const char text[] =
		"7f0000001000 40 JS:*hot /tmp/x.js:1:2\n"
		"0x00007F0000002000 0x0000000000000100 double Hot.run(int)\r\n"
		"\n"
		"  1000\t10\tname\twith tabs  \n"
		"nothex 10 x\n"
		"1000 10\n"				/* no name */
		"1000 10 \n"				/* blank name */
		"1000\n"
		"11111111111111111 10 too long\n"	/* 17 digits */
		"ffffffffffffff00 200 wraps\n"
		"1000 zz bad size\n"
		"1000 10 nul\0inside\n"
		"7f0000001010 8 JS:*inner reuse\n"
		"2000 0 empty\n"
		"3000 8 last line, no newline";
	const struct bt_perfmap_entry *e;
	const struct bt_perfmap_stats *st;
	struct bt_perfmap *m;
	size_t n, cut;

	m = bt_perfmap_open_mem(text, sizeof(text) - 1, NULL);
	e = bt_perfmap_entries(m, &n);
	st = bt_perfmap_stats(m);
	assert_int_equal(n, 6);
	assert_int_equal(st->lines, 15);
	assert_int_equal(st->blank, 1);
	assert_int_equal(st->bad, 8);
	assert_int_equal(st->first_bad, 5);
	assert_int_equal(st->unterminated, 1);
	assert_int_equal(e[0].start, 0x7f0000001000ULL);
	assert_int_equal(e[0].size, 0x40);
	assert_string_equal(e[0].name, "JS:*hot /tmp/x.js:1:2");
	assert_int_equal(e[1].start, 0x7f0000002000ULL);
	assert_string_equal(e[1].name, "double Hot.run(int)");
	assert_int_equal(e[1].line, 2);
	assert_string_equal(e[2].name, "name\twith tabs");
	assert_int_equal(e[2].start, 0x1000);
	assert_string_equal(e[3].name, "JS:*inner reuse");
	assert_string_equal(e[5].name, "last line, no newline");
	/* the entry written last covers an address several do */
	assert_ptr_equal(bt_perfmap_find(m, 0x7f0000001014ULL), &e[3]);
	assert_ptr_equal(bt_perfmap_find(m, 0x7f0000001020ULL), &e[0]);
	assert_ptr_equal(bt_perfmap_find(m, 0x7f00000020ffULL), &e[1]);
	assert_null(bt_perfmap_find(m, 0x7f0000002100ULL));
	assert_null(bt_perfmap_find(m, 0x2000));	/* size 0 covers nothing */
	assert_ptr_equal(bt_perfmap_find(m, 0x3007), &e[5]);
	bt_perfmap_free(m);

	/* every cut of it reads without overrun */
	for (cut = 0; cut < sizeof(text); cut++) {
		char *copy = bt_xmalloc(cut ? cut : 1);
		memcpy(copy, text, cut);
		m = bt_perfmap_open_mem(copy, cut, NULL);
		assert_non_null(m);
		bt_perfmap_entries(m, &n);
		assert_true(n <= 6);
		bt_perfmap_free(m);
		free(copy);
	}
}

static int
setup(void **state)
{
	return mkdtemp(dir) == NULL;
}

/*
 * The inline file (jitinline.h): one record of two methods read back,
 * pcs sorted, the chain at an address; then cut at every byte and with
 * bytes damaged, never read past its end (ASan), counts checked.
 */
static void
inline_file(struct jw *w)
{
	size_t rec;

	bt_strbuf_init(&w->sb);
	w->swap = false;
	w32(w, BT_JITINLINE_MAGIC);
	w32(w, 1);
	w32(w, 16);
	w32(w, 42);
	rec = w->sb.len;
	w32(w, 1);
	w32(w, 0);		/* total, below */
	w64(w, 7);		/* time */
	w64(w, 0x1000);		/* code_addr */
	w64(w, 5);		/* code_index */
	w32(w, 2);		/* methods */
	w32(w, 3);		/* pcs */
	wstr(w, "Hot::run");
	wstr(w, "Hot.java");
	wstr(w, "java.lang.Math::sqrt");
	wstr(w, "");
	/* out of order: 0x1020 (two frames), 0x1010 (one), 0x1030 (two) */
	w64(w, 0x1020); w32(w, 2);
	w32(w, 1); w32(w, 3); w32(w, 0);	/* sqrt@3, no line */
	w32(w, 0); w32(w, 9); w32(w, 6);	/* run@9 line 6 */
	w64(w, 0x1010); w32(w, 1);
	w32(w, 0); w32(w, 2); w32(w, 5);
	w64(w, 0x1030); w32(w, 2);
	w32(w, 1); w32(w, (uint32_t)-1); w32(w, 0);
	w32(w, 0); w32(w, 9); w32(w, 6);
	{
		uint32_t total = (uint32_t)(w->sb.len - rec);
		memcpy(w->sb.buf + rec + 4, &total, 4);
	}
}

static void
test_inline(void **state)
{
	struct bt_error err = { 0 };
	struct bt_jitinline *f;
	const struct bt_jit_inl *in;
	const struct bt_jit_pc *pc;
	struct jw w;
	size_t cut, i;

	inline_file(&w);
	f = bt_jitinline_open_mem(w.sb.buf, w.sb.len, &err);
	assert_non_null(f);
	assert_int_equal(bt_jitinline_stats(f)->records, 1);
	assert_null(bt_jitinline_find(f, 5, 0x2000));
	in = bt_jitinline_find(f, 5, 0x1000);
	assert_non_null(in);
	assert_int_equal(in->npcs, 3);
	assert_true(in->pcs[0].pc == 0x1010 && in->pcs[1].pc == 0x1020);
	pc = bt_jit_inl_at(in, 0x1000);		/* the prologue: the first pc */
	assert_true(pc->pc == 0x1010);
	pc = bt_jit_inl_at(in, 0x1027);
	assert_int_equal(pc->nframes, 2);
	assert_string_equal(in->frames[pc->frame].method, "java.lang.Math::sqrt");
	assert_string_equal(in->frames[pc->frame].file, "");
	assert_string_equal(in->frames[pc->frame + 1].file, "Hot.java");
	assert_int_equal(in->frames[pc->frame + 1].bci, 9);
	assert_int_equal(in->frames[pc->frame + 1].line, 6);
	bt_jitinline_free(f);
	/* cut at every byte: a header cut short fails, a record cut short ends the reading */
	for (cut = 0; cut < w.sb.len; cut++) {
		void *copy = bt_xmalloc(cut ? cut : 1);
		memcpy(copy, w.sb.buf, cut);
		f = bt_jitinline_open_mem(copy, cut, &err);
		if (cut < 16)
			assert_null(f);
		else {
			assert_non_null(f);
			assert_int_equal(bt_jitinline_stats(f)->records, 0);
			assert_int_equal(bt_jitinline_stats(f)->truncated, cut > 16);
		}
		bt_jitinline_free(f);
		free(copy);
	}
	/* every byte of the record damaged in turn: read or skipped, never past the end */
	for (i = 16; i < w.sb.len; i++) {
		uint8_t *copy = bt_xmalloc(w.sb.len);
		memcpy(copy, w.sb.buf, w.sb.len);
		copy[i] ^= 0xa5;
		f = bt_jitinline_open_mem(copy, w.sb.len, &err);
		assert_non_null(f);
		in = bt_jitinline_find(f, 5, 0x1000);
		if (in != NULL && in->npcs > 0)
			(void)bt_jit_inl_at(in, 0x1025);
		bt_jitinline_free(f);
		free(copy);
	}
	bt_strbuf_release(&w.sb);
}

/*
 * V8's builtin tables: the full table's displacement from the embedded
 * builtins' indexed calls (a stray match among them does not change it,
 * too few or disagreeing ones give none), and slots named by id.
 */
static void
test_v8_tables(void **state)
{
	/* call *0x49c8(%r13,%r8,8); call *0x49c8(%r13,%r15,8); with nops and int3 */
	static const uint8_t c1[] = { 0x43, 0xff, 0x94, 0xc5, 0xc8, 0x49, 0x00, 0x00 };
	static const uint8_t c2[] = { 0x43, 0xff, 0x94, 0xfd, 0xc8, 0x49, 0x00, 0x00 };
	static const uint8_t c3[] = { 0x41, 0xff, 0x94, 0xd5, 0xc8, 0x49, 0x00, 0x00 };
	/* the same with another displacement; and mov (not a call) */
	static const uint8_t other[] = { 0x43, 0xff, 0x94, 0xc5, 0x00, 0x10, 0x00, 0x00 };
	static const uint8_t mov[] = { 0x4f, 0x8b, 0x94, 0xd5, 0x00, 0x20, 0x00, 0x00 };
	static const char *const names[] = {
		"Builtins_DeoptimizationEntry_Eager", "Builtins_DeoptimizationEntry_Lazy",
		"Builtins_RecordWriteSaveFP", "Builtins_RecordWriteIgnoreFP",
		"Builtins_EphemeronKeyBarrierSaveFP", "Builtins_EphemeronKeyBarrierIgnoreFP",
		"Builtins_AdaptorWithBuiltinExitFrame", "Builtins_CallFunction_ReceiverIsAny",
	};
	struct bt_v8_tables t = { names, 8, BT_V8_NO_DISP, NULL };
	uint8_t code[400];
	size_t hits, agree, at = 0, i;

	(void)state;
	memset(code, 0xcc, sizeof(code));
	for (i = 0; i < 30; i++) {
		const uint8_t *c = i % 3 == 0 ? c1 : i % 3 == 1 ? c2 : c3;
		memcpy(code + at, c, 8);
		at += 8 + i % 5;
		if (i == 20) {
			memcpy(code + at, mov, 8);
			at += 8;
		}
	}
	assert_int_equal(bt_v8_index_call_disp(code, at, &hits, &agree), 0x49c8);
	assert_int_equal(hits, 30);
	memcpy(code + at, other, 8);
	assert_int_equal(bt_v8_index_call_disp(code, at + 8, &hits, &agree), 0x49c8);
	assert_int_equal(hits, 31);
	assert_int_equal(agree, 30);
	/* 2 of one, 2 of another: none */
	memcpy(code, c1, 8);
	memcpy(code + 8, c2, 8);
	memcpy(code + 16, other, 8);
	memcpy(code + 24, other, 8);
	assert_int_equal(bt_v8_index_call_disp(code, 32, &hits, &agree), BT_V8_NO_DISP);
	assert_int_equal(bt_v8_index_call_disp(code, 7, &hits, &agree), BT_V8_NO_DISP);

	/* slots: tier 0 at -0x38 (V8 11.3), the full table at 0x49c8 */
	assert_null(bt_v8_tier0_layout(12, 4));
	t.tier0 = bt_v8_tier0_layout(11, 3);
	assert_non_null(t.tier0);
	assert_int_equal(t.tier0->n, 7);
	for (i = 0; i < t.tier0->n; i++)
		assert_string_equal(t.tier0->names[i], names[i]);
	assert_string_equal(bt_v8_slot_name(&t, -0x38), "Builtins_DeoptimizationEntry_Eager");
	assert_string_equal(bt_v8_slot_name(&t, -0x8), "Builtins_AdaptorWithBuiltinExitFrame");
	assert_null(bt_v8_slot_name(&t, -0x34));
	assert_null(bt_v8_slot_name(&t, -0x40));
	assert_null(bt_v8_slot_name(&t, 0x49c8));	/* no full table yet */
	t.full_disp = 0x49c8;
	assert_string_equal(bt_v8_slot_name(&t, 0x49c8), "Builtins_DeoptimizationEntry_Eager");
	assert_string_equal(bt_v8_slot_name(&t, 0x49c8 + 7 * 8), "Builtins_CallFunction_ReceiverIsAny");
	assert_null(bt_v8_slot_name(&t, 0x49c8 + 8 * 8));
	assert_null(bt_v8_slot_name(&t, 0x49c8 + 4));
	assert_null(bt_v8_slot_name(&t, 0x49c0));
	assert_null(bt_v8_slot_name(&t, 0));
}

static int
teardown(void **state)
{
	return rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_bad_sizes),
		cmocka_unit_test(test_bad_headers),
		cmocka_unit_test(test_debug_attach),
		cmocka_unit_test(test_v8),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_perfmap),
		cmocka_unit_test(test_inline),
		cmocka_unit_test(test_v8_tables),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
