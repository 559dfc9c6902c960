/* An ELF64 image in memory for one piece of JIT code (jitelf.h). */
#include <elf.h>
#include <string.h>

#include "base.h"
#include "jit/jitelf.h"

#define ALIGN8(x) (((x) + 7) & ~(size_t)7)

static const char shstr[] = "\0.text\0.symtab\0.strtab\0.shstrtab";
enum { SH_TEXT = 1, SH_SYMTAB = 7, SH_STRTAB = 15, SH_SHSTRTAB = 23 };

void *
bt_jit_elf_image(unsigned e_machine, const char *name, uint64_t start,
		 uint64_t size, const uint8_t *code, size_t *len)
{
	size_t nlen = strlen(name), text = code ? (size_t)size : 0;
	size_t o_sym = ALIGN8(BT_JIT_ELF_TEXT + text);
	size_t o_str = o_sym + 2 * sizeof(Elf64_Sym);
	size_t o_shstr = o_str + nlen + 2;
	size_t o_sh = ALIGN8(o_shstr + sizeof(shstr));
	size_t total = o_sh + 5 * sizeof(Elf64_Shdr);
	uint8_t *img = bt_xcalloc(1, total);
	Elf64_Ehdr *eh = (Elf64_Ehdr *)img;
	Elf64_Phdr *ph = (Elf64_Phdr *)(img + sizeof(*eh));
	Elf64_Sym *sym = (Elf64_Sym *)(img + o_sym);
	Elf64_Shdr *sh = (Elf64_Shdr *)(img + o_sh);

	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_EXEC;
	eh->e_machine = (Elf64_Half)e_machine;
	eh->e_version = EV_CURRENT;
	eh->e_entry = start;
	eh->e_phoff = sizeof(*eh);
	eh->e_shoff = o_sh;
	eh->e_ehsize = sizeof(*eh);
	eh->e_phentsize = sizeof(*ph);
	eh->e_phnum = 1;
	eh->e_shentsize = sizeof(*sh);
	eh->e_shnum = 5;
	eh->e_shstrndx = 4;

	ph->p_type = PT_LOAD;
	ph->p_flags = PF_R | PF_X;
	ph->p_offset = BT_JIT_ELF_TEXT;
	ph->p_vaddr = ph->p_paddr = start;
	ph->p_filesz = text;
	ph->p_memsz = size;
	ph->p_align = 16;

	if (text)
		memcpy(img + BT_JIT_ELF_TEXT, code, text);
	sym[1].st_name = 1;
	sym[1].st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC);
	sym[1].st_shndx = 1;
	sym[1].st_value = start;
	sym[1].st_size = size;
	memcpy(img + o_str + 1, name, nlen);
	memcpy(img + o_shstr, shstr, sizeof(shstr));

	sh[1].sh_name = SH_TEXT;
	sh[1].sh_type = code ? SHT_PROGBITS : SHT_NOBITS;
	sh[1].sh_flags = SHF_ALLOC | SHF_EXECINSTR;
	sh[1].sh_addr = start;
	sh[1].sh_offset = BT_JIT_ELF_TEXT;
	sh[1].sh_size = size;
	sh[1].sh_addralign = 16;
	sh[2].sh_name = SH_SYMTAB;
	sh[2].sh_type = SHT_SYMTAB;
	sh[2].sh_offset = o_sym;
	sh[2].sh_size = 2 * sizeof(Elf64_Sym);
	sh[2].sh_link = 3;
	sh[2].sh_info = 1;
	sh[2].sh_addralign = 8;
	sh[2].sh_entsize = sizeof(Elf64_Sym);
	sh[3].sh_name = SH_STRTAB;
	sh[3].sh_type = SHT_STRTAB;
	sh[3].sh_offset = o_str;
	sh[3].sh_size = nlen + 2;
	sh[3].sh_addralign = 1;
	sh[4].sh_name = SH_SHSTRTAB;
	sh[4].sh_type = SHT_STRTAB;
	sh[4].sh_offset = o_shstr;
	sh[4].sh_size = sizeof(shstr);
	sh[4].sh_addralign = 1;
	*len = total;
	return img;
}

unsigned
bt_jit_host_machine(void)
{
#if defined(__x86_64__)
	return EM_X86_64;
#elif defined(__aarch64__)
	return EM_AARCH64;
#elif defined(__i386__)
	return EM_386;
#else
	return EM_NONE;
#endif
}
