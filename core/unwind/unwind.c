/*
 * User-space unwinding of one sample (unwind.h): the sample's registers,
 * the walk from CFI (cached rows: cfi.c; libdwfl's frame walk: the
 * process's space, space.c) and the splice of a short CFI unwind onto
 * the kernel's frame-pointer chain.
 */
#include <dwarf.h>
#include <inttypes.h>
#include <string.h>

#include "unwind/unwind-int.h"

int
bt_unwind_regs_from_sample(struct bt_unwind_regs *r, const struct bt_perf_layout *l,
			   const struct bt_perf_sample *s, uint64_t regbuf[64])
{
	uint64_t i, n;

	memset(r, 0, sizeof(*r));
	r->tid = s->tid;
	r->time = s->time;
	if (!BT_PF_HAS(s, BT_PF_REGS_USER) ||
	    s->regs_user_abi == PERF_SAMPLE_REGS_ABI_NONE)
		return -BT_ENODATA;
	if (s->regs_user_abi != PERF_SAMPLE_REGS_ABI_64 || s->swapped)
		return -BT_ENOTSUP;
	n = BT_MIN(s->regs_user.n, 64);
	for (i = 0; i < n; i++)
		regbuf[i] = bt_perf_u64(&s->regs_user, s->swapped, i);
	r->abi = s->regs_user_abi;
	r->mask = l->regs_user;
	/* fewer words than bits: keep the registers that are there */
	while (n < 64 && (uint64_t)__builtin_popcountll(r->mask) > n)
		r->mask &= ~(1ULL << (63 - __builtin_clzll(r->mask)));
	r->regs = regbuf;
	if (BT_PF_HAS(s, BT_PF_STACK_USER)) {
		r->stack = s->stack.data;
		r->stack_size = (size_t)BT_MIN(s->stack_dyn_size, s->stack.n);
	}
	return 0;
}

void
bt_callchain_split(const uint64_t *ips, size_t n, struct bt_callchain *cc)
{
	enum { NONE, KERNEL, USER, GUEST } part = NONE;
	size_t i;

	memset(cc, 0, sizeof(*cc));
	for (i = 0; i < n; i++) {
		uint64_t ip = ips[i];

		if (ip >= (uint64_t)PERF_CONTEXT_MAX) {
			part = ip == (uint64_t)PERF_CONTEXT_KERNEL ? KERNEL :
			    ip == (uint64_t)PERF_CONTEXT_USER ? USER :
			    ip == (uint64_t)PERF_CONTEXT_HV ? GUEST :
			    GUEST;	/* guest parts and unknown markers */
			if (part == KERNEL && cc->kernel == NULL)
				cc->kernel = ips + i + 1;
			if (part == USER && cc->user == NULL)
				cc->user = ips + i + 1;
			continue;
		}
		/* a chain without markers is the kernel's, then the user's */
		if (part == NONE)
			part = KERNEL, cc->kernel = ips + i;
		if (part == KERNEL && ips + i == cc->kernel + cc->nkernel)
			cc->nkernel++;
		else if (part == USER && ips + i == cc->user + cc->nuser)
			cc->nuser++;
	}
}

/*
 * The slot frame's pc was read from in the step that produced it: the
 * highest address read that holds the pc (on x86-64 the return address
 * sits at CFA - 8, above every register the CIE saves).
 */
static uint64_t
step_slot(const struct bt_unwind_space *s, uint64_t pc)
{
	uint64_t slot = 0;
	size_t i;

	for (i = 0; i < s->nlog; i++)
		if (s->log[i].ok && s->log[i].val == pc && s->log[i].addr > slot)
			slot = s->log[i].addr;
	return slot;
}

