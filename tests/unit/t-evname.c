/*
 * Unit tests: event names as perf's parser reads them (core/perf/event.c,
 * bt_perf_evname_parse and _match): every name perf prints for an event
 * selects it (cycles:u and cycles:uH, a group's leader), and no other
 * (cycles:u is not cycles, nor cycles:k).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "base.h"
#include "perf/sample.h"

/* Does name select the event recorded as rec with attr a? */
static bool
selects(const char *name, const char *rec, const struct perf_event_attr *a)
{
	struct bt_perf_evname ev;

	if (bt_perf_evname_parse(name, &ev) < 0)
		return false;
	return bt_perf_evname_match(&ev, rec, a, false);
}

static struct perf_event_attr
hw(uint64_t config)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_HARDWARE;
	a.config = config;
	return a;
}

/* cycles:u as perf 6.1 sets it (exclude_guest) and as perf 6.8 may (not). */
static void
test_user(void **state)
{
	struct perf_event_attr a = hw(PERF_COUNT_HW_CPU_CYCLES);
	char buf[64];

	a.exclude_kernel = a.exclude_hv = a.exclude_guest = 1;
	assert_string_equal(bt_perf_event_name_full(&a, buf, sizeof(buf)), "cycles:uH");
	assert_true(selects("cycles:u", "cycles:u", &a));
	assert_true(selects("cycles:uH", "cycles:u", &a));
	assert_true(selects("cycles:Hu", "cycles:u", &a));
	assert_true(selects("cpu-cycles:u", "cycles:u", &a));
	assert_false(selects("cycles", "cycles:u", &a));
	assert_false(selects("cycles:k", "cycles:u", &a));
	assert_false(selects("cycles:uk", "cycles:u", &a));
	assert_false(selects("cycles:up", "cycles:u", &a));
	assert_false(selects("cycles:uG", "cycles:u", &a));
	assert_false(selects("instructions:u", "cycles:u", &a));
	a.exclude_guest = 0;
	assert_string_equal(bt_perf_event_name_full(&a, buf, sizeof(buf)), "cycles:u");
	assert_true(selects("cycles:u", "cycles:u", &a));
	assert_true(selects("cycles:uHG", "cycles:u", &a));
	assert_false(selects("cycles:uH", "cycles:u", &a));	/* that one excludes guests */
	/* the hybrid PMU's type in the high half of the config */
	a.config |= (uint64_t)8 << 32;
	assert_true(selects("cycles:u", "cpu_core/cycles/u", &a));
}

static void
test_kernel_hv_host_guest(void **state)
{
	struct perf_event_attr a = hw(PERF_COUNT_HW_INSTRUCTIONS);

	a.exclude_user = a.exclude_hv = 1;
	assert_true(selects("instructions:k", "x", &a));
	assert_false(selects("instructions:u", "x", &a));
	a.exclude_hv = 0;
	assert_true(selects("instructions:kh", "x", &a));
	assert_true(selects("instructions:hk", "x", &a));
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.exclude_host = 1;
	assert_true(selects("cpu-clock:G", "cpu-clock:G", &a));
	assert_false(selects("cpu-clock", "cpu-clock:G", &a));
	assert_false(selects("cpu-clock:H", "cpu-clock:G", &a));
	a.exclude_host = 0;
	/* pipe mode: perf names :S's attr (no exclude_guest) cpu-clock:HG */
	assert_true(selects("cpu-clock:HG", "cpu-clock:S", &a));
	assert_true(selects("cpu-clock", "cpu-clock:S", &a));
	a.exclude_guest = 1;
	assert_true(selects("cpu-clock:H", "cpu-clock", &a));
	assert_true(selects("cpu-clock", "cpu-clock", &a));
	assert_false(selects("cpu-clock:HG", "cpu-clock", &a));
	a.exclude_idle = 1;
	assert_true(selects("cpu-clock:I", "cpu-clock:I", &a));
	a.exclude_idle = 0;
	assert_false(selects("cpu-clock:I", "cpu-clock", &a));
}

static void
test_precise(void **state)
{
	struct perf_event_attr a = hw(PERF_COUNT_HW_CPU_CYCLES);

	a.precise_ip = 2;
	a.exclude_guest = 1;
	assert_true(selects("cycles:pp", "cycles:pp", &a));
	assert_true(selects("cycles:ppH", "cycles:pp", &a));
	assert_true(selects("cycles:P", "cycles:P", &a));
	assert_false(selects("cycles:p", "cycles:pp", &a));
	assert_false(selects("cycles:ppp", "cycles:pp", &a));
	assert_false(selects("cycles", "cycles:pp", &a));
	a.precise_ip = 3;
	a.exclude_kernel = a.exclude_hv = 1;
	assert_true(selects("cycles:uppp", "cycles:uppp", &a));
	assert_true(selects("cycles:pppu", "cycles:uppp", &a));
	assert_true(selects("r3c:uppp", "r3c", &(struct perf_event_attr){ .type = PERF_TYPE_RAW,
	    .config = 0x3c, .exclude_kernel = 1, .exclude_hv = 1, .precise_ip = 3 }));
}

/* A group selects its leader, the group's modifiers on top of the leader's. */
static void
test_groups(void **state)
{
	struct perf_event_attr a;
	struct bt_perf_evname ev;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_READ;
	assert_true(selects("{cpu-clock,task-clock}:S", "cpu-clock", &a));
	assert_true(selects("{cpu-clock,task-clock}", "cpu-clock", &a));
	assert_false(selects("{task-clock,cpu-clock}:S", "cpu-clock", &a));
	a.sample_type = PERF_SAMPLE_IP;
	assert_false(selects("{cpu-clock,task-clock}:S", "cpu-clock", &a));
	a.exclude_kernel = a.exclude_hv = a.exclude_guest = 1;
	assert_true(selects("{cpu-clock:u,task-clock}", "cpu-clock:u", &a));
	assert_true(selects("{cpu-clock,task-clock}:u", "cpu-clock:u", &a));
	assert_int_equal(bt_perf_evname_parse("{cpu-clock,task-clock}:S", &ev), 0);
	assert_true(ev.group && ev.sample_read && ev.known);
	assert_string_equal(ev.base, "cpu-clock");
}

/* Names outside the table: by the recorded name; bad names refused. */
static void
test_other_names(void **state)
{
	struct perf_event_attr a;
	struct bt_perf_evname ev;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_TRACEPOINT;
	a.config = 316;
	assert_true(selects("sched:sched_switch", "sched:sched_switch", &a));
	assert_false(selects("sched:sched_wakeup", "sched:sched_switch", &a));
	a.exclude_kernel = a.exclude_hv = 1;
	assert_true(selects("L1-dcache-load-misses:u", "L1-dcache-load-misses:u", &a));
	assert_int_equal(bt_perf_evname_parse("", &ev), -1);
	assert_int_equal(bt_perf_evname_parse("{cycles", &ev), -1);
	assert_int_equal(bt_perf_evname_parse("{cycles}x", &ev), -1);
	assert_int_equal(bt_perf_evname_parse("{}", &ev), -1);
	assert_int_equal(bt_perf_evname_parse("cycles:W", &ev), 0);
	assert_int_equal(ev.unsupported, 'W');
	/* not modifiers: part of the name */
	assert_int_equal(bt_perf_evname_parse("cycles:x", &ev), 0);
	assert_false(ev.known);
	assert_string_equal(ev.base, "cycles:x");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_user),
		cmocka_unit_test(test_kernel_hv_host_guest),
		cmocka_unit_test(test_precise),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_other_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
