/*
 * One module's symbols, lines and inline frames through libdwfl
 * (DESIGN.md §1 "symbols"). Each module gets its own Dwfl, reported at
 * bias 0 so that every address is the link-time address objdump prints.
 * Indexes are built once: the sorted function table per module
 * (dwfl-symtab.c), the line rows (dwfl-lines.c) and the inline ranges
 * (dwfl-inlines.c) per compilation unit, on first use. This file opens a
 * module and answers what its ELF file tells.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols/dwfl-int.h"

/*
 * Where separate debug files are looked for, in libdwfl's syntax: the
 * module's directory, its .debug/, /usr/lib/debug (its .build-id/ and the
 * module's directory under it); CRCs checked. BENCHTUI_DEBUGINFO_PATH
 * replaces it (docs/reliability.md).
 */
const char *
msyms_debuginfo_path(void)
{
	const char *env = secure_getenv("BENCHTUI_DEBUGINFO_PATH");

	return env != NULL && env[0] != '\0' ? env : "+:.debug:/usr/lib/debug";
}

/*
 * The module is always reported with its file opened (never by libdwfl:
 * no find_elf); its debug file is looked for by msyms_find_debuginfo.
 */
static int
no_elf(Dwfl_Module *mod, void **userdata, const char *modname,
       Dwarf_Addr base, char **file_name, Elf **elfp)
{
	(void)mod;
	(void)userdata;
	(void)modname;
	(void)base;
	(void)file_name;
	(void)elfp;
	return -1;
}

static const Dwfl_Callbacks callbacks = {
	.find_elf = no_elf,
	.find_debuginfo = msyms_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/* Give the module's callbacks m (its notes, its file). */
static void
set_userdata(struct bt_msyms *m)
{
	void **userdata = NULL;

	if (m->mod != NULL && dwfl_module_info(m->mod, &userdata, NULL, NULL,
	    NULL, NULL, NULL, NULL) != NULL && userdata != NULL)
		*userdata = m;
}

static bool
elf_has_symtab(Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	if (elf == NULL)
		return false;
	while ((scn = elf_nextscn(elf, scn)) != NULL)
		if (gelf_getshdr(scn, &sh) != NULL && sh.sh_type == SHT_SYMTAB)
			return true;
	return false;
}

Elf_Scn *
msyms_find_section(Elf *elf, const char *name, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *n;
		if (gelf_getshdr(scn, sh) == NULL)
			continue;
		n = elf_strptr(elf, shstrndx, sh->sh_name);
		if (n != NULL && strcmp(n, name) == 0)
			return scn;
	}
	return NULL;
}

static size_t
dynsym_count(Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)) != NULL)
		if (gelf_getshdr(scn, &sh) != NULL && sh.sh_type == SHT_DYNSYM &&
		    sh.sh_entsize)
			return sh.sh_size / sh.sh_entsize;
	return 0;
}

bool
bt_msyms_has_dwarf(struct bt_msyms *m)
{
	const char *mainfile = NULL, *debugfile = NULL;
	Dwarf_Addr bias;
	Dwarf *dw;

	if (m->preset != NULL)
		return true;
	if (!m->dwarf_checked) {
		m->dwarf_checked = true;
		dw = dwfl_module_getdwarf(m->mod, &bias);
		dwfl_module_info(m->mod, NULL, NULL, NULL, NULL, NULL, &mainfile,
		    &debugfile);
		m->info.has_dwarf = dw != NULL && msyms_split_units_ok(m, dw,
		    debugfile ? debugfile : mainfile);
		if (m->info.has_dwarf && m->debug_to_copy)
			msyms_debug_cache_write(m, dw);
		if (m->info.has_dwarf)
			m->info.debug_path = bt_strpool_addstr(&m->pool,
			    debugfile ? debugfile : m->info.path);
	}
	return m->info.has_dwarf;
}

/* Does elf hold DWARF (.debug_info, or the old .zdebug_info)? Headers only. */
static bool
elf_has_dwarf(Elf *elf)
{
	GElf_Shdr sh;

	return elf != NULL && ((msyms_find_section(elf, ".debug_info", &sh) != NULL &&
	    sh.sh_type != SHT_NOBITS && sh.sh_size > 0) ||
	    msyms_find_section(elf, ".zdebug_info", &sh) != NULL);
}

bool
bt_msyms_probe_dwarf(struct bt_msyms *m)
{
	const char *mainfile = NULL, *debugfile = NULL;
	Dwarf_Addr bias;
	bool found = false;
	int fd;

	if (m->preset != NULL || m->dwarf_checked)
		return bt_msyms_has_dwarf(m);
	if (elf_has_dwarf(dwfl_module_getelf(m->mod, &bias)))
		return true;
	dwfl_module_info(m->mod, NULL, NULL, NULL, NULL, NULL, &mainfile, &debugfile);
	if (debugfile != NULL && (fd = bt_open_regular(debugfile)) >= 0) {
		Elf *d = elf_begin(fd, ELF_C_READ_MMAP, NULL);
		found = elf_has_dwarf(d);
		elf_end(d);
		close(fd);
	}
	return found || bt_msyms_has_dwarf(m);
}

