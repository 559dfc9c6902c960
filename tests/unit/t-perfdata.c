/*
 * Unit tests: perf.data writer and reader round trip, hostile input, and
 * the shapes other perf commands write: compressed (-z), pipe mode (-o -,
 * also from standard input), hardware trace (AUXTRACE payloads).
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
#include <zstd.h>

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
	bt_meta_encode(&m, &sb);
	bt_strbuf_addstr(&sb, "lost 5\n");	/* a key after the output */
	assert_int_equal(bt_meta_decode(sb.buf, sb.len, &d), 0);
	assert_int_equal(d.vdso_len, 4);
	assert_int_equal(d.output_len, sizeof(out) - 1);
	assert_memory_equal(d.output, out, sizeof(out) - 1);
	assert_true(d.clock_monotonic);
	assert_true(d.cpu_mhz == 2300);
	assert_int_equal(d.lost, 5);
	bt_meta_release(&d);
	/* cut inside the output: no output, no crash */
	assert_int_equal(bt_meta_decode(sb.buf, sb.len - 20, &d), 0);
	assert_null(d.output);
	bt_meta_release(&d);
	bt_strbuf_release(&sb);
}

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

/* The records of a file's data section, raw, and the file's offset of the data. */
static void
data_records(const char *path, struct bt_strbuf *out)
{
	struct bt_error err = { 0 };
	struct bt_pd_reader *r = bt_pd_open(path, &err);
	const uint8_t *rec;
	uint32_t type;
	uint16_t misc;
	size_t size;

	assert_non_null(r);
	while (bt_pd_next_raw(r, &type, &misc, &rec, &size, &err) > 0)
		bt_strbuf_add(out, rec, size);
	bt_pd_close(r);
}

/* What bt_pd_next reads, one line a record, to compare two readings. */
static void
summary(struct bt_pd_reader *r, struct bt_strbuf *out)
{
	struct bt_error err = { 0 };
	struct bt_pd_event ev;
	int ret;

	while ((ret = bt_pd_next(r, &ev, &err)) > 0) {
		if (ev.type >= BT_PD_HEADER_ATTR || ev.type == PERF_RECORD_AUX)
			continue;
		bt_strbuf_addf(out, "%u %u %u %llu", ev.type, ev.pid, ev.tid,
		    (unsigned long long)ev.time);
		if (ev.type == PERF_RECORD_SAMPLE)
			bt_strbuf_addf(out, " ip %llx", (unsigned long long)ev.sample.ip);
		if (ev.type == PERF_RECORD_MMAP2)
			bt_strbuf_addf(out, " %s", ev.u.mmap.filename);
		bt_strbuf_addch(out, '\n');
	}
	if (ret < 0)
		bt_strbuf_addf(out, "error: %s\n", err.msg);
}

static void
add_rec(struct bt_strbuf *sb, uint32_t type, const void *body, size_t len)
{
	struct perf_event_header h = { type, 0, (uint16_t)(8 + len) };

	bt_strbuf_add(sb, &h, 8);
	bt_strbuf_add(sb, body, len);
}

/*
 * The stream compressed as perf does: cut into pieces of piece bytes (a
 * ring buffer's drains: records straddle them), each piece one zstd
 * frame, written as COMPRESSED (v2: COMPRESSED2) records of at most
 * max_out bytes of data (so that a frame spans several), a FINISHED_ROUND
 * after each piece.
 */
