/*
 * What only core/profile uses: the reading of a recording's samples
 * (read.c), the samples kept (kept.c).
 */
#ifndef BENCHTUI_PROFILE_INT_H
#define BENCHTUI_PROFILE_INT_H

#include "profile/profile.h"

struct bt_pd_reader;
struct bt_ordered_log;
struct bt_ordered_step;

/**
 * struct bt_sample - one sample, resolved
 * @off: file offset in the module (ELF, vDSO), else the runtime address
 */
struct bt_sample {
	uint64_t time;
	uint64_t off;
	uint64_t period;
	uint32_t module;
	uint32_t pid, tid;
	uint32_t chain;		/* BT_CHAIN_NONE: no call chains */
	uint16_t cpu;
	uint8_t attr;
	uint8_t mode;
};

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

/* The samples of a recording of nevents events, kept (bt_profile_open_kept). */
struct bt_kept *bt_kept_new(size_t nevents);
void bt_kept_free(struct bt_kept *k);
/* Keep smp (its cpu and mode are not); false: past BT_KEPT_MAX bytes. */
bool bt_kept_add(struct bt_kept *k, const struct bt_sample *smp);
/* Each kept sample of event attr to fn, in the order they were kept. */
void bt_kept_each(struct bt_profile *p, const struct bt_kept *k, int attr,
		  void (*fn)(struct bt_profile *, const struct bt_sample *, void *),
		  void *arg);

#endif
