/*
 * Google Benchmark output: the console table (ConsoleReporter: name, time,
 * CPU, iterations, then counters as name=value or, with
 * --benchmark_counters_tabular, as columns), the JSON reporter (one key
 * per line, as --benchmark_format=json and --benchmark_out write it) and
 * the CSV reporter.
 */
#include <math.h>
#include <string.h>

#include "harness-int.h"

#define MAX_TOKENS 128

/* What a parser remembers: console header columns, JSON object, CSV header. */
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

static const char *const aggregates[] = {
	"mean", "median", "stddev", "cv", "BigO", "RMS",
};

static void *
gb_state_new(void)
{
	struct gb_state *gb = bt_xcalloc(1, sizeof(*gb));

	bt_strbuf_init(&gb->obj);
	return gb;
}

static void
gb_state_free(void *state)
{
	struct gb_state *gb = state;

	HP_STRV_FREE(gb->columns);
	HP_STRV_FREE(gb->keys);
	HP_STRV_FREE(gb->values);
	HP_STRV_FREE(gb->csv);
	bt_strbuf_release(&gb->obj);
	free(gb);
}

/* "BM_sum/8_mean": the aggregate's name after the last '_', when known. */
static const char *
aggregate_suffix(const char *name, size_t *base_len)
{
	const char *u = strrchr(name, '_');

	if (u == NULL)
		return NULL;
	for (size_t i = 0; i < BT_ARRAY_SIZE(aggregates); i++)
		if (strcmp(u + 1, aggregates[i]) == 0) {
			*base_len = (size_t)(u - name);
			return aggregates[i];
		}
	return NULL;
}

/* The family: the run name up to the first '/'. */
static void
set_family(struct bt_harness_parser *p, struct bt_bench_result *r, size_t base_len)
{
	const char *slash = memchr(r->name, '/', base_len);

	hp_set_family(p, r, slash ? (size_t)(slash - r->name) : base_len);
}

/* A value as GB's console prints counters: number, then its unit ("1.5G/s", "3", "1.33%"). */
static bool
split_value(const char *s, size_t len, double *v, size_t *numlen)
{
	size_t n = 0;

	while (n < len && (strchr("0123456789.+-eE", s[n]) != NULL))
		n++;
	/* "1.5e" would take the unit's E (exa) as an exponent */
	while (n > 0 && !hp_number(s, n, v))
		n--;
	*numlen = n;
	return n > 0;
}

static void
add_counter(struct bt_harness_parser *p, struct bt_bench_result *r,
    const char *name, size_t nlen, const char *val, size_t vlen)
{
	double v;
	size_t numlen;

	if (split_value(val, vlen, &v, &numlen))
		hp_counter(p, r, name, nlen, val + numlen, vlen - numlen, v, val, vlen);
	else
		hp_counter(p, r, name, nlen, "", 0, NAN, val, vlen);
}

/* The header: "Benchmark  Time  CPU  Iterations [UserCounters...|names]". */
static bool
console_header(struct gb_state *gb, const struct hline *l)
{
	struct tok t[MAX_TOKENS];
	size_t n = hp_tokens(l->s, l->len, t, MAX_TOKENS);

	if (n < 4 || !hp_eq(&t[0], "Benchmark") || !hp_eq(&t[1], "Time") ||
	    !hp_eq(&t[2], "CPU") || !hp_eq(&t[3], "Iterations"))
		return false;
	gb->console = true;
	HP_STRV_FREE(gb->columns);
	gb->tabular = n > 4 && !hp_eq(&t[4], "UserCounters...");
	if (gb->tabular)
		for (size_t i = 4; i < n; i++)
			BT_VEC_PUSH(gb->columns, bt_xstrndup(t[i].s, t[i].len));
	return true;
}

static bool
is_num(const struct tok *t, double *v)
{
	return hp_number(t->s, t->len, v);
}

