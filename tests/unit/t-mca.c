/*
 * Unit tests: core/annotate/mca.c, the llvm-mca runner and parser: a
 * report llvm-mca 14 wrote (-mcpu=znver3 -iterations=100
 * -bottleneck-analysis on a multiply chain's loop) parsed into its
 * numbers; the runner with no llvm-mca, with one that fails, with one
 * that prints no report. tests/test-perop.sh compares the parsed numbers
 * with llvm-mca's own on a recorded loop.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base.h"
#include "annotate/mca.h"

static const char report[] =
	"Iterations:        100\n"
	"Instructions:      500\n"
	"Total Cycles:      403\n"
	"Total uOps:        500\n"
	"\n"
	"Dispatch Width:    6\n"
	"uOps Per Cycle:    1.24\n"
	"IPC:               1.24\n"
	"Block RThroughput: 1.0\n"
	"\n"
	"\n"
	"Cycles with backend pressure increase [ 22.83% ]\n"
	"Throughput Bottlenecks: \n"
	"  Resource Pressure       [ 0.00% ]\n"
	"  Data Dependencies:      [ 22.83% ]\n"
	"  - Register Dependencies [ 22.83% ]\n"
	"  - Memory Dependencies   [ 0.00% ]\n"
	"\n"
	"Critical sequence based on the simulation:\n"
	"\n"
	"              Instruction                                 Dependency Information\n"
	" +----< 2.    addq\t$1, %rax\n"
	" |\n"
	" |    < loop carried > \n"
	" |\n"
	" +----> 0.    imulq\t%rcx, %rax                        ## REGISTER dependency:  %rax\n"
	" |      1.    addq\t$1, %rdx\n"
	" +----> 2.    addq\t$1, %rax                          ## REGISTER dependency:  %rax\n"
	" |      3.    cmpq\t%rdx, %rsi\n"
	" |      4.    jne\t1448\n"
	" |\n"
	" |    < loop carried > \n"
	" |\n"
	" +----> 0.    imulq\t%rcx, %rax                        ## REGISTER dependency:  %rax\n"
	"\n"
	"\n"
	"Instruction Info:\n"
	"[1]: #uOps\n"
	"[2]: Latency\n"
	"[3]: RThroughput\n"
	"[4]: MayLoad\n"
	"[5]: MayStore\n"
	"[6]: HasSideEffects (U)\n"
	"\n"
	"[1]    [2]    [3]    [4]    [5]    [6]    Instructions:\n"
	" 1      3     1.00                        imulq\t%rcx, %rax\n"
	" 1      1     0.25                        addq\t$1, %rdx\n"
	" 1      1     0.25                        addq\t$1, %rax\n"
	" 1      1     0.25                        cmpq\t%rdx, %rsi\n"
	" 1      1     0.50                        jne\t1448\n"
	"\n"
	"\n"
	"Resources:\n"
	"[0]   - Zn3AGU0\n"
	"[1]   - Zn3AGU1\n"
	"[2]   - Zn3AGU2\n"
	"[3]   - Zn3ALU0\n"
	"[4]   - Zn3ALU1\n"
	"[5]   - Zn3ALU2\n"
	"[6]   - Zn3ALU3\n"
	"[7]   - Zn3BRU1\n"
	"[8]   - Zn3FPP0\n"
	"[9]   - Zn3FPP1\n"
	"[10]  - Zn3FPP2\n"
	"[11]  - Zn3FPP3\n"
	"[12.0] - Zn3FPP45\n"
	"[12.1] - Zn3FPP45\n"
	"[13]  - Zn3FPSt\n"
	"[14.0] - Zn3LSU\n"
	"[14.1] - Zn3LSU\n"
	"[14.2] - Zn3LSU\n"
	"[15.0] - Zn3Load\n"
	"[15.1] - Zn3Load\n"
	"[15.2] - Zn3Load\n"
	"[16.0] - Zn3Store\n"
	"[16.1] - Zn3Store\n"
	"\n"
	"\n"
	"Resource pressure per iteration:\n"
	"[0]    [1]    [2]    [3]    [4]    [5]    [6]    [7]    [8]    [9]    [10]   [11]   [12.0] [12.1] [13]   [14.0] [14.1] [14.2] [15.0] [15.1] [15.2] [16.0] [16.1] \n"
	" -      -      -     0.98   1.15   0.98   0.99   0.90    -      -      -      -      -      -      -      -      -      -      -      -      -      -      -     \n"
	"\n"
	"Resource pressure by instruction:\n"
	"[0]    [1]    [2]    [3]    [4]    [5]    [6]    [7]    [8]    [9]    [10]   [11]   [12.0] [12.1] [13]   [14.0] [14.1] [14.2] [15.0] [15.1] [15.2] [16.0] [16.1] Instructions:\n"
	" -      -      -      -     1.00    -      -      -      -      -      -      -      -      -      -      -      -      -      -      -      -      -      -     imulq\t%rcx, %rax\n"
	" -      -      -     0.72   0.05   0.15   0.08    -      -      -      -      -      -      -      -      -      -      -      -      -      -      -      -     addq\t$1, %rdx\n"
	" -      -      -     0.11   0.03   0.75   0.11    -      -      -      -      -      -      -      -      -      -      -      -      -      -      -      -     addq\t$1, %rax\n"
	" -      -      -     0.05   0.07   0.08   0.80    -      -      -      -      -      -      -      -      -      -      -      -      -      -      -      -     cmpq\t%rdx, %rsi\n"
	" -      -      -     0.10    -      -      -     0.90    -      -      -      -      -      -      -      -      -      -      -      -      -      -      -     jne\t1448\n";

static void
test_parse(void **state)
{
	struct bt_mca m;
	struct bt_error err = { 0 };
	double sum = 0;

	(void)state;
	assert_int_equal(bt_mca_parse(report, 5, &m, &err), 0);
	assert_true(m.iterations == 100);
	assert_true(m.total_cycles > 100);
	assert_true(fabs(m.cycles_per_iter - m.total_cycles / 100) < 1e-9);
	assert_true(m.block_rthroughput > 0);
	assert_true(m.ipc > 0);
	assert_int_equal(m.ninsns, 5);
	/* imulq: 1 uop, latency 3, on one ALU */
	assert_int_equal(m.insns[0].uops, 1);
	assert_true(m.insns[0].latency == 3);
	assert_true(fabs(m.insns[0].pressure - 1.0) < 1e-9);
	assert_true(strncmp(m.insns[0].resource, "Zn3ALU", 6) == 0);
	assert_true(strncmp(m.insns[4].resource, "Zn3BRU", 6) == 0);
	for (size_t i = 0; i < m.ninsns; i++)
		sum += m.insns[i].pressure;
	assert_true(fabs(sum - 5.0) < 0.02);
	assert_non_null(strstr(m.bottleneck, "dependencies"));
	bt_mca_release(&m);
}

