/* x86 instruction text as objdump -d prints it (docs/disasm.md). */
#ifndef BENCHTUI_X86_TEXT_H
#define BENCHTUI_X86_TEXT_H

#include <Zydis/Zydis.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Write in's text at addr into text[0..size) and its mnemonic (objdump's
 * word, without prefixes: "movzbl", "nopw", "cltq") into mn[0..mnsize),
 * in AT&T syntax or in Intel's (objdump -M intel). fwait: in is an x87
 * instruction that followed a 9b byte, printed as objdump prints the two
 * as one (9b df e0: fstsw %ax; 9b dd d8: fstp %st(0)).
 */
void bt_x86_text(const ZydisDecodedInstruction *in, const ZydisDecodedOperand *ops,
		 uint64_t addr, bool intel, bool fwait, char *text, size_t size,
		 char *mn, size_t mnsize);

#endif
