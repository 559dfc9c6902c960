/*
 * benchtui's own reader of a compilation unit's .debug_line program
 * (DWARF 2-5), for dwfl-lines.c: its rows come out one at a time in the
 * order libdw's dwarf_getsrclines sorts them (by address, an end of
 * sequence first, then as written), without libdw's table of the whole
 * unit (40 bytes a row, kept while the module is open: 106 MB for a unit
 * of 100,000 functions).
 *
 * Two passes over the program. The first checks every opcode and cuts
 * the rows into runs already in that order (a sequence of one function,
 * usually; the linker's address 0 for discarded functions overlaps
 * them), keeping each run's first row and the registers before it. The
 * second merges the runs, decoding each where it stopped, with a heap of
 * the runs that overlap (one, mostly).
 *
 * Anything the reader does not read as libdw does makes it give up (NULL,
 * and dwfl-lines.c asks libdw): a version outside 2-5, a relocatable file, a byte order not the host's, VLIW operations, a form
 * in the file table other than string, strp, line_strp, udata, data1-16
 * and block, DW_LNE_define_file, vendor extended opcodes, a value libdw
 * would reject or truncate (a column past 65535, a line past INT_MAX,
 * default_is_stmt other than 0 or 1),
 * and data that ends early.
 */
#include <dwarf.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/dwarf-read.h"
#include "symbols/dwfl-int.h"

/* The registers, at a row or between rows. */
struct lp_state {
	const uint8_t *p;	/* the next opcode */
	uint64_t addr;
	int64_t line;
	uint64_t file, column, isa, disc;
};

/* A run of rows in libdw's order: where it starts, its first row's key. */
struct lp_run {
	struct lp_state st;	/* registers before the first row's opcode */
	uint64_t addr;
	size_t first;		/* the row's index as written */
	bool endseq;
	size_t nrows;
};

/* A run being merged: its registers after its current row. */
struct lp_cursor {
	struct lp_state st;
	struct lineprog_row row;
	size_t idx;		/* row index as written */
	size_t left;		/* rows after this one */
};

struct lineprog {
	const uint8_t *prog, *end;	/* the program after the header */
	unsigned addr_size;
	uint8_t min_len, line_range, opcode_base;
	int8_t line_base;
	const uint8_t *oplen;		/* standard opcode lengths, [1..opcode_base-1] */
	/* each special opcode's line and address advance: no division a row */
	int16_t sp_line[256];
	uint16_t sp_addr[256];
	const char **files;		/* names as libdw composes them */
	size_t nfiles;
	char **owned;			/* the composed ones */
	size_t nowned;
	BT_VEC(struct lp_run) runs;
	size_t nrows, emitted, next_run;
	BT_VEC(struct lp_cursor) heap;
};

static const uint8_t std_oplen[13] = { 0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1 };

static void
state_reset(struct lp_state *s)
{
	s->addr = 0;
	s->line = 1;
	s->file = 1;
	s->column = 0;
	s->isa = 0;
	s->disc = 0;
}

/*
 * Decode from s->p to the next row (1, in *row), the program's end (0)
 * or anything not read as libdw reads it (-1).
 */
