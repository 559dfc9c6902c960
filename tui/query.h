/* benchtui query: the JSON export as a JSON-RPC (MCP tool-call) service. */
#ifndef BENCHTUI_QUERY_H
#define BENCHTUI_QUERY_H

#include <stdio.h>

#include "benchtui/export.h"
#include "benchtui/selection.h"

/**
 * struct query - what a query session answers from
 * @sel: the recording's selection (the command line's -e, --time, -b...)
 * @eo: the export options (names, syntax...) every answer uses
 * @path: the recording's path (the diff tool's B by default)
 * @diff: writes the JSON export of benchtui diff A B on out (the diff
 *        tool), 0 or -BT_E* with err set; NULL: no diff tool
 */
struct query {
	struct bt_selection *sel;
	const struct bt_export_opts *eo;
	const char *path;
	int (*diff)(void *ctx, const char *a, const char *b, FILE *out, struct bt_error *err);
	void *ctx;
};

/*
 * One message of len bytes (line[len] is NUL): its reply on out, one line,
 * or none for a notification. q->sel NULL: tools/call says no recording.
 */
void query_message(struct query *q, const char *line, size_t len, FILE *out);
/* Answer the messages of in, one a line, on out until in ends: 0, -1 on a write error. */
int query_run(struct query *q, FILE *in, FILE *out);

#endif
