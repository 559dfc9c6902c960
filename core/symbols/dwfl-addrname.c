/*
 * objdump's name for an address, as it prints it after a PC-relative
 * operand ("# 2060 <table+0x40>", "# 3fc8 <printf@GLIBC_2.2.5>"):
 * binutils 2.40's find_symbol_for_address and objdump_print_symname
 * (docs/disasm.md). Not the function index (dwfl-symtab.c): every symbol
 * counts, whatever its type and size, and the nearest at or before the
 * address names it, so that a constant past the end of the last .rodata
 * object is "table+0x40" as objdump says; a GOT slot is named by its
 * dynamic relocation's symbol, with its version.
 */
#include <stdlib.h>
#include <string.h>

#include "symbols/dwfl-int.h"

struct asym {
	uint64_t value, size;
	const char *raw;	/* as in the symbol table, version added for .dynsym's */
	const char *name;	/* demangled, filled on first use */
	const char *sec;	/* its section's name ("" for none) */
	unsigned char type, bind;
	bool synthetic;		/* a PLT stub's "sym@plt" */
};

struct dynrel {
	uint64_t addr;		/* the GOT slot */
	uint64_t value;		/* the symbol's, when defined */
	const char *raw;
	const char *name;
	bool defined;
};

struct bt_addrnames {
	BT_VEC(struct asym) syms;	/* objdump's sorted_syms order */
	BT_VEC(struct dynrel) rels;	/* sorted by addr */
};

/* objdump's file-name heuristic: names ending in ".o" or ".a" sort last */
static bool
file_like(const char *s)
{
	size_t n = strlen(s);

	return n > 2 && s[n - 2] == '.' && (s[n - 1] == 'o' || s[n - 1] == 'a');
}

static bool
compiled_tag(const char *s)
{
	return strstr(s, "gnu_compiled") != NULL || strstr(s, "gcc2_compiled") != NULL;
}

/*
 * binutils' compare_symbols: by value; then, among symbols at one
 * address, the one objdump names first: functions, then objects, global
 * before weak before local, larger first, names not starting with '.',
 * then by name.
 */
static int
asym_cmp(const void *x, const void *y)
{
	const struct asym *a = x, *b = y;
	bool af, bf;

	if (a->value != b->value)
		return a->value < b->value ? -1 : 1;
	if ((af = compiled_tag(a->raw)) != (bf = compiled_tag(b->raw)))
		return af ? 1 : -1;
	if ((af = file_like(a->raw)) != (bf = file_like(b->raw)))
		return af ? 1 : -1;
	af = a->type == STT_FUNC || a->type == STT_GNU_IFUNC;
	bf = b->type == STT_FUNC || b->type == STT_GNU_IFUNC;
	if (af != bf)
		return af ? -1 : 1;
	if ((a->type == STT_OBJECT) != (b->type == STT_OBJECT))
		return a->type == STT_OBJECT ? -1 : 1;
	if ((a->bind == STB_LOCAL) != (b->bind == STB_LOCAL))
		return a->bind == STB_LOCAL ? 1 : -1;
	if ((a->bind == STB_GLOBAL) != (b->bind == STB_GLOBAL))
		return a->bind == STB_GLOBAL ? -1 : 1;
	if (a->size != b->size)
		return a->size > b->size ? -1 : 1;
	if ((a->raw[0] == '.') != (b->raw[0] == '.'))
		return a->raw[0] == '.' ? 1 : -1;
	return strcmp(a->raw, b->raw);
}

