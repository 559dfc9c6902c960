/*
 * User-space call chains of perf samples (DESIGN.md §6, docs/callchains.md).
 *
 * Three sources of a sample's user call chain, one interface:
 *   - DWARF: the user registers (PERF_SAMPLE_REGS_USER) and a copy of the
 *     stack (PERF_SAMPLE_STACK_USER) unwound with the modules' CFI through
 *     libdwfl (dwfl_attach_state, dwfl_thread_getframes), as perf's
 *     util/unwind-libdw.c does, but with one Dwfl per process whose modules
 *     are reported once, on first use, and reused by every later sample;
 *   - frame pointers: the kernel's walk (PERF_SAMPLE_CALLCHAIN);
 *   - hybrid (benchtui's default recording): both, with a small stack copy.
 *     The first frames are unwound from CFI and the kernel's chain is
 *     spliced on at the first frame both walks put at the same stack slot
 *     (bt_unwind_splice() says exactly when). This gives the immediate
 *     caller of a leaf that sets up no frame (glibc's string functions, any
 *     gcc leaf), which the frame-pointer chain skips.
 *
 * A chain is an array of addresses, leaf first, as in PERF_SAMPLE_CALLCHAIN:
 * ips[0] is the sampled ip, ips[i > 0] are return addresses (look up
 * ips[i] - 1 to name the call site's function and line).
 *
 * An address space (struct bt_unwind_space) is one process's libdwfl
 * session, told about each module the first time a frame falls in it;
 * what is mapped where, and when, is the machine's (core/machine: the
 * one model of a recording's processes that the profile resolves its
 * samples with too). Threads of the process share it. struct bt_unwinder
 * below keeps one space per process of a machine, for callers that read
 * a recording.
 *
 * x86-64 only (PERF_SAMPLE_REGS_ABI_64, perf's x86 register numbering);
 * other ABIs give -BT_ENOTSUP, and the frame-pointer chain stays usable.
 */
#ifndef BENCHTUI_UNWIND_H
#define BENCHTUI_UNWIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perf/sample.h"

struct bt_error;
struct bt_machine;
struct bt_pd_event;

/* perf's x86-64 register numbers (asm/perf_regs.h) */
enum {
	BT_REG_AX = 0, BT_REG_BX, BT_REG_CX, BT_REG_DX, BT_REG_SI, BT_REG_DI,
	BT_REG_BP, BT_REG_SP, BT_REG_IP, BT_REG_FLAGS, BT_REG_CS, BT_REG_SS,
	BT_REG_DS, BT_REG_ES, BT_REG_FS, BT_REG_GS, BT_REG_R8, BT_REG_R9,
	BT_REG_R10, BT_REG_R11, BT_REG_R12, BT_REG_R13, BT_REG_R14, BT_REG_R15,
};

/*
 * attr.sample_regs_user for recording. ALL is what perf's --call-graph
 * dwarf asks for (every general register); HYBRID the three a CFI unwind
 * of the first frames needs (a frame whose CFA or saved registers use
 * another register ends the CFI part there: see docs/callchains.md).
 */
#define BT_UNWIND_REGS_HYBRID \
	((1ULL << BT_REG_BP) | (1ULL << BT_REG_SP) | (1ULL << BT_REG_IP))
#define BT_UNWIND_REGS_ALL \
	(((1ULL << 24) - 1) & ~((1ULL << BT_REG_DS) | (1ULL << BT_REG_ES) | \
	    (1ULL << BT_REG_FS) | (1ULL << BT_REG_GS)))
/* attr.sample_stack_user of the hybrid default, and of perf's DWARF mode */
#define BT_UNWIND_STACK_HYBRID 512
#define BT_UNWIND_STACK_DWARF 8192
/* The most frames a chain holds (perf's kernel.perf_event_max_stack). */
#define BT_UNWIND_MAX_FRAMES 127

