/*
 * x86 instruction text, character for character what objdump -d prints
 * (binutils 2.40), from Zydis's decoded instruction and operands. The
 * oracle is tests/test-objdump.sh; docs/disasm.md lists what differs and
 * why Zydis's formatter is not used (every one of its hooks would have to
 * be replaced).
 *
 * objdump's layout: unused prefixes by name ("lock ", "cs ", "data16 "),
 * the mnemonic, blanks up to column 6 and one more, then the operands
 * separated by "," (AT&T: source first; Intel: destination first).
 */
#include <string.h>

#include "base.h"
#include "disasm/x86-text.h"
#include "disasm/x86-text-int.h"

enum { OPND_MAX = 8 };

/* x87 register forms objdump shows with %st(i) alone */
static bool
x87_one_operand(const ZydisDecodedInstruction *in)
{
	switch (in->mnemonic) {
	case ZYDIS_MNEMONIC_FCOM: case ZYDIS_MNEMONIC_FCOMP: case ZYDIS_MNEMONIC_FLD:
	case ZYDIS_MNEMONIC_FXCH: case ZYDIS_MNEMONIC_FFREE: case ZYDIS_MNEMONIC_FFREEP:
	case ZYDIS_MNEMONIC_FST: case ZYDIS_MNEMONIC_FSTP: case ZYDIS_MNEMONIC_FUCOM:
	case ZYDIS_MNEMONIC_FUCOMP:
		return true;
	default:
		return false;
	}
}

/* The integer to floating-point conversions: AT&T's rounding follows their source. */
static bool
rc_after_source(const ZydisDecodedInstruction *in)
{
	switch (in->mnemonic) {
	case ZYDIS_MNEMONIC_VCVTSI2SS: case ZYDIS_MNEMONIC_VCVTSI2SD: case ZYDIS_MNEMONIC_VCVTSI2SH:
	case ZYDIS_MNEMONIC_VCVTUSI2SS: case ZYDIS_MNEMONIC_VCVTUSI2SD:
	case ZYDIS_MNEMONIC_VCVTUSI2SH:
		return true;
	default:
		return false;
	}
}

/*
 * Where the rounding goes in list (n operands, Intel order, the last
 * register at last_rm). Intel: on that register, "vaddps
 * zmm3,zmm2,zmm1{rn-sae}", whose index is returned. AT&T: an operand of
 * its own (-1 in list) before the sources, "{rn-sae},%zmm1,%zmm2,%zmm3",
 * or after the integer source of vcvtsi2sd, "%rax,{rn-sae},%xmm1,%xmm2";
 * returns -1.
 */
static int
place_rounding(const ZydisDecodedInstruction *in, bool intel, int *list, int *n, int last_rm)
{
	int at = rc_after_source(in) ? last_rm : last_rm + 1;

	if (intel)
		return list[last_rm];
	if (*n >= OPND_MAX)
		return -1;
	memmove(&list[at + 1], &list[at], (size_t)(*n - at) * sizeof(int));
	list[at] = -1;
	(*n)++;
	return -1;
}

