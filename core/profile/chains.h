/*
 * Call chains of a recording (docs/callchains.md, DESIGN.md §6), interned:
 * a distinct chain is stored once, as a list of location ids (a location
 * is a (module, file offset) pair, also stored once), leaf first; samples
 * are counted per (event, chain) in the profile's histogram accumulator
 * (group = event, offset = chain id), so nothing is kept per sample.
 *
 * The kernel part of a chain is one location ([kernel], offset 0): kernel
 * samples are one bucket. A return address is stored as the call site
 * (address - 1). BT_LOC_GAP between two frames marks a join where frames
 * may be missing (the unwinder's BT_SPLICE_GAP): no caller edge crosses it.
 */
#ifndef BENCHTUI_CHAINS_H
#define BENCHTUI_CHAINS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BT_LOC_GAP UINT32_MAX
#define BT_CHAIN_NONE UINT32_MAX

struct bt_loc {
	uint32_t module;
	uint64_t off;
};

struct bt_profile;
struct bt_pd_reader;
struct bt_pd_event;
struct bt_perf_layout;

/* Does the file hold anything to build call chains from? */
bool bt_chains_wanted(const struct bt_pd_reader *r);
/* Start reading chains for p (its unwinder, vDSO, build-ids). */
void bt_chains_init(struct bt_profile *p, const struct bt_pd_reader *r);
void bt_chains_free(struct bt_profile *p);
/* A side-band record, for the unwinder. */
void bt_chains_event(struct bt_profile *p, const struct bt_pd_event *ev);
/*
 * The chain id of a sample whose leaf is (module, off): unwound, each
 * frame resolved at the sample's time, interned.
 */
uint32_t bt_chains_sample(struct bt_profile *p, const struct bt_perf_layout *l,
			  const struct bt_pd_event *ev, uint32_t module, uint64_t off);

/*
 * Samples (of every read so far) whose chain ends at the stack copy: code
 * without frame pointers above it (BT_SPLICE_CFI_ONLY).
 */
uint64_t bt_chains_truncated(const struct bt_profile *p);
/* The first read is over (later reads of a window count nothing again). */
void bt_chains_seal(struct bt_profile *p);
/* Interned chains: count, and chain i's location ids (leaf first). */
size_t bt_chains_count(const struct bt_profile *p);
size_t bt_chains_get(const struct bt_profile *p, uint32_t id, const uint32_t **locs);
/* Interned locations. */
size_t bt_chains_nlocs(const struct bt_profile *p);
const struct bt_loc *bt_chains_loc(const struct bt_profile *p, uint32_t id);

#endif
