/*
 * What the files of the x86 text printer share: x86-text.c (the
 * instruction's layout, which operands show), x86-prefixes.c (prefixes by
 * name, {evex}/{vex}), x86-mnemonic.c (objdump's mnemonic) and
 * x86-operands.c (registers, memory, immediates, decorators).
 */
#ifndef BENCHTUI_X86_TEXT_INT_H
#define BENCHTUI_X86_TEXT_INT_H

#include <Zydis/Zydis.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Text into [p, end): what does not fit is dropped. */
struct out {
	char *p, *end;
};

struct ctx {
	const ZydisDecodedInstruction *in;
	const ZydisDecodedOperand *ops;
	uint64_t addr;
	bool intel;
	bool x64;
	bool fwait;		/* a 9b byte before this x87 instruction: fstsw, fclex */
	bool force_seg;		/* memory operands name their segment: %es:(%rdi) */
	ZydisRegister seg;	/* the segment override a memory operand shows */
};

struct mn {
	char s[32];
	size_t n;
	bool drop_imm;	/* the immediate is in the mnemonic (vpcmpeqb) */
};

static inline void
put(struct out *o, const char *s)
{
	while (*s && o->p < o->end)
		*o->p++ = *s++;
}

static inline void
putch(struct out *o, char c)
{
	if (o->p < o->end)
		*o->p++ = c;
}

static inline void
putx(struct out *o, uint64_t v)
{
	char b[16];
	int n = 0;

	do {
		b[n++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	while (n)
		putch(o, b[--n]);
}

static inline void
puthex(struct out *o, uint64_t v)
{
	put(o, "0x");
	putx(o, v);
}

static inline void
putshex(struct out *o, int64_t v)
{
	if (v < 0) {
		putch(o, '-');
		puthex(o, -(uint64_t)v);
	} else
		puthex(o, (uint64_t)v);
}

static inline uint64_t
mask_bits(uint64_t v, unsigned bits)
{
	return bits >= 64 ? v : v & ((UINT64_C(1) << bits) - 1);
}

/* x86-mnemonic.c */
bool x86_is_string_op(const ZydisDecodedInstruction *in);
/* REX.W, VEX.W or EVEX.W */
bool x86_w_bit(const ZydisDecodedInstruction *in);
/* movmskps/pmovmskb and their VEX forms with W set: objdump names the 64-bit register */
bool x86_mask_to_gpr64(const ZydisDecodedInstruction *in);
bool x86_is_gpr(ZydisRegister r);
/* The explicit memory operand, or NULL. */
const ZydisDecodedOperand *x86_mem_operand(const struct ctx *c);
/* A broadcast whose count no register tells (vcvtpd2dq, vfpclassps): Intel names it too. */
bool x86_bcst_count_shown(const struct ctx *c);
/* objdump's mnemonic into m (m->drop_imm: the immediate is not shown). */
void x86_mnemonic(const struct ctx *c, struct mn *m);

/* x86-prefixes.c */
/*
 * Prefixes objdump prints by name, each followed by a blank; sets c->seg
 * (the segment a memory operand shows) and *hint (",pt", ",pn").
 */
void x86_prefixes(struct out *o, struct ctx *c, const char **hint);
/* "{evex} ", "{vex} " or NULL: the encoding objdump marks. */
const char *x86_encoding_mark(const struct ctx *c);

/* x86-operands.c */
void x86_operand(struct out *o, const struct ctx *c, const ZydisDecodedOperand *op);
/* The mask and zeroing decorators objdump puts after the destination. */
void x86_mask_decorator(struct out *o, const struct ctx *c);
void x86_broadcast_decorator(struct out *o, const struct ctx *c);
/* The rounding pseudo-operand ("{rn-sae}", "{sae}"), or NULL. */
const char *x86_rounding(const ZydisDecodedInstruction *in);

#endif
