/*
 * Unit tests: a perf record --threads directory read as one file, its
 * records merged in time order; the directories that are refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base.h"
#include "perf/meta.h"
#include "perf/perfdata-int.h"
#include "pdtest.h"
#include "synth.h"

static char dir[] = "/tmp/bt-pdd.XXXXXX";

/* ID_INDEX: n event ids, id k of ring buffer (idx) k, as perf record writes it. */
static void
id_index(struct bt_pd_writer *w, uint64_t n)
{
	struct bt_strbuf sb = BT_STRBUF_INIT;
	struct perf_event_header h = { BT_PD_ID_INDEX, 0, (uint16_t)(16 + n * 32) };

	bt_strbuf_add(&sb, &h, 8);
	bt_strbuf_add(&sb, &n, 8);
	for (uint64_t k = 0; k < n; k++) {
		uint64_t e[4] = { 41 + k, k, k, (uint64_t)-1 };
		bt_strbuf_add(&sb, e, sizeof(e));
	}
	assert_int_equal(bt_pd_write(w, sb.buf, sb.len, NULL), 0);
	bt_strbuf_release(&sb);
}

/*
 * One file of a perf record --threads directory, as a recording whose
 * data section holds its records: 0, "data" (a synthesized mapping of
 * another process, time 0, and an ID_INDEX of n ring buffers); 1, a ring
 * buffer's samples of pid 100 at even times from 100; 2, another's: the
 * mapping they run in (time 50), then samples at odd times.
 */
static char *
dir_part(const char *name, int part, int n)
{
	struct bt_pd_attr a = pdtest_attr();
	char *path = bt_xasprintf("%s/%s", dir, name);
	struct bt_error err = { 0 };
	struct bt_pd_writer *w = bt_pd_create(path, &a, 1, &err);
	struct bt_pd_features f;

	assert_non_null(w);
	if (part == 0) {
		assert_int_equal(synth_mmap2(w, 7, 0x700000, 0x1000, 0, "/bin/other", 0), 0);
		id_index(w, (uint64_t)n);
	}
	if (part == 2)
		assert_int_equal(synth_mmap2(w, 100, 0x400000, 0x1000, 0, "/bin/bench", 50), 0);
	for (int i = 0; part && i < n; i++)
		assert_int_equal(synth_sample(w, 0x400100 + (uint64_t)(i % 16), 100,
		    part == 1 ? 100 : 101, 100 + 2 * (uint64_t)i + (part == 2),
		    PERF_RECORD_MISC_USER), 0);
	memset(&f, 0, sizeof(f));
	f.hostname = "host";
	assert_int_equal(bt_pd_finish(w, &f, &err), 0);
	return path;
}

/*
 * The records of directory d (dir_part's three files) one stream in time
 * order: "data"'s mapping first, data.2's next (named by its file), the
 * samples of both ring buffers alternating, a FINISHED_ROUND after 4096.
 */
static void
check_merged(struct bt_pd_reader *r, const char *d)
{
	uint64_t last = 0, nrec = 0, nsamples = 0, rounds = 0;
	struct bt_error err = { 0 };
	struct bt_pd_event ev;
	char buf[512], where[512];
	int ret;

	while ((ret = bt_pd_next(r, &ev, &err)) > 0) {
		if (ev.type == BT_PD_FINISHED_ROUND) {
			assert_int_equal(nrec, 4096 * ++rounds);
			continue;
		}
		nrec++;
		if (ev.type == BT_PD_ID_INDEX)
			continue;
		assert_true(ev.time >= last);
		last = ev.time;
		if (ev.type == PERF_RECORD_MMAP2 && ev.time == 0) {
			assert_string_equal(ev.u.mmap.filename, "/bin/other");
			assert_int_equal(nrec, 1);
		} else if (ev.type == PERF_RECORD_MMAP2) {
			assert_string_equal(ev.u.mmap.filename, "/bin/bench");
			assert_int_equal(nrec, 3);
			snprintf(buf, sizeof(buf), "offset 0 of '%s/data.1'", d);
			assert_string_equal(bt_pd_where(r, ev.offset, where, sizeof(where)), buf);
		} else {
			assert_int_equal(ev.type, PERF_RECORD_SAMPLE);
			assert_int_equal(ev.time, 100 + nsamples);
			assert_int_equal(ev.tid, 100 + nsamples % 2);
			nsamples++;
		}
	}
	assert_int_equal(ret, 0);
	assert_int_equal(nsamples, 6000);
	assert_int_equal(rounds, 1);
}

