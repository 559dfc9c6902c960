/*
 * Source files inside a zip archive (a JDK's lib/src.zip, a sources jar),
 * for --source-path: the central directory read once and sorted by name,
 * an entry read on demand, stored or deflated (zlib, raw deflate). The
 * archive is hostile input: it is opened as a regular file only, every
 * offset and size is checked against the file, an entry's size against
 * the caller's limit and against what inflate gives; ZIP64 and encrypted
 * entries are not read.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "base.h"
#include "symbols/srczip.h"

#define EOCD_SIG 0x06054b50u
#define CDIR_SIG 0x02014b50u
#define LOCAL_SIG 0x04034b50u
#define EOCD_SIZE 22u
#define CDIR_SIZE 46u
#define LOCAL_SIZE 30u
#define MAX_COMMENT 65535u
#define MAX_CDIR (256u << 20)

struct zentry {
	const char *name;	/* in names */
	const char *tail;	/* name after its first '/' (a JDK module's directory) */
	uint16_t method, flags;
	uint32_t csize, usize, local;
	int64_t mtime;
};

struct bt_srczip {
	int fd;
	uint64_t size;
	char *cdir;		/* the central directory */
	char *names;		/* the entries' names, NUL-terminated */
	struct zentry *by_name, *by_tail;
	size_t n;
};

static uint16_t
le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t
le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(((const struct zentry *)a)->name, ((const struct zentry *)b)->name);
}

static int
tail_cmp(const void *a, const void *b)
{
	return strcmp(((const struct zentry *)a)->tail, ((const struct zentry *)b)->tail);
}

/* DOS date and time -> seconds since the epoch (UTC, as no zone is known). */
static int64_t
dos_time(uint16_t date, uint16_t time)
{
	static const int mdays[] = { 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334 };
	int y = 1980 + (date >> 9), m = (date >> 5) & 15, d = date & 31;
	int64_t days;

	if (m < 1 || m > 12 || d < 1)
		return 0;
	days = (int64_t)(y - 1970) * 365 + (y - 1969) / 4 + mdays[m - 1] + d - 1;
	if (m > 2 && y % 4 == 0)
		days++;
	return days * 86400 + (time >> 11) * 3600 + ((time >> 5) & 63) * 60 +
	    (time & 31) * 2;
}

struct bt_srczip *
bt_srczip_open(const char *path)
{
	uint8_t *tail = NULL;
	struct bt_srczip *z = NULL;
	struct stat st;
	size_t tl, i, off, n, k, np;
	uint32_t cdsize, cdoff;
	long e = -1;
	int fd;

	fd = bt_open_regular(path);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) != 0 || st.st_size < (off_t)EOCD_SIZE)
		goto fail;
	/* the end record: in the last 22 + 65535 bytes */
	tl = (size_t)BT_MIN((uint64_t)st.st_size, (uint64_t)EOCD_SIZE + MAX_COMMENT);
	tail = bt_xmalloc(tl);
	if (bt_pread_all(fd, tail, tl, (uint64_t)st.st_size - tl) < 0)
		goto fail;
	for (i = tl - EOCD_SIZE + 1; i-- > 0;)
		if (le32(tail + i) == EOCD_SIG) {
			e = (long)i;
			break;
		}
	if (e < 0)
		goto fail;
	n = le16(tail + e + 10);
	cdsize = le32(tail + e + 12);
	cdoff = le32(tail + e + 16);
	if (n == 0xffff || cdoff == 0xffffffffu || cdsize > MAX_CDIR ||
	    (uint64_t)cdoff + cdsize > (uint64_t)st.st_size || n > cdsize / CDIR_SIZE)
		goto fail;	/* ZIP64, or sizes that do not fit */
	z = bt_xcalloc(1, sizeof(*z));
	z->fd = fd;
	z->size = (uint64_t)st.st_size;
	z->cdir = bt_xmalloc((size_t)cdsize + 1);
	if (bt_pread_all(fd, z->cdir, cdsize, cdoff) < 0)
		goto fail;
	z->by_name = bt_xcalloc(n + 1, sizeof(*z->by_name));
	z->names = bt_xmalloc((size_t)cdsize + n + 1);
	for (i = 0, off = 0, k = 0, np = 0; i < n; i++) {
		const uint8_t *p = (const uint8_t *)z->cdir + off;
		struct zentry *ze = &z->by_name[k];
		size_t nl, xl, cl;
		const char *slash;

		if (cdsize - off < CDIR_SIZE || le32(p) != CDIR_SIG)
			break;
		nl = le16(p + 28);
		xl = le16(p + 30);
		cl = le16(p + 32);
		if (cdsize - off - CDIR_SIZE < nl + xl + cl)
			break;
		ze->flags = le16(p + 8);
		ze->method = le16(p + 10);
		ze->mtime = dos_time(le16(p + 14), le16(p + 12));
		ze->csize = le32(p + 20);
		ze->usize = le32(p + 24);
		ze->local = le32(p + 42);
		off += CDIR_SIZE + nl + xl + cl;
		if (nl == 0 || memchr(p + CDIR_SIZE, '\0', nl) != NULL)
			continue;
		memcpy(z->names + np, p + CDIR_SIZE, nl);
		z->names[np + nl] = '\0';
		ze->name = z->names + np;
		np += nl + 1;
		slash = strchr(ze->name, '/');
		ze->tail = slash ? slash + 1 : ze->name;
		k++;
	}
	z->n = k;
	free(z->cdir);		/* what is kept of it is in by_name and names */
	z->cdir = NULL;
	bt_qsort(z->by_name, k, sizeof(*z->by_name), name_cmp);
	z->by_tail = bt_xmalloc((k + 1) * sizeof(*z->by_tail));
	memcpy(z->by_tail, z->by_name, k * sizeof(*z->by_tail));
	bt_qsort(z->by_tail, k, sizeof(*z->by_tail), tail_cmp);
	free(tail);
	return z;
