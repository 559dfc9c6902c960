/*
 * Unit tests: LBR call stacks read as call chains (core/profile/lbr.c,
 * docs/callchains.md "LBR call stacks"), as perf report reads them:
 *   - bt_lbr_chain on samples in both byte orders, with and without
 *     hw_idx: entries[0].to then every from, innermost first; the
 *     frame-pointer user frames never; -1 without a user part, 0 for an
 *     empty stack, max respected;
 *   - a session on a recording of tests/fixtures/lbr.c written here, whose
 *     frame-pointer user frames are wrong where the stack is right: exact
 *     inclusive samples and callers (a tail call's target is the leaf's
 *     caller; a full stack loses the outer callers, as in perf).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <byteswap.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "base.h"
#include "benchtui/profile.h"
#include "benchtui/selection.h"
#include "benchtui/session.h"
#include "elf-funcs.h"
#include "perf/perfdata.h"
#include "perf/sample.h"
#include "profile/chains.h"
#include "synth.h"

#define KIP 0xffffffff81000010ULL

struct rec {
	uint64_t w[256];
	size_t n;
};

static void
put(struct rec *r, uint64_t v)
{
	r->w[r->n++] = v;
}

/* IP|TID|TIME|CALLCHAIN|BRANCH_STACK, then the chain and the stack */
static void
lbr_attr(struct perf_event_attr *a, bool hw_idx)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_CPU_CLOCK;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
	    PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_BRANCH_STACK;
	a->branch_sample_type = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK |
	    PERF_SAMPLE_BRANCH_NO_FLAGS | PERF_SAMPLE_BRANCH_NO_CYCLES |
	    (hw_idx ? PERF_SAMPLE_BRANCH_HW_INDEX : 0);
	a->freq = 1;
	a->sample_freq = 4000;
	a->sample_id_all = 1;
	a->mmap = a->mmap2 = a->comm = a->task = 1;
}

/*
 * A sample record: chain[0..nc) as the callchain, br[0..nbr) (from, to)
 * pairs as the stack; words in native order (swapped by the caller).
 */
static void
build(struct rec *r, bool hw_idx, uint16_t misc, uint64_t ip, uint64_t time,
      const uint64_t *chain, size_t nc, const uint64_t (*br)[2], size_t nbr)
{
	size_t i;

	r->n = 0;
	put(r, 0);	/* header: below */
	put(r, ip);
	put(r, (uint64_t)4242 << 32 | 4242);
	put(r, time);
	put(r, 250000);
	put(r, nc);
	for (i = 0; i < nc; i++)
		put(r, chain[i]);
	put(r, nbr);
	if (hw_idx)
		put(r, nbr ? nbr - 1 : 0);
	for (i = 0; i < nbr; i++) {
		put(r, br[i][0]);
		put(r, br[i][1]);
		put(r, 0);
	}
	r->w[0] = (uint64_t)(r->n * 8) << 48 | (uint64_t)misc << 32 | PERF_RECORD_SAMPLE;
}

static int
chain_of(bool hw_idx, bool swap, const uint64_t *chain, size_t nc,
	 const uint64_t (*br)[2], size_t nbr, uint64_t *ips, size_t max)
{
	struct perf_event_attr a;
	struct bt_perf_layout l;
	struct bt_perf_sample s;
	struct rec r;
	uint8_t bytes[sizeof(r.w)];
	size_t i;

	lbr_attr(&a, hw_idx);
	bt_perf_layout_init(&l, &a);
	assert_true(bt_lbr_callstack(&l));
	build(&r, hw_idx, PERF_RECORD_MISC_USER, chain[1], 1, chain, nc, br, nbr);
	memcpy(bytes, r.w, r.n * 8);
	if (swap) {
		/* the header's u32 type and u16 misc, size; then u64 words */
		uint32_t type = bswap_32(PERF_RECORD_SAMPLE);
		uint16_t misc = bswap_16(PERF_RECORD_MISC_USER);
		uint16_t size = bswap_16((uint16_t)(r.n * 8));
		memcpy(bytes, &type, 4);
		memcpy(bytes + 4, &misc, 2);
		memcpy(bytes + 6, &size, 2);
		for (i = 1; i < r.n; i++) {
			uint64_t v = bswap_64(r.w[i]);
			memcpy(bytes + i * 8, &v, 8);
		}
		/* pid and tid are two u32 */
		{
			uint32_t p = bswap_32(4242);
			memcpy(bytes + 16, &p, 4);
			memcpy(bytes + 20, &p, 4);
		}
	}
	assert_int_equal(bt_perf_sample_parse(&l, bytes, r.n * 8, swap, &s), 0);
	return bt_lbr_chain(&s, ips, max);
}

