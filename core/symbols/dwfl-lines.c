/*
 * Line tables of a module (dwfl.c), built once per compilation unit on
 * first use: one row per address (the last of equal ones, as addr2line),
 * paths made absolute with DW_AT_comp_dir. A file without
 * .debug_aranges (Go) finds its CUs through their ranges, indexed once.
 * JIT code's lines are given (bt_msyms_set_lines), not read.
 */
#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/dwfl-int.h"

/* A source path as recorded, made absolute with the CU's comp_dir. */
const char *
msyms_abs_path(struct bt_msyms *m, const struct cu *c, const char *src)
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

/*
 * A CU's rows, made from a line table's in its order (libdw's or
 * dwfl-lineprog.c's): one per address (the last of equal ones, as
 * addr2line reports), each run of rows of one file (key: libdw's name, or
 * the program's file index) one entry of c->files, its path made
 * absolute. Rows more than 4 GiB past the first are left out (a CU's code
 * is never that large).
 */
struct lines_sink {
	struct bt_msyms *m;
	struct cu *c;
	size_t n;
	uintptr_t prev_key;
	bool have_base;
};

static void
sink_init(struct lines_sink *k, struct bt_msyms *m, struct cu *c, size_t nlines)
{
	memset(k, 0, sizeof(*k));
	k->m = m;
	k->c = c;
	c->lines = bt_xmalloc_big(nlines + 1, 0, sizeof(*c->lines));
	BT_VEC_PUSH(c->files, NULL);
}

static void
sink_row(struct lines_sink *k, Dwarf_Addr a, bool endseq, uintptr_t key,
	 const char *src, int ln, int col)
{
	struct cu *c = k->c;
	struct cu_line row;

	if (!k->have_base) {
		c->base = a;
		k->have_base = true;
	}
	if (a < c->base || a - c->base > UINT32_MAX)
		return;
	row.addr = (uint32_t)(a - c->base);
	if (endseq || src == NULL) {
		row.file = 0;
		row.line = row.column = 0;
	} else {
		if (key != k->prev_key) {
			k->prev_key = key;
			BT_VEC_PUSH(c->files, msyms_abs_path(k->m, c, src));
		}
		row.file = (uint32_t)(c->files.n - 1);
		row.line = (unsigned)ln;
		row.column = col > 0 ? (unsigned)col : 0;
	}
	/* one row per address: the last one, as addr2line reports */
	if (k->n && c->lines[k->n - 1].addr == row.addr) {
		if (row.line != 0 || c->lines[k->n - 1].line == 0)
			c->lines[k->n - 1] = row;
		return;
	}
	c->lines[k->n++] = row;
}

static void
sink_end(struct lines_sink *k, size_t nlines)
{
	struct cu *c = k->c;

	c->nlines = k->n;
	if (k->n < nlines / 2)	/* equal addresses were many: give back the rest */
		c->lines = bt_xreallocarray(c->lines, k->n + 1, sizeof(*c->lines));
}

/* The CU's rows from libdw's table. */
static void
read_lines(struct bt_msyms *m, struct cu *c, Dwarf_Lines *lines, size_t nlines,
	   Dwarf_Addr bias)
{
	struct lines_sink k;
	size_t i;

	sink_init(&k, m, c, nlines);
	for (i = 0; i < nlines; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr a;
		int ln = 0, col = 0;
		bool endseq = false;
		const char *src;

		if (l == NULL || dwarf_lineaddr(l, &a) != 0)
			continue;
		dwarf_lineendsequence(l, &endseq);
		dwarf_lineno(l, &ln);
		dwarf_linecol(l, &col);
		src = dwarf_linesrc(l, NULL, NULL);
		sink_row(&k, a + bias, endseq, (uintptr_t)src, src, ln, col);
	}
	sink_end(&k, nlines);
}

/* The CU's rows from its line program, read by dwfl-lineprog.c. */
static void
read_program(struct bt_msyms *m, struct cu *c, struct lineprog *lp, Dwarf_Addr bias)
{
	struct lines_sink k;
	struct lineprog_row r;
	size_t nlines = lineprog_nrows(lp);

	sink_init(&k, m, c, nlines);
	while (lineprog_next(lp, &r)) {
		const char *src = lineprog_file(lp, r.file);
		sink_row(&k, r.addr + bias, r.endseq, (uintptr_t)r.file + 1, src,
		    r.line, (int)r.column);
	}
	sink_end(&k, nlines);
}

