/*
 * Unit tests: the views (benchtui/view.h) on their own, on the committed
 * split binary (tests/fixtures/prebuilt/split) and deterministic
 * recordings of it: the header's summary, the hot-function table, the
 * annotated function against objdump -d, the source view and its files,
 * the timeline, the comparison of two selections; a view outlives the
 * selection it was built from; two selections side by side leave each
 * other alone. Every number checked is one put in the recording (or
 * objdump's), never what the code printed last time.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "benchtui/lint.h"
#include "benchtui/profile.h"
#include "benchtui/selection.h"
#include "benchtui/session.h"
#include "benchtui/view.h"
#include "elf-funcs.h"
#include "perf/perfdata.h"
#include "synth.h"
#include "view/view-int.h"

/*
 * The recording: samples in this order in time, one every 250 us (4000
 * Hz), sample k at k * 0.00025 s from the first.
 */
#define N_A24 1200	/* work_a+0x24: add $0x1,%rdx (line 18) */
#define N_A2B 400	/* work_a+0x2b: cmp %rcx,%rdx (line 18) */
#define N_A20 40	/* work_a+0x20: imul %rdi,%rax (line 19) */
#define N_B24 300	/* work_b+0x24 */
#define N_B2B 60	/* work_b+0x2b */
#define N_MAIN 6	/* main+0x10 */
#define N_KERNEL 8
#define N_UNKNOWN 3
#define N_A (N_A24 + N_A2B + N_A20)
#define N_B (N_B24 + N_B2B)
#define TOTAL (N_A + N_B + N_MAIN + N_KERNEL + N_UNKNOWN)
#define TICK 0.00025
/* A window edge half-way before sample k. */
#define EDGE(k) (((double)(k) - 0.5) * TICK)
/*
 * The window of the side-by-side tests: work_a's last 100 samples (60 on
 * its cmp, then its 40 on the imul), work_b's first 100 (on its add).
 */
#define W_FROM (N_A - 100)
#define W_TO (N_A + 100)
#define W_A2B 60
#define W_A20 N_A20

/* The chains recording (write_chains): samples, each with its caller. */
#define C_A 600		/* work_a, called from main */
#define C_B 200		/* work_b, called from main */
#define C_MIX 50	/* mix.constprop.0, called from main */
#define C_MAIN 10	/* main itself */
#define C_TOTAL (C_A + C_B + C_MIX + C_MAIN)

static char dir[] = "/tmp/bt-view.XXXXXX";
static char bin[PATH_MAX], rec[PATH_MAX + 16], chains[PATH_MAX + 16];

/* The table as the recording has it, hottest first. */
static const struct {
	const char *name;
	uint64_t samples;
} table[] = {
	{ "work_a", N_A }, { "work_b", N_B }, { "[kernel]", N_KERNEL },
	{ "main", N_MAIN }, { "[unknown]", N_UNKNOWN },
};

/* The 95% Wilson score interval of k in n, in percent: the oracle. */
static void
wilson(uint64_t k, uint64_t n, double *lo, double *hi)
{
	const double z = 1.959964;
	double p = (double)k / (double)n, d = 1 + z * z / (double)n;
	double c = (p + z * z / (2.0 * (double)n)) / d;
	double h = z * sqrt(p * (1 - p) / (double)n + z * z / (4.0 * (double)n * (double)n)) / d;

	*lo = 100 * fmax(0, c - h);
	*hi = 100 * fmin(1, c + h);
}

/* s without its leading and trailing spaces, in buf. */
static const char *
trim(const char *s, char *buf, size_t len)
{
	size_t n;

	while (*s == ' ')
		s++;
	n = strlen(s);
	while (n > 0 && s[n - 1] == ' ')
		n--;
	snprintf(buf, len, "%.*s", (int)n, s);
	return buf;
}

#define TRIM(s) trim((s), (char[256]){ 0 }, 256)

/* Every row's cells, a line each, after the title and the headings: a view as text. */
static char *
snapshot(const struct bt_view *v)
{
	struct bt_strbuf sb = BT_STRBUF_INIT;
	size_t i, k;

	bt_strbuf_addf(&sb, "%s\n", bt_view_title(v));
	for (k = 0; k < bt_view_columns(v)->ncells; k++)
		bt_strbuf_addstr(&sb, bt_view_columns(v)->cells[k].text);
	bt_strbuf_addch(&sb, '\n');
	for (i = 0; i < bt_view_nrows(v); i++) {
		for (k = 0; k < bt_view_row(v, i)->ncells; k++)
			bt_strbuf_addstr(&sb, bt_view_row(v, i)->cells[k].text);
		bt_strbuf_addch(&sb, '\n');
	}
	return bt_strbuf_detach(&sb, NULL);
}

static struct bt_session *
session_of(const char *path)
{
	struct bt_error err = { 0 };
	struct bt_profile *p = bt_profile_open(path, &err);
	struct bt_session *s;

	assert_non_null(p);
	s = bt_session_new(p, NULL, &err);
	assert_non_null(s);
	return s;
}

/* The selection of samples [from, to) (sample indexes) of s. */
static struct bt_selection *
window_of(struct bt_session *s, long from, long to)
{
	struct bt_error err = { 0 };
	struct bt_selection_opts o;
	struct bt_selection *sel;

	bt_selection_opts_init(&o);
	o.time_from = from > 0 ? EDGE(from) : 0;
	o.time_to = EDGE(to);
	sel = bt_selection_new(s, &o, &err);
	if (sel == NULL)
		fail_msg("window %ld-%ld: %s", from, to, err.msg);
	return sel;
}

static long
find(struct bt_selection *s, const char *name)
{
	long i = bt_selection_find(s, name);

	if (i < 0)
		fail_msg("no function '%s'", name);
	return i;
}

/* The row of v at address addr, which must be an instruction. */
static const struct bt_row *
insn_at(const struct bt_view *v, uint64_t addr)
{
	long i = bt_view_find_addr(v, addr);

	if (i < 0)
		fail_msg("no instruction at %llx", (unsigned long long)addr);
	assert_int_equal(bt_view_row(v, (size_t)i)->addr, addr);
	return bt_view_row(v, (size_t)i);
}

/* --- the header ------------------------------------------------------------ */

static void
test_header(void **state)
{
	struct bt_session *s = session_of(rec);
	struct bt_selection *all = bt_selection_new(s, NULL, NULL), *w, *pw;
	struct bt_selection_opts o;
	struct bt_view *h;
	const struct bt_view_summary *m;
	char want[128];
	double span = (TOTAL - 1) * TICK;
	size_t i;
	bool said = false;

	h = bt_view_header(all);
	m = bt_view_summary(h);
	assert_non_null(m);
	assert_int_equal(m->samples, TOTAL);
	assert_string_equal(m->event, "cpu-clock");
	assert_int_equal(m->frequency, 4000);
	assert_string_equal(m->command, "split");
	assert_false(m->windowed);
	assert_true(fabs(m->win_from) < 1e-9);
	assert_true(fabs(m->win_to - span) < 1e-9);
	assert_int_equal(m->nfindings, 0);	/* a healthy profile */
	assert_null(m->benchmark);
	assert_null(m->hot_path);		/* no call chains */
	/* its rows say the same */
	snprintf(want, sizeof(want), "samples: %d, lost: 0", TOTAL);
	for (i = 0; i < bt_view_nrows(h); i++) {
		assert_int_equal(bt_view_row(h, i)->kind, BT_ROW_TEXT);
		said |= strcmp(bt_view_row(h, i)->text, want) == 0;
		assert_null(strstr(bt_view_row(h, i)->text, "window"));
	}
	assert_true(said);
	assert_string_equal(bt_view_row(h, 1)->text, "event: cpu-clock, 4000 Hz");
	bt_view_free(h);

	/* a window: work_a's last 100 samples and work_b's first 100 */
	w = window_of(s, W_FROM, W_TO);
	h = bt_view_header(w);
	m = bt_view_summary(h);
	assert_int_equal(m->samples, 200);
	assert_true(m->windowed);
	assert_true(fabs(m->win_from - EDGE(W_FROM)) < 1e-9);
	assert_true(fabs(m->win_to - EDGE(W_TO)) < 1e-9);
	snprintf(want, sizeof(want), "duration: %.3f s, window %.3f-%.3f s",
	    TOTAL / 4000.0, EDGE(W_FROM), EDGE(W_TO));
	for (i = 0, said = false; i < bt_view_nrows(h); i++)
		said |= strcmp(bt_view_row(h, i)->text, want) == 0;
	if (!said)
		fail_msg("no header row '%s'", want);
	snprintf(want, sizeof(want), "samples: 200, lost: 0");
	for (i = 0, said = false; i < bt_view_nrows(h); i++)
		said |= strcmp(bt_view_row(h, i)->text, want) == 0;
	assert_true(said);
	bt_view_free(h);

	/* a window in percent of the run: [0, 40%) holds samples 0..806 */
	bt_selection_opts_init(&o);
	o.time_from = 0;
	o.time_to = 40;
	o.time_percent = true;
	pw = bt_selection_new(s, &o, NULL);
	assert_non_null(pw);
	h = bt_view_header(pw);
	m = bt_view_summary(h);
	assert_int_equal(m->samples, (uint64_t)floor(0.4 * span / TICK) + 1);
	assert_true(fabs(m->win_to - 0.4 * span) < 1e-9);
	/* the other views have no summary */
	{
		struct bt_view *f = bt_view_functions(pw, NULL, 0);
		assert_null(bt_view_summary(f));
		bt_view_free(f);
	}
	bt_view_free(h);
	bt_selection_free(pw);
	bt_selection_free(w);
	bt_selection_free(all);
	bt_session_free(s);
}