static int
frame_cb(Dwfl_Frame *state, void *arg)
{
	struct walk *w = arg;
	Dwarf_Addr pc;

	if (!dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	if (w->n >= w->max) {
		w->full = true;
		return DWARF_CB_ABORT;
	}
	w->ips[w->n] = pc;
	w->slots[w->n] = w->n ? step_slot(w->s, pc) : 0;
	w->n++;
	w->s->nlog = 0;
	/* the module whose CFI unwinds this frame (a return address's call site) */
	bt_space_module(w->s, w->n > 1 ? pc - 1 : pc);
	if (bt_cfi_switches(w->s, w->n > 1 ? pc - 1 : pc)) {
		w->switched = true;
		return DWARF_CB_ABORT;
	}
	return DWARF_CB_OK;
}

/*
 * Unwind r from CFI into w. Returns how the unwind ended; *pending is the
 * slot the last step could not read (0 if none), the next return address
 * when the copy ended.
 */
static enum bt_unwind_end
walk(struct bt_unwind_space *s, const struct bt_unwind_regs *r, struct walk *w,
     uint64_t *pending, struct bt_error *err, int *ret)
{
	uint64_t ip, sp;
	size_t i;
	int rc;

	*pending = 0;
	*ret = 0;
	w->s = s;
	w->n = 0;
	w->full = false;
	w->switched = false;
	if (r->abi == PERF_SAMPLE_REGS_ABI_NONE || !bt_unwind_reg(r, BT_REG_IP, &ip) ||
	    !bt_unwind_reg(r, BT_REG_SP, &sp))
		return BT_UNWIND_END_NOREGS;
	if (r->abi != PERF_SAMPLE_REGS_ABI_64) {
		*ret = bt_error_set(err, BT_ENOTSUP,
		    "only x86-64 user registers can be unwound (abi %" PRIu64 ")",
		    r->abi);
		return BT_UNWIND_END_NOREGS;
	}
	if (w->max == 0)
		return BT_UNWIND_END_FRAMES;
	if (bt_space_ready(s, r, ip, err) < 0) {
		w->ips[0] = ip;
		w->slots[0] = 0;
		w->n = 1;
		return BT_UNWIND_END_NOCFI;
	}
	s->cur = r;
	s->sp = sp;
	s->stats.samples++;
	if (!(s->flags & BT_UNWIND_LIBDW)) {
		enum bt_unwind_end end;

		if (bt_cfi_walk(s, w, ip, sp, pending, &end)) {
			s->cur = NULL;
			return end;
		}
		/* a frame the rows cannot do: libdwfl does the whole sample */
		s->stats.libdw++;
		w->n = 0;
		*pending = 0;
	} else
		s->stats.libdw++;
	s->nlog = 0;
	rc = bt_space_frames(s, r->tid ? (pid_t)r->tid : (pid_t)BT_MAX(s->pid, 1),
	    frame_cb, w);
	s->cur = NULL;
	if (w->full)
		return BT_UNWIND_END_FRAMES;
	if (w->switched)
		return BT_UNWIND_END_SWITCH;
	for (i = 0; i < s->nlog; i++)
		if (!s->log[i].ok && s->log[i].addr >= sp && s->log[i].addr > *pending)
			*pending = s->log[i].addr;
	if (w->n == 0) {
		w->ips[0] = ip;
		w->slots[0] = 0;
		w->n = 1;
	}
	if (*pending)
		return BT_UNWIND_END_STACK;
	return rc == 0 ? BT_UNWIND_END_OUTERMOST : BT_UNWIND_END_NOCFI;
}

int
bt_unwind_dwarf(struct bt_unwind_space *s, const struct bt_unwind_regs *r,
		uint64_t *ips, size_t max, struct bt_unwind_result *res,
		struct bt_error *err)
{
	uint64_t slots[BT_UNWIND_MAX_FRAMES + 1], pending;
	struct walk w = { .ips = ips, .slots = slots,
		.max = BT_MIN(max, BT_ARRAY_SIZE(slots)) };
	int ret;

	memset(res, 0, sizeof(*res));
	res->end = walk(s, r, &w, &pending, err, &ret);
	if (ret < 0)
		return ret;
	res->n = res->ncfi = w.n;
	return (int)w.n;
}

/* Splicing onto the frame-pointer chain. */

/* j with fslot[j] == slot (1 <= j < nf), 0 if none */
static size_t
fp_index(const uint64_t *fslot, size_t nf, uint64_t slot)
{
	size_t j;

	if (slot == 0)
		return 0;
	for (j = 1; j < nf; j++)
		if (fslot[j] == slot)
			return j;
	return 0;
}

static size_t
append(uint64_t *ips, size_t n, size_t max, const uint64_t *src, size_t nsrc)
{
	size_t k = BT_MIN(nsrc, max - n);

	if (k)
		memcpy(ips + n, src, k * sizeof(*ips));
	return n + k;
}

int
bt_unwind_splice(struct bt_unwind_space *s, const struct bt_unwind_regs *r,
		 const uint64_t *fp, size_t nfp, uint64_t *ips, size_t max,
		 struct bt_unwind_result *res, struct bt_error *err)
{
	uint64_t slots[BT_UNWIND_MAX_FRAMES + 1], fslot[BT_UNWIND_MAX_FRAMES + 1];
	uint64_t pending, bp, v, above;
	struct walk w = { .ips = ips, .slots = slots,
		.max = BT_MIN(max, BT_ARRAY_SIZE(slots)) };
	size_t nf = 0, i, j, k, n;
	int ret;

	memset(res, 0, sizeof(*res));
	nfp = BT_MIN(nfp, BT_ARRAY_SIZE(fslot));
	res->end = walk(s, r, &w, &pending, err, &ret);
	if (ret < 0)
		return ret;

	/*
	 * The slots of the kernel's walk: fslot[j] holds fp[j], for j in
	 * 1..nf-1. Each address is known while the frame below it lies in
	 * the copy; a slot in the copy must hold fp[j] (else the kernel
	 * walked other memory, and the walk is not followed further).
	 */
	if (nfp > 1 && bt_unwind_reg(r, BT_REG_BP, &bp) &&
	    bt_unwind_reg(r, BT_REG_SP, &s->sp)) {
		s->cur = r;
		fslot[1] = bp + 8;
		for (nf = 1; nf < nfp; nf++) {
			if (bt_space_read_stack(s, fslot[nf], &v) && v != fp[nf])
				break;
			if (nf + 1 == nfp)
				continue;
			if (!bt_space_read_stack(s, fslot[nf] - 8, &v)) {
				nf++;
				break;
			}
			fslot[nf + 1] = v + 8;
		}
		s->cur = NULL;
	}
	/* rule 1: nothing from CFI past the leaf (or a leaf on a switched stack) */
	if (w.n <= 1 && (res->end == BT_UNWIND_END_NOREGS ||
	    res->end == BT_UNWIND_END_NOCFI || res->end == BT_UNWIND_END_SWITCH)) {
		n = append(ips, 0, w.max, fp, nfp);
		res->splice = nfp ? BT_SPLICE_FP : BT_SPLICE_NONE;
		res->n = n;
		res->ncfi = 0;
		return (int)n;
	}
	if (w.n == 0)
		return 0;
	k = w.n - 1;	/* the last CFI frame */

	/* frames the kernel's walk missed inside the copy */
	for (i = 1; i <= k; i++)
		if (fp_index(fslot, nf, slots[i]) == 0)
			res->fp_skipped++;
	res->ncfi = w.n;
	n = w.n;
	/* rule 2: the walks meet where the copy ended */
	if (res->end == BT_UNWIND_END_STACK && (j = fp_index(fslot, nf, pending))) {
		res->splice = BT_SPLICE_PENDING;
		res->n = append(ips, n, w.max, fp + j, nfp - j);
		return (int)res->n;
	}
	/* rule 3: CFI reached the outermost frame */
	if (res->end == BT_UNWIND_END_OUTERMOST || res->end == BT_UNWIND_END_FRAMES) {
		res->splice = BT_SPLICE_CFI;
		res->n = n;
		return (int)n;
	}
	/* rule 4: the last CFI frame is one of the kernel's */
	if (k >= 1 && (j = fp_index(fslot, nf, slots[k]))) {
		res->splice = BT_SPLICE_SLOT;
		res->n = append(ips, n, w.max, fp + j + 1, nfp - j - 1);
		return (int)res->n;
	}
	/*
	 * rule 5': a stack switch (Go's systemstack...): the kernel's walk
	 * left the copy (g0's stack) by the caller's saved rbp; its frames
	 * from there are the goroutine's. Addresses of two stacks do not
	 * compare: rule 5 does not apply.
	 */
	if (res->end == BT_UNWIND_END_SWITCH) {
		for (j = 1; j < nf && fslot[j] >= s->sp &&
		    fslot[j] - s->sp < r->stack_size; j++)
			;
		if (j < nf && bt_space_mapped(s, fp[j])) {
			res->splice = BT_SPLICE_SWITCH;
			res->n = append(ips, n, w.max, fp + j, nfp - j);
			return (int)res->n;
		}
		res->splice = BT_SPLICE_CFI_ONLY;
		res->n = n;
		return (int)n;
	}
	/* rule 5: the kernel's frames above what CFI covered */
	above = pending ? pending : (k >= 1 ? slots[k] : s->sp);
	for (j = 1; j < nf && fslot[j] <= above; j++)
		;
	if (j < nf && bt_space_mapped(s, fp[j])) {
		res->splice = BT_SPLICE_GAP;
		res->n = append(ips, n, w.max, fp + j, nfp - j);
		return (int)res->n;
	}
	res->splice = BT_SPLICE_CFI_ONLY;
	res->n = n;
	return (int)n;
}
