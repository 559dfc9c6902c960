/*
 * Unit tests: the machine (core/machine). Modules numbered in the order
 * the recording names them ([kernel], [unknown] first; the BUILD_ID
 * feature for a mapping whose record has no build-id); a mapping over part
 * of an older one trims it, and every question is answered at its own
 * time; a forked child runs its parent's code until it execs; JIT code
 * placed from a process's jitdump first, then its perf map, one module a
 * piece of code; threads named by their COMM.
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
#include <sys/stat.h>
#include <unistd.h>

#include "base.h"
#include "jit/jitdump.h"
#include "jit/jitelf.h"
#include "jit/jitset.h"
#include "machine/machine.h"
#include "perf/perfdata.h"
#include "synth.h"

static struct bt_modules mods;
static struct bt_machine *m;

static int
setup(void **state)
{
	memset(&mods, 0, sizeof(mods));
	m = bt_machine_new(&mods);
	return 0;
}

static int
teardown(void **state)
{
	bt_machine_free(m);
	bt_modules_release(&mods);
	return 0;
}

/* A side-band record, as core/perf's stream gives it (read, then applied). */
static uint32_t
side(struct bt_pd_event *ev, uint64_t time)
{
	uint32_t module = UINT32_MAX;

	ev->time = time;
	ev->has_time = true;
	if (bt_machine_read(m, ev, &module))
		bt_machine_apply(m, ev, module);
	return module;
}

static uint32_t
map(uint32_t pid, uint64_t start, uint64_t len, uint64_t pgoff,
    const char *path, uint64_t time, const uint8_t *bid)
{
	struct bt_pd_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = PERF_RECORD_MMAP2;
	ev.u.mmap.pid = ev.u.mmap.tid = pid;
	ev.u.mmap.start = start;
	ev.u.mmap.len = len;
	ev.u.mmap.pgoff = pgoff;
	ev.u.mmap.prot = 5;	/* PROT_READ | PROT_EXEC */
	ev.u.mmap.filename = path;
	if (bid != NULL) {
		ev.misc = PERF_RECORD_MISC_MMAP_BUILD_ID;
		ev.u.mmap.build_id_size = 20;
		memcpy(ev.u.mmap.build_id, bid, 20);
	}
	return side(&ev, time);
}

static void
fork_at(uint32_t pid, uint32_t ppid, uint32_t tid, uint64_t time)
{
	struct bt_pd_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = PERF_RECORD_FORK;
	ev.u.task.pid = pid;
	ev.u.task.ppid = ppid;
	ev.u.task.tid = tid;
	ev.u.task.ptid = ppid;
	ev.u.task.time = time;
	side(&ev, time);
}

static void
comm(uint32_t pid, uint32_t tid, const char *name, bool exec, uint64_t time)
{
	struct bt_pd_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = PERF_RECORD_COMM;
	ev.misc = exec ? PERF_RECORD_MISC_COMM_EXEC : 0;
	ev.u.comm.pid = pid;
	ev.u.comm.tid = tid;
	ev.u.comm.comm = name;
	side(&ev, time);
}

/* "PATH+0xOFF" of ip in pid at t, or "PATH@0xADDR" for an address. */
static const char *
at(uint32_t pid, uint64_t ip, uint64_t t, char *buf, size_t len)
{
	uint32_t mod;
	uint64_t off;

	bt_machine_resolve(m, pid, ip, t, &mod, &off);
	snprintf(buf, len, "%s%s0x%llx", bt_machine_module(m, mod)->path,
	    off == ip ? "@" : "+", (unsigned long long)off);
	return buf;
}

static void
test_modules(void **state)
{
	uint8_t a[20], b[20];
	struct bt_pd_buildid fb = { -1, PERF_RECORD_MISC_USER, 20, { 0 }, (char *)"/bin/f" };

	memset(a, 0xaa, 20);
	memset(b, 0xbb, 20);
	memset(fb.id, 0xcc, 20);
	bt_machine_set_buildids(m, &fb, 1);
	assert_string_equal(mods.v[BT_MODULE_KERNEL].path, "[kernel]");
	assert_int_equal(mods.v[BT_MODULE_UNKNOWN].kind, BT_MOD_UNKNOWN);
	assert_int_equal(map(1, 0x1000, 0x1000, 0, "/bin/x", 5, a), 2);
	assert_int_equal(map(1, 0x5000, 0x1000, 0x1000, "/bin/x", 5, a), 2);
	assert_int_equal(map(2, 0x1000, 0x1000, 0, "/bin/x", 5, b), 3);	/* rebuilt */
	assert_int_equal(map(2, 0x9000, 0x1000, 0, "/bin/x", 5, NULL), 2);
	assert_int_equal(map(1, 0x7000, 0x1000, 0, "//anon", 5, NULL), 4);
	assert_int_equal(map(1, 0x8000, 0x1000, 0, "/bin/f", 5, NULL), 5);
	assert_int_equal(mods.v[4].kind, BT_MOD_ANON);
	assert_int_equal(mods.v[5].build_id_size, 20);
	assert_memory_equal(mods.v[5].build_id, fb.id, 20);
	/* the file offsets its mappings cover */
	assert_true(mods.v[2].off_lo == 0 && mods.v[2].off_hi == 0x2000);
	assert_int_equal(mods.n, 6);
}