/*
 * A window that starts after the last sample holds no sample, and the
 * header says so without its start after its end (it said "window
 * 10.000-0.504 s": the end was clamped to the run, not the start).
 */
static void
test_window_past_end(void **state)
{
	struct bt_session *s = session_of(rec);
	struct bt_selection_opts o;
	struct bt_selection *x;
	struct bt_view *h;
	const struct bt_view_summary *m;

	bt_selection_opts_init(&o);
	o.time_from = 10;
	o.time_to = 20;
	x = bt_selection_new(s, &o, NULL);
	assert_non_null(x);
	assert_int_equal(bt_selection_samples(x), 0);
	assert_int_equal(bt_selection_nfuncs(x), 0);
	h = bt_view_header(x);
	m = bt_view_summary(h);
	assert_int_equal(m->samples, 0);
	assert_true(m->windowed);
	assert_true(m->win_from <= m->win_to);
	assert_true(m->win_to <= (TOTAL - 1) * TICK + 1e-9);
	bt_view_free(h);
	bt_selection_free(x);
	bt_session_free(s);
}

/* --- the hot-function table ----------------------------------------------- */

/* Each of v's rows is table[first + i]'s function, with the recording's numbers. */
static void
check_rows(struct bt_selection *sel, const struct bt_view *v, const size_t *which,
	   size_t n, uint64_t total)
{
	size_t i, k;

	assert_int_equal(bt_view_nrows(v), n);
	for (i = 0; i < n; i++) {
		const struct bt_row *r = bt_view_row(v, i);
		double pct = 100.0 * (double)table[which[i]].samples / (double)total, lo, hi;
		char want[32];

		assert_int_equal(r->kind, BT_ROW_FUNC);
		assert_string_equal(r->name, table[which[i]].name);
		assert_string_equal(r->text, table[which[i]].name);
		assert_int_equal(r->samples, table[which[i]].samples);
		assert_int_equal(r->period, table[which[i]].samples * 250000);
		assert_true(fabs(r->percent - pct) < 1e-9);
		assert_true(fabs(r->weight - pct) < 1e-9);
		/* the 95% interval: the oracle's, and it holds the percent */
		wilson(table[which[i]].samples, total, &lo, &hi);
		assert_true(fabs(r->ci_lo - lo) < 1e-4 && fabs(r->ci_hi - hi) < 1e-4);
		assert_true(r->ci_lo < r->percent && r->percent < r->ci_hi);
		/* the row is its function in the selection */
		assert_string_equal(bt_selection_func(sel, r->func)->name, r->name);
		assert_int_equal(bt_selection_func(sel, r->func)->start, r->addr);
		/* cells: the percent and the samples as printed, the name last */
		assert_int_equal(r->ncells, bt_view_columns(v)->ncells);
		snprintf(want, sizeof(want), "%.2f%%", pct);
		assert_string_equal(TRIM(r->cells[0].text), want);
		snprintf(want, sizeof(want), "%llu", (unsigned long long)table[which[i]].samples);
		assert_string_equal(TRIM(r->cells[1].text), want);
		assert_string_equal(r->cells[r->ncells - 1].text, table[which[i]].name);
		/* every cell as wide as its heading's column */
		for (k = 0; k + 1 < r->ncells; k++)
			assert_int_equal(strlen(r->cells[k].text),
			    strlen(bt_view_columns(v)->cells[k].text));
	}
}

static void
test_functions(void **state)
{
	struct bt_selection *s = test_open(rec);
	struct bt_view_opts o;
	struct bt_view *v;
	static const size_t every[] = { 0, 1, 2, 3, 4 }, mine[] = { 0, 1, 3 };
	static const char *const heads[] = { "Percent", "Samples", "", "Module", "Source",
		"Symbol" };
	const struct bt_row *r;
	size_t i;
	char want[64];

	assert_non_null(s);
	bt_view_opts_init(&o);
	v = bt_view_functions(s, &o, 0);
	check_rows(s, v, every, 5, TOTAL);
	assert_string_equal(bt_view_title(v), "hot functions");
	assert_int_equal(bt_view_columns(v)->ncells, 6);
	for (i = 0; i < 6; i++)
		assert_string_equal(TRIM(bt_view_columns(v)->cells[i].text), heads[i]);
	/* the hot order is the table's */
	{
		const size_t *hot;
		assert_int_equal(bt_view_hot(v, &hot), 5);
		for (i = 0; i < 5; i++)
			assert_int_equal(hot[i], i);
	}
	/* module and source columns: split.c's lines, none for the kernel */
	r = bt_view_row(v, 0);
	assert_string_equal(TRIM(r->cells[3].text), "split");
	assert_non_null(r->file);
	snprintf(want, sizeof(want), "split.c:%u", r->line);
	assert_string_equal(TRIM(r->cells[4].text), want);
	assert_string_equal(TRIM(bt_view_row(v, 2)->cells[3].text), "[kernel]");
	assert_string_equal(TRIM(bt_view_row(v, 2)->cells[4].text), "");
	assert_int_equal(bt_view_nnotes(v), 0);
	bt_view_free(v);

	/* max */
	v = bt_view_functions(s, &o, 2);
	check_rows(s, v, every, 2, TOTAL);
	bt_view_free(v);
	v = bt_view_functions(s, &o, 50);
	check_rows(s, v, every, 5, TOTAL);
	bt_view_free(v);

	/* the filter: a part of the name */
	o.filter = "work";
	v = bt_view_functions(s, &o, 0);
	check_rows(s, v, every, 2, TOTAL);	/* percents stay of all samples */
	bt_view_free(v);
	o.filter = "_b";
	v = bt_view_functions(s, &o, 0);
	check_rows(s, v, every + 1, 1, TOTAL);
	bt_view_free(v);
	o.filter = "nomatch";
	v = bt_view_functions(s, &o, 0);
	assert_int_equal(bt_view_nrows(v), 0);
	assert_int_equal(bt_view_nnotes(v), 1);
	assert_string_equal(bt_view_note(v, 0), "no function matches 'nomatch'");
	bt_view_free(v);
	o.filter = "";	/* empty: every function */
	v = bt_view_functions(s, &o, 0);
	check_rows(s, v, every, 5, TOTAL);
	bt_view_free(v);

	/* the module: split's own functions (no kernel, no unknown) */
	o.filter = NULL;
	o.module = bin;
	v = bt_view_functions(s, &o, 0);
	check_rows(s, v, mine, 3, TOTAL);
	for (i = 0; i < 3; i++)
		assert_string_equal(bt_view_row(v, i)->module, bin);
	bt_view_free(v);
	o.filter = "main";
	v = bt_view_functions(s, &o, 0);
	check_rows(s, v, mine + 2, 1, TOTAL);
	bt_view_free(v);
	o.filter = "nomatch";
	v = bt_view_functions(s, &o, 0);
	assert_int_equal(bt_view_nrows(v), 0);
	assert_string_equal(bt_view_note(v, 0), "no function matches 'nomatch' in this module");
	bt_view_free(v);
	o.filter = NULL;
	o.module = "/no/such/module";
	v = bt_view_functions(s, &o, 0);
	assert_int_equal(bt_view_nrows(v), 0);
	assert_string_equal(bt_view_note(v, 0), "no function in this module");
	bt_view_free(v);

	/* compact: no source column */
	bt_view_opts_init(&o);
	o.compact = true;
	v = bt_view_functions(s, &o, 0);
	check_rows(s, v, every, 5, TOTAL);
	assert_int_equal(bt_view_columns(v)->ncells, 5);
	assert_string_equal(TRIM(bt_view_columns(v)->cells[3].text), "Module");
	assert_string_equal(TRIM(bt_view_columns(v)->cells[4].text), "Symbol");
	assert_null(bt_view_row(v, 0)->file);
	bt_view_free(v);
	/* without sources: no source column either */
	o.compact = false;
	o.source = false;
	v = bt_view_functions(s, &o, 0);
	assert_int_equal(bt_view_columns(v)->ncells, 5);
	assert_null(bt_view_row(v, 0)->file);
	bt_view_free(v);

	/* by period: the first column is each function's period, and sorts */
	bt_view_opts_init(&o);
	o.num = BT_NUM_PERIOD;
	v = bt_view_functions(s, &o, 0);
	assert_string_equal(TRIM(bt_view_columns(v)->cells[0].text), "Period");
	for (i = 0; i < 5; i++) {
		r = bt_view_row(v, i);
		snprintf(want, sizeof(want), "%llu",
		    (unsigned long long)table[i].samples * 250000);
		assert_string_equal(TRIM(r->cells[0].text), want);
		assert_true(r->weight == (double)table[i].samples * 250000);
	}
	bt_view_free(v);

	/* children without call chains: the order by self samples, as it was */
	bt_view_opts_init(&o);
	o.children = true;
	v = bt_view_functions(s, &o, 0);
	check_rows(s, v, every, 5, TOTAL);
	assert_string_equal(bt_view_title(v), "hot functions");
	assert_null(bt_view_row(v, 0)->calls);
	bt_view_free(v);
	test_close(s);
}

