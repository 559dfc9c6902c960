/*
 * Lint of a benchmark's measured phase (docs/lint.md "Measured phase"):
 * how much of its samples ran while its timer was off (untimed-work),
 * how much of a CPU it got while it ran (machine-busy), and the
 * harness's own pause and resume calls as what its timer measured
 * (timer-dominated). Each needs a selected benchmark and the harness's
 * phases; without them nothing is said.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base.h"
#include "benchtui/bench.h"
#include "benchtui/lint.h"
#include "lint/lint-int.h"
#include "session/query.h"

#define UNTIMED_MIN 25.0	/* percent of the benchmark's samples, timer off */
#define BUSY_MAX 0.90		/* of a CPU: less is a busy machine (or waiting) */
#define BUSY_MIN_SAMPLES 100	/* a CPU share from fewer says little */
#define BUSY_MIN_SECONDS 0.05
#define PAUSE_MIN 25.0		/* percent of the measured samples in the timer */
#define NUNTIMED 3		/* untimed functions named */
#define OWN_MAX 0.25		/* of the printed time per call: less is the harness's */

static const struct bt_bench *
current(struct bt_selection *sel)
{
	long b = bt_selection_bench_index(sel);

	return b >= 0 ? bt_selection_bench(sel, (size_t)b) : NULL;
}

double
lint_sample_ns(struct bt_selection *sel)
{
	const struct bt_profile_info *in = bt_session_info(bt_selection_session(sel));
	const char *ev = bt_selection_event(sel);

	/* a clock event's period is the CPU time a sample stands for, in ns */
	if (ev != NULL && (strncmp(ev, "cpu-clock", 9) == 0 ||
	    strncmp(ev, "task-clock", 10) == 0) && bt_selection_samples(sel) > 0 &&
	    bt_selection_period(sel) > 0)
		return (double)bt_selection_period(sel) / (double)bt_selection_samples(sel);
	return in->frequency > 0 ? 1e9 / in->frequency : 0;
}

/* The harness's calls that stop and restart its timer, in its terms. */
static const char *
pause_calls(const char *harness)
{
	if (strcmp(harness, "gbench") == 0)
		return "state.PauseTiming()/ResumeTiming()";
	if (strcmp(harness, "go") == 0)
		return "b.StopTimer()/b.StartTimer()";
	return "the harness's timer calls";
}

/*
 * The harness's pause and resume, each iteration, as the benchmark's
 * timer: the samples of its timer's code while the timer ran (the clock
 * reads of PauseTiming/ResumeTiming, StartTimer's memory statistics)
 * against the benchmark's own. True when said.
 */
static bool
check_pauses(struct bt_selection *sel, const struct bt_bench *b,
	     const struct bt_bench_measured *m)
{
	double all = (double)(bt_selection_samples(sel) + m->timer_samples), share;

	if (!m->timed || m->timer_samples < 10 || all <= 0)
		return false;
	share = 100.0 * (double)m->timer_samples / all;
	if (share < PAUSE_MIN)
		return false;
	lint_add(sel, "timer-dominated", -1, share,
	    "%.1f%% of what %s's timer measured is the timer itself: %s, called "
	    "every iteration, read the clock%s (%llu samples in them while the timer "
	    "ran, %llu in the benchmark's code): %s its %s/op is the cost of "
	    "pausing. %s", share, b->name, pause_calls(b->harness),
	    strcmp(b->harness, "go") == 0 ? " and the memory statistics" : "s",
	    (unsigned long long)m->timer_samples,
	    (unsigned long long)bt_selection_samples(sel),
	    share >= 50 ? "most of" : "a good part of",
	    b->time_text ? b->time_text : "time",
	    strcmp(b->harness, "gbench") == 0 ?
	    "Pause less often: prepare the inputs of many iterations before the "
	    "loop (or per batch, with KeepRunningBatch), or time the work yourself "
	    "(UseManualTime and SetIterationTime)" :
	    strcmp(b->harness, "go") == 0 ?
	    "Prepare the inputs of all b.N iterations before b.ResetTimer() and "
	    "time the loop without StopTimer/StartTimer (StartTimer reads the "
	    "memory statistics, a stop-the-world, every call)" :
	    "Time many iterations between two reads of the clock");
	return true;
}

