/*
 * Unit tests: the recorder's parts alone. The ring drain on a ring laid
 * out in memory as the kernel lays it out (records that wrap the end, a
 * corrupt header); the child's exec handshake and kill escalation with
 * real processes; the events on every CPU (skipped where the kernel
 * refuses perf_event_open).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base.h"
#include "perf/perfdata.h"
#include "record/record-int.h"

#define PAGE 4096

struct seen {
	uint32_t types[64];
	uint16_t sizes[64];
	uint8_t first[64];
	size_t n;
};

static int
collect(const struct perf_event_header *rec, void *arg)
{
	struct seen *s = arg;

	s->types[s->n] = rec->type;
	s->sizes[s->n] = rec->size;
	s->first[s->n] = ((const uint8_t *)rec)[8];
	s->n++;
	return 0;
}

/* Write a record of size bytes at ring offset pos (mod size), payload byte b. */
static void
put(uint8_t *data, size_t ringsz, uint64_t pos, uint32_t type, uint16_t size, uint8_t b)
{
	uint8_t rec[512];
	struct perf_event_header h = { type, 0, size };
	size_t i;

	memset(rec, b, sizeof(rec));
	memcpy(rec, &h, sizeof(h));
	for (i = 0; i < size; i++)
		data[(pos + i) % ringsz] = rec[i];
}

static void
test_ring_wrap(void **state)
{
	uint8_t *mem = aligned_alloc(PAGE, 2 * PAGE);
	struct perf_event_mmap_page *mp = (void *)mem;
	uint8_t scratch[65536];
	struct bt_ring r = { .fd = -1, .base = mem, .size = PAGE, .pagesz = PAGE };
	struct seen s = { .n = 0 };
	uint64_t tail = 3 * PAGE - 40;	/* the ring went round three times */

	memset(mem, 0, 2 * PAGE);
	mp->data_tail = tail;
	put(mem + PAGE, PAGE, tail, 9, 32, 0xa1);		/* ends 8 before the end */
	put(mem + PAGE, PAGE, tail + 32, 10, 48, 0xb2);	/* wraps the end */
	put(mem + PAGE, PAGE, tail + 80, 11, 16, 0xc3);
	mp->data_head = tail + 96;
	assert_int_equal(bt_ring_drain(&r, scratch, collect, &s), 0);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.types[1], 10);
	assert_int_equal(s.sizes[1], 48);
	assert_int_equal(s.first[1], 0xb2);	/* copied whole through scratch */
	assert_int_equal(s.types[2], 11);
	assert_int_equal(mp->data_tail, tail + 96);

	/* a header that claims more than is there: skip to the head */
	s.n = 0;
	put(mem + PAGE, PAGE, tail + 96, 12, 400, 0xd4);
	mp->data_head = tail + 96 + 64;
	assert_int_equal(bt_ring_drain(&r, scratch, collect, &s), 0);
	assert_int_equal(s.n, 0);
	assert_int_equal(mp->data_tail, tail + 96 + 64);
	free(mem);
}

static void
test_child_exec_errors(void **state)
{
	char *missing[] = { (char *)"/nonexistent/bench", NULL };
	char *dir[] = { (char *)"/tmp/", NULL };
	struct bt_child c;
	struct bt_error err = { 0 };

	assert_int_equal(bt_child_fork(&c, missing, &err), 0);
	assert_int_equal(bt_child_start(&c, missing, &err), -BT_ENOENT);
	assert_non_null(strstr(err.msg, "cannot execute '/nonexistent/bench'"));
	bt_child_release(&c);
	assert_int_equal(bt_child_fork(&c, dir, &err), 0);
	assert_int_equal(bt_child_start(&c, dir, &err), -BT_EEXEC);
	assert_non_null(strstr(err.msg, "it is a directory"));
	bt_child_release(&c);
}

