/*
 * Code bytes for runtimes that write only names (docs/jit.md "Code copied
 * at exit"): while the runtime's process is stopped at its exit (ptrace,
 * core/record/child-trace.c), the ranges its perf map names are read from
 * its memory and written as a jitdump, one JIT_CODE_LOAD per entry, which
 * the jitdump reader and the rest of the JIT path take as they are.
 */
#ifndef BENCHTUI_JITCOPY_H
#define BENCHTUI_JITCOPY_H

#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>

struct bt_error;

/* What is copied at most, in code bytes, by default. */
#define BT_JIT_COPY_CAP (64ULL << 20)

/**
 * struct bt_jit_copy_stats - what a copy did
 * @entries: entries of the perf map
 * @copied, @bytes: entries written with their code, and their bytes
 * @not_anon: entries outside anonymous executable memory (code of a file,
 *	data such as V8's bytecode arrays, or code already freed): not copied
 * @overlapped: entries a later entry overlaps (the memory holds the later
 *	code): not copied
 * @unreadable: entries whose memory could not be read
 * @capped: entries left out because the cap was reached
 */
struct bt_jit_copy_stats {
	size_t entries, copied, not_anon, overlapped, unreadable, capped;
	uint64_t bytes;
};

/*
 * Read map_path (the perf map of pid, which must be stopped or otherwise
 * not running), copy the code of its entries that lie in anonymous
 * executable mappings of pid, at most cap bytes in the map's order, and
 * write them as a jitdump to out_path (load times 0: not known). Nothing
 * is written when nothing is copied. Returns the number of entries
 * copied, or -BT_ENOENT (no map), -BT_EIO (err set).
 */
long bt_jit_copy(pid_t pid, const char *map_path, const char *out_path,
		 uint64_t cap, struct bt_jit_copy_stats *st,
		 struct bt_error *err);

/*
 * The recorder's part: copy the code of pid (held at its exit) named by
 * /tmp/perf-PID.map into DIR/copy-PID.dump, and say in note (one line,
 * always set) what was done.
 */
void bt_jit_copy_at_exit(pid_t pid, const char *dir, char *note, size_t len);

#endif
