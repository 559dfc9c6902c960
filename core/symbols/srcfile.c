/*
 * Source files, read once each and split into lines. A file is asked for
 * by the path its debug info (or JIT runtime) recorded; where that path
 * does not hold it, perf's --prefix/--prefix-strip map it, and
 * --source-path's directories and zip archives are searched (docs/jit.md
 * "Finding sources"). Every file is read through bt_strbuf_read_file
 * (regular files only, at most MAX_SOURCE) or the zip reader, which
 * checks the same.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base.h"
#include "symbols/srczip.h"
#include "symbols/symbols.h"

#define MAX_SOURCE (64u << 20)	/* larger files are shown without text */

struct entry {
	struct bt_srcfile f;
	char *data;
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
		free((char *)c->files.v[i]->f.path);
		free(c->files.v[i]->f.lines);
		free(c->files.v[i]->data);
		free(c->files.v[i]);
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

/* Read path into e: true when it is there (a regular file, not too big). */
static bool
read_path(struct entry *e, const char *path)
{
	struct bt_strbuf sb = BT_STRBUF_INIT;
	struct stat st;
	size_t len;

	if (bt_strbuf_read_file(&sb, path, MAX_SOURCE) != 0) {
		bt_strbuf_release(&sb);
		return false;
	}
	e->f.mtime = stat(path, &st) == 0 ? (int64_t)st.st_mtime : 0;
	e->data = bt_strbuf_detach(&sb, &len);
	e->f.nlines = bt_src_index(e->data, len, &e->f.lines);
	return true;
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
