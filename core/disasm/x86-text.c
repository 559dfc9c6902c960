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

#include <Zydis/Internal/EncoderData.h>

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

static void
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

static void
puthex(struct out *o, uint64_t v)
{
	put(o, "0x");
	putx(o, v);
}

static void
putshex(struct out *o, int64_t v)
{
	if (v < 0) {
		putch(o, '-');
		puthex(o, -(uint64_t)v);
	} else
		puthex(o, (uint64_t)v);
}

static uint64_t
mask_bits(uint64_t v, unsigned bits)
{
	return bits >= 64 ? v : v & ((UINT64_C(1) << bits) - 1);
}

static const ZydisDecodedOperand *mem_operand(const struct ctx *c);

/* ---- registers ---- */

/* explicit: an x87 register named by the instruction, %st(0) rather than %st */
static void
reg_x(struct out *o, const struct ctx *c, ZydisRegister r, bool explicit)
{
	if (!c->intel)
		putch(o, '%');
	if (r >= ZYDIS_REGISTER_ST0 && r <= ZYDIS_REGISTER_ST7) {
		put(o, "st");
		if (r != ZYDIS_REGISTER_ST0 || explicit) {
			putch(o, '(');
			putch(o, (char)('0' + (r - ZYDIS_REGISTER_ST0)));
			putch(o, ')');
		}
		return;
	}
	if (r >= ZYDIS_REGISTER_DR0 && r <= ZYDIS_REGISTER_DR15 && !c->intel) {
		put(o, "db");	/* objdump's AT&T name for the debug registers */
		put(o, ZydisRegisterGetString(r) + 2);
		return;
	}
	put(o, ZydisRegisterGetString(r));
}

static void
reg(struct out *o, const struct ctx *c, ZydisRegister r)
{
	reg_x(o, c, r, false);
}

/* ---- memory operands ---- */

static const char *
size_name(unsigned bits)
{
	switch (bits) {
	case 8: return "BYTE PTR ";
	case 16: return "WORD PTR ";
	case 32: return "DWORD PTR ";
	case 48: return "FWORD PTR ";
	case 64: return "QWORD PTR ";
	case 80: return "TBYTE PTR ";
	case 128: return "XMMWORD PTR ";
	case 256: return "YMMWORD PTR ";
	case 512: return "ZMMWORD PTR ";
	}
	return "";
}

/* The size objdump -M intel names on a memory operand (0: none). */
static unsigned
intel_size(const struct ctx *c, const ZydisDecodedOperand *op)
{
	const ZydisDecodedInstruction *in = c->in;

	if (op->mem.type == ZYDIS_MEMOP_TYPE_AGEN)
		return 0;
	if (in->opcode_map == ZYDIS_OPCODE_MAP_DEFAULT && (in->opcode & 0xfc) == 0xa0 &&
	    in->mnemonic == ZYDIS_MNEMONIC_MOV)
		return 0;	/* mov eax,ds:0x1000 */
	if (in->meta.branch_type == ZYDIS_BRANCH_TYPE_FAR)
		return 48;	/* call FWORD PTR [rax] */
	switch (in->mnemonic) {
	case ZYDIS_MNEMONIC_CLFLUSH:
	case ZYDIS_MNEMONIC_CLFLUSHOPT:
	case ZYDIS_MNEMONIC_CLWB:
	case ZYDIS_MNEMONIC_PREFETCHT0:
	case ZYDIS_MNEMONIC_PREFETCHT1:
	case ZYDIS_MNEMONIC_PREFETCHT2:
	case ZYDIS_MNEMONIC_PREFETCHNTA:
	case ZYDIS_MNEMONIC_PREFETCHW:
	case ZYDIS_MNEMONIC_PREFETCH:
		return 8;
	default:
		break;
	}
	if (in->avx.broadcast.mode != ZYDIS_BROADCAST_MODE_INVALID && !in->avx.broadcast.is_static)
		return op->element_size;
	return op->size;
}

static bool
has_sib(const ZydisDecodedInstruction *in)
{
	return (in->attributes & ZYDIS_ATTRIB_HAS_SIB) != 0;
}

/* objdump shows a SIB byte without an index as %riz/%eiz, except for the usual (%rsp) and disp32 forms. */
static bool
shows_iz(const struct ctx *c, const ZydisDecodedOperand *op)
{
	const ZydisDecodedInstruction *in = c->in;

	if (!has_sib(in) || op->mem.index != ZYDIS_REGISTER_NONE ||
	    op->mem.type == ZYDIS_MEMOP_TYPE_VSIB)
		return false;
	if (in->raw.sib.scale != 0)
		return true;
	if (op->mem.base == ZYDIS_REGISTER_NONE)
		return !c->x64 || in->address_width == 32;
	return (in->raw.sib.base & 7) != 4;
}

static void
iz(struct out *o, const struct ctx *c)
{
	if (!c->intel)
		putch(o, '%');
	put(o, c->in->address_width == 64 ? "riz" : "eiz");
}

static void
mem_att(struct out *o, const struct ctx *c, const ZydisDecodedOperand *op, ZydisRegister seg)
{
	const ZydisDecodedInstruction *in = c->in;
	bool base = op->mem.base != ZYDIS_REGISTER_NONE;
	bool index = op->mem.index != ZYDIS_REGISTER_NONE;
	bool izr = shows_iz(c, op);

	if (seg != ZYDIS_REGISTER_NONE) {
		reg(o, c, seg);
		putch(o, ':');
	}
	if (!base && !index && !izr) {
		puthex(o, mask_bits((uint64_t)op->mem.disp.value, in->address_width));
		return;
	}
	if (in->raw.disp.size != 0)
		putshex(o, op->mem.disp.value);
	putch(o, '(');
	if (base)
		reg(o, c, op->mem.base);
	if (index || izr) {
		putch(o, ',');
		if (index)
			reg(o, c, op->mem.index);
		else
			iz(o, c);
		putch(o, ',');
		putch(o, (char)('0' + (index ? op->mem.scale : 1 << in->raw.sib.scale)));
	}
	putch(o, ')');
}

