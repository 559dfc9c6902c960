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
	size_t order;
	char *name;
};

struct bt_ksyms {
	BT_VEC(struct ksym) v;
	uint64_t text;		/* _text, 0 if not listed */
};

static int
ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

struct bt_ksyms *
bt_ksyms_load(const char *path, struct bt_error *err)
{
	struct bt_ksyms *k;
	char line[1024];
	size_t i, n;
	FILE *f;
	int fd = bt_open_regular(path);

	if (fd < 0) {
		bt_error_errno(err, BT_EACCES, -fd, "cannot read '%s'", path);
		return NULL;
	}
	f = fdopen(fd, "re");
	if (f == NULL) {
		close(fd);
		bt_error_errno(err, BT_EIO, errno, "cannot read '%s'", path);
		return NULL;
	}
	k = bt_xcalloc(1, sizeof(*k));
	while (fgets(line, sizeof(line), f) != NULL) {
		unsigned long long a;
		char type, name[512];
		struct ksym s;

		if (sscanf(line, "%llx %c %511s", &a, &type, name) != 3)
			continue;
		if (strcmp(name, "_text") == 0)
			k->text = a;
		if (a == 0 || (type != 't' && type != 'T' && type != 'w' && type != 'W'))
			continue;
		s.addr = a;
		s.order = k->v.n;
		s.name = bt_xstrdup(name);
		BT_VEC_PUSH(k->v, s);
	}
	fclose(f);
	if (k->v.n == 0) {
		bt_ksyms_free(k);
		bt_error_set(err, BT_EACCES, "'%s' lists no addresses (kernel.kptr_restrict)", path);
		return NULL;
	}
	bt_qsort(k->v.v, k->v.n, sizeof(*k->v.v), ksym_cmp);
	/* one symbol per address: the last of the file's */
	for (i = 0, n = 0; i < k->v.n; i++) {
		if (n > 0 && k->v.v[n - 1].addr == k->v.v[i].addr) {
			free(k->v.v[n - 1].name);
			k->v.v[n - 1] = k->v.v[i];
		} else
			k->v.v[n++] = k->v.v[i];
	}
	k->v.n = n;
	return k;
}

uint64_t
bt_ksyms_text(const struct bt_ksyms *k)
{
	return k->text;
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
	*name = k->v.v[lo - 1].name;
	*start = k->v.v[lo - 1].addr;
	*end = lo < k->v.n ? k->v.v[lo].addr : *start + 4096;
	return 0;
}

void
bt_ksyms_free(struct bt_ksyms *k)
{
	size_t i;

	if (k == NULL)
		return;
	for (i = 0; i < k->v.n; i++)
		free(k->v.v[i].name);
	BT_VEC_FREE(k->v);
	free(k);
}
