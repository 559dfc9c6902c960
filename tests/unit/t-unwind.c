/*
 * Unit tests: core/unwind on this very process. capture() (no frame)
 * snapshots its registers and the stack above them, as a perf sample
 * would, from inside level2() and level1() (both with frame pointers);
 * the kernel's frame-pointer walk is replayed on the copy. The DWARF chain
 * must name the return addresses each function saw, through libdwfl's
 * frame walk and the cached rows alike, and every splice rule must give
 * the chain its documentation promises when the copy is cut short.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base.h"
#include "machine/machine.h"
#include "perf/perfdata.h"
#include "unwind/unwind.h"

#define COPY 8192

static struct {
	uint64_t regs[3];	/* BP, SP, IP: mask order */
	uint8_t stack[COPY];
	size_t size;
	uint64_t ra_capture, ra_level2, ra_level1;
} snap;

static uint64_t stack_end;

/* The top of this thread's stack, from /proc/self/maps. */
static uint64_t
find_stack_end(uint64_t sp)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	uint64_t lo, hi, end = 0;

	while (f != NULL && fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && lo <= sp && sp < hi)
			end = hi;
	if (f != NULL)
		fclose(f);
	return end;
}

/* A copy the sanitizers do not look at: it crosses other frames' redzones. */
__attribute__((noipa, no_sanitize_address)) static void
copy_stack(uint8_t *dst, const volatile uint8_t *src, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		dst[i] = src[i];
}

__attribute__((noipa, optimize("omit-frame-pointer"))) static void
capture(void)
{
	uint64_t sp, bp, ip;

	/* ip: the next instruction, where rsp is still sp */
	__asm__ volatile("mov %%rsp, %0\n\tmov %%rbp, %1\n\tlea 0(%%rip), %2"
	    : "=r"(sp), "=r"(bp), "=r"(ip));
	snap.regs[0] = bp;
	snap.regs[1] = sp;
	snap.regs[2] = ip;
	if (stack_end == 0)
		stack_end = find_stack_end(sp);
	snap.size = BT_MIN(COPY, stack_end - sp);
	copy_stack(snap.stack, (const volatile uint8_t *)sp, snap.size);
	snap.ra_capture = (uint64_t)__builtin_return_address(0);
}

__attribute__((noipa, optimize("no-omit-frame-pointer"))) static void
level2(void)
{
	capture();
	snap.ra_level2 = (uint64_t)__builtin_return_address(0);
}

__attribute__((noipa, optimize("no-omit-frame-pointer"))) static void
level1(void)
{
	level2();
	snap.ra_level1 = (uint64_t)__builtin_return_address(0);
}

/* The machine the tests unwind on: this process, and what they add. */
static struct bt_modules mods;
static struct bt_machine *machine;

/* A side-band record into the machine, as core/perf's stream gives it. */
static void
side(struct bt_pd_event *ev, uint64_t time)
{
	uint32_t module;

	ev->time = time;
	ev->has_time = true;
	if (bt_machine_read(machine, ev, &module))
		bt_machine_apply(machine, ev, module);
}

/* An executable mapping of pid at time. */
static void
map(uint32_t pid, uint64_t start, uint64_t len, uint64_t pgoff,
    const char *path, uint64_t time)
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
	side(&ev, time);
}

/* This process's executable mappings, as process pid's, from time 0. */
static void
self_maps(uint32_t pid)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[1024], perm[8], path[512];
	uint64_t lo, hi, off;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f) != NULL) {
		path[0] = '\0';
		if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %511s", &lo, &hi, perm,
		    &off, path) >= 4 && perm[2] == 'x')
			map(pid, lo, hi - lo, off, path, 0);
	}
	fclose(f);
}

/* This process's executable mappings, in a new machine, from time 0. */
static struct bt_unwind_space *
self_space(void)
{
	bt_machine_free(machine);
	bt_modules_release(&mods);
	machine = bt_machine_new(&mods);
	self_maps((uint32_t)getpid());
	return bt_unwind_space_new(machine, (uint32_t)getpid());
}

static void
regs_of_snap(struct bt_unwind_regs *r, size_t size)
{
	memset(r, 0, sizeof(*r));
	r->abi = PERF_SAMPLE_REGS_ABI_64;
	r->mask = BT_UNWIND_REGS_HYBRID;
	r->regs = snap.regs;
	r->stack = snap.stack;
	r->stack_size = BT_MIN(size, snap.size);
	r->tid = (uint32_t)getpid();
	r->time = 1;
}

