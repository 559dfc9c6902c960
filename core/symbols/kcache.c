/*
 * The per-boot cache of kernel function names (docs/formats.md "Kernel
 * symbol cache"): what /proc/kallsyms says about the core kernel's and
 * the loaded modules' functions, in a file that is mapped and searched in
 * place. Reading /proc/kallsyms costs ~50 ms of kernel time (122k lines
 * through seq_file) and its text is 6 MB; a hit reads a few pages.
 *
 * The file is untrusted input: a regular file of ours that nobody else can
 * write, every size and count consistent with its size, every name inside
 * the pool and terminated there, addresses sorted. Anything else and the
 * caller reads /proc/kallsyms and writes it again.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base.h"
#include "symbols/kcache.h"
#include "symbols/symbols.h"

#define KC_MAGIC "BTKSYMS"
#define KC_VERSION 1
#define KC_MAX_SIZE (256u << 20)
/* addresses per block of the in-memory index: a block is a page or two */
#define KC_BLOCK 256

/*
 * The file: this header, then ranges (nranges [lo, hi) pairs of u64),
 * addrs (nsyms u64), names (nsyms u32 offsets into the pool), the pool
 * (pool_size bytes of NUL-terminated names). Native byte order: the file
 * is only ever read on the machine, and in the boot, that wrote it.
 */
struct kc_head {
	char magic[8];		/* KC_MAGIC, NUL-padded */
	uint32_t version;	/* KC_VERSION */
	uint32_t head_size;	/* sizeof(struct kc_head) */
	char boot_id[40];	/* the key (struct bt_kcache_key) */
	uint64_t modules;
	uint64_t text;		/* _text's address, 0 if not listed */
	uint64_t nranges;
	uint64_t nsyms;
	uint64_t pool_size;
};

