/*
 * Unit tests: perf.data writer and reader round trip, hostile input, a
 * file cut short. The other shapes perf writes: t-perfdata-shapes.c
 * (compressed, pipe mode, hardware trace) and t-perfdata-dir.c (perf
 * record --threads).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base.h"
#include "perf/meta.h"
#include "perf/perfdata-int.h"
#include "pdtest.h"
#include "synth.h"

static char dir[] = "/tmp/bt-pd.XXXXXX";


static void
test_round_trip(void **state)
{
	char *path = pdtest_file(dir, "rt.data");
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

/*
 * GROUP_DESC as perf record writes it ({anon_group}, the leader's index,
 * the members), read back; a group outside the attrs, or overlapping the
 * one before, is dropped. No groups: no feature.
 */
static void
test_groups(void **state)
{
	char *path = bt_xasprintf("%s/groups.data", dir);
	struct bt_pd_attr pa[3];
	struct bt_pd_group g[3] = {
		{ NULL, 1, 2 }, { "bad", 2, 2 }, { "x", 0, 2 },
	};
	struct bt_pd_features f;
	const struct bt_pd_group *rg;
	struct bt_error err = { 0 };
	struct bt_pd_writer *w;
	struct bt_pd_reader *r;
	const char *names[3] = { "page-faults", "cpu-clock", "task-clock" };
	uint64_t ids[3] = { 1, 2, 3 };
	/* a data section that is not empty: the features are read */
	struct perf_event_header fr = { BT_PD_FINISHED_ROUND, 0, sizeof(fr) };
	size_t i;

	(void)state;
	memset(pa, 0, sizeof(pa));
	for (i = 0; i < 3; i++) {
		pa[i].attr.type = PERF_TYPE_SOFTWARE;
		pa[i].attr.config = i == 0 ? 2 : i - 1;
		pa[i].attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_ID;
		pa[i].name = (char *)names[i];
		pa[i].ids = &ids[i];
		pa[i].nids = 1;
	}
	w = bt_pd_create(path, pa, 3, &err);
	assert_non_null(w);
	assert_int_equal(bt_pd_write(w, &fr, sizeof(fr), &err), 0);
	memset(&f, 0, sizeof(f));
	f.groups = g;
	f.ngroups = 3;
	assert_int_equal(bt_pd_finish(w, &f, &err), 0);
	r = bt_pd_open(path, &err);
	assert_non_null(r);
	assert_int_equal(bt_pd_groups(r, &rg), 1);
	assert_null(rg[0].name);
	assert_int_equal(rg[0].leader, 1);
	assert_int_equal(rg[0].nr_members, 2);
	assert_string_equal(bt_pd_attr(r, 2)->name, "task-clock");
	bt_pd_close(r);

	w = bt_pd_create(path, pa, 3, &err);
	assert_non_null(w);
	assert_int_equal(bt_pd_write(w, &fr, sizeof(fr), &err), 0);
	f.ngroups = 0;
	assert_int_equal(bt_pd_finish(w, &f, &err), 0);
	r = bt_pd_open(path, &err);
	assert_non_null(r);
	assert_int_equal(bt_pd_groups(r, &rg), 0);
	bt_pd_close(r);
	unlink(path);
	free(path);
	path = bt_xasprintf("%s/groups.data.old", dir);
	unlink(path);
	free(path);
}

/* An existing file is kept as NAME.old; no NAME.tmp is left behind. */
/*
 * The benchmark's output in benchtui's section: after the vDSO image,
 * binary (a line "vdso 3" inside it is not a key), and whatever follows.
 */
static void
test_meta_output(void **state)
{
	static const char out[] = "100 12\nvdso 3\nx\n\0\r\n200 4 2\nerr\n";
	struct bt_meta m, d;
	struct bt_strbuf sb = BT_STRBUF_INIT;

	memset(&m, 0, sizeof(m));
	m.freq = 4000;
	m.vdso = "\x7f" "ELF";
	m.vdso_len = 4;
	m.output = out;
	m.output_len = sizeof(out) - 1;
	m.clock_monotonic = true;
	m.cpu_mhz = 2300;
	snprintf(m.cpu_id, sizeof(m.cpu_id), "GenuineIntel,6,85");
	bt_meta_encode(&m, &sb);
	bt_strbuf_addstr(&sb, "lost 5\n");	/* a key after the output */
	assert_int_equal(bt_meta_decode(sb.buf, sb.len, &d), 0);
	assert_int_equal(d.vdso_len, 4);
	assert_int_equal(d.output_len, sizeof(out) - 1);
	assert_memory_equal(d.output, out, sizeof(out) - 1);
	assert_true(d.clock_monotonic);
	assert_true(d.cpu_mhz == 2300);
	assert_string_equal(d.cpu_id, "GenuineIntel,6,85");
	assert_int_equal(d.lost, 5);
	bt_meta_release(&d);
	/* cut inside the output: no output, no crash */
	assert_int_equal(bt_meta_decode(sb.buf, sb.len - 20, &d), 0);
	assert_null(d.output);
	bt_meta_release(&d);
	bt_strbuf_release(&sb);
}

