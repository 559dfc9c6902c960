/*
 * disasm-dump: decode every function of an ELF file with benchtui's
 * decoder, for comparison with objdump -d.
 *   disasm-dump FILE [SYMFILE]          print every instruction
 *   disasm-dump --objdump FILE [SYMFILE] compare instruction starts with objdump -d
 *   disasm-dump --text att|intel [--min PCT] [--diffs OUT] [--sweep] FILE [SYMFILE]
 *                                      compare instruction text with objdump -d
 * SYMFILE gives the symbol table (a separate debug file); code bytes come
 * from FILE. Prints, per instruction: "<func start> <func end> <addr> <mnemonic> <name>".
 * With --objdump, each function's instruction starts must equal objdump's
 * in [start, end) exactly; a function where objdump's linear sweep is not
 * in step at its start is decoded again by objdump from that address.
 * With --text, objdump runs once over FILE (-M intel for intel) and each
 * instruction benchtui decodes in a function is compared with the line
 * objdump prints at the same address (functions at the same address once).
 * The normalisation, all on objdump's side: its comments are removed (the
 * "<sym+off>" after a branch target and the "# addr <sym>" after a
 * PC-relative operand, which benchtui's annotate layer adds, not its
 * decoder) and so are trailing blanks. Nothing else: mnemonic padding and
 * operand separators must be objdump's. Prints the identical share and
 * fails under PCT (default 99.5); OUT gets "addr\tobjdump\tbenchtui" for
 * every difference. --sweep compares at every address objdump prints an
 * instruction (its whole sweep, padding and all) instead of walking the
 * functions of the symbol table.
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
#include "symbols/symbols.h"

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

/* The bytes at addr to the end of its executable section; *avail says how many. */
static const uint8_t *
code_rest(Elf *e, uint64_t addr, uint64_t *avail)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(e, scn)) != NULL) {
		Elf_Data *d;
		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR) || addr < sh.sh_addr ||
		    addr >= sh.sh_addr + sh.sh_size)
			continue;
		d = elf_getdata(scn, NULL);
		*avail = sh.sh_addr + sh.sh_size - addr;
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

/* --text: objdump's text per address, one sweep over the file */
struct otext {
	uint64_t addr;
	size_t off;	/* into tpool */
};

static BT_VEC(struct otext) ot;
static bool a64;		/* comparing aarch64 code (capstone) */
static bool comments;		/* --comments: objdump's "# addr <sym>" kept (and -C) */

/* objdump for the file's machine: $OBJDUMP, else objdump or aarch64-linux-gnu-objdump */
static const char *
objdump_cmd(void)
{
	const char *e = getenv("OBJDUMP");

	return e && *e ? e : a64 ? "aarch64-linux-gnu-objdump" : "objdump";
}
static char *tpool;
static size_t tpool_n, tpool_alloc;

static int
otcmp(const void *a, const void *b)
{
	const struct otext *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/*
 * objdump's instruction text without what benchtui's annotate layer adds
 * (the "<sym+off>" after a branch target, the "# addr <sym>" comment after
 * a PC-relative operand) and without trailing blanks.
 */
static size_t
objdump_norm(char *t)
{
	size_t n = a64 || comments ? strcspn(t, "\n") : strcspn(t, "#\n");
	char *lt, *hash = comments ? strstr(t, "        # ") : NULL;

	t[n] = '\0';
	if (a64) {
		/*
		 * aarch64: "// #1" comments; the tab after the mnemonic becomes
		 * benchtui's column (padded to six, one blank), as on x86
		 */
		char *tab = strchr(t, '\t'), buf[4096];
		if ((lt = strstr(t, "\t//")) != NULL || (lt = strstr(t, " //")) != NULL) {
			*lt = '\0';
			n = (size_t)(lt - t);
		}
		if (tab != NULL) {
			*tab = '\0';
			snprintf(buf, sizeof(buf), "%-6s %s", t, tab + 1);
			n = strlen(buf);
			memcpy(t, buf, n + 1);
		}
	}
	while (n > 0 && (t[n - 1] == ' ' || t[n - 1] == '\t'))
		t[--n] = '\0';
	if (n > 0 && t[n - 1] == '>' && (lt = strstr(t, " <")) != NULL && hash == NULL) {
		*lt = '\0';
		n = (size_t)(lt - t);
	}
	return n;
}

/* Append objdump's lines for FILE (optionally from..to) to ot; returns the first index. */
static size_t
run_objdump_text(const char *file, bool intel, uint64_t from, uint64_t to)
{
	/* a line holds whole demangled names: libLLVM's reach 6,000 characters */
	static char line[1 << 16];
	char cmd[4096];
	size_t first = ot.n;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "%s -d --no-show-raw-insn %s%s", objdump_cmd(),
	    intel ? "-M intel " : "", comments ? "-C " : "");
	if (to)
		snprintf(cmd + strlen(cmd), sizeof(cmd) - strlen(cmd),
		    "--start-address=0x%" PRIx64 " --stop-address=0x%" PRIx64 " ", from, to);
	snprintf(cmd + strlen(cmd), sizeof(cmd) - strlen(cmd), "'%s'", file);
	p = popen(cmd, "r");
	if (p == NULL)
		exit(2);
	while (fgets(line, sizeof(line), p) != NULL) {
		char *end;
		uint64_t a = strtoull(line, &end, 16);
		size_t n;
		if (end == line || *end != ':' || end[1] != '\t' || line[0] != ' ')
			continue;
		n = objdump_norm(end + 2);
		BT_ALLOC_GROW(tpool, tpool_n + n + 1, tpool_alloc);
		memcpy(tpool + tpool_n, end + 2, n + 1);
		BT_VEC_PUSH(ot, ((struct otext){ a, tpool_n }));
		tpool_n += n + 1;
	}
	pclose(p);
	if (ot.n > first)
		qsort(ot.v + first, ot.n - first, sizeof(*ot.v), otcmp);
	return first;
}

