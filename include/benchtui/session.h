/*
 * A session: a recording being viewed, with what belongs to the whole of
 * it: each module's symbols and debug info (opened on first use), the
 * decoders, the source files, the kernel's names, the notes on what is
 * missing. What one choice of event, window, benchmark or focus gives is
 * a selection (benchtui/selection.h); a session has any number of them.
 */
#ifndef BENCHTUI_SESSION_H
#define BENCHTUI_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "benchtui/benchtui.h"
#include "benchtui/profile.h"

struct bt_session;

/* Assembly syntax: annotations are built (and cached) in either. */
enum bt_asm_syntax { BT_ASM_ATT, BT_ASM_INTEL };

/**
 * struct bt_session_opts - how the session reads the recording
 * @region_threshold: an instruction with at least this percent of its
 *                    function's samples (raw or adjusted) is hot (1)
 * @region_margin: hot instructions this many cold ones apart are one region (8)
 * @no_source: read no debug info up front for source lines (--no-source):
 *             the table locates the rows it shows only when it shows
 *             sources, and call chains get no inline frames from DWARF
 *             loaded for nothing else
 * @source_path: directories and zip archives (a JDK's src.zip) where
 *               sources are looked for when their recorded paths miss,
 *               colon-separated (--source-path); NULL: none
 * @prefix, @prefix_strip: perf annotate's --prefix/--prefix-strip: an
 *               absolute source path with its first @prefix_strip
 *               directories taken off, under @prefix, is read first
 *               (relocated build trees); NULL: none
 */
struct bt_session_opts {
	double region_threshold;
	unsigned region_margin;
	bool no_source;
	const char *source_path;
	const char *prefix;
	unsigned prefix_strip;
};

/* The defaults: regions at 1% with margin 8, sources read. */
BT_API void bt_session_opts_init(struct bt_session_opts *o);

/* Takes ownership of p (freed with the session, also on failure). */
BT_API struct bt_session *bt_session_new(struct bt_profile *p,
					 const struct bt_session_opts *o,
					 struct bt_error *err);
/* Frees the session and every selection of it still alive. */
BT_API void bt_session_free(struct bt_session *s);

BT_API const struct bt_profile_info *bt_session_info(const struct bt_session *s);
BT_API const struct bt_session_opts *bt_session_opts(const struct bt_session *s);

/*
 * True when the recording has call chains (perf -g, --call-graph dwarf,
 * benchtui's default): selections then have inclusive samples, callers
 * and callees (DESIGN.md §6, docs/callchains.md).
 */
BT_API bool bt_session_has_chains(const struct bt_session *s);
/*
 * The call chains of a recording opened by bt_profile_open_deferred(),
 * read now; what the session made without them (the benchmarks, its
 * caches) is made again with the next selection, and the notes are
 * those an eager read gives. Call it with no selection of s alive.
 * 0 (also when there was nothing to read), or -BT_E* with err set.
 */
BT_API int bt_session_read_chains(struct bt_session *s, struct bt_error *err);
/* Has the session call chains still to read (bt_session_read_chains)? */
BT_API bool bt_session_chains_pending(const struct bt_session *s);

/*
 * Notes on what is missing or degraded ("no debug info for '/bin/x'",
 * "'/bin/x' changed since it was recorded (build-id mismatch)"). The
 * recording's own notes follow what the first selection found.
 */
BT_API size_t bt_session_nnotes(const struct bt_session *s);
BT_API const char *bt_session_note(const struct bt_session *s, size_t i);

/*
 * The benchmark's recorded output (core/perf/meta.h "output": chunks
 * "NS LEN [STREAM]\n" + LEN bytes as read, NS CLOCK_MONOTONIC
 * nanoseconds, STREAM 2 for its standard error); false when the
 * recording has none. *same_clock: NS compare with sample times
 * (bt_session_seconds); *truncated: the recording kept only its start.
 */
BT_API bool bt_session_output(const struct bt_session *s, const char **data, size_t *len,
			      bool *same_clock, bool *truncated);

/*
 * The recording's processes and threads (perf's threads), from its COMM,
 * FORK and EXIT records and its samples: what a forking harness (JMH's
 * forks) or a multi-process build is split by. Times are in the
 * recording's clock (ns, as the samples'), 0 when unknown; a name is a
 * thread's comm (perf's ":TID" for a thread the recording never named).
 */

/**
 * struct bt_proc_thread - a thread of a process
 * @tid: its id
 * @comm: its last name; @ncomms: how many it had (exec, prctl)
 * @samples: of every event
 * @first, @last: its first and last sample's time
 * @start, @exit: its FORK and EXIT records' times
 */
struct bt_proc_thread {
	uint32_t tid;
	const char *comm;
	size_t ncomms;
	uint64_t samples;
	uint64_t first, last;
	uint64_t start, exit;
};

/**
 * struct bt_proc - a process
 * @pid, @ppid: it and its parent (0 if unknown)
 * @comm: its name: its main thread's last (after an exec, the program's)
 * @comms, @ncomms: every name its threads had, in the order they got them
 * @samples: of every event
 * @first, @last: its first and last sample's time
 * @start, @exit: its main thread's FORK and EXIT records' times
 * @threads, @nthreads: its threads, in the order they started
 */
struct bt_proc {
	uint32_t pid, ppid;
	const char *comm;
	const char *const *comms;
	size_t ncomms;
	uint64_t samples;
	uint64_t first, last;
	uint64_t start, exit;
	const struct bt_proc_thread *threads;
	size_t nthreads;
};

/* The processes, in the order they started (then by pid); made on first use. */
BT_API size_t bt_session_nprocs(struct bt_session *s);
BT_API const struct bt_proc *bt_session_proc(struct bt_session *s, size_t i);
/* The seconds from the run's first sample to time t of the recording's clock. */
BT_API double bt_session_seconds(const struct bt_session *s, uint64_t t);

#endif