/* Compact: a long module name is cut to 16 columns, its end an ellipsis. */
static void
test_compact_module(void **state)
{
	char path[PATH_MAX + 64], cmd[2 * PATH_MAX + 128], data[PATH_MAX + 16], msg[256];
	char *specs[] = { (char *)"work_a+0x24=90", (char *)"work_b+0x24=10" };
	struct bt_selection *s;
	struct bt_view_opts o;
	struct bt_view *v;

	snprintf(path, sizeof(path), "%s/a-module-with-a-long-name", dir);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", bin, path);
	assert_int_equal(system(cmd), 0);
	snprintf(data, sizeof(data), "%s/long.data", dir);
	assert_int_equal(synth_recording(data, path, specs, 2, msg, sizeof(msg)), 0);
	s = test_open(data);
	assert_non_null(s);
	bt_view_opts_init(&o);
	v = bt_view_functions(s, &o, 0);
	assert_string_equal(TRIM(bt_view_row(v, 0)->cells[3].text), "a-module-with-a-long-name");
	bt_view_free(v);
	o.compact = true;
	v = bt_view_functions(s, &o, 0);
	/* 15 characters and "…" */
	assert_string_equal(TRIM(bt_view_row(v, 0)->cells[3].text),
	    "a-module-with-a\xe2\x80\xa6");
	assert_string_equal(bt_view_row(v, 0)->module, path);	/* the data: whole */
	assert_string_equal(bt_view_row(v, 1)->name, "work_b");
	bt_view_free(v);
	test_close(s);
}

static size_t
utf8_cols(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* The header's hot path in a width: its line fits, the summary's stays whole. */
static void
test_hot_path_fit(void **state)
{
	struct bt_selection *s = test_open(chains);
	struct bt_view_opts o;
	struct bt_view *whole, *h;
	const char *line = NULL;
	size_t i, w;

	(void)state;
	assert_non_null(s);
	whole = bt_view_header(s);
	assert_non_null(bt_view_summary(whole)->hot_path);
	assert_true(strlen(bt_view_summary(whole)->hot_path) > 40);
	bt_view_opts_init(&o);
	for (w = 30; w <= 200; w += 10) {
		o.text_width = w;
		h = bt_view_header_opts(s, &o);
		assert_string_equal(bt_view_summary(h)->hot_path,
		    bt_view_summary(whole)->hot_path);
		for (i = 0, line = NULL; i < bt_view_nrows(h); i++)
			if (strncmp(bt_view_row(h, i)->text, "hot path: ", 10) == 0)
				line = bt_view_row(h, i)->text;
		assert_non_null(line);
		/* "# " before it in the text report */
		assert_true(utf8_cols(line) + 2 <= w);
		if (w == 30)	/* the first function stays first */
			assert_int_equal(strncmp(line, "hot path: work_", 15), 0);
		bt_view_free(h);
	}
	o.text_width = 30;	/* whole names: whole */
	o.whole_names = true;
	h = bt_view_header_opts(s, &o);
	for (i = 0; i < bt_view_nrows(h); i++)
		if (strncmp(bt_view_row(h, i)->text, "hot path: ", 10) == 0)
			assert_string_equal(bt_view_row(h, i)->text + 10,
			    bt_view_summary(whole)->hot_path);
	bt_view_free(h);
	bt_view_free(whole);
	test_close(s);
}

/* The chains recording's table, by self samples and by inclusive samples. */
static void
test_children(void **state)
{
	static const char *const self[] = { "work_a", "work_b", "mix.constprop.0", "main" };
	static const char *const incl[] = { "main", "work_a", "work_b", "mix.constprop.0" };
	static const uint64_t self_n[] = { C_A, C_B, C_MIX, C_MAIN };
	static const uint64_t incl_n[] = { C_TOTAL, C_A, C_B, C_MIX };
	struct bt_selection *s = test_open(chains);
	struct bt_view_opts o;
	struct bt_view *v;
	size_t i;
	char want[32];

	assert_non_null(s);
	assert_true(bt_session_has_chains(bt_selection_session(s)));
	assert_int_equal(bt_selection_samples(s), C_TOTAL);
	bt_view_opts_init(&o);
	v = bt_view_functions(s, &o, 0);
	assert_int_equal(bt_view_nrows(v), 4);
	assert_int_equal(bt_view_columns(v)->ncells, 7);
	assert_string_equal(TRIM(bt_view_columns(v)->cells[2].text), "Children");
	for (i = 0; i < 4; i++) {
		const struct bt_row *r = bt_view_row(v, i);
		assert_string_equal(r->name, self[i]);
		assert_int_equal(r->samples, self_n[i]);
		assert_non_null(r->calls);
		snprintf(want, sizeof(want), "%.2f%%", 100.0 * (double)(i == 3 ? C_TOTAL :
		    self_n[i]) / C_TOTAL);
		assert_string_equal(TRIM(r->cells[2].text), want);
	}
	/* work_a: called by main, all of it */
	assert_int_equal(bt_view_row(v, 0)->calls->inclusive, C_A);
	assert_int_equal(bt_view_row(v, 0)->calls->ncallers, 1);
	assert_string_equal(bt_view_row(v, 0)->calls->callers[0].name, "main");
	assert_int_equal(bt_view_row(v, 0)->calls->callers[0].samples, C_A);
	assert_true(fabs(bt_view_row(v, 0)->calls->callers[0].percent - 100) < 1e-9);
	/* main: three callees, hottest first */
	assert_int_equal(bt_view_row(v, 3)->calls->ncallees, 3);
	assert_string_equal(bt_view_row(v, 3)->calls->callees[0].name, "work_a");
	assert_int_equal(bt_view_row(v, 3)->calls->callees[0].samples, C_A);
	assert_string_equal(bt_view_row(v, 3)->calls->callees[2].name, "mix.constprop.0");
	bt_view_free(v);

	/* by children: main first, the weight is the inclusive percent */
	o.children = true;
	v = bt_view_functions(s, &o, 0);
	assert_string_equal(bt_view_title(v), "hot functions (by children)");
	assert_int_equal(bt_view_nrows(v), 4);
	for (i = 0; i < 4; i++) {
		const struct bt_row *r = bt_view_row(v, i);
		assert_string_equal(r->name, incl[i]);
		assert_int_equal(r->calls->inclusive, incl_n[i]);
		assert_true(fabs(r->weight - 100.0 * (double)incl_n[i] / C_TOTAL) < 1e-9);
	}
	assert_int_equal(bt_view_row(v, 0)->samples, C_MAIN);
	bt_view_free(v);
	/* with max: the first by children, not the first by self */
	v = bt_view_functions(s, &o, 1);
	assert_int_equal(bt_view_nrows(v), 1);
	assert_string_equal(bt_view_row(v, 0)->name, "main");
	bt_view_free(v);

	/* compact with chains: Children in place of Samples */
	o.children = false;
	o.compact = true;
	v = bt_view_functions(s, &o, 0);
	assert_int_equal(bt_view_columns(v)->ncells, 5);
	assert_string_equal(TRIM(bt_view_columns(v)->cells[1].text), "Children");
	snprintf(want, sizeof(want), "%.2f%%", 100.0 * C_TOTAL / C_TOTAL);
	assert_string_equal(TRIM(bt_view_row(v, 3)->cells[1].text), want);
	bt_view_free(v);

	/* the callers view of work_a: main, then work_a itself; its entry stack */
	{
		uint64_t addr = bt_selection_func(s, (size_t)find(s, "work_a"))->start + 0x24;
		size_t nstack = 0;
		v = bt_view_callers(s, (size_t)find(s, "work_a"), &addr, NULL);
		for (i = 0; i < bt_view_nrows(v); i++) {
			const struct bt_row *r = bt_view_row(v, i);
			if (r->label != NULL && strcmp(r->label, "stack") == 0) {
				assert_string_equal(r->text, "main");
				assert_int_equal(r->samples, C_A);
				nstack++;
			}
			if (r->label != NULL && strcmp(r->label, "caller") == 0) {
				assert_string_equal(r->name, "main");
				assert_int_equal(r->samples, C_A);
			}
		}
		assert_int_equal(nstack, 1);
		bt_view_free(v);
	}
	test_close(s);
}

/* --- the annotated function ----------------------------------------------- */

struct oinsn {
	uint64_t addr;
	char text[160];
};

/*
 * objdump -d's instructions in [start, end) of bin: address and text, the
 * " <sym+0xoff>" of a target and the "# addr <sym>" comment taken off (a
 * view has those in their own cells).
 */
static size_t
objdump(uint64_t start, uint64_t end, bool intel, struct oinsn *out, size_t max)
{
	char cmd[PATH_MAX + 200], line[512];
	FILE *p;
	size_t n = 0;

	snprintf(cmd, sizeof(cmd), "objdump -d --no-show-raw-insn %s --start-address=0x%llx "
	    "--stop-address=0x%llx '%s'", intel ? "-M intel" : "", (unsigned long long)start,
	    (unsigned long long)end, bin);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p) != NULL && n < max) {
		char *e, *t, *cut;
		unsigned long long a = strtoull(line, &e, 16);
		size_t len;

		if (e == line || e[0] != ':' || e[1] != '\t')
			continue;	/* "0000000000001220 <work_a>:" and the like */
		t = e + 2;
		t[strcspn(t, "\n")] = '\0';
		len = strlen(t);
		if (len && t[len - 1] == '>' && (cut = strrchr(t, '<')) != NULL && cut > t)
			cut[-1] = '\0';
		if ((cut = strstr(t, "  # ")) != NULL)
			*cut = '\0';
		for (len = strlen(t); len > 0 && t[len - 1] == ' '; len--)
			t[len - 1] = '\0';
		out[n].addr = a;
		snprintf(out[n].text, sizeof(out[n].text), "%s", t);
		n++;
	}
	assert_int_equal(pclose(p), 0);
	return n;
}

