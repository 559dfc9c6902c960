/* Source files, read once each and split into lines. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base.h"
#include "symbols/symbols.h"

#define MAX_SOURCE (64u << 20)	/* larger files are shown without text */

struct entry {
	struct bt_srcfile f;
	char *data;
};

struct bt_srccache {
	BT_VEC(struct entry *) files;
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
	free(c);
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

const struct bt_srcfile *
bt_srccache_get(struct bt_srccache *c, const char *path)
{
	struct bt_strbuf sb = BT_STRBUF_INIT;
	struct entry *e;
	size_t i, len;

	for (i = 0; i < c->files.n; i++)
		if (strcmp(c->files.v[i]->f.path, path) == 0)
			return &c->files.v[i]->f;
	e = bt_xcalloc(1, sizeof(*e));
	e->f.path = bt_xstrdup(path);
	{
		struct stat st;
		if (stat(path, &st) == 0)
			e->f.mtime = (int64_t)st.st_mtime;
	}
	if (bt_strbuf_read_file(&sb, path, MAX_SOURCE) == 0) {
		e->data = bt_strbuf_detach(&sb, &len);
		e->f.nlines = bt_src_index(e->data, len, &e->f.lines);
	} else {
		e->f.missing = true;
		bt_strbuf_release(&sb);
	}
	BT_VEC_PUSH(c->files, e);
	return &e->f;
}
