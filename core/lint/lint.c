/*
 * Benchmark lint (DESIGN.md §4, docs/lint.md): each check looks at the
 * profile of the current event and window and either finds something it
 * is sure of, or says nothing. No false alarm on a healthy benchmark is
 * the bar, as much as finding the broken ones.
 */
#include <elf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "annotate/annotate.h"
#include "benchtui/bench.h"
#include "benchtui/lint.h"
#include "benchtui/view.h"
#include "lint/lint-int.h"
#include "profile/profile.h"
#include "session/query.h"
#include "symbols/symbols.h"

/* Thresholds, in percent of all samples of the window. */
#define EMPTY_LOOP_MIN 20.0	/* a loop this hot that does nothing */
#define EMPTY_LOOP_MAX_INSNS 8
#define EMPTY_JIT_LOOP_MAX_INSNS 24	/* with a JIT's guards and stack check */
#define TIMER_MIN 10.0
#define UNOPT_MIN 5.0		/* hot code whose build is checked */
#define STARTUP_MIN 20.0
#define KERNEL_MIN 30.0
#define NODEBUG_MIN 10.0
#define PRECISION_MAX 3.0	/* +- points of the hottest function's interval */
#define MIN_RUN_SAMPLES 20	/* fewer: say only that */

/* The findings of one selection, kept in the session's lint cache slot. */
struct lint {
	BT_VEC(struct bt_finding) findings;
	struct bt_strpool pool;
};

static void
lint_free(void *data)
{
	struct lint *l = data;

	BT_VEC_FREE(l->findings);
	bt_strpool_release(&l->pool);
	free(l);
}

#define add lint_add

void
lint_add(struct bt_selection *sel, const char *check, long func, double percent,
	 const char *fmt, ...)
{
	struct lint *l = bt_selection_cache(sel, BT_SEL_CACHE_LINT);
	struct bt_finding f;
	struct bt_strbuf sb = BT_STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	bt_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	f.check = check;
	f.func = func;
	f.function = func >= 0 ? bt_selection_func(sel, (size_t)func)->name : NULL;
	f.percent = percent;
	f.message = bt_strpool_add(&l->pool, sb.buf, sb.len);
	bt_strbuf_release(&sb);
	BT_VEC_PUSH(l->findings, f);
}

static double
pct(const struct bt_selection *sel, double samples)
{
	return bt_selection_samples(sel) ? 100.0 * samples / (double)bt_selection_samples(sel) : 0;
}

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

static bool system_path(const char *path);

/*
 * A harness's own source: a header the system installed, Google
 * Benchmark's, Rust's library or a crate's, Go's standard library.
 */
