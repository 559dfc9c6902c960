/*
 * capstone behind the decoder interface, for the architectures Zydis does
 * not cover (aarch64 first). capstone 4 (Debian's) has no RISC-V.
 */
#include <capstone/capstone.h>
#include <dlfcn.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "disasm/disasm-int.h"

struct capstone {
	csh h;
	cs_insn *insn;
};

/*
 * libcapstone is loaded when code of another machine than x86 is first
 * disassembled (x86 is Zydis'): linked in, its relocated tables cost
 * every run 3 MB of memory at start-up. The soname is the one of the
 * headers built against (cs_insn's layout changes between majors).
 */
#define CS_STR_(x) #x
#define CS_STR(x) CS_STR_(x)
#define CS_SONAME "libcapstone.so." CS_STR(CS_API_MAJOR)

static struct {
	cs_err (*open)(cs_arch, cs_mode, csh *);
	cs_err (*close)(csh *);
	cs_err (*option)(csh, cs_opt_type, size_t);
	const char *(*strerror)(cs_err);
	cs_insn *(*malloc)(csh);
	void (*free)(cs_insn *, size_t);
	bool (*disasm_iter)(csh, const uint8_t **, size_t *, uint64_t *, cs_insn *);
	const char *(*reg_name)(csh, unsigned);
	bool (*insn_group)(csh, const cs_insn *, unsigned);
	const char *error;
} cs;
static pthread_once_t cs_once = PTHREAD_ONCE_INIT;

static void
cs_load(void)
{
	void *h = dlopen(CS_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (h == NULL) {
		cs.error = "cannot load " CS_SONAME;
		return;
	}
#define SYM(f) (*(void **)&cs.f = dlsym(h, "cs_" #f)) == NULL
	if (SYM(open) || SYM(close) || SYM(option) || SYM(strerror) || SYM(malloc) ||
	    SYM(free) || SYM(disasm_iter) || SYM(reg_name) || SYM(insn_group)) {
		cs.error = CS_SONAME " lacks a function benchtui uses";
		cs.open = NULL;
	}
#undef SYM
}

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
	bool jump = cs.insn_group(h, in, CS_GRP_JUMP);
	bool rel = cs.insn_group(h, in, CS_GRP_BRANCH_RELATIVE);

	(void)dt;
	*target = 0;
	if (cs.insn_group(h, in, CS_GRP_RET))
		return BT_INSN_RET;
	if (cs.insn_group(h, in, CS_GRP_CALL))
		return BT_INSN_ICALL;
	if (cs.insn_group(h, in, CS_GRP_INT))
		return BT_INSN_SYSCALL;
	if (jump)
		return rel ? BT_INSN_CJUMP : BT_INSN_IJUMP;
	return BT_INSN_OTHER;
}

/*
 * aarch64 text moved toward aarch64-linux-gnu-objdump's. capstone 4 has no
 * formatter hooks, so its strings are rewritten: branch and adrp targets
 * as bare hex (objdump's form before "<sym>", which the annotate layer
 * adds), memory offsets, shift amounts and bit positions in decimal, other
 * immediates in hex, cs/cc for hs/lo, and the mov aliases of movz, movn
 * and orr. What still differs is in docs/disasm.md.
 */
static bool
a64_decimal_mnemonic(const char *m)
{
	static const char *const dec[] = { "lsl", "lsr", "asr", "ror", "ubfx", "sbfx",
		"bfi", "bfxil", "sbfiz", "ubfiz", "extr", "tbz", "tbnz", "ubfm", "sbfm",
		"bfm", "shl", "sshr", "ushr", "ushll", "sshll", "ushll2", "sshll2", "shrn",
		"shrn2", "sli", "sri", "ursra", "usra", "srsra", "ssra", "ext", "cmeq", "cmge",
		"cmgt", "cmle", "cmlt", "fcvtzs", "fcvtzu", "scvtf", "ucvtf" };
	size_t i;

	for (i = 0; i < BT_ARRAY_SIZE(dec); i++)
		if (strcmp(m, dec[i]) == 0)
			return true;
	return false;
}

/* The names objdump gives to hint #N (pointer authentication, BTI) */
static const char *
a64_hint(int64_t n)
{
	switch (n) {
	case 0x7: return "xpaclri";
	case 0x8: return "pacia1716";
	case 0xc: return "autia1716";
	case 0x10: return "esb";
	case 0x11: return "psb    csync";
	case 0x14: return "csdb";
	case 0x18: return "paciaz";
	case 0x19: return "paciasp";
	case 0x1a: return "pacibz";
	case 0x1b: return "pacibsp";
	case 0x1c: return "autiaz";
	case 0x1d: return "autiasp";
	case 0x1e: return "autibz";
	case 0x1f: return "autibsp";
	case 0x20: return "bti";
	case 0x22: return "bti    c";
	case 0x24: return "bti    j";
	case 0x26: return "bti    jc";
	}
	return NULL;
}

