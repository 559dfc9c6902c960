/*
 * One function of two recordings aligned, each row and block a unit
 * (align.h, docs/diff.md "Matching"). Each side's parts (repetitions or
 * time slices) are selections of their own: the function's annotation
 * in each gives every instruction's period in that part, the vectors
 * the tests compare.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "annotate/annotate.h"
#include "base.h"
#include "benchtui/bench.h"
#include "benchtui/selection.h"
#include "diff/align.h"
#include "session/query.h"

struct part {
	double from, to;
	double iterations;	/* NAN for a slice */
};

static double
parse_count(const char *t)
{
	char *end;
	double v;

	if (t == NULL)
		return NAN;
	v = strtod(t, &end);
	return end == t || v <= 0 ? NAN : v;
}

/* The benchmark's repetitions with their windows and iterations. */
static size_t
rep_parts(struct bt_selection *sel, long bi, struct part *out, size_t max)
{
	const struct bt_bench_run *runs;
	size_t n = bi < 0 ? 0 : bt_selection_bench_runs(sel, (size_t)bi, &runs), k, m = 0;

	for (k = 0; k < n && m < max; k++) {
		struct part *p = &out[m];
		if (runs[k].aggregate != NULL || runs[k].error != NULL ||
		    !bt_selection_bench_run_window(sel, (size_t)bi, k, &p->from, &p->to))
			continue;
		p->iterations = parse_count(runs[k].iterations_text);
		if (isfinite(p->iterations) && p->to > p->from)
			m++;
	}
	return m;
}

/* Equal slices of the benchmark's window, else of the selection's. */
static size_t
slice_parts(struct bt_selection *sel, long bi, struct part *out)
{
	const struct bt_bench *b = bi < 0 ? NULL : bt_selection_bench(sel, (size_t)bi);
	double from, to;
	size_t k;

	if (b != NULL && b->has_window) {
		from = b->t_from;
		to = b->t_to;
	} else
		bt_selection_window(sel, &from, &to);
	if (!(to > from))
		return 0;
	for (k = 0; k < BT_ALIGN_SLICES; k++) {
		out[k].from = from + (to - from) * (double)k / BT_ALIGN_SLICES;
		out[k].to = from + (to - from) * (double)(k + 1) / BT_ALIGN_SLICES;
		out[k].iterations = NAN;
	}
	return BT_ALIGN_SLICES;
}

static const char *
cost_unit(const char *event)
{
	size_t n = strcspn(event, ":/");

	if (strncmp(event, "cpu-clock", n) == 0 || strncmp(event, "task-clock", n) == 0)
		return "ns/op";
	if (strncmp(event, "cycles", n) == 0 || strncmp(event, "cpu-cycles", n) == 0)
		return "cycles/op";
	return "events/op";
}

/*
 * vals[k * n + i]: instruction i's value in part k (n instructions):
 * period / iterations, or percent of the part's period.
 */
static double *
part_values(struct bt_selection *sel, size_t fi, long bi, const struct part *parts,
	    size_t np, size_t n)
{
	const struct bt_func *f = bt_selection_func(sel, fi);
	double *vals = bt_xcalloc(np * n + 1, sizeof(double));
	size_t k, i;

	for (k = 0; k < np; k++) {
		struct bt_selection_opts o = *bt_selection_opts(sel);
		struct bt_selection *ps;
		struct bt_annotation *an;
		double total;
		long pf;

		o.bench = bi;
		o.time_from = parts[k].from;
		o.time_to = parts[k].to;
		o.time_percent = false;
		ps = bt_selection_new(bt_selection_session(sel), &o, NULL);
		if (ps == NULL)
			continue;
		total = (double)bt_selection_period(ps);
		pf = bt_selection_func_find(ps, f->mod, f->start);
		an = pf < 0 ? NULL : bt_selection_code(ps, (size_t)pf);
		if (an != NULL && an->insns.n == n && total > 0)
			for (i = 0; i < n; i++) {
				double p = (double)an->insns.v[i].period;
				vals[k * n + i] = isfinite(parts[k].iterations) ?
				    p / parts[k].iterations : 100.0 * p / total;
			}
		bt_selection_free(ps);
	}
	return vals;
}

