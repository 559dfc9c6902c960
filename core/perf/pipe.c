/*
 * Pipe-mode perf.data (`perf record -o -`, what `perf inject` reads and
 * writes in a pipeline): a 16-byte header (magic, size 16), then records
 * to the end. What a file's header and feature sections hold comes as
 * records of the stream, before the data that needs it:
 *   HEADER_ATTR (64): a perf_event_attr (attr.size bytes), then its ids;
 *   EVENT_UPDATE (78): type NAME (2) gives an event's name, by id;
 *   HEADER_FEATURE (80): u64 feature bit, then the feature's payload as a
 *     section would hold it (HOSTNAME, CMDLINE, EVENT_DESC...);
 *   HEADER_BUILD_ID (67): one build-id entry;
 *   AUXTRACE_INFO (70): hardware trace follows;
 *   HEADER_TRACING_DATA (66) and AUXTRACE (71): a payload follows the
 *     record (u32 and u64 size in the record), stepped over.
 * They are all read here, in one pass over the records when the file is
 * opened, so that the attrs are known before the first sample whatever
 * the order; the iteration then returns them as perf's own records
 * (type >= 64), which the callers skip.
 */
#include <stdlib.h>
#include <string.h>

#include "perf/perfdata-int.h"

#define PD_MAX_ATTRS 4096
#define EVENT_UPDATE_NAME 2

/* One HEADER_ATTR record at off (size sz) appended to the attrs. */
static int
add_attr(struct bt_pd_reader *r, uint64_t off, uint16_t sz, size_t *alloc,
	 struct bt_error *err)
{
	const uint8_t *p = r->data + off;
	struct bt_pd_attr *a;
	uint32_t asize;
	size_t j;
	int ret;

	if (r->nattrs >= PD_MAX_ATTRS)
		return bt_error_set(err, BT_EFORMAT, "too many events (%zu)", r->nattrs + 1);
	asize = sz >= 16 ? pd_g32(r, p + 12) : 0;
	if (asize == 0)
		asize = PERF_ATTR_SIZE_VER0;
	if (asize > sz - 8u)
		return bt_error_set(err, BT_EFORMAT,
		    "attribute record at offset %llu is too short (%u bytes)",
		    (unsigned long long)off, sz);
	BT_ALLOC_GROW(r->attrs, r->nattrs + 1, *alloc);
	a = &r->attrs[r->nattrs];
	memset(a, 0, sizeof(*a));
	r->nattrs++;	/* before anything can fail: bt_pd_close frees it */
	ret = pd_read_attr(r, p + 8, asize, &a->attr, off + 8, err);
	if (ret)
		return ret;
	a->nids = (sz - 8u - asize) / 8;
	a->ids = bt_xcalloc(a->nids, sizeof(uint64_t));
	for (j = 0; j < a->nids; j++)
		a->ids[j] = pd_g64(r, p + 8 + asize + j * 8);
	return 0;
}

/* EVENT_UPDATE of type NAME: the event with that id takes the name. */
static void
event_update(struct bt_pd_reader *r, uint64_t off, uint16_t sz)
{
	const uint8_t *p = r->data + off;
	const char *name;
	int ai;

	if (sz <= 24 || pd_g64(r, p + 8) != EVENT_UPDATE_NAME)
		return;
	ai = pd_attr_of_id(r, pd_g64(r, p + 16));
	if (ai < 0)
		return;
	name = (const char *)p + 24;
	free(r->attrs[ai].name);
	r->attrs[ai].name = bt_xstrndup(name, strnlen(name, sz - 24u));
}

int
pd_read_pipe_header(struct bt_pd_reader *r, struct bt_error *err)
{
	uint64_t pos = r->data_sec.offset, end = r->size;
	BT_VEC(uint64_t) updates = { 0 };
	size_t alloc = 0, i;

	while (end - pos >= 8) {
		const uint8_t *p = r->data + pos;
		uint32_t type = pd_g32(r, p);
		uint16_t sz = pd_g16(r, p + 6);
		uint64_t payload = 0;

		if (sz < 8 || sz > end - pos)
			break;	/* the iteration reports it, at its place */
		switch (type) {
		case BT_PD_HEADER_ATTR: {
			int ret = add_attr(r, pos, sz, &alloc, err);
			if (ret) {
				BT_VEC_FREE(updates);
				return ret;
			}
			break;
		}
		case PD_EVENT_UPDATE:
			BT_VEC_PUSH(updates, pos);
			break;
		case PD_HEADER_FEATURE:
			if (sz >= 16 && pd_g64(r, p + 8) < PD_FEAT_BITS)
				pd_read_feature(r, (int)pd_g64(r, p + 8), pos + 16, pos + sz);
			break;
		case BT_PD_HEADER_BUILD_ID:
			pd_read_buildids(r, pos, pos + sz);
			break;
		default:	/* AUXTRACE_INFO, and the two with a payload */
			if (pd_payload(r, type, p, sz, &payload) < 0)
				payload = 0;
			break;
		}
		pos += sz;
		if (payload > end - pos)
			break;
		pos += payload;
	}
	if (r->nattrs == 0) {
		BT_VEC_FREE(updates);
		return bt_error_set(err, BT_EFORMAT,
		    "pipe-mode data without events (no attribute record)");
	}
	pd_index_attrs(r);
	for (i = 0; i < updates.n; i++)
		event_update(r, updates.v[i], pd_g16(r, r->data + updates.v[i] + 6));
	BT_VEC_FREE(updates);
	return 0;
}
