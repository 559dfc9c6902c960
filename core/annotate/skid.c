/*
 * DESIGN.md §4 on the control-flow graph of one function (cfg.c):
 * skid-adjusted attribution (loops.c: natural loops, hot regions).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "annotate/annotate.h"
#include "annotate/cfg.h"
#include "annotate/skid-int.h"

#define SKID_PRIOR 1.0		/* equal prior added to each predecessor's block weight */
#define SKID_CLEAR 2.0 / 3.0	/* a share this big is no guess */
#define SKID_CHASE 16		/* instructions searched back for the writer of a load's base */
#define SKID_MINPATH 1e-3	/* a path less likely than this is not followed */
#define SKID_DEPS 1		/* instructions of a burst that can wait on the long one's result */


/*
 * Long-latency instructions by mnemonic (either syntax: AT&T's size
 * suffixes allowed): integer and floating-point division, square roots,
 * x87 transcendentals, serialising and fencing instructions. The table is
 * of latencies of 10 cycles and more on every x86 core since Nehalem and
 * Zen 1, and on Arm's Neoverse cores; multiplies, shuffles, conversions
 * and L1 loads are below it.
 */
static const char *const skid_long[] = {
	"div", "idiv", "divss", "divsd", "divps", "divpd", "divsh", "divph",
	"sqrtss", "sqrtsd", "sqrtps", "sqrtpd", "sqrtsh", "sqrtph",
	"fdiv", "fdivr", "fdivp", "fdivrp", "fidiv", "fidivr", "fsqrt",
	"fsin", "fcos", "fsincos", "fptan", "fpatan", "fyl2x", "fyl2xp1",
	"f2xm1", "fprem", "fprem1", "fscale",
	"cpuid", "mfence", "lfence", "pause", "rdrand", "rdseed",
	"sdiv", "udiv",		/* aarch64's, with fdiv and fsqrt above */
};

static bool
long_mnemonic(const char *m)
{
	size_t k, n;
	const char *p;

	if (m == NULL)
		return false;
	/*
	 * Each mnemonic of the table, and each the test below lets on, has a
	 * d, an f or an s: most instructions (mov, lea, xor, imul) have none,
	 * and are told apart in one pass, with no search for each name
	 */
	for (p = m; *p != '\0' && *p != 'd' && *p != 'f' && *p != 's'; p++)
		;
	if (*p == '\0')
		return false;
	if ((strstr(m, "div") == NULL && strstr(m, "sqrt") == NULL && m[0] != 'f' &&
	    strstr(m, "fence") == NULL && strcmp(m, "cpuid") != 0 && strcmp(m, "pause") != 0 &&
	    strncmp(m, "rdrand", 6) != 0 && strncmp(m, "rdseed", 6) != 0))
		return false;	/* most instructions: none of the table's */
	if (strncmp(m, "vdiv", 4) == 0 || strncmp(m, "vsqrt", 5) == 0)
		m++;		/* vdivsd, vsqrtpd: the VEX and EVEX forms */
	for (k = 0; k < sizeof(skid_long) / sizeof(*skid_long); k++) {
		n = strlen(skid_long[k]);
		if (strncmp(m, skid_long[k], n) != 0)
			continue;
		if (m[n] == '\0')
			return true;
		/* AT&T's size suffix: divq, idivl, fdivs, fdivl */
		if (m[n + 1] == '\0' && strchr("bwlqs", m[n]) != NULL &&
		    (k < 2 || skid_long[k][0] == 'f'))
			return true;
	}
	return false;
}

/*
 * Registers of x86 text as bits: the 16 general registers by family
 * (%rax, %eax, %al: bit 0), then xmm/ymm/zmm 0-31 from bit 16.
 */
#define REG_AX 0
#define REG_CX 2
#define REG_DX 3
#define REG_SI 4
#define REG_DI 5
#define REG_BP 6
#define REG_SP 7

