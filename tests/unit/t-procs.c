/*
 * Unit tests: the recording's processes and threads (bt_session_proc),
 * their names over time (--comm) and the process view, on a synthesized
 * recording: a process that forks a child, which execs, then starts a
 * thread that renames itself (prctl), then both exit.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base.h"
#include "benchtui/selection.h"
#include "benchtui/session.h"
#include "benchtui/view.h"
#include "perf/perfdata.h"
#include "synth.h"

static char dir[] = "/tmp/bt-procs.XXXXXX";
static char *path;

/* The sample_id trailer of synth_attr's layout: pid/tid, time, cpu. */
static size_t
trailer(uint8_t *p, uint32_t pid, uint32_t tid, uint64_t time)
{
	uint64_t tr[3] = { (uint64_t)tid << 32 | pid, time, 0 };

	memcpy(p, tr, sizeof(tr));
	return sizeof(tr);
}

static void
comm(struct bt_pd_writer *w, uint32_t pid, uint32_t tid, const char *name,
     bool exec, uint64_t time)
{
	uint8_t buf[128] = { 0 };
	struct perf_event_header *h = (void *)buf;
	size_t len = 8 + 8 + ((strlen(name) + 8) & ~7ul);

	h->type = PERF_RECORD_COMM;
	h->misc = exec ? PERF_RECORD_MISC_COMM_EXEC : 0;
	memcpy(buf + 8, &pid, 4);
	memcpy(buf + 12, &tid, 4);
	memcpy(buf + 16, name, strlen(name));
	len += trailer(buf + len, pid, tid, time);
	h->size = (uint16_t)len;
	assert_int_equal(bt_pd_write(w, buf, len, NULL), 0);
}

static void
task(struct bt_pd_writer *w, uint32_t type, uint32_t pid, uint32_t ppid,
     uint32_t tid, uint32_t ptid, uint64_t time)
{
	uint8_t buf[64] = { 0 };
	struct perf_event_header *h = (void *)buf;
	uint32_t ids[4] = { pid, ppid, tid, ptid };
	size_t len = 8 + 16 + 8;

	h->type = (uint16_t)type;
	memcpy(buf + 8, ids, 16);
	memcpy(buf + 24, &time, 8);
	len += trailer(buf + len, pid, tid, time);
	h->size = (uint16_t)len;
	assert_int_equal(bt_pd_write(w, buf, len, NULL), 0);
}

static void
samples(struct bt_pd_writer *w, uint32_t pid, uint32_t tid, uint64_t *t, int n)
{
	while (n-- > 0)
		assert_int_equal(synth_sample(w, 0xffffffff81000000ull, pid, tid,
		    *t += 100, PERF_RECORD_MISC_KERNEL), 0);
}

/*
 * 100 "parent": 3 samples; forks 200 at 5000 (2 samples as "parent"),
 * which execs "child" at 8000 (4 samples), starts thread 201 at 10000,
 * named "worker" at 11000 (5 samples); 201 exits at 20000, 200 at 21000.
 */
static int
setup(void **state)
{
	struct bt_error err = { 0 };
	struct bt_pd_features f;
	struct bt_pd_writer *w;
	struct bt_pd_attr a;
	uint64_t t;

	assert_non_null(mkdtemp(dir));
	path = bt_xasprintf("%s/procs.data", dir);
	synth_attr(&a);
	w = bt_pd_create(path, &a, 1, &err);
	assert_non_null(w);
	comm(w, 100, 100, "parent", true, 1000);
	t = 2000;
	samples(w, 100, 100, &t, 3);
	task(w, PERF_RECORD_FORK, 200, 100, 200, 100, 5000);
	t = 6000;
	samples(w, 200, 200, &t, 2);
	comm(w, 200, 200, "child", true, 8000);
	t = 9000;
	samples(w, 200, 200, &t, 4);
	task(w, PERF_RECORD_FORK, 200, 200, 201, 200, 10000);
	comm(w, 200, 201, "worker", false, 11000);
	t = 12000;
	samples(w, 200, 201, &t, 5);
	task(w, PERF_RECORD_EXIT, 200, 200, 201, 201, 20000);
	task(w, PERF_RECORD_EXIT, 200, 100, 200, 200, 21000);
	memset(&f, 0, sizeof(f));
	assert_int_equal(bt_pd_finish(w, &f, &err), 0);
	return 0;
}

static int
teardown(void **state)
{
	unlink(path);
	free(path);
	rmdir(dir);
	return 0;
}

static void
test_procs(void **state)
{
	struct bt_selection *sel = test_open(path);
	struct bt_session *s;
	const struct bt_proc *p;

	assert_non_null(sel);
	s = bt_selection_session(sel);
	assert_int_equal(bt_session_nprocs(s), 2);
	p = bt_session_proc(s, 0);
	assert_int_equal(p->pid, 100);
	assert_string_equal(p->comm, "parent");
	assert_int_equal(p->samples, 3);
	assert_int_equal(p->first, 2100);
	assert_int_equal(p->last, 2300);
	p = bt_session_proc(s, 1);
	assert_int_equal(p->pid, 200);
	assert_int_equal(p->ppid, 100);
	assert_string_equal(p->comm, "child");
	assert_int_equal(p->ncomms, 3);
	assert_string_equal(p->comms[0], "parent");
	assert_string_equal(p->comms[1], "child");
	assert_string_equal(p->comms[2], "worker");
	assert_int_equal(p->samples, 11);
	assert_int_equal(p->start, 5000);
	assert_int_equal(p->exit, 21000);
	assert_int_equal(p->first, 6100);
	assert_int_equal(p->last, 12500);
	assert_int_equal(p->nthreads, 2);
	assert_int_equal(p->threads[0].tid, 200);
	assert_string_equal(p->threads[0].comm, "child");
	assert_int_equal(p->threads[0].ncomms, 2);
	assert_int_equal(p->threads[0].samples, 6);
	assert_int_equal(p->threads[1].tid, 201);
	assert_string_equal(p->threads[1].comm, "worker");
	assert_int_equal(p->threads[1].samples, 5);
	assert_int_equal(p->threads[1].start, 10000);
	assert_int_equal(p->threads[1].exit, 20000);
	assert_null(bt_session_proc(s, 2));
	test_close(sel);
}

