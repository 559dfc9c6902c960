/*
 * The empty-loop check (docs/lint.md): a hot natural loop that does
 * nothing but count, in the harness's counter (a register or a memory
 * slot) and, in JIT code, the JIT's guards; an instruction on the
 * benchmark body's source line is work.
 */
#include <string.h>

#include "annotate/annotate.h"
#include "benchtui/bench.h"
#include "benchtui/lint.h"
#include "lint/lint-int.h"
#include "session/query.h"
#include "symbols/symbols.h"

#define EMPTY_LOOP_MIN 20.0	/* percent of the window: a loop this hot that does nothing */
#define EMPTY_LOOP_MAX_INSNS 8
#define EMPTY_JIT_LOOP_MAX_INSNS 24	/* with a JIT's guards and stack check */

#define add lint_add

#define REG_CHARS "abcdefghijklmnopqrstuvwxyz0123456789"

/*
 * x86 general registers by family: the index of the 64-bit register whose
 * part name is (AT&T, without the %), or -1.
 */
static int
reg_family(const char *name, size_t n)
{
	static const char *const fam[16][4] = {
		{ "rax", "eax", "ax", "al" }, { "rcx", "ecx", "cx", "cl" },
		{ "rdx", "edx", "dx", "dl" }, { "rbx", "ebx", "bx", "bl" },
		{ "rsp", "esp", "sp", "spl" }, { "rbp", "ebp", "bp", "bpl" },
		{ "rsi", "esi", "si", "sil" }, { "rdi", "edi", "di", "dil" },
		{ "r8", "r8d", "r8w", "r8b" }, { "r9", "r9d", "r9w", "r9b" },
		{ "r10", "r10d", "r10w", "r10b" }, { "r11", "r11d", "r11w", "r11b" },
		{ "r12", "r12d", "r12w", "r12b" }, { "r13", "r13d", "r13w", "r13b" },
		{ "r14", "r14d", "r14w", "r14b" }, { "r15", "r15d", "r15w", "r15b" },
	};
	int f, k;

	for (f = 0; f < 16; f++)
		for (k = 0; k < 4; k++)
			if (strlen(fam[f][k]) == n && strncmp(name, fam[f][k], n) == 0)
				return f;
	return -1;
}

/* The register family an AT&T instruction writes (its last operand, a register), or -1. */
static int
written_family(const struct bt_insn *in)
{
	const char *last = strrchr(in->text, ',');
	const char *r;

	if (in->kind != BT_INSN_OTHER)
		return -1;
	last = last ? last + 1 : strchr(in->text, ' ');
	if (last == NULL)
		return -1;
	while (*last == ' ')
		last++;
	if (*last != '%')
		return -1;
	for (r = last + 1; *r && *r != ' ' && *r != ','; r++)
		;
	return reg_family(last + 1, (size_t)(r - last - 1));
}

/*
 * A compare that reads a loop bound from memory: cmp or test whose memory
 * operand is base + displacement, no index, with a base register the loop
 * does not write (Go compares its counter with b.N, a field of b, on every
 * iteration: cmp %rcx, 0x190(%rax)). That is still only counting.
 */
static bool
bound_compare(const struct bt_insn *in, const uint32_t written)
{
	const char *open = strchr(in->text, '('), *close;
	int f;

	if ((strncmp(in->mnemonic, "cmp", 3) != 0 && strncmp(in->mnemonic, "test", 4) != 0) ||
	    (in->flags & (BT_INSN_F_MEM_WRITE | BT_INSN_F_LOCK)) || open == NULL ||
	    open[1] != '%' || (close = strchr(open, ')')) == NULL ||
	    memchr(open, ',', (size_t)(close - open)) != NULL)
		return false;
	f = reg_family(open + 2, (size_t)(close - open - 2));
	return f >= 0 && !(written & (1u << f));
}

/*
 * add/sub/lea step a counter only by a constant: "add $1,%rax",
 * "lea 0x1(%rdx),%edx". Two registers combined ("add %edx,%eax",
 * "lea (%rax,%rax,2),%eax": acc = acc * 3 + i) is arithmetic, the work
 * itself. AT&T text only; other syntaxes and architectures pass.
 */
static bool
counter_step(const struct bt_insn *in)
{
	const char *ops = strchr(in->text, ' ');

	if (ops == NULL)
		return true;
	while (*ops == ' ')
		ops++;
	if (strcmp(in->mnemonic, "add") == 0 || strcmp(in->mnemonic, "sub") == 0)
		return ops[0] != '%' || strchr(ops, ',') == NULL;
	if (strcmp(in->mnemonic, "lea") == 0) {
		const char *open = strchr(ops, '(');
		const char *close = open ? strchr(open, ')') : NULL;
		return open == NULL || close == NULL ||
		    memchr(open, ',', (size_t)(close - open)) == NULL;
	}
	return true;
}

