/*
 * Unit tests: core/perf's ordered stream (ordered.h). Each recording's
 * events are logged as the stream gives them ("M<time>" a mapping, "S<time>"
 * a sample) and compared with the order perf's ordered queue gives: a
 * side-band record before every sample as old as it, whatever round it
 * was drained in; samples in file order; without rounds the side-band
 * first; without times file order; compressed data the same as plain;
 * the reader's tag and FORK's own time kept.
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
#include "pdtest.h"
#include "perf/ordered.h"
#include "perf/perfdata.h"
#include "synth.h"

static char dir[] = "/tmp/bt-ord.XXXXXX";

/* What the stream gave, one word an event. */
struct log {
	struct bt_strbuf sb;
	uint32_t next_tag;
	uint64_t samples;
};

static bool
log_read(void *arg, struct bt_pd_event *ev, uint32_t *tag)
{
	struct log *l = arg;

	if (ev->type != PERF_RECORD_MMAP2 && ev->type != PERF_RECORD_FORK)
		return false;
	*tag = l->next_tag++;
	return true;
}

static void
log_side(void *arg, const struct bt_pd_event *ev, uint32_t tag)
{
	struct log *l = arg;

	if (ev->type == PERF_RECORD_FORK)
		bt_strbuf_addf(&l->sb, "F%llu/%u ", (unsigned long long)ev->time, tag);
	else
		bt_strbuf_addf(&l->sb, "M%llu/%u ", (unsigned long long)ev->time, tag);
}

static int
log_sample(void *arg, const struct bt_pd_event *ev, struct bt_error *err)
{
	struct log *l = arg;

	l->samples++;
	if (l->samples <= 64)
		bt_strbuf_addf(&l->sb, "S%llu ", (unsigned long long)ev->time);
	return 0;
}

static const struct bt_ordered_ops log_ops = {
	.read = log_read,
	.sideband = log_side,
	.sample = log_sample,
};

static int
round_end(struct bt_pd_writer *w)
{
	struct perf_event_header fr = {
		.type = BT_PD_FINISHED_ROUND, .misc = 0, .size = sizeof(fr),
	};

	return bt_pd_write(w, &fr, sizeof(fr), NULL);
}

static struct bt_pd_writer *
create(const char *path)
{
	struct bt_error err = { 0 };
	struct bt_pd_attr a;
	struct bt_pd_writer *w;

	synth_attr(&a);
	w = bt_pd_create(path, &a, 1, &err);
	assert_non_null(w);
	return w;
}

static void
finish(struct bt_pd_writer *w)
{
	struct bt_error err = { 0 };
	struct bt_pd_features f;

	memset(&f, 0, sizeof(f));
	assert_int_equal(bt_pd_finish(w, &f, &err), 0);
}

/* The log of path's events, read in order with flags. */
static char *
read_log(const char *path, unsigned flags, struct log *l)
{
	struct bt_error err = { 0 };
	struct bt_pd_reader *r = bt_pd_open(path, &err);

	if (r == NULL)
		fail_msg("%s", err.msg);
	memset(l, 0, sizeof(*l));
	bt_strbuf_init(&l->sb);
	assert_int_equal(bt_ordered_read(r, &log_ops, l, flags, &err), 0);
	bt_pd_close(r);
	return l->sb.buf;
}

/* A FORK of pid 101 from 100 whose own time is task_time, its trailer's trailer_time. */
static void
fork_rec(struct bt_pd_writer *w, uint64_t task_time, uint64_t trailer_time)
{
	struct {
		struct perf_event_header h;
		uint32_t pid, ppid, tid, ptid;
		uint64_t time;
		uint32_t tpid, ttid;	/* sample_id: TID, TIME, CPU */
		uint64_t ttime, cpu;
	} f = { { PERF_RECORD_FORK, 0, sizeof(f) }, 101, 100, 101, 100, task_time,
		101, 101, trailer_time, 0 };

	assert_int_equal(bt_pd_write(w, &f, sizeof(f), NULL), 0);
}

/*
 * Rounds: a mapping drained after newer samples still comes first; one
 * newer than a sample comes after it; samples keep their file order; a
 * FORK is ordered by its own time (27), not its trailer's (99, which
 * makes every record up to it final two rounds later).
 */
static void
write_rounds(struct bt_pd_writer *w)
{
	assert_int_equal(synth_sample(w, 0x400100, 100, 100, 20, PERF_RECORD_MISC_USER), 0);
	assert_int_equal(synth_sample(w, 0x400104, 100, 100, 5, PERF_RECORD_MISC_USER), 0);
	assert_int_equal(synth_mmap2(w, 100, 0x400000, 0x1000, 0, "/bin/a", 10), 0);
	assert_int_equal(round_end(w), 0);
	assert_int_equal(synth_sample(w, 0x500100, 100, 100, 30, PERF_RECORD_MISC_USER), 0);
	assert_int_equal(synth_mmap2(w, 100, 0x500000, 0x1000, 0, "/bin/b", 25), 0);
	fork_rec(w, 27, 99);
	assert_int_equal(round_end(w), 0);
	assert_int_equal(synth_mmap2(w, 100, 0x500000, 0x1000, 0x2000, "/bin/c", 35), 0);
	assert_int_equal(synth_sample(w, 0x500200, 100, 100, 40, PERF_RECORD_MISC_USER), 0);
	assert_int_equal(synth_sample(w, 0x500300, 100, 100, 33, PERF_RECORD_MISC_USER), 0);
	assert_int_equal(round_end(w), 0);
	assert_int_equal(synth_sample(w, 0x400108, 100, 100, 50, PERF_RECORD_MISC_USER), 0);
	assert_int_equal(round_end(w), 0);
}

