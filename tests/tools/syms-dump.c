/*
 * syms-dump: what benchtui's symbols module says about every instruction
 * of every function, in addr2line's output format, for the oracle tests.
 *   syms-dump lines FILE [PREFIX]     like addr2line -a -e FILE (innermost file:line)
 *   syms-dump inlines FILE [PREFIX]   like addr2line -a -i -f -e FILE (inline chains)
 *                            (PREFIX: only the functions whose name starts with it)
 *   syms-dump func FILE ADDR...   function at each address: "start end name"
 *   syms-dump info FILE      build-id, debug file, symtab, dwarf, timings
 * Instruction starts come from benchtui's decoder (checked against objdump
 * by the decoder oracle).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "disasm/disasm.h"
#include "elf-funcs.h"
#include "symbols/symbols.h"

struct ctx {
	struct bt_msyms *m;
	struct bt_disasm *d;
	bool inlines;
	const char *prefix;
	uint64_t naddr;
};

static void
print_loc(const char *file, unsigned line)
{
	if (file == NULL || line == 0)
		printf("??:0\n");
	else
		printf("%s:%u\n", file, line);
}

static void
one_func(uint64_t start, uint64_t size, const char *name, void *arg)
{
	struct ctx *c = arg;
	const uint8_t *bytes;
	const struct bt_line *rows;
	size_t nrows, r = 0;
	long n = bt_msyms_code(c->m, start, start + size, &bytes);
	uint64_t a;

	if (n <= 0 || (c->prefix && strncmp(name, c->prefix, strlen(c->prefix)) != 0))
		return;
	nrows = bt_msyms_lines(c->m, start, start + size, &rows);
	for (a = start; a < start + (uint64_t)n;) {
		struct bt_insn in;
		size_t len = bt_disasm_one(c->d, bytes + (a - start),
		    (size_t)(start + (uint64_t)n - a), a, &in);
		const char *file = NULL;
		unsigned line = 0;

		while (r + 1 < nrows && rows[r + 1].addr <= a)
			r++;
		if (nrows && rows[r].addr <= a) {
			file = rows[r].file;
			line = rows[r].line;
		}
		printf("0x%016" PRIx64 "\n", a);
		if (!c->inlines)
			print_loc(file, line);
		else {
			struct bt_inline chain[16];
			size_t depth = bt_msyms_inlines(c->m, a, chain, 16), k;
			struct bt_func_sym fs;

			/* innermost first, as addr2line -i prints */
			for (k = depth; k > 0; k--) {
				printf("%s\n", chain[k - 1].name);
				if (k == depth)
					print_loc(file, line);
				else
					print_loc(chain[k].call_file, chain[k].call_line);
			}
			printf("%s\n", bt_msyms_func(c->m, a, &fs) == 0 ? fs.name : name);
			if (depth == 0)
				print_loc(file, line);
			else
				print_loc(chain[0].call_file, chain[0].call_line);
		}
		c->naddr++;
		a += len;
	}
}

int
main(int argc, char **argv)
{
	struct bt_error err = { 0 };
	struct ctx c;
	const struct bt_msyms_info *info;
	double t0;
	Elf *e;

	if (argc < 3) {
		fprintf(stderr, "usage: syms-dump lines|inlines|func|info FILE [ADDR...]\n");
		return 1;
	}
	memset(&c, 0, sizeof(c));
	t0 = bt_now();
	c.m = bt_msyms_open(argv[2], NULL, 0, &err);
	if (c.m == NULL) {
		fprintf(stderr, "syms-dump: %s\n", err.msg);
		return 2;
	}
	info = bt_msyms_info(c.m);
	if (strcmp(argv[1], "info") == 0) {
		bt_msyms_has_dwarf(c.m);
		printf("build-id %s\ndebug %s\nsymtab %d\ndwarf %d\nopen+index %.1f ms\n",
		    info->build_id ? info->build_id : "-",
		    info->debug_path ? info->debug_path : "-", info->has_symtab,
		    info->has_dwarf, (bt_now() - t0) * 1e3);
		bt_msyms_free(c.m);
		return 0;
	}
	if (strcmp(argv[1], "func") == 0) {
		int i;
		for (i = 3; i < argc; i++) {
			struct bt_func_sym fs;
			uint64_t a = strtoull(argv[i], NULL, 16);
			if (bt_msyms_func(c.m, a, &fs) == 0)
				printf("%" PRIx64 " %" PRIx64 " %s %s\n", fs.start, fs.end,
				    fs.name, fs.src == BT_FUNC_FDE ? "fde" : "symtab");
			else
				printf("- - - none\n");
		}
		bt_msyms_free(c.m);
		return 0;
	}
	c.inlines = strcmp(argv[1], "inlines") == 0;
	c.prefix = argc > 3 ? argv[3] : NULL;
	c.d = bt_disasm_new(bt_arch_from_elf(info->e_machine, info->elfclass64),
	    BT_SYNTAX_ATT, &err);
	e = tool_open_elf(argv[2]);
	if (c.d == NULL || e == NULL || tool_elf_funcs(e, one_func, &c) < 0) {
		fprintf(stderr, "syms-dump: cannot list the functions of '%s'\n", argv[2]);
		return 2;
	}
	fprintf(stderr, "syms-dump: %" PRIu64 " addresses in %.1f ms\n", c.naddr,
	    (bt_now() - t0) * 1e3);
	bt_disasm_free(c.d);
	bt_msyms_free(c.m);
	tool_close_elf(e);
	return 0;
}
