/*
 * The loaded recording (DESIGN.md §1 "profile"), as the stages above it
 * read it: its modules (the machine's table: machine.h), every event's
 * samples counted by (module, file offset) and by call chain, its
 * metadata; and a window or the timeline counted again on demand
 * (bt_profile_scan). What only core/profile uses is in profile-int.h.
 */
#ifndef BENCHTUI_PROFILE_PROFILE_H
#define BENCHTUI_PROFILE_PROFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "base.h"
#include "benchtui/profile.h"
#include "machine/machine.h"
#include "perf/meta.h"
#include "profile/hist.h"
#include "profile/tasks.h"

struct bt_kept;

/*
 * At most this many bytes of samples are kept (kept.c: 4M samples);
 * past it, none are, and a scan reads the file again.
 */
#define BT_KEPT_MAX ((size_t)64 << 20)

/*
 * The whole-run histogram of every event is built while the file is read
 * (group = event); a time window or the timeline reads the samples again
 * (bt_profile_scan): nothing per sample is kept, so memory does not grow
 * with the length of the recording (unless bt_profile_open_kept() asks).
 */
struct bt_profile {
	struct bt_profile_info info;
	struct bt_meta meta;
	char *path;
	char *command;
	char **events;
	char **event_groups;	/* per event: its group "{a,b}", or NULL */
	struct perf_event_attr *event_attrs;	/* per event, as recorded (-e NAME matches them) */
	uint64_t *event_samples;	/* per event */
	uint64_t *event_period;
	char *hostname, *osrelease, *recorder;

	struct bt_modules modules;	/* the machine's table */
	struct bt_hist_entry *hist;	/* every event's, sorted by (event, module, offset) */
	size_t *hist_start;		/* event i's entries: [start[i], start[i + 1]) */
	const void *mem;		/* read from memory: no file to read again */
	size_t mem_len;
	struct bt_machine *machine;	/* processes, mappings, JIT code */
	uint64_t first_time, last_time;
	uint64_t unresolved;		/* user samples in no mapping */
	uint64_t ktext;			/* the kernel's _text when recorded, 0 if unknown */
	void *vdso_owned;		/* copy of meta.vdso */
	BT_VEC(char *) notes;		/* info.notes */
	struct bt_chains *chains;	/* call chains (chains.h); NULL: none recorded */
	struct bt_hist_entry *chist;	/* (event, 0, chain id), sorted */
	size_t *chist_start;		/* event i's entries: [start[i], start[i + 1]) */
	struct bt_tasks tasks;		/* processes, threads, their names and samples */
	bool chains_pending;		/* recorded, not read yet (bt_profile_read_chains) */
	/*
	 * bt_profile_open_kept(): every sample the first read took, so
	 * that bt_profile_scan() goes over them in memory instead of
	 * reading the file again and unwinding (kept.c; NULL: none)
	 */
	struct bt_kept *kept;
};

/**
 * struct bt_scan - which samples to count again, and how to group them
 * @attr: the event
 * @t_lo, @t_hi: samples with t_lo <= time < t_hi (the recording's clock)
 * @nbins: more than 0: group by slice of the run (nbins equal slices of
 *         [first_time, last_time]), else everything in group 0
 * @fold: count only whether a sample falls in module @fold_module at file
 *        offsets [@fold_lo, @fold_hi) (offset 1) or not (offset 0), all
 *        under module 0 (the timeline's share of one function)
 * @windows: with @nwindows > 0, group by window instead: pairs [lo, hi)
 *           of sample times, sorted and disjoint; group 1 + the window
 *           holding the sample, 0 for none (the benchmarks' samples)
 * @keep, @nkeep: with @nkeep > 0, only the samples in one of these pairs
 *                [lo, hi) of times, sorted and disjoint (a benchmark's
 *                measured phases)
 * @pids, @npids: with @npids > 0, only the samples of these processes
 * @tids, @ntids: with @ntids > 0, only the samples of these threads
 * @comms, @ncomms: with @ncomms > 0, only the samples of threads named one
 *                  of these at the sample's time (indices in tasks.names)
 */
#define BT_SCAN_MAX_COMMS 16
struct bt_scan_sample;
struct bt_scan {
	int attr;
	uint64_t t_lo, t_hi;
	size_t nbins;
	bool fold;
	uint32_t fold_module;
	uint64_t fold_lo, fold_hi;
	const uint64_t *windows;
	size_t nwindows;
	const uint64_t *keep;
	size_t nkeep;
	const uint32_t *pids, *tids;
	size_t npids, ntids;
	uint32_t comms[BT_SCAN_MAX_COMMS];
	size_t ncomms;
	struct bt_hist *chains;	/* also count (group, 0, chain id) here */
	struct bt_hist *tasks;	/* also count (group, task, name) here (tasks.h) */
	/* also hand each sample counted to each(each_arg, sample) (the pprof export) */
	void (*each)(void *arg, const struct bt_scan_sample *smp);
	void *each_arg;
};

/**
 * struct bt_scan_sample - one sample a scan counts, for bt_scan.each
 * @module, @off: its leaf; @chain: its call chain (chains.h), BT_CHAIN_NONE
 *                when chains are not read
 */
struct bt_scan_sample {
	uint64_t time, off, period;
	uint32_t module, pid, tid, chain;
};

/* Every sample of event attr, the whole run, by (module, offset), in group 0. */
void bt_scan_init(struct bt_scan *sc, int attr);
/*
 * Every sample of event attr, the whole run, folded into one count a
 * group (module 0, offset 0: in no function): how many each group has.
 */
void bt_scan_init_counts(struct bt_scan *sc, int attr);

/*
 * Read the samples again and count those sc selects into a new histogram
 * (*out, malloc'ed, sorted by (group, module, offset)). Returns 0 or -BT_E*.
 * A profile that kept its samples goes over those: the same samples, in
 * the same order, without the file.
 */
int bt_profile_scan(struct bt_profile *p, const struct bt_scan *sc,
		    struct bt_hist_entry **out, size_t *n, struct bt_error *err);

/*
 * The module and offset of ip in process pid at time t, as a call
 * chain's frames are resolved (JIT code to its piece of code, [unknown]
 * and the address when nothing holds it): bt_machine_resolve_frame() of
 * the profile's machine.
 */
void bt_profile_resolve(struct bt_profile *p, uint32_t pid, uint64_t ip,
			uint64_t t, uint32_t *module, uint64_t *off);

/* Module index by kind+path (bt_modules_get on p's table); created if new. */
uint32_t bt_profile_module(struct bt_profile *p, enum bt_mod_kind kind,
			   const char *path, const uint8_t *bid, size_t bid_size);
/*
 * The call chains bt_profile_open_deferred() put off, read now (a second
 * pass over the file, unwinding every sample): the same chains, ids and
 * counts as bt_profile_open() gives. With keep, the samples are kept as
 * bt_profile_open_kept() keeps them: the scans after it (a benchmark's
 * selection each) read memory, not the file. 0 or -BT_EIO (the file
 * cannot be opened again: the recording stays one without chains).
 */
int bt_profile_read_chains(struct bt_profile *p, bool keep, struct bt_error *err);
/* Build a profile from an open reader (the fuzz target calls this). */
struct bt_pd_reader;
struct bt_profile *bt_profile_read(struct bt_pd_reader *r, const char *path,
				   struct bt_error *err);

#endif