/*
 * The registers a loop tests to decide whether to go round again: the
 * operands of its cmp and test, and what a flag-setting step right before
 * a conditional branch writes ("sub $1,%rdx; jne"). Its counters.
 */
static uint32_t
control_families(const struct bt_annotation *a, size_t li)
{
	const struct bt_loop *l = &a->loops.v[li];
	uint32_t ctl = 0;
	size_t k;

	for (k = l->head; k <= l->tail; k++) {
		const struct bt_insn *in = &a->insns.v[k].in;
		const char *p;
		int f;

		if (!bt_annotation_in_loop(a, k, li))
			continue;
		if (strncmp(in->mnemonic, "cmp", 3) == 0 || strncmp(in->mnemonic, "test", 4) == 0) {
			int depth = 0;

			/* register operands, not the base or index of a memory one */
			for (p = in->text; *p; p++) {
				depth += (*p == '(') - (*p == ')');
				if (*p != '%' || depth > 0)
					continue;
				f = reg_family(p + 1, strspn(p + 1, REG_CHARS));
				if (f >= 0)
					ctl |= 1u << f;
			}
		} else if (k + 1 <= l->tail && a->insns.v[k + 1].in.kind == BT_INSN_CJUMP &&
		    (f = written_family(in)) >= 0) {
			ctl |= 1u << f;
		}
	}
	return ctl;
}

/*
 * A counter kept in memory: a plain mov between one of the loop's counter
 * registers and a fixed slot (base plus displacement, a base the loop does
 * not write). Google Benchmark's while (state.KeepRunning()) stores its
 * count and loads it back on every iteration:
 * "sub $1,%rax; mov %rax,(%rdi); mov (%rdi),%rax; test %rax,%rax; jg".
 */
static bool
counter_slot(const struct bt_insn *in, uint32_t written, uint32_t control)
{
	const char *ops = strchr(in->text, ' '), *open, *close, *reg;
	int f, b;

	if (ops == NULL || (in->flags & BT_INSN_F_LOCK) ||
	    (strcmp(in->mnemonic, "mov") != 0 && strcmp(in->mnemonic, "movq") != 0 &&
	     strcmp(in->mnemonic, "movl") != 0))
		return false;
	while (*ops == ' ')
		ops++;
	if ((open = strchr(ops, '(')) == NULL || open[1] != '%' ||
	    (close = strchr(open, ')')) == NULL || memchr(open, ',', (size_t)(close - open)))
		return false;
	b = reg_family(open + 2, (size_t)(close - open - 2));
	if (b < 0 || (written & (1u << b)))
		return false;
	/* the other operand: a register before the slot, or after it */
	if (ops[0] == '%')
		reg = ops + 1;
	else if (close[1] == ',' && close[2] == '%')
		reg = close + 3;
	else
		return false;
	f = reg_family(reg, strspn(reg, REG_CHARS));
	return f >= 0 && (control & (1u << f));
}

/*
 * The registers of an AT&T memory operand ("0x7(%r9)", "(%rax,%rcx,8)"),
 * or 0 with none; -1 when one is not a general register (%rip).
 */
static long
address_families(const struct bt_insn *in)
{
	const char *open = strchr(in->text, '('), *close, *p;
	long fams = 0;
	int f;

	if (open == NULL || (close = strchr(open, ')')) == NULL)
		return 0;
	for (p = open; p < close; p++) {
		if (*p != '%')
			continue;
		f = reg_family(p + 1, strspn(p + 1, REG_CHARS));
		if (f < 0)
			return -1;
		fams |= 1L << f;
	}
	return fams;
}

/*
 * A register load whose value is the same on every iteration: a constant
 * ("movabs $0x82b22ff95c9,%r9") or a load from an address made of
 * registers that hold such values (the "mov 0x7(%r9),%r9" that follows).
 */
static bool
invariant_def(const struct bt_insn *in, uint32_t variant)
{
	const char *ops = strchr(in->text, ' ');
	long fams;

	if (ops == NULL || in->kind != BT_INSN_OTHER ||
	    (in->flags & (BT_INSN_F_MEM_WRITE | BT_INSN_F_LOCK)) ||
	    (strcmp(in->mnemonic, "mov") != 0 && strcmp(in->mnemonic, "movabs") != 0 &&
	     strcmp(in->mnemonic, "movq") != 0 && strcmp(in->mnemonic, "movl") != 0) ||
	    written_family(in) < 0)
		return false;
	while (*ops == ' ')
		ops++;
	if (ops[0] == '$')
		return true;
	if (!(in->flags & BT_INSN_F_MEM_READ))
		return false;
	fams = address_families(in);
	return fams > 0 && !(fams & (long)variant);
}

