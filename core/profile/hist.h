/*
 * The histogram accumulator: samples counted by (group, module, file
 * offset), where the group is the event for the whole run, a time slice
 * for the timeline, or (later) a benchmark. One accumulator serves them
 * all; its memory grows with the addresses samples touch, never with the
 * size of a mapping.
 *
 * Counts live in one open-addressing table of the addresses sampled, 16
 * bytes each, named in 32 bits through regions (a small hash of (group,
 * module, offset / 4096), the last one remembered).
 */
#ifndef BENCHTUI_HIST_H
#define BENCHTUI_HIST_H

#include <stddef.h>
#include <stdint.h>

/**
 * struct bt_hist_entry - samples at one (group, module, offset)
 * @off: file offset in the module (ELF, vDSO), else the runtime address
 */
struct bt_hist_entry {
	uint32_t group;
	uint32_t module;
	uint64_t off;
	uint64_t samples;
	uint64_t period;
};

struct bt_hist;

struct bt_hist *bt_hist_new(void);
void bt_hist_free(struct bt_hist *h);
void bt_hist_add(struct bt_hist *h, uint32_t group, uint32_t module,
		 uint64_t off, uint64_t period);
/*
 * Every non-zero entry, sorted by (group, module, offset), into a
 * malloc'ed array the caller owns; the accumulator is emptied.
 */
size_t bt_hist_take(struct bt_hist *h, struct bt_hist_entry **out);
/*
 * Spill after n regions (of 4096 offsets) instead of the most a table
 * names, 2^20: what tests/unit/t-hist.c reaches the spill path with.
 */
void bt_hist_limit_regions(struct bt_hist *h, size_t n);

#endif