static void
console_line(struct bt_harness_parser *p, struct gb_state *gb, const struct hline *l)
{
	struct tok t[MAX_TOKENS];
	size_t n = hp_tokens(l->s, l->len, t, MAX_TOKENS), i, namelen, base;
	struct bt_bench_result *r;
	const char *err, *agg;
	double real, cpu, f, iters;
	size_t next;

	if (n == 0 || console_header(gb, l))
		return;
	err = hp_find(l->s, l->len, "ERROR OCCURRED: ");
	if (err == NULL)
		err = hp_find(l->s, l->len, "SKIPPED: ");
	if (err != NULL) {
		const char *msg = strchr(err, ':') + 2;
		size_t mlen = (size_t)(l->s + l->len - msg);

		namelen = (size_t)(err - l->s);
		while (namelen > 0 && l->s[namelen - 1] == ' ')
			namelen--;
		if (namelen == 0)
			return;
		r = hp_result_new(p, BT_HARNESS_GBENCH, "console", l->s, namelen, l);
		r->flags |= BT_BENCH_ERROR;
		if (mlen >= 2 && msg[0] == '\'' && msg[mlen - 1] == '\'') {
			msg++;
			mlen -= 2;
		}
		r->error = hp_str(p, msg, mlen);
		set_family(p, r, namelen);
		return;
	}
	/* the time columns: number unit number unit (names may hold spaces) */
	for (i = 1; i + 3 < n; i++)
		if (is_num(&t[i], &real) && is_num(&t[i + 2], &cpu) &&
		    t[i + 1].len == t[i + 3].len &&
		    memcmp(t[i + 1].s, t[i + 3].s, t[i + 1].len) == 0)
			break;
	if (i + 3 >= n)
		return;
	namelen = (size_t)(t[i].s - l->s);
	while (namelen > 0 && l->s[namelen - 1] == ' ')
		namelen--;
	r = hp_result_new(p, BT_HARNESS_GBENCH, "console", l->s, namelen, l);
	base = namelen;
	agg = aggregate_suffix(r->name, &base);
	if (agg != NULL) {
		r->flags |= BT_BENCH_AGGREGATE;
		r->aggregate = agg;
	}
	set_family(p, r, base);
	f = hp_time_unit(t[i + 1].s, t[i + 1].len);
	if (f > 0) {
		hp_set_num(p, &r->time, real * f, t[i].s,
		    (size_t)(t[i + 1].s + t[i + 1].len - t[i].s));
		hp_set_num(p, &r->cpu_time, cpu * f, t[i + 2].s,
		    (size_t)(t[i + 3].s + t[i + 3].len - t[i + 2].s));
	} else {
		/* _cv in %, _BigO in N^2..., _RMS in %: not times */
		hp_counter(p, r, "real_time", 9, t[i + 1].s, t[i + 1].len, real,
		    t[i].s, (size_t)(t[i + 1].s + t[i + 1].len - t[i].s));
		hp_counter(p, r, "cpu_time", 8, t[i + 3].s, t[i + 3].len, cpu,
		    t[i + 2].s, (size_t)(t[i + 3].s + t[i + 3].len - t[i + 2].s));
	}
	next = i + 4;
	if (next < n && memchr(t[next].s, '=', t[next].len) == NULL &&
	    is_num(&t[next], &iters)) {
		hp_set_num(p, &r->iterations, iters, t[next].s, t[next].len);
		next++;
	}
	if (gb->tabular) {
		for (size_t c = 0; c < gb->columns.n && next < n; c++, next++) {
			const char *name = gb->columns.v[c];

			add_counter(p, r, name, strlen(name), t[next].s, t[next].len);
		}
	} else {
		for (; next < n; next++) {
			const char *eq = memchr(t[next].s, '=', t[next].len);
			double v;
			size_t numlen;

			if (eq == NULL || eq == t[next].s ||
			    !split_value(eq + 1, (size_t)(t[next].s + t[next].len - eq - 1),
			    &v, &numlen))
				break;
			add_counter(p, r, t[next].s, (size_t)(eq - t[next].s), eq + 1,
			    (size_t)(t[next].s + t[next].len - eq - 1));
		}
	}
	if (next < n) {
		/* SetLabel() text: the rest of the line */
		size_t len = (size_t)(l->s + l->len - t[next].s);

		hp_counter(p, r, "label", 5, "", 0, NAN, t[next].s, len);
	}
}

