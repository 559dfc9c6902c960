/*
 * Copying the code a perf map names out of a stopped process, into a
 * jitdump (jitcopy.h, docs/jit.md "Code copied at exit").
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "base.h"
#include "jit/jitcopy.h"
#include "jit/jitdump.h"
#include "jit/jitelf.h"
#include "jit/perfmap.h"

struct range {
	uint64_t lo, hi;
};

struct cand {
	uint64_t start, end;
	size_t idx;		/* in the map */
	int skip;
};

struct cands {
	struct cand *v;
	size_t n, alloc;
};

/* The anonymous executable mappings of pid, sorted (the kernel lists them so). */
struct ranges {
	struct range *v;
	size_t n, alloc;
};

static int
anon_exec(pid_t pid, struct ranges *out)
{
	char path[64], *line = NULL, perms[8];
	size_t cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (f == NULL)
		return -1;
	while (getline(&line, &cap, f) > 0) {
		unsigned long long lo, hi, ino;
		int n = 0;
		const char *name;
		struct range r;

		if (sscanf(line, "%llx-%llx %7s %*x %*x:%*x %llu %n", &lo, &hi,
		    perms, &ino, &n) < 4 || n == 0)
			continue;
		name = line + n;
		if (perms[2] != 'x' || hi <= lo)
			continue;
		/* V8, HotSpot: no name; named anonymous memory; .NET's double mapping */
		if (!(name[0] == '\n' || name[0] == '\0' ||
		    strncmp(name, "[anon:", 6) == 0 ||
		    (strncmp(name, "/memfd:", 7) == 0)))
			continue;
		r.lo = lo;
		r.hi = hi;
		BT_VEC_PUSH(*out, r);
	}
	free(line);
	fclose(f);
	return 0;
}

/* Does one mapping of v hold [lo, hi) whole? (Adjacent mappings count as one.) */
static bool
inside(const struct range *v, size_t n, uint64_t lo, uint64_t hi)
{
	size_t a = 0, b = n;

	while (a < b) {		/* the first mapping ending after lo */
		size_t m = a + (b - a) / 2;
		if (v[m].hi <= lo)
			a = m + 1;
		else
			b = m;
	}
	if (a == n || v[a].lo > lo)
		return false;
	while (v[a].hi < hi) {
		if (a + 1 == n || v[a + 1].lo != v[a].hi)
			return false;
		a++;
	}
	return true;
}

static int
cand_cmp(const void *x, const void *y)
{
	const struct cand *a = x, *b = y;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static int
idx_cmp(const void *x, const void *y)
{
	const struct cand *a = x, *b = y;

	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* Read len bytes at addr of pid: process_vm_readv, else /proc/PID/mem. */
static bool
read_mem(pid_t pid, int *memfd, uint64_t addr, void *buf, size_t len)
{
	struct iovec l = { buf, len }, r = { (void *)(uintptr_t)addr, len };
	ssize_t n = process_vm_readv(pid, &l, 1, &r, 1, 0);

	if (n == (ssize_t)len)
		return true;
	if (*memfd == -1) {
		char path[64];
		snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
		*memfd = open(path, O_RDONLY | O_CLOEXEC);
		if (*memfd < 0)
			*memfd = -2;
	}
	if (*memfd < 0)
		return false;
	return pread(*memfd, buf, len, (off_t)addr) == (ssize_t)len;
}

static void
put(struct bt_strbuf *sb, const void *p, size_t n)
{
	bt_strbuf_add(sb, p, n);
}

static void
put32(struct bt_strbuf *sb, uint32_t v)
{
	put(sb, &v, sizeof(v));
}

static void
put64(struct bt_strbuf *sb, uint64_t v)
{
	put(sb, &v, sizeof(v));
}

/* The candidates: the map's entries in anonymous code, those overlapped by a later one marked. */
static void
candidates(const struct bt_perfmap_entry *e, size_t n, const struct ranges *maps,
	   struct cands *c, struct bt_jit_copy_stats *st)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		struct cand k = { e[i].start, e[i].start + e[i].size, i, 0 };
		if (!inside(maps->v, maps->n, k.start, k.end)) {
			st->not_anon++;
			continue;
		}
		BT_VEC_PUSH(*c, k);
	}
	/* of entries that overlap, memory holds the code written last */
	if (c->n > 1)
		bt_qsort(c->v, c->n, sizeof(*c->v), cand_cmp);
	for (i = 0; i < c->n; i++)
		for (j = i + 1; j < c->n && c->v[j].start < c->v[i].end; j++) {
			if (c->v[i].idx < c->v[j].idx)
				c->v[i].skip = 1;
			else
				c->v[j].skip = 1;
		}
	if (c->n > 1)
		bt_qsort(c->v, c->n, sizeof(*c->v), idx_cmp);
}

/* The jitdump's header: pid's, written now. */
static void
put_header(struct bt_strbuf *sb, pid_t pid)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	put32(sb, BT_JITDUMP_MAGIC);
	put32(sb, 1);				/* version */
	put32(sb, BT_JITDUMP_HEADER_SIZE);
	put32(sb, bt_jit_host_machine());
	put32(sb, 0);				/* reserved */
	put32(sb, (uint32_t)pid);
	put64(sb, (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec);
	put64(sb, 0);				/* flags */
}

