/*
 * The loaded recording (DESIGN.md §1 "profile"): modules, and every sample
 * resolved to (module, file offset) in 32 bytes, with its time so that a
 * time window can be chosen when viewing.
 */
#ifndef BENCHTUI_PROFILE_INT_H
#define BENCHTUI_PROFILE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "base.h"
#include "benchtui/profile.h"
#include "perf/meta.h"
#include "profile/hist.h"

enum bt_mod_kind {
	BT_MOD_ELF,		/* a file: executable or shared library */
	BT_MOD_VDSO,		/* [vdso]: image from the recording or this kernel */
	BT_MOD_KERNEL,		/* every kernel sample, one bucket */
	BT_MOD_ANON,		/* no file (JIT, //anon, [heap]): addresses only */
	BT_MOD_UNKNOWN,		/* no mapping covers the sample */
	BT_MOD_JIT,		/* one piece of JIT code (profile-jit.c) */
};

struct bt_jit_code;

/**
 * struct bt_module - one mapped object samples fall into
 * @path: as recorded ("[kernel]", "[unknown]", "//anon" for the synthetic ones)
 * @build_id: as recorded (MMAP2 with build-id, or the BUILD_ID feature)
 * @off_lo, @off_hi: the span of file offsets its executable mappings cover
 */
struct bt_module {
	char *path;
	enum bt_mod_kind kind;
	uint8_t build_id[20];
	uint8_t build_id_size;
	uint64_t off_lo, off_hi;	/* file offsets mapped executable: [lo, hi) */
	struct bt_jit_code *jit;	/* BT_MOD_JIT: the code (owned) */
	char *jit_name;			/* BT_MOD_JIT: its function's name (owned) */
};

struct bt_resolver;	/* process and mapping histories (profile.c) */
struct bt_pjit;		/* JIT sources (profile-jit.c) */

/*
 * The whole-run histogram of every event is built while the file is read
 * (group = event); a time window or the timeline reads the samples again
 * (bt_profile_scan): nothing per sample is kept, so memory does not grow
 * with the length of the recording.
 */
struct bt_profile {
	struct bt_profile_info info;
	struct bt_meta meta;
	char *path;
	char *command;
	char **events;
	uint64_t *event_samples;	/* per event */
	uint64_t *event_period;
	char *hostname, *osrelease, *recorder;

	BT_VEC(struct bt_module) modules;
	struct bt_hist_entry *hist;	/* every event's, sorted by (event, module, offset) */
	size_t *hist_start;		/* event i's entries: [start[i], start[i + 1]) */
	const void *mem;		/* read from memory: no file to read again */
	size_t mem_len;
	struct bt_resolver *res;
	uint64_t first_time, last_time;
	uint64_t unresolved;		/* user samples in no mapping */
	uint64_t ktext;			/* the kernel's _text when recorded, 0 if unknown */
	void *vdso_owned;		/* copy of meta.vdso */
	BT_VEC(char *) notes;		/* info.notes */
	struct bt_pjit *jit;		/* NULL: no JIT code */
	struct bt_chains *chains;	/* call chains (chains.h); NULL: none recorded */
	struct bt_hist_entry *chist;	/* (event, 0, chain id), sorted */
	size_t *chist_start;		/* event i's entries: [start[i], start[i + 1]) */
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
 */
struct bt_scan {
	int attr;
	uint64_t t_lo, t_hi;
	size_t nbins;
	bool fold;
	uint32_t fold_module;
	uint64_t fold_lo, fold_hi;
	const uint64_t *windows;
	size_t nwindows;
	struct bt_hist *chains;	/* also count (group, 0, chain id) here */
};

/*
 * Read the samples again and count those sc selects into a new histogram
 * (*out, malloc'ed, sorted by (group, module, offset)). Returns 0 or -BT_E*.
 */
int bt_profile_scan(struct bt_profile *p, const struct bt_scan *sc,
		    struct bt_hist_entry **out, size_t *n, struct bt_error *err);

/*
 * The module and offset of ip in process pid at time t, as samples are
 * resolved ([unknown] and the address when no mapping holds it).
 */
void bt_profile_resolve(struct bt_profile *p, uint32_t pid, uint64_t ip,
			uint64_t t, uint32_t *module, uint64_t *off);

/* Module index by kind+path; created if new. */
uint32_t bt_profile_module(struct bt_profile *p, enum bt_mod_kind kind,
			   const char *path, const uint8_t *bid, size_t bid_size);
/* Build a profile from an open reader (the fuzz target calls this). */
struct bt_pd_reader;
struct bt_profile *bt_profile_read(struct bt_pd_reader *r, const char *path,
				   struct bt_error *err);

/* profile-jit.c: JIT code (DESIGN.md §8) */
/* The recording maps filename in pid: note it if it is a jitdump (true: new). */
bool bt_pjit_mmap(struct bt_profile *p, uint32_t pid, const char *filename);
/*
 * Find and read the jitdumps and perf maps of pid (again: those it did not
 * have); times: samples are CLOCK_MONOTONIC.
 */
void bt_pjit_open(struct bt_profile *p, uint32_t pid, bool times);
/*
 * The JIT code of pid at ip at time: its module and file offset; false
 * when no source covers ip (anon: ip is in an anonymous mapping, counted).
 */
bool bt_pjit_resolve(struct bt_profile *p, uint32_t pid, uint64_t ip,
		     uint64_t time, bool anon, uint32_t *module, uint64_t *off);
/* After the first read: names of versions, notes. */
void bt_pjit_finish(struct bt_profile *p);
uint64_t bt_pjit_uncovered(const struct bt_profile *p);
void bt_pjit_free(struct bt_pjit *j);

#endif
