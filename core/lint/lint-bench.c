/*
 * Lint per benchmark (DESIGN.md §7, docs/lint.md): with a benchmark
 * selected, every check of lint.c looks at its samples only, and the
 * harness's own numbers add evidence: a time per operation below one
 * cycle, a loop of the benchmark's own code that only counts. Advice is
 * given in the harness's terms. The summary of every benchmark (hottest
 * functions, findings) feeds the benchmark table and the reports.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "annotate/annotate.h"
#include "benchtui/bench.h"
#include "benchtui/lint.h"
#include "lint/lint-int.h"
#include "profile/profile.h"
#include "session/query.h"
#include "symbols/symbols.h"

#define MAX_SUMMARY_FUNCS 20
#define FASTEST_MHZ 5000.0	/* no CPU clock recorded: a cycle is at least 0.2 ns */

static const struct bt_bench *
current(struct bt_selection *sel)
{
	long b = bt_selection_bench_index(sel);

	return b >= 0 ? bt_selection_bench(sel, (size_t)b) : NULL;
}

const char *
lint_keep_advice(struct bt_selection *sel)
{
	const struct bt_bench *b = current(sel);
	const char *h = b ? b->harness : NULL;

	if (h == NULL && bt_selection_nbenches(sel) > 0)
		h = bt_selection_bench(sel, 0)->harness;
	if (h == NULL)
		h = "";
	if (strcmp(h, "gbench") == 0)
		return "Keep the result alive with benchmark::DoNotOptimize(result). "
		    "For stores into a buffer, pass the buffer itself to "
		    "benchmark::DoNotOptimize(buf) before benchmark::ClobberMemory(): "
		    "ClobberMemory() alone does not keep a memcpy into a static array "
		    "that is never read (gcc removes it), nor does it keep values in "
		    "registers";
	if (strcmp(h, "go") == 0)
		return "Use the result: accumulate it in the loop and assign it to a "
		    "package-level variable (a sink) after the b.N loop, so the "
		    "compiler cannot drop the call";
	if (strcmp(h, "criterion") == 0 || strcmp(h, "libtest") == 0)
		return "Pass the inputs and the result through std::hint::black_box "
		    "(criterion::black_box, test::black_box), e.g. "
		    "b.iter(|| black_box(f(black_box(x))))";
	if (strcmp(h, "tinybench") == 0 || strcmp(h, "mitata") == 0 ||
	    strcmp(h, "benchmark.js") == 0 || strcmp(h, "bench-node") == 0)
		return "Return the result from the task or store it where the JIT "
		    "cannot prove it unused (a global; mitata: do_not_optimize(x))";
	return "Keep its result alive (benchmark::DoNotOptimize, an asm barrier, a "
	    "store to a volatile or global sink; in Go, assign the result to a "
	    "package-level variable; in Rust, std::hint::black_box; in JMH, consume "
	    "it in a Blackhole)";
}

/* "BM_x: 0.225 ns/op, 1000000000 iterations" */
static void
numbers(struct bt_strbuf *sb, const struct bt_bench *b)
{
	/* a rate (benchmark.js, bench-node: "1,234 ops/sec") is not per op */
	bt_strbuf_addf(sb, "%s: %s%s", b->name, b->time_text ? b->time_text : "no time",
	    b->time_text && strstr(b->time_text, "/sec") ? "" : "/op");
	if (b->iterations_text)
		bt_strbuf_addf(sb, ", %s iterations", b->iterations_text);
}

/* The hottest loop of the benchmark's own hottest function: its size and address. */
static bool
own_loop(struct bt_selection *sel, size_t bi, size_t *fi_out, size_t *ninsns,
	 uint64_t *addr, uint64_t *own)
{
	size_t fi, li, best = (size_t)-1;
	long first = -1;
	double bw = 0;
	struct bt_annotation *a;

	*own = 0;
	for (fi = 0; fi < bt_selection_nfuncs(sel); fi++)
		if (bt_selection_func(sel, fi)->samples && bt_selection_bench_code(sel, bi, fi)) {
			*own += bt_selection_func(sel, fi)->samples;
			if (first < 0)
				first = (long)fi;
		}
	if (first < 0 || !bt_selection_func(sel, (size_t)first)->can_annotate ||
	    (a = bt_selection_code(sel, (size_t)first)) == NULL)
		return false;
	for (li = 0; li < a->loops.n; li++) {
		double w = BT_MAX(a->loops.v[li].adjusted, (double)a->loops.v[li].samples);
		if (best == (size_t)-1 || w > bw) {
			best = li;
			bw = w;
		}
	}
	if (best == (size_t)-1)
		return false;
	*fi_out = (size_t)first;
	*ninsns = a->loops.v[best].ninsns;
	*addr = a->insns.v[a->loops.v[best].head].in.addr;
	return true;
}

/*
 * The CPU time per operation, from the best evidence after the printed
 * time: the harness's CPU column (GB), else the profile's samples of the
 * run whose time is printed (a busy machine does not inflate either, as
 * it does the wall clock). NAN when neither is known; *how says which.
 */
