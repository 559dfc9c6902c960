/*
 * The statistics of a comparison (docs/diff.md "The statistics"): a
 * permutation test of the difference of two means, the relative change's
 * bootstrap interval, the minimum detectable effect, Benjamini-Hochberg.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "diff/stats.h"

/* splitmix64: small, fast, and the same sequence everywhere. */
static uint64_t
rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, n). */
static size_t
rng_below(uint64_t *s, size_t n)
{
	return (size_t)(((unsigned __int128)rng_next(s) * n) >> 64);
}

double
bt_diff_mean(const double *v, size_t n)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += v[i];
	return n ? sum / (double)n : NAN;
}

double
bt_diff_var(const double *v, size_t n)
{
	double m = bt_diff_mean(v, n), ss = 0;
	size_t i;

	if (n < 2)
		return 0;
	for (i = 0; i < n; i++)
		ss += (v[i] - m) * (v[i] - m);
	return ss / (double)(n - 1);
}

/* Student's t, one-sided quantiles 0.975 and 0.80, df 1-30. */
static const double t975[30] = {
	12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};
static const double t80[30] = {
	1.376, 1.061, 0.978, 0.941, 0.920, 0.906, 0.896, 0.889, 0.883, 0.879,
	0.876, 0.873, 0.870, 0.868, 0.866, 0.865, 0.863, 0.862, 0.861, 0.860,
	0.859, 0.858, 0.858, 0.857, 0.856, 0.856, 0.855, 0.855, 0.854, 0.854,
};

double
bt_diff_tq(double p, size_t df)
{
	double z = p > 0.9 ? 1.959964 : 0.841621, d = (double)df;

	if (df == 0)
		return NAN;
	if (df <= 30)
		return p > 0.9 ? t975[df - 1] : t80[df - 1];
	/* Cornish-Fisher series in 1/df (Abramowitz and Stegun 26.7.5) */
	return z + (z * z * z + z) / (4 * d) +
	    (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * d * d);
}

/* C(n, k), capped at cap + 1. */
static uint64_t
choose(size_t n, size_t k, uint64_t cap)
{
	unsigned __int128 c = 1;
	size_t i;

	if (k > n - k)
		k = n - k;
	for (i = 1; i <= k; i++) {
		c = c * (n - k + i) / i;
		if (c > cap)
			return cap + 1;
	}
	return (uint64_t)c;
}

struct perm {
	const double *pool;
	size_t n, na, nb;
	double total, obs, tol;
	uint64_t hits, splits;
};

/* |mean(B) - mean(A)| when A's values sum to sa. */
static double
perm_stat(const struct perm *pm, double sa)
{
	return fabs((pm->total - sa) / (double)pm->nb - sa / (double)pm->na);
}

/* Every split: A takes k more values from pool[from..]. */
static void
perm_exact(struct perm *pm, size_t from, size_t k, double sa)
{
	size_t i;

	if (k == 0) {
		pm->splits++;
		if (perm_stat(pm, sa) >= pm->obs - pm->tol)
			pm->hits++;
		return;
	}
	for (i = from; i + k <= pm->n; i++)
		perm_exact(pm, i + 1, k - 1, sa + pm->pool[i]);
}

static double
permutation_p(const double *a, size_t na, const double *b, size_t nb, uint64_t *seed)
{
	struct perm pm = { NULL, na + nb, na, nb, 0, 0, 0, 0, 0 };
	double *pool = bt_xmalloc((na + nb) * sizeof(*pool)), scale = 0, p;
	size_t i, r;

	memcpy(pool, a, na * sizeof(*a));
	memcpy(pool + na, b, nb * sizeof(*b));
	for (i = 0; i < na + nb; i++) {
		pm.total += pool[i];
		scale = BT_MAX(scale, fabs(pool[i]));
	}
	pm.pool = pool;
	pm.obs = fabs(bt_diff_mean(b, nb) - bt_diff_mean(a, na));
	pm.tol = 1e-9 * scale;	/* ties, within rounding, count as extreme */
	if (choose(na + nb, na, BT_DIFF_PERMUTATIONS) <= BT_DIFF_PERMUTATIONS) {
		perm_exact(&pm, 0, na, 0);
		p = (double)pm.hits / (double)pm.splits;
	} else {
		for (r = 0; r < BT_DIFF_PERMUTATIONS; r++) {
			double sa = 0;
			for (i = 0; i < na; i++) {	/* a partial Fisher-Yates shuffle */
				size_t j = i + rng_below(seed, na + nb - i);
				double t = pool[i];
				pool[i] = pool[j];
				pool[j] = t;
				sa += pool[i];
			}
			if (perm_stat(&pm, sa) >= pm.obs - pm.tol)
				pm.hits++;
		}
		/* the observed split counts as one of them (Phipson & Smyth 2010) */
		p = (double)(pm.hits + 1) / (BT_DIFF_PERMUTATIONS + 1);
	}
	free(pool);
	return p;
}

static int
cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

/* The q-quantile of sorted v (linear between order statistics: R's type 7). */
static double
quantile(const double *v, size_t n, double q)
{
	double h = (double)(n - 1) * q;
	size_t i = (size_t)floor(h);

	if (i + 1 >= n)
		return v[n - 1];
	return v[i] + (h - (double)i) * (v[i + 1] - v[i]);
}