static void
test_child_runs(void **state)
{
	char *argv[] = { (char *)"sh", (char *)"-c", (char *)"exit 3", NULL };
	struct bt_child c;
	struct bt_error err = { 0 };
	int status = 0, i;

	assert_int_equal(bt_child_fork(&c, argv, &err), 0);
	assert_int_equal(bt_child_start(&c, argv, &err), 0);
	for (i = 0; i < 500 && !bt_child_reap(&c, &status); i++)
		usleep(10000);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 3);
	bt_child_release(&c);
}

/* A command that ignores SIGINT and SIGTERM is killed on the third step. */
static void
test_child_escalation(void **state)
{
	char *argv[] = { (char *)"sh", (char *)"-c",
		(char *)"trap '' INT TERM; while :; do sleep 1; done", NULL };
	struct bt_child c;
	struct bt_error err = { 0 };
	int status = 0, i;
	double t = 100;

	assert_int_equal(bt_child_fork(&c, argv, &err), 0);
	assert_int_equal(bt_child_start(&c, argv, &err), 0);
	usleep(100000);	/* the trap is set */
	bt_child_interrupt(&c, SIGTERM, t);
	assert_int_equal(c.kill_stage, 1);
	bt_child_interrupt(&c, SIGTERM, t + 0.5);	/* too early for the next step */
	assert_int_equal(c.kill_stage, 1);
	bt_child_interrupt(&c, SIGTERM, t + 1.0);
	assert_int_equal(c.kill_stage, 2);
	usleep(100000);
	assert_false(bt_child_reap(&c, &status));	/* SIGTERM was ignored */
	bt_child_interrupt(&c, SIGTERM, t + 3.0);
	assert_int_equal(c.kill_stage, 3);
	for (i = 0; i < 500 && !bt_child_reap(&c, &status); i++)
		usleep(10000);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGKILL);
	bt_child_release(&c);
}

static void
test_events(void **state)
{
	char *argv[] = { (char *)"true", NULL };
	struct bt_rec_events ev;
	struct bt_child c;
	struct bt_error err = { 0 };
	struct bt_ring *rings;
	int ret, status;

	assert_int_equal(bt_child_fork(&c, argv, &err), 0);
	ret = bt_rec_events_open(&ev, "cpu-clock", 1000, BT_CG_DEFAULT, 0, c.pid, &err);
	if (ret == -BT_EPERF) {
		bt_child_kill(&c);
		bt_child_release(&c);
		skip();
	}
	assert_int_equal(ret, 0);
	assert_true(ev.n >= 1);
	assert_string_equal(ev.name, "cpu-clock");
	assert_true(ev.attr.inherit && ev.attr.enable_on_exec);
	rings = bt_xcalloc(ev.n, sizeof(*rings));
	assert_int_equal(bt_rings_map(rings, ev.fds, ev.n, 8, &err), 0);
	assert_true(rings[0].id != 0);
	for (size_t i = 0; i < ev.n; i++)
		bt_ring_unmap(&rings[i]);
	free(rings);
	bt_rec_events_close(&ev);
	assert_int_equal(bt_child_start(&c, argv, &err), 0);
	while (!bt_child_reap(&c, &status))
		usleep(10000);
	bt_child_release(&c);
	assert_int_equal(bt_rec_events_open(&ev, "no-such-event", 1000, BT_CG_NONE, 0, getpid(), &err),
	    -BT_EINVAL);
}

/*
 * perf's event lists: a group, S, a plain event after it; the attrs as
 * perf record sets them, the groups for GROUP_DESC, every event into the
 * first's ring; a bad list is refused before anything is opened.
 */
