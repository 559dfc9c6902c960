/*
 * What lint reads of a benchmark's measured phase (docs/lint.md
 * "Measured phase"): when its timer ran, how long, what the harness
 * printed of its CPU time, the samples of the timer's own code, and what
 * ran while the timer was off.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "benchtui/lint.h"
#include "profile/chains.h"
#include "session/bench-int.h"
#include "session/query.h"
#include "session/session-int.h"

/* A unit's multiplier: "k/s" 1e3, "M/s" 1e6, "G/s" 1e9, "/s" 1; 0 unknown. */
static double
rate_unit(const char *u)
{
	static const struct { const char *u; double f; } units[] = {
		{ "/s", 1 }, { "k/s", 1e3 }, { "M/s", 1e6 }, { "G/s", 1e9 },
		{ "T/s", 1e12 },
	};
	for (size_t i = 0; i < BT_ARRAY_SIZE(units); i++)
		if (strcmp(u, units[i].u) == 0)
			return units[i].f;
	return 0;
}

/* GB's items_per_second times the time it is of (CPU time, else real). */
static double
items_per_op(const struct bt_bench_result *r)
{
	double t, f;

	if (r == NULL)
		return NAN;
	t = r->cpu_time.text != NULL ? r->cpu_time.value : r->time.value;
	for (size_t k = 0; k < r->ncounters; k++)
		if (strcmp(r->counters[k].name, "items_per_second") == 0 &&
		    (f = r->counters[k].unit[0] ? rate_unit(r->counters[k].unit) : 1) > 0 &&
		    isfinite(t) && t > 0)
			return r->counters[k].value * f * t / 1e9;
	return NAN;
}

bool
bt_selection_bench_phase(const struct bt_selection *sel, size_t bi,
			 struct bt_bench_measured *out)
{
	const struct bt_benches *bs = sel->s->benches;
	const struct bt_bench_counts *c = sel->counts;
	const struct bench *b;
	const struct bench_phases *ph;
	size_t k;

	memset(out, 0, sizeof(*out));
	out->cpu_ns = NAN;
	out->items_per_op = NAN;
	if (bs == NULL || bi >= bs->v.n)
		return false;
	b = &bs->v.v[bi];
	ph = bench_ph(b);
	if (ph != NULL && ph->meas.n >= 2) {
		out->timed = true;
		out->pairs = ph->meas.v;
		out->npairs = ph->meas.n / 2;
		out->span_lo = ph->span_lo;
		out->span_hi = ph->span_hi;
		out->first = ph->meas.v[0];
		out->last = ph->meas.v[ph->meas.n - 1];
		for (k = 0; k < ph->meas.n; k += 2)
			out->seconds += (double)(ph->meas.v[k + 1] - ph->meas.v[k]) / 1e9;
	} else {
		out->first = b->lo;
		out->last = b->hi;
		out->seconds = b->hi > b->lo ? (double)(b->hi - b->lo) / 1e9 : 0;
		out->span_lo = b->lo;
		out->span_hi = b->hi;
	}
	if (c != NULL && c->timer != NULL && bi < c->nbench) {
		out->timer_samples = c->timer[bi];
		out->trap_samples = c->traps[bi];
	}
	if (b->shown != NULL && b->shown->cpu_time.text != NULL) {
		out->cpu_ns = b->shown->cpu_time.value;
		out->cpu_text = b->shown->cpu_time.text;
	}
	out->items_per_op = items_per_op(b->shown);
	/* the samples of the run whose time is shown (not an aggregate's) */
	for (k = 0; b->shown != NULL && k < b->runs.n; k++)
		if (b->runs.v[k].line == b->shown->line)
			out->run_known = bt_selection_bench_run_samples(sel, bi, k,
			    &out->run_samples);
	return true;
}

/* The gaps between benchmark b's measured intervals, in its span: [lo, hi) pairs. */
static size_t
untimed_windows(const struct bench *b, uint64_t **out)
{
	const struct bench_phases *ph = bench_ph(b);
	struct bench_pairs w = { NULL, 0, 0 };
	uint64_t at;
	size_t k;

	*out = NULL;
	if (ph == NULL)
		return 0;
	at = ph->span_lo;
	for (k = 0; k < ph->meas.n; k += 2) {
		if (ph->meas.v[k] > at) {
			BT_VEC_PUSH(w, at);
			BT_VEC_PUSH(w, ph->meas.v[k]);
		}
		at = BT_MAX(at, ph->meas.v[k + 1]);
	}
	if (ph->span_hi + 1 > at) {
		BT_VEC_PUSH(w, at);
		BT_VEC_PUSH(w, ph->span_hi + 1);
	}
	*out = w.v;
	return w.n / 2;
}

static int
by_samples(const void *a, const void *b)
{
	const struct bt_bench_func *x = a, *y = b;

	return x->samples < y->samples ? 1 : x->samples > y->samples ? -1 :
	    strcmp(x->name, y->name);
}

