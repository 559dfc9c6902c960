/*
 * Samples that carry counter values (PERF_SAMPLE_READ): `perf record -e
 * '{cpu-clock,task-clock}:S'` samples the leader only, and each sample
 * holds the current count of every event of the group. perf report
 * credits every event of the group with one sample whose period is how
 * much its count grew since that event's previous sample (nothing when it
 * did not grow): perf's deliver_sample_group()/deliver_sample_value() in
 * util/session.c. This does the same.
 */
#ifndef BENCHTUI_READVALS_H
#define BENCHTUI_READVALS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bt_pd_reader;
struct bt_pd_event;

/* One event credited by a sample: its attr index and the period. */
struct bt_read_credit {
	int attr;
	uint64_t period;
};

struct bt_readvals;

struct bt_readvals *bt_readvals_new(void);
void bt_readvals_free(struct bt_readvals *rv);
/*
 * The events that sample ev credits. Returns -1 when the sample is not
 * one to split (no READ field with ids: it counts for its own event as
 * usual), else the number of credits in *out (borrowed from rv, valid
 * until the next call), 0 when no count grew.
 */
int bt_readvals_split(struct bt_readvals *rv, const struct bt_pd_reader *r,
		      const struct bt_pd_event *ev,
		      const struct bt_read_credit **out);

#endif
