/*
 * Unit tests: JIT code as functions (DESIGN.md §8). The in-memory ELF of
 * one piece of code opens as a module (name, bounds, bytes at the runtime
 * address, offset <-> address); a given line table is the module's;
 * a recording's sources by process answer by pid, address and time (two
 * loads at one address do not mix); JVM and versioned JIT names survive
 * the short-name form; a JIT name's key without its tier.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base.h"
#include "jit/jitelf.h"
#include "jit/jitset.h"
#include "machine/machine.h"
#include "symbols/symbols.h"

static const uint8_t code1[] = { 0x55, 0x48, 0x89, 0xe5, 0x31, 0xc0, 0x5d, 0xc3 };
static const uint8_t code2[] = { 0xb8, 0x2a, 0x00, 0x00, 0x00, 0xc3, 0x90, 0x90 };

static void
test_elf_image(void **state)
{
	size_t len;
	void *img = bt_jit_elf_image(EM_X86_64, "JS:*f /x.js:1:1", 0x7f0000001000ULL,
	    sizeof(code1), code1, &len);
	struct bt_msyms *m = bt_msyms_open("[jit]", img, len, NULL);
	struct bt_func_sym fs;
	const uint8_t *bytes;
	uint64_t addr, off;
	const struct bt_line *rows;
	struct bt_line in[3] = {
		{ 0x7f0000001000ULL, "/x.js", 1, 0 },
		{ 0x7f0000001004ULL, "/x.js", 2, 0 },
		{ 0x7f0000001008ULL, NULL, 0, 0 },
	};

	(void)state;
	free(img);
	assert_non_null(m);
	assert_int_equal(bt_msyms_info(m)->e_machine, EM_X86_64);
	assert_int_equal(bt_msyms_func(m, 0x7f0000001005ULL, &fs), 0);
	assert_string_equal(fs.name, "JS:*f /x.js:1:1");
	assert_true(fs.start == 0x7f0000001000ULL && fs.end == 0x7f0000001008ULL);
	assert_int_equal(bt_msyms_code(m, fs.start, fs.end, &bytes), sizeof(code1));
	assert_memory_equal(bytes, code1, sizeof(code1));
	assert_int_equal(bt_msyms_off_to_addr(m, BT_JIT_ELF_TEXT + 5, &addr), 0);
	assert_true(addr == 0x7f0000001005ULL);
	assert_int_equal(bt_msyms_addr_to_off(m, 0x7f0000001007ULL, &off), 0);
	assert_true(off == BT_JIT_ELF_TEXT + 7);
	assert_int_equal(bt_msyms_lines(m, fs.start, fs.end, &rows), 0);
	bt_msyms_set_lines(m, in, 3);
	assert_true(bt_msyms_has_dwarf(m));
	assert_int_equal(bt_msyms_lines(m, 0x7f0000001002ULL, fs.end, &rows), 2);
	assert_int_equal(rows[0].line, 1);
	assert_int_equal(rows[1].line, 2);
	assert_string_equal(rows[1].file, "/x.js");
	bt_msyms_free(m);

	/* a range with no bytes (a perf map): named, no code */
	img = bt_jit_elf_image(EM_X86_64, "double Hot.run(int)", 0x5000, 0x40, NULL, &len);
	m = bt_msyms_open("[jit]", img, len, NULL);
	free(img);
	assert_non_null(m);
	assert_int_equal(bt_msyms_func(m, 0x503f, &fs), 0);
	assert_string_equal(fs.name, "double Hot.run(int)");
	assert_true(bt_msyms_code(m, 0x5000, 0x5040, &bytes) < 0);
	bt_msyms_free(m);
}

static void
put(FILE *f, const void *p, size_t n)
{
	assert_int_equal(fwrite(p, 1, n, f), n);
}

/* A CODE_LOAD record of code at addr, at time t. */
static void
put_load(FILE *f, uint64_t t, uint64_t addr, const uint8_t *code, size_t n,
	 uint64_t index, const char *name)
{
	uint32_t id = 0, size = (uint32_t)(16 + 40 + strlen(name) + 1 + n);
	uint32_t pid = 42, tid = 42;
	uint64_t size64 = n;

	put(f, &id, 4);
	put(f, &size, 4);
	put(f, &t, 8);
	put(f, &pid, 4);
	put(f, &tid, 4);
	put(f, &addr, 8);
	put(f, &addr, 8);
	put(f, &size64, 8);
	put(f, &index, 8);
	put(f, name, strlen(name) + 1);
	put(f, code, n);
}

