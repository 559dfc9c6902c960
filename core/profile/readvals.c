/* Samples with counter values credit every event of their group (readvals.h). */
#include <linux/perf_event.h>
#include <stdlib.h>

#include "base.h"
#include "perf/perfdata.h"
#include "profile/readvals.h"

struct last {
	uint64_t id, value;
};

struct bt_readvals {
	struct last *slots;	/* open addressing by id; id 0 is never a key */
	size_t nslots, n;
	BT_VEC(struct bt_read_credit) out;
};

struct bt_readvals *
bt_readvals_new(void)
{
	return bt_xcalloc(1, sizeof(struct bt_readvals));
}

void
bt_readvals_free(struct bt_readvals *rv)
{
	if (rv == NULL)
		return;
	free(rv->slots);
	BT_VEC_FREE(rv->out);
	free(rv);
}

static struct last *
slot(struct bt_readvals *rv, uint64_t id)
{
	size_t i;

	if ((rv->n + 1) * 2 > rv->nslots) {
		struct last *old = rv->slots;
		size_t on = rv->nslots, j;

		rv->nslots = on ? on * 2 : 64;
		rv->slots = bt_xcalloc(rv->nslots, sizeof(*rv->slots));
		for (j = 0; j < on; j++)
			if (old[j].id != 0) {
				i = bt_hash64(old[j].id) & (rv->nslots - 1);
				while (rv->slots[i].id != 0)
					i = (i + 1) & (rv->nslots - 1);
				rv->slots[i] = old[j];
			}
		free(old);
	}
	for (i = bt_hash64(id) & (rv->nslots - 1);; i = (i + 1) & (rv->nslots - 1)) {
		if (rv->slots[i].id == id)
			return &rv->slots[i];
		if (rv->slots[i].id == 0) {
			rv->slots[i].id = id;
			rv->n++;
			return &rv->slots[i];
		}
	}
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
