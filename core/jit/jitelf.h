/*
 * A small ELF image for one piece of JIT code, made in memory so that the
 * symbol layer opens JIT code like any module (bt_msyms_open with an
 * image): the code at its runtime address in .text (NOBITS when only its
 * range is known, as from a perf map), one function symbol covering it.
 * perf inject --jit writes the same kind of file to disk (jitted-PID-N.so);
 * this one never leaves memory.
 */
#ifndef BENCHTUI_JITELF_H
#define BENCHTUI_JITELF_H

#include <stddef.h>
#include <stdint.h>

/*
 * File offset of the code in the image. A sample at runtime address ip in
 * code starting at start is at file offset BT_JIT_ELF_TEXT + (ip - start),
 * which the image's PT_LOAD maps back to ip.
 */
#define BT_JIT_ELF_TEXT 0x80u

/*
 * The image (malloc'ed, *len bytes) of code [start, start + size) named
 * name, for ELF machine e_machine. code NULL: the range only (no bytes).
 */
void *bt_jit_elf_image(unsigned e_machine, const char *name, uint64_t start,
		       uint64_t size, const uint8_t *code, size_t *len);

/* The ELF machine (EM_*) of the code benchtui runs on: a runtime's own. */
unsigned bt_jit_host_machine(void);

#endif
