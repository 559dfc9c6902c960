/* The back ends behind core/disasm/disasm.h. */
#ifndef BENCHTUI_DISASM_INT_H
#define BENCHTUI_DISASM_INT_H

#include "disasm/disasm.h"

struct bt_disasm_ops {
	/* Decode one instruction; 0 when the bytes do not decode. */
	size_t (*one)(struct bt_disasm *d, const uint8_t *buf, size_t len,
		      uint64_t addr, struct bt_insn *out);
	void (*free)(struct bt_disasm *d);
};

/*
 * The back ends write an instruction's text and mnemonic into text and
 * mnemonic; bt_disasm_one points the bt_insn at them.
 */
struct bt_disasm {
	const struct bt_disasm_ops *ops;
	enum bt_arch arch;
	enum bt_syntax syntax;
	void *priv;
	char mnemonic[24];
	char text[112];
};

int bt_zydis_init(struct bt_disasm *d, struct bt_error *err);
int bt_capstone_init(struct bt_disasm *d, struct bt_error *err);

#endif
