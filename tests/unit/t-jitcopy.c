/*
 * Unit test: the code a perf map names, copied from another process
 * (core/jit/jitcopy.c), read back with the jitdump reader. The child is
 * forked after its code is in place; the parent then overwrites its own
 * copy, so equal bytes can only come from the child's memory.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base.h"
#include "benchtui/benchtui.h"
#include "jit/jitcopy.h"
#include "jit/jitdump.h"

static char dir[] = "/tmp/bt-jitcopy.XXXXXX";

static void
fill(uint8_t *p, size_t n, unsigned seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(i * 31 + seed);
}

static void
test_copy(void **state)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), n;
	uint8_t *code, *data, *want;
	char map[256], out[256];
	struct bt_jit_copy_stats st;
	struct bt_error err = { 0 };
	const struct bt_jit_load *l;
	struct bt_jitdump *jd;
	FILE *f;
	pid_t pid;
	long r;

	(void)state;
	code = mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(code != MAP_FAILED);
	munmap(code + 2 * pg, pg);	/* nothing mapped after the code */
	data = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(data != MAP_FAILED);
	fill(code, 2 * pg, 7);
	fill(data, pg, 9);
	assert_int_equal(mprotect(code, 2 * pg, PROT_READ | PROT_EXEC), 0);
	want = bt_xmalloc(2 * pg);
	memcpy(want, code, 2 * pg);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		for (;;)
			pause();
	}
	/* ours changes; the child's stays */
	assert_int_equal(mprotect(code, 2 * pg, PROT_READ | PROT_WRITE), 0);
	memset(code, 0xcc, 2 * pg);

	snprintf(map, sizeof(map), "%s/perf-%d.map", dir, (int)pid);
	snprintf(out, sizeof(out), "%s/copy-%d.dump", dir, (int)pid);
	f = fopen(map, "w");
	assert_non_null(f);
	fprintf(f, "%lx 40 A\n", (unsigned long)(uintptr_t)code);
	fprintf(f, "%lx 20 old B\n", (unsigned long)(uintptr_t)(code + 0x100));
	fprintf(f, "%lx 20 C\n", (unsigned long)(uintptr_t)(code + 0x110));
	fprintf(f, "%lx 10 data\n", (unsigned long)(uintptr_t)data);
	fprintf(f, "%lx 200 past the end\n", (unsigned long)(uintptr_t)(code + 2 * pg - 0x100));
	fprintf(f, "%lx 64 F \x1b[31m\n", (unsigned long)(uintptr_t)(code + 0x400));
	fclose(f);

	r = bt_jit_copy(pid, map, out, 1 << 20, &st, &err);
	assert_int_equal(r, 3);
	assert_int_equal(st.entries, 6);
	assert_int_equal(st.copied, 3);
	assert_int_equal(st.overlapped, 1);
	assert_int_equal(st.not_anon, 2);
	assert_int_equal(st.capped, 0);
	assert_int_equal(st.bytes, 0x40 + 0x20 + 0x64);
	jd = bt_jitdump_open(out, &err);
	assert_non_null(jd);
	l = bt_jitdump_loads(jd, &n);
	assert_int_equal(n, 3);
	assert_int_equal(bt_jitdump_header(jd)->pid, pid);
	assert_string_equal(l[0].name, "A");
	assert_int_equal(l[0].code_addr, (uintptr_t)code);
	assert_int_equal(l[0].code_size, 0x40);
	assert_int_equal(l[0].time, 0);
	assert_memory_equal(l[0].code, want, 0x40);
	assert_string_equal(l[1].name, "C");
	assert_memory_equal(l[1].code, want + 0x110, 0x20);
	assert_string_equal(l[2].name, "F \x1b[31m");	/* as written: escaped where shown */
	assert_memory_equal(l[2].code, want + 0x400, 0x64);
	/* the address of a sample finds the code at any time (time 0: not known) */
	assert_ptr_equal(bt_jitdump_find(jd, (uintptr_t)code + 0x118, 12345, NULL), &l[1]);
	bt_jitdump_free(jd);
	unlink(out);

	/* the cap: whole entries in the map's order, the rest counted */
	r = bt_jit_copy(pid, map, out, 0x40, &st, &err);
	assert_int_equal(r, 1);
	assert_int_equal(st.capped, 2);
	assert_int_equal(st.bytes, 0x40);
	unlink(out);

	/* nothing to copy: no file */
	r = bt_jit_copy(pid, map, out, 0x10, &st, &err);
	assert_int_equal(r, 0);
	assert_int_equal(access(out, F_OK), -1);
	unlink(map);
	/* no map */
	r = bt_jit_copy(pid, map, out, 1 << 20, &st, &err);
	assert_int_equal(r, -BT_ENOENT);

	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	munmap(code, 2 * pg);
	munmap(data, pg);
	free(want);
}

static int
setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int
teardown(void **state)
{
	(void)state;
	return rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_copy),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