static int
lp_step(const struct lineprog *lp, struct lp_state *s, struct lineprog_row *row)
{
	const uint8_t *end = lp->end;
	uint64_t u;
	int64_t v;

	while (s->p < end) {
		unsigned op = *s->p++;
		bool endseq = false;

		if (op >= lp->opcode_base) {
			s->line += lp->sp_line[op];
			s->addr += lp->sp_addr[op];
		} else if (op == 0) {
			unsigned len, sub;

			if (end - s->p < 2)
				return -1;
			len = *s->p++;
			if (len == 0 || len >= 0x80 || (size_t)(end - s->p) < len)
				return -1;
			sub = *s->p++;
			if (sub == DW_LNE_end_sequence) {
				if (len != 1)
					return -1;
				endseq = true;
			} else if (sub == DW_LNE_set_address) {
				if (len != 1 + lp->addr_size)
					return -1;
				s->addr = rd(s->p, lp->addr_size);
				s->p += lp->addr_size;
				continue;
			} else if (sub == DW_LNE_set_discriminator) {
				if (uleb(&s->p, end, &s->disc) < 0)
					return -1;
				continue;
			} else if (sub == DW_LNE_define_file || sub >= 0x80) {
				return -1;
			} else {	/* unknown: skipped, as libdw does */
				s->p += len - 1;
				continue;
			}
		} else if (op < 13 && op < lp->opcode_base) {
			switch (op) {
			case DW_LNS_copy:
				break;
			case DW_LNS_advance_pc:
				if (uleb(&s->p, end, &u) < 0 || u > UINT32_MAX ||
				    lp->min_len * u > UINT32_MAX)
					return -1;
				s->addr += lp->min_len * u;
				continue;
			case DW_LNS_advance_line:
				if (sleb(&s->p, end, &v) < 0 || v < INT_MIN || v > INT_MAX)
					return -1;
				s->line += v;
				continue;
			case DW_LNS_set_file:
				if (uleb(&s->p, end, &s->file) < 0 || s->file > UINT32_MAX)
					return -1;
				continue;
			case DW_LNS_set_column:
				if (uleb(&s->p, end, &s->column) < 0)
					return -1;
				continue;
			case DW_LNS_negate_stmt:
			case DW_LNS_set_basic_block:
			case DW_LNS_set_prologue_end:
			case DW_LNS_set_epilogue_begin:
				continue;
			case DW_LNS_const_add_pc:
				s->addr += (uint64_t)lp->min_len *
				    ((255u - lp->opcode_base) / lp->line_range);
				continue;
			case DW_LNS_fixed_advance_pc:
				if (end - s->p < 2)
					return -1;
				s->addr += rd(s->p, 2);
				s->p += 2;
				continue;
			case DW_LNS_set_isa:
				if (uleb(&s->p, end, &s->isa) < 0)
					return -1;
				continue;
			default:
				return -1;
			}
		} else {	/* a standard opcode past 12: its operands skipped */
			unsigned k;
			for (k = lp->oplen[op]; k > 0; k--)
				if (uleb(&s->p, end, &u) < 0)
					return -1;
			continue;
		}
		/* a row: what libdw keeps of it must fit its fields */
		if (s->line < INT_MIN || s->line > INT_MAX || s->column > 0xffff ||
		    s->isa > 0xff || s->disc >= (1u << 24))
			return -1;
		row->addr = s->addr;
		row->line = (int)s->line;
		row->column = (unsigned)s->column;
		row->file = (unsigned)s->file;
		row->endseq = endseq;
		if (endseq)
			state_reset(s);
		else
			s->disc = 0;
		return 1;
	}
	return 0;
}

/* Is row a before row b in libdw's order (b written after a)? */
static bool
key_less(uint64_t aaddr, bool aend, uint64_t baddr, bool bend)
{
	if (aaddr != baddr)
		return aaddr < baddr;
	return aend && !bend;
}

static const char *
section_data(Elf *elf, const char *name, size_t *size)
{
	GElf_Shdr sh;
	Elf_Scn *scn = msyms_find_section(elf, name, &sh);
	Elf_Data *d;

	if (scn == NULL) {
		char z[64];
		snprintf(z, sizeof(z), ".z%s", name + 1);
		scn = msyms_find_section(elf, z, &sh);
	}
	if (scn == NULL || sh.sh_type == SHT_NOBITS || (d = elf_getdata(scn, NULL)) == NULL ||
	    d->d_buf == NULL || d->d_size == 0)
		return NULL;
	*size = d->d_size;
	return d->d_buf;
}

/* A string at off of a string section, NULL past it or unterminated. */
static const char *
str_at(const char *sec, size_t size, uint64_t off)
{
	if (sec == NULL || off >= size || memchr(sec + off, '\0', size - off) == NULL)
		return NULL;
	return sec + off;
}

/*
 * The length of a form's value at p (DWARF 5 entry formats; osz: 4 or 8,
 * 64-bit DWARF's offsets), -1 if not read.
 */