/* JSON: a string value, unescaped; false when v is no string. */
static bool
json_string(const char *v, struct bt_strbuf *out)
{
	size_t len = strlen(v);

	if (len < 2 || v[0] != '"' || v[len - 1] != '"')
		return false;
	for (size_t i = 1; i + 1 < len; i++) {
		char c = v[i];

		if (c != '\\' || i + 2 >= len) {
			bt_strbuf_addch(out, c);
			continue;
		}
		c = v[++i];
		switch (c) {
		case 'n': bt_strbuf_addch(out, '\n'); break;
		case 't': bt_strbuf_addch(out, '\t'); break;
		case 'r': bt_strbuf_addch(out, '\r'); break;
		case 'b': bt_strbuf_addch(out, '\b'); break;
		case 'f': bt_strbuf_addch(out, '\f'); break;
		case 'u':
			if (i + 4 < len) {
				unsigned cp = (unsigned)strtoul((char[5]){ v[i + 1], v[i + 2],
				    v[i + 3], v[i + 4], 0 }, NULL, 16);

				i += 4;
				if (cp < 0x80) {
					bt_strbuf_addch(out, (int)cp);
				} else if (cp < 0x800) {
					bt_strbuf_addch(out, (int)(0xc0 | (cp >> 6)));
					bt_strbuf_addch(out, (int)(0x80 | (cp & 0x3f)));
				} else {
					bt_strbuf_addch(out, (int)(0xe0 | (cp >> 12)));
					bt_strbuf_addch(out, (int)(0x80 | ((cp >> 6) & 0x3f)));
					bt_strbuf_addch(out, (int)(0x80 | (cp & 0x3f)));
				}
			}
			break;
		default: bt_strbuf_addch(out, c); break;
		}
	}
	return true;
}

static const char *
json_get(struct gb_state *gb, const char *key)
{
	for (size_t i = 0; i < gb->keys.n; i++)
		if (strcmp(gb->keys.v[i], key) == 0)
			return gb->values.v[i];
	return NULL;
}

static bool
json_known(const char *key)
{
	static const char *const known[] = {
		"name", "family_index", "per_family_instance_index", "run_name",
		"run_type", "repetitions", "repetition_index", "threads",
		"iterations", "real_time", "cpu_time", "time_unit",
		"aggregate_name", "aggregate_unit", "error_occurred",
		"error_message", "big_o", "label",
	};

	for (size_t i = 0; i < BT_ARRAY_SIZE(known); i++)
		if (strcmp(key, known[i]) == 0)
			return true;
	return false;
}

static void
json_time(struct bt_harness_parser *p, struct bt_bench_num *num, const char *v,
    const char *unit)
{
	double x, f = unit ? hp_time_unit(unit, strlen(unit)) : 1;
	char *text;

	if (v == NULL || f == 0 || !hp_number(v, strlen(v), &x))
		return;
	text = bt_xasprintf("%s %s", v, unit ? unit : "ns");
	hp_set_num(p, num, x * f, text, strlen(text));
	free(text);
}