static void
mem_intel(struct out *o, const struct ctx *c, const ZydisDecodedOperand *op, ZydisRegister seg)
{
	const ZydisDecodedInstruction *in = c->in;
	bool base = op->mem.base != ZYDIS_REGISTER_NONE;
	bool index = op->mem.index != ZYDIS_REGISTER_NONE;
	bool izr = shows_iz(c, op);
	unsigned size = intel_size(c, op);

	if (size) {
		if (in->avx.broadcast.mode != ZYDIS_BROADCAST_MODE_INVALID &&
		    !in->avx.broadcast.is_static) {
			const char *s = size_name(size);
			/* "DWORD BCST " */
			while (*s != ' ')
				putch(o, *s++);
			put(o, " BCST ");
		} else
			put(o, size_name(size));
	}
	if (seg != ZYDIS_REGISTER_NONE) {
		reg(o, c, seg);
		putch(o, ':');
	} else if (!base && !index && !izr)
		put(o, "ds:");
	if (!base && !index && !izr) {
		puthex(o, mask_bits((uint64_t)op->mem.disp.value, in->address_width));
		return;
	}
	putch(o, '[');
	if (base)
		reg(o, c, op->mem.base);
	if (index || izr) {
		if (base)
			putch(o, '+');
		if (index)
			reg(o, c, op->mem.index);
		else
			iz(o, c);
		putch(o, '*');
		putch(o, (char)('0' + (index ? op->mem.scale : 1 << in->raw.sib.scale)));
	}
	if (op->mem.base == ZYDIS_REGISTER_RIP) {
		/* objdump -M intel: [rip+0xfffffffffffffe25], unsigned */
		putch(o, '+');
		puthex(o, (uint64_t)op->mem.disp.value);
	} else if (in->raw.disp.size != 0) {
		if (op->mem.disp.value >= 0)
			putch(o, '+');
		putshex(o, op->mem.disp.value);
	}
	putch(o, ']');
}

/* ---- immediates and branch targets ---- */

static void
imm(struct out *o, const struct ctx *c, const ZydisDecodedOperand *op)
{
	const ZydisDecodedInstruction *in = c->in;

	if (op->imm.is_relative) {
		ZyanU64 a = 0;
		ZydisCalcAbsoluteAddress(in, op, c->addr, &a);
		/* objdump: "jne 1240 <f+0x20>"; benchtui's annotate adds the <...> */
		putx(o, c->x64 ? a : (uint32_t)a);
		return;
	}
	if (!c->intel)
		putch(o, '$');
	/* a sign-extended immediate at the operation's size: $0xffffffffffffffe0 */
	puthex(o, mask_bits(op->imm.value.u, op->imm.is_signed ? in->operand_width :
	    op->size ? op->size : 64));
}

/* ---- mnemonics ---- */

static bool
is_string_op(const ZydisDecodedInstruction *in)
{
	return in->meta.category == ZYDIS_CATEGORY_STRINGOP ||
	    in->meta.category == ZYDIS_CATEGORY_IOSTRINGOP;
}

/*
 * The conversions whose memory source no register sizes: objdump adds x or
 * y in AT&T (vcvtpd2dqx (%rax),%xmm0; the 512-bit form is plain), 'z' too
 * for vfpclass*. 0: not one of them.
 */
static int
xyz_family(ZydisMnemonic mn)
{
	switch (mn) {
	case ZYDIS_MNEMONIC_VCVTPD2DQ: case ZYDIS_MNEMONIC_VCVTPD2PS:
	case ZYDIS_MNEMONIC_VCVTTPD2DQ: case ZYDIS_MNEMONIC_VCVTPD2UDQ:
	case ZYDIS_MNEMONIC_VCVTTPD2UDQ: case ZYDIS_MNEMONIC_VCVTQQ2PS:
	case ZYDIS_MNEMONIC_VCVTUQQ2PS:
		return 'y';
	case ZYDIS_MNEMONIC_VFPCLASSPS: case ZYDIS_MNEMONIC_VFPCLASSPD:
	case ZYDIS_MNEMONIC_VFPCLASSPH:
		return 'z';
	default:
		return 0;
	}
}

static char
xyz_suffix(const struct ctx *c)
{
	const ZydisDecodedInstruction *in = c->in;
	int upto = xyz_family(in->mnemonic);

	if (upto == 0 || in->raw.evex.b || mem_operand(c) == NULL)
		return '\0';
	switch (in->avx.vector_length) {
	case 128: return 'x';
	case 256: return 'y';
	case 512: return upto == 'z' ? 'z' : '\0';
	}
	return '\0';
}

/* A broadcast into half as many elements (those conversions): Intel names the count too. */
static bool
half_broadcast(const struct ctx *c)
{
	return c->in->raw.evex.b && xyz_family(c->in->mnemonic) == 'y' && mem_operand(c) != NULL;
}

/* Zydis names condition codes by flags (jnz, cmovnbe); objdump by meaning (jne, cmova). */
static const char *
cc_name(const char *s, size_t n)
{
	static const char *const cc[][2] = {
		{ "nbe", "a" }, { "nb", "ae" }, { "nz", "ne" }, { "z", "e" },
		{ "nle", "g" }, { "nl", "ge" },
	};
	size_t i;

	for (i = 0; i < BT_ARRAY_SIZE(cc); i++)
		if (strlen(cc[i][0]) == n && memcmp(cc[i][0], s, n) == 0)
			return cc[i][1];
	return NULL;
}

