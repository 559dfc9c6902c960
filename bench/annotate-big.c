/*
 * annotate-big: time annotating one (huge) function through the library,
 * from a fresh session each time, and the cost of a cursor move at the top
 * and at the bottom of it.
 *   annotate-big RECORDING FUNCTION RUNS
 * Prints: "annotate_ms_median instructions move_top_ns move_bottom_ns"
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "benchtui/browse.h"
#include "benchtui/profile.h"
#include "benchtui/selection.h"
#include "benchtui/session.h"
#include "clock.h"
#include "benchtui/view.h"

/* ns per cursor move, moving down and up around row `at` */
static double
moves(struct bt_browser *b, size_t at, size_t n)
{
	double t0;
	size_t i;

	bt_browser_select(b, at, 50);
	t0 = now();
	for (i = 0; i < n; i++)
		bt_browser_apply(b, i % 2 ? BT_ACT_UP : BT_ACT_DOWN, 50);
	return (now() - t0) / (double)n * 1e9;
}

int
main(int argc, char **argv)
{
	int runs = argc > 3 ? atoi(argv[3]) : 5, i;
	double *t = calloc((size_t)runs, sizeof(double)), top = 0, bottom = 0;
	size_t ninsn = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: annotate-big RECORDING FUNCTION [RUNS]\n");
		return 1;
	}
	for (i = 0; i < runs; i++) {
		struct bt_error err = { 0 };
		struct bt_profile *p = bt_profile_open(argv[1], &err);
		struct bt_session *s = p ? bt_session_new(p, NULL, &err) : NULL;
		struct bt_selection *sel = s ? bt_selection_new(s, NULL, &err) : NULL;
		long f = sel ? bt_selection_find(sel, argv[2]) : -1;
		struct bt_view *v;
		double t0;

		if (f < 0) {
			fprintf(stderr, "annotate-big: %s\n", err.msg[0] ? err.msg : "no such function");
			return 2;
		}
		t0 = now();
		v = bt_view_annotate(sel, (size_t)f, NULL, &err);
		t[i] = (now() - t0) * 1e3;
		if (v == NULL) {
			fprintf(stderr, "annotate-big: %s\n", err.msg);
			return 2;
		}
		ninsn = 0;
		for (size_t r = 0; r < bt_view_nrows(v); r++)
			ninsn += bt_view_row(v, r)->kind == BT_ROW_INSN;
		if (i == 0) {
			struct bt_browser *b = bt_browser_new(sel, NULL);
			size_t n;
			bt_browser_open(b, (size_t)f, 50);
			n = bt_view_nrows(bt_browser_view(b));
			top = moves(b, 25, 200000);
			bottom = moves(b, n - 26, 200000);
			bt_browser_free(b);
		}
		bt_view_free(v);
		bt_selection_free(sel);
		bt_session_free(s);
	}
	qsort(t, (size_t)runs, sizeof(double), cmp);
	printf("%.2f %zu %.1f %.1f\n", t[runs / 2], ninsn, top, bottom);
	return 0;
}