static void
compress_stream(struct bt_pd_writer *w, const struct bt_strbuf *stream,
		size_t piece, size_t max_out, bool v2)
{
	ZSTD_CCtx *c = ZSTD_createCCtx();
	uint8_t out[4096];
	size_t off;

	assert_true(max_out <= sizeof(out) - 16);
	for (off = 0; off < stream->len; off += piece) {
		ZSTD_inBuffer in = { stream->buf + off, BT_MIN(piece, stream->len - off), 0 };
		struct perf_event_header fin = { BT_PD_FINISHED_ROUND, 0, 8 };
		size_t left;

		do {
			ZSTD_outBuffer o = { out + 16, max_out, 0 };
			struct perf_event_header h = { v2 ? 83 : 81, 0, 0 };
			uint64_t n;

			left = ZSTD_compressStream2(c, &o, &in, ZSTD_e_end);
			assert_false(ZSTD_isError(left));
			n = o.pos;
			if (v2) {
				size_t padded = (n + 7) & ~(size_t)7;
				memset(out + 16 + n, 0, padded - n);
				h.size = (uint16_t)(16 + padded);
				memcpy(out, &h, 8);
				memcpy(out + 8, &n, 8);
				assert_int_equal(bt_pd_write(w, out, h.size, NULL), 0);
			} else {
				h.size = (uint16_t)(8 + n);
				memcpy(out + 8, &h, 8);
				assert_int_equal(bt_pd_write(w, out + 8, h.size, NULL), 0);
			}
		} while (left != 0);
		assert_int_equal(bt_pd_write(w, &fin, 8, NULL), 0);
	}
	ZSTD_freeCCtx(c);
}

static char *
write_compressed(const char *name, const struct bt_strbuf *stream, size_t piece,
		 size_t max_out, bool v2)
{
	struct bt_pd_attr a = test_attr();
	char *path = bt_xasprintf("%s/%s", dir, name);
	struct bt_error err = { 0 };
	struct bt_pd_writer *w = bt_pd_create(path, &a, 1, &err);
	struct bt_pd_features f;

	assert_non_null(w);
	compress_stream(w, stream, piece, max_out, v2);
	memset(&f, 0, sizeof(f));
	f.hostname = "host";
	assert_int_equal(bt_pd_finish(w, &f, &err), 0);
	return path;
}

/*
 * perf record -z: the records come out of the COMPRESSED records as if
 * they had been written plainly, whether a record straddles two of them,
 * a frame spans several, or the records are COMPRESSED2; and the
 * profile's ways of moving (back over the last record, rewind, a
 * position told earlier) work inside the decompressed data.
 */
static void
test_compressed(void **state)
{
	char *plain = write_file("plain.data");
	struct bt_strbuf stream = BT_STRBUF_INIT, want = BT_STRBUF_INIT;
	struct bt_error err = { 0 };
	struct bt_pd_reader *r = bt_pd_open(plain, &err);
	static const struct { size_t piece, max_out; bool v2; } cases[] = {
		{ 1 << 20, 4000, false },	/* one frame, many records */
		{ 777, 4000, false },		/* records straddle frames */
		{ 5000, 100, true },		/* frames span records; v2 */
		{ 13, 30, false },		/* both, tiny */
	};

	assert_non_null(r);
	summary(r, &want);
	bt_pd_close(r);
	data_records(plain, &stream);
	for (size_t i = 0; i < BT_ARRAY_SIZE(cases); i++) {
		char *path = write_compressed("z.data", &stream, cases[i].piece,
		    cases[i].max_out, cases[i].v2);
		struct bt_strbuf got = BT_STRBUF_INIT, again = BT_STRBUF_INIT;
		uint64_t mid = 0, nraw = 0;
		const uint8_t *rec;
		uint32_t type;
		uint16_t misc;
		size_t size;
		struct bt_pd_event ev;
		int ret;

		r = bt_pd_open(path, &err);
		assert_non_null(r);
		summary(r, &got);
		assert_string_equal(got.buf, want.buf);
		assert_true(bt_pd_compressed(r));
		/* the side-band pass: step over samples raw, back over the rest */
		bt_pd_rewind(r);
		bt_strbuf_reset(&got);
		for (;;) {
			do
				ret = bt_pd_next_raw(r, &type, &misc, &rec, &size, &err);
			while (ret > 0 && type == PERF_RECORD_SAMPLE && ++nraw);
			if (ret <= 0)
				break;
			bt_pd_seek(r, bt_pd_tell(r) - size);
			assert_int_equal(bt_pd_next(r, &ev, &err), 1);
			assert_int_equal(ev.type, type);
			if (ev.type == PERF_RECORD_MMAP2)
				bt_strbuf_addstr(&got, ev.u.mmap.filename);
		}
		assert_int_equal(ret, 0);
		assert_int_equal(nraw, 1000);
		assert_string_equal(got.buf, "/bin/bench");
		/* a position told in the middle, sought from the end */
		bt_pd_rewind(r);
		for (int k = 0; k < 500; k++)
			assert_int_equal(bt_pd_next_raw(r, &type, &misc, &rec, &size, &err), 1);
		mid = bt_pd_tell(r);
		summary(r, &got);
		bt_pd_seek(r, mid);
		summary(r, &again);
		assert_string_equal(got.buf + strlen("/bin/bench"), again.buf);
		bt_pd_close(r);
		unlink(path);
		free(path);
		bt_strbuf_release(&got);
		bt_strbuf_release(&again);
	}
	bt_strbuf_release(&stream);
	bt_strbuf_release(&want);
	unlink(plain);
	free(plain);
}