struct mn {
	char s[32];
	size_t n;
	bool drop_imm;	/* the immediate is in the mnemonic (vpcmpeqb) */
};

static void
mn_put(struct mn *m, const char *s)
{
	while (*s && m->n + 1 < sizeof(m->s))
		m->s[m->n++] = *s++;
	m->s[m->n] = '\0';
}

static void
mn_putch(struct mn *m, char ch)
{
	if (m->n + 1 < sizeof(m->s)) {
		m->s[m->n++] = ch;
		m->s[m->n] = '\0';
	}
}

static char
size_suffix(unsigned bits)
{
	switch (bits) {
	case 8: return 'b';
	case 16: return 'w';
	case 32: return 'l';
	case 64: return 'q';
	}
	return '\0';
}

static bool
is_gpr(ZydisRegister r)
{
	ZydisRegisterClass k = ZydisRegisterGetClass(r);

	return k == ZYDIS_REGCLASS_GPR8 || k == ZYDIS_REGCLASS_GPR16 ||
	    k == ZYDIS_REGCLASS_GPR32 || k == ZYDIS_REGCLASS_GPR64;
}

/* The explicit memory operand, or NULL. */
static const ZydisDecodedOperand *
mem_operand(const struct ctx *c)
{
	uint8_t i;

	for (i = 0; i < c->in->operand_count_visible; i++)
		if (c->ops[i].type == ZYDIS_OPERAND_TYPE_MEMORY &&
		    c->ops[i].visibility == ZYDIS_OPERAND_VISIBILITY_EXPLICIT)
			return &c->ops[i];
	return NULL;
}

/*
 * AT&T: objdump adds b/w/l/q to a general-purpose instruction whose size
 * no register operand tells (incl (%rax), movl $0x0,(%rdi), shll %cl,(%rax)).
 */
static char
att_suffix(const struct ctx *c)
{
	const ZydisDecodedInstruction *in = c->in;
	const ZydisDecodedOperand *m;
	uint8_t i;

	if (in->meta.isa_ext != ZYDIS_ISA_EXT_BASE && in->meta.isa_ext != ZYDIS_ISA_EXT_LONGMODE)
		return '\0';
	switch (in->meta.category) {
	case ZYDIS_CATEGORY_CALL:
	case ZYDIS_CATEGORY_UNCOND_BR:
	case ZYDIS_CATEGORY_PUSH:
	case ZYDIS_CATEGORY_POP:
	case ZYDIS_CATEGORY_SETCC:
	case ZYDIS_CATEGORY_SYSTEM:	/* sldt (%rax), str, smsw, lldt, ltr */
		return '\0';
	default:
		break;
	}
	if ((m = mem_operand(c)) == NULL || m->mem.type == ZYDIS_MEMOP_TYPE_AGEN)
		return '\0';
	for (i = 0; i < in->operand_count_visible; i++) {
		const ZydisDecodedOperand *op = &c->ops[i];
		if (op->type == ZYDIS_OPERAND_TYPE_REGISTER &&
		    op->visibility == ZYDIS_OPERAND_VISIBILITY_EXPLICIT)
			return '\0';	/* mov 0x47(%rdi),%es too */
		if (op->type == ZYDIS_OPERAND_TYPE_REGISTER &&
		    op->visibility == ZYDIS_OPERAND_VISIBILITY_IMPLICIT && is_gpr(op->reg.value) &&
		    op->reg.value != ZYDIS_REGISTER_CL)
			return '\0';
	}
	return size_suffix(m->size);
}

static const char *const cmp_pred[32] = {
	"eq", "lt", "le", "unord", "neq", "nlt", "nle", "ord",
	"eq_uq", "nge", "ngt", "false", "neq_oq", "ge", "gt", "true",
	"eq_os", "lt_oq", "le_oq", "unord_s", "neq_us", "nlt_uq", "nle_uq", "ord_s",
	"eq_us", "nge_uq", "ngt_uq", "false_os", "neq_os", "ge_oq", "gt_oq", "true_us",
};

/* The immediate operand (the last one), or NULL. */
static const ZydisDecodedOperand *
last_imm(const struct ctx *c)
{
	uint8_t n = c->in->operand_count_visible;

	return n > 0 && c->ops[n - 1].type == ZYDIS_OPERAND_TYPE_IMMEDIATE ? &c->ops[n - 1] : NULL;
}

/*
 * objdump names a comparison predicate in the mnemonic and drops the
 * immediate: vpcmpb $0x0 -> vpcmpeqb, cmpsd $0x6 -> cmpnlesd,
 * pclmulqdq $0x11 -> pclmulhqhqdq. True when it does (m filled).
 */
