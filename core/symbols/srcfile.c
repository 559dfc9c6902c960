/*
 * Source files, indexed once each by line. A file is asked for by the
 * path its debug info (or JIT runtime) recorded; where that path does not
 * hold it, perf's --prefix/--prefix-strip map it, and --source-path's
 * directories and zip archives are searched (docs/jit.md "Finding
 * sources"). Every file is read through bt_open_regular (regular files
 * only, at most MAX_SOURCE), its lines again as they are asked for, or
 * through the zip reader, which checks the same and gives it whole.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base.h"
#include "symbols/srczip.h"
#include "symbols/symbols.h"

#define MAX_SOURCE (64u << 20)	/* larger files are shown without text */

/*
 * A file read whole (a zip archive's entry) has its lines split in place
 * in data. A regular file is read once through a small buffer for where
 * its lines start, and each line is read again when asked for, through a
 * window of the file, and kept (f.lines, filled as asked): an 18 MB
 * generated file (100,000 functions) whose one function a screen shows
 * is not held whole.
 */
#define WINDOW (256u << 10)

struct entry {
	struct bt_srcfile f;
	char *data;
	char *read_from;		/* regular files: the path read */
	uint32_t *start;		/* each line's first byte */
	uint32_t last_end;		/* the last line's end ('\n' or the file's) */
	uint64_t size;
	char *win;			/* bytes [win_at, win_at + win_len) of the file */
	uint64_t win_at;
	size_t win_len;
	struct bt_strpool pool;		/* the lines asked for */
};

struct srcdir {
	char *path;
	struct bt_srczip *zip;	/* the entry is a zip archive */
	bool is_dir;
};

struct bt_srccache {
	BT_VEC(struct entry *) files;
	BT_VEC(struct srcdir) dirs;
	char *prefix;
	unsigned strip;
};

struct bt_srccache *
bt_srccache_new(void)
{
	return bt_xcalloc(1, sizeof(struct bt_srccache));
}

void
bt_srccache_free(struct bt_srccache *c)
{
	size_t i;

	if (c == NULL)
		return;
	for (i = 0; i < c->files.n; i++) {
		struct entry *e = c->files.v[i];
		free((char *)e->f.path);
		free(e->f.lines);
		free(e->data);
		free(e->read_from);
		free(e->start);
		free(e->win);
		bt_strpool_release(&e->pool);
		free(e);
	}
	BT_VEC_FREE(c->files);
	for (i = 0; i < c->dirs.n; i++) {
		free(c->dirs.v[i].path);
		bt_srczip_free(c->dirs.v[i].zip);
	}
	BT_VEC_FREE(c->dirs);
	free(c->prefix);
	free(c);
}

void
bt_srccache_set_paths(struct bt_srccache *c, const char *dirs,
		      const char *prefix, unsigned strip)
{
	const char *p = dirs;

	free(c->prefix);
	c->prefix = prefix && prefix[0] ? bt_xstrdup(prefix) : NULL;
	c->strip = strip;
	while (p != NULL && *p != '\0') {
		const char *end = strchr(p, ':');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		struct srcdir d = { 0 };
		struct stat st;

		if (n > 0) {
			d.path = bt_xstrndup(p, n);
			if (stat(d.path, &st) == 0 && S_ISDIR(st.st_mode))
				d.is_dir = true;
			else if (stat(d.path, &st) == 0 && S_ISREG(st.st_mode))
				d.zip = bt_srczip_open(d.path);
			BT_VEC_PUSH(c->dirs, d);
		}
		p = end ? end + 1 : NULL;
	}
}

/*
 * Index path into e: true when it is there (a regular file, not too
 * big). Where each line starts, as bt_src_index splits: at 0, and after
 * each '\n' but one that ends the file.
 */
