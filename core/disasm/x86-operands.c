/*
 * x86 operands as objdump prints them (x86-text.c): registers, memory
 * operands in AT&T and Intel syntax, immediates and branch targets, and
 * the AVX-512 decorators (mask, broadcast, rounding).
 */
#include <string.h>

#include "base.h"
#include "disasm/x86-text.h"
#include "disasm/x86-text-int.h"

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
	case ZYDIS_MNEMONIC_LDTILECFG:	/* ldtilecfg [rax]: a 64-byte block, no size */
	case ZYDIS_MNEMONIC_STTILECFG:
	case ZYDIS_MNEMONIC_LDDQU:	/* lddqu xmm1,[rax] */
	case ZYDIS_MNEMONIC_VLDDQU:
		return 0;
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
		} else if (in->mnemonic == ZYDIS_MNEMONIC_CMPXCHG16B)
			put(o, "OWORD PTR ");	/* objdump's name for its 128 bits, not XMMWORD */
		else
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

/* ---- operands ---- */

void
x86_operand(struct out *o, const struct ctx *c, const ZydisDecodedOperand *op)
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
		if (x86_mask_to_gpr64(in) && ZydisRegisterGetClass(op->reg.value) ==
		    ZYDIS_REGCLASS_GPR32) {
			/* vmovmskps %xmm2,%rcx: W1 writes the 64-bit register */
			reg(o, c, ZydisRegisterEncode(ZYDIS_REGCLASS_GPR64,
			    ZydisRegisterGetId(op->reg.value)));
			break;
		}
		if (in->mnemonic == ZYDIS_MNEMONIC_MOV && x86_is_gpr(op->reg.value) &&
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
void
x86_mask_decorator(struct out *o, const struct ctx *c)
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

void
x86_broadcast_decorator(struct out *o, const struct ctx *c)
{
	static const char *const bc[] = {
		[ZYDIS_BROADCAST_MODE_1_TO_2] = "{1to2}", [ZYDIS_BROADCAST_MODE_1_TO_4] = "{1to4}",
		[ZYDIS_BROADCAST_MODE_1_TO_8] = "{1to8}", [ZYDIS_BROADCAST_MODE_1_TO_16] = "{1to16}",
		[ZYDIS_BROADCAST_MODE_1_TO_32] = "{1to32}", [ZYDIS_BROADCAST_MODE_1_TO_64] = "{1to64}",
	};
	ZydisBroadcastMode b = c->in->avx.broadcast.mode;

	if ((c->intel && !x86_bcst_count_shown(c)) || c->in->avx.broadcast.is_static ||
	    (size_t)b >= BT_ARRAY_SIZE(bc) ||
	    bc[b] == NULL)
		return;
	put(o, bc[b]);
}

const char *
x86_rounding(const ZydisDecodedInstruction *in)
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