static double
cpu_per_op(struct bt_selection *sel, const struct bt_bench *b, struct bt_strbuf *how)
{
	struct bt_bench_measured m;
	double per = lint_sample_ns(sel), k, hi;

	if (!bt_selection_bench_phase(sel, b->index, &m))
		return NAN;
	if (isfinite(m.cpu_ns) && m.cpu_text != NULL) {
		bt_strbuf_addf(how, "its CPU time %s/op (the harness's CPU column)", m.cpu_text);
		return m.cpu_ns;
	}
	if (!m.run_known || per <= 0 || !(b->iterations > 0))
		return NAN;
	/* the 95% upper bound of a count of k: below a cycle for sure */
	k = (double)m.run_samples;
	hi = (k + 1.96 * sqrt(k) + 2) * per / b->iterations;
	bt_strbuf_addf(how, "its CPU time %.3g ns/op from the profile (%llu samples of "
	    "its run, %.0f µs of CPU each, over its iterations; at most %.3g ns)",
	    k * per / b->iterations, (unsigned long long)m.run_samples, per / 1e3, hi);
	return hi;
}

bool
lint_bench_checks(struct bt_selection *sel)
{
	const struct bt_bench *b = current(sel);
	double clock = bt_selection_profile(sel)->meta.cpu_mhz;	/* 0: not recorded */
	double mhz = clock > 0 ? clock : FASTEST_MHZ;
	double cycle = 1000.0 / mhz, cpu;
	struct bt_strbuf sb = BT_STRBUF_INIT, how = BT_STRBUF_INIT;
	size_t fi = 0, ninsns = 0;
	uint64_t addr = 0, own = 0;

	if (b == NULL || b->error != NULL)
		return false;
	cpu = cpu_per_op(sel, b, &how);
	if (!(cpu < cycle) && !(b->time_ns < cycle) && !b->dead_hint) {
		bt_strbuf_release(&how);
		if (bt_selection_samples(sel) == 0 && b->iterations > 0)
			lint_add(sel, "few-samples", -1, 100,
			    "%s: no sample fell in its window (%.3f-%.3f s): it ran "
			    "for less than a sampling period. Run it longer (more "
			    "iterations, a longer minimum time) or raise -F",
			    b->name, b->t_from, b->t_to);
		return false;
	}
	numbers(&sb, b);
	if (cpu < cycle)	/* said from the CPU time: the wall clock may be more */
		bt_strbuf_addf(&sb, "; %s", how.buf);
	if (b->time_ns < cycle || cpu < cycle)
		bt_strbuf_addf(&sb, ": less than one cycle at %.0f MHz%s (%.3f ns)", mhz,
		    clock > 0 ? "" : " (no clock recorded; the fastest CPUs)",
		    cycle);
	else
		bt_strbuf_addstr(&sb, ": the harness says the body was optimized out");
	if (own_loop(sel, b->index, &fi, &ninsns, &addr, &own))
		bt_strbuf_addf(&sb, "; %zu instructions in its loop at 0x%llx",
		    ninsns, (unsigned long long)addr);
	else if (own == 0)
		bt_strbuf_addf(&sb, "; none of the %llu samples of its window is in "
		    "its own code (%s)", (unsigned long long)bt_selection_samples(sel), b->family);
	lint_add(sel, "optimized-away", own ? (long)fi : -1, 100,
	    "%s: the work was removed by the compiler. %s", sb.buf,
	    lint_keep_advice(sel));
	bt_strbuf_release(&sb);
	bt_strbuf_release(&how);
	return true;
}

bool
lint_bench_loop(struct bt_selection *sel, size_t fi, double share, size_t ninsns,
		uint64_t addr, const char *what)
{
	const struct bt_bench *b = current(sel);
	struct bt_strbuf sb = BT_STRBUF_INIT;
	const struct bt_finding *f;
	size_t i, n;

	if (b == NULL || !bt_selection_bench_code(sel, b->index, fi))
		return false;
	/* the sub-cycle check named this loop already */
	n = lint_sofar(sel, &f);
	for (i = 0; i < n; i++)
		if (strcmp(f[i].check, "optimized-away") == 0)
			return true;
	numbers(&sb, b);
	lint_add(sel, "empty-loop", (long)fi, share,
	    "%s, %zu instructions in its loop at 0x%llx (%.1f%% of its samples) that "
	    "%s: the work was removed by the compiler. %s", sb.buf, ninsns,
	    (unsigned long long)addr, share, what, lint_keep_advice(sel));
	bt_strbuf_release(&sb);
	return true;
}

/* --- the summary of every benchmark ------------------------------------- */

/*
 * One event's summaries, with the selection of each benchmark they come
 * from: kept, so that opening a benchmark afterwards costs nothing.
 */
struct summaries {
	BT_VEC(struct bt_bench_summary) v;
	struct bt_selection **sels;
	struct bt_strpool pool;
	void **blocks;		/* arrays the summaries point into */
	size_t nblocks;
};

