/*
 * One module's symbols, lines and inline frames through libdwfl
 * (DESIGN.md §1 "symbols"). Each module gets its own Dwfl, reported at
 * bias 0 so that every address is the link-time address objdump prints.
 * Indexes are built once: the sorted function table per module, the line
 * rows and the inline ranges per compilation unit, on first use.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libiberty/demangle.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base.h"
#include "symbols/symbols.h"
#include "symbols/symbols-int.h"

struct fsym {
	uint64_t start, end;
	const char *raw;	/* ELF name (owned by libdwfl) */
	const char *name;	/* demangled, filled on first use */
	int bind;
	bool sized;
	bool label;	/* NOTYPE in code (code_label) */
};

struct inl {
	uint64_t lo, hi;
	uint64_t pmax;		/* max hi of this and all entries before */
	unsigned depth;
	struct bt_inline f;
};

struct cu {
	uint64_t off;			/* CU DIE offset: the cache key */
	const char *comp_dir;
	BT_VEC(struct bt_line) rows;	/* sorted, one per address; line 0 ends a sequence */
	BT_VEC(struct inl) inl;		/* sorted by lo */
	const char *producer;
	bool inl_done;
};

struct cu_range {
	uint64_t lo, hi;
	Dwarf_Off die;
};

struct bt_msyms {
	struct bt_msyms_info info;
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Elf *elf;			/* the main file (code, headers) */
	int memfd;
	BT_VEC(struct fsym) syms;
	BT_VEC(struct fsym) objs;	/* data objects, sorted, for PC-relative operands */
	BT_VEC(struct cu *) cus;
	struct bt_strpool pool;
	char *base;			/* basename, for FDE names */
	bool dwarf_checked;
	BT_VEC(struct bt_func_sym) fde_cache;	/* from CFI rows, when there are no FDEs */
	struct bt_fde_table fdes;		/* built on first use */
	bool fdes_built;
	/* CU address ranges, when the file has no .debug_aranges (Go) */
	BT_VEC(struct cu_range) cu_ranges;
	bool cu_ranges_built;
	struct cu *preset;		/* lines given, not read (JIT code) */
};

static char *debuginfo_path = (char *)"+:.debug:/usr/lib/debug";

static const Dwfl_Callbacks callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

/*
 * Rust (v0 names, _R..., and legacy ones, _ZN...17h<hash>E, printed
 * without the hash) and C++ by libiberty's demangler: objdump -C's, and
 * the C++ runtime's own code (__cxa_demangle is built from the same
 * source), without linking the C++ runtime.
 */
char *
bt_demangle(const char *name)
{
	char *d;

	if (name == NULL)
		return NULL;
	if (strncmp(name, "_R", 2) == 0 || strncmp(name, "_ZN", 3) == 0) {
		d = cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI | DMGL_RUST);
		if (d != NULL)
			return d;
	}
	if (strncmp(name, "_Z", 2) != 0)
		return NULL;
	return cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI);
}

