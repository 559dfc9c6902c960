/*
 * The annotation of one function (DESIGN.md §1 "annotate"): decoded
 * instructions joined with the address histogram, the line table and the
 * inline chains, plus the skid-adjusted weights, hot regions and loops.
 * Built from explicit inputs (the session builds them lazily, one
 * function at a time, and caches them); nothing here knows the session.
 */
#ifndef BENCHTUI_ANNOTATE_H
#define BENCHTUI_ANNOTATE_H

#include "base.h"
#include "disasm/disasm.h"
#include "symbols/symbols.h"

/**
 * struct bt_hit - samples at one address
 * @addr: link-time address (ELF, vDSO), else the runtime address
 */
struct bt_hit {
	uint32_t module;
	uint64_t addr;
	uint64_t samples, period;
};

#define BT_AI_SKID_TARGET	0x01	/* the adjustment credits it */
#define BT_AI_LOOP_HEAD		0x02	/* the first instruction of a loop */
#define BT_AI_BACK_EDGE		0x04	/* a branch that closes a loop */
#define BT_AI_SKID_GUESS	0x08	/* credited by a split with no clear winner */
#define BT_AI_BCI		0x10	/* @bci is known (JIT code: HotSpot) */

/**
 * struct bt_ainsn - one instruction of an annotation
 * @samples, @period: raw, as recorded at this address
 * @adjusted, @adjusted_period: skid-adjusted samples and period (DESIGN.md §4)
 * @file, @line: innermost source location (line table), NULL/0 if unknown
 * @bci: with BT_AI_BCI, the bytecode index of @line's method there (the
 *	innermost frame's, as perfasm's "java.lang.Integer::valueOf@23")
 * @chain, @depth: its inline chain is frames[chain .. chain+depth), outermost first
 * @target_name: "sym+0xoff" for a direct branch or call, else NULL
 * @target_insn: index of a branch target inside this function, else -1
 * @mem_name: "sym" or "sym+0xoff" of a PC-relative memory operand, else NULL
 * @dtype: what its memory operand reaches (dtypes[dtype - 1]), 0 if unknown
 * @region: index in regions (hottest first), -1 if none
 * @loop: the innermost loop holding it (index in loops), -1 if none
 * @loop_depth: number of loops around it
 *
 * 128 bytes, a cache line's worth or two: a 30,000-instruction function
 * has 4 MB of them, which the kernel zeroes before it is annotated. Keep
 * it so (narrow types, the pointers together).
 */
struct bt_ainsn {
	struct bt_insn in;
	uint64_t samples, period;
	double adjusted, adjusted_period;
	const char *file;
	const char *target_name;
	const char *mem_name;
	unsigned line;
	uint32_t chain;
	uint32_t dtype;
	int32_t target_insn;
	int32_t bci;
	int32_t region;
	int32_t loop;
	uint16_t loop_depth;	/* (at most 65,535: no more are counted) */
	uint8_t depth;		/* (at most MAX_INLINE_DEPTH, annotate.c) */
	uint8_t flags;		/* BT_AI_* */
};

/**
 * struct bt_region - a hot address range (perfasm)
 * @first, @last: instruction indexes, inclusive
 */
struct bt_region {
	size_t first, last;
	uint64_t samples;
	double adjusted;
};

/**
 * struct bt_loop - a natural loop (cfg.c)
 * @head, @tail: its first and last instruction in address order
 * @contiguous: its body is [head, tail], nothing else in between
 * @ninsns: instructions in its body
 * @depth: loops around it (0: outermost); @parent the innermost of them, -1
 * @samples, @adjusted: of its body
 */
struct bt_loop {
	size_t head, tail;
	bool contiguous;
	size_t ninsns;
	int depth;
	long parent;
	uint64_t samples;
	double adjusted;
};