/* Samples of --comm names (NULL-terminated), -1 when the selection is refused. */
static long
comm_samples(struct bt_session *s, const char *const *names, char *msg)
{
	struct bt_selection_opts o;
	struct bt_error err = { 0 };
	struct bt_selection *sel;
	long n;

	bt_selection_opts_init(&o);
	for (; *names; names++)
		strcpy(o.comm[o.ncomm++], *names);
	sel = bt_selection_new(s, &o, &err);
	if (sel == NULL) {
		if (msg)
			strcpy(msg, err.msg);
		return -1;
	}
	n = (long)bt_selection_samples(sel);
	bt_selection_free(sel);
	return n;
}

static void
test_comm(void **state)
{
	struct bt_selection *sel = test_open(path);
	struct bt_session *s = bt_selection_session(sel);
	const char *parent[] = { "parent", NULL }, *child[] = { "child", NULL };
	const char *worker[] = { "worker", NULL }, *two[] = { "worker", "parent", NULL };
	const char *none[] = { "nosuch", NULL };
	char msg[256] = "";

	/* the forked child is "parent" until its exec: its parent's name at the fork */
	assert_int_equal(comm_samples(s, parent, NULL), 5);
	assert_int_equal(comm_samples(s, child, NULL), 4);
	assert_int_equal(comm_samples(s, worker, NULL), 5);
	assert_int_equal(comm_samples(s, two, NULL), 10);
	assert_int_equal(comm_samples(s, none, msg), -1);
	assert_non_null(strstr(msg, "no thread named 'nosuch' in the recording (it has 'parent', 'child', 'worker')"));
	test_close(sel);
}

static void
test_view(void **state)
{
	struct bt_selection *sel = test_open(path);
	struct bt_view *v = bt_view_procs(sel, NULL);
	static const struct {
		const char *label, *name;
		unsigned tid;
		uint64_t samples;
	} want[] = {
		{ "process", "child", 0, 11 },
		{ "thread", "worker", 201, 5 },
		{ "thread", "child", 200, 4 },
		{ "thread", "parent", 200, 2 },
		{ "process", "parent", 0, 3 },
		{ "thread", "parent", 100, 3 },
	};
	size_t i;

	assert_int_equal(bt_view_nrows(v), BT_ARRAY_SIZE(want));
	for (i = 0; i < BT_ARRAY_SIZE(want); i++) {
		const struct bt_row *r = bt_view_row(v, i);
		assert_int_equal(r->kind, BT_ROW_PROC);
		assert_string_equal(r->label, want[i].label);
		assert_string_equal(r->name, want[i].name);
		assert_int_equal(r->line, want[i].tid);
		assert_int_equal(r->samples, want[i].samples);
	}
	assert_string_equal(bt_view_title(v), "processes: 2, threads: 3, 14 samples of cpu-clock");
	bt_view_free(v);
	test_close(sel);
}

/* Hundreds of threads, each named first by its FORK (the tasks' array grows). */
static void
test_many_threads(void **state)
{
	char *p2 = bt_xasprintf("%s/many.data", dir);
	struct bt_error err = { 0 };
	struct bt_pd_features f;
	struct bt_pd_writer *w;
	struct bt_selection *sel;
	struct bt_pd_attr a;
	const struct bt_proc *p;
	uint64_t t = 1000;
	uint32_t k;

	synth_attr(&a);
	w = bt_pd_create(p2, &a, 1, &err);
	assert_non_null(w);
	comm(w, 300, 300, "pool", true, 10);
	for (k = 1; k <= 300; k++) {
		task(w, PERF_RECORD_FORK, 300, 300, 300 + k, 300, t);
		samples(w, 300, 300 + k, &t, 1);
		task(w, PERF_RECORD_EXIT, 300, 300, 300 + k, 300 + k, t += 10);
	}
	memset(&f, 0, sizeof(f));
	assert_int_equal(bt_pd_finish(w, &f, &err), 0);
	sel = test_open(p2);
	assert_non_null(sel);
	assert_int_equal(bt_session_nprocs(bt_selection_session(sel)), 1);
	p = bt_session_proc(bt_selection_session(sel), 0);
	assert_int_equal(p->nthreads, 301);
	assert_int_equal(p->samples, 300);
	assert_string_equal(p->threads[300].comm, "pool");
	assert_int_equal(p->threads[300].exit, p->threads[300].start + 110);
	test_close(sel);
	unlink(p2);
	free(p2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_procs),
		cmocka_unit_test(test_comm),
		cmocka_unit_test(test_view),
		cmocka_unit_test(test_many_threads),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