/* A 64-bit (or 32-bit) value that one movz or movn makes: objdump shows orr as mov otherwise. */
static bool
a64_move_wide(uint64_t v, bool x)
{
	int i, nz = 0, nf = 0;

	if (!x)
		v &= 0xffffffff;
	for (i = 0; i < (x ? 4 : 2); i++) {
		unsigned c = (unsigned)(v >> (16 * i)) & 0xffff;
		nz += c != 0;
		nf += c != 0xffff;
	}
	return nz <= 1 || nf <= 1;
}

/*
 * The aliases objdump prints in place of capstone's text: hint #N by its
 * name, sxtl for sshll #0, mov for movz/movn/orr of one value. True when
 * d's text and mnemonic are set.
 */
static bool
a64_alias(struct bt_disasm *d, csh h, const cs_insn *in)
{
	const cs_arm64 *a = &in->detail->arm64;
	const char *p;

	if (in->id == ARM64_INS_HINT && a->op_count == 1 && a->operands[0].type == ARM64_OP_IMM &&
	    a64_hint(a->operands[0].imm) != NULL) {
		snprintf(d->text, sizeof(d->text), "%s", a64_hint(a->operands[0].imm));
		snprintf(d->mnemonic, sizeof(d->mnemonic), "%.*s",
		    (int)strcspn(d->text, " "), d->text);
		return true;
	}
	/* aliases objdump prefers: sxtl for sshll #0, mov for ins */
	if ((strncmp(in->mnemonic, "sshll", 5) == 0 || strncmp(in->mnemonic, "ushll", 5) == 0) &&
	    (p = strstr(in->op_str, ", #0")) != NULL && p[4] == '\0') {
		snprintf(d->text, sizeof(d->text), "%-6s %.*s",
		    in->mnemonic[0] == 's' ? (in->mnemonic[5] == '2' ? "sxtl2" : "sxtl") :
		    (in->mnemonic[5] == '2' ? "uxtl2" : "uxtl"), (int)(p - in->op_str), in->op_str);
		snprintf(d->mnemonic, sizeof(d->mnemonic), "%.*s",
		    (int)strcspn(d->text, " "), d->text);
		return true;
	}
	/* mov aliases: movz x2, #0 -> mov x2, #0x0; movn x3, #0 -> mov x3, #0xffffffffffffffff */
	if ((in->id == ARM64_INS_MOVZ || in->id == ARM64_INS_MOVN) && a->op_count == 2 &&
	    a->operands[1].type == ARM64_OP_IMM && a->operands[0].type == ARM64_OP_REG) {
		unsigned sh = a->operands[1].shift.type == ARM64_SFT_LSL ? a->operands[1].shift.value : 0;
		uint64_t v = (uint64_t)a->operands[1].imm << sh;
		const char *r = cs.reg_name(h, a->operands[0].reg);
		bool x = r != NULL && r[0] == 'x';
		if (r != NULL && !(a->operands[1].imm == 0 && sh != 0)) {
			if (in->id == ARM64_INS_MOVN)
				v = ~v;
			if (!x)
				v &= 0xffffffff;
			snprintf(d->text, sizeof(d->text), "mov    %s, #0x%" PRIx64, r, v);
			snprintf(d->mnemonic, sizeof(d->mnemonic), "mov");
			return true;
		}
	}
	if (in->id == ARM64_INS_ORR && a->op_count == 3 && a->operands[2].type == ARM64_OP_IMM &&
	    (a->operands[1].reg == ARM64_REG_XZR || a->operands[1].reg == ARM64_REG_WZR)) {
		const char *r = cs.reg_name(h, a->operands[0].reg);
		bool x = a->operands[1].reg == ARM64_REG_XZR;
		if (r != NULL && !a64_move_wide((uint64_t)a->operands[2].imm, x)) {
			snprintf(d->text, sizeof(d->text), "mov    %s, #0x%" PRIx64, r,
			    x ? (uint64_t)a->operands[2].imm : (uint64_t)a->operands[2].imm & 0xffffffff);
			snprintf(d->mnemonic, sizeof(d->mnemonic), "mov");
			return true;
		}
	}
	return false;
}