/* Walk output chunks into got ("NS/STREAM/LEN/BYTES;" each); *stop: where the walk stopped. */
static int
chunks(const char *s, size_t len, const char **stop, char *got, size_t gotsz)
{
	const char *p = s, *bytes;
	uint64_t ns;
	size_t n, k = 0;
	int stream, rc;

	got[0] = '\0';
	while ((rc = bt_meta_output_next(&p, s + len, &ns, &stream, &bytes, &n)) > 0)
		k += (size_t)snprintf(got + k, gotsz - k, "%llu/%d/%zu/%.*s;",
		    (unsigned long long)ns, stream, n, (int)n, bytes);
	*stop = p;
	return rc;
}

/* The output's chunks read back, standard error told, each kind of bad chunk stops the walk. */
static void
test_meta_output_next(void **state)
{
	static const char ok[] = "100 12\nvdso 3\nx\n\0\r\n200 4 2\nerr\n300 0\n";
	static const char *const bad[] = {
		"100 3\nabc12 4",		/* a header without its newline */
		"100 3\nabc200 9\nshort",	/* LEN past the end */
		"100 3\nabcgarbage\nxyz",	/* not numbers */
		"100 3\nabc100\nx",		/* NS without LEN */
		/* a header of 64 bytes */
		"100 3\nabc1 1                                                             \nx",
	};
	const char *stop;
	char got[256];
	size_t i;

	assert_int_equal(chunks(ok, sizeof(ok) - 1, &stop, got, sizeof(got)), 0);
	/* (%.*s stops at the NUL inside the first chunk's 12 bytes) */
	assert_string_equal(got, "100/1/12/vdso 3\nx\n;200/2/4/err\n;300/1/0/;");
	assert_ptr_equal(stop, ok + sizeof(ok) - 1);
	/* empty: no chunk */
	assert_int_equal(chunks(ok, 0, &stop, got, sizeof(got)), 0);
	assert_string_equal(got, "");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(chunks(bad[i], strlen(bad[i]), &stop, got, sizeof(got)),
		    -BT_EFORMAT);
		assert_string_equal(got, "100/1/3/abc;");
		assert_ptr_equal(stop, bad[i] + 9);	/* where the bad chunk starts */
	}
}

/* The probes' hits: kept in order, their roles by name, unknown roles dropped. */
static void
test_meta_probes(void **state)
{
	struct bt_probe_hit h[3] = {
		{ 100, 0xc000, 7, BT_PROBE_GO_START, 0 },
		{ 150, 0, 7, BT_PROBE_GO_STOP, 0 },
		{ 160, 0, 8, BT_PROBE_GB_REPORT, 0 },
	};
	struct bt_meta m, d;
	struct bt_strbuf sb = BT_STRBUF_INIT;
	char *roles;

	(void)state;
	memset(&m, 0, sizeof(m));
	m.had_probes = true;
	m.hits = h;
	m.nhits = 3;
	m.probe_lost = 2;
	snprintf(m.probe_note, sizeof(m.probe_note), "why");
	snprintf(m.output_note, sizeof(m.output_note), "stdout was\n/dev/null");
	bt_meta_encode(&m, &sb);
	assert_int_equal(bt_meta_decode(sb.buf, sb.len, &d), 0);
	assert_true(d.had_probes);
	assert_int_equal(d.nhits, 3);
	assert_memory_equal(d.hits, h, sizeof(h));
	assert_int_equal(d.probe_lost, 2);
	assert_string_equal(d.probe_note, "why");
	assert_string_equal(d.output_note, "stdout was\n/dev/null");
	bt_meta_release(&d);
	/* a role this reader does not know (a newer writer's): its hits go */
	roles = strstr(sb.buf, "go.stop");
	assert_non_null(roles);
	memcpy(roles, "go.xxxx", 7);
	assert_int_equal(bt_meta_decode(sb.buf, sb.len, &d), 0);
	assert_int_equal(d.nhits, 2);
	assert_int_equal(d.hits[1].role, BT_PROBE_GB_REPORT);
	bt_meta_release(&d);
	bt_strbuf_release(&sb);
}

static void
test_old_and_tmp(void **state)
{
	char *path = pdtest_file(dir, "old.data");
	char *old = bt_xasprintf("%s.old", path), *tmp = bt_xasprintf("%s.tmp", path);

	free(pdtest_file(dir, "old.data"));
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
	char *path = pdtest_file(dir, "h.data");
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
	char *path = pdtest_file(dir, "t.data");
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
		assert_int_equal(pd_next_raw(r, &type, &misc, &rec, &size, &err), 1);
	cut = (size_t)((const char *)rec - sb.buf) + 5;	/* inside the 10th record */
	bt_pd_close(r);
	r = bt_pd_open_mem(sb.buf, cut, &err);
	assert_non_null(r);
	while ((ret = pd_next_raw(r, &type, &misc, &rec, &size, &err)) > 0)
		;
	assert_true(ret < 0);
	assert_non_null(strstr(err.msg, "truncated record header"));
	bt_pd_close(r);
	cut += 8;	/* the header is there, the record is not */
	r = bt_pd_open_mem(sb.buf, cut, &err);
	while ((ret = pd_next_raw(r, &type, &misc, &rec, &size, &err)) > 0)
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

/* A pipe-mode stream: header, attr, names and features as records, data. */

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
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_meta_output),
		cmocka_unit_test(test_meta_output_next),
		cmocka_unit_test(test_meta_probes),
		cmocka_unit_test(test_old_and_tmp),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_truncated),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
