/*
 * jitdump, the file a JIT runtime writes so that a profiler can see its
 * code: names, code bytes, line tables, code moves (Linux
 * tools/perf/Documentation/jitdump-specification.txt). V8 (`node
 * --perf-prof`), benchtui's JVMTI agent, perf's libperf-jvmti, .NET
 * (DOTNET_PerfMapEnabled=1 or 2), CPython 3.13+ (-X perf_jit) and Dart
 * (--generate-perf-jitdump) write it; the runtime maps the file PROT_EXEC
 * once, and that MMAP record in the perf stream is how a profiler finds
 * it (docs/jit.md).
 *
 * The reader treats the file as hostile: every size and count is checked
 * against the record it sits in, both byte orders are read (the header
 * magic tells which), and a damaged or truncated file is read up to the
 * damage: what came before it is kept, bt_jitdump_stats() says where and
 * why it stopped. It never prints.
 *
 * Usage:
 *
 *	struct bt_jitdump *jd = bt_jitdump_open("jit-1234.dump", &err);
 *	size_t n;
 *	const struct bt_jit_load *l = bt_jitdump_loads(jd, &n);
 *	for (size_t i = 0; i < n; i++)
 *		use(l[i].name, l[i].code_addr, l[i].code, l[i].code_size,
 *		    l[i].lines, l[i].nlines);
 *	bt_jitdump_free(jd);
 */
#ifndef BENCHTUI_JITDUMP_H
#define BENCHTUI_JITDUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bt_error;

#define BT_JITDUMP_MAGIC 0x4A695444u		/* "JiTD" */
#define BT_JITDUMP_MAGIC_SWAPPED 0x4454694Au
#define BT_JITDUMP_HEADER_SIZE 40u
#define BT_JITDUMP_FLAGS_ARCH_TIMESTAMP (1ULL << 0)
/* V8 and Dart fill the header's reserved word with this: the only sign of them */
#define BT_JITDUMP_V8_RESERVED 0xDEADBEEFu

/* Record ids (the spec's JIT_CODE_*). */
enum bt_jit_record {
	BT_JIT_CODE_LOAD = 0,
	BT_JIT_CODE_MOVE = 1,
	BT_JIT_CODE_DEBUG_INFO = 2,
	BT_JIT_CODE_CLOSE = 3,
	BT_JIT_CODE_UNWINDING_INFO = 4,
};

/**
 * struct bt_jitdump_header - the file header, in native byte order
 * @version: 1 (V8, perf's agent, benchtui's agent) or 2 (the spec's revision)
 * @header_size: the header's total_size; records start there
 * @elf_mach: ELF e_machine of the code (62 = x86-64, 183 = aarch64)
 * @reserved: the spec's pad1 (BT_JITDUMP_V8_RESERVED from V8 and Dart, else 0)
 * @pid: the runtime's process
 * @timestamp: when the file was created. Clock not fixed by the spec:
 *	V8 and Dart write wall-clock microseconds here (CLOCK_MONOTONIC ns
 *	in the records), benchtui's agent CLOCK_MONOTONIC ns
 * @flags: BT_JITDUMP_FLAGS_ARCH_TIMESTAMP: record times are the CPU's
 *	counter (TSC), convertible with perf's time_conv, not CLOCK_MONOTONIC
 * @swapped: the file was written in the other byte order
 * @line_bias: subtracted from every line-table address as read: V8 and
 *	Dart add the size of an ELF header (0x40; 0x34 for 32-bit targets),
 *	for the ELF image they expect perf inject to make of the code (perf
 *	6.1 puts the code at 0x80, so their lines are off in perf itself)
 */
struct bt_jitdump_header {
	uint32_t version;
	uint32_t header_size;
	uint32_t elf_mach;
	uint32_t reserved;
	uint32_t pid;
	uint64_t timestamp;
	uint64_t flags;
	bool swapped;
	uint64_t line_bias;
};

/**
 * struct bt_jit_line - one line-table entry of JIT_CODE_DEBUG_INFO
 * @addr: code address the entry starts at (bt_jitdump_header.line_bias
 *	already taken off)
 * @line: source line, from 1
 * @discrim: column discriminator (0: none)
 * @file: source file name as written (borrowed, NUL-terminated); "" when
 *	the writer's bytes were not a name (see @debug_repaired)
 */
struct bt_jit_line {
	uint64_t addr;
	uint32_t line;
	uint32_t discrim;
	const char *file;
};

