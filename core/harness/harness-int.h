/* Internals shared by the harness output parsers (one file per harness). */
#ifndef BENCHTUI_HARNESS_INT_H
#define BENCHTUI_HARNESS_INT_H

#include <string.h>
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

struct result_int {
	struct bt_bench_result pub;
	BT_VEC(struct bt_bench_counter) counters;
};

/**
 * struct harness_ops - one harness: the parser of its output, its entry frames
 * @harness: which harness it is
 * @name: what bt_harness_name() says ("gbench")
 * @also: a parser restricted to this other harness reads its lines too
 *	(libtest's: criterion --output-format bencher prints them);
 *	BT_HARNESS_UNKNOWN none
 * @traits: enum bt_harness_traits
 * @state_new: its private state for one parser, NULL when it keeps none
 * @state_free: free what @state_new returned
 * @line: read one line (or '\r' segment: @l->transient); each ignores
 *	the lines it does not know
 * @finish: the end of the output, after its last line; NULL: nothing to do
 * @frames: its entry-frame table
 *
 * A new harness is a file that defines its ops, plus its registration:
 * an enum bt_harness value (harness.h), its name in the list below and
 * its line in harness.c's table, whose order is the order a line is
 * offered to the harnesses.
 */
struct harness_ops {
	enum bt_harness harness;
	const char *name;
	enum bt_harness also;
	unsigned traits;
	void *(*state_new)(void);
	void (*state_free)(void *state);
	void (*line)(struct bt_harness_parser *p, void *state, const struct hline *l);
	void (*finish)(struct bt_harness_parser *p, void *state);
	const struct bt_harness_frames *frames;
};

extern const struct harness_ops harness_gbench, harness_go, harness_criterion,
    harness_libtest, harness_tinybench, harness_mitata, harness_benchmarkjs,
    harness_benchnode;
extern const struct harness_ops harness_jmh, harness_custom, harness_openssl;

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
	/* the harnesses that read lines (@only's), in order, and their states */
	const struct harness_ops *ops[BT_HARNESS_COUNT];
	void *state[BT_HARNESS_COUNT];
	size_t nops;
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
/* Does s[0..len) start with prefix? (inline: a literal's strlen folds) */
static inline bool
hp_starts(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && memcmp(s, prefix, n) == 0;
}
bool hp_eq(const struct tok *t, const char *s);
/*
 * memmem() for a line and a short needle: its first byte by memchr(),
 * which rejects most lines at once (glibc's memmem sets up its two-way
 * search on every call: a third of the time 100 MB of output took).
 */
static inline const char *
hp_find(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle);
	const char *end = s + len, *p = s;

	if (n == 0)
		return s;
	while (len >= n && (p = memchr(p, needle[0], (size_t)(end - p) - n + 1)) != NULL) {
		if (p[n - 1] == needle[n - 1] && memcmp(p + 1, needle + 1, n - 1) == 0)
			return p;
		p++;
		if ((size_t)(end - p) < n)
			break;
	}
	return NULL;
}

void hp_trim(const char **s, size_t *len);
/*
 * "NAME x 1,234,567 ops/sec REST" (benchmark.js, bench-node): the name
 * (padding dropped), the rate's number and what follows "ops/sec",
 * trimmed. The first " ops/sec" after " x NUMBER" is taken, so a name may
 * hold " x ".
 */
bool hp_ops_line(const struct hline *l, struct tok *name, struct tok *num, struct tok *rest);
/* The rate as a time per operation: 1e9 / ops/sec ns, its text "N ops/sec". */
void hp_set_rate(struct bt_harness_parser *p, struct bt_bench_result *r, const struct tok *num);
#define HP_STRV_FREE(vec) do {						\
	for (size_t i_ = 0; i_ < (vec).n; i_++)				\
		free((vec).v[i_]);					\
	BT_VEC_FREE(vec);						\
} while (0)

/* Patterns of entry-frame tables that several harnesses share (frames.c). */
extern const char *const hp_system_modules[];
extern const char *const hp_js_pass[];
extern const char *const hp_js_pass_modules[];

#endif
