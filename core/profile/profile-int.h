/* What only core/profile uses: the reading of a recording's samples (read.c). */
#ifndef BENCHTUI_PROFILE_INT_H
#define BENCHTUI_PROFILE_INT_H

#include "profile/profile.h"

struct bt_pd_reader;

/*
 * The first read, in one pass of core/perf's ordered stream: the machine
 * built from the side-band records, every event's whole-run histogram
 * and call chains, counts and times.
 */
int bt_profile_first_read(struct bt_profile *p, struct bt_pd_reader *r,
			  struct bt_error *err);
/* The chains of a read that put them off: a second pass, unwinding. */
int bt_profile_chains_read(struct bt_profile *p, struct bt_pd_reader *r,
			   struct bt_error *err);

#endif
