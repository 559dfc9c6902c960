/*
 * Unit tests: the per-boot cache of kernel function names (core/symbols/
 * kcache.c, docs/formats.md "Kernel symbol cache"). The cache answers as
 * /proc/kallsyms read live does, for every symbol's start, the byte after
 * it and the addresses between symbols, on this machine's kernel; a file
 * that is truncated, corrupted, someone else's, writable by others or a
 * symbolic link is refused and written again; another boot or other
 * modules write it again; BPF programs, trampolines and modules that are
 * not live are looked up in kallsyms itself (on a made-up kallsyms).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base.h"
#include "symbols/symbols.h"

static char dir[] = "/tmp/t-ksyms.XXXXXX";

/* The cache file's header fields (struct kc_head in kcache.c). */
enum {
	OFF_VERSION = 8,
	OFF_NRANGES = 72,
	OFF_NSYMS = 80,
	OFF_POOL = 88,
	HEAD = 96,
};

static char *
path_in(const char *fmt, ...)
{
	struct bt_strbuf sb = BT_STRBUF_INIT;
	va_list ap;

	bt_strbuf_addf(&sb, "%s/", dir);
	va_start(ap, fmt);
	bt_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return bt_strbuf_detach(&sb, NULL);
}

static void
write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static uint64_t
get_u64(const char *path, off_t off)
{
	uint64_t v = 0;
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &v, 8, off), 8);
	close(fd);
	return v;
}

static void
put(const char *path, off_t off, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY);

	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, data, len, off), (ssize_t)len);
	close(fd);
}

static void
put_u64(const char *path, off_t off, uint64_t v)
{
	put(path, off, &v, 8);
}

/* Both answer alike for addr: found or not, and the same function. */
static void
same_answer(struct bt_ksyms *a, struct bt_ksyms *b, uint64_t addr)
{
	const char *na = NULL, *nb = NULL;
	uint64_t sa = 0, ea = 0, sb = 0, eb = 0;
	int ra = bt_ksyms_find(a, addr, &na, &sa, &ea);
	int rb = bt_ksyms_find(b, addr, &nb, &sb, &eb);

	if (ra != rb || (ra == 0 && (strcmp(na, nb) != 0 || sa != sb || ea != eb)))
		fail_msg("0x%llx: %d %s [%llx, %llx) vs %d %s [%llx, %llx)",
		    (unsigned long long)addr, ra, ra == 0 ? na : "-",
		    (unsigned long long)sa, (unsigned long long)ea, rb,
		    rb == 0 ? nb : "-", (unsigned long long)sb, (unsigned long long)eb);
}

static enum bt_ksyms_from
open_from(const char *cache, const struct bt_ksyms_paths *paths, const char **why)
{
	struct bt_error err = { 0 };
	struct bt_ksyms *k = bt_ksyms_open(cache, paths, &err);
	enum bt_ksyms_from from;

	if (k == NULL)
		fail_msg("bt_ksyms_open: %s", err.msg);
	from = bt_ksyms_info(k)->from;
	if (why != NULL)
		*why = bt_ksyms_info(k)->why;
	bt_ksyms_free(k);
	return from;
}

/* The function symbols of a kallsyms file: addresses, and which are the core kernel's. */
struct fsym {
	uint64_t addr;
	bool core;
};

static int
fsym_cmp(const void *a, const void *b)
{
	const struct fsym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static struct fsym *
func_syms(const char *path, size_t *n)
{
	BT_VEC(struct fsym) v = { NULL, 0, 0 };
	char line[512], type, name[256];
	unsigned long long a;
	size_t i, k;
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		struct fsym s;

		if (sscanf(line, "%llx %c %255s", &a, &type, name) != 3 || a == 0 ||
		    strchr("tTwW", type) == NULL)
			continue;
		s.addr = a;
		s.core = strchr(line, '[') == NULL;
		BT_VEC_PUSH(v, s);
	}
	fclose(f);
	bt_qsort(v.v, v.n, sizeof(*v.v), fsym_cmp);
	for (i = 0, k = 0; i < v.n; i++)
		if (k == 0 || v.v[k - 1].addr != v.v[i].addr)
			v.v[k++] = v.v[i];
		else
			v.v[k - 1].core = v.v[i].core;	/* the last at an address counts */
	*n = k;
	return v.v;
}

