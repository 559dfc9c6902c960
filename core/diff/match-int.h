/*
 * What match.c and match-insns.c share: each instruction's keys.
 */
#ifndef BENCHTUI_DIFF_MATCH_INT_H
#define BENCHTUI_DIFF_MATCH_INT_H

#include <stdint.h>

struct bt_annotation;

/**
 * struct match_key - what an instruction is compared by
 * @loose: its opcode (mnemonic; every nop the same)
 * @strict: the opcode and its operands, registers and immediates masked,
 *          a call's target by name
 * @line: its source line (the file's basename and line), 0 if unknown
 * @nop: padding (left out of the blocks' hashes)
 */
struct match_key {
	uint64_t loose, strict, line;
	bool nop;
};

/* keys[0..a->insns.n) */
void match_keys(const struct bt_annotation *a, struct match_key *keys);
uint64_t match_mix(uint64_t h, uint64_t x);

#endif
