/*
 * Benchmark lint (DESIGN.md §4, docs/lint.md): each check looks at the
 * profile of the current event and window and either finds something it
 * is sure of, or says nothing. No false alarm on a healthy benchmark is
 * the bar, as much as finding the broken ones.
 */
#include <elf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "annotate/annotate.h"
#include "benchtui/bench.h"
#include "benchtui/lint.h"
#include "benchtui/view.h"
#include "lint/lint-int.h"
#include "profile/profile.h"
#include "session/query.h"
#include "symbols/symbols.h"

/* Thresholds, in percent of all samples of the window. */
#define TIMER_MIN 10.0
#define UNOPT_MIN 5.0		/* hot code whose build is checked */
#define STARTUP_MIN 20.0
#define KERNEL_MIN 30.0
#define NODEBUG_MIN 10.0
#define PRECISION_MAX 3.0	/* +- points of the hottest function's interval */
#define MIN_RUN_SAMPLES 20	/* fewer: say only that */

/* The findings of one selection, kept in the session's lint cache slot. */
struct lint {
	BT_VEC(struct bt_finding) findings;
	struct bt_strpool pool;
};

static void
lint_free(void *data)
{
	struct lint *l = data;

	BT_VEC_FREE(l->findings);
	bt_strpool_release(&l->pool);
	free(l);
}

#define add lint_add

void
lint_add(struct bt_selection *sel, const char *check, long func, double percent,
	 const char *fmt, ...)
{
	struct lint *l = bt_selection_cache(sel, BT_SEL_CACHE_LINT);
	struct bt_finding f;
	struct bt_strbuf sb = BT_STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	bt_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	f.check = check;
	f.func = func;
	f.function = func >= 0 ? bt_selection_func(sel, (size_t)func)->name : NULL;
	f.percent = percent;
	f.message = bt_strpool_add(&l->pool, sb.buf, sb.len);
	bt_strbuf_release(&sb);
	BT_VEC_PUSH(l->findings, f);
}

double
lint_pct(const struct bt_selection *sel, double samples)
{
	return bt_selection_samples(sel) ? 100.0 * samples / (double)bt_selection_samples(sel) : 0;
}

/* Clock readers by name: libc, the vDSO, C++ and Go runtimes. */
static bool
is_clock(const char *name)
{
	static const char *const names[] = {
		"clock_gettime", "__clock_gettime", "__clock_gettime64",
		"__vdso_clock_gettime", "__vdso_gettimeofday", "__vdso_time",
		"gettimeofday", "__gettimeofday", "time", "__vdso_clock_gettime64",
		"runtime.nanotime", "runtime.nanotime1", "runtime.walltime",
		"runtime.walltime1", "time.now", "time.Now", "time.Since",
		"runtime.vdsoClockgettimeSym", "__x64_sys_clock_gettime",
		"do_hres", "clock_gettime@plt", "gettimeofday@plt",
	};
	size_t i;
	const char *at = strstr(name, "@@");

	for (i = 0; i < BT_ARRAY_SIZE(names); i++)
		if (strcmp(name, names[i]) == 0 ||
		    (at && (size_t)(at - name) == strlen(names[i]) &&
		     strncmp(name, names[i], (size_t)(at - name)) == 0))
			return true;
	return strstr(name, "std::chrono::") != NULL && strstr(name, "::now()") != NULL;
}

/*
 * Does an instruction of code[0..n) at addr read the clock? Decoded
 * without keeping anything (a switch of 100,000 calls whose bytes hold
 * 0f 31 inside other instructions is not annotated for it); a byte no
 * decoder takes may hide one: then yes, as does a machine without a
 * decoder.
 */
static bool
decodes_timer(const struct bt_msyms_info *info, const uint8_t *code, size_t n,
	      uint64_t addr)
{
	struct bt_disasm *d = bt_disasm_new(bt_arch_from_elf(info->e_machine,
	    info->elfclass64), BT_SYNTAX_ATT, NULL);
	struct bt_insn in;
	size_t off = 0;
	bool found = d == NULL;

	while (!found && off < n) {
		off += bt_disasm_one(d, code + off, n - off, addr + off, &in);
		found = (in.flags & BT_INSN_F_TIMER) || in.kind == BT_INSN_BAD;
	}
	bt_disasm_free(d);
	return found;
}