/* FNV-1a: the key needs no strength, only to change when its input does. */
static uint64_t
fnv(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* Up to len - 1 bytes of a small file, NUL-terminated: the count or -errno. */
static ssize_t
read_small(const char *path, char *buf, size_t len)
{
	int fd = bt_open_regular(path);
	ssize_t n;

	buf[0] = '\0';
	if (fd < 0)
		return fd;
	do
		n = read(fd, buf, len - 1);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		n = -errno;
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return n;
}

/*
 * One line of /proc/modules: "name size refcount deps state address
 * [taints]". The reference count changes whenever a module is used and
 * the dependency list whenever another module is loaded: neither moves a
 * symbol, so neither is part of the key.
 */
static bool
parse_module(const char *line, struct bt_kmodule *m)
{
	char state[16];
	unsigned long long size, base;

	memset(m, 0, sizeof(*m));
	if (sscanf(line, "%63s %llu %*s %*s %15s %llx", m->name, &size, state, &base) != 4)
		return false;
	m->size = size;
	m->base = base;
	m->live = strcmp(state, "Live") == 0;
	return true;
}

int
bt_kstate_read(struct bt_kstate *st, const struct bt_ksyms_paths *paths)
{
	struct bt_strbuf mods = BT_STRBUF_INIT;
	char buf[512], path[PATH_MAX], *line, *nl;
	uint64_t h = 0xcbf29ce484222325ULL;
	ssize_t n;
	int ret;

	memset(st, 0, sizeof(*st));
	n = read_small(paths->boot_id, buf, sizeof(buf));
	buf[strcspn(buf, "\n")] = '\0';
	if (n <= 0 || buf[0] == '\0' || strlen(buf) >= sizeof(st->key.boot_id))
		return -1;
	memcpy(st->key.boot_id, buf, strlen(buf));
	/* no /proc/modules: a kernel without modules (CONFIG_MODULES=n) */
	ret = bt_strbuf_read_file(&mods, paths->modules, 16 << 20);
	if (ret < 0 && ret != -ENOENT) {
		bt_strbuf_release(&mods);
		return -1;
	}
	for (line = mods.buf; *line != '\0'; line = nl) {
		struct bt_kmodule m;

		nl = line + strcspn(line, "\n");
		if (*nl != '\0')
			*nl++ = '\0';
		if (!parse_module(line, &m))
			continue;
		h = fnv(h, m.name, strlen(m.name) + 1);
		h = fnv(h, &m.size, sizeof(m.size));
		h = fnv(h, &m.base, sizeof(m.base));
		h = fnv(h, &m.live, sizeof(m.live));
		/*
		 * A module rebuilt and loaded again can have the same size at
		 * the same address: its build-id tells it apart.
		 */
		snprintf(path, sizeof(path), "%s/%s/notes/.note.gnu.build-id",
		    paths->sysmodule, m.name);
		n = read_small(path, buf, sizeof(buf));
		if (n > 0)
			h = fnv(h, buf, (size_t)n);
		BT_VEC_PUSH(st->mods, m);
	}
	st->key.modules = h;
	bt_strbuf_release(&mods);
	return 0;
}

void
bt_kstate_release(struct bt_kstate *st)
{
	BT_VEC_FREE(st->mods);
}

const struct bt_kmodule *
bt_kstate_module(const struct bt_kstate *st, const char *name, size_t len)
{
	size_t i;

	if (len >= sizeof(st->mods.v[0].name))
		return NULL;
	for (i = 0; i < st->mods.n; i++)
		if (strncmp(st->mods.v[i].name, name, len) == 0 &&
		    st->mods.v[i].name[len] == '\0')
			return &st->mods.v[i];
	return NULL;
}

/*
 * The arrays checked through read(), not through the mapping: checking
 * every address and name offset through the mapping would fault its pages
 * in, and a lookup needs only a few of them. The first address of every
 * KC_BLOCK is kept (c->index): a lookup searches it, then one block.
 */
static const char *
check_arrays(int fd, const struct kc_head *h, struct bt_kcache *c)
{
	uint64_t buf[2048], prev = 0, lo_min = 0, i, k, n;
	off_t off = (off_t)sizeof(*h);
	char last;

	/* ranges: lo < hi, in order, not overlapping */
	for (i = 0; i < h->nranges; i += n / 2) {
		n = BT_MIN(h->nranges - i, BT_ARRAY_SIZE(buf) / 2) * 2;
		if (bt_pread_all(fd, buf, n * 8, off) < 0)
			return "truncated";
		for (k = 0; k < n; k += 2) {
			if (buf[k] >= buf[k + 1] || (i + k > 0 && buf[k] < prev))
				return "ranges out of order";
			prev = buf[k + 1];
		}
		if (i == 0)
			lo_min = buf[0];
		off += (off_t)(n * 8);
	}
	/* addresses strictly increasing, the ranges inside them */
	for (i = 0; i < h->nsyms; i += n) {
		n = BT_MIN(h->nsyms - i, BT_ARRAY_SIZE(buf));
		if (bt_pread_all(fd, buf, n * 8, off) < 0)
			return "truncated";
		if (i == 0 && h->nranges > 0 && lo_min < buf[0])
			return "a range outside the addresses";
		for (k = 0; k < n; k++) {
			if (i + k > 0 && buf[k] <= prev)
				return "addresses out of order";
			prev = buf[k];
			if ((i + k) % KC_BLOCK == 0)
				c->index[(i + k) / KC_BLOCK] = buf[k];
		}
		off += (off_t)(n * 8);
	}
	if (h->nranges > 0) {
		uint64_t hi_max;

		if (bt_pread_all(fd, &hi_max, 8, (off_t)(sizeof(*h) + h->nranges * 16 - 8)) < 0)
			return "truncated";
		if (hi_max > prev)
			return "a range outside the addresses";
	}
	/* every name inside the pool (and the pool's last byte a NUL: every one ends) */
	for (i = 0; i < h->nsyms; i += n) {
		uint32_t *names = (uint32_t *)buf;

		n = BT_MIN(h->nsyms - i, sizeof(buf) / 4);
		if (bt_pread_all(fd, names, n * 4, off) < 0)
			return "truncated";
		for (k = 0; k < n; k++)
			if (names[k] >= h->pool_size)
				return "a name outside the pool";
		off += (off_t)(n * 4);
	}
	if (bt_pread_all(fd, &last, 1, off + (off_t)h->pool_size - 1) < 0)
		return "truncated";
	if (last != '\0')
		return "a name not terminated";
	return NULL;
}

int
bt_kcache_map(struct bt_kcache *c, const char *path,
	      const struct bt_kcache_key *key, const char **why)
{
	struct kc_head h;
	struct stat st;
	uint64_t size;
	void *map;
	int fd;

	memset(c, 0, sizeof(*c));
	/* O_NONBLOCK: a FIFO put in its place must not block the open */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		*why = errno == ENOENT ? "no cache file" :
		    errno == ELOOP ? "a symbolic link" : "cannot be opened";
		return -1;
	}
	*why = NULL;
	if (fstat(fd, &st) < 0)
		*why = "cannot be opened";
	else if (!S_ISREG(st.st_mode))
		*why = "not a regular file";
	else if (st.st_uid != geteuid())
		*why = "owned by another user";
	else if (st.st_mode & (S_IWGRP | S_IWOTH))
		*why = "writable by others";
	else if ((uint64_t)st.st_size < sizeof(h) || bt_pread_all(fd, &h, sizeof(h), 0) < 0)
		*why = "truncated";
	else if ((uint64_t)st.st_size > KC_MAX_SIZE)
		*why = "too large";
	else if (memcmp(h.magic, KC_MAGIC, sizeof(KC_MAGIC)) != 0)
		*why = "not a cache file";
	else if (h.version != KC_VERSION || h.head_size != sizeof(h))
		*why = "another version";
	else if (memcmp(h.boot_id, key->boot_id, sizeof(h.boot_id)) != 0 ||
	    h.modules != key->modules)
		*why = "for another boot or other modules";
	if (*why != NULL)
		goto out_close;
	/* counts bounded by the file's size first: the sum cannot overflow */
	size = (uint64_t)st.st_size;
	if (h.nranges > size / 16 || h.nsyms > size / 12 || h.pool_size > size ||
	    sizeof(h) + h.nranges * 16 + h.nsyms * 12 + h.pool_size != size) {
		*why = "sizes do not match the file";
		goto out_close;
	}
	if (h.nsyms == 0 || h.pool_size == 0) {
		*why = "empty";
		goto out_close;
	}
	c->nindex = (size_t)((h.nsyms + KC_BLOCK - 1) / KC_BLOCK);
	c->index = bt_xreallocarray(NULL, c->nindex, sizeof(*c->index));
	if ((*why = check_arrays(fd, &h, c)) != NULL)
		goto out_close;
	map = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		*why = "cannot be mapped";
		goto out_close;
	}
	close(fd);
	/* a lookup touches a few scattered pages: no read-ahead */
	madvise(map, (size_t)size, MADV_RANDOM);
	c->map = map;
	c->size = (size_t)size;
	c->nranges = h.nranges;
	c->nsyms = h.nsyms;
	c->pool_size = h.pool_size;
	c->text = h.text;
	c->ranges = (const uint64_t *)((const char *)map + sizeof(h));
	c->addrs = c->ranges + 2 * h.nranges;
	c->names = (const uint32_t *)(c->addrs + h.nsyms);
	c->pool = (const char *)(c->names + h.nsyms);
	return 0;

