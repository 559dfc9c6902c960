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

enum bt_mod_kind {
	BT_MOD_ELF,		/* a file: executable or shared library */
	BT_MOD_VDSO,		/* [vdso]: image from the recording or this kernel */
	BT_MOD_KERNEL,		/* every kernel sample, one bucket */
	BT_MOD_ANON,		/* no file (JIT, //anon, [heap]): addresses only */
	BT_MOD_UNKNOWN,		/* no mapping covers the sample */
};

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
};

/**
 * struct bt_sample - one sample, resolved
 * @off: file offset in the module (ELF, vDSO), else the runtime address
 */
struct bt_sample {
	uint64_t time;
	uint64_t off;
	uint32_t module;
	uint32_t tid;
	uint32_t period;
	uint16_t cpu;
	uint8_t attr;
	uint8_t flags;
};

/**
 * struct bt_phit - samples of one event at one (module, offset)
 * @off: file offset in the module (ELF, vDSO), else the runtime address
 */
struct bt_phit {
	uint64_t off;
	uint32_t module;
	uint32_t samples;
	uint64_t period;
};

struct bt_resolver;	/* process and mapping histories (profile.c) */

/*
 * The whole-run histogram of every event is built while the file is read;
 * the samples themselves (for a time window or the timeline) are read again
 * only when asked for (bt_profile_samples): a million samples cost 32 MB.
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
	BT_VEC(struct bt_phit) *hist;	/* per event, unsorted */
	BT_VEC(struct bt_sample) samples;
	bool samples_loaded;
	const void *mem;		/* read from memory: no file to read again */
	size_t mem_len;
	struct bt_resolver *res;
	uint64_t first_time, last_time;
	uint64_t unresolved;		/* user samples in no mapping */
	void *vdso_owned;		/* copy of meta.vdso */
};

/* Every sample, in file order (read on first call). Returns 0 or -BT_E*. */
int bt_profile_samples(struct bt_profile *p, struct bt_error *err);

/* Module index by kind+path; created if new. */
uint32_t bt_profile_module(struct bt_profile *p, enum bt_mod_kind kind,
			   const char *path, const uint8_t *bid, size_t bid_size);
/* Build a profile from an open reader (the fuzz target calls this). */
struct bt_pd_reader;
struct bt_profile *bt_profile_read(struct bt_pd_reader *r, const char *path,
				   struct bt_error *err);

#endif
