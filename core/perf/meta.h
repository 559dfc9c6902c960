/*
 * benchtui's own section of a perf.data file (BT_FEAT_BENCHTUI): what
 * perf.data has no place for. Text lines "key value", then, after a line
 * "vdso N", the N bytes of the vDSO image the run used.
 */
#ifndef BENCHTUI_META_H
#define BENCHTUI_META_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bt_strbuf;

/*
 * What a probe hit means (core/record/probes.c places them): Google
 * Benchmark's State::StartKeepRunning (entry), FinishKeepRunning (return),
 * PauseTiming, ResumeTiming (entry), a reporter's ReportRuns (entry); Go's
 * testing.(*B).runN, launch, StartTimer (entry: arg is the *B) and
 * StopTimer (after it read the clock), StartTimer's timer starting (after
 * its runtime.ReadMemStats, before it reads the clock: "go.started"),
 * run1 (entry: a new *B, "go.run1");
 * criterion's analysis::common,
 * Routine::sample and Routine::warm_up, entry and return.
 */
enum bt_probe_role {
	BT_PROBE_GB_START, BT_PROBE_GB_FINISH, BT_PROBE_GB_PAUSE,
	BT_PROBE_GB_RESUME, BT_PROBE_GB_REPORT,
	BT_PROBE_GO_RUNN, BT_PROBE_GO_LAUNCH, BT_PROBE_GO_START, BT_PROBE_GO_STOP,
	BT_PROBE_CRIT_COMMON, BT_PROBE_CRIT_COMMON_END, BT_PROBE_CRIT_SAMPLE,
	BT_PROBE_CRIT_SAMPLE_END, BT_PROBE_CRIT_WARMUP, BT_PROBE_CRIT_WARMUP_END,
	BT_PROBE_GO_STARTED, BT_PROBE_GO_RUN1,
	BT_PROBE_NROLES
};

/* The role's name in the recording ("gb.start"...), NULL when out of range. */
const char *bt_probe_role_name(int role);

/**
 * struct bt_probe_hit - a probe hit: when, on which thread, what
 * @time: on the samples' clock (ns), @tid: the thread
 * @role: enum bt_probe_role, @arg: the first argument's register at an
 *        entry (x86-64 AX: Go's receiver), 0 when not kept
 */
struct bt_probe_hit {
	uint64_t time;
	uint64_t arg;
	uint32_t tid;
	uint16_t role;
	uint16_t pad;
};

struct bt_meta {
	char **argv;		/* the benchmark's command, NULL-terminated */
	size_t argc;
	char event_note[160];	/* why the event differs from the request */
	unsigned freq;
	bool has_status;
	int wait_status;
	double duration;
	uint64_t lost, throttled;
	unsigned delay_ms;
	bool interrupted;
	const void *vdso;	/* borrowed from the encoded data */
	size_t vdso_len;
	/*
	 * The benchmark's standard output as chunks "NS LEN\n" + LEN bytes
	 * (NS: CLOCK_MONOTONIC nanoseconds when it was read); owned (a copy)
	 * after decoding, borrowed when encoding. Written after the vDSO
	 * image, where older readers stop.
	 */
	const char *output;
	size_t output_len;
	bool output_truncated;
	bool clock_monotonic;	/* sample times are CLOCK_MONOTONIC */
	double cpu_mhz;		/* the fastest CPU clock /proc/cpuinfo showed, 0 unknown */
	char cpu_id[64];	/* "AuthenticAMD,26,2": vendor, family, model (perf's CPUID); "" unknown */
	/*
	 * The harness's probes: had_probes when the run was probed (then
	 * hits, in time order; owned after decoding, borrowed when
	 * encoding), probe_lost hits dropped, probe_note why a program with
	 * probe points was not probed.
	 */
	bool had_probes;
	const struct bt_probe_hit *hits;
	size_t nhits;
	uint64_t probe_lost;
	char probe_note[160];
	/* why the benchmark's output was not read (its stdout /dev/null...), or "" */
	char output_note[256];
};

void bt_meta_encode(const struct bt_meta *m, struct bt_strbuf *out);
/* Decode; unknown keys are skipped, bad values ignored. Returns 0 or -BT_EFORMAT. */
int bt_meta_decode(const void *data, size_t len, struct bt_meta *m);
void bt_meta_release(struct bt_meta *m);

/*
 * Walk bt_meta's output: the chunk at *p (before end), "NS LEN\n" or
 * "NS LEN 2\n" (standard error) then LEN bytes. Sets *ns, *stream (1 or
 * 2), *bytes and *len, moves *p past the chunk and returns 1; returns 0
 * at end, -BT_EFORMAT at a malformed chunk (a header without its newline
 * or of 64 bytes or more, without NS and LEN, or LEN past end), where
 * *p stays.
 */
int bt_meta_output_next(const char **p, const char *end, uint64_t *ns,
			int *stream, const char **bytes, size_t *len);

#endif
