/*
 * The records of the data section, one after another (perfdata-int.h): a
 * mapped file's, a window of compressed data's, a directory's merged; the
 * position of each, going back to one, and the pages kept or given back.
 */
#include <sys/mman.h>

#include "perf/perfdata-int.h"

/* Give back the pages of a big mapped file well behind the read position. */
void
pd_drop_pages(struct bt_pd_reader *r)
{
	uint64_t upto;

	if (!r->mapped || r->size <= PD_WINDOW)
		return;
	upto = BT_MIN(r->pos - PD_WINDOW, r->hold) & ~(uint64_t)4095;
	if (upto <= r->dropped)
		return;
	madvise((void *)(r->data + r->dropped), upto - r->dropped, MADV_DONTNEED);
	r->dropped = upto;
}

/*
 * Record types the iteration handles itself: a payload follows them in
 * the file (TRACING_DATA, AUXTRACE), they hold other records
 * (COMPRESSED, COMPRESSED2), or they say what the file holds
 * (AUXTRACE_INFO). Bit (type - 64).
 */
#define PD_SPECIAL ((1ULL << (PD_HEADER_TRACING_DATA - 64)) | \
	(1ULL << (PD_AUXTRACE_INFO - 64)) | (1ULL << (PD_AUXTRACE - 64)) | \
	(1ULL << (PD_COMPRESSED - 64)) | (1ULL << (PD_COMPRESSED2 - 64)))

static bool
special(uint32_t type)
{
	return type >= 64 && type < 128 && (PD_SPECIAL >> (type - 64)) & 1;
}

static const char *const aux_kinds[] = {
	NULL, "Intel PT", "Intel BTS", "CoreSight ETM", "Arm SPE",
	"s390 CPU-MF", "HiSilicon PTT",
};

int
pd_payload(struct bt_pd_reader *r, uint32_t type, const uint8_t *p,
	   uint16_t sz, uint64_t *payload)
{
	*payload = 0;
	switch (type) {
	case PD_HEADER_TRACING_DATA:
		if (sz < 12)
			return -1;
		*payload = pd_g32(r, p + 8);
		break;
	case PD_AUXTRACE:
		if (sz < 16)
			return -1;
		*payload = pd_g64(r, p + 8);
		r->aux.present = true;
		break;
	case PD_AUXTRACE_INFO:
		r->aux.present = true;
		if (sz >= 12 && pd_g32(r, p + 8) < BT_ARRAY_SIZE(aux_kinds))
			r->aux.kind = aux_kinds[pd_g32(r, p + 8)];
		break;
	}
	return 0;
}

/*
 * The zstd data of a COMPRESSED (to the end of the record) or COMPRESSED2
 * (u64 data_size, then the data and padding) record; -1 when it does not
 * fit in the record.
 */
static int
compressed_data(struct bt_pd_reader *r, uint32_t type, const uint8_t *p,
		uint16_t sz, const uint8_t **data, size_t *len)
{
	uint64_t n;

	if (type == PD_COMPRESSED) {
		*data = p + 8;
		*len = sz - 8u;
		return 0;
	}
	if (sz < 16)
		return -1;
	n = pd_g64(r, p + 8);
	if (n > sz - 16u)
		return -1;
	*data = p + 16;
	*len = (size_t)n;
	return 0;
}

/* Where a record is, for messages: "offset N" or a place in compressed data. */
const char *
bt_pd_where(const struct bt_pd_reader *r, uint64_t pos, char *buf, size_t len)
{
	if (r->dir != NULL)
		return pd_dir_where(r, pos, buf, len);
	if (pos & PD_ZPOS && r->z != NULL)
		return pd_z_where(r->z, pos, buf, len);
	snprintf(buf, len, "offset %llu", (unsigned long long)pos);
	return buf;
}

int
pd_too_short(const struct bt_pd_reader *r, uint64_t pos, uint32_t type, size_t sz,
	  struct bt_error *err)
{
	char buf[384];

	return bt_error_set(err, BT_EFORMAT,
	    "record of type %u at %s is too short (%zu bytes)", type,
	    bt_pd_where(r, pos, buf, sizeof(buf)), sz);
}

