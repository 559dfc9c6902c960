/*
 * x86 prefixes as objdump prints them (x86-text.c): unused and meaningful
 * ones by name ("lock", "rep", "data16", "rex.W", "notrack"), and the
 * {evex}/{vex} marks of an encoding.
 */
#include <string.h>

#include "base.h"
#include "disasm/x86-text.h"
#include "disasm/x86-text-int.h"

#include <Zydis/Internal/EncoderData.h>

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
 * encodes: "{evex} vpaddd %xmm2,%xmm1,%xmm0". A compare into a mask
 * register (vpcmpeqd %xmm1,%xmm2,%k1, vcmpeqps) has no VEX form: the VEX
 * opcode of the same number writes a vector.
 */
static bool
needless_evex(const struct ctx *c)
{
	const ZydisDecodedInstruction *in = c->in;
	const ZydisEncodableInstruction *def;
	uint8_t i, n;

	/* L'L: 512 bits, also on a scalar instruction that ignores it (vaddss) */
	if (in->encoding != ZYDIS_INSTRUCTION_ENCODING_EVEX || in->avx.vector_length == 512 ||
	    in->raw.evex.L2 || in->raw.evex.aaa != 0 || in->raw.evex.b)
		return false;
	if (in->operand_count_visible > 0 && c->ops[0].type == ZYDIS_OPERAND_TYPE_REGISTER &&
	    ZydisRegisterGetClass(c->ops[0].reg.value) == ZYDIS_REGCLASS_MASK)
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
	switch (in->mnemonic) {
	case ZYDIS_MNEMONIC_VPSLLVD: case ZYDIS_MNEMONIC_VPSLLVQ:
	case ZYDIS_MNEMONIC_VPSRLVD: case ZYDIS_MNEMONIC_VPSRLVQ:
	case ZYDIS_MNEMONIC_VPSRAVD:
		return false;	/* objdump 2.40 marks none of the variable shifts */
	case ZYDIS_MNEMONIC_VPERMPD:
		/* its table shares 0f38 16 with VEX's vpermps: marked, though VEX has no such vpermpd */
		if (in->opcode == 0x16 && in->opcode_map == ZYDIS_OPCODE_MAP_0F38)
			return true;
		break;
	default:
		break;
	}
	/* a VEX form of the same opcode (vpbroadcastd %esi,%ymm5 has none) */
	n = ZydisGetEncodableInstructions(in->mnemonic, &def);
	for (i = 0; i < n; i++)
		if (def[i].encoding == ZYDIS_INSTRUCTION_ENCODING_VEX &&
		    def[i].opcode == in->opcode && def[i].opcode_map == in->opcode_map)
			return true;
	return false;
}

const char *
x86_encoding_mark(const struct ctx *c)
{
	if (needless_evex(c))
		return "{evex} ";
	if (c->in->encoding == ZYDIS_INSTRUCTION_ENCODING_VEX && vex_marked(c->in->mnemonic))
		return "{vex} ";
	return NULL;
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
void
x86_prefixes(struct out *o, struct ctx *c, const char **hint)
{
	const ZydisDecodedInstruction *in = c->in;
	const ZydisDecodedOperand *mo = x86_mem_operand(c);
	uint8_t i;
	int last_seg = -1;
	bool seg_used = false;

	/* the segment override a memory operand uses: the last one given */
	for (i = 0; i < in->raw.prefix_count; i++)
		if (seg_of(in->raw.prefixes[i].value) != ZYDIS_REGISTER_NONE)
			last_seg = i;
	if (last_seg >= 0 && mo != NULL && !x86_is_string_op(in)) {
		ZydisRegister s = seg_of(in->raw.prefixes[last_seg].value);
		if (!c->x64 || s == ZYDIS_REGISTER_FS || s == ZYDIS_REGISTER_GS)
			c->seg = s;
	}
	/* movs, cmps, lods, outs, xlat: the segment of (%rsi) or (%rbx) takes it */
	if (last_seg >= 0 && (in->mnemonic == ZYDIS_MNEMONIC_XLAT || (x86_is_string_op(in) &&
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
			if (t == ZYDIS_PREFIX_TYPE_MANDATORY && !x86_is_string_op(in))
				break;
			if (x86_is_string_op(in)) {
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
			/* and "rex.W pcmpistri", which has no lengths for W to size */
			if ((v & 0xf0) == 0x40 && c->x64 && (t == ZYDIS_PREFIX_TYPE_IGNORED ||
			    (v == 0x48 && (default64(in) || in->mnemonic == ZYDIS_MNEMONIC_PCMPISTRI ||
			    in->mnemonic == ZYDIS_MNEMONIC_PCMPISTRM))))
				name = rex_names[v & 15];
			break;
		}
		if (name != NULL) {
			put(o, name);
			putch(o, ' ');
		}
	}
}
