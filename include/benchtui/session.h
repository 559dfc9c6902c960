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
 */
struct bt_session_opts {
	double region_threshold;
	unsigned region_margin;
	bool no_source;
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
 * Notes on what is missing or degraded ("no debug info for '/bin/x'",
 * "'/bin/x' changed since it was recorded (build-id mismatch)"). The
 * recording's own notes follow what the first selection found.
 */
BT_API size_t bt_session_nnotes(const struct bt_session *s);
BT_API const char *bt_session_note(const struct bt_session *s, size_t i);

#endif