/*
 * Damaged compressed data: an error naming the record, never a crash; a
 * record cut at the end of the last compressed record is dropped (perf
 * drops it too).
 */
static void
test_compressed_hostile(void **state)
{
	char *plain = write_file("plain2.data"), *path;
	struct bt_strbuf stream = BT_STRBUF_INIT, sb = BT_STRBUF_INIT;
	struct bt_error err;
	struct bt_pd_reader *r;
	char msg[128];
	struct bt_pd_event ev;
	unsigned seed = 7;
	uint64_t data_off;
	int ret, n = 0;

	data_records(plain, &stream);
	/* the stream without the last 5 bytes: 999 samples, no error */
	stream.len -= 5;
	path = write_compressed("zc.data", &stream, 900, 300, false);
	r = bt_pd_open(path, &err);
	assert_non_null(r);
	while ((ret = bt_pd_next(r, &ev, &err)) > 0)
		n += ev.type == PERF_RECORD_SAMPLE;
	assert_int_equal(ret, 0);
	assert_int_equal(n, 999);
	bt_pd_close(r);
	unlink(path);
	free(path);
	stream.len += 5;
	/* the zstd magic of the first compressed record damaged */
	path = write_compressed("zh.data", &stream, 900, 300, false);
	assert_int_equal(bt_strbuf_read_file(&sb, path, 0), 0);
	memcpy(&data_off, sb.buf + 40, 8);
	sb.buf[data_off + 8] ^= 0x55;
	r = bt_pd_open_mem(sb.buf, sb.len, &err);
	assert_non_null(r);
	while ((ret = bt_pd_next(r, &ev, &err)) > 0)
		;
	assert_true(ret < 0);
	snprintf(msg, sizeof(msg),
	    "cannot decompress the compressed record at offset %llu: ",
	    (unsigned long long)data_off);
	assert_non_null(strstr(err.msg, msg));
	bt_pd_close(r);
	sb.buf[data_off + 8] ^= 0x55;
	for (int round = 0; round < 3000; round++) {
		char *copy = bt_xmalloc(sb.len);
		size_t cut = round < 1000 ? sb.len * (size_t)round / 1000 : sb.len;

		memcpy(copy, sb.buf, sb.len);
		for (int k = 0; round >= 1000 && k < 3; k++) {
			seed = seed * 1103515245 + 12345;
			copy[104 + (seed >> 8) % (sb.len - 104)] = (char)(seed >> 3);
		}
		r = bt_pd_open_mem(copy, cut, &err);
		if (r != NULL) {
			n = 0;
			while ((ret = bt_pd_next(r, &ev, &err)) > 0 && n < 100000)
				n++;
			if (ret < 0)
				assert_true(err.msg[0] != '\0');
			bt_pd_close(r);
		}
		free(copy);
	}
	bt_strbuf_release(&sb);
	bt_strbuf_release(&stream);
	unlink(path);
	unlink(plain);
	free(path);
	free(plain);
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

/* A pipe-mode stream: header, attr, names and features as records, data. */
static void
pipe_stream(struct bt_strbuf *sb, const struct bt_strbuf *data)
{
	struct bt_pd_attr a = test_attr();
	uint64_t magic = 0x32454c4946524550ULL, hsize = 16;
	struct bt_strbuf rec = BT_STRBUF_INIT;
	uint8_t zero[64] = { 0 };
	uint64_t v;
	uint32_t n;

	bt_strbuf_add(sb, &magic, 8);
	bt_strbuf_add(sb, &hsize, 8);
	bt_strbuf_add(&rec, &a.attr, sizeof(a.attr));
	bt_strbuf_add(&rec, a.ids, a.nids * 8);
	add_rec(sb, BT_PD_HEADER_ATTR, rec.buf, rec.len);
	bt_strbuf_reset(&rec);
	v = BT_FEAT_HOSTNAME;		/* HEADER_FEATURE: a perf_header_string */
	bt_strbuf_add(&rec, &v, 8);
	n = 8;
	bt_strbuf_add(&rec, &n, 4);
	bt_strbuf_add(&rec, "pipehost", 8);
	add_rec(sb, 80, rec.buf, rec.len);
	bt_strbuf_reset(&rec);
	v = 2;				/* EVENT_UPDATE NAME, by id */
	bt_strbuf_add(&rec, &v, 8);
	v = 42;
	bt_strbuf_add(&rec, &v, 8);
	bt_strbuf_add(&rec, "cpu-clock:u\0\0\0\0\0", 16);
	add_rec(sb, 78, rec.buf, rec.len);
	bt_strbuf_reset(&rec);
	n = 24;				/* TRACING_DATA: u32 size, then 24 bytes */
	bt_strbuf_add(&rec, &n, 4);
	bt_strbuf_add(&rec, zero, 4);
	add_rec(sb, 66, rec.buf, rec.len);
	bt_strbuf_add(sb, zero, 24);
	add_rec(sb, 82, "", 0);	/* FINISHED_INIT */
	bt_strbuf_add(sb, data->buf, data->len);
	bt_strbuf_release(&rec);
}

/* perf record -o -: read from memory, as a file, and from standard input. */
static void
test_pipe(void **state)
{
	char *plain = write_file("p.data");
	char *path = bt_xasprintf("%s/pipe.data", dir);
	struct bt_strbuf data = BT_STRBUF_INIT, sb = BT_STRBUF_INIT;
	struct bt_strbuf want = BT_STRBUF_INIT, got = BT_STRBUF_INIT;
	struct bt_error err = { 0 };
	struct bt_pd_reader *r = bt_pd_open(plain, &err);
	int fds[2], saved;
	pid_t pid;
	FILE *f;

	summary(r, &want);
	bt_pd_close(r);
	data_records(plain, &data);
	pipe_stream(&sb, &data);
	r = bt_pd_open_mem(sb.buf, sb.len, &err);
	assert_non_null(r);
	assert_true(bt_pd_pipe(r));
	assert_int_equal(bt_pd_nattrs(r), 1);
	assert_string_equal(bt_pd_attr(r, 0)->name, "cpu-clock:u");
	assert_string_equal(bt_pd_feature_str(r, BT_FEAT_HOSTNAME), "pipehost");
	summary(r, &got);
	assert_string_equal(got.buf, want.buf);
	bt_pd_close(r);
	f = fopen(path, "w");
	assert_int_equal(fwrite(sb.buf, 1, sb.len, f), sb.len);
	fclose(f);
	r = bt_pd_open(path, &err);
	assert_non_null(r);
	bt_strbuf_reset(&got);
	summary(r, &got);
	assert_string_equal(got.buf, want.buf);
	bt_pd_close(r);
	/* standard input, a pipe: read twice, the same */
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fds[0]);
		_exit(write(fds[1], sb.buf, sb.len) == (ssize_t)sb.len ? 0 : 1);
	}
	close(fds[1]);
	saved = dup(STDIN_FILENO);
	dup2(fds[0], STDIN_FILENO);
	close(fds[0]);
	for (int k = 0; k < 2; k++) {
		r = bt_pd_open("-", &err);
		assert_non_null(r);
		bt_strbuf_reset(&got);
		summary(r, &got);
		assert_string_equal(got.buf, want.buf);
		bt_pd_close(r);
	}
	dup2(saved, STDIN_FILENO);
	close(saved);
	waitpid(pid, NULL, 0);
	unlink(path);
	unlink(plain);
	free(path);
	free(plain);
	bt_strbuf_release(&data);
	bt_strbuf_release(&sb);
	bt_strbuf_release(&want);
	bt_strbuf_release(&got);
}