static bool
predicate_alias(const struct ctx *c, const char *z, struct mn *m)
{
	static const char *const pclmul[] = { "lqlq", "hqlq", "lqhq", "hqhq" };
	const ZydisDecodedOperand *im = last_imm(c);
	uint64_t v;
	size_t stem;

	if (im == NULL)
		return false;
	v = im->imm.value.u & 0xff;
	switch (c->in->mnemonic) {
	case ZYDIS_MNEMONIC_CMPPS: case ZYDIS_MNEMONIC_CMPPD:
	case ZYDIS_MNEMONIC_CMPSS: case ZYDIS_MNEMONIC_CMPSD:
		if (v >= 8)
			return false;
		stem = 3;
		break;
	case ZYDIS_MNEMONIC_VCMPPS: case ZYDIS_MNEMONIC_VCMPPD:
	case ZYDIS_MNEMONIC_VCMPSS: case ZYDIS_MNEMONIC_VCMPSD:
	case ZYDIS_MNEMONIC_VCMPPH: case ZYDIS_MNEMONIC_VCMPSH:
		if (v >= 32)
			return false;
		stem = 4;
		break;
	case ZYDIS_MNEMONIC_VPCMPB: case ZYDIS_MNEMONIC_VPCMPW:
	case ZYDIS_MNEMONIC_VPCMPD: case ZYDIS_MNEMONIC_VPCMPQ:
	case ZYDIS_MNEMONIC_VPCMPUB: case ZYDIS_MNEMONIC_VPCMPUW:
	case ZYDIS_MNEMONIC_VPCMPUD: case ZYDIS_MNEMONIC_VPCMPUQ:
		if (v == 3 || v >= 7)
			return false;
		stem = 5;
		break;
	case ZYDIS_MNEMONIC_PCLMULQDQ:
	case ZYDIS_MNEMONIC_VPCLMULQDQ:
		v = v == 0x10 ? 2 : v == 0x11 ? 3 : v;
		if (v >= 4)
			return false;
		mn_put(m, c->in->mnemonic == ZYDIS_MNEMONIC_PCLMULQDQ ? "pclmul" : "vpclmul");
		mn_put(m, pclmul[v]);
		mn_put(m, "dq");
		return true;
	default:
		return false;
	}
	memcpy(m->s, z, stem);
	m->n = stem;
	m->s[stem] = '\0';
	mn_put(m, cmp_pred[v]);
	mn_put(m, z + stem);
	return true;
}

/* x87 memory operands: flds/fldl/fldt, filds/fildl/fildll (AT&T only) */
static const char *
x87_suffix(const struct ctx *c)
{
	const ZydisDecodedOperand *mo = mem_operand(c);

	if (mo == NULL)
		return "";
	switch (c->in->mnemonic) {
	case ZYDIS_MNEMONIC_FLD: case ZYDIS_MNEMONIC_FST: case ZYDIS_MNEMONIC_FSTP:
	case ZYDIS_MNEMONIC_FADD: case ZYDIS_MNEMONIC_FSUB: case ZYDIS_MNEMONIC_FSUBR:
	case ZYDIS_MNEMONIC_FMUL: case ZYDIS_MNEMONIC_FDIV: case ZYDIS_MNEMONIC_FDIVR:
	case ZYDIS_MNEMONIC_FCOM: case ZYDIS_MNEMONIC_FCOMP:
		return mo->size == 32 ? "s" : mo->size == 64 ? "l" : mo->size == 80 ? "t" : "";
	case ZYDIS_MNEMONIC_FILD: case ZYDIS_MNEMONIC_FIST: case ZYDIS_MNEMONIC_FISTP:
	case ZYDIS_MNEMONIC_FISTTP: case ZYDIS_MNEMONIC_FIADD: case ZYDIS_MNEMONIC_FISUB:
	case ZYDIS_MNEMONIC_FISUBR: case ZYDIS_MNEMONIC_FIMUL: case ZYDIS_MNEMONIC_FIDIV:
	case ZYDIS_MNEMONIC_FIDIVR: case ZYDIS_MNEMONIC_FICOM: case ZYDIS_MNEMONIC_FICOMP:
		return mo->size == 16 ? "s" : mo->size == 32 ? "l" : mo->size == 64 ? "ll" : "";
	default:
		return "";
	}
}

/*
 * AT&T objdump keeps the old UnixWare assembler's swap of fsub/fsubr and
 * fdiv/fdivr when the destination is %st(i) (opcodes dc and de, register forms).
 */
static bool
x87_swapped(const ZydisDecodedInstruction *in)
{
	if ((in->opcode != 0xdc && in->opcode != 0xde) || in->raw.modrm.mod != 3 ||
	    in->opcode_map != ZYDIS_OPCODE_MAP_DEFAULT)
		return false;
	switch (in->mnemonic) {
	case ZYDIS_MNEMONIC_FSUB: case ZYDIS_MNEMONIC_FSUBR: case ZYDIS_MNEMONIC_FSUBP:
	case ZYDIS_MNEMONIC_FSUBRP: case ZYDIS_MNEMONIC_FDIV: case ZYDIS_MNEMONIC_FDIVR:
	case ZYDIS_MNEMONIC_FDIVP: case ZYDIS_MNEMONIC_FDIVRP:
		return true;
	default:
		return false;
	}
}

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

