/*
 * libFuzzer target: the source-file indexer (any bytes: non-UTF-8, NULs,
 * CR/LF mixes, no final newline) and the demangler on the same bytes.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "symbols/symbols.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1);
	const char **lines;
	size_t n, i, total = 0;
	char *d;

	if (buf == NULL)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	n = bt_src_index(buf, size, &lines);
	for (i = 0; i < n; i++)
		total += strlen(lines[i]) + 1;
	if (total > size + 1)
		__builtin_trap();	/* lines lie inside the data */
	free(lines);
	d = bt_demangle(buf);
	free(d);
	free(buf);
	return 0;
}
