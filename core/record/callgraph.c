/*
 * What each --call-graph mode asks of the kernel (docs/callchains.md,
 * "For the recorder"): the sample_type bits, the user registers and the
 * size of the user stack copy.
 */
#include <string.h>
#include <stdlib.h>

#include "base.h"
#include "record/record-int.h"
#include "unwind/unwind.h"

int
bt_callgraph_parse(const char *arg, enum bt_callgraph *mode, unsigned *stack_size,
		   struct bt_error *err)
{
	*stack_size = 0;
	if (strcmp(arg, "fp") == 0)
		*mode = BT_CG_FP;
	else if (strcmp(arg, "lbr") == 0)
		*mode = BT_CG_LBR;
	else if (strcmp(arg, "none") == 0)
		*mode = BT_CG_NONE;
	else if (strcmp(arg, "default") == 0)
		*mode = BT_CG_DEFAULT;
	else if (strcmp(arg, "dwarf") == 0)
		*mode = BT_CG_DWARF;
	else if (strncmp(arg, "dwarf,", 6) == 0) {
		char *end;
		unsigned long v = strtoul(arg + 6, &end, 10);

		if (end == arg + 6 || *end != '\0' || arg[6] == '-' || v == 0 ||
		    v > 65528 || v % 8)
			return bt_error_set(err, BT_EINVAL, "bad stack size '%s' in "
			    "--call-graph (a multiple of 8 up to 65528)", arg + 6);
		*mode = BT_CG_DWARF;
		*stack_size = (unsigned)v;
	} else
		return bt_error_set(err, BT_EINVAL, "unknown --call-graph mode '%s' "
		    "(fp, dwarf[,SIZE], lbr or none)", arg);
	return 0;
}

void
bt_rec_callgraph_attr(struct perf_event_attr *a, enum bt_callgraph mode,
		      unsigned stack_size)
{
	a->sample_type &= ~(uint64_t)(PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
	    PERF_SAMPLE_STACK_USER | PERF_SAMPLE_BRANCH_STACK);
	a->sample_regs_user = 0;
	a->sample_stack_user = 0;
	a->exclude_callchain_user = 0;
	a->branch_sample_type = 0;
	switch (mode) {
	case BT_CG_NONE:
		return;
	case BT_CG_DEFAULT:
		a->sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
		    PERF_SAMPLE_STACK_USER;
		a->sample_regs_user = BT_UNWIND_REGS_HYBRID;
		a->sample_stack_user = BT_UNWIND_STACK_HYBRID;
		return;
	case BT_CG_FP:
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
		return;
	case BT_CG_DWARF:
		/* as perf: the kernel's chain for the kernel part only */
		a->sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
		    PERF_SAMPLE_STACK_USER;
		a->sample_regs_user = BT_UNWIND_REGS_ALL;
		a->sample_stack_user = stack_size ? stack_size : BT_UNWIND_STACK_DWARF;
		a->exclude_callchain_user = 1;
		return;
	case BT_CG_LBR:
		a->sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = PERF_SAMPLE_BRANCH_USER |
		    PERF_SAMPLE_BRANCH_CALL_STACK | PERF_SAMPLE_BRANCH_NO_CYCLES |
		    PERF_SAMPLE_BRANCH_NO_FLAGS | PERF_SAMPLE_BRANCH_HW_INDEX;
		return;
	}
}
