/*
 * For the test tools: the sized FUNC symbols of an ELF file (.symtab, else
 * .dynsym), from a symbol file that may differ from the code file.
 */
#ifndef BENCHTUI_TEST_ELF_FUNCS_H
#define BENCHTUI_TEST_ELF_FUNCS_H

#include <fcntl.h>
#include <gelf.h>
#include <stdint.h>
#include <unistd.h>

typedef void (*elf_func_cb)(uint64_t start, uint64_t size, const char *name,
			    void *arg);

/* An ELF handle on path; release with tool_close_elf(). */
static inline Elf *
tool_open_elf(const char *path)
{
	int fd = open(path, O_RDONLY);
	Elf *e;

	elf_version(EV_CURRENT);
	if (fd < 0)
		return NULL;
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (e == NULL || elf_kind(e) != ELF_K_ELF)
		return NULL;
	return e;
}

static inline void
tool_close_elf(Elf *e)
{
	elf_end(e);	/* the tools exit next: the descriptor goes with them */
}

/*
 * Where the executable PT_LOAD (the last, if several) of e would be mapped
 * at load address base, as the kernel maps it: page-aligned start and
 * length, and the file offset. -1 when e has none.
 */
static inline int
tool_exec_mapping(Elf *e, uint64_t base, uint64_t *start, uint64_t *len,
		  uint64_t *pgoff)
{
	size_t i, nph;
	int found = -1;

	if (elf_getphdrnum(e, &nph) != 0)
		return -1;
	for (i = 0; i < nph; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(e, (int)i, &ph) != NULL && ph.p_type == PT_LOAD &&
		    (ph.p_flags & PF_X)) {
			*start = base + (ph.p_vaddr & ~0xfffULL);
			*len = (ph.p_memsz + (ph.p_vaddr & 0xfff) + 0xfff) & ~0xfffULL;
			*pgoff = ph.p_offset & ~0xfffULL;
			found = 0;
		}
	}
	return found;
}

/* Call cb for each sized function symbol; returns how many, -1 without symbols. */
static inline long
tool_elf_funcs(Elf *syms, elf_func_cb cb, void *arg)
{
	Elf_Scn *scn = NULL, *best = NULL;
	GElf_Shdr sh;
	Elf_Data *data;
	size_t n, i;
	long count = 0;

	while ((scn = elf_nextscn(syms, scn)) != NULL)
		if (gelf_getshdr(scn, &sh) != NULL &&
		    (sh.sh_type == SHT_SYMTAB || (sh.sh_type == SHT_DYNSYM && best == NULL)))
			best = scn;
	if (best == NULL || gelf_getshdr(best, &sh) == NULL || sh.sh_entsize == 0)
		return -1;
	data = elf_getdata(best, NULL);
	n = sh.sh_size / sh.sh_entsize;
	for (i = 0; i < n; i++) {
		GElf_Sym s;
		const char *name;

		if (gelf_getsym(data, (int)i, &s) == NULL ||
		    GELF_ST_TYPE(s.st_info) != STT_FUNC || s.st_size == 0 ||
		    s.st_shndx == SHN_UNDEF)
			continue;
		name = elf_strptr(syms, sh.sh_link, s.st_name);
		cb(s.st_value, s.st_size, name ? name : "?", arg);
		count++;
	}
	return count;
}

#endif
