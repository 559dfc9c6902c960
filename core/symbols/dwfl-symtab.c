/*
 * A module's function index (dwfl.c opens the module): FUNC/IFUNC symbols
 * and code labels, aliases resolved by perf's rules, zero sizes extended
 * to the next symbol, PLT stubs named from the PLT relocations; where no
 * symbol covers an address, the FDE's bounds. Data objects too, for
 * PC-relative operands. Names are demangled on first use.
 */
#include <libiberty/demangle.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/dwfl-int.h"

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

const char *
msyms_pooled_demangle(struct bt_msyms *m, const char *name)
{
	char *d = bt_demangle(name);
	const char *r;

	if (d == NULL)
		return name;
	r = bt_strpool_addstr(&m->pool, d);
	free(d);
	return r;
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
	rscn = msyms_find_section(m->elf, ".rela.plt", &rel);
	if (rscn == NULL) {
		rscn = msyms_find_section(m->elf, ".rel.plt", &rel);
		rela = false;
	}
	if (rscn == NULL || rel.sh_entsize == 0)
		return;
	if (m->info.e_machine != EM_AARCH64 &&
	    msyms_find_section(m->elf, ".plt.sec", &plt) != NULL)
		first = plt.sh_addr;
	else if (msyms_find_section(m->elf, ".plt", &plt) != NULL)
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
	if (msyms_find_section(m->elf, ".plt", &pl0) != NULL &&
	    pl0.sh_size >= (m->info.e_machine == EM_AARCH64 ? 32u : 16u)) {
		struct fsym f0 = { pl0.sh_addr, pl0.sh_addr +
		    (m->info.e_machine == EM_AARCH64 ? 32 : 16), NULL, NULL, STB_LOCAL, true, false, false };
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
		f.label = false;
		f.plt = true;
		BT_VEC_PUSH(m->syms, f);
	}
}

/* The name of the dynamic relocation for GOT slot got (x86-64 .rela.dyn). */
static const char *
got_name(struct bt_msyms *m, uint64_t got)
{
	GElf_Shdr rel, dsym;
	Elf_Scn *rscn = msyms_find_section(m->elf, ".rela.dyn", &rel), *dscn;
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
	    (scn = msyms_find_section(m->elf, ".plt.got", &sh)) == NULL ||
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
		f.label = false;
		f.plt = true;
		BT_VEC_PUSH(m->syms, f);
	}
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

void
msyms_build_index(struct bt_msyms *m)
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
				GELF_ST_BIND(sym.st_info), true, false, false };
			BT_VEC_PUSH(m->objs, o);
			continue;
		}
		f.plt = false;
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

/* Symbol f as a function, its name demangled on first use. */
static void
sym_out(struct bt_msyms *m, struct fsym *f, struct bt_func_sym *out)
{
	if (f->name == NULL)
		f->name = msyms_pooled_demangle(m, f->raw);
	out->start = f->start;
	out->end = f->end;
	out->name = f->name;
	out->raw_name = f->raw;
	out->src = BT_FUNC_SYMTAB;
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
			sym_out(m, f, out);
			return 0;
		}
	}
	if (fde_func(m, addr, out) == 0)
		return 0;
	out->src = BT_FUNC_NONE;
	return -BT_ENOENT;
}

int
bt_msyms_func_from(struct bt_msyms *m, uint64_t addr, struct bt_func_sym *out)
{
	size_t lo = 0, hi = m->syms.n;

	memset(out, 0, sizeof(*out));
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (m->syms.v[mid].start < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == m->syms.n)
		return -BT_ENOENT;
	sym_out(m, &m->syms.v[lo], out);
	return 0;
}

int
bt_msyms_data_named(struct bt_msyms *m, const char *raw, uint64_t *addr,
		    uint64_t *size)
{
	size_t i;

	for (i = 0; i < m->objs.n; i++)
		if (strcmp(m->objs.v[i].raw, raw) == 0) {
			*addr = m->objs.v[i].start;
			*size = m->objs.v[i].end - m->objs.v[i].start;
			return 0;
		}
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
		o->name = msyms_pooled_demangle(m, o->raw);
	*name = o->name;
	*off = addr - o->start;
	return 0;
}