/*
 * The bottleneck names the busiest resource, not the first listed:
 * llvm-mca 14 on libcrypto's SHA-NI loop (znver3) lists FPP0 first, at
 * 12.81%, and FPP1 and FPP2 at 21.83%.
 */
static void
test_parse_bottleneck(void **state)
{
	struct bt_mca m;
	struct bt_error err = { 0 };

	(void)state;
	assert_int_equal(bt_mca_parse("Iterations:        100\n"
	    "Total Cycles:      12915\n\n"
	    "Cycles with backend pressure increase [ 30.78% ]\n"
	    "Throughput Bottlenecks: \n"
	    "  Resource Pressure       [ 21.84% ]\n"
	    "  - Zn3FPP0  [ 12.81% ]\n"
	    "  - Zn3FPP1  [ 21.83% ]\n"
	    "  - Zn3FPP2  [ 21.83% ]\n"
	    "  - Zn3FPP3  [ 12.81% ]\n"
	    "  - Zn3FPP45  [ 0.03% ]\n"
	    "  Data Dependencies:      [ 16.00% ]\n"
	    "  - Register Dependencies [ 16.00% ]\n"
	    "  - Memory Dependencies   [ 0.00% ]\n\n"
	    "Resources:\n[0]   - Zn3FPP0\n\n"
	    "Resource pressure by instruction:\n[0]    Instructions:\n"
	    " 1.00   sha256rnds2\n", 1, &m, &err), 0);
	assert_string_equal(m.bottleneck,
	    "resource pressure: Zn3FPP1 (22% of cycles)");
	bt_mca_release(&m);
}

