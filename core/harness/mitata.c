/*
 * mitata 1.x under node: after a "benchmark  avg (min … max) p75 / p99"
 * header,
 *	NAME    10.65 µs/iter  10.83 µs  ▂▃█▅   [!]
 *	      (10.31 µs … 10.89 µs)  10.88 µs  ▅▅▅
 *	      (  0.13  b …   0.19  b)   0.18  b  █▁▁   (heap, when measured)
 * each benchmark's lines printed when it finishes; "!" when mitata thinks
 * the body was optimized out. Coloured unless NO_COLOR is set. Before
 * the first benchmark runs mitata prints its header (clk:, cpu:,
 * runtime:, the column header and a rule), once node has started and
 * mitata has calibrated its clock: the first result's t_start.
 */
#include <math.h>
#include <string.h>

#include "harness-int.h"

#define ELLIPSIS "\xe2\x80\xa6"	/* U+2026 … */
#define BULLET "\xe2\x80\xa2 "	/* U+2022 •, before a group's name */
#define MAX_TOKENS 64

struct mitata_state {
	bool header;		/* saw the table's header */
	bool result;		/* and a result after it */
	double t_ready;		/* when the header's last line was complete */
};

static void *
mitata_state_new(void)
{
	return bt_xcalloc(1, sizeof(struct mitata_state));
}

static void
mitata_state_free(void *state)
{
	free(state);
}

/* Tokens k, k+1 as "number time-unit"; the value in ns. */
static bool
time_pair(const struct tok *t, size_t n, size_t k, double *ns)
{
	double v, f;

	if (k + 1 >= n || !hp_number(t[k].s, t[k].len, &v))
		return false;
	f = hp_time_unit(t[k + 1].s, t[k + 1].len);
	if (f == 0)
		return false;
	*ns = v * f;
	return true;
}

static size_t
span(const struct tok *a, const struct tok *b)
{
	return (size_t)(b->s + b->len - a->s);
}

/* A counter from the tokens "number" "unit", as printed. */
static void
pair_counter(struct bt_harness_parser *p, struct bt_bench_result *r, const char *name,
    const struct tok *num, const struct tok *unit)
{
	double v;

	hp_number(num->s, num->len, &v);
	hp_counter(p, r, name, strlen(name), unit->s, unit->len, v, num->s, span(num, unit));
}

/* A result; the first of a table began when the header was complete. */
static struct bt_bench_result *
mitata_result(struct bt_harness_parser *p, struct mitata_state *ms, const struct hline *l,
    size_t namelen)
{
	struct bt_bench_result *r = hp_result_new(p, BT_HARNESS_MITATA, "table", l->s, namelen, l);

	if (!ms->result)
		r->t_start = ms->t_ready;
	ms->result = true;
	return r;
}

/* The lines under a result: "(min … max) p99", heap or gc. */
static void
mitata_detail(struct bt_harness_parser *p, const struct hline *l)
{
	struct bt_bench_result *r = hp_last(p, BT_HARNESS_MITATA);
	struct tok t[MAX_TOKENS];
	size_t n;
	double a, b, c;
	const char *s = l->s;
	size_t len = l->len;

	if (r == NULL || r->line + 3 < l->lineno)
		return;
	hp_trim(&s, &len);
	if (len == 0 || s[0] != '(' || hp_find(s, len, ELLIPSIS) == NULL)
		return;
	/* "(" a u "…" b u ")" c u: spaces around the parens vary */
	n = hp_tokens(s + 1, len - 1, t, MAX_TOKENS);
	if (n >= 7 && time_pair(t, n, 0, &a) && hp_eq(&t[2], ELLIPSIS) &&
	    t[4].len > 1 && t[4].s[t[4].len - 1] == ')') {
		struct tok u = t[4];

		u.len--;
		if (hp_number(t[3].s, t[3].len, &b) && hp_time_unit(u.s, u.len) > 0 &&
		    time_pair(t, n, 5, &c)) {
			pair_counter(p, r, "min", &t[0], &t[1]);
			pair_counter(p, r, "max", &t[3], &u);
			pair_counter(p, r, "p99", &t[5], &t[6]);
		}
	}
	hp_append_text(p, r, l);
}