/*
 * Read c's rows: from the line program, or from libdw when the reader
 * does not read it (or when libdw is asked: tests).
 */
static void
cu_read_lines(struct bt_msyms *m, struct cu *c, Dwarf_Die *cudie, Dwarf_Addr bias,
	      bool use_libdw)
{
	struct lineprog *lp = NULL;
	Dwarf_Lines *lines;
	size_t nlines;
	Dwarf_Attribute attr;
	const char *comp_dir = NULL;

	if (dwarf_attr(cudie, DW_AT_comp_dir, &attr) != NULL)
		comp_dir = dwarf_formstring(&attr);
	if (!use_libdw && !m->split_units && (lp = lineprog_open(cudie, comp_dir)) != NULL) {
		read_program(m, c, lp, bias);
		lineprog_free(lp);
		return;
	}
	c->libdw_lines = true;
	if (dwarf_getsrclines(cudie, &lines, &nlines) == 0)
		read_lines(m, c, lines, nlines, bias);
}

/* A new CU of off, its producer and comp_dir read. */
static struct cu *
cu_new(struct bt_msyms *m, Dwarf_Die *cudie, uint64_t off)
{
	struct cu *c = bt_xcalloc(1, sizeof(*c));
	Dwarf_Attribute attr;

	c->off = off;
	if (dwarf_attr(cudie, DW_AT_producer, &attr) != NULL) {
		const char *p = dwarf_formstring(&attr);
		c->producer = p ? bt_strpool_addstr(&m->pool, p) : NULL;
	}
	if (dwarf_attr(cudie, DW_AT_comp_dir, &attr) != NULL) {
		const char *p = dwarf_formstring(&attr);
		c->comp_dir = p ? bt_strpool_addstr(&m->pool, p) : NULL;
	}
	return c;
}

static void
cu_free(struct cu *c)
{
	free(c->lines);
	BT_VEC_FREE(c->files);
	free(c);
}

/* The compilation unit at addr, with its line rows built. */
struct cu *
msyms_cu_at(struct bt_msyms *m, uint64_t addr, Dwarf_Die *die_out)
{
	Dwarf_Addr bias;
	Dwarf_Die *cudie, cubuf;
	size_t i;
	struct cu *c;
	uint64_t off;

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
	c = cu_new(m, cudie, off);
	cu_read_lines(m, c, cudie, bias, false);
	BT_VEC_PUSH(m->cus, c);
	return c;
}

/* Two reads of one CU's rows: the same rows, and the same files. */
static bool
same_rows(const struct cu *a, const struct cu *b, char *why, size_t size)
{
	size_t i;

	if (a->nlines != b->nlines || (a->nlines && a->base != b->base) ||
	    a->files.n != b->files.n) {
		snprintf(why, size, "%zu rows from 0x%llx, %zu files; libdw %zu from 0x%llx, %zu",
		    b->nlines, (unsigned long long)b->base, b->files.n, a->nlines,
		    (unsigned long long)a->base, a->files.n);
		return false;
	}
	for (i = 0; i < a->nlines; i++) {
		const struct cu_line *x = &a->lines[i], *y = &b->lines[i];
		const char *fx = a->files.v[x->file], *fy = b->files.v[y->file];

		if (x->addr != y->addr || x->line != y->line || x->column != y->column ||
		    x->file != y->file || (fx == NULL) != (fy == NULL) ||
		    (fx != NULL && strcmp(fx, fy) != 0)) {
			snprintf(why, size, "row %zu at 0x%llx: %s:%u:%u; libdw %s:%u:%u", i,
			    (unsigned long long)(a->base + x->addr), fy ? fy : "-", y->line,
			    y->column, fx ? fx : "-", x->line, x->column);
			return false;
		}
	}
	return true;
}

