/*
 * One decoder interface, two back ends (DESIGN.md §1): Zydis for x86-64
 * (and i386), capstone for the other architectures (aarch64 first).
 * Bytes no decoder accepts come back as one-byte BT_INSN_BAD "(bad)"
 * instructions; the caller resynchronises at the next byte.
 */
#ifndef BENCHTUI_DISASM_H
#define BENCHTUI_DISASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bt_error;

enum bt_arch {
	BT_ARCH_UNKNOWN,
	BT_ARCH_X86_64,
	BT_ARCH_I386,
	BT_ARCH_AARCH64,
	BT_ARCH_ARM,
	BT_ARCH_RISCV64,
	BT_ARCH_PPC64,
};

enum bt_syntax { BT_SYNTAX_ATT, BT_SYNTAX_INTEL };

enum bt_insn_kind {
	BT_INSN_OTHER,		/* falls through to the next instruction */
	BT_INSN_JUMP,		/* unconditional direct jump; target set */
	BT_INSN_CJUMP,		/* conditional direct jump (jcc, loop, jrcxz, cbz...); target set */
	BT_INSN_IJUMP,		/* indirect jump (jmp *%rax, jump tables, tail calls through regs) */
	BT_INSN_CALL,		/* direct call; target set */
	BT_INSN_ICALL,		/* indirect call */
	BT_INSN_RET,		/* return (ret, iret, sysret, eret) */
	BT_INSN_SYSCALL,	/* syscall/sysenter/svc: falls through */
	BT_INSN_STOP,		/* no fall-through: ud2, hlt, int3, brk */
	BT_INSN_BAD,		/* undecodable byte: len 1, text "(bad)" */
};

/* Instruction flags (bit set in bt_insn.flags). */
#define BT_INSN_F_MEM_READ	0x01	/* reads memory (explicit operand) */
#define BT_INSN_F_MEM_WRITE	0x02	/* writes memory (explicit operand, incl. push) */
#define BT_INSN_F_NOP		0x04	/* nop / endbr / padding */
#define BT_INSN_F_TIMER		0x08	/* reads a clock: rdtsc, rdtscp, mrs cntvct_el0 */
#define BT_INSN_F_RIPREL	0x10	/* has a PC-relative memory operand: mem_target set */
#define BT_INSN_F_LOCK		0x20	/* atomic (lock prefix, ldxr/stxr...) */
#define BT_INSN_F_INTERRUPTIBLE	0x40	/* interrupted at its own address (rep movs...) */
/*
 * Decoded the same at any address (no relative operand: no target, no
 * mem_target, no address in its text): the same bytes elsewhere decode to
 * the same instruction, text and all (an annotation decodes them once)
 */
#define BT_INSN_F_ANYWHERE	0x80

/**
 * struct bt_insn - one decoded instruction
 * @addr: address it was decoded at (link-time address, as objdump shows)
 * @len: length in bytes (1 for BT_INSN_BAD)
 * @kind: control-flow class
 * @flags: BT_INSN_F_*
 * @target: branch or call target for JUMP, CJUMP, CALL
 * @mem_target: address of a PC-relative memory operand (BT_INSN_F_RIPREL)
 * @mem_base: the DWARF number of the base register of its memory operand
 *            (x86-64: 0 rax, 1 rdx, 2 rcx, 3 rbx, 4 rsi, 5 rdi, 6 rbp,
 *            7 rsp, 8-15 r8-r15), -1 when there is none, or an index
 *            register, a segment override (fs, gs) or several memory
 *            operands make its offset from the base unknown; x86 only
 * @mem_disp: the memory operand's displacement from that base register
 * @mnemonic: the mnemonic as @text spells it, without prefixes: "div",
 *            "vpcmpeqb", "nopw", "movzbl" (AT&T) / "movzx" (Intel), "(bad)"
 * @text: the whole instruction in the chosen syntax, as objdump -d (x86:
 *        -M intel for Intel) prints it: prefixes, the mnemonic padded to
 *        six columns and a blank, operands separated by "," with no blank
 *        ("cs nopw 0x0(%rax,%rax,1)", "mov    eax,DWORD PTR [rdi]"). A
 *        branch target is the absolute address in hex without 0x, as
 *        objdump prints it before its "<sym+off>" ("jne    11c0"); the
 *        "<sym+off>" and the "# addr <sym>" of a PC-relative operand are
 *        the caller's to add (docs/disasm.md)
 *
 * @mnemonic and @text are the decoder's: they stay until its next
 * bt_disasm_one() or bt_disasm_free(). An annotation keeps copies (a
 * 30,000-instruction function's instructions would otherwise be 4 MB of
 * mostly empty text buffers).
 *
 * 40 bytes: an annotation holds one for each instruction (struct
 * bt_ainsn), and a big function's are zeroed by the kernel first. @target
 * and @mem_target share their place (no instruction has both: read each
 * only for its kinds and flag).
 */
