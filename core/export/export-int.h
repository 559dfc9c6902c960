/*
 * The two renderers of an export (DESIGN.md §3), over views only: the text
 * export prints the cells the browser paints, the JSON export writes the
 * rows' data. export.c decides what a whole-profile export holds and walks
 * the views in order through one of these.
 */
#ifndef BENCHTUI_EXPORT_INT_H
#define BENCHTUI_EXPORT_INT_H

#include <stdio.h>

#include "benchtui/view.h"
#include "export/json-writer.h"

/**
 * struct export_bench - one benchmark's part of a report (DESIGN.md §7)
 * @b: what the harness printed, its samples
 * @funcs, @findings: its hot functions and findings (its samples only)
 * @annotation: its hottest function annotated, NULL when none
 * @runs, @nruns: its result lines as printed
 * @other_samples, @other_funcs: the samples of its functions past @funcs
 */
struct export_bench {
	const struct bt_bench *b;
	struct bt_view *funcs, *findings, *annotation;
	const struct bt_bench_run *runs;	/* its result lines */
	size_t nruns;
	uint64_t *run_samples;		/* per line, UINT64_MAX: not known */
	uint64_t other_samples;		/* of its functions not in funcs */
	size_t other_funcs;
};

/**
 * struct export_out - where an export goes, and what it holds besides the
 * views handed to the ops
 * @benches: the benchmark table, NULL when no benchmark was found
 * @bench, @nbench: each benchmark's part, fastest first
 * @procs: the processes and threads (bt_view_procs)
 * @procs_text: the text export shows them (more than one thread has samples)
 */
struct export_out {
	FILE *f;
	struct bt_jw jw;	/* JSON */
	bool any;		/* JSON: an annotation was written */
	const struct bt_view *benches;
	const struct export_bench *bench;
	size_t nbench;
	bool bench_selected;	/* -b: the report is that benchmark's already */
	const struct bt_view *procs;
	bool procs_text;
};

struct export_ops {
	/* header (the summary view), the function table, the findings */
	void (*begin)(struct export_out *o, const struct bt_view *header,
		      const struct bt_view *funcs, const struct bt_view *findings);
	void (*annotation)(struct export_out *o, const struct bt_view *v);
	/* a function that could not be annotated (name, why) */
	void (*failed)(struct export_out *o, const char *name, const char *msg);
	void (*end)(struct export_out *o);
	/* one view as the browser shows it, after the header */
	void (*view)(struct export_out *o, const struct bt_view *header,
		     const struct bt_view *v);
};

extern const struct export_ops export_text, export_json;

/* --format flamegraph: the selection's flame graph as an SVG file. */
int export_flamegraph(FILE *out, struct bt_selection *sel, struct bt_error *err);
/*
 * benchtui diff --format flamegraph: B's flame graph (b), each frame
 * coloured by the change of its share from A's (a, NULL: none), as
 * flamegraph.pl's difffolded; bench names the benchmark (NULL: the run).
 */
int export_flamegraph_diff(FILE *out, struct bt_selection *a, struct bt_selection *b,
			   const char *bench, struct bt_error *err);
/*
 * The selection's samples as a gzip'ed profile.proto (export-pprof.c),
 * with the skid-adjusted weights of functions idx[0..n).
 */
struct bt_export_opts;
int bt_export_pprof(FILE *out, struct bt_selection *sel, const struct bt_export_opts *o,
		    const size_t *idx, size_t n, struct bt_error *err);
/*
 * Both sides of a diff in one profile (export-pprof.c), each sample
 * labelled side = "a" or "b": the sample types are b's.
 */
int bt_export_pprof_sides(FILE *out, struct bt_selection *a, struct bt_selection *b,
			  struct bt_error *err);
/* Bencher's metric format, per benchmark (export-bmf.c). */
int bt_export_bmf(FILE *out, struct bt_selection *sel, const struct bt_view_opts *vo);

/*
 * A comparison's view as text (export-diff.c; the aligned function's too):
 * "## title", the column heads after '#', a line a row, bytes escaped.
 */
void export_plain_view(FILE *out, const struct bt_view *v);

#endif