/* Every event's, in the session's cache slot. */
struct summary_set {
	struct summaries **by_attr;
	size_t n;
};

static void
summaries_free(struct summaries *sm)
{
	size_t i;

	if (sm == NULL)
		return;
	for (i = 0; i < sm->nblocks; i++)
		free(sm->blocks[i]);
	free(sm->blocks);
	for (i = 0; i < sm->v.n; i++)
		bt_selection_free(sm->sels[i]);
	free(sm->sels);
	BT_VEC_FREE(sm->v);
	bt_strpool_release(&sm->pool);
	free(sm);
}

static void
summary_set_free(void *data)
{
	struct summary_set *set = data;
	size_t i;

	for (i = 0; i < set->n; i++)
		summaries_free(set->by_attr[i]);
	free(set->by_attr);
	free(set);
}

static int
rank(const char *check)
{
	static const char *const order[] = { "optimized-away", "empty-loop",
		"timer-dominated", "untimed-work", "unoptimized", "few-samples",
		"kernel-dominated", "machine-busy", "no-debug-info" };
	size_t i;

	for (i = 0; i < BT_ARRAY_SIZE(order); i++)
		if (strcmp(check, order[i]) == 0)
			return (int)i;
	return (int)BT_ARRAY_SIZE(order);
}

static void *
keep(struct summaries *sm, size_t size)
{
	void *p = bt_xcalloc(1, size ? size : 1);

	sm->blocks = bt_xrealloc(sm->blocks, (sm->nblocks + 1) * sizeof(*sm->blocks));
	sm->blocks[sm->nblocks++] = p;
	return p;
}

/* A selection (one benchmark's) in brief. */
static void
summarize(struct bt_selection *sel, struct summaries *sm, struct bt_bench_summary *out)
{
	const struct bt_finding *f;
	struct bt_bench_func *funcs;
	struct bt_finding *fs;
	size_t n = BT_MIN(bt_selection_nfuncs(sel), MAX_SUMMARY_FUNCS), nf, i;
	int best = 1 << 30;

	funcs = keep(sm, n * sizeof(*funcs));
	for (i = 0; i < n; i++) {
		const struct bt_func *bf = bt_selection_func(sel, i);
		if (bf->samples == 0)
			break;
		funcs[i].name = bf->name;	/* the session's pool: lives as long */
		funcs[i].module = bf->module;
		funcs[i].samples = bf->samples;
		funcs[i].percent = bf->percent;
		out->nfuncs++;
	}
	out->funcs = funcs;
	nf = bt_selection_findings(sel, &f);
	fs = keep(sm, nf * sizeof(*fs));
	for (i = 0; i < nf; i++) {
		fs[i] = f[i];
		fs[i].func = -1;
		fs[i].message = bt_strpool_addstr(&sm->pool, f[i].message);
		if (rank(fs[i].check) < best) {
			best = rank(fs[i].check);
			out->worst = &fs[i];
		}
	}
	out->findings = fs;
	out->nfindings = nf;
}

/* Every benchmark's summary in sel's event: each benchmark's selection made in turn. */
static struct summaries *
summaries_new(struct bt_selection *sel)
{
	struct bt_session *s = bt_selection_session(sel);
	struct summaries *sm = bt_xcalloc(1, sizeof(*sm));
	struct bt_selection_opts o;
	size_t n = bt_selection_nbenches(sel), k;

	bt_strpool_init(&sm->pool);
	BT_ALLOC_GROW(sm->v.v, n, sm->v.alloc);
	memset(sm->v.v, 0, n * sizeof(*sm->v.v));
	sm->v.n = n;
	sm->sels = bt_xcalloc(n + 1, sizeof(*sm->sels));
	bt_selection_opts_init(&o);
	o.event = bt_selection_event(sel);
	for (k = 0; k < n; k++) {
		o.bench = (long)k;
		if ((sm->sels[k] = bt_selection_new(s, &o, NULL)) != NULL)
			summarize(sm->sels[k], sm, &sm->v.v[k]);
	}
	return sm;
}

const struct bt_bench_summary *
bt_selection_bench_summary(struct bt_selection *sel, size_t i)
{
	struct bt_session *s = bt_selection_session(sel);
	struct summary_set *set = bt_session_cache(s, BT_CACHE_BENCH);
	size_t attr = (size_t)bt_selection_attr(sel);

	if (i >= bt_selection_nbenches(sel))
		return NULL;
	if (set == NULL) {
		set = bt_xcalloc(1, sizeof(*set));
		set->n = bt_session_info(s)->nevents + 1;
		set->by_attr = bt_xcalloc(set->n, sizeof(*set->by_attr));
		bt_session_set_cache(s, BT_CACHE_BENCH, set, summary_set_free);
	}
	if (attr >= set->n)
		return NULL;
	if (set->by_attr[attr] == NULL)
		set->by_attr[attr] = summaries_new(sel);
	return &set->by_attr[attr]->v.v[i];
}
