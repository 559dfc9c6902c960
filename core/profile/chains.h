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
 *
 * An event whose samples carry an LBR call stack (bt_lbr_callstack) gets
 * the user part of its chains from the stack, as perf report does
 * (lbr.c): after the leaf, the stack's entries[0].to (the function the
 * last call went to: the leaf's own, or a PLT stub or a function that
 * tail-called it) and each entry's from (a call instruction, stored as
 * is); the frame-pointer user frames of the callchain are not used.
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
struct bt_perf_sample;

/* Does the file hold anything to build call chains from? */
bool bt_chains_wanted(const struct bt_pd_reader *r);
/*
 * Start reading chains for p: its unwinder, on p's machine (which must
 * have been made), with the vDSO image of benchtui's section.
 */
void bt_chains_init(struct bt_profile *p, const struct bt_pd_reader *r);
void bt_chains_free(struct bt_profile *p);
/*
 * The chain id of a sample whose leaf is (module, off): unwound, each
 * frame resolved at the sample's time, interned. The machine has every
 * side-band record as old as the sample (core/perf's ordered stream).
 * The chain's first location is (module, off) itself (kept.c takes the
 * leaf from there).
 */
uint32_t bt_chains_sample(struct bt_profile *p, const struct bt_perf_layout *l,
			  const struct bt_pd_event *ev, uint32_t module, uint64_t off);

/* Do samples of layout l carry an LBR call stack (BRANCH_STACK, CALL_STACK)? */
bool bt_lbr_callstack(const struct bt_perf_layout *l);
/*
 * The frames after the leaf of a sample with an LBR call stack into
 * ips[0..max) (max >= 1), each an address to look up as is:
 * entries[0].to, then every entry's from, innermost first (a kernel
 * sample's kernel frames are its leaf's bucket, as for other chains).
 * Returns how many (0 for an empty stack), or -1 when the callchain has
 * no user part (no PERF_CONTEXT_USER): then perf reads the callchain as
 * it is, and so does bt_chains_sample.
 */
int bt_lbr_chain(const struct bt_perf_sample *s, uint64_t *ips, size_t max);

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
/*
 * Was chain id made from an LBR call stack? Its second location is then
 * the last call's target: the leaf's own function but after a tail call
 * or a PLT stub, where it is the leaf's caller (bt_lbr_chain).
 */
bool bt_chains_lbr(const struct bt_profile *p, uint32_t id);
/* Interned locations. */
size_t bt_chains_nlocs(const struct bt_profile *p);
const struct bt_loc *bt_chains_loc(const struct bt_profile *p, uint32_t id);

#endif
