/* What the files of core/symbols share. */
#ifndef BENCHTUI_SYMBOLS_INT_H
#define BENCHTUI_SYMBOLS_INT_H

#include <gelf.h>
#include <stdint.h>

/* One FDE: the code [start, end) it describes. */
struct bt_fde_range {
	uint64_t start, end;
};

/* A module's FDEs, sorted by start (a BT_VEC). */
struct bt_fde_table {
	struct bt_fde_range *v;
	size_t n, alloc;
};

/* Read the FDEs of elf's .eh_frame (else .debug_frame) into t. */
void bt_fde_table_build(struct bt_fde_table *t, Elf *elf);
/* The FDE covering addr, or NULL. */
const struct bt_fde_range *bt_fde_table_find(const struct bt_fde_table *t,
					     uint64_t addr);

#endif