/* The file tables: libdw's dwarf_getsrcfiles and the program's. */
static bool
same_files(Dwarf_Die *cudie, const char *comp_dir, char *why, size_t size)
{
	struct lineprog *lp = lineprog_files(cudie, comp_dir);
	Dwarf_Files *files;
	size_t nfiles, i;
	bool ok = true;

	if (lp == NULL)
		return true;	/* libdw's then, as for the rows */
	if (dwarf_getsrcfiles(cudie, &files, &nfiles) != 0 || nfiles != lineprog_nfiles(lp)) {
		snprintf(why, size, "%zu files; libdw's %zu", lineprog_nfiles(lp), nfiles);
		ok = false;
	}
	for (i = 0; ok && i < nfiles; i++) {
		const char *x = dwarf_filesrc(files, i, NULL, NULL), *y = lineprog_file(lp, i);
		if (x == NULL || y == NULL || strcmp(x, y) != 0) {
			snprintf(why, size, "file %zu: %s; libdw %s", i, y ? y : "-", x ? x : "-");
			ok = false;
		}
	}
	lineprog_free(lp);
	return ok;
}

void
msyms_lines_check(struct bt_msyms *m, struct msyms_lines_check *out)
{
	Dwarf_Addr bias;
	Dwarf *dw;
	Dwarf_Off off = 0, next;
	size_t hsize;

	memset(out, 0, sizeof(*out));
	if (!bt_msyms_has_dwarf(m) || (dw = dwfl_module_getdwarf(m->mod, &bias)) == NULL)
		return;
	while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cudie;
		struct cu *own, *ref;
		char why[512];

		if (dwarf_offdie(dw, off + hsize, &cudie) != NULL) {
			own = cu_new(m, &cudie, off + hsize);
			ref = cu_new(m, &cudie, off + hsize);
			cu_read_lines(m, own, &cudie, bias, false);
			cu_read_lines(m, ref, &cudie, bias, true);
			out->cus++;
			out->rows += ref->nlines;
			if (own->libdw_lines)
				out->fallback++;
			else if (!same_rows(ref, own, why, sizeof(why)) ||
			    !same_files(&cudie, own->comp_dir, why, sizeof(why))) {
				if (out->mismatches++ == 0)
					snprintf(out->first, sizeof(out->first), "CU 0x%llx: %s",
					    (unsigned long long)(off + hsize), why);
			}
			cu_free(own);
			cu_free(ref);
		}
		off = next;
	}
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

/* The first of the given rows after addr (0: none is at or before it). */
static size_t
given_after(const struct cu *c, uint64_t addr)
{
	size_t lo = 0, hi = c->rows.n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (c->rows.v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The first of the CU's read rows after off (from c->base), 0 as above. */
static size_t
lines_after(const struct cu *c, uint64_t off)
{
	size_t lo = 0, hi = c->nlines;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (c->lines[mid].addr <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t
bt_msyms_lines(struct bt_msyms *m, uint64_t start, uint64_t end,
	       const struct bt_line **rows)
{
	Dwarf_Die cudie;
	struct cu *c = msyms_cu_at(m, start, &cudie);
	size_t lo, first, last, i;

	*rows = NULL;
	if (c == NULL)
		return 0;
	if (c->lines == NULL) {	/* given */
		lo = given_after(c, start);
		if (lo == 0)
			return 0;
		first = lo - 1;
		for (last = first + 1; last < c->rows.n && c->rows.v[last].addr < end; last++)
			;
		*rows = &c->rows.v[first];
		return last - first;
	}
	if (c->nlines == 0 || start < c->base)
		return 0;
	lo = lines_after(c, start - c->base);
	if (lo == 0)
		return 0;
	first = lo - 1;
	for (last = first + 1; last < c->nlines && c->base + c->lines[last].addr < end; last++)
		;
	/* as struct bt_line, in a buffer of the last call's (a big one not kept for a small one) */
	if (m->lines_out.alloc > 4096 && last - first < m->lines_out.alloc / 8)
		BT_VEC_FREE(m->lines_out);
	m->lines_out.n = 0;
	BT_ALLOC_GROW(m->lines_out.v, last - first, m->lines_out.alloc);
	for (i = first; i < last; i++) {
		struct bt_line *o = &m->lines_out.v[i - first];
		o->addr = c->base + c->lines[i].addr;
		o->file = c->files.v[c->lines[i].file];
		o->line = c->lines[i].line;
		o->column = c->lines[i].column;
	}
	m->lines_out.n = last - first;
	*rows = m->lines_out.v;
	return last - first;
}

const char *
bt_msyms_producer(struct bt_msyms *m, uint64_t addr)
{
	Dwarf_Die cudie;
	struct cu *c = msyms_cu_at(m, addr, &cudie);

	return c ? c->producer : NULL;
}
