/*
 * JMH (Java): each benchmark run is announced by a header block, then
 * run in forks, each fork's iterations printed as they go ("Iteration
 * N: " written when the iteration starts, its result when it ends):
 *	# Benchmark mode: Average time, time/op
 *	# Benchmark: bt.JmhBench.hash
 *	# Parameters: (len = 16)
 *
 *	# Run progress: 25.00% complete, ETA 00:00:32
 *	# Fork: 1 of 2
 *	# Warmup Iteration   1: 9.526 ns/op
 *	Iteration   1: 7.895 ns/op
 *	...
 *	Result "bt.JmhBench.hash":
 *	  8.486 ±(99.9%) 3.004 ns/op [Average]
 * and, once every run is done, the table that holds the results (one
 * row a run, then a row per secondary result "NAME:LABEL"; names with
 * their common package cut or abbreviated, JMH's denseClassNames):
 *	Benchmark      (len)   Mode  Cnt     Score      Error   Units
 *	JmhBench.sqrt    N/A  thrpt    6     0.515 ±    0.091  ops/us
 *	JmhBench.hash     16   avgt    6     8.486 ±    3.004   ns/op
 * Each row is a result; its run (found by name, parameters and mode)
 * gives it its times and its forks (struct bt_bench_fork): when each
 * fork was announced and when its measurement iterations began and
 * ended, so that a fork's process can be told by time and its warm-up
 * left out (docs/benchmarks.md).
 */
#include <math.h>
#include <string.h>

#include "harness-int.h"

#define PLUSMINUS "\xc2\xb1"	/* U+00B1 ± */
#define APPROX "\xe2\x89\x88"	/* U+2248 ≈ */
#define MAX_TOKENS 64

/* One benchmark run: "# Benchmark:" to the next one. */
struct jmh_run {
	char *name;			/* "bt.JmhBench.hash" */
	char *params;			/* "len = 16, n = 3" (inside the parentheses), NULL */
	char *mode;			/* "Average time, time/op", NULL */
	BT_VEC(struct bt_bench_fork) forks;
	bool used;			/* a table row took it */
};

struct jmh_state {
	BT_VEC(struct jmh_run) runs;
	char *mode;			/* "# Benchmark mode:", before its "# Benchmark:" */
	/* the final table, once its header was read */
	bool table;
	BT_VEC(char *) keys;		/* its parameter columns, "(len)" -> "len" */
	BT_VEC(struct bt_bench_fork *) copies;	/* the results' forks (theirs to read) */
};

static void *
jmh_state_new(void)
{
	return bt_xcalloc(1, sizeof(struct jmh_state));
}

static void
jmh_state_free(void *state)
{
	struct jmh_state *j = state;

	for (size_t i = 0; i < j->runs.n; i++) {
		free(j->runs.v[i].name);
		free(j->runs.v[i].params);
		free(j->runs.v[i].mode);
		BT_VEC_FREE(j->runs.v[i].forks);
	}
	BT_VEC_FREE(j->runs);
	free(j->mode);
	HP_STRV_FREE(j->keys);
	HP_STRV_FREE(j->copies);
	free(j);
}

static struct jmh_run *
cur_run(struct jmh_state *j)
{
	return j->runs.n > 0 ? &j->runs.v[j->runs.n - 1] : NULL;
}

static struct bt_bench_fork *
cur_fork(struct jmh_state *j)
{
	struct jmh_run *r = cur_run(j);

	return r != NULL && r->forks.n > 0 ? &r->forks.v[r->forks.n - 1] : NULL;
}

/* "# Fork: 2 of 5", "# Warmup Fork: 1 of 1", "# Fork: N/A, test runs in the host VM" */
static void
fork_line(struct jmh_state *j, const struct hline *l, bool warmup)
{
	struct jmh_run *r = cur_run(j);
	struct bt_bench_fork f;

	if (r == NULL)
		return;
	memset(&f, 0, sizeof(f));
	f.warmup = warmup;
	f.host = hp_find(l->s, l->len, "N/A") != NULL;
	f.t_announce = l->t_end;
	f.t_measure = f.t_end = NAN;
	BT_VEC_PUSH(r->forks, f);
}

