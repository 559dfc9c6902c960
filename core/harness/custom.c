/*
 * A harness of the program's own, as make demo's example writes it: one
 * line per result, a name, a time and what it is per:
 *	noop        0.006 ns/element  (too good to be true?)
 *	parse_json  1.25 us/op
 * The name is the line's first word (a trailing ':' dropped), the time a
 * number and a time unit before '/'; the rest of the line is not read.
 * Offered a line last, and only while no harness the other parsers know
 * has printed a result: a mitata row ("name  1.23 ns/iter  (...)") is
 * mitata's. When one does later, finish() drops these results.
 *
 * Nothing says when such a benchmark ran (its lines may all come at the
 * end): its samples are those whose call chain passes through a function
 * named like it (docs/benchmarks.md).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness-int.h"

#define MAX_TOKENS 4

static bool
others_printed(const struct bt_harness_parser *p)
{
	for (size_t i = 0; i < p->results.n; i++)
		if (p->results.v[i]->pub.harness != BT_HARNESS_CUSTOM)
			return true;
	return false;
}

static void
custom_line(struct bt_harness_parser *p, void *state, const struct hline *l)
{
	struct tok t[MAX_TOKENS];
	const char *slash;
	size_t n, namelen;
	double v, f;
	struct bt_bench_result *r;

	(void)state;
	if (l->transient || l->len == 0 || l->s[0] == ' ' || l->s[0] == '\t' ||
	    others_printed(p) ||
	    (p->results.n > 0 && p->results.v[p->results.n - 1]->pub.line == l->lineno))
		return;
	n = hp_tokens(l->s, l->len, t, MAX_TOKENS);
	if (n < 3)
		return;
	namelen = t[0].len;
	if (namelen > 1 && t[0].s[namelen - 1] == ':')
		namelen--;
	/* a name, not a number or a list's bullet */
	if (hp_number(t[0].s, namelen, &v) || !(t[0].s[0] == '_' ||
	    (t[0].s[0] >= 'A' && t[0].s[0] <= 'Z') || (t[0].s[0] >= 'a' && t[0].s[0] <= 'z')))
		return;
	slash = memchr(t[2].s, '/', t[2].len);
	if (slash == NULL || slash == t[2].s || slash + 1 == t[2].s + t[2].len ||
	    (f = hp_time_unit(t[2].s, (size_t)(slash - t[2].s))) == 0 ||
	    !hp_number(t[1].s, t[1].len, &v) || !isfinite(v) || v < 0)
		return;
	r = hp_result_new(p, BT_HARNESS_CUSTOM, "lines", t[0].s, namelen, l);
	hp_set_num(p, &r->time, v * f, t[1].s, (size_t)(t[2].s + t[2].len - t[1].s));
}

/* A harness the other parsers know printed results too: these were not results. */
static void
custom_finish(struct bt_harness_parser *p, void *state)
{
	size_t i, k = 0;

	(void)state;
	if (!others_printed(p))
		return;
	for (i = 0; i < p->results.n; i++) {
		struct result_int *ri = p->results.v[i];
		if (ri->pub.harness == BT_HARNESS_CUSTOM) {
			BT_VEC_FREE(ri->counters);
			free(ri);
			continue;
		}
		ri->pub.index = k;
		p->results.v[k++] = ri;
	}
	p->results.n = k;
}

const struct harness_ops harness_custom = {
	.harness = BT_HARNESS_CUSTOM,
	.name = "custom",
	.traits = BT_HARNESS_T_AT_END,
	.line = custom_line,
	.finish = custom_finish,
	/* no runner to pass through: the entry frame is the function named like the result */
	.frames = NULL,
};