/*
 * ld.so's whole reserved range mapped, then a library into its tail: the
 * head stays ld.so's; before the library, all of it was.
 */
static void
test_maps(void **state)
{
	char buf[64];

	map(1, 0x10000, 0x8000, 0x1000, "/lib/ld.so", 10, NULL);
	map(1, 0x14000, 0x2000, 0, "/lib/libc.so", 20, NULL);
	map(1, 0x20000, 0x1000, 0, "//anon", 20, NULL);
	assert_string_equal(at(1, 0x15000, 15, buf, sizeof(buf)), "/lib/ld.so+0x6000");
	assert_string_equal(at(1, 0x15000, 25, buf, sizeof(buf)), "/lib/libc.so+0x1000");
	assert_string_equal(at(1, 0x11000, 25, buf, sizeof(buf)), "/lib/ld.so+0x2000");
	assert_string_equal(at(1, 0x17000, 25, buf, sizeof(buf)), "/lib/ld.so+0x8000");
	assert_string_equal(at(1, 0x11000, 5, buf, sizeof(buf)), "[unknown]@0x11000");
	assert_string_equal(at(1, 0x20010, 25, buf, sizeof(buf)), "//anon@0x20010");
	assert_string_equal(at(9, 0x11000, 25, buf, sizeof(buf)), "[unknown]@0x11000");
	assert_non_null(bt_machine_find(m, 1, 0x14000, 20));
	assert_null(bt_machine_find(m, 1, 0x18000, 20));
}

/* Count pid's mappings at t (each_map). */
static bool
count_map(void *arg, const struct bt_map *map)
{
	(*(size_t *)arg)++;
	return true;
}

/* A child runs its parent's code (at the fork) until it execs, then its own. */
static void
test_fork_exec(void **state)
{
	uint64_t gen;
	size_t n = 0;
	char buf[64];

	map(1, 0x10000, 0x1000, 0, "/bin/parent", 10, NULL);
	gen = bt_machine_generation(m);
	fork_at(2, 1, 2, 20);
	assert_true(bt_machine_generation(m) != gen);
	map(1, 0x10000, 0x1000, 0, "/bin/later", 25, NULL);	/* the parent's, after the fork */
	assert_string_equal(at(2, 0x10010, 30, buf, sizeof(buf)), "/bin/parent+0x10");
	assert_string_equal(at(1, 0x10010, 30, buf, sizeof(buf)), "/bin/later+0x10");
	comm(2, 2, "child", true, 40);
	map(2, 0x30000, 0x1000, 0, "/bin/child", 41, NULL);
	assert_string_equal(at(2, 0x10010, 45, buf, sizeof(buf)), "[unknown]@0x10010");
	assert_string_equal(at(2, 0x30010, 45, buf, sizeof(buf)), "/bin/child+0x10");
	assert_string_equal(at(2, 0x10010, 35, buf, sizeof(buf)), "/bin/parent+0x10");
	bt_machine_each_map(m, 2, 35, count_map, &n);
	assert_int_equal(n, 1);	/* the parent's, at the fork */
	n = 0;
	bt_machine_each_map(m, 2, 45, count_map, &n);
	assert_int_equal(n, 1);
	/* a thread shares its process's mappings */
	fork_at(1, 1, 7, 50);
	assert_string_equal(at(1, 0x10010, 55, buf, sizeof(buf)), "/bin/later+0x10");
}

static void
test_threads(void **state)
{
	uint32_t pid;

	comm(1, 1, "bench", true, 5);
	fork_at(1, 1, 3, 6);
	comm(1, 3, "worker", false, 7);
	assert_string_equal(bt_machine_thread(m, 3, &pid), "worker");
	assert_int_equal(pid, 1);
	assert_string_equal(bt_machine_thread(m, 1, &pid), "bench");
	assert_null(bt_machine_thread(m, 99, &pid));
	assert_int_equal(pid, 0);
}

static void
put(FILE *f, const void *p, size_t n)
{
	assert_int_equal(fwrite(p, 1, n, f), n);
}