static double
resample_mean(const double *v, size_t n, uint64_t *seed)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += v[rng_below(seed, n)];
	return sum / (double)n;
}

/* The percentile interval of (mean(B*) - mean(A*)) / mean(A*). */
static void
bootstrap(const double *a, size_t na, const double *b, size_t nb, uint64_t *seed,
	  double *lo, double *hi)
{
	double *r = bt_xmalloc(BT_DIFF_BOOTSTRAP * sizeof(*r));
	size_t i, n = 0;

	for (i = 0; i < BT_DIFF_BOOTSTRAP; i++) {
		double ma = resample_mean(a, na, seed), mb = resample_mean(b, nb, seed);
		if (ma != 0)
			r[n++] = (mb - ma) / ma;
	}
	if (n < BT_DIFF_BOOTSTRAP / 2) {	/* A's mean is mostly 0: no relative change */
		*lo = *hi = NAN;
	} else {
		qsort(r, n, sizeof(*r), cmp_double);
		*lo = quantile(r, n, 0.025);
		*hi = quantile(r, n, 0.975);
	}
	free(r);
}

/* (t(0.975) + t(0.80)) * sp * sqrt(1/na + 1/nb) / |mean(A)|: 80% power at 5%. */
static double
mde(const double *a, size_t na, const double *b, size_t nb, double ma)
{
	size_t df = na + nb - 2;
	double sp;

	if (na < 2 || nb < 2)
		return NAN;
	sp = sqrt(((double)(na - 1) * bt_diff_var(a, na) +
		   (double)(nb - 1) * bt_diff_var(b, nb)) / (double)df);
	if (sp == 0)
		return 0;
	if (ma == 0)
		return NAN;
	return (bt_diff_tq(0.975, df) + bt_diff_tq(0.8, df)) * sp *
	    sqrt(1.0 / (double)na + 1.0 / (double)nb) / fabs(ma);
}

void
bt_diff_test(const double *a, size_t na, const double *b, size_t nb,
	     uint64_t seed, struct bt_diff_stat *out)
{
	uint64_t s = seed;

	out->a = bt_diff_mean(a, na);
	out->b = bt_diff_mean(b, nb);
	out->lo = out->hi = out->mde = out->delta = NAN;
	out->p = out->q = 1;
	out->verdict = BT_V_UNRESOLVED;
	if (na == 0 || nb == 0)
		return;
	if (out->a != 0)
		out->delta = (out->b - out->a) / out->a;
	else if (out->b == 0)
		out->delta = 0;
	out->p = out->q = permutation_p(a, na, b, nb, &s);
	out->mde = mde(a, na, b, nb, out->a);
	if (na >= 2 && nb >= 2) {
		if (out->a == 0 && out->b == 0 && out->mde == 0)
			out->lo = out->hi = 0;	/* all zero */
		else
			bootstrap(a, na, b, nb, &s, &out->lo, &out->hi);
	}
	out->verdict = bt_diff_verdict(out, BT_DIFF_LEVEL);
}

enum bt_verdict
bt_diff_verdict_floor(const struct bt_diff_stat *s, double level, double noise)
{
	double m = BT_MAX(s->mde, noise);	/* NAN stays NAN */

	if (isnan(s->mde) || (noise > 0 && s->mde > BT_DIFF_MDE_MAX))
		m = NAN;	/* it could not have seen a change of half its value */
	if (s->q <= level && s->lo > noise)	/* NAN compares false */
		return BT_V_SLOWER;
	if (s->q <= level && s->hi < -noise)
		return BT_V_FASTER;
	if (s->lo >= -m && s->hi <= m)
		return BT_V_UNCHANGED;
	return BT_V_UNRESOLVED;
}

enum bt_verdict
bt_diff_verdict(const struct bt_diff_stat *s, double level)
{
	return bt_diff_verdict_floor(s, level, 0);
}

struct rank {
	double p;
	size_t i;
};

static int
cmp_rank(const void *x, const void *y)
{
	const struct rank *a = x, *b = y;

	if (a->p != b->p)
		return a->p < b->p ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

void
bt_diff_fdr(struct bt_diff_stat *v, size_t n, double level)
{
	struct rank *r;
	double q = 1;
	size_t k;

	if (n == 0)
		return;
	r = bt_xmalloc(n * sizeof(*r));
	for (k = 0; k < n; k++) {
		r[k].p = isnan(v[k].p) ? 1 : v[k].p;
		r[k].i = k;
	}
	qsort(r, n, sizeof(*r), cmp_rank);
	/* q of the k-th smallest: min over j >= k of p(j) n / j */
	for (k = n; k-- > 0;) {
		q = BT_MIN(q, r[k].p * (double)n / (double)(k + 1));
		v[r[k].i].q = q;
	}
	for (k = 0; k < n; k++)
		v[k].verdict = bt_diff_verdict(&v[k], level);
	free(r);
}

const char *
bt_verdict_name(enum bt_verdict v)
{
	switch (v) {
	case BT_V_UNCHANGED: return "unchanged";
	case BT_V_FASTER: return "faster";
	case BT_V_SLOWER: return "slower";
	case BT_V_UNRESOLVED: return "unresolved";
	}
	return "?";
}
