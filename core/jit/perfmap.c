/* perf-PID.map reader: one pass over the lines, names kept in a pool. */
#include <string.h>

#include "base.h"
#include "jit/jit-int.h"
#include "jit/perfmap.h"

struct bt_perfmap {
	BT_VEC(struct bt_perfmap_entry) entries;
	struct bt_perfmap_stats stats;
	struct bt_strpool names;
	struct bt_jit_spans spans;
};

/* A hex number (0x optional) at *p; false when none or it overflows 64 bits. */
static bool
hex(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p;
	int digits = 0, d;

	if (end - s >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	*v = 0;
	while (s < end && (d = bt_hexval((unsigned char)*s)) >= 0) {
		if (*v >> 60)
			return false;
		*v = *v << 4 | (uint64_t)d;
		s++;
		digits++;
	}
	*p = s;
	return digits > 0;
}

static bool
blank(int c)
{
	return c == ' ' || c == '\t';
}

/* Parse one line [s, end) (no newline); false when it is not an entry. */
static bool
parse_line(struct bt_perfmap *m, const char *s, const char *end, size_t lineno)
{
	struct bt_perfmap_entry e;
	uint64_t start, size;

	if (memchr(s, '\0', (size_t)(end - s)) != NULL)
		return false;
	while (s < end && blank(*s))
		s++;
	if (!hex(&s, end, &start) || s == end || !blank(*s))
		return false;
	while (s < end && blank(*s))
		s++;
	if (!hex(&s, end, &size) || s == end || !blank(*s))
		return false;
	while (s < end && blank(*s))
		s++;
	while (end > s && (blank(end[-1]) || end[-1] == '\r'))
		end--;
	if (s == end || start + size < start)
		return false;
	e.start = start;
	e.size = size;
	e.name = bt_strpool_add(&m->names, s, (size_t)(end - s));
	e.line = lineno;
	BT_VEC_PUSH(m->entries, e);
	return true;
}

struct bt_perfmap *
bt_perfmap_open_mem(const void *data, size_t size, struct bt_error *err)
{
	struct bt_perfmap *m = bt_xcalloc(1, sizeof(*m));
	const char *p = data, *end = data != NULL ? p + size : p;
	size_t lineno = 0, i;

	bt_strpool_init(&m->names);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl != NULL ? nl : end;

		lineno++;
		if (nl == NULL)
			m->stats.unterminated = 1;
		if (le == p || (le - p == 1 && *p == '\r')) {
			m->stats.blank++;
		} else if (!parse_line(m, p, le, lineno)) {
			m->stats.bad++;
			if (m->stats.first_bad == 0)
				m->stats.first_bad = lineno;
		}
		p = nl != NULL ? nl + 1 : end;
	}
	m->stats.lines = lineno;
	m->stats.entries = m->entries.n;
	for (i = 0; i < m->entries.n; i++) {
		const struct bt_perfmap_entry *e = &m->entries.v[i];
		bt_jit_spans_add(&m->spans, e->start, e->start + e->size, 0, i, i);
	}
	bt_jit_spans_sort(&m->spans);
	(void)err;
	return m;
}

struct bt_perfmap *
bt_perfmap_open(const char *path, struct bt_error *err)
{
	struct bt_jit_file f;
	struct bt_perfmap *m;

	if (bt_jit_file_map(&f, path, "perf map", err) < 0)
		return NULL;
	m = bt_perfmap_open_mem(f.data, f.size, err);
	bt_jit_file_release(&f);
	return m;
}

void
bt_perfmap_free(struct bt_perfmap *m)
{
	if (m == NULL)
		return;
	BT_VEC_FREE(m->entries);
	bt_strpool_release(&m->names);
	bt_jit_spans_release(&m->spans);
	free(m);
}

const struct bt_perfmap_entry *
bt_perfmap_entries(const struct bt_perfmap *m, size_t *n)
{
	*n = m->entries.n;
	return m->entries.v;
}

const struct bt_perfmap_stats *
bt_perfmap_stats(const struct bt_perfmap *m)
{
	return &m->stats;
}

const struct bt_perfmap_entry *
bt_perfmap_find(const struct bt_perfmap *m, uint64_t addr)
{
	const struct bt_jit_span *sp = bt_jit_spans_find(&m->spans, addr, UINT64_MAX);

	return sp == NULL ? NULL : &m->entries.v[sp->idx];
}
