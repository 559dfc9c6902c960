/*
 * llvm-mca (LLVM's machine code analyzer) on a block of instructions: a
 * small runner (a child process, its output read back, never printed)
 * and a parser of its default report (docs/browser.md "Predicted vs
 * measured").
 */
#ifndef BENCHTUI_MCA_H
#define BENCHTUI_MCA_H

#include "base.h"

/**
 * struct bt_mca_insn - one instruction of the block as llvm-mca models it
 * @uops, @latency, @rthroughput: its "Instruction Info" row
 * @pressure: its resource pressure per iteration, summed over resources
 * @resource: the resource it presses most ("SBPort5", "Zn3ALU0"), "" none
 * @resource_pressure: that resource's share of its pressure
 */
struct bt_mca_insn {
	unsigned uops;
	double latency, rthroughput;
	double pressure;
	char resource[24];
	double resource_pressure;
};

/**
 * struct bt_mca - llvm-mca's prediction for a block run as a loop
 * @cpu: the -mcpu it was run with; @cpu_note why that one, "" none
 * @iterations, @total_cycles: the simulation's ("Iterations", "Total Cycles")
 * @cycles_per_iter: @total_cycles / @iterations
 * @block_rthroughput: "Block RThroughput": the bound from resources alone
 * @ipc: "IPC"
 * @bottleneck: what bounds it ("resource pressure: SBPort5 (12%)",
 *              "register dependencies (67%)", "none found")
 * @insns, @ninsns: one per instruction given, in order
 */
struct bt_mca {
	char cpu[32];
	char cpu_note[160];
	double iterations, total_cycles, cycles_per_iter;
	double block_rthroughput, ipc;
	char bottleneck[128];
	struct bt_mca_insn *insns;
	size_t ninsns;
};

/* The llvm-mca binary (BENCHTUI_LLVM_MCA, else llvm-mca, llvm-mca-19...13 on PATH), NULL none. */
const char *bt_mca_tool(void);
/*
 * Run llvm-mca on lines[0..n) (AT&T text, one instruction each) with
 * -mcpu=cpu, or (cpu NULL or "") for the CPU the recording was made on,
 * cpu_id ("AuthenticAMD,26,2"; NULL or "": this machine): this machine's
 * as llvm-mca knows it when that is the one, else the model
 * bt_mca_cpu_for() gives (out->cpu_note says so). 0, or -BT_E* with err
 * set (no llvm-mca, its error message, an output it did not make).
 */
int bt_mca_run(const char *const *lines, size_t n, const char *cpu, const char *cpu_id,
	       struct bt_mca *out, struct bt_error *err);
/*
 * llvm-mca's name for the CPU id ("GenuineIntel,6,85": vendor, family,
 * model as perf's CPUID header and benchtui's cpu-id say it) into cpu:
 * 0 exact, 1 the nearest older model (a CPU newer than LLVM 14 knows, or
 * an unknown model), -1 an id it cannot read.
 */
int bt_mca_cpu_for(const char *id, char *cpu, size_t len);
/* Parse a report of n instructions (the runner's second half; tests). */
int bt_mca_parse(const char *text, size_t n, struct bt_mca *out, struct bt_error *err);
void bt_mca_release(struct bt_mca *m);

#endif