/* Start, start + 1, the middle and the last byte before the next, and around. */
static void
probe_all(struct bt_ksyms *a, struct bt_ksyms *b, const struct fsym *s, size_t n,
	  uint64_t lo, uint64_t hi)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t x = s[i].addr, next = i + 1 < n ? s[i + 1].addr : x + 8192;
		uint64_t p[] = { x, x + 1, x + (next - x) / 2, next - 1, x - 1 };
		size_t j;

		for (j = 0; j < BT_ARRAY_SIZE(p); j++)
			if (p[j] >= lo && p[j] < hi)
				same_answer(a, b, p[j]);
	}
}

/* This machine's /proc/kallsyms: the cache answers as the file read live. */
static void
test_same_as_live(void **state)
{
	struct bt_error err = { 0 };
	struct bt_ksyms *live, *cold, *warm;
	char *cache = path_in("same");
	uint64_t core_lo = 0, core_hi = 0;
	struct fsym *s;
	size_t n, i;

	(void)state;
	live = bt_ksyms_load("/proc/kallsyms", &err);
	if (live == NULL) {
		free(cache);
		skip();		/* kptr_restrict, or no /proc/kallsyms */
	}
	cold = bt_ksyms_open(cache, NULL, &err);
	assert_non_null(cold);
	if (bt_ksyms_info(cold)->from == BT_KSYMS_LIVE &&
	    strcmp(bt_ksyms_info(cold)->why, "no boot id") == 0) {
		bt_ksyms_free(cold);
		bt_ksyms_free(live);
		free(cache);
		skip();
	}
	assert_int_equal(bt_ksyms_info(cold)->from, BT_KSYMS_WRITTEN);
	warm = bt_ksyms_open(cache, NULL, &err);
	assert_non_null(warm);
	assert_int_equal(bt_ksyms_info(warm)->from, BT_KSYMS_CACHED);
	assert_null(bt_ksyms_info(warm)->why);
	assert_false(bt_ksyms_info(warm)->read_live);
	assert_true(bt_ksyms_text(warm) == bt_ksyms_text(live));
	assert_true(bt_ksyms_text(cold) == bt_ksyms_text(live));

	s = func_syms("/proc/kallsyms", &n);
	assert_true(n > 0);
	for (i = 0; i < n; i++)
		if (s[i].core) {
			if (core_lo == 0)
				core_lo = s[i].addr;
			core_hi = s[i].addr;
		}
	/* the kernel image's functions, but the last: from the cache alone */
	probe_all(warm, live, s, n, core_lo, core_hi);
	assert_false(bt_ksyms_info(warm)->read_live);
	/* then every address, the rest from kallsyms read again */
	bt_ksyms_free(live);
	live = bt_ksyms_load("/proc/kallsyms", &err);
	assert_non_null(live);
	probe_all(warm, live, s, n, 0, UINT64_MAX);
	probe_all(cold, live, s, n, 0, UINT64_MAX);
	same_answer(warm, live, 0);
	same_answer(warm, live, UINT64_MAX);
	free(s);
	bt_ksyms_free(warm);
	bt_ksyms_free(cold);
	bt_ksyms_free(live);
	free(cache);
}

/* The cache file at cache is refused (why), written again, then used. */
static void
refused(const char *cache, const char *why)
{
	const char *got;

	if (open_from(cache, NULL, &got) != BT_KSYMS_WRITTEN || strcmp(got, why) != 0)
		fail_msg("want refused (%s), got %s", why, got ? got : "a hit");
	assert_int_equal(open_from(cache, NULL, NULL), BT_KSYMS_CACHED);
}

