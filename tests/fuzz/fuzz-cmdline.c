/*
 * libFuzzer target: the command-line parser (tui/cli.c). The input is cut
 * at NUL bytes into argv; whatever it holds, the parser must return a
 * result or a message, never crash.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = malloc(size + 1), *argv[64], msg[512];
	struct cli c;
	size_t i, start = 0;
	int argc = 0;

	if (copy == NULL)
		return 0;
	memcpy(copy, data, size);
	copy[size] = '\0';
	argv[argc++] = (char *)"benchtui";
	for (i = 0; i <= size && argc < 63; i++)
		if (copy[i] == '\0') {
			argv[argc++] = copy + start;
			start = i + 1;
		}
	argv[argc] = NULL;
	if (cli_parse(argc, argv, &c, msg, sizeof(msg)) < 0 && msg[0] == '\0')
		__builtin_trap();	/* an error always says what */
	free(copy);
	return 0;
}
