/*
 * Recording: run a command under sampling and save a perf.data file
 * (DESIGN.md §1 "record").
 */
#ifndef BENCHTUI_RECORD_H
#define BENCHTUI_RECORD_H

#include <stdbool.h>
#include <stdint.h>

#include "benchtui/benchtui.h"

struct bt_record_result;

/*
 * Called from the recording loop at every wakeup (every 50 ms, more often
 * when the rings fill) with the counts so far (@samples, @lost,
 * @throttled of sofar) and the seconds since the command started. It runs
 * in the recorder's loop: it must be quick (a progress line rate-limits
 * itself) and must not call the recorder.
 */
typedef void (*bt_record_progress_fn)(const struct bt_record_result *sofar,
				      double elapsed, void *arg);

/*
 * Call chains (docs/callchains.md). DEFAULT: the kernel's frame-pointer
 * chain plus the user registers and a 512-byte stack copy, so that the
 * caller of a leaf without a frame is unwound from CFI when read; FP: the
 * kernel's chain alone (perf -g); DWARF: registers and a stack copy of
 * stack_size bytes (default 8192), no user chain (perf --call-graph
 * dwarf); LBR: the last-branch-record call stack (Intel PMUs); NONE.
 */
enum bt_callgraph { BT_CG_DEFAULT, BT_CG_NONE, BT_CG_FP, BT_CG_DWARF, BT_CG_LBR };

/*
 * perf's --call-graph argument: "fp", "dwarf", "dwarf,SIZE" (a multiple
 * of 8, at most 65528), "lbr", "none"; "default" for benchtui's. 0 or
 * -BT_EINVAL with a one-line message.
 */
BT_API int bt_callgraph_parse(const char *arg, enum bt_callgraph *mode,
			      unsigned *stack_size, struct bt_error *err);

/**
 * struct bt_record_opts - what to run and how to sample it
 * @argv: the command, NULL-terminated; executed directly (execvp, no shell)
 * @event: "cycles", "cpu-clock", "instructions", ...; NULL for the default:
 *         cycles at the highest precise_ip accepted, else cpu-clock
 * @freq: samples per second per CPU (0: 4000)
 * @delay_ms: drop samples taken in the first delay_ms after exec
 * @output: the file to write (NULL: "benchtui.data")
 * @mmap_pages: ring buffer data pages per CPU (0: 128; halved down to 1
 *              when the locked-memory limit refuses)
 * @progress: NULL, or called while the command runs (bt_record_progress_fn)
 * @progress_arg: its last argument
 * @pass_output: the command writes to benchtui's standard output and
 *               error itself; by default each goes into a pseudo-terminal
 *               (line buffered, as on a terminal) whose bytes benchtui
 *               copies to its own unchanged and keeps, with the time each
 *               arrived, in the recording: the harness's results
 *               (DESIGN.md §7)
 * @callgraph: which call chains to record (enum bt_callgraph; 0: default)
 * @stack_size: DWARF mode's stack copy in bytes (0: 8192)
 * @jit_copy_dir: NULL, or hold the command at its exit (ptrace) and copy
 *                the code its perf map names into DIR/copy-PID.dump
 *                (docs/jit.md "Code copied at exit")
 * @no_probes: no uprobes on the harness's phase functions (by default a
 *             Google Benchmark, go test or criterion program gets them:
 *             docs/benchmarks.md "Phases from probes")
 */
struct bt_record_opts {
	char *const *argv;
	const char *event;
	unsigned freq;
	unsigned delay_ms;
	const char *output;
	unsigned mmap_pages;
	bt_record_progress_fn progress;
	void *progress_arg;
	bool pass_output;
	enum bt_callgraph callgraph;
	unsigned stack_size;
	const char *jit_copy_dir;
	bool no_probes;
};

/**
 * struct bt_record_result - how the run went
 * @wait_status: the command's status as waitpid() gives it
 * @event: the event that was used (may differ from the one asked for)
 * @event_note: why, when it differs ("no hardware PMU: cycles not supported")
 * @samples, @lost, @throttled: records counted while recording
 * @duration: wall seconds from exec to exit
 * @interrupted: bt_record_interrupt() stopped the command
 * @pid: the command's process id
 * @jit_note: what the JIT code copy did (@jit_copy_dir), or ""
 */
struct bt_record_result {
	int wait_status;
	char event[64];
	char event_note[160];
	uint64_t samples, lost, throttled;
	double duration;
	bool interrupted;
	int pid;
	char jit_note[384];
};

/*
 * Run and record. Returns 0 when a recording was saved (whatever the
 * command's own status), or a negative -BT_E* code with err set:
 * BT_EEXEC (command missing or not executable: nothing saved), BT_EPERF
 * (the kernel refused perf_event_open; the message names
 * /proc/sys/kernel/perf_event_paranoid), BT_EIO.
 */
BT_API int bt_record_run(const struct bt_record_opts *o,
			 struct bt_record_result *res, struct bt_error *err);

/*
 * Stop the command and keep what was recorded. Async-signal-safe: meant
 * for SIGINT/SIGTERM handlers.
 */
BT_API void bt_record_interrupt(int sig);

#endif
