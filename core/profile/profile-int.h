/* What only core/profile uses: the reading of a recording's samples (read.c). */
#ifndef BENCHTUI_PROFILE_INT_H
#define BENCHTUI_PROFILE_INT_H

#include "profile/profile.h"

struct bt_pd_reader;
struct bt_ordered_log;
struct bt_ordered_step;

/*
 * The first read, in one pass of core/perf's ordered stream: the machine
 * built from the side-band records, every event's whole-run histogram
 * and call chains, counts and times; with log, the side-band records as
 * given (bt_ordered_read_log), for the first-read cache.
 */
int bt_profile_first_read(struct bt_profile *p, struct bt_pd_reader *r,
			  struct bt_ordered_log *log, struct bt_error *err);
/*
 * The side-band records of a cached first read given again (the machine,
 * lost and throttled counts; not the tasks, which the cache holds whole).
 */
int bt_profile_replay(struct bt_profile *p, struct bt_pd_reader *r,
		      const struct bt_ordered_step *steps, size_t n,
		      struct bt_error *err);
/* The chains of a read that put them off: a second pass, unwinding. */
int bt_profile_chains_read(struct bt_profile *p, struct bt_pd_reader *r,
			   struct bt_error *err);

#endif
