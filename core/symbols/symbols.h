/*
 * Symbols, lines, inline frames and source for one module (DESIGN.md §1).
 *
 * A bt_msyms wraps one ELF image (file on disk, or an in-memory image such
 * as the vDSO) and its debug info, found through libdwfl's standard
 * callbacks (build-id under /usr/lib/debug, .gnu_debuglink). Every address
 * here is the address as the module was linked (what objdump -d and
 * addr2line print), never a runtime address. Nothing is looked up per
 * sample: callers aggregate samples by address first, and the lookups
 * below go through indexes built once per module (sorted symbol table)
 * or once per compilation unit (line table, inline ranges).
 */
#ifndef BENCHTUI_SYMBOLS_H
#define BENCHTUI_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bt_error;

/* Where a function's bounds came from. */
enum bt_func_src {
	BT_FUNC_SYMTAB,		/* .symtab or .dynsym (or the debug file's .symtab) */
	BT_FUNC_FDE,		/* .eh_frame / .debug_frame FDE: stripped code */
	BT_FUNC_NONE,		/* nothing covers the address */
};

/**
 * struct bt_func_sym - the function that contains an address
 * @start: first address
 * @end: one past the last address
 * @name: demangled name; for BT_FUNC_FDE "<module basename>+0x<start>"
 *        (e.g. "skid+0x11a0"); owned by the bt_msyms
 * @raw_name: the symbol as in the ELF (mangled), or the same as name
 * @src: where start/end came from
 */
struct bt_func_sym {
	uint64_t start, end;
	const char *name;
	const char *raw_name;
	enum bt_func_src src;
};

/**
 * struct bt_line - one row of the line table
 * @addr: first address the row covers
 * @file: absolute path where known (comp_dir joined), owned by bt_msyms
 * @line: line number, 0 when unknown
 * @column: column, from 1; 0 when unknown (the DWARF's, for pprof's Line)
 */
struct bt_line {
	uint64_t addr;
	const char *file;
	unsigned line, column;
};

/**
 * struct bt_inline - one inlined call around an address
 * @name: the inlined function (demangled), owned by bt_msyms
 * @call_file: file of the call site, owned by bt_msyms
 * @call_line: line of the call site
 * @call_column: its column, 0 when unknown
 * @call_bci: JIT code (HotSpot): the bytecode index of the call in the
 *	caller, as -XX:+PrintInlining's "@ 9" and perfasm's "Inl::run@9"
 *	give it; meaningful only with @has_bci (DWARF has none)
 * @lo: first address of the inlined range containing the address
 * @hi: one past its last address
 */
struct bt_inline {
	const char *name;
	const char *call_file;
	unsigned call_line, call_column;
	int32_t call_bci;
	bool has_bci;
	uint64_t lo, hi;
};

struct bt_msyms;

/*
 * Open the module at path. If image is non-NULL, the ELF is read from
 * image[0..image_len) instead (the vDSO) and path only names it. Returns
 * NULL with err set when the file cannot be opened or is not ELF. Missing
 * symbols or debug info are not errors: see bt_msyms_info().
 */
struct bt_msyms *bt_msyms_open(const char *path, const void *image,
			       size_t image_len, struct bt_error *err);
void bt_msyms_free(struct bt_msyms *m);
/*
 * Give m its line table instead of reading DWARF (JIT code: the runtime
 * wrote the lines). rows sorted by address, one per address (the last of
 * equal ones is kept), a row with line 0 ending the previous one; copied.
 * Then bt_msyms_has_dwarf() is true and there are no inline chains.
 */
void bt_msyms_set_lines(struct bt_msyms *m, const struct bt_line *rows,
			size_t n);

/**
 * struct bt_msyms_info - what is known about a module
 * @path: as given to bt_msyms_open
 * @debug_path: file the DWARF came from (may equal path), NULL if none
 * @build_id: hex string, NULL if the ELF has no build-id note
 * @e_machine: ELF machine (EM_X86_64...)
 * @elfclass64: true for ELFCLASS64
 * @has_symtab: .symtab found (in the file or its debug file)
 * @go: built by Go's toolchain (.gopclntab, .go.buildinfo): advice differs
 * @has_dwarf: line tables available; @has_dwarf and @debug_path are set by
 *             the first bt_msyms_has_dwarf() (DWARF is loaded on first use)
 */
struct bt_msyms_info {
	const char *path;
	const char *debug_path;
	const char *build_id;
	unsigned e_machine;
	bool elfclass64;
	bool has_symtab;
	bool has_dwarf;
	bool go;
};
const struct bt_msyms_info *bt_msyms_info(const struct bt_msyms *m);
/*
 * The i-th note on a debug file candidate of m that was not opened (a
 * FIFO, a device...: libdw looks there, benchtui does not), NULL past
 * the last; more may come as DWARF is loaded.
 */
