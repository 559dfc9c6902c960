/*
 * The records of a compressed recording (`perf record -z`). perf
 * compresses what it drains from each ring buffer with zstd and writes it
 * as PERF_RECORD_COMPRESSED (81: the data to the end of the record) or
 * COMPRESSED2 (83: u64 data_size, the data, padding to 8 bytes) records,
 * between uncompressed ones (FINISHED_ROUND, the synthesized side-band).
 * Their data, in file order, is one zstd stream of ordinary records: a
 * frame may span several COMPRESSED records (one holds at most 64 KiB),
 * and a record may straddle two of them (the ring buffer wrapped), so the
 * stream is decoded in order with one decompression context, as perf's
 * session does.
 *
 * Memory: the stream is decompressed on demand into a fixed window
 * (ZBUF), never as a whole. The window keeps the last record returned
 * (pd_seek can go back over it) and the unread bytes; both are at most
 * 64 KiB (a record's size is a u16), so after moving them to the front
 * there is always room to decompress into. zstd's own window is what the
 * frames ask for: perf's frames hold one drain of a ring buffer (the
 * mmap size, 512 KiB by default); a frame may ask for at most
 * 2^27 bytes (128 MiB), zstd's default limit, which perf reads with.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "perf/perfdata-int.h"

#define ZBUF (256u << 10)
#define NO_LAST SIZE_MAX
#define PD_WINDOW_LOG_MAX 27	/* zstd's default limit (ZSTD_PD_WINDOWLOG_LIMIT_DEFAULT) */

struct pd_zstream {
	ZSTD_DStream *ds;
	const uint8_t *in;	/* zstd data of the COMPRESSED record being read */
	size_t in_len, in_pos;
	uint64_t in_off;	/* its file offset */
	uint8_t *buf;		/* ZBUF bytes: [head, tail) not yet returned */
	size_t head, tail;
	size_t last;		/* start of the last record returned, or NO_LAST */
	uint64_t base;		/* stream offset of buf[0] */
	uint64_t skip;		/* payload bytes still to step over */
};

struct pd_zstream *
pd_z_new(void)
{
	struct pd_zstream *z = bt_xcalloc(1, sizeof(*z));

	z->ds = ZSTD_createDStream();
	if (z->ds == NULL)
		bt_fatal_oom(ZBUF);
	ZSTD_DCtx_setParameter(z->ds, ZSTD_d_windowLogMax, PD_WINDOW_LOG_MAX);
	z->buf = bt_xmalloc(ZBUF);
	z->last = NO_LAST;
	return z;
}

void
pd_z_free(struct pd_zstream *z)
{
	if (z == NULL)
		return;
	ZSTD_freeDStream(z->ds);
	free(z->buf);
	free(z);
}

void
pd_z_reset(struct pd_zstream *z)
{
	ZSTD_DCtx_reset(z->ds, ZSTD_reset_session_only);
	z->in = NULL;
	z->in_len = z->in_pos = 0;
	z->in_off = 0;
	z->head = z->tail = 0;
	z->last = NO_LAST;
	z->base = 0;
	z->skip = 0;
}

void
pd_z_feed(struct pd_zstream *z, const uint8_t *data, size_t len, uint64_t off)
{
	z->in = data;
	z->in_len = len;
	z->in_pos = 0;
	z->in_off = off;
}

uint64_t
pd_z_tell(const struct pd_zstream *z)
{
	return PD_ZPOS | (z->base + z->head);
}

void
pd_z_unread(struct pd_zstream *z)
{
	if (z->last == NO_LAST)
		return;
	z->head = z->last;
	z->last = NO_LAST;
	z->skip = 0;	/* set by that record, if anything */
}

void
pd_z_skip(struct pd_zstream *z, uint64_t n)
{
	z->skip = n;
}

const char *
pd_z_where(const struct pd_zstream *z, uint64_t pos, char *buf, size_t len)
{
	snprintf(buf, len, "byte %llu of the decompressed data (compressed record at offset %llu)",
	    (unsigned long long)(pos & ~PD_ZPOS), (unsigned long long)z->in_off);
	return buf;
}

/* Decompress more of the current input: 1, 0 when there is none, or an error. */
static int
more(struct pd_zstream *z, struct bt_error *err)
{
	ZSTD_inBuffer in;
	ZSTD_outBuffer out;
	size_t ret;

	if (z->in_pos >= z->in_len)
		return 0;
	if (ZBUF - z->tail < ZBUF / 2) {
		/* keep the last record and the unread bytes, at most 128 KiB */
		size_t keep = z->last != NO_LAST && z->last < z->head ? z->last : z->head;

		memmove(z->buf, z->buf + keep, z->tail - keep);
		z->base += keep;
		z->head -= keep;
		z->tail -= keep;
		if (z->last != NO_LAST)
			z->last -= keep;
	}
	in.src = z->in;
	in.size = z->in_len;
	in.pos = z->in_pos;
	out.dst = z->buf;
	out.size = ZBUF;
	out.pos = z->tail;
	ret = ZSTD_decompressStream(z->ds, &out, &in);
	if (ZSTD_isError(ret))
		return bt_error_set(err, BT_EFORMAT,
		    "cannot decompress the compressed record at offset %llu: %s",
		    (unsigned long long)z->in_off, ZSTD_getErrorName(ret));
	if (in.pos == z->in_pos && out.pos == z->tail)
		return bt_error_set(err, BT_EFORMAT,
		    "cannot decompress the compressed record at offset %llu",
		    (unsigned long long)z->in_off);
	z->in_pos = in.pos;
	z->tail = out.pos;
	return 1;
}

int
pd_z_next(struct bt_pd_reader *r, const uint8_t **rec, size_t *size,
	  struct bt_error *err)
{
	struct pd_zstream *z = r->z;

	for (;;) {
		size_t avail = z->tail - z->head;
		int ret;

		if (z->skip) {
			size_t n = (size_t)BT_MIN(z->skip, (uint64_t)avail);

			z->head += n;
			z->skip -= n;
			avail -= n;
			z->last = NO_LAST;
		}
		if (!z->skip && avail >= 8) {
			uint16_t sz = pd_g16(r, z->buf + z->head + 6);

			if (sz < 8) {
				char where[128];

				return bt_error_set(err, BT_EFORMAT,
				    "record at %s has a bad size %u",
				    pd_z_where(z, pd_z_tell(z), where, sizeof(where)), sz);
			}
			if (sz <= avail) {
				*rec = z->buf + z->head;
				*size = sz;
				z->last = z->head;
				z->head += sz;
				return 1;
			}
		}
		ret = more(z, err);
		if (ret <= 0)
			return ret;
	}
}