static void
mnemonic(const struct ctx *c, struct mn *m)
{
	const ZydisDecodedInstruction *in = c->in;
	const char *z = ZydisMnemonicGetString(in->mnemonic);
	const ZydisDecodedOperand *mo;
	char sfx;

	m->n = 0;
	m->s[0] = '\0';
	m->drop_imm = false;
	if (z == NULL) {
		mn_put(m, "(bad)");
		return;
	}
	if (c->fwait && z[0] == 'f' && z[1] == 'n' && in->mnemonic != ZYDIS_MNEMONIC_FNOP) {
		/* 9b db e2: fclex, not fwait + fnclex */
		mn_put(m, "f");
		mn_put(m, z + 2);
		return;
	}
	if (is_string_op(in)) {
		/* objdump: movsb/cmpsl with operands in AT&T; stos, lods, scas bare */
		char base[8];
		size_t l = strlen(z) - 1;
		if (l >= sizeof(base))
			l = sizeof(base) - 1;
		memcpy(base, z, l);
		base[l] = '\0';
		mn_put(m, base);
		if (!c->intel && (strcmp(base, "movs") == 0 || strcmp(base, "cmps") == 0 ||
		    strcmp(base, "ins") == 0 || strcmp(base, "outs") == 0))
			mn_putch(m, size_suffix(in->operand_width));
		return;
	}
	if (predicate_alias(c, z, m)) {
		m->drop_imm = true;
		return;
	}
	if (in->meta.category == ZYDIS_CATEGORY_X87_ALU || in->meta.isa_ext == ZYDIS_ISA_EXT_X87) {
		if (!c->intel && x87_swapped(in)) {
			bool r = strchr(z + 4, 'r') != NULL;	/* fsub[r][p], fdiv[r][p] */
			mn_put(m, in->mnemonic == ZYDIS_MNEMONIC_FSUB || in->mnemonic == ZYDIS_MNEMONIC_FSUBR ||
			    in->mnemonic == ZYDIS_MNEMONIC_FSUBP || in->mnemonic == ZYDIS_MNEMONIC_FSUBRP ?
			    "fsub" : "fdiv");
			if (!r)
				mn_putch(m, 'r');
			if (z[strlen(z) - 1] == 'p')
				mn_putch(m, 'p');
			return;
		}
		mn_put(m, z);
		if (!c->intel)
			mn_put(m, x87_suffix(c));
		return;
	}
	switch (in->mnemonic) {
	case ZYDIS_MNEMONIC_CVTSI2SS: case ZYDIS_MNEMONIC_CVTSI2SD:
	case ZYDIS_MNEMONIC_VCVTSI2SS: case ZYDIS_MNEMONIC_VCVTSI2SD:
	case ZYDIS_MNEMONIC_VCVTUSI2SS: case ZYDIS_MNEMONIC_VCVTUSI2SD:
		/* the integer source's size, which no register tells: cvtsi2sdl (%rax),%xmm0 */
		mn_put(m, z);
		if (!c->intel && (mo = mem_operand(c)) != NULL)
			mn_putch(m, size_suffix(mo->size));
		return;
	case ZYDIS_MNEMONIC_CDQE:
		mn_put(m, c->intel ? "cdqe" : "cltq");
		return;
	case ZYDIS_MNEMONIC_CWDE:
		mn_put(m, c->intel ? "cwde" : "cwtl");
		return;
	case ZYDIS_MNEMONIC_CBW:
		mn_put(m, c->intel ? "cbw" : "cbtw");
		return;
	case ZYDIS_MNEMONIC_CWD:
		mn_put(m, c->intel ? "cwd" : "cwtd");
		return;
	case ZYDIS_MNEMONIC_CDQ:
		mn_put(m, c->intel ? "cdq" : "cltd");
		return;
	case ZYDIS_MNEMONIC_CQO:
		mn_put(m, c->intel ? "cqo" : "cqto");
		return;
	case ZYDIS_MNEMONIC_MOVSXD:
		/* movslq only into a 64-bit register */
		mn_put(m, c->intel || c->ops[0].size != 64 ? "movsxd" : "movslq");
		return;
	case ZYDIS_MNEMONIC_PUSHFQ: case ZYDIS_MNEMONIC_PUSHFD:
		mn_put(m, "pushf");
		return;
	case ZYDIS_MNEMONIC_POPFQ: case ZYDIS_MNEMONIC_POPFD:
		mn_put(m, "popf");
		return;
	case ZYDIS_MNEMONIC_IRETD:
		mn_put(m, "iret");
		return;
	case ZYDIS_MNEMONIC_PUSHAD:
		mn_put(m, "pusha");
		return;
	case ZYDIS_MNEMONIC_POPAD:
		mn_put(m, "popa");
		return;
	case ZYDIS_MNEMONIC_RET:
		if (in->opcode == 0xca || in->opcode == 0xcb) {
			mn_put(m, c->intel ? "retf" : "lret");	/* far */
			if (in->raw.rex.W)
				mn_putch(m, 'q');
			return;
		}
		break;
	case ZYDIS_MNEMONIC_CALL:
	case ZYDIS_MNEMONIC_JMP:
		if (in->meta.branch_type == ZYDIS_BRANCH_TYPE_FAR && !c->intel) {
			mn_putch(m, 'l');	/* lcall *(%rax) */
			mn_put(m, z);
			return;
		}
		break;
	case ZYDIS_MNEMONIC_MOVZX:
	case ZYDIS_MNEMONIC_MOVSX:
		if (c->intel) {
			mn_put(m, z);
			return;
		}
		mn_put(m, in->mnemonic == ZYDIS_MNEMONIC_MOVZX ? "movz" : "movs");
		mn_putch(m, size_suffix(c->ops[1].size));
		mn_putch(m, size_suffix(c->ops[0].size));
		return;
	case ZYDIS_MNEMONIC_MOV:
		if (in->raw.imm[0].size == 64 || (c->x64 && in->address_width == 64 &&
		    (in->opcode & 0xfc) == 0xa0 && in->opcode_map == ZYDIS_OPCODE_MAP_DEFAULT)) {
			mn_put(m, "movabs");
			return;
		}
		break;
	case ZYDIS_MNEMONIC_NOP:
		if (in->opcode == 0x90 && in->opcode_map == ZYDIS_OPCODE_MAP_DEFAULT &&
		    in->operand_width == 16) {
			mn_put(m, "xchg");	/* 66 90: xchg %ax,%ax */
			return;
		}
		if ((mo = mem_operand(c)) != NULL) {
			mn_put(m, "nop");	/* nopw 0x0(%rax,%rax,1), nopq (%rax) */
			if (!c->intel)
				mn_putch(m, size_suffix(in->operand_width));
			return;
		}
		break;
	default:
		break;
	}
	/* condition codes */
	if (z[0] == 'j' || z[0] == 'c' || z[0] == 's') {
		size_t stem = z[0] == 'j' ? 1 : strncmp(z, "cmov", 4) == 0 ? 4 :
		    strncmp(z, "set", 3) == 0 ? 3 : 0;
		const char *cc = stem ? cc_name(z + stem, strlen(z + stem)) : NULL;
		if (cc != NULL) {
			char buf[8];
			memcpy(buf, z, stem);
			buf[stem] = '\0';
			mn_put(m, buf);
			mn_put(m, cc);
			return;
		}
	}
	mn_put(m, z);
	if (!c->intel && ((sfx = att_suffix(c)) != '\0' || (sfx = xyz_suffix(c)) != '\0'))
		mn_putch(m, sfx);
}

