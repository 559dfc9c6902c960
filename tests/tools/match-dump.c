/*
 * match-dump: matching code across builds (core/diff/match.c), for the
 * oracle tests (tests/test-match.sh) and by hand. A and B are binaries
 * (no samples) or recordings (the function's samples).
 *   match-dump func A B FUNC [FUNC_B]  the function aligned, one row a pair:
 *        "= A | B" same opcode and operands, "~" same opcode, "-" deleted
 *        (only in A), "+" inserted (only in B), ">" in a moved block
 *   match-dump lines A B FUNC [FUNC_B] one line: A's instructions (weighted
 *        by samples in a recording), how many matched, matched to the same
 *        source line, deleted; B's inserted
 *   match-dump pairs A B FUNC [FUNC_B] one line a row: "ADDR_A ADDR_B SAMPLES_A
 *        MNEMONIC_A MNEMONIC_B", "-" for none (SAMPLES_A: 1 from a binary)
 *   match-dump funcs A B               the functions paired (binaries)
 *   match-dump browse A.data B.data BENCH FUNC  benchtui diff's browser:
 *        Enter on BENCH, Enter on FUNC; prints the screen's name, the
 *        cursor row's text and the title (Enter from a comparison's function)
 *   match-dump view A.data B.data FUNC [text|json [WIDTH [BENCH]]]  the
 *        aligned function's export (bt_align_find, bt_export_match): what
 *        benchtui diff's function screen shows; with BENCH, in that
 *        benchmark's selections, its repetitions the vectors
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annofile.h"
#include "annotate/annotate.h"
#include "base.h"
#include "benchtui/bench.h"
#include "benchtui/browse.h"
#include "benchtui/diff.h"
#include "benchtui/match.h"
#include "benchtui/selection.h"
#include "diff/match.h"
#include "session/query.h"
#include "synth.h"

struct side {
	struct annofile *file;
	struct bt_selection *sel;
	struct bt_annotation *an;	/* owned when from a binary */
};

static bool
is_recording(const char *path)
{
	char magic[8] = { 0 };
	FILE *f = fopen(path, "rb");

	if (f == NULL)
		return false;
	if (fread(magic, 1, 8, f) != 8)
		magic[0] = 0;
	fclose(f);
	return memcmp(magic, "PERFILE2", 8) == 0 || memcmp(magic, "2ELIFREP", 8) == 0;
}

static int
side_open(struct side *s, const char *path, const char *func)
{
	memset(s, 0, sizeof(*s));
	if (is_recording(path)) {
		long f;

		s->sel = test_open(path);
		f = s->sel ? bt_selection_find(s->sel, func) : -1;
		if (f < 0) {
			fprintf(stderr, "match-dump: no function '%s' in '%s'\n", func, path);
			return -1;
		}
		s->an = bt_selection_annotation(s->sel, (size_t)f, BT_ASM_ATT, NULL);
	} else {
		s->file = annofile_open(path);
		s->an = s->file ? annofile_func(s->file, func) : NULL;
	}
	if (s->an == NULL) {
		fprintf(stderr, "match-dump: cannot annotate '%s' in '%s'\n", func, path);
		return -1;
	}
	return 0;
}

static void
side_close(struct side *s)
{
	if (s->file) {
		bt_annotation_free(s->an);
		annofile_close(s->file);
	}
	if (s->sel)
		test_close(s->sel);
}

static const char *
base(const char *path)
{
	const char *s = path ? strrchr(path, '/') : NULL;

	return s ? s + 1 : path ? path : "??";
}

static void
print_insn(const struct bt_annotation *an, long i)
{
	const struct bt_ainsn *ai;

	if (i < 0) {
		printf("%-50s", "");
		return;
	}
	ai = &an->insns.v[i];
	printf("%6" PRIx64 " %5" PRIu64 " %-28.28s %8.8s:%-4u", ai->in.addr, ai->samples,
	    ai->in.text, base(ai->file), ai->line);
}

static void
dump_func(const struct side *a, const struct side *b, const struct bt_insn_match *m)
{
	size_t i;

	printf("# blocks A %zu B %zu paired %zu (call anchors %zu); rows %zu: "
	    "matched %zu inserted %zu deleted %zu\n", m->nblocks_a, m->nblocks_b,
	    m->blocks_paired, m->blocks_by_call, m->rows.n, m->matched,
	    m->inserted, m->deleted);
	for (i = 0; i < m->rows.n; i++) {
		const struct bt_match_row *r = &m->rows.v[i];
		char c = r->a < 0 ? '+' : r->b < 0 ? '-' : (r->flags & BT_MR_MOVED) ? '>' :
		    (r->flags & BT_MR_OPERANDS) ? '=' : '~';

		printf("%c ", c);
		print_insn(a->an, r->a);
		printf(" | ");
		print_insn(b->an, r->b);
		printf("\n");
	}
}

