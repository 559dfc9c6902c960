/*
 * Unit tests: the profile's first read resolves every sample against the
 * mappings of its own time in one pass over the file, as perf's ordered
 * queue does: a side-band record written after samples that are newer
 * than it (another CPU's buffer, drained later in the same round) still
 * counts for them; one newer than a sample does not. Without
 * FINISHED_ROUND records it reads the side-band first; without times, in
 * file order. perf report resolves test_rounds' and test_no_times'
 * recordings the same way.
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
#include "perf/perfdata.h"
#include "profile/profile.h"
#include "synth.h"

static char dir[] = "/tmp/bt-prof.XXXXXX";

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

static struct bt_profile *
finish_and_read(struct bt_pd_writer *w, const char *path)
{
	struct bt_error err = { 0 };
	struct bt_pd_features f;
	struct bt_profile *p;

	memset(&f, 0, sizeof(f));
	assert_int_equal(bt_pd_finish(w, &f, &err), 0);
	p = bt_profile_open(path, &err);
	if (p == NULL)
		fail_msg("%s", err.msg);
	return p;
}

/* Samples of the whole run at module path and file offset off. */
static uint64_t
count(const struct bt_profile *p, const char *path, uint64_t off)
{
	uint64_t n = 0;
	size_t i;

	for (i = p->hist_start[0]; i < p->hist_start[1]; i++) {
		const struct bt_hist_entry *e = &p->hist[i];
		if (strcmp(p->modules.v[e->module].path, path) == 0 && e->off == off)
			n += e->samples;
	}
	return n;
}

static void
test_rounds(void **state)
{
	char *path = bt_xasprintf("%s/rounds.data", dir);
	struct bt_pd_writer *w = create(path);
	struct bt_profile *p;

	/* round 1: /bin/a's mapping (time 10) drained after a sample of time 20 */
	assert_int_equal(synth_sample(w, 0x400100, 100, 100, 20, PERF_RECORD_MISC_USER), 0);
	assert_int_equal(synth_sample(w, 0x400104, 100, 100, 5, PERF_RECORD_MISC_USER), 0);
	assert_int_equal(synth_mmap2(w, 100, 0x400000, 0x1000, 0, "/bin/a", 10), 0);
	assert_int_equal(round_end(w), 0);
	/* round 2: /bin/b (time 25) after a sample of time 30 in it */
	assert_int_equal(synth_sample(w, 0x500100, 100, 100, 30, PERF_RECORD_MISC_USER), 0);
	assert_int_equal(synth_mmap2(w, 100, 0x500000, 0x1000, 0, "/bin/b", 25), 0);
	assert_int_equal(round_end(w), 0);
	/* round 3: /bin/c replaces /bin/b at time 35; a sample of time 33 comes after it */
	assert_int_equal(synth_mmap2(w, 100, 0x500000, 0x1000, 0x2000, "/bin/c", 35), 0);
	assert_int_equal(synth_sample(w, 0x500200, 100, 100, 40, PERF_RECORD_MISC_USER), 0);
	assert_int_equal(synth_sample(w, 0x500300, 100, 100, 33, PERF_RECORD_MISC_USER), 0);
	assert_int_equal(round_end(w), 0);
	/* round 4: /bin/a again, a round after its mapping */
	assert_int_equal(synth_sample(w, 0x400108, 100, 100, 50, PERF_RECORD_MISC_USER), 0);
	assert_int_equal(round_end(w), 0);
	p = finish_and_read(w, path);

	assert_int_equal(bt_profile_info(p)->samples, 6);
	assert_int_equal(count(p, "/bin/a", 0x100), 1);
	assert_int_equal(count(p, "/bin/a", 0x108), 1);
	assert_int_equal(count(p, "[unknown]", 0x400104), 1);	/* before /bin/a was mapped */
	assert_int_equal(count(p, "/bin/b", 0x100), 1);
	assert_int_equal(count(p, "/bin/b", 0x300), 1);		/* before /bin/c replaced it */
	assert_int_equal(count(p, "/bin/c", 0x2200), 1);
	assert_int_equal(p->unresolved, 1);
	bt_profile_free(p);
	unlink(path);
	free(path);
}

/* One file of a directory: a recording whose data section is its records. */
static char *
dir_file(const char *name, int cpu)
{
	char *path = bt_xasprintf("%s/%s", dir, name);
	struct bt_pd_writer *w = create(path);
	struct bt_error err = { 0 };
	struct bt_pd_features f;
	uint64_t i;

	if (cpu < 0)	/* "data": what perf synthesized for another process */
		assert_int_equal(synth_mmap2(w, 7, 0x400000, 0x1000, 0, "/bin/x", 0), 0);
	if (cpu == 1)
		assert_int_equal(synth_mmap2(w, 100, 0x400000, 0x1000, 0, "/bin/a", 10), 0);
	for (i = 0; cpu >= 0 && i < 6000; i++) {
		uint64_t t = 100 + 2 * i + (uint64_t)cpu;

		if (cpu == 1 && t == 6003)	/* /bin/b replaces /bin/a at 6001 */
			assert_int_equal(synth_mmap2(w, 100, 0x400000, 0x1000, 0x2000,
			    "/bin/b", 6001), 0);
		assert_int_equal(synth_sample(w, 0x400100 + 4 * (uint64_t)cpu, 100, 100, t,
		    PERF_RECORD_MISC_USER), 0);
	}
	memset(&f, 0, sizeof(f));
	assert_int_equal(bt_pd_finish(w, &f, &err), 0);
	return path;
}