/* One object of "benchmarks": [...] is complete. */
static void
json_object(struct bt_harness_parser *p, struct gb_state *gb, const struct hline *l)
{
	struct bt_strbuf name = BT_STRBUF_INIT, s = BT_STRBUF_INIT, unit = BT_STRBUF_INIT;
	const char *v;
	struct bt_bench_result *r;
	struct hline ol = *l;
	double x;
	size_t base;

	v = json_get(gb, "name");
	if (v == NULL || !json_string(v, &name))
		goto out;
	ol.s = gb->obj.buf;
	ol.len = gb->obj.len;
	ol.lineno = gb->json_line;
	ol.t_begin = gb->json_t_begin;
	r = hp_result_new(p, BT_HARNESS_GBENCH, "json", name.buf, name.len, &ol);
	base = name.len;
	v = json_get(gb, "run_type");
	if (v != NULL && strcmp(v, "\"aggregate\"") == 0) {
		r->flags |= BT_BENCH_AGGREGATE;
		v = json_get(gb, "aggregate_name");
		if (v != NULL && json_string(v, &s))
			r->aggregate = hp_str(p, s.buf, s.len);
		bt_strbuf_reset(&s);
	}
	if (json_get(gb, "big_o") != NULL || json_get(gb, "rms") != NULL)
		r->flags |= BT_BENCH_AGGREGATE;
	v = json_get(gb, "run_name");
	if (v != NULL && json_string(v, &s))
		base = s.len <= name.len && memcmp(s.buf, name.buf, s.len) == 0 ? s.len : base;
	else if (aggregate_suffix(r->name, &base) != NULL && r->aggregate == NULL)
		r->flags |= BT_BENCH_AGGREGATE;
	set_family(p, r, base);
	v = json_get(gb, "error_occurred");
	if (v != NULL && strcmp(v, "true") == 0) {
		r->flags |= BT_BENCH_ERROR;
		bt_strbuf_reset(&s);
		v = json_get(gb, "error_message");
		if (v != NULL && json_string(v, &s))
			r->error = hp_str(p, s.buf, s.len);
	}
	v = json_get(gb, "time_unit");
	if (v != NULL)
		json_string(v, &unit);
	v = json_get(gb, "aggregate_unit");
	if (v != NULL && strcmp(v, "\"percentage\"") == 0) {
		/* _cv: a fraction, not a time */
		const char *rt = json_get(gb, "real_time"), *ct = json_get(gb, "cpu_time");

		if (rt != NULL && hp_number(rt, strlen(rt), &x))
			hp_counter(p, r, "real_time", 9, "", 0, x, rt, strlen(rt));
		if (ct != NULL && hp_number(ct, strlen(ct), &x))
			hp_counter(p, r, "cpu_time", 8, "", 0, x, ct, strlen(ct));
	} else if (json_get(gb, "big_o") == NULL) {
		json_time(p, &r->time, json_get(gb, "real_time"), unit.len ? unit.buf : NULL);
		json_time(p, &r->cpu_time, json_get(gb, "cpu_time"), unit.len ? unit.buf : NULL);
	}
	v = json_get(gb, "iterations");
	if (v != NULL && hp_number(v, strlen(v), &x))
		hp_set_num(p, &r->iterations, x, v, strlen(v));
	for (size_t i = 0; i < gb->keys.n; i++) {
		const char *k = gb->keys.v[i];

		v = gb->values.v[i];
		if (json_known(k) && strcmp(k, "big_o") != 0 && strcmp(k, "label") != 0)
			continue;
		bt_strbuf_reset(&s);
		if (json_string(v, &s))
			hp_counter(p, r, k, strlen(k), "", 0, NAN, s.buf, s.len);
		else if (hp_number(v, strlen(v), &x))
			hp_counter(p, r, k, strlen(k), "", 0, x, v, strlen(v));
	}
out:
	bt_strbuf_release(&name);
	bt_strbuf_release(&s);
	bt_strbuf_release(&unit);
	HP_STRV_FREE(gb->keys);
	HP_STRV_FREE(gb->values);
}