struct sides {
	double *vals[2];
	size_t np[2], n[2];
	double *va, *vb;	/* scratch vectors */
};

/* Sum side s's values of rows [first, first + cnt) in each part into v. */
static bool
sum_rows(const struct bt_align *al, const struct sides *sd, int s, size_t first,
	 size_t cnt, double *v)
{
	bool any = false;
	size_t k, r;

	for (k = 0; k < sd->np[s]; k++) {
		v[k] = 0;
		for (r = first; r < first + cnt; r++) {
			long i = s ? al->m.rows.v[r].b : al->m.rows.v[r].a;
			if (i >= 0)
				v[k] += sd->vals[s][k * sd->n[s] + (size_t)i];
		}
		any |= v[k] != 0;
	}
	return any;
}

static bool
test_rows(const struct bt_align *al, struct sides *sd, size_t first, size_t cnt,
	  uint64_t seed, struct bt_diff_stat *st)
{
	bool a = sum_rows(al, sd, 0, first, cnt, sd->va);
	bool b = sum_rows(al, sd, 1, first, cnt, sd->vb);

	memset(st, 0, sizeof(*st));
	st->verdict = BT_V_UNCHANGED;
	if (!a && !b)
		return false;
	bt_diff_test(sd->va, sd->np[0], sd->vb, sd->np[1], seed, st);
	return true;
}

/* The rows of each block of A (an inserted row goes with the row before). */
static void
make_blocks(struct bt_align *al)
{
	size_t r;

	al->row_block = bt_xcalloc(al->m.rows.n + 1, sizeof(size_t));
	for (r = 0; r < al->m.rows.n; r++) {
		const struct bt_match_row *row = &al->m.rows.v[r];
		struct bt_align_block *cur = al->blocks.n ? &al->blocks.v[al->blocks.n - 1] : NULL;

		if (cur == NULL || (row->a >= 0 && row->block_a != cur->block_a)) {
			struct bt_align_block nb = { 0 };
			nb.block_a = row->block_a;
			nb.block_b = row->block_a >= 0 ? al->m.block_b[row->block_a] : -1;
			nb.first = r;
			BT_VEC_PUSH(al->blocks, nb);
			cur = &al->blocks.v[al->blocks.n - 1];
		}
		cur->n++;
		al->row_block[r] = al->blocks.n - 1;
		if (row->a < 0)
			cur->inserted++;
		else if (row->b < 0)
			cur->deleted++;
		else if (!(row->flags & BT_MR_OPERANDS))
			cur->differ++;
	}
}

/* Benjamini-Hochberg over every unit tested, rows and blocks together. */
static void
control_fdr(struct bt_align *al)
{
	struct bt_diff_stat *all = bt_xcalloc(al->m.rows.n + al->blocks.n + 1, sizeof(*all));
	size_t n = 0, r, b;

	for (r = 0; r < al->m.rows.n; r++)
		if (al->tested[r])
			all[n++] = al->st[r];
	for (b = 0; b < al->blocks.n; b++)
		if (al->blocks.v[b].tested)
			all[n++] = al->blocks.v[b].st;
	bt_diff_fdr(all, n, BT_DIFF_LEVEL);
	al->nunits = n;
	n = 0;
	for (r = 0; r < al->m.rows.n; r++)
		if (al->tested[r]) {
			al->st[r] = all[n++];
			al->counts[al->st[r].verdict]++;
		}
	for (b = 0; b < al->blocks.n; b++)
		if (al->blocks.v[b].tested) {
			al->blocks.v[b].st = all[n++];
			al->counts[al->blocks.v[b].st.verdict]++;
		}
	free(all);
}

/* The changed block (rows inserted, deleted or different) that moved most. */
static void
find_hottest(struct bt_align *al)
{
	double best = -1;
	size_t b;

	al->hottest = -1;
	for (b = 0; b < al->blocks.n; b++) {
		const struct bt_align_block *bl = &al->blocks.v[b];
		double d;

		if (!bl->tested || bl->inserted + bl->deleted + bl->differ == 0)
			continue;
		d = fabs((isfinite(bl->st.b) ? bl->st.b : 0) - (isfinite(bl->st.a) ? bl->st.a : 0));
		if (d > best) {
			best = d;
			al->hottest = (long)b;
		}
	}
}

