/*
 * /tmp/perf-PID.map, the symbol file a JIT runtime writes for perf: one
 * line per piece of code, "START SIZE NAME", START and SIZE in hex with or
 * without 0x, NAME the rest of the line (spaces included). Node
 * (--perf-basic-prof), HotSpot (-XX:+DumpPerfMapAtExit, jcmd
 * Compiler.perfmap), .NET (DOTNET_PerfMapEnabled=1 or 3), CPython 3.12+
 * (-X perf) and Dart (--generate-perf-events-symbols) write it. It gives
 * names and ranges only: no code bytes, no lines, no times (docs/jit.md).
 *
 * The reader treats the file as hostile: a line that does not parse is
 * counted and skipped, the rest is read; it never prints.
 */
#ifndef BENCHTUI_PERFMAP_H
#define BENCHTUI_PERFMAP_H

#include <stddef.h>
#include <stdint.h>

struct bt_error;

/**
 * struct bt_perfmap_entry - one line
 * @start, @size: the code range [start, start + size)
 * @name: the rest of the line, trailing blanks and CR dropped (owned by
 *	the map, NUL-terminated, never empty)
 * @line: line number in the file, from 1
 */
struct bt_perfmap_entry {
	uint64_t start, size;
	const char *name;
	size_t line;
};

/**
 * struct bt_perfmap_stats - what was read
 * @lines: lines in the file (a last line without its newline counts)
 * @entries: lines read as entries
 * @bad: lines skipped: no hex start or size, no name, a range that wraps,
 *	a NUL byte (@first_bad is the first one's number, 0 when none)
 * @blank: empty lines (skipped silently)
 * @unterminated: the last line had no newline: the runtime may have been
 *	writing it (kept when it parses)
 */
struct bt_perfmap_stats {
	size_t lines, entries, bad, blank;
	size_t first_bad;
	int unterminated;
};

struct bt_perfmap;

/*
 * Read a perf map. Only a regular file is opened (never a FIFO or a
 * device), non-blocking; the bytes present at open are read. NULL (and
 * err set) when it cannot be opened; an empty file is an empty map.
 */
struct bt_perfmap *bt_perfmap_open(const char *path, struct bt_error *err);
/* The same on a buffer (copied what is kept: the buffer may go after). */
struct bt_perfmap *bt_perfmap_open_mem(const void *data, size_t size,
				       struct bt_error *err);
void bt_perfmap_free(struct bt_perfmap *m);

/* The entries in file order. */
const struct bt_perfmap_entry *bt_perfmap_entries(const struct bt_perfmap *m,
						  size_t *n);
const struct bt_perfmap_stats *bt_perfmap_stats(const struct bt_perfmap *m);
/*
 * The entry covering addr; where several do (code space is reused), the
 * one written last. NULL when none.
 */
const struct bt_perfmap_entry *bt_perfmap_find(const struct bt_perfmap *m,
					       uint64_t addr);

#endif