/* "Iteration   3: 7.895 ns/op" (measurement), or "# Warmup Iteration   1: ..." */
static bool
iteration_line(struct jmh_state *j, const struct hline *l)
{
	bool warm = hp_starts(l->s, l->len, "# Warmup Iteration ");
	const char *s = l->s + (warm ? 19 : 10), *colon;
	struct bt_bench_fork *f;

	if (!warm && !hp_starts(l->s, l->len, "Iteration "))
		return false;
	colon = memchr(s, ':', (size_t)(l->s + l->len - s));
	if (colon == NULL)
		return false;
	while (s < colon && *s == ' ')
		s++;
	if (s == colon || strspn(s, "0123456789") != (size_t)(colon - s))
		return false;
	if ((f = cur_fork(j)) == NULL)
		return true;
	if (warm) {
		f->warmup_iterations++;
		return true;
	}
	if (f->iterations++ == 0)
		f->t_measure = l->t_begin;
	f->t_end = l->t_end;
	return true;
}

static void
header_line(struct jmh_state *j, const struct hline *l)
{
	const char *s;
	size_t len;
	struct jmh_run r;

	if (hp_starts(l->s, l->len, "# Benchmark mode: ")) {
		free(j->mode);
		j->mode = bt_xstrndup(l->s + 18, l->len - 18);
	} else if (hp_starts(l->s, l->len, "# Benchmark: ")) {
		s = l->s + 13;
		len = l->len - 13;
		hp_trim(&s, &len);
		memset(&r, 0, sizeof(r));
		r.name = bt_xstrndup(s, len);
		r.mode = j->mode;
		j->mode = NULL;
		BT_VEC_PUSH(j->runs, r);
	} else if (hp_starts(l->s, l->len, "# Parameters: (") && cur_run(j) != NULL &&
	    l->s[l->len - 1] == ')') {
		free(cur_run(j)->params);
		cur_run(j)->params = bt_xstrndup(l->s + 15, l->len - 16);
	}
}

/* The header of the final table: "Benchmark (k)... Mode Cnt Score Error Units". */
static bool
table_header(struct jmh_state *j, const struct hline *l)
{
	static const char *const cols[] = { "Mode", "Cnt", "Score", "Error", "Units" };
	struct tok t[MAX_TOKENS];
	size_t n = hp_tokens(l->s, l->len, t, MAX_TOKENS), k;

	if (n < 6 || !hp_eq(&t[0], "Benchmark"))
		return false;
	for (k = 1; k < n && t[k].len > 2 && t[k].s[0] == '(' && t[k].s[t[k].len - 1] == ')'; k++)
		;
	if (n - k != BT_ARRAY_SIZE(cols))
		return false;
	for (size_t i = 0; i < BT_ARRAY_SIZE(cols); i++)
		if (!hp_eq(&t[k + i], cols[i]))
			return false;
	HP_STRV_FREE(j->keys);
	for (size_t i = 1; i < k; i++)
		BT_VEC_PUSH(j->keys, bt_xstrndup(t[i].s + 1, t[i].len - 2));
	j->table = true;
	return true;
}

static bool
is_mode(const struct tok *t)
{
	return hp_eq(t, "thrpt") || hp_eq(t, "avgt") || hp_eq(t, "sample") || hp_eq(t, "ss");
}

/* The long label of "# Benchmark mode:" starts with the short one's. */
static bool
mode_matches(const char *long_label, const struct tok *mode)
{
	static const struct { const char *s, *l; } m[] = {
		{ "thrpt", "Throughput" }, { "avgt", "Average time" },
		{ "sample", "Sampling time" }, { "ss", "Single shot" },
	};

	if (long_label == NULL)
		return true;
	for (size_t i = 0; i < BT_ARRAY_SIZE(m); i++)
		if (hp_eq(mode, m[i].s))
			return hp_starts(long_label, strlen(long_label), m[i].l);
	return false;
}

