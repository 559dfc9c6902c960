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
#include <stdio.h>
#include <stdlib.h>
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
	assert_string_equal(in.text, "jne    1000");	/* objdump's je/jne, not jz/jnz */
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
	in = one(d, "\x3e\xff\xe0", 3, 0);		/* notrack jmp *%rax */
	assert_int_equal(in.kind, BT_INSN_IJUMP);
	in = one(d, "\xf2\xff\xe0", 3, 0);		/* bnd jmp *%rax */
	assert_int_equal(in.kind, BT_INSN_IJUMP);
	in = one(d, "\xff\x25\x10\x00\x00\x00", 6, 0x1000);	/* jmp *0x10(%rip) */
	assert_int_equal(in.kind, BT_INSN_IJUMP);
	assert_true(in.flags & BT_INSN_F_RIPREL);
	assert_int_equal(in.mem_target, 0x1016);
	in = one(d, "\x3e\xff\xd0", 3, 0);		/* notrack call *%rax */
	assert_int_equal(in.kind, BT_INSN_ICALL);
	in = one(d, "\xf2\xe9\x00\x00\x00\x00", 6, 0x1000);	/* bnd jmp */
	assert_int_equal(in.kind, BT_INSN_JUMP);
	assert_int_equal(in.target, 0x1006);
	in = one(d, "\xf2\xc3", 2, 0);			/* bnd ret */
	assert_int_equal(in.kind, BT_INSN_RET);
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
	in = one(att, "\x48\x83\xc2\x01", 4, 0);
	assert_string_equal(in.text, "add    $0x1,%rdx");	/* no blank after the comma */
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