static ssize_t
form_len(unsigned form, const uint8_t *p, const uint8_t *end, unsigned osz)
{
	const uint8_t *q = p;
	uint64_t u;
	const uint8_t *z;

	switch (form) {
	case DW_FORM_data1:
		return 1;
	case DW_FORM_data2:
		return 2;
	case DW_FORM_data4:
		return 4;
	case DW_FORM_strp:
	case DW_FORM_line_strp:
		return osz;
	case DW_FORM_data8:
		return 8;
	case DW_FORM_data16:
		return 16;
	case DW_FORM_udata:
		return uleb(&q, end, &u) < 0 ? -1 : q - p;
	case DW_FORM_block:
		if (uleb(&q, end, &u) < 0 || u > (uint64_t)(end - q))
			return -1;
		return q - p + (ssize_t)u;
	case DW_FORM_string:
		z = memchr(p, '\0', (size_t)(end - p));
		return z == NULL ? -1 : z - p + 1;
	default:
		return -1;
	}
}

struct lp_strs {
	const char *str, *line_str;
	size_t str_size, line_str_size;
	unsigned osz;		/* offsets' size: 4, or 8 (64-bit DWARF) */
};

/* A DW_LNCT_path value, NULL when it is not one read here. */
static const char *
form_string(const struct lp_strs *ss, unsigned form, const uint8_t *p)
{
	switch (form) {
	case DW_FORM_string:
		return (const char *)p;
	case DW_FORM_strp:
		return str_at(ss->str, ss->str_size, rd(p, ss->osz));
	case DW_FORM_line_strp:
		return str_at(ss->line_str, ss->line_str_size, rd(p, ss->osz));
	default:
		return NULL;
	}
}

static const char *
compose(struct lineprog *lp, const char *dir, const char *name)
{
	size_t dl, nl;
	char *s;

	if (name[0] == '/')
		return name;
	if (dir == NULL)
		return name;
	dl = strlen(dir);
	nl = strlen(name);
	s = bt_xmalloc(dl + nl + 2);
	memcpy(s, dir, dl);
	s[dl] = '/';
	memcpy(s + dl + 1, name, nl + 1);
	if ((lp->nowned & (lp->nowned - 1)) == 0)
		lp->owned = bt_xreallocarray(lp->owned, lp->nowned ? lp->nowned * 2 : 8,
		    sizeof(*lp->owned));
	lp->owned[lp->nowned++] = s;
	return s;
}

static void
add_file(struct lineprog *lp, const char *name)
{
	if ((lp->nfiles & (lp->nfiles - 1)) == 0)
		lp->files = bt_xreallocarray(lp->files, lp->nfiles ? lp->nfiles * 2 : 8,
		    sizeof(*lp->files));
	lp->files[lp->nfiles++] = name;
}

/* DWARF 5's directory or file entries, from *pp; -1 if not read. */
static int
read_entries(struct lineprog *lp, const struct lp_strs *ss, const uint8_t **pp,
	     const uint8_t *end, bool files, const char **dirs, size_t ndirs,
	     const char ***dirs_out, size_t *ndirs_out)
{
	const uint8_t *p = *pp;
	unsigned nforms, form[32], i;
	uint64_t n, k, u = 0;
	int path = -1, idx = -1;

	if (p >= end)
		return -1;
	nforms = *p++;
	if (nforms > 32)
		return -1;
	for (i = 0; i < nforms; i++) {
		uint64_t d, f;
		/* libdw keeps 16 bits of each */
		if (uleb(&p, end, &d) < 0 || uleb(&p, end, &f) < 0 || d > 0xffff || f > 0xffff)
			return -1;
		form[i] = (unsigned)f;
		if (d == DW_LNCT_path)
			path = (int)i;
		else if (d == DW_LNCT_directory_index && files)
			idx = (int)i;
	}
	if (uleb(&p, end, &n) < 0)
		return -1;
	if ((nforms > 0 && (path < 0 || (files && idx < 0))) ||
	    (nforms == 0 && n != 0) || n > (uint64_t)(end - p))
		return -1;
	if (!files)
		*dirs_out = bt_xcalloc(n + 1, sizeof(**dirs_out));
	for (k = 0; k < n; k++) {
		const char *name = NULL;
		uint64_t dir = UINT64_MAX;

		for (i = 0; i < nforms; i++) {
			ssize_t len = form_len(form[i], p, end, ss->osz);
			if (len < 0 || len > end - p)
				return -1;
			if ((int)i == path) {
				if ((name = form_string(ss, form[i], p)) == NULL)
					return -1;
			} else if ((int)i == idx) {
				const uint8_t *q = p;
				if (form[i] == DW_FORM_udata)
					(void)uleb(&q, end, &u);
				else if (form[i] == DW_FORM_data1 || form[i] == DW_FORM_data2 ||
				    form[i] == DW_FORM_data4 || form[i] == DW_FORM_data8)
					u = rd(p, (unsigned)len);
				else
					return -1;
				dir = u;
			}
			p += len;
		}
		if (files) {
			if (dir >= ndirs)
				return -1;
			add_file(lp, compose(lp, dirs[dir], name));
		} else
			(*dirs_out)[k] = name;
	}
	if (!files)
		*ndirs_out = (size_t)n;
	*pp = p;
	return 0;
}

