/*
 * The comparison of two recordings (docs/diff.md): benchmarks paired by
 * name; per pair, the benchmark's time per op over the harness's
 * repetitions, and its functions' cost per op over the profile's samples
 * of each repetition (or of time slices of its measured phase when it
 * ran once); every unit tested (stats.c), the false discovery rate
 * controlled over all of them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "hash.h"
#include "benchtui/bench.h"
#include "benchtui/selection.h"
#include "diff/match.h"
#include "diff/stats.h"

struct bt_diff {
	struct bt_diff_opts o;
	struct bt_selection *side[2];
	BT_VEC(struct bt_diff_pair) pairs;
	BT_VEC(struct bt_diff_unit) units;
	BT_VEC(struct bt_selection *) bsel[2];	/* per pair */
	BT_VEC(double *) vecs;			/* the units' vectors, owned */
	struct bt_strpool pool;
};

/* The pair of a comparison of recordings without benchmarks: their whole runs. */
#define BT_DIFF_WHOLE (-2L)
#define MIN_CALL_SAMPLES 100	/* a function's samples a side to be called */
#define JIT_NOISE 0.30		/* the noise floor of a JIT's code */

/* One part of a benchmark's run: a repetition or a time slice. */
struct part {
	double from, to;	/* seconds, or percent of the run (whole run) */
	bool percent;
	bool span;		/* a slice of the span of the benchmark's own samples */
	double iterations;	/* NAN for a slice */
};

/*
 * A function compared in one pair: its name and index on each side (a
 * renamed one has two names: diffmatch's pairing), its values per part.
 */
struct cand {
	const char *name[2];
	const char *module[2];
	long fi[2];
	enum bt_match_how how;
	BT_VEC(double) v[2];
};

struct cands {
	BT_VEC(struct cand) v;
	struct bt_hash hash[2];		/* by name, per side */
};

void
bt_diff_opts_init(struct bt_diff_opts *o)
{
	o->level = BT_DIFF_LEVEL;
	o->seed = 1;
	o->slices = 10;
	o->min_share = 1;
	o->max_funcs = 20;
	o->noise = 0.10;
}

static uint64_t
hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ULL;
	return bt_hash64(h);
}

/* "16.5 ns", "5.10 ns/op", "1.2 us", "3 ms", "806.17 ps": in ns, NAN when not a time. */
static double
parse_ns(const char *t)
{
	static const struct { const char *unit; double ns; } units[] = {
		{ "ps", 1e-3 }, { "ns", 1 }, { "us", 1e3 }, { "\xc2\xb5s", 1e3 }, { "\xce\xbcs", 1e3 },
		{ "ms", 1e6 }, { "s", 1e9 },
	};
	char *end;
	double v;
	size_t i;

	if (t == NULL)
		return NAN;
	v = strtod(t, &end);
	if (end == t)
		return NAN;
	while (*end == ' ')
		end++;
	for (i = 0; i < BT_ARRAY_SIZE(units); i++)
		if (strncmp(end, units[i].unit, strlen(units[i].unit)) == 0)
			return v * units[i].ns;
	return NAN;
}

static double
parse_count(const char *t)
{
	char *end;
	double v;

	if (t == NULL)
		return NAN;
	v = strtod(t, &end);
	if (end == t || v <= 0)
		return NAN;
	switch (*end) {		/* criterion's "359k iterations", "1.2M" */
	case 'k': return v * 1e3;
	case 'M': return v * 1e6;
	case 'G': case 'B': return v * 1e9;	/* criterion: "5.1B" */
	}
	return v;
}

/* What period / iterations is, by the event. */
static const char *
cost_unit(struct bt_diff *d, const char *event)
{
	size_t n = strcspn(event, ":/");

	if (strncmp(event, "cpu-clock", n) == 0 || strncmp(event, "task-clock", n) == 0)
		return "ns/op";
	if (strncmp(event, "cycles", n) == 0 || strncmp(event, "cpu-cycles", n) == 0)
		return "cycles/op";
	return bt_strpool_addf(&d->pool, "%.*s/op", (int)n, event);
}

static struct bt_selection *
bench_sel(struct bt_selection *side, long bi, double from, double to, bool percent)
{
	struct bt_selection_opts o = *bt_selection_opts(side);

	o.bench = bi;
	o.time_from = from;
	o.time_to = to;
	o.time_percent = percent;
	return bt_selection_new(bt_selection_session(side), &o, NULL);
}