/* ---- prefixes ---- */

/* AVX-VNNI and AVX-IFMA: objdump marks their VEX form, "{vex} vpdpbusd" */
static bool
vex_marked(ZydisMnemonic mn)
{
	switch (mn) {
	case ZYDIS_MNEMONIC_VPDPBUSD: case ZYDIS_MNEMONIC_VPDPBUSDS:
	case ZYDIS_MNEMONIC_VPDPWSSD: case ZYDIS_MNEMONIC_VPDPWSSDS:
	case ZYDIS_MNEMONIC_VPMADD52LUQ: case ZYDIS_MNEMONIC_VPMADD52HUQ:
		return true;
	default:
		return false;
	}
}

static bool
high_reg(ZydisRegister r)
{
	return r != ZYDIS_REGISTER_NONE && ZydisRegisterGetId(r) >= 16;
}

/*
 * objdump marks an EVEX encoding that uses nothing of EVEX (no zmm, mask,
 * broadcast, rounding or register above 15) of an instruction VEX also
 * encodes: "{evex} vpaddd %xmm2,%xmm1,%xmm0".
 */
static bool
needless_evex(const struct ctx *c)
{
	const ZydisDecodedInstruction *in = c->in;
	const ZydisEncodableInstruction *def;
	uint8_t i, n;

	if (in->encoding != ZYDIS_INSTRUCTION_ENCODING_EVEX || in->avx.vector_length == 512 ||
	    in->raw.evex.aaa != 0 || in->raw.evex.b)
		return false;
	for (i = 0; i < in->operand_count_visible; i++) {
		const ZydisDecodedOperand *op = &c->ops[i];
		if (op->type == ZYDIS_OPERAND_TYPE_REGISTER && high_reg(op->reg.value) &&
		    ZydisRegisterGetClass(op->reg.value) != ZYDIS_REGCLASS_GPR64 &&
		    ZydisRegisterGetClass(op->reg.value) != ZYDIS_REGCLASS_GPR32)
			return false;
		if (op->type == ZYDIS_OPERAND_TYPE_MEMORY && op->mem.type == ZYDIS_MEMOP_TYPE_VSIB &&
		    high_reg(op->mem.index))
			return false;
	}
	if (vex_marked(in->mnemonic))
		return false;	/* there the VEX form is the one marked */
	/* a VEX form of the same opcode (vpbroadcastd %esi,%ymm5 has none) */
	n = ZydisGetEncodableInstructions(in->mnemonic, &def);
	for (i = 0; i < n; i++)
		if (def[i].encoding == ZYDIS_INSTRUCTION_ENCODING_VEX &&
		    def[i].opcode == in->opcode && def[i].opcode_map == in->opcode_map)
			return true;
	return false;
}

static bool
is_branch(const ZydisDecodedInstruction *in)
{
	return in->meta.category == ZYDIS_CATEGORY_COND_BR ||
	    in->meta.category == ZYDIS_CATEGORY_UNCOND_BR ||
	    in->meta.category == ZYDIS_CATEGORY_CALL ||
	    in->meta.category == ZYDIS_CATEGORY_RET;
}

/* A relative branch or ret, which REX.W does not change: objdump prints "rex.W call". */
static bool
default64(const ZydisDecodedInstruction *in)
{
	return is_branch(in) && !(in->attributes & ZYDIS_ATTRIB_HAS_MODRM);
}

static const char *const rex_names[16] = {
	"rex", "rex.B", "rex.X", "rex.XB", "rex.R", "rex.RB", "rex.RX", "rex.RXB",
	"rex.W", "rex.WB", "rex.WX", "rex.WXB", "rex.WR", "rex.WRB", "rex.WRX", "rex.WRXB",
};

/* Segment prefix value -> register. */
static ZydisRegister
seg_of(uint8_t v)
{
	switch (v) {
	case 0x26: return ZYDIS_REGISTER_ES;
	case 0x2e: return ZYDIS_REGISTER_CS;
	case 0x36: return ZYDIS_REGISTER_SS;
	case 0x3e: return ZYDIS_REGISTER_DS;
	case 0x64: return ZYDIS_REGISTER_FS;
	case 0x65: return ZYDIS_REGISTER_GS;
	}
	return ZYDIS_REGISTER_NONE;
}

/* Does the address size matter: a memory operand, or jrcxz and loop? */
static bool
uses_address_size(const struct ctx *c)
{
	uint8_t i;

	switch (c->in->mnemonic) {
	case ZYDIS_MNEMONIC_JCXZ: case ZYDIS_MNEMONIC_JECXZ: case ZYDIS_MNEMONIC_JRCXZ:
	case ZYDIS_MNEMONIC_LOOP: case ZYDIS_MNEMONIC_LOOPE: case ZYDIS_MNEMONIC_LOOPNE:
		return true;
	default:
		break;
	}
	for (i = 0; i < c->in->operand_count; i++)
		if (c->ops[i].type == ZYDIS_OPERAND_TYPE_MEMORY &&
		    (c->ops[i].visibility != ZYDIS_OPERAND_VISIBILITY_HIDDEN ||
		    ZydisRegisterGetId(c->ops[i].mem.base) != 4))	/* not the stack of push/call */
			return true;
	return false;
}

