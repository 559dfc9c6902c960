/* Deterministic recordings for the tests (tests/common/synth.c). */
#ifndef BENCHTUI_TEST_SYNTH_H
#define BENCHTUI_TEST_SYNTH_H

#include <stddef.h>

/*
 * Write a recording of binary at out with samples per spec: "SYM+0xOFF=N"
 * (N samples at that address), "kernel=N", "unknown=N". Returns 0, or -1
 * with msg set.
 */
int synth_recording(const char *out, const char *binary, char *const *specs,
		    int nspecs, char *msg, size_t msglen);

#endif