/**
 * struct bt_unwind_regs - one sample's user state
 * @abi: PERF_SAMPLE_REGS_ABI_* of the sample (0: no user registers)
 * @mask: attr.sample_regs_user: which registers @regs holds
 * @regs: one value per bit of @mask, lowest bit first, native byte order
 * @stack: the copied user stack, starting at the SP register's value
 * @stack_size: valid bytes at @stack (the sample's dyn_size)
 * @tid: the sampled thread
 * @time: the sample's time: what the process had mapped then is used
 */
struct bt_unwind_regs {
	uint64_t abi;
	uint64_t mask;
	const uint64_t *regs;
	const uint8_t *stack;
	size_t stack_size;
	uint32_t tid;
	uint64_t time;
};

/*
 * Fill r from a decoded sample of layout l; the registers are copied
 * (byte-swapped if need be) into regbuf. Returns 0, or -BT_ENODATA when
 * the sample has no user registers, -BT_ENOTSUP when they are not
 * x86-64's or the file is in the other byte order (its stack words are).
 */
int bt_unwind_regs_from_sample(struct bt_unwind_regs *r,
			       const struct bt_perf_layout *l,
			       const struct bt_perf_sample *s, uint64_t regbuf[64]);
/* The value of perf register reg (BT_REG_*); false when not recorded. */
static inline bool
bt_unwind_reg(const struct bt_unwind_regs *r, unsigned reg, uint64_t *val)
{
	if (reg >= 64 || !(r->mask >> reg & 1) || r->regs == NULL)
		return false;
	*val = r->regs[__builtin_popcountll(r->mask & ((1ULL << reg) - 1))];
	return true;
}

/**
 * struct bt_callchain - PERF_SAMPLE_CALLCHAIN split at its PERF_CONTEXT_*
 *                       markers (guest parts are dropped)
 * @kernel: the kernel part (after PERF_CONTEXT_KERNEL), @nkernel entries
 * @user: the user part (after PERF_CONTEXT_USER): user[0] is the
 *        interrupted user ip, then the return addresses the kernel's
 *        frame-pointer walk found; @nuser entries
 * Both point into the caller's array (native byte order).
 */
struct bt_callchain {
	const uint64_t *kernel;
	size_t nkernel;
	const uint64_t *user;
	size_t nuser;
};
void bt_callchain_split(const uint64_t *ips, size_t n, struct bt_callchain *cc);

/* How an unwind ended. */
enum bt_unwind_end {
	BT_UNWIND_END_OUTERMOST,	/* CFI marks the last frame (_start, clone3) */
	BT_UNWIND_END_STACK,		/* the copied stack ended */
	BT_UNWIND_END_FRAMES,		/* max frames reached */
	BT_UNWIND_END_NOCFI,		/* a frame's module or CFI is missing, or
					   it needs a register not recorded */
	BT_UNWIND_END_NOREGS,		/* no user registers: nothing unwound */
	BT_UNWIND_END_SWITCH,		/* the last frame called on another stack
					   (Go's runtime.systemstack, mcall...):
					   its caller is not where CFI says */
};

/* How a hybrid chain was put together: the rule of bt_unwind_splice(). */
enum bt_splice {
	BT_SPLICE_NONE,		/* not spliced (full DWARF, or no chain at all) */
	BT_SPLICE_SLOT,		/* 4: the last CFI frame is a kernel frame */
	BT_SPLICE_PENDING,	/* 2: the walks meet at the slot just past the copy */
	BT_SPLICE_CFI,		/* 3: CFI reached the outermost frame: CFI alone */
	BT_SPLICE_GAP,		/* 5: no meeting: CFI frames, then the kernel's
				   frames above them (some may be missing
				   between ips[ncfi - 1] and ips[ncfi]) */
	BT_SPLICE_CFI_ONLY,	/* 5: no meeting and no plausible kernel frame
				   above: the CFI frames, truncated */
	BT_SPLICE_FP,		/* 1: nothing from CFI: the kernel's chain */
	BT_SPLICE_SWITCH,	/* 5': CFI reached a stack switch: the CFI
				   frames, then the kernel's from the first
				   whose slot is past the copy (the caller's
				   stack) */
};