const char *bt_msyms_debug_note(const struct bt_msyms *m, size_t i);
/* Load the DWARF (once) and say whether there is any. */
bool bt_msyms_has_dwarf(struct bt_msyms *m);
/*
 * Whether there is DWARF, read off the section headers of the module's
 * file or of the debug file its symbols came from, without loading (and
 * decompressing) it; when neither has any, bt_msyms_has_dwarf() decides.
 */
bool bt_msyms_probe_dwarf(struct bt_msyms *m);

/*
 * Translate a file offset (runtime address - mapping start + mapping
 * pgoff, as perf's MMAP2 records give) to a link-time address through
 * the PT_LOAD program headers. Returns 0, or -BT_ENOENT when no loadable
 * segment covers off.
 */
int bt_msyms_off_to_addr(const struct bt_msyms *m, uint64_t off, uint64_t *addr);

/* The reverse: the file offset of link-time address addr. 0 or -BT_ENOENT. */
int bt_msyms_addr_to_off(const struct bt_msyms *m, uint64_t addr, uint64_t *off);

/*
 * The function containing addr: from the sorted symbol table (perf's
 * choice among aliases: non-zero size, global over weak over local,
 * fewer leading underscores, longer name), else from the FDE covering
 * it. Returns 0, or -BT_ENOENT (out->src = BT_FUNC_NONE).
 */
int bt_msyms_func(struct bt_msyms *m, uint64_t addr, struct bt_func_sym *out);
/*
 * The symbol table's first function starting at or after addr (one name
 * per address, as bt_msyms_func() chooses). 0 or -BT_ENOENT.
 */
int bt_msyms_func_from(struct bt_msyms *m, uint64_t addr, struct bt_func_sym *out);

/*
 * The data object (STT_OBJECT, STT_TLS) containing addr, as "name" or
 * "name+0xoff" in *name (owned by the bt_msyms). Returns 0 or -BT_ENOENT.
 */
int bt_msyms_data(struct bt_msyms *m, uint64_t addr, const char **name,
		  uint64_t *off);
/*
 * The data object whose ELF name is raw (not demangled: "_ZN2v88internal7
 * Version6major_E"): its address and size. 0 or -BT_ENOENT. Linear.
 */
int bt_msyms_data_named(struct bt_msyms *m, const char *raw, uint64_t *addr,
			uint64_t *size);

/*
 * The name objdump prints for addr after a PC-relative operand of the
 * instruction at from (binutils 2.40's rule, docs/disasm.md): the symbol
 * at or nearest before addr, of any type and size, in *name (demangled,
 * owned by the bt_msyms), its address in *at ("table" at 0x2020 for
 * 0x2060: "table+0x40"; after addr below the first symbol: "-0x..."); an
 * address a dynamic relocation writes (a GOT slot) is named by the
 * relocation's symbol with its version ("printf@GLIBC_2.2.5"; *at = addr
 * when undefined, no offset), unless the nearest symbol is in from's
 * section. Returns 0, or -BT_ENOENT when m has no symbols.
 */
int bt_msyms_addr_name(struct bt_msyms *m, uint64_t addr, uint64_t from,
		       const char **name, uint64_t *at);

/*
 * The code bytes of [start, end) from the section that holds them.
 * *bytes is owned by the bt_msyms. Returns the number of bytes available
 * from start (may be less than end - start at a section end), or a
 * negative -BT_E* code (e.g. a NOBITS section, an address in no section).
 */
long bt_msyms_code(struct bt_msyms *m, uint64_t start, uint64_t end,
		   const uint8_t **bytes);

/*
 * The line-table rows covering [start, end), sorted by address, with the
 * row that covers start first (its addr may be < start). *rows is owned
 * by the bt_msyms and valid until the next call (a CU's rows are kept
 * smaller than struct bt_line, and made into these when asked for). Returns the row count,
 * 0 when there is no line information.
 */
size_t bt_msyms_lines(struct bt_msyms *m, uint64_t start, uint64_t end,
		      const struct bt_line **rows);

/*
 * The inline chain at addr, outermost first, into chain[0..max). Returns
 * the depth (0 when addr is not in inlined code); chain[depth..max) is
 * left as it was.
 */
size_t bt_msyms_inlines(struct bt_msyms *m, uint64_t addr,
			struct bt_inline *chain, size_t max);

