/*
 * What the skid model's two files share (skid.c: the model; skid-branch.c:
 * a mispredicted branch told by its samples).
 */
#ifndef BT_ANNOTATE_SKID_INT_H
#define BT_ANNOTATE_SKID_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "annotate/annotate.h"
#include "annotate/cfg.h"

#define SKID_BURST 8		/* instructions one retirement burst can span (back from the sample) */
#define REG_BIT(r) ((uint64_t)1 << (r))

/* What a sample after an instruction says about it (skid_class). */
enum skid_class {
	SKID_CHEAP,	/* retires with whatever it waited behind */
	SKID_LONG,	/* long latency: the interrupt waits on it */
	SKID_BARRIER,	/* a call, return or syscall: the search back stops */
};

/**
 * struct skid_regs - what an instruction's text says of its registers
 * @base: the base register of its memory operand, -1 if none (or rip)
 * @reads, @writes: registers it reads and writes, implicit ones included
 *                  for the few instructions that have them
 */
struct skid_regs {
	int base;
	uint64_t reads, writes;
};

/* Does m start with p? (Inline: insn_regs asks it dozens of times an instruction.) */
static inline bool
prefix(const char *m, const char *p)
{
	for (; *p != '\0'; m++, p++)
		if (*m != *p)
			return false;
	return true;
}

struct skid_walk {
	const struct bt_annotation *a;
	const struct bt_cfg *g;
	const double *bweight;
	unsigned char *cls;		/* per instruction, skid_class or SKID_UNKNOWN */
	struct skid_regs *regs;		/* per instruction, once read (have) */
	unsigned char *have;
	size_t x;			/* the sampled instruction */
	size_t path[SKID_BURST + 1];	/* the instructions walked: path[0] is the nearest the sample */
	double *found;		/* per instruction: the share of this sample it is credited */
	size_t *touched;	/* the instructions found credits */
	size_t ntouched;
	bool fuse;		/* Intel's cores: a compare and its branch take one slot (skid_slot()) */
};

const struct skid_regs *skid_regs_of(struct skid_walk *w, size_t i);
enum skid_class skid_class_of(struct skid_walk *w, size_t i);
/* skid-branch.c: the mispredicted branches' samples, taken first (rem, mark) */
void skid_mispredicts(struct skid_walk *w, double *rem, unsigned char *mark);
/* skid-branch.c: the retire slots instruction i takes (Intel's fusion) */
unsigned skid_slot(struct skid_walk *w, size_t i);

#endif