static void
test_chain(void **state)
{
	/* user sample: the frame-pointer frames (0x111, 0x222) are not used */
	static const uint64_t user[] = { PERF_CONTEXT_USER, 0x1010, 0x111, 0x222 };
	static const uint64_t kern[] = { PERF_CONTEXT_KERNEL, KIP, KIP + 8,
		PERF_CONTEXT_USER, 0x1010, 0x111 };
	static const uint64_t konly[] = { PERF_CONTEXT_KERNEL, KIP };
	static const uint64_t br[][2] = { { 0x2004, 0x1000 }, { 0x3008, 0x2000 },
		{ 0x400c, 0x3000 } };
	uint64_t ips[8];
	int v;

	for (v = 0; v < 4; v++) {
		bool hw = v & 1, swap = v & 2;

		memset(ips, 0, sizeof(ips));
		assert_int_equal(chain_of(hw, swap, user, 4, br, 3, ips, 8), 4);
		assert_int_equal(ips[0], 0x1000);	/* entries[0].to */
		assert_int_equal(ips[1], 0x2004);	/* then every from */
		assert_int_equal(ips[2], 0x3008);
		assert_int_equal(ips[3], 0x400c);
		/* a kernel sample: no kernel frame, no interrupted user ip */
		assert_int_equal(chain_of(hw, swap, kern, 6, br, 2, ips, 8), 3);
		assert_int_equal(ips[0], 0x1000);
		assert_int_equal(ips[1], 0x2004);
		assert_int_equal(ips[2], 0x3008);
		/* no user part: the callchain as it is */
		assert_int_equal(chain_of(hw, swap, konly, 2, br, 3, ips, 8), -1);
		/* an empty stack */
		assert_int_equal(chain_of(hw, swap, user, 4, br, 0, ips, 8), 0);
		/* max */
		assert_int_equal(chain_of(hw, swap, user, 4, br, 3, ips, 2), 2);
		assert_int_equal(ips[1], 0x2004);
	}
}

static void
test_callstack(void **state)
{
	struct perf_event_attr a;
	struct bt_perf_layout l;

	lbr_attr(&a, true);
	bt_perf_layout_init(&l, &a);
	assert_true(bt_lbr_callstack(&l));
	/* branch sampling (perf record -b): not a call stack */
	a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER;
	bt_perf_layout_init(&l, &a);
	assert_false(bt_lbr_callstack(&l));
	/* a call stack without callchains: perf reads no chain either */
	lbr_attr(&a, true);
	a.sample_type &= ~(uint64_t)PERF_SAMPLE_CALLCHAIN;
	bt_perf_layout_init(&l, &a);
	assert_false(bt_lbr_callstack(&l));
}

/* --- a session on a written recording ------------------------------------ */

#define BASE 0x555555554000ULL

struct sym {
	const char *name;
	uint64_t addr;
};

static struct sym syms[] = {
	{ "spin", 0 }, { "shallow", 0 }, { "tail", 0 }, { "main", 0 },
	{ "deep_1", 0 }, { "deep_2", 0 }, { "deep_3", 0 }, { "deep_9", 0 },
	{ "deep_10", 0 },
};