static bool
harness_source(const char *file)
{
	const char *base = strrchr(file, '/');

	base = base ? base + 1 : file;
	return system_path(file) || strcmp(base, "benchmark.h") == 0 ||
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
 * instruction with samples (raw or skid-adjusted) in address order, into
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
		if (!bt_annotation_in_loop(a, k, li) || (x->samples == 0 && x->adjusted <= 0))
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

static void
check_empty_loops(struct bt_selection *sel)
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
			double share = pct(sel, l->adjusted > (double)l->samples ?
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

/* Clock readers by name: libc, the vDSO, C++ and Go runtimes. */
static bool
is_clock(const char *name)
{
	static const char *const names[] = {
		"clock_gettime", "__clock_gettime", "__clock_gettime64",
		"__vdso_clock_gettime", "__vdso_gettimeofday", "__vdso_time",
		"gettimeofday", "__gettimeofday", "time", "__vdso_clock_gettime64",
		"runtime.nanotime", "runtime.nanotime1", "runtime.walltime",
		"runtime.walltime1", "time.now", "time.Now", "time.Since",
		"runtime.vdsoClockgettimeSym", "__x64_sys_clock_gettime",
		"do_hres", "clock_gettime@plt", "gettimeofday@plt",
	};
	size_t i;
	const char *at = strstr(name, "@@");

	for (i = 0; i < BT_ARRAY_SIZE(names); i++)
		if (strcmp(name, names[i]) == 0 ||
		    (at && (size_t)(at - name) == strlen(names[i]) &&
		     strncmp(name, names[i], (size_t)(at - name)) == 0))
			return true;
	return strstr(name, "std::chrono::") != NULL && strstr(name, "::now()") != NULL;
}

/*
 * Could function fi hold rdtsc (0f 31) or rdtscp (0f 01 f9)? A byte scan,
 * so that only such functions get decoded. x86 only: elsewhere, decode.
 */
static bool
has_rdtsc(struct bt_selection *sel, size_t fi)
{
	const struct bt_func *f = bt_selection_func(sel, fi);
	struct bt_msyms *m = bt_selection_func_syms(sel, fi);
	const uint8_t *code;
	long n;

	if (m == NULL)
		return false;
	if (bt_msyms_info(m)->e_machine != EM_X86_64 && bt_msyms_info(m)->e_machine != EM_386)
		return true;
	n = bt_msyms_code(m, f->start, f->end, &code);
	if (n <= 0)
		return false;
	return memmem(code, (size_t)n, "\x0f\x31", 2) != NULL ||
	    memmem(code, (size_t)n, "\x0f\x01\xf9", 3) != NULL;
}

static void
check_timer(struct bt_selection *sel)
{
	double t = 0, rdtsc = 0;
	const char *top = NULL;
	double topn = 0;
	size_t fi, k;

	for (fi = 0; fi < bt_selection_nfuncs(sel); fi++) {
		const struct bt_func *f = bt_selection_func(sel, fi);
		if (f->samples == 0)
			break;
		if (is_clock(f->name) ||
		    strcmp(bt_selection_func_module(sel, fi)->path, "[vdso]") == 0) {
			t += (double)f->samples;
			if ((double)f->samples > topn) {
				topn = (double)f->samples;
				top = f->name;
			}
		} else if (f->percent >= 1 && f->can_annotate && has_rdtsc(sel, fi)) {
			/* rdtsc read in the benchmark's own code: skid-adjusted weight */
			struct bt_annotation *a = bt_selection_code(sel, fi);
			for (k = 0; a != NULL && k < a->insns.n; k++)
				if (a->insns.v[k].in.flags & BT_INSN_F_TIMER)
					rdtsc += a->insns.v[k].adjusted;
		}
	}
	if (pct(sel, t + rdtsc) < TIMER_MIN)
		return;
	add(sel, "timer-dominated", -1, pct(sel, t + rdtsc),
	    "%.1f%% of the samples are spent reading the clock (%s%s): the benchmark "
	    "mostly measures its own timer. Time a batch of many iterations and read "
	    "the clock once per batch (what Google Benchmark, JMH and go test -bench do)",
	    pct(sel, t + rdtsc), top ? top : "rdtsc", top && rdtsc > 0 ? ", rdtsc" : "");
}

/* Does a DW_AT_producer say the code was built without optimization? */
static bool
unoptimized(const char *producer)
{
	const char *p, *last = NULL;

	if (producer == NULL)
		return false;
	if (strncmp(producer, "Go ", 3) == 0 || strstr(producer, "go1.") != NULL) {
		/* Go records flags after ';' only when given: -N disables optimization */
		p = strchr(producer, ';');
		return p != NULL && (strstr(p, " -N") != NULL || strstr(p, ";-N") != NULL);
	}
	/*
	 * GCC records its switches (-grecord-gcc-switches, the default): the
	 * last -O decides, and none at all means -O0. clang and others record
	 * no flags: nothing can be decided.
	 */
	if (strncmp(producer, "GNU ", 4) != 0 || strstr(producer, " -") == NULL)
		return false;
	for (p = producer; (p = strstr(p, " -O")) != NULL; p += 3)
		last = p;
	return last == NULL || (last[3] == '0' && (last[4] == ' ' || last[4] == '\0'));
}

/*
 * A file the system installed (a Debian package's /usr/lib, /lib, /usr/bin;
 * not /usr/local): built as it ships, not the benchmark's to rebuild.
 */
static bool
system_path(const char *path)
{
	static const char *const dirs[] = { "/usr/", "/lib/", "/lib64/", "/lib32/",
		"/bin/", "/sbin/" };
	size_t i;

	if (strncmp(path, "/usr/local/", 11) == 0)
		return false;
	for (i = 0; i < BT_ARRAY_SIZE(dirs); i++)
		if (strncmp(path, dirs[i], strlen(dirs[i])) == 0)
			return true;
	return false;
}

static void
check_unoptimized(struct bt_selection *sel)
{
	size_t fi;
	const char *seen[8];
	size_t nseen = 0, k;

	for (fi = 0; fi < bt_selection_nfuncs(sel); fi++) {
		const struct bt_func *f = bt_selection_func(sel, fi);
		struct bt_msyms *m;
		const char *prod;

		if (f->percent < UNOPT_MIN)
			break;
		if (f->kind != BT_FK_SYMBOL || system_path(f->module) ||
		    (m = bt_selection_func_syms(sel, fi)) == NULL)
			continue;
		prod = bt_msyms_producer(m, f->start);
		if (!unoptimized(prod))
			continue;
		for (k = 0; k < nseen; k++)
			if (seen[k] == f->module)
				break;
		if (k < nseen)
			continue;
		if (nseen < BT_ARRAY_SIZE(seen))
			seen[nseen++] = f->module;
		add(sel, "unoptimized", (long)fi, f->percent,
		    "%s (%.1f%% of the samples) was compiled without optimization "
		    "(DW_AT_producer \"%s\"): an unoptimized build measures code nobody "
		    "ships. %s", f->name, f->percent, prod,
		    strncmp(prod, "Go ", 3) == 0 ?
		    "Build the test binary without -gcflags='-N -l' (plain go test -c)" :
		    "Build the benchmark as the product is built (-O2)");
	}
}

static void
check_precision(struct bt_selection *sel)
{
	const struct bt_func *f;
	double lo, hi;

	if (bt_selection_nfuncs(sel) == 0)
		return;
	f = bt_selection_func(sel, 0);
	if (bt_selection_samples(sel) < MIN_RUN_SAMPLES) {
		add(sel, "few-samples", -1, 100,
		    "only %llu samples: the run is too short to say where time goes. "
		    "Run the benchmark longer (more iterations) or raise -F",
		    (unsigned long long)bt_selection_samples(sel));
		return;
	}
	bt_wilson(f->samples, bt_selection_samples(sel), &lo, &hi);
	if ((hi - lo) / 2 <= PRECISION_MAX)
		return;
	add(sel, "few-samples", -1, 100,
	    "%llu samples: the hottest function's %.1f%% is known only to within "
	    "%.1f-%.1f%% (95%% interval), and smaller numbers less. Run the benchmark "
	    "longer or raise -F for the precision the percentages show",
	    (unsigned long long)bt_selection_samples(sel), f->percent, lo, hi);
}

static void
check_lost(struct bt_selection *sel)
{
	const struct bt_profile_info *in = bt_session_info(bt_selection_session(sel));
	uint64_t all = in->samples + in->lost;

	if (in->lost > 0)
		add(sel, "lost-samples", -1, all ? 100.0 * (double)in->lost / (double)all : 0,
		    "the kernel dropped %llu samples (%.1f%% of all): the profile is "
		    "missing part of the run. Lower -F, or record to a faster disk",
		    (unsigned long long)in->lost,
		    all ? 100.0 * (double)in->lost / (double)all : 0);
	if (in->throttled > 0)
		add(sel, "throttled", -1, 0,
		    "sampling was throttled %llu times (the kernel's "
		    "perf_event_max_sample_rate): parts of the run are missing. Lower -F",
		    (unsigned long long)in->throttled);
}

static void
check_startup_kernel(struct bt_selection *sel)
{
	double loader = 0, kernel = 0;
	size_t fi;

	for (fi = 0; fi < bt_selection_nfuncs(sel); fi++) {
		const struct bt_func *f = bt_selection_func(sel, fi);
		if (f->kind == BT_FK_KERNEL)
			kernel += (double)f->samples;
		else if (strstr(f->module_name, "ld-linux") != NULL ||
		    strncmp(f->module_name, "ld-", 3) == 0 ||
		    strcmp(f->module_name, "ld.so") == 0)
			loader += (double)f->samples;
	}
	if (pct(sel, loader) >= STARTUP_MIN)
		add(sel, "startup-dominated", -1, pct(sel, loader),
		    "%.1f%% of the samples are in the dynamic loader: start-up dominates "
		    "a run of %.3f s. Run the benchmark longer, so that it measures its "
		    "loop rather than the program starting", pct(sel, loader),
		    bt_session_info(bt_selection_session(sel))->duration);
	if (pct(sel, kernel) >= KERNEL_MIN)
		add(sel, "kernel-dominated", -1, pct(sel, kernel),
		    "%.1f%% of the samples are in the kernel (system calls, page faults, "
		    "interrupts): if the benchmark is meant to measure user code, look for "
		    "I/O, allocation or first-touch page faults in the timed loop",
		    pct(sel, kernel));
}

static void
check_debug_info(struct bt_selection *sel)
{
	size_t fi;

	for (fi = 0; fi < bt_selection_nfuncs(sel); fi++) {
		const struct bt_func *f = bt_selection_func(sel, fi);
		struct bt_msyms *m;

		if (f->percent < NODEBUG_MIN)
			break;
		if (f->kind == BT_FK_KERNEL || f->kind == BT_FK_UNKNOWN ||
		    strcmp(f->module, "[vdso]") == 0 || bt_lint_is_jit(sel, fi))
			continue;	/* JIT code: lint-jit.c */
		m = bt_selection_func_syms(sel, fi);
		if (m != NULL && bt_msyms_probe_dwarf(m))
			continue;
		if (system_path(f->module)) {
			/*
			 * A distribution's stripped gzip or libcrypto is not the
			 * user's to rebuild, and nothing about the benchmark is
			 * wrong: the session's note says there are no lines
			 */
			bt_selection_func_dwarf(sel, fi);
			continue;
		}
		add(sel, "no-debug-info", (long)fi, f->percent,
		    "no debug info for '%s', where %s spends %.1f%% of the samples: no "
		    "source lines%s. %s", f->module, f->name, f->percent,
		    m == NULL ? ", and its code could not be read" : "",
		    m != NULL && bt_msyms_info(m)->go ?
		    "Go links DWARF in unless told not to: build without -ldflags=-w or -s" :
		    "Build it with -g (or install its -dbg package)");
		return;
	}
}

size_t
lint_sofar(struct bt_selection *sel, const struct bt_finding **out)
{
	struct lint *l = bt_selection_cache(sel, BT_SEL_CACHE_LINT);

	*out = l ? l->findings.v : NULL;
	return l ? l->findings.n : 0;
}

size_t
bt_selection_findings(struct bt_selection *sel, const struct bt_finding **out)
{
	struct lint *l = bt_selection_cache(sel, BT_SEL_CACHE_LINT);

	if (l == NULL) {
		l = bt_xcalloc(1, sizeof(*l));
		bt_strpool_init(&l->pool);
		bt_selection_set_cache(sel, BT_SEL_CACHE_LINT, l, lint_free);
		/* a benchmark's own: the run's lost samples and start-up are the run's */
		bool bench = bt_selection_bench_index(sel) >= 0;

		/* a benchmark optimized away has few samples: that says it all */
		bool dead = lint_bench_checks(sel);
		/* its measured phase (lint-phase.c): true when its pauses are its time */
		bool paused = bench && !dead && lint_phase_checks(sel);

		if (bt_selection_samples(sel) > 0) {
			if (!dead && !paused)
				check_precision(sel);
			if (!bench)
				check_lost(sel);
			/*
			 * What the hottest functions are: not from a handful of
			 * samples (one sample is 100% of a benchmark's window),
			 * where the precision finding says it all
			 */
			if (bt_selection_samples(sel) >= MIN_RUN_SAMPLES) {
				check_empty_loops(sel);
				if (!paused)
					check_timer(sel);
				check_unoptimized(sel);
				check_debug_info(sel);
			}
			if (!bench)
				check_startup_kernel(sel);
			bt_lint_jit(sel);
		}
	}
	*out = l->findings.v;
	return l->findings.n;
}