static const char rounds_log[] =
	"M10/0 S20 S5 M25/1 F27/2 M35/3 S30 S40 S33 S50 ";

static void
test_rounds(void **state)
{
	char *path = bt_xasprintf("%s/rounds.data", dir);
	struct bt_pd_writer *w = create(path);
	struct log l;

	write_rounds(w);
	finish(w);
	assert_string_equal(read_log(path, 0, &l), rounds_log);
	bt_strbuf_release(&l.sb);
	/* the brief decode: the same order, the same times */
	assert_string_equal(read_log(path, BT_ORDERED_BRIEF, &l), rounds_log);
	bt_strbuf_release(&l.sb);
	unlink(path);
	free(path);
}

/* Compressed (perf record -z): the records that wait are copies; the same order. */
static void
test_compressed(void **state)
{
	char *plain = bt_xasprintf("%s/plain.data", dir), *z;
	struct bt_pd_writer *w = create(plain);
	struct bt_strbuf stream = BT_STRBUF_INIT;
	struct log l;

	write_rounds(w);
	finish(w);
	assert_int_equal(pdtest_records(plain, &stream), 0);
	/* one frame in compressed records of 40 bytes: records straddle them */
	z = pdtest_compressed_file(dir, "z.data", &stream, 1 << 20, 40, false);
	assert_non_null(z);
	assert_string_equal(read_log(z, 0, &l), rounds_log);
	bt_strbuf_release(&l.sb);
	assert_string_equal(read_log(z, BT_ORDERED_BRIEF, &l), rounds_log);
	bt_strbuf_release(&l.sb);
	bt_strbuf_release(&stream);
	unlink(plain);
	unlink(z);
	free(plain);
	free(z);
}

/*
 * No FINISHED_ROUND: past 65,536 waiting samples, the side-band first
 * (the mapping, older than every sample, after all of them in the file),
 * then the samples again from the start, in file order.
 */
static void
test_no_rounds(void **state)
{
	char *path = bt_xasprintf("%s/norounds.data", dir);
	struct bt_pd_writer *w = create(path);
	struct log l;
	uint64_t i, n = 70000;

	for (i = 0; i < n; i++)
		assert_int_equal(synth_sample(w, 0x400100, 100, 100, 100 + i,
		    PERF_RECORD_MISC_USER), 0);
	assert_int_equal(synth_mmap2(w, 100, 0x400000, 0x1000, 0, "/bin/a", 10), 0);
	finish(w);
	assert_memory_equal(read_log(path, BT_ORDERED_BRIEF, &l), "M10/0 S100 S101 S102 ", 21);
	assert_int_equal(l.samples, n);
	bt_strbuf_release(&l.sb);
	unlink(path);
	free(path);
}

/* Without times: file order, each record given as it comes. */
static void
test_no_times(void **state)
{
	char *path = bt_xasprintf("%s/notimes.data", dir);
	struct bt_error err = { 0 };
	struct bt_pd_attr a;
	struct bt_pd_writer *w;
	struct log l;

	synth_attr(&a);
	a.attr.sample_id_all = 0;
	w = bt_pd_create(path, &a, 1, &err);
	assert_non_null(w);
	assert_int_equal(synth_sample(w, 0x400100, 100, 100, 30, PERF_RECORD_MISC_USER), 0);
	assert_int_equal(synth_mmap2(w, 100, 0x400000, 0x1000, 0, "/bin/a", 99), 0);
	assert_int_equal(synth_sample(w, 0x400100, 100, 100, 20, PERF_RECORD_MISC_USER), 0);
	assert_int_equal(round_end(w), 0);
	finish(w);
	/* (no sample_id_all: the mapping has no time to be ordered by) */
	assert_string_equal(read_log(path, 0, &l), "S30 M0/0 S20 ");
	bt_strbuf_release(&l.sb);
	unlink(path);
	free(path);
}

/* bt_ordered_samples: the samples only, in file order. */
static void
test_samples(void **state)
{
	char *path = bt_xasprintf("%s/samples.data", dir);
	struct bt_pd_writer *w = create(path);
	struct bt_error err = { 0 };
	struct bt_pd_reader *r;
	struct log l;

	write_rounds(w);
	finish(w);
	r = bt_pd_open(path, &err);
	assert_non_null(r);
	memset(&l, 0, sizeof(l));
	bt_strbuf_init(&l.sb);
	assert_int_equal(bt_ordered_samples(r, &log_ops, &l, 0, &err), 0);
	assert_string_equal(l.sb.buf, "S20 S5 S30 S40 S33 S50 ");
	bt_strbuf_release(&l.sb);
	bt_pd_close(r);
	unlink(path);
	free(path);
}

static int
setup(void **state)
{
	return mkdtemp(dir) == NULL;
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
		cmocka_unit_test(test_rounds),
		cmocka_unit_test(test_compressed),
		cmocka_unit_test(test_no_rounds),
		cmocka_unit_test(test_no_times),
		cmocka_unit_test(test_samples),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
