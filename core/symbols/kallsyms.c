/*
 * Kernel function names from /proc/kallsyms, as perf reads them
 * (dso__load_kallsyms): function symbols (t, T, w, W), sorted by address,
 * each ending where the next begins; of several at one address, the last
 * in the file (perf fixes the ends first, then keeps the one with a size).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base.h"
#include "symbols/symbols.h"

struct ksym {
	uint64_t addr;
	uint32_t order;
	uint32_t name;		/* offset in text */
};

struct bt_ksyms {
	BT_VEC(struct ksym) v;
	struct bt_strbuf text;	/* the file, names NUL-terminated in place */
	uint64_t text_addr;	/* _text, 0 if not listed */
};

static int
ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* "ADDR TYPE NAME[\t[MODULE]]\n" lines, parsed in place (122k lines here). */
static void
parse(struct bt_ksyms *k)
{
	char *p = k->text.buf, *end = p + k->text.len;

	while (p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p)), *name;
		uint64_t a = 0;
		int d, n = 0;
		char type;

		if (nl == NULL)
			nl = end;
		while (p < nl && (d = hexval(*p)) >= 0 && n++ < 16) {
			a = a << 4 | (uint64_t)d;
			p++;
		}
		if (p + 3 > nl || p[0] != ' ' || p[2] != ' ') {
			p = nl + 1;
			continue;
		}
		type = p[1];
		name = p + 3;
		p = name + strcspn(name, " \t\n");
		if (p > nl)
			p = nl;
		*p = '\0';
		if (strcmp(name, "_text") == 0)
			k->text_addr = a;
		if (a != 0 && (type == 't' || type == 'T' || type == 'w' || type == 'W')) {
			struct ksym s;

			s.addr = a;
			s.order = (uint32_t)k->v.n;
			s.name = (uint32_t)(name - k->text.buf);
			BT_VEC_PUSH(k->v, s);
		}
		p = nl + 1;
	}
}

struct bt_ksyms *
bt_ksyms_load(const char *path, struct bt_error *err)
{
	struct bt_ksyms *k = bt_xcalloc(1, sizeof(*k));
	size_t i, n;
	int ret;

	bt_strbuf_init(&k->text);
	ret = bt_strbuf_read_file(&k->text, path, 256 << 20);
	if (ret < 0) {
		bt_error_errno(err, BT_EACCES, -ret, "cannot read '%s'", path);
		bt_ksyms_free(k);
		return NULL;
	}
	parse(k);
	if (k->v.n == 0) {
		bt_ksyms_free(k);
		bt_error_set(err, BT_EACCES, "'%s' lists no addresses (kernel.kptr_restrict)", path);
		return NULL;
	}
	bt_qsort(k->v.v, k->v.n, sizeof(*k->v.v), ksym_cmp);
	/* one symbol per address: the last of the file's */
	for (i = 0, n = 0; i < k->v.n; i++) {
		if (n > 0 && k->v.v[n - 1].addr == k->v.v[i].addr)
			k->v.v[n - 1] = k->v.v[i];
		else
			k->v.v[n++] = k->v.v[i];
	}
	k->v.n = n;
	return k;
}

uint64_t
bt_ksyms_text(const struct bt_ksyms *k)
{
	return k->text_addr;
}

int
bt_ksyms_find(const struct bt_ksyms *k, uint64_t addr, const char **name,
	      uint64_t *start, uint64_t *end)
{
	size_t lo = 0, hi = k->v.n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (k->v.v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return -1;
	*name = k->text.buf + k->v.v[lo - 1].name;
	*start = k->v.v[lo - 1].addr;
	*end = lo < k->v.n ? k->v.v[lo].addr : *start + 4096;
	return 0;
}

void
bt_ksyms_free(struct bt_ksyms *k)
{
	if (k == NULL)
		return;
	bt_strbuf_release(&k->text);
	BT_VEC_FREE(k->v);
	free(k);
}