/* The kernel's walk on the copy: fp[0] the ip, then [bp + 8] up the bp chain. */
static size_t
fp_walk(uint64_t *fp, size_t max)
{
	uint64_t bp = snap.regs[0], sp = snap.regs[1];
	size_t n = 0;

	fp[n++] = snap.regs[2];
	while (n < max && bp >= sp && bp + 16 <= sp + snap.size) {
		memcpy(&fp[n++], snap.stack + (bp + 8 - sp), 8);
		memcpy(&bp, snap.stack + (bp - sp), 8);
	}
	return n;
}

static void
test_dwarf_self(void **state)
{
	struct bt_unwind_space *s;
	struct bt_unwind_regs r;
	struct bt_unwind_result res, res2;
	uint64_t ips[64], ips2[64];
	int n, n2;

	level1();
	s = self_space();
	regs_of_snap(&r, COPY);
	n = bt_unwind_dwarf(s, &r, ips, 64, &res, NULL);
	assert_true(n >= 4);
	assert_int_equal(ips[0], snap.regs[2]);
	assert_int_equal(ips[1], snap.ra_capture);
	assert_int_equal(ips[2], snap.ra_level2);
	assert_int_equal(ips[3], snap.ra_level1);
	assert_int_equal(res.ncfi, (size_t)n);

	/* libdwfl's own frame walk: the same chain */
	bt_unwind_space_set_flags(s, BT_UNWIND_LIBDW);
	n2 = bt_unwind_dwarf(s, &r, ips2, 64, &res2, NULL);
	assert_int_equal(n2, n);
	assert_memory_equal(ips, ips2, (size_t)n * sizeof(*ips));
	assert_int_equal(res2.end, res.end);
	assert_true(bt_unwind_space_stats(s)->libdw >= 1);

	/* max frames */
	bt_unwind_space_set_flags(s, 0);
	n2 = bt_unwind_dwarf(s, &r, ips2, 2, &res2, NULL);
	assert_int_equal(n2, 2);
	assert_int_equal(res2.end, BT_UNWIND_END_FRAMES);

	/* a copy that ends inside capture's frame: the leaf alone */
	regs_of_snap(&r, 0);
	n2 = bt_unwind_dwarf(s, &r, ips2, 64, &res2, NULL);
	assert_int_equal(n2, 1);
	assert_int_equal(res2.end, BT_UNWIND_END_STACK);
	bt_unwind_space_free(s);
}

/*
 * Two processes of an unwinder that run the same files (a fork, the
 * second cc1 of a build): the second reads none of its rows through
 * libdw (the first's are the file's), and its chain is the same.
 */
static void
test_shared_rows(void **state)
{
	const uint32_t other = 2;
	struct bt_unwind_space *a, *b;
	struct bt_unwind_regs r;
	struct bt_unwind_result res, res2;
	struct bt_unwind_stats st;
	struct bt_unwinder *u;
	uint64_t ips[64], ips2[64];
	int n, n2;

	level1();
	bt_unwind_space_free(self_space());
	self_maps(other);
	u = bt_unwinder_new(machine);
	a = bt_unwinder_space(u, (uint32_t)getpid());
	b = bt_unwinder_space(u, other);
	regs_of_snap(&r, COPY);
	n = bt_unwind_dwarf(a, &r, ips, 64, &res, NULL);
	assert_true(n >= 4);
	assert_true(bt_unwind_space_stats(a)->rules >= 4);
	assert_int_equal(bt_unwind_space_stats(a)->shared, 0);
	n2 = bt_unwind_dwarf(b, &r, ips2, 64, &res2, NULL);
	assert_int_equal(n2, n);
	assert_memory_equal(ips, ips2, (size_t)n * sizeof(*ips));
	assert_int_equal(res2.end, res.end);
	assert_int_equal(bt_unwind_space_stats(b)->rules,
	    bt_unwind_space_stats(a)->rules);
	assert_int_equal(bt_unwind_space_stats(b)->shared,
	    bt_unwind_space_stats(b)->rules);
	bt_unwinder_stats(u, &st);
	assert_int_equal(st.shared, bt_unwind_space_stats(b)->rules);
	bt_unwinder_free(u);
}

