/* The JIT sources of a recording, by process (jitset.h). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base.h"
#include "jit/jitset.h"
#include "jit/perfmap.h"

struct src {
	struct bt_jit_src pub;
	char *path;
	struct bt_jitdump *jd;
	struct bt_perfmap *map;
	struct bt_jitinline *inl;
	char *inl_path;
};

struct bt_jitset {
	BT_VEC(struct src) v;
};

struct bt_jitset *
bt_jitset_new(void)
{
	return bt_xcalloc(1, sizeof(struct bt_jitset));
}

void
bt_jitset_free(struct bt_jitset *js)
{
	size_t i;

	if (js == NULL)
		return;
	for (i = 0; i < js->v.n; i++) {
		bt_jitdump_free(js->v.v[i].jd);
		bt_perfmap_free(js->v.v[i].map);
		bt_jitinline_free(js->v.v[i].inl);
		free(js->v.v[i].inl_path);
		free(js->v.v[i].path);
	}
	BT_VEC_FREE(js->v);
	free(js);
}

/* Who wrote a jitdump: V8 and Dart mark the header; the names tell the rest. */
static const char *
runtime_of(struct bt_jitdump *jd)
{
	const struct bt_jitdump_header *h = bt_jitdump_header(jd);
	const struct bt_jit_load *l;
	size_t n, i;

	l = bt_jitdump_loads(jd, &n);
	for (i = 0; i < n && i < 4096; i++) {
		if (strncmp(l[i].name, "JS:", 3) == 0 ||
		    strncmp(l[i].name, "Builtin:", 8) == 0)
			return "V8";
		if (strcmp(l[i].name, "Interpreter") == 0 ||
		    strstr(l[i].name, " [c2 ") || strstr(l[i].name, " [c1 "))
			return "HotSpot";
	}
	if (h->reserved == BT_JITDUMP_V8_RESERVED)
		return "Dart";
	return "a JIT runtime";
}

/*
 * The inline file beside a dump: "DIR/jit-PID.dump" -> "DIR/jit-PID.inline"
 * (benchtui's agent writes both). Only a regular file; none is no error.
 */
static void
open_inline(struct src *s, const char *path)
{
	struct bt_error err = { 0 };
	size_t n = strlen(path);
	struct stat st;
	char *ip;

	if (n < 5 || strcmp(path + n - 5, ".dump") != 0)
		return;
	ip = bt_xasprintf("%.*s.inline", (int)(n - 5), path);
	if (stat(ip, &st) == 0 && S_ISREG(st.st_mode) &&
	    (s->inl = bt_jitinline_open(ip, &err)) != NULL) {
		s->inl_path = ip;
		s->pub.inline_path = ip;
		return;
	}
	free(ip);
}

long
bt_jitset_add(struct bt_jitset *js, enum bt_jit_src_kind kind, uint32_t pid,
	      const char *path, bool times, struct bt_error *err)
{
	struct src s;

	memset(&s, 0, sizeof(s));
	if (kind == BT_JIT_SRC_DUMP) {
		s.jd = bt_jitdump_open(path, err);
		if (s.jd == NULL)
			return -BT_EIO;
		bt_jitdump_loads(s.jd, &s.pub.entries);
		s.pub.runtime = runtime_of(s.jd);
		s.pub.times = times && !(bt_jitdump_header(s.jd)->flags &
		    BT_JITDUMP_FLAGS_ARCH_TIMESTAMP);
		open_inline(&s, path);
	} else {
		s.map = bt_perfmap_open(path, err);
		if (s.map == NULL)
			return -BT_EIO;
		bt_perfmap_entries(s.map, &s.pub.entries);
		s.pub.runtime = "a perf map";
	}
	s.path = bt_xstrdup(path);
	s.pub.path = s.path;
	s.pub.pid = pid;
	s.pub.kind = kind;
	BT_VEC_PUSH(js->v, s);
	return (long)(js->v.n - 1);
}

size_t
bt_jitset_nsrcs(const struct bt_jitset *js)
{
	return js ? js->v.n : 0;
}

struct bt_jit_src *
bt_jitset_src(struct bt_jitset *js, size_t i)
{
	return &js->v.v[i].pub;
}

static bool
find_in(const struct src *s, size_t si, uint64_t addr, uint64_t time,
	struct bt_jit_code *out)
{
	memset(out, 0, sizeof(*out));
	out->src = si;
	if (s->jd != NULL) {
		const struct bt_jit_load *l, *base;
		size_t n;
		uint64_t start;

		l = bt_jitdump_find(s->jd, addr, s->pub.times ? time : UINT64_MAX,
		    &start);
		if (l == NULL)
			return false;
		base = bt_jitdump_loads(s->jd, &n);
		out->idx = (size_t)(l - base);
		out->name = l->name;
		out->start = start;
		out->size = l->code_size;
		out->code = l->code;
		out->lines = l->lines;
		out->nlines = l->nlines;
		out->load_addr = l->code_addr;
		out->time = l->time;
		out->e_machine = bt_jitdump_header(s->jd)->elf_mach;
		out->inl = bt_jitinline_find(s->inl, l->code_index, l->code_addr);
		return true;
	} else {
		const struct bt_perfmap_entry *e = bt_perfmap_find(s->map, addr), *base;
		size_t n;

		if (e == NULL)
			return false;
		base = bt_perfmap_entries(s->map, &n);
		out->idx = (size_t)(e - base);
		out->name = e->name;
		out->start = out->load_addr = e->start;
		out->size = e->size;
		out->e_machine = 0;
		return true;
	}
}

bool
bt_jitset_find_in(const struct bt_jitset *js, size_t src, uint64_t addr,
		  uint64_t time, struct bt_jit_code *out)
{
	return src < js->v.n && find_in(&js->v.v[src], src, addr, time, out);
}

const struct bt_jit_load *
bt_jitset_loads(const struct bt_jitset *js, size_t src, size_t *n)
{
	*n = 0;
	if (js == NULL || src >= js->v.n || js->v.v[src].jd == NULL)
		return NULL;
	return bt_jitdump_loads(js->v.v[src].jd, n);
}