/*
 * The record at the read position of the file: 1 with *p and *sz (checked
 * against the end of the data), 0 at the end, or an error.
 */
static inline int
file_record(struct bt_pd_reader *r, const uint8_t **p, uint16_t *sz,
	    struct bt_error *err)
{
	uint64_t end = r->data_sec.offset + r->data_sec.size;
	unsigned long long at = r->pos;

	if (r->pos >= end)
		return 0;
	pd_drop_behind(r);
	if (r->unfinished && (end - r->pos < 8 || pd_g16(r, r->data + r->pos + 6) > end - r->pos)) {
		r->pos = end;	/* the record being written when it stopped */
		return 0;
	}
	if (end - r->pos < 8) {
		bt_error_set(err, BT_EFORMAT, "truncated record header at offset %llu", at);
		return -BT_EFORMAT;
	}
	*p = r->data + r->pos;
	*sz = pd_g16(r, *p + 6);
	if (*sz < 8) {
		bt_error_set(err, BT_EFORMAT, "record at offset %llu has a bad size %u",
		    at, *sz);
		return -BT_EFORMAT;
	}
	if (*sz > end - r->pos) {
		bt_error_set(err, BT_EFORMAT,
		    "record at offset %llu runs past the end of the data (truncated file?)", at);
		return -BT_EFORMAT;
	}
	/*
	 * The next record's first lines (its fields, registers and the top of
	 * a stack copy) on their way while this one is decoded: with 8 KiB
	 * stack copies, records are pages apart and each was a cache miss.
	 */
	if (*sz >= 1024 && end - r->pos - *sz >= 256) {
		__builtin_prefetch(*p + *sz);
		__builtin_prefetch(*p + *sz + 64);
		__builtin_prefetch(*p + *sz + 128);
		__builtin_prefetch(*p + *sz + 192);
	}
	return 1;
}

/*
 * The next record, wherever it comes from: the decompressed stream while
 * it has whole records, else the file, where COMPRESSED records feed the
 * stream and a payload after the last record is stepped over. *at is the
 * record's position (pd_tell before it).
 */
static int
fetch_slow(struct bt_pd_reader *r, const uint8_t **rec, size_t *size,
	   uint64_t *at, struct bt_error *err)
{
	uint64_t end = r->data_sec.offset + r->data_sec.size;
	char buf[384];

	for (;;) {
		const uint8_t *p;
		uint32_t type;
		uint16_t sz;
		uint64_t payload;
		int ret;

		if (r->z != NULL) {
			uint64_t zpos = pd_z_tell(r->z);

			ret = pd_z_next(r, rec, size, err);
			if (ret < 0)
				return ret;
			if (ret > 0) {
				p = *rec;
				type = pd_g32(r, p);
				if (type == PD_COMPRESSED || type == PD_COMPRESSED2)
					return bt_error_set(err, BT_EFORMAT,
					    "compressed record inside compressed data at %s",
					    bt_pd_where(r, zpos, buf, sizeof(buf)));
				if (special(type)) {
					if (pd_payload(r, type, p, (uint16_t)*size, &payload) < 0)
						return pd_too_short(r, zpos, type, *size, err);
					pd_z_skip(r->z, payload);
				}
				r->zlive = true;
				*at = r->last = zpos;
				return 1;
			}
		}
		if (r->skip) {
			r->pos += r->skip;	/* checked against the end when read */
			r->skip = 0;
		}
		/* at the end, a record cut between two compressed ones is dropped, as perf does */
		ret = file_record(r, &p, &sz, err);
		if (ret <= 0)
			return ret;
		type = pd_g32(r, p);
		if (type == PD_COMPRESSED || type == PD_COMPRESSED2) {
			const uint8_t *data;
			size_t len;

			if (compressed_data(r, type, p, sz, &data, &len) < 0)
				return pd_too_short(r, r->pos, type, sz, err);
			if (r->z == NULL)
				r->z = pd_z_new();
			pd_z_feed(r->z, data, len, r->pos);
			r->zseen = true;
			r->pos += sz;
			continue;
		}
		if (pd_payload(r, type, p, sz, &payload) < 0)
			return pd_too_short(r, r->pos, type, sz, err);
		if (payload > end - r->pos - sz)
			return bt_error_set(err, BT_EFORMAT,
			    "the payload of the record at offset %llu runs past the end of the data (truncated file?)",
			    (unsigned long long)r->pos);
		if (type == PD_AUXTRACE && r->pos >= r->aux_seen) {
			r->aux.records++;
			r->aux.bytes += payload;
			r->aux_seen = r->pos + 1;
		}
		r->zlive = false;
		*at = r->last = r->pos;
		r->pos += sz;
		r->skip = payload;
		*rec = p;
		*size = sz;
		return 1;
	}
}