static const char *
pooled_demangle(struct bt_msyms *m, const char *name)
{
	char *d = bt_demangle(name);
	const char *r;

	if (d == NULL)
		return name;
	r = bt_strpool_addstr(&m->pool, d);
	free(d);
	return r;
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

static int
underscores(const char *s)
{
	int n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* perf's choose_best_symbol(): true when b should replace a. */
static bool
better(const struct fsym *a, const struct fsym *b)
{
	int ua, ub;
	size_t la, lb;

	if (a->label != b->label)
		return a->label;
	if (a->sized != b->sized)
		return b->sized;
	if ((a->bind == STB_WEAK) != (b->bind == STB_WEAK))
		return a->bind == STB_WEAK;
	if ((a->bind == STB_GLOBAL) != (b->bind == STB_GLOBAL))
		return b->bind == STB_GLOBAL;
	ua = underscores(a->raw);
	ub = underscores(b->raw);
	if (ua != ub)
		return ub < ua;
	la = strlen(a->raw);
	lb = strlen(b->raw);
	return lb > la;
}

static int
fsym_cmp(const void *x, const void *y)
{
	const struct fsym *a = x, *b = y;

	return a->start < b->start ? -1 : a->start > b->start;
}

/* End of the section holding addr, for extending zero-size symbols. */
static uint64_t
section_end(Elf *elf, uint64_t addr)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	if (elf == NULL)
		return 0;
	while ((scn = elf_nextscn(elf, scn)) != NULL)
		if (gelf_getshdr(scn, &sh) != NULL && (sh.sh_flags & SHF_ALLOC) &&
		    addr >= sh.sh_addr && addr < sh.sh_addr + sh.sh_size)
			return sh.sh_addr + sh.sh_size;
	return 0;
}

static Elf_Scn *
find_section(Elf *elf, const char *name, GElf_Shdr *sh)
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

/*
 * PLT stubs have no symbols; name them "sym@plt" from the PLT relocations,
 * in order, as objdump and perf do (x86-64: .plt.sec, else .plt after its
 * 16-byte header; aarch64: .plt after its 32-byte header).
 */
static void
synthesize_plt(struct bt_msyms *m)
{
	GElf_Shdr plt, rel, dsym, pl0;
	Elf_Scn *rscn, *dscn;
	Elf_Data *rdata, *ddata;
	uint64_t first, entsz = 16, end;
	size_t i, n;
	bool rela = true;

	if (m->info.e_machine != EM_X86_64 && m->info.e_machine != EM_386 &&
	    m->info.e_machine != EM_AARCH64)
		return;
	rscn = find_section(m->elf, ".rela.plt", &rel);
	if (rscn == NULL) {
		rscn = find_section(m->elf, ".rel.plt", &rel);
		rela = false;
	}
	if (rscn == NULL || rel.sh_entsize == 0)
		return;
	if (m->info.e_machine != EM_AARCH64 &&
	    find_section(m->elf, ".plt.sec", &plt) != NULL)
		first = plt.sh_addr;
	else if (find_section(m->elf, ".plt", &plt) != NULL)
		first = plt.sh_addr + (m->info.e_machine == EM_AARCH64 ? 32 : 16);
	else
		return;
	end = plt.sh_addr + plt.sh_size;
	dscn = elf_getscn(m->elf, rel.sh_link);
	rdata = elf_getdata(rscn, NULL);
	if (dscn == NULL || gelf_getshdr(dscn, &dsym) == NULL || rdata == NULL)
		return;
	ddata = elf_getdata(dscn, NULL);
	if (ddata == NULL)
		return;
	/*
	 * The PLT's first entry (the jump into the dynamic linker's lazy
	 * binding) has no symbol and objdump no name for it; perf counts it
	 * as _init. PLT0@plt, with the stubs.
	 */
	if (find_section(m->elf, ".plt", &pl0) != NULL &&
	    pl0.sh_size >= (m->info.e_machine == EM_AARCH64 ? 32u : 16u)) {
		struct fsym f0 = { pl0.sh_addr, pl0.sh_addr +
		    (m->info.e_machine == EM_AARCH64 ? 32 : 16), NULL, NULL, STB_LOCAL, true, false };
		f0.raw = f0.name = "PLT0@plt";
		BT_VEC_PUSH(m->syms, f0);
	}
	n = rel.sh_size / rel.sh_entsize;
	for (i = 0; i < n && first + (i + 1) * entsz <= end; i++) {
		GElf_Rela ra;
		GElf_Rel r;
		GElf_Sym sym;
		uint64_t info;
		const char *name;
		struct fsym f;

		if (rela) {
			if (gelf_getrela(rdata, (int)i, &ra) == NULL)
				break;
			info = ra.r_info;
		} else {
			if (gelf_getrel(rdata, (int)i, &r) == NULL)
				break;
			info = r.r_info;
		}
		if (gelf_getsym(ddata, (int)(m->info.elfclass64 ? GELF_R_SYM(info) :
		    ELF32_R_SYM(info)), &sym) == NULL)
			continue;
		name = elf_strptr(m->elf, dsym.sh_link, sym.st_name);
		if ((name == NULL || name[0] == '\0') && rela)	/* an IFUNC's IRELATIVE */
			name = bt_strpool_addf(&m->pool, "*ABS*+0x%llx",
			    (unsigned long long)ra.r_addend);
		if (name == NULL || name[0] == '\0')
			continue;
		f.start = first + i * entsz;
		f.end = f.start + entsz;
		f.sized = true;
		f.raw = bt_strpool_addf(&m->pool, "%s@plt", name);
		{
			char *d = bt_demangle(name);	/* as objdump -C and perf show them */
			f.name = d ? bt_strpool_addf(&m->pool, "%s@plt", d) : f.raw;
			free(d);
		}
		f.bind = STB_LOCAL;
		BT_VEC_PUSH(m->syms, f);
	}
}

/* The name of the dynamic relocation for GOT slot got (x86-64 .rela.dyn). */
static const char *
got_name(struct bt_msyms *m, uint64_t got)
{
	GElf_Shdr rel, dsym;
	Elf_Scn *rscn = find_section(m->elf, ".rela.dyn", &rel), *dscn;
	Elf_Data *rdata, *ddata;
	size_t i, n;

	if (rscn == NULL || rel.sh_entsize == 0 ||
	    (dscn = elf_getscn(m->elf, rel.sh_link)) == NULL ||
	    gelf_getshdr(dscn, &dsym) == NULL ||
	    (rdata = elf_getdata(rscn, NULL)) == NULL ||
	    (ddata = elf_getdata(dscn, NULL)) == NULL)
		return NULL;
	n = rel.sh_size / rel.sh_entsize;
	for (i = 0; i < n; i++) {
		GElf_Rela ra;
		GElf_Sym sym;
		if (gelf_getrela(rdata, (int)i, &ra) == NULL)
			break;
		if (ra.r_offset != got || GELF_R_SYM(ra.r_info) == 0 ||
		    gelf_getsym(ddata, (int)GELF_R_SYM(ra.r_info), &sym) == NULL)
			continue;
		return elf_strptr(m->elf, dsym.sh_link, sym.st_name);
	}
	return NULL;
}

/*
 * x86-64 .plt.got: stubs for functions also called through the GOT
 * (__cxa_finalize): each is a jmp *GOT(%rip), named after the GOT slot's
 * dynamic relocation, as objdump does.
 */
static void
synthesize_plt_got(struct bt_msyms *m)
{
	GElf_Shdr sh;
	Elf_Scn *scn;
	Elf_Data *d;
	uint64_t entsz, off;

	if (m->info.e_machine != EM_X86_64 ||
	    (scn = find_section(m->elf, ".plt.got", &sh)) == NULL ||
	    (d = elf_getdata(scn, NULL)) == NULL || d->d_buf == NULL)
		return;
	entsz = sh.sh_entsize ? sh.sh_entsize : 8;
	for (off = 0; off + entsz <= d->d_size; off += entsz) {
		const uint8_t *p = (const uint8_t *)d->d_buf + off, *q = p;
		const char *name;
		int32_t disp;
		struct fsym f;

		if (entsz >= 8 && memcmp(q, "\xf3\x0f\x1e\xfa", 4) == 0)
			q += 4;	/* endbr64 */
		if (*q == 0xf2)
			q++;	/* bnd */
		if ((size_t)(q - p) + 6 > entsz || q[0] != 0xff || q[1] != 0x25)
			continue;
		memcpy(&disp, q + 2, 4);
		name = got_name(m, sh.sh_addr + off + (uint64_t)(q - p) + 6 + (int64_t)disp);
		if (name == NULL || name[0] == '\0')
			continue;
		f.start = sh.sh_addr + off;
		f.end = f.start + entsz;
		f.sized = true;
		f.raw = bt_strpool_addf(&m->pool, "%s@plt", name);
		{
			char *dm = bt_demangle(name);
			f.name = dm ? bt_strpool_addf(&m->pool, "%s@plt", dm) : f.raw;
			free(dm);
		}
		f.bind = STB_LOCAL;
		BT_VEC_PUSH(m->syms, f);
	}
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

	if (m->preset != NULL)
		return true;
	if (!m->dwarf_checked) {
		m->dwarf_checked = true;
		m->info.has_dwarf = dwfl_module_getdwarf(m->mod, &bias) != NULL;
		dwfl_module_info(m->mod, NULL, NULL, NULL, NULL, NULL, &mainfile,
		    &debugfile);
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

	return elf != NULL && ((find_section(elf, ".debug_info", &sh) != NULL &&
	    sh.sh_type != SHT_NOBITS && sh.sh_size > 0) ||
	    find_section(elf, ".zdebug_info", &sh) != NULL);
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

/*
 * A label in code: a NOTYPE symbol, not hidden, in a text section (ld.so's
 * _start and _dl_start_user, assembler entry points without .type). perf
 * names samples by them (elf_sym__is_label), as objdump heads code with
 * them; ARM's mapping symbols ($a, $d, $t, $x) are not names.
 */
static bool
code_label(Elf *elf, GElf_Word shndx, const GElf_Sym *sym, const char *name)
{
	int vis = GELF_ST_VISIBILITY(sym->st_other);
	size_t shstrndx;
	const char *sec;
	Elf_Scn *scn;
	GElf_Shdr sh;

	if (shndx == SHN_ABS || shndx >= SHN_LORESERVE || vis == STV_HIDDEN ||
	    vis == STV_INTERNAL || name[0] == '$' || elf == NULL)
		return false;
	scn = elf_getscn(elf, shndx);
	if (scn == NULL || gelf_getshdr(scn, &sh) == NULL ||
	    !(sh.sh_flags & SHF_EXECINSTR) || elf_getshdrstrndx(elf, &shstrndx) != 0)
		return false;
	sec = elf_strptr(elf, shstrndx, sh.sh_name);
	return sec != NULL && strstr(sec, "text") != NULL;
}

static void
build_symbols(struct bt_msyms *m)
{
	int n = dwfl_module_getsymtab(m->mod), i;
	size_t k, out;

	for (i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		Elf *elf;
		Dwarf_Addr bias;
		const char *name = dwfl_module_getsym_info(m->mod, i, &sym, &addr,
		    &shndx, &elf, &bias);
		struct fsym f;
		int type;

		if (name == NULL || name[0] == '\0' || shndx == SHN_UNDEF)
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if ((type == STT_OBJECT || type == STT_TLS) && sym.st_size > 0) {
			struct fsym o = { addr, addr + sym.st_size, name, NULL,
				GELF_ST_BIND(sym.st_info), true, false };
			BT_VEC_PUSH(m->objs, o);
			continue;
		}
		f.label = type == STT_NOTYPE && code_label(elf, shndx, &sym, name);
		if (type != STT_FUNC && type != STT_GNU_IFUNC && !f.label)
			continue;
		f.start = addr;
		f.end = addr + sym.st_size;
		f.sized = sym.st_size > 0 && !f.label;
		f.raw = name;
		f.name = NULL;
		f.bind = GELF_ST_BIND(sym.st_info);
		BT_VEC_PUSH(m->syms, f);
	}
	synthesize_plt(m);
	synthesize_plt_got(m);
	bt_qsort(m->syms.v, m->syms.n, sizeof(*m->syms.v), fsym_cmp);
	bt_qsort(m->objs.v, m->objs.n, sizeof(*m->objs.v), fsym_cmp);
	/* aliases at one address: keep the best name */
	for (k = 0, out = 0; k < m->syms.n; k++) {
		if (out > 0 && m->syms.v[out - 1].start == m->syms.v[k].start) {
			if (better(&m->syms.v[out - 1], &m->syms.v[k])) {
				uint64_t end = BT_MAX(m->syms.v[out - 1].end, m->syms.v[k].end);
				m->syms.v[out - 1] = m->syms.v[k];
				m->syms.v[out - 1].end = end;
			}
			continue;
		}
		m->syms.v[out++] = m->syms.v[k];
	}
	m->syms.n = out;
	/* a label inside a function does not split it (perf's would) */
	{
		uint64_t covered = 0;	/* end of the sized functions so far */

		for (k = 0, out = 0; k < m->syms.n; k++) {
			const struct fsym *f = &m->syms.v[k];
			if (f->label && f->start < covered)
				continue;
			if (f->sized && f->end > covered)
				covered = f->end;
			m->syms.v[out++] = *f;
		}
		m->syms.n = out;
	}
	/* zero-size symbols reach to the next symbol, within their section */
	for (k = 0; k < m->syms.n; k++) {
		struct fsym *f = &m->syms.v[k];
		uint64_t lim;
		if (f->sized)
			continue;
		lim = section_end(m->elf, f->start);
		if (k + 1 < m->syms.n && (lim == 0 || m->syms.v[k + 1].start < lim))
			lim = m->syms.v[k + 1].start;
		f->end = lim > f->start ? lim : f->start + 1;
	}
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
		fd = open(path, O_RDONLY | O_CLOEXEC);
		m->mod = fd < 0 ? NULL : dwfl_report_elf(m->dwfl, m->base, path, fd,
		    (GElf_Addr)-bias, false);
		dwfl_report_end(m->dwfl, NULL, NULL);
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
		m->info.go = find_section(m->elf, ".gopclntab", &sh) != NULL ||
		    find_section(m->elf, ".go.buildinfo", &sh) != NULL;
	}
	build_symbols(m);
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
		BT_VEC_FREE(m->cus.v[i]->inl);
		free(m->cus.v[i]);
	}
	BT_VEC_FREE(m->cus);
	if (m->preset != NULL) {
		BT_VEC_FREE(m->preset->rows);
		free(m->preset);
	}
	BT_VEC_FREE(m->syms);
	BT_VEC_FREE(m->objs);
	BT_VEC_FREE(m->fde_cache);
	BT_VEC_FREE(m->fdes);
	BT_VEC_FREE(m->cu_ranges);
	if (m->dwfl != NULL)
		dwfl_end(m->dwfl);
	if (m->memfd >= 0)
		close(m->memfd);
	bt_strpool_release(&m->pool);
	free(m->base);
	free(m);
}

void
bt_msyms_set_lines(struct bt_msyms *m, const struct bt_line *rows, size_t n)
{
	struct cu *c = bt_xcalloc(1, sizeof(*c));
	size_t i;

	c->inl_done = true;
	for (i = 0; i < n; i++) {
		struct bt_line r = rows[i];

		if (r.file != NULL)
			r.file = bt_strpool_addstr(&m->pool, r.file);
		if (c->rows.n && c->rows.v[c->rows.n - 1].addr == r.addr) {
			c->rows.v[c->rows.n - 1] = r;
			continue;
		}
		BT_VEC_PUSH(c->rows, r);
	}
	m->preset = c;
	m->info.has_dwarf = true;
	m->dwarf_checked = true;
}

const struct bt_msyms_info *
bt_msyms_info(const struct bt_msyms *m)
{
	return &m->info;
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

/*
 * A function from the FDE covering addr (stripped code): its bounds and a
 * name from its start, the same whatever samples a window has.
 */
static int
fde_func(struct bt_msyms *m, uint64_t addr, struct bt_func_sym *out)
{
	const struct bt_fde_range *r;
	Dwarf_CFI *cfis[2];
	Dwarf_Addr biases[2] = { 0, 0 };
	size_t i;

	if (!m->fdes_built) {
		m->fdes_built = true;
		bt_fde_table_build(&m->fdes, m->elf);
	}
	if (m->fdes.n > 0) {
		r = bt_fde_table_find(&m->fdes, addr);
		if (r == NULL)
			return -BT_ENOENT;
		out->start = r->start;
		out->end = r->end;
		out->name = bt_strpool_addf(&m->pool, "%s+0x%llx", m->base,
		    (unsigned long long)r->start);
		out->raw_name = out->name;
		out->src = BT_FUNC_FDE;
		return 0;
	}
	/* no FDE table (none in the main file): the CFI rows through libdw */
	for (i = 0; i < m->fde_cache.n; i++)
		if (addr >= m->fde_cache.v[i].start && addr < m->fde_cache.v[i].end) {
			*out = m->fde_cache.v[i];
			return 0;
		}
	for (i = 0; i < 2; i++) {
		Dwarf_Frame *fr = NULL;
		Dwarf_Addr start, end;

		/*
		 * .eh_frame first; .debug_frame only if that fails, since getting
		 * it loads (often decompresses) all of the module's DWARF
		 */
		cfis[i] = i == 0 ? dwfl_module_eh_cfi(m->mod, &biases[0]) :
		    dwfl_module_dwarf_cfi(m->mod, &biases[1]);
		if (cfis[i] == NULL ||
		    dwarf_cfi_addrframe(cfis[i], addr - biases[i], &fr) != 0)
			continue;
		if (dwarf_frame_info(fr, &start, &end, NULL) >= 0 && end > start) {
			out->start = start + biases[i];
			out->end = end + biases[i];
			out->name = bt_strpool_addf(&m->pool, "%s+0x%llx", m->base,
			    (unsigned long long)out->start);
			out->raw_name = out->name;
			out->src = BT_FUNC_FDE;
			free(fr);
			BT_VEC_PUSH(m->fde_cache, *out);
			return 0;
		}
		free(fr);
	}
	return -BT_ENOENT;
}

int
bt_msyms_func(struct bt_msyms *m, uint64_t addr, struct bt_func_sym *out)
{
	size_t lo = 0, hi = m->syms.n, k;

	memset(out, 0, sizeof(*out));
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (m->syms.v[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* lo is the first symbol after addr; look at the few before it */
	for (k = lo; k > 0 && k + 4 > lo; k--) {
		struct fsym *f = &m->syms.v[k - 1];
		if (addr >= f->start && addr < f->end) {
			if (f->name == NULL)
				f->name = pooled_demangle(m, f->raw);
			out->start = f->start;
			out->end = f->end;
			out->name = f->name;
			out->raw_name = f->raw;
			out->src = BT_FUNC_SYMTAB;
			return 0;
		}
	}
	if (fde_func(m, addr, out) == 0)
		return 0;
	out->src = BT_FUNC_NONE;
	return -BT_ENOENT;
}

int
bt_msyms_data(struct bt_msyms *m, uint64_t addr, const char **name, uint64_t *off)
{
	size_t lo = 0, hi = m->objs.n;
	struct fsym *o;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (m->objs.v[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return -BT_ENOENT;
	o = &m->objs.v[lo - 1];
	if (addr >= o->end)
		return -BT_ENOENT;
	if (o->name == NULL)
		o->name = pooled_demangle(m, o->raw);
	*name = o->name;
	*off = addr - o->start;
	return 0;
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

/* A source path as recorded, made absolute with the CU's comp_dir. */
static const char *
abs_path(struct bt_msyms *m, const struct cu *c, const char *src)
{
	if (src[0] == '/' || c->comp_dir == NULL)
		return bt_strpool_addstr(&m->pool, src);
	return bt_strpool_addf(&m->pool, "%s/%s", c->comp_dir, src);
}

static int
cu_range_cmp(const void *a, const void *b)
{
	const struct cu_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/*
 * The CU DIE holding addr. libdw finds it through .debug_aranges; a file
 * without them (Go writes none) is searched through every CU's ranges,
 * indexed once.
 */
static Dwarf_Die *
addr_cudie(struct bt_msyms *m, uint64_t addr, Dwarf_Die *out, Dwarf_Addr *bias)
{
	Dwarf_Die *d = dwfl_module_addrdie(m->mod, addr, bias);
	Dwarf *dw;
	size_t lo, hi;

	if (d != NULL) {
		*out = *d;
		return out;
	}
	dw = dwfl_module_getdwarf(m->mod, bias);
	if (dw == NULL)
		return NULL;
	if (!m->cu_ranges_built) {
		Dwarf_Off off = 0, next;
		size_t hsize;

		m->cu_ranges_built = true;
		while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
			Dwarf_Die cu;
			Dwarf_Addr base, s, e;
			ptrdiff_t r = 0;

			if (dwarf_offdie(dw, off + hsize, &cu) != NULL)
				while ((r = dwarf_ranges(&cu, r, &base, &s, &e)) > 0) {
					struct cu_range cr = { s, e, off + hsize };
					if (e > s)
						BT_VEC_PUSH(m->cu_ranges, cr);
				}
			off = next;
		}
		bt_qsort(m->cu_ranges.v, m->cu_ranges.n, sizeof(*m->cu_ranges.v),
		    cu_range_cmp);
	}
	addr -= *bias;
	lo = 0;
	hi = m->cu_ranges.n;
	while (lo < hi) {	/* the first range starting after addr */
		size_t mid = (lo + hi) / 2;
		if (m->cu_ranges.v[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || addr >= m->cu_ranges.v[lo - 1].hi)
		return NULL;
	return dwarf_offdie(dw, m->cu_ranges.v[lo - 1].die, out);
}

/* The compilation unit at addr, with its line rows built. */
static struct cu *
cu_at(struct bt_msyms *m, uint64_t addr, Dwarf_Die *die_out)
{
	Dwarf_Addr bias;
	Dwarf_Die *cudie, cubuf;
	Dwarf_Lines *lines;
	size_t nlines, i;
	struct cu *c;
	uint64_t off;
	Dwarf_Attribute attr;

	if (m->preset != NULL)
		return m->preset;
	if (!bt_msyms_has_dwarf(m))
		return NULL;
	cudie = addr_cudie(m, addr, &cubuf, &bias);
	if (cudie == NULL)
		return NULL;
	*die_out = *cudie;
	off = dwarf_dieoffset(cudie);
	for (i = 0; i < m->cus.n; i++)
		if (m->cus.v[i]->off == off)
			return m->cus.v[i];
	c = bt_xcalloc(1, sizeof(*c));
	c->off = off;
	if (dwarf_attr(cudie, DW_AT_producer, &attr) != NULL) {
		const char *p = dwarf_formstring(&attr);
		c->producer = p ? bt_strpool_addstr(&m->pool, p) : NULL;
	}
	if (dwarf_attr(cudie, DW_AT_comp_dir, &attr) != NULL) {
		const char *p = dwarf_formstring(&attr);
		c->comp_dir = p ? bt_strpool_addstr(&m->pool, p) : NULL;
	}
	if (dwarf_getsrclines(cudie, &lines, &nlines) == 0) {
		const char *prev_src = NULL, *prev_pooled = NULL;
		for (i = 0; i < nlines; i++) {
			Dwarf_Line *l = dwarf_onesrcline(lines, i);
			Dwarf_Addr a;
			int ln = 0;
			bool endseq = false;
			struct bt_line row;
			const char *src;

			if (l == NULL || dwarf_lineaddr(l, &a) != 0)
				continue;
			dwarf_lineendsequence(l, &endseq);
			dwarf_lineno(l, &ln);
			src = dwarf_linesrc(l, NULL, NULL);
			row.addr = a + bias;
			if (endseq || src == NULL) {
				row.file = NULL;
				row.line = 0;
			} else {
				if (src != prev_src) {
					prev_src = src;
					prev_pooled = abs_path(m, c, src);
				}
				row.file = prev_pooled;
				row.line = (unsigned)ln;
			}
			/* one row per address: the last one, as addr2line reports */
			if (c->rows.n && c->rows.v[c->rows.n - 1].addr == row.addr) {
				if (row.line != 0 || c->rows.v[c->rows.n - 1].line == 0)
					c->rows.v[c->rows.n - 1] = row;
				continue;
			}
			BT_VEC_PUSH(c->rows, row);
		}
	}
	BT_VEC_PUSH(m->cus, c);
	return c;
}

size_t
bt_msyms_lines(struct bt_msyms *m, uint64_t start, uint64_t end,
	       const struct bt_line **rows)
{
	Dwarf_Die cudie;
	struct cu *c = cu_at(m, start, &cudie);
	size_t lo = 0, hi, first, last;

	*rows = NULL;
	if (c == NULL || c->rows.n == 0)
		return 0;
	hi = c->rows.n;
	while (lo < hi) {	/* first row after start */
		size_t mid = (lo + hi) / 2;
		if (c->rows.v[mid].addr <= start)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return 0;
	first = lo - 1;
	for (last = first + 1; last < c->rows.n && c->rows.v[last].addr < end; last++)
		;
	*rows = &c->rows.v[first];
	return last - first;
}

static const char *
die_name(struct bt_msyms *m, Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *s;

	if (dwarf_attr_integrate(die, DW_AT_linkage_name, &attr) != NULL ||
	    dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr) != NULL) {
		s = dwarf_formstring(&attr);
		if (s != NULL)
			return pooled_demangle(m, s);
	}
	if (dwarf_attr_integrate(die, DW_AT_name, &attr) != NULL &&
	    (s = dwarf_formstring(&attr)) != NULL)
		return bt_strpool_addstr(&m->pool, s);
	return "?";
}

static void
walk_inlines(struct bt_msyms *m, struct cu *c, Dwarf_Die *parent,
	     Dwarf_Files *files, size_t nfiles, unsigned depth, int level)
{
	Dwarf_Die child;

	if (level > 64 || dwarf_child(parent, &child) != 0)
		return;
	do {
		unsigned d = depth;
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_inlined_subroutine) {
			Dwarf_Attribute attr;
			Dwarf_Word fileidx = 0, line = 0;
			Dwarf_Addr base, s, e;
			ptrdiff_t off = 0;
			struct inl in;

			memset(&in, 0, sizeof(in));
			in.depth = depth;
			in.f.name = die_name(m, &child);
			if (dwarf_attr(&child, DW_AT_call_file, &attr) != NULL &&
			    dwarf_formudata(&attr, &fileidx) == 0 && files != NULL &&
			    fileidx < nfiles) {
				const char *fn = dwarf_filesrc(files, fileidx, NULL, NULL);
				in.f.call_file = fn ? abs_path(m, c, fn) : NULL;
			}
			if (dwarf_attr(&child, DW_AT_call_line, &attr) != NULL &&
			    dwarf_formudata(&attr, &line) == 0)
				in.f.call_line = (unsigned)line;
			while ((off = dwarf_ranges(&child, off, &base, &s, &e)) > 0) {
				in.lo = in.f.lo = s;
				in.hi = in.f.hi = e;
				BT_VEC_PUSH(c->inl, in);
			}
			d = depth + 1;
		}
		if (dwarf_haschildren(&child))
			walk_inlines(m, c, &child, files, nfiles, d, level + 1);
	} while (dwarf_siblingof(&child, &child) == 0);
}

static int
inl_cmp(const void *x, const void *y)
{
	const struct inl *a = x, *b = y;

	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return a->depth < b->depth ? -1 : a->depth > b->depth;
}

size_t
bt_msyms_inlines(struct bt_msyms *m, uint64_t addr, struct bt_inline *chain,
		 size_t max)
{
	Dwarf_Die cudie;
	struct cu *c = cu_at(m, addr, &cudie);
	size_t lo = 0, hi, k, n = 0, i;

	if (c == NULL)
		return 0;
	if (!c->inl_done) {
		Dwarf_Files *files = NULL;
		size_t nfiles = 0;
		Dwarf_Addr bias;

		c->inl_done = true;
		if (dwarf_getsrcfiles(&cudie, &files, &nfiles) != 0)
			files = NULL;
		walk_inlines(m, c, &cudie, files, nfiles, 0, 0);
		bt_qsort(c->inl.v, c->inl.n, sizeof(*c->inl.v), inl_cmp);
		/* dwfl reports DIE addresses unbiased; the module is at bias 0 */
		(void)dwfl_module_getdwarf(m->mod, &bias);
		for (i = 0; i < c->inl.n; i++) {
			c->inl.v[i].lo += bias;
			c->inl.v[i].hi += bias;
			c->inl.v[i].f.lo = c->inl.v[i].lo;
			c->inl.v[i].f.hi = c->inl.v[i].hi;
			c->inl.v[i].pmax = BT_MAX(c->inl.v[i].hi,
			    i ? c->inl.v[i - 1].pmax : 0);
		}
	}
	hi = c->inl.n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (c->inl.v[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* entries [0, lo) start at or before addr; walk back while one may cover it */
	for (k = lo; k > 0 && c->inl.v[k - 1].pmax > addr; k--) {
		const struct inl *in = &c->inl.v[k - 1];
		if (addr < in->hi && in->depth < max) {
			/* depths no range fills are holes: cleared as n passes them */
			for (; n < in->depth; n++)
				chain[n].name = NULL;
			chain[in->depth] = in->f;
			if (in->depth + 1 > n)
				n = in->depth + 1;
		}
	}
	/* a chain with a hole (ranges that disagree) stops at the hole */
	for (i = 0; i < n; i++)
		if (chain[i].name == NULL) {
			n = i;
			break;
		}
	return n;
}

const char *
bt_msyms_producer(struct bt_msyms *m, uint64_t addr)
{
	Dwarf_Die cudie;
	struct cu *c = cu_at(m, addr, &cudie);

	return c ? c->producer : NULL;
}