static void
json_line(struct bt_harness_parser *p, struct gb_state *gb, const struct hline *l)
{
	const char *s = l->s, *colon;
	size_t len = l->len;

	hp_trim(&s, &len);
	if (gb->json == 0) {
		if (hp_starts(s, len, "\"benchmarks\": [") && s[len - 1] != ']')
			gb->json = 1;
		return;
	}
	if (gb->json == 1) {
		if (len >= 1 && s[0] == ']') {
			gb->json = 0;
		} else if (len == 1 && s[0] == '{') {
			gb->json = 2;
			gb->json_line = l->lineno;
			gb->json_t_begin = l->t_begin;
			bt_strbuf_reset(&gb->obj);
			bt_strbuf_add(&gb->obj, l->s, l->len);
		}
		return;
	}
	bt_strbuf_addch(&gb->obj, '\n');
	bt_strbuf_add(&gb->obj, l->s, l->len);
	if (len >= 1 && s[0] == '}') {
		gb->json = 1;
		json_object(p, gb, l);
		return;
	}
	/* "key": value, */
	if (len < 4 || s[0] != '"')
		return;
	colon = hp_find(s, len, "\": ");
	if (colon == NULL)
		return;
	if (len > 0 && s[len - 1] == ',')
		len--;
	BT_VEC_PUSH(gb->keys, bt_xstrndup(s + 1, (size_t)(colon - s - 1)));
	BT_VEC_PUSH(gb->values, bt_xstrndup(colon + 3, (size_t)(s + len - colon - 3)));
}

/* CSV: one row into fields ("" escapes a quote in a quoted field). */
static size_t
csv_fields(const char *s, size_t len, struct bt_strbuf *f, size_t max)
{
	size_t n = 0, i = 0;

	while (n < max) {
		bt_strbuf_reset(&f[n]);
		if (i < len && s[i] == '"') {
			for (i++; i < len; i++) {
				if (s[i] == '"' && i + 1 < len && s[i + 1] == '"')
					bt_strbuf_addch(&f[n], s[i++]);
				else if (s[i] == '"')
					break;
				else
					bt_strbuf_addch(&f[n], s[i]);
			}
			i++;
		} else {
			while (i < len && s[i] != ',')
				bt_strbuf_addch(&f[n], s[i++]);
		}
		n++;
		if (i >= len || s[i] != ',')
			break;
		i++;
	}
	return n;
}

#define CSV_MAX 64

static void
csv_line(struct bt_harness_parser *p, struct gb_state *gb, const struct hline *l)
{
	struct bt_strbuf f[CSV_MAX];
	size_t n, base;
	struct bt_bench_result *r;
	const char *unit = NULL;
	double x, fac;

	if (hp_starts(l->s, l->len, "name,iterations,real_time,cpu_time,time_unit")) {
		HP_STRV_FREE(gb->csv);
		for (size_t i = 0; i < CSV_MAX; i++)
			bt_strbuf_init(&f[i]);
		n = csv_fields(l->s, l->len, f, CSV_MAX);
		for (size_t i = 0; i < n; i++)
			BT_VEC_PUSH(gb->csv, bt_xstrdup(f[i].buf));
		for (size_t i = 0; i < CSV_MAX; i++)
			bt_strbuf_release(&f[i]);
		return;
	}
	if (gb->csv.n == 0 || l->len == 0 || l->s[0] != '"')
		return;
	for (size_t i = 0; i < CSV_MAX; i++)
		bt_strbuf_init(&f[i]);
	n = csv_fields(l->s, l->len, f, CSV_MAX);
	if (n != gb->csv.n)
		goto out;
	r = hp_result_new(p, BT_HARNESS_GBENCH, "csv", f[0].buf, f[0].len, l);
	base = f[0].len;
	r->aggregate = aggregate_suffix(r->name, &base);
	if (r->aggregate != NULL)
		r->flags |= BT_BENCH_AGGREGATE;
	set_family(p, r, base);
	for (size_t i = 1; i < n; i++)
		if (strcmp(gb->csv.v[i], "time_unit") == 0)
			unit = f[i].buf;
	fac = unit ? hp_time_unit(unit, strlen(unit)) : 0;
	for (size_t i = 1; i < n; i++) {
		const char *k = gb->csv.v[i], *v = f[i].buf;
		bool num = hp_number(v, f[i].len, &x);

		if (f[i].len == 0 || strcmp(k, "time_unit") == 0)
			continue;
		if (strcmp(k, "iterations") == 0 && num) {
			hp_set_num(p, &r->iterations, x, v, f[i].len);
		} else if ((strcmp(k, "real_time") == 0 || strcmp(k, "cpu_time") == 0) &&
		    num && fac > 0 && (r->aggregate == NULL || strcmp(r->aggregate, "cv") != 0)) {
			char *text = bt_xasprintf("%s %s", v, unit);

			hp_set_num(p, k[0] == 'r' ? &r->time : &r->cpu_time, x * fac,
			    text, strlen(text));
			free(text);
		} else if (strcmp(k, "error_occurred") == 0) {
			if (strcmp(v, "true") == 0)
				r->flags |= BT_BENCH_ERROR;
		} else if (strcmp(k, "error_message") == 0) {
			r->error = hp_str(p, v, f[i].len);
		} else {
			hp_counter(p, r, k, strlen(k), "", 0, num ? x : NAN, v, f[i].len);
		}
	}
out:
	for (size_t i = 0; i < CSV_MAX; i++)
		bt_strbuf_release(&f[i]);
}

