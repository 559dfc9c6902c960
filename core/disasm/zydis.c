/* x86 decoding with Zydis: every AVX-512 instruction glibc runs decodes. */
#include <Zydis/Zydis.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "disasm/disasm-int.h"
#include "disasm/x86-text.h"

struct zydis {
	ZydisDecoder dec;
};

static enum bt_insn_kind
classify(const ZydisDecodedInstruction *in, const ZydisDecodedOperand *ops,
	 bool *direct)
{
	*direct = in->operand_count_visible > 0 &&
	    ops[0].type == ZYDIS_OPERAND_TYPE_IMMEDIATE && ops[0].imm.is_relative;
	switch (in->meta.category) {
	case ZYDIS_CATEGORY_COND_BR:
		return *direct ? BT_INSN_CJUMP : BT_INSN_IJUMP;
	case ZYDIS_CATEGORY_UNCOND_BR:
		return *direct ? BT_INSN_JUMP : BT_INSN_IJUMP;
	case ZYDIS_CATEGORY_CALL:
		return *direct ? BT_INSN_CALL : BT_INSN_ICALL;
	case ZYDIS_CATEGORY_RET:
		return BT_INSN_RET;
	case ZYDIS_CATEGORY_SYSCALL:
		return BT_INSN_SYSCALL;
	default:
		break;
	}
	switch (in->mnemonic) {
	case ZYDIS_MNEMONIC_IRET:
	case ZYDIS_MNEMONIC_IRETD:
	case ZYDIS_MNEMONIC_IRETQ:
	case ZYDIS_MNEMONIC_SYSRET:
	case ZYDIS_MNEMONIC_SYSEXIT:
		return BT_INSN_RET;
	case ZYDIS_MNEMONIC_SYSENTER:
	case ZYDIS_MNEMONIC_INT:
		return BT_INSN_SYSCALL;
	case ZYDIS_MNEMONIC_UD0:
	case ZYDIS_MNEMONIC_UD1:
	case ZYDIS_MNEMONIC_UD2:
	case ZYDIS_MNEMONIC_HLT:
	case ZYDIS_MNEMONIC_INT3:
		return BT_INSN_STOP;
	default:
		return BT_INSN_OTHER;
	}
}

static unsigned
flags_of(const ZydisDecodedInstruction *in, const ZydisDecodedOperand *ops,
	 uint64_t addr, uint64_t *mem_target)
{
	unsigned f = 0;
	uint8_t i;

	for (i = 0; i < in->operand_count; i++) {
		const ZydisDecodedOperand *op = &ops[i];
		if (op->type != ZYDIS_OPERAND_TYPE_MEMORY ||
		    op->mem.type == ZYDIS_MEMOP_TYPE_AGEN)
			continue;
		if (op->actions & ZYDIS_OPERAND_ACTION_MASK_READ)
			f |= BT_INSN_F_MEM_READ;
		if (op->actions & ZYDIS_OPERAND_ACTION_MASK_WRITE)
			f |= BT_INSN_F_MEM_WRITE;
	}
	for (i = 0; i < in->operand_count_visible; i++) {
		const ZydisDecodedOperand *op = &ops[i];
		ZyanU64 abs;
		if (op->type == ZYDIS_OPERAND_TYPE_MEMORY &&
		    (op->mem.base == ZYDIS_REGISTER_RIP || op->mem.base == ZYDIS_REGISTER_EIP) &&
		    ZYAN_SUCCESS(ZydisCalcAbsoluteAddress(in, op, addr, &abs))) {
			*mem_target = abs;
			f |= BT_INSN_F_RIPREL;
			break;
		}
	}
	if (in->meta.category == ZYDIS_CATEGORY_NOP ||
	    in->meta.category == ZYDIS_CATEGORY_WIDENOP ||
	    in->mnemonic == ZYDIS_MNEMONIC_ENDBR64 ||
	    in->mnemonic == ZYDIS_MNEMONIC_ENDBR32)
		f |= BT_INSN_F_NOP;
	if (in->mnemonic == ZYDIS_MNEMONIC_RDTSC || in->mnemonic == ZYDIS_MNEMONIC_RDTSCP)
		f |= BT_INSN_F_TIMER;
	/* a fwait alone: its bytes followed by an x87 opcode decode as one (fwait_form) */
	if (!(in->attributes & ZYDIS_ATTRIB_IS_RELATIVE) && !(f & BT_INSN_F_RIPREL) &&
	    in->mnemonic != ZYDIS_MNEMONIC_FWAIT)
		f |= BT_INSN_F_ANYWHERE;
	if ((in->attributes & ZYDIS_ATTRIB_HAS_LOCK) ||
	    (in->mnemonic == ZYDIS_MNEMONIC_XCHG && (f & BT_INSN_F_MEM_WRITE)))
		f |= BT_INSN_F_LOCK;
	/* a rep string instruction is interrupted between iterations at its own address */
	if ((in->attributes & (ZYDIS_ATTRIB_HAS_REP | ZYDIS_ATTRIB_HAS_REPE |
	    ZYDIS_ATTRIB_HAS_REPNE)) && in->meta.category == ZYDIS_CATEGORY_STRINGOP)
		f |= BT_INSN_F_INTERRUPTIBLE;
	return f;
}