static bool
source_string(const ZydisDecodedOperand *op)
{
	ZydisRegister b = op->mem.base;

	return op->type == ZYDIS_OPERAND_TYPE_MEMORY &&
	    (b == ZYDIS_REGISTER_RSI || b == ZYDIS_REGISTER_ESI || b == ZYDIS_REGISTER_SI);
}

/* Prefixes objdump prints by name, in their order, each followed by a blank. */
static void
prefixes(struct out *o, struct ctx *c, const char **hint)
{
	const ZydisDecodedInstruction *in = c->in;
	const ZydisDecodedOperand *mo = mem_operand(c);
	uint8_t i;
	int last_seg = -1;
	bool seg_used = false;

	/* the segment override a memory operand uses: the last one given */
	for (i = 0; i < in->raw.prefix_count; i++)
		if (seg_of(in->raw.prefixes[i].value) != ZYDIS_REGISTER_NONE)
			last_seg = i;
	if (last_seg >= 0 && mo != NULL && !is_string_op(in)) {
		ZydisRegister s = seg_of(in->raw.prefixes[last_seg].value);
		if (!c->x64 || s == ZYDIS_REGISTER_FS || s == ZYDIS_REGISTER_GS)
			c->seg = s;
	}
	/* movs, cmps, lods, outs, xlat: the segment of (%rsi) or (%rbx) takes it */
	if (last_seg >= 0 && (in->mnemonic == ZYDIS_MNEMONIC_XLAT || (is_string_op(in) &&
	    in->operand_count >= 2 && (source_string(&c->ops[0]) || source_string(&c->ops[1])))))
		seg_used = true;
	for (i = 0; i < in->raw.prefix_count; i++) {
		uint8_t v = in->raw.prefixes[i].value;
		ZydisPrefixType t = in->raw.prefixes[i].type;
		const char *name = NULL;

		switch (v) {
		case 0xf0:
			name = "lock";
			break;
		case 0xf2:
		case 0xf3:
			if (t == ZYDIS_PREFIX_TYPE_MANDATORY && !is_string_op(in))
				break;
			if (is_string_op(in)) {
				bool cmp = in->mnemonic == ZYDIS_MNEMONIC_CMPSB ||
				    in->mnemonic == ZYDIS_MNEMONIC_CMPSW ||
				    in->mnemonic == ZYDIS_MNEMONIC_CMPSD ||
				    in->mnemonic == ZYDIS_MNEMONIC_CMPSQ ||
				    in->mnemonic == ZYDIS_MNEMONIC_SCASB ||
				    in->mnemonic == ZYDIS_MNEMONIC_SCASW ||
				    in->mnemonic == ZYDIS_MNEMONIC_SCASD ||
				    in->mnemonic == ZYDIS_MNEMONIC_SCASQ;
				name = v == 0xf2 ? "repnz" : cmp ? "repz" : "rep";
			} else if (v == 0xf2 && is_branch(in) && in->mnemonic != ZYDIS_MNEMONIC_IRET &&
			    in->mnemonic != ZYDIS_MNEMONIC_IRETD && in->mnemonic != ZYDIS_MNEMONIC_IRETQ)
				name = "bnd";
			else if (in->attributes & ZYDIS_ATTRIB_HAS_XACQUIRE)
				name = "xacquire";
			else if (in->attributes & ZYDIS_ATTRIB_HAS_XRELEASE)
				name = "xrelease";
			else
				name = v == 0xf2 ? "repnz" : "repz";
			break;
		case 0x66:
			/* unused, or overridden by REX.W (data16 lea ...(%rip),%rdi) */
			if (t == ZYDIS_PREFIX_TYPE_IGNORED || (t == ZYDIS_PREFIX_TYPE_EFFECTIVE &&
			    (in->raw.rex.W || in->operand_width == 8)))
				name = "data16";
			break;
		case 0x67:
			if (t == ZYDIS_PREFIX_TYPE_IGNORED || !uses_address_size(c))
				name = c->x64 ? "addr32" : "addr16";
			break;
		case 0x26: case 0x2e: case 0x36: case 0x3e: case 0x64: case 0x65:
			if (i == last_seg && (c->seg != ZYDIS_REGISTER_NONE || seg_used))
				break;
			if (v == 0x3e && (in->attributes & ZYDIS_ATTRIB_HAS_NOTRACK)) {
				name = "notrack";
				break;
			}
			if ((v == 0x2e || v == 0x3e) && in->meta.category == ZYDIS_CATEGORY_COND_BR &&
			    !c->intel) {
				*hint = v == 0x2e ? ",pn" : ",pt";
				break;
			}
			name = ZydisRegisterGetString(seg_of(v));
			break;
		default:
			if ((v & 0xf0) == 0x40 && c->x64 && (t == ZYDIS_PREFIX_TYPE_IGNORED ||
			    (v == 0x48 && default64(in))))
				name = rex_names[v & 15];
			break;
		}
		if (name != NULL) {
			put(o, name);
			putch(o, ' ');
		}
	}
}

/* ---- operands ---- */

enum { OPND_MAX = 8 };

