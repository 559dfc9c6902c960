/*
 * Unit tests: the decoder interface. x86 classification and text (the
 * instruction boundaries are checked against objdump in test-oracles.sh),
 * (bad) bytes, and the capstone back end on aarch64, which this x86 machine
 * cannot run but must decode.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "base.h"
#include "disasm/disasm.h"

static struct bt_insn
one(struct bt_disasm *d, const void *bytes, size_t len, uint64_t addr)
{
	struct bt_insn in;
	size_t n = bt_disasm_one(d, bytes, len, addr, &in);

	assert_int_equal(n, in.len);
	return in;
}

static void
test_x86_kinds(void **state)
{
	struct bt_disasm *d = bt_disasm_new(BT_ARCH_X86_64, BT_SYNTAX_ATT, NULL);
	struct bt_insn in;

	assert_non_null(d);
	in = one(d, "\x75\xfe", 2, 0x1000);		/* jne . */
	assert_int_equal(in.kind, BT_INSN_CJUMP);
	assert_int_equal(in.target, 0x1000);
	assert_string_equal(in.text, "jne    0x1000");	/* objdump's je/jne, not jz/jnz */
	in = one(d, "\xeb\x10", 2, 0x1000);		/* jmp +0x10 */
	assert_int_equal(in.kind, BT_INSN_JUMP);
	assert_int_equal(in.target, 0x1012);
	in = one(d, "\xe8\x00\x00\x00\x00", 5, 0x2000);	/* call next */
	assert_int_equal(in.kind, BT_INSN_CALL);
	assert_int_equal(in.target, 0x2005);
	in = one(d, "\xff\xd0", 2, 0);			/* call *%rax */
	assert_int_equal(in.kind, BT_INSN_ICALL);
	in = one(d, "\xff\xe0", 2, 0);			/* jmp *%rax */
	assert_int_equal(in.kind, BT_INSN_IJUMP);
	in = one(d, "\xc3", 1, 0);
	assert_int_equal(in.kind, BT_INSN_RET);
	in = one(d, "\x0f\x0b", 2, 0);			/* ud2 */
	assert_int_equal(in.kind, BT_INSN_STOP);
	in = one(d, "\x0f\x05", 2, 0);			/* syscall */
	assert_int_equal(in.kind, BT_INSN_SYSCALL);
	in = one(d, "\x0f\x31", 2, 0);			/* rdtsc */
	assert_true(in.flags & BT_INSN_F_TIMER);
	in = one(d, "\x48\x89\x07", 3, 0);		/* mov %rax, (%rdi) */
	assert_true(in.flags & BT_INSN_F_MEM_WRITE);
	assert_false(in.flags & BT_INSN_F_MEM_READ);
	in = one(d, "\xf0\x48\x0f\xc1\x07", 5, 0);	/* lock xadd %rax, (%rdi) */
	assert_true(in.flags & BT_INSN_F_LOCK);
	in = one(d, "\x8b\x05\x10\x00\x00\x00", 6, 0x1000);	/* mov 0x10(%rip), %eax */
	assert_true(in.flags & BT_INSN_F_RIPREL);
	assert_int_equal(in.mem_target, 0x1016);
	in = one(d, "\x0f\x1f\x40\x00", 4, 0);		/* nopl 0x0(%rax) */
	assert_true(in.flags & BT_INSN_F_NOP);
	assert_int_equal(strncmp(in.text, "nopl", 4), 0);
	in = one(d, "\x48\x63\xc7", 3, 0);		/* movslq %edi, %rax */
	assert_int_equal(strncmp(in.text, "movslq", 6), 0);
	bt_disasm_free(d);
}