struct bt_annotation {
	BT_VEC(struct bt_ainsn) insns;
	BT_VEC(struct bt_inline) frames;
	BT_VEC(struct bt_region) regions;
	BT_VEC(struct bt_loop) loops;
	BT_VEC(struct bt_data_type) dtypes;	/* from DWARF (dwfl-types.c) */
	uint64_t samples, period;	/* of the function */
	uint64_t stray;			/* hits between instruction starts */
	uint64_t overrun;		/* bytes the last instruction runs past the end */
	uint64_t cut;			/* the code ends inside the instruction here (0: no) */
	unsigned cut_len;		/* with that many of its bytes: left out */
	const char *file;		/* the function's own source file */
	bool has_lines;
	struct bt_strpool pool;
};

/**
 * struct bt_annotate_in - what one function's annotation is built from
 * @syms: the module's symbols (code bytes, names of targets, lines)
 * @dis: the decoder, in the syntax wanted
 * @name, @module_name: the function's name and its module's basename
 * @start, @end: its bounds (link-time addresses)
 * @by_address: stripped or guessed code: targets inside it are named
 *              "module+0xaddr", as the function is
 * @hits, @nhits: its samples, sorted by address
 * @lines: join line rows and inline chains (the module has DWARF)
 * @region_threshold: fraction of the function's samples that makes an
 *                    instruction hot; @region_margin: cold ones between
 * @name_at: names a target no symbol of @syms covers (JIT code: the
 *           runtime's other code, stubs, builtins), its start in *start;
 *           NULL for none (and @name_arg its argument)
 * @chain_at: the inline chain at an address when the module's DWARF has
 *            none (JIT code: the runtime's inlining records), as
 *            bt_msyms_inlines(); NULL for none
 * @bci_at: the bytecode index and line at an address of JIT code
 *          (HotSpot's records: the innermost frame's), false when none;
 *          kept only where the line is the line table's; NULL for none
 * @slot_name: x86-64 JIT code: the name of what "call *disp(%r13)" reaches
 *             (V8's builtin tables), NULL when unknown; NULL for none
 */
struct bt_annotate_in {
	struct bt_msyms *syms;
	struct bt_disasm *dis;
	const char *name, *module_name;
	uint64_t start, end;
	bool by_address;
	const struct bt_hit *hits;
	size_t nhits;
	bool lines;
	bool precise;		/* the event has no skid (precise_ip 2, 3): none adjusted */
	bool intel;		/* recorded on an Intel core (its CPU id): skid.c's calibration */
	double region_threshold;
	size_t region_margin;
	const char *(*name_at)(void *arg, uint64_t addr, uint64_t *start);
	size_t (*chain_at)(void *arg, uint64_t addr, struct bt_inline *chain,
			   size_t max);
	bool (*bci_at)(void *arg, uint64_t addr, int32_t *bci, unsigned *line);
	const char *(*slot_name)(void *arg, int64_t disp);
	void *name_arg;
};

/* NULL with err set when the function has no code to decode. */
struct bt_annotation *bt_annotate(const struct bt_annotate_in *in,
				  struct bt_error *err);
void bt_annotation_free(struct bt_annotation *a);
/*
 * Join lines, inline chains and data types into an annotation made from
 * in without them (in->lines false; the same function, decoder and hits):
 * the same annotation as bt_annotate() with in->lines gives, without
 * decoding again (the skid, loops and regions do not read lines).
 */
void bt_annotate_add_lines(struct bt_annotation *a, const struct bt_annotate_in *in);
/*
 * The line of file an instruction counts for: its own line when its code
 * is from file, else the call site in file of the code inlined there; 0 if
 * none. (The source view's per-line totals, and Enter on a line.)
 */
unsigned bt_annotation_line_in(const struct bt_annotation *a,
			       const struct bt_ainsn *ai, const char *file);
/* Index of the instruction containing addr, or -1. */
long bt_annotation_find(const struct bt_annotation *a, uint64_t addr);

/* Is instruction insn in loop (or a loop nested in it)? */
bool bt_annotation_in_loop(const struct bt_annotation *a, size_t insn, size_t loop);

/* Algorithms of DESIGN.md §4 (core/annotate/skid.c) on its graph (cfg.h). */
struct bt_cfg;
void bt_skid_adjust(struct bt_annotation *a, const struct bt_cfg *g, bool intel);
void bt_find_loops(struct bt_annotation *a, const struct bt_cfg *g);
void bt_find_regions(struct bt_annotation *a, double threshold, size_t margin);

#endif