static void
test_splice_rules(void **state)
{
	struct bt_unwind_space *s;
	struct bt_unwind_regs r;
	struct bt_unwind_result res;
	uint64_t ips[64], fp[8], slot1;
	size_t nfp;
	int n;

	level1();
	s = self_space();
	nfp = fp_walk(fp, 3);
	/* the kernel's walk skips capture's caller: level2's frame comes first */
	assert_int_equal(nfp, 3);
	assert_int_equal(fp[1], snap.ra_level2);
	assert_int_equal(fp[2], snap.ra_level1);
	slot1 = snap.regs[0] + 8 - snap.regs[1];	/* f_1, from sp */

	/* rule 2: the copy ends just below f_1, where CFI must read next */
	regs_of_snap(&r, (size_t)slot1);
	n = bt_unwind_splice(s, &r, fp, nfp, ips, 64, &res, NULL);
	assert_int_equal(res.splice, BT_SPLICE_PENDING);
	assert_int_equal(n, 4);
	assert_int_equal(ips[1], snap.ra_capture);
	assert_int_equal(ips[2], snap.ra_level2);
	assert_int_equal(ips[3], snap.ra_level1);
	assert_int_equal(res.ncfi, 2);
	assert_int_equal(res.fp_skipped, 1);

	/* rule 2 again one frame up: f_1 in the copy, f_2 just past it */
	regs_of_snap(&r, (size_t)slot1 + 8);
	n = bt_unwind_splice(s, &r, fp, nfp, ips, 64, &res, NULL);
	assert_int_equal(res.splice, BT_SPLICE_PENDING);
	assert_int_equal(n, 4);
	assert_int_equal(ips[1], snap.ra_capture);
	assert_int_equal(ips[3], snap.ra_level1);
	assert_int_equal(res.ncfi, 3);

	/* rule 4: the kernel's chain ends at level1 (fp has 2 entries) and CFI
	   meets it there, then CFI stops on a frame without usable rows: here
	   the copy is whole, so rule 3 or 4 must keep the CFI frames */
	regs_of_snap(&r, COPY);
	n = bt_unwind_splice(s, &r, fp, 2, ips, 64, &res, NULL);
	assert_true(n >= 4);
	assert_int_equal(ips[2], snap.ra_level2);
	assert_int_equal(ips[3], snap.ra_level1);

	/* rule 5 (GAP): nothing but the leaf in the copy; the kernel's frames
	   above it follow, capture's caller is missing */
	regs_of_snap(&r, 0);
	n = bt_unwind_splice(s, &r, fp, nfp, ips, 64, &res, NULL);
	assert_int_equal(res.splice, BT_SPLICE_GAP);
	assert_int_equal(n, 3);
	assert_int_equal(ips[1], snap.ra_level2);
	assert_int_equal(res.ncfi, 1);

	/* rule 5 (CFI_ONLY): no kernel chain past the ip */
	n = bt_unwind_splice(s, &r, fp, 1, ips, 64, &res, NULL);
	assert_int_equal(res.splice, BT_SPLICE_CFI_ONLY);
	assert_int_equal(n, 1);

	/* rule 1: no registers: the kernel's chain as it is */
	r.abi = PERF_SAMPLE_REGS_ABI_NONE;
	n = bt_unwind_splice(s, &r, fp, nfp, ips, 64, &res, NULL);
	assert_int_equal(res.splice, BT_SPLICE_FP);
	assert_int_equal(n, 3);
	assert_memory_equal(ips, fp, 3 * sizeof(*fp));
	bt_unwind_space_free(s);
}

static void
test_callchain_split(void **state)
{
	const uint64_t cc[] = {
		(uint64_t)PERF_CONTEXT_KERNEL, 0xffffffff81000010ULL, 0xffffffff81000020ULL,
		(uint64_t)PERF_CONTEXT_USER, 0x401000, 0x401100, 0x401200,
	};
	const uint64_t bare[] = { 0x401000, 0x401100 };
	struct bt_callchain c;

	bt_callchain_split(cc, 7, &c);
	assert_int_equal(c.nkernel, 2);
	assert_int_equal(c.kernel[0], 0xffffffff81000010ULL);
	assert_int_equal(c.nuser, 3);
	assert_int_equal(c.user[0], 0x401000);
	assert_int_equal(c.user[2], 0x401200);
	bt_callchain_split(cc + 3, 4, &c);
	assert_int_equal(c.nkernel, 0);
	assert_int_equal(c.nuser, 3);
	/* no markers: taken as the kernel's (perf's reading) */
	bt_callchain_split(bare, 2, &c);
	assert_int_equal(c.nkernel, 2);
	assert_int_equal(c.nuser, 0);
	bt_callchain_split(NULL, 0, &c);
	assert_int_equal(c.nkernel + c.nuser, 0);
}