/* The DWARF number of a general register (its 64- or 32-bit form), or -1. */
static int
dwarf_reg(ZydisRegister r, bool x64)
{
	static const ZydisRegister r64[16] = {
		ZYDIS_REGISTER_RAX, ZYDIS_REGISTER_RDX, ZYDIS_REGISTER_RCX,
		ZYDIS_REGISTER_RBX, ZYDIS_REGISTER_RSI, ZYDIS_REGISTER_RDI,
		ZYDIS_REGISTER_RBP, ZYDIS_REGISTER_RSP, ZYDIS_REGISTER_R8,
		ZYDIS_REGISTER_R9, ZYDIS_REGISTER_R10, ZYDIS_REGISTER_R11,
		ZYDIS_REGISTER_R12, ZYDIS_REGISTER_R13, ZYDIS_REGISTER_R14,
		ZYDIS_REGISTER_R15,
	};
	static const ZydisRegister r32[8] = {
		ZYDIS_REGISTER_EAX, ZYDIS_REGISTER_ECX, ZYDIS_REGISTER_EDX,
		ZYDIS_REGISTER_EBX, ZYDIS_REGISTER_ESP, ZYDIS_REGISTER_EBP,
		ZYDIS_REGISTER_ESI, ZYDIS_REGISTER_EDI,
	};
	int i;

	if (x64) {
		for (i = 0; i < 16; i++)
			if (r64[i] == r)
				return i;
	} else
		for (i = 0; i < 8; i++)
			if (r32[i] == r)
				return i;
	return -1;
}

/*
 * The base register and displacement of the one visible memory operand
 * that reads or writes (not lea), when its address is that register plus a
 * constant: no index, no fs/gs segment.
 */
static void
mem_base(const ZydisDecodedInstruction *in, const ZydisDecodedOperand *ops,
	 struct bt_insn *out)
{
	const ZydisDecodedOperand *mem = NULL;
	uint8_t i;

	/* the operands the text shows: not push's, call's or ret's stack slot */
	for (i = 0; i < in->operand_count_visible; i++) {
		const ZydisDecodedOperand *op = &ops[i];
		if (op->type != ZYDIS_OPERAND_TYPE_MEMORY ||
		    op->mem.type == ZYDIS_MEMOP_TYPE_AGEN)
			continue;
		if (mem != NULL)
			return;
		mem = op;
	}
	if (mem == NULL || mem->mem.type != ZYDIS_MEMOP_TYPE_MEM ||
	    mem->mem.index != ZYDIS_REGISTER_NONE ||
	    mem->mem.segment == ZYDIS_REGISTER_FS ||
	    mem->mem.segment == ZYDIS_REGISTER_GS)
		return;
	if (mem->mem.disp.value < INT32_MIN || mem->mem.disp.value > INT32_MAX)
		return;
	out->mem_base = (int8_t)dwarf_reg(mem->mem.base,
	    in->machine_mode == ZYDIS_MACHINE_MODE_LONG_64);
	out->mem_disp = mem->mem.disp.has_displacement ? (int32_t)mem->mem.disp.value : 0;
}

/*
 * objdump takes a 9b byte (fwait) before an x87 opcode as part of that
 * instruction: 9b df e0 is fstsw %ax, 9b dd d8 fstp %st(0). Decode the
 * instruction after it into in and ops; false when there is none.
 */