static const struct otext *
otext_find(size_t lo, size_t hi, uint64_t addr)
{
	size_t end = hi;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (ot.v[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < end && ot.v[lo].addr == addr ? &ot.v[lo] : NULL;
}

struct func_range {
	uint64_t start, size;
};

static BT_VEC(struct func_range) ranges;

static void
collect_func(uint64_t start, uint64_t size, const char *name, void *arg)
{
	BT_VEC_PUSH(ranges, ((struct func_range){ start, size }));
}

static int
rangecmp(const void *a, const void *b)
{
	const struct func_range *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->size < y->size ? 1 : x->size > y->size ? -1 : 0;
}

/*
 * The line benchtui shows for in: its text, and with --comments the
 * "# addr <sym>" of a PC-relative operand, named as the annotate layer
 * names it (bt_msyms_addr_name; core/view/view-annotate.c's spacing).
 */
static const char *
shown(struct bt_msyms *ms, const struct bt_insn *in, char *buf, size_t size)
{
	const char *name;
	uint64_t at, t = in->mem_target;

	if (ms == NULL || !(in->flags & BT_INSN_F_RIPREL))
		return in->text;
	if (bt_msyms_addr_name(ms, t, in->addr, &name, &at) < 0)
		snprintf(buf, size, "%s        # %" PRIx64, in->text, t);
	else if (at == t)
		snprintf(buf, size, "%s        # %" PRIx64 " <%s>", in->text, t, name);
	else
		snprintf(buf, size, "%s        # %" PRIx64 " <%s%c0x%" PRIx64 ">", in->text, t,
		    name, t > at ? '+' : '-', t > at ? t - at : at - t);
	return buf;
}

/* disasm-dump --text att|intel [--min PCT] [--diffs OUT] FILE [SYMFILE] */
static int
text_main(int argc, char **argv)
{
	bool intel, sweep = false;
	double min = 99.5, pct;
	const char *diffs = NULL;
	FILE *df = NULL;
	struct bt_error err = { 0 };
	struct bt_disasm *d;
	Elf *code, *syms;
	GElf_Ehdr eh;
	uint64_t total = 0, same = 0, unmatched = 0, last_end = 0;
	size_t i, nall, resync = 0;
	struct bt_msyms *ms = NULL;
	static char lbuf[1 << 16];
	const char *line;

	if (argc < 3)
		goto usage;
	intel = strcmp(argv[2], "intel") == 0;
	argv += 3;
	argc -= 3;
	while (argc >= 2 && argv[0][0] == '-') {
		if (strcmp(argv[0], "--sweep") == 0 || strcmp(argv[0], "--comments") == 0) {
			if (argv[0][2] == 's')
				sweep = true;
			else
				comments = true;
			argv++;
			argc--;
			continue;
		}
		if (strcmp(argv[0], "--min") == 0)
			min = atof(argv[1]);
		else if (strcmp(argv[0], "--diffs") == 0)
			diffs = argv[1];
		else
			goto usage;
		argv += 2;
		argc -= 2;
	}
	if (argc < 1)
		goto usage;
	code = tool_open_elf(argv[0]);
	syms = argc > 1 ? tool_open_elf(argv[1]) : code;
	if (code == NULL || syms == NULL || gelf_getehdr(code, &eh) == NULL) {
		fprintf(stderr, "disasm-dump: cannot read ELF\n");
		return 2;
	}
	a64 = eh.e_machine == EM_AARCH64;
	d = bt_disasm_new(bt_arch_from_elf(eh.e_machine,
	    gelf_getclass(code) == ELFCLASS64), intel ? BT_SYNTAX_INTEL : BT_SYNTAX_ATT, &err);
	if (d == NULL) {
		fprintf(stderr, "disasm-dump: %s\n", err.msg);
		return 2;
	}
	if (!sweep && tool_elf_funcs(syms, collect_func, NULL) < 0) {
		fprintf(stderr, "disasm-dump: no symbols\n");
		return 2;
	}
	if (comments && (ms = bt_msyms_open(argv[0], NULL, 0, &err)) == NULL) {
		fprintf(stderr, "disasm-dump: %s\n", err.msg);
		return 2;
	}
	if (diffs != NULL && (df = fopen(diffs, "w")) == NULL) {
		perror(diffs);
		return 2;
	}
	if (ranges.n > 0)
		qsort(ranges.v, ranges.n, sizeof(*ranges.v), rangecmp);
	run_objdump_text(argv[0], intel, 0, 0);
	nall = ot.n;
	for (i = 0; sweep && i < nall; i++) {
		uint64_t a = ot.v[i].addr, avail;
		const uint8_t *bytes = code_rest(code, a, &avail);
		struct bt_insn in;
		if (bytes == NULL || (i > 0 && ot.v[i - 1].addr == a))
			continue;
		bt_disasm_one(d, bytes, avail < 16 ? avail : 16, a, &in);
		total++;
		line = shown(ms, &in, lbuf, sizeof(lbuf));
		if (strcmp(tpool + ot.v[i].off, line) == 0)
			same++;
		else if (df != NULL)
			fprintf(df, "%" PRIx64 "\t%s\t%s\n", a, tpool + ot.v[i].off, line);
	}
	for (i = 0; !sweep && i < ranges.n; i++) {
		uint64_t start = ranges.v[i].start, end = start + ranges.v[i].size, a;
		const uint8_t *bytes;
		size_t lo = 0, hi = nall;

		if (start < last_end)
			continue;	/* an alias, or nested in the function before */
		last_end = end;
		if ((bytes = code_at(code, start, end - start)) == NULL)
			continue;
		if (otext_find(0, nall, start) == NULL) {
			/* objdump's sweep is out of step here: decode from the start */
			resync++;
			ot.n = nall;
			lo = run_objdump_text(argv[0], intel, start, end);
			hi = ot.n;
		}
		for (a = start; a < end;) {
			struct bt_insn in;
			const struct otext *o;
			size_t len = bt_disasm_one(d, bytes + (a - start), end - a, a, &in);

			if ((o = otext_find(lo, hi, a)) == NULL)
				unmatched++;
			else {
				line = shown(ms, &in, lbuf, sizeof(lbuf));
				total++;
				if (strcmp(tpool + o->off, line) == 0)
					same++;
				else if (df != NULL)
					fprintf(df, "%" PRIx64 "\t%s\t%s\n", a, tpool + o->off,
					    line);
			}
			a += len;
		}
	}
	pct = total ? 100.0 * (double)same / (double)total : 0;
	printf("%s: %" PRIu64 " of %" PRIu64 " instructions identical to objdump's"
	    " (%.2f%%)", a64 ? "aarch64" : intel ? "intel" : "att", same, total, pct);
	if (unmatched)
		printf(", %" PRIu64 " not at an objdump boundary", unmatched);
	if (resync)
		printf(", %zu functions decoded again from their start", resync);
	printf("\n");
	if (df != NULL)
		fclose(df);
	bt_disasm_free(d);
	bt_msyms_free(ms);
	if (syms != code)
		tool_close_elf(syms);
	tool_close_elf(code);
	BT_VEC_FREE(ranges);
	BT_VEC_FREE(ot);
	free(tpool);
	return pct >= min && total > 0 ? 0 : 1;
usage:
	fprintf(stderr, "usage: disasm-dump --text att|intel [--min PCT] [--diffs OUT] [--sweep]"
	    " [--comments] FILE [SYMFILE]\n");
	return 1;
}

int
main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--text") == 0)
		return text_main(argc, argv);
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
