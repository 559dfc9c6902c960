/*
 * Internal helpers every core module uses: allocation that cannot fail,
 * growable buffers and vectors, error and log plumbing.
 */
#ifndef BENCHTUI_BASE_H
#define BENCHTUI_BASE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "benchtui/benchtui.h"

#define BT_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define BT_MIN(a, b) ((a) < (b) ? (a) : (b))
#define BT_MAX(a, b) ((a) > (b) ? (a) : (b))
#define FREE_AND_NULL(p) do { free(p); (p) = NULL; } while (0)

/* Out of memory is fatal: call the fatal hook (the TUI restores the terminal), then abort. */
void bt_fatal_oom(size_t size) __attribute__((noreturn));
#define BT_BUG(msg) bt_bug(__FILE__, __LINE__, msg)
void bt_bug(const char *file, int line, const char *msg) __attribute__((noreturn));

void *bt_xmalloc(size_t n);
void *bt_xcalloc(size_t n, size_t size);
void *bt_xrealloc(void *p, size_t n);
void *bt_xreallocarray(void *p, size_t n, size_t size);
/*
 * Room for n elements of size, written in order, once (an annotation's
 * instructions, a view's rows and cells), of which the first fill surely
 * will be: the whole 2 MiB pages within those are advised for transparent
 * huge pages, one page fault each instead of 512 (a fault costs about as
 * much as writing its 4 KiB). Only whole ones: a huge page half used is
 * memory for nothing. free() and realloc() it as any other allocation.
 */
void *bt_xmalloc_big(size_t n, size_t fill, size_t size);
char *bt_xstrdup(const char *s);
char *bt_xstrndup(const char *s, size_t n);
char *bt_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Grow *p (of *alloc elements of size) so that it holds at least n. */
#define BT_ALLOC_GROW(p, n, alloc) do {					\
	if ((size_t)(n) > (alloc)) {					\
		size_t na_ = (alloc) ? (alloc) * 2 : 16;		\
		if (na_ < (size_t)(n))					\
			na_ = (n);					\
		(p) = bt_xreallocarray((p), na_, sizeof(*(p)));		\
		(alloc) = na_;						\
	}								\
} while (0)

/* A vector: { T *v; size_t n, alloc; }. */
#define BT_VEC(T) struct { T *v; size_t n, alloc; }
#define BT_VEC_PUSH(vec, x) do {					\
	BT_ALLOC_GROW((vec).v, (vec).n + 1, (vec).alloc);		\
	(vec).v[(vec).n++] = (x);					\
} while (0)
#define BT_VEC_FREE(vec) do { free((vec).v); (vec).v = NULL;		\
	(vec).n = (vec).alloc = 0; } while (0)

/**
 * struct bt_strbuf - growable string; buf is never NULL and always NUL-terminated
 */
struct bt_strbuf {
	char *buf;
	size_t len, alloc;
};
#define BT_STRBUF_INIT { bt_strbuf_empty, 0, 0 }
extern char bt_strbuf_empty[];

void bt_strbuf_init(struct bt_strbuf *sb);
void bt_strbuf_release(struct bt_strbuf *sb);
void bt_strbuf_reset(struct bt_strbuf *sb);
void bt_strbuf_grow(struct bt_strbuf *sb, size_t extra);
void bt_strbuf_add(struct bt_strbuf *sb, const void *data, size_t len);
void bt_strbuf_addstr(struct bt_strbuf *sb, const char *s);
void bt_strbuf_addch(struct bt_strbuf *sb, int c);
void bt_strbuf_addchars(struct bt_strbuf *sb, int c, size_t n);
void bt_strbuf_addf(struct bt_strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void bt_strbuf_vaddf(struct bt_strbuf *sb, const char *fmt, va_list ap);
char *bt_strbuf_detach(struct bt_strbuf *sb, size_t *len);
/* Read a whole file; returns 0 or -errno. */
int bt_strbuf_read_file(struct bt_strbuf *sb, const char *path, size_t max);

/*
 * An arena of strings: stable pointers, freed all at once. Views keep
 * every cell's text here (STYLE.md §2.6).
 */
struct bt_strpool {
	struct bt_pool_chunk *head;
	size_t used, cap;
};
void bt_strpool_init(struct bt_strpool *p);
void bt_strpool_release(struct bt_strpool *p);
const char *bt_strpool_add(struct bt_strpool *p, const char *s, size_t len);
/* len + 1 writable bytes in the pool, for the caller to fill (and NUL-terminate). */
char *bt_strpool_alloc(struct bt_strpool *p, size_t len);
const char *bt_strpool_addstr(struct bt_strpool *p, const char *s);
const char *bt_strpool_addf(struct bt_strpool *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Errors: set err (if non-NULL) and return -code. */
int bt_error_errno(struct bt_error *err, int code, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void bt_log(enum bt_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The value of hex digit c (either case), -1 if it is none. */
static inline int
bt_hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Hashing for open-addressing tables. */
static inline uint64_t bt_hash64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

/*
 * What printf writes for "%llu" (buf: 21 bytes at least) and for "%.2f"
 * (returns what snprintf returns), without printf: core/base/fmt.c.
 */
size_t bt_fmt_u64(char *buf, uint64_t x);
int bt_fmt_2f(char *buf, size_t size, double x);

/* qsort that accepts an empty (NULL) array, which qsort itself must not get. */
static inline void
bt_qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

/*
 * Open path for reading if it is a regular file: the fd, or -errno (-EINVAL
 * for something that is not a regular file, -EISDIR for a directory). A
 * FIFO, device or directory is never opened (stat first; the file opened
 * must be the one stat saw).
 */
int bt_open_regular(const char *path);
/* Write all len bytes (again after EINTR and short writes): 0, or -errno (-EIO: none written). */
int bt_write_all(int fd, const void *data, size_t len);
/* Read exactly len bytes at off (again after EINTR and short reads): 0, or -1 (an error, or the end first). */
int bt_pread_all(int fd, void *buf, size_t len, uint64_t off);
/*
 * The same for a path a recording names (a module, a debug file): also
 * -EXDEV for the kernel's files (under /proc, /sys or /dev, or on proc,
 * sysfs, debugfs, tracefs, cgroup, bpf or securityfs), which are not
 * programs however they look and which libdw must never be handed. The
 * path's links are resolved and the target checked before any open (a
 * link to a FIFO, a device or /proc is never opened), then opened
 * O_NOFOLLOW.
 */
int bt_open_recorded(const char *path);

/*
 * Where benchtui keeps caches: $XDG_CACHE_HOME/benchtui, else
 * $HOME/.cache/benchtui (malloc'ed); NULL when neither is an absolute path
 * or the process runs with privileges its user lacks (setuid, file
 * capabilities: secure_getenv).
 */
char *bt_user_cache_dir(void);
/*
 * Make sure path is a directory owned by the current user, making it (mode
 * 0700), and its parent if that is missing too, inside a directory of the
 * user's: 0, or -errno (-EPERM: someone else's).
 */
int bt_private_dir(const char *path);
/* Current time in seconds from CLOCK_MONOTONIC. */
double bt_now(void);

#endif