/*
 * Is dense (the table's "JmhBench.hash", "o.o.j.s.JMHSample_01.hello")
 * the full name ("bt.JmhBench.hash")? From the right, the method and the
 * class the same, each package the same or its first letter; what is
 * left of the full name, lower-case packages JMH cut.
 */
static bool
dense_matches(const char *full, const char *dense, size_t dlen)
{
	const char *fe = full + strlen(full), *de = dense + dlen, *db, *fb;
	size_t dl, fl;

	for (int k = 0;; k++) {
		for (db = de; db > dense && db[-1] != '.'; db--)
			;
		for (fb = fe; fb > full && fb[-1] != '.'; fb--)
			;
		dl = (size_t)(de - db);
		fl = (size_t)(fe - fb);
		if (dl == 0 || fl == 0 ||
		    !(dl == fl ? memcmp(db, fb, dl) == 0 : k >= 2 && dl == 1 && *db == *fb))
			return false;
		if (db == dense)
			break;
		if (fb == full)
			return false;
		de = db - 1;
		fe = fb - 1;
	}
	for (const char *c = full; c < fb; c++)
		if (*c >= 'A' && *c <= 'Z')
			return false;
	return true;
}

/* Does "len = 16, n = 3" give key the value v (or, "N/A", not have it)? */
static bool
param_matches(const char *params, const char *key, const char *v, size_t vlen)
{
	size_t kl = strlen(key);
	const char *p = params;

	for (; p != NULL && *p; p = strstr(p, ", ") ? strstr(p, ", ") + 2 : NULL) {
		if (strncmp(p, key, kl) == 0 && strncmp(p + kl, " = ", 3) == 0) {
			const char *val = p + kl + 3, *end = strstr(val, ", ");
			size_t len = end ? (size_t)(end - val) : strlen(val);
			return len == vlen && memcmp(val, v, vlen) == 0;
		}
	}
	return vlen == 3 && memcmp(v, "N/A", 3) == 0;
}

/* The run a row is the result of: the first not yet taken that matches. */
static struct jmh_run *
find_run(struct jmh_state *j, const struct tok *name, const struct tok *params,
    size_t nparams, const struct tok *mode, bool primary)
{
	for (size_t i = 0; i < j->runs.n; i++) {
		struct jmh_run *r = &j->runs.v[i];
		size_t k;

		if ((primary && r->used) || !mode_matches(r->mode, mode) ||
		    !dense_matches(r->name, name->s, name->len))
			continue;
		for (k = 0; k < nparams && k < j->keys.n; k++)
			if (!param_matches(r->params, j->keys.v[k], params[k].s, params[k].len))
				break;
		if (k == nparams)
			return r;
	}
	return NULL;
}

/* A time unit of JMH's (TimeUnit's abbreviations) in ns, 0 if none. */
static double
jmh_time_unit(const char *s, size_t len)
{
	if (len == 3 && memcmp(s, "min", 3) == 0)
		return 60e9;
	if (len == 2 && memcmp(s, "hr", 2) == 0)
		return 3600e9;
	if (len == 3 && memcmp(s, "day", 3) == 0)
		return 86400e9;
	return hp_time_unit(s, len);
}

