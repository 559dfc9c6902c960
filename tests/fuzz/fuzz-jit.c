/*
 * libFuzzer target: the JIT readers on arbitrary bytes. The first byte
 * chooses the reader (even: jitdump, odd: perf map); every size, count and
 * string comes from the input. The readers must answer, never crash, hang
 * or read outside the input; every lookup of a parsed address must stay
 * inside what was parsed.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base.h"
#include "jit/jitdump.h"
#include "jit/perfmap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bt_error err;
	size_t n, i, j;

	if (size < 1)
		return 0;
	if ((data[0] & 1) == 0) {
		struct bt_jitdump *jd = bt_jitdump_open_mem(data + 1, size - 1, &err);
		const struct bt_jit_load *l;
		if (jd == NULL)
			return 0;
		l = bt_jitdump_loads(jd, &n);
		for (i = 0; i < n; i++) {
			if (strlen(l[i].name) >= size)
				__builtin_trap();
			for (j = 0; j < l[i].nlines; j++)
				if (strlen(l[i].lines[j].file) >= size)
					__builtin_trap();
			if (bt_jitdump_find(jd, l[i].code_addr, l[i].time, NULL) == NULL &&
			    l[i].code_size > 0)
				__builtin_trap();
		}
		bt_jitdump_moves(jd, &n);
		bt_jitdump_free(jd);
	} else {
		struct bt_perfmap *m = bt_perfmap_open_mem(data + 1, size - 1, &err);
		const struct bt_perfmap_entry *e = bt_perfmap_entries(m, &n);
		for (i = 0; i < n; i++)
			if (e[i].size > 0 && bt_perfmap_find(m, e[i].start) == NULL)
				__builtin_trap();
		bt_perfmap_free(m);
	}
	return 0;
}