static void
test_parse_garbage(void **state)
{
	struct bt_mca m;
	struct bt_error err = { 0 };

	(void)state;
	assert_int_not_equal(bt_mca_parse("", 3, &m, &err), 0);
	assert_non_null(strstr(err.msg, "no Iterations"));
	assert_int_not_equal(bt_mca_parse("Iterations: 100\nTotal Cycles: 5\n", 1, &m,
	    &err), 0);
	/* fewer rows than instructions: zeros, no overrun */
	assert_int_equal(bt_mca_parse("Iterations: 100\nTotal Cycles: 400\n\nResources:\n"
	    "[0]   - P0\n\nResource pressure by instruction:\n[0]    Instructions:\n"
	    " 1.00   imul\n", 3, &m, &err), 0);
	assert_true(m.insns[0].pressure == 1.0 && m.insns[2].pressure == 0);
	assert_string_equal(m.insns[0].resource, "P0");
	bt_mca_release(&m);
}

/* An executable script at path with body. */
static void
script(const char *path, const char *body)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fprintf(f, "#!/bin/sh\n%s\n", body);
	fclose(f);
	assert_int_equal(chmod(path, 0755), 0);
}

static void
test_run(void **state)
{
	const char *lines[] = { "imul %rcx,%rax", "jne 0x10" };
	char dir[] = "/tmp/bt-mca.XXXXXX", path[256];
	struct bt_mca m;
	struct bt_error err = { 0 };

	(void)state;
	setenv("BENCHTUI_LLVM_MCA", "", 1);
	assert_null(bt_mca_tool());
	assert_int_equal(bt_mca_run(lines, 2, "znver3", NULL, &m, &err), -BT_ENOENT);
	assert_non_null(strstr(err.msg, "no llvm-mca"));
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/llvm-mca", dir);
	/* its error, as llvm-mca prints it */
	script(path, "echo \"$4:1:1: error: invalid instruction mnemonic 'foo'\" >&2; exit 1");
	setenv("BENCHTUI_LLVM_MCA", path, 1);
	assert_int_equal(bt_mca_run(lines, 2, "znver3", NULL, &m, &err), -BT_EFORMAT);
	assert_non_null(strstr(err.msg, "invalid instruction mnemonic 'foo'"));
	/* exit 0, no report */
	script(path, "echo hello");
	assert_int_equal(bt_mca_run(lines, 2, "znver3", NULL, &m, &err), -BT_EFORMAT);
	/* the report, and the block it was given */
	script(path, "cat <<'EOF'\nIterations: 100\nTotal Cycles: 300\n"
	    "Resources:\n[0]   - P0\n\nResource pressure by instruction:\n[0]   Instructions:\n"
	    " 2.00  imul\n 1.00  jne\nEOF");
	assert_int_equal(bt_mca_run(lines, 2, "znver3", NULL, &m, &err), 0);
	assert_true(m.cycles_per_iter == 3);
	assert_string_equal(m.cpu, "znver3");
	assert_true(m.insns[1].pressure == 1);
	bt_mca_release(&m);
	unlink(path);
	rmdir(dir);
	unsetenv("BENCHTUI_LLVM_MCA");
}

static void
test_cpu_for(void **state)
{
	char cpu[32];

	(void)state;
	assert_int_equal(bt_mca_cpu_for("AuthenticAMD,25,33", cpu, sizeof(cpu)), 0);
	assert_string_equal(cpu, "znver3");
	assert_int_equal(bt_mca_cpu_for("AuthenticAMD,23,49", cpu, sizeof(cpu)), 0);
	assert_string_equal(cpu, "znver2");
	/* Zen 5: newer than LLVM 14, its newest AMD model */
	assert_int_equal(bt_mca_cpu_for("AuthenticAMD,26,2", cpu, sizeof(cpu)), 1);
	assert_string_equal(cpu, "znver3");
	assert_int_equal(bt_mca_cpu_for("GenuineIntel,6,85", cpu, sizeof(cpu)), 0);
	assert_string_equal(cpu, "cascadelake");
	assert_int_equal(bt_mca_cpu_for("GenuineIntel,6,158", cpu, sizeof(cpu)), 0);
	assert_string_equal(cpu, "skylake");
	assert_int_equal(bt_mca_cpu_for("GenuineIntel,6,250", cpu, sizeof(cpu)), 1);
	assert_int_equal(bt_mca_cpu_for("nonsense", cpu, sizeof(cpu)), -1);
	assert_int_equal(bt_mca_cpu_for(NULL, cpu, sizeof(cpu)), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_bottleneck),
		cmocka_unit_test(test_parse_garbage),
		cmocka_unit_test(test_run),
		cmocka_unit_test(test_cpu_for),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