static void
test_regs(void **state)
{
	uint64_t regs[3] = { 11, 22, 33 }, v = 0;
	struct bt_unwind_regs r = { .abi = PERF_SAMPLE_REGS_ABI_64,
		.mask = BT_UNWIND_REGS_HYBRID, .regs = regs };

	assert_true(bt_unwind_reg(&r, BT_REG_BP, &v) && v == 11);
	assert_true(bt_unwind_reg(&r, BT_REG_SP, &v) && v == 22);
	assert_true(bt_unwind_reg(&r, BT_REG_IP, &v) && v == 33);
	assert_false(bt_unwind_reg(&r, BT_REG_AX, &v));
	assert_false(bt_unwind_reg(&r, 64, &v));
	assert_int_equal(__builtin_popcountll(BT_UNWIND_REGS_ALL), 20);
}

/*
 * The machine's mappings at the sample's time: a forked child runs its
 * parent's code until it execs, then nothing it had; a sample from
 * before the exec still unwinds through the parent's; what has no file
 * ends the chain.
 */
static void
test_space(void **state)
{
	struct bt_unwind_space *s = self_space(), *c;
	struct bt_unwind_regs r;
	struct bt_unwind_result res;
	uint64_t ips[64], junk[2] = { 0, 0 };
	struct bt_error err = { 0 };
	struct bt_pd_event ev;
	int n;

	level1();
	memset(&ev, 0, sizeof(ev));
	ev.type = PERF_RECORD_FORK;
	ev.u.task.pid = ev.u.task.tid = 1;
	ev.u.task.ppid = ev.u.task.ptid = (uint32_t)getpid();
	side(&ev, 10);
	c = bt_unwind_space_new(machine, 1);
	regs_of_snap(&r, COPY);
	r.time = 20;
	n = bt_unwind_dwarf(c, &r, ips, 64, &res, NULL);
	assert_true(n >= 4);
	assert_int_equal(ips[3], snap.ra_level1);
	/* exec at 30: no mappings after it, the leaf alone */
	memset(&ev, 0, sizeof(ev));
	ev.type = PERF_RECORD_COMM;
	ev.misc = PERF_RECORD_MISC_COMM_EXEC;
	ev.u.comm.pid = ev.u.comm.tid = 1;
	ev.u.comm.comm = "other";
	side(&ev, 30);
	r.time = 40;
	n = bt_unwind_dwarf(c, &r, ips, 64, &res, NULL);
	assert_int_equal(n, 1);
	assert_int_equal(res.end, BT_UNWIND_END_NOCFI);
	/* before the exec, the parent's code still */
	r.time = 20;
	n = bt_unwind_dwarf(c, &r, ips, 64, &res, NULL);
	assert_true(n >= 4);
	assert_int_equal(ips[3], snap.ra_level1);
	/* a mapping over the code, of a file that is not ELF: chains stop */
	map(1, snap.regs[2] & ~0xfffULL, 4096, 0, "/proc/self/status", 50);
	map(1, 0x1000, 4096, 0, "//anon", 50);
	map(1, 0x2000, 4096, 0, "[stack]", 50);
	r.time = 60;
	n = bt_unwind_dwarf(c, &r, ips, 64, &res, NULL);
	assert_int_equal(n, 1);
	bt_unwind_space_free(c);
	/* 32-bit registers are refused with a message */
	r.abi = PERF_SAMPLE_REGS_ABI_32;
	n = bt_unwind_dwarf(s, &r, ips, 64, &res, &err);
	assert_int_equal(n, -BT_ENOTSUP);
	assert_true(strstr(err.msg, "x86-64") != NULL);
	/* no registers at all */
	r.abi = PERF_SAMPLE_REGS_ABI_NONE;
	r.regs = junk;
	n = bt_unwind_dwarf(s, &r, ips, 64, &res, NULL);
	assert_int_equal(n, 0);
	assert_int_equal(res.end, BT_UNWIND_END_NOREGS);
	bt_unwind_space_free(s);
}

static int
teardown(void **state)
{
	bt_machine_free(machine);
	bt_modules_release(&mods);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regs),
		cmocka_unit_test(test_callchain_split),
		cmocka_unit_test(test_dwarf_self),
		cmocka_unit_test(test_shared_rows),
		cmocka_unit_test(test_splice_rules),
		cmocka_unit_test(test_space),
	};

	return cmocka_run_group_tests(tests, NULL, teardown);
}