/**
 * struct bt_unwind_result - what one unwind produced
 * @n: frames written to ips
 * @ncfi: how many of them (from ips[0]) came from the CFI unwind
 * @end: how the CFI unwind ended
 * @splice: for bt_unwind_splice(), which rule built the chain
 * @fp_skipped: for bt_unwind_splice(), CFI frames inside the copy that
 *              the kernel's frame-pointer walk missed (1: a frameless
 *              leaf's caller)
 */
struct bt_unwind_result {
	size_t n;
	size_t ncfi;
	enum bt_unwind_end end;
	enum bt_splice splice;
	size_t fp_skipped;
};

struct bt_unwind_space;

/*
 * The address space of process pid of machine m (which must outlive it):
 * its modules are the files the machine says a sample's frames were in,
 * at the sample's time (a forked child's, its parent's until it execs);
 * a mapping that ended since they were told about starts the session
 * again. Files are opened when a frame first falls in them: a missing or
 * unreadable file only ends the chains that reach it, and so does a file
 * whose build-id is not the recorded one, as after a rebuild. Anonymous
 * and special mappings ("//anon", "[stack]", a memfd...) have no CFI;
 * "[vdso]" needs bt_unwind_space_set_vdso().
 */
struct bt_unwind_space *bt_unwind_space_new(struct bt_machine *m, uint32_t pid);
void bt_unwind_space_free(struct bt_unwind_space *s);
/*
 * Let go of the session, its open files and cached rows (made again
 * when a sample of the process comes next): the unwinder keeps only its
 * most recently used processes' (a recording of 1,000 short processes
 * held 1,000 sessions, ~0.3 MB each, to its end). The chains are the same.
 */
void bt_unwind_space_trim(struct bt_unwind_space *s);
/* The vDSO's ELF image for "[vdso]" mappings (borrowed: it must outlive s). */
void bt_unwind_space_set_vdso(struct bt_unwind_space *s, const void *image,
			      size_t len);
/*
 * Flags: BT_UNWIND_LIBDW unwinds every sample with libdwfl's own frame
 * walk (dwfl_getthread_frames), as perf does. By default a sample is
 * unwound with the CFI rows libdw returns (dwarf_cfi_addrframe), cached
 * per pc and evaluated here, and only a sample with a frame whose row is
 * not plain (PLT stubs, realigned stacks, signal frames, no CFI) goes to
 * libdwfl's walk; both give the same chains (tests/test-unwind.sh checks).
 */
#define BT_UNWIND_LIBDW 1u
void bt_unwind_space_set_flags(struct bt_unwind_space *s, unsigned flags);

/**
 * struct bt_unwind_stats - work done by one space
 * @samples: samples unwound from CFI
 * @libdw: of those, samples unwound by libdwfl's frame walk
 * @rules: CFI rows met (distinct pcs of the process)
 * @shared: of those, rows another process had read of the same file (the
 *	unwinder's spaces share them: not read through libdw again)
 * @mismatched: files not used because their build-id is not the recorded one
 */
struct bt_unwind_stats {
	uint64_t samples, libdw, rules, shared, mismatched;
};
const struct bt_unwind_stats *bt_unwind_space_stats(const struct bt_unwind_space *s);

/*
 * Full DWARF unwind of one sample of this process: the chain into
 * ips[0..max), leaf first. Returns the frame count (also res->n; 0 when
 * the sample has no user registers), or -BT_ENOTSUP (not x86-64) with err
 * set. Frames as far as the copied stack allows; res->end says why it
 * stopped.
 */
int bt_unwind_dwarf(struct bt_unwind_space *s, const struct bt_unwind_regs *r,
		    uint64_t *ips, size_t max, struct bt_unwind_result *res,
		    struct bt_error *err);