/*
 * Could function fi hold rdtsc (0f 31) or rdtscp (0f 01 f9)? A byte scan,
 * then where the bytes are there, a decode that keeps nothing: only such
 * functions get annotated. x86 only: elsewhere, decode.
 */
static bool
has_rdtsc(struct bt_selection *sel, size_t fi)
{
	const struct bt_func *f = bt_selection_func(sel, fi);
	struct bt_msyms *m = bt_selection_func_syms(sel, fi);
	const uint8_t *code;
	long n;

	if (m == NULL)
		return false;
	if (bt_msyms_info(m)->e_machine != EM_X86_64 && bt_msyms_info(m)->e_machine != EM_386)
		return true;
	n = bt_msyms_code(m, f->start, f->end, &code);
	if (n <= 0)
		return false;
	if (memmem(code, (size_t)n, "\x0f\x31", 2) == NULL &&
	    memmem(code, (size_t)n, "\x0f\x01\xf9", 3) == NULL)
		return false;
	return decodes_timer(bt_msyms_info(m), code, (size_t)n, f->start);
}

static void
check_timer(struct bt_selection *sel)
{
	double t = 0, rdtsc = 0;
	const char *top = NULL;
	double topn = 0;
	size_t fi, k;

	for (fi = 0; fi < bt_selection_nfuncs(sel); fi++) {
		const struct bt_func *f = bt_selection_func(sel, fi);
		if (f->samples == 0)
			break;
		if (is_clock(f->name) ||
		    strcmp(bt_selection_func_module(sel, fi)->path, "[vdso]") == 0) {
			t += (double)f->samples;
			if ((double)f->samples > topn) {
				topn = (double)f->samples;
				top = f->name;
			}
		} else if (f->percent >= 1 && f->can_annotate && has_rdtsc(sel, fi)) {
			/*
			 * rdtsc read in the benchmark's own code: skid-adjusted
			 * weight (its code not kept: any function of 1% whose bytes
			 * hold 0f 31 is decoded, a 100,000-case switch among them)
			 */
			struct bt_annotation *a = bt_selection_code(sel, fi);
			for (k = 0; a != NULL && k < a->insns.n; k++)
				if (a->insns.v[k].in.flags & BT_INSN_F_TIMER)
					rdtsc += a->insns.v[k].adjusted;
			bt_selection_code_done(sel, fi);
		}
	}
	if (lint_pct(sel, t + rdtsc) < TIMER_MIN)
		return;
	add(sel, "timer-dominated", -1, lint_pct(sel, t + rdtsc),
	    "%.1f%% of the samples are spent reading the clock (%s%s): the benchmark "
	    "mostly measures its own timer. Time a batch of many iterations and read "
	    "the clock once per batch (what Google Benchmark, JMH and go test -bench do)",
	    lint_pct(sel, t + rdtsc), top ? top : "rdtsc", top && rdtsc > 0 ? ", rdtsc" : "");
}

/* Does a DW_AT_producer say the code was built without optimization? */
static bool
unoptimized(const char *producer)
{
	const char *p, *last = NULL;

	if (producer == NULL)
		return false;
	if (strncmp(producer, "Go ", 3) == 0 || strstr(producer, "go1.") != NULL) {
		/* Go records flags after ';' only when given: -N disables optimization */
		p = strchr(producer, ';');
		return p != NULL && (strstr(p, " -N") != NULL || strstr(p, ";-N") != NULL);
	}
	/*
	 * GCC records its switches (-grecord-gcc-switches, the default): the
	 * last -O decides, and none at all means -O0. clang and others record
	 * no flags: nothing can be decided.
	 */
	if (strncmp(producer, "GNU ", 4) != 0 || strstr(producer, " -") == NULL)
		return false;
	for (p = producer; (p = strstr(p, " -O")) != NULL; p += 3)
		last = p;
	return last == NULL || (last[3] == '0' && (last[4] == ' ' || last[4] == '\0'));
}

/*
 * A file the system installed (a Debian package's /usr/lib, /lib, /usr/bin;
 * not /usr/local): built as it ships, not the benchmark's to rebuild.
 */
