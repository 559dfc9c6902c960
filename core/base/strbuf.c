/* Growable strings and a string arena. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base.h"

char bt_strbuf_empty[1];

void
bt_strbuf_init(struct bt_strbuf *sb)
{
	sb->buf = bt_strbuf_empty;
	sb->len = sb->alloc = 0;
}

void
bt_strbuf_release(struct bt_strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	bt_strbuf_init(sb);
}

void
bt_strbuf_reset(struct bt_strbuf *sb)
{
	sb->len = 0;
	if (sb->alloc)
		sb->buf[0] = '\0';
}

void
bt_strbuf_grow(struct bt_strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;

	if (need <= sb->alloc)
		return;
	if (sb->alloc == 0)
		sb->buf = NULL;
	size_t na = sb->alloc ? sb->alloc * 2 : 64;
	if (na < need)
		na = need;
	sb->buf = bt_xrealloc(sb->buf, na);
	if (sb->alloc == 0)
		sb->buf[0] = '\0';
	sb->alloc = na;
}

void
bt_strbuf_add(struct bt_strbuf *sb, const void *data, size_t len)
{
	bt_strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void
bt_strbuf_addstr(struct bt_strbuf *sb, const char *s)
{
	bt_strbuf_add(sb, s, strlen(s));
}

void
bt_strbuf_addch(struct bt_strbuf *sb, int c)
{
	bt_strbuf_grow(sb, 1);
	sb->buf[sb->len++] = (char)c;
	sb->buf[sb->len] = '\0';
}

void
bt_strbuf_addchars(struct bt_strbuf *sb, int c, size_t n)
{
	bt_strbuf_grow(sb, n);
	memset(sb->buf + sb->len, c, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void
bt_strbuf_vaddf(struct bt_strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	bt_strbuf_grow(sb, 64);
	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, cp);
	va_end(cp);
	if (n < 0)
		BT_BUG("vsnprintf failed");
	if ((size_t)n >= sb->alloc - sb->len) {
		bt_strbuf_grow(sb, (size_t)n);
		n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	}
	sb->len += (size_t)n;
}

void
bt_strbuf_addf(struct bt_strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bt_strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

char *
bt_strbuf_detach(struct bt_strbuf *sb, size_t *len)
{
	char *s;

	if (sb->alloc == 0)
		bt_strbuf_grow(sb, 0);
	s = sb->buf;
	if (len != NULL)
		*len = sb->len;
	bt_strbuf_init(sb);
	return s;
}

int
bt_strbuf_read_file(struct bt_strbuf *sb, const char *path, size_t max)
{
	int fd = bt_open_regular(path);
	ssize_t n;

	if (fd < 0)
		return fd;
	for (;;) {
		bt_strbuf_grow(sb, 65536);
		n = read(fd, sb->buf + sb->len, sb->alloc - sb->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		sb->len += (size_t)n;
		if (max && sb->len > max) {
			n = -1;
			errno = EFBIG;
			break;
		}
	}
	sb->buf[sb->len] = '\0';
	if (n < 0) {
		int e = errno;
		close(fd);
		return -e;
	}
	close(fd);
	return 0;
}

struct bt_pool_chunk {
	struct bt_pool_chunk *next;
	char data[];
};

#define POOL_CHUNK (256 * 1024)

void
bt_strpool_init(struct bt_strpool *p)
{
	p->head = NULL;
	p->used = p->cap = 0;
}

void
bt_strpool_release(struct bt_strpool *p)
{
	struct bt_pool_chunk *c, *next;

	for (c = p->head; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
	bt_strpool_init(p);
}

char *
bt_strpool_alloc(struct bt_strpool *p, size_t len)
{
	char *dst;

	if (p->head == NULL || p->used + len + 1 > p->cap) {
		size_t cap = len + 1 > POOL_CHUNK ? len + 1 : POOL_CHUNK;
		struct bt_pool_chunk *c = bt_xmalloc(sizeof(*c) + cap);

		c->next = p->head;
		p->head = c;
		p->used = 0;
		p->cap = cap;
	}
	dst = p->head->data + p->used;
	p->used += len + 1;
	return dst;
}

const char *
bt_strpool_add(struct bt_strpool *p, const char *s, size_t len)
{
	char *dst = bt_strpool_alloc(p, len);

	memcpy(dst, s, len);
	dst[len] = '\0';
	return dst;
}

const char *
bt_strpool_addstr(struct bt_strpool *p, const char *s)
{
	return bt_strpool_add(p, s, strlen(s));
}

const char *
bt_strpool_addf(struct bt_strpool *p, const char *fmt, ...)
{
	char small[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return bt_strpool_add(p, "", 0);
	if ((size_t)n < sizeof(small))
		return bt_strpool_add(p, small, (size_t)n);

	struct bt_strbuf sb = BT_STRBUF_INIT;
	va_start(ap, fmt);
	bt_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	const char *r = bt_strpool_add(p, sb.buf, sb.len);
	bt_strbuf_release(&sb);
	return r;
}

/*
 * The length of the UTF-8 character at s (1-4) when it is well formed and
 * not a C1 control, else 0.
 */