static void
test_x86_syntax_and_bad(void **state)
{
	struct bt_disasm *att = bt_disasm_new(BT_ARCH_X86_64, BT_SYNTAX_ATT, NULL);
	struct bt_disasm *intel = bt_disasm_new(BT_ARCH_X86_64, BT_SYNTAX_INTEL, NULL);
	struct bt_insn in;

	in = one(att, "\x48\xf7\xf6", 3, 0);	/* div %rsi */
	assert_string_equal(in.text, "div    %rsi");
	in = one(intel, "\x48\xf7\xf6", 3, 0);
	assert_string_equal(in.text, "div    rsi");
	/* 0x06 is invalid in 64-bit mode; a truncated instruction too */
	in = one(att, "\x06", 1, 0x10);
	assert_int_equal(in.kind, BT_INSN_BAD);
	assert_int_equal(in.len, 1);
	assert_string_equal(in.text, "(bad)");
	in = one(att, "\x48\x8b", 2, 0);
	assert_int_equal(in.kind, BT_INSN_BAD);
	/* AVX-512 into a mask register (what glibc's *_evex functions do) */
	in = one(att, "\x62\xf1\x7d\x48\x76\x0f", 6, 0);	/* vpcmpeqd (%rdi), %zmm0, %k1 */
	assert_int_not_equal(in.kind, BT_INSN_BAD);
	assert_int_equal(strncmp(in.mnemonic, "vpcmpeqd", 8), 0);
	bt_disasm_free(att);
	bt_disasm_free(intel);
}

static void
test_aarch64(void **state)
{
	struct bt_disasm *d = bt_disasm_new(BT_ARCH_AARCH64, BT_SYNTAX_ATT, NULL);
	/* little-endian words, encoded by hand from the Arm ARM */
	static const struct { uint32_t w; enum bt_insn_kind kind; int64_t rel; unsigned flag; } c[] = {
		{ 0xd65f03c0, BT_INSN_RET, 0, 0 },		/* ret */
		{ 0x14000002, BT_INSN_JUMP, 8, 0 },		/* b .+8 */
		{ 0x54ffffc1, BT_INSN_CJUMP, -8, 0 },		/* b.ne .-8 */
		{ 0x94000004, BT_INSN_CALL, 16, 0 },		/* bl .+16 */
		{ 0xd63f0020, BT_INSN_ICALL, 0, 0 },		/* blr x1 */
		{ 0xd61f0040, BT_INSN_IJUMP, 0, 0 },		/* br x2 */
		{ 0xb4000040, BT_INSN_CJUMP, 8, 0 },		/* cbz x0, .+8 */
		{ 0xd4000001, BT_INSN_SYSCALL, 0, 0 },		/* svc #0 */
		{ 0xd503201f, BT_INSN_OTHER, 0, BT_INSN_F_NOP },	/* nop */
		{ 0xd53be040, BT_INSN_OTHER, 0, BT_INSN_F_TIMER },	/* mrs x0, cntvct_el0 */
	};
	size_t i;

	assert_non_null(d);
	for (i = 0; i < BT_ARRAY_SIZE(c); i++) {
		struct bt_insn in = one(d, &c[i].w, 4, 0x400000);
		assert_int_equal(in.len, 4);
		assert_int_equal(in.kind, c[i].kind);
		if (c[i].rel)
			assert_int_equal(in.target, (uint64_t)(0x400000 + c[i].rel));
		if (c[i].flag)
			assert_true(in.flags & c[i].flag);
	}
	{
		uint32_t bad = 0x00000000;	/* udf #0: permanently undefined */
		struct bt_insn in = one(d, &bad, 4, 0);
		assert_true(in.kind == BT_INSN_BAD || in.kind == BT_INSN_STOP);
	}
	bt_disasm_free(d);
}

static void
test_arch_from_elf(void **state)
{
	struct bt_error err = { 0 };

	assert_int_equal(bt_arch_from_elf(62, 1), BT_ARCH_X86_64);
	assert_int_equal(bt_arch_from_elf(183, 1), BT_ARCH_AARCH64);
	assert_int_equal(bt_arch_from_elf(3, 0), BT_ARCH_I386);
	assert_null(bt_disasm_new(BT_ARCH_RISCV64, BT_SYNTAX_ATT, &err));
	assert_int_equal(err.code, BT_ENOTSUP);
	assert_non_null(strstr(err.msg, "riscv64"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_x86_kinds),
		cmocka_unit_test(test_x86_syntax_and_bad),
		cmocka_unit_test(test_aarch64),
		cmocka_unit_test(test_arch_from_elf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
