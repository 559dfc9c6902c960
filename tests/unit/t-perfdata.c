/* Unit tests: perf.data writer and reader round trip, and hostile input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base.h"
#include "perf/meta.h"
#include "perf/perfdata.h"
#include "synth.h"

static char dir[] = "/tmp/bt-pd.XXXXXX";

static struct bt_pd_attr
test_attr(void)
{
	static uint64_t ids[2] = { 41, 42 };
	struct bt_pd_attr a;

	synth_attr(&a);
	a.ids = ids;
	a.nids = 2;
	return a;
}

static char *
write_file(const char *name)
{
	struct bt_pd_attr a = test_attr();
	char *path = bt_xasprintf("%s/%s", dir, name);
	struct bt_error err = { 0 };
	struct bt_pd_writer *w = bt_pd_create(path, &a, 1, &err);
	struct bt_pd_features f;
	struct bt_pd_buildid bid;
	char *cmd[] = { (char *)"benchtui", (char *)"./bench", (char *)"arg with space", NULL };
	char *argv[] = { (char *)"./bench", (char *)"a\nb", NULL };
	struct bt_meta m;
	struct bt_strbuf sec = BT_STRBUF_INIT;

	assert_non_null(w);
	assert_int_equal(synth_mmap2(w, 100, 0x400000, 0x1000, 0, "/bin/bench", 10), 0);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(synth_sample(w, 0x400100 + (uint64_t)(i % 16), 100, 101,
		    20 + (uint64_t)i, PERF_RECORD_MISC_USER), 0);
	memset(&m, 0, sizeof(m));
	m.argv = argv;
	m.argc = 2;
	m.has_status = true;
	m.wait_status = 3 << 8;
	m.freq = 4000;
	m.duration = 1.25;
	m.lost = 7;
	m.vdso = "\x7f" "ELFimage";
	m.vdso_len = 9;
	bt_meta_encode(&m, &sec);
	memset(&bid, 0, sizeof(bid));
	bid.pid = -1;
	bid.misc = PERF_RECORD_MISC_USER;
	bid.size = 20;
	memset(bid.id, 0xab, 20);
	bid.filename = (char *)"/bin/bench";
	memset(&f, 0, sizeof(f));
	f.hostname = "host";
	f.osrelease = "6.1";
	f.arch = "x86_64";
	f.version = "benchtui test";
	f.nr_cpus_online = 2;
	f.nr_cpus_avail = 4;
	f.cmdline = cmd;
	f.buildids = &bid;
	f.nbuildids = 1;
	f.benchtui = sec.buf;
	f.benchtui_len = sec.len;
	assert_int_equal(bt_pd_finish(w, &f, &err), 0);
	bt_strbuf_release(&sec);
	return path;
}

static void
test_round_trip(void **state)
{
	char *path = write_file("rt.data");
	struct bt_error err = { 0 };
	struct bt_pd_reader *r = bt_pd_open(path, &err);
	struct bt_pd_event ev;
	const struct bt_pd_buildid *b;
	size_t argc, nsamples = 0, nmmaps = 0, len;
	char *const *cmd;
	const void *sec;
	struct bt_meta m;
	int ret;

	assert_non_null(r);
	assert_int_equal(bt_pd_nattrs(r), 1);
	assert_string_equal(bt_pd_attr(r, 0)->name, "cpu-clock");
	assert_int_equal(bt_pd_attr(r, 0)->nids, 2);
	assert_int_equal(bt_pd_attr(r, 0)->ids[1], 42);
	assert_string_equal(bt_pd_feature_str(r, BT_FEAT_HOSTNAME), "host");
	assert_string_equal(bt_pd_feature_str(r, BT_FEAT_ARCH), "x86_64");
	assert_int_equal(bt_pd_nr_cpus(r), 2);
	cmd = bt_pd_cmdline(r, &argc);
	assert_int_equal(argc, 3);
	assert_string_equal(cmd[2], "arg with space");
	assert_int_equal(bt_pd_buildids(r, &b), 1);
	assert_string_equal(b[0].filename, "/bin/bench");
	assert_int_equal(b[0].size, 20);
	assert_int_equal(b[0].id[19], 0xab);
	while ((ret = bt_pd_next(r, &ev, &err)) > 0) {
		if (ev.type == PERF_RECORD_SAMPLE) {
			assert_int_equal(ev.sample.ip, 0x400100 + nsamples % 16);
			assert_int_equal(ev.pid, 100);
			assert_int_equal(ev.tid, 101);
			assert_int_equal(ev.time, 20 + nsamples);
			assert_int_equal(ev.sample.period, 250000);
			nsamples++;
		} else if (ev.type == PERF_RECORD_MMAP2) {
			assert_string_equal(ev.u.mmap.filename, "/bin/bench");
			assert_int_equal(ev.u.mmap.start, 0x400000);
			assert_int_equal(ev.time, 10);
			nmmaps++;
		}
	}
	assert_int_equal(ret, 0);
	assert_int_equal(nsamples, 1000);
	assert_int_equal(nmmaps, 1);
	sec = bt_pd_benchtui(r, &len);
	assert_non_null(sec);
	assert_int_equal(bt_meta_decode(sec, len, &m), 0);
	assert_int_equal(m.argc, 2);
	assert_string_equal(m.argv[1], "a\nb");
	assert_int_equal(m.wait_status, 3 << 8);
	assert_int_equal(m.lost, 7);
	assert_int_equal(m.vdso_len, 9);
	assert_memory_equal(m.vdso, "\x7f" "ELFimage", 9);
	bt_meta_release(&m);
	bt_pd_close(r);
	unlink(path);
	free(path);
}

/* An existing file is kept as NAME.old; no NAME.tmp is left behind. */
static void
test_old_and_tmp(void **state)
{
	char *path = write_file("old.data");
	char *old = bt_xasprintf("%s.old", path), *tmp = bt_xasprintf("%s.tmp", path);

	free(write_file("old.data"));
	assert_int_equal(access(path, F_OK), 0);
	assert_int_equal(access(old, F_OK), 0);
	assert_int_not_equal(access(tmp, F_OK), 0);
	unlink(path);
	unlink(old);
	free(old);
	free(tmp);
	free(path);
}

