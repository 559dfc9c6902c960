/*
 * Rust's criterion. criterion 0.3 prints, per benchmark (on a terminal,
 * the first four as one line rewritten with '\r'):
 *	Benchmarking ID
 *	Benchmarking ID: Warming up for 3.0000 s
 *	Benchmarking ID: Collecting 100 samples in estimated 5.0 s (31M iterations)
 *	Benchmarking ID: Analyzing
 *	ID                      time:   [27.686 ns 32.347 ns 35.532 ns]
 *	                        thrpt:  [13.420 GiB/s 14.741 GiB/s 17.223 GiB/s]
 *	                        change: [-2.1% +0.3% +2.4%] (p = 0.71 > 0.05)
 * An ID longer than 23 characters is printed on a line of its own, and
 * "time:" starts the next one. A "change:" block (after a previous run)
 * repeats "time:" with percentages: those are not results.
 * criterion --output-format bencher prints libtest's lines (libtest.c).
 */
#include <math.h>
#include <string.h>

#include "harness-int.h"

/* What a parser remembers of the benchmark being run. */
struct crit_state {
	char *name;			/* from "Benchmarking NAME..." */
	double t_begin, t_measure;
	char *iters;			/* "31M" from "Collecting ... (31M iterations)" */
	char *bare;			/* a line that may be a long name */
	bool bare_next;			/* bare was the previous line */
};

static void
crit_release(struct crit_state *c)
{
	FREE_AND_NULL(c->name);
	FREE_AND_NULL(c->iters);
	FREE_AND_NULL(c->bare);
}

static void *
crit_state_new(void)
{
	struct crit_state *c = bt_xcalloc(1, sizeof(*c));

	c->t_begin = c->t_measure = NAN;
	return c;
}

static void
crit_state_free(void *state)
{
	crit_release(state);
	free(state);
}

/* criterion's short counts: "377k", "31M", "18446743594B". */
static bool
short_count(const char *s, size_t len, double *v)
{
	double f = 1;

	if (len > 1 && strchr("kMB", s[len - 1]) != NULL) {
		f = s[len - 1] == 'k' ? 1e3 : s[len - 1] == 'M' ? 1e6 : 1e9;
		len--;
	}
	if (!hp_number(s, len, v))
		return false;
	*v *= f;
	return true;
}

/* "Benchmarking ID[: phase]", on its own line or as progress text. */
static bool
crit_progress(struct crit_state *c, const struct hline *l)
{
	static const char *const phases[] = {
		": Warming up for ", ": Collecting ", ": Analyzing",
		": Complete (Analysis Disabled)",
	};
	const char *s = l->s + 13, *ph = NULL;
	size_t len, k = 0;

	if (!hp_starts(l->s, l->len, "Benchmarking "))
		return false;
	len = l->len - 13;
	for (size_t i = 0; i < BT_ARRAY_SIZE(phases); i++) {
		const char *f = hp_find(s, len, phases[i]);

		if (f != NULL && (ph == NULL || f > ph)) {
			ph = f;
			k = i;
		}
	}
	if (ph != NULL)
		len = (size_t)(ph - s);
	if (c->name == NULL || strlen(c->name) != len || memcmp(c->name, s, len) != 0) {
		free(c->name);
		c->name = bt_xstrndup(s, len);
		c->t_begin = l->t_begin;
		c->t_measure = NAN;
		FREE_AND_NULL(c->iters);
	}
	if (ph != NULL && k == 1) {
		const char *open = strrchr(ph, '('), *sp;

		c->t_measure = l->t_begin;
		if (open != NULL && (sp = strchr(open, ' ')) != NULL &&
		    hp_starts(sp, (size_t)(l->s + l->len - sp), " iterations)")) {
			free(c->iters);
			c->iters = bt_xstrndup(open + 1, (size_t)(sp - open - 1));
		}
	}
	return true;
}

/* "[a u b u c u]" after label: three values with units, or false. */
static bool
bracket(const char *s, size_t len, const char *label, struct tok v[6], size_t *label_at)
{
	const char *at = hp_find(s, len, label), *open, *close;
	struct tok t[8];
	size_t n;

	if (at == NULL)
		return false;
	*label_at = (size_t)(at - s);
	open = at + strlen(label);
	while (open < s + len && *open == ' ')
		open++;
	if (open >= s + len || *open != '[')
		return false;
	close = memchr(open, ']', (size_t)(s + len - open));
	if (close == NULL)
		return false;
	n = hp_tokens(open + 1, (size_t)(close - open - 1), t, 8);
	if (n != 6)
		return false;
	memcpy(v, t, 6 * sizeof(*t));
	return true;
}

static void
crit_thrpt(struct bt_harness_parser *p, const struct hline *l)
{
	static const char *const names[] = { "thrpt_low", "thrpt", "thrpt_high" };
	struct bt_bench_result *r = hp_last(p, BT_HARNESS_CRITERION);
	struct tok v[6];
	size_t at;
	double x[3];

	if (r == NULL || !bracket(l->s, l->len, "thrpt:", v, &at))
		return;
	for (size_t i = 0; i < 3; i++)
		if (!hp_number(v[2 * i].s, v[2 * i].len, &x[i]))
			return;
	for (size_t i = 0; i < 3; i++)
		hp_counter(p, r, names[i], strlen(names[i]), v[2 * i + 1].s,
		    v[2 * i + 1].len, x[i], v[2 * i].s,
		    (size_t)(v[2 * i + 1].s + v[2 * i + 1].len - v[2 * i].s));
	hp_append_text(p, r, l);
}

