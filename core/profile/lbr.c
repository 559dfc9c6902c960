/*
 * LBR call stacks as call chains (chains.h, docs/callchains.md "LBR call
 * stacks"). With PERF_SAMPLE_BRANCH_CALL_STACK the PMU keeps a stack of
 * the user calls not yet returned from (Intel's LBR in call-stack mode:
 * a call pushes (from, to), a return pops), and each sample carries it,
 * innermost call first. perf report then takes the user part of a chain
 * from that stack alone (tools/perf/util/machine.c,
 * resolve_lbr_callchain_sample): the kernel's frames up to
 * PERF_CONTEXT_USER, then entries[0].to (the entry of the function the
 * last call went to), then every entry's from (each call instruction,
 * outwards). The frame-pointer user frames the callchain also holds are
 * not used, not even when the stack is full and the outer callers are
 * lost (perf's --stitch-lbr, off by default, guesses those from earlier
 * samples of the thread; nothing here does).
 */
#include "base.h"
#include "perf/sample.h"
#include "profile/chains.h"

bool
bt_lbr_callstack(const struct bt_perf_layout *l)
{
	return (l->sample_type & PERF_SAMPLE_CALLCHAIN) &&
	    (l->sample_type & PERF_SAMPLE_BRANCH_STACK) &&
	    (l->branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK);
}

int
bt_lbr_chain(const struct bt_perf_sample *s, uint64_t *ips, size_t max)
{
	const struct bt_perf_array *cc = &s->callchain, *br = &s->branch;
	uint64_t i, u, nbr;
	size_t n = 0;

	if (!BT_PF_HAS(s, BT_PF_CALLCHAIN))
		return -1;
	for (u = 0; u < cc->n; u++)
		if (bt_perf_u64(cc, s->swapped, u) == PERF_CONTEXT_USER)
			break;
	if (u == cc->n)
		return -1;	/* no user part: perf reads the callchain as is */
	nbr = BT_PF_HAS(s, BT_PF_BRANCH_STACK) ? br->n / 3 : 0;
	if (nbr == 0)
		return 0;	/* perf would read entries[0].to past the stack */
	/*
	 * entries[0].to stands for the function the sample is in: for a
	 * kernel sample perf keeps no other user frame (not the interrupted
	 * user ip after PERF_CONTEXT_USER), so neither does this
	 */
	ips[n++] = bt_perf_u64(br, s->swapped, 1);
	for (i = 0; i < nbr && n < max; i++)
		ips[n++] = bt_perf_u64(br, s->swapped, i * 3);
	return (int)n;
}