static void
test_jitset(void **state)
{
	char dir[] = "/tmp/bt-jitsyms.XXXXXX", dump[64], map[64];
	struct bt_jitset *js = bt_jitset_new();
	struct bt_jit_code c;
	FILE *f;
	uint32_t hdr[10] = { BT_JITDUMP_MAGIC, 1, 40, EM_X86_64, 0, 42 };

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(dump, sizeof(dump), "%s/jit-42.dump", dir);
	snprintf(map, sizeof(map), "%s/perf-42.map", dir);
	f = fopen(dump, "wb");
	put(f, hdr, 40);
	/* code freed and replaced at the same address */
	put_load(f, 1000, 0x10000, code1, sizeof(code1), 1, "JS:~f");
	put_load(f, 5000, 0x10000, code2, sizeof(code2), 2, "JS:*f");
	fclose(f);
	f = fopen(map, "w");
	fputs("20000 10 stub\n10000 8 mapname\n", f);
	fclose(f);
	assert_int_equal(bt_jitset_add(js, BT_JIT_SRC_DUMP, 42, dump, true, NULL), 0);
	assert_int_equal(bt_jitset_add(js, BT_JIT_SRC_MAP, 42, map, true, NULL), 1);
	assert_string_equal(bt_jitset_src(js, 0)->runtime, "V8");
	assert_true(bt_jitset_find_in(js, 0, 0x10004, 2000, &c));
	assert_string_equal(c.name, "JS:~f");
	assert_memory_equal(c.code, code1, sizeof(code1));
	assert_true(bt_jitset_find_in(js, 0, 0x10004, 6000, &c));
	assert_string_equal(c.name, "JS:*f");
	assert_true(c.start == 0x10000 && c.size == sizeof(code2) && c.time == 5000);
	assert_int_equal(c.src, 0);
	/* the map: names and ranges, no code */
	assert_false(bt_jitset_find_in(js, 0, 0x20008, 6000, &c));
	assert_true(bt_jitset_find_in(js, 1, 0x20008, 6000, &c));
	assert_string_equal(c.name, "stub");
	assert_null(c.code);
	assert_int_equal(c.src, 1);
	assert_true(bt_jitset_find_in(js, 1, 0x10004, 6000, &c));
	assert_string_equal(c.name, "mapname");
	assert_false(bt_jitset_find_in(js, 1, 0x30000, 6000, &c));
	assert_false(bt_jitset_find_in(js, 2, 0x10004, 6000, &c));
	bt_jitset_free(js);
	unlink(dump);
	unlink(map);
	rmdir(dir);
}

static void
test_names(void **state)
{
	char buf[256];

	(void)state;
	assert_string_equal(bt_name_short("Hot.run(I)D [c2 L4 #8]", false, buf, sizeof(buf)),
	    "Hot.run(I)D [c2 L4 #8]");
	assert_string_equal(bt_name_short("java.lang.String.hashCode()I [c1 L3 #4]", false,
	    buf, sizeof(buf)), "java.lang.String.hashCode()I [c1 L3 #4]");
	/* perf-map names whole, as the runtime wrote them (docs/jit.md) */
	assert_string_equal(bt_name_short("double Hot.run(int) (version 2 at 0x7f00)", false,
	    buf, sizeof(buf)), "double Hot.run(int) (version 2 at 0x7f00)");
	assert_string_equal(bt_name_short("double Hot.run(int)", true, buf, sizeof(buf)),
	    "double Hot.run(int)");
	assert_string_equal(bt_name_short("instance string [System.Private.CoreLib] "
	    "System.String::Concat(string,string)[OptimizedTier1]", false, buf, sizeof(buf)),
	    "instance string [System.Private.CoreLib] "
	    "System.String::Concat(string,string)[OptimizedTier1]");
	assert_string_equal(bt_name_short("JS:*f /x.js:1:1 (loaded at 0.316 s)", false,
	    buf, sizeof(buf)), "JS:*f /x.js:1:1 (loaded at 0.316 s)");
	/* C++ stays as perf prints it */
	assert_string_equal(bt_name_short("int ns::f(int, char*)", false, buf, sizeof(buf)),
	    "ns::f");
	assert_string_equal(bt_name_short("f(int)", false, buf, sizeof(buf)), "f");
}

/* A JIT name's tier-free key and method: V8's mark, HotSpot's tier and the version go. */
static void
test_untiered(void **state)
{
	static const char *const v8[] = {
		"JS:~fib file:///w.mjs:2:20", "JS:^fib file:///w.mjs:2:20",
		"JS:+fib file:///w.mjs:2:20", "JS:*fib file:///w.mjs:2:20",
	};
	const char *st;
	size_t i, n;

	(void)state;
	for (i = 0; i < BT_ARRAY_SIZE(v8); i++)
		assert_string_equal(bt_jit_untiered(v8[i]), "fib file:///w.mjs:2:20");
	/* the task: an anonymous function */
	assert_string_equal(bt_jit_untiered("JS:* file:///t.mjs:16:18"), " file:///t.mjs:16:18");
	assert_string_equal(bt_jit_untiered("JS:fib"), "fib");
	assert_string_equal(bt_jit_untiered("JS:"), "");
	assert_null(bt_jit_untiered(NULL));
	/* other names whole: HotSpot's tier is the method's */
	assert_string_equal(bt_jit_untiered("Hot.run(I)D [c2 L4 #8]"), "Hot.run(I)D [c2 L4 #8]");
	assert_string_equal(bt_jit_untiered("Builtin:ArgumentsAdaptorTrampoline"),
	    "Builtin:ArgumentsAdaptorTrampoline");
	n = bt_jit_method("JS:*fib file:///w.mjs:2:20 (loaded at 0.316 s)", &st);
	assert_int_equal(n, strlen("fib file:///w.mjs:2:20"));
	assert_memory_equal(st, "fib file:///w.mjs:2:20", n);
	n = bt_jit_method("Hot.run(I)D [c1 L3 OSR@11 #37]", &st);
	assert_int_equal(n, strlen("Hot.run(I)D"));
	assert_memory_equal(st, "Hot.run(I)D", n);
	n = bt_jit_method("double Hot.run(int) (version 2 at 0x7f00)", &st);
	assert_int_equal(n, strlen("double Hot.run(int)"));
	n = bt_jit_method("JS:~fib", &st);
	assert_string_equal(st, "fib");
	assert_int_equal(n, 3);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_elf_image),
		cmocka_unit_test(test_jitset),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_untiered),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