static void
crit_line(struct bt_harness_parser *p, void *state, const struct hline *l)
{
	struct crit_state *c = state;
	bool had_bare = c->bare_next;
	struct tok v[6];
	size_t at, namelen;
	const char *name;
	double x[3], f[3];
	struct bt_bench_result *r;

	if (crit_progress(c, l) || l->transient)
		goto done;
	if (!bracket(l->s, l->len, "time:", v, &at)) {
		if (hp_find(l->s, l->len, "thrpt:") != NULL)
			crit_thrpt(p, l);
		goto done;
	}
	for (size_t i = 0; i < 3; i++) {
		f[i] = hp_time_unit(v[2 * i + 1].s, v[2 * i + 1].len);
		if (f[i] == 0 || !hp_number(v[2 * i].s, v[2 * i].len, &x[i]))
			goto done;	/* a change block's percentages */
	}
	name = l->s;
	namelen = at;
	while (namelen > 0 && name[namelen - 1] == ' ')
		namelen--;
	if (namelen == 0 && had_bare && c->bare != NULL) {
		name = c->bare;
		namelen = strlen(c->bare);
	} else if (namelen == 0 && c->name != NULL) {
		name = c->name;
		namelen = strlen(c->name);
	}
	if (namelen == 0)
		goto done;
	r = hp_result_new(p, BT_HARNESS_CRITERION, "console", name, namelen, l);
	if (name == c->bare) {
		/* the long ID's line is part of the result's text */
		r->text = hp_str(p, c->bare, namelen);
		hp_append_text(p, r, l);
		r->line = l->lineno - 1;
	}
	{
		const char *slash = memchr(r->name, '/', namelen);

		if (slash != NULL)
			hp_set_family(p, r, (size_t)(slash - r->name));
	}
	hp_set_num(p, &r->low, x[0] * f[0], v[0].s, (size_t)(v[1].s + v[1].len - v[0].s));
	hp_set_num(p, &r->time, x[1] * f[1], v[2].s, (size_t)(v[3].s + v[3].len - v[2].s));
	hp_set_num(p, &r->high, x[2] * f[2], v[4].s, (size_t)(v[5].s + v[5].len - v[4].s));
	if (c->name != NULL && strlen(c->name) == namelen &&
	    memcmp(c->name, r->name, namelen) == 0) {
		if (!isnan(c->t_begin))
			r->t_begin = c->t_begin;
		r->t_measure = c->t_measure;
		if (c->iters != NULL && short_count(c->iters, strlen(c->iters), &x[0]))
			hp_set_num(p, &r->iterations, x[0], c->iters, strlen(c->iters));
	}
	crit_release(c);
	c->t_begin = c->t_measure = NAN;
done:
	if (l->transient)
		return;
	/* a line that may be a long ID: text from column 0, not a result */
	c->bare_next = false;
	if (l->len > 0 && l->s[0] != ' ' && l->s[0] != '\t' &&
	    hp_last(p, BT_HARNESS_CRITERION) != NULL &&
	    hp_last(p, BT_HARNESS_CRITERION)->line == l->lineno)
		return;
	if (l->len > 0 && l->s[0] != ' ' && l->s[0] != '\t' &&
	    !hp_starts(l->s, l->len, "Benchmarking ") && !hp_starts(l->s, l->len, "Found ")) {
		free(c->bare);
		c->bare = bt_xstrndup(l->s, l->len);
		c->bare_next = true;
	}
}

/*
 * criterion 0.3: Routine::sample -> <Function as Routine>::warm_up or
 * ::bench -> BenchmarkGroup::bench_function::{{closure}} -> the closure
 * given to bench_function (crate::bench_fib::{{closure}}), which calls
 * Bencher::iter -> the routine (crate::bench_fib::{{closure}}::{{closure}}).
 * Analysis (criterion::analysis, rayon) is outside.
 */
static const char *const crit_runner[] = {
	"criterion::routine::Routine::sample*",
	"<criterion::routine::Function<*> as criterion::routine::Routine<*>>::*",
	NULL,
};
static const char *const crit_pass[] = {
	"criterion::*", "<criterion::*", "std::*", "<std::*", "core::*", "<core::*",
	"alloc::*", "<alloc::*", NULL,
};
static const char *const crit_warmup[] = {
	"<criterion::routine::Function<*> as criterion::routine::Routine<*>>::warm_up*",
	NULL,
};
static const char *const crit_measure[] = {
	"<criterion::routine::Function<*> as criterion::routine::Routine<*>>::bench*",
	NULL,
};

static const struct bt_harness_frames criterion_frames = {
	.harness = BT_HARNESS_CRITERION,
	.runner = crit_runner,
	.pass = crit_pass,
	.pass_modules = hp_system_modules,
	.warmup = crit_warmup,
	.measure = crit_measure,
	.entry = "crate::bench_fn::{{closure}} (the closure given to bench_function)",
};

const struct harness_ops harness_criterion = {
	.harness = BT_HARNESS_CRITERION,
	.name = "criterion",
	.traits = BT_HARNESS_T_ANNOUNCES,
	.state_new = crit_state_new,
	.state_free = crit_state_free,
	.line = crit_line,
	.frames = &criterion_frames,
};