void
lineprog_free(struct lineprog *lp)
{
	size_t i;

	if (lp == NULL)
		return;
	for (i = 0; i < lp->nowned; i++)
		free(lp->owned[i]);
	free(lp->owned);
	free(lp->files);
	BT_VEC_FREE(lp->runs);
	BT_VEC_FREE(lp->heap);
	free(lp);
}

/*
 * DWARF 2-4's include directories and file names, from *pp up to hend:
 * the directories in *dirsp (index 0 the unit's comp_dir; freed by the
 * caller), the files added to lp. 0, or -1 when they do not read.
 */
static int
read_v4_files(struct lineprog *lp, const uint8_t **pp, const uint8_t *hend,
	      const char *comp_dir, const char ***dirsp, size_t *ndirsp)
{
	const uint8_t *p = *pp;
	const char **dirs = NULL;
	size_t ndirs = 0, k;
	const uint8_t *q = p;

	while (q < hend && *q != 0) {	/* directories */
		const uint8_t *z = memchr(q, '\0', (size_t)(hend - q));
		if (z == NULL)
			return -1;
		ndirs++;
		q = z + 1;
	}
	if (q >= hend)
		return -1;
	*dirsp = dirs = bt_xcalloc(ndirs + 1, sizeof(*dirs));
	dirs[0] = comp_dir;
	for (k = 1; k <= ndirs; k++) {
		dirs[k] = (const char *)p;
		p += strlen((const char *)p) + 1;
	}
	ndirs++;
	p++;
	add_file(lp, "???");
	if (p >= hend)
		return -1;
	while (p < hend && *p != 0) {
		const char *name = (const char *)p;
		const uint8_t *z = memchr(p, '\0', (size_t)(hend - p));
		uint64_t dir, u;

		if (z == NULL)
			return -1;
		p = z + 1;
		if (uleb(&p, hend, &dir) < 0 || dir >= ndirs ||
		    uleb(&p, hend, &u) < 0 || uleb(&p, hend, &u) < 0)
			return -1;
		add_file(lp, compose(lp, dirs[dir], name));
	}
	if (p >= hend)
		return -1;
	p++;
	*ndirsp = ndirs;
	*pp = p;
	return 0;
}