/* The INSN rows of v, in order, are objdump's instructions of function fi. */
static void
check_objdump(struct bt_selection *s, size_t fi, const struct bt_view *v, bool intel)
{
	const struct bt_func *f = bt_selection_func(s, fi);
	struct oinsn od[256];
	size_t n = objdump(f->start, f->end, intel, od, 256), i, k = 0;
	uint64_t next = f->start;

	if (n == 0)
		fail_msg("objdump -d shows no instruction of %s", f->name);
	for (i = 0; i < bt_view_nrows(v); i++) {
		const struct bt_row *r = bt_view_row(v, i);
		if (r->kind != BT_ROW_INSN)
			continue;
		if (k >= n)
			fail_msg("%s: more instruction rows than objdump's %zu", f->name, n);
		assert_int_equal(r->addr, od[k].addr);
		if (strcmp(r->text, od[k].text) != 0)
			fail_msg("%s at %llx: '%s', objdump '%s'", f->name,
			    (unsigned long long)r->addr, r->text, od[k].text);
		/* one after the other, each as long as it is */
		assert_int_equal(r->addr, next);
		assert_int_equal(r->insn, k);
		next = r->addr + r->size;
		k++;
	}
	assert_int_equal(k, n);
	assert_int_equal(next, f->end);	/* the symbol's size, exactly */
}

static void
test_annotate_objdump(void **state)
{
	struct bt_selection *s = test_open(rec);
	static const char *const names[] = { "work_a", "work_b", "main" };
	struct bt_view_opts o;
	size_t i, syn;

	assert_non_null(s);
	bt_view_opts_init(&o);
	for (syn = 0; syn < 2; syn++)
		for (i = 0; i < BT_ARRAY_SIZE(names); i++) {
			size_t fi = (size_t)find(s, names[i]);
			struct bt_view *v, *att;
			size_t k, n = 0, m = 0;

			o.syntax = syn ? BT_ASM_INTEL : BT_ASM_ATT;
			v = bt_view_annotate(s, fi, &o, NULL);
			assert_non_null(v);
			check_objdump(s, fi, v, syn == 1);
			/* Intel and AT&T: the same instructions, another text */
			o.syntax = BT_ASM_ATT;
			att = bt_view_annotate(s, fi, &o, NULL);
			for (k = 0; k < bt_view_nrows(v); k++)
				n += bt_view_row(v, k)->kind == BT_ROW_INSN;
			for (k = 0; k < bt_view_nrows(att); k++)
				m += bt_view_row(att, k)->kind == BT_ROW_INSN;
			assert_int_equal(n, m);
			if (syn)
				assert_string_not_equal(insn_at(v, bt_selection_func(s, fi)->start)->text,
				    insn_at(att, bt_selection_func(s, fi)->start)->text);
			bt_view_free(att);
			bt_view_free(v);
		}
	test_close(s);
}