static bool
read_path(struct entry *e, const char *path)
{
	char buf[65536];
	const char *p, *end, *nl;
	struct stat st;
	uint64_t pos = 0;
	size_t n = 0, alloc = 0;
	bool nl_last = false;
	ssize_t got;
	int fd = bt_open_regular(path);

	if (fd < 0)
		return false;
	for (;;) {
		got = read(fd, buf, sizeof(buf));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		p = buf;
		end = buf + got;
		if (pos == 0 || nl_last) {	/* a line starts the chunk */
			BT_ALLOC_GROW(e->start, n + 1, alloc);
			e->start[n++] = (uint32_t)pos;
		}
		while ((nl = memchr(p, '\n', (size_t)(end - p))) != NULL && nl + 1 < end) {
			BT_ALLOC_GROW(e->start, n + 1, alloc);
			e->start[n++] = (uint32_t)(pos + (uint64_t)(nl + 1 - buf));
			p = nl + 1;
		}
		nl_last = end[-1] == '\n';
		pos += (uint64_t)got;
		if (pos > MAX_SOURCE) {
			got = -1;
			break;
		}
	}
	if (got < 0 || fstat(fd, &st) != 0) {
		close(fd);
		free(e->start);
		e->start = NULL;
		return false;
	}
	close(fd);
	e->f.mtime = (int64_t)st.st_mtime;
	e->size = pos;
	e->last_end = (uint32_t)(nl_last ? pos - 1 : pos);
	e->read_from = bt_xstrdup(path);
	e->f.nlines = n;
	e->f.lines = bt_xcalloc(n + 1, sizeof(*e->f.lines));	/* filled as asked */
	bt_strpool_init(&e->pool);
	return true;
}