/* The header and file table of the program at off; NULL if not read here. */
static struct lineprog *
read_header(Dwarf *dw, uint64_t off, unsigned addr_size, const char *comp_dir)
{
	Elf *elf = dwarf_getelf(dw);
	GElf_Ehdr eh;
	struct lp_strs ss = { 0 };
	const uint8_t *sec, *p, *end, *hend;
	size_t size;
	uint64_t len, hlen;
	unsigned version, i;
	struct lineprog *lp;
	const char **dirs = NULL;
	size_t ndirs = 0;

	if (elf == NULL || gelf_getehdr(elf, &eh) == NULL || eh.e_type == ET_REL ||
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	    eh.e_ident[EI_DATA] != ELFDATA2LSB ||
#else
	    eh.e_ident[EI_DATA] != ELFDATA2MSB ||
#endif
	    (addr_size != 4 && addr_size != 8))
		return NULL;
	sec = (const uint8_t *)section_data(elf, ".debug_line", &size);
	if (sec == NULL || off >= size || size - off < 4)
		return NULL;
	ss.str = section_data(elf, ".debug_str", &ss.str_size);
	ss.line_str = section_data(elf, ".debug_line_str", &ss.line_str_size);
	p = sec + off;
	len = rd(p, 4);
	p += 4;
	ss.osz = 4;
	if (len == 0xffffffffu) {	/* 64-bit DWARF */
		if (sec + size - p < 8)
			return NULL;
		len = rd(p, 8);
		p += 8;
		ss.osz = 8;
	} else if (len >= 0xfffffff0u)
		return NULL;
	if (len > (uint64_t)(sec + size - p) || len < 2)
		return NULL;
	end = p + len;
	version = (unsigned)rd(p, 2);
	p += 2;
	if (version < 2 || version > 5)
		return NULL;
	if (version >= 5) {
		if (end - p < 2 || p[0] != addr_size || p[1] != 0)
			return NULL;
		p += 2;
	}
	if ((size_t)(end - p) < ss.osz)
		return NULL;
	hlen = rd(p, ss.osz);
	p += ss.osz;
	if (hlen > (uint64_t)(end - p))
		return NULL;
	hend = p + hlen;
	lp = bt_xcalloc(1, sizeof(*lp));
	lp->addr_size = addr_size;
	lp->prog = hend;
	lp->end = end;
	if (hend - p < (version >= 4 ? 6 : 5))
		goto fail;
	lp->min_len = *p++;
	if (version >= 4 && *p++ != 1)	/* VLIW */
		goto fail;
	if (*p++ > 1)	/* default_is_stmt: not kept, but libdw keeps one bit of it */
		goto fail;
	lp->line_base = (int8_t)*p++;
	lp->line_range = *p++;
	lp->opcode_base = *p++;
	if (lp->line_range == 0 || lp->opcode_base < 10 ||
	    hend - p < lp->opcode_base - 1)
		goto fail;
	for (i = lp->opcode_base; i < 256; i++) {
		lp->sp_line[i] = (int16_t)(lp->line_base + (int)((i - lp->opcode_base) % lp->line_range));
		lp->sp_addr[i] = (uint16_t)(lp->min_len * ((i - lp->opcode_base) / lp->line_range));
	}
	lp->oplen = p - 1;
	for (i = 1; i < lp->opcode_base && i < 13; i++)
		if (lp->oplen[i] != std_oplen[i])
			goto fail;
	p += lp->opcode_base - 1;
	if (version < 5) {
		if (read_v4_files(lp, &p, hend, comp_dir, &dirs, &ndirs) < 0)
			goto fail;
	} else {
		if (read_entries(lp, &ss, &p, hend, false, NULL, 0, &dirs, &ndirs) < 0 ||
		    read_entries(lp, &ss, &p, hend, true, dirs, ndirs, NULL, NULL) < 0)
			goto fail;
		if (lp->nfiles == 0)
			add_file(lp, "???");
	}
	if (p != hend)
		goto fail;
	free(dirs);
	return lp;
fail:
	free(dirs);
	lineprog_free(lp);
	return NULL;
}

/* The CU's line program: its offset, address size; false if it has none. */
static bool
cu_program(Dwarf_Die *cudie, uint64_t *off, unsigned *addr_size)
{
	Dwarf_Attribute attr;
	Dwarf_Word w;
	uint8_t asz = 0, osz = 0;
	Dwarf_Die cu;

	if (dwarf_attr(cudie, DW_AT_stmt_list, &attr) == NULL ||
	    dwarf_formudata(&attr, &w) != 0 ||
	    dwarf_diecu(cudie, &cu, &asz, &osz) == NULL)
		return false;
	*off = w;
	*addr_size = asz;
	return true;
}

struct lineprog *
lineprog_files(Dwarf_Die *cudie, const char *comp_dir)
{
	uint64_t off;
	unsigned asz;

	if (!cu_program(cudie, &off, &asz))
		return NULL;
	return read_header(dwarf_cu_getdwarf(cudie->cu), off, asz, comp_dir);
}

const char *
lineprog_file(const struct lineprog *lp, size_t i)
{
	return i < lp->nfiles ? lp->files[i] : NULL;
}

