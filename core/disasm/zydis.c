/* x86 decoding with Zydis: every AVX-512 instruction glibc runs decodes. */
#include <Zydis/Zydis.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "disasm/disasm-int.h"

struct zydis {
	ZydisDecoder dec;
	ZydisFormatter fmt;
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
	if ((in->attributes & ZYDIS_ATTRIB_HAS_LOCK) ||
	    (in->mnemonic == ZYDIS_MNEMONIC_XCHG && (f & BT_INSN_F_MEM_WRITE)))
		f |= BT_INSN_F_LOCK;
	/* a rep string instruction is interrupted between iterations at its own address */
	if ((in->attributes & (ZYDIS_ATTRIB_HAS_REP | ZYDIS_ATTRIB_HAS_REPE |
	    ZYDIS_ATTRIB_HAS_REPNE)) && in->meta.category == ZYDIS_CATEGORY_STRINGOP)
		f |= BT_INSN_F_INTERRUPTIBLE;
	return f;
}

/* Zydis names condition codes by their flags; objdump and perf users read ja, je, jne. */
static void
objdump_mnemonic(char *text, size_t size)
{
	static const char *const cc[][2] = {
		{ "nbe", "a" }, { "nb", "ae" }, { "nz", "ne" }, { "z", "e" },
		{ "nle", "g" }, { "nl", "ge" },
	};
	static const char *const stems[] = { "j", "cmov", "set" };
	size_t s, c, sl, ml;

	if (text[0] != 'j' && text[0] != 'c' && text[0] != 's')
		return;	/* the quick answer for almost every instruction */
	ml = strcspn(text, " ");
	for (s = 0; s < BT_ARRAY_SIZE(stems); s++) {
		sl = strlen(stems[s]);
		if (strncmp(text, stems[s], sl) != 0)
			continue;
		for (c = 0; c < BT_ARRAY_SIZE(cc); c++) {
			size_t from = strlen(cc[c][0]), to = strlen(cc[c][1]);
			/* the whole mnemonic, maybe with an AT&T size suffix on cmov/set */
			if (ml < sl + from || strncmp(text + sl, cc[c][0], from) != 0)
				continue;
			if (ml - sl - from > (s == 0 ? 0u : 1u))
				continue;
			memmove(text + sl + to, text + sl + from, strlen(text + sl + from) + 1);
			memcpy(text + sl, cc[c][1], to);
			(void)size;
			return;
		}
	}
}

/* Two AT&T spellings objdump users know: movabs, and nopw/nopl MEM. */
static void
objdump_att(const struct zydis *z, const ZydisDecodedInstruction *in,
	    const ZydisDecodedOperand *ops, uint64_t addr, struct bt_insn *out)
{
	uint8_t i;

	if (in->mnemonic == ZYDIS_MNEMONIC_MOV && in->raw.imm[0].size == 64 &&
	    strncmp(out->text, "mov ", 4) == 0) {
		memmove(out->text + 6, out->text + 3, strlen(out->text + 3) + 1);
		memcpy(out->text, "movabs", 6);
		return;
	}
	if ((in->mnemonic == ZYDIS_MNEMONIC_MOVZX || in->mnemonic == ZYDIS_MNEMONIC_MOVSX ||
	    in->mnemonic == ZYDIS_MNEMONIC_MOVSXD) && in->operand_count_visible == 2) {
		/* movzbl, movswq, movslq: source size, then destination size */
		static const char sfx[] = { [1] = 'b', [2] = 'w', [4] = 'l', [8] = 'q' };
		unsigned ss = ops[1].size / 8, ds = ops[0].size / 8;
		const char *rest = strchr(out->text, ' ');
		char buf[sizeof(out->text)];
		if (ss < sizeof(sfx) && ds < sizeof(sfx) && sfx[ss] && sfx[ds] && rest) {
			snprintf(buf, sizeof(buf), "mov%c%c%c%s",
			    in->mnemonic == ZYDIS_MNEMONIC_MOVZX ? 'z' : 's',
			    sfx[ss], sfx[ds], rest);
			snprintf(out->text, sizeof(out->text), "%s", buf);
		}
		return;
	}
	if (in->mnemonic != ZYDIS_MNEMONIC_NOP)
		return;
	for (i = 0; i < in->operand_count_visible; i++) {
		char mem[96];
		if (ops[i].type != ZYDIS_OPERAND_TYPE_MEMORY ||
		    !ZYAN_SUCCESS(ZydisFormatterFormatOperand(&z->fmt, in, &ops[i],
		    mem, sizeof(mem), addr, NULL)))
			continue;
		snprintf(out->text, sizeof(out->text), "nop%c %s",
		    ops[i].size == 16 ? 'w' : 'l', mem);
		return;
	}
}