/* Did every repetition of benchmark bi print its CPU time too? */
static bool
rep_cpu(struct bt_selection *side, long bi)
{
	const struct bt_bench_run *runs;
	size_t n = bi < 0 ? 0 : bt_selection_bench_runs(side, (size_t)bi, &runs), k;

	for (k = 0; k < n; k++)
		if (runs[k].aggregate == NULL && runs[k].error == NULL && !isfinite(runs[k].cpu_ns))
			return false;
	return true;
}

/* The harness's repetitions of benchmark bi: their (CPU) times in ns. */
static size_t
rep_times(struct bt_selection *side, long bi, bool cpu, double **out)
{
	const struct bt_bench_run *runs;
	size_t n = bi < 0 ? 0 : bt_selection_bench_runs(side, (size_t)bi, &runs), k, m = 0;

	*out = bt_xcalloc(n + 1, sizeof(**out));
	for (k = 0; k < n; k++) {
		double t = cpu ? runs[k].cpu_ns : parse_ns(runs[k].time_text);
		if (runs[k].aggregate == NULL && runs[k].error == NULL && isfinite(t))
			(*out)[m++] = t;
	}
	return m;
}

static size_t
vec_copy(const double *v, size_t n, double **out)
{
	*out = bt_xcalloc(n + 1, sizeof(**out));
	if (n)
		memcpy(*out, v, n * sizeof(**out));
	return n;
}

/* Its repetitions with their own samples and iterations. */
static size_t
rep_parts(struct bt_selection *side, long bi, struct part **out)
{
	const struct bt_bench_run *runs;
	size_t n = bi < 0 ? 0 : bt_selection_bench_runs(side, (size_t)bi, &runs), k, m = 0;

	*out = bt_xcalloc(n + 1, sizeof(**out));
	for (k = 0; k < n; k++) {
		struct part *p = &(*out)[m];
		if (runs[k].aggregate != NULL ||
		    !bt_selection_bench_run_window(side, (size_t)bi, k, &p->from, &p->to))
			continue;
		p->iterations = parse_count(runs[k].iterations_text);
		if (isfinite(p->iterations) && p->to > p->from)
			m++;
	}
	return m;
}

/*
 * Equal time slices of its one repetition's window (from), else of its
 * span; *iterations: that repetition's, else the benchmark's.
 */
static size_t
slice_parts(struct bt_selection *side, long bi, const struct part *from, size_t n,
	    struct part **out, double *iterations)
{
	const struct bt_bench *b = bi < 0 ? NULL : bt_selection_bench(side, (size_t)bi);
	double lo, hi;
	size_t k;

	*out = bt_xcalloc(n + 1, sizeof(**out));
	*iterations = NAN;
	if (from != NULL) {
		lo = from->from;
		hi = from->to;
		*iterations = from->iterations;
	} else if (b != NULL && b->has_window && b->by_chain) {
		/* told apart by its entry frame: its samples' own span */
		for (k = 0; k < n; k++) {
			(*out)[k].span = true;
			(*out)[k].iterations = NAN;
		}
		*iterations = b->iterations;
		return n;
	} else if (b != NULL && b->has_window && b->t_to > b->t_from) {
		lo = b->t_from;
		hi = b->t_to;
		*iterations = b->iterations;
	} else if (bi == BT_DIFF_WHOLE) {	/* percent of the run */
		lo = 0;
		hi = 100;
	} else {
		return 0;
	}
	for (k = 0; k < n; k++) {
		(*out)[k].from = lo + (hi - lo) * (double)k / (double)n;
		(*out)[k].to = lo + (hi - lo) * (double)(k + 1) / (double)n;
		(*out)[k].iterations = NAN;
		(*out)[k].percent = bi == BT_DIFF_WHOLE;
	}
	return n;
}

/* Side s's candidate named name, NULL when none. */
static struct cand *
cand_find(struct cands *c, int s, const char *name)
{
	struct bt_hash_pos pos;
	uint32_t i;

	for (i = bt_hash_first(&c->hash[s], hash_str(name), &pos); i != BT_HASH_NONE;
	    i = bt_hash_next(&c->hash[s], &pos))
		if (strcmp(c->v.v[i].name[s], name) == 0)
			return &c->v.v[i];
	return NULL;
}

