/*
 * mkrec: write a deterministic recording of a real binary for the golden
 * export tests (see tests/common/synth.c).
 *   mkrec OUT BINARY SYM+0xOFF=COUNT... [kernel=COUNT] [unknown=COUNT]
 */
#include <stdio.h>

#include "synth.h"

int
main(int argc, char **argv)
{
	char msg[512];

	if (argc < 4) {
		fprintf(stderr, "usage: mkrec OUT BINARY SYM+0xOFF=COUNT...\n");
		return 1;
	}
	if (synth_recording(argv[1], argv[2], argv + 3, argc - 3, msg, sizeof(msg))) {
		fprintf(stderr, "mkrec: %s\n", msg);
		return 2;
	}
	return 0;
}