struct bt_msyms *
bt_msyms_open(const char *path, const void *image, size_t image_len,
	      struct bt_error *err)
{
	struct bt_msyms *m = bt_xcalloc(1, sizeof(*m));
	const unsigned char *bid;
	GElf_Addr bid_vaddr;
	const char *mainfile = NULL, *debugfile = NULL;
	Dwarf_Addr bias;
	GElf_Ehdr eh;
	int fd, len;
	const char *slash;

	bt_strpool_init(&m->pool);
	m->memfd = -1;
	m->info.path = bt_strpool_addstr(&m->pool, path);
	slash = strrchr(path, '/');
	m->base = bt_xstrdup(slash && slash[1] ? slash + 1 : path);
	if (image != NULL) {
		fd = memfd_create("benchtui-image", MFD_CLOEXEC);
		if (fd < 0 || write(fd, image, image_len) != (ssize_t)image_len) {
			bt_error_errno(err, BT_EIO, errno, "cannot load the image of '%s'", path);
			if (fd >= 0)
				close(fd);
			goto fail;
		}
		m->memfd = fd;
	} else {
		/* a FIFO, device or /proc file named by the recording: refused */
		fd = bt_open_recorded(path);
		if (fd == -EXDEV || fd == -EINVAL || fd == -EISDIR) {
			bt_error_set(err, BT_EFORMAT, "'%s' is %s", path,
			    fd == -EXDEV ? "a kernel file (/proc, /sys, /dev), not a program" :
			    fd == -EISDIR ? "a directory" : "not a regular file");
			goto fail;
		}
		if (fd < 0) {
			bt_error_errno(err, fd == -ENOENT ? BT_ENOENT : BT_EACCES, -fd,
			    "cannot open '%s'", path);
			goto fail;
		}
	}
	{
		struct stat st;
		if (fstat(fd, &st) == 0) {
			m->main_dev = st.st_dev;
			m->main_ino = st.st_ino;
		}
	}
	m->dwfl = dwfl_begin(&callbacks);
	if (m->dwfl == NULL) {
		close(fd);
		bt_error_set(err, BT_EIO, "libdwfl: %s", dwfl_errmsg(-1));
		goto fail;
	}
	dwfl_report_begin(m->dwfl);
	/* dwfl takes the fd; a memfd is dup'ed so that we can close ours */
	m->mod = dwfl_report_elf(m->dwfl, m->base, image ? "" : path,
	    image ? dup(fd) : fd, 0, false);
	dwfl_report_end(m->dwfl, NULL, NULL);
	set_userdata(m);
	if (m->mod == NULL) {
		bt_error_set(err, BT_EFORMAT, "'%s' is not an ELF file we can read (%s)",
		    path, dwfl_errmsg(-1));
		goto fail;
	}
	m->elf = dwfl_module_getelf(m->mod, &bias);
	if (m->elf != NULL && bias != 0 && image == NULL) {
		/*
		 * A shared object whose first segment is not at 0 (perf inject
		 * --jit's jitted-PID-N.so: code at 0x80) gets a bias from
		 * libdwfl; report it where it was linked, so that addresses are
		 * link-time addresses as everywhere else
		 */
		dwfl_report_begin(m->dwfl);
		fd = bt_open_recorded(path);
		m->mod = fd < 0 ? NULL : dwfl_report_elf(m->dwfl, m->base, path, fd,
		    (GElf_Addr)-bias, false);
		dwfl_report_end(m->dwfl, NULL, NULL);
		set_userdata(m);
		m->elf = m->mod ? dwfl_module_getelf(m->mod, &bias) : NULL;
	}
	if (m->elf == NULL || gelf_getehdr(m->elf, &eh) == NULL) {
		bt_error_set(err, BT_EFORMAT, "cannot read the ELF header of '%s'", path);
		goto fail;
	}
	m->info.e_machine = eh.e_machine;
	m->info.elfclass64 = gelf_getclass(m->elf) == ELFCLASS64;
	len = dwfl_module_build_id(m->mod, &bid, &bid_vaddr);
	if (len > 0) {
		char hex[2 * 64 + 1];
		int i;
		for (i = 0; i < len && i < 64; i++)
			sprintf(hex + 2 * i, "%02x", bid[i]);
		m->info.build_id = bt_strpool_addstr(&m->pool, hex);
	}
	/*
	 * DWARF is loaded on first use (bt_msyms_has_dwarf, lines, inlines):
	 * a separate debug file is often compressed, and a module with a
	 * handful of samples should not cost its decompression.
	 */
	(void)mainfile;
	(void)debugfile;
	m->info.has_symtab = elf_has_symtab(m->elf);
	{
		GElf_Shdr sh;
		m->info.go = msyms_find_section(m->elf, ".gopclntab", &sh) != NULL ||
		    msyms_find_section(m->elf, ".go.buildinfo", &sh) != NULL;
	}
	msyms_build_index(m);
	if (!m->info.has_symtab)	/* more symbols than .dynsym: a debug file's .symtab */
		m->info.has_symtab = (size_t)dwfl_module_getsymtab(m->mod) >
		    dynsym_count(m->elf) + 1;
	return m;
fail:
	bt_msyms_free(m);
	return NULL;
}