size_t
lineprog_nfiles(const struct lineprog *lp)
{
	return lp->nfiles;
}

static int
run_cmp(const void *x, const void *y)
{
	const struct lp_run *a = x, *b = y;

	if (key_less(a->addr, a->endseq, b->addr, b->endseq))
		return -1;
	if (key_less(b->addr, b->endseq, a->addr, a->endseq))
		return 1;
	return a->first < b->first ? -1 : a->first > b->first;
}

struct lineprog *
lineprog_open(Dwarf_Die *cudie, const char *comp_dir)
{
	struct lineprog *lp = lineprog_files(cudie, comp_dir);
	struct lp_state s, before;
	struct lineprog_row row, prev = { 0 };
	struct lp_run *cur = NULL;
	int r;

	if (lp == NULL)
		return NULL;
	s.p = lp->prog;
	state_reset(&s);
	before = s;
	while ((r = lp_step(lp, &s, &row)) > 0) {
		if (cur == NULL || key_less(row.addr, row.endseq, prev.addr, prev.endseq)) {
			struct lp_run run = { before, row.addr, lp->nrows, row.endseq, 0 };
			BT_VEC_PUSH(lp->runs, run);
		}
		cur = &lp->runs.v[lp->runs.n - 1];
		cur->nrows++;
		lp->nrows++;
		prev = row;
		before = s;
	}
	if (r < 0) {
		lineprog_free(lp);
		return NULL;
	}
	bt_qsort(lp->runs.v, lp->runs.n, sizeof(*lp->runs.v), run_cmp);
	return lp;
}

size_t
lineprog_nrows(const struct lineprog *lp)
{
	return lp->nrows;
}

/* Is cursor a's row before b's? */
static bool
cur_less(const struct lp_cursor *a, const struct lp_cursor *b)
{
	if (key_less(a->row.addr, a->row.endseq, b->row.addr, b->row.endseq))
		return true;
	if (key_less(b->row.addr, b->row.endseq, a->row.addr, a->row.endseq))
		return false;
	return a->idx < b->idx;
}

static void
heap_up(struct lp_cursor *h, size_t i)
{
	while (i > 0 && cur_less(&h[i], &h[(i - 1) / 2])) {
		struct lp_cursor t = h[i];
		h[i] = h[(i - 1) / 2];
		h[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

static void
heap_down(struct lp_cursor *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		struct lp_cursor t;

		if (l < n && cur_less(&h[l], &h[m]))
			m = l;
		if (l + 1 < n && cur_less(&h[l + 1], &h[m]))
			m = l + 1;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

bool
lineprog_next(struct lineprog *lp, struct lineprog_row *out)
{
	struct lp_cursor *top;

	/* the runs starting before the heap's first row join it */
	while (lp->next_run < lp->runs.n) {
		const struct lp_run *run = &lp->runs.v[lp->next_run];
		struct lp_cursor c;

		if (lp->heap.n > 0 && !key_less(run->addr, run->endseq,
		    lp->heap.v[0].row.addr, lp->heap.v[0].row.endseq) &&
		    !(run->addr == lp->heap.v[0].row.addr &&
		    run->endseq == lp->heap.v[0].row.endseq && run->first < lp->heap.v[0].idx))
			break;
		c.st = run->st;
		if (lp_step(lp, &c.st, &c.row) <= 0)	/* read once already */
			return false;
		c.idx = run->first;
		c.left = run->nrows - 1;
		BT_VEC_PUSH(lp->heap, c);
		heap_up(lp->heap.v, lp->heap.n - 1);
		lp->next_run++;
	}
	if (lp->heap.n == 0)
		return false;
	top = &lp->heap.v[0];
	*out = top->row;
	if (++lp->emitted == lp->nrows)	/* libdw ends the table with an end */
		out->endseq = true;
	if (top->left > 0) {
		if (lp_step(lp, &top->st, &top->row) <= 0)
			return false;
		top->idx++;
		top->left--;
	} else
		lp->heap.v[0] = lp->heap.v[--lp->heap.n];
	heap_down(lp->heap.v, lp->heap.n, 0);
	return true;
}