struct bt_insn {
	uint64_t addr;
	union {			/* a direct branch has no PC-relative memory operand */
		uint64_t target;	/* JUMP, CJUMP, CALL */
		uint64_t mem_target;	/* BT_INSN_F_RIPREL */
	};
	const char *mnemonic;
	const char *text;
	int32_t mem_disp;	/* x86's are 32 bits (a 64-bit one has no base) */
	uint8_t len;
	int8_t mem_base;
	uint8_t kind;		/* enum bt_insn_kind */
	uint8_t flags;		/* BT_INSN_F_* */
};

struct bt_disasm;

/* Map an ELF e_machine (and ELF class) to an arch. */
enum bt_arch bt_arch_from_elf(unsigned e_machine, int elfclass64);
const char *bt_arch_name(enum bt_arch arch);

/* A decoder for arch, or NULL with err set (BT_ENOTSUP for an arch no back end handles). */
struct bt_disasm *bt_disasm_new(enum bt_arch arch, enum bt_syntax syntax,
				struct bt_error *err);
void bt_disasm_free(struct bt_disasm *d);
enum bt_syntax bt_disasm_syntax(const struct bt_disasm *d);

/*
 * Decode one instruction from buf[0..len) at address addr. Always fills
 * *out and returns its length (>= 1): an undecodable or truncated byte
 * gives a BT_INSN_BAD of length 1. len must be > 0.
 */
size_t bt_disasm_one(struct bt_disasm *d, const uint8_t *buf, size_t len,
		     uint64_t addr, struct bt_insn *out);

/**
 * struct bt_insn_memo - the instructions decoded already in one buffer of
 * code, by their bytes: an instruction whose bytes were decoded before
 * (BT_INSN_F_ANYWHERE) need not be decoded again. Compiled code repeats
 * itself (mov %rax,%rdi; xor %eax,%eax; push %rbp): a third of a
 * function's instructions, two thirds of an unrolled one's. x86 code is
 * prefix-free, so the bytes that decoded to an instruction decode to it
 * wherever they are, whatever follows them; at most one kept instruction
 * matches the bytes at an offset.
 * @code: the buffer
 * @slot, @mask: the table (open addressing, at most half full): the hash
 *               of the bytes with their length in its low 4 bits (0: a
 *               free slot), and where they are in @kept
 * @kept, @n: the instructions kept: their offset in @code, the caller's id
 * @lens: bit L set when an instruction of L bytes is kept
 * @seen: a bit for each hash kept (of 65,536: in the first level cache):
 *        most bytes at an offset are no instruction kept, told without a
 *        look in the table
 */
struct bt_insn_memo {
	const uint8_t *code;
	struct bt_memo_slot {
		uint32_t hash, k;
	} *slot;
	struct bt_memo_kept {
		uint32_t off, id;
	} *kept;
	size_t mask, n, alloc;
	unsigned lens;
	uint64_t seen[1024];
};

/* A memo of the instructions of code[0..n) (the table sized for n bytes). */
void bt_insn_memo_init(struct bt_insn_memo *m, const uint8_t *code, size_t n);
void bt_insn_memo_release(struct bt_insn_memo *m);
/*
 * The id kept for the instruction the bytes code[off..off+avail) start
 * with, or -1: none of those kept.
 */
long bt_insn_memo_find(const struct bt_insn_memo *m, size_t off, size_t avail);
/* Keep id for the len bytes at code[off]: an instruction decoded there, BT_INSN_F_ANYWHERE. */
void bt_insn_memo_add(struct bt_insn_memo *m, size_t off, size_t len, uint32_t id);

#endif