static void
a64_text(struct bt_disasm *d, csh h, const cs_insn *in, const struct bt_insn *out)
{
	char mn[32], ops[160], *o = ops, *end = ops + sizeof(ops) - 1;
	const char *p = in->op_str;
	bool branch = out->kind == BT_INSN_JUMP || out->kind == BT_INSN_CJUMP ||
	    out->kind == BT_INSN_CALL || in->id == ARM64_INS_ADRP || in->id == ARM64_INS_ADR;
	bool decimal = a64_decimal_mnemonic(in->mnemonic);
	int depth = 0;

	if (a64_alias(d, h, in))
		return;
	snprintf(mn, sizeof(mn), "%s", in->mnemonic);
	if (in->id == ARM64_INS_INS)
		strcpy(mn, "mov");
	if (strcmp(mn, "b.hs") == 0)
		strcpy(mn, "b.cs");
	else if (strcmp(mn, "b.lo") == 0)
		strcpy(mn, "b.cc");
	while (*p && o < end) {
		if (*p == '[')
			depth++;
		else if (*p == ']')
			depth--;
		if (*p == '#' && (p[1] == '-' || (p[1] >= '0' && p[1] <= '9'))) {
			const char *q = p + 1;
			bool neg = *q == '-', shifted;
			uint64_t v;
			char *e;
			if (neg)
				q++;
			if (q[0] == '0' && q[1] == 'x')
				v = strtoull(q + 2, &e, 16);
			else
				v = strtoull(q, &e, 10);
			if (*e == '.' || *e == 'e') {
				/* fmov's float: #1.000000000000000000e+00; fcmp's #0.0 as it is */
				double f = strtod(p + 1, &e);
				if (strcmp(in->mnemonic, "fmov") == 0)
					o += snprintf(o, (size_t)(end - o), "#%.18e", f);
				else
					o += snprintf(o, (size_t)(end - o), "%.*s", (int)(e - p), p);
				if (o > end)
					o = end;
				p = e;
				continue;
			}
			/* "lsl #16", "], #16": decimal in objdump */
			shifted = p >= in->op_str + 4 && (strncmp(p - 4, "lsl ", 4) == 0 ||
			    strncmp(p - 4, "lsr ", 4) == 0 || strncmp(p - 4, "asr ", 4) == 0 ||
			    strncmp(p - 4, "ror ", 4) == 0 || strncmp(p - 4, "msl ", 4) == 0 ||
			    strncmp(p - 4, "xtw ", 4) == 0 || strncmp(p - 4, "xtx ", 4) == 0 ||
			    strncmp(p - 4, "xtb ", 4) == 0 || strncmp(p - 4, "xth ", 4) == 0 ||
			    strncmp(p - 3, "], ", 3) == 0);
			if (!neg && v > INT64_MAX && (depth > 0 || shifted)) {
				neg = true;	/* post-index #-24, given as 2^64 - 24 */
				v = -v;
			}
			if (branch && !neg && *e == '\0')
				o += snprintf(o, (size_t)(end - o), "%" PRIx64, out->target ? out->target : v);
			else if (depth > 0 || shifted || decimal)
				o += snprintf(o, (size_t)(end - o), "#%s%" PRIu64, neg ? "-" : "", v);
			else
				o += snprintf(o, (size_t)(end - o), "#%s0x%" PRIx64, neg ? "-" : "", v);
			if (o > end)
				o = end;
			p = e;
			continue;
		}
		*o++ = *p++;
	}
	*o = '\0';
	/* condition codes as objdump names them: cs and cc, not hs and lo */
	if ((o - ops) >= 4 && (strcmp(o - 4, ", hs") == 0 || strcmp(o - 4, ", lo") == 0))
		memcpy(o - 2, o[-2] == 'h' ? "cs" : "cc", 2);
	snprintf(d->mnemonic, sizeof(d->mnemonic), "%.23s", mn);
	if (ops[0])
		snprintf(d->text, sizeof(d->text), "%-6.23s %.80s", mn, ops);
	else
		snprintf(d->text, sizeof(d->text), "%s", mn);
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

	if (!cs.disasm_iter(c->h, &p, &n, &a, in))
		return 0;
	if (d->arch == BT_ARCH_AARCH64) {
		out->kind = arm64_kind(in, &out->target);
		out->flags = arm64_flags(in);
	} else
		out->kind = group_kind(c->h, in, &out->target);
	if (out->kind != BT_INSN_JUMP && out->kind != BT_INSN_CJUMP &&
	    out->kind != BT_INSN_CALL)
		out->target = 0;
	if (d->arch == BT_ARCH_AARCH64) {
		a64_text(d, c->h, in, out);
		return in->size;
	}
	snprintf(d->mnemonic, sizeof(d->mnemonic), "%.23s", in->mnemonic);
	if (in->op_str[0])
		snprintf(d->text, sizeof(d->text), "%-6.23s %.80s", in->mnemonic, in->op_str);
	else
		snprintf(d->text, sizeof(d->text), "%s", in->mnemonic);
	return in->size;
}

static void
cs_free_priv(struct bt_disasm *d)
{
	struct capstone *c = d->priv;

	cs.free(c->insn, 1);
	cs.close(&c->h);
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
	pthread_once(&cs_once, cs_load);
	if (cs.open == NULL)
		return bt_error_set(err, BT_ENOTSUP, "no disassembler for %s: %s",
		    bt_arch_name(d->arch), cs.error);
	c = bt_xcalloc(1, sizeof(*c));
	e = cs.open(arch, mode, &c->h);
	if (e != CS_ERR_OK) {
		free(c);
		return bt_error_set(err, BT_ENOTSUP, "capstone: %s", cs.strerror(e));
	}
	cs.option(c->h, CS_OPT_DETAIL, CS_OPT_ON);
	c->insn = cs.malloc(c->h);
	d->priv = c;
	d->ops = &cs_ops;
	return 0;
}