static bool
fwait_form(const ZydisDecoder *dec, const uint8_t *buf, size_t len,
	   ZydisDecodedInstruction *in, ZydisDecodedOperand *ops)
{
	ZydisDecodedInstruction next;
	ZydisDecodedOperand nops[ZYDIS_MAX_OPERAND_COUNT];

	if (buf[0] < 0xd8 || buf[0] > 0xdf ||
	    !ZYAN_SUCCESS(ZydisDecoderDecodeFull(dec, buf, len, &next, nops)))
		return false;
	*in = next;
	memcpy(ops, nops, sizeof(nops));
	return true;
}

/*
 * AMX-FP16's tdpfp16ps (VEX.128.F2.0F38.W0 5C /r, register operands),
 * which objdump 2.40 decodes and Zydis 4.0 does not: the same bytes with
 * F3 are tdpbf16ps, whose operands and length it has. True with in and
 * ops filled from those.
 */
static bool
amx_fp16_form(const ZydisDecoder *dec, const uint8_t *buf, size_t len,
	      ZydisDecodedInstruction *in, ZydisDecodedOperand *ops)
{
	uint8_t b[5];

	if (len < 5 || buf[0] != 0xc4 || (buf[1] & 0x1f) != 2 || (buf[2] & 0x87) != 0x03 ||
	    buf[3] != 0x5c || (buf[4] & 0xc0) != 0xc0)
		return false;
	memcpy(b, buf, sizeof(b));
	b[2] = (uint8_t)((b[2] & ~3) | 2);
	return ZYAN_SUCCESS(ZydisDecoderDecodeFull(dec, b, sizeof(b), in, ops)) &&
	    in->mnemonic == ZYDIS_MNEMONIC_TDPBF16PS;
}

/* Rename tdpbf16ps (the same length) in the text and mnemonic d holds. */
static void
rename_tdpfp16ps(struct bt_disasm *d)
{
	char *t = strstr(d->text, "tdpbf16ps");

	if (t != NULL)
		memcpy(t, "tdpfp16ps", 9);
	if (strcmp(d->mnemonic, "tdpbf16ps") == 0)
		memcpy(d->mnemonic, "tdpfp16ps", 9);
}

static size_t
zydis_one(struct bt_disasm *d, const uint8_t *buf, size_t len, uint64_t addr,
	  struct bt_insn *out)
{
	struct zydis *z = d->priv;
	ZydisDecodedInstruction in;
	ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
	bool direct;
	size_t wait = 0;
	bool fp16 = false;

	if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(&z->dec, buf, len, &in, ops)) &&
	    !(fp16 = amx_fp16_form(&z->dec, buf, len, &in, ops)))
		return 0;
	if (in.mnemonic == ZYDIS_MNEMONIC_FWAIT && len > 1 && fwait_form(&z->dec, buf + 1,
	    len - 1, &in, ops))
		wait = 1;
	out->kind = classify(&in, ops, &direct);
	if (direct) {
		ZyanU64 abs;
		if (ZYAN_SUCCESS(ZydisCalcAbsoluteAddress(&in, &ops[0], addr, &abs)))
			out->target = abs;
	}
	out->flags = flags_of(&in, ops, addr, &out->mem_target);
	mem_base(&in, ops, out);
	bt_x86_text(&in, ops, addr, d->syntax == BT_SYNTAX_INTEL, wait != 0, d->text,
	    sizeof(d->text), d->mnemonic, sizeof(d->mnemonic));
	if (fp16)
		rename_tdpfp16ps(d);
	return in.length + wait;
}

static void
zydis_free(struct bt_disasm *d)
{
	free(d->priv);
}

static const struct bt_disasm_ops zydis_ops = { zydis_one, zydis_free };

int
bt_zydis_init(struct bt_disasm *d, struct bt_error *err)
{
	struct zydis *z = bt_xcalloc(1, sizeof(*z));
	bool x64 = d->arch == BT_ARCH_X86_64;

	if (!ZYAN_SUCCESS(ZydisDecoderInit(&z->dec,
	    x64 ? ZYDIS_MACHINE_MODE_LONG_64 : ZYDIS_MACHINE_MODE_LEGACY_32,
	    x64 ? ZYDIS_STACK_WIDTH_64 : ZYDIS_STACK_WIDTH_32))) {
		free(z);
		return bt_error_set(err, BT_ENOTSUP, "cannot initialise the Zydis decoder");
	}
	d->priv = z;
	d->ops = &zydis_ops;
	return 0;
}
