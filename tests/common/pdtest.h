/*
 * perf.data files for the reader's tests (tests/common/pdtest.c): they
 * return NULL or -1 when something fails, for the test to assert.
 */
#ifndef BENCHTUI_TEST_PDTEST_H
#define BENCHTUI_TEST_PDTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perf/perfdata.h"

struct bt_strbuf;

/* synth_attr() with the sample ids 41 and 42. */
struct bt_pd_attr pdtest_attr(void);
/*
 * DIR/NAME (malloc'ed): a mapping of /bin/bench in pid 100 at time 10,
 * 1000 samples in it at times 20.., every feature benchtui writes and
 * its own section.
 */
char *pdtest_file(const char *dir, const char *name);
/* The records of path's data section, raw, appended to out. */
int pdtest_records(const char *path, struct bt_strbuf *out);
/* What bt_pd_next reads, one line a record, to compare two readings. */
void pdtest_summary(struct bt_pd_reader *r, struct bt_strbuf *out);
/* A record of type with body appended to sb. */
void pdtest_add_rec(struct bt_strbuf *sb, uint32_t type, const void *body,
		    size_t len);
/*
 * The stream compressed as perf does: cut into pieces of piece bytes (a
 * ring buffer's drains: records straddle them), each piece one zstd
 * frame, written as COMPRESSED (v2: COMPRESSED2) records of at most
 * max_out bytes of data (so that a frame spans several), a FINISHED_ROUND
 * after each piece.
 */
int pdtest_compress(struct bt_pd_writer *w, const struct bt_strbuf *stream,
		    size_t piece, size_t max_out, bool v2);
/* DIR/NAME: a recording whose data is stream, compressed so. */
char *pdtest_compressed_file(const char *dir, const char *name,
			     const struct bt_strbuf *stream, size_t piece,
			     size_t max_out, bool v2);

#endif