/**
 * struct bt_jit_load - one JIT_CODE_LOAD: a function's code came to be
 * @pid, @tid: the thread that wrote it
 * @time: the record's timestamp (clock: see bt_jitdump_header.flags)
 * @vma: the spec's vma (= code_addr for every runtime seen)
 * @code_addr, @code_size: where the code runs, how long it is
 * @code_index: the runtime's unique id of this code (MOVE refers to it;
 *	perf inject names its ELF jitted-PID-INDEX.so)
 * @seq: position of the record among all records of the file, from 0
 * @name: as the runtime named it (borrowed, NUL-terminated; any bytes)
 * @code: @code_size bytes, the record's tail as perf inject takes it;
 *	NULL when the record carries none (then @code_offset is 0)
 * @code_offset: file offset of @code
 * @lines, @nlines: the DEBUG_INFO of this code_addr that preceded it
 * @unwind_data, @unwind_size, @eh_frame_hdr_size, @unwind_mapped_size:
 *	the JIT_CODE_UNWINDING_INFO that preceded it (.eh_frame_hdr then
 *	.eh_frame); NULL and 0 when none
 */
struct bt_jit_load {
	uint32_t pid, tid;
	uint64_t time;
	uint64_t vma;
	uint64_t code_addr;
	uint64_t code_size;
	uint64_t code_index;
	size_t seq;
	const char *name;
	const uint8_t *code;
	uint64_t code_offset;
	const struct bt_jit_line *lines;
	size_t nlines;
	const uint8_t *unwind_data;
	uint64_t unwind_size, eh_frame_hdr_size, unwind_mapped_size;
};

/**
 * struct bt_jit_move - one JIT_CODE_MOVE: code moved in the code cache
 * @load: index in bt_jitdump_loads() of the latest earlier load with the
 *	same @code_index, or SIZE_MAX when there is none
 */
struct bt_jit_move {
	uint32_t pid, tid;
	uint64_t time;
	uint64_t vma;
	uint64_t old_code_addr, new_code_addr;
	uint64_t code_size;
	uint64_t code_index;
	size_t seq;
	size_t load;
};

/**
 * struct bt_jitdump_stats - what was read, and where reading stopped
 * @records: records read (every kind, unknown ones included)
 * @unknown: records of an id the spec does not define (skipped)
 * @bad: records whose frame was sound but whose content was not (a name
 *	without its NUL, sizes past the record's end): skipped
 * @orphan_debug: DEBUG_INFO records no later load of their address claimed
 * @debug_repaired: DEBUG_INFO records read by their sizes because the
 *	names were not strings (node 20's V8 writes freed memory there):
 *	addresses and lines kept, file names "" where they were not text
 * @closed, @close_time: a JIT_CODE_CLOSE was read, and its time
 * @truncated: reading stopped before the end of the file (a record
 *	header cut short, or a size that runs past the end or is too small
 *	to frame a record); every record before @good_size was read
 * @good_size: bytes of the file read as whole records (header included)
 * @size: bytes of the file
 * @damage: the first problem met, one line, "" when there was none
 */
struct bt_jitdump_stats {
	size_t records, loads, moves, debug_infos, unwind_infos, closes;
	size_t unknown, bad, orphan_debug, debug_repaired;
	bool closed;
	uint64_t close_time;
	bool truncated;
	uint64_t good_size, size;
	char damage[200];
};

struct bt_jitdump;

/*
 * Open a jitdump file. Only a regular file is opened (never a FIFO or a
 * device, even through a symlink), non-blocking; it is mapped, and the
 * bytes present at open are read. NULL (and err set) when the file cannot
 * be opened or is not a jitdump (bad magic, header cut short); damage
 * after the header is not an error: see bt_jitdump_stats().
 */
struct bt_jitdump *bt_jitdump_open(const char *path, struct bt_error *err);
/* The same on a buffer, which must outlive the returned reader. */
struct bt_jitdump *bt_jitdump_open_mem(const void *data, size_t size,
				       struct bt_error *err);
void bt_jitdump_free(struct bt_jitdump *jd);

const struct bt_jitdump_header *bt_jitdump_header(const struct bt_jitdump *jd);
const struct bt_jitdump_stats *bt_jitdump_stats(const struct bt_jitdump *jd);
/* The loads, in file order; pointers stay valid until bt_jitdump_free(). */
const struct bt_jit_load *bt_jitdump_loads(const struct bt_jitdump *jd,
					   size_t *n);
/* The moves, in file order. */
const struct bt_jit_move *bt_jitdump_moves(const struct bt_jitdump *jd,
					   size_t *n);

/*
 * The code that ran at addr at time (the records' clock): of the loads
 * and moves that cover addr, the latest at or before time, else the
 * earliest after it (a runtime may write the record after the code first
 * ran: HotSpot posts CompiledMethodLoad from its service thread). time
 * UINT64_MAX: the latest of all. *start (if non-NULL) gets where that
 * code began (the move's new address for moved code). NULL when no load
 * covers addr.
 */
const struct bt_jit_load *bt_jitdump_find(const struct bt_jitdump *jd,
					  uint64_t addr, uint64_t time,
					  uint64_t *start);

#endif