static void
test_annotate_numbers(void **state)
{
	struct bt_selection *s = test_open(rec);
	struct bt_view_opts o;
	struct bt_view *v;
	const struct bt_view_region *rg;
	const struct bt_view_func *vf;
	const size_t *hot;
	size_t i, fi;
	uint64_t start, sum = 0;
	double local = 0, global = 0;
	char want[128];

	assert_non_null(s);
	fi = (size_t)find(s, "work_a");
	start = bt_selection_func(s, fi)->start;
	bt_view_opts_init(&o);
	v = bt_view_annotate(s, fi, &o, NULL);
	assert_non_null(v);
	/* the samples where the recording put them, nowhere else */
	assert_int_equal(insn_at(v, start + 0x24)->samples, N_A24);
	assert_int_equal(insn_at(v, start + 0x2b)->samples, N_A2B);
	assert_int_equal(insn_at(v, start + 0x20)->samples, N_A20);
	for (i = 0; i < bt_view_nrows(v); i++) {
		const struct bt_row *r = bt_view_row(v, i);
		double lo, hi;

		assert_int_equal(r->func, fi);
		if (r->kind != BT_ROW_INSN)
			continue;
		sum += r->samples;
		local += r->percent;
		assert_true(fabs(r->percent - 100.0 * (double)r->samples / N_A) < 1e-9);
		wilson(r->samples, N_A, &lo, &hi);
		assert_true(fabs(r->ci_lo - lo) < 1e-4 && fabs(r->ci_hi - hi) < 1e-4);
		assert_true(r->ci_lo <= r->percent && r->percent <= r->ci_hi);
		if (r->samples) {
			snprintf(want, sizeof(want), "%.2f", 100.0 * (double)r->samples / N_A);
			assert_string_equal(TRIM(r->cells[0].text), want);
			snprintf(want, sizeof(want), "%llu", (unsigned long long)r->samples);
			assert_string_equal(TRIM(r->cells[2].text), want);
		}
		/* absolute addresses */
		snprintf(want, sizeof(want), "%llx:", (unsigned long long)r->addr);
		assert_string_equal(TRIM(r->cells[5].text), want);
	}
	assert_int_equal(sum, N_A);
	assert_true(fabs(local - 100) < 1e-9);
	assert_string_equal(TRIM(bt_view_columns(v)->cells[5].text), "Address");
	/* the hot order: the instructions by samples, and nothing else */
	assert_int_equal(bt_view_hot(v, &hot), 3);
	assert_int_equal(bt_view_row(v, hot[0])->addr, start + 0x24);
	assert_int_equal(bt_view_row(v, hot[1])->addr, start + 0x2b);
	assert_int_equal(bt_view_row(v, hot[2])->addr, start + 0x20);
	/* one region: the loop, with every sample */
	assert_int_equal(bt_view_regions(v, &rg), 1);
	assert_int_equal(rg[0].start, start + 0x20);
	assert_int_equal(rg[0].end, start + 0x30);
	assert_int_equal(rg[0].samples, N_A);
	assert_true(fabs(rg[0].percent - 100) < 1e-9);
	assert_true(rg[0].closes_loop);
	for (i = 0; i < bt_view_nrows(v); i++) {
		const struct bt_row *r = bt_view_row(v, i);
		bool in = r->addr >= rg[0].start && r->addr < rg[0].end;
		if (r->kind != BT_ROW_INSN)
			continue;
		assert_int_equal(r->region, in ? 0 : -1);
		assert_int_equal(!!(r->flags & BT_ROW_F_REGION_START), r->addr == rg[0].start);
	}
	/* the function it shows, and its title */
	vf = bt_view_func(v);
	assert_non_null(vf);
	assert_string_equal(vf->name, "work_a");
	assert_int_equal(vf->address, start);
	assert_int_equal(vf->samples, N_A);
	snprintf(want, sizeof(want), "work_a  split  %.2f%% of %d samples",
	    100.0 * N_A / TOTAL, TOTAL);
	assert_string_equal(bt_view_title(v), want);
	bt_view_free(v);

	/* global percents: of all samples, summing to the function's share */
	o.global_percent = true;
	v = bt_view_annotate(s, fi, &o, NULL);
	for (i = 0; i < bt_view_nrows(v); i++) {
		const struct bt_row *r = bt_view_row(v, i);
		if (r->kind != BT_ROW_INSN)
			continue;
		global += r->percent;
		assert_true(fabs(r->percent - 100.0 * (double)r->samples / TOTAL) < 1e-9);
	}
	assert_true(fabs(global - 100.0 * N_A / TOTAL) < 1e-9);
	assert_int_equal(bt_view_regions(v, &rg), 1);
	assert_true(fabs(rg[0].percent - 100.0 * N_A / TOTAL) < 1e-9);
	bt_view_free(v);

	/* offsets instead of addresses */
	bt_view_opts_init(&o);
	o.addresses = false;
	v = bt_view_annotate(s, fi, &o, NULL);
	assert_string_equal(TRIM(bt_view_columns(v)->cells[5].text), "Offset");
	for (i = 0; i < bt_view_nrows(v); i++) {
		const struct bt_row *r = bt_view_row(v, i);
		if (r->kind != BT_ROW_INSN)
			continue;
		snprintf(want, sizeof(want), "%llx:", (unsigned long long)(r->addr - start));
		assert_string_equal(TRIM(r->cells[5].text), want);
	}
	bt_view_free(v);

	/*
	 * no source: instructions only; compact: five columns and the
	 * branch arrows' lanes (after the first number), then the text
	 */
	o.source = false;
	o.compact = true;
	v = bt_view_annotate(s, fi, &o, NULL);
	assert_int_equal(bt_view_columns(v)->ncells, 6);
	assert_int_equal(bt_view_arrow_col(v), strlen(bt_view_columns(v)->cells[0].text) + 1);
	for (i = 0; i < bt_view_nrows(v); i++) {
		const struct bt_row *r = bt_view_row(v, i);
		assert_int_equal(r->kind, BT_ROW_INSN);
		assert_true(r->ncells >= 6);
		assert_int_equal(r->cells[1].style, BT_STYLE_ARROW);
		snprintf(want, sizeof(want), "  %s", r->text);
		assert_string_equal(r->cells[5].text, want);
	}
	assert_int_equal(bt_view_row(v, 0)->addr, start);
	bt_view_free(v);

	/* source rows interleaved: the line of the instruction after each */
	bt_view_opts_init(&o);
	v = bt_view_annotate(s, fi, &o, NULL);
	{
		size_t nsrc = 0;
		for (i = 0; i + 1 < bt_view_nrows(v); i++) {
			const struct bt_row *r = bt_view_row(v, i);
			if (r->kind != BT_ROW_SOURCE)
				continue;
			nsrc++;
			assert_int_equal(bt_view_row(v, i + 1)->kind, BT_ROW_INSN);
			assert_int_equal(bt_view_row(v, i + 1)->line, r->line);
		}
		assert_true(nsrc > 0);
	}
	bt_view_free(v);

	/* the kernel has no code to annotate: NULL, and why */
	{
		struct bt_error err = { 0 };
		v = bt_view_annotate(s, (size_t)find(s, "[kernel]"), &o, &err);
		assert_null(v);
		assert_int_not_equal(err.code, 0);
		assert_true(err.msg[0] != '\0');
	}
	test_close(s);
}

/* --- source and files ----------------------------------------------------- */

static void
test_source(void **state)
{
	struct bt_selection *s = test_open(rec);
	struct bt_strbuf file = BT_STRBUF_INIT;
	struct bt_view_opts o;
	struct bt_view *v, *a;
	uint64_t *by_line, sum = 0;
	size_t fi, i, nlines = 0;
	const char *p, *line;
	struct bt_error err = { 0 };

	assert_non_null(s);
	fi = (size_t)find(s, "work_a");
	assert_true(bt_strbuf_read_file(&file, "tests/fixtures/split.c", 0) >= 0);
	for (p = file.buf; *p; p++)
		nlines += *p == '\n';
	/* the annotation's instructions by line: what the source view must sum */
	bt_view_opts_init(&o);
	o.source = false;
	a = bt_view_annotate(s, fi, &o, NULL);
	by_line = calloc(nlines + 1, sizeof(*by_line));
	for (i = 0; i < bt_view_nrows(a); i++) {
		const struct bt_row *r = bt_view_row(a, i);
		assert_true(r->line >= 1 && r->line <= nlines);
		by_line[r->line] += r->samples;
	}
	bt_view_free(a);
	/* the lines of the recording's instructions (tests/fixtures/split.c) */
	assert_int_equal(by_line[18], N_A24 + N_A2B);
	assert_int_equal(by_line[19], N_A20);

	bt_view_opts_init(&o);
	v = bt_view_source(s, fi, NULL, &o, &err);
	assert_non_null(v);
	assert_int_equal(bt_view_nrows(v), nlines);
	for (i = 0, line = file.buf; i < bt_view_nrows(v); i++) {
		const struct bt_row *r = bt_view_row(v, i);
		size_t len = strcspn(line, "\n");
		char want[32];

		assert_int_equal(r->kind, BT_ROW_LINE);
		assert_int_equal(r->line, i + 1);
		assert_true(strlen(r->text) == len && strncmp(r->text, line, len) == 0);
		assert_int_equal(r->samples, by_line[i + 1]);
		assert_true(fabs(r->percent - 100.0 * (double)r->samples / N_A) < 1e-9);
		assert_non_null(strstr(r->file, "tests/fixtures/split.c"));
		snprintf(want, sizeof(want), "%zu", i + 1);
		assert_string_equal(TRIM(r->cells[2].text), want);
		sum += r->samples;
		line += len + 1;
	}
	assert_int_equal(sum, N_A);
	assert_int_equal(bt_view_find_line(v, 18), 17);
	assert_non_null(strstr(bt_view_row(v, 17)->text, "for (long i = 0; i < 3 * n; i++)"));
	{
		const size_t *hot;
		assert_int_equal(bt_view_hot(v, &hot), 2);
		assert_int_equal(bt_view_row(v, hot[0])->line, 18);
		assert_int_equal(bt_view_row(v, hot[1])->line, 19);
	}
	assert_non_null(strstr(bt_view_title(v), "(source of work_a)"));
	bt_view_free(v);

	/* files: split.c only, with every sample */
	v = bt_view_files(s, fi, &o, &err);
	assert_non_null(v);
	assert_int_equal(bt_view_nrows(v), 1);
	assert_int_equal(bt_view_row(v, 0)->kind, BT_ROW_FILE);
	assert_non_null(strstr(bt_view_row(v, 0)->file, "tests/fixtures/split.c"));
	assert_int_equal(bt_view_row(v, 0)->samples, N_A);
	assert_true(fabs(bt_view_row(v, 0)->percent - 100) < 1e-9);
	assert_string_equal(bt_view_title(v), "files of work_a: 1");
	bt_view_free(v);

	/* no code, no source */
	v = bt_view_source(s, (size_t)find(s, "[kernel]"), NULL, &o, &err);
	assert_null(v);
	v = bt_view_files(s, (size_t)find(s, "[kernel]"), &o, &err);
	assert_null(v);
	free(by_line);
	bt_strbuf_release(&file);
	test_close(s);
}

/* --- the timeline --------------------------------------------------------- */

/*
 * The timeline of s in nbins slices, of function fi (-1 none): its
 * slices hold every sample, mine of them fi's; the first slice is
 * first_pct% fi's.
 */
