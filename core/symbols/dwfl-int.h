/*
 * What the files of a module's symbols share (struct bt_msyms): dwfl.c
 * (opening a module, its ELF file), dwfl-symtab.c (the function index,
 * PLT names, FDE bounds), dwfl-lines.c (line tables per compilation unit),
 * dwfl-inlines.c (inline ranges).
 */
#ifndef BENCHTUI_DWFL_INT_H
#define BENCHTUI_DWFL_INT_H

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <sys/types.h>
#include <time.h>

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
	bool plt;	/* a PLT stub named from its relocation: objdump's synthetic symbol */
};

struct inl {
	uint64_t lo, hi;
	uint64_t pmax;		/* max hi of this and all entries before */
	unsigned depth;
	struct bt_inline f;
};

/* A concrete subprogram's address range (dwfl-types.c), unbiased. */
struct cu_func {
	uint64_t lo, hi;
	Dwarf_Off die;
};

/* An aggregate's name as dwfl-types.c shows it ("class ns::Foo"), by DIE. */
struct cu_tname {
	Dwarf_Off die;
	Dwarf *dw;	/* the DIE's (the alternate file's, for dwz) */
	const char *name;
};

/*
 * A line-table row as a CU keeps it (16 bytes, where struct bt_line is
 * 24: a CU of 100,000 functions has two million): its address from the
 * CU's first, its file an index into the CU's files.
 */
struct cu_line {
	uint32_t addr;
	uint32_t line, column;
	uint32_t file;
};

struct cu {
	uint64_t off;			/* CU DIE offset: the cache key */
	const char *comp_dir;
	BT_VEC(struct bt_line) rows;	/* given (bt_msyms_set_lines): sorted, one per address */
	struct cu_line *lines;		/* read: the same, line 0 ending a sequence */
	size_t nlines;
	uint64_t base;			/* the lines' addresses are from it */
	BT_VEC(const char *) files;	/* the lines' files: [0] NULL, then one a run of rows */
	BT_VEC(struct inl) inl;		/* sorted by lo */
	const char *producer;
	bool libdw_lines;		/* read by libdw (dwfl-lineprog.c did not) */
	bool inl_done;
	BT_VEC(struct cu_func) funcs;	/* sorted by lo, on first use */
	bool funcs_done;
	BT_VEC(struct cu_tname) tnames;	/* the types its functions' accesses reach */
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
	struct bt_addrnames *addrnames;	/* objdump's names for addresses, built on first use */
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
	BT_VEC(struct bt_line) lines_out;	/* bt_msyms_lines' rows, made from a CU's */
	dev_t main_dev;			/* the main file, which is no debug file */
	ino_t main_ino;
	BT_VEC(char *) debug_notes;	/* debug file candidates not opened */
	/* the debug file's copy with the DWARF inflated (debugcache.c) */
	bool debug_cached;		/* what libdw reads: no split units */
	bool debug_to_copy;		/* none yet: made once the DWARF is loaded */
	bool split_units;		/* skeleton units: no copy (libdw finds .dwo files beside it) */
	uint8_t debug_id[64];		/* the build-id the debug file carries */
	size_t debug_id_len;
	off_t debug_size;		/* the debug file's size and time */
	struct timespec debug_mtime;
};

/* dwfl-addrname.c */
void msyms_addrnames_free(struct bt_addrnames *t);

/* dwfl.c */
/* The section of elf named name (its header in *sh), or NULL. */
Elf_Scn *msyms_find_section(Elf *elf, const char *name, GElf_Shdr *sh);

/* Where debug files are looked for (libdwfl's debuginfo_path syntax). */
const char *msyms_debuginfo_path(void);

/* debugfile.c */
/*
 * libdwfl's find_debuginfo callback: dwfl_standard_find_debuginfo's
 * search, opening only regular files (*userdata is the struct bt_msyms).
 */
/*
 * False, with a note, when a split DWARF unit's .dwo path is there and not
 * a regular file: libdw would open it itself (debugfile.c).
 */
bool msyms_split_units_ok(struct bt_msyms *m, Dwarf *dw, const char *dwarf_path);
int msyms_find_debuginfo(Dwfl_Module *mod, void **userdata,
			 const char *modname, Dwarf_Addr base,
			 const char *file_name, const char *debuglink,
			 GElf_Word debuglink_crc, char **debuginfo_file_name);

/* debugcache.c */
/*
 * The debug file fd (found for m, carrying build-id id) as libdw should
 * read it: the fd of its copy with the DWARF inflated, from the cache
 * directory, when there is one that matches (fd is then closed,
 * m->debug_cached set); else fd itself, and when its DWARF is compressed
 * m->debug_to_copy set.
 */
int msyms_debug_cache_open(struct bt_msyms *m, int fd, const uint8_t *id, size_t id_len);
/*
 * m's DWARF dw was loaded from a debug file to copy: write the copy, from
 * the sections libdw inflated (once per build-id; no error if it cannot).
 */
void msyms_debug_cache_write(struct bt_msyms *m, Dwarf *dw);

/* dwfl-symtab.c */
/* name demangled into m's pool, or name itself when it is not mangled. */
const char *msyms_pooled_demangle(struct bt_msyms *m, const char *name);
/* Build the function and data object indexes of m (once, at open). */
void msyms_build_index(struct bt_msyms *m);

/* dwfl-lines.c */
/* A source path as recorded, made absolute with the CU's comp_dir. */
const char *msyms_abs_path(struct bt_msyms *m, const struct cu *c, const char *src);
/* The compilation unit at addr (its DIE in *die_out), its line rows built; NULL if none. */
struct cu *msyms_cu_at(struct bt_msyms *m, uint64_t addr, Dwarf_Die *die_out);
/*
 * Every CU's rows read twice, by dwfl-lineprog.c and by libdw, compared
 * (tests/tools/lines-check): how many CUs, rows, CUs libdw read (the
 * reader gave up), CUs whose rows or file tables differ, the first.
 */
struct msyms_lines_check {
	size_t cus, rows, fallback, mismatches;
	char first[600];
};
void msyms_lines_check(struct bt_msyms *m, struct msyms_lines_check *out);

/* dwfl-lineprog.c */
/* A row of a line program, as libdw's Dwarf_Line gives it. */
struct lineprog_row {
	uint64_t addr;		/* unbiased */
	int line;
	unsigned column, file;	/* file: an index of the program's table */
	bool endseq;
};
struct lineprog;
/*
 * The line program of cudie (its comp_dir as DW_AT_comp_dir gives it),
 * checked, its rows to come in libdw's order; NULL when it has anything
 * not read here as libdw reads it (then libdw is asked).
 */
struct lineprog *lineprog_open(Dwarf_Die *cudie, const char *comp_dir);
/* Its header's file table only (for inlines' DW_AT_call_file). */
struct lineprog *lineprog_files(Dwarf_Die *cudie, const char *comp_dir);
/* The number of rows, and the next one (false after the last). */
size_t lineprog_nrows(const struct lineprog *lp);
bool lineprog_next(struct lineprog *lp, struct lineprog_row *row);
/* File i's name as libdw's dwarf_filesrc gives it, NULL past the table. */
const char *lineprog_file(const struct lineprog *lp, size_t i);
size_t lineprog_nfiles(const struct lineprog *lp);
void lineprog_free(struct lineprog *lp);

#endif
