/* Decoder dispatch: Zydis on x86, capstone elsewhere (DESIGN.md §1). */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "disasm/disasm-int.h"

enum bt_arch
bt_arch_from_elf(unsigned e_machine, int elfclass64)
{
	switch (e_machine) {
	case EM_X86_64:
		return elfclass64 ? BT_ARCH_X86_64 : BT_ARCH_UNKNOWN;
	case EM_386:
		return BT_ARCH_I386;
	case EM_AARCH64:
		return BT_ARCH_AARCH64;
	case EM_ARM:
		return BT_ARCH_ARM;
	case EM_RISCV:
		return elfclass64 ? BT_ARCH_RISCV64 : BT_ARCH_UNKNOWN;
	case EM_PPC64:
		return BT_ARCH_PPC64;
	}
	return BT_ARCH_UNKNOWN;
}

const char *
bt_arch_name(enum bt_arch arch)
{
	static const char *const names[] = {
		[BT_ARCH_UNKNOWN] = "unknown", [BT_ARCH_X86_64] = "x86-64",
		[BT_ARCH_I386] = "i386", [BT_ARCH_AARCH64] = "aarch64",
		[BT_ARCH_ARM] = "arm", [BT_ARCH_RISCV64] = "riscv64",
		[BT_ARCH_PPC64] = "ppc64",
	};

	return (size_t)arch < BT_ARRAY_SIZE(names) ? names[arch] : "unknown";
}

struct bt_disasm *
bt_disasm_new(enum bt_arch arch, enum bt_syntax syntax, struct bt_error *err)
{
	struct bt_disasm *d = bt_xcalloc(1, sizeof(*d));
	int ret;

	d->arch = arch;
	d->syntax = syntax;
	if (arch == BT_ARCH_X86_64 || arch == BT_ARCH_I386)
		ret = bt_zydis_init(d, err);
	else
		ret = bt_capstone_init(d, err);
	if (ret) {
		free(d);
		return NULL;
	}
	return d;
}

void
bt_disasm_free(struct bt_disasm *d)
{
	if (d == NULL)
		return;
	if (d->ops && d->ops->free)
		d->ops->free(d);
	free(d);
}

enum bt_syntax
bt_disasm_syntax(const struct bt_disasm *d)
{
	return d->syntax;
}

size_t
bt_disasm_one(struct bt_disasm *d, const uint8_t *buf, size_t len,
	      uint64_t addr, struct bt_insn *out)
{
	size_t n;

	out->kind = BT_INSN_OTHER;
	out->flags = 0;
	out->target = out->mem_target = 0;
	out->mem_disp = 0;
	out->mem_base = -1;
	d->mnemonic[0] = d->text[0] = '\0';
	out->mnemonic = d->mnemonic;
	out->text = d->text;
	out->addr = addr;
	n = len ? d->ops->one(d, buf, len, addr, out) : 0;
	if (n == 0) {
		memset(out, 0, sizeof(*out));
		out->addr = addr;
		out->len = 1;
		out->mem_base = -1;
		out->kind = BT_INSN_BAD;
		out->mnemonic = out->text = "(bad)";
		return 1;
	}
	out->len = (uint8_t)n;
	return n;
}
