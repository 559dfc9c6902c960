/*
 * Shared by the JIT readers (jitdump.c, perfmap.c): opening a file that a
 * runtime wrote, safely, and the address index both lookups use.
 */
#ifndef BENCHTUI_JIT_INT_H
#define BENCHTUI_JIT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bt_error;

/**
 * struct bt_jit_file - a file's bytes, mapped read-only
 * @data, @size: the bytes present when it was opened (data NULL when empty)
 */
struct bt_jit_file {
	const uint8_t *data;
	size_t size;
};

/*
 * Map path for reading. Refuses anything but a regular file (checked
 * before opening, so a FIFO or a device is never opened, and again on the
 * opened descriptor); opens with O_NONBLOCK|O_NOCTTY. what names the kind
 * of file in messages ("jitdump"). 0 or -BT_E* with err set.
 */
int bt_jit_file_map(struct bt_jit_file *f, const char *path, const char *what,
		    struct bt_error *err);
void bt_jit_file_release(struct bt_jit_file *f);

/**
 * struct bt_jit_span - code at [start, end) from time (order) on
 * @seq: tie-break among equal times (position in the file)
 * @idx: the caller's index of the thing placed there
 */
struct bt_jit_span {
	uint64_t start, end;
	uint64_t time;
	size_t seq;
	size_t idx;
};

/* An address index: spans sorted by start, and the longest span. */
struct bt_jit_spans {
	struct bt_jit_span *v;
	size_t n, alloc;
	uint64_t maxlen;
};

void bt_jit_spans_add(struct bt_jit_spans *s, uint64_t start, uint64_t end,
		      uint64_t time, size_t seq, size_t idx);
/* Sort once, after the last add and before the first find. */
void bt_jit_spans_sort(struct bt_jit_spans *s);
/*
 * Of the spans that cover addr, the latest at or before time, else the
 * earliest after it; NULL when none covers addr. Cost: a binary search,
 * then a walk back over the spans that start within maxlen below addr.
 */
const struct bt_jit_span *bt_jit_spans_find(const struct bt_jit_spans *s,
					    uint64_t addr, uint64_t time);
void bt_jit_spans_release(struct bt_jit_spans *s);

#endif
