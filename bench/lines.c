/*
 * lines: write N bytes (default 100 MB) of short lines through stdio, as a
 * harness printing its progress does (line-buffered on a terminal). For
 * bench/output.sh.
 */
#include <stdio.h>
#include <stdlib.h>

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000000L, w = 0;
	int i = 0;

	while (w < n)
		w += printf("line %d of the benchmark's output, some text\n", i++);
	return 0;
}