static int
dynrel_cmp(const void *x, const void *y)
{
	const struct dynrel *a = x, *b = y;

	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* The symbols objdump keeps (remove_useless_symbols): named, defined, not a section or file. */
static bool
useful(const GElf_Sym *s, GElf_Word shndx, const char *name)
{
	int type = GELF_ST_TYPE(s->st_info);

	return name != NULL && name[0] != '\0' && name[0] != '$' && shndx != SHN_UNDEF &&
	    shndx != SHN_COMMON && type != STT_SECTION && type != STT_FILE;
}

/* The name of section shndx of elf, "" when none. */
static const char *
section_name(Elf *elf, size_t shndx)
{
	Elf_Scn *scn;
	GElf_Shdr sh;
	size_t shstrndx;
	const char *n;

	if (elf == NULL || shndx == SHN_UNDEF || shndx >= SHN_LORESERVE ||
	    (scn = elf_getscn(elf, shndx)) == NULL || gelf_getshdr(scn, &sh) == NULL ||
	    elf_getshdrstrndx(elf, &shstrndx) != 0 ||
	    (n = elf_strptr(elf, shstrndx, sh.sh_name)) == NULL)
		return "";
	return n;
}

/* The name of the allocated section of elf holding addr, "" when none. */
static const char *
section_at(Elf *elf, uint64_t addr)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while (elf != NULL && (scn = elf_nextscn(elf, scn)) != NULL)
		if (gelf_getshdr(scn, &sh) != NULL && (sh.sh_flags & SHF_ALLOC) &&
		    sh.sh_type != SHT_NOBITS && addr >= sh.sh_addr &&
		    addr < sh.sh_addr + sh.sh_size)
			return section_name(elf, elf_ndxscn(scn));
	return "";
}

/* The dynamic symbol table's versions (.gnu.version, _d, _r) of m's file. */
struct versions {
	Elf_Data *versym, *verdef, *verneed;
	size_t defstr, needstr;	/* their string tables */
	size_t ndefs;
	bool any;
};

static void
versions_init(Elf *elf, struct versions *v)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	memset(v, 0, sizeof(*v));
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL)
			continue;
		if (sh.sh_type == SHT_GNU_versym)
			v->versym = elf_getdata(scn, NULL);
		else if (sh.sh_type == SHT_GNU_verdef) {
			v->verdef = elf_getdata(scn, NULL);
			v->defstr = sh.sh_link;
			v->ndefs = sh.sh_info;
		} else if (sh.sh_type == SHT_GNU_verneed) {
			v->verneed = elf_getdata(scn, NULL);
			v->needstr = sh.sh_link;
		}
	}
	v->any = v->versym != NULL && (v->verdef != NULL || v->verneed != NULL);
}

/*
 * bfd's _bfd_elf_get_symbol_version_string with base_p: the version of
 * dynamic symbol i ("" for none), *hidden when objdump prints it after
 * one '@' (hidden, or needed from another file) rather than two.
 */
static const char *
version_of(Elf *elf, const struct versions *v, size_t i, bool *hidden)
{
	GElf_Versym vs;
	unsigned n;
	size_t off;

	*hidden = false;
	if (!v->any || gelf_getversym(v->versym, (int)i, &vs) == NULL)
		return "";
	*hidden = (vs & 0x8000) != 0;
	n = vs & 0x7fff;
	if (n == 0)
		return "";
	if (n == 1)
		return "Base";	/* VER_NDX_GLOBAL (or the base definition) */
	if (v->verdef != NULL && n <= v->ndefs) {
		GElf_Verdef vd;
		GElf_Verdaux va;
		for (off = 0; gelf_getverdef(v->verdef, (int)off, &vd) != NULL; off += vd.vd_next) {
			if (vd.vd_ndx == n && gelf_getverdaux(v->verdef, (int)(off + vd.vd_aux), &va))
				return elf_strptr(elf, v->defstr, va.vda_name);
			if (vd.vd_next == 0)
				break;
		}
	}
	if (v->verneed != NULL) {
		GElf_Verneed vn;
		GElf_Vernaux va;
		for (off = 0; gelf_getverneed(v->verneed, (int)off, &vn) != NULL; off += vn.vn_next) {
			size_t a = off + vn.vn_aux;
			unsigned k;
			for (k = 0; k < vn.vn_cnt && gelf_getvernaux(v->verneed, (int)a, &va); k++) {
				if (va.vna_other == n) {
					*hidden = true;
					return elf_strptr(elf, v->needstr, va.vna_name);
				}
				a += va.vna_next;
			}
			if (vn.vn_next == 0)
				break;
		}
	}
	return "";
}

/* "name@VER", "name@@VER" or name: objdump's spelling of dynamic symbol i. */
static const char *
versioned(struct bt_msyms *m, const struct versions *v, size_t i, const char *name,
	  bool undefined)
{
	bool hidden;
	const char *ver = version_of(m->elf, v, i, &hidden);

	if (ver == NULL || ver[0] == '\0')
		return name;
	return bt_strpool_addf(&m->pool, "%s%s%s", name, hidden || undefined ? "@" : "@@", ver);
}

