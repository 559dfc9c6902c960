/*
 * Inline chains of a module (dwfl.c): the inlined_subroutine ranges of a
 * compilation unit from one walk over its DIEs, on first use, sorted and
 * searched with a prefix maximum, so that a lookup is a binary search
 * plus the few enclosing ranges.
 */
#include <dwarf.h>
#include <string.h>

#include "symbols/dwfl-int.h"

static const char *
die_name(struct bt_msyms *m, Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *s;

	if (dwarf_attr_integrate(die, DW_AT_linkage_name, &attr) != NULL ||
	    dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr) != NULL) {
		s = dwarf_formstring(&attr);
		if (s != NULL)
			return msyms_pooled_demangle(m, s);
	}
	if (dwarf_attr_integrate(die, DW_AT_name, &attr) != NULL &&
	    (s = dwarf_formstring(&attr)) != NULL)
		return bt_strpool_addstr(&m->pool, s);
	return "?";
}

/* A CU's file table: libdw's, or its line program's (dwfl-lineprog.c). */
struct srcfiles {
	Dwarf_Files *files;
	struct lineprog *lp;
	size_t n;
};

static const char *
srcfile(const struct srcfiles *sf, size_t i)
{
	if (i >= sf->n)
		return NULL;
	return sf->lp ? lineprog_file(sf->lp, i) : dwarf_filesrc(sf->files, i, NULL, NULL);
}

static void
walk_inlines(struct bt_msyms *m, struct cu *c, Dwarf_Die *parent,
	     const struct srcfiles *sf, unsigned depth, int level)
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
			    dwarf_formudata(&attr, &fileidx) == 0 && fileidx < sf->n) {
				const char *fn = srcfile(sf, fileidx);
				in.f.call_file = fn ? msyms_abs_path(m, c, fn) : NULL;
			}
			if (dwarf_attr(&child, DW_AT_call_line, &attr) != NULL &&
			    dwarf_formudata(&attr, &line) == 0)
				in.f.call_line = (unsigned)line;
			if (dwarf_attr(&child, DW_AT_call_column, &attr) != NULL &&
			    dwarf_formudata(&attr, &line) == 0)
				in.f.call_column = (unsigned)line;
			while ((off = dwarf_ranges(&child, off, &base, &s, &e)) > 0) {
				in.lo = in.f.lo = s;
				in.hi = in.f.hi = e;
				BT_VEC_PUSH(c->inl, in);
			}
			d = depth + 1;
		}
		if (dwarf_haschildren(&child))
			walk_inlines(m, c, &child, sf, d, level + 1);
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
	struct cu *c = msyms_cu_at(m, addr, &cudie);
	size_t lo = 0, hi, k, n = 0, i;

	if (c == NULL)
		return 0;
	if (!c->inl_done) {
		struct srcfiles sf = { NULL, NULL, 0 };
		Dwarf_Addr bias;

		c->inl_done = true;
		/* the program's table, not libdw's (which reads every row first) */
		if (!c->libdw_lines && (sf.lp = lineprog_files(&cudie, c->comp_dir)) != NULL)
			sf.n = lineprog_nfiles(sf.lp);
		else if (dwarf_getsrcfiles(&cudie, &sf.files, &sf.n) != 0)
			sf.n = 0;
		walk_inlines(m, c, &cudie, &sf, 0, 0);
		lineprog_free(sf.lp);
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