/* Bytes [at, at + len) of e's file in its window; NULL when they cannot be read. */
static const char *
window(struct entry *e, uint64_t at, size_t len)
{
	uint64_t from = at > WINDOW / 2 ? at - WINDOW / 2 : 0;	/* lines before it too */
	size_t want = (size_t)(at - from) + BT_MAX(len, (size_t)WINDOW / 2), got = 0;
	int fd;

	if (e->win != NULL && at >= e->win_at && at + len <= e->win_at + e->win_len)
		return e->win + (at - e->win_at);
	if (from + want > e->size)
		want = (size_t)(e->size - from);
	if (from + want < at + len || (fd = bt_open_regular(e->read_from)) < 0)
		return NULL;
	free(e->win);
	e->win = bt_xmalloc(want + 1);
	e->win_at = from;
	while (got < want) {
		ssize_t r = pread(fd, e->win + got, want - got, (off_t)(from + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	e->win_len = got;
	return from + got >= at + len ? e->win + (at - from) : NULL;
}

const char *
bt_srcfile_line(const struct bt_srcfile *sf, size_t line)
{
	struct entry *e = (struct entry *)sf;	/* f is an entry's first member */
	uint64_t at, end;
	const char *p;

	if (sf->missing || line == 0 || line > sf->nlines)
		return NULL;
	if (sf->lines[line - 1] != NULL || e->start == NULL)
		return sf->lines[line - 1];
	at = e->start[line - 1];
	end = line < sf->nlines ? e->start[line] - 1 : e->last_end;
	p = window(e, at, (size_t)(end - at));
	if (p == NULL)	/* changed since it was read: no text */
		return e->f.lines[line - 1] = "";
	if (end > at && p[end - at - 1] == '\r')
		end--;
	return e->f.lines[line - 1] = bt_strpool_add(&e->pool, p, (size_t)(end - at));
}

/*
 * perf annotate's --prefix/--prefix-strip (objdump's): an absolute path
 * with its first strip directories taken off, under prefix; NULL when
 * not mapped.
 */
static char *
prefixed(const struct bt_srccache *c, const char *path)
{
	const char *rest = path;
	unsigned k;

	if (c->prefix == NULL || path[0] != '/')
		return NULL;
	for (k = 0; k < c->strip; k++) {
		const char *slash = strchr(rest + 1, '/');
		if (slash == NULL)
			return NULL;
		rest = slash;
	}
	return bt_xasprintf("%s%s%s", c->prefix,
	    c->prefix[strlen(c->prefix) - 1] == '/' ? "" : "/", rest + 1);
}

/* rel (a relative path) in source directory d, Java's layouts too. */
static bool
read_in(struct entry *e, const struct srcdir *d, const char *rel)
{
	static const char *const java[] = { "", "src/main/java/", "src/test/java/", "src/" };
	size_t k, len = strlen(rel);

	if (d->zip != NULL) {
		size_t dlen;
		if (bt_srczip_read(d->zip, rel, MAX_SOURCE, &e->data, &dlen,
		    &e->f.mtime) != 0)
			return false;
		e->f.nlines = bt_src_index(e->data, dlen, &e->f.lines);
		return true;
	}
	if (!d->is_dir)
		return false;
	for (k = 0; k < BT_ARRAY_SIZE(java); k++) {
		char *p;
		bool ok;

		if (k > 0 && (len < 5 || strcmp(rel + len - 5, ".java") != 0))
			break;
		p = bt_xasprintf("%s/%s%s", d->path, java[k], rel);
		ok = read_path(e, p);
		free(p);
		if (ok)
			return true;
	}
	return false;
}

/*
 * Where the recorded path does not hold the file: in each --source-path
 * entry, a relative path as it is; an absolute one by its tails, longest
 * first ("/build/x/src/a.c": "build/x/src/a.c", "x/src/a.c", "src/a.c",
 * "a.c"), every entry tried for a tail before a shorter one.
 */
static bool
search(const struct bt_srccache *c, struct entry *e, const char *path)
{
	const char *rel = path;
	size_t i;

	if (c->dirs.n == 0)
		return false;
	while (*rel == '/')
		rel++;
	while (*rel != '\0') {
		const char *slash;

		for (i = 0; i < c->dirs.n; i++)
			if (read_in(e, &c->dirs.v[i], rel))
				return true;
		if (path[0] != '/' || (slash = strchr(rel, '/')) == NULL)
			break;
		rel = slash + 1;
	}
	return false;
}

size_t
bt_src_index(char *data, size_t len, const char ***lines)
{
	size_t n = 0, alloc = 0;
	char *p = data, *end = data + len;

	*lines = NULL;
	while (p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		char *eol = nl ? nl : end;
		if (eol > p && eol[-1] == '\r')
			eol[-1] = '\0';
		*eol = '\0';	/* data has one spare byte at end */
		BT_ALLOC_GROW(*lines, n + 1, alloc);
		(*lines)[n++] = p;
		p = eol + 1;
	}
	return n;
}

/*
 * A file: URL's path, its %XX escapes decoded (node names ES modules'
 * scripts "file:///dir/x.mjs"; "file://localhost/..." too); NULL for
 * anything else.
 */
static char *
url_path(const char *path)
{
	char *out, *q;

	if (strncmp(path, "file://", 7) != 0)
		return NULL;
	path += 7;
	if (strncmp(path, "localhost/", 10) == 0)
		path += 9;
	if (path[0] != '/')
		return NULL;
	out = q = bt_xstrdup(path);
	for (; *path; path++) {
		unsigned v;

		if (path[0] == '%' && sscanf(path + 1, "%2x", &v) == 1 &&
		    isxdigit((unsigned char)path[1]) && isxdigit((unsigned char)path[2]) &&
		    v != 0) {
			*q++ = (char)v;
			path += 2;
		} else
			*q++ = *path;
	}
	*q = '\0';
	return out;
}

const struct bt_srcfile *
bt_srccache_get(struct bt_srccache *c, const char *path)
{
	struct entry *e;
	size_t i;
	char *url;

	for (i = 0; i < c->files.n; i++)
		if (strcmp(c->files.v[i]->f.path, path) == 0)
			return &c->files.v[i]->f;
	e = bt_xcalloc(1, sizeof(*e));
	e->f.path = bt_xstrdup(path);
	if ((url = url_path(path)) != NULL)
		path = url;	/* read, and mapped or searched, as the path it names */
	{
		char *mapped = prefixed(c, path);
		bool ok = (mapped != NULL && read_path(e, mapped)) ||
		    read_path(e, path) || search(c, e, path);

		free(mapped);
		if (!ok)
			e->f.missing = true;
	}
	free(url);
	BT_VEC_PUSH(c->files, e);
	return &e->f;
}