/* The file's .dynsym (its header in *sh), or NULL. */
static Elf_Scn *
dynsym_scn(Elf *elf, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	while (elf != NULL && (scn = elf_nextscn(elf, scn)) != NULL)
		if (gelf_getshdr(scn, sh) != NULL && sh->sh_type == SHT_DYNSYM)
			return scn;
	return NULL;
}

/* The symbols from .dynsym, versions added (a file without .symtab, as objdump reads it). */
static void
add_dynsyms(struct bt_msyms *m, struct bt_addrnames *t, const struct versions *v)
{
	GElf_Shdr sh;
	Elf_Scn *scn = dynsym_scn(m->elf, &sh);
	Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
	size_t i, n = d && sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;

	for (i = 1; i < n; i++) {
		GElf_Sym s;
		const char *name;
		if (gelf_getsym(d, (int)i, &s) == NULL)
			continue;
		name = elf_strptr(m->elf, sh.sh_link, s.st_name);
		if (!useful(&s, s.st_shndx, name))
			continue;
		BT_VEC_PUSH(t->syms, ((struct asym){ s.st_value, s.st_size,
		    versioned(m, v, i, name, false), NULL, section_name(m->elf, s.st_shndx),
		    (unsigned char)GELF_ST_TYPE(s.st_info),
		    (unsigned char)GELF_ST_BIND(s.st_info), false }));
	}
}

/* The symbol table the function index reads (.symtab, a debug file's, or .dynsym). */
static void
add_symtab(struct bt_msyms *m, struct bt_addrnames *t)
{
	int n = dwfl_module_getsymtab(m->mod), i;

	for (i = 1; i < n; i++) {
		GElf_Sym s;
		GElf_Addr addr;
		GElf_Word shndx;
		Elf *elf = NULL;
		const char *name = dwfl_module_getsym_info(m->mod, i, &s, &addr, &shndx,
		    &elf, NULL);
		if (!useful(&s, shndx, name))
			continue;
		/* by name: a debug file's section is the same section (objdump's sym_ok) */
		BT_VEC_PUSH(t->syms, ((struct asym){ addr, s.st_size, name, NULL,
		    section_name(elf, shndx), (unsigned char)GELF_ST_TYPE(s.st_info),
		    (unsigned char)GELF_ST_BIND(s.st_info), false }));
	}
}

/* Every dynamic relocation with a symbol, by the address it relocates. */
static void
add_dynrels(struct bt_msyms *m, struct bt_addrnames *t, const struct versions *v)
{
	GElf_Shdr ds, sh;
	Elf_Scn *dscn = dynsym_scn(m->elf, &ds), *scn = NULL;
	Elf_Data *dd = dscn ? elf_getdata(dscn, NULL) : NULL;

	if (dd == NULL)
		return;
	while ((scn = elf_nextscn(m->elf, scn)) != NULL) {
		Elf_Data *rd;
		size_t i, n;
		if (gelf_getshdr(scn, &sh) == NULL || (sh.sh_type != SHT_RELA &&
		    sh.sh_type != SHT_REL) || sh.sh_link != elf_ndxscn(dscn) ||
		    sh.sh_entsize == 0 || (rd = elf_getdata(scn, NULL)) == NULL)
			continue;
		n = sh.sh_size / sh.sh_entsize;
		for (i = 0; i < n; i++) {
			GElf_Rela ra;
			GElf_Rel r;
			GElf_Sym s;
			uint64_t off, info;
			size_t k;
			const char *name;
			if (sh.sh_type == SHT_RELA) {
				if (gelf_getrela(rd, (int)i, &ra) == NULL)
					break;
				off = ra.r_offset, info = ra.r_info;
			} else {
				if (gelf_getrel(rd, (int)i, &r) == NULL)
					break;
				off = r.r_offset, info = r.r_info;
			}
			k = m->info.elfclass64 ? GELF_R_SYM(info) : ELF32_R_SYM(info);
			/* no symbol, or an absolute one: no better name (objdump's rule) */
			if (k == 0 || gelf_getsym(dd, (int)k, &s) == NULL || s.st_shndx == SHN_ABS)
				continue;
			name = elf_strptr(m->elf, ds.sh_link, s.st_name);
			if (name == NULL || name[0] == '\0')
				continue;
			BT_VEC_PUSH(t->rels, ((struct dynrel){ off, s.st_value,
			    versioned(m, v, k, name, s.st_shndx == SHN_UNDEF), NULL,
			    s.st_shndx != SHN_UNDEF }));
		}
	}
}

