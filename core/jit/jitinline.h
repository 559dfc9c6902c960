/*
 * benchtui's inline file, jit-PID.inline beside a jitdump: the inlining
 * chain of each pc of compiled code (one frame at each pc of a method
 * that inlines nothing: its bytecode indexes), as HotSpot gives it to
 * benchtui's JVMTI agent (CompiledMethodLoad's JVMTI_CMLR_INLINE_INFO),
 * which writes it (docs/jit.md "Inline file"). jitdump has no record for chains (its
 * DEBUG_INFO gives one line per address), and a record of a new id in the
 * dump would make perf inject warn at every one, so it is a file of its
 * own, framed as a jitdump:
 *
 *	header:  u32 magic "BTIL" (0x4C495442), u32 version (1),
 *	         u32 header size (16), u32 pid
 *	record:  u32 id (1), u32 total_size, u64 time (the load's),
 *	         u64 code_addr, u64 code_index (the load's),
 *	         u32 nmethods, u32 npcs,
 *	         nmethods x { name "java.lang.Integer::valueOf\0",
 *	                      source file "java/lang/Integer.java\0" or "\0" },
 *	         npcs x { u64 pc, u32 nframes,
 *	                  nframes x { u32 method, i32 bci, u32 line (0: none) } }
 *
 * frames innermost first (the compiled method itself last), as JVMTI's
 * PCStackInfo; pcs in any order. Host byte order. The reader treats the
 * file as hostile, as the jitdump reader does (every count and string
 * checked against its record, a bad record skipped, a cut one ends the
 * reading), and never prints.
 */
#ifndef BENCHTUI_JITINLINE_H
#define BENCHTUI_JITINLINE_H

#include <stddef.h>
#include <stdint.h>

struct bt_error;

#define BT_JITINLINE_MAGIC 0x4C495442u	/* "BTIL" */

/**
 * struct bt_jit_frame - one method of an inlining chain at a pc
 * @method: "java.lang.Integer::valueOf" (borrowed, any bytes)
 * @file: its source file as the agent names it ("java/lang/Integer.java"),
 *	"" when unknown
 * @bci: the bytecode index in @method (-1 and below: HotSpot's special ones);
 *	the innermost frame's is shown beside the instruction's line
 *	("Integer.java:1081 @23"), the others' beside the inline rows
 * @line: the line of @bci, 0 when unknown
 */
struct bt_jit_frame {
	const char *method;
	const char *file;
	int32_t bci;
	uint32_t line;
};

/**
 * struct bt_jit_pc - the chain at one pc: frames[@frame .. @frame + @nframes),
 * innermost first
 */
struct bt_jit_pc {
	uint64_t pc;
	uint32_t frame, nframes;
};

/**
 * struct bt_jit_inl - the chains of one compiled method (one load)
 * @pcs, @npcs: sorted by pc (the later record of one pc kept)
 * @frames: what the pcs index
 */
struct bt_jit_inl {
	uint64_t code_addr, code_index, time;
	const struct bt_jit_pc *pcs;
	size_t npcs;
	const struct bt_jit_frame *frames;
};

/**
 * struct bt_jitinline_stats - what was read
 * @records: inline records read; @bad: skipped (content not sound)
 * @truncated: reading stopped at a record cut short
 */
struct bt_jitinline_stats {
	size_t records, bad;
	int truncated;
};

struct bt_jitinline;

/* Open and read an inline file (only a regular file). NULL with err set. */
struct bt_jitinline *bt_jitinline_open(const char *path, struct bt_error *err);
struct bt_jitinline *bt_jitinline_open_mem(const void *data, size_t size,
					   struct bt_error *err);
void bt_jitinline_free(struct bt_jitinline *f);
const struct bt_jitinline_stats *bt_jitinline_stats(const struct bt_jitinline *f);
/* The chains of the load of code_index at code_addr, NULL when none. */
const struct bt_jit_inl *bt_jitinline_find(const struct bt_jitinline *f,
					   uint64_t code_index, uint64_t code_addr);
/*
 * The pc record that holds addr: the last at or before it, else the first
 * (code before the first pc, the prologue, counts for it as for lines);
 * NULL when the method has none.
 */
const struct bt_jit_pc *bt_jit_inl_at(const struct bt_jit_inl *in, uint64_t addr);

#endif
