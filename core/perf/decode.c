/*
 * Records decoded (perfdata.h): which event a sample belongs to, the
 * side-band records' bodies, the sample_id trailers; samples through
 * sample.c, the one place that knows their layout.
 */
#include <stddef.h>
#include <string.h>

#include "perf/perfdata-int.h"

int
pd_attr_of_id(const struct bt_pd_reader *r, uint64_t id)
{
	size_t lo = 0, hi = r->nids;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (r->ids[mid].id < id)
			lo = mid + 1;
		else if (r->ids[mid].id > id)
			hi = mid;
		else
			return r->ids[mid].attr;
	}
	return -1;
}

/*
 * The event a sample belongs to: by its IDENTIFIER, or its ID at the
 * place the first event's layout gives (perf's id_pos); an unknown id
 * keeps the first event, as its layout is the best guess.
 */
static int
sample_attr(const struct bt_pd_reader *r, const uint8_t *p, size_t size,
	    int *attr)
{
	uint64_t id;
	int ret, ai;

	*attr = 0;
	if (r->nattrs == 1)
		return 0;
	ret = bt_perf_sample_id(&r->layouts[0], p, size, r->swapped, &id);
	if (ret <= 0)
		return ret;
	ai = pd_attr_of_id(r, id);
	*attr = ai < 0 ? 0 : ai;
	return 0;
}

/* A NUL-terminated string inside [p, p+len), copied if it is not terminated. */
static const char *
rec_string(char *scratch, size_t scratch_len, const uint8_t *p, size_t len)
{
	size_t n = strnlen((const char *)p, len);

	if (n < len)
		return (const char *)p;
	n = BT_MIN(n, scratch_len - 1);
	memcpy(scratch, p, n);
	scratch[n] = '\0';
	return scratch;
}

/*
 * The body (after the header, before the sample_id trailer) of a side-band
 * record: MMAP, MMAP2, COMM, FORK, EXIT, LOST, LOST_SAMPLES, THROTTLE.
 * Returns -1 when it is shorter than its type needs.
 */
static int
decode_side(bool swapped, const uint8_t *p, size_t body, struct bt_pd_event *ev,
	    char *scratch, size_t scratch_len)
{
	switch (ev->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2: {
		size_t fixed = ev->type == PERF_RECORD_MMAP ? 32 : 64;

		memset(&ev->u.mmap, 0, sizeof(ev->u.mmap));
		if (body < fixed)
			goto short_rec;
		ev->u.mmap.pid = bt_perf_get32(p, swapped);
		ev->u.mmap.tid = bt_perf_get32(p + 4, swapped);
		ev->u.mmap.start = bt_perf_get64(p + 8, swapped);
		ev->u.mmap.len = bt_perf_get64(p + 16, swapped);
		ev->u.mmap.pgoff = bt_perf_get64(p + 24, swapped);
		if (ev->type == PERF_RECORD_MMAP2) {
			if (ev->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
				ev->u.mmap.build_id_size = BT_MIN(p[32], 20);
				memcpy(ev->u.mmap.build_id, p + 36, 20);
			}
			ev->u.mmap.prot = bt_perf_get32(p + 56, swapped);
			ev->u.mmap.flags = bt_perf_get32(p + 60, swapped);
		}
		ev->u.mmap.filename = rec_string(scratch, scratch_len, p + fixed, body - fixed);
		break;
	}
	case PERF_RECORD_COMM:
		if (body < 8)
			goto short_rec;
		ev->u.comm.pid = bt_perf_get32(p, swapped);
		ev->u.comm.tid = bt_perf_get32(p + 4, swapped);
		ev->u.comm.comm = rec_string(scratch, scratch_len, p + 8, body - 8);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (body < 24)
			goto short_rec;
		ev->u.task.pid = bt_perf_get32(p, swapped);
		ev->u.task.ppid = bt_perf_get32(p + 4, swapped);
		ev->u.task.tid = bt_perf_get32(p + 8, swapped);
		ev->u.task.ptid = bt_perf_get32(p + 12, swapped);
		ev->u.task.time = bt_perf_get64(p + 16, swapped);
		break;
	case PERF_RECORD_LOST:
		if (body < 16)
			goto short_rec;
		ev->u.lost.id = bt_perf_get64(p, swapped);
		ev->u.lost.lost = bt_perf_get64(p + 8, swapped);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (body < 8)
			goto short_rec;
		ev->u.lost.id = 0;
		ev->u.lost.lost = bt_perf_get64(p, swapped);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		if (body < 16)
			goto short_rec;
		ev->u.throttle.time = bt_perf_get64(p, swapped);
		ev->u.throttle.id = bt_perf_get64(p + 8, swapped);
		break;
	default:
		break;	/* other kernel records: skipped by size */
	}
	return 0;
short_rec:
	return -1;
}

