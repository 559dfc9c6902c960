/* Allocation that cannot fail: out of memory calls the fatal hook, then aborts. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base.h"

static bt_fatal_hook fatal_hook;

void
bt_set_fatal_hook(bt_fatal_hook hook)
{
	fatal_hook = hook;
}

static void __attribute__((noreturn))
fatal_write(const char *msg)
{
	if (fatal_hook != NULL)
		fatal_hook();
	ssize_t n = write(STDERR_FILENO, msg, strlen(msg));

	(void)n;	/* nothing left to try if this fails */
	abort();
}

void
bt_fatal_oom(size_t size)
{
	(void)size;
	fatal_write("benchtui: out of memory\n");
}

void
bt_bug(const char *file, int line, const char *msg)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "benchtui: BUG at %s:%d: %s\n", file, line, msg);
	fatal_write(buf);
}

void *
bt_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		bt_fatal_oom(n);
	return p;
}

void *
bt_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		bt_fatal_oom(n * size);
	return p;
}

void *
bt_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (p == NULL)
		bt_fatal_oom(n);
	return p;
}

void *
bt_xreallocarray(void *p, size_t n, size_t size)
{
	if (size != 0 && n > SIZE_MAX / size)
		bt_fatal_oom(SIZE_MAX);
	return bt_xrealloc(p, n * size);
}

#define HUGE_PAGE ((size_t)2 << 20)

void *
bt_xmalloc_big(size_t n, size_t fill, size_t size)
{
	size_t len, whole;
	void *p;

	if (size != 0 && n > SIZE_MAX / size)
		bt_fatal_oom(SIZE_MAX);
	len = n * size;
	whole = BT_MIN(fill, n) * size & ~(HUGE_PAGE - 1);
	if (whole == 0)
		return bt_xmalloc(len);
	p = aligned_alloc(HUGE_PAGE, (len + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1));
	if (p == NULL)
		bt_fatal_oom(len);
	/* a hint: with THP off it is 4 KiB pages, as from malloc */
	(void)madvise(p, whole, MADV_HUGEPAGE);
	return p;
}

char *
bt_xstrdup(const char *s)
{
	return bt_xstrndup(s, strlen(s));
}

char *
bt_xstrndup(const char *s, size_t n)
{
	char *p = bt_xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
bt_xasprintf(const char *fmt, ...)
{
	struct bt_strbuf sb = BT_STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	bt_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return bt_strbuf_detach(&sb, NULL);
}