static void
check_timeline(struct bt_selection *s, long fi, size_t nbins, uint64_t want_mine,
	       double first_pct)
{
	struct bt_view *v = bt_view_timeline(s, fi, nbins, -1, -1);
	uint64_t all = 0, mine = 0;
	double span = (TOTAL - 1) * TICK;
	size_t i;

	assert_int_equal(bt_view_nrows(v), nbins);
	for (i = 0; i < nbins; i++) {
		const struct bt_row *r = bt_view_row(v, i);
		assert_int_equal(r->kind, BT_ROW_SLICE);
		assert_true(fabs(r->t_from - span * (double)i / (double)nbins) < 1e-9);
		assert_true(fabs(r->t_to - span * (double)(i + 1) / (double)nbins) < 1e-9);
		assert_true(r->sub_samples <= r->samples);
		all += r->samples;
		mine += r->sub_samples;
	}
	/* every sample of the event, whatever the window */
	assert_int_equal(all, TOTAL);
	assert_int_equal(mine, want_mine);
	if (fi >= 0) {
		assert_true(fabs(bt_view_row(v, 0)->percent - first_pct) < 1e-9);
		assert_int_equal(bt_view_func(v)->index, (size_t)fi);
	} else
		assert_null(bt_view_func(v));
	bt_view_free(v);
}

static void
test_timeline(void **state)
{
	struct bt_selection *s = test_open(rec), *w;

	assert_non_null(s);
	/* no function: the bar is the slice's samples, "mine" none */
	check_timeline(s, -1, 20, 0, 0);
	check_timeline(s, -1, 1, 0, 0);
	/* work_a's samples come first in time, work_b's after */
	check_timeline(s, find(s, "work_a"), 20, N_A, 100);
	check_timeline(s, find(s, "work_b"), 7, N_B, 0);
	/* a window's timeline is still the whole run's */
	w = window_of(bt_selection_session(s), W_FROM, W_TO);
	check_timeline(w, -1, 20, 0, 0);
	check_timeline(w, find(w, "work_b"), 20, N_B, 0);
	bt_selection_free(w);
	test_close(s);
}

/* --- a view outlives its selection ---------------------------------------- */

static size_t touched;

/* Read every byte of s (ASan: a freed string is caught here). */
static void
touch(const char *s)
{
	if (s != NULL)
		touched += strlen(s);
}

static void
touch_view(const struct bt_view *v)
{
	const struct bt_view_region *rg;
	const struct bt_view_summary *m = bt_view_summary(v);
	const struct bt_view_func *f = bt_view_func(v);
	const size_t *hot;
	size_t i, k, nr = bt_view_regions(v, &rg), nh = bt_view_hot(v, &hot), sum = 0;

	touch(bt_view_title(v));
	for (i = 0; i < bt_view_columns(v)->ncells; i++)
		touch(bt_view_columns(v)->cells[i].text);
	for (i = 0; i < bt_view_nnotes(v); i++)
		touch(bt_view_note(v, i));
	for (i = 0; i < nr; i++)
		sum += rg[i].start + rg[i].samples;
	for (i = 0; i < nh; i++)
		assert_true(hot[i] < bt_view_nrows(v));
	if (f != NULL) {
		touch(f->name);
		touch(f->short_name);
		touch(f->module);
		touch(f->module_name);
	}
	if (m != NULL) {
		touch(m->command);
		touch(m->event);
		touch(m->event_note);
		touch(m->status);
		touch(m->benchmark);
		touch(m->bench_time);
		touch(m->hot_path);
		for (i = 0; i < m->argc; i++)
			touch(m->argv[i]);
		for (i = 0; i < m->nnotes; i++)
			touch(m->notes[i]);
	}
	for (i = 0; i < bt_view_nrows(v); i++) {
		const struct bt_row *r = bt_view_row(v, i);

		touch(r->name);
		touch(r->module);
		touch(r->label);
		touch(r->short_name);
		touch(r->detail);
		touch(r->file);
		touch(r->text);
		touch(r->target_name);
		touch(r->mem_name);
		for (k = 0; k < r->ncells; k++)
			touch(r->cells[k].text);
		if (r->calls != NULL) {
			for (k = 0; k < r->calls->ncallers; k++) {
				touch(r->calls->callers[k].name);
				touch(r->calls->callers[k].module);
			}
			for (k = 0; k < r->calls->ncallees; k++) {
				touch(r->calls->callees[k].name);
				touch(r->calls->callees[k].module);
			}
		}
		sum += r->samples;
	}
	touched += sum != 0;
}

/*
 * Views of every kind from a selection of their own (samples [from, to)
 * of the recording at path), about function fname, read after the
 * selection is gone.
 */
static void
outlive(const char *path, const char *fname, long from, long to, size_t nfindings)
{
	struct bt_session *s = session_of(path);
	struct bt_selection *sel = window_of(s, from, to);
	struct bt_view *v[12];
	struct bt_view_opts o;
	const struct bt_finding *f;
	size_t n = 0, i, fi = (size_t)find(sel, fname);
	uint64_t addr = bt_selection_func(sel, fi)->start + 0x24;

	bt_view_opts_init(&o);
	o.locate = true;
	v[n++] = bt_view_header(sel);
	v[n++] = bt_view_functions(sel, &o, 0);
	v[n++] = bt_view_annotate(sel, fi, &o, NULL);
	o.syntax = BT_ASM_INTEL;
	o.addresses = false;
	o.global_percent = true;
	v[n++] = bt_view_annotate(sel, (size_t)find(sel, "main"), &o, NULL);
	v[n++] = bt_view_source(sel, fi, NULL, &o, NULL);
	v[n++] = bt_view_files(sel, fi, &o, NULL);
	v[n++] = bt_view_findings(sel, NULL);
	v[n++] = bt_view_timeline(sel, (long)fi, 10, 2, 4);
	v[n++] = bt_view_callers(sel, fi, &addr, &o);
	for (i = 0; i < n; i++)
		assert_non_null(v[i]);
	/* the findings are the selection's own: the view must have copied them */
	assert_int_equal(bt_selection_findings(sel, &f), nfindings);
	assert_int_equal(bt_view_nrows(v[6]), nfindings);
	/* the last reference: the selection, its tables, annotations and findings go */
	bt_selection_free(sel);
	touched = 0;
	for (i = 0; i < n; i++)
		touch_view(v[i]);
	assert_true(touched > 0);
	assert_non_null(strstr(bt_view_title(v[2]), fname));
	for (i = 0; i < n; i++)
		bt_view_free(v[i]);
	bt_session_free(s);
}

static void
test_outlives_selection(void **state)
{
	/*
	 * work_b's last 5 samples, main's, the kernel's: 19, 8 of them the
	 * kernel's: two findings (few-samples, kernel-dominated)
	 */
	outlive(rec, "work_b", N_A + N_B - 5, TOTAL - N_UNKNOWN, 2);
	/*
	 * call chains: the table's callers and callees, the entry stacks; work_a's
	 * 600 of 860 samples are 69.8% +-3.1: few-samples
	 */
	outlive(chains, "work_a", 0, C_TOTAL, 1);
}

/* --- an export's annotation, its rows made a window at a time -------------- */

/* Row a and row b alike: every field an export or a screen reads. */
static void
same_row(const struct bt_row *a, const struct bt_row *b)
{
	size_t k;

	assert_int_equal(a->kind, b->kind);
	assert_int_equal(a->flags, b->flags);
	assert_int_equal(a->func, b->func);
	assert_int_equal(a->insn, b->insn);
	assert_int_equal(a->addr, b->addr);
	assert_int_equal(a->size, b->size);
	assert_int_equal(a->samples, b->samples);
	assert_int_equal(a->period, b->period);
	assert_true(a->percent == b->percent && a->weight == b->weight);
	assert_true(a->adjusted_percent == b->adjusted_percent);
	assert_true(a->ci_lo == b->ci_lo && a->ci_hi == b->ci_hi);
	assert_int_equal(a->target_row, b->target_row);
	assert_int_equal(a->region, b->region);
	assert_int_equal(a->loop_depth, b->loop_depth);
	assert_int_equal(a->line, b->line);
	assert_int_equal(a->ninlines, b->ninlines);
	assert_int_equal(a->has_target, b->has_target);
	if (a->has_target)
		assert_int_equal(a->target, b->target);
	assert_true((a->file == NULL) == (b->file == NULL));
	if (a->file != NULL)
		assert_string_equal(a->file, b->file);
	assert_true((a->text == NULL) == (b->text == NULL));
	if (a->text != NULL)
		assert_string_equal(a->text, b->text);
	assert_true((a->detail == NULL) == (b->detail == NULL));
	if (a->detail != NULL)
		assert_string_equal(a->detail, b->detail);
	assert_int_equal(a->ncells, b->ncells);
	for (k = 0; k < a->ncells; k++) {
		assert_string_equal(a->cells[k].text, b->cells[k].text);
		assert_int_equal(a->cells[k].style, b->cells[k].style);
	}
}

