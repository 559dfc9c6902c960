/*
 * The cached CFI rows (unwind-int.h): libdwfl's frame walk costs 0.5-0.8 µs
 * a frame (it runs the FDE's CFA program again and allocates per frame),
 * so each distinct pc's row is read once through libdw and, when it is
 * the plain kind, evaluated here; a sample with any other kind of row
 * goes to libdwfl's walk (docs/callchains.md "Cached rows").
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <string.h>

#include "unwind/unwind-int.h"

void
bt_cfi_clear(struct bt_unwind_space *s)
{
	if (s->nrules)
		memset(s->rules, 0, s->rules_cap * sizeof(*s->rules));
	s->nrules = 0;
}

void
bt_cfi_release(struct bt_unwind_space *s)
{
	FREE_AND_NULL(s->rules);
	s->nrules = s->rules_cap = 0;
}

void
bt_unwind_rows_clear(struct bt_unwind_rows *rows)
{
	if (rows->n)
		memset(rows->v, 0, rows->cap * sizeof(*rows->v));
	rows->n = 0;
}

void
bt_unwind_rows_release(struct bt_unwind_rows *rows)
{
	FREE_AND_NULL(rows->v);
	rows->n = rows->cap = 0;
}

/* Is mod a Go binary (a .gopclntab or .note.go.buildid section)? Once per module. */
static bool
go_module(struct bt_unwind_space *s, Dwfl_Module *mod)
{
	struct mod_info *mi = bt_space_mod_info(s, mod);
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Dwarf_Addr bias;
	size_t shstrndx;
	bool go = false;
	Elf *elf;

	if (mi != NULL && mi->go >= 0)
		return mi->go;
	elf = dwfl_module_getelf(mod, &bias);
	if (elf != NULL && elf_getshdrstrndx(elf, &shstrndx) == 0)
		while (!go && (scn = elf_nextscn(elf, scn)) != NULL) {
			const char *name;

			if (gelf_getshdr(scn, &sh) == NULL)
				continue;
			name = elf_strptr(elf, shstrndx, sh.sh_name);
			go = name != NULL && (strcmp(name, ".gopclntab") == 0 ||
			    strcmp(name, ".note.go.buildid") == 0);
		}
	if (mi != NULL)
		mi->go = go;
	return go;
}

/*
 * Go's functions that call on the g0 stack (asm_amd64.s, and the vDSO
 * calls of sys_linux_amd64.s): each loads g0's rsp and calls, leaving rbp
 * at a frame of the goroutine's stack (so that the kernel's frame-pointer
 * walk goes on there) while its CFI still describes rsp as it was.
 * Assembly functions are ABI0 ("runtime.systemstack.abi0" since Go 1.17).
 */
static bool
go_switches(Dwfl_Module *mod, uint64_t pc)
{
	static const char *const names[] = {
		"runtime.systemstack", "runtime.mcall", "runtime.morestack",
		"runtime.asmcgocall", "runtime.asmcgocall_no_g",
		"runtime.cgocallback", "runtime.racecall",
		"runtime.nanotime1", "runtime.walltime", "runtime.walltime1",
		"runtime.vgetrandom1", "time.now",
	};
	const char *name = dwfl_module_addrname(mod, pc);
	size_t i, n;

	if (name == NULL)
		return false;
	n = strlen(name);
	if (n > 5 && strcmp(name + n - 5, ".abi0") == 0)
		n -= 5;
	for (i = 0; i < BT_ARRAY_SIZE(names); i++)
		if (strlen(names[i]) == n && strncmp(name, names[i], n) == 0)
			return true;
	return false;
}

static struct rule *
rule_slot(struct bt_unwind_space *s, uint64_t pc)
{
	size_t mask = s->rules_cap - 1, i = (size_t)bt_hash64(pc) & mask;

	while (s->rules[i].kind != RULE_EMPTY && s->rules[i].pc != pc)
		i = (i + 1) & mask;
	return &s->rules[i];
}

static void
grow_rules(struct bt_unwind_space *s)
{
	struct rule *old = s->rules;
	size_t i, n = s->rules_cap;

	s->rules_cap = n ? n * 2 : 1024;
	s->rules = bt_xcalloc(s->rules_cap, sizeof(*s->rules));
	for (i = 0; i < n; i++)
		if (old[i].kind != RULE_EMPTY)
			*rule_slot(s, old[i].pc) = old[i];
	free(old);
}