static void
cand_add(struct cands *c, const struct bt_func *fa, long ia, const struct bt_func *fb,
	 long ib, enum bt_match_how how)
{
	const struct bt_func *f[2] = { fa, fb };
	long fi[2] = { ia, ib };
	struct cand nc;
	int s;

	memset(&nc, 0, sizeof(nc));
	nc.how = how;
	for (s = 0; s < 2; s++) {
		struct bt_hash_pos pos;
		if (f[s] == NULL || f[s]->name == NULL || cand_find(c, s, f[s]->name) != NULL) {
			nc.fi[s] = -1;
			continue;
		}
		nc.name[s] = f[s]->name;
		nc.module[s] = f[s]->module_name;
		nc.fi[s] = fi[s];
		for (uint32_t i = bt_hash_first(&c->hash[s], hash_str(f[s]->name), &pos);
		    i != BT_HASH_NONE; i = bt_hash_next(&c->hash[s], &pos))
			;	/* to the empty slot: the name is new (cand_find) */
		bt_hash_add(&c->hash[s], &pos, (uint32_t)c->v.n);
	}
	if (nc.fi[0] >= 0 || nc.fi[1] >= 0)
		BT_VEC_PUSH(c->v, nc);
}

/*
 * Is f hot enough to compare? The kernel's functions (the scheduler,
 * interrupts) move with the machine's load: compared from 10% only.
 */
static bool
wanted(const struct bt_diff *d, const struct bt_func *f)
{
	bool kernel = f != NULL && (f->kind == BT_FK_KERNEL ||
	    (f->module_name != NULL && strncmp(f->module_name, "[kernel", 7) == 0));

	return f != NULL && f->percent >= (kernel ? BT_MAX(d->o.min_share, 10) : d->o.min_share);
}

/*
 * The functions with min_share of the benchmark's samples on either side,
 * paired across the two (diffmatch's bt_match_selection_funcs: by name,
 * then short and base name, then control-flow hash), the hottest first.
 */
static void
pick_funcs(struct bt_diff *d, struct bt_selection *sa, struct bt_selection *sb,
	   struct cands *c)
{
	struct bt_func_pair *pairs = NULL;
	size_t n, k, taken = 0;

	if (sa != NULL && sb != NULL) {
		n = bt_match_selection_funcs(sa, sb, &pairs);
	} else {	/* one side: its functions alone */
		struct bt_selection *one = sa ? sa : sb;
		n = one ? bt_selection_nfuncs(one) : 0;
		pairs = bt_xcalloc(n + 1, sizeof(*pairs));
		for (k = 0; k < n; k++) {
			pairs[k].a = sa ? (long)k : -1;
			pairs[k].b = sb ? (long)k : -1;
			pairs[k].how = BT_MATCH_NONE;
		}
	}
	for (k = 0; k < n && taken < 2 * d->o.max_funcs; k++) {
		const struct bt_func *fa = pairs[k].a >= 0 ? bt_selection_func(sa, (size_t)pairs[k].a) : NULL;
		const struct bt_func *fb = pairs[k].b >= 0 ? bt_selection_func(sb, (size_t)pairs[k].b) : NULL;
		if (!wanted(d, fa) && !wanted(d, fb))
			continue;
		cand_add(c, fa, pairs[k].a, fb, pairs[k].b, pairs[k].how);
		taken++;
	}
	free(pairs);
}

/*
 * Side s's value of each candidate in each part: period / iterations of
 * a repetition; a slice's share of its samples' period (a slice has no
 * iterations of its own: func_units scales the shares). The benchmark's
 * samples are read once and split by part (bt_selection_split): a part
 * holds what the benchmark's selection with the part's time window
 * holds. Returns the parts' period.
 */
