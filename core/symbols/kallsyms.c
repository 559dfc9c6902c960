/*
 * Kernel function names from /proc/kallsyms, as perf reads them
 * (dso__load_kallsyms): function symbols (t, T, w, W), sorted by address,
 * each ending where the next begins; of several at one address, the last
 * in the file (perf fixes the ends first, then keeps the one with a size).
 *
 * Given a cache directory, through a per-boot cache (kcache.c): the core
 * kernel's and the loaded modules' functions, mapped and searched in
 * place. The cache answers for the address ranges where nothing can appear
 * while its key holds (between the first and last function of the kernel
 * image, of each live module); BPF programs, ftrace trampolines and the
 * like come and go within a boot, so an address outside those ranges is
 * looked up in /proc/kallsyms itself, read then, once.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base.h"
#include "symbols/kcache.h"
#include "symbols/symbols.h"

/* A parsed kallsyms file. */
struct ktable {
	BT_VEC(struct bt_ksym) v;
	struct bt_strbuf text;	/* the file, names NUL-terminated in place */
	uint64_t text_addr;	/* _text, 0 if not listed */
};

struct bt_ksyms {
	struct ktable *table;	/* the file: on a miss, or read later for an
				 * address the cache does not cover */
	struct bt_kcache cache;	/* the mapped cache (cache.map NULL: none) */
	char *kallsyms;		/* the file's path, to read it later */
	bool table_tried;
	struct bt_ksyms_info info;
};

struct run_vec {
	struct bt_kcache_run *v;
	size_t n, alloc;
};

static const struct bt_ksyms_paths sys_paths = {
	.kallsyms = "/proc/kallsyms",
	.boot_id = "/proc/sys/kernel/random/boot_id",
	.modules = "/proc/modules",
	.sysmodule = "/sys/module",
};

static int
ksym_cmp(const void *a, const void *b)
{
	const struct bt_ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* "ADDR TYPE NAME[\t[MODULE]]\n" lines, parsed in place (122k lines here). */
static void
parse(struct ktable *t)
{
	char *p = t->text.buf, *end = p + t->text.len;

	while (p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p)), *name;
		uint64_t a = 0;
		int d, n = 0;
		char type;

		if (nl == NULL)
			nl = end;
		while (p < nl && (d = bt_hexval(*p)) >= 0 && n++ < 16) {
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
			t->text_addr = a;
		if (a != 0 && (type == 't' || type == 'T' || type == 'w' || type == 'W')) {
			struct bt_ksym s;

			s.addr = a;
			s.order = (uint32_t)t->v.n;
			s.name = (uint32_t)(name - t->text.buf);
			BT_VEC_PUSH(t->v, s);
		}
		p = nl + 1;
	}
}

static void
table_free(struct ktable *t)
{
	if (t == NULL)
		return;
	bt_strbuf_release(&t->text);
	BT_VEC_FREE(t->v);
	free(t);
}

static struct ktable *
table_load(const char *path, struct bt_error *err)
{
	struct ktable *t = bt_xcalloc(1, sizeof(*t));
	size_t i, n;
	int ret;

	bt_strbuf_init(&t->text);
	ret = bt_strbuf_read_file(&t->text, path, 256 << 20);
	if (ret < 0) {
		bt_error_errno(err, BT_EACCES, -ret, "cannot read '%s'", path);
		table_free(t);
		return NULL;
	}
	parse(t);
	if (t->v.n == 0) {
		table_free(t);
		bt_error_set(err, BT_EACCES, "'%s' lists no addresses (kernel.kptr_restrict)", path);
		return NULL;
	}
	/* kallsyms lists the image's symbols in order: sort only what is not (~7 ms) */
	for (i = 1; i < t->v.n && t->v.v[i - 1].addr <= t->v.v[i].addr; i++)
		;
	if (i < t->v.n)
		bt_qsort(t->v.v, t->v.n, sizeof(*t->v.v), ksym_cmp);
	/* one symbol per address: the last of the file's */
	for (i = 0, n = 0; i < t->v.n; i++) {
		if (n > 0 && t->v.v[n - 1].addr == t->v.v[i].addr)
			t->v.v[n - 1] = t->v.v[i];
		else
			t->v.v[n++] = t->v.v[i];
	}
	t->v.n = n;
	return t;
}