/*
 * The hybrid chain: fp[0..nfp) is the user part of the sample's
 * PERF_SAMPLE_CALLCHAIN (struct bt_callchain's user, fp[0] the ip), r the
 * registers (SP, IP and BP at least) and the small stack copy.
 *
 * The frames are unwound from CFI as far as the copy allows: CFI frame i
 * (i >= 1) was read from stack slot s_i, and the unwind stopped either at
 * the outermost frame, or because the next slot p (just past the copy)
 * could not be read, or at a frame without usable CFI. The kernel's walk
 * read fp[j] from slot f_j = bp_{j-1} + 8, bp_0 being the BP register and
 * bp_j the word at f_j - 8: the addresses f_j are known as long as the
 * word below each lies in the copy (and a slot in the copy must hold
 * fp[j], else the kernel walked other memory and f stops there). Two
 * walks that read the same slot are at the same frame, whatever the
 * values (recursion cannot fool it). The chain, by the first rule that
 * applies:
 *   1. no CFI frame past the leaf (no registers, no module or CFI at the
 *      ip): fp as recorded                                   (BT_SPLICE_FP)
 *   2. the copy ended and p = f_j: the CFI frames, then fp[j..]
 *                                                       (BT_SPLICE_PENDING)
 *   3. the CFI unwind reached the outermost frame (or max frames): the CFI
 *      frames                                               (BT_SPLICE_CFI)
 *   4. the last CFI frame's slot s_k = f_j: the CFI frames, then fp[j+1..]
 *                                                          (BT_SPLICE_SLOT)
 *   5. otherwise the CFI frames, then fp[j..] from the first known f_j
 *      above s_k (and p) whose ip lies in a mapping (BT_SPLICE_GAP: frames
 *      between may be missing), or no more (BT_SPLICE_CFI_ONLY: truncated);
 *      after a stack switch (BT_UNWIND_END_SWITCH: Go's systemstack...),
 *      fp[j..] from the first f_j past the copy (BT_SPLICE_SWITCH), as
 *      addresses of two stacks do not compare
 * A leaf in a function that switches stacks takes rule 1.
 * Every frame inside the copy comes from CFI; the kernel's frames are used
 * only above it. res->fp_skipped counts the CFI frames whose slot the
 * kernel's walk did not visit (1 for a frameless leaf's caller).
 * Returns the frame count or a negative -BT_E* code, as bt_unwind_dwarf().
 */
int bt_unwind_splice(struct bt_unwind_space *s, const struct bt_unwind_regs *r,
		     const uint64_t *fp, size_t nfp, uint64_t *ips, size_t max,
		     struct bt_unwind_result *res, struct bt_error *err);

/*
 * A recording's processes, for unwinding its samples: one space per
 * process of machine m (fed by core/perf's ordered stream: a sample is
 * unwound once every side-band record as old as it is in the machine),
 * and a sample's user chain from bt_unwinder_sample(). The method is
 * picked from what the sample has: hybrid (callchain with a user part,
 * and registers), DWARF (registers and stack), frame pointers (callchain).
 */
struct bt_unwinder;

struct bt_unwinder *bt_unwinder_new(struct bt_machine *m);
void bt_unwinder_free(struct bt_unwinder *u);
/* The vDSO image to use for "[vdso]" mappings (copied); NULL: none. */
void bt_unwinder_set_vdso(struct bt_unwinder *u, const void *image, size_t len);
/* Flags (BT_UNWIND_LIBDW) for every space, and the work done by all. */
void bt_unwinder_set_flags(struct bt_unwinder *u, unsigned flags);
void bt_unwinder_stats(const struct bt_unwinder *u, struct bt_unwind_stats *st);
/* The space of process pid (created when new). */
struct bt_unwind_space *bt_unwinder_space(struct bt_unwinder *u, uint32_t pid);
/*
 * The user chain of a SAMPLE event of layout l into ips[0..max); the
 * kernel part, if any, is in cc->kernel (cc may be NULL). Returns the
 * frame count (0: none) or a negative -BT_E* code.
 */
int bt_unwinder_sample(struct bt_unwinder *u, const struct bt_perf_layout *l,
		       const struct bt_pd_event *ev, uint64_t *ips, size_t max,
		       struct bt_callchain *cc, struct bt_unwind_result *res,
		       struct bt_error *err);

#endif