/* "CFA + off" as libdw spells an offset(N) rule, with or without the deref. */
static bool
cfa_plus(const Dwarf_Op *ops, size_t nops, bool value, int32_t *off)
{
	size_t want = 1;
	int64_t v = 0;

	if (nops < 1 || ops[0].atom != DW_OP_call_frame_cfa)
		return false;
	if (nops > want && ops[want].atom == DW_OP_plus_uconst) {
		v = (int64_t)ops[want].number;
		want++;
	}
	if (value) {
		if (nops != want + 1 || ops[want].atom != DW_OP_stack_value)
			return false;
	} else if (nops != want)
		return false;
	if (v < INT32_MIN || v > INT32_MAX)
		return false;
	*off = (int32_t)v;
	return true;
}

/* The shared row of module's file-relative pc, or where it would go. */
static struct shared_rule *
shared_slot(struct bt_unwind_rows *rows, uint32_t module, uint64_t rel)
{
	size_t mask = rows->cap - 1;
	size_t i = (size_t)bt_hash64(rel ^ ((uint64_t)module << 44)) & mask;

	while (rows->v[i].r.kind != RULE_EMPTY &&
	    (rows->v[i].r.pc != rel || rows->v[i].module != module))
		i = (i + 1) & mask;
	return &rows->v[i];
}

static void
grow_shared(struct bt_unwind_rows *rows)
{
	struct shared_rule *old = rows->v;
	size_t i, n = rows->cap;

	rows->cap = n ? n * 2 : 4096;
	rows->v = bt_xcalloc(rows->cap, sizeof(*rows->v));
	for (i = 0; i < n; i++)
		if (old[i].r.kind != RULE_EMPTY)
			*shared_slot(rows, old[i].module, old[i].r.pc) = old[i];
	free(old);
}

/* Read mod's row at pc (libdwfl's order: .eh_frame, then .debug_frame). */
static void
read_rule(struct bt_unwind_space *s, Dwfl_Module *mod, uint64_t pc,
	  struct rule *ru)
{
	Dwarf_CFI *cfi;
	Dwarf_Frame *frame = NULL;
	Dwarf_Addr bias;
	Dwarf_Op ops_mem[3], *ops;
	size_t nops;
	bool signal;
	int32_t off;
	int pass;

	ru->switches = go_module(s, mod) && go_switches(mod, pc);
	for (pass = 0; pass < 2 && frame == NULL; pass++) {
		cfi = pass == 0 ? dwfl_module_eh_cfi(mod, &bias) :
		    dwfl_module_dwarf_cfi(mod, &bias);
		if (cfi != NULL && dwarf_cfi_addrframe(cfi, pc - bias, &frame) != 0)
			frame = NULL;
	}
	if (frame == NULL)
		return;
	if (dwarf_frame_info(frame, NULL, NULL, &signal) != 16 || signal)
		goto out;
	/* the return address: undefined (outermost) or saved at CFA + off */
	if (dwarf_frame_register(frame, 16, ops_mem, &ops, &nops) != 0)
		goto out;
	if (nops == 0 && ops == ops_mem) {
		ru->kind = RULE_OUTERMOST;
		goto out;
	}
	if (!cfa_plus(ops, nops, false, &ru->ra_off))
		goto out;
	/* CFA = rsp or rbp + offset */
	if (dwarf_frame_cfa(frame, &ops, &nops) != 0 || nops != 1 ||
	    ops[0].atom != DW_OP_bregx || (ops[0].number != 6 && ops[0].number != 7) ||
	    (int64_t)ops[0].number2 < INT32_MIN || (int64_t)ops[0].number2 > INT32_MAX)
		goto out;
	ru->cfa_reg = (uint8_t)ops[0].number;
	ru->cfa_off = (int32_t)ops[0].number2;
	/* rsp = CFA */
	if (dwarf_frame_register(frame, 7, ops_mem, &ops, &nops) != 0 ||
	    !cfa_plus(ops, nops, true, &off) || off != 0)
		goto out;
	/* rbp */
	if (dwarf_frame_register(frame, 6, ops_mem, &ops, &nops) != 0)
		goto out;
	if (nops == 0)
		ru->bp = ops == NULL ? BP_SAME : BP_UNDEFINED;
	else if (cfa_plus(ops, nops, false, &ru->bp_off))
		ru->bp = BP_SAVED;
	else
		goto out;
	ru->kind = RULE_PLAIN;
out:
	free(frame);
}