/*
 * perf record --threads: "data" and data.0 .. data.2 (data.1 holds the
 * mapping, data.0 samples in it, data.2 nothing) read as one stream in
 * time order, a FINISHED_ROUND after 4096 records; positions name their
 * file; going back over a record and to a position told earlier; a
 * compressed data.N reads the same.
 */
static void
test_dir(void **state)
{
	char *hdr = dir_part("hdr.data", 0, 3), *even = dir_part("even.data", 1, 3000);
	char *odd = dir_part("odd.data", 2, 3000), *zodd;
	char *d = bt_xasprintf("%s/thr.data", dir), *dz = bt_xasprintf("%s/thrz.data", dir);
	const char *files[3] = { even, odd, NULL };
	struct bt_strbuf want = BT_STRBUF_INIT, got = BT_STRBUF_INIT, stream = BT_STRBUF_INIT;
	struct bt_error err = { 0 };
	struct bt_pd_reader *r;
	struct bt_pd_event ev;
	char buf[512], where[512];
	const char *from;
	uint64_t nrec = 0, mid = 0;
	const uint8_t *rec;
	uint32_t type;
	uint16_t misc;
	size_t size;
	int ret;

	assert_int_equal(synth_dir(d, hdr, files, 3, 1), 0);
	r = bt_pd_open(d, &err);
	if (r == NULL)
		fail_msg("%s", err.msg);
	assert_int_equal(bt_pd_nfiles(r), 4);
	assert_string_equal(bt_pd_feature_str(r, BT_FEAT_HOSTNAME), "host");
	check_merged(r, d);
	assert_true(pd_stable(r));
	assert_false(bt_pd_compressed(r));
	assert_false(bt_pd_auxtrace(r)->present);
	/* the profile's way: samples raw, back over the others to decode them */
	bt_pd_rewind(r);
	pdtest_summary(r, &want);
	bt_pd_rewind(r);
	nrec = 0;
	while ((ret = pd_next_raw(r, &type, &misc, &rec, &size, &err)) > 0) {
		if (++nrec == 1000)
			mid = pd_tell(r) - size;
		if (type == PERF_RECORD_SAMPLE)
			continue;
		pd_seek(r, pd_tell(r) - size);
		assert_int_equal(bt_pd_next(r, &ev, &err), 1);
		assert_int_equal(ev.type, type);
	}
	assert_int_equal(ret, 0);
	/* a position told earlier: the same records from there on, twice */
	from = strstr(want.buf, "\n9 100 100 1096 ip ");	/* the 1000th record */
	assert_non_null(from);
	pd_seek(r, mid);
	pdtest_summary(r, &got);
	assert_string_equal(got.buf, from + 1);
	bt_strbuf_reset(&got);
	pd_seek(r, mid);
	pdtest_summary(r, &got);
	assert_string_equal(got.buf, from + 1);
	bt_pd_close(r);
	/* data.1 compressed (in pieces, with FINISHED_ROUNDs of its own) */
	pdtest_records(odd, &stream);
	zodd = pdtest_compressed_file(dir, "zodd.data", &stream, 777, 4000, false);
	files[1] = zodd;
	assert_int_equal(synth_dir(dz, hdr, files, 3, 1), 0);
	r = bt_pd_open(dz, &err);
	assert_non_null(r);
	bt_strbuf_reset(&got);
	pdtest_summary(r, &got);
	assert_string_equal(got.buf, want.buf);
	assert_true(bt_pd_compressed(r));
	bt_pd_rewind(r);
	while ((ret = pd_next_raw(r, &type, &misc, &rec, &size, &err)) > 0 &&
	    !(type == PERF_RECORD_SAMPLE && !pd_stable(r)))
		;
	assert_int_equal(ret, 1);
	snprintf(buf, sizeof(buf), "of the decompressed data (compressed record at offset");
	assert_non_null(strstr(bt_pd_where(r, pd_tell(r) - size, where, sizeof(where)), buf));
	snprintf(buf, sizeof(buf), "of '%s/data.1'", dz);
	assert_non_null(strstr(where, buf));
	bt_pd_close(r);
	assert_int_equal(test_rmdir(d), 0);
	assert_int_equal(test_rmdir(dz), 0);
	unlink(hdr);
	unlink(even);
	unlink(odd);
	unlink(zodd);
	free(hdr);
	free(even);
	free(odd);
	free(zodd);
	free(d);
	free(dz);
	bt_strbuf_release(&want);
	bt_strbuf_release(&got);
	bt_strbuf_release(&stream);
}