/* "10⁻⁴" (ScoreFormatter's superscripts) or "0": the approximate score's value. */
static bool
approx_value(const char *s, size_t len, double *v)
{
	static const char *const digits[] = {
		"\xe2\x81\xb0", "\xc2\xb9", "\xc2\xb2", "\xc2\xb3", "\xe2\x81\xb4",
		"\xe2\x81\xb5", "\xe2\x81\xb6", "\xe2\x81\xb7", "\xe2\x81\xb8", "\xe2\x81\xb9",
	};
	const char *p = s + 2, *end = s + len;
	int power = 0, sign = 1;
	size_t i;

	if (len == 1 && s[0] == '0') {
		*v = 0;
		return true;
	}
	if (len < 3 || memcmp(s, "10", 2) != 0)
		return false;
	if (hp_starts(p, (size_t)(end - p), "\xe2\x81\xbb")) {	/* ⁻ */
		sign = -1;
		p += 3;
	}
	if (p == end)
		return false;
	while (p < end) {
		for (i = 0; i < 10; i++)
			if (hp_starts(p, (size_t)(end - p), digits[i]))
				break;
		if (i == 10)
			return false;
		power = power * 10 + (int)i;
		p += strlen(digits[i]);
	}
	*v = pow(10, sign * power);
	return true;
}

/* "8.486" and "ns" -> "8.486 ns" */
static void
set_num_unit(struct bt_harness_parser *p, struct bt_bench_num *num, double value,
    const char *s, size_t len, const char *unit, size_t ulen)
{
	char *text = bt_strpool_alloc(&p->pool, len + 1 + ulen + 1);

	memcpy(text, s, len);
	text[len] = ' ';
	memcpy(text + len + 1, unit, ulen);
	text[len + 1 + ulen] = '\0';
	num->value = value;
	num->text = text;
}

/*
 * Time per operation: a time/op score (avgt, sample, ss) times the unit,
 * its text "8.486 ns" (a time, as the other harnesses'); an ops/time
 * score (thrpt) inverted, its text as printed, "0.515 ops/us". The error
 * likewise where it is a time (in ns), else its text alone (value NAN).
 */
static void
set_time(struct bt_harness_parser *p, struct bt_bench_result *r, const char *s,
    size_t len, double v, const struct tok *err, double ev, const struct tok *units)
{
	const char *slash = memchr(units->s, '/', units->len), *end = units->s + units->len;
	size_t ul;
	double f;

	if (slash == NULL)
		return;
	ul = (size_t)(slash - units->s);
	if (end - slash == 3 && memcmp(slash, "/op", 3) == 0 &&
	    (f = jmh_time_unit(units->s, ul)) > 0) {
		set_num_unit(p, &r->time, v * f, s, len, units->s, ul);
		if (err != NULL)
			set_num_unit(p, &r->err, ev * f, err->s, err->len, units->s, ul);
	} else if (hp_starts(units->s, units->len, "ops/") &&
	    (f = jmh_time_unit(slash + 1, (size_t)(end - slash - 1))) > 0 && v > 0) {
		set_num_unit(p, &r->time, f / v, s, len, units->s, units->len);
		if (err != NULL)
			set_num_unit(p, &r->err, NAN, err->s, err->len, units->s, units->len);
	}
}

/*
 * The code of benchmark "pkg.Class.method" (a row's "Class.method"):
 * JMH's generated "Class_method_jmhTest", whose stub runs the measured
 * loop with the benchmark inlined into it (or calling it).
 */
static const char *
jmh_family(struct bt_harness_parser *p, const char *name, size_t len)
{
	const char *dot = NULL, *cls;

	for (const char *c = name; c < name + len; c++)
		if (*c == '.')
			dot = c;
	if (dot == NULL)
		return hp_str(p, name, len);
	for (cls = dot; cls > name && cls[-1] != '.'; cls--)
		;
	return bt_strpool_addf(&p->pool, "%.*s_%.*s_jmhTest", (int)(dot - cls), cls,
	    (int)(name + len - dot - 1), dot + 1);
}

/*
 * A row: NAME [PARAM...] MODE [CNT] SCORE [± ERROR] UNITS, read from
 * both ends (a blank Cnt for one sample, no error for one sample or an
 * approximate score "≈ 10⁻⁴").
 */