/*
 * The share of a CPU the run's busiest thread had from its first sample
 * to its last (its samples' CPU time over that wall time, at most 1): a
 * harness's wall-clock times are that much longer than its CPU's when
 * other programs share the machine.
 */
static double
busiest_share(struct bt_selection *sel, double per)
{
	struct bt_session *s = bt_selection_session(sel);
	const struct bt_proc_thread *best = NULL;
	size_t i, j;

	for (i = 0; i < bt_session_nprocs(s); i++) {
		const struct bt_proc *p = bt_session_proc(s, i);
		for (j = 0; j < p->nthreads; j++)
			if (best == NULL || p->threads[j].samples > best->samples)
				best = &p->threads[j];
	}
	if (best == NULL || best->last <= best->first || best->samples < 100)
		return 1;
	return BT_MIN(1.0, (double)best->samples * per / (double)(best->last - best->first));
}

/*
 * A harness that times every call on its own (tinybench reads the clock
 * before and after each call of the task, and awaits it): a task of a
 * few nanoseconds is a small part of the time it prints. Its own code's
 * CPU time per call (the samples through its entry frame, their 95%
 * upper bound, over the calls the harness counted) against the printed
 * time per call, a wall-clock time taken as CPU time at the share of a
 * CPU the run's busiest thread had (on a busy machine a thread waits for
 * its CPU inside the harness's clock reads). True when said.
 */
static bool
check_per_call(struct bt_selection *sel, const struct bt_bench *b)
{
	double per = lint_sample_ns(sel), k = (double)b->samples, own, hi, share;
	char busy_note[128];

	if (!b->by_chain || strcmp(b->harness, "tinybench") != 0 || per <= 0 ||
	    !(b->iterations > 0) || !(b->time_ns > 0) || b->time_text == NULL ||
	    strstr(b->time_text, "/sec") != NULL)
		return false;
	own = k * per / b->iterations;
	hi = (k + 1.96 * sqrt(k) + 2) * per / b->iterations;
	share = busiest_share(sel, per);
	if (hi >= OWN_MAX * b->time_ns * share)
		return false;
	snprintf(busy_note, sizeof(busy_note), ". Its thread had %.0f%% of a CPU "
	    "(the machine was busy): the printed time counts the waits too", 100 * share);
	lint_add(sel, "timer-dominated", -1, 100.0 * (1 - own / b->time_ns),
	    "%s's own code (the task and what it calls) takes %.3g ns of CPU per "
	    "call (%llu samples of %.0f µs each over its %s calls; at most %.3g ns) "
	    "of the %s per call tinybench prints: %.0f%% of that number is "
	    "tinybench's own work around each call (it reads the clock before and "
	    "after every call and awaits it), not the task's. A task this short "
	    "measures the harness; if it should take longer, its work was removed "
	    "(annotate its code). Give each call more work (a loop inside the "
	    "task, the time divided by its count), or use a harness that times "
	    "many calls at once (mitata, bench-node)%s", b->name, own,
	    (unsigned long long)b->samples, per / 1e3,
	    b->iterations_text ? b->iterations_text : "counted", hi, b->time_text,
	    100.0 * (1 - own / b->time_ns), share < 0.95 ? busy_note : "");
	return true;
}