static uint64_t
part_values(struct bt_diff *d, int s, struct bt_selection *bs, const struct part *parts,
	    size_t np, struct cands *c, double *per_op, size_t *nper_op)
{
	struct bt_time_part *tp;
	struct cand **of;
	uint64_t all = 0, *period = NULL, *total;
	size_t k, i, j, nf;

	*nper_op = 0;
	if (bs == NULL || np == 0)
		return 0;
	nf = bt_selection_nfuncs(bs);
	tp = bt_xcalloc(np, sizeof(*tp));
	total = bt_xcalloc(np, sizeof(*total));
	for (k = 0; k < np; k++) {
		tp[k].from = parts[k].from;
		tp[k].to = parts[k].to;
		tp[k].percent = parts[k].percent;
	}
	if ((parts[0].span ? bt_selection_split_span(bs, np, &period, total, NULL) :
	    bt_selection_split(bs, tp, np, &period, total, NULL)) < 0) {
		free(tp);
		free(total);
		return 0;
	}
	/* each function's candidate, by name: two functions of one name, both */
	of = bt_xcalloc(nf + 1, sizeof(*of));
	for (i = 0; i < nf; i++) {
		const struct bt_func *f = bt_selection_func(bs, i);
		of[i] = f->name ? cand_find(c, s, f->name) : NULL;
	}
	for (k = 0; k < np; k++) {
		size_t base = c->v.n ? c->v.v[0].v[s].n : 0;

		if (total[k] == 0)
			continue;
		all += total[k];
		if (isfinite(parts[k].iterations))	/* the part's period per op */
			per_op[(*nper_op)++] = (double)total[k] / parts[k].iterations;
		for (j = 0; j < c->v.n; j++)
			BT_VEC_PUSH(c->v.v[j].v[s], 0.0);
		for (i = 0; i < nf; i++) {
			uint64_t fp = period[k * nf + i];
			if (of[i] == NULL || fp == 0)
				continue;
			if (isfinite(parts[k].iterations))
				of[i]->v[s].v[base] += (double)fp / parts[k].iterations;
			else
				of[i]->v[s].v[base] += (double)fp / (double)total[k];
		}
	}
	free(of);
	free(period);
	free(tp);
	free(total);
	return all;
}

static double *
keep_vec(struct bt_diff *d, const double *v, size_t n)
{
	double *c = bt_xcalloc(n + 1, sizeof(*c));

	if (n)
		memcpy(c, v, n * sizeof(*c));
	BT_VEC_PUSH(d->vecs, c);
	return c;
}

static uint64_t
unit_seed(const struct bt_diff *d, const char *bench, const char *func)
{
	return d->o.seed ^ hash_str(bench) ^ (func ? bt_hash64(hash_str(func)) : 0);
}

static void
add_unit(struct bt_diff *d, struct bt_diff_unit *u, const double *va, size_t na,
	 const double *vb, size_t nb)
{
	const char *bench = d->pairs.v[u->pair].name;

	u->va = keep_vec(d, va, na);
	u->vb = keep_vec(d, vb, nb);
	u->na = na;
	u->nb = nb;
	bt_diff_test(u->va, na, u->vb, nb,
		     unit_seed(d, bench, u->kind == BT_DIFF_FUNC ? u->name : NULL), &u->st);
	BT_VEC_PUSH(d->units, *u);
}

/*
 * Pair pi's benchmark unit: the harness's repetitions, their CPU times
 * where every one printed it (Google Benchmark's CPU column); where not
 * (go test prints wall-clock ns/op, which a loaded machine moves between
 * runs), the profile's CPU time per op of each repetition where both
 * sides have it (prof: each repetition's period / its iterations, the
 * event counting nanoseconds of CPU: cpu-clock, task-clock).
 */
static void
bench_unit(struct bt_diff *d, size_t pi, double *const prof[2], const size_t nprof[2])
{
	struct bt_diff_pair *p = &d->pairs.v[pi];
	struct bt_diff_unit u;
	bool cpu = p->a >= 0 && p->b >= 0 && rep_cpu(d->side[0], p->a) && rep_cpu(d->side[1], p->b);
	bool from_prof;
	double *ta, *tb;
	size_t na = rep_times(d->side[0], p->a, cpu, &ta), nb = rep_times(d->side[1], p->b, cpu, &tb);

	from_prof = !cpu && na >= 2 && nb >= 2 && nprof[0] >= 2 && nprof[1] >= 2;
	if (from_prof) {
		free(ta);
		free(tb);
		na = vec_copy(prof[0], nprof[0], &ta);
		nb = vec_copy(prof[1], nprof[1], &tb);
	}
	memset(&u, 0, sizeof(u));
	u.kind = BT_DIFF_BENCH;
	u.pair = pi;
	u.name = p->name;
	u.unit = "ns/op";
	u.vectors = p->a == BT_DIFF_WHOLE ? "no harness" : na < 2 || nb < 2 ? "one result" :
	    cpu ? "repetitions (CPU)" : from_prof ? "repetitions (CPU, from the profile)" :
	    "repetitions";
	u.fa = u.fb = -1;
	p->unit = d->units.n;
	add_unit(d, &u, ta, na, tb, nb);
	free(ta);
	free(tb);
}