/* A CODE_LOAD of entry x, its code in buf. */
static void
put_load(struct bt_strbuf *sb, pid_t pid, const struct bt_perfmap_entry *x,
	 const uint8_t *buf, uint32_t total)
{
	put32(sb, BT_JIT_CODE_LOAD);
	put32(sb, total);
	put64(sb, 0);			/* time: not known */
	put32(sb, (uint32_t)pid);
	put32(sb, (uint32_t)pid);
	put64(sb, x->start);		/* vma */
	put64(sb, x->start);		/* code_addr */
	put64(sb, x->size);
	put64(sb, (uint64_t)x->line);	/* code_index: the map's line */
	put(sb, x->name, strlen(x->name) + 1);
	put(sb, buf, (size_t)x->size);
}

/* sb into out_path, through out_path.tmp. */
static long
write_dump(const struct bt_strbuf *sb, const char *out_path, struct bt_error *err)
{
	char *tmp = bt_xasprintf("%s.tmp", out_path);
	long ret = 0;
	int fd, bad, ee;

	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0) {
		ret = bt_error_errno(err, BT_EIO, errno, "cannot write '%s'", tmp);
		goto out;
	}
	bad = bt_write_all(fd, sb->buf, sb->len) < 0;
	if (close(fd) != 0 || bad) {
		ee = errno;
		unlink(tmp);
		ret = bt_error_errno(err, BT_EIO, ee, "cannot write '%s'", tmp);
		goto out;
	}
	if (rename(tmp, out_path) != 0) {
		ee = errno;
		unlink(tmp);
		ret = bt_error_errno(err, BT_EIO, ee, "cannot write '%s'", out_path);
	}
out:
	free(tmp);
	return ret;
}

long
bt_jit_copy(pid_t pid, const char *map_path, const char *out_path,
	    uint64_t cap, struct bt_jit_copy_stats *st, struct bt_error *err)
{
	struct ranges maps = { 0 };
	struct cands c = { 0 };
	struct bt_strbuf sb = BT_STRBUF_INIT;
	const struct bt_perfmap_entry *e;
	struct bt_perfmap *m;
	uint8_t *buf = NULL;
	size_t n, i, bufsz = 0;
	int memfd = -1;
	long ret = 0;

	memset(st, 0, sizeof(*st));
	m = bt_perfmap_open(map_path, err);
	if (m == NULL)
		return -BT_ENOENT;
	e = bt_perfmap_entries(m, &n);
	st->entries = n;
	if (anon_exec(pid, &maps) < 0) {
		ret = bt_error_errno(err, BT_EIO, errno,
		    "cannot read the mappings of process %d", (int)pid);
		goto out;
	}
	candidates(e, n, &maps, &c, st);
	put_header(&sb, pid);
	for (i = 0; i < c.n; i++) {
		const struct bt_perfmap_entry *x = &e[c.v[i].idx];
		uint64_t total = 16 + 40 + strlen(x->name) + 1 + x->size;

		if (c.v[i].skip) {
			st->overlapped++;
			continue;
		}
		if (st->bytes + x->size > cap) {
			st->capped++;
			continue;
		}
		if (x->size > bufsz) {
			bufsz = (size_t)x->size;
			buf = bt_xrealloc(buf, bufsz);
		}
		if (x->size && !read_mem(pid, &memfd, x->start, buf, (size_t)x->size)) {
			st->unreadable++;
			continue;
		}
		if (total > UINT32_MAX) {
			st->capped++;
			continue;
		}
		put_load(&sb, pid, x, buf, (uint32_t)total);
		st->copied++;
		st->bytes += x->size;
	}
	if (st->copied == 0)
		goto out;
	ret = write_dump(&sb, out_path, err);
	if (ret == 0)
		ret = (long)st->copied;
out:
	if (memfd >= 0)
		close(memfd);
	free(buf);
	bt_strbuf_release(&sb);
	BT_VEC_FREE(c);
	BT_VEC_FREE(maps);
	bt_perfmap_free(m);
	return ret;
}

void
bt_jit_copy_at_exit(pid_t pid, const char *dir, char *note, size_t len)
{
	struct bt_jit_copy_stats st;
	struct bt_error err = { 0 };
	char map[64];
	char *out = bt_xasprintf("%s/copy-%d.dump", dir, (int)pid);
	long r;

	snprintf(map, sizeof(map), "/tmp/perf-%d.map", (int)pid);
	r = bt_jit_copy(pid, map, out, BT_JIT_COPY_CAP, &st, &err);
	if (r == -BT_ENOENT)
		snprintf(note, len, "no JIT code copied: process %d wrote no "
		    "perf map ('%s') by its exit", (int)pid, map);
	else if (r < 0)
		snprintf(note, len, "no JIT code copied: %s", err.msg);
	else {
		int k = snprintf(note, len, "JIT code copied at exit: %zu of %zu "
		    "perf map entries, %.1f KiB, into '%s'", st.copied, st.entries,
		    (double)st.bytes / 1024.0, r ? out : "(none)");
		if (st.not_anon && k > 0 && (size_t)k < len)
			k += snprintf(note + k, len - (size_t)k, "; %zu not in "
			    "anonymous executable memory at exit%s", st.not_anon,
			    st.not_anon == st.entries ? " (the runtime freed its "
			    "code before exiting, or its code is in files)" : "");
		if (st.unreadable && k > 0 && (size_t)k < len)
			k += snprintf(note + k, len - (size_t)k, "; %zu unreadable",
			    st.unreadable);
		if (st.capped && k > 0 && (size_t)k < len)
			snprintf(note + k, len - (size_t)k, "; %zu entries without "
			    "code: the copy stops at %llu MiB", st.capped,
			    (unsigned long long)(BT_JIT_COPY_CAP >> 20));
	}
	free(out);
}
