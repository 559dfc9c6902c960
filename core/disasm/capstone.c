/*
 * capstone behind the decoder interface, for the architectures Zydis does
 * not cover (aarch64 first). capstone 4 (Debian's) has no RISC-V.
 */
#include <capstone/capstone.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "disasm/disasm-int.h"

struct capstone {
	csh h;
	cs_insn *insn;
};

static enum bt_insn_kind
arm64_kind(const cs_insn *in, uint64_t *target)
{
	const cs_arm64 *a = &in->detail->arm64;
	uint8_t i;

	for (i = 0; i < a->op_count; i++)
		if (a->operands[i].type == ARM64_OP_IMM)
			*target = (uint64_t)a->operands[i].imm;
	switch (in->id) {
	case ARM64_INS_B:
		return a->cc != ARM64_CC_INVALID && a->cc != ARM64_CC_AL ?
		    BT_INSN_CJUMP : BT_INSN_JUMP;
	case ARM64_INS_CBZ:
	case ARM64_INS_CBNZ:
	case ARM64_INS_TBZ:
	case ARM64_INS_TBNZ:
		return BT_INSN_CJUMP;
	case ARM64_INS_BR:
		return BT_INSN_IJUMP;
	case ARM64_INS_BL:
		return BT_INSN_CALL;
	case ARM64_INS_BLR:
		return BT_INSN_ICALL;
	case ARM64_INS_RET:
	case ARM64_INS_ERET:
		return BT_INSN_RET;
	case ARM64_INS_SVC:
		return BT_INSN_SYSCALL;
	case ARM64_INS_BRK:
	case ARM64_INS_HLT:
		return BT_INSN_STOP;
	}
	return BT_INSN_OTHER;
}

static unsigned
arm64_flags(const cs_insn *in)
{
	const cs_arm64 *a = &in->detail->arm64;
	unsigned f = 0;
	uint8_t i;

	if (in->id == ARM64_INS_NOP)
		f |= BT_INSN_F_NOP;
	if (in->id == ARM64_INS_MRS)
		for (i = 0; i < a->op_count; i++)
			if (a->operands[i].type == ARM64_OP_REG_MRS &&
			    (unsigned)a->operands[i].reg == (unsigned)ARM64_SYSREG_CNTVCT_EL0)
				f |= BT_INSN_F_TIMER;
	if (strncmp(in->mnemonic, "ld", 2) == 0)
		f |= BT_INSN_F_MEM_READ;
	if (strncmp(in->mnemonic, "st", 2) == 0)
		f |= BT_INSN_F_MEM_WRITE;
	if (strstr(in->mnemonic, "xr") != NULL || strncmp(in->mnemonic, "cas", 3) == 0 ||
	    strncmp(in->mnemonic, "ldadd", 5) == 0 || strncmp(in->mnemonic, "swp", 3) == 0)
		f |= BT_INSN_F_LOCK;
	return f;
}

/* Other architectures: classify through capstone's groups. */
static enum bt_insn_kind
group_kind(csh h, const cs_insn *in, uint64_t *target)
{
	const cs_detail *dt = in->detail;
	bool jump = cs_insn_group(h, in, CS_GRP_JUMP);
	bool rel = cs_insn_group(h, in, CS_GRP_BRANCH_RELATIVE);

	(void)dt;
	*target = 0;
	if (cs_insn_group(h, in, CS_GRP_RET))
		return BT_INSN_RET;
	if (cs_insn_group(h, in, CS_GRP_CALL))
		return BT_INSN_ICALL;
	if (cs_insn_group(h, in, CS_GRP_INT))
		return BT_INSN_SYSCALL;
	if (jump)
		return rel ? BT_INSN_CJUMP : BT_INSN_IJUMP;
	return BT_INSN_OTHER;
}

static size_t
cs_one(struct bt_disasm *d, const uint8_t *buf, size_t len, uint64_t addr,
       struct bt_insn *out)
{
	struct capstone *c = d->priv;
	const uint8_t *p = buf;
	uint64_t a = addr;
	size_t n = len;
	cs_insn *in = c->insn;

	if (!cs_disasm_iter(c->h, &p, &n, &a, in))
		return 0;
	if (d->arch == BT_ARCH_AARCH64) {
		out->kind = arm64_kind(in, &out->target);
		out->flags = arm64_flags(in);
	} else
		out->kind = group_kind(c->h, in, &out->target);
	if (out->kind != BT_INSN_JUMP && out->kind != BT_INSN_CJUMP &&
	    out->kind != BT_INSN_CALL)
		out->target = 0;
	snprintf(out->mnemonic, sizeof(out->mnemonic), "%.23s", in->mnemonic);
	if (in->op_str[0])
		snprintf(out->text, sizeof(out->text), "%-6.23s %.80s", in->mnemonic, in->op_str);
	else
		snprintf(out->text, sizeof(out->text), "%s", in->mnemonic);
	return in->size;
}

static void
cs_free_priv(struct bt_disasm *d)
{
	struct capstone *c = d->priv;

	cs_free(c->insn, 1);
	cs_close(&c->h);
	free(c);
}

static const struct bt_disasm_ops cs_ops = { cs_one, cs_free_priv };

int
bt_capstone_init(struct bt_disasm *d, struct bt_error *err)
{
	struct capstone *c;
	cs_arch arch;
	cs_mode mode;
	cs_err e;

	switch (d->arch) {
	case BT_ARCH_AARCH64:
		arch = CS_ARCH_ARM64;
		mode = CS_MODE_LITTLE_ENDIAN;
		break;
	case BT_ARCH_ARM:
		arch = CS_ARCH_ARM;
		mode = CS_MODE_ARM;
		break;
	case BT_ARCH_PPC64:
		arch = CS_ARCH_PPC;
		mode = CS_MODE_64 | CS_MODE_BIG_ENDIAN;
		break;
	default:
		return bt_error_set(err, BT_ENOTSUP,
		    "no disassembler for %s (capstone %d.%d)", bt_arch_name(d->arch),
		    CS_API_MAJOR, CS_API_MINOR);
	}
	c = bt_xcalloc(1, sizeof(*c));
	e = cs_open(arch, mode, &c->h);
	if (e != CS_ERR_OK) {
		free(c);
		return bt_error_set(err, BT_ENOTSUP, "capstone: %s", cs_strerror(e));
	}
	cs_option(c->h, CS_OPT_DETAIL, CS_OPT_ON);
	c->insn = cs_malloc(c->h);
	d->priv = c;
	d->ops = &cs_ops;
	return 0;
}