static int
table_find(const struct ktable *t, uint64_t addr, const char **name,
	   uint64_t *start, uint64_t *end)
{
	size_t lo = 0, hi = t->v.n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (t->v.v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return -1;
	*name = t->text.buf + t->v.v[lo - 1].name;
	*start = t->v.v[lo - 1].addr;
	*end = lo < t->v.n ? t->v.v[lo].addr : *start + 4096;
	return 0;
}

/* The "[module]" after a symbol's name (without brackets), NULL for the core kernel's. */
static const char *
sym_tag(const struct ktable *t, const struct bt_ksym *s, size_t *len)
{
	size_t pos = s->name + strlen(t->text.buf + s->name) + 1;
	const char *tag;

	if (pos >= t->text.len || t->text.buf[pos] != '[')
		return NULL;
	tag = t->text.buf + pos + 1;
	*len = strcspn(tag, "]\n");
	return tag;
}

/*
 * Where a symbol comes from: 0 the kernel image, i + 1 the live module
 * st->mods.v[i] (inside its memory), -1 code that comes and goes within a
 * boot ([bpf], [__builtin__ftrace], modules loading or unloading, or not
 * where /proc/modules puts them).
 */
static long
origin(const struct ktable *t, const struct bt_ksym *s, const struct bt_kstate *st,
       const struct bt_kmodule **last)
{
	const struct bt_kmodule *m = *last;
	const char *tag;
	size_t len;

	tag = sym_tag(t, s, &len);
	if (tag == NULL)
		return 0;
	/* a module's symbols come together: try the last one first */
	if (m == NULL || len >= sizeof(m->name) || strncmp(m->name, tag, len) != 0 ||
	    m->name[len] != '\0')
		m = bt_kstate_module(st, tag, len);
	if (m == NULL)
		return -1;
	*last = m;
	if (!m->live || m->base == 0 || s->addr < m->base || s->addr - m->base >= m->size)
		return -1;
	return (long)(m - st->mods.v) + 1;
}

/*
 * What the cache holds: each run of consecutive symbols of one origin
 * (the kernel image, a live module), answering for [first, last) of it.
 * Nothing can appear inside such a run while the key holds: a module's
 * functions are all in its text, allocated once, and the image is fixed.
 * After a run's last function comes whatever the kernel allocated next
 * (a BPF program can come right after a module's text), which is what
 * ends it: those addresses are looked up in /proc/kallsyms.
 */
static void
cache_runs(const struct ktable *t, const struct bt_kstate *st, struct run_vec *runs)
{
	const struct bt_kmodule *last = NULL;
	size_t i, lo = 0;
	long cur = origin(t, &t->v.v[0], st, &last);

	for (i = 1; i <= t->v.n; i++) {
		long o = i < t->v.n ? origin(t, &t->v.v[i], st, &last) : -2;

		if (o == cur)
			continue;
		if (cur >= 0 && i - 1 > lo) {
			struct bt_kcache_run r = { lo, i - 1 };
			BT_VEC_PUSH(*runs, r);
		}
		lo = i;
		cur = o;
	}
}

/*
 * Does kallsyms show this process addresses (kptr_restrict, CAP_SYSLOG)?
 * The cache must not tell one that it does not: a line with a non-zero
 * address in the first page (per-CPU symbols at 0 can come first).
 */
static bool
shows_addresses(const char *path)
{
	char buf[4096], *p;
	ssize_t n;
	int fd;

	fd = bt_open_regular(path);
	if (fd < 0)
		return false;
	do
		n = read(fd, buf, sizeof(buf) - 1);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	for (p = buf; *p != '\0'; p++) {
		while (*p == '0')
			p++;
		if (isxdigit((unsigned char)*p))
			return true;
		p = strchr(p, '\n');
		if (p == NULL)
			break;
	}
	return false;
}

/* On a miss, the table read: write the cache for this key, if it still holds. */
static void
write_cache(struct bt_ksyms *k, const char *cache_dir, const char *file,
	    const struct bt_ksyms_paths *paths, const struct bt_kstate *st)
{
	struct run_vec runs = { NULL, 0, 0 };
	struct bt_kstate now;
	const char *why = NULL;

	if (bt_private_dir(cache_dir) < 0) {
		k->info.why = "no cache directory of ours";
		return;
	}
	/* modules loaded or unloaded while kallsyms was read: not this key's */
	if (bt_kstate_read(&now, paths) < 0 ||
	    memcmp(&now.key, &st->key, sizeof(now.key)) != 0) {
		bt_kstate_release(&now);
		k->info.why = "the modules changed while kallsyms was read";
		return;
	}
	bt_kstate_release(&now);
	cache_runs(k->table, st, &runs);
	if (bt_kcache_write(file, &st->key, k->table->text_addr, k->table->v.v,
	    k->table->text.buf, runs.v, runs.n, &why) == 0)
		k->info.from = BT_KSYMS_WRITTEN;
	else
		k->info.why = why;
	BT_VEC_FREE(runs);
}

/* Read kallsyms itself, once. */
static struct ktable *
live_table(struct bt_ksyms *k, struct bt_error *err)
{
	if (!k->table_tried) {
		k->table_tried = true;
		k->table = table_load(k->kallsyms, err);
		k->info.read_live = k->table != NULL;
	}
	return k->table;
}

struct bt_ksyms *
bt_ksyms_open(const char *cache_dir, const struct bt_ksyms_paths *paths,
	      struct bt_error *err)
{
	struct bt_ksyms *k = bt_xcalloc(1, sizeof(*k));
	struct bt_kstate st;
	char *file;

	if (paths == NULL)
		paths = &sys_paths;
	k->kallsyms = bt_xstrdup(paths->kallsyms);
	k->info.from = BT_KSYMS_LIVE;
	k->info.why = "no cache directory";
	if (cache_dir == NULL)
		goto live;
	if (bt_kstate_read(&st, paths) < 0) {
		k->info.why = "no boot id";
		goto live;
	}
	file = bt_xasprintf("%s/kallsyms", cache_dir);
	if (bt_kcache_map(&k->cache, file, &st.key, &k->info.why) == 0) {
		if (shows_addresses(paths->kallsyms)) {
			k->info.from = BT_KSYMS_CACHED;
			k->info.why = NULL;
			free(file);
			bt_kstate_release(&st);
			return k;
		}
		/* kallsyms hides them now: as if there were no cache */
		bt_kcache_unmap(&k->cache);
		k->info.why = "kallsyms shows no addresses";
	}
	if (live_table(k, err) != NULL)
		write_cache(k, cache_dir, file, paths, &st);
	free(file);
	bt_kstate_release(&st);
live:
	if (live_table(k, err) == NULL) {
		bt_ksyms_free(k);
		return NULL;
	}
	return k;
}

struct bt_ksyms *
bt_ksyms_load(const char *path, struct bt_error *err)
{
	struct bt_ksyms_paths paths = { .kallsyms = path };

	return bt_ksyms_open(NULL, &paths, err);
}

uint64_t
bt_ksyms_text(const struct bt_ksyms *k)
{
	return k->cache.map != NULL ? k->cache.text : k->table->text_addr;
}

int
bt_ksyms_find(struct bt_ksyms *k, uint64_t addr, const char **name,
	      uint64_t *start, uint64_t *end)
{
	const struct ktable *t;

	if (k->cache.map != NULL &&
	    bt_kcache_find(&k->cache, addr, name, start, end) == 0)
		return 0;
	t = live_table(k, NULL);
	return t != NULL ? table_find(t, addr, name, start, end) : -1;
}

const struct bt_ksyms_info *
bt_ksyms_info(const struct bt_ksyms *k)
{
	return &k->info;
}

void
bt_ksyms_free(struct bt_ksyms *k)
{
	if (k == NULL)
		return;
	bt_kcache_unmap(&k->cache);
	table_free(k->table);
	free(k->kallsyms);
	free(k);
}
