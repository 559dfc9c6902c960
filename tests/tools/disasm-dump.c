/*
 * disasm-dump: decode every function of an ELF file with benchtui's
 * decoder, for comparison with objdump -d.
 *   disasm-dump FILE [SYMFILE]          print every instruction
 *   disasm-dump --objdump FILE [SYMFILE] compare instruction starts with objdump -d
 * SYMFILE gives the symbol table (a separate debug file); code bytes come
 * from FILE. Prints, per instruction: "<func start> <func end> <addr> <mnemonic> <name>".
 * With --objdump, each function's instruction starts must equal objdump's
 * in [start, end) exactly; a function where objdump's linear sweep is not
 * in step at its start is decoded again by objdump from that address.
 */
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base.h"
#include "disasm/disasm.h"
#include "elf-funcs.h"

/* Bytes of [addr, addr+size) from the executable sections of e. */
static const uint8_t *
code_at(Elf *e, uint64_t addr, uint64_t size)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(e, scn)) != NULL) {
		Elf_Data *d;
		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR) || addr < sh.sh_addr ||
		    addr + size > sh.sh_addr + sh.sh_size)
			continue;
		d = elf_getdata(scn, NULL);
		return d ? (const uint8_t *)d->d_buf + (addr - sh.sh_addr) : NULL;
	}
	return NULL;
}

static uint64_t *oaddr;
static size_t noaddr, oalloc;

static int
u64cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Instruction starts objdump prints for FILE (optionally from..to), appended. */
static void
run_objdump(const char *file, uint64_t from, uint64_t to)
{
	char cmd[4096], line[4096];
	FILE *p;

	if (to)
		snprintf(cmd, sizeof(cmd),
		    "objdump -d --no-show-raw-insn --start-address=0x%" PRIx64
		    " --stop-address=0x%" PRIx64 " '%s'", from, to, file);
	else
		snprintf(cmd, sizeof(cmd), "objdump -d --no-show-raw-insn '%s'", file);
	p = popen(cmd, "r");
	if (p == NULL)
		exit(2);
	while (fgets(line, sizeof(line), p) != NULL) {
		char *end;
		uint64_t a = strtoull(line, &end, 16);
		if (end == line || *end != ':' || end[1] != '\t' || line[0] != ' ')
			continue;
		BT_ALLOC_GROW(oaddr, noaddr + 1, oalloc);
		oaddr[noaddr++] = a;
	}
	pclose(p);
}