fail:
	free(tail);
	if (z != NULL) {
		z->fd = -1;
		bt_srczip_free(z);
	}
	close(fd);
	return NULL;
}

void
bt_srczip_free(struct bt_srczip *z)
{
	if (z == NULL)
		return;
	if (z->fd >= 0)
		close(z->fd);
	free(z->cdir);
	free(z->names);
	free(z->by_name);
	free(z->by_tail);
	free(z);
}

static const struct zentry *
find(const struct bt_srczip *z, const char *name)
{
	struct zentry key;
	const struct zentry *e;

	key.name = key.tail = name;
	e = bsearch(&key, z->by_name, z->n, sizeof(key), name_cmp);
	if (e == NULL)	/* "java.base/java/lang/Integer.java" for "java/lang/Integer.java" */
		e = bsearch(&key, z->by_tail, z->n, sizeof(key), tail_cmp);
	return e;
}

int
bt_srczip_read(struct bt_srczip *z, const char *name, size_t max, char **data,
	       size_t *len, int64_t *mtime)
{
	const struct zentry *e = find(z, name);
	uint8_t lh[LOCAL_SIZE];
	uint64_t doff;
	uint8_t *comp = NULL;
	char *out = NULL;
	z_stream zs;

	if (e == NULL)
		return -BT_ENOENT;
	if (e->flags & 1 || (e->method != 0 && e->method != 8) ||
	    e->usize > max || (e->method == 0 && e->csize != e->usize))
		return -BT_EFORMAT;	/* encrypted, another method, too big */
	if ((uint64_t)e->local + LOCAL_SIZE > z->size ||
	    bt_pread_all(z->fd, lh, LOCAL_SIZE, e->local) < 0 || le32(lh) != LOCAL_SIG)
		return -BT_EFORMAT;
	doff = (uint64_t)e->local + LOCAL_SIZE + le16(lh + 26) + le16(lh + 28);
	if (doff + e->csize > z->size)
		return -BT_EFORMAT;
	comp = bt_xmalloc((size_t)e->csize + 1);
	out = bt_xmalloc((size_t)e->usize + 1);
	if (bt_pread_all(z->fd, comp, e->csize, doff) < 0)
		goto bad;
	if (e->method == 0) {
		memcpy(out, comp, e->csize);
	} else {
		int r;

		memset(&zs, 0, sizeof(zs));
		if (inflateInit2(&zs, -MAX_WBITS) != Z_OK)
			goto bad;
		zs.next_in = comp;
		zs.avail_in = e->csize;
		zs.next_out = (Bytef *)out;
		zs.avail_out = e->usize;
		r = inflate(&zs, Z_FINISH);
		inflateEnd(&zs);
		if (r != Z_STREAM_END || zs.total_out != e->usize)
			goto bad;
	}
	out[e->usize] = '\0';
	free(comp);
	*data = out;
	*len = e->usize;
	*mtime = e->mtime;
	return 0;
bad:
	free(comp);
	free(out);
	return -BT_EFORMAT;
}