static void
find_sym(uint64_t start, uint64_t size, const char *name, void *arg)
{
	size_t i;

	(void)size;
	(void)arg;
	for (i = 0; i < BT_ARRAY_SIZE(syms); i++)
		if (strcmp(name, syms[i].name) == 0)
			syms[i].addr = BASE + start;
}

static uint64_t
at(const char *name, uint64_t off)
{
	size_t i;

	for (i = 0; i < BT_ARRAY_SIZE(syms); i++)
		if (strcmp(name, syms[i].name) == 0) {
			assert_true(syms[i].addr != 0);
			return syms[i].addr + off;
		}
	fail();
	return 0;
}

static void
emit(struct bt_pd_writer *w, int count, uint16_t misc, uint64_t ip,
     const uint64_t *chain, size_t nc, const uint64_t (*br)[2], size_t nbr,
     uint64_t *t)
{
	struct rec r;
	int k;

	for (k = 0; k < count; k++) {
		build(&r, true, misc, ip, *t += 250000, chain, nc, br, nbr);
		assert_int_equal(bt_pd_write(w, r.w, r.n * 8, NULL), 0);
	}
}

static uint64_t
callers_of(struct bt_selection *s, long fi, const char *caller)
{
	const struct bt_func_edge *e;
	size_t n = bt_selection_callers(s, (size_t)fi, &e), i;

	for (i = 0; i < n; i++)
		if (strcmp(bt_selection_func(s, e[i].func)->name, caller) == 0)
			return e[i].samples;
	return 0;
}

static uint64_t
inclusive(struct bt_selection *s, const char *name)
{
	long i = bt_selection_find(s, name);

	return i < 0 ? 0 : bt_selection_func(s, (size_t)i)->inclusive;
}

