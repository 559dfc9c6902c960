/*
 * The per-boot cache of kernel function names (kcache.c, docs/formats.md
 * "Kernel symbol cache"): what kallsyms.c and kcache.c share.
 */
#ifndef BENCHTUI_KCACHE_H
#define BENCHTUI_KCACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base.h"

struct bt_ksyms_paths;

/* One function symbol of a parsed kallsyms file. */
struct bt_ksym {
	uint64_t addr;
	uint32_t order;		/* line number: the sort keeps the file's order */
	uint32_t name;		/* offset of the NUL-terminated name in the text */
};

/*
 * struct bt_kcache_key - what a cache must match to answer for this kernel
 * @boot_id: /proc/sys/kernel/random/boot_id (the core kernel and KASLR's
 *	offsets are fixed within a boot)
 * @modules: hash of each module's name, size, state and address in
 *	/proc/modules and of its build-id note in /sys/module
 */
struct bt_kcache_key {
	char boot_id[40];
	uint64_t modules;
};

/* A module of /proc/modules: its text starts at base; size is all of it. */
struct bt_kmodule {
	char name[64];
	uint64_t base, size;
	bool live;		/* state "Live": no init code, nothing changing */
};

/* The running kernel as the cache sees it: the key and the modules. */
struct bt_kstate {
	struct bt_kcache_key key;
	BT_VEC(struct bt_kmodule) mods;
};

/*
 * Read the key and the module list from the files paths names.
 * Returns 0, or -1 when the key cannot be known (no boot_id): no cache.
 */
int bt_kstate_read(struct bt_kstate *st, const struct bt_ksyms_paths *paths);
void bt_kstate_release(struct bt_kstate *st);
/* The module named name[0..len), or NULL. */
const struct bt_kmodule *bt_kstate_module(const struct bt_kstate *st,
					  const char *name, size_t len);

/*
 * A cache file mapped read-only, checked: addrs[0..nsyms) strictly
 * increasing, names[i] an offset into pool of a NUL-terminated name,
 * ranges[0..2*nranges) the [lo, hi) pairs it answers for, sorted,
 * each inside [addrs[0], addrs[nsyms - 1]].
 */
struct bt_kcache {
	void *map;		/* NULL when not mapped */
	size_t size;
	const uint64_t *ranges, *addrs;
	const uint32_t *names;
	const char *pool;
	uint64_t nranges, nsyms, pool_size;
	uint64_t text;		/* _text's address, 0 if not listed */
	uint64_t *index;	/* addrs[i * KC_BLOCK], malloc'ed (4 KiB here) */
	size_t nindex;
};

/*
 * Map the cache file path if it is sound and made for key: 0, or -1 with
 * *why saying why not (a static string: "no cache file", "a symbolic
 * link", "owned by another user", "for another boot or other modules"...).
 */
int bt_kcache_map(struct bt_kcache *c, const char *path,
		  const struct bt_kcache_key *key, const char **why);
void bt_kcache_unmap(struct bt_kcache *c);
/*
 * The function holding addr: 0, or 1 when addr is outside every range the
 * cache covers (the caller asks /proc/kallsyms).
 */
int bt_kcache_find(const struct bt_kcache *c, uint64_t addr, const char **name,
		   uint64_t *start, uint64_t *end);

/* Symbols v[lo..hi] (hi > lo) go in the cache, which answers for [v[lo].addr, v[hi].addr). */
struct bt_kcache_run {
	size_t lo, hi;
};

/*
 * Write the cache file path: runs of v (names at text + v[i].name) with
 * key and _text's address, through a temporary file in the same directory
 * renamed over path (mode 0600). 0, or -1 with *why set.
 */
int bt_kcache_write(const char *path, const struct bt_kcache_key *key, uint64_t text,
		    const struct bt_ksym *v, const char *text_buf,
		    const struct bt_kcache_run *runs, size_t nruns, const char **why);

#endif
