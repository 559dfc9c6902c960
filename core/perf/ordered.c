/* A recording's events in time order (ordered.h). */
#include <stdlib.h>
#include <string.h>

#include "perf/ordered.h"
#include "perf/perfdata-int.h"

/* A side-band record read, waiting to be given in time order. */
struct sideband {
	uint64_t time;
	uint64_t order;		/* read order: records of one time keep it */
	uint64_t at;
	uint8_t *copy;		/* the record */
	uint32_t size;
	uint32_t tag;
};

/* A sample read before every side-band record as old as it was. */
struct waiting {
	const uint8_t *rec;	/* in the file; NULL: at copy in the copies */
	uint64_t at, time;
	size_t copy;
	uint32_t size;
	uint32_t round;		/* rounds read before it */
};

/*
 * A sample newer than all that follows (a clock gone wrong) waits this
 * many rounds at most: the samples after it wait in file order behind it.
 */
#define MAX_WAIT_ROUNDS 16
/* Without rounds, this many waiting samples send the reader to two passes. */
#define MAX_WAIT_NO_ROUNDS 65536

struct stream {
	struct bt_pd_reader *r;
	const struct bt_ordered_ops *ops;
	void *arg;
	const struct bt_perf_layout *brief;	/* samples decoded briefly, or NULL */
	BT_VEC(struct sideband) sb;	/* read, not given yet */
	size_t sb_sorted;		/* sb[0..sb_sorted) are in time order */
	uint64_t order;
	BT_VEC(struct waiting) q;
	size_t head;			/* q[head..] wait */
	BT_VEC(uint8_t) copies;		/* samples that came out of compressed data */
	uint64_t limit;			/* side-band and samples up to it are final */
	uint64_t newest, round_newest;	/* newest time read; at the last round */
	bool ordered;			/* every record has a time */
	bool later;			/* no rounds: samples in a second pass */
	uint32_t rounds;		/* FINISHED_ROUND records read */
	uint64_t taken;			/* samples given */
	struct bt_ordered_log *log;	/* side-band records given, or NULL */
};

static void
log_step(struct stream *st, uint64_t at, uint64_t time, uint32_t tag, bool apply)
{
	struct bt_ordered_log *l = st->log;

	if (l == NULL)
		return;
	BT_ALLOC_GROW(l->v, l->n + 1, l->alloc);
	l->v[l->n].at = at;
	l->v[l->n].time = time;
	l->v[l->n].tag = tag;
	l->v[l->n].apply = apply;
	l->n++;
}

static void
stream_init(struct stream *st, struct bt_pd_reader *r,
	    const struct bt_ordered_ops *ops, void *arg, unsigned flags)
{
	memset(st, 0, sizeof(*st));
	st->r = r;
	st->ops = ops;
	st->arg = arg;
	st->brief = flags & BT_ORDERED_BRIEF ? pd_brief_layout(r) : NULL;
}

static void
stream_release(struct stream *st)
{
	size_t i;

	for (i = 0; i < st->sb.n; i++)
		free(st->sb.v[i].copy);
	BT_VEC_FREE(st->sb);
	BT_VEC_FREE(st->q);
	BT_VEC_FREE(st->copies);
}

/* Sample rec (size bytes at position at), decoded, to ops->sample. */
static int
give_sample(struct stream *st, const uint8_t *rec, size_t size, uint64_t at,
	    struct bt_error *err)
{
	struct bt_pd_event ev;

	if (st->brief == NULL) {
		if (pd_event_at(st->r, rec, size, at, &ev, err) < 0)
			return -BT_EFORMAT;
		return st->ops->sample(st->arg, &ev, err);
	}
	if (size < st->brief->fixed_size) {
		char where[384];

		return bt_error_set(err, BT_EFORMAT,
		    "sample at %s is shorter than its sample_type says",
		    bt_pd_where(st->r, at, where, sizeof(where)));
	}
	if (st->ops->brief != NULL) {
		st->ops->brief(st->arg, st->brief, rec);
		return 0;
	}
	/* no memset of the event: this runs for every sample */
	bt_perf_sample_brief(st->brief, rec, size, &ev.sample);
	ev.type = PERF_RECORD_SAMPLE;
	ev.misc = pd_g16(st->r, rec + 4);
	ev.offset = at;
	ev.attr = 0;
	ev.pid = ev.sample.pid;
	ev.tid = ev.sample.tid;
	ev.cpu = ev.sample.cpu;
	ev.time = ev.sample.time;
	ev.has_time = BT_PF_HAS(&ev.sample, BT_PF_TIME);
	return st->ops->sample(st->arg, &ev, err);
}