void
bt_msyms_free(struct bt_msyms *m)
{
	size_t i;

	if (m == NULL)
		return;
	for (i = 0; i < m->cus.n; i++) {
		BT_VEC_FREE(m->cus.v[i]->rows);
		free(m->cus.v[i]->lines);
		BT_VEC_FREE(m->cus.v[i]->files);
		BT_VEC_FREE(m->cus.v[i]->inl);
		BT_VEC_FREE(m->cus.v[i]->funcs);
		BT_VEC_FREE(m->cus.v[i]->tnames);
		free(m->cus.v[i]);
	}
	BT_VEC_FREE(m->cus);
	if (m->preset != NULL) {
		BT_VEC_FREE(m->preset->rows);
		free(m->preset);
	}
	BT_VEC_FREE(m->lines_out);
	BT_VEC_FREE(m->syms);
	BT_VEC_FREE(m->objs);
	msyms_addrnames_free(m->addrnames);
	BT_VEC_FREE(m->fde_cache);
	BT_VEC_FREE(m->fdes);
	BT_VEC_FREE(m->cu_ranges);
	for (i = 0; i < m->debug_notes.n; i++)
		free(m->debug_notes.v[i]);
	BT_VEC_FREE(m->debug_notes);
	if (m->dwfl != NULL)
		dwfl_end(m->dwfl);
	if (m->memfd >= 0)
		close(m->memfd);
	bt_strpool_release(&m->pool);
	free(m->base);
	free(m);
}

const struct bt_msyms_info *
bt_msyms_info(const struct bt_msyms *m)
{
	return &m->info;
}

const char *
bt_msyms_debug_note(const struct bt_msyms *m, size_t i)
{
	return i < m->debug_notes.n ? m->debug_notes.v[i] : NULL;
}

int
bt_msyms_off_to_addr(const struct bt_msyms *m, uint64_t off, uint64_t *addr)
{
	size_t n, i;

	if (elf_getphdrnum(m->elf, &n) != 0)
		return -BT_EFORMAT;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(m->elf, (int)i, &ph) == NULL || ph.p_type != PT_LOAD)
			continue;
		if (off >= ph.p_offset && off < ph.p_offset + ph.p_memsz) {
			*addr = ph.p_vaddr + (off - ph.p_offset);
			return 0;
		}
	}
	return -BT_ENOENT;
}

int
bt_msyms_addr_to_off(const struct bt_msyms *m, uint64_t addr, uint64_t *off)
{
	size_t n, i;

	if (elf_getphdrnum(m->elf, &n) != 0)
		return -BT_EFORMAT;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(m->elf, (int)i, &ph) == NULL || ph.p_type != PT_LOAD)
			continue;
		if (addr >= ph.p_vaddr && addr < ph.p_vaddr + ph.p_filesz) {
			*off = ph.p_offset + (addr - ph.p_vaddr);
			return 0;
		}
	}
	return -BT_ENOENT;
}

long
bt_msyms_code(struct bt_msyms *m, uint64_t start, uint64_t end,
	      const uint8_t **bytes)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(m->elf, scn)) != NULL) {
		Elf_Data *d;
		uint64_t avail;

		if (gelf_getshdr(scn, &sh) == NULL || !(sh.sh_flags & SHF_ALLOC) ||
		    start < sh.sh_addr || start >= sh.sh_addr + sh.sh_size)
			continue;
		if (sh.sh_type == SHT_NOBITS)
			return -BT_ENODATA;
		d = elf_getdata(scn, NULL);
		if (d == NULL || d->d_buf == NULL || d->d_size < sh.sh_size)
			return -BT_ENODATA;
		avail = sh.sh_addr + sh.sh_size - start;
		if (end > start && end - start < avail)
			avail = end - start;
		*bytes = (const uint8_t *)d->d_buf + (start - sh.sh_addr);
		return (long)avail;
	}
	return -BT_ENOENT;
}