/* The message of opening path, which must fail. */
static const char *
refused(const char *path)
{
	static struct bt_error err;
	struct bt_pd_reader *r = bt_pd_open(path, &err);

	if (r != NULL)
		fail_msg("'%s' was read", path);
	return err.msg;
}

/*
 * What is not a perf record --threads directory, or one with a file that
 * is not a regular file, missing or cut: an error naming it.
 */
static void
test_dir_refused(void **state)
{
	char *hdr = dir_part("hdr2.data", 0, 3), *even = dir_part("even2.data", 1, 300);
	char *odd = dir_part("odd2.data", 2, 300);
	char *d = bt_xasprintf("%s/bad.data", dir), *p = bt_xasprintf("%s/data", d);
	char *p1 = bt_xasprintf("%s/data.1", d), *p2 = bt_xasprintf("%s/data.2", d);
	const char *files[3] = { even, odd, NULL };
	struct bt_strbuf sb = BT_STRBUF_INIT;
	struct bt_error err = { 0 };
	struct bt_pd_reader *r;
	struct bt_pd_event ev;
	int ret;

	assert_int_equal(mkdir(d, 0700), 0);
	assert_non_null(strstr(refused(d), "is not a regular file, nor a perf record --threads directory"));
	assert_int_equal(link(hdr, p), 0);	/* a perf.data file without DIR_FORMAT */
	assert_non_null(strstr(refused(d), "/data' has no DIR_FORMAT feature"));
	unlink(p);
	assert_int_equal(synth_dir(d, hdr, files, 3, 2), 0);
	assert_non_null(strstr(refused(d), "directory format version 2 is not supported"));
	assert_int_equal(synth_dir(d, hdr, files, 3, 1), 0);
	assert_non_null(strstr(refused(p), "is the header of a perf record --threads directory"));
	unlink(p1);
	assert_int_equal(symlink(odd, p1), 0);
	assert_non_null(strstr(refused(d), "/data.1' is a symbolic link, not a regular file"));
	unlink(p1);
	assert_int_equal(mkfifo(p1, 0600), 0);	/* never opened: it would block */
	assert_non_null(strstr(refused(d), "/data.1' is not a regular file"));
	unlink(p1);
	assert_non_null(strstr(refused(d), "/data.1' is missing (perf record --threads wrote data.0 to data.2)"));
	assert_int_equal(synth_dir(d, hdr, files, 3, 1), 0);
	unlink(p2);	/* the last one: ID_INDEX says there were three */
	assert_non_null(strstr(refused(d), "/data.2' is missing"));
	/* data.1 cut inside its last record: the records before it, then an error */
	assert_int_equal(synth_dir(d, hdr, files, 3, 1), 0);
	assert_int_equal(bt_strbuf_read_file(&sb, p1, 0), 0);
	assert_int_equal(truncate(p1, (off_t)sb.len - 5), 0);
	r = bt_pd_open(d, &err);
	assert_non_null(r);
	while ((ret = bt_pd_next(r, &ev, &err)) > 0)
		;
	assert_true(ret < 0);
	assert_non_null(strstr(err.msg, "/data.1': record at offset"));
	assert_non_null(strstr(err.msg, "runs past the end of the data (truncated file?)"));
	bt_pd_close(r);
	assert_int_equal(test_rmdir(d), 0);
	unlink(hdr);
	unlink(even);
	unlink(odd);
	free(hdr);
	free(even);
	free(odd);
	free(d);
	free(p);
	free(p1);
	free(p2);
	bt_strbuf_release(&sb);
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
		cmocka_unit_test(test_dir),
		cmocka_unit_test(test_dir_refused),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
