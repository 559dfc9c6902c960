/*
 * x86 mnemonics as objdump spells them (x86-text.c): AT&T size suffixes,
 * condition codes by meaning, comparison predicates in the name, x87's
 * forms and the names AT&T gives some instructions (cltq, movslq).
 */
#include <string.h>

#include "base.h"
#include "disasm/x86-text.h"
#include "disasm/x86-text-int.h"

bool
x86_is_string_op(const ZydisDecodedInstruction *in)
{
	return in->meta.category == ZYDIS_CATEGORY_STRINGOP ||
	    in->meta.category == ZYDIS_CATEGORY_IOSTRINGOP;
}

bool
x86_w_bit(const ZydisDecodedInstruction *in)
{
	switch (in->encoding) {
	case ZYDIS_INSTRUCTION_ENCODING_VEX:
		return in->raw.vex.W;
	case ZYDIS_INSTRUCTION_ENCODING_EVEX:
		return in->raw.evex.W;
	case ZYDIS_INSTRUCTION_ENCODING_LEGACY:
		return in->raw.rex.W;
	default:
		return false;
	}
}

bool
x86_mask_to_gpr64(const ZydisDecodedInstruction *in)
{
	switch (in->mnemonic) {
	case ZYDIS_MNEMONIC_MOVMSKPS: case ZYDIS_MNEMONIC_MOVMSKPD:
	case ZYDIS_MNEMONIC_PMOVMSKB: case ZYDIS_MNEMONIC_VMOVMSKPS:
	case ZYDIS_MNEMONIC_VMOVMSKPD: case ZYDIS_MNEMONIC_VPMOVMSKB:
		return in->machine_mode == ZYDIS_MACHINE_MODE_LONG_64 && x86_w_bit(in);
	default:
		return false;
	}
}

/*
 * The conversions whose memory source no register sizes: objdump adds x or
 * y in AT&T (vcvtpd2dqx (%rax),%xmm0; the 512-bit form, into a ymm, is
 * plain), 'z' too where every length writes an xmm or a mask (vfpclass*,
 * vcvtpd2phz). 0: not one of them.
 */
