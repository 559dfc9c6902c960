/*
 * The JIT code of a recording: every jitdump and perf map found for its
 * processes, each asked "what code ran at this address at this time?"
 * (docs/jit.md). Which sources a process has, and in what order they are
 * asked (its jitdumps first: they carry code, lines and times; then its
 * perf maps: names and ranges only), is the machine's (core/machine).
 */
#ifndef BENCHTUI_JITSET_H
#define BENCHTUI_JITSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jit/jitdump.h"
#include "jit/jitinline.h"

struct bt_error;

enum bt_jit_src_kind { BT_JIT_SRC_DUMP, BT_JIT_SRC_MAP };

/**
 * struct bt_jit_src - one file that describes a process's JIT code
 * @path: where it was read
 * @pid: the process it describes
 * @runtime: who wrote it, as far as the file tells ("V8", "HotSpot",
 *	"Dart", "a JIT runtime"; "a perf map" for maps)
 * @entries: loads (jitdump) or lines (map) read
 * @sampled: entries that samples fell in (counted by the caller)
 * @times: the file's times compare with the samples' (jitdump records in
 *	CLOCK_MONOTONIC and a recording in that clock); else the latest
 *	code at an address is taken
 * @inline_path: the inline file read beside a jitdump (jit-PID.inline,
 *	benchtui's agent), NULL when none
 */
struct bt_jit_src {
	const char *path;
	uint32_t pid;
	enum bt_jit_src_kind kind;
	const char *runtime;
	size_t entries;
	size_t sampled;
	bool times;
	const char *inline_path;
};

/**
 * struct bt_jit_code - one piece of JIT code
 * @src: index of its source
 * @idx: the load (jitdump) or entry (map) index in its source
 * @name: as the runtime named it (borrowed from the source)
 * @start, @size: where it ran (a moved load: where it was moved to)
 * @code: @size bytes of code, NULL when the source has none
 * @lines, @nlines: its line table (jitdump DEBUG_INFO), relative to the
 *	load's address
 * @time: when it was loaded (0: not known)
 * @e_machine: ELF machine of the code
 * @inl: its inlining chains (the inline file), pcs relative to
 *	@load_addr; NULL when none
 */
struct bt_jit_code {
	size_t src;
	size_t idx;
	const char *name;
	uint64_t start, size;
	const uint8_t *code;
	const struct bt_jit_line *lines;
	size_t nlines;
	uint64_t load_addr;
	uint64_t time;
	unsigned e_machine;
	const struct bt_jit_inl *inl;
};

struct bt_jitset;

struct bt_jitset *bt_jitset_new(void);
void bt_jitset_free(struct bt_jitset *js);
/*
 * Read a jitdump or a perf map for pid; times: its record times compare
 * with the samples'. Returns the source index, or -BT_E* (err set).
 */
long bt_jitset_add(struct bt_jitset *js, enum bt_jit_src_kind kind,
		   uint32_t pid, const char *path, bool times,
		   struct bt_error *err);
size_t bt_jitset_nsrcs(const struct bt_jitset *js);
struct bt_jit_src *bt_jitset_src(struct bt_jitset *js, size_t i);
/*
 * The code source src says was at addr at time (the samples' clock), into
 * *out; false when it does not cover addr.
 */
/* The loads of a jitdump source (NULL, *n 0 for a map). */
const struct bt_jit_load *bt_jitset_loads(const struct bt_jitset *js, size_t src,
					  size_t *n);
bool bt_jitset_find_in(const struct bt_jitset *js, size_t src, uint64_t addr,
		       uint64_t time, struct bt_jit_code *out);

#endif
