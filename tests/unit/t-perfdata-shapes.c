/*
 * Unit tests: the shapes other perf commands write, read as the plain
 * file's records: compressed (-z), pipe mode (-o -, also from standard
 * input), hardware trace (AUXTRACE payloads).
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

static char dir[] = "/tmp/bt-pdz.XXXXXX";

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
	char *plain = pdtest_file(dir, "plain.data");
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
	pdtest_summary(r, &want);
	bt_pd_close(r);
	pdtest_records(plain, &stream);
	for (size_t i = 0; i < BT_ARRAY_SIZE(cases); i++) {
		char *path = pdtest_compressed_file(dir, "z.data", &stream, cases[i].piece,
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
		pdtest_summary(r, &got);
		assert_string_equal(got.buf, want.buf);
		assert_true(bt_pd_compressed(r));
		/* the side-band pass: step over samples raw, back over the rest */
		bt_pd_rewind(r);
		bt_strbuf_reset(&got);
		for (;;) {
			do
				ret = pd_next_raw(r, &type, &misc, &rec, &size, &err);
			while (ret > 0 && type == PERF_RECORD_SAMPLE && ++nraw);
			if (ret <= 0)
				break;
			pd_seek(r, pd_tell(r) - size);
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
			assert_int_equal(pd_next_raw(r, &type, &misc, &rec, &size, &err), 1);
		mid = pd_tell(r);
		pdtest_summary(r, &got);
		pd_seek(r, mid);
		pdtest_summary(r, &again);
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
	char *plain = pdtest_file(dir, "plain2.data"), *path;
	struct bt_strbuf stream = BT_STRBUF_INIT, sb = BT_STRBUF_INIT;
	struct bt_error err;
	struct bt_pd_reader *r;
	char msg[128];
	struct bt_pd_event ev;
	unsigned seed = 7;
	uint64_t data_off;
	int ret, n = 0;

	pdtest_records(plain, &stream);
	/* the stream without the last 5 bytes: 999 samples, no error */
	stream.len -= 5;
	path = pdtest_compressed_file(dir, "zc.data", &stream, 900, 300, false);
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
	path = pdtest_compressed_file(dir, "zh.data", &stream, 900, 300, false);
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


static void
pipe_stream(struct bt_strbuf *sb, const struct bt_strbuf *data)
{
	struct bt_pd_attr a = pdtest_attr();
	uint64_t magic = 0x32454c4946524550ULL, hsize = 16;
	struct bt_strbuf rec = BT_STRBUF_INIT;
	uint8_t zero[64] = { 0 };
	uint64_t v;
	uint32_t n;

	bt_strbuf_add(sb, &magic, 8);
	bt_strbuf_add(sb, &hsize, 8);
	bt_strbuf_add(&rec, &a.attr, sizeof(a.attr));
	bt_strbuf_add(&rec, a.ids, a.nids * 8);
	pdtest_add_rec(sb, BT_PD_HEADER_ATTR, rec.buf, rec.len);
	bt_strbuf_reset(&rec);
	v = BT_FEAT_HOSTNAME;		/* HEADER_FEATURE: a perf_header_string */
	bt_strbuf_add(&rec, &v, 8);
	n = 8;
	bt_strbuf_add(&rec, &n, 4);
	bt_strbuf_add(&rec, "pipehost", 8);
	pdtest_add_rec(sb, 80, rec.buf, rec.len);
	bt_strbuf_reset(&rec);
	v = 2;				/* EVENT_UPDATE NAME, by id */
	bt_strbuf_add(&rec, &v, 8);
	v = 42;
	bt_strbuf_add(&rec, &v, 8);
	bt_strbuf_add(&rec, "cpu-clock:u\0\0\0\0\0", 16);
	pdtest_add_rec(sb, 78, rec.buf, rec.len);
	bt_strbuf_reset(&rec);
	n = 24;				/* TRACING_DATA: u32 size, then 24 bytes */
	bt_strbuf_add(&rec, &n, 4);
	bt_strbuf_add(&rec, zero, 4);
	pdtest_add_rec(sb, 66, rec.buf, rec.len);
	bt_strbuf_add(sb, zero, 24);
	pdtest_add_rec(sb, 82, "", 0);	/* FINISHED_INIT */
	bt_strbuf_add(sb, data->buf, data->len);
	bt_strbuf_release(&rec);
}

/* perf record -o -: read from memory, as a file, and from standard input. */
static void
test_pipe(void **state)
{
	char *plain = pdtest_file(dir, "p.data");
	char *path = bt_xasprintf("%s/pipe.data", dir);
	struct bt_strbuf data = BT_STRBUF_INIT, sb = BT_STRBUF_INIT;
	struct bt_strbuf want = BT_STRBUF_INIT, got = BT_STRBUF_INIT;
	struct bt_error err = { 0 };
	struct bt_pd_reader *r = bt_pd_open(plain, &err);
	int fds[2], saved;
	pid_t pid;
	FILE *f;

	pdtest_summary(r, &want);
	bt_pd_close(r);
	pdtest_records(plain, &data);
	pipe_stream(&sb, &data);
	r = bt_pd_open_mem(sb.buf, sb.len, &err);
	assert_non_null(r);
	assert_true(bt_pd_pipe(r));
	assert_int_equal(bt_pd_nattrs(r), 1);
	assert_string_equal(bt_pd_attr(r, 0)->name, "cpu-clock:u");
	assert_string_equal(bt_pd_feature_str(r, BT_FEAT_HOSTNAME), "pipehost");
	pdtest_summary(r, &got);
	assert_string_equal(got.buf, want.buf);
	bt_pd_close(r);
	f = fopen(path, "w");
	assert_int_equal(fwrite(sb.buf, 1, sb.len, f), sb.len);
	fclose(f);
	r = bt_pd_open(path, &err);
	assert_non_null(r);
	bt_strbuf_reset(&got);
	pdtest_summary(r, &got);
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
		pdtest_summary(r, &got);
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

	pdtest_add_rec(sb, 70, info, sizeof(info));
	while (off < data->len) {
		struct perf_event_header h;

		memcpy(&h, data->buf + off, 8);
		bt_strbuf_add(sb, data->buf + off, h.size);
		off += h.size;
		if (++k % every == 0) {
			uint64_t body[5] = { 64 + k * 8, 0, 0, 0, 0 };
			uint8_t aux[24] = { 0 };

			pdtest_add_rec(sb, 71, body, sizeof(body));
			bt_strbuf_addchars(sb, 0, 64 + k * 8);	/* "bad size 0" if read */
			pdtest_add_rec(sb, PERF_RECORD_AUX, aux, sizeof(aux));
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

	pdtest_summary(r, &got);
	assert_string_equal(got.buf, want);
	assert_true(aux->present);
	assert_string_equal(aux->kind, "Arm SPE");
	assert_int_equal(aux->records, 10);
	assert_int_equal(aux->bytes, bytes);
	/* read again the way the profile does (raw, back over the non-samples) */
	bt_pd_rewind(r);
	while ((ret = pd_next_raw(r, &type, &misc, &rec, &size, &err)) > 0)
		if (type != PERF_RECORD_SAMPLE) {
			pd_seek(r, pd_tell(r) - size);
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
	char *plain = pdtest_file(dir, "a.data");
	char *path = bt_xasprintf("%s/aux.data", dir);
	struct bt_strbuf data = BT_STRBUF_INIT, sb = BT_STRBUF_INIT, file = BT_STRBUF_INIT;
	struct bt_strbuf want = BT_STRBUF_INIT;
	struct bt_error err = { 0 };
	struct bt_pd_reader *r = bt_pd_open(plain, &err);
	struct bt_pd_attr a = pdtest_attr();
	struct bt_pd_writer *w;
	struct bt_pd_features f;
	struct bt_pd_event ev;
	uint64_t bytes = 0, data_off;
	int ret;

	pdtest_summary(r, &want);
	bt_pd_close(r);
	pdtest_records(plain, &data);
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
		cmocka_unit_test(test_compressed),
		cmocka_unit_test(test_compressed_hostile),
		cmocka_unit_test(test_pipe),
		cmocka_unit_test(test_auxtrace),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