/* Every truncation and many corruptions: an error or a clean read, never a crash. */
static void
test_hostile(void **state)
{
	char *path = write_file("h.data");
	struct bt_strbuf sb = BT_STRBUF_INIT;
	struct bt_error err;
	size_t cut;
	unsigned seed = 1;

	assert_int_equal(bt_strbuf_read_file(&sb, path, 0), 0);
	for (cut = 0; cut < sb.len; cut += cut < 400 ? 1 : 37) {
		struct bt_pd_reader *r = bt_pd_open_mem(sb.buf, cut, &err);
		struct bt_pd_event ev;
		if (r == NULL) {
			assert_true(err.msg[0] != '\0');
			continue;
		}
		while (bt_pd_next(r, &ev, &err) > 0)
			;
		bt_pd_close(r);
	}
	for (int round = 0; round < 2000; round++) {
		char *copy = bt_xmalloc(sb.len);
		struct bt_pd_reader *r;
		struct bt_pd_event ev;

		memcpy(copy, sb.buf, sb.len);
		for (int k = 0; k < 4; k++) {
			seed = seed * 1103515245 + 12345;
			copy[(seed >> 8) % sb.len] = (char)(seed >> 3);
		}
		r = bt_pd_open_mem(copy, sb.len, &err);
		if (r != NULL) {
			int n = 0;
			while (bt_pd_next(r, &ev, &err) > 0 && n < 100000)
				n++;
			bt_pd_close(r);
		}
		free(copy);
	}
	bt_strbuf_release(&sb);
	unlink(path);
	free(path);
}

static void
test_bad_files(void **state)
{
	struct bt_error err = { 0 };
	char *p = bt_xasprintf("%s/empty", dir);
	FILE *f = fopen(p, "w");

	fclose(f);
	assert_null(bt_pd_open(p, &err));
	assert_non_null(strstr(err.msg, "empty"));
	assert_null(bt_pd_open(dir, &err));
	assert_non_null(strstr(err.msg, "not a regular file"));
	assert_null(bt_pd_open("/nonexistent/x.data", &err));
	assert_int_equal(err.code, BT_ENOENT);
	assert_null(bt_pd_open_mem("PERFILE2\x10\0\0\0\0\0\0\0", 16, &err));
	assert_non_null(strstr(err.msg, "pipe"));
	assert_null(bt_pd_open_mem("hello world, not perf", 21, &err));
	assert_non_null(strstr(err.msg, "bad magic"));
	unlink(p);
	free(p);
}

/* A record cut by the end of the file: the message says so, raw or decoded. */
static void
test_truncated(void **state)
{
	char *path = write_file("t.data");
	struct bt_strbuf sb = BT_STRBUF_INIT;
	struct bt_error err = { 0 };
	struct bt_pd_reader *r;
	const uint8_t *rec;
	uint32_t type;
	uint16_t misc;
	size_t size, cut;
	struct bt_pd_event ev;
	int ret;

	assert_int_equal(bt_strbuf_read_file(&sb, path, 0), 0);
	r = bt_pd_open_mem(sb.buf, sb.len, &err);
	for (int k = 0; k < 10; k++)
		assert_int_equal(bt_pd_next_raw(r, &type, &misc, &rec, &size, &err), 1);
	cut = (size_t)((const char *)rec - sb.buf) + 5;	/* inside the 10th record */
	bt_pd_close(r);
	r = bt_pd_open_mem(sb.buf, cut, &err);
	assert_non_null(r);
	while ((ret = bt_pd_next_raw(r, &type, &misc, &rec, &size, &err)) > 0)
		;
	assert_true(ret < 0);
	assert_non_null(strstr(err.msg, "truncated record header"));
	bt_pd_close(r);
	cut += 8;	/* the header is there, the record is not */
	r = bt_pd_open_mem(sb.buf, cut, &err);
	while ((ret = bt_pd_next_raw(r, &type, &misc, &rec, &size, &err)) > 0)
		;
	assert_true(ret < 0);
	assert_non_null(strstr(err.msg, "runs past the end of the data (truncated file?)"));
	bt_pd_rewind(r);
	while ((ret = bt_pd_next(r, &ev, &err)) > 0)
		;
	assert_true(ret < 0);
	assert_non_null(strstr(err.msg, "runs past the end of the data (truncated file?)"));
	bt_pd_close(r);
	bt_strbuf_release(&sb);
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
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_old_and_tmp),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_truncated),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