static size_t
zydis_one(struct bt_disasm *d, const uint8_t *buf, size_t len, uint64_t addr,
	  struct bt_insn *out)
{
	struct zydis *z = d->priv;
	ZydisDecodedInstruction in;
	ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
	bool direct;

	if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(&z->dec, buf, len, &in, ops)))
		return 0;
	out->kind = classify(&in, ops, &direct);
	if (direct) {
		ZyanU64 abs;
		if (ZYAN_SUCCESS(ZydisCalcAbsoluteAddress(&in, &ops[0], addr, &abs)))
			out->target = abs;
	}
	out->flags = flags_of(&in, ops, addr, &out->mem_target);
	{
		const char *mn = ZydisMnemonicGetString(in.mnemonic);
		size_t ml = mn ? strlen(mn) : 0;
		if (ml >= sizeof(out->mnemonic))
			ml = sizeof(out->mnemonic) - 1;
		memcpy(out->mnemonic, mn ? mn : "", ml);
		out->mnemonic[ml] = '\0';
	}
	if (!ZYAN_SUCCESS(ZydisFormatterFormatInstruction(&z->fmt, &in, ops,
	    in.operand_count_visible, out->text, sizeof(out->text), addr, NULL)))
		snprintf(out->text, sizeof(out->text), "%s", out->mnemonic);
	objdump_mnemonic(out->text, sizeof(out->text));
	if (d->syntax == BT_SYNTAX_ATT)
		objdump_att(z, &in, ops, addr, out);
	objdump_mnemonic(out->mnemonic, sizeof(out->mnemonic));
	/* objdump's spacing: the mnemonic padded to a column */
	{
		char *sp = strchr(out->text, ' ');
		size_t ml = sp ? (size_t)(sp - out->text) : 0;
		if (sp != NULL && ml < 6 && strlen(out->text) + 6 - ml < sizeof(out->text)) {
			memmove(sp + (6 - ml), sp, strlen(sp) + 1);
			memset(sp, ' ', 6 - ml);
		}
	}
	return in.length;
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
	    x64 ? ZYDIS_STACK_WIDTH_64 : ZYDIS_STACK_WIDTH_32)) ||
	    !ZYAN_SUCCESS(ZydisFormatterInit(&z->fmt, d->syntax == BT_SYNTAX_INTEL ?
	    ZYDIS_FORMATTER_STYLE_INTEL : ZYDIS_FORMATTER_STYLE_ATT))) {
		free(z);
		return bt_error_set(err, BT_ENOTSUP, "cannot initialise the Zydis decoder");
	}
	ZydisFormatterSetProperty(&z->fmt, ZYDIS_FORMATTER_PROP_HEX_UPPERCASE, ZYAN_FALSE);
	ZydisFormatterSetProperty(&z->fmt, ZYDIS_FORMATTER_PROP_ADDR_PADDING_ABSOLUTE,
	    ZYDIS_PADDING_DISABLED);
	ZydisFormatterSetProperty(&z->fmt, ZYDIS_FORMATTER_PROP_ADDR_PADDING_RELATIVE,
	    ZYDIS_PADDING_DISABLED);
	ZydisFormatterSetProperty(&z->fmt, ZYDIS_FORMATTER_PROP_DISP_PADDING,
	    ZYDIS_PADDING_DISABLED);
	ZydisFormatterSetProperty(&z->fmt, ZYDIS_FORMATTER_PROP_IMM_PADDING,
	    ZYDIS_PADDING_DISABLED);
	/* immediates as objdump shows them: $0xb504f32d, not $-0x4afb0cd3 */
	ZydisFormatterSetProperty(&z->fmt, ZYDIS_FORMATTER_PROP_IMM_SIGNEDNESS,
	    ZYDIS_SIGNEDNESS_UNSIGNED);
	/* disp(%rip) as objdump prints it; the absolute address goes to mem_target */
	ZydisFormatterSetProperty(&z->fmt, ZYDIS_FORMATTER_PROP_FORCE_RELATIVE_RIPREL,
	    ZYAN_TRUE);
	d->priv = z;
	d->ops = &zydis_ops;
	return 0;
}