/* The function a sample at loc is in: its name, else its module's; kept. */
static const char *
loc_name(struct bt_session *s, uint32_t mi, uint64_t off)
{
	const char *name = bench_func_name(s, mi, off);

	if (name == NULL)
		name = bench_module_name(s, mi);
	return name != NULL ? name : "[unknown]";
}

static bool
is_kernel(struct bt_session *s, uint32_t mi)
{
	const char *mod = bench_module_name(s, mi);

	return mod != NULL && strncmp(mod, "[kernel", 7) == 0;
}

/*
 * A chain's function, for the untimed list: its leaf's, or for a sample in
 * the kernel the first function outside it ("runtime.futex (kernel)"):
 * the kernel's functions are not named here. NULL for a probe's trap.
 */
static const char *
chain_name(struct bt_session *s, uint32_t id)
{
	const uint32_t *locs;
	size_t n = bt_chains_get(s->p, id, &locs), k;
	const struct bt_loc *l;

	for (k = 0; k < n; k++) {
		if (locs[k] == BT_LOC_GAP)
			continue;
		l = bt_chains_loc(s->p, locs[k]);
		if (!is_kernel(s, l->module) && k > 0 && bench_timer_func(NULL,
		    bench_module_name(s, l->module)))
			return NULL;	/* the kernel, then the trampoline: a trap */
		if (!is_kernel(s, l->module))
			return k == 0 ? loc_name(s, l->module, l->off) :
			    bt_strpool_addf(&s->pool, "%s (kernel)",
			    loc_name(s, l->module, l->off));
	}
	return "[kernel]";
}

static void
count_name(void *vfs, const char *name, const char *module, uint64_t samples)
{
	BT_VEC(struct bt_bench_func) *fs = vfs;
	size_t j;

	for (j = 0; j < fs->n; j++)
		if (strcmp(fs->v[j].name, name) == 0)
			break;
	if (j == fs->n) {
		struct bt_bench_func f = { name, module, 0, 0 };
		BT_VEC_PUSH(*fs, f);
	}
	fs->v[j].samples += samples;
}

size_t
bt_selection_bench_untimed_funcs(struct bt_selection *sel, size_t bi,
				 struct bt_bench_func *out, size_t max,
				 uint64_t *traps)
{
	struct bt_session *s = sel->s;
	const struct bt_benches *bs = s->benches;
	BT_VEC(struct bt_bench_func) fs = { NULL, 0, 0 };
	struct bt_hist_entry *e = NULL;
	struct bt_scan sc;
	uint64_t *w, total = 0;
	size_t nw, n = 0, k, j;

	*traps = 0;
	if (bs == NULL || bi >= bs->v.n || max == 0 ||
	    (nw = untimed_windows(&bs->v.v[bi], &w)) == 0)
		return 0;
	bt_scan_init(&sc, sel->attr);
	sc.windows = w;
	sc.nwindows = nw;
	if (bs->v.v[bi].forked) {
		sc.pids = bs->v.v[bi].pids.v;
		sc.npids = bs->v.v[bi].pids.n;
	}
	if (s->p->chains != NULL)
		sc.chains = bt_hist_new();
	if (bt_profile_scan(s->p, &sc, &e, &n, NULL) < 0)
		n = 0;
	if (n && sc.chains != NULL) {
		/* by chain: the probes' traps apart, a kernel sample by its caller */
		struct bt_hist_entry *ch;
		size_t nc = bt_hist_take(sc.chains, &ch), nl = bt_chains_nlocs(s->p);
		signed char *cache = bt_xmalloc(nl + 1);

		memset(cache, 0xff, nl + 1);
		for (k = 0; k < nc; k++) {
			if (ch[k].group == 0)
				continue;
			const char *name = chain_name(s, (uint32_t)ch[k].off);
			if (name == NULL ||
			    bench_timer_chain(s, (uint32_t)ch[k].off, cache) == 2) {
				*traps += ch[k].samples;
				continue;
			}
			total += ch[k].samples;
			count_name(&fs, name, NULL, ch[k].samples);
		}
		free(cache);
		free(ch);
	} else
		for (k = 0; k < n; k++) {
			if (e[k].group == 0)
				continue;
			total += e[k].samples;
			count_name(&fs, loc_name(s, e[k].module, e[k].off),
			    bench_module_name(s, e[k].module), e[k].samples);
		}
	bt_hist_free(sc.chains);
	if (fs.n)
		qsort(fs.v, fs.n, sizeof(*fs.v), by_samples);
	for (j = 0; j < fs.n && j < max; j++) {
		out[j] = fs.v[j];
		out[j].percent = total ? 100.0 * (double)fs.v[j].samples / (double)total : 0;
	}
	free(e);
	free(w);
	BT_VEC_FREE(fs);
	return j;
}
