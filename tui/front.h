/*
 * The front end's own (tui/main.c, tui/compare.c): exit codes, messages,
 * the export file written whole, and the comparison.
 */
#ifndef BT_FRONT_H
#define BT_FRONT_H

#include <stdbool.h>
#include <stdio.h>

#define EXIT_USAGE 1
#define EXIT_NODATA 2
#define EXIT_SLOWER 3		/* --fail-on slower: a benchmark is */
#define TEXT_COLUMNS 100	/* --stdio's width when stdout is no terminal */

struct bt_error;
struct cli;

/* One line on stderr, "benchtui: ...", every byte from a recording escaped. */
void errmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* perf's ownership rule for the recording at path: 0, or -1 (said). */
int check_owner(const char *path);
/*
 * c->export_path written by fn(f, c, arg, err) whole or not at all (a
 * temporary file renamed): 0 or -BT_E*.
 */
int write_file(struct cli *c, int (*fn)(FILE *, struct cli *, void *, struct bt_error *),
	       void *arg, struct bt_error *err);

/*
 * benchtui diff OLD NEW, or --baseline OLD after recording NEW (shown:
 * the report is the user's to see; status: the run's exit code): 0 or
 * status, EXIT_SLOWER for --fail-on, or an error (said).
 */
int compare(struct cli *c, const char *old, const char *new, bool shown, int status);
/* query's diff tool (tui/query.h's hook): the diff of a and b as JSON on out. */
int query_diff(void *ctx, const char *a, const char *b, FILE *out, struct bt_error *err);

#endif