/* The register named at s (a '%' first in AT&T), -1 if none; *n: its length. */
static int
reg_at(const char *s, size_t *n)
{
	static const char legacy[][3] = { "ax", "bx", "cx", "dx", "si", "di", "bp", "sp" };
	const char *p = s + (*s == '%');
	int r = -1, k;

	if (p[0] == 'r' && p[1] >= '0' && p[1] <= '9') {		/* r8, r10d, r15b */
		r = p[1] - '0';
		p += 2;
		if (*p >= '0' && *p <= '9')
			r = r * 10 + *p++ - '0';
		if (r < 8 || r > 15)
			return -1;
		if (*p == 'd' || *p == 'w' || *p == 'b')
			p++;
	} else if ((p[0] == 'x' || p[0] == 'y' || p[0] == 'z') && p[1] == 'm' && p[2] == 'm' &&
	    p[3] >= '0' && p[3] <= '9') {				/* xmm0, zmm31 */
		p += 3;
		r = *p++ - '0';
		if (*p >= '0' && *p <= '9')
			r = r * 10 + *p++ - '0';
		if (r > 31)
			return -1;
		r += 16;
	} else {
		for (k = 0; k < 8 && r < 0; k++) {
			const char *L = legacy[k];
			if ((p[0] == 'r' || p[0] == 'e') && p[1] == L[0] && p[2] == L[1])
				r = k, p += 3;				/* rax, eax, rsi, esp */
			else if (p[0] == L[0] && p[1] == L[1])
				r = k, p += 2 + (k >= 4 && p[2] == 'l');	/* ax, si, sil */
			else if (k < 4 && p[0] == L[0] && (p[1] == 'l' || p[1] == 'h'))
				r = k, p += 2;				/* al, ah */
		}
	}
	if (r < 0 || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9'))
		return -1;	/* part of a longer word: QWORD, rip, xmmword */
	*n = (size_t)(p - s);
	return r;
}

/* The registers named in text t[0..len). */
static uint64_t
regs_in(const char *t, size_t len)
{
	uint64_t set = 0;
	size_t i = 0, n;
	int r;

	while (i < len) {
		bool start = i == 0 || !((t[i - 1] >= 'a' && t[i - 1] <= 'z') ||
		    (t[i - 1] >= '0' && t[i - 1] <= '9') || t[i - 1] == '_');
		if (start && (r = reg_at(t + i, &n)) >= 0 && i + n <= len) {
			set |= REG_BIT(r);
			i += n;
		} else
			i++;
	}
	return set;
}


/*
 * Registers of x86 text of either syntax (objdump's). Anything else (other
 * architectures' text) gives no registers: the model then knows no chase
 * and no dependence.
 */
static void
insn_regs(const struct bt_insn *in, struct skid_regs *r)
{
	const char *t, *m = in->mnemonic, *ops[4];
	size_t lens[4], nops = 0, i, n, len;
	int depth = 0, dst = -1;
	bool att, wonly;

	r->base = -1;
	r->reads = r->writes = 0;
	if (m == NULL || in->text == NULL)
		return;
	/* the text starts with its mnemonic unless it has prefixes */
	n = strlen(m);
	if (prefix(in->text, m))
		t = in->text;
	else if ((t = strstr(in->text, m)) == NULL)
		return;
	t += n;
	while (*t == ' ')
		t++;
	att = strchr(t, '%') != NULL;
	/* operands split at top-level commas */
	ops[0] = t;
	for (i = 0; t[i] != '\0' && t[i] != '#' && t[i] != '<'; i++) {
		if (t[i] == '(' || t[i] == '[')
			depth++;
		else if (t[i] == ')' || t[i] == ']')
			depth--;
		else if (t[i] == ',' && depth == 0 && nops < 3) {
			lens[nops] = (size_t)(t + i - ops[nops]);
			ops[++nops] = t + i + 1;
		}
	}
	len = i;
	if (len == 0)
		return;
	lens[nops] = (size_t)(t + len - ops[nops]);
	while (lens[nops] > 0 && ops[nops][lens[nops] - 1] == ' ')
		lens[nops]--;
	nops++;
	for (i = 0; i < nops; i++) {
		const char *o = ops[i], *b;
		if ((b = memchr(o, att ? '(' : '[', lens[i])) != NULL) {
			int br = reg_at(b + 1, &n);
			if (br >= 0 && br < 16)
				r->base = br;
		} else if (i == (att ? nops - 1 : 0) && (nops > 1 || prefix(m, "inc") ||
		    prefix(m, "dec") || prefix(m, "neg") || prefix(m, "not") ||
		    prefix(m, "pop") || prefix(m, "bswap")) &&
		    reg_at(o, &n) >= 0 && n == lens[i])
			dst = reg_at(o, &n);
	}
	if (prefix(m, "cmp") || prefix(m, "test") || prefix(m, "ucomis") || prefix(m, "comis") ||
	    (prefix(m, "bt") && m[2] == '\0') || in->kind != BT_INSN_OTHER)
		dst = -1;	/* writes no operand */
	/* an operand it writes without reading it: mov, lea, pop, conversions,
	 * square roots, AVX's three-operand forms (FMA's read it) */
	wonly = dst >= 0 && (prefix(m, "mov") || prefix(m, "lea") || prefix(m, "pop") ||
	    prefix(m, "cvt") || prefix(m, "vcvt") || prefix(m, "sqrt") || prefix(m, "vsqrt") ||
	    (m[0] == 'v' && nops >= 3 && !prefix(m, "vfm") && !prefix(m, "vfnm")));
	for (i = 0; i < nops; i++)
		if (!wonly || i != (att ? nops - 1 : 0))
			r->reads |= regs_in(ops[i], lens[i]);
	if (dst >= 0) {
		r->writes = REG_BIT(dst);
		if (nops == 2 && lens[0] == lens[1] && memcmp(ops[0], ops[1], lens[0]) == 0 &&
		    (prefix(m, "xor") || prefix(m, "sub") || prefix(m, "pxor") || prefix(m, "vpxor") ||
		     prefix(m, "xorp") || prefix(m, "vxorp")))
			r->reads = 0;	/* xor %eax,%eax: a new value */
	}
	/* implicit operands */
	if ((prefix(m, "div") && (m[3] == '\0' || m[4] == '\0')) || prefix(m, "idiv") ||
	    ((prefix(m, "mul") || prefix(m, "imul")) && nops == 1)) {
		r->reads |= REG_BIT(REG_AX) | REG_BIT(REG_DX);
		r->writes |= REG_BIT(REG_AX) | REG_BIT(REG_DX);
	} else if (prefix(m, "cqt") || prefix(m, "cqo") || prefix(m, "cltd") || prefix(m, "cdq")) {
		r->reads |= REG_BIT(REG_AX);
		r->writes |= REG_BIT(REG_DX);
	} else if (in->flags & BT_INSN_F_INTERRUPTIBLE) {
		r->reads |= REG_BIT(REG_SI) | REG_BIT(REG_DI) | REG_BIT(REG_CX);
		r->writes |= REG_BIT(REG_SI) | REG_BIT(REG_DI) | REG_BIT(REG_CX);
	} else if (prefix(m, "cpuid") || prefix(m, "rdtsc")) {
		r->writes |= REG_BIT(REG_AX) | REG_BIT(REG_DX) | REG_BIT(REG_CX) | REG_BIT(1);
	} else if (prefix(m, "xchg") && dst >= 0) {
		r->writes |= r->reads & (((uint64_t)1 << 16) - 1);
	}
}


/* An instruction's registers, read the first time they are asked for. */
const struct skid_regs *
skid_regs_of(struct skid_walk *w, size_t i)
{
	if (!w->have[i]) {
		insn_regs(&w->a->insns.v[i].in, &w->regs[i]);
		w->have[i] = 1;
	}
	return &w->regs[i];
}

/*
 * Can this load miss the cache however the data is laid out: is its
 * address's base register the value of an earlier load (a pointer chase)?
 * Searched back along the heaviest predecessor for at most SKID_CHASE
 * instructions; a register loaded from the stack is a spill, not a chase.
 */
static bool
miss_prone(struct skid_walk *w, size_t i)
{
	const struct bt_annotation *a = w->a;
	const struct bt_cfg *g = w->g;
	const double *bweight = w->bweight;
	const struct bt_insn *in = &a->insns.v[i].in;
	const struct skid_regs *r;
	int base;
	size_t j = i, step, k;

	if (!(in->flags & BT_INSN_F_MEM_READ) || (in->flags & (BT_INSN_F_RIPREL | BT_INSN_F_NOP)) ||
	    (in->mnemonic != NULL && prefix(in->mnemonic, "prefetch")))
		return false;	/* no load (a nop's operand), or one nothing waits on */
	if ((base = skid_regs_of(w, i)->base) < 0 || base == REG_SP || base == REG_BP)
		return false;
	for (step = 0; step < SKID_CHASE; step++) {
		size_t b = g->block[j];
		const struct bt_insn *wi;

		if (g->first[b] != j)
			j--;
		else {
			size_t best = (size_t)-1;
			for (k = g->pred_off[b]; k < g->pred_off[b + 1]; k++)
				if (best == (size_t)-1 || bweight[g->pred[k]] > bweight[best])
					best = g->pred[k];
			if (best == (size_t)-1)
				return false;
			j = g->last[best];
		}
		wi = &a->insns.v[j].in;
		if (wi->kind == BT_INSN_CALL || wi->kind == BT_INSN_ICALL)
			return false;
		r = skid_regs_of(w, j);
		if (!(r->writes & REG_BIT(base)))
			continue;
		return (wi->flags & BT_INSN_F_MEM_READ) && !(wi->flags & BT_INSN_F_RIPREL) &&
		    r->base >= 0 && r->base != REG_SP && r->base != REG_BP;
	}
	return false;
}

#define SKID_UNKNOWN 0xff

static enum skid_class
skid_class(struct skid_walk *w, const struct bt_insn *in, size_t i)
{
	switch (in->kind) {
	case BT_INSN_CALL: case BT_INSN_ICALL: case BT_INSN_RET: case BT_INSN_SYSCALL:
	case BT_INSN_STOP: case BT_INSN_BAD:
		return SKID_BARRIER;
	default:
		break;
	}
	if ((in->flags & (BT_INSN_F_INTERRUPTIBLE | BT_INSN_F_LOCK)) || long_mnemonic(in->mnemonic) ||
	    (in->mnemonic != NULL && prefix(in->mnemonic, "xchg") &&
	     (in->flags & (BT_INSN_F_MEM_READ | BT_INSN_F_MEM_WRITE))) ||	/* locked */
	    miss_prone(w, i))
		return SKID_LONG;
	return SKID_CHEAP;
}

/* What a sample after instruction i says of it, worked out the first time asked. */
enum skid_class
skid_class_of(struct skid_walk *w, size_t i)
{
	const struct bt_insn *in = &w->a->insns.v[i].in;
	enum skid_class c;

	if (w->cls[i] != SKID_UNKNOWN)
		return (enum skid_class)w->cls[i];
	c = skid_class(w, in, i);
	w->cls[i] = (unsigned char)c;
	return c;
}

/*
 * How many instructions of path[0 .. len) (the path back from a sample to
 * the long-latency instruction l) wait on l's result, directly or through
 * each other; *xwaits: whether the sampled instruction x does too.
 */
static unsigned
path_deps(struct skid_walk *w, size_t l, size_t len, size_t x, bool *xwaits)
{
	uint64_t taint = skid_regs_of(w, l)->writes;
	unsigned deps = 0;

	while (len-- > 0) {
		const struct skid_regs *r = skid_regs_of(w, w->path[len]);
		if (r->reads & taint) {
			deps++;
			taint |= r->writes;
		} else
			taint &= ~r->writes;
	}
	*xwaits = (skid_regs_of(w, x)->reads & taint) != 0;
	return deps;
}

/*
 * Follow the paths back from instruction j (reached with probability q,
 * depth instructions back from the sample) through cheap instructions to
 * the first long-latency one, as far as a retirement burst reaches; its
 * share of the sample is what the paths that reach it carry. A burst ends
 * where a chain of instructions waits on the long one's result: the
 * second of them has a cycle at the head of its own. Returns the
 * probability found.
 */
static double
walk_back(struct skid_walk *w, size_t j, double q, unsigned depth)
{
	const struct bt_cfg *g = w->g;
	size_t b = g->block[j], k;
	double total = 0, got = 0;

	if (skid_class_of(w, j) == SKID_LONG) {
		bool xwaits;
		unsigned deps = path_deps(w, j, depth - 1, w->x, &xwaits);

		if (deps > SKID_DEPS)
			return 0;
		if (deps == SKID_DEPS && xwaits)
			q /= 2;	/* the chain goes on through the sample: half each, a guess */
		if (w->found[j] == 0)
			w->touched[w->ntouched++] = j;
		w->found[j] += q;
		return q;
	}
	if (w->cls[j] == SKID_BARRIER || depth >= SKID_BURST || q < SKID_MINPATH)
		return 0;
	w->path[depth - 1] = j;
	if (g->first[b] != j)
		return walk_back(w, j - 1, q, depth + 1);
	for (k = g->pred_off[b]; k < g->pred_off[b + 1]; k++)
		total += w->bweight[g->pred[k]] + SKID_PRIOR;
	for (k = g->pred_off[b]; k < g->pred_off[b + 1]; k++)
		got += walk_back(w, g->last[g->pred[k]],
		    q * (w->bweight[g->pred[k]] + SKID_PRIOR) / total, depth + 1);
	return got;
}


/*
 * Move each instruction's samples to the instruction the interrupt waited
 * on (DESIGN.md §4; docs/architecture.md has the measured suite). A timer
 * interrupt is taken when an instruction retires, so its sample names an
 * instruction after the one that held retirement up; and what retires in
 * one burst behind a long-latency instruction is every cheap instruction
 * that finished while it waited. So:
 * - a long-latency instruction (division, square root, a serialising or
 *   locked one, a load whose address is an earlier load's value: a
 *   pointer chase, which can miss however the data is laid out) and an
 *   interruptible one (rep movs/stos/cmps/scas: interrupted at its own
 *   address) keep what lands on them;
 * - a sample on any other instruction goes back along each path to it,
 *   over cheap instructions, to the first long-latency one within
 *   SKID_BURST instructions: that one takes the path's share;
 * - the share of paths that find none goes to the instruction's control-
 *   flow predecessors: the previous instruction if it falls through, and
 *   every branch of the function that targets it, in proportion to the raw
 *   samples of their basic blocks plus a small equal prior, so a hot back
 *   edge wins over a cold entry. Inside a loop only predecessors inside it
 *   share (Go's jump into the loop's condition runs once per call,
 *   whatever its block weighs).
 * Paths split at joins in proportion to their blocks' samples. A sample
 * whose largest credit is under two thirds marks its credited instructions
 * as a guess. Before all that, a mispredicted branch takes what its
 * samples say is the restart's (skid-branch.c).
 */
/*
 * Instruction i's predecessors into preds (the one before it, or its
 * block's predecessors' ends); returns how many. A branch fused with its
 * compare retires with it: the pair's time is the compare's (the
 * branch's own is its mispredicts).
 */
static size_t
preds_of(struct skid_walk *w, size_t i, size_t *preds)
{
	const struct bt_cfg *g = w->g;
	size_t b = g->block[i], np = 0, k;

	if (g->first[b] != i)
		preds[np++] = i - 1;
	else
		for (k = g->pred_off[b]; k < g->pred_off[b + 1]; k++)
			preds[np++] = g->last[g->pred[k]];
	for (k = 0; k < np; k++)
		if (w->a->insns.v[preds[k]].in.kind == BT_INSN_CJUMP && preds[k] > 0 &&
		    skid_slot(w, preds[k] - 1) == 0)
			preds[k]--;
	return np;
}

/* The adjusted samples and period of instruction i, summed in place. */
#define ADJ(i)		(a->insns.v[i].adjusted)
#define ADJPER(i)	(a->insns.v[i].adjusted_period)

void
bt_skid_adjust(struct bt_annotation *a, const struct bt_cfg *g, bool intel)
{
	size_t n = a->insns.n, i, k, np, *preds;
	double *bweight, *share, *rem;
	unsigned char *cls;
	struct skid_regs *regs;
	struct skid_walk w;

	if (n == 0)
		return;
	bweight = bt_xcalloc(g->nb, sizeof(double));
	preds = bt_xmalloc((g->pred_off[g->nb] + 2) * sizeof(size_t));
	share = bt_xmalloc((g->pred_off[g->nb] + 2) * sizeof(double));
	cls = bt_xmalloc(n);
	regs = bt_xmalloc(n * sizeof(*regs));
	memset(cls, SKID_UNKNOWN, n);
	memset(&w, 0, sizeof(w));
	w.a = a;
	w.g = g;
	w.bweight = bweight;
	w.cls = cls;
	w.regs = regs;
	w.fuse = intel;
	w.have = bt_xcalloc(2 * n, 1);	/* then skid_mispredicts()'s marks */
	w.found = bt_xcalloc(n, sizeof(double));
	w.touched = bt_xmalloc(n * sizeof(size_t));
	rem = bt_xmalloc(2 * n * sizeof(double));
	for (i = 0; i < n; i++) {
		bweight[g->block[i]] += (double)a->insns.v[i].samples;
		rem[i] = (double)a->insns.v[i].samples;
		rem[n + i] = (double)a->insns.v[i].period;
		ADJ(i) = ADJPER(i) = 0;	/* the sums of what each is credited */
	}
	skid_mispredicts(&w, rem, w.have + n);

	for (i = 0; i < n; i++) {
		double smp = rem[i], per = rem[n + i];
		double total = 0, best = 0, credit;
		size_t b = g->block[i];
		long loop = g->inner[b];
		bool inside = false;

		if (smp <= 0)
			continue;
		np = preds_of(&w, i, preds);
		if (np == 0 || skid_class_of(&w, i) == SKID_LONG) {
			/* the function's entry, or its own cost: keep */
			ADJ(i) += smp;
			ADJPER(i) += per;
			continue;
		}
		/* inside a loop, only predecessors inside it share */
		if (loop >= 0)
			for (k = 0; k < np; k++)
				inside |= bt_cfg_in_loop(g, g->block[preds[k]], loop);
		for (k = 0; k < np; k++) {
			share[k] = 0;
			if (inside && !bt_cfg_in_loop(g, g->block[preds[k]], loop))
				continue;
			share[k] = bweight[g->block[preds[k]]] + SKID_PRIOR;
			total += share[k];
		}
		/* each predecessor's share: to the long-latency instruction behind it, or its own */
		w.ntouched = 0;
		w.x = i;
		for (k = 0; k < np; k++) {
			if (share[k] == 0)
				continue;
			share[k] /= total;
			share[k] -= walk_back(&w, preds[k], share[k], 1);
			if (share[k] < 1e-9)
				continue;
			ADJ(preds[k]) += smp * share[k];
			ADJPER(preds[k]) += per * share[k];
			best = share[k] > best ? share[k] : best;
		}
		for (k = 0; k < w.ntouched; k++) {
			credit = w.found[w.touched[k]];
			ADJ(w.touched[k]) += smp * credit;
			ADJPER(w.touched[k]) += per * credit;
			best = credit > best ? credit : best;
		}
		if (best < SKID_CLEAR) {	/* several candidates, none clearly the one */
			for (k = 0; k < np; k++)
				if (share[k] >= 1e-9)
					a->insns.v[preds[k]].flags |= BT_AI_SKID_GUESS;
			for (k = 0; k < w.ntouched; k++)
				a->insns.v[w.touched[k]].flags |= BT_AI_SKID_GUESS;
		}
		for (k = 0; k < w.ntouched; k++)
			w.found[w.touched[k]] = 0;
	}
	for (i = 0; i < n; i++) {
		struct bt_ainsn *ai = &a->insns.v[i];
		if (ai->adjusted >= (double)ai->samples + 0.5)	/* credited at least half a sample */
			ai->flags |= BT_AI_SKID_TARGET;
		else
			ai->flags &= ~(unsigned)BT_AI_SKID_GUESS;
	}
	free(w.found);
	free(w.touched);
	free(rem);
	free(cls);
	free(regs);
	free(w.have);
	free(share);
	free(bweight);
	free(preds);
}
