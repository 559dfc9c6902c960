/*
 * libFuzzer target: benchtui query's reader of JSON-RPC messages
 * (tui/query.c), with no recording open. Whatever a line holds, the reply
 * is one line of valid JSON-RPC (or none for a notification), never a
 * crash.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "query.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct query q = { NULL, NULL };
	char *line = malloc(size + 1), *out = NULL;
	size_t len = 0;
	FILE *f;

	if (line == NULL)
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	f = open_memstream(&out, &len);
	if (f != NULL) {
		query_message(&q, line, size, f);
		fclose(f);
		/* a reply is one line */
		if (len > 0 && (out[len - 1] != '\n' || memchr(out, '\n', len - 1) != NULL))
			__builtin_trap();
		free(out);
	}
	free(line);
	return 0;
}
