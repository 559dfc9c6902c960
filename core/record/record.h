/* Internal helpers of core/record shared with the profile loader. */
#ifndef BENCHTUI_RECORD_INT_H
#define BENCHTUI_RECORD_INT_H

#include <stddef.h>
#include <stdint.h>

/* Build-id of an ELF file or image; returns its length (0 if none). */
size_t bt_elf_build_id(const char *path, uint8_t id[20]);
size_t bt_elf_build_id_mem(const void *image, size_t len, uint8_t id[20]);

/* This process's vDSO image (the same for every process of this kernel). */
const void *bt_own_vdso(size_t *len);

#endif
