/*
 * Exports (DESIGN.md §3): the same view rows as the browser, as text in
 * the spirit of perf annotate --stdio, or as JSON for tools and CI.
 */
#ifndef BENCHTUI_EXPORT_H
#define BENCHTUI_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "benchtui/benchtui.h"
#include "benchtui/view.h"

struct bt_selection;

enum bt_format {
	BT_FORMAT_TEXT,
	BT_FORMAT_JSON,
	BT_FORMAT_FLAMEGRAPH,	/* an SVG flame graph (export-flame.c) */
	BT_FORMAT_PPROF,	/* gzip'ed profile.proto (export-pprof.c) */
	BT_FORMAT_BMF,		/* Bencher's metric format (export-bmf.c) */
};

/**
 * struct bt_export_opts - what a whole-profile export holds
 * @format: text, JSON, an SVG flame graph, pprof (gzip'ed profile.proto)
 *          or Bencher's metric format
 * @top: annotate the N hottest functions (0: none, the table only)
 * @all: annotate every sampled function that has code
 * @func: annotate only this function (-s NAME)
 * @view: the view options every section uses
 * @screen: instead of the report, one screen's view as bt_export_view()
 *          writes it (--view): X's of @func, or D's of the selection
 */
enum bt_export_screen {
	BT_EXPORT_REPORT,	/* the whole report (default) */
	BT_EXPORT_MCA,		/* predicted vs measured (X): bt_view_mca of @func */
	BT_EXPORT_DATA_TYPES,	/* data types (D): bt_view_data_types */
};
struct bt_export_opts {
	enum bt_format format;
	size_t top;
	bool all;
	const char *func;
	struct bt_view_opts view;
	enum bt_export_screen screen;
};

/*
 * Header, hot-function table, findings, then the annotated functions, of
 * selection sel; with benchmarks, each benchmark's part before them.
 */
BT_API int bt_export(FILE *out, struct bt_selection *sel,
		     const struct bt_export_opts *o, struct bt_error *err);
/* Exactly one view, as the browser shows it (the E key). */
BT_API int bt_export_view(FILE *out, struct bt_selection *sel,
			  const struct bt_view *v, enum bt_format format,
			  struct bt_error *err);

#endif
