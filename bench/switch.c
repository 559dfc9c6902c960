/*
 * Switching benchmarks in the browser, as a user goes through a
 * benchmark table: Enter opens a benchmark (its hot functions), B comes
 * back to the table, Down moves to the next one. Prints the first screen
 * (the table, with every benchmark's summary) and the median of the
 * switches (Enter then B) in ms, and how many benchmarks there were.
 * bench/run.sh times it on a recording of 50 benchmarks.
 *
 * With --reopen N: open each of the N hottest functions (as Enter on
 * the function list does) and q back, then the same again: prints the median
 * and the largest first open and reopen in ms (a function already
 * annotated), and how many functions were opened.
 *
 *   switch FILE [ROUNDS]
 *   switch --reopen N FILE
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "benchtui/bench.h"
#include "benchtui/browse.h"
#include "benchtui/profile.h"
#include "benchtui/selection.h"
#include "benchtui/session.h"
#include "clock.h"

#define H 40

/* Open each of the n first functions and q back, timed; t[i] in ms. */
static void
open_each(struct bt_browser *b, size_t n, double *t)
{
	double t0;
	size_t i;

	for (i = 0; i < n; i++) {
		t0 = now();
		bt_browser_open(b, i, H);
		t[i] = (now() - t0) * 1e3;
		bt_browser_apply(b, BT_ACT_QUIT, H);
	}
}

/* Opening functions, then opening them again (--reopen). */
static int
reopen(struct bt_selection *sel, size_t n)
{
	struct bt_browser *b = bt_browser_new(sel, NULL);
	double *first = calloc(n + 1, sizeof(*first)), *again = calloc(n + 1, sizeof(*again));

	if (n > bt_selection_nfuncs(sel))
		n = bt_selection_nfuncs(sel);
	open_each(b, n, first);
	open_each(b, n, again);
	qsort(first, n, sizeof(*first), cmp);
	qsort(again, n, sizeof(*again), cmp);
	printf("%.2f %.2f %.2f %.2f %zu\n", n ? first[n / 2] : 0, n ? first[n - 1] : 0,
	    n ? again[n / 2] : 0, n ? again[n - 1] : 0, n);
	free(first);
	free(again);
	bt_browser_free(b);
	return 0;
}

int
main(int argc, char **argv)
{
	struct bt_error err = { 0 };
	struct bt_profile *p;
	struct bt_session *s;
	struct bt_selection *sel;
	struct bt_browser *b;
	int rounds = argc > 2 ? atoi(argv[2]) : 2, r;
	size_t n, i, k = 0, nre = 0;
	double t0, first, *t;

	if (argc > 3 && strcmp(argv[1], "--reopen") == 0) {
		nre = (size_t)atol(argv[2]);
		argv += 2;
		argc -= 2;
		rounds = 0;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: switch FILE [ROUNDS] | switch --reopen N FILE\n");
		return 1;
	}
	t0 = now();
	p = bt_profile_open(argv[1], &err);
	s = p ? bt_session_new(p, NULL, &err) : NULL;
	sel = s ? bt_selection_new(s, NULL, &err) : NULL;
	if (sel == NULL) {
		fprintf(stderr, "switch: %s\n", err.msg);
		return 2;
	}
	if (nre > 0)
		return reopen(sel, nre);
	b = bt_browser_new(sel, NULL);
	first = (now() - t0) * 1e3;
	n = bt_selection_nbenches(sel);
	t = calloc((size_t)rounds * n + 1, sizeof(*t));
	for (r = 0; r < rounds; r++) {
		bt_browser_apply(b, BT_ACT_HOME, H);
		for (i = 0; i < n; i++) {
			t0 = now();
			bt_browser_apply(b, BT_ACT_ENTER, H);
			bt_browser_apply(b, BT_ACT_BENCHES, H);
			t[k++] = (now() - t0) * 1e3;
			bt_browser_apply(b, BT_ACT_DOWN, H);
		}
	}
	qsort(t, k, sizeof(*t), cmp);
	printf("%.1f %.2f %zu\n", first, k ? t[k / 2] : 0, n);
	free(t);
	bt_browser_free(b);
	bt_selection_free(sel);
	bt_session_free(s);
	return 0;
}