static int
sb_cmp(const void *a, const void *b)
{
	const struct sideband *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Give the side-band records up to st->limit, in time order. */
static void
give_sideband(struct stream *st)
{
	struct bt_pd_event ev;
	size_t i;

	if (st->sb.n > st->sb_sorted) {
		bt_qsort(st->sb.v, st->sb.n, sizeof(*st->sb.v), sb_cmp);
		st->sb_sorted = st->sb.n;
	}
	for (i = 0; i < st->sb.n && st->sb.v[i].time <= st->limit; i++) {
		struct sideband *s = &st->sb.v[i];

		/* it was decoded once already: it decodes again */
		if (pd_event_at(st->r, s->copy, s->size, s->at, &ev, NULL) > 0) {
			ev.time = s->time;
			log_step(st, s->at, s->time, s->tag, true);
			st->ops->sideband(st->arg, &ev, s->tag);
		}
		FREE_AND_NULL(s->copy);
	}
	if (i) {
		memmove(st->sb.v, st->sb.v + i, (st->sb.n - i) * sizeof(*st->sb.v));
		st->sb.n -= i;
		st->sb_sorted -= i;
	}
}

/* Drop the samples given from the queue (and their copies). */
static void
drop_given(struct stream *st)
{
	size_t i, n = st->q.n - st->head;

	if (n == 0)
		st->copies.n = 0;
	else if (st->head > 0) {
		memmove(st->q.v, st->q.v + st->head, n * sizeof(*st->q.v));
		for (i = 0; i < n && st->q.v[i].rec != NULL; i++)
			;
		if (i < n && st->q.v[i].copy > 0) {	/* the copies still waiting, to the front */
			size_t from = st->q.v[i].copy;
			memmove(st->copies.v, st->copies.v + from, st->copies.n - from);
			st->copies.n -= from;
			for (; i < n; i++)
				if (st->q.v[i].rec == NULL)
					st->q.v[i].copy -= from;
		}
	}
	st->q.n = n;
	st->head = 0;
	/* the file's pages of what waits stay: they are read again soon */
	pd_hold(st->r, n && st->q.v[0].rec ? st->q.v[0].at : UINT64_MAX);
}

/* Give the side-band up to st->limit, then the samples up to it. */
static int
settle(struct stream *st, struct bt_error *err)
{
	int ret;

	give_sideband(st);
	for (; st->head < st->q.n; st->head++) {
		const struct waiting *w = &st->q.v[st->head];

		if (w->time > st->limit && st->rounds - w->round < MAX_WAIT_ROUNDS)
			break;
		if (st->head + 1 < st->q.n && st->q.v[st->head + 1].rec != NULL)
			__builtin_prefetch(st->q.v[st->head + 1].rec + 64);
		ret = give_sample(st, w->rec ? w->rec : st->copies.v + w->copy,
		    w->size, w->at, err);
		if (ret < 0)
			return ret;
		st->taken++;
	}
	drop_given(st);
	return 0;
}

/* Sample rec: given now if nothing older can still come, else it waits. */
static int
read_sample(struct stream *st, const uint8_t *rec, size_t size,
	    struct bt_error *err)
{
	uint64_t at = pd_tell(st->r) - size;
	struct waiting w;

	w.time = pd_sample_time(st->r, rec, size);
	if (w.time > st->newest)
		st->newest = w.time;
	if (st->head == st->q.n && st->sb.n == 0 && w.time <= st->limit) {
		st->taken++;
		return give_sample(st, rec, size, at, err);
	}
	if (!st->rounds && !st->taken && st->q.n >= MAX_WAIT_NO_ROUNDS) {
		/* no rounds to go by: the side-band first, then the samples */
		st->later = true;
		st->q.n = 0;
		st->copies.n = 0;
		pd_hold(st->r, UINT64_MAX);
		return 0;
	}
	w.at = at;
	w.size = (uint32_t)size;
	w.round = st->rounds;
	w.copy = 0;
	w.rec = rec;
	if (!pd_stable(st->r)) {
		w.rec = NULL;
		w.copy = st->copies.n;
		BT_ALLOC_GROW(st->copies.v, st->copies.n + size, st->copies.alloc);
		memcpy(st->copies.v + st->copies.n, rec, size);
		st->copies.n += size;
	}
	BT_VEC_PUSH(st->q, w);
	return 0;
}

/*
 * The samples that follow in a plain mapped file (no compressed data, no
 * directory), as read_sample() reads each, decoded briefly: the common
 * case of a big recording, read here without going through fetch() for
 * each. It stops at the first record that is not an ordinary sample, or
 * that read_sample() would read another way; 0, or a negative -BT_E* code.
 */
static int
read_plain_samples(struct stream *st, struct bt_error *err)
{
	struct bt_pd_reader *r = st->r;
	const struct bt_perf_layout *l = st->brief;
	uint64_t end = r->data_sec.offset + r->data_sec.size, pos = r->pos;
	int toff = l->off[BT_PF_TIME];
	int ret = 0;

	if (r->z != NULL || r->skip || !r->mapped || r->dir != NULL || st->later)
		return 0;
	while (pos < end && end - pos >= 8) {
		const uint8_t *rec = r->data + pos;
		struct waiting w;
		uint32_t type;
		uint16_t size;

		memcpy(&type, rec, 4);
		memcpy(&size, rec + 6, 2);
		if (type != PERF_RECORD_SAMPLE || size < 8 || size > end - pos ||
		    (!st->rounds && !st->taken && st->q.n >= MAX_WAIT_NO_ROUNDS))
			break;
		r->pos = pos + size;
		pd_drop_behind(r);
		w.time = 0;
		if (toff >= 0 && (size_t)toff + 8 <= size)
			memcpy(&w.time, rec + toff, 8);
		if (w.time > st->newest)
			st->newest = w.time;
		if (st->head == st->q.n && st->sb.n == 0 && w.time <= st->limit) {
			st->taken++;
			if ((ret = give_sample(st, rec, size, pos, err)) < 0)
				break;
		} else {
			w.rec = rec;
			w.at = pos;
			w.copy = 0;
			w.size = size;
			w.round = st->rounds;
			BT_VEC_PUSH(st->q, w);
		}
		pos += size;
	}
	return ret;
}

/*
 * Side-band record rec: to ops->read now, and kept to be given in time
 * order if it wants it. Its time orders it: a FORK's or EXIT's own.
 */
static int
read_sideband(struct stream *st, const uint8_t *rec, size_t size,
	      struct bt_error *err)
{
	uint64_t at = pd_tell(st->r) - size;
	struct bt_pd_event ev;
	struct sideband s;
	int ret;

	ret = pd_event_at(st->r, rec, size, at, &ev, err);
	if (ret < 0)
		return ret;
	if (ev.has_time && ev.time > st->newest)
		st->newest = ev.time;
	if (ev.type >= BT_PD_HEADER_ATTR)
		return 0;	/* perf's own records */
	if (ev.type == PERF_RECORD_FORK || ev.type == PERF_RECORD_EXIT)
		ev.time = ev.u.task.time;
	memset(&s, 0, sizeof(s));
	log_step(st, at, 0, 0, false);
	if (!st->ops->read(st->arg, &ev, &s.tag))
		return 0;
	s.time = ev.time;
	s.order = st->order++;
	s.at = at;
	s.size = (uint32_t)size;
	s.copy = bt_xmalloc(size);
	memcpy(s.copy, rec, size);
	BT_VEC_PUSH(st->sb, s);
	return st->ordered ? 0 : settle(st, err);
}

/* Do all records carry a time to order them by? */
static bool
ordered(const struct bt_pd_reader *r)
{
	size_t i;

	for (i = 0; i < bt_pd_nattrs(r); i++) {
		const struct perf_event_attr *a = &bt_pd_attr(r, i)->attr;
		if (!(a->sample_type & PERF_SAMPLE_TIME) || !a->sample_id_all)
			return false;
	}
	return true;
}

/* The records of r from the first, to the end. */
static int
read_all(struct stream *st, struct bt_error *err)
{
	const uint8_t *rec;
	uint32_t type;
	uint16_t misc;
	size_t size;
	int ret;

	for (;;) {
		if (st->brief != NULL && (ret = read_plain_samples(st, err)) < 0)
			break;
		if ((ret = pd_next_raw(st->r, &type, &misc, &rec, &size, err)) <= 0)
			break;
		if (type == PERF_RECORD_SAMPLE) {
			if (!st->later && (ret = read_sample(st, rec, size, err)) < 0)
				break;
		} else if (type == BT_PD_FINISHED_ROUND && st->ordered) {
			st->rounds++;
			st->limit = st->round_newest;
			st->round_newest = st->newest;
			if (!st->later && (ret = settle(st, err)) < 0)
				break;
		} else if ((ret = read_sideband(st, rec, size, err)) < 0)
			break;
	}
	return ret;
}

int
bt_ordered_read(struct bt_pd_reader *r, const struct bt_ordered_ops *ops,
		void *arg, unsigned flags, struct bt_error *err)
{
	return bt_ordered_read_log(r, ops, arg, flags, NULL, err);
}

int
bt_ordered_read_log(struct bt_pd_reader *r, const struct bt_ordered_ops *ops,
		    void *arg, unsigned flags, struct bt_ordered_log *log,
		    struct bt_error *err)
{
	struct stream st;
	int ret;

	stream_init(&st, r, ops, arg, flags);
	st.log = log;
	st.ordered = ordered(r);
	st.limit = st.ordered ? 0 : UINT64_MAX;
	bt_pd_rewind(r);
	ret = read_all(&st, err);
	if (ret == 0) {
		st.limit = UINT64_MAX;
		ret = settle(&st, err);
		if (ret == 0 && st.later)
			ret = bt_ordered_samples(r, ops, arg, flags, err);
	}
	pd_hold(r, UINT64_MAX);
	stream_release(&st);
	return ret;
}

int
bt_ordered_samples(struct bt_pd_reader *r, const struct bt_ordered_ops *ops,
		   void *arg, unsigned flags, struct bt_error *err)
{
	struct stream st;
	const uint8_t *rec;
	uint32_t type;
	uint16_t misc;
	size_t size;
	int ret;

	stream_init(&st, r, ops, arg, flags);
	bt_pd_rewind(r);
	while ((ret = pd_next_raw(r, &type, &misc, &rec, &size, err)) > 0)
		if (type == PERF_RECORD_SAMPLE &&
		    (ret = give_sample(&st, rec, size, pd_tell(r) - size, err)) < 0)
			break;
	stream_release(&st);
	return ret;
}

bool
bt_ordered_replayable(const struct bt_pd_reader *r)
{
	return r->mapped && r->dir == NULL && !r->pipe && !r->zseen && !r->zfeat &&
	    !r->swapped && !r->unfinished && !r->aux.present;
}

/* A hash of n bytes, from h: eight at a time, then FNV-1a. */
static uint64_t
fnv(uint64_t h, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, p + i, 8);
		h = (h ^ w) * 1099511628211ULL;
		h ^= h >> 29;
	}
	for (; i < n; i++)
		h = (h ^ p[i]) * 1099511628211ULL;
	return h;
}

