/*
 * Unit tests: the sample layout (core/perf/sample.c). A record with every
 * PERF_SAMPLE_* field is assembled in the order of linux/perf_event.h, in
 * both byte orders, and every field must come back; every truncation must
 * be refused; the sample_id trailer likewise.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <byteswap.h>
#include <string.h>

#include "base.h"
#include "perf/sample.h"

struct rec {
	uint8_t b[2048];
	size_t n;
	bool swap;
};

static void
put64(struct rec *r, uint64_t v)
{
	if (r->swap)
		v = bswap_64(v);
	memcpy(r->b + r->n, &v, 8);
	r->n += 8;
}

static void
put32(struct rec *r, uint32_t v)
{
	if (r->swap)
		v = bswap_32(v);
	memcpy(r->b + r->n, &v, 4);
	r->n += 4;
}

static void
putbytes(struct rec *r, const void *p, size_t n)
{
	memcpy(r->b + r->n, p, n);
	r->n += n;
}

static void
all_fields_attr(struct perf_event_attr *a, bool group)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->sample_type = PERF_SAMPLE_MAX - 1;	/* every bit */
	a->sample_type &= ~(uint64_t)PERF_SAMPLE_WEIGHT_STRUCT;	/* WEIGHT instead */
	a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_ID |
	    PERF_FORMAT_LOST | (group ? PERF_FORMAT_GROUP : PERF_FORMAT_TOTAL_TIME_RUNNING);
	a->branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_HW_INDEX;
	a->sample_regs_user = 0x7;	/* three registers */
	a->sample_regs_intr = 0x5;	/* two */
	a->sample_id_all = 1;
	a->sample_period = 1000;
}