static int
xyz_family(ZydisMnemonic mn)
{
	switch (mn) {
	case ZYDIS_MNEMONIC_VCVTPD2DQ: case ZYDIS_MNEMONIC_VCVTPD2PS:
	case ZYDIS_MNEMONIC_VCVTTPD2DQ: case ZYDIS_MNEMONIC_VCVTPD2UDQ:
	case ZYDIS_MNEMONIC_VCVTTPD2UDQ: case ZYDIS_MNEMONIC_VCVTQQ2PS:
	case ZYDIS_MNEMONIC_VCVTUQQ2PS: case ZYDIS_MNEMONIC_VCVTNEPS2BF16:
	case ZYDIS_MNEMONIC_VCVTDQ2PH: case ZYDIS_MNEMONIC_VCVTUDQ2PH:
	case ZYDIS_MNEMONIC_VCVTPS2PHX:
		return 'y';
	case ZYDIS_MNEMONIC_VFPCLASSPS: case ZYDIS_MNEMONIC_VFPCLASSPD:
	case ZYDIS_MNEMONIC_VFPCLASSPH: case ZYDIS_MNEMONIC_VCVTPD2PH:
	case ZYDIS_MNEMONIC_VCVTQQ2PH: case ZYDIS_MNEMONIC_VCVTUQQ2PH:
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

	if (upto == 0 || in->raw.evex.b || x86_mem_operand(c) == NULL)
		return '\0';
	switch (in->avx.vector_length) {
	case 128: return 'x';
	case 256: return 'y';
	case 512: return upto == 'z' ? 'z' : '\0';
	}
	return '\0';
}

/*
 * A broadcast whose count the destination does not tell (those
 * conversions into an xmm, vfpclass* into a mask): Intel names the count
 * too, "QWORD BCST [rax]{1to4}". A ymm destination tells 512 bits.
 */
bool
x86_bcst_count_shown(const struct ctx *c)
{
	int f = xyz_family(c->in->mnemonic);

	if (!c->in->raw.evex.b || f == 0 || x86_mem_operand(c) == NULL)
		return false;
	return f == 'z' || c->in->avx.vector_length != 512;
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

bool
x86_is_gpr(ZydisRegister r)
{
	ZydisRegisterClass k = ZydisRegisterGetClass(r);

	return k == ZYDIS_REGCLASS_GPR8 || k == ZYDIS_REGCLASS_GPR16 ||
	    k == ZYDIS_REGCLASS_GPR32 || k == ZYDIS_REGCLASS_GPR64;
}

/* The explicit memory operand, or NULL. */
const ZydisDecodedOperand *
x86_mem_operand(const struct ctx *c)
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
	if ((m = x86_mem_operand(c)) == NULL || m->mem.type == ZYDIS_MEMOP_TYPE_AGEN ||
	    in->mnemonic == ZYDIS_MNEMONIC_CMPXCHG8B || in->mnemonic == ZYDIS_MNEMONIC_CMPXCHG16B)
		return '\0';	/* cmpxchg8b (%rdi): the size is in the name */
	for (i = 0; i < in->operand_count_visible; i++) {
		const ZydisDecodedOperand *op = &c->ops[i];
		if (op->type == ZYDIS_OPERAND_TYPE_REGISTER &&
		    op->visibility == ZYDIS_OPERAND_VISIBILITY_EXPLICIT)
			return '\0';	/* mov 0x47(%rdi),%es too */
		if (op->type == ZYDIS_OPERAND_TYPE_REGISTER &&
		    op->visibility == ZYDIS_OPERAND_VISIBILITY_IMPLICIT && x86_is_gpr(op->reg.value) &&
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
	const ZydisDecodedOperand *mo = x86_mem_operand(c);

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

/* String instructions: movsb/cmpsl with operands in AT&T; stos, lods, scas bare. */
static void
string_mnemonic(const struct ctx *c, const char *z, struct mn *m)
{
	char base[8];
	size_t l = strlen(z) - 1;

	if (l >= sizeof(base))
		l = sizeof(base) - 1;
	memcpy(base, z, l);
	base[l] = '\0';
	mn_put(m, base);
	if (!c->intel && (strcmp(base, "movs") == 0 || strcmp(base, "cmps") == 0 ||
	    strcmp(base, "ins") == 0 || strcmp(base, "outs") == 0))
		mn_putch(m, size_suffix(c->in->operand_width));
}

static void
x87_mnemonic(const struct ctx *c, const char *z, struct mn *m)
{
	const ZydisDecodedInstruction *in = c->in;

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
}

/* The sign extensions, which AT&T names by its sizes: cltq for cdqe. */
static const char *
extension_name(const struct ctx *c)
{
	switch (c->in->mnemonic) {
	case ZYDIS_MNEMONIC_CDQE:
		return c->intel ? "cdqe" : "cltq";
	case ZYDIS_MNEMONIC_CWDE:
		return c->intel ? "cwde" : "cwtl";
	case ZYDIS_MNEMONIC_CBW:
		return c->intel ? "cbw" : "cbtw";
	case ZYDIS_MNEMONIC_CWD:
		return c->intel ? "cwd" : "cwtd";
	case ZYDIS_MNEMONIC_CDQ:
		return c->intel ? "cdq" : "cltd";
	case ZYDIS_MNEMONIC_CQO:
		return c->intel ? "cqo" : "cqto";
	case ZYDIS_MNEMONIC_MOVSXD:
		/* movslq only into a 64-bit register */
		return c->intel || c->ops[0].size != 64 ? "movsxd" : "movslq";
	default:
		return NULL;
	}
}

/* Names objdump gives whatever the operands: pushf for pushfq, iret for iretd. */
static const char *
fixed_name(ZydisMnemonic mn)
{
	switch (mn) {
	case ZYDIS_MNEMONIC_PUSHFQ: case ZYDIS_MNEMONIC_PUSHFD:
		return "pushf";
	case ZYDIS_MNEMONIC_POPFQ: case ZYDIS_MNEMONIC_POPFD:
		return "popf";
	case ZYDIS_MNEMONIC_IRETD:
		return "iret";
	case ZYDIS_MNEMONIC_PUSHAD:
		return "pusha";
	case ZYDIS_MNEMONIC_POPAD:
		return "popa";
	default:
		return NULL;
	}
}

/*
 * The instructions whose operands change their name: cvtsi2sdl, lret,
 * lcall, movzbl, movabs, xchg %ax,%ax, nopw. False when the name is the
 * usual one.
 */
static bool
operand_mnemonic(const struct ctx *c, const char *z, struct mn *m)
{
	const ZydisDecodedInstruction *in = c->in;
	const ZydisDecodedOperand *mo;

	switch (in->mnemonic) {
	case ZYDIS_MNEMONIC_CVTSI2SS: case ZYDIS_MNEMONIC_CVTSI2SD:
	case ZYDIS_MNEMONIC_VCVTSI2SS: case ZYDIS_MNEMONIC_VCVTSI2SD:
	case ZYDIS_MNEMONIC_VCVTUSI2SS: case ZYDIS_MNEMONIC_VCVTUSI2SD:
	case ZYDIS_MNEMONIC_VCVTSI2SH: case ZYDIS_MNEMONIC_VCVTUSI2SH:
		/*
		 * the integer source's size, which no register tells:
		 * cvtsi2sdl (%rax),%xmm0; i386 has only the one
		 */
		mn_put(m, z);
		if (!c->intel && c->x64 && (mo = x86_mem_operand(c)) != NULL)
			mn_putch(m, size_suffix(mo->size));
		return true;
	case ZYDIS_MNEMONIC_RET:
		if (in->opcode == 0xca || in->opcode == 0xcb) {
			mn_put(m, c->intel ? "retf" : "lret");	/* far */
			if (in->raw.rex.W)
				mn_putch(m, 'q');
			return true;
		}
		return false;
	case ZYDIS_MNEMONIC_CALL:
	case ZYDIS_MNEMONIC_JMP:
		if (in->meta.branch_type == ZYDIS_BRANCH_TYPE_FAR && !c->intel) {
			mn_putch(m, 'l');	/* lcall *(%rax) */
			mn_put(m, z);
			return true;
		}
		return false;
	case ZYDIS_MNEMONIC_MOVZX:
	case ZYDIS_MNEMONIC_MOVSX:
		if (c->intel) {
			mn_put(m, z);
			return true;
		}
		mn_put(m, in->mnemonic == ZYDIS_MNEMONIC_MOVZX ? "movz" : "movs");
		mn_putch(m, size_suffix(c->ops[1].size));
		mn_putch(m, size_suffix(c->ops[0].size));
		return true;
	case ZYDIS_MNEMONIC_MOV:
		if (in->raw.imm[0].size == 64 || (c->x64 && in->address_width == 64 &&
		    (in->opcode & 0xfc) == 0xa0 && in->opcode_map == ZYDIS_OPCODE_MAP_DEFAULT)) {
			mn_put(m, "movabs");
			return true;
		}
		return false;
	case ZYDIS_MNEMONIC_NOP:
		if (in->opcode == 0x90 && in->opcode_map == ZYDIS_OPCODE_MAP_DEFAULT &&
		    in->operand_width == 16) {
			mn_put(m, "xchg");	/* 66 90: xchg %ax,%ax */
			return true;
		}
		if ((mo = x86_mem_operand(c)) != NULL) {
			mn_put(m, "nop");	/* nopw 0x0(%rax,%rax,1), nopq (%rax) */
			if (!c->intel)
				mn_putch(m, size_suffix(in->operand_width));
			return true;
		}
		return false;
	default:
		return false;
	}
}

/* jcc, cmovcc, setcc with objdump's condition names (jne, cmova); false for others. */
static bool
cc_mnemonic(const char *z, struct mn *m)
{
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
			return true;
		}
	}
	return false;
}

void
x86_mnemonic(const struct ctx *c, struct mn *m)
{
	const ZydisDecodedInstruction *in = c->in;
	const char *z = ZydisMnemonicGetString(in->mnemonic), *name;
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
	if (x86_is_string_op(in)) {
		string_mnemonic(c, z, m);
		return;
	}
	if (predicate_alias(c, z, m)) {
		m->drop_imm = true;
		return;
	}
	if (in->meta.category == ZYDIS_CATEGORY_X87_ALU || in->meta.isa_ext == ZYDIS_ISA_EXT_X87) {
		x87_mnemonic(c, z, m);
		return;
	}
	if ((name = extension_name(c)) != NULL || (name = fixed_name(in->mnemonic)) != NULL) {
		mn_put(m, name);
		return;
	}
	if (operand_mnemonic(c, z, m) || cc_mnemonic(z, m))
		return;
	if ((in->mnemonic == ZYDIS_MNEMONIC_PCMPESTRI || in->mnemonic == ZYDIS_MNEMONIC_PCMPESTRM ||
	    in->mnemonic == ZYDIS_MNEMONIC_VPCMPESTRI || in->mnemonic == ZYDIS_MNEMONIC_VPCMPESTRM) &&
	    c->x64 && x86_w_bit(in)) {
		mn_put(m, z);
		mn_putch(m, 'q');	/* pcmpestriq: W1 takes 64-bit lengths in %rax, %rdx */
		return;
	}
	mn_put(m, z);
	if (!c->intel && ((sfx = att_suffix(c)) != '\0' || (sfx = xyz_suffix(c)) != '\0'))
		mn_putch(m, sfx);
}