/* Pair pi's function units. */
static void
func_units(struct bt_diff *d, size_t pi)
{
	struct bt_diff_pair *p = &d->pairs.v[pi];
	struct cands c;
	struct part *parts[2], *sliced[2] = { NULL, NULL };
	double iters[2] = { NAN, NAN };
	size_t np[2], k;
	const char *unit, *vectors = "runs";
	long bi[2] = { p->a, p->b };
	double *prof[2];
	size_t nprof[2] = { 0, 0 };
	bool ns;
	int s;

	memset(&c, 0, sizeof(c));
	bt_hash_init(&c.hash[0], 64);
	bt_hash_init(&c.hash[1], 64);
	pick_funcs(d, d->bsel[0].v[pi], d->bsel[1].v[pi], &c);
	for (s = 0; s < 2; s++)
		np[s] = rep_parts(d->side[s], bi[s], &parts[s]);
	unit = cost_unit(d, bt_selection_event(d->side[1]));
	/* a period per op in ns of CPU on both sides */
	ns = strcmp(unit, "ns/op") == 0 &&
	    strcmp(cost_unit(d, bt_selection_event(d->side[0])), "ns/op") == 0;
	if (np[0] < 2 || np[1] < 2) {
		/*
		 * Run once: slices of its measured phase, each function's share
		 * of a slice times the run's period per iteration
		 */
		vectors = "slices";
		for (s = 0; s < 2; s++) {
			struct part *one = np[s] == 1 ? parts[s] : NULL;
			np[s] = slice_parts(d->side[s], bi[s], one, d->o.slices, &sliced[s],
			    &iters[s]);
			if (!isfinite(iters[s]))
				unit = "share";
		}
	}
	for (s = 0; s < 2; s++) {
		const struct part *pp = sliced[s] ? sliced[s] : parts[s];
		uint64_t all;

		prof[s] = bt_xcalloc(np[s] + 1, sizeof(*prof[s]));
		all = part_values(d, s, d->bsel[s].v[pi], pp, np[s], &c, prof[s], &nprof[s]);
		if (sliced[s] != NULL || !ns)
			nprof[s] = 0;
		double scale = strcmp(unit, "share") == 0 ? 100 :
		    (double)all / (np[s] ? iters[s] : 1);
		if (sliced[s] == NULL)
			continue;
		for (k = 0; k < c.v.n; k++)
			for (size_t j = 0; j < c.v.v[k].v[s].n; j++)
				c.v.v[k].v[s].v[j] *= scale;
	}
	bench_unit(d, pi, prof, nprof);
	p = &d->pairs.v[pi];
	p->funcs = d->units.n;
	for (k = 0; k < c.v.n; k++) {
		struct cand *cd = &c.v.v[k];
		struct bt_diff_unit u;
		memset(&u, 0, sizeof(u));
		u.kind = BT_DIFF_FUNC;
		u.pair = pi;
		u.name = cd->name[1] ? cd->name[1] : cd->name[0];
		u.name_a = cd->name[0] && cd->name[1] && strcmp(cd->name[0], cd->name[1]) ?
		    cd->name[0] : NULL;
		u.match = cd->fi[0] >= 0 && cd->fi[1] >= 0 ? bt_match_how_name(cd->how) : NULL;
		u.module_a = cd->module[0];
		u.module_b = cd->module[1];
		u.unit = unit;
		u.vectors = vectors;
		u.fa = cd->fi[0];
		u.fb = cd->fi[1];
		add_unit(d, &u, cd->v[0].v, cd->v[0].n, cd->v[1].v, cd->v[1].n);
		p = &d->pairs.v[pi];
	}
	p->nfuncs = d->units.n - p->funcs;
	for (k = 0; k < c.v.n; k++) {
		BT_VEC_FREE(c.v.v[k].v[0]);
		BT_VEC_FREE(c.v.v[k].v[1]);
	}
	BT_VEC_FREE(c.v);
	bt_hash_release(&c.hash[0]);
	bt_hash_release(&c.hash[1]);
	for (s = 0; s < 2; s++) {
		free(parts[s]);
		free(sliced[s]);
		free(prof[s]);
	}
}