static size_t
lower_bound(const uint64_t *v, size_t n, uint64_t x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (v[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct func_insns {
	uint64_t start, end;
	const char *name;
	BT_VEC(uint64_t) a;
};

/* Compare one function's starts with objdump's; returns mismatches. */
static int
compare(const struct func_insns *f, const uint64_t *v, size_t n)
{
	size_t i = lower_bound(v, n, f->start), k = 0;
	int bad = 0;

	for (; i < n && v[i] < f->end; i++, k++) {
		if (k >= f->a.n || f->a.v[k] != v[i]) {
			if (bad++ < 3)
				printf("mismatch in %s: objdump starts an instruction at %" PRIx64
				    ", benchtui at %" PRIx64 "\n", f->name, v[i],
				    k < f->a.n ? f->a.v[k] : 0);
			return bad;
		}
	}
	if (k != f->a.n) {
		printf("mismatch in %s: objdump %zu instructions, benchtui %zu\n",
		    f->name, k, f->a.n);
		bad++;
	}
	return bad;
}

struct dump {
	bool vs_objdump;
	Elf *code;
	struct bt_disasm *d;
	BT_VEC(struct func_insns) funcs;
	uint64_t nfuncs, ninsns, nbad;
};

static void
dump_func(uint64_t start, uint64_t size, const char *name, void *arg)
{
	struct dump *dp = arg;
	const uint8_t *bytes = code_at(dp->code, start, size);
	struct func_insns fi = { start, start + size, name, { 0 } };
	uint64_t a;

	if (bytes == NULL)
		return;
	dp->nfuncs++;
	for (a = start; a < start + size;) {
		struct bt_insn in;
		size_t len = bt_disasm_one(dp->d, bytes + (a - start),
		    start + size - a, a, &in);
		if (!dp->vs_objdump)
			printf("%" PRIx64 " %" PRIx64 " %" PRIx64 " %s %s\n",
			    start, start + size, a, in.mnemonic, name);
		else
			BT_VEC_PUSH(fi.a, a);
		dp->ninsns++;
		if (in.kind == BT_INSN_BAD) {
			dp->nbad++;
			if (dp->vs_objdump)
				printf("(bad) in %s at %" PRIx64 "\n", name, a);
		}
		a += len;
	}
	if (dp->vs_objdump)
		BT_VEC_PUSH(dp->funcs, fi);
}

int
main(int argc, char **argv)
{
	struct dump dp;
	struct bt_error err = { 0 };
	Elf *syms;
	GElf_Ehdr eh;

	memset(&dp, 0, sizeof(dp));
	dp.vs_objdump = argc > 1 && strcmp(argv[1], "--objdump") == 0;
	if (dp.vs_objdump) {
		argv++;
		argc--;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: disasm-dump [--objdump] FILE [SYMFILE]\n");
		return 1;
	}
	dp.code = tool_open_elf(argv[1]);
	syms = argc > 2 ? tool_open_elf(argv[2]) : dp.code;
	if (dp.code == NULL || syms == NULL || gelf_getehdr(dp.code, &eh) == NULL) {
		fprintf(stderr, "disasm-dump: cannot read ELF\n");
		return 2;
	}
	dp.d = bt_disasm_new(bt_arch_from_elf(eh.e_machine,
	    gelf_getclass(dp.code) == ELFCLASS64), BT_SYNTAX_ATT, &err);
	if (dp.d == NULL) {
		fprintf(stderr, "disasm-dump: %s\n", err.msg);
		return 2;
	}
	if (tool_elf_funcs(syms, dump_func, &dp) < 0) {
		fprintf(stderr, "disasm-dump: no symbols\n");
		return 2;
	}
	fprintf(stderr, "disasm-dump: %" PRIu64 " functions, %" PRIu64
	    " instructions, %" PRIu64 " (bad)\n", dp.nfuncs, dp.ninsns, dp.nbad);
	bt_disasm_free(dp.d);
	if (syms != dp.code)
		tool_close_elf(syms);
	if (dp.vs_objdump) {
		size_t i, resync = 0, nall;
		int bad = 0;

		run_objdump(argv[1], 0, 0);
		qsort(oaddr, noaddr, sizeof(*oaddr), u64cmp);
		nall = noaddr;
		for (i = 0; i < dp.funcs.n; i++) {
			struct func_insns *f = &dp.funcs.v[i];
			size_t k = lower_bound(oaddr, nall, f->start);
			if (k < nall && oaddr[k] == f->start) {
				bad += compare(f, oaddr, nall);
				continue;
			}
			/* objdump's sweep is out of step here: decode from the start */
			resync++;
			noaddr = nall;
			run_objdump(argv[1], f->start, f->end);
			qsort(oaddr + nall, noaddr - nall, sizeof(*oaddr), u64cmp);
			bad += compare(f, oaddr + nall, noaddr - nall);
		}
		printf("compared %zu functions, %" PRIu64 " instructions with objdump"
		    " (%zu decoded again from their start): %d mismatches, %" PRIu64
		    " (bad)\n", dp.funcs.n, dp.ninsns, resync, bad, dp.nbad);
		for (i = 0; i < dp.funcs.n; i++)
			BT_VEC_FREE(dp.funcs.v[i].a);
		BT_VEC_FREE(dp.funcs);
		free(oaddr);
		tool_close_elf(dp.code);
		return bad || dp.nbad ? 1 : 0;
	}
	tool_close_elf(dp.code);
	return 0;
}