static void
gb_line(struct bt_harness_parser *p, void *state, const struct hline *l)
{
	struct gb_state *gb = state;

	if (l->transient)
		return;
	json_line(p, gb, l);
	if (gb->json != 0)
		return;
	csv_line(p, gb, l);
	if (gb->console || hp_find(l->s, l->len, "Iterations") != NULL)
		console_line(p, gb, l);
}

/*
 * Google Benchmark. Debian's libbenchmark.so keeps only its exported
 * symbols: the runner (RunSpecifiedBenchmarks -> RunBenchmarks ->
 * BenchmarkRunner::DoOneRepetition -> RunInThread -> BenchmarkInstance::Run)
 * shows as [unknown] frames of libbenchmark.so, and gcc turned the
 * virtual benchmark_->Run(st) into a direct call of the function
 * (FunctionBenchmark::Run never appears). So: runner = any frame of
 * libbenchmark; entry = the first frame below that is not a system
 * library: BM_x, LambdaBenchmark<...>::Run (the lambda inlined into it),
 * Fixture::Run -> X_Y_Benchmark::BenchmarkCase.
 */
static const char *const gb_runner[] = {
	"benchmark::RunSpecifiedBenchmarks*",
	"benchmark::internal::BenchmarkInstance::Run*",
	"benchmark::internal::FunctionBenchmark::Run*",
	NULL,
};
static const char *const gb_pass[] = {
	"benchmark::State::*",		/* KeepRunning, PauseTiming: timing code */
	"std::*", "__*", NULL,
};
static const char *const gb_wrapper[] = {
	"benchmark::Fixture::Run*",
	NULL,
};

static const struct bt_harness_frames gbench_frames = {
	.harness = BT_HARNESS_GBENCH,
	.module = "libbenchmark*.so*",
	.runner = gb_runner,
	.pass = gb_pass,
	.pass_modules = hp_system_modules,
	.wrapper = gb_wrapper,
	.entry = "BM_x (BENCHMARK), X_Y_Benchmark::BenchmarkCase (BENCHMARK_F), "
	    "benchmark::internal::LambdaBenchmark<...>::Run (RegisterBenchmark)",
};

const struct harness_ops harness_gbench = {
	.harness = BT_HARNESS_GBENCH,
	.name = "gbench",
	.state_new = gb_state_new,
	.state_free = gb_state_free,
	.line = gb_line,
	.frames = &gbench_frames,
};