out_close:
	close(fd);
	free(c->index);
	memset(c, 0, sizeof(*c));
	return -1;
}

void
bt_kcache_unmap(struct bt_kcache *c)
{
	if (c->map != NULL)
		munmap(c->map, c->size);
	free(c->index);
	memset(c, 0, sizeof(*c));
}

int
bt_kcache_find(const struct bt_kcache *c, uint64_t addr, const char **name,
	       uint64_t *start, uint64_t *end)
{
	size_t lo = 0, hi = (size_t)c->nranges;

	/* the last range starting at or below addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->ranges[2 * mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || addr >= c->ranges[2 * (lo - 1) + 1])
		return 1;
	/*
	 * ranges[lo] <= addr < ranges[hi] <= addrs[nsyms - 1] (checked when
	 * mapped): the symbol at or below addr and the next one both exist.
	 * The block that holds it first (index[0] = addrs[0] <= addr), then
	 * the symbol in the block.
	 */
	lo = 0;
	hi = c->nindex;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->index[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	hi = BT_MIN(lo * KC_BLOCK, (size_t)c->nsyms);
	lo = (lo - 1) * KC_BLOCK;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->addrs[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	*name = c->pool + c->names[lo - 1];
	*start = c->addrs[lo - 1];
	*end = c->addrs[lo];
	return 0;
}

/* Writes through one buffer: 366k small pieces, fwrite's locking cost ~10 ms. */
struct wbuf {
	int fd;
	int err;
	size_t n;
	char *buf;
};

#define WBUF_SIZE (64 * 1024)

static void
wb_flush(struct wbuf *w)
{
	if (w->n > 0 && w->err == 0)
		w->err = bt_write_all(w->fd, w->buf, w->n);
	w->n = 0;
}

static void
wb_add(struct wbuf *w, const void *data, size_t len)
{
	if (w->n + len > WBUF_SIZE)
		wb_flush(w);
	if (len > WBUF_SIZE) {
		if (w->err == 0)
			w->err = bt_write_all(w->fd, data, len);
		return;
	}
	memcpy(w->buf + w->n, data, len);
	w->n += len;
}

int
bt_kcache_write(const char *path, const struct bt_kcache_key *key, uint64_t text,
		const struct bt_ksym *v, const char *text_buf,
		const struct bt_kcache_run *runs, size_t nruns, const char **why)
{
	struct kc_head h;
	struct wbuf w;
	char *tmp, *slash;
	uint64_t off = 0;
	size_t r, i;

	memset(&h, 0, sizeof(h));
	memcpy(h.magic, KC_MAGIC, sizeof(KC_MAGIC));
	h.version = KC_VERSION;
	h.head_size = sizeof(h);
	memcpy(h.boot_id, key->boot_id, sizeof(h.boot_id));
	h.modules = key->modules;
	h.text = text;
	h.nranges = nruns;
	for (r = 0; r < nruns; r++)
		for (i = runs[r].lo; i <= runs[r].hi; i++) {
			h.nsyms++;
			h.pool_size += strlen(text_buf + v[i].name) + 1;
		}
	if (h.nsyms == 0 || h.pool_size > UINT32_MAX) {
		*why = "nothing to cache";
		return -1;
	}
	/* a temporary file in the same directory, renamed over path */
	slash = strrchr(path, '/');
	tmp = bt_xasprintf("%.*s.kallsyms.XXXXXX", slash ? (int)(slash - path + 1) : 0, path);
	w.fd = mkostemp(tmp, O_CLOEXEC);
	if (w.fd < 0) {
		*why = "cannot create a file in the cache directory";
		free(tmp);
		return -1;
	}
	fchmod(w.fd, 0600);
	w.err = 0;
	w.n = 0;
	w.buf = bt_xmalloc(WBUF_SIZE);
	wb_add(&w, &h, sizeof(h));
	for (r = 0; r < nruns; r++) {
		uint64_t range[2] = { v[runs[r].lo].addr, v[runs[r].hi].addr };
		wb_add(&w, range, sizeof(range));
	}
	for (r = 0; r < nruns; r++)
		for (i = runs[r].lo; i <= runs[r].hi; i++)
			wb_add(&w, &v[i].addr, sizeof(v[i].addr));
	for (r = 0; r < nruns; r++)
		for (i = runs[r].lo; i <= runs[r].hi; i++) {
			uint32_t o = (uint32_t)off;
			wb_add(&w, &o, sizeof(o));
			off += strlen(text_buf + v[i].name) + 1;
		}
	for (r = 0; r < nruns; r++)
		for (i = runs[r].lo; i <= runs[r].hi; i++)
			wb_add(&w, text_buf + v[i].name, strlen(text_buf + v[i].name) + 1);
	wb_flush(&w);
	free(w.buf);
	if (close(w.fd) < 0 && w.err == 0)
		w.err = -errno;
	if (w.err != 0 || rename(tmp, path) < 0) {
		*why = "cannot write the cache file";
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}
