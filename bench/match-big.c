/*
 * match-big: time matching two builds of one large function
 * (bench/gen-match.sh: branches and small loops, build B with changed and
 * added statements), the annotations made beforehand.
 *   match-big A B FUNCTION RUNS
 * Prints: "match_ms_median instructions_a instructions_b matched inserted deleted"
 */
#include <stdio.h>
#include <stdlib.h>

#include "annofile.h"
#include "annotate/annotate.h"
#include "clock.h"
#include "diff/match.h"

int
main(int argc, char **argv)
{
	int runs = argc > 4 ? atoi(argv[4]) : 5, i;
	double *t;
	struct annofile *fa, *fb;
	struct bt_annotation *a, *b;
	struct bt_insn_match m;

	if (argc < 4) {
		fprintf(stderr, "usage: match-big A B FUNCTION [RUNS]\n");
		return 1;
	}
	fa = annofile_open(argv[1]);
	fb = annofile_open(argv[2]);
	a = fa ? annofile_func(fa, argv[3]) : NULL;
	b = fb ? annofile_func(fb, argv[3]) : NULL;
	if (a == NULL || b == NULL || runs < 1) {
		fprintf(stderr, "match-big: cannot annotate '%s'\n", argv[3]);
		return 2;
	}
	t = calloc((size_t)runs, sizeof(double));
	for (i = 0; i < runs; i++) {
		double t0 = now();

		bt_match_insns(a, b, &m);
		t[i] = (now() - t0) * 1e3;
		if (i + 1 < runs)
			bt_insn_match_release(&m);
	}
	qsort(t, (size_t)runs, sizeof(double), cmp);
	printf("%.2f %zu %zu %zu %zu %zu\n", t[runs / 2], a->insns.n, b->insns.n,
	    m.matched, m.inserted, m.deleted);
	bt_insn_match_release(&m);
	bt_annotation_free(a);
	bt_annotation_free(b);
	annofile_close(fa);
	annofile_close(fb);
	free(t);
	return 0;
}