/*
 * The row at pc: another process's of the same file, else read; false
 * when no module holds pc (nothing to keep: a module may come).
 */
static bool
make_rule(struct bt_unwind_space *s, uint64_t pc, struct rule *ru)
{
	struct shared_rule *sr = NULL;
	struct mod_info *mi;
	Dwfl_Module *mod;
	uint64_t rel = 0;
	uint32_t module = 0;

	ru->pc = pc;
	ru->kind = RULE_LIBDW;
	ru->switches = false;
	bt_space_module(s, pc);
	mod = dwfl_addrmodule(s->dwfl, pc);
	if (mod == NULL)
		return false;
	mi = bt_space_mod_info(s, mod);
	if (s->shared != NULL && mi != NULL) {
		struct bt_unwind_rows *rows = s->shared;

		module = mi->module;
		rel = pc - mi->bias;
		if (rows->n * 2 >= rows->cap)
			grow_shared(rows);
		sr = shared_slot(rows, module, rel);
		if (sr->r.kind != RULE_EMPTY) {
			*ru = sr->r;
			ru->pc = pc;
			s->stats.shared++;
			return true;
		}
	}
	read_rule(s, mod, pc, ru);
	if (sr != NULL) {
		sr->module = module;
		sr->r = *ru;
		sr->r.pc = rel;
		s->shared->n++;
	}
	return true;
}

static const struct rule *
get_rule(struct bt_unwind_space *s, uint64_t pc, struct rule *none)
{
	struct rule *ru;

	if (s->nrules * 2 >= s->rules_cap)
		grow_rules(s);
	ru = rule_slot(s, pc);
	if (ru->kind == RULE_EMPTY) {
		if (!make_rule(s, pc, ru)) {
			*none = *ru;
			ru->kind = RULE_EMPTY;
			return none;
		}
		s->nrules++;
		s->stats.rules++;
	}
	return ru;
}

bool
bt_cfi_walk(struct bt_unwind_space *s, struct walk *w, uint64_t ip, uint64_t sp,
	    uint64_t *pending, enum bt_unwind_end *end)
{
	uint64_t pc = ip, slot = 0, bp = 0, cfa, ra;
	bool have_bp = bt_unwind_reg(s->cur, BT_REG_BP, &bp);
	struct rule none;

	for (;;) {
		const struct rule *ru;

		if (w->n >= w->max) {
			*end = BT_UNWIND_END_FRAMES;
			return true;
		}
		w->ips[w->n] = pc;
		w->slots[w->n] = slot;
		w->n++;
		ru = get_rule(s, w->n > 1 ? pc - 1 : pc, &none);
		if (ru->switches) {
			*end = BT_UNWIND_END_SWITCH;
			return true;
		}
		if (ru->kind == RULE_OUTERMOST) {
			*end = BT_UNWIND_END_OUTERMOST;
			return true;
		}
		if (ru->kind != RULE_PLAIN || (ru->cfa_reg == 6 && !have_bp))
			return false;
		cfa = (ru->cfa_reg == 7 ? sp : bp) + (uint64_t)(int64_t)ru->cfa_off;
		slot = cfa + (uint64_t)(int64_t)ru->ra_off;
		if (ru->bp == BP_UNDEFINED)
			have_bp = false;
		else if (ru->bp == BP_SAVED)
			have_bp = bt_space_read(s, cfa + (uint64_t)(int64_t)ru->bp_off, &bp);
		if (!bt_space_read(s, slot, &ra)) {
			if (slot >= s->sp)
				*pending = slot;
			*end = *pending ? BT_UNWIND_END_STACK : BT_UNWIND_END_OUTERMOST;
			return true;
		}
		if (ra == 0) {
			*end = BT_UNWIND_END_OUTERMOST;
			return true;
		}
		pc = ra;
		sp = cfa;
	}
}


bool
bt_cfi_switches(struct bt_unwind_space *s, uint64_t pc)
{
	struct rule none;

	if (s->nrules * 2 >= s->rules_cap)
		grow_rules(s);
	return get_rule(s, pc, &none)->switches;
}