/* A jitdump of pid 42 at path: one load of code at addr at time t. */
static void
jitdump(const char *path, uint64_t t, uint64_t addr, const char *name)
{
	static const uint8_t code[] = { 0x55, 0x48, 0x89, 0xe5, 0x31, 0xc0, 0x5d, 0xc3 };
	uint32_t hdr[10] = { BT_JITDUMP_MAGIC, 1, 40, EM_X86_64, 0, 42 };
	uint32_t id = 0, size = (uint32_t)(16 + 40 + strlen(name) + 1 + sizeof(code));
	uint32_t pid = 42, tid = 42;
	uint64_t size64 = sizeof(code), index = 1;
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	put(f, hdr, 40);
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
	put(f, code, sizeof(code));
	fclose(f);
}

/*
 * JIT code: pid 42's sources kept next to the recording (REC.jit/): its
 * jitdump answers first, its perf map where the dump has nothing; each
 * piece of code is a module of its own, found again; anonymous memory no
 * source covers is counted, and noted at the end. A call chain's frame
 * (bt_machine_resolve_frame) is found the same way, and counts nothing.
 */
static void
test_jit(void **state)
{
	char dir[] = "/tmp/bt-mach.XXXXXX", rec[64], jd[96], pm[96];
	uint32_t mod, mod2;
	uint64_t off;
	char **notes;
	size_t n, i;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(rec, sizeof(rec), "%s/rec.data", dir);
	snprintf(jd, sizeof(jd), "%s.jit", rec);
	assert_int_equal(mkdir(jd, 0700), 0);
	snprintf(jd, sizeof(jd), "%s.jit/jit-42.dump", rec);
	snprintf(pm, sizeof(pm), "%s.jit/perf-42.map", rec);
	jitdump(jd, 100, 0x10000, "JS:*hot");
	f = fopen(pm, "w");
	assert_non_null(f);
	fputs("10000 8 mapname\n20000 10 stub\n28000 8 caller\n", f);
	fclose(f);
	bt_machine_set_jit(m, rec, true);
	map(42, 0x10000, 0x30000, 0, "//anon", 10, NULL);
	/* a frame first: the module is made, the load is not "with samples" yet */
	bt_machine_resolve_frame(m, 42, 0x10002, 200, &mod2, &off);
	assert_int_equal(bt_machine_module(m, mod2)->kind, BT_MOD_JIT);
	assert_int_equal(off, BT_JIT_ELF_TEXT + 2);
	bt_machine_resolve_code(m, 42, 0x10004, 200, &mod, &off);
	assert_int_equal(mod, mod2);
	assert_int_equal(bt_machine_module(m, mod)->kind, BT_MOD_JIT);
	assert_string_equal(bt_machine_module(m, mod)->jit_name, "JS:*hot");
	assert_int_equal(off, BT_JIT_ELF_TEXT + 4);
	/* code only frames fall in: named, not counted as sampled */
	bt_machine_resolve_frame(m, 42, 0x28004, 300, &mod2, &off);
	assert_string_equal(bt_machine_module(m, mod2)->jit_name, "caller");
	/* a frame in anonymous memory no source covers: not counted */
	bt_machine_resolve_frame(m, 42, 0x2c000, 300, &mod2, &off);
	assert_int_equal(bt_machine_module(m, mod2)->kind, BT_MOD_ANON);
	bt_machine_resolve_code(m, 42, 0x10006, 300, &mod2, &off);
	assert_int_equal(mod2, mod);
	bt_machine_resolve_code(m, 42, 0x20008, 300, &mod2, &off);
	assert_string_equal(bt_machine_module(m, mod2)->jit_name, "stub");
	assert_null(bt_machine_module(m, mod2)->jit->code);
	/* anonymous memory no source covers: the address, counted */
	bt_machine_resolve_code(m, 42, 0x30000, 300, &mod2, &off);
	assert_int_equal(bt_machine_module(m, mod2)->kind, BT_MOD_ANON);
	assert_int_equal(off, 0x30000);
	/* the plain lookup (the unwinder's mappings) does not look for JIT code */
	bt_machine_resolve(m, 42, 0x10004, 200, &mod2, &off);
	assert_int_equal(bt_machine_module(m, mod2)->kind, BT_MOD_ANON);
	bt_machine_jit_finish(m, 50);
	n = bt_machine_take_notes(m, &notes);
	assert_int_equal(n, 3);
	assert_non_null(strstr(notes[0], "1 loads in"));
	assert_non_null(strstr(notes[0], "1 with samples"));
	assert_non_null(strstr(notes[1], "3 entries in"));
	assert_non_null(strstr(notes[1], "1 with samples"));
	assert_non_null(strstr(notes[2], "1 samples in anonymous memory of process 42"));
	for (i = 0; i < n; i++)
		free(notes[i]);
	free(notes);
	unlink(jd);
	unlink(pm);
	snprintf(jd, sizeof(jd), "%s.jit", rec);
	rmdir(jd);
	rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_modules, setup, teardown),
		cmocka_unit_test_setup_teardown(test_maps, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fork_exec, setup, teardown),
		cmocka_unit_test_setup_teardown(test_threads, setup, teardown),
		cmocka_unit_test_setup_teardown(test_jit, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