/*
 * bt_view_annotate_stream's view of function fi is bt_view_annotate's
 * (window 0), and so is one made window instructions at a time with
 * nslots windows kept (bt_view_annotate_lazy's, in small windows): the
 * rows (read in order, then backward: each a window made again), the
 * headings, title, notes, regions, hot order, arrows and lanes, the row
 * of each address; a row still valid after rows of nslots - 1 other
 * windows.
 */
static void
same_stream(struct bt_selection *s, size_t fi, const struct bt_view_opts *o,
	    size_t window, size_t nslots)
{
	struct bt_view *w = bt_view_annotate(s, fi, o, NULL);
	struct bt_view *v = window == 0 ? bt_view_annotate_stream(s, fi, o, NULL) :
	    view_annotate_windows(s, fi, o, window, nslots, NULL);
	const struct bt_view_region *rw, *rv;
	const struct bt_arrow *aw, *av;
	const size_t *hw, *hv;
	size_t i, n, nw, nv;
	char *x, *y;

	assert_non_null(w);
	assert_non_null(v);
	n = bt_view_nrows(w);
	assert_int_equal(bt_view_nrows(v), n);
	x = snapshot(w);
	y = snapshot(v);
	assert_string_equal(x, y);
	free(x);
	free(y);
	for (i = 0; i < n; i++)
		same_row(bt_view_row(w, i), bt_view_row(v, i));
	for (i = n; i-- > 0;)
		same_row(bt_view_row(w, i), bt_view_row(v, i));
	assert_null(bt_view_row(v, n));
	for (i = 0; i < n; i++) {
		const struct bt_row *r = bt_view_row(v, i);
		size_t k;

		for (k = 1; k < nslots; k++)	/* far rows, maybe other windows */
			(void)bt_view_row(v, (i + k * n / nslots + k) % n);
		same_row(bt_view_row(w, i), r);
		r = bt_view_row(w, i);
		if (r->kind == BT_ROW_INSN) {
			assert_int_equal(bt_view_find_addr(v, r->addr),
			    bt_view_find_addr(w, r->addr));
			assert_int_equal(bt_view_find_addr(v, r->addr + r->size - 1),
			    bt_view_find_addr(w, r->addr + r->size - 1));
		}
	}
	assert_int_equal(bt_view_find_addr(v, 0), bt_view_find_addr(w, 0));
	assert_int_equal(bt_view_find_addr(v, UINT64_MAX), bt_view_find_addr(w, UINT64_MAX));
	assert_int_equal(bt_view_find_line(v, 1), bt_view_find_line(w, 1));
	assert_int_equal(bt_view_nnotes(v), bt_view_nnotes(w));
	for (i = 0; i < bt_view_nnotes(w); i++)
		assert_string_equal(bt_view_note(v, i), bt_view_note(w, i));
	nw = bt_view_regions(w, &rw);
	assert_int_equal(bt_view_regions(v, &rv), nw);
	for (i = 0; i < nw; i++) {
		assert_int_equal(rv[i].start, rw[i].start);
		assert_int_equal(rv[i].end, rw[i].end);
		assert_int_equal(rv[i].samples, rw[i].samples);
		assert_true(rv[i].percent == rw[i].percent);
		assert_true(rv[i].adjusted_percent == rw[i].adjusted_percent);
		assert_int_equal(rv[i].closes_loop, rw[i].closes_loop);
	}
	nw = bt_view_hot(w, &hw);
	assert_int_equal(bt_view_hot(v, &hv), nw);
	for (i = 0; i < nw; i++)
		assert_int_equal(hv[i], hw[i]);
	nw = bt_view_arrows(w, &aw);
	assert_int_equal(bt_view_arrows(v, &av), nw);
	assert_true(nw == 0 || memcmp(aw, av, nw * sizeof(*aw)) == 0);
	assert_int_equal(bt_view_arrow_col(v), bt_view_arrow_col(w));
	for (i = 0; i < n; i++) {
		const struct bt_lane *lw = bt_view_lanes(w, i, &nw), *lv;
		struct bt_lane copy[32];

		assert_true(nw <= 32);
		if (nw)
			memcpy(copy, lw, nw * sizeof(*lw));
		lv = bt_view_lanes(v, i, &nv);
		assert_int_equal(nv, nw);
		assert_true(nw == 0 || memcmp(copy, lv, nw * sizeof(*lv)) == 0);
		assert_int_equal(bt_view_row_arrow(v, i), bt_view_row_arrow(w, i));
	}
	bt_view_free(v);
	bt_view_free(w);
}

static void
test_annotate_stream(void **state)
{
	const char *recs[] = { rec, chains };
	size_t r, fi, k;

	for (r = 0; r < BT_ARRAY_SIZE(recs); r++) {
		struct bt_selection *s = test_open(recs[r]);

		assert_non_null(s);
		for (k = 0; k < 4; k++) {
			struct bt_view_opts o;

			bt_view_opts_init(&o);
			if (k == 1) {
				o.source = false;
				o.addresses = false;
				o.syntax = BT_ASM_INTEL;
			} else if (k == 2) {
				o.skid = true;
				o.num = BT_NUM_SAMPLES;
				o.global_percent = true;
			} else if (k == 3) {
				o.compact = true;
				o.width = 80;
			}
			for (fi = 0; fi < bt_selection_nfuncs(s); fi++)
				if (bt_selection_func(s, fi)->can_annotate) {
					same_stream(s, fi, &o, 0, 1);
					same_stream(s, fi, &o, 3, 2);
					same_stream(s, fi, &o, 7, 4);
				}
		}
		test_close(s);
	}
}

/*
 * A view outlives the selection it was built from, the browser's made a
 * window at a time too (it reads the annotation as rows are asked for):
 * the selection's table grown by functions asked for by address (which
 * may move it), then the selection freed, its rows are still the whole
 * view's.
 */
static void
test_lazy_outlives_selection(void **state)
{
	struct bt_selection *s = test_open(rec);
	struct bt_session *session;
	struct bt_view *w = NULL, *v = NULL;
	struct bt_func f;
	uint64_t addr;
	size_t fi, i, n;

	assert_non_null(s);
	session = bt_selection_session(s);
	for (fi = 0; fi < bt_selection_nfuncs(s); fi++)
		if (bt_selection_func(s, fi)->can_annotate)
			break;
	assert_true(fi < bt_selection_nfuncs(s));
	w = bt_view_annotate(s, fi, NULL, NULL);
	v = bt_view_annotate_lazy(s, fi, NULL, NULL);
	assert_non_null(w);
	assert_non_null(v);
	f = *bt_selection_func(s, fi);
	n = bt_selection_nfuncs(s);
	for (addr = f.start & ~(uint64_t)0xffff; addr < f.end + 0x10000; addr++)
		(void)bt_selection_func_at(s, f.mod, addr);
	assert_true(bt_selection_nfuncs(s) > n);
	bt_selection_free(s);
	assert_int_equal(bt_view_nrows(v), bt_view_nrows(w));
	for (i = bt_view_nrows(w); i-- > 0;)
		same_row(bt_view_row(w, i), bt_view_row(v, i));
	bt_view_free(v);
	bt_view_free(w);
	bt_session_free(session);
}

/* --- two selections side by side ------------------------------------------ */