static void
parts_of(struct bt_align *al, long bench[2], struct part *parts[2], size_t max)
{
	int s;

	for (s = 0; s < 2; s++)
		al->nparts[s] = rep_parts(al->sel[s], bench[s], parts[s], max);
	al->vectors = "repetitions";
	al->unit = cost_unit(bt_selection_event(al->sel[1]));
	if (al->nparts[0] < 2 || al->nparts[1] < 2) {
		al->vectors = "slices";
		al->unit = "share";
		for (s = 0; s < 2; s++)
			al->nparts[s] = slice_parts(al->sel[s], bench[s], parts[s]);
	}
}

struct bt_align *
bt_align_new(struct bt_selection *sa, size_t fa, long bench_a,
	     struct bt_selection *sb, size_t fb, long bench_b,
	     struct bt_error *err)
{
	struct bt_align *al = bt_xcalloc(1, sizeof(*al));
	long bench[2] = { bench_a, bench_b };
	struct part *parts[2];
	struct sides sd = { 0 };
	size_t r, b, maxp = 64;
	int s;

	al->sel[0] = bt_selection_ref(sa);
	al->sel[1] = bt_selection_ref(sb);
	al->fi[0] = fa;
	al->fi[1] = fb;
	for (s = 0; s < 2; s++) {
		al->an[s] = bt_selection_annotation(al->sel[s], al->fi[s], BT_ASM_ATT, err);
		if (al->an[s] == NULL) {
			bt_align_free(al);
			return NULL;
		}
	}
	bt_match_insns(al->an[0], al->an[1], &al->m);
	for (s = 0; s < 2; s++)
		parts[s] = bt_xcalloc(maxp + BT_ALIGN_SLICES, sizeof(struct part));
	parts_of(al, bench, parts, maxp);
	for (s = 0; s < 2; s++) {
		sd.n[s] = al->an[s]->insns.n;
		sd.np[s] = al->nparts[s];
		sd.vals[s] = part_values(al->sel[s], al->fi[s], bench[s], parts[s],
		    sd.np[s], sd.n[s]);
	}
	sd.va = bt_xcalloc(sd.np[0] + 1, sizeof(double));
	sd.vb = bt_xcalloc(sd.np[1] + 1, sizeof(double));
	al->st = bt_xcalloc(al->m.rows.n + 1, sizeof(*al->st));
	al->tested = bt_xcalloc(al->m.rows.n + 1, sizeof(bool));
	for (r = 0; r < al->m.rows.n; r++)
		al->tested[r] = test_rows(al, &sd, r, 1, 0x6d61746368ULL + r, &al->st[r]);
	make_blocks(al);
	for (b = 0; b < al->blocks.n; b++) {
		struct bt_align_block *bl = &al->blocks.v[b];
		bl->tested = test_rows(al, &sd, bl->first, bl->n, 0x626c6f636bULL + b, &bl->st);
	}
	control_fdr(al);
	find_hottest(al);
	for (b = 0; b < al->blocks.n; b++) {
		long blk = -1 - (long)b;
		BT_VEC_PUSH(al->unit_row, blk);
		for (r = al->blocks.v[b].first; r < al->blocks.v[b].first + al->blocks.v[b].n; r++)
			BT_VEC_PUSH(al->unit_row, (long)r);
	}
	for (s = 0; s < 2; s++) {
		free(parts[s]);
		free(sd.vals[s]);
	}
	free(sd.va);
	free(sd.vb);
	return al;
}

void
bt_align_free(struct bt_align *al)
{
	if (al == NULL)
		return;
	bt_insn_match_release(&al->m);
	free(al->st);
	free(al->tested);
	BT_VEC_FREE(al->blocks);
	BT_VEC_FREE(al->unit_row);
	free(al->row_block);
	bt_selection_free(al->sel[0]);
	bt_selection_free(al->sel[1]);
	free(al);
}