static void
test_event_groups(void **state)
{
	static const char *bad[] = {
		"{cpu-clock", "{cpu-clock,task-clock}x", "cpu-clock,,task-clock",
		"{cpu-clock,{task-clock}}", "{cpu-clock,no-such}", "", "cpu-clock:W",
	};
	struct bt_rec_events ev;
	struct bt_error err = { 0 };
	struct bt_pd_attr pa[3];
	struct bt_pd_group g[3];
	struct bt_ring *rings;
	char list[128];
	size_t i;
	int ret;

	(void)state;
	ret = bt_rec_events_open(&ev, "{cpu-clock,task-clock:u}:S,page-faults", 1000,
	    BT_CG_NONE, 0, getpid(), &err);
	if (ret == -BT_EPERF)
		skip();
	assert_int_equal(ret, 0);
	assert_int_equal(ev.nevs, 3);
	assert_int_equal(ev.ngroups, 1);
	assert_string_equal(ev.evs[0].name, "cpu-clock");
	assert_string_equal(ev.evs[1].name, "task-clock:u");
	assert_string_equal(ev.evs[2].name, "page-faults");
	assert_string_equal(ev.name, "{cpu-clock,task-clock:u},page-faults");
	assert_string_equal(bt_rec_events_list(&ev, list, sizeof(list)), ev.name);
	/* the leader samples for the group, the member does not */
	assert_true(ev.evs[0].attr.sample_type & PERF_SAMPLE_READ);
	assert_true(ev.evs[0].attr.read_format & PERF_FORMAT_GROUP);
	assert_true(ev.evs[0].attr.freq && ev.evs[0].attr.sample_freq == 1000);
	assert_true(ev.evs[0].attr.mmap && ev.evs[0].attr.enable_on_exec);
	assert_true(ev.evs[1].attr.sample_type & PERF_SAMPLE_READ);
	assert_false(ev.evs[1].attr.freq);
	assert_int_equal(ev.evs[1].attr.sample_period, 0);
	assert_false(ev.evs[1].attr.disabled || ev.evs[1].attr.enable_on_exec);
	assert_true(ev.evs[1].attr.exclude_kernel);
	/* a plain event after it: its own, no mmaps; layouts differ: IDENTIFIER */
	assert_false(ev.evs[2].attr.sample_type & PERF_SAMPLE_READ);
	assert_false(ev.evs[2].attr.mmap || ev.evs[2].attr.comm);
	assert_true(ev.evs[2].attr.enable_on_exec);
	for (i = 0; i < 3; i++) {
		assert_true(ev.evs[i].attr.sample_type & PERF_SAMPLE_IDENTIFIER);
		assert_true(ev.evs[i].attr.read_format & PERF_FORMAT_ID);
	}
	assert_int_equal(bt_rec_events_attrs(&ev, pa, g), 1);
	assert_int_equal(g[0].leader, 0);
	assert_int_equal(g[0].nr_members, 2);
	assert_null(g[0].name);
	for (i = 0; i < 3; i++) {
		assert_int_equal(pa[i].nids, ev.n);
		assert_ptr_equal(pa[i].name, ev.evs[i].name);
		free(pa[i].ids);
	}
	rings = bt_xcalloc(ev.n, sizeof(*rings));
	assert_int_equal(bt_rings_map(rings, ev.fds, ev.n, 8, &err), 0);
	assert_int_equal(bt_rec_events_redirect(&ev, &err), 0);
	for (i = 0; i < ev.n; i++)
		bt_ring_unmap(&rings[i]);
	free(rings);
	bt_rec_events_close(&ev);

	/* one plain event: no ids, no read: the attr it always had */
	assert_int_equal(bt_rec_events_open(&ev, "cpu-clock", 1000, BT_CG_NONE, 0,
	    getpid(), &err), 0);
	assert_int_equal(ev.nevs, 1);
	assert_false(ev.attr.sample_type & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER |
	    PERF_SAMPLE_READ));
	assert_int_equal(ev.attr.read_format, 0);
	assert_int_equal(bt_rec_events_attrs(&ev, pa, g), 0);
	free(pa[0].ids);
	bt_rec_events_close(&ev);

	for (i = 0; i < BT_ARRAY_SIZE(bad); i++)
		assert_int_equal(bt_rec_events_open(&ev, bad[i], 1000, BT_CG_NONE, 0,
		    getpid(), &err), -BT_EINVAL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring_wrap),
		cmocka_unit_test(test_child_exec_errors),
		cmocka_unit_test(test_child_runs),
		cmocka_unit_test(test_child_escalation),
		cmocka_unit_test(test_events),
		cmocka_unit_test(test_event_groups),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