/* A's weight: its samples in a recording, else 1 an instruction. */
static void
dump_lines(const struct side *a, const struct side *b, const struct bt_insn_match *m)
{
	uint64_t all = 0, matched = 0, same = 0, deleted = 0, inserted = 0, nops = 0;
	size_t i;

	for (i = 0; i < m->rows.n; i++) {
		const struct bt_match_row *r = &m->rows.v[i];
		const struct bt_ainsn *x = r->a >= 0 ? &a->an->insns.v[r->a] : NULL;
		uint64_t w = x == NULL ? 0 : a->sel ? x->samples : 1;

		if (x == NULL) {
			inserted += !(b->an->insns.v[r->b].in.flags & BT_INSN_F_NOP);
			continue;
		}
		if (x->in.flags & BT_INSN_F_NOP) {
			nops++;
			continue;
		}
		all += w;
		if (r->b < 0) {
			deleted += w;
			continue;
		}
		matched += w;
		if (r->flags & BT_MR_LINE)
			same += w;
	}
	printf("weight %s all %" PRIu64 " matched %" PRIu64 " same_line %" PRIu64
	    " deleted %" PRIu64 " inserted %" PRIu64 " nops %" PRIu64 "\n",
	    a->sel ? "samples" : "insns", all, matched, same, deleted, inserted, nops);
}

static void
dump_pairs(const struct side *a, const struct side *b, const struct bt_insn_match *m)
{
	size_t i;

	for (i = 0; i < m->rows.n; i++) {
		const struct bt_match_row *r = &m->rows.v[i];
		const struct bt_ainsn *x = r->a >= 0 ? &a->an->insns.v[r->a] : NULL;
		const struct bt_ainsn *y = r->b >= 0 ? &b->an->insns.v[r->b] : NULL;

		if (x)
			printf("%" PRIx64 " ", x->in.addr);
		else
			printf("- ");
		if (y)
			printf("%" PRIx64 " ", y->in.addr);
		else
			printf("- ");
		printf("%" PRIu64 " %s %s\n", x ? (a->sel ? x->samples : 1) : 0,
		    x ? x->in.mnemonic : "-", y ? y->in.mnemonic : "-");
	}
}

static uint64_t
file_hash(int side, size_t i, void *arg)
{
	struct annofile **f = arg;
	const char *const *names;
	struct bt_annotation *an;
	uint64_t h;

	annofile_names(f[side], &names);
	an = annofile_func(f[side], names[i]);
	h = bt_match_cfg_hash(an);
	bt_annotation_free(an);
	return h;
}

static int
dump_funcs(const char *pa, const char *pb)
{
	struct annofile *f[2] = { annofile_open(pa), annofile_open(pb) };
	const char *const *na, *const *nb;
	struct bt_func_pair *rows;
	size_t n, i, ca, cb;

	if (f[0] == NULL || f[1] == NULL) {
		fprintf(stderr, "match-dump: cannot open '%s' or '%s'\n", pa, pb);
		return 1;
	}
	ca = annofile_names(f[0], &na);
	cb = annofile_names(f[1], &nb);
	n = bt_match_funcs(na, ca, nb, cb, file_hash, f, &rows);
	for (i = 0; i < n; i++)
		printf("%-10s %s | %s\n", bt_match_how_name(rows[i].how),
		    rows[i].a >= 0 ? na[rows[i].a] : "-", rows[i].b >= 0 ? nb[rows[i].b] : "-");
	free(rows);
	annofile_close(f[0]);
	annofile_close(f[1]);
	return 0;
}

/* FUNC in benchmark BENCH's selection of each side, its repetitions the parts. */
static struct bt_align *
bench_align(struct bt_selection *sa, struct bt_selection *sb, const char *bench,
	    const char *func, struct bt_error *err)
{
	struct bt_selection *s[2] = { sa, sb }, *bs[2] = { NULL, NULL };
	long bi[2], fi[2];
	struct bt_align *al = NULL;
	int k;

	for (k = 0; k < 2; k++) {
		struct bt_selection_opts o = *bt_selection_opts(s[k]);

		bi[k] = bt_selection_find_bench(s[k], bench);
		if (bi[k] < 0) {
			bt_error_set(err, BT_ENOENT, "no benchmark '%s'", bench);
			goto out;
		}
		o.bench = bi[k];
		bs[k] = bt_selection_new(bt_selection_session(s[k]), &o, err);
		fi[k] = bs[k] ? bt_selection_find(bs[k], func) : -1;
		if (fi[k] < 0) {
			bt_error_set(err, BT_ENOENT, "no function '%s' in '%s'", func, bench);
			goto out;
		}
	}
	al = bt_align_new(bs[0], (size_t)fi[0], bi[0], bs[1], (size_t)fi[1], bi[1], err);
out:
	bt_selection_free(bs[0]);
	bt_selection_free(bs[1]);
	return al;
}