/*
 * DW_AT_producer of the compilation unit holding addr (e.g. "GNU C17
 * 12.2.0 -mtune=generic -march=x86-64 -g -O2"), NULL when unknown.
 */
const char *bt_msyms_producer(struct bt_msyms *m, uint64_t addr);

/**
 * struct bt_data_type - what a load or store reaches, from DWARF
 * @type: the struct, class or union: "struct point", "class ns::Shape"
 *        (a typedef's name for an anonymous one); owned by the bt_msyms
 * @member: the member's path at @offset ("y", "b.x", "[2].y": an element
 *          of an array), NULL where no one member covers it (padding, a
 *          union's overlapping members); owned by the bt_msyms
 * @offset: of the access from the start of the object the register
 *          points to (or the local variable starts at)
 * @var: the variable or parameter the register holds ("p", "this")
 */
struct bt_data_type {
	const char *type;
	const char *member;
	int64_t offset;
	const char *var;
};

/*
 * The variables of the function [start, end) that are pointers to
 * aggregates in a register, or aggregates (or arrays of them) at a
 * constant offset from one, over the addresses where their locations
 * say so; NULL when the module has no DWARF for it. bt_dtypes_find: the
 * data type an access at addr to reg + disp reaches (reg: the DWARF
 * register number); 0, or -BT_ENOENT where nothing is known (never a
 * guess: two variables of different types in the register at once give
 * nothing).
 */
struct bt_dtypes;
struct bt_dtypes *bt_msyms_dtypes(struct bt_msyms *m, uint64_t start, uint64_t end);
int bt_dtypes_find(struct bt_dtypes *t, uint64_t addr, int reg, int64_t disp,
		   struct bt_data_type *out);
void bt_dtypes_free(struct bt_dtypes *t);

/* Build-id of an ELF file or image; returns its length (0 if none). */
size_t bt_elf_build_id(const char *path, uint8_t id[20]);
size_t bt_elf_build_id_mem(const void *image, size_t len, uint8_t id[20]);
/* id[0..n) as 2n hex digits into out (2n + 1 bytes). */
void bt_build_id_hex(const uint8_t *id, size_t n, char *out);
/*
 * The copy of a module perf's build-id cache holds (perf record and perf
 * archive fill it: $PERF_BUILDID_DIR, else ~/.debug, then
 * .build-id/xx/yyyy.../elf), malloc'ed; NULL when there is none.
 */
char *bt_buildid_cache_file(const uint8_t *id, size_t n);
/*
 * Kernel function names from a kallsyms file (/proc/kallsyms): NULL with
 * err set when it cannot be read or lists no addresses (kptr_restrict).
 * bt_ksyms_find gives the function holding addr (its name is borrowed);
 * bt_ksyms_text is _text's address (0 if not listed).
 *
 * bt_ksyms_open does the same through the per-boot cache in cache_dir
 * (docs/formats.md "Kernel symbol cache"): the file cache_dir/kallsyms
 * mapped when it is sound and made in this boot with these modules, else
 * kallsyms read and the file written (cache_dir made if missing). An
 * address the cache does not cover (BPF programs, trampolines) is looked
 * up in kallsyms, read then, once. cache_dir NULL: no cache; paths NULL:
 * the system's files (tests give others).
 */
struct bt_ksyms;
struct bt_ksyms_paths {
	const char *kallsyms;	/* /proc/kallsyms */
	const char *boot_id;	/* /proc/sys/kernel/random/boot_id */
	const char *modules;	/* /proc/modules */
	const char *sysmodule;	/* /sys/module (NAME/notes/.note.gnu.build-id) */
};
struct bt_ksyms *bt_ksyms_open(const char *cache_dir, const struct bt_ksyms_paths *paths,
			       struct bt_error *err);
struct bt_ksyms *bt_ksyms_load(const char *path, struct bt_error *err);
int bt_ksyms_find(struct bt_ksyms *k, uint64_t addr, const char **name,
		  uint64_t *start, uint64_t *end);
uint64_t bt_ksyms_text(const struct bt_ksyms *k);
void bt_ksyms_free(struct bt_ksyms *k);

/* Where the names came from (for tests and notes). */
enum bt_ksyms_from {
	BT_KSYMS_LIVE,		/* kallsyms read, no cache written */
	BT_KSYMS_CACHED,	/* the cache mapped */
	BT_KSYMS_WRITTEN,	/* kallsyms read, the cache written */
};
struct bt_ksyms_info {
	enum bt_ksyms_from from;
	const char *why;	/* why not from the cache (static); NULL if it was */
	bool read_live;		/* kallsyms itself read, on a miss or since */
};
const struct bt_ksyms_info *bt_ksyms_info(const struct bt_ksyms *k);
/* This process's vDSO image (the same for every process of this kernel). */
const void *bt_own_vdso(size_t *len);
/*
 * The image of a recorded vDSO (malloc'ed, NULL if none is found): the copy
 * the recording carries, else this kernel's if the build-id matches (or is
 * not known), else perf's cache ~/.debug/[vdso]/<build-id>/vdso.
 */
