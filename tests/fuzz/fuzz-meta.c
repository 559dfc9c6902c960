/*
 * libFuzzer target: benchtui's own section of a recording (the command
 * line, status and vDSO image, core/profile/meta.c), parsed from bytes.
 */
#include <stddef.h>
#include <stdint.h>

#include "base.h"
#include "perf/meta.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bt_meta m;
	struct bt_strbuf sb = BT_STRBUF_INIT;

	if (bt_meta_decode(data, size, &m) == 0) {
		/* what decodes must encode and decode to the same */
		struct bt_meta m2;
		bt_meta_encode(&m, &sb);
		if (bt_meta_decode(sb.buf, sb.len, &m2) != 0 || m2.argc != m.argc)
			__builtin_trap();
		bt_meta_release(&m2);
	}
	bt_meta_release(&m);
	bt_strbuf_release(&sb);
	return 0;
}
