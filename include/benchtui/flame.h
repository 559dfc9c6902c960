/*
 * A selection's call paths as a tree, the flame graph's (the F screen's
 * view, bt_view_flame in benchtui/view.h, and --format flamegraph).
 */
#ifndef BENCHTUI_FLAME_H
#define BENCHTUI_FLAME_H

#include <stddef.h>
#include <stdint.h>

#include "benchtui/benchtui.h"

struct bt_selection;

/*
 * The flame graph of a selection (docs/browser.md "Flame graph"): its call
 * paths as a tree, each frame with its inclusive samples, the root (node
 * 0, "all") holding every sample of a path. Without call chains, each
 * function's own samples under the root. Nodes outlive nothing: their
 * names are the session's, so a flame graph lives as long as the session.
 */
enum bt_frame_kind {
	BT_FRAME_ROOT,
	BT_FRAME_PROGRAM,	/* the benchmark's own executable */
	BT_FRAME_LIBRARY,	/* a shared library (a .so, the vDSO) */
	BT_FRAME_KERNEL,
	BT_FRAME_JIT,		/* JIT code */
	BT_FRAME_INLINE,	/* a function inlined into its caller */
	BT_FRAME_UNKNOWN,	/* no known mapping */
};

#define BT_FRAME_NONE ((size_t)-1)

/**
 * struct bt_flame_frame - one node of a flame graph
 * @name: the function's whole name; @module: its module's path (NULL: root)
 * @func: its index in the selection (BT_FRAME_NONE: the root)
 * @samples: of the paths through this frame (inclusive); @self: ending here
 * @parent, @child, @next: the tree (children hottest first), BT_FRAME_NONE none
 * @depth: 0 for the root
 */
struct bt_flame_frame {
	const char *name, *module;
	size_t func;
	enum bt_frame_kind kind;
	uint64_t samples, self;
	size_t parent, child, next;
	unsigned depth;
};

struct bt_flame;
BT_API struct bt_flame *bt_flame_new(struct bt_selection *sel);
BT_API void bt_flame_free(struct bt_flame *f);
BT_API size_t bt_flame_nframes(const struct bt_flame *f);
BT_API const struct bt_flame_frame *bt_flame_frame(const struct bt_flame *f, size_t i);
/* The name of kind ("program", "library", "kernel", "jit", "inline", "unknown"). */
BT_API const char *bt_frame_kind_name(enum bt_frame_kind kind);
/* The frame under parent for func, BT_FRAME_NONE if none. */
BT_API size_t bt_flame_find(const struct bt_flame *f, size_t parent, size_t func);

#endif
