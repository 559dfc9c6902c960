/*
 * A small streaming JSON writer (cf. git's json-writer.c): callers name
 * members and values; the writer owns the commas, the nesting, the
 * escaping (a byte that starts no valid UTF-8 sequence, RFC 3629, becomes
 * U+FFFD, so the output is always valid UTF-8) and the layout, which is
 * chosen per container so that the output reads well in a diff:
 *   BT_JW_COMPACT  [1, 2]            {"a": 1}      (empty: [])
 *   BT_JW_SPACED   [ 1, 2 ]          { "a": 1 }    (empty: [])
 *   BT_JW_LINES    one member per line at the container's indent,
 *                  closed by " ]" (empty: [ ])
 * bt_jw_break() puts the next member of a spaced container on a new line.
 */
#ifndef BENCHTUI_JSON_WRITER_H
#define BENCHTUI_JSON_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum bt_jw_style { BT_JW_COMPACT, BT_JW_SPACED, BT_JW_LINES };

#define BT_JW_DEPTH 16

struct bt_jw_level {
	bool array, first;
	enum bt_jw_style style;
	int indent;
};

struct bt_jw {
	FILE *out;
	int depth;
	int brk;	/* the next member breaks the line at this indent, -1 none */
	struct bt_jw_level st[BT_JW_DEPTH];
};

void bt_jw_init(struct bt_jw *w, FILE *out);
/* Open an object or array as a member key (NULL in an array or at the top). */
void bt_jw_object(struct bt_jw *w, const char *key, enum bt_jw_style style, int indent);
void bt_jw_array(struct bt_jw *w, const char *key, enum bt_jw_style style, int indent);
void bt_jw_end(struct bt_jw *w);
/* The next member starts a new line, indented. */
void bt_jw_break(struct bt_jw *w, int indent);

void bt_jw_str(struct bt_jw *w, const char *key, const char *s);
void bt_jw_u64(struct bt_jw *w, const char *key, uint64_t v);
void bt_jw_int(struct bt_jw *w, const char *key, long long v);
/*
 * An integer when the number is one (and under 1e15 in magnitude), else
 * two decimals; not finite or beyond ±1e300: 0.
 */
void bt_jw_num(struct bt_jw *w, const char *key, double d);
/*
 * A number with all its digits (%.17g: what a harness printed, not
 * rounded); not finite or beyond ±1e300: null.
 */
void bt_jw_exact(struct bt_jw *w, const char *key, double d);
void bt_jw_bool(struct bt_jw *w, const char *key, bool b);
/* An address as a string: "0x11a0". */
void bt_jw_hex(struct bt_jw *w, const char *key, uint64_t v);

#endif