static int
dump_view(int argc, char **argv)
{
	struct bt_selection *sa = test_open(argv[2]), *sb = test_open(argv[3]);
	struct bt_error err = { 0 };
	struct bt_view_opts o;
	struct bt_align *al;
	int json = argc > 5 && strcmp(argv[5], "json") == 0;

	if (sa == NULL || sb == NULL) {
		fprintf(stderr, "match-dump: cannot open '%s' or '%s'\n", argv[2], argv[3]);
		return 1;
	}
	bt_view_opts_init(&o);
	o.text_width = argc > 6 ? (size_t)atoi(argv[6]) : 0;
	if (argc > 7)
		al = bench_align(sa, sb, argv[7], argv[4], &err);
	else
		al = bt_align_find(sa, sb, argv[4], &err);
	if (al == NULL) {
		fprintf(stderr, "match-dump: %s\n", err.msg);
		return 1;
	}
	if (bt_export_match(stdout, al, json ? BT_FORMAT_JSON : BT_FORMAT_TEXT, &o, &err) < 0)
		fprintf(stderr, "match-dump: %s\n", err.msg);
	bt_align_free(al);
	test_close(sa);
	test_close(sb);
	return 0;
}

/* Move the cursor to the row whose name (or first cell) starts with name. */
static bool
select_row(struct bt_browser *b, const char *name)
{
	const struct bt_view *v = bt_browser_view(b);
	size_t i;

	for (i = 0; i < bt_view_nrows(v); i++) {
		const struct bt_row *r = bt_view_row(v, i);
		if (r->name != NULL && strncmp(r->name, name, strlen(name)) == 0) {
			bt_browser_select(b, i, 40);
			return true;
		}
	}
	return false;
}

static int
dump_browse(char **argv)
{
	struct bt_selection *sa = test_open(argv[2]), *sb = test_open(argv[3]);
	struct bt_error err = { 0 };
	struct bt_diff *d;
	struct bt_browser *b;
	const struct bt_view *v;
	const struct bt_row *r;
	int ret = 0;

	d = sa && sb ? bt_diff_new(sa, sb, NULL, &err) : NULL;
	if (d == NULL) {
		fprintf(stderr, "match-dump: %s\n", err.msg[0] ? err.msg : "cannot open");
		return 1;
	}
	b = bt_browser_new_diff(d, NULL);
	if (!select_row(b, argv[4])) {
		fprintf(stderr, "match-dump: no benchmark '%s'\n", argv[4]);
		ret = 1;
		goto out;
	}
	bt_browser_apply(b, BT_ACT_ENTER, 40);
	if (!select_row(b, argv[5])) {
		fprintf(stderr, "match-dump: no function '%s'\n", argv[5]);
		ret = 1;
		goto out;
	}
	bt_browser_apply(b, BT_ACT_ENTER, 40);
	v = bt_browser_view(b);
	r = bt_view_row(v, bt_browser_nav(b)->cursor);
	printf("screen %s\n", bt_browser_screen(b));
	printf("cursor %s\n", r && r->detail ? r->detail : "-");
	printf("title %s\n", bt_view_title(v));
	printf("status %s\n", bt_browser_status(b));
out:
	bt_browser_free(b);
	bt_diff_free(d);
	test_close(sa);
	test_close(sb);
	return ret;
}

int
main(int argc, char **argv)
{
	struct side a, b;
	struct bt_insn_match m;
	int ret = 0;

	if (argc == 6 && strcmp(argv[1], "browse") == 0)
		return dump_browse(argv);
	if (argc >= 5 && strcmp(argv[1], "view") == 0)
		return dump_view(argc, argv);
	if (argc == 4 && strcmp(argv[1], "funcs") == 0)
		return dump_funcs(argv[2], argv[3]);
	if (argc < 5 || (strcmp(argv[1], "func") != 0 && strcmp(argv[1], "lines") != 0 &&
	    strcmp(argv[1], "pairs") != 0)) {
		fprintf(stderr, "usage: match-dump func|lines|pairs A B FUNC [FUNC_B] | funcs A B\n");
		return 2;
	}
	if (side_open(&a, argv[2], argv[4]) < 0 ||
	    side_open(&b, argv[3], argc > 5 ? argv[5] : argv[4]) < 0)
		return 1;
	bt_match_insns(a.an, b.an, &m);
	if (strcmp(argv[1], "func") == 0)
		dump_func(&a, &b, &m);
	else if (strcmp(argv[1], "lines") == 0)
		dump_lines(&a, &b, &m);
	else
		dump_pairs(&a, &b, &m);
	bt_insn_match_release(&m);
	side_close(&a);
	side_close(&b);
	return ret;
}
