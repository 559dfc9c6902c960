/*
 * libFuzzer target: the perf.data reader and the profile builder on
 * arbitrary bytes. Every size, offset and count comes from the input; the
 * reader must answer with an error or a profile, never crash, hang or
 * allocate without bound.
 */
#include <stddef.h>
#include <stdint.h>

#include "base.h"
#include "perf/perfdata.h"
#include "profile/profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bt_error err;
	struct bt_pd_reader *r = bt_pd_open_mem(data, size, &err);
	struct bt_profile *p;

	if (r == NULL)
		return 0;
	p = bt_profile_read(r, "fuzz", &err);
	bt_profile_free(p);
	bt_pd_close(r);
	return 0;
}