uint64_t
bt_ordered_fingerprint(const struct bt_pd_reader *r)
{
	size_t n = BT_MIN(r->size, (size_t)65536);
	uint64_t h = 1469598103934665603ULL ^ r->size;

	if (!bt_ordered_replayable(r))
		return 0;
	h = fnv(h, r->data, n);
	h = fnv(h, r->data + r->size - n, n);
	return h ? h : 1;
}

int
bt_ordered_replay(struct bt_pd_reader *r, const struct bt_ordered_step *steps,
		  size_t n, const struct bt_ordered_ops *ops, void *arg,
		  struct bt_error *err)
{
	uint64_t lo = r->data_sec.offset, hi = lo + r->data_sec.size;
	struct bt_pd_event ev;
	uint32_t tag;
	size_t i, size;

	if (r->unfinished)
		hi = r->size;
	for (i = 0; i < n; i++) {
		uint64_t at = steps[i].at;
		const uint8_t *rec = r->data + at;

		if (at < lo || at >= hi || hi - at < 8 ||
		    (size = pd_g16(r, rec + 6)) < 8 || size > hi - at ||
		    pd_event_at(r, rec, size, at, &ev, err) <= 0)
			return bt_error_set(err, BT_EFORMAT,
			    "no side-band record at offset %llu", (unsigned long long)at);
		if (steps[i].apply) {
			ev.time = steps[i].time;
			ops->sideband(arg, &ev, steps[i].tag);
			continue;
		}
		if (ev.type == PERF_RECORD_FORK || ev.type == PERF_RECORD_EXIT)
			ev.time = ev.u.task.time;
		tag = 0;
		ops->read(arg, &ev, &tag);
	}
	return 0;
}