static size_t
utf8_ok(const unsigned char *s)
{
	size_t n, i;
	uint32_t c;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	n = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	c = s[0] & (0x7f >> n);
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff) || (c >= 0x80 && c <= 0x9f))
		return 0;
	return n;
}

/* Bytes at s that print as they are (0 when s[0] must be escaped). */
static size_t
safe_run(const unsigned char *s)
{
	if (s[0] == '\t' || (s[0] >= 0x20 && s[0] < 0x7f))
		return 1;
	return s[0] >= 0x80 ? utf8_ok(s) : 0;
}

/*
 * Eight bytes at a time while all are printable ASCII (0x20-0x7e), the
 * text of nearly every line: none below 0x20 (as in "has a zero byte",
 * with 0x20 for 1), none at 0x7f or above (adding 1 sets the top bit).
 */
static const unsigned char *
skip_plain(const unsigned char *p, size_t len)
{
	const uint64_t ones = 0x0101010101010101ULL, tops = 0x8080808080808080ULL;
	const unsigned char *end = p + len;
	uint64_t x;

	while (end - p >= 8) {
		memcpy(&x, p, 8);
		if (((x - 0x20 * ones) | (x + ones) | x) & tops)
			break;
		p += 8;
	}
	return p;
}

/*
 * The len bytes at s print as they are: eight at a time again after each
 * run that is not plain ASCII (an arrow's UTF-8 in an annotation row).
 */
static bool
text_is_safe_n(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;
	size_t n;

	while ((p = skip_plain(p, (size_t)(end - p))) < end) {
		n = safe_run(p);
		if (n == 0 || n > (size_t)(end - p))
			return false;
		p += n;
	}
	return true;
}

bool
bt_text_is_safe(const char *s)
{
	return text_is_safe_n(s, strlen(s));
}

const char *
bt_text_safe_n(const char *s, size_t len, struct bt_textbuf *tb)
{
	struct bt_strbuf sb;
	const unsigned char *p = (const unsigned char *)s;

	if (s[len] == '\0' && text_is_safe_n(s, len))
		return s;
	sb.buf = tb->buf;
	sb.alloc = tb->alloc;
	sb.len = 0;
	if (sb.buf == NULL || sb.alloc == 0)
		bt_strbuf_init(&sb);
	else
		sb.buf[0] = '\0';
	while (*p) {
		size_t n = safe_run(p);
		if (n == 0) {
			bt_strbuf_addf(&sb, "\\x%02x", *p);
			n = 1;
		} else
			bt_strbuf_add(&sb, p, n);
		p += n;
	}
	tb->buf = sb.buf;
	tb->alloc = sb.alloc;
	tb->len = sb.len;
	return tb->buf;
}

const char *
bt_text_safe(const char *s, struct bt_textbuf *tb)
{
	return bt_text_safe_n(s, strlen(s), tb);
}

void
bt_textbuf_release(struct bt_textbuf *tb)
{
	if (tb->alloc)
		free(tb->buf);
	memset(tb, 0, sizeof(*tb));
}