/* Hardware trace: each AUXTRACE's payload stepped over, the samples read. */
static void
aux_records(struct bt_strbuf *sb, const struct bt_strbuf *data, size_t every)
{
	uint8_t info[16] = { 4 };	/* AUXTRACE_INFO: type 4 (Arm SPE) */
	size_t off = 0, k = 0;

	add_rec(sb, 70, info, sizeof(info));
	while (off < data->len) {
		struct perf_event_header h;

		memcpy(&h, data->buf + off, 8);
		bt_strbuf_add(sb, data->buf + off, h.size);
		off += h.size;
		if (++k % every == 0) {
			uint64_t body[5] = { 64 + k * 8, 0, 0, 0, 0 };
			uint8_t aux[24] = { 0 };

			add_rec(sb, 71, body, sizeof(body));
			bt_strbuf_addchars(sb, 0, 64 + k * 8);	/* "bad size 0" if read */
			add_rec(sb, PERF_RECORD_AUX, aux, sizeof(aux));
		}
	}
}

/*
 * The records read past every payload as the plain file's; what was
 * skipped counted once, however often the records are read; a cut inside
 * a payload named as such.
 */
static void
check_aux(struct bt_pd_reader *r, const char *want, uint64_t bytes)
{
	struct bt_strbuf got = BT_STRBUF_INIT;
	struct bt_error err = { 0 };
	const struct bt_pd_auxtrace *aux = bt_pd_auxtrace(r);
	const uint8_t *rec;
	uint32_t type;
	uint16_t misc;
	size_t size;
	struct bt_pd_event ev;
	int ret;

	summary(r, &got);
	assert_string_equal(got.buf, want);
	assert_true(aux->present);
	assert_string_equal(aux->kind, "Arm SPE");
	assert_int_equal(aux->records, 10);
	assert_int_equal(aux->bytes, bytes);
	/* read again the way the profile does (raw, back over the non-samples) */
	bt_pd_rewind(r);
	while ((ret = bt_pd_next_raw(r, &type, &misc, &rec, &size, &err)) > 0)
		if (type != PERF_RECORD_SAMPLE) {
			bt_pd_seek(r, bt_pd_tell(r) - size);
			assert_int_equal(bt_pd_next(r, &ev, &err), 1);
			assert_int_equal(ev.type, type);
		}
	assert_int_equal(ret, 0);
	assert_int_equal(aux->records, 10);
	bt_strbuf_release(&got);
}