/* Assemble a sample of every field; values are the field's number * 0x100 + k. */
static void
build(struct rec *r, bool group)
{
	static const char raw[] = "raw!";	/* 4 bytes after the u32 size: 8 together */
	static const uint8_t stack[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
	static const uint8_t aux[8] = { 0xa, 0xb, 0xc, 0xd, 0xe, 0xf, 0x1, 0x2 };
	uint64_t i;
	size_t start = r->n;

	put32(r, PERF_RECORD_SAMPLE);
	r->n += 4;	/* misc, size: filled below */
	put64(r, 0xabc);		/* IDENTIFIER */
	put64(r, 0x401000);		/* IP */
	put32(r, 100);			/* pid */
	put32(r, 101);			/* tid */
	put64(r, 123456789);		/* TIME */
	put64(r, 0x7fff0000);		/* ADDR */
	put64(r, 0xabc);		/* ID */
	put64(r, 0xdef);		/* STREAM_ID */
	put32(r, 3);			/* cpu */
	put32(r, 0);			/* res */
	put64(r, 250000);		/* PERIOD */
	if (group) {			/* READ: nr, time_enabled, {value, id, lost} * nr */
		put64(r, 2);
		put64(r, 5000);
		for (i = 0; i < 2; i++) {
			put64(r, 10 + i);
			put64(r, 20 + i);
			put64(r, 30 + i);
		}
	} else {			/* value, enabled, running, id, lost */
		for (i = 0; i < 5; i++)
			put64(r, 40 + i);
	}
	put64(r, 3);			/* CALLCHAIN */
	for (i = 0; i < 3; i++)
		put64(r, 0x500000 + i);
	put32(r, 4);			/* RAW */
	putbytes(r, raw, 4);
	put64(r, 2);			/* BRANCH_STACK: nr, hw_idx, {from, to, flags} */
	put64(r, 7);
	for (i = 0; i < 6; i++)
		put64(r, 0x600000 + i);
	put64(r, PERF_SAMPLE_REGS_ABI_64);	/* REGS_USER */
	for (i = 0; i < 3; i++)
		put64(r, 0x700 + i);
	put64(r, sizeof(stack));	/* STACK_USER: size, data, dyn_size */
	putbytes(r, stack, sizeof(stack));
	put64(r, 12);
	put64(r, 0x77);			/* WEIGHT */
	put64(r, 0x88);			/* DATA_SRC */
	put64(r, 0x99);			/* TRANSACTION */
	put64(r, PERF_SAMPLE_REGS_ABI_64);	/* REGS_INTR */
	for (i = 0; i < 2; i++)
		put64(r, 0x800 + i);
	put64(r, 0x123000);		/* PHYS_ADDR */
	put64(r, 0x42);			/* CGROUP */
	put64(r, 4096);			/* DATA_PAGE_SIZE */
	put64(r, 2 << 20);		/* CODE_PAGE_SIZE */
	put64(r, sizeof(aux));		/* AUX */
	putbytes(r, aux, sizeof(aux));
	{
		uint16_t misc = 0, size = (uint16_t)(r->n - start);
		if (r->swap)
			size = bswap_16(size);
		memcpy(r->b + start + 4, &misc, 2);
		memcpy(r->b + start + 6, &size, 2);
	}
}

static void
check_all(bool group, bool swap)
{
	struct perf_event_attr a;
	struct bt_perf_layout l;
	struct bt_perf_sample s;
	struct rec r = { .n = 0, .swap = swap };
	size_t cut;

	all_fields_attr(&a, group);
	bt_perf_layout_init(&l, &a);
	build(&r, group);
	assert_int_equal(bt_perf_sample_parse(&l, r.b, r.n, swap, &s), 0);
	assert_int_equal(s.present, (1ULL << BT_PF_COUNT) - 1);
	assert_int_equal(s.identifier, 0xabc);
	assert_int_equal(s.ip, 0x401000);
	assert_int_equal(s.pid, 100);
	assert_int_equal(s.tid, 101);
	assert_int_equal(s.time, 123456789);
	assert_int_equal(s.addr, 0x7fff0000);
	assert_int_equal(s.id, 0xabc);
	assert_int_equal(s.stream_id, 0xdef);
	assert_int_equal(s.cpu, 3);
	assert_int_equal(s.period, 250000);
	if (group) {
		assert_int_equal(s.read.n, 2 + 2 * 3);
		assert_int_equal(bt_perf_u64(&s.read, swap, 0), 2);
		assert_int_equal(bt_perf_u64(&s.read, swap, 7), 31);
	} else {
		assert_int_equal(s.read.n, 5);
		assert_int_equal(bt_perf_u64(&s.read, swap, 4), 44);
	}
	assert_int_equal(s.callchain.n, 3);
	assert_int_equal(bt_perf_u64(&s.callchain, swap, 2), 0x500002);
	assert_int_equal(s.raw.n, 4);
	assert_memory_equal(s.raw.data, "raw!", 4);
	assert_int_equal(s.branch.n, 2 * 3);
	assert_int_equal(s.branch_hw_idx, 7);
	assert_int_equal(bt_perf_u64(&s.branch, swap, 5), 0x600005);
	assert_int_equal(s.regs_user_abi, PERF_SAMPLE_REGS_ABI_64);
	assert_int_equal(s.regs_user.n, 3);
	assert_int_equal(bt_perf_u64(&s.regs_user, swap, 2), 0x702);
	assert_int_equal(s.stack.n, 16);
	assert_int_equal(s.stack.data[15], 16);
	assert_int_equal(s.stack_dyn_size, 12);
	assert_int_equal(s.weight, 0x77);
	assert_int_equal(s.data_src, 0x88);
	assert_int_equal(s.transaction, 0x99);
	assert_int_equal(s.regs_intr.n, 2);
	assert_int_equal(bt_perf_u64(&s.regs_intr, swap, 1), 0x801);
	assert_int_equal(s.phys_addr, 0x123000);
	assert_int_equal(s.cgroup, 0x42);
	assert_int_equal(s.data_page_size, 4096);
	assert_int_equal(s.code_page_size, 2 << 20);
	assert_int_equal(s.aux.n, 8);
	assert_int_equal(s.aux.data[7], 2);
	/* every shorter record is refused */
	for (cut = 8; cut < r.n; cut += 4)
		assert_int_equal(bt_perf_sample_parse(&l, r.b, cut, swap, &s), -1);
}

static void
test_all_fields(void **state)
{
	check_all(false, false);
	check_all(true, false);
	check_all(false, true);
	check_all(true, true);
}

/* The offsets perf's fast readers rely on, and id_pos. */
static void
test_fixed_offsets(void **state)
{
	struct perf_event_attr a;
	struct bt_perf_layout l;

	memset(&a, 0, sizeof(a));
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
	    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	a.freq = 1;
	bt_perf_layout_init(&l, &a);
	assert_int_equal(l.off[BT_PF_IP], 8);
	assert_int_equal(l.off[BT_PF_TID], 16);
	assert_int_equal(l.off[BT_PF_TIME], 24);
	assert_int_equal(l.off[BT_PF_CPU], 32);
	assert_int_equal(l.off[BT_PF_PERIOD], 40);
	assert_int_equal(l.fixed_size, 48);
	assert_int_equal(l.id_pos, -1);
	assert_int_equal(l.fixed_period, 1);

	/* perf record's default: IDENTIFIER first, a callchain after PERIOD */
	a.sample_type |= PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_CALLCHAIN;
	a.freq = 0;
	a.sample_period = 10007;
	bt_perf_layout_init(&l, &a);
	assert_int_equal(l.off[BT_PF_IDENTIFIER], 8);
	assert_int_equal(l.off[BT_PF_IP], 16);
	assert_int_equal(l.off[BT_PF_CALLCHAIN], -1);
	assert_int_equal(l.fixed_size, 56);
	assert_int_equal(l.id_pos, 0);
	assert_int_equal(l.fixed_period, 10007);

	/* ID without IDENTIFIER: after IP, TID, TIME, ADDR (perf's id_pos 4) */
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
	    PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_CPU;
	bt_perf_layout_init(&l, &a);
	assert_int_equal(l.id_pos, 4);
}

/*
 * The brief decode reads what the full one does of IP, TID, TIME, CPU and
 * PERIOD, and nothing else; the attribution id and the time likewise.
 */
static void
test_brief(void **state)
{
	struct perf_event_attr a;
	struct bt_perf_layout l;
	struct bt_perf_sample full, brief;
	struct rec r = { .n = 0 };
	uint64_t id;

	memset(&a, 0, sizeof(a));
	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
	    PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU |
	    PERF_SAMPLE_CALLCHAIN;
	a.sample_period = 997;
	a.sample_id_all = 1;
	bt_perf_layout_init(&l, &a);
	put64(&r, 0);	/* header, sized below */
	put64(&r, 77);	/* identifier */
	put64(&r, 0x401234);
	put32(&r, 10);
	put32(&r, 11);
	put64(&r, 123456789);
	put64(&r, 0xdead);
	put32(&r, 3);
	put32(&r, 0);
	put64(&r, 1);	/* callchain: one ip */
	put64(&r, 0x401234);
	r.b[6] = (uint8_t)r.n;
	memset(&brief, 0xa5, sizeof(brief));
	assert_int_equal(bt_perf_sample_parse(&l, r.b, r.n, false, &full), 0);
	assert_int_equal(bt_perf_sample_brief(&l, r.b, r.n, &brief), 0);
	assert_int_equal(brief.ip, full.ip);
	assert_int_equal(brief.pid, 10);
	assert_int_equal(brief.tid, 11);
	assert_int_equal(brief.time, full.time);
	assert_int_equal(brief.cpu, 3);
	assert_int_equal(brief.period, 997);
	assert_true(BT_PF_HAS(&brief, BT_PF_IP) && BT_PF_HAS(&brief, BT_PF_CPU));
	assert_false(BT_PF_HAS(&brief, BT_PF_PERIOD));
	assert_false(BT_PF_HAS(&brief, BT_PF_CALLCHAIN) || BT_PF_HAS(&brief, BT_PF_ADDR));
	assert_int_equal(bt_perf_sample_brief(&l, r.b, l.fixed_size - 1, &brief), -1);
	assert_int_equal(bt_perf_sample_id(&l, r.b, r.n, false, &id), 1);
	assert_int_equal(id, 77);
	assert_int_equal(bt_perf_sample_id(&l, r.b, 15, false, &id), -1);
	assert_int_equal(bt_perf_sample_time(&l, r.b, r.n, false), 123456789);
	assert_int_equal(bt_perf_sample_time(&l, r.b, 33, false), 0);
	a.sample_type &= ~(uint64_t)PERF_SAMPLE_IDENTIFIER;
	bt_perf_layout_init(&l, &a);
	assert_int_equal(bt_perf_sample_id(&l, r.b, r.n, false, &id), 0);
}

static void
test_trailer(void **state)
{
	struct perf_event_attr a;
	struct bt_perf_layout l;
	struct bt_perf_sample s;
	struct rec r = { .n = 0 };

	memset(&a, 0, sizeof(a));
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
	    PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
	    PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_PERIOD;
	a.sample_id_all = 1;
	bt_perf_layout_init(&l, &a);
	assert_int_equal(l.trailer_size, 6 * 8);
	/* an EXIT-like record: header, 24 bytes of body, then the trailer */
	put32(&r, PERF_RECORD_EXIT);
	put32(&r, (uint32_t)(8 + 24 + 48) << 16);
	r.n += 24;
	put32(&r, 7);		/* pid */
	put32(&r, 8);		/* tid */
	put64(&r, 999);		/* time */
	put64(&r, 55);		/* id */
	put64(&r, 66);		/* stream id */
	put32(&r, 1);		/* cpu */
	put32(&r, 0);
	put64(&r, 55);		/* identifier, last in a trailer */
	assert_int_equal(bt_perf_sample_id_parse(&l, r.b, r.n, false, &s), 48);
	assert_int_equal(s.pid, 7);
	assert_int_equal(s.tid, 8);
	assert_int_equal(s.time, 999);
	assert_int_equal(s.id, 55);
	assert_int_equal(s.stream_id, 66);
	assert_int_equal(s.cpu, 1);
	assert_int_equal(s.identifier, 55);
	assert_false(BT_PF_HAS(&s, BT_PF_IP));
	assert_int_equal(bt_perf_sample_id_time(&l, r.b, r.n, false), 999);
	/* too short for its trailer: none */
	assert_int_equal(bt_perf_sample_id_parse(&l, r.b, 40, false, &s), 0);
	assert_int_equal(bt_perf_sample_id_time(&l, r.b, 40, false), 0);
	a.sample_id_all = 0;
	bt_perf_layout_init(&l, &a);
	assert_int_equal(bt_perf_sample_id_parse(&l, r.b, r.n, false, &s), 0);
	assert_int_equal(bt_perf_sample_id_time(&l, r.b, r.n, false), 0);
}

static void
test_event_names(void **state)
{
	struct perf_event_attr a;
	char buf[64];
	uint64_t config;

	memset(&a, 0, sizeof(a));
	assert_int_equal(bt_perf_event_parse("cpu-clock", &a.type, &config), 0);
	a.config = config;
	assert_string_equal(bt_perf_event_name(&a, buf, sizeof(buf)), "cpu-clock");
	assert_int_equal(bt_perf_event_parse("cpu-cycles", &a.type, &config), 0);
	a.config = config;
	assert_string_equal(bt_perf_event_name(&a, buf, sizeof(buf)), "cycles");
	assert_int_equal(bt_perf_event_parse("r1c2", &a.type, &config), 0);
	a.config = config;
	assert_string_equal(bt_perf_event_name(&a, buf, sizeof(buf)), "raw 0x1c2");
	assert_int_equal(bt_perf_event_parse("no-such-event", &a.type, &config), -1);

	/* perf's modifiers (evsel__add_modifiers), for attrs with no EVENT_DESC name */
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_CPU_CYCLES;
	/* counts host and guest, where perf's default excludes the guest */
	assert_string_equal(bt_perf_event_name_full(&a, buf, sizeof(buf)), "cycles:HG");
	a.exclude_guest = 1;	/* perf's default: nothing shown */
	assert_string_equal(bt_perf_event_name_full(&a, buf, sizeof(buf)), "cycles");
	a.exclude_kernel = a.exclude_hv = 1;	/* -e cycles:u */
	assert_string_equal(bt_perf_event_name_full(&a, buf, sizeof(buf)), "cycles:uH");
	a.exclude_guest = 0;
	assert_string_equal(bt_perf_event_name_full(&a, buf, sizeof(buf)), "cycles:u");
	a.exclude_kernel = a.exclude_hv = 0;
	a.precise_ip = 3;
	assert_string_equal(bt_perf_event_name_full(&a, buf, sizeof(buf)), "cycles:ppp");
	a.precise_ip = 2;
	a.exclude_guest = 1;
	assert_string_equal(bt_perf_event_name_full(&a, buf, sizeof(buf)), "cycles:ppH");
	a.precise_ip = 0;
	a.exclude_guest = 0;
	a.exclude_host = 1;	/* -e cycles:G */
	assert_string_equal(bt_perf_event_name_full(&a, buf, sizeof(buf)), "cycles:G");
	a.exclude_host = 0;
	a.exclude_user = a.exclude_kernel = 1;	/* -e cycles:h */
	assert_string_equal(bt_perf_event_name_full(&a, buf, sizeof(buf)), "cycles:h");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_fields),
		cmocka_unit_test(test_fixed_offsets),
		cmocka_unit_test(test_trailer),
		cmocka_unit_test(test_brief),
		cmocka_unit_test(test_event_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
