/* Samples with counter values credit every event of their group (readvals.h). */
#include <linux/perf_event.h>
#include <stdlib.h>

#include "base.h"
#include "hash.h"
#include "perf/perfdata.h"
#include "profile/readvals.h"

struct last {
	uint64_t id, value;
};

struct bt_readvals {
	BT_VEC(struct last) last;	/* each id's last value */
	struct bt_hash hash;		/* of last, by id */
	BT_VEC(struct bt_read_credit) out;
};

struct bt_readvals *
bt_readvals_new(void)
{
	struct bt_readvals *rv = bt_xcalloc(1, sizeof(struct bt_readvals));

	bt_hash_init(&rv->hash, 64);
	return rv;
}

void
bt_readvals_free(struct bt_readvals *rv)
{
	if (rv == NULL)
		return;
	BT_VEC_FREE(rv->last);
	bt_hash_release(&rv->hash);
	BT_VEC_FREE(rv->out);
	free(rv);
}

/* Event id's last value, 0 the first time. */
static struct last *
slot(struct bt_readvals *rv, uint64_t id)
{
	struct bt_hash_pos pos;
	struct last l = { id, 0 };
	uint32_t i;

	for (i = bt_hash_first(&rv->hash, bt_hash64(id), &pos); i != BT_HASH_NONE;
	    i = bt_hash_next(&rv->hash, &pos))
		if (rv->last.v[i].id == id)
			return &rv->last.v[i];
	BT_VEC_PUSH(rv->last, l);
	bt_hash_add(&rv->hash, &pos, (uint32_t)rv->last.n - 1);
	return &rv->last.v[rv->last.n - 1];
}

/* The count of event id is now value: credit its growth (perf's sid->period). */
static void
credit(struct bt_readvals *rv, const struct bt_pd_reader *r, uint64_t id,
       uint64_t value)
{
	struct bt_read_credit c;
	struct last *l;

	if (id == 0)
		return;
	c.attr = bt_pd_attr_of_id(r, id);
	if (c.attr < 0)
		return;		/* perf: an unknown id is not delivered */
	l = slot(rv, id);
	c.period = value - l->value;
	l->value = value;
	if (c.period != 0)
		BT_VEC_PUSH(rv->out, c);
}

int
bt_readvals_split(struct bt_readvals *rv, const struct bt_pd_reader *r,
		  const struct bt_pd_event *ev, const struct bt_read_credit **out)
{
	const struct bt_perf_array *a = &ev->sample.read;
	const struct bt_pd_attr *at;
	uint64_t rf, per, times, nr, i, pos;
	bool sw = ev->sample.swapped;

	*out = NULL;
	if (ev->attr < 0 || !(ev->sample.present & (1ULL << BT_PF_READ)))
		return -1;
	at = bt_pd_attr(r, (size_t)ev->attr);
	rf = at->attr.read_format;
	if (!(rf & PERF_FORMAT_ID))
		return -1;	/* no ids: nothing says which value is whose */
	per = 2 + !!(rf & PERF_FORMAT_LOST);
	times = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
	    !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
	rv->out.n = 0;
	if (rf & PERF_FORMAT_GROUP) {
		nr = bt_perf_u64(a, sw, 0);
		pos = 1 + times;
		for (i = 0; i < nr && pos + 1 < a->n; i++, pos += per)
			credit(rv, r, bt_perf_u64(a, sw, pos + 1),
			    bt_perf_u64(a, sw, pos));
	} else if (a->n >= 2 + times)
		credit(rv, r, bt_perf_u64(a, sw, 1 + times), bt_perf_u64(a, sw, 0));
	*out = rv->out.v;
	return (int)rv->out.n;
}