bool
lint_system_path(const char *path)
{
	static const char *const dirs[] = { "/usr/", "/lib/", "/lib64/", "/lib32/",
		"/bin/", "/sbin/" };
	size_t i;

	if (strncmp(path, "/usr/local/", 11) == 0)
		return false;
	for (i = 0; i < BT_ARRAY_SIZE(dirs); i++)
		if (strncmp(path, dirs[i], strlen(dirs[i])) == 0)
			return true;
	return false;
}

static void
check_unoptimized(struct bt_selection *sel)
{
	size_t fi;
	const char *seen[8];
	size_t nseen = 0, k;

	for (fi = 0; fi < bt_selection_nfuncs(sel); fi++) {
		const struct bt_func *f = bt_selection_func(sel, fi);
		struct bt_msyms *m;
		const char *prod;

		if (f->percent < UNOPT_MIN)
			break;
		if (f->kind != BT_FK_SYMBOL || lint_system_path(f->module) ||
		    (m = bt_selection_func_syms(sel, fi)) == NULL)
			continue;
		prod = bt_msyms_producer(m, f->start);
		if (!unoptimized(prod))
			continue;
		for (k = 0; k < nseen; k++)
			if (seen[k] == f->module)
				break;
		if (k < nseen)
			continue;
		if (nseen < BT_ARRAY_SIZE(seen))
			seen[nseen++] = f->module;
		add(sel, "unoptimized", (long)fi, f->percent,
		    "%s (%.1f%% of the samples) was compiled without optimization "
		    "(DW_AT_producer \"%s\"): an unoptimized build measures code nobody "
		    "ships. %s", f->name, f->percent, prod,
		    strncmp(prod, "Go ", 3) == 0 ?
		    "Build the test binary without -gcflags='-N -l' (plain go test -c)" :
		    "Build the benchmark as the product is built (-O2)");
	}
}

static void
check_precision(struct bt_selection *sel)
{
	const struct bt_func *f;
	double lo, hi;

	if (bt_selection_nfuncs(sel) == 0)
		return;
	f = bt_selection_func(sel, 0);
	if (bt_selection_samples(sel) < MIN_RUN_SAMPLES) {
		add(sel, "few-samples", -1, 100,
		    "only %llu samples: the run is too short to say where time goes. "
		    "Run the benchmark longer (more iterations) or raise -F",
		    (unsigned long long)bt_selection_samples(sel));
		return;
	}
	bt_wilson(f->samples, bt_selection_samples(sel), &lo, &hi);
	if ((hi - lo) / 2 <= PRECISION_MAX)
		return;
	add(sel, "few-samples", -1, 100,
	    "%llu samples: the hottest function's %.1f%% is known only to within "
	    "%.1f-%.1f%% (95%% interval), and smaller numbers less. Run the benchmark "
	    "longer or raise -F for the precision the percentages show",
	    (unsigned long long)bt_selection_samples(sel), f->percent, lo, hi);
}

static void
check_lost(struct bt_selection *sel)
{
	const struct bt_profile_info *in = bt_session_info(bt_selection_session(sel));
	uint64_t all = in->samples + in->lost;

	if (in->lost > 0)
		add(sel, "lost-samples", -1, all ? 100.0 * (double)in->lost / (double)all : 0,
		    "the kernel dropped %llu samples (%.1f%% of all): the profile is "
		    "missing part of the run. Lower -F, or record to a faster disk",
		    (unsigned long long)in->lost,
		    all ? 100.0 * (double)in->lost / (double)all : 0);
	if (in->throttled > 0)
		add(sel, "throttled", -1, 0,
		    "sampling was throttled %llu times (the kernel's "
		    "perf_event_max_sample_rate): parts of the run are missing. Lower -F",
		    (unsigned long long)in->throttled);
}