/* Decode record p of size bytes, read at position at (pd_tell before it). */
static int
decode_at(struct bt_pd_reader *r, const uint8_t *p, size_t size, uint64_t at,
	  struct bt_pd_event *ev, struct bt_error *err)
{
	size_t body, trailer;
	struct bt_perf_sample id;
	char buf[384];

	/* no memset of the whole event: this runs for every sample */
	ev->pid = ev->tid = ev->cpu = 0;
	ev->time = 0;
	ev->has_time = false;
	ev->offset = at;
	ev->type = pd_g32(r, p);
	ev->misc = pd_g16(r, p + 4);
	ev->attr = r->nattrs == 1 ? 0 : -1;

	if (ev->type == PERF_RECORD_SAMPLE) {
		if (sample_attr(r, p, size, &ev->attr) < 0 ||
		    bt_perf_sample_parse(&r->layouts[ev->attr], p, size, r->swapped,
		    &ev->sample) < 0)
			return bt_error_set(err, BT_EFORMAT,
			    "sample at %s is shorter than its sample_type says",
			    bt_pd_where(r, at, buf, sizeof(buf)));
		ev->pid = ev->sample.pid;
		ev->tid = ev->sample.tid;
		ev->cpu = ev->sample.cpu;
		ev->time = ev->sample.time;
		ev->has_time = BT_PF_HAS(&ev->sample, BT_PF_TIME);
		return 1;
	}
	if (ev->type >= BT_PD_HEADER_ATTR)
		return 1;	/* perf's own records: the caller skips them */

	trailer = bt_perf_sample_id_parse(&r->layouts[0], p, size, r->swapped, &id);
	if (trailer) {
		ev->pid = id.pid;
		ev->tid = id.tid;
		ev->cpu = id.cpu;
		ev->time = id.time;
		ev->has_time = BT_PF_HAS(&id, BT_PF_TIME);
		if (BT_PF_HAS(&id, BT_PF_IDENTIFIER))
			ev->attr = pd_attr_of_id(r, id.identifier);
		else if (BT_PF_HAS(&id, BT_PF_ID) && r->nattrs > 1)
			ev->attr = pd_attr_of_id(r, id.id);
	}
	body = size - 8 - trailer;
	if (decode_side(r->swapped, p + 8, body, ev, r->scratch, sizeof(r->scratch)) < 0)
		return pd_too_short(r, at, ev->type, size, err);
	return 1;
}

int
bt_pd_next(struct bt_pd_reader *r, struct bt_pd_event *ev, struct bt_error *err)
{
	const uint8_t *p;
	size_t size;
	uint64_t at;
	int ret;

	ret = pd_fetch(r, &p, &size, &at, err);
	if (ret <= 0)
		return ret;
	return decode_at(r, p, size, at, ev, err);
}

int
pd_event_at(struct bt_pd_reader *r, const uint8_t *rec, size_t size,
	       uint64_t at, struct bt_pd_event *ev, struct bt_error *err)
{
	return decode_at(r, rec, size, at, ev, err);
}

uint64_t
pd_sample_time_of(const struct bt_pd_reader *r, const uint8_t *rec, size_t size)
{
	int attr;

	if (sample_attr(r, rec, size, &attr) < 0)
		return 0;
	return bt_perf_sample_time(&r->layouts[attr], rec, size, r->swapped);
}

int
bt_pd_decode(const struct bt_perf_layout *l, const uint8_t *rec, size_t size,
	     struct bt_pd_event *ev, char *scratch, size_t scratch_len)
{
	struct perf_event_header h;
	struct bt_perf_sample id;
	size_t trailer;

	memcpy(&h, rec, sizeof(h));
	memset(ev, 0, offsetof(struct bt_pd_event, sample));
	ev->type = h.type;
	ev->misc = h.misc;
	if (h.size < 8 || h.size > size)
		return -1;
	if (h.type == PERF_RECORD_SAMPLE) {
		if (bt_perf_sample_parse(l, rec, h.size, false, &ev->sample) < 0)
			return -1;
		ev->pid = ev->sample.pid;
		ev->tid = ev->sample.tid;
		ev->cpu = ev->sample.cpu;
		ev->time = ev->sample.time;
		ev->has_time = BT_PF_HAS(&ev->sample, BT_PF_TIME);
		return 0;
	}
	trailer = bt_perf_sample_id_parse(l, rec, h.size, false, &id);
	ev->pid = id.pid;
	ev->tid = id.tid;
	ev->cpu = id.cpu;
	ev->time = id.time;
	ev->has_time = BT_PF_HAS(&id, BT_PF_TIME);
	if (h.type >= BT_PD_HEADER_ATTR)
		return 0;
	return decode_side(false, rec + 8, h.size - 8 - trailer, ev, scratch,
	    scratch_len);
}
