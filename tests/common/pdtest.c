/*
 * perf.data files for the reader's tests (pdtest.h): a rich recording,
 * its records raw and read, records added by hand, compressed data as
 * perf record -z writes it.
 */
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "base.h"
#include "perf/meta.h"
#include "perf/perfdata-int.h"
#include "pdtest.h"
#include "synth.h"

struct bt_pd_attr
pdtest_attr(void)
{
	static uint64_t ids[2] = { 41, 42 };
	struct bt_pd_attr a;

	synth_attr(&a);
	a.ids = ids;
	a.nids = 2;
	return a;
}

char *
pdtest_file(const char *dir, const char *name)
{
	struct bt_pd_attr a = pdtest_attr();
	char *path = bt_xasprintf("%s/%s", dir, name);
	struct bt_error err = { 0 };
	struct bt_pd_writer *w = bt_pd_create(path, &a, 1, &err);
	struct bt_pd_features f;
	struct bt_pd_buildid bid;
	char *cmd[] = { (char *)"benchtui", (char *)"./bench", (char *)"arg with space", NULL };
	char *argv[] = { (char *)"./bench", (char *)"a\nb", NULL };
	struct bt_meta m;
	struct bt_strbuf sec = BT_STRBUF_INIT;

	if (w == NULL || synth_mmap2(w, 100, 0x400000, 0x1000, 0, "/bin/bench", 10) < 0)
		goto fail;
	for (int i = 0; i < 1000; i++)
		if (synth_sample(w, 0x400100 + (uint64_t)(i % 16), 100, 101,
		    20 + (uint64_t)i, PERF_RECORD_MISC_USER) < 0)
			goto fail;
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
	if (bt_pd_finish(w, &f, &err) < 0)
		FREE_AND_NULL(path);
	bt_strbuf_release(&sec);
	return path;
fail:
	if (w != NULL)
		bt_pd_abort(w);
	free(path);
	return NULL;
}

int
pdtest_records(const char *path, struct bt_strbuf *out)
{
	struct bt_error err = { 0 };
	struct bt_pd_reader *r = bt_pd_open(path, &err);
	const uint8_t *rec;
	uint32_t type;
	uint16_t misc;
	size_t size;

	if (r == NULL)
		return -1;
	while (pd_next_raw(r, &type, &misc, &rec, &size, &err) > 0)
		bt_strbuf_add(out, rec, size);
	bt_pd_close(r);
	return 0;
}


void
pdtest_summary(struct bt_pd_reader *r, struct bt_strbuf *out)
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

void
pdtest_add_rec(struct bt_strbuf *sb, uint32_t type, const void *body, size_t len)
{
	struct perf_event_header h = { type, 0, (uint16_t)(8 + len) };

	bt_strbuf_add(sb, &h, 8);
	bt_strbuf_add(sb, body, len);
}

int
pdtest_compress(struct bt_pd_writer *w, const struct bt_strbuf *stream,
		size_t piece, size_t max_out, bool v2)
{
	ZSTD_CCtx *c = ZSTD_createCCtx();
	uint8_t out[4096];
	size_t off;
	int ret = 0;

	if (max_out > sizeof(out) - 16)
		return -1;
	for (off = 0; off < stream->len; off += piece) {
		ZSTD_inBuffer in = { stream->buf + off, BT_MIN(piece, stream->len - off), 0 };
		struct perf_event_header fin = { BT_PD_FINISHED_ROUND, 0, 8 };
		size_t left;

		do {
			ZSTD_outBuffer o = { out + 16, max_out, 0 };
			struct perf_event_header h = { v2 ? 83 : 81, 0, 0 };
			uint64_t n;

			left = ZSTD_compressStream2(c, &o, &in, ZSTD_e_end);
			if (ZSTD_isError(left)) {
				ret = -1;
				break;
			}
			n = o.pos;
			if (v2) {
				size_t padded = (n + 7) & ~(size_t)7;
				memset(out + 16 + n, 0, padded - n);
				h.size = (uint16_t)(16 + padded);
				memcpy(out, &h, 8);
				memcpy(out + 8, &n, 8);
				ret |= bt_pd_write(w, out, h.size, NULL);
			} else {
				h.size = (uint16_t)(8 + n);
				memcpy(out + 8, &h, 8);
				ret |= bt_pd_write(w, out + 8, h.size, NULL);
			}
		} while (left != 0);
		ret |= bt_pd_write(w, &fin, 8, NULL);
	}
	ZSTD_freeCCtx(c);
	return ret < 0 ? -1 : 0;
}

char *
pdtest_compressed_file(const char *dir, const char *name,
		       const struct bt_strbuf *stream, size_t piece,
		       size_t max_out, bool v2)
{
	struct bt_pd_attr a = pdtest_attr();
	char *path = bt_xasprintf("%s/%s", dir, name);
	struct bt_error err = { 0 };
	struct bt_pd_writer *w = bt_pd_create(path, &a, 1, &err);
	struct bt_pd_features f;

	if (w == NULL)
		goto fail;
	if (pdtest_compress(w, stream, piece, max_out, v2) < 0) {
		bt_pd_abort(w);
		goto fail;
	}
	memset(&f, 0, sizeof(f));
	f.hostname = "host";
	if (bt_pd_finish(w, &f, &err) == 0)
		return path;
fail:
	free(path);
	return NULL;
}
