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
};

void bt_meta_encode(const struct bt_meta *m, struct bt_strbuf *out);
/* Decode; unknown keys are skipped, bad values ignored. Returns 0 or -BT_EFORMAT. */
int bt_meta_decode(const void *data, size_t len, struct bt_meta *m);
void bt_meta_release(struct bt_meta *m);

#endif