/* Text as objdump -d / -d -M intel prints it (binutils 2.40), at 0x1000. */
static void
test_x86_text(void **state)
{
	static const struct {
		const char *bytes;
		size_t len;
		const char *att, *intel, *mnemonic;
	} c[] = {
#define B(s) s, sizeof(s) - 1
		{ B("\xff\xd0"), "call   *%rax", "call   rax", "call" },
		{ B("\xff\x25\x10\x00\x00\x00"), "jmp    *0x10(%rip)",
		  "jmp    QWORD PTR [rip+0x10]", "jmp" },
		{ B("\x3e\xff\xe0"), "notrack jmp *%rax", "notrack jmp rax", "jmp" },
		{ B("\xf2\xff\xe0"), "bnd jmp *%rax", "bnd jmp rax", "jmp" },
		{ B("\xf2\xe9\x00\x00\x00\x00"), "bnd jmp 1006", "bnd jmp 1006", "jmp" },
		{ B("\x75\x00"), "jne    1002", "jne    1002", "jne" },
		{ B("\xe8\xfb\xff\xff\xff"), "call   1000", "call   1000", "call" },
		{ B("\x0f\x1f\x40\x00"), "nopl   0x0(%rax)", "nop    DWORD PTR [rax+0x0]", "nopl" },
		{ B("\x0f\x1f\x00"), "nopl   (%rax)", "nop    DWORD PTR [rax]", "nopl" },
		{ B("\x66\x2e\x0f\x1f\x84\x00\x00\x00\x00\x00"), "cs nopw 0x0(%rax,%rax,1)",
		  "cs nop WORD PTR [rax+rax*1+0x0]", "nopw" },
		{ B("\x66\x90"), "xchg   %ax,%ax", "xchg   ax,ax", "xchg" },
		{ B("\x48\x98"), "cltq", "cdqe", NULL },
		{ B("\x48\x8d\x04\xc5\x00\x00\x00\x00"), "lea    0x0(,%rax,8),%rax",
		  "lea    rax,[rax*8+0x0]", "lea" },
		{ B("\x48\x8d\x3d\x25\xfe\xff\xff"), "lea    -0x1db(%rip),%rdi",
		  "lea    rdi,[rip+0xfffffffffffffe25]", "lea" },
		{ B("\x0f\x38\xcb\xd1"), "sha256rnds2 %xmm0,%xmm1,%xmm2",
		  "sha256rnds2 xmm2,xmm1,xmm0", "sha256rnds2" },
		{ B("\xf3\xa4"), "rep movsb %ds:(%rsi),%es:(%rdi)",
		  "rep movs BYTE PTR es:[rdi],BYTE PTR ds:[rsi]", NULL },
		{ B("\xf3\x48\xab"), "rep stos %rax,%es:(%rdi)",
		  "rep stos QWORD PTR es:[rdi],rax", "stos" },
		{ B("\x62\xf3\x7d\x48\x3f\xc1\x00"), "vpcmpeqb %zmm1,%zmm0,%k0",
		  "vpcmpeqb k0,zmm0,zmm1", "vpcmpeqb" },
		{ B("\x62\xf1\xfe\x48\x6f\x07"), "vmovdqu64 (%rdi),%zmm0",
		  "vmovdqu64 zmm0,ZMMWORD PTR [rdi]", "vmovdqu64" },
		{ B("\x62\xf1\x75\x58\xfe\x00"), "vpaddd (%rax){1to16},%zmm1,%zmm0",
		  "vpaddd zmm0,zmm1,DWORD BCST [rax]", "vpaddd" },
		{ B("\x62\xf1\x75\x4b\xfe\x00"), "vpaddd (%rax),%zmm1,%zmm0{%k3}",
		  "vpaddd zmm0{k3},zmm1,ZMMWORD PTR [rax]", "vpaddd" },
		{ B("\x62\xf1\x75\x08\xfe\xc2"), "{evex} vpaddd %xmm2,%xmm1,%xmm0",
		  "{evex} vpaddd xmm0,xmm1,xmm2", "vpaddd" },
		/* compares into a mask have no VEX form: no {evex} */
		{ B("\x62\xf2\xed\x08\x29\x1f"), "vpcmpeqq (%rdi),%xmm2,%k3",
		  "vpcmpeqq k3,xmm2,XMMWORD PTR [rdi]", "vpcmpeqq" },
		{ B("\x62\xf1\x6c\x08\xc2\xc9\x00"), "vcmpeqps %xmm1,%xmm2,%k1",
		  "vcmpeqps k1,xmm2,xmm1", "vcmpeqps" },
		/* embedded rounding: Intel on the last register, AT&T after vcvtsi2sd's source */
		{ B("\x62\xf1\xed\xb9\x58\xd9"), "vaddpd {rd-sae},%zmm1,%zmm2,%zmm3{%k1}{z}",
		  "vaddpd zmm3{k1}{z},zmm2,zmm1{rd-sae}", "vaddpd" },
		{ B("\x62\xf1\xf7\x18\x2a\xd0"), "vcvtsi2sd %rax,{rn-sae},%xmm1,%xmm2",
		  "vcvtsi2sd xmm2,xmm1,rax{rn-sae}", "vcvtsi2sd" },
		{ B("\x62\xf3\x7d\x18\x1d\xca\x04"), "vcvtps2ph $0x4,{sae},%zmm1,%ymm2",
		  "vcvtps2ph ymm2,zmm1{sae},0x4", "vcvtps2ph" },
		/* a broadcast count Intel names where the destination does not tell it */
		{ B("\x62\xf1\xff\x58\xe6\x10"), "vcvtpd2dq (%rax){1to8},%ymm2",
		  "vcvtpd2dq ymm2,QWORD BCST [rax]", "vcvtpd2dq" },
		{ B("\x62\xf1\xff\x38\xe6\x10"), "vcvtpd2dq (%rax){1to4},%xmm2",
		  "vcvtpd2dq xmm2,QWORD BCST [rax]{1to4}", "vcvtpd2dq" },
		{ B("\x62\xf3\x7d\x58\x66\x08\x01"), "vfpclassps $0x1,(%rax){1to16},%k1",
		  "vfpclassps k1,DWORD BCST [rax]{1to16},0x1", "vfpclassps" },
		{ B("\x62\xf5\xfd\x28\x5a\x10"), "vcvtpd2phy (%rax),%xmm2",
		  "vcvtpd2ph xmm2,YMMWORD PTR [rax]", "vcvtpd2phy" },
		{ B("\x48\x0f\xc7\x0f"), "cmpxchg16b (%rdi)", "cmpxchg16b OWORD PTR [rdi]",
		  "cmpxchg16b" },
		{ B("\x0f\xc7\x0f"), "cmpxchg8b (%rdi)", "cmpxchg8b QWORD PTR [rdi]", "cmpxchg8b" },
		{ B("\xc4\xe2\x78\x49\x00"), "ldtilecfg (%rax)", "ldtilecfg [rax]", "ldtilecfg" },
		/* W set where compilers leave it clear */
		{ B("\xc4\xe1\xf8\x50\xca"), "vmovmskps %xmm2,%rcx", "vmovmskps rcx,xmm2",
		  "vmovmskps" },
		{ B("\x66\x48\x0f\xd7\xc1"), "pmovmskb %xmm1,%rax", "pmovmskb rax,xmm1",
		  "pmovmskb" },
		{ B("\xc4\xe3\xf9\x61\xca\x01"), "vpcmpestriq $0x1,%xmm2,%xmm1",
		  "vpcmpestriq xmm1,xmm2,0x1", "vpcmpestriq" },
		{ B("\x66\x48\x0f\x3a\x63\xc1\x00"), "rex.W pcmpistri $0x0,%xmm1,%xmm0",
		  "rex.W pcmpistri xmm0,xmm1,0x0", "pcmpistri" },
		/* AMX-FP16, which Zydis 4.0 does not know */
		{ B("\xc4\xe2\x73\x5c\xda"), "tdpfp16ps %tmm1,%tmm2,%tmm3",
		  "tdpfp16ps tmm3,tmm2,tmm1", "tdpfp16ps" },
		{ B("\xc5\xfb\xe6\x00"), "vcvtpd2dqx (%rax),%xmm0",
		  "vcvtpd2dq xmm0,XMMWORD PTR [rax]", NULL },
		{ B("\x8b\x07"), "mov    (%rdi),%eax", "mov    eax,DWORD PTR [rdi]", "mov" },
		{ B("\x0f\xb6\x07"), "movzbl (%rdi),%eax", "movzx  eax,BYTE PTR [rdi]", NULL },
		{ B("\xc7\x07\x00\x00\x00\x00"), "movl   $0x0,(%rdi)",
		  "mov    DWORD PTR [rdi],0x0", NULL },
		{ B("\x48\xb8\xef\xcd\xab\x90\x78\x56\x34\x12"),
		  "movabs $0x1234567890abcdef,%rax", "movabs rax,0x1234567890abcdef", "movabs" },
		{ B("\x64\x48\x8b\x04\x25\x28\x00\x00\x00"), "mov    %fs:0x28,%rax",
		  "mov    rax,QWORD PTR fs:0x28", "mov" },
		{ B("\x48\x83\xe4\xe0"), "and    $0xffffffffffffffe0,%rsp",
		  "and    rsp,0xffffffffffffffe0", "and" },
		{ B("\x9b\xdf\xe0"), "fstsw  %ax", "fstsw  ax", "fstsw" },
		{ B("\xde\xe9"), "fsubrp %st,%st(1)", "fsubp  st(1),st", NULL },
		{ B("\xdb\x2f"), "fldt   (%rdi)", "fld    TBYTE PTR [rdi]", NULL },
#undef B
	};
	struct bt_disasm *att = bt_disasm_new(BT_ARCH_X86_64, BT_SYNTAX_ATT, NULL);
	struct bt_disasm *intel = bt_disasm_new(BT_ARCH_X86_64, BT_SYNTAX_INTEL, NULL);
	size_t i;

	{
		/* i386: no operand size in cvtsi2sd's name, only 32 bits are possible */
		struct bt_disasm *i386 = bt_disasm_new(BT_ARCH_I386, BT_SYNTAX_ATT, NULL);
		struct bt_insn a = one(i386, "\x62\xf1\x77\x08\x2a\x00", 6, 0x1000);
		assert_string_equal(a.text, "{evex} vcvtsi2sd (%eax),%xmm1,%xmm0");
		bt_disasm_free(i386);
	}
	for (i = 0; i < BT_ARRAY_SIZE(c); i++) {
		struct bt_insn a = one(att, c[i].bytes, c[i].len, 0x1000);
		struct bt_insn b = one(intel, c[i].bytes, c[i].len, 0x1000);
		assert_int_equal(a.len, c[i].len);
		assert_string_equal(a.text, c[i].att);
		assert_string_equal(b.text, c[i].intel);
		if (c[i].mnemonic)
			assert_string_equal(a.mnemonic, c[i].mnemonic);
	}
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
		/* text as aarch64-linux-gnu-objdump -d prints it, its // comments aside */
		static const struct { uint32_t w; const char *text; } t[] = {
			{ 0x94000004, "bl     400010" },
			{ 0x54ffffc1, "b.ne   3ffff8" },
			{ 0xd2800002, "mov    x2, #0x0" },
			{ 0xf947fe11, "ldr    x17, [x16, #4088]" },
			{ 0xb81fc422, "str    w2, [x1], #-4" },
			{ 0x927cec00, "and    x0, x0, #0xfffffffffffffff0" },
			{ 0xf100041f, "cmp    x0, #0x1" },
			{ 0xd503245f, "bti    c" },
		};
		for (i = 0; i < BT_ARRAY_SIZE(t); i++) {
			struct bt_insn in = one(d, &t[i].w, 4, 0x400000);
			assert_string_equal(in.text, t[i].text);
		}
	}
	{
		uint32_t bad = 0x00000000;	/* udf #0: permanently undefined */
		struct bt_insn in = one(d, &bad, 4, 0);
		assert_true(in.kind == BT_INSN_BAD || in.kind == BT_INSN_STOP);
	}
	bt_disasm_free(d);
}