/*
 * The next record. The common case (no compressed data, no payload
 * pending, an ordinary record) is read here, inline: the profile's fast
 * path (pd_next_raw) runs it for every sample.
 */
static inline int
fetch(struct bt_pd_reader *r, const uint8_t **rec, size_t *size, uint64_t *at,
      struct bt_error *err)
{
	const uint8_t *p;
	uint16_t sz;
	int ret;

	if (r->z != NULL || r->skip)
		return fetch_slow(r, rec, size, at, err);
	ret = file_record(r, &p, &sz, err);
	if (ret <= 0)	/* a directory's records come from its files, merged */
		return ret == 0 && r->dir != NULL ? pd_dir_fetch(r, rec, size, at, err) : ret;
	if (special(pd_g32(r, p)))
		return fetch_slow(r, rec, size, at, err);
	*at = r->pos;
	r->pos += sz;
	*rec = p;
	*size = sz;
	return 1;
}

int
pd_fetch(struct bt_pd_reader *r, const uint8_t **rec, size_t *size,
	 uint64_t *at, struct bt_error *err)
{
	return fetch(r, rec, size, at, err);
}

int
pd_next_raw(struct bt_pd_reader *r, uint32_t *type, uint16_t *misc,
	       const uint8_t **rec, size_t *size, struct bt_error *err)
{
	uint64_t at;
	int ret = fetch(r, rec, size, &at, err);

	if (ret > 0) {
		*type = pd_g32(r, *rec);
		*misc = pd_g16(r, *rec + 4);
	}
	return ret;
}

uint64_t
pd_tell(const struct bt_pd_reader *r)
{
	if (r->dir != NULL)
		return pd_dir_tell(r);
	return r->z != NULL && r->zlive ? pd_z_tell(r->z) : r->pos;
}

void
pd_seek(struct bt_pd_reader *r, uint64_t pos)
{
	const uint8_t *rec;
	size_t size;
	uint64_t at;

	if (r->dir != NULL) {
		pd_dir_seek(r, pos);
		return;
	}
	if (pos == pd_tell(r))
		return;
	if (r->z == NULL) {
		if (pos >= r->data_sec.offset &&
		    pos <= r->data_sec.offset + r->data_sec.size) {
			r->pos = pos;
			r->skip = 0;
		}
		return;
	}
	if (pos == r->last) {	/* back over the record just read */
		if (r->zlive)
			pd_z_unread(r->z);
		else {
			r->pos = pos;
			r->skip = 0;
		}
		return;
	}
	/* the decompressed stream cannot be entered anywhere: read up to pos */
	bt_pd_rewind(r);
	while (pd_tell(r) != pos && fetch(r, &rec, &size, &at, NULL) > 0)
		;
}

void
bt_pd_rewind(struct bt_pd_reader *r)
{
	/* what the last pass left resident is not needed before the next reaches it */
	if (r->mapped && r->size > PD_WINDOW)
		madvise((void *)r->data, r->size, MADV_DONTNEED);
	r->pos = r->data_sec.offset;
	r->dropped = 0;
	r->hold = UINT64_MAX;
	r->skip = 0;
	r->zlive = false;
	r->last = UINT64_MAX;
	if (r->z != NULL)
		pd_z_reset(r->z);
	if (r->dir != NULL)
		pd_dir_rewind(r);
}

void
pd_hold(struct bt_pd_reader *r, uint64_t pos)
{
	r->hold = pos;
	if (r->dir != NULL)
		pd_dir_hold(r, pos);
}

bool
pd_stable(const struct bt_pd_reader *r)
{
	if (r->dir != NULL)
		return pd_dir_stable(r);
	return !(r->z != NULL && r->zlive);
}