static void
add_pair(struct bt_diff *d, const char *name, long a, long b)
{
	struct bt_diff_pair p;
	const struct bt_bench *ba = a < 0 ? NULL : bt_selection_bench(d->side[0], (size_t)a);
	const struct bt_bench *bb = b < 0 ? NULL : bt_selection_bench(d->side[1], (size_t)b);
	struct bt_selection *sa = a < 0 ? NULL : bench_sel(d->side[0], a, -1, -1, false);
	struct bt_selection *sb = b < 0 ? NULL : bench_sel(d->side[1], b, -1, -1, false);

	memset(&p, 0, sizeof(p));
	p.name = bt_strpool_addstr(&d->pool, name);
	p.a = a;
	p.b = b;
	p.time_a = ba ? ba->time_text : NULL;
	p.time_b = bb ? bb->time_text : NULL;
	BT_VEC_PUSH(d->pairs, p);
	BT_VEC_PUSH(d->bsel[0], sa);
	BT_VEC_PUSH(d->bsel[1], sb);
}

/*
 * Recordings without a harness's results (perf's, a program of one's
 * own): their whole runs, one pair, the functions' shares of time slices.
 */
static void
whole_pair(struct bt_diff *d)
{
	struct bt_diff_pair p;

	memset(&p, 0, sizeof(p));
	p.name = "(whole run)";
	p.a = p.b = BT_DIFF_WHOLE;
	BT_VEC_PUSH(d->pairs, p);
	BT_VEC_PUSH(d->bsel[0], bt_selection_ref(d->side[0]));
	BT_VEC_PUSH(d->bsel[1], bt_selection_ref(d->side[1]));
}

/* The benchmarks by name: A's in its order, then B's new ones. */
static void
pair_benches(struct bt_diff *d)
{
	size_t na = bt_selection_nbenches(d->side[0]), nb = bt_selection_nbenches(d->side[1]);
	bool *seen = bt_xcalloc(nb + 1, sizeof(*seen));
	size_t i, j;

	for (i = 0; i < na; i++) {
		const char *name = bt_selection_bench(d->side[0], i)->name;
		long b = -1;
		for (j = 0; j < nb && b < 0; j++)
			if (!seen[j] && strcmp(bt_selection_bench(d->side[1], j)->name, name) == 0)
				b = (long)j;
		if (b >= 0)
			seen[b] = true;
		add_pair(d, name, (long)i, b);
	}
	for (j = 0; j < nb; j++)
		if (!seen[j])
			add_pair(d, bt_selection_bench(d->side[1], j)->name, -1, (long)j);
	free(seen);
}

static double
abs_change(const struct bt_diff_unit *u)
{
	double a = isfinite(u->st.a) ? u->st.a : 0, b = isfinite(u->st.b) ? u->st.b : 0;

	return fabs(b - a);
}

static int
cmp_change(const void *x, const void *y)
{
	double a = abs_change(x), b = abs_change(y);

	if (a != b)
		return a > b ? -1 : 1;
	return strcmp(((const struct bt_diff_unit *)x)->name,
		      ((const struct bt_diff_unit *)y)->name);
}

/*
 * The noise floor to judge unit u by; NAN: never slower or faster (few
 * samples, a JIT's code: what one run's parts miss, docs/diff.md).
 */
static double
unit_floor(const struct bt_diff *d, const struct bt_diff_unit *u)
{
	const struct bt_selection *sa = d->bsel[0].v[u->pair], *sb = d->bsel[1].v[u->pair];

	if (u->kind != BT_DIFF_FUNC || u->fa < 0 || u->fb < 0)
		return d->o.noise;
	if (sa == NULL || sb == NULL ||
	    bt_selection_func(sa, (size_t)u->fa)->samples < MIN_CALL_SAMPLES ||
	    bt_selection_func(sb, (size_t)u->fb)->samples < MIN_CALL_SAMPLES)
		return NAN;
	return strcmp(u->module_a, "[jit]") == 0 || strcmp(u->module_b, "[jit]") == 0 ?
	    BT_MAX(d->o.noise, JIT_NOISE) : d->o.noise;
}