/*
 * JIT code checks on every iteration that what it inlined is still what
 * it assumed (V8 loads a closure's or a map's address and compares it,
 * and compares the stack pointer with its limit): loads and compares of
 * loop-invariant values, branching out to a deoptimization. The
 * registers that vary after instruction in, given those that vary before
 * it: an invariant load makes its register invariant until the next
 * write ("p = p->next" never is: its address varies).
 */
static uint32_t
variant_after(const struct bt_insn *in, uint32_t variant)
{
	int f = written_family(in);

	if (f < 0)
		return variant;
	if (invariant_def(in, variant))
		return variant & ~(1u << f);
	return variant | (1u << f);
}

/*
 * An instruction that only counts: add/sub/inc/dec/cmp/test/lea on
 * registers, nops, branches, a counter's slot in memory. Mnemonics are
 * objdump's (nopw, nopl, the xchg of 66 90); a suffixed addl or cmpq has a
 * memory operand, which the flags already refuse unless it is a loop bound
 * (bound_compare).
 */
static bool
counting_only(const struct bt_insn *in, uint32_t written, uint32_t control,
	      bool jit)
{
	static const char *const ok[] = { "add", "sub", "inc", "dec", "cmp",
		"test", "lea", "nop", "nopw", "nopl", "endbr64", "xchg" };
	size_t i;

	if (in->flags & BT_INSN_F_NOP)
		return true;
	if (jit && invariant_def(in, written))
		return true;	/* a JIT's guard: what it compares (written: what varies) */
	if (in->flags & BT_INSN_F_MEM_READ && bound_compare(in, written))
		return true;
	if (in->flags & (BT_INSN_F_MEM_READ | BT_INSN_F_MEM_WRITE))
		return counter_slot(in, written, control);
	if (in->flags & BT_INSN_F_LOCK)
		return false;
	if (in->kind == BT_INSN_JUMP || in->kind == BT_INSN_CJUMP)
		return true;
	if (in->kind != BT_INSN_OTHER)
		return false;
	if (!counter_step(in))
		return false;
	for (i = 0; i < BT_ARRAY_SIZE(ok); i++)
		if (strcmp(in->mnemonic, ok[i]) == 0)
			return true;
	/* capstone (aarch64): add, sub, subs, cmp, b.cond */
	return strcmp(in->mnemonic, "subs") == 0 || strcmp(in->mnemonic, "adds") == 0 ||
	    strcmp(in->mnemonic, "cmn") == 0 || strncmp(in->mnemonic, "b.", 2) == 0 ||
	    strcmp(in->mnemonic, "cbnz") == 0 || strcmp(in->mnemonic, "cbz") == 0;
}


/*
 * A harness's own source: a header the system installed, Google
 * Benchmark's, Rust's library or a crate's, Go's standard library.
 */
static bool
harness_source(const char *file)
{
	const char *base = strrchr(file, '/');

	base = base ? base + 1 : file;
	return lint_system_path(file) || strcmp(base, "benchmark.h") == 0 ||
	    strstr(file, "/include/benchmark/") != NULL ||
	    strstr(file, "/.cargo/registry/") != NULL || strstr(file, "/rustlib/") != NULL ||
	    strncmp(file, "/usr/local/go/", 14) == 0;	/* Go's own tarball install */
}

/*
 * Is instruction k of loop li the benchmark body's work? Its source line
 * is the user's (not the harness's header), and not the line that
 * controls the loop (its compare and branch: "for (i = 0; i < n; i++)").
 * data += 1 kept in a register is an add like a counter's: the line
 * table tells them apart.
 */
static bool
body_work(const struct bt_annotation *a, size_t li, size_t k)
{
	const struct bt_loop *l = &a->loops.v[li];
	const struct bt_ainsn *x = &a->insns.v[k];
	size_t j;

	if (x->file == NULL || x->line == 0 || (x->in.flags & BT_INSN_F_NOP) ||
	    x->in.kind == BT_INSN_JUMP || x->in.kind == BT_INSN_CJUMP ||
	    harness_source(x->file))
		return false;
	for (j = l->head; j <= l->tail; j++) {
		const struct bt_ainsn *c = &a->insns.v[j];
		if (!bt_annotation_in_loop(a, j, li) ||
		    (c->in.kind != BT_INSN_CJUMP && strncmp(c->in.mnemonic, "cmp", 3) != 0 &&
		     strncmp(c->in.mnemonic, "test", 4) != 0))
			continue;
		if (c->line == x->line && c->file != NULL && strcmp(c->file, x->file) == 0)
			return false;	/* the loop's own control line */
	}
	return true;
}

/*
 * Does loop li of function fi hold the benchmark body's work by the line
 * table? Only asked of a loop that looks empty: the annotation with lines
 * (the DWARF of its module, read for this) replaces *a, which has none.
 */