static void
check_untimed(struct bt_selection *sel, const struct bt_bench *b,
	      const struct bt_bench_measured *m)
{
	struct bt_bench_func top[NUNTIMED];
	struct bt_strbuf sb = BT_STRBUF_INIT;
	uint64_t untimed, traps = 0, off;
	double all, share;
	size_t n, k;

	/*
	 * The harness's own phases are not the benchmark's doing: criterion's
	 * warm-up and analysis, JMH's forks' start-up and warm-up iterations
	 */
	if (!m->timed || strcmp(b->split, "probe") != 0 ||
	    (strcmp(b->harness, "gbench") != 0 && strcmp(b->harness, "go") != 0) ||
	    b->untimed_samples < 20)
		return;
	n = bt_selection_bench_untimed_funcs(sel, b->index, top, NUNTIMED, &traps);
	/* the timer's own code is timer-dominated's; the probes' traps, benchtui's */
	off = m->timer_samples + m->trap_samples + traps;
	untimed = b->untimed_samples - BT_MIN(b->untimed_samples, off);
	all = (double)(bt_selection_samples(sel) + untimed);
	if (all < 20)
		return;
	share = 100.0 * (double)untimed / all;
	if (share < UNTIMED_MIN)
		return;
	for (k = 0; k < n && (k == 0 || top[k].percent >= 1); k++)
		bt_strbuf_addf(&sb, "%s%s %.0f%%", k ? ", " : "", top[k].name, top[k].percent);
	lint_add(sel, "untimed-work", -1, share,
	    "%.1f%% of %s's samples ran while its timer was off (%s, its set-up, "
	    "the harness between runs%s%s): its %s/op measures the other %.1f%%, "
	    "this profile, while the run's profile (and perf's) is mostly code the "
	    "number does not time: the number and the profile describe different "
	    "code. %s", share, b->name, pause_calls(b->harness),
	    n ? "; hottest: " : "", sb.buf,
	    b->time_text ? b->time_text : "time", 100.0 - share,
	    strcmp(b->harness, "go") == 0 ?
	    "Prepare the inputs of all b.N iterations before b.ResetTimer() rather "
	    "than between b.StopTimer() and b.StartTimer(), or measure the set-up "
	    "in a benchmark of its own" :
	    "Prepare the inputs of many iterations before the loop rather than "
	    "between PauseTiming() and ResumeTiming(), or measure the set-up in a "
	    "benchmark of its own");
	bt_strbuf_release(&sb);
}

/*
 * How much of a CPU the benchmark got: GB's real time against its CPU
 * time (one thread), else the samples of its span (measured and untimed,
 * from its first run's start to its last run's end) against its wall
 * time.
 */
static void
check_busy(struct bt_selection *sel, const struct bt_bench *b,
	   const struct bt_bench_measured *m)
{
	double share, per = lint_sample_ns(sel), secs;
	uint64_t n = b->samples + b->untimed_samples;
	char how[256];

	if (isfinite(m->cpu_ns) && m->cpu_ns > 0 && b->time_ns > 0 &&
	    strstr(b->name, "/threads:") == NULL && strstr(b->name, "/real_time") == NULL &&
	    strstr(b->name, "/manual_time") == NULL) {
		share = m->cpu_ns / b->time_ns;
		snprintf(how, sizeof(how), "its CPU time %s/op against its real time %s/op, "
		    "as the harness printed them", m->cpu_text, b->time_text);
	} else if (m->timed && per > 0 && strcmp(b->split, "probe") != 0 &&
	    (n = b->samples) >= BUSY_MIN_SAMPLES &&
	    (secs = m->seconds) >= BUSY_MIN_SECONDS) {
		/* JMH: its forks' measurement iterations (a fork's start waits) */
		share = (double)n * per / 1e9 / secs;
		snprintf(how, sizeof(how), "%llu samples of %.0f µs of CPU each in the "
		    "%.3f s of its measurement iterations", (unsigned long long)n,
		    per / 1e3, secs);
	} else if (m->timed && per > 0 && n >= BUSY_MIN_SAMPLES &&
	    (secs = (double)(m->span_hi - m->span_lo) / 1e9) >= BUSY_MIN_SECONDS) {
		share = (double)n * per / 1e9 / secs;
		snprintf(how, sizeof(how), "%llu samples of %.0f µs of CPU each in %.3f s "
		    "from its first run's start to its last run's end",
		    (unsigned long long)n, per / 1e3, secs);
	} else
		return;
	if (share >= BUSY_MAX)
		return;
	lint_add(sel, "machine-busy", -1, 100.0 * (1 - share),
	    "%s got %.0f%% of a CPU while it ran (%s): other processes had its CPU "
	    "(a busy machine), or it waited (sleep, I/O, a lock); every wall-clock "
	    "number of it counts that time. Run it on an idle machine, or pinned to "
	    "a CPU nothing else uses (taskset -c N), and compare its CPU time",
	    b->name, 100.0 * share, how);
}

bool
lint_phase_checks(struct bt_selection *sel)
{
	const struct bt_bench *b = current(sel);
	struct bt_bench_measured m;
	bool paused;

	if (b == NULL || b->error != NULL || !bt_selection_bench_phase(sel, b->index, &m))
		return false;
	paused = check_pauses(sel, b, &m) || check_per_call(sel, b);
	if (!paused)	/* then its untimed part is mostly its pauses */
		check_untimed(sel, b, &m);
	check_busy(sel, b, &m);
	return paused;
}