struct bt_diff *
bt_diff_new(struct bt_selection *a, struct bt_selection *b,
	    const struct bt_diff_opts *o, struct bt_error *err)
{
	struct bt_diff *d;
	struct bt_diff_stat *st;
	size_t i;

	d = bt_xcalloc(1, sizeof(*d));
	if (o != NULL)
		d->o = *o;
	else
		bt_diff_opts_init(&d->o);
	d->side[0] = bt_selection_ref(a);
	d->side[1] = bt_selection_ref(b);
	bt_strpool_init(&d->pool);
	if (bt_selection_nbenches(a) == 0 && bt_selection_nbenches(b) == 0)
		whole_pair(d);
	else
		pair_benches(d);
	for (i = 0; i < d->pairs.n; i++) {
		func_units(d, i);	/* the benchmark's unit, then its functions' */
		qsort(d->units.v + d->pairs.v[i].funcs, d->pairs.v[i].nfuncs,
		      sizeof(*d->units.v), cmp_change);
	}
	/* the false discovery rate over every unit shown */
	st = bt_xcalloc(d->units.n + 1, sizeof(*st));
	for (i = 0; i < d->units.n; i++)
		st[i] = d->units.v[i].st;
	bt_diff_fdr(st, d->units.n, d->o.level);
	for (i = 0; i < d->units.n; i++) {
		double nf = unit_floor(d, &d->units.v[i]);
		d->units.v[i].st = st[i];
		d->units.v[i].st.verdict = bt_diff_verdict_floor(&st[i], d->o.level,
		    isnan(nf) ? d->o.noise : nf);
		if (isnan(nf) && d->units.v[i].st.verdict != BT_V_UNCHANGED)
			d->units.v[i].st.verdict = BT_V_UNRESOLVED;
		/* one side only (new, gone, inlined): its benchmark's time judges */
		if (d->units.v[i].kind == BT_DIFF_FUNC &&
		    (d->units.v[i].fa < 0 || d->units.v[i].fb < 0))
			d->units.v[i].st.verdict = BT_V_UNRESOLVED;
	}
	free(st);
	return d;
}

void
bt_diff_free(struct bt_diff *d)
{
	size_t i;
	int s;

	if (d == NULL)
		return;
	for (s = 0; s < 2; s++) {
		for (i = 0; i < d->bsel[s].n; i++)
			bt_selection_free(d->bsel[s].v[i]);
		BT_VEC_FREE(d->bsel[s]);
		bt_selection_free(d->side[s]);
	}
	for (i = 0; i < d->vecs.n; i++)
		free(d->vecs.v[i]);
	BT_VEC_FREE(d->vecs);
	BT_VEC_FREE(d->units);
	BT_VEC_FREE(d->pairs);
	bt_strpool_release(&d->pool);
	free(d);
}

const struct bt_diff_opts *
bt_diff_opts(const struct bt_diff *d)
{
	return &d->o;
}

size_t
bt_diff_npairs(const struct bt_diff *d)
{
	return d->pairs.n;
}

const struct bt_diff_pair *
bt_diff_pair(const struct bt_diff *d, size_t i)
{
	return i < d->pairs.n ? &d->pairs.v[i] : NULL;
}

size_t
bt_diff_nunits(const struct bt_diff *d)
{
	return d->units.n;
}

const struct bt_diff_unit *
bt_diff_unit(const struct bt_diff *d, size_t i)
{
	return i < d->units.n ? &d->units.v[i] : NULL;
}

struct bt_selection *
bt_diff_side(const struct bt_diff *d, int side)
{
	return d->side[side != 0];
}

struct bt_selection *
bt_diff_selection(const struct bt_diff *d, int side, size_t i)
{
	return i < d->pairs.n ? d->bsel[side != 0].v[i] : NULL;
}

size_t
bt_diff_slower(const struct bt_diff *d, double pct)
{
	size_t i, n = 0;

	for (i = 0; i < d->pairs.n; i++) {
		const struct bt_diff_unit *u = &d->units.v[d->pairs.v[i].unit];
		if (u->st.verdict == BT_V_SLOWER && u->st.lo * 100 > pct)
			n++;
	}
	return n;
}