static void
mitata_line(struct bt_harness_parser *p, void *state, const struct hline *l)
{
	struct mitata_state *ms = state;
	struct tok t[MAX_TOKENS];
	size_t n, k, namelen;
	struct bt_bench_result *r;
	double ns, v;
	const char *err;

	if (l->transient)
		return;
	if (hp_starts(l->s, l->len, "benchmark ") &&
	    hp_find(l->s, l->len, "avg (min " ELLIPSIS " max)") != NULL) {
		ms->header = true;
		ms->result = false;
		ms->t_ready = l->t_end;
		return;
	}
	if (!ms->header)
		return;
	/* the header's rule, a group's name: the first benchmark runs after them */
	if (!ms->result && (l->len == 0 || l->s[0] == '-' || hp_starts(l->s, l->len, BULLET)))
		ms->t_ready = l->t_end;
	if (l->len == 0)
		return;
	if (l->s[0] == ' ') {
		mitata_detail(p, l);
		return;
	}
	n = hp_tokens(l->s, l->len, t, MAX_TOKENS);
	/* NAME avg u/iter p75 u [p99 u] histogram [!] */
	for (k = 1; k + 1 < n; k++) {
		if (t[k + 1].len > 5 && memcmp(t[k + 1].s + t[k + 1].len - 5, "/iter", 5) == 0 &&
		    hp_number(t[k].s, t[k].len, &v) &&
		    hp_time_unit(t[k + 1].s, t[k + 1].len - 5) > 0)
			break;
	}
	if (k + 1 >= n) {
		err = hp_find(l->s, l->len, " error: ");
		if (err == NULL)
			return;
		namelen = (size_t)(err - l->s);
		while (namelen > 0 && l->s[namelen - 1] == ' ')
			namelen--;
		if (namelen == 0)
			return;
		r = mitata_result(p, ms, l, namelen);
		r->flags |= BT_BENCH_ERROR;
		r->error = hp_str(p, err + 8, (size_t)(l->s + l->len - err - 8));
		return;
	}
	namelen = (size_t)(t[k].s - l->s);
	while (namelen > 0 && l->s[namelen - 1] == ' ')
		namelen--;
	if (namelen == 0)
		return;
	r = mitata_result(p, ms, l, namelen);
	hp_set_num(p, &r->time, v * hp_time_unit(t[k + 1].s, t[k + 1].len - 5), t[k].s,
	    span(&t[k], &t[k + 1]) - 5);
	k += 2;
	if (time_pair(t, n, k, &ns)) {
		pair_counter(p, r, "p75", &t[k], &t[k + 1]);
		k += 2;
		if (time_pair(t, n, k, &ns))	/* compact layout */
			pair_counter(p, r, "p99", &t[k], &t[k + 1]);
	}
	if (n > 0 && hp_eq(&t[n - 1], "!"))
		r->flags |= BT_BENCH_DEAD_HINT;
}

/*
 * Frames under node as tinybench.c says; mitata runs the task from a
 * generated function (no script: "JS:^ :1:26") or its main.mjs.
 */
static const char *const mi_runner[] = {
	"JS:* */node_modules/mitata/*", "JS:? :*", NULL,
};

static const struct bt_harness_frames mitata_frames = {
	.harness = BT_HARNESS_MITATA,
	.runner = mi_runner,
	.pass = hp_js_pass,
	.pass_modules = hp_js_pass_modules,
	.entry = "JS:*NAME file:///path/bench.mjs:LINE:COL (the bench function)",
};

const struct harness_ops harness_mitata = {
	.harness = BT_HARNESS_MITATA,
	.name = "mitata",
	.state_new = mitata_state_new,
	.state_free = mitata_state_free,
	.line = mitata_line,
	.frames = &mitata_frames,
};
