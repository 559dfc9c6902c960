/* The command line (DESIGN.md §2), parsed without printing or exiting. */
#ifndef BENCHTUI_CLI_H
#define BENCHTUI_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "benchtui/export.h"
#include "benchtui/record.h"
#include "benchtui/selection.h"
#include "benchtui/session.h"

/**
 * struct cli - what the command line asks for
 * @cmd: the command to record (NULL-terminated, inside argv), NULL with -i
 *       or diff
 * @diff: `benchtui diff OLD NEW`: the two recordings compared (docs/diff.md)
 * @event: -e, several joined by ',' in @events (perf's list); with -i
 *         the last one (@event_last) selects what is shown
 */
struct cli {
	const char *event, *output, *input, *symbol, *export_path;
	const char *bench, *bench_frames;	/* -b, --benchmark-frames */
	unsigned freq, delay, mmap_pages;
	enum bt_callgraph callgraph;
	unsigned stack_size;
	bool callgraph_set;
	bool quiet, stdio, help, version, no_jit, jit_copy, no_probes;
	bool force;		/* -f: read a recording another user owns */
	struct bt_session_opts so;
	struct bt_selection_opts sel;	/* --event (with -i), --time */
	struct bt_export_opts eo;
	char **cmd;
	const char *diff[2];	/* benchtui diff OLD NEW */
	const char *baseline;	/* --baseline OLD: record, then compare */
	bool fail_on;		/* --fail-on slower[=PCT] */
	double fail_pct;
	double noise;		/* --noise PCT, -1: the default */
	const char *event_last;
	char events[256];
};

extern const char cli_usage[];

/*
 * Parse argv into c. Returns 0, or -1 with a one-line message in err
 * (a usage error). May be called again (getopt is reset).
 */
int cli_parse(int argc, char **argv, struct cli *c, char *err, size_t errlen);

#endif
