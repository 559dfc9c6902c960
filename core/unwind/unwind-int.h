/*
 * The unwinder's insides, shared by space.c (a process's libdwfl session
 * and its memory), cfi.c (cached CFI rows) and unwind.c (the walk and the
 * splice).
 */
#ifndef BENCHTUI_UNWIND_INT_H
#define BENCHTUI_UNWIND_INT_H

#include <elfutils/libdwfl.h>
#include <string.h>

#include "base.h"
#include "unwind/unwind.h"

enum region_state { RS_REPORTED, RS_FAILED };

/*
 * A mapping of the machine that the Dwfl was told about (or failed to be:
 * no file, not the recorded build-id...), as the machine had it: from
 * t_start to t_end.
 */
struct region {
	uint64_t start, end, pgoff;
	uint64_t t_start, t_end;
	uint32_t module;
	enum region_state state;
	uint64_t bias;		/* load bias, once reported */
};

/*
 * What the CFI row at one pc says, when it is the plain kind almost all
 * compiled code has: CFA = rsp or rbp + offset, the return address saved
 * at CFA + ra_off, rbp unchanged, undefined or saved at CFA + bp_off, rsp
 * = CFA. Anything else (CFA expressions as in PLT stubs and realigned
 * frames, signal frames, registers restored from registers, no FDE, no
 * module) is RULE_LIBDW: that sample is unwound by libdwfl itself.
 */
enum rule_kind { RULE_EMPTY, RULE_PLAIN, RULE_OUTERMOST, RULE_LIBDW };
enum bp_how { BP_SAME, BP_UNDEFINED, BP_SAVED };

/*
 * @switches: pc is in a function that calls on another stack (Go's
 * runtime.systemstack, mcall, morestack, asmcgocall: they move rsp to
 * the g0 stack and call, with CFI that still describes the goroutine's
 * stack). A return address there ends the CFI unwind (BT_UNWIND_END_SWITCH):
 * its CFA, computed from the g0 stack, finds whatever that stack held.
 */
struct rule {
	uint64_t pc;
	uint8_t kind;
	uint8_t cfa_reg;	/* DWARF 6 (rbp) or 7 (rsp) */
	uint8_t bp;		/* enum bp_how */
	bool switches;
	int32_t cfa_off, ra_off, bp_off;
};

/*
 * A module of the Dwfl (its userdata is its index + 1 in the space's
 * mods): which of the machine's modules it is, at which load bias, and
 * whether it is a Go binary (cfi.c, once looked at).
 */
struct mod_info {
	uint32_t module;
	int8_t go;		/* -1: not looked at yet */
	uint64_t bias;
};

/*
 * The rows of every space of an unwinder, by file and file-relative pc:
 * what a row says depends on the file only (its CFI, its symbols), so a
 * process that runs a file another one ran (the 40 cc1 of a parallel
 * build) reads none of its rows through libdw again (open addressing).
 */
struct shared_rule {
	uint32_t module;	/* the machine's index */
	struct rule r;		/* r.pc: relative to the file's load bias */
};

struct bt_unwind_rows {
	struct shared_rule *v;
	size_t n, cap;
};

/* One memory read of the current unwind step. */
struct read {
	uint64_t addr, val;
	bool ok;
};

#define READ_LOG 64

struct bt_unwind_space {
	uint32_t pid;
	struct bt_machine *machine;	/* what is mapped where, when */
	const uint8_t *vdso;		/* the vDSO image, borrowed */
	size_t vdso_len;
	BT_VEC(struct region) regions;	/* sorted by start, disjoint */
	uint64_t gen;			/* the machine's, when they were checked */
	Dwfl *dwfl;
	bool attached;
	uint64_t time;			/* of the sample being unwound */

	/* the sample being unwound */
	const struct bt_unwind_regs *cur;
	uint64_t sp;
	struct read log[READ_LOG];
	size_t nlog;

	/* the CFI rows met so far, by lookup pc (open addressing) */
	struct rule *rules;
	size_t nrules, rules_cap;
	BT_VEC(struct mod_info) mods;	/* the Dwfl's modules, dropped with it */
	struct bt_unwind_rows *shared;	/* every space's rows, or NULL */
	unsigned flags;
	struct bt_unwind_stats stats;
};

/* space.c */
/* Rows to read from and add to (borrowed: they must outlive s); NULL: s's own only. */
void bt_unwind_space_share(struct bt_unwind_space *s, struct bt_unwind_rows *rows);
/* The mod_info of a module of s's Dwfl (NULL: not one space.c reported). */
struct mod_info *bt_space_mod_info(struct bt_unwind_space *s, Dwfl_Module *mod);
/*
 * A Dwfl for the sample r is (attached, every region it knows still the
 * machine's at r's time), with the module at ip reported. 0, or
 * -BT_ENODATA when no module could be (the ip alone then).
 */
int bt_space_ready(struct bt_unwind_space *s, const struct bt_unwind_regs *r,
		   uint64_t ip, struct bt_error *err);
/* Make sure the module at addr (at the current sample's time) is known to the Dwfl. */
void bt_space_module(struct bt_unwind_space *s, uint64_t addr);
/* Is addr in a mapping of a file (or the vDSO image) at the sample's time? */
bool bt_space_mapped(struct bt_unwind_space *s, uint64_t addr);
/* Memory of the current sample: its stack copy (read on every step, inline). */
static inline bool
bt_space_read_stack(const struct bt_unwind_space *s, uint64_t addr,
		    uint64_t *val)
{
	uint64_t off = addr - s->sp;

	if (addr < s->sp || off > s->cur->stack_size ||
	    s->cur->stack_size - off < sizeof(*val))
		return false;
	memcpy(val, s->cur->stack + off, sizeof(*val));
	return true;
}

/* The module files' bytes at addr (what is not on the stack). */
bool bt_space_read_module(struct bt_unwind_space *s, uint64_t addr,
			  uint64_t *val);

/* Memory: the stack copy, else the module files. */
static inline bool
bt_space_read(struct bt_unwind_space *s, uint64_t addr, uint64_t *val)
{
	return bt_space_read_stack(s, addr, val) || bt_space_read_module(s, addr, val);
}
/* Libdwfl's frame walk of the current sample (dwfl_getthread_frames). */
int bt_space_frames(struct bt_unwind_space *s, pid_t tid,
		    int (*cb)(Dwfl_Frame *state, void *arg), void *arg);

/* cfi.c */
/* Forget every row (the modules changed). */
void bt_cfi_clear(struct bt_unwind_space *s);
void bt_cfi_release(struct bt_unwind_space *s);
/* The rows all of an unwinder's spaces share (unwinder.c). */
void bt_unwind_rows_clear(struct bt_unwind_rows *rows);
void bt_unwind_rows_release(struct bt_unwind_rows *rows);
struct walk;
/*
 * Unwind as libdwfl would, with the cached rows. Returns false when a
 * frame needs libdwfl (the walk must then be redone by it).
 */
bool bt_cfi_walk(struct bt_unwind_space *s, struct walk *w, uint64_t ip,
		 uint64_t sp, uint64_t *pending, enum bt_unwind_end *end);
/* Is the code at pc (a return address minus one) in a rule.switches function? */
bool bt_cfi_switches(struct bt_unwind_space *s, uint64_t pc);

/* One walk: the frames of one sample and the slots their pcs came from. */
struct walk {
	struct bt_unwind_space *s;
	uint64_t *ips;
	uint64_t *slots;	/* slots[i]: address ips[i] was read from, 0 unknown */
	size_t n, max;
	bool full;
	bool switched;		/* ended at a stack switch (libdwfl's walk) */
};

#endif
