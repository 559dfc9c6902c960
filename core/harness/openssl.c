/*
 * openssl speed, on standard error: each run is announced, then its count
 * and the CPU seconds it took end the same line,
 *	Doing sha256 for 3s on 16 size blocks: 16843574 sha256's in 2.98s
 *	Doing 2048 bits private rsa's for 10s: 1334 2048 bits private RSA's in 9.97s
 * or, with -mr, on two lines:
 *	+DT:sha256:3:16
 *	+R:16843574:sha256:2.980000
 * A result is named "ALGORITHM/BLOCK" ("sha256/16"), or the announced
 * operation ("2048 bits private rsa"); its time per operation is the
 * seconds over the count (the text benchtui's: openssl prints no time per
 * operation), its iterations the count. The announcement's first byte
 * (the +DT line's) is when the run began.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness-int.h"

#define MAX_TOKENS 32

struct openssl_state {
	char *name;		/* the last +DT line's "ALGORITHM/BLOCK" */
	double t_begin;
};

static void *
openssl_new(void)
{
	struct openssl_state *st = bt_xcalloc(1, sizeof(*st));

	st->t_begin = NAN;
	return st;
}

static void
openssl_free(void *state)
{
	struct openssl_state *st = state;

	if (st != NULL)
		free(st->name);
	free(st);
}

/* A whole number of operations, as openssl prints it (no sign, no point). */
static bool
count_of(const char *s, size_t len, double *v)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return len > 0 && hp_number(s, len, v);
}

/* The result of count operations in secs seconds, text the seconds as printed. */
static void
result(struct bt_harness_parser *p, const struct hline *l, const char *name,
       size_t namelen, size_t family, const char *count, size_t clen,
       double n, const char *secs, size_t slen, double s)
{
	struct bt_bench_result *r;
	char buf[64];
	double ns = n > 0 ? s * 1e9 / n : NAN;

	r = hp_result_new(p, BT_HARNESS_OPENSSL, "console", name, namelen, l);
	hp_set_family(p, r, family);
	if (isfinite(ns)) {
		snprintf(buf, sizeof(buf), ns < 10 ? "%.3f ns" : ns < 100 ? "%.2f ns" :
		    ns < 1e4 ? "%.1f ns" : "%.0f ns", ns);
		hp_set_num(p, &r->time, ns, buf, strlen(buf));
	}
	hp_set_num(p, &r->iterations, n, count, clen);
	hp_counter(p, r, "cpu", 3, "s", 1, s, secs, slen);
}

/* "Doing DESC for Ns[ on B size blocks]: COUNT ... in Ts" */
static void
doing_line(struct bt_harness_parser *p, const struct hline *l)
{
	const char *s = l->s + 6, *end = l->s + l->len, *colon, *forp = NULL, *q, *blocks;
	struct tok t[MAX_TOKENS];
	size_t n, dlen, slen;
	char name[256];
	double count, secs;
	int k;

	colon = hp_find(s, (size_t)(end - s), ": ");
	if (colon == NULL)
		return;
	for (q = s; (q = hp_find(q, (size_t)(colon - q), " for ")) != NULL; q++)
		forp = q;	/* the last: a description may hold " for " */
	if (forp == NULL || forp == s)
		return;
	dlen = (size_t)(forp - s);
	if (dlen > 2 && memcmp(forp - 2, "'s", 2) == 0)
		dlen -= 2;	/* "2048 bits private rsa's" */
	n = hp_tokens(colon + 2, (size_t)(end - colon - 2), t, MAX_TOKENS);
	/* COUNT ... in Ts */
	if (n < 3 || !hp_eq(&t[n - 2], "in") || t[n - 1].len < 2 ||
	    t[n - 1].s[t[n - 1].len - 1] != 's' ||
	    !count_of(t[0].s, t[0].len, &count) ||
	    !hp_number(t[n - 1].s, t[n - 1].len - 1, &secs) || !(secs >= 0))
		return;
	slen = t[n - 1].len;
	blocks = hp_find(forp, (size_t)(colon - forp), " on ");
	if (blocks != NULL && colon - 12 >= blocks + 4 && hp_starts(colon - 12, 12, " size blocks")) {
		const char *b = blocks + 4;
		size_t blen = (size_t)(colon - 12 - b);

		k = snprintf(name, sizeof(name), "%.*s/%.*s", (int)dlen, s, (int)blen, b);
	} else
		k = snprintf(name, sizeof(name), "%.*s", (int)dlen, s);
	if (k <= 0 || (size_t)k >= sizeof(name))
		return;
	result(p, l, name, (size_t)k, dlen, t[0].s, t[0].len, count,
	    t[n - 1].s, slen, secs);
}

/* -mr: "+DT:ALG:SECS:BLOCK" announces, "+R:COUNT:ALG:SECS" ends it. */
static void
mr_line(struct bt_harness_parser *p, struct openssl_state *st, const struct hline *l)
{
	const char *f[5];
	size_t len[5], nf = 0;
	const char *s = l->s + 1, *end = l->s + l->len, *c;
	double count, secs;

	while (nf < 5) {
		c = memchr(s, ':', (size_t)(end - s));
		f[nf] = s;
		len[nf++] = (size_t)((c ? c : end) - s);
		if (c == NULL)
			break;
		s = c + 1;
	}
	if (nf == 4 && len[0] == 2 && memcmp(f[0], "DT", 2) == 0) {
		free(st->name);
		st->name = bt_xasprintf("%.*s/%.*s", (int)len[1], f[1], (int)len[3], f[3]);
		st->t_begin = l->t_begin;
		return;
	}
	if (nf != 4 || len[0] != 1 || f[0][0] != 'R' || st->name == NULL ||
	    strncmp(st->name, f[2], len[2]) != 0 || st->name[len[2]] != '/' ||
	    !count_of(f[1], len[1], &count) || !hp_number(f[3], len[3], &secs) ||
	    !(secs >= 0))
		return;
	result(p, l, st->name, strlen(st->name), len[2], f[1], len[1], count, f[3], len[3], secs);
	hp_last(p, BT_HARNESS_OPENSSL)->t_begin = st->t_begin;
	free(st->name);
	st->name = NULL;
}

static void
openssl_line(struct bt_harness_parser *p, void *state, const struct hline *l)
{
	if (l->transient)
		return;
	if (hp_starts(l->s, l->len, "Doing "))
		doing_line(p, l);
	else if (hp_starts(l->s, l->len, "+DT:") || hp_starts(l->s, l->len, "+R:"))
		mr_line(p, state, l);
}

const struct harness_ops harness_openssl = {
	.harness = BT_HARNESS_OPENSSL,
	.name = "openssl",
	.traits = BT_HARNESS_T_ANNOUNCES,
	.state_new = openssl_new,
	.state_free = openssl_free,
	.line = openssl_line,
	/* no runner to pass through: speed's functions are not in the stripped binary */
	.frames = NULL,
};