static void
test_session(void **state)
{
	char dir[] = "/tmp/bt-lbr.XXXXXX", bin[PATH_MAX], out[PATH_MAX + 16];
	struct bt_error err = { 0 };
	struct bt_pd_attr a;
	struct bt_pd_features f;
	struct bt_pd_writer *w;
	struct bt_profile *p;
	struct bt_selection *s;
	uint64_t ids[1] = { 1 }, t = 1000000000ULL, map_start = 0, map_len = 0,
	    pgoff = 0, ip;
	long spin;
	Elf *e;

	assert_int_equal(test_tmpdir(dir), 0);
	if (test_compile(dir, "lbr", "lbr.c", "-O2 -g -fno-omit-frame-pointer",
	    bin, sizeof(bin)) < 0) {
		test_rmdir(dir);
		skip();
	}
	e = tool_open_elf(bin);
	assert_non_null(e);
	assert_true(tool_elf_funcs(e, find_sym, NULL) > 0);
	assert_int_equal(tool_exec_mapping(e, BASE, &map_start, &map_len, &pgoff), 0);
	elf_end(e);
	memset(&a, 0, sizeof(a));
	lbr_attr(&a.attr, true);
	a.name = (char *)"cpu-clock";
	a.ids = ids;
	a.nids = 1;
	snprintf(out, sizeof(out), "%s/lbr.data", dir);
	w = bt_pd_create(out, &a, 1, &err);
	assert_non_null(w);
	assert_int_equal(synth_mmap2(w, 4242, map_start, map_len, pgoff, bin, t), 0);
	ip = at("spin", 0x10);
	{
		/* A: spin <- shallow <- main; the frame-pointer frames lie */
		uint64_t c[] = { PERF_CONTEXT_USER, ip, at("deep_9", 4), at("deep_10", 4) };
		uint64_t b[][2] = { { at("shallow", 4), at("spin", 0) },
			{ at("main", 8), at("shallow", 0) } };
		emit(w, 30, PERF_RECORD_MISC_USER, ip, c, 4, b, 2, &t);
	}
	{
		/* B: main called tail, which jumped to spin: to is tail */
		uint64_t c[] = { PERF_CONTEXT_USER, ip };
		uint64_t b[][2] = { { at("main", 12), at("tail", 0) } };
		emit(w, 20, PERF_RECORD_MISC_USER, ip, c, 2, b, 1, &t);
	}
	{
		/* C: a full stack (2 entries): deep_3 and main are lost, as in perf */
		uint64_t c[] = { PERF_CONTEXT_USER, ip, at("deep_1", 4), at("deep_2", 4),
			at("deep_3", 4), at("main", 16) };
		uint64_t b[][2] = { { at("deep_1", 4), at("spin", 0) },
			{ at("deep_2", 4), at("deep_1", 0) } };
		emit(w, 10, PERF_RECORD_MISC_USER, ip, c, 6, b, 2, &t);
	}
	{
		/* D: kernel samples over A's stack */
		uint64_t c[] = { PERF_CONTEXT_KERNEL, KIP, PERF_CONTEXT_USER, ip,
			at("deep_9", 4) };
		uint64_t b[][2] = { { at("shallow", 4), at("spin", 0) },
			{ at("main", 8), at("shallow", 0) } };
		emit(w, 5, PERF_RECORD_MISC_KERNEL, KIP, c, 5, b, 2, &t);
	}
	{
		/* E: an empty stack: no caller (the frame pointers are not read) */
		uint64_t c[] = { PERF_CONTEXT_USER, ip, at("shallow", 4), at("main", 8) };
		emit(w, 3, PERF_RECORD_MISC_USER, ip, c, 4, NULL, 0, &t);
	}
	{
		/* F: kernel samples without a user part: the kernel alone */
		uint64_t c[] = { PERF_CONTEXT_KERNEL, KIP };
		uint64_t b[][2] = { { at("shallow", 4), at("spin", 0) } };
		emit(w, 2, PERF_RECORD_MISC_KERNEL, KIP, c, 2, b, 1, &t);
	}
	memset(&f, 0, sizeof(f));
	f.first_sample_time = 1000000000ULL;
	f.last_sample_time = t;
	assert_int_equal(bt_pd_finish(w, &f, &err), 0);

	p = bt_profile_open(out, &err);
	assert_non_null(p);
	s = test_select(bt_session_new(p, NULL, &err));
	assert_non_null(s);
	assert_true(bt_session_has_chains(bt_selection_session(s)));
	assert_int_equal(bt_selection_samples(s), 70);
	spin = bt_selection_find(s, "spin");
	assert_true(spin >= 0);
	assert_int_equal(bt_selection_func(s, (size_t)spin)->samples, 63);
	assert_int_equal(inclusive(s, "spin"), 68);	/* + D's 5 */
	assert_int_equal(inclusive(s, "shallow"), 35);
	assert_int_equal(inclusive(s, "tail"), 20);
	assert_int_equal(inclusive(s, "main"), 55);	/* A, B, D: not C */
	assert_int_equal(inclusive(s, "deep_1"), 10);
	assert_int_equal(inclusive(s, "deep_2"), 10);
	assert_int_equal(inclusive(s, "deep_3"), 0);
	assert_int_equal(inclusive(s, "deep_9"), 0);
	assert_int_equal(inclusive(s, "deep_10"), 0);
	assert_int_equal(callers_of(s, spin, "shallow"), 35);
	assert_int_equal(callers_of(s, spin, "tail"), 20);
	assert_int_equal(callers_of(s, spin, "deep_1"), 10);
	assert_int_equal(callers_of(s, spin, "deep_9"), 0);
	assert_int_equal(callers_of(s, bt_selection_find(s, "tail"), "main"), 20);
	assert_int_equal(callers_of(s, bt_selection_find(s, "deep_1"), "deep_2"), 10);
	test_close(s);
	test_rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chain),
		cmocka_unit_test(test_callstack),
		cmocka_unit_test(test_session),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