static void
table_row(struct bt_harness_parser *p, struct jmh_state *j, const struct hline *l)
{
	struct tok t[MAX_TOKENS];
	size_t n = hp_tokens(l->s, l->len, t, MAX_TOKENS), e, m, nparams;
	struct tok *units, *err = NULL, *score, *cnt = NULL, *mode;
	const char *colon, *stext;
	size_t slen, flen;
	double sv, ev = NAN, cv;
	struct bt_bench_result *r;
	struct jmh_run *run;
	struct bt_strbuf name = BT_STRBUF_INIT;

	if (n < 4 || n == MAX_TOKENS) {
		j->table = false;
		return;
	}
	units = &t[n - 1];
	e = n - 2;
	/* Java prints '?' for '±' where the locale's charset has none (LC_ALL=C) */
	if (e >= 3 && (hp_eq(&t[e - 1], PLUSMINUS) || (hp_eq(&t[e - 1], "?") &&
	    hp_number(t[e].s, t[e].len, &ev) && hp_number(t[e - 2].s, t[e - 2].len, &sv)))) {
		err = &t[e];
		e -= 2;
	}
	score = &t[e];
	stext = score->s;
	slen = score->len;
	if (e >= 2 && (hp_eq(&t[e - 1], APPROX) || hp_eq(&t[e - 1], "?"))) {
		/* "≈ 10⁻⁴"; "? 0" where the charset has no '≈' (then no power) */
		if (!approx_value(score->s, score->len, &sv))
			goto not_row;
		stext = t[e - 1].s;
		slen = (size_t)(score->s + score->len - stext);
		e--;
	} else if (!hp_number(score->s, score->len, &sv)) {
		goto not_row;
	}
	m = e - 1;
	if (m >= 1 && !is_mode(&t[m])) {
		cnt = &t[m];
		if (!hp_number(cnt->s, cnt->len, &cv))
			goto not_row;
		m--;
	}
	if (m < 1 || !is_mode(&t[m]))
		goto not_row;
	mode = &t[m];
	nparams = m - 1;
	if (err != NULL && !hp_number(err->s, err->len, &ev))
		goto not_row;

	/*
	 * The name: the row's, its parameters as "# Parameters:" prints them,
	 * then a secondary result's label: "JmhBench.hash (len = 16):p0.50"
	 */
	colon = memchr(t[0].s, ':', t[0].len);
	flen = colon != NULL ? (size_t)(colon - t[0].s) : t[0].len;
	bt_strbuf_add(&name, t[0].s, flen);
	if (nparams > 0 && nparams == j->keys.n) {
		bool any = false;
		for (size_t k = 0; k < nparams; k++) {
			if (hp_eq(&t[1 + k], "N/A"))
				continue;
			bt_strbuf_addf(&name, "%s%s = %.*s", any ? ", " : " (", j->keys.v[k],
			    (int)t[1 + k].len, t[1 + k].s);
			any = true;
		}
		if (any)
			bt_strbuf_addch(&name, ')');
	}
	if (colon != NULL)
		bt_strbuf_add(&name, colon, t[0].len - flen);
	r = hp_result_new(p, BT_HARNESS_JMH, "table", name.buf, name.len, l);
	bt_strbuf_release(&name);
	if (colon != NULL) {
		/* a secondary result (a profiler's, sample's percentiles) of the run */
		r->flags |= BT_BENCH_AGGREGATE;
		r->aggregate = hp_str(p, colon + 1, t[0].len - flen - 1);
	}
	r->family = jmh_family(p, t[0].s, flen);
	{
		struct tok fam = { t[0].s, flen };
		run = nparams == j->keys.n ?
		    find_run(j, &fam, &t[1], nparams, mode, colon == NULL) :
		    find_run(j, &fam, NULL, 0, mode, colon == NULL);
	}
	/* the score and error as printed, then as time per operation */
	hp_counter(p, r, "score", 5, units->s, units->len, sv, stext, slen);
	if (err != NULL)
		hp_counter(p, r, "error", 5, units->s, units->len, ev, err->s, err->len);
	set_time(p, r, stext, slen, sv, err, ev, units);
	if (cnt != NULL)
		hp_set_num(p, &r->iterations, cv, cnt->s, cnt->len);
	if (run != NULL) {
		if (colon == NULL)
			run->used = true;
		if (run->forks.n > 0) {
			/* a copy: the run's own may grow (an output that goes on) */
			struct bt_bench_fork *fv = bt_xmalloc(run->forks.n * sizeof(*fv));

			memcpy(fv, run->forks.v, run->forks.n * sizeof(*fv));
			BT_VEC_PUSH(j->copies, fv);
			r->forks = fv;
			r->nforks = run->forks.n;
			r->t_begin = fv[0].t_announce;
			for (size_t k = 0; k < run->forks.n; k++) {
				if (fv[k].iterations == 0)
					continue;
				if (isnan(r->t_measure))
					r->t_measure = fv[k].t_measure;
				r->t_end = fv[k].t_end;
			}
		}
	}
	return;
not_row:
	j->table = false;
}