/* Truncated, corrupted, someone else's, writable, a link, a FIFO: refused and rebuilt. */
static void
test_refused(void **state)
{
	struct bt_error err = { 0 };
	struct bt_ksyms *k;
	char *cache = path_in("bad"), *file = path_in("bad/kallsyms");
	char *other = path_in("bad/elsewhere");
	uint64_t nr, ns, pool, a0, a1;
	struct stat st;
	uint32_t o;
	char c;

	(void)state;
	k = bt_ksyms_open(cache, NULL, &err);
	if (k == NULL || bt_ksyms_info(k)->from != BT_KSYMS_WRITTEN) {
		bt_ksyms_free(k);
		free(cache);
		free(file);
		free(other);
		skip();		/* no readable kallsyms, or no boot id */
	}
	bt_ksyms_free(k);
	assert_int_equal(open_from(cache, NULL, NULL), BT_KSYMS_CACHED);
	assert_int_equal(stat(file, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_int_equal(stat(cache, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0700);
	nr = get_u64(file, OFF_NRANGES);
	ns = get_u64(file, OFF_NSYMS);
	pool = get_u64(file, OFF_POOL);
	assert_true(nr > 0 && ns > 2);

	assert_int_equal(truncate(file, 50), 0);
	refused(cache, "truncated");
	assert_int_equal(truncate(file, 0), 0);
	refused(cache, "truncated");
	assert_int_equal(truncate(file, HEAD + (off_t)(nr * 16 + ns * 12 + pool) / 2), 0);
	refused(cache, "sizes do not match the file");
	assert_int_equal(truncate(file, HEAD + (off_t)(nr * 16 + ns * 12 + pool) + 1), 0);
	refused(cache, "sizes do not match the file");
	put(file, 0, "ELF", 3);
	refused(cache, "not a cache file");
	put_u64(file, OFF_VERSION, 2);
	refused(cache, "another version");
	put_u64(file, OFF_NSYMS, ns + 1);
	refused(cache, "sizes do not match the file");
	put_u64(file, OFF_NSYMS, UINT64_MAX / 4);
	refused(cache, "sizes do not match the file");
	/* a range that ends before it starts, one past the addresses */
	put_u64(file, HEAD, get_u64(file, HEAD + 8));
	refused(cache, "ranges out of order");
	put_u64(file, HEAD + (off_t)(nr * 16) - 8, UINT64_MAX);
	refused(cache, "a range outside the addresses");
	/* two addresses swapped */
	a0 = get_u64(file, HEAD + (off_t)(nr * 16) + 8);
	a1 = get_u64(file, HEAD + (off_t)(nr * 16) + 16);
	put_u64(file, HEAD + (off_t)(nr * 16) + 8, a1);
	put_u64(file, HEAD + (off_t)(nr * 16) + 16, a0);
	refused(cache, "addresses out of order");
	/* a name past the pool's end, the last name not terminated */
	o = (uint32_t)pool;
	put(file, HEAD + (off_t)(nr * 16 + ns * 8 + ns * 4) - 4, &o, 4);
	refused(cache, "a name outside the pool");
	c = 'x';
	put(file, HEAD + (off_t)(nr * 16 + ns * 12 + pool) - 1, &c, 1);
	refused(cache, "a name not terminated");

	/* not ours to trust: writable by others, a link, a FIFO, someone else's */
	assert_int_equal(chmod(file, 0620), 0);
	refused(cache, "writable by others");
	assert_int_equal(rename(file, other), 0);
	assert_int_equal(symlink(other, file), 0);
	refused(cache, "a symbolic link");
	assert_int_equal(lstat(file, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(unlink(other), 0);
	assert_int_equal(unlink(file), 0);
	assert_int_equal(mkfifo(file, 0600), 0);
	refused(cache, "not a regular file");
	if (geteuid() == 0) {
		assert_int_equal(chown(file, 1, 1), 0);
		refused(cache, "owned by another user");
		assert_int_equal(stat(file, &st), 0);
		assert_int_equal(st.st_uid, 0);
	}
	free(cache);
	free(file);
	free(other);
}

/*
 * A made-up kernel: the image, a live module (its symbols out of order,
 * as kallsyms lists a module's), a BPF program right after it, a module
 * loading, one /proc/modules does not list, one with a function outside
 * its memory, an ftrace trampoline, tags no module has.
 */
static const char fake_kallsyms[] =
	"0000000000000000 A fixed_percpu_data\n"
	"ffffffff81000000 T _text\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81000100 t core_a\n"
	"ffffffff81000200 T core_b\n"
	"ffffffff81000200 t core_b_alias\n"
	"ffffffff81000300 W core_weak\n"
	"ffffffff81000380 D core_data\n"
	"ffffffff81000400 T _etext\n"
	"ffffffffc0001100 T foo_b\t[foo]\n"
	"ffffffffc0001000 t foo_a\t[foo]\n"
	"ffffffffc0001200 t foo_c\t[foo]\n"
	"ffffffffc0001300 d foo_data\t[foo]\n"
	"ffffffffc0001100 t foo_b_local\t[foo]\n"
	"ffffffffc0002000 t bpf_prog_6deef7357e7b4530_x\t[bpf]\n"
	"ffffffffc0003000 t bar_a\t[bar]\n"
	"ffffffffc0003100 t bar_b\t[bar]\n"
	"ffffffffc0004000 t baz_a\t[baz]\n"
	"ffffffffc0004100 t baz_b\t[baz]\n"
	"ffffffffc0006000 t qux_a\t[qux]\n"
	"ffffffffc0006100 t qux_b\t[qux]\n"
	"ffffffffc0009000 t qux_c\t[qux]\n"
	"ffffffffc000a000 t ftrace_trampoline\t[__builtin__ftrace]\n"
	"ffffffffc000b000 t odd\t[a_tag_longer_than_any_module_name_can_be_"
	"which_is_fifty_five_characters]\n"
	"ffffffffc000c000 t odd2\t[unclosed\n";
static const char fake_modules[] =
	"qux 4096 0 - Live 0xffffffffc0006000\n"
	"bar 8192 0 - Loading 0xffffffffc0003000\n"
	"foo 16384 2 - Live 0xffffffffc0001000 (OE)\n";

struct fake {
	struct bt_ksyms_paths paths;
	char *cache, *kallsyms, *boot_id, *modules, *sysmodule;
};

static void
fake_init(struct fake *f, const char *name)
{
	char *notes;

	f->cache = path_in("%s/cache", name);
	f->kallsyms = path_in("%s/kallsyms", name);
	f->boot_id = path_in("%s/boot_id", name);
	f->modules = path_in("%s/modules", name);
	f->sysmodule = path_in("%s/sys", name);
	notes = path_in("%s", name);
	assert_int_equal(mkdir(notes, 0700), 0);
	free(notes);
	notes = path_in("%s/sys", name);
	assert_int_equal(mkdir(notes, 0700), 0);
	free(notes);
	notes = path_in("%s/sys/foo", name);
	assert_int_equal(mkdir(notes, 0700), 0);
	free(notes);
	notes = path_in("%s/sys/foo/notes", name);
	assert_int_equal(mkdir(notes, 0700), 0);
	free(notes);
	write_file(f->kallsyms, fake_kallsyms);
	write_file(f->boot_id, "6b3b7ad4-5f7d-4a4c-9d57-9c4c0e2f4f10\n");
	write_file(f->modules, fake_modules);
	notes = path_in("%s/sys/foo/notes/.note.gnu.build-id", name);
	write_file(notes, "build-id one");
	free(notes);
	f->paths.kallsyms = f->kallsyms;
	f->paths.boot_id = f->boot_id;
	f->paths.modules = f->modules;
	f->paths.sysmodule = f->sysmodule;
}

static void
fake_release(struct fake *f)
{
	free(f->cache);
	free(f->kallsyms);
	free(f->boot_id);
	free(f->modules);
	free(f->sysmodule);
}

/* Does a fresh hit answer for addr from the cache alone? */
static bool
covered(const struct fake *f, uint64_t addr)
{
	struct bt_error err = { 0 };
	struct bt_ksyms *k = bt_ksyms_open(f->cache, &f->paths, &err);
	const char *name;
	uint64_t start, end;
	bool from_cache;

	assert_non_null(k);
	assert_int_equal(bt_ksyms_info(k)->from, BT_KSYMS_CACHED);
	bt_ksyms_find(k, addr, &name, &start, &end);
	from_cache = !bt_ksyms_info(k)->read_live;
	bt_ksyms_free(k);
	return from_cache;
}

/* What the cache answers for, and that every answer is the live one. */
static void
test_ranges(void **state)
{
	static const struct {
		uint64_t addr;
		bool covered;
	} want[] = {
		{ 0xffffffff80ffffffULL, false },	/* below the image */
		{ 0xffffffff81000000ULL, true },
		{ 0xffffffff81000250ULL, true },	/* core_b_alias */
		{ 0xffffffff81000390ULL, true },	/* core_weak, over core_data */
		{ 0xffffffff81000400ULL, false },	/* _etext: the image's last */
		{ 0xffffffffc0001000ULL, true },	/* foo */
		{ 0xffffffffc00011ffULL, true },
		{ 0xffffffffc0001200ULL, false },	/* foo's last: a BPF program follows */
		{ 0xffffffffc0002010ULL, false },	/* the BPF program */
		{ 0xffffffffc0003050ULL, false },	/* bar, loading */
		{ 0xffffffffc0004050ULL, false },	/* baz, not in /proc/modules */
		{ 0xffffffffc0006050ULL, true },	/* qux */
		{ 0xffffffffc0006150ULL, false },	/* up to qux_c, outside qux */
		{ 0xffffffffc000a000ULL, false },	/* the trampoline */
		{ 0xffffffffc000b000ULL, false },
	};
	struct bt_error err = { 0 };
	struct bt_ksyms *live, *warm;
	struct fake f;
	const char *name;
	uint64_t start, end;
	struct fsym *s;
	size_t i, n;

	(void)state;
	fake_init(&f, "ranges");
	assert_int_equal(open_from(f.cache, &f.paths, NULL), BT_KSYMS_WRITTEN);
	for (i = 0; i < BT_ARRAY_SIZE(want); i++)
		if (covered(&f, want[i].addr) != want[i].covered)
			fail_msg("0x%llx: want %s", (unsigned long long)want[i].addr,
			    want[i].covered ? "from the cache" : "from kallsyms");
	live = bt_ksyms_load(f.kallsyms, &err);
	warm = bt_ksyms_open(f.cache, &f.paths, &err);
	assert_non_null(live);
	assert_non_null(warm);
	assert_int_equal(bt_ksyms_info(warm)->from, BT_KSYMS_CACHED);
	assert_true(bt_ksyms_text(warm) == 0xffffffff81000000ULL);
	assert_int_equal(bt_ksyms_find(warm, 0xffffffff81000210ULL, &name, &start, &end), 0);
	assert_string_equal(name, "core_b_alias");
	assert_true(start == 0xffffffff81000200ULL && end == 0xffffffff81000300ULL);
	assert_int_equal(bt_ksyms_find(warm, 0xffffffffc0001000ULL, &name, &start, &end), 0);
	assert_string_equal(name, "foo_a");
	assert_true(end == 0xffffffffc0001100ULL);
	assert_int_equal(bt_ksyms_find(warm, 0xffffffffc0001150ULL, &name, &start, &end), 0);
	assert_string_equal(name, "foo_b_local");
	assert_true(start == 0xffffffffc0001100ULL && end == 0xffffffffc0001200ULL);
	s = func_syms(f.kallsyms, &n);
	probe_all(warm, live, s, n, 0, UINT64_MAX);
	free(s);
	bt_ksyms_free(warm);
	bt_ksyms_free(live);

	/* kallsyms hides addresses now (kptr_restrict): no answers from the cache either */
	write_file(f.kallsyms, "0000000000000000 T _text\n0000000000000000 t core_a\n");
	assert_null(bt_ksyms_open(f.cache, &f.paths, &err));
	assert_non_null(strstr(err.msg, "lists no addresses"));
	fake_release(&f);
}

/* Another boot, a module loaded, moved or rebuilt: written again; a module used: not. */
static void
test_key(void **state)
{
	struct fake f;
	const char *why;
	char *note;

	(void)state;
	fake_init(&f, "key");
	note = path_in("key/sys/foo/notes/.note.gnu.build-id");
	assert_int_equal(open_from(f.cache, &f.paths, NULL), BT_KSYMS_WRITTEN);
	assert_int_equal(open_from(f.cache, &f.paths, NULL), BT_KSYMS_CACHED);
	write_file(f.boot_id, "0e9b4c55-1d3a-4c1e-8f43-2f0c3b9a1e77\n");
	assert_int_equal(open_from(f.cache, &f.paths, &why), BT_KSYMS_WRITTEN);
	assert_string_equal(why, "for another boot or other modules");
	assert_int_equal(open_from(f.cache, &f.paths, NULL), BT_KSYMS_CACHED);
	/* the reference count and the taint flags are not the key */
	write_file(f.modules, "qux 4096 7 - Live 0xffffffffc0006000\n"
	    "bar 8192 0 - Loading 0xffffffffc0003000\n"
	    "foo 16384 3 qux, Live 0xffffffffc0001000 (OE)\n");
	assert_int_equal(open_from(f.cache, &f.paths, NULL), BT_KSYMS_CACHED);
	write_file(f.modules, "foo 16384 0 - Live 0xffffffffc0001000\n");
	assert_int_equal(open_from(f.cache, &f.paths, &why), BT_KSYMS_WRITTEN);
	assert_string_equal(why, "for another boot or other modules");
	write_file(f.modules, "foo 16384 0 - Live 0xffffffffc0011000\n");
	assert_int_equal(open_from(f.cache, &f.paths, NULL), BT_KSYMS_WRITTEN);
	write_file(f.modules, "foo 16385 0 - Live 0xffffffffc0011000\n");
	assert_int_equal(open_from(f.cache, &f.paths, NULL), BT_KSYMS_WRITTEN);
	assert_int_equal(open_from(f.cache, &f.paths, NULL), BT_KSYMS_CACHED);
	write_file(note, "build-id two");
	assert_int_equal(open_from(f.cache, &f.paths, NULL), BT_KSYMS_WRITTEN);
	assert_int_equal(open_from(f.cache, &f.paths, NULL), BT_KSYMS_CACHED);
	/* no /proc/modules (a kernel without modules) is a key too */
	assert_int_equal(unlink(f.modules), 0);
	assert_int_equal(open_from(f.cache, &f.paths, NULL), BT_KSYMS_WRITTEN);
	assert_int_equal(open_from(f.cache, &f.paths, NULL), BT_KSYMS_CACHED);
	/* no boot id: no cache */
	assert_int_equal(unlink(f.boot_id), 0);
	assert_int_equal(open_from(f.cache, &f.paths, &why), BT_KSYMS_LIVE);
	assert_string_equal(why, "no boot id");
	free(note);
	fake_release(&f);
}

/* Every byte of a small cache file changed: refused, or answers inside the file. */
static void
test_random(void **state)
{
	struct bt_error err = { 0 };
	struct bt_strbuf good = BT_STRBUF_INIT;
	unsigned seed = 11;
	char *file;
	struct fake f;
	size_t i;

	(void)state;
	fake_init(&f, "random");
	file = path_in("random/cache/kallsyms");
	assert_int_equal(open_from(f.cache, &f.paths, NULL), BT_KSYMS_WRITTEN);
	assert_int_equal(bt_strbuf_read_file(&good, file, 0), 0);
	for (i = 0; i < 3 * good.len; i++) {
		struct bt_ksyms *k;
		const char *name;
		uint64_t start, end, a;
		size_t pos = i < good.len ? i : (seed >> 8) % good.len;
		char c = i < good.len ? (char)(good.buf[i] ^ 0x5a) : (char)(seed >> 3);

		seed = seed * 1103515245 + 12345;
		put(file, 0, good.buf, good.len);
		put(file, (off_t)pos, &c, 1);
		k = bt_ksyms_open(f.cache, &f.paths, &err);
		assert_non_null(k);
		for (a = 0xffffffff81000000ULL; a < 0xffffffff81000500ULL; a += 0x40)
			if (bt_ksyms_find(k, a, &name, &start, &end) == 0)
				assert_true(strlen(name) < 64 && start <= a && a < end);
		bt_ksyms_free(k);
	}
	bt_strbuf_release(&good);
	free(file);
	fake_release(&f);
}

/* Where the cache goes, and when there is none. */
static void
test_dir(void **state)
{
	struct fake f;
	const char *why;
	struct stat st;
	char *p, *deep;

	(void)state;
	fake_init(&f, "dir");
	/* missing, and its parent too: both made, 0700 */
	p = path_in("dir/home/.cache/benchtui");
	deep = path_in("dir/home");
	assert_int_equal(mkdir(deep, 0755), 0);
	free(deep);
	assert_int_equal(open_from(p, &f.paths, NULL), BT_KSYMS_WRITTEN);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0700);
	assert_int_equal(open_from(p, &f.paths, NULL), BT_KSYMS_CACHED);
	free(p);
	/* three levels missing: none made, kallsyms read as without a cache */
	p = path_in("dir/a/b/benchtui");
	assert_int_equal(open_from(p, &f.paths, &why), BT_KSYMS_LIVE);
	assert_string_equal(why, "no cache directory of ours");
	assert_int_equal(stat(p, &st), -1);
	free(p);
	/* someone else's directory */
	if (geteuid() == 0) {
		p = path_in("dir/theirs");
		assert_int_equal(mkdir(p, 0777), 0);
		assert_int_equal(chown(p, 1, 1), 0);
		free(p);
		p = path_in("dir/theirs/benchtui");
		assert_int_equal(open_from(p, &f.paths, &why), BT_KSYMS_LIVE);
		assert_string_equal(why, "no cache directory of ours");
		free(p);
	}
	/* no directory: kallsyms as before */
	assert_int_equal(open_from(NULL, &f.paths, &why), BT_KSYMS_LIVE);

	/* $XDG_CACHE_HOME (absolute), else $HOME/.cache */
	setenv("XDG_CACHE_HOME", "/x/cache", 1);
	setenv("HOME", "/h", 1);
	p = bt_user_cache_dir();
	assert_string_equal(p, "/x/cache/benchtui");
	free(p);
	setenv("XDG_CACHE_HOME", "relative", 1);
	p = bt_user_cache_dir();
	assert_string_equal(p, "/h/.cache/benchtui");
	free(p);
	unsetenv("XDG_CACHE_HOME");
	p = bt_user_cache_dir();
	assert_string_equal(p, "/h/.cache/benchtui");
	free(p);
	unsetenv("HOME");
	assert_null(bt_user_cache_dir());
	fake_release(&f);
}

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int
setup(void **state)
{
	(void)state;
	return mkdtemp(dir) == NULL;
}

static int
teardown(void **state)
{
	(void)state;
	return nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_as_live),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_key),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_dir),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