static void
test_side_by_side(void **state)
{
	struct bt_selection *all = test_open(rec), *w, *again;
	struct bt_session *s;
	struct bt_view *v;
	struct bt_view_opts o;
	char *all_table, *all_ann, *w_table, *w_ann, *x;
	size_t fa;

	assert_non_null(all);
	s = bt_selection_session(all);
	bt_view_opts_init(&o);
	fa = (size_t)find(all, "work_a");
	v = bt_view_functions(all, &o, 0);
	all_table = snapshot(v);
	bt_view_free(v);
	v = bt_view_annotate(all, fa, &o, NULL);
	all_ann = snapshot(v);
	bt_view_free(v);

	w = window_of(s, W_FROM, W_TO);
	assert_ptr_not_equal(w, all);
	assert_int_equal(bt_selection_samples(w), 200);
	v = bt_view_functions(w, &o, 0);
	{
		static const size_t ab[] = { 0, 1 };
		static const char *const names[] = { "work_a", "work_b" };
		size_t i;
		assert_int_equal(bt_view_nrows(v), 2);
		for (i = 0; i < 2; i++) {
			assert_string_equal(bt_view_row(v, i)->name, names[ab[i]]);
			assert_int_equal(bt_view_row(v, i)->samples, 100);
			assert_true(fabs(bt_view_row(v, i)->percent - 50) < 1e-9);
		}
	}
	w_table = snapshot(v);
	assert_string_not_equal(w_table, all_table);
	bt_view_free(v);
	v = bt_view_annotate(w, (size_t)find(w, "work_a"), &o, NULL);
	/* the window's work_a: the last 100 of the recording's */
	{
		uint64_t start = bt_selection_func(w, (size_t)find(w, "work_a"))->start;
		assert_int_equal(insn_at(v, start + 0x2b)->samples, W_A2B);
		assert_int_equal(insn_at(v, start + 0x20)->samples, W_A20);
		assert_int_equal(insn_at(v, start + 0x24)->samples, 0);
	}
	w_ann = snapshot(v);
	assert_string_not_equal(w_ann, all_ann);
	bt_view_free(v);

	/* the whole run's views again: the same as before the window */
	assert_int_equal(bt_selection_samples(all), TOTAL);
	v = bt_view_functions(all, &o, 0);
	x = snapshot(v);
	assert_string_equal(x, all_table);
	free(x);
	bt_view_free(v);
	v = bt_view_annotate(all, fa, &o, NULL);
	x = snapshot(v);
	assert_string_equal(x, all_ann);
	free(x);
	bt_view_free(v);
	/* and the window's, after the whole run's were built again */
	v = bt_view_functions(w, &o, 0);
	x = snapshot(v);
	assert_string_equal(x, w_table);
	free(x);
	bt_view_free(v);

	/* the same window asked for again: the same selection */
	again = window_of(s, W_FROM, W_TO);
	assert_ptr_equal(again, w);
	bt_selection_free(again);

	/* the comparison of work_a in both: the window's share, the whole run's */
	{
		struct bt_error err = { 0 };
		uint64_t start = bt_selection_func(all, fa)->start;
		size_t i, n = 0;

		v = bt_view_compare_func(w, all, "work_a", bin, &o, &err);
		assert_non_null(v);
		for (i = 0; i < bt_view_nrows(v); i++) {
			const struct bt_row *r = bt_view_row(v, i);
			double pw = r->addr == start + 0x2b ? W_A2B :
			    r->addr == start + 0x20 ? W_A20 : 0;
			double pa = r->addr == start + 0x24 ? 100.0 * N_A24 / N_A :
			    r->addr == start + 0x2b ? 100.0 * N_A2B / N_A :
			    r->addr == start + 0x20 ? 100.0 * N_A20 / N_A : 0;
			assert_true(fabs(r->percent - pw) < 1e-9);
			assert_true(fabs(r->adjusted_percent - pa) < 1e-9);
			n++;
		}
		assert_int_equal(n, 14);	/* work_a's instructions */
		bt_view_free(v);
		/* main has no sample in the window */
		v = bt_view_compare_func(w, all, "main", bin, &o, &err);
		assert_null(v);
		assert_int_equal(err.code, BT_ENODATA);
	}

	/* the window gone, the whole run's are still the same */
	bt_selection_free(w);
	v = bt_view_functions(all, &o, 0);
	x = snapshot(v);
	assert_string_equal(x, all_table);
	free(x);
	bt_view_free(v);
	free(all_table);
	free(all_ann);
	free(w_table);
	free(w_ann);
	test_close(all);
}

/* --- setup ---------------------------------------------------------------- */

struct sym {
	const char *name;
	uint64_t addr;
};

static void
find_sym(uint64_t start, uint64_t size, const char *name, void *arg)
{
	struct sym *s;

	(void)size;
	for (s = arg; s->name != NULL; s++)
		if (strcmp(name, s->name) == 0)
			s->addr = start;
}

#define BASE 0x555555554000ULL

/* count samples at ip with the frame-pointer chain ip <- ret (ret 0: none). */
static int
chain_samples(struct bt_pd_writer *w, int count, uint64_t ip, uint64_t ret, uint64_t *t)
{
	int k;

	for (k = 0; k < count; k++) {
		uint64_t r[] = { 0, ip, (uint64_t)4242 << 32 | 4242, *t += 250000, 250000,
			ret ? 3 : 2, PERF_CONTEXT_USER, ip, ret };
		size_t n = ret ? 9 : 8;

		r[0] = (uint64_t)(n * 8) << 48 | (uint64_t)PERF_RECORD_MISC_USER << 32 |
		    PERF_RECORD_SAMPLE;
		if (bt_pd_write(w, r, n * 8, NULL) < 0)
			return -1;
	}
	return 0;
}

/*
 * The split binary with call chains: work_a, work_b and mix called from
 * main (the return addresses after its calls), and main's own samples.
 */
static int
write_chains(const char *out)
{
	struct sym syms[] = { { "work_a", 0 }, { "work_b", 0 }, { "mix.constprop.0", 0 },
		{ "main", 0 }, { NULL, 0 } };
	struct bt_error err = { 0 };
	struct bt_pd_attr a;
	struct bt_pd_features f;
	struct bt_pd_writer *w;
	uint64_t ids[1] = { 1 }, t = 1000000000ULL, start = 0, len = 0, pgoff = 0, m;
	Elf *e = tool_open_elf(bin);

	if (e == NULL || tool_elf_funcs(e, find_sym, syms) <= 0 ||
	    tool_exec_mapping(e, BASE, &start, &len, &pgoff) < 0)
		return -1;
	elf_end(e);
	synth_attr(&a);
	a.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
	    PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
	a.ids = ids;
	a.nids = 1;
	if ((w = bt_pd_create(out, &a, 1, &err)) == NULL)
		return -1;
	m = BASE + syms[3].addr;
	if (synth_mmap2(w, 4242, start, len, pgoff, bin, t) < 0 ||
	    chain_samples(w, C_A, BASE + syms[0].addr + 0x24, m + 0x3c, &t) < 0 ||
	    chain_samples(w, C_B, BASE + syms[1].addr + 0x24, m + 0x47, &t) < 0 ||
	    chain_samples(w, C_MIX, BASE + syms[2].addr + 0xe, m + 0x54, &t) < 0 ||
	    chain_samples(w, C_MAIN, m + 0x10, 0, &t) < 0) {
		bt_pd_abort(w);
		return -1;
	}
	memset(&f, 0, sizeof(f));
	f.first_sample_time = 1000000000ULL;
	f.last_sample_time = t;
	return bt_pd_finish(w, &f, &err);
}

static int
setup(void **state)
{
	char msg[256], specs[8][64], *sp[8];
	static const struct {
		const char *at;
		int n;
	} put[8] = { { "work_a+0x24", N_A24 }, { "work_a+0x2b", N_A2B },
		{ "work_a+0x20", N_A20 }, { "work_b+0x24", N_B24 }, { "work_b+0x2b", N_B2B },
		{ "main+0x10", N_MAIN }, { "kernel", N_KERNEL }, { "unknown", N_UNKNOWN } };
	int i;

	/* the committed binary: the offsets above are its instructions */
	if (test_tmpdir(dir) || realpath("tests/fixtures/prebuilt/split", bin) == NULL)
		return -1;
	for (i = 0; i < 8; i++) {
		snprintf(specs[i], sizeof(specs[i]), "%s=%d", put[i].at, put[i].n);
		sp[i] = specs[i];
	}
	snprintf(rec, sizeof(rec), "%s/split.data", dir);
	if (synth_recording(rec, bin, sp, 8, msg, sizeof(msg)) != 0) {
		fprintf(stderr, "%s\n", msg);
		return -1;
	}
	snprintf(chains, sizeof(chains), "%s/chains.data", dir);
	if (write_chains(chains) != 0) {
		fprintf(stderr, "cannot write %s\n", chains);
		return -1;
	}
	return 0;
}

static int
teardown(void **state)
{
	return test_rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_window_past_end),
		cmocka_unit_test(test_functions),
		cmocka_unit_test(test_compact_module),
		cmocka_unit_test(test_children),
		cmocka_unit_test(test_hot_path_fit),
		cmocka_unit_test(test_annotate_objdump),
		cmocka_unit_test(test_annotate_numbers),
		cmocka_unit_test(test_source),
		cmocka_unit_test(test_timeline),
		cmocka_unit_test(test_outlives_selection),
		cmocka_unit_test(test_annotate_stream),
		cmocka_unit_test(test_lazy_outlives_selection),
		cmocka_unit_test(test_side_by_side),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