/*
 * The memo (struct bt_insn_memo) gives what decoding again gives: bytes of
 * this test's own file (code, data, anything) decoded at every offset,
 * each instruction found in the memo checked against a fresh decode.
 */
static void
memo_check(enum bt_syntax syntax, const uint8_t *code, size_t n)
{
	struct bt_disasm *d = bt_disasm_new(BT_ARCH_X86_64, syntax, NULL);
	struct bt_insn_memo memo;
	struct bt_insn *kept = calloc(n, sizeof(*kept));
	char *texts = calloc(n, 128);
	size_t off, hits = 0, nkept = 0;

	assert_non_null(d);
	bt_insn_memo_init(&memo, code, n);
	for (off = 0; off < n; off++) {
		long same = bt_insn_memo_find(&memo, off, n - off);
		struct bt_insn in;
		size_t len = bt_disasm_one(d, code + off, n - off, 0x1000 + off, &in);

		if (same >= 0) {
			const struct bt_insn *k = &kept[same];
			hits++;
			assert_true(in.flags & BT_INSN_F_ANYWHERE);
			assert_int_equal(k->len, len);
			assert_int_equal(k->kind, in.kind);
			assert_int_equal(k->flags, in.flags);
			assert_int_equal(k->mem_base, in.mem_base);
			assert_int_equal(k->mem_disp, in.mem_disp);
			assert_string_equal(k->text, in.text);
			assert_string_equal(k->mnemonic, in.mnemonic);
			continue;
		}
		if (!(in.flags & BT_INSN_F_ANYWHERE))
			continue;
		assert_int_equal(in.target, 0);
		assert_int_equal(in.mem_target, 0);
		kept[nkept] = in;
		snprintf(texts + 128 * nkept, 96, "%s", in.text);
		snprintf(texts + 128 * nkept + 96, 32, "%s", in.mnemonic);
		kept[nkept].text = texts + 128 * nkept;
		kept[nkept].mnemonic = texts + 128 * nkept + 96;
		bt_insn_memo_add(&memo, off, len, (uint32_t)nkept++);
	}
	assert_true(n < 4096 || hits > n / 8);	/* at every offset: a few each */
	bt_insn_memo_release(&memo);
	free(kept);
	free(texts);
	bt_disasm_free(d);
}

static void
test_x86_memo(void **state)
{
	/* fwait alone, then fwait taken into the x87 instruction after it */
	static const uint8_t wait[] = { 0x9b, 0x90, 0x9b, 0xdf, 0xe0, 0x9b, 0x90 };
	uint8_t *code = malloc(1 << 17);
	FILE *f = fopen("/proc/self/exe", "rb");
	size_t n;

	(void)state;
	assert_non_null(f);
	assert_int_equal(fseek(f, 4096, SEEK_SET), 0);
	n = fread(code, 1, 1 << 17, f);
	fclose(f);
	assert_true(n > 4096);
	memo_check(BT_SYNTAX_ATT, code, n);
	memo_check(BT_SYNTAX_INTEL, code, n / 4);
	memcpy(code, wait, sizeof(wait));
	memo_check(BT_SYNTAX_ATT, code, sizeof(wait));
	free(code);
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
		cmocka_unit_test(test_x86_text),
		cmocka_unit_test(test_aarch64),
		cmocka_unit_test(test_x86_memo),
		cmocka_unit_test(test_arch_from_elf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