static void
operand(struct out *o, const struct ctx *c, const ZydisDecodedOperand *op)
{
	const ZydisDecodedInstruction *in = c->in;
	ZydisRegister seg = c->force_seg ? op->mem.segment : c->seg;

	switch (op->type) {
	case ZYDIS_OPERAND_TYPE_REGISTER:
		if (!c->intel && (in->meta.category == ZYDIS_CATEGORY_CALL ||
		    in->meta.category == ZYDIS_CATEGORY_UNCOND_BR))
			putch(o, '*');
		if (!c->intel && op->reg.value == ZYDIS_REGISTER_DX &&
		    (in->meta.category == ZYDIS_CATEGORY_IO ||
		    in->meta.category == ZYDIS_CATEGORY_IOSTRINGOP)) {
			put(o, "(%dx)");	/* in (%dx),%al */
			break;
		}
		if (in->mnemonic == ZYDIS_MNEMONIC_MOV && is_gpr(op->reg.value) &&
		    in->operand_width > 16 && ZydisRegisterGetClass(op->reg.value) == ZYDIS_REGCLASS_GPR16) {
			/* mov %esi,%fs: the register at the operation's size */
			reg(o, c, ZydisRegisterEncode(in->operand_width == 64 ? ZYDIS_REGCLASS_GPR64 :
			    ZYDIS_REGCLASS_GPR32, ZydisRegisterGetId(op->reg.value)));
			break;
		}
		reg_x(o, c, op->reg.value, op->visibility == ZYDIS_OPERAND_VISIBILITY_EXPLICIT);
		break;
	case ZYDIS_OPERAND_TYPE_MEMORY:
		if (c->intel)
			mem_intel(o, c, op, seg);
		else {
			if (in->meta.category == ZYDIS_CATEGORY_CALL ||
			    in->meta.category == ZYDIS_CATEGORY_UNCOND_BR)
				putch(o, '*');
			mem_att(o, c, op, seg);
		}
		break;
	case ZYDIS_OPERAND_TYPE_IMMEDIATE:
		imm(o, c, op);
		break;
	case ZYDIS_OPERAND_TYPE_POINTER:
		/* ljmp $0xf66,$0x2d58f3e; Intel: jmp 0xf66:0x2d58f3e */
		if (!c->intel)
			putch(o, '$');
		puthex(o, op->ptr.segment);
		putch(o, c->intel ? ':' : ',');
		if (!c->intel)
			putch(o, '$');
		puthex(o, op->ptr.offset);
		break;
	default:
		break;
	}
}

/* The mask and zeroing decorators objdump puts after the destination. */
static void
mask_decorator(struct out *o, const struct ctx *c)
{
	const ZydisDecodedInstruction *in = c->in;

	if (in->avx.mask.reg == ZYDIS_REGISTER_NONE || in->avx.mask.reg == ZYDIS_REGISTER_K0)
		return;
	putch(o, '{');
	reg(o, c, in->avx.mask.reg);
	putch(o, '}');
	if (in->raw.evex.z)
		put(o, "{z}");
}

static void
broadcast_decorator(struct out *o, const struct ctx *c)
{
	static const char *const bc[] = {
		[ZYDIS_BROADCAST_MODE_1_TO_2] = "{1to2}", [ZYDIS_BROADCAST_MODE_1_TO_4] = "{1to4}",
		[ZYDIS_BROADCAST_MODE_1_TO_8] = "{1to8}", [ZYDIS_BROADCAST_MODE_1_TO_16] = "{1to16}",
		[ZYDIS_BROADCAST_MODE_1_TO_32] = "{1to32}", [ZYDIS_BROADCAST_MODE_1_TO_64] = "{1to64}",
	};
	ZydisBroadcastMode b = c->in->avx.broadcast.mode;

	if ((c->intel && !half_broadcast(c)) || c->in->avx.broadcast.is_static ||
	    (size_t)b >= BT_ARRAY_SIZE(bc) ||
	    bc[b] == NULL)
		return;
	put(o, bc[b]);
}

static const char *
rounding(const ZydisDecodedInstruction *in)
{
	switch (in->avx.rounding.mode) {
	case ZYDIS_ROUNDING_MODE_RN: return "{rn-sae}";
	case ZYDIS_ROUNDING_MODE_RD: return "{rd-sae}";
	case ZYDIS_ROUNDING_MODE_RU: return "{ru-sae}";
	case ZYDIS_ROUNDING_MODE_RZ: return "{rz-sae}";
	default: break;
	}
	return in->avx.has_sae ? "{sae}" : NULL;
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
	const char *hint = NULL, *rc, *literal = NULL;
	struct mn m;
	/* the operands objdump shows, in Intel order; -1 marks the rounding pseudo-operand */
	int list[OPND_MAX], n = 0, i, last_rm = -1, nvis = in->operand_count_visible;
	/* enter $0x10,$0x0 and bound: the AT&T instructions objdump does not reverse */
	bool reverse = !intel && in->mnemonic != ZYDIS_MNEMONIC_ENTER &&
	    in->mnemonic != ZYDIS_MNEMONIC_BOUND;
	char *start;

	if (!fwait)
		prefixes(&o, &c, &hint);
	if (needless_evex(&c))
		put(&o, "{evex} ");
	else if (in->encoding == ZYDIS_INSTRUCTION_ENCODING_VEX && vex_marked(in->mnemonic))
		put(&o, "{vex} ");
	mnemonic(&c, &m);
	put(&o, m.s);
	if (hint)
		put(&o, hint);
	if (is_string_op(in)) {
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
	if ((rc = rounding(in)) != NULL && n < OPND_MAX) {
		memmove(&list[last_rm + 2], &list[last_rm + 1], (size_t)(n - last_rm - 1) * sizeof(int));
		list[last_rm + 1] = -1;
		n++;
	}
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
		operand(&o, &c, &ops[k]);
		if (k == list[0])
			mask_decorator(&o, &c);
		if (ops[k].type == ZYDIS_OPERAND_TYPE_MEMORY)
			broadcast_decorator(&o, &c);
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
