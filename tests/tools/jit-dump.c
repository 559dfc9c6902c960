/*
 * jit-dump: print what benchtui's JIT readers parsed, for the tests
 * (compared with the jitted-PID-N.so files of `perf inject --jit`).
 *   jit-dump dump FILE             header, counts, parse time, one line per load
 *   jit-dump dump FILE loads       "code_index code_addr code_size nlines name"
 *   jit-dump dump FILE lines       "code_index addr offset line discrim file"
 *   jit-dump dump FILE moves       "code_index old new size load"
 *   jit-dump dump FILE code DIR    write DIR/CODE_INDEX.bin, the code bytes of each load
 *   jit-dump dump FILE hex         "code_index HEX" (the code bytes of each load)
 *   jit-dump dump FILE find ADDR [TIME]   the load covering ADDR
 *   jit-dump dump FILE findall     for each "TIME ADDR" line of stdin (decimal
 *                                  ns, hex address), "TIME ADDR CODE_INDEX" or
 *                                  "TIME ADDR none"
 *   jit-dump map FILE              counts, then "start size line name" per entry
 *   jit-dump map FILE find ADDR
 * Exit 2 when the file cannot be read, 3 when it was damaged (everything
 * before the damage is printed).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "jit/jitdump.h"
#include "jit/perfmap.h"

static int
write_code(const char *dir, const struct bt_jit_load *l)
{
	char *path = bt_xasprintf("%s/%" PRIu64 ".bin", dir, l->code_index);
	FILE *f = fopen(path, "wb");
	int ret = 0;

	if (f == NULL || fwrite(l->code, 1, l->code_size, f) != l->code_size) {
		fprintf(stderr, "jit-dump: cannot write %s\n", path);
		ret = -1;
	}
	if (f != NULL)
		fclose(f);
	free(path);
	return ret;
}

static int
dump(const char *path, const char *mode, char **args, int nargs)
{
	struct bt_error err = { 0 };
	const struct bt_jitdump_header *h;
	const struct bt_jitdump_stats *st;
	const struct bt_jit_load *l;
	const struct bt_jit_move *mv;
	struct bt_jitdump *jd;
	double t0 = bt_now(), t1;
	size_t i, j, n, nm;

	jd = bt_jitdump_open(path, &err);
	t1 = bt_now();
	if (jd == NULL) {
		fprintf(stderr, "jit-dump: %s\n", err.msg);
		return 2;
	}
	h = bt_jitdump_header(jd);
	st = bt_jitdump_stats(jd);
	l = bt_jitdump_loads(jd, &n);
	mv = bt_jitdump_moves(jd, &nm);
	if (strcmp(mode, "summary") == 0) {
		printf("version %u header_size %u elf_mach %u reserved %#x pid %u timestamp %" PRIu64
		    " flags %#" PRIx64 " swapped %d\n", h->version, h->header_size,
		    h->elf_mach, h->reserved, h->pid, h->timestamp, h->flags, h->swapped);
		printf("records %zu loads %zu moves %zu debug %zu unwind %zu close %zu "
		    "unknown %zu bad %zu orphan_debug %zu debug_repaired %zu\n", st->records, st->loads,
		    st->moves, st->debug_infos, st->unwind_infos, st->closes,
		    st->unknown, st->bad, st->orphan_debug, st->debug_repaired);
		printf("size %" PRIu64 " good_size %" PRIu64 " truncated %d closed %d "
		    "line_bias %#" PRIx64 "\n", st->size, st->good_size, st->truncated,
		    st->closed, h->line_bias);
		printf("parse_ms %.3f\n", (t1 - t0) * 1e3);
		if (st->damage[0])
			printf("damage %s\n", st->damage);
		for (i = 0; i < n; i++)
			printf("load %" PRIu64 " time %" PRIu64 " pid %u tid %u addr %#"
			    PRIx64 " size %" PRIu64 " code %d lines %zu unwind %" PRIu64
			    " name %s\n", l[i].code_index, l[i].time, l[i].pid,
			    l[i].tid, l[i].code_addr, l[i].code_size,
			    l[i].code != NULL, l[i].nlines, l[i].unwind_size, l[i].name);
	} else if (strcmp(mode, "loads") == 0) {
		for (i = 0; i < n; i++)
			printf("%" PRIu64 " %#" PRIx64 " %" PRIu64 " %zu %s\n",
			    l[i].code_index, l[i].code_addr, l[i].code_size,
			    l[i].nlines, l[i].name);
	} else if (strcmp(mode, "lines") == 0) {
		for (i = 0; i < n; i++)
			for (j = 0; j < l[i].nlines; j++)
				printf("%" PRIu64 " %#" PRIx64 " %" PRId64 " %u %u %s\n",
				    l[i].code_index, l[i].lines[j].addr,
				    (int64_t)(l[i].lines[j].addr - l[i].code_addr),
				    l[i].lines[j].line, l[i].lines[j].discrim,
				    l[i].lines[j].file);
	} else if (strcmp(mode, "moves") == 0) {
		for (i = 0; i < nm; i++)
			printf("%" PRIu64 " %#" PRIx64 " %#" PRIx64 " %" PRIu64 " %zd\n",
			    mv[i].code_index, mv[i].old_code_addr, mv[i].new_code_addr,
			    mv[i].code_size, mv[i].load == SIZE_MAX ? (ssize_t)-1 :
			    (ssize_t)mv[i].load);
	} else if (strcmp(mode, "code") == 0 && nargs >= 1) {
		for (i = 0; i < n; i++)
			if (l[i].code != NULL && write_code(args[0], &l[i]) < 0) {
				bt_jitdump_free(jd);
				return 2;
			}
	} else if (strcmp(mode, "hex") == 0) {
		for (i = 0; i < n; i++) {
			if (l[i].code == NULL)
				continue;
			printf("%" PRIu64 " ", l[i].code_index);
			for (j = 0; j < l[i].code_size; j++)
				printf("%02x", l[i].code[j]);
			printf("\n");
		}
	} else if (strcmp(mode, "findall") == 0) {
		unsigned long long t, a;
		while (scanf("%llu %llx", &t, &a) == 2) {
			const struct bt_jit_load *f = bt_jitdump_find(jd, a, t, NULL);
			if (f == NULL)
				printf("%llu %#llx none\n", t, a);
			else
				printf("%llu %#llx %" PRIu64 "\n", t, a, f->code_index);
		}
	} else if (strcmp(mode, "find") == 0 && nargs >= 1) {
		uint64_t addr = strtoull(args[0], NULL, 0), start = 0;
		uint64_t t = nargs >= 2 ? strtoull(args[1], NULL, 0) : UINT64_MAX;
		const struct bt_jit_load *f = bt_jitdump_find(jd, addr, t, &start);
		if (f == NULL)
			printf("none\n");
		else
			printf("%" PRIu64 " %#" PRIx64 " %s\n", f->code_index, start,
			    f->name);
	} else {
		fprintf(stderr, "jit-dump: unknown mode '%s'\n", mode);
		bt_jitdump_free(jd);
		return 1;
	}
	i = st->truncated || st->bad;
	bt_jitdump_free(jd);
	return i ? 3 : 0;
}

static int
map(const char *path, const char *mode, char **args, int nargs)
{
	struct bt_error err = { 0 };
	const struct bt_perfmap_entry *e;
	const struct bt_perfmap_stats *st;
	struct bt_perfmap *m;
	double t0 = bt_now(), t1;
	size_t i, n;
	int ret;

	m = bt_perfmap_open(path, &err);
	t1 = bt_now();
	if (m == NULL) {
		fprintf(stderr, "jit-dump: %s\n", err.msg);
		return 2;
	}
	st = bt_perfmap_stats(m);
	e = bt_perfmap_entries(m, &n);
	if (strcmp(mode, "summary") == 0) {
		printf("lines %zu entries %zu bad %zu first_bad %zu blank %zu "
		    "unterminated %d parse_ms %.3f\n", st->lines, st->entries,
		    st->bad, st->first_bad, st->blank, st->unterminated,
		    (t1 - t0) * 1e3);
		for (i = 0; i < n; i++)
			printf("%#" PRIx64 " %#" PRIx64 " %zu %s\n", e[i].start,
			    e[i].size, e[i].line, e[i].name);
	} else if (strcmp(mode, "find") == 0 && nargs >= 1) {
		const struct bt_perfmap_entry *f =
		    bt_perfmap_find(m, strtoull(args[0], NULL, 0));
		if (f == NULL)
			printf("none\n");
		else
			printf("%#" PRIx64 " %#" PRIx64 " %zu %s\n", f->start,
			    f->size, f->line, f->name);
	} else {
		fprintf(stderr, "jit-dump: unknown mode '%s'\n", mode);
		bt_perfmap_free(m);
		return 1;
	}
	ret = st->bad ? 3 : 0;
	bt_perfmap_free(m);
	return ret;
}

int
main(int argc, char **argv)
{
	const char *mode = argc > 3 ? argv[3] : "summary";

	if (argc < 3 || (strcmp(argv[1], "dump") != 0 && strcmp(argv[1], "map") != 0)) {
		fprintf(stderr, "usage: jit-dump dump|map FILE [MODE [ARGS]]\n");
		return 1;
	}
	if (strcmp(argv[1], "dump") == 0)
		return dump(argv[2], mode, argv + 4, argc - 4);
	return map(argv[2], mode, argv + 4, argc - 4);
}
