/*
 * The first read's cache (readcache.c; docs/formats.md "First-read
 * cache"): what the browser's first read of a big recording counted
 * (or benchtui's read back of the recording it has just made: the same
 * bytes), kept beside it per user, so that opening it again reads the
 * side-band records again and no sample.
 */
#ifndef BENCHTUI_PROFILE_READCACHE_H
#define BENCHTUI_PROFILE_READCACHE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "base.h"

struct bt_profile;
struct bt_pd_reader;
struct bt_ordered_log;

/* A cursor over a cache's bytes: a read past its end sets bad and gives 0. */
struct bt_rc_in {
	const uint8_t *p, *end;
	bool bad;
};

static inline void
bt_rc_put64(struct bt_strbuf *sb, uint64_t v)
{
	bt_strbuf_add(sb, &v, 8);
}

static inline uint64_t
bt_rc_get64(struct bt_rc_in *in)
{
	uint64_t v = 0;

	if (in->bad || (size_t)(in->end - in->p) < 8) {
		in->bad = true;
		return 0;
	}
	memcpy(&v, in->p, 8);
	in->p += 8;
	return v;
}

/* n bytes at the cursor, NULL (and bad) when fewer are left. */
static inline const uint8_t *
bt_rc_get(struct bt_rc_in *in, uint64_t n)
{
	const uint8_t *at = in->p;

	if (in->bad || (uint64_t)(in->end - in->p) < n) {
		in->bad = true;
		return NULL;
	}
	in->p += n;
	return at;
}

/*
 * The first read of path (read by r, not yet read) from the cache: 0 when
 * p now holds what bt_profile_first_read() would have made; -1 when there
 * is no entry for this file as it is now (p untouched); -2 when the entry
 * was damaged once p had begun to change (the caller makes p again and
 * reads the file).
 */
int bt_readcache_load(struct bt_profile *p, struct bt_pd_reader *r,
		      const char *path);
/* Should this first read be logged and kept (size, BENCHTUI_READ_CACHE)? */
bool bt_readcache_wanted(const struct bt_pd_reader *r);
/* Keep p's first read of path (r, with its side-band log) in the cache. */
void bt_readcache_save(const struct bt_profile *p, struct bt_pd_reader *r,
		       const char *path, const struct bt_ordered_log *log);

#endif
