/*
 * V8's builtin entry tables, as JIT code on x86-64 calls through them:
 * "call *-0x38(%r13)". r13 is V8's root register (kRootRegister), which
 * points kRootRegisterBias (128) bytes into the isolate's IsolateData;
 * IsolateData holds two tables of builtin entry addresses, indexed by
 * builtin id: the tier-0 table (the first few builtins: deoptimization
 * entries, write barriers; near the start, one-byte displacements) and
 * the full table (every builtin). A displacement from r13 that falls in
 * one of them names one builtin (docs/jit.md "Calls through V8's builtin
 * table").
 *
 * Nothing of this is in a recording: the tables live in the process. What
 * benchtui reads instead, from node's own binary (its embedded builtins,
 * Builtins_X symbols), is
 *  - the builtin ids: the embedded builtins laid out in id order (V8 11.3
 *    does not reorder them), so the k-th Builtins_ symbol by address is
 *    builtin k;
 *  - the full table's displacement: the embedded builtins' own
 *    CallBuiltinByIndex calls, "call *0x49c8(%r13,%r8,8)", all with the
 *    table's displacement;
 *  - the tier-0 table's displacement and size: fixed by IsolateData's
 *    layout of the V8 version (read from node's Version::major_/minor_),
 *    only for the versions checked against a live process.
 * Verified on node 20.20.2 (V8 11.3.244.8) by reading the tables of a
 * running node (tests/test-jit-depth.sh, gdb).
 */
#ifndef BENCHTUI_V8BUILTINS_H
#define BENCHTUI_V8BUILTINS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* No displacement found. */
#define BT_V8_NO_DISP INT32_MIN

/*
 * The displacement of the full builtin entry table from r13, from the
 * embedded builtins' code [code, code + len): the displacement of every
 * "call *disp32(%r13,%reg,8)" (REX.B, ff /2, SIB base r13 scale 8), when
 * at least 3 are found and all but a tenth agree (bytes matched at
 * every offset: a stray match in data must not decide); else
 * BT_V8_NO_DISP. *hits, *agree: how many were found, how many agree.
 */
int32_t bt_v8_index_call_disp(const uint8_t *code, size_t len, size_t *hits,
			      size_t *agree);

/**
 * struct bt_v8_tier0 - where a V8 version keeps its tier-0 entry table
 * @major, @minor: the V8 version checked
 * @disp: the table's displacement from r13
 * @n: its entries (builtins 0 .. n-1)
 * @names: the names of those builtins, as node's symbols give them
 *	("Builtins_DeoptimizationEntry_Eager"): the layout holds only when
 *	the binary's first builtins are these
 */
struct bt_v8_tier0 {
	int major, minor;
	int32_t disp;
	unsigned n;
	const char *const *names;
};

/* The tier-0 layout of V8 major.minor, NULL when not checked. */
const struct bt_v8_tier0 *bt_v8_tier0_layout(int major, int minor);

/**
 * struct bt_v8_tables - what names a displacement from r13
 * @names, @n: the builtins by id (borrowed)
 * @full_disp: the full table's displacement (BT_V8_NO_DISP: none)
 * @tier0: the tier-0 table (NULL: none)
 */
struct bt_v8_tables {
	const char *const *names;
	size_t n;
	int32_t full_disp;
	const struct bt_v8_tier0 *tier0;
};

/*
 * The builtin whose entry slot is at disp from r13 in t, NULL when disp
 * is in neither table or between two slots.
 */
const char *bt_v8_slot_name(const struct bt_v8_tables *t, int64_t disp);

#endif