static void
check_startup_kernel(struct bt_selection *sel)
{
	double loader = 0, kernel = 0;
	size_t fi;

	for (fi = 0; fi < bt_selection_nfuncs(sel); fi++) {
		const struct bt_func *f = bt_selection_func(sel, fi);
		if (f->kind == BT_FK_KERNEL)
			kernel += (double)f->samples;
		else if (strstr(f->module_name, "ld-linux") != NULL ||
		    strncmp(f->module_name, "ld-", 3) == 0 ||
		    strcmp(f->module_name, "ld.so") == 0)
			loader += (double)f->samples;
	}
	if (lint_pct(sel, loader) >= STARTUP_MIN)
		add(sel, "startup-dominated", -1, lint_pct(sel, loader),
		    "%.1f%% of the samples are in the dynamic loader: start-up dominates "
		    "a run of %.3f s. Run the benchmark longer, so that it measures its "
		    "loop rather than the program starting", lint_pct(sel, loader),
		    bt_session_info(bt_selection_session(sel))->duration);
	if (lint_pct(sel, kernel) >= KERNEL_MIN)
		add(sel, "kernel-dominated", -1, lint_pct(sel, kernel),
		    "%.1f%% of the samples are in the kernel (system calls, page faults, "
		    "interrupts): if the benchmark is meant to measure user code, look for "
		    "I/O, allocation or first-touch page faults in the timed loop",
		    lint_pct(sel, kernel));
}

static void
check_debug_info(struct bt_selection *sel)
{
	size_t fi;

	for (fi = 0; fi < bt_selection_nfuncs(sel); fi++) {
		const struct bt_func *f = bt_selection_func(sel, fi);
		struct bt_msyms *m;

		if (f->percent < NODEBUG_MIN)
			break;
		if (f->kind == BT_FK_KERNEL || f->kind == BT_FK_UNKNOWN ||
		    strcmp(f->module, "[vdso]") == 0 || bt_lint_is_jit(sel, fi))
			continue;	/* JIT code: lint-jit.c */
		m = bt_selection_func_syms(sel, fi);
		if (m != NULL && bt_msyms_probe_dwarf(m))
			continue;
		if (lint_system_path(f->module)) {
			/*
			 * A distribution's stripped gzip or libcrypto is not the
			 * user's to rebuild, and nothing about the benchmark is
			 * wrong: the session's note says there are no lines
			 */
			bt_selection_func_dwarf(sel, fi);
			continue;
		}
		add(sel, "no-debug-info", (long)fi, f->percent,
		    "no debug info for '%s', where %s spends %.1f%% of the samples: no "
		    "source lines%s. %s", f->module, f->name, f->percent,
		    m == NULL ? ", and its code could not be read" : "",
		    m != NULL && bt_msyms_info(m)->go ?
		    "Go links DWARF in unless told not to: build without -ldflags=-w or -s" :
		    "Build it with -g (or install its -dbg package)");
		return;
	}
}

size_t
lint_sofar(struct bt_selection *sel, const struct bt_finding **out)
{
	struct lint *l = bt_selection_cache(sel, BT_SEL_CACHE_LINT);

	*out = l ? l->findings.v : NULL;
	return l ? l->findings.n : 0;
}

size_t
bt_selection_findings(struct bt_selection *sel, const struct bt_finding **out)
{
	struct lint *l = bt_selection_cache(sel, BT_SEL_CACHE_LINT);

	if (l == NULL) {
		l = bt_xcalloc(1, sizeof(*l));
		bt_strpool_init(&l->pool);
		bt_selection_set_cache(sel, BT_SEL_CACHE_LINT, l, lint_free);
		/* a benchmark's own: the run's lost samples and start-up are the run's */
		bool bench = bt_selection_bench_index(sel) >= 0;

		/* a benchmark optimized away has few samples: that says it all */
		bool dead = lint_bench_checks(sel);
		/* its measured phase (lint-phase.c): true when its pauses are its time */
		bool paused = bench && !dead && lint_phase_checks(sel);

		if (bt_selection_samples(sel) > 0) {
			if (!dead && !paused)
				check_precision(sel);
			if (!bench)
				check_lost(sel);
			/*
			 * What the hottest functions are: not from a handful of
			 * samples (one sample is 100% of a benchmark's window),
			 * where the precision finding says it all
			 */
			if (bt_selection_samples(sel) >= MIN_RUN_SAMPLES) {
				lint_empty_loops(sel);
				if (!paused)
					check_timer(sel);
				check_unoptimized(sel);
				check_debug_info(sel);
			}
			if (!bench)
				check_startup_kernel(sel);
			bt_lint_jit(sel);
		}
	}
	*out = l->findings.v;
	return l->findings.n;
}