static bool
body_has_work(struct bt_selection *sel, size_t fi, struct bt_annotation **a, size_t li)
{
	struct bt_annotation *la;
	const struct bt_loop *l;
	size_t k;

	if (!(*a)->has_lines) {
		la = bt_selection_annotation(sel, fi, BT_ASM_ATT, NULL);
		if (la == NULL || la->loops.n != (*a)->loops.n)
			return false;
		*a = la;
	}
	if (!(*a)->has_lines)
		return false;
	l = &(*a)->loops.v[li];
	for (k = l->head; k <= l->tail; k++)
		if (bt_annotation_in_loop(*a, k, li) && body_work(*a, li, k))
			return true;
	return false;
}

/*
 * The part of JIT loop li that runs: from its first to its last
 * instruction with samples (raw, or half a sample or more skid-adjusted:
 * the jump back from a slow path shares a sliver of the loop head's) in address order, into
 * *lo and *hi; returns how many of the loop's instructions it holds. What
 * lies outside, never sampled, is the JIT's out-of-line slow paths (V8
 * calls its interrupt and stack guards from blocks placed after the
 * function's body, which jump back into the loop).
 */
static size_t
hot_span(const struct bt_annotation *a, size_t li, size_t *lo, size_t *hi)
{
	const struct bt_loop *l = &a->loops.v[li];
	size_t k, n = 0;
	bool seen = false;

	for (k = l->head; k <= l->tail; k++) {
		const struct bt_ainsn *x = &a->insns.v[k];
		/* a slow path the skid model gave a sliver of a head's sample does not run */
		if (!bt_annotation_in_loop(a, k, li) || (x->samples == 0 && x->adjusted < 0.5))
			continue;
		if (!seen)
			*lo = k;
		*hi = k;
		seen = true;
	}
	for (k = *lo; seen && k <= *hi; k++)
		n += bt_annotation_in_loop(a, k, li);
	return seen ? n : l->ninsns;
}

void
lint_empty_loops(struct bt_selection *sel)
{
	size_t fi, li, k;

	for (fi = 0; fi < bt_selection_nfuncs(sel); fi++) {
		const struct bt_func *f = bt_selection_func(sel, fi);
		struct bt_annotation *a;

		if (f->percent < EMPTY_LOOP_MIN)
			break;	/* the table is hottest first */
		if (!f->can_annotate || (a = bt_selection_code(sel, fi)) == NULL)
			continue;
		for (li = 0; li < a->loops.n; li++) {
			const struct bt_loop *l = &a->loops.v[li];
			size_t real = 0;
			bool empty = true, jit = bt_lint_is_jit(sel, fi);
			double share = lint_pct(sel, l->adjusted > (double)l->samples ?
			    l->adjusted : (double)l->samples);
			uint32_t written = 0, control, variant;
			const char *what;

			size_t lo = l->head, hi = l->tail, n = l->ninsns;

			if (jit)
				n = hot_span(a, li, &lo, &hi);
			if (share < EMPTY_LOOP_MIN ||
			    n > (jit ? EMPTY_JIT_LOOP_MAX_INSNS : EMPTY_LOOP_MAX_INSNS))
				continue;
			for (k = lo; k <= hi; k++) {
				int fam = written_family(&a->insns.v[k].in);
				if (fam >= 0 && bt_annotation_in_loop(a, k, li))
					written |= 1u << fam;
			}
			control = control_families(a, li);
			variant = written;
			for (k = lo; k <= hi && empty; k++) {
				const struct bt_insn *in = &a->insns.v[k].in;
				if (!bt_annotation_in_loop(a, k, li))
					continue;
				empty = counting_only(in, jit ? variant : written, control, jit);
				if (jit)
					variant = variant_after(in, variant);
				real += !(in->flags & BT_INSN_F_NOP);
			}
			if (!empty || body_has_work(sel, fi, &a, li))
				continue;
			l = &a->loops.v[li];
			what = jit ? "only counts and checks what the JIT assumed (no call, "
			    "no store, no arithmetic besides the counter; its loads and compares "
			    "are of values the loop does not change)" : "only counts (no call, "
			    "no load, no store, no arithmetic besides the counter)";
			if (lint_bench_loop(sel, fi, share, real, a->insns.v[l->head].in.addr, what))
				break;	/* the benchmark's own loop, said with its numbers */
			add(sel, "empty-loop", (long)fi, share,
			    "%.1f%% of the samples are in a loop of %zu instructions at 0x%llx "
			    "that %s: the work the benchmark means to measure was optimized "
			    "away. %s",
			    share, real, (unsigned long long)a->insns.v[l->head].in.addr, what,
			    lint_keep_advice(sel));
			break;
		}
	}
}