void *bt_vdso_find(const void *recorded, size_t recorded_len, const uint8_t *bid,
		   size_t bid_size, size_t *len);

/*
 * A demangled name as perf and pprof print it: no return type, no
 * parameters ("ns::Acc<int>::add"); with fold_templates, template
 * arguments as <…>. Into buf (len bytes); returns buf.
 */
const char *bt_name_short(const char *name, bool fold_templates, char *buf,
			  size_t len);
/*
 * The template argument lists at the top level of a short name (what
 * --names folded turns into <…>), as byte spans [spans[i][0], spans[i][1])
 * from '<' to its '>' included; returns how many (at most max are stored).
 */
size_t bt_name_template_spans(const char *name, size_t (*spans)[2], size_t max);

/*
 * Every template argument list of a short name, outermost first at each
 * place (in the order their '<' come): [open, close) from '<' to its '>'
 * included, depth 1 at the top level, parent the list around it (-1).
 */
struct bt_strbuf;
struct bt_name_span {
	size_t open, close;
	unsigned depth;
	long parent;
};
/* The lists of name into sp; returns how many, max + 1 when more (or too deep). */
size_t bt_name_spans(const char *name, struct bt_name_span *sp, size_t max);
/* name with the lists fold[i] (and all inside them) as "<…>", added to sb. */
void bt_name_fold(const char *name, const struct bt_name_span *sp, size_t n,
		  const bool *fold, struct bt_strbuf *sb);
/*
 * name (a short name) in width columns, as far as folding takes it: its
 * template argument lists folded into "<…>" one at a time, the deepest
 * first (of one depth, the one that saves most), only until it fits;
 * never the lists keep[i] (bt_name_spans' numbering; NULL: none), nor
 * those around them. Adds the result to sb; false when even folded it
 * does not fit (the caller cuts it).
 */
bool bt_name_fit(const char *name, size_t width, const bool *keep, struct bt_strbuf *sb);
/*
 * Marks in keep (bt_name_spans' numbering of a, max lists) the lists of
 * a that must stay unfolded for a to read differently from b: those that
 * differ where everything around them is alike, and the lists around
 * those. Nothing when the folded forms differ already.
 */
void bt_name_keep_differing(const char *a, const char *b, bool *keep, size_t max);

/* Demangle a C++/Rust-legacy name; returns a malloc'ed string or NULL. */
char *bt_demangle(const char *name);

/*
 * Source files, read once each and indexed by line. Owned by a cache
 * shared by every module of a session.
 */
struct bt_srcfile {
	const char *path;
	size_t nlines;
	const char **lines;	/* lines[0] is line 1, once bt_srcfile_line read it */
	bool missing;		/* could not be read: nlines == 0 */
	int64_t mtime;		/* modification time (s), 0 if unknown */
};
/*
 * Line line (from 1) of sf: no newline, NUL-terminated, kept as long as
 * the cache; NULL past the end or when sf is missing. A file is indexed
 * when first asked for and its lines read as they are asked for (""
 * when the file changed since so that one cannot be).
 */
const char *bt_srcfile_line(const struct bt_srcfile *sf, size_t line);
struct bt_srccache;
struct bt_srccache *bt_srccache_new(void);
void bt_srccache_free(struct bt_srccache *c);
/*
 * Split data[0..len) (with a spare byte at data[len]) into lines in place:
 * '\n' and a '\r' before it become NUL. *lines is malloc'ed. Returns the count.
 */
size_t bt_src_index(char *data, size_t len, const char ***lines);
/*
 * Where sources are looked for besides their recorded paths: dirs, a
 * colon-separated list of directories and zip archives (--source-path);
 * prefix and strip as perf annotate's --prefix/--prefix-strip (an absolute
 * recorded path with its first strip directories taken off, under
 * prefix, is tried first). NULL/0: none. Before the first bt_srccache_get.
 */
void bt_srccache_set_paths(struct bt_srccache *c, const char *dirs,
			   const char *prefix, unsigned strip);
/* Never NULL: a missing file gives a bt_srcfile with missing set. */
const struct bt_srcfile *bt_srccache_get(struct bt_srccache *c, const char *path);

#endif