static void
jmh_line(struct bt_harness_parser *p, void *state, const struct hline *l)
{
	struct jmh_state *j = state;

	if (l->transient)
		return;
	if (j->table) {
		if (l->len == 0 || strspn(l->s, " \t") == l->len)
			j->table = false;
		else
			table_row(p, j, l);
		return;
	}
	if (iteration_line(j, l))
		return;
	if (hp_starts(l->s, l->len, "# Fork: "))
		fork_line(j, l, false);
	else if (hp_starts(l->s, l->len, "# Warmup Fork: "))
		fork_line(j, l, true);
	else if (hp_starts(l->s, l->len, "# Benchmark"))
		header_line(j, l);
	else if (hp_starts(l->s, l->len, "# Parameters: "))
		header_line(j, l);
	else if (hp_starts(l->s, l->len, "Benchmark"))
		table_header(j, l);
}

/*
 * JMH's generated code: in a forked JVM, BenchmarkHandler calls (by
 * reflection) Class_method_jmhTest.method_AverageTime, which sets up and
 * calls method_avgt_jmhStub, the measured loop, which calls the
 * @Benchmark method. HotSpot runs method_AverageTime interpreted (it is
 * called once an iteration) and compiles the stub's loop (OSR, then C2)
 * with the benchmark inlined into it: a chain reads stub <- Interpreter <-
 * call_stub <- JavaCalls::call_helper <- Reflection::invoke_method ... .
 * The stubs and the jmhTest class are the runner; what they call that is
 * not JMH's, the JDK's or the JVM's is the entry frame (the benchmark
 * method or its callees where C2 did not inline them). A sample in the
 * stub itself is in the benchmark's loop (place "harness"); the stub's
 * class is the result's family, which names it.
 */
static const char *const jmh_runner[] = {
	"*_jmhStub*", "*_jmhTest.*", NULL,
};
static const char *const jmh_pass[] = {
	"org.openjdk.jmh.*", "java.*", "jdk.*", "sun.*", "Interpreter*", "Stub:*",
	"StubRoutines*", NULL,
};
static const char *const jmh_pass_modules[] = {
	"libjvm.so", "libjava.so", "libjli.so", "libc.so*", "libm.so*", "libstdc++.so*",
	"libgcc_s.so*", "ld-linux*", "libpthread.so*", "[kernel*", "[vdso]", NULL,
};

static const struct bt_harness_frames jmh_frames = {
	.harness = BT_HARNESS_JMH,
	.runner = jmh_runner,
	.pass = jmh_pass,
	.pass_modules = jmh_pass_modules,
	.entry = "pkg.Class.method (the @Benchmark method, where not inlined into "
	    "its pkg.jmh_generated.Class_method_jmhTest.method_avgt_jmhStub)",
};

const struct harness_ops harness_jmh = {
	.harness = BT_HARNESS_JMH,
	.name = "jmh",
	.traits = BT_HARNESS_T_ANNOUNCES,
	.state_new = jmh_state_new,
	.state_free = jmh_state_free,
	.line = jmh_line,
	.frames = &jmh_frames,
};