/* Demangled as bfd_demangle does it: the name before any "@VERSION", which stays. */
static const char *
demangle_versioned(struct bt_msyms *m, const char *raw)
{
	const char *at = strchr(raw, '@');
	char *base, *d;
	const char *r;

	if (at == NULL || at == raw)
		return msyms_pooled_demangle(m, raw);
	base = bt_xstrndup(raw, (size_t)(at - raw));
	d = bt_demangle(base);
	free(base);
	if (d == NULL)
		return raw;
	r = bt_strpool_addf(&m->pool, "%s%s", d, at);
	free(d);
	return r;
}

static struct bt_addrnames *
addrnames_build(struct bt_msyms *m)
{
	struct bt_addrnames *t = bt_xcalloc(1, sizeof(*t));
	struct versions v;
	size_t i;

	versions_init(m->elf, &v);
	if (m->info.has_symtab)
		add_symtab(m, t);
	else
		add_dynsyms(m, t, &v);
	/* objdump's synthetic symbols: the PLT stubs (not the PLT's first entry) */
	for (i = 0; i < m->syms.n; i++) {
		const struct fsym *f = &m->syms.v[i];
		if (f->plt)
			BT_VEC_PUSH(t->syms, ((struct asym){ f->start, 0, f->raw, f->name,
			    section_at(m->elf, f->start), STT_FUNC, STB_GLOBAL, true }));
	}
	bt_qsort(t->syms.v, t->syms.n, sizeof(*t->syms.v), asym_cmp);
	add_dynrels(m, t, &v);
	bt_qsort(t->rels.v, t->rels.n, sizeof(*t->rels.v), dynrel_cmp);
	return t;
}

void
msyms_addrnames_free(struct bt_addrnames *t)
{
	if (t == NULL)
		return;
	BT_VEC_FREE(t->syms);
	BT_VEC_FREE(t->rels);
	free(t);
}

static const struct dynrel *
dynrel_at(const struct bt_addrnames *t, uint64_t addr)
{
	size_t lo = 0, hi = t->rels.n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (t->rels.v[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->rels.n && t->rels.v[lo].addr == addr ? &t->rels.v[lo] : NULL;
}

int
bt_msyms_addr_name(struct bt_msyms *m, uint64_t addr, uint64_t from, const char **name,
		   uint64_t *at)
{
	struct bt_addrnames *t;
	struct asym *s;
	const struct dynrel *r;
	const char *sec;
	size_t lo = 0, hi, k;

	if (m->addrnames == NULL)
		m->addrnames = addrnames_build(m);
	t = m->addrnames;
	if (t->syms.n == 0)
		return -BT_ENOENT;
	/* the last symbol at or before addr, the first (best) of those at its address */
	hi = t->syms.n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (t->syms.v[mid].value <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0)
		lo--;
	while (lo > 0 && t->syms.v[lo - 1].value == t->syms.v[lo].value)
		lo--;
	s = &t->syms.v[lo];
	/*
	 * One of them in the section of the code that refers to addr wins
	 * outright, even where a dynamic relocation would name addr (a GOT
	 * slot after the last symbol of .dynsym, which is in .text)
	 */
	sec = section_at(m->elf, from);
	for (k = lo; k < t->syms.n && t->syms.v[k].value == s->value; k++)
		if (sec[0] != '\0' && strcmp(t->syms.v[k].sec, sec) == 0) {
			s = &t->syms.v[k];
			goto named;
		}
	/*
	 * A dynamic relocation's symbol names a GOT slot, even one a symbol
	 * starts at (objdump compares the symbol's section offset with the
	 * address: they differ)
	 */
	if (!s->synthetic && (r = dynrel_at(t, addr)) != NULL) {
		struct dynrel *w = (struct dynrel *)r;
		if (w->name == NULL)
			w->name = demangle_versioned(m, w->raw);
		*name = w->name;
		*at = w->defined ? w->value : addr;
		return 0;
	}
named:
	if (s->name == NULL)
		s->name = demangle_versioned(m, s->raw);
	*name = s->name;
	*at = s->value;
	return 0;
}