void
bt_x86_text(const ZydisDecodedInstruction *in, const ZydisDecodedOperand *ops,
	    uint64_t addr, bool intel, bool fwait, char *text, size_t size,
	    char *mnout, size_t mnsize)
{
	struct ctx c = { in, ops, addr, intel, in->machine_mode == ZYDIS_MACHINE_MODE_LONG_64,
		fwait, false, ZYDIS_REGISTER_NONE };
	char buf[192];
	struct out o = { buf, buf + sizeof(buf) - 1 };
	const char *hint = NULL, *rc, *literal = NULL, *mark;
	struct mn m;
	/*
	 * the operands objdump shows, in Intel order; -1 marks AT&T's rounding
	 * pseudo-operand, rc_on the operand Intel's rounding follows
	 */
	int list[OPND_MAX], n = 0, i, last_rm = -1, rc_on = -1, nvis = in->operand_count_visible;
	/* enter $0x10,$0x0 and bound: the AT&T instructions objdump does not reverse */
	bool reverse = !intel && in->mnemonic != ZYDIS_MNEMONIC_ENTER &&
	    in->mnemonic != ZYDIS_MNEMONIC_BOUND;
	char *start;

	if (!fwait)
		x86_prefixes(&o, &c, &hint);
	if ((mark = x86_encoding_mark(&c)) != NULL)
		put(&o, mark);
	x86_mnemonic(&c, &m);
	put(&o, m.s);
	if (hint)
		put(&o, hint);
	if (x86_is_string_op(in)) {
		/* hidden in Zydis, shown by objdump, segments and all: %ds:(%rsi),%es:(%rdi) */
		nvis = in->operand_count >= 2 ? 2 : 0;
		c.force_seg = true;
	} else if (in->mnemonic == ZYDIS_MNEMONIC_XLAT) {
		nvis = 1;	/* xlat %ds:(%rbx) */
		c.force_seg = true;
	} else if (in->mnemonic == ZYDIS_MNEMONIC_NOP && in->opcode == 0x90 &&
	    in->opcode_map == ZYDIS_OPCODE_MAP_DEFAULT && in->operand_width == 16) {
		literal = intel ? "ax,ax" : "%ax,%ax";	/* 66 90 */
		nvis = 0;
	} else if (in->mnemonic == ZYDIS_MNEMONIC_NOP && nvis > 1)
		nvis = 1;	/* nopl 0x0(%rax), nop %eax: the r/m operand alone */
	else if (m.drop_imm)
		nvis--;		/* vpcmpeqb: the predicate is in the mnemonic */
	else if (in->encoding == ZYDIS_INSTRUCTION_ENCODING_LEGACY && in->operand_count >= 3 &&
	    (in->mnemonic == ZYDIS_MNEMONIC_SHA256RNDS2 || in->mnemonic == ZYDIS_MNEMONIC_BLENDVPS ||
	    in->mnemonic == ZYDIS_MNEMONIC_BLENDVPD || in->mnemonic == ZYDIS_MNEMONIC_PBLENDVB))
		nvis = 3;	/* the implicit %xmm0 */
	for (i = 0; i < nvis && n < OPND_MAX; i++) {
		const ZydisDecodedOperand *op = &ops[i];
		if (op->type == ZYDIS_OPERAND_TYPE_REGISTER &&
		    op->encoding == ZYDIS_OPERAND_ENCODING_MASK && i == 1 &&
		    in->avx.mask.reg != ZYDIS_REGISTER_NONE)
			continue;	/* a decorator on the destination */
		if (op->visibility == ZYDIS_OPERAND_VISIBILITY_IMPLICIT &&
		    op->type == ZYDIS_OPERAND_TYPE_IMMEDIATE && !intel)
			continue;	/* shr %eax (by one): Intel says "shr eax,1" */
		if (op->visibility == ZYDIS_OPERAND_VISIBILITY_IMPLICIT &&
		    op->type == ZYDIS_OPERAND_TYPE_REGISTER && op->reg.value == ZYDIS_REGISTER_ST0 &&
		    x87_one_operand(in))
			continue;	/* fucomp %st(1), fxch %st(1) */
		if (op->type != ZYDIS_OPERAND_TYPE_IMMEDIATE)
			last_rm = n;
		list[n++] = i;
	}
	if ((rc = x86_rounding(in)) != NULL && last_rm >= 0)
		rc_on = place_rounding(in, intel, list, &n, last_rm);
	if (n > 0 || literal != NULL) {
		size_t len = (size_t)(o.p - buf);
		do
			putch(&o, ' ');
		while (len++ < 6);
	}
	if (literal != NULL)
		put(&o, literal);
	start = o.p;
	for (i = 0; i < n; i++) {
		int k = reverse ? list[n - 1 - i] : list[i];
		if (o.p != start)
			putch(&o, ',');
		if (k < 0) {
			put(&o, rc);
			continue;
		}
		if (ops[k].visibility == ZYDIS_OPERAND_VISIBILITY_IMPLICIT &&
		    ops[k].type == ZYDIS_OPERAND_TYPE_IMMEDIATE) {
			put(&o, "1");
			continue;
		}
		x86_operand(&o, &c, &ops[k]);
		if (k == rc_on)
			put(&o, rc);
		if (k == list[0])
			x86_mask_decorator(&o, &c);
		if (ops[k].type == ZYDIS_OPERAND_TYPE_MEMORY)
			x86_broadcast_decorator(&o, &c);
	}
	*o.p = '\0';
	if (size) {
		size_t l = (size_t)(o.p - buf);
		if (l >= size)
			l = size - 1;
		memcpy(text, buf, l);
		text[l] = '\0';
	}
	if (mnsize) {
		size_t l = m.n < mnsize ? m.n : mnsize - 1;
		memcpy(mnout, m.s, l);
		mnout[l] = '\0';
	}
}
