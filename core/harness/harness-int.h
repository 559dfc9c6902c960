/* Internals shared by the harness output parsers (one file per harness). */
#ifndef BENCHTUI_HARNESS_INT_H
#define BENCHTUI_HARNESS_INT_H

#include "base.h"
#include "harness/harness.h"

/**
 * struct hline - one line (or overwritten segment) of output
 * @s: the text, escapes removed, NUL-terminated
 * @len: its length
 * @lineno: its line number, from 1
 * @transient: overwritten by '\r' before its line ended (progress text)
 * @t_begin: when its first byte arrived
 * @t_end: when it ended
 */
struct hline {
	const char *s;
	size_t len;
	size_t lineno;
	bool transient;
	double t_begin, t_end;
};

struct tok {
	const char *s;
	size_t len;
};

/* Google Benchmark: console header columns, JSON object, CSV header. */
struct gb_state {
	bool console;			/* saw "Benchmark  Time  CPU  Iterations" */
	bool tabular;			/* counters as columns */
	BT_VEC(char *) columns;		/* tabular counter names */
	int json;			/* 0 none, 1 in "benchmarks": [, 2 in an object */
	size_t json_line;
	double json_t_begin;
	BT_VEC(char *) keys;		/* the object's keys and raw values */
	BT_VEC(char *) values;
	struct bt_strbuf obj;		/* the object's text */
	BT_VEC(char *) csv;		/* CSV header columns, empty when none */
};

struct crit_state {
	char *name;			/* from "Benchmarking NAME..." */
	double t_begin, t_measure;
	char *iters;			/* "31M" from "Collecting ... (31M iterations)" */
	char *bare;			/* a line that may be a long name */
	bool bare_next;			/* bare was the previous line */
};

struct table_state {
	int kind;			/* 0 none, BT_HARNESS_TINYBENCH, BT_HARNESS_MITATA */
	BT_VEC(char *) columns;		/* tinybench header cells */
};

struct result_int {
	struct bt_bench_result pub;
	BT_VEC(struct bt_bench_counter) counters;
};

struct bt_harness_parser {
	enum bt_harness only;
	struct bt_strpool pool;
	BT_VEC(struct result_int *) results;
	struct bt_strbuf seg;		/* the current segment's raw bytes */
	bool pending_cr, line_started;
	bool line_shown, seg_shown;	/* a visible byte (not of an escape) arrived */
	int esc;			/* where in an escape sequence the bytes are */
	double cr_t, line_t0, seg_t0;	/* when the first visible byte arrived */
	size_t lineno;
	struct gb_state gb;
	struct crit_state crit;
	struct table_state table;
	int mitata;			/* 0 none, 1 saw the header */
};

/* Results. */
struct bt_bench_result *hp_result_new(struct bt_harness_parser *p, enum bt_harness h,
    const char *format, const char *name, size_t len, const struct hline *l);
/* The last result when the harness printed it, else NULL. */
struct bt_bench_result *hp_last(struct bt_harness_parser *p, enum bt_harness h);
void hp_counter(struct bt_harness_parser *p, struct bt_bench_result *r,
    const char *name, size_t nlen, const char *unit, size_t ulen, double value,
    const char *text, size_t tlen);
void hp_set_num(struct bt_harness_parser *p, struct bt_bench_num *n, double value,
    const char *text, size_t len);
const char *hp_str(struct bt_harness_parser *p, const char *s, size_t len);
/* Append the line's text to r->text (results that span lines). */
void hp_append_text(struct bt_harness_parser *p, struct bt_bench_result *r, const struct hline *l);
void hp_set_family(struct bt_harness_parser *p, struct bt_bench_result *r, size_t len);

/* Lexing. */
bool hp_number(const char *s, size_t len, double *v);
/* Factor to ns of a time unit ("ps" .. "h", "us", "µs", "μs"), 0 if none. */
double hp_time_unit(const char *s, size_t len);
size_t hp_tokens(const char *s, size_t len, struct tok *t, size_t max);
bool hp_starts(const char *s, size_t len, const char *prefix);
bool hp_eq(const struct tok *t, const char *s);
const char *hp_find(const char *s, size_t len, const char *needle);
void hp_trim(const char **s, size_t *len);
#define HP_STRV_FREE(vec) do {						\
	for (size_t i_ = 0; i_ < (vec).n; i_++)				\
		free((vec).v[i_]);					\
	BT_VEC_FREE(vec);						\
} while (0)

/* One function per format family; each ignores lines it does not know. */
void gb_line(struct bt_harness_parser *p, const struct hline *l);
void go_line(struct bt_harness_parser *p, const struct hline *l);
void crit_line(struct bt_harness_parser *p, const struct hline *l);
void libtest_line(struct bt_harness_parser *p, const struct hline *l);
void tinybench_line(struct bt_harness_parser *p, const struct hline *l);
void mitata_line(struct bt_harness_parser *p, const struct hline *l);
void gb_release(struct gb_state *gb);
void crit_release(struct crit_state *c);

#endif