/*
 * perf record --threads: the mappings in data.1, the samples of both
 * CPUs in data.0 and data.1 (no FINISHED_ROUND in either): each sample
 * resolved in the mapping of its time, in one pass.
 */
static void
test_dir(void **state)
{
	char *hdr = dir_file("hdr.data", -1), *c0 = dir_file("cpu0.data", 0);
	char *c1 = dir_file("cpu1.data", 1), *d = bt_xasprintf("%s/thr.data", dir);
	const char *files[2] = { c0, c1 };
	struct bt_error err = { 0 };
	struct bt_profile *p;

	assert_int_equal(synth_dir(d, hdr, files, 2, 1), 0);
	p = bt_profile_open(d, &err);
	if (p == NULL)
		fail_msg("%s", err.msg);
	assert_int_equal(bt_profile_info(p)->samples, 12000);
	assert_int_equal(p->unresolved, 0);
	assert_int_equal(count(p, "/bin/a", 0x100), 2951);	/* data.0, 100..6000 */
	assert_int_equal(count(p, "/bin/a", 0x104), 2950);	/* data.1, 101..5999 */
	assert_int_equal(count(p, "/bin/b", 0x2100), 3049);
	assert_int_equal(count(p, "/bin/b", 0x2104), 3050);
	bt_profile_free(p);
	assert_int_equal(test_rmdir(d), 0);
	unlink(hdr);
	unlink(c0);
	unlink(c1);
	free(hdr);
	free(c0);
	free(c1);
	free(d);
}

/*
 * No FINISHED_ROUND (a recorder that writes none): more samples than wait
 * for rounds, then the mapping they run in, older than all of them.
 */
static void
test_no_rounds(void **state)
{
	char *path = bt_xasprintf("%s/norounds.data", dir);
	struct bt_pd_writer *w = create(path);
	struct bt_profile *p;
	uint64_t i, n = 70000;

	for (i = 0; i < n; i++)
		assert_int_equal(synth_sample(w, 0x400100 + (i & 3), 100, 100, 100 + i,
		    PERF_RECORD_MISC_USER), 0);
	assert_int_equal(synth_mmap2(w, 100, 0x400000, 0x1000, 0, "/bin/a", 10), 0);
	p = finish_and_read(w, path);

	assert_int_equal(bt_profile_info(p)->samples, n);
	assert_int_equal(p->unresolved, 0);
	for (i = 0; i < 4; i++)
		assert_int_equal(count(p, "/bin/a", 0x100 + i), n / 4);
	bt_profile_free(p);
	unlink(path);
	free(path);
}

/* Without times (no PERF_SAMPLE_TIME): in file order, each sample with the mappings before it. */
static void
test_no_times(void **state)
{
	char *path = bt_xasprintf("%s/notimes.data", dir);
	struct bt_error err = { 0 };
	struct bt_pd_attr a;
	struct bt_pd_writer *w;
	struct bt_profile *p;
	struct {
		struct perf_event_header h;
		uint64_t ip;
		uint32_t pid, tid;
	} s = { { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(s) }, 0x400100, 100, 100 };
	struct {
		struct perf_event_header h;
		uint32_t pid, tid;
		uint64_t start, len, pgoff;
		uint32_t maj, min;
		uint64_t ino, gen;
		uint32_t prot, flags;
		char name[8];
	} m;

	synth_attr(&a);
	a.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	a.attr.sample_id_all = 0;
	w = bt_pd_create(path, &a, 1, &err);
	assert_non_null(w);
	memset(&m, 0, sizeof(m));
	m.h.type = PERF_RECORD_MMAP2;
	m.h.misc = PERF_RECORD_MISC_USER;
	m.h.size = sizeof(m);
	m.pid = m.tid = 100;
	m.start = 0x400000;
	m.len = 0x1000;
	m.prot = 5;	/* PROT_READ | PROT_EXEC */
	strcpy(m.name, "/bin/a");
	assert_int_equal(bt_pd_write(w, &s, sizeof(s), NULL), 0);
	assert_int_equal(bt_pd_write(w, &m, sizeof(m), NULL), 0);
	assert_int_equal(bt_pd_write(w, &s, sizeof(s), NULL), 0);
	assert_int_equal(round_end(w), 0);
	p = finish_and_read(w, path);

	assert_int_equal(bt_profile_info(p)->samples, 2);
	assert_int_equal(count(p, "/bin/a", 0x100), 1);
	assert_int_equal(count(p, "[unknown]", 0x400100), 1);
	bt_profile_free(p);
	unlink(path);
	free(path);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rounds),
		cmocka_unit_test(test_no_rounds),
		cmocka_unit_test(test_dir),
		cmocka_unit_test(test_no_times),
	};
	int ret;

	if (test_tmpdir(dir) < 0)
		return 1;
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	test_rmdir(dir);
	return ret;
}