static void
test_auxtrace(void **state)
{
	char *plain = write_file("a.data");
	char *path = bt_xasprintf("%s/aux.data", dir);
	struct bt_strbuf data = BT_STRBUF_INIT, sb = BT_STRBUF_INIT, file = BT_STRBUF_INIT;
	struct bt_strbuf want = BT_STRBUF_INIT;
	struct bt_error err = { 0 };
	struct bt_pd_reader *r = bt_pd_open(plain, &err);
	struct bt_pd_attr a = test_attr();
	struct bt_pd_writer *w;
	struct bt_pd_features f;
	struct bt_pd_event ev;
	uint64_t bytes = 0, data_off;
	int ret;

	summary(r, &want);
	bt_pd_close(r);
	data_records(plain, &data);
	aux_records(&sb, &data, 100);
	for (size_t k = 100; k <= 1001; k += 100)
		bytes += 64 + k * 8;
	/* a file */
	w = bt_pd_create(path, &a, 1, &err);
	assert_non_null(w);
	assert_int_equal(bt_pd_write(w, sb.buf, sb.len, &err), 0);
	memset(&f, 0, sizeof(f));
	assert_int_equal(bt_pd_finish(w, &f, &err), 0);
	r = bt_pd_open(path, &err);
	assert_non_null(r);
	check_aux(r, want.buf, bytes);
	bt_pd_close(r);
	/* cut inside the last payload */
	assert_int_equal(bt_strbuf_read_file(&file, path, 0), 0);
	memcpy(&data_off, file.buf + 40, 8);
	r = bt_pd_open_mem(file.buf, data_off + sb.len - 100, &err);
	assert_non_null(r);
	while ((ret = bt_pd_next(r, &ev, &err)) > 0)
		;
	assert_true(ret < 0);
	assert_non_null(strstr(err.msg, "the payload of the record at offset"));
	assert_non_null(strstr(err.msg, "runs past the end of the data (truncated file?)"));
	bt_pd_close(r);
	/* pipe mode */
	bt_strbuf_reset(&file);
	pipe_stream(&file, &sb);
	r = bt_pd_open_mem(file.buf, file.len, &err);
	assert_non_null(r);
	check_aux(r, want.buf, bytes);
	bt_pd_close(r);
	unlink(path);
	unlink(plain);
	free(path);
	free(plain);
	bt_strbuf_release(&data);
	bt_strbuf_release(&sb);
	bt_strbuf_release(&file);
	bt_strbuf_release(&want);
}

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
	struct bt_pd_attr a = test_attr();
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
	uint64_t last = 0, nrec = 0, nsamples = 0, rounds = 0, mid = 0;
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
	assert_true(bt_pd_stable(r));
	assert_false(bt_pd_compressed(r));
	assert_false(bt_pd_auxtrace(r)->present);
	/* the profile's way: samples raw, back over the others to decode them */
	bt_pd_rewind(r);
	summary(r, &want);
	bt_pd_rewind(r);
	nrec = 0;
	while ((ret = bt_pd_next_raw(r, &type, &misc, &rec, &size, &err)) > 0) {
		if (++nrec == 1000)
			mid = bt_pd_tell(r) - size;
		if (type == PERF_RECORD_SAMPLE)
			continue;
		bt_pd_seek(r, bt_pd_tell(r) - size);
		assert_int_equal(bt_pd_next(r, &ev, &err), 1);
		assert_int_equal(ev.type, type);
	}
	assert_int_equal(ret, 0);
	/* a position told earlier: the same records from there on, twice */
	from = strstr(want.buf, "\n9 100 100 1096 ip ");	/* the 1000th record */
	assert_non_null(from);
	bt_pd_seek(r, mid);
	summary(r, &got);
	assert_string_equal(got.buf, from + 1);
	bt_strbuf_reset(&got);
	bt_pd_seek(r, mid);
	summary(r, &got);
	assert_string_equal(got.buf, from + 1);
	bt_pd_close(r);
	/* data.1 compressed (in pieces, with FINISHED_ROUNDs of its own) */
	data_records(odd, &stream);
	zodd = write_compressed("zodd.data", &stream, 777, 4000, false);
	files[1] = zodd;
	assert_int_equal(synth_dir(dz, hdr, files, 3, 1), 0);
	r = bt_pd_open(dz, &err);
	assert_non_null(r);
	bt_strbuf_reset(&got);
	summary(r, &got);
	assert_string_equal(got.buf, want.buf);
	assert_true(bt_pd_compressed(r));
	bt_pd_rewind(r);
	while ((ret = bt_pd_next_raw(r, &type, &misc, &rec, &size, &err)) > 0 &&
	    !(type == PERF_RECORD_SAMPLE && !bt_pd_stable(r)))
		;
	assert_int_equal(ret, 1);
	snprintf(buf, sizeof(buf), "of the decompressed data (compressed record at offset");
	assert_non_null(strstr(bt_pd_where(r, bt_pd_tell(r) - size, where, sizeof(where)), buf));
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
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_meta_output),
		cmocka_unit_test(test_old_and_tmp),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_compressed),
		cmocka_unit_test(test_compressed_hostile),
		cmocka_unit_test(test_pipe),
		cmocka_unit_test(test_auxtrace),
		cmocka_unit_test(test_dir),
		cmocka_unit_test(test_dir_refused),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
