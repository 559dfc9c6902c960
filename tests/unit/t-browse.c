/*
 * Unit tests: view rows and every browser action, on a real binary (the
 * split fixture, prebuilt: tests/fixtures/prebuilt/README) and a
 * deterministic recording of it.
 * No terminal: this is what the TUI does, minus painting.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <unistd.h>

#include "base.h"
#include "browse/browse-int.h"
#include "benchtui/browse.h"
#include "benchtui/profile.h"
#include "benchtui/selection.h"
#include "benchtui/session.h"
#include "benchtui/view.h"
#include "synth.h"

#define H 20	/* screen height for the actions */

static char dir[] = "/tmp/bt-browse.XXXXXX";
static char bin[PATH_MAX], rec[256];

static struct bt_selection *
open_session(void)
{
	struct bt_selection *s = test_open(rec);

	assert_non_null(s);
	return s;
}

static const struct bt_row *
cur(const struct bt_browser *b)
{
	return bt_view_row(bt_browser_view(b), bt_browser_nav(b)->cursor);
}

/* Row index of the first instruction whose text starts with mnemonic. */
static long
find_insn(const struct bt_view *v, const char *mnemonic)
{
	size_t i;

	for (i = 0; i < bt_view_nrows(v); i++) {
		const struct bt_row *r = bt_view_row(v, i);
		if (r->kind == BT_ROW_INSN && strncmp(r->text, mnemonic, strlen(mnemonic)) == 0)
			return (long)i;
	}
	return -1;
}

static void
test_functions_view(void **state)
{
	struct bt_selection *s = open_session();
	struct bt_view_opts o;
	struct bt_view *v;
	double sum = 0;
	size_t i;

	bt_view_opts_init(&o);
	v = bt_view_functions(s, &o, 0);
	assert_int_equal(bt_view_nrows(v), 4);	/* work_a, work_b, main, [kernel] */
	assert_string_equal(bt_view_row(v, 0)->text, "work_a");
	assert_int_equal(bt_view_row(v, 0)->samples, 1530);
	assert_string_equal(bt_view_row(v, 1)->text, "work_b");
	for (i = 0; i < bt_view_nrows(v); i++) {
		const struct bt_row *r = bt_view_row(v, i);
		sum += r->percent;
		assert_true(r->ci_lo <= r->percent && r->percent <= r->ci_hi);
		if (i)
			assert_true(r->samples <= bt_view_row(v, i - 1)->samples);
	}
	assert_true(sum > 99.99 && sum < 100.01);
	/* every row has the same cell layout as the column headings */
	assert_int_equal(bt_view_row(v, 0)->ncells, bt_view_columns(v)->ncells);
	assert_int_equal(strlen(bt_view_row(v, 0)->cells[0].text),
	    strlen(bt_view_columns(v)->cells[0].text));
	bt_view_free(v);
	o.filter = "work_b";
	v = bt_view_functions(s, &o, 0);
	assert_int_equal(bt_view_nrows(v), 1);
	assert_string_equal(bt_view_row(v, 0)->text, "work_b");
	bt_view_free(v);
	test_close(s);
}

static void
test_annotate_view(void **state)
{
	struct bt_selection *s = open_session();
	struct bt_view_opts o;
	struct bt_view *v;
	const size_t *hot;
	size_t nhot, i, nsrc = 0;
	long add;

	bt_view_opts_init(&o);
	v = bt_view_annotate(s, 0, &o, NULL);
	assert_non_null(v);
	nhot = bt_view_hot(v, &hot);
	assert_true(nhot >= 2);
	/* the hottest row is the instruction with the 1000 samples: add $0x1 */
	add = find_insn(v, "add    $0x1");
	assert_true(add >= 0);
	assert_int_equal(hot[0], (size_t)add);
	assert_int_equal(bt_view_row(v, add)->samples, 1000);
	assert_true(bt_view_row(v, add)->flags & BT_ROW_F_HOT);
	for (i = 0; i < bt_view_nrows(v); i++)
		nsrc += bt_view_row(v, i)->kind == BT_ROW_SOURCE;
	assert_true(nsrc > 3);
	/* skid: the imul before it is credited with most of its samples */
	{
		long imul = find_insn(v, "imul");
		assert_true(imul >= 0 && imul < add);
		assert_true(bt_view_row(v, imul)->adjusted > 990);
		assert_true(bt_view_row(v, imul)->flags & BT_ROW_F_SKID_TARGET);
		assert_true(bt_view_row(v, imul)->flags & BT_ROW_F_LOOP_HEAD);
	}
	bt_view_free(v);
	o.source = false;
	v = bt_view_annotate(s, 0, &o, NULL);
	for (i = 0; i < bt_view_nrows(v); i++)
		assert_int_equal(bt_view_row(v, i)->kind, BT_ROW_INSN);
	bt_view_free(v);
	test_close(s);
}

static void
test_open_hot_back_quit(void **state)
{
	struct bt_selection *s = open_session();
	struct bt_browser *b = bt_browser_new(s, NULL);
	uint64_t first_hot;

	assert_string_equal(bt_browser_screen(b), "functions");
	assert_int_equal(bt_browser_nav(b)->cursor, 0);
	assert_int_equal(bt_browser_apply(b, BT_ACT_ENTER, H), 0);
	assert_string_equal(bt_browser_screen(b), "annotate");
	/* opens on the hottest instruction */
	assert_int_equal(cur(b)->samples, 1000);
	first_hot = cur(b)->addr;
	bt_browser_apply(b, BT_ACT_NEXT_HOT, H);
	assert_true(cur(b)->weight <= 100.0 * 1000 / 1530);
	assert_int_not_equal(cur(b)->addr, first_hot);
	bt_browser_apply(b, BT_ACT_PREV_HOT, H);
	assert_int_equal(cur(b)->addr, first_hot);
	bt_browser_apply(b, BT_ACT_HOME, H);
	bt_browser_apply(b, BT_ACT_HOTTEST, H);
	assert_int_equal(cur(b)->addr, first_hot);
	/* q goes back, then quits */
	assert_int_equal(bt_browser_apply(b, BT_ACT_QUIT, H), 0);
	assert_string_equal(bt_browser_screen(b), "functions");
	assert_int_equal(bt_browser_apply(b, BT_ACT_BACK, H), 0);	/* ← on the first screen stays */
	assert_int_equal(bt_browser_apply(b, BT_ACT_QUIT, H), 1);
	bt_browser_free(b);
	test_close(s);
}

/* Rows of two views equal: kind, address, text and samples. */
static void
assert_same_rows(const struct bt_view *x, const struct bt_view *y)
{
	size_t i;

	assert_int_equal(bt_view_nrows(x), bt_view_nrows(y));
	for (i = 0; i < bt_view_nrows(x); i++) {
		const struct bt_row *a = bt_view_row(x, i), *c = bt_view_row(y, i);
		assert_int_equal(a->kind, c->kind);
		assert_int_equal(a->addr, c->addr);
		assert_int_equal(a->samples, c->samples);
		assert_string_equal(a->text ? a->text : "", c->text ? c->text : "");
	}
}

/*
 * q keeps a large annotation, and opening it again gives it back as it
 * was (on the hottest instruction); another function is built; a toggle
 * drops what is kept.
 */
static void
test_reopen_kept(void **state)
{
	struct bt_selection *s = open_session();
	struct bt_browser *b = bt_browser_new(s, NULL);
	struct bt_browser *fresh = bt_browser_new(s, NULL);
	const struct bt_view *v;
	uint64_t hot;

	b->kept_min = 1;	/* the fixture's functions are small */
	bt_browser_open(b, 0, H);
	v = bt_browser_view(b);
	hot = cur(b)->addr;
	bt_browser_apply(b, BT_ACT_END, H);
	bt_browser_apply(b, BT_ACT_QUIT, H);
	assert_string_equal(bt_browser_screen(b), "functions");
	bt_browser_open(b, 1, H);
	assert_ptr_not_equal(bt_browser_view(b), v);
	bt_browser_apply(b, BT_ACT_QUIT, H);
	bt_browser_open(b, 0, H);
	assert_ptr_equal(bt_browser_view(b), v);	/* kept, not built */
	assert_int_equal(cur(b)->addr, hot);		/* a new place: the hottest */
	bt_browser_open(fresh, 0, H);
	assert_same_rows(bt_browser_view(b), bt_browser_view(fresh));
	bt_browser_apply(b, BT_ACT_QUIT, H);
	bt_browser_apply(b, BT_ACT_TOGGLE_SOURCE, H);
	bt_browser_apply(b, BT_ACT_TOGGLE_SOURCE, H);
	bt_browser_open(b, 0, H);
	assert_same_rows(bt_browser_view(b), bt_browser_view(fresh));
	bt_browser_free(fresh);
	bt_browser_free(b);
	test_close(s);
}

static void
test_follow_jump_and_back(void **state)
{
	struct bt_selection *s = open_session();
	struct bt_browser *b = bt_browser_new(s, NULL);
	long jl, imul;
	size_t before;

	bt_browser_apply(b, BT_ACT_ENTER, H);
	jl = find_insn(bt_browser_view(b), "jl  ");
	imul = find_insn(bt_browser_view(b), "imul");
	assert_true(jl > imul && imul >= 0);
	bt_browser_select(b, (size_t)jl, H);
	before = bt_browser_nav(b)->cursor;
	bt_browser_apply(b, BT_ACT_ENTER, H);
	assert_string_equal(bt_browser_screen(b), "annotate");
	assert_int_equal(bt_browser_nav(b)->cursor, (size_t)imul);
	assert_non_null(strstr(bt_browser_status(b), "jumped back to +0x20"));
	bt_browser_apply(b, BT_ACT_BACK, H);
	assert_int_equal(bt_browser_nav(b)->cursor, before);
	assert_string_equal(bt_browser_screen(b), "annotate");
	/* Enter on something that is not a jump says so */
	bt_browser_apply(b, BT_ACT_HOME, H);
	bt_browser_apply(b, BT_ACT_ENTER, H);
	assert_true(bt_browser_status(b)[0] != '\0');
	assert_int_equal(bt_browser_depth(b), 2);
	bt_browser_free(b);
	test_close(s);
}

static void
test_call_opens_callee(void **state)
{
	struct bt_selection *s = open_session();
	struct bt_browser *b = bt_browser_new(s, NULL);
	long main_idx = bt_selection_find(s, "main"), call;

	assert_true(main_idx >= 0);
	assert_int_equal(bt_browser_open(b, (size_t)main_idx, H), 0);
	{
		/* main stores to the global sink: the operand is named, as objdump does */
		const struct bt_view *v = bt_browser_view(b);
		size_t i, named = 0;
		for (i = 0; i < bt_view_nrows(v); i++) {
			const struct bt_row *r = bt_view_row(v, i);
			if (r->kind == BT_ROW_INSN && strstr(r->text, "(%rip)") && r->has_mem_target) {
				assert_non_null(r->mem_name);
				assert_string_equal(r->mem_name, "sink");
				assert_non_null(strstr(r->cells[r->ncells - 1].text, "<sink>"));
				named++;
			}
		}
		assert_true(named > 0);
	}
	call = find_insn(bt_browser_view(b), "call");
	assert_true(call >= 0);
	bt_browser_select(b, (size_t)call, H);
	bt_browser_apply(b, BT_ACT_ENTER, H);
	assert_int_equal(bt_browser_depth(b), 3);
	assert_non_null(strstr(bt_view_title(bt_browser_view(b)), "work_"));
	bt_browser_apply(b, BT_ACT_BACK, H);
	assert_int_equal(bt_browser_depth(b), 2);
	bt_browser_free(b);
	test_close(s);
}

static void
test_toggles_keep_cursor(void **state)
{
	struct bt_selection *s = open_session();
	struct bt_browser *b = bt_browser_new(s, NULL);
	uint64_t addr;
	enum bt_action acts[] = { BT_ACT_TOGGLE_SOURCE, BT_ACT_TOGGLE_SKID,
		BT_ACT_CYCLE_NUM, BT_ACT_TOGGLE_PERCENT, BT_ACT_TOGGLE_SYNTAX,
		BT_ACT_TOGGLE_ADDR, BT_ACT_TOGGLE_SOURCE };
	size_t i;

	bt_browser_apply(b, BT_ACT_ENTER, H);
	addr = cur(b)->addr;
	for (i = 0; i < BT_ARRAY_SIZE(acts); i++) {
		bt_browser_apply(b, acts[i], H);
		assert_int_equal(cur(b)->kind, BT_ROW_INSN);
		assert_int_equal(cur(b)->addr, addr);
		assert_true(bt_browser_status(b)[0] != '\0');
	}
	/* Intel syntax now: the imul reads the other way round */
	assert_int_not_equal(find_insn(bt_browser_view(b), "imul"), -1);
	assert_non_null(strstr(bt_view_row(bt_browser_view(b),
	    (size_t)find_insn(bt_browser_view(b), "imul"))->text, "rax,rdi"));
	assert_true(bt_browser_opts(b)->skid);
	assert_true(bt_browser_opts(b)->global_percent);
	assert_int_equal(bt_browser_opts(b)->num, BT_NUM_SAMPLES);
	bt_browser_free(b);
	test_close(s);
}

static void
test_source_view_and_back(void **state)
{
	struct bt_selection *s = open_session();
	struct bt_browser *b = bt_browser_new(s, NULL);
	unsigned line;
	const struct bt_row *r;

	/* from the function list, S opens the source at its hottest line */
	bt_browser_apply(b, BT_ACT_SOURCE_VIEW, H);
	assert_string_equal(bt_browser_screen(b), "source");
	r = cur(b);
	assert_int_equal(r->kind, BT_ROW_LINE);
	assert_non_null(strstr(r->text, "for (long i = 0; i < 3 * n; i++)"));
	line = r->line;
	/* Enter: the annotated code, on that line's hottest instruction */
	bt_browser_apply(b, BT_ACT_ENTER, H);
	assert_string_equal(bt_browser_screen(b), "annotate");
	assert_int_equal(cur(b)->line, line);
	assert_int_equal(cur(b)->samples, 1000);
	/* and S from there comes back to the same line: to the same screen */
	bt_browser_apply(b, BT_ACT_SOURCE_VIEW, H);
	assert_string_equal(bt_browser_screen(b), "source");
	assert_int_equal(cur(b)->line, line);
	assert_int_equal(bt_browser_depth(b), 2);
	bt_browser_free(b);
	test_close(s);
}

/* S, Enter, S, Enter... never deepens the history: q q leaves. */
static void
test_source_round_trips_bounded(void **state)
{
	struct bt_selection *s = open_session();
	struct bt_browser *b = bt_browser_new(s, NULL);
	uint64_t addr;
	int i;

	bt_browser_apply(b, BT_ACT_ENTER, H);
	addr = cur(b)->addr;
	for (i = 0; i < 10; i++) {
		bt_browser_apply(b, BT_ACT_SOURCE_VIEW, H);
		assert_string_equal(bt_browser_screen(b), "source");
		assert_int_equal(bt_browser_depth(b), 3);
		bt_browser_apply(b, BT_ACT_ENTER, H);
		assert_string_equal(bt_browser_screen(b), "annotate");
		assert_int_equal(bt_browser_depth(b), 2);
		assert_int_equal(cur(b)->addr, addr);	/* the line's hottest: the same */
	}
	assert_int_equal(bt_browser_apply(b, BT_ACT_QUIT, H), 0);
	assert_int_equal(bt_browser_apply(b, BT_ACT_QUIT, H), 1);
	bt_browser_free(b);
	test_close(s);
}

/*
 * / takes a POSIX extended regular expression, ignoring case when it has
 * no upper-case letter (less's smart case); an invalid one says why and
 * keeps the last search; n and N say when they wrap; the function list's
 * filter is one too.
 */
static void
test_regex_search(void **state)
{
	struct bt_selection *s = open_session();
	struct bt_browser *b = bt_browser_new(s, NULL);
	size_t c;

	/* the list's filter: a regular expression over every form of a name */
	assert_int_equal(bt_browser_apply_text(b, BT_ACT_SEARCH, "^work_[ab]$", H), 0);
	assert_int_equal(bt_view_nrows(bt_browser_view(b)), 2);
	bt_browser_apply_text(b, BT_ACT_SEARCH, "WORK_A", H);	/* upper case: exact */
	assert_int_equal(bt_view_nrows(bt_browser_view(b)), 0);
	bt_browser_apply_text(b, BT_ACT_SEARCH, "work_(", H);	/* invalid: nothing changes */
	assert_non_null(strstr(bt_browser_status(b), "invalid regular expression 'work_('"));
	assert_string_equal(bt_browser_filter_text(b), "WORK_A");
	bt_browser_apply_text(b, BT_ACT_SEARCH, "", H);
	bt_browser_apply(b, BT_ACT_ENTER, H);
	bt_browser_apply(b, BT_ACT_HOME, H);
	/* instruction text */
	assert_true(bt_browser_search(b, "^add +\\$0x1,%rdx$", false, H));
	assert_string_equal(cur(b)->text, "add    $0x1,%rdx");
	assert_true(bt_browser_search(b, "IMUL|imul", false, H));
	assert_non_null(strstr(cur(b)->text, "imul"));
	/* smart case: lower case ignores case, upper case does not */
	bt_browser_apply(b, BT_ACT_HOME, H);
	assert_true(bt_browser_search(b, "imul +%RDI", false, H) == false);
	assert_true(bt_browser_search(b, "imul +%rdi", false, H));
	c = bt_browser_nav(b)->cursor;
	assert_true(bt_browser_search(b, "ImUl", false, H) == false);
	assert_true(bt_browser_search(b, "[i]mul", false, H));
	assert_int_equal(bt_browser_nav(b)->cursor, c);
	/* a source line; a name in the rows (a branch's target: work_a+0x20) */
	assert_true(bt_browser_search(b, "for \\(long i", false, H));
	assert_int_equal(cur(b)->kind, BT_ROW_SOURCE);
	assert_true(bt_browser_search(b, "<\\+0x20>", false, H));
	assert_non_null(strstr(cur(b)->text, "1240"));
	/* the rows' whole text: the address and the instruction together */
	assert_true(bt_browser_search(b, "124e: .* jl", false, H));
	assert_non_null(strstr(cur(b)->text, "jl"));
	/* an invalid pattern says why, and n goes on with the last one */
	c = bt_browser_nav(b)->cursor;
	assert_false(bt_browser_search(b, "a{2", false, H));
	assert_non_null(strstr(bt_browser_status(b), "invalid regular expression 'a{2'"));
	assert_int_equal(bt_browser_nav(b)->cursor, c);
	bt_browser_apply(b, BT_ACT_SEARCH_NEXT, H);	/* one jl: it wraps to itself */
	assert_int_equal(bt_browser_nav(b)->cursor, c);
	assert_non_null(strstr(bt_browser_status(b), "search wrapped to the top: '124e: .* jl'"));
	bt_browser_apply(b, BT_ACT_SEARCH_PREV, H);
	assert_non_null(strstr(bt_browser_status(b), "search wrapped to the bottom"));
	/* the arrows' lanes are not text: "-" and ">" find none of them */
	bt_browser_apply(b, BT_ACT_HOME, H);
	assert_false(bt_browser_search(b, "^ *[-|/>]", false, H));
	bt_browser_free(b);
	test_close(s);
}

static void
test_search_move_page(void **state)
{
	struct bt_selection *s = open_session();
	struct bt_browser *b = bt_browser_new(s, NULL);
	size_t n, c;

	bt_browser_apply(b, BT_ACT_ENTER, H);
	n = bt_view_nrows(bt_browser_view(b));
	bt_browser_apply(b, BT_ACT_HOME, H);
	assert_true(bt_browser_search(b, "imul", false, H));
	assert_non_null(strstr(cur(b)->text, "imul"));
	c = bt_browser_nav(b)->cursor;
	bt_browser_apply(b, BT_ACT_SEARCH_NEXT, H);	/* only one: wraps to itself */
	assert_int_equal(bt_browser_nav(b)->cursor, c);
	assert_false(bt_browser_search(b, "no such text", false, H));
	assert_non_null(strstr(bt_browser_status(b), "not found"));
	bt_browser_apply(b, BT_ACT_END, H);
	assert_int_equal(bt_browser_nav(b)->cursor, n - 1);
	bt_browser_apply(b, BT_ACT_DOWN, H);
	assert_int_equal(bt_browser_nav(b)->cursor, n - 1);
	bt_browser_apply(b, BT_ACT_PAGE_UP, 5);
	assert_true(bt_browser_nav(b)->cursor < n - 1);
	assert_true(bt_browser_nav(b)->cursor >= bt_browser_nav(b)->top);
	assert_true(bt_browser_nav(b)->cursor < bt_browser_nav(b)->top + 5);
	for (int i = 0; i < 100; i++)
		bt_browser_apply(b, BT_ACT_PAGE_UP, 5);
	assert_int_equal(bt_browser_nav(b)->cursor, 0);
	assert_int_equal(bt_browser_nav(b)->top, 0);
	bt_browser_apply(b, BT_ACT_UP, 5);
	assert_int_equal(bt_browser_nav(b)->cursor, 0);
	for (int i = 0; i < 100; i++)
		bt_browser_apply(b, BT_ACT_PAGE_DOWN, 5);
	assert_int_equal(bt_browser_nav(b)->cursor, n - 1);
	bt_browser_scroll(b, -3, 5);
	assert_true(bt_browser_nav(b)->cursor < bt_browser_nav(b)->top + 5);
	bt_browser_free(b);
	test_close(s);
}

static void
test_filter_and_export_name(void **state)
{
	struct bt_selection *s = open_session();
	struct bt_browser *b = bt_browser_new(s, NULL);
	char *name;

	name = bt_browser_export_name(b);
	assert_string_equal(name, "functions.txt");
	free(name);
	bt_browser_filter(b, "work_b");
	assert_int_equal(bt_view_nrows(bt_browser_view(b)), 1);
	assert_string_equal(bt_browser_filter_text(b), "work_b");
	bt_browser_apply(b, BT_ACT_ENTER, H);
	name = bt_browser_export_name(b);
	assert_string_equal(name, "work_b.txt");
	free(name);
	bt_browser_apply(b, BT_ACT_QUIT, H);
	bt_browser_filter(b, "");
	assert_int_equal(bt_view_nrows(bt_browser_view(b)), 4);
	/* nothing matches: the view says so; Esc (back) clears the filter */
	bt_browser_filter(b, "nomatch");
	assert_int_equal(bt_view_nrows(bt_browser_view(b)), 0);
	assert_non_null(strstr(bt_view_note(bt_browser_view(b), 0), "no function matches 'nomatch'"));
	assert_non_null(strstr(bt_browser_status(b), "Esc clears"));
	assert_int_equal(bt_browser_apply(b, BT_ACT_BACK, H), 0);
	assert_int_equal(bt_view_nrows(bt_browser_view(b)), 4);
	assert_string_equal(bt_browser_filter_text(b), "");
	/* a filter, then Esc: the cursor stays on its function */
	bt_browser_filter(b, "work");
	bt_browser_apply(b, BT_ACT_DOWN, H);
	assert_string_equal(cur(b)->name, "work_b");
	bt_browser_apply(b, BT_ACT_BACK, H);
	assert_string_equal(cur(b)->name, "work_b");
	bt_browser_free(b);
	test_close(s);
}

/*
 * The front end asks what a key means on this screen: / is a filter on the
 * function list (its text also clears it), a search elsewhere; the title
 * says what the list keeps; only the lint screen with findings has a pane.
 */
static void
test_prompts_and_title(void **state)
{
	struct bt_selection *s = open_session();
	struct bt_browser *b = bt_browser_new(s, NULL);
	char note[128];

	assert_string_equal(bt_browser_prompt(b, BT_ACT_SEARCH), "filter: ");
	assert_string_equal(bt_browser_prompt(b, BT_ACT_SEARCH_BACK), "?");
	assert_null(bt_browser_prompt(b, BT_ACT_DOWN));
	assert_string_equal(bt_browser_title_note(b, note, sizeof(note)), "");
	assert_int_equal(bt_browser_apply_text(b, BT_ACT_SEARCH, "work_b", H), 0);
	assert_int_equal(bt_view_nrows(bt_browser_view(b)), 1);
	assert_string_equal(bt_browser_title_note(b, note, sizeof(note)), "  filter: work_b");
	bt_browser_apply_text(b, BT_ACT_SEARCH, "", H);
	assert_int_equal(bt_view_nrows(bt_browser_view(b)), 4);
	assert_string_equal(bt_browser_status(b), "filter cleared");
	bt_browser_apply(b, BT_ACT_ZOOM_MODULE, H);
	assert_string_equal(bt_browser_title_note(b, note, sizeof(note)), "  module: split");
	assert_false(bt_browser_pane(b, NULL));
	/* an annotation: / searches; a prompting action without its text does nothing */
	bt_browser_apply(b, BT_ACT_ENTER, H);
	assert_string_equal(bt_browser_screen(b), "annotate");
	assert_string_equal(bt_browser_prompt(b, BT_ACT_SEARCH), "/");
	assert_string_equal(bt_browser_title_note(b, note, sizeof(note)), "");
	bt_browser_apply(b, BT_ACT_HOME, H);
	bt_browser_apply(b, BT_ACT_SEARCH, H);
	assert_int_equal(bt_browser_nav(b)->cursor, 0);
	bt_browser_apply_text(b, BT_ACT_SEARCH, "imul", H);
	assert_non_null(strstr(cur(b)->text, "imul"));
	bt_browser_apply_text(b, BT_ACT_SEARCH_BACK, "", H);	/* nothing typed: the status stays */
	assert_string_equal(bt_browser_status(b), "/imul");
	/* the lint screen of a healthy profile: no findings, no pane */
	bt_browser_apply(b, BT_ACT_LINT, H);
	assert_string_equal(bt_browser_screen(b), "lint");
	assert_false(bt_browser_pane(b, NULL));
	/* what only the timeline takes says where it is taken */
	bt_browser_apply(b, BT_ACT_MARK_FROM, H);
	assert_non_null(strstr(bt_browser_status(b), "in the timeline (T)"));
	bt_browser_free(b);
	test_close(s);
}

/* d: perf's zoom into a module, on the list; a: perf's annotate. */
static void
test_zoom_and_annotate_keys(void **state)
{
	struct bt_selection *s = open_session();
	struct bt_browser *b = bt_browser_new(s, NULL);
	long call;
	size_t i;

	bt_browser_apply(b, BT_ACT_ZOOM_MODULE, H);
	assert_string_equal(bt_browser_zoom(b), "split");
	assert_int_equal(bt_view_nrows(bt_browser_view(b)), 3);	/* no [kernel] */
	for (i = 0; i < 3; i++)
		assert_non_null(strstr(bt_view_row(bt_browser_view(b), i)->module, "split"));
	bt_browser_apply(b, BT_ACT_ZOOM_MODULE, H);
	assert_null(bt_browser_zoom(b));
	assert_int_equal(bt_view_nrows(bt_browser_view(b)), 4);
	bt_browser_apply(b, BT_ACT_ZOOM_MODULE, H);
	bt_browser_apply(b, BT_ACT_BACK, H);	/* Esc zooms out too */
	assert_null(bt_browser_zoom(b));
	/* a on the list annotates; on a call, the callee */
	bt_browser_select(b, 3, H);
	assert_string_equal(cur(b)->name, "main");
	bt_browser_apply(b, BT_ACT_ANNOTATE, H);
	assert_string_equal(bt_browser_screen(b), "annotate");
	call = find_insn(bt_browser_view(b), "call");
	bt_browser_select(b, (size_t)call, H);
	bt_browser_apply(b, BT_ACT_ANNOTATE, H);
	assert_int_equal(bt_browser_depth(b), 3);
	assert_non_null(strstr(bt_view_title(bt_browser_view(b)), "work_"));
	bt_browser_apply(b, BT_ACT_HOME, H);
	bt_browser_apply(b, BT_ACT_ANNOTATE, H);	/* not a call: says so */
	assert_non_null(strstr(bt_browser_status(b), "annotating"));
	assert_int_equal(bt_browser_depth(b), 3);
	bt_browser_free(b);
	test_close(s);
}

/* Under 100 columns the compact columns, until w says otherwise. */
static void
test_width_and_columns(void **state)
{
	struct bt_selection *s = open_session();
	struct bt_browser *b = bt_browser_new(s, NULL);
	uint64_t addr;

	bt_browser_apply(b, BT_ACT_ENTER, H);
	addr = cur(b)->addr;
	assert_int_equal(bt_view_columns(bt_browser_view(b))->ncells, 8);	/* 7 and the arrows' lanes */
	bt_browser_set_width(b, 80, H);
	assert_true(bt_browser_opts(b)->compact);
	assert_int_equal(bt_view_columns(bt_browser_view(b))->ncells, 6);
	assert_int_equal(cur(b)->addr, addr);
	bt_browser_set_width(b, 160, H);
	assert_false(bt_browser_opts(b)->compact);
	bt_browser_set_width(b, 80, H);
	bt_browser_apply(b, BT_ACT_TOGGLE_COLUMNS, H);	/* w: every column, whatever the width */
	assert_false(bt_browser_opts(b)->compact);
	assert_int_equal(bt_view_columns(bt_browser_view(b))->ncells, 8);
	bt_browser_set_width(b, 70, H);
	assert_false(bt_browser_opts(b)->compact);
	assert_int_equal(cur(b)->addr, addr);
	bt_browser_free(b);
	test_close(s);
}

static void
test_timeline_window(void **state)
{
	struct bt_selection *s = open_session();
	struct bt_browser *b = bt_browser_new(s, NULL);
	uint64_t total = bt_selection_samples(s), sum = 0, first10 = 0;
	size_t i, n;

	bt_browser_apply(b, BT_ACT_TIMELINE, H);
	assert_string_equal(bt_browser_screen(b), "timeline");
	n = bt_view_nrows(bt_browser_view(b));
	assert_int_equal(n, H);
	for (i = 0; i < n; i++) {
		const struct bt_row *r = bt_view_row(bt_browser_view(b), i);
		assert_int_equal(r->kind, BT_ROW_SLICE);
		sum += r->samples;
		if (i < 10)
			first10 += r->samples;
		if (i)
			assert_true(r->t_from >= bt_view_row(bt_browser_view(b), i - 1)->t_to - 1e-9);
	}
	assert_int_equal(sum, total);
	/* samples are synthesized work_a first: the first slice is all work_a */
	assert_true(bt_view_row(bt_browser_view(b), 0)->percent > 99.9);
	bt_browser_apply(b, BT_ACT_HOME, H);
	bt_browser_apply(b, BT_ACT_MARK_FROM, H);
	for (i = 0; i < 9; i++)
		bt_browser_apply(b, BT_ACT_DOWN, H);
	bt_browser_apply(b, BT_ACT_MARK_TO, H);
	assert_non_null(strstr(bt_view_row(bt_browser_view(b), 5)->cells[0].text, ">"));
	/* under cpu-clock every slice has as many samples: the bar is work_a's share */
	{
		const struct bt_view *v = bt_browser_view(b);
		const struct bt_row *first = bt_view_row(v, 0), *last = bt_view_row(v, n - 1);
		assert_int_equal(first->sub_samples, first->samples);
		assert_int_equal(last->sub_samples, 0);
		assert_non_null(strstr(first->cells[first->ncells - 1].text,
		    "################################"));
		assert_null(strchr(last->cells[last->ncells - 1].text, '#'));
	}
	bt_browser_apply(b, BT_ACT_ENTER, H);
	assert_string_equal(bt_browser_screen(b), "functions");
	assert_int_equal(bt_browser_depth(b), 1);
	/* the slice boundaries are the window: the same samples, give or take the edge */
	assert_true(bt_selection_samples(bt_browser_selection(b)) + 2 >= first10 && bt_selection_samples(bt_browser_selection(b)) <= first10 + 2);
	assert_non_null(strstr(bt_browser_status(b), "window"));
	bt_browser_apply(b, BT_ACT_TIMELINE, H);
	bt_browser_apply(b, BT_ACT_CLEAR_WINDOW, H);
	assert_int_equal(bt_selection_samples(bt_browser_selection(b)), total);
	bt_browser_free(b);
	test_close(s);
}

static void
test_lint_and_events(void **state)
{
	struct bt_selection *s = open_session();
	struct bt_browser *b = bt_browser_new(s, NULL);

	bt_browser_apply(b, BT_ACT_LINT, H);
	assert_string_equal(bt_browser_screen(b), "lint");
	assert_int_equal(bt_view_nrows(bt_browser_view(b)), 0);	/* a healthy profile */
	assert_non_null(strstr(bt_browser_status(b), "no findings"));
	bt_browser_apply(b, BT_ACT_QUIT, H);
	bt_browser_apply(b, BT_ACT_NEXT_EVENT, H);
	assert_non_null(strstr(bt_browser_status(b), "one event"));
	bt_browser_free(b);
	test_close(s);
}

/* r: the status line names the region's share, as the export does */
static void
test_region_share(void **state)
{
	struct bt_selection *s = open_session();
	struct bt_browser *b = bt_browser_new(s, NULL);
	const struct bt_view_region *rg;
	char want[64];

	bt_browser_open(b, 0, H);
	assert_true(bt_view_regions(bt_browser_view(b), &rg) >= 1);
	bt_browser_apply(b, BT_ACT_HOME, H);
	bt_browser_apply(b, BT_ACT_NEXT_REGION, H);
	assert_true(cur(b)->flags & BT_ROW_F_REGION_START);
	snprintf(want, sizeof(want), "hot region 1 of %zu: %.2f%%",
	    bt_view_regions(bt_browser_view(b), &rg), rg[0].percent);
	assert_non_null(strstr(bt_browser_status(b), want));
	assert_true(rg[0].percent > 99);	/* the loop holds every sample of work_a */
	bt_browser_free(b);
	test_close(s);
}

/*
 * A window chosen from an annotation (T, marks, Enter) keeps the screen
 * under the timeline on its function and instruction, with its jumps.
 */
static void
test_window_keeps_place(void **state)
{
	struct bt_selection *s = open_session();
	struct bt_browser *b = bt_browser_new(s, NULL);
	uint64_t total = bt_selection_samples(s), addr;
	long jl;
	size_t i;

	bt_browser_apply(b, BT_ACT_ENTER, H);
	jl = find_insn(bt_browser_view(b), "jl  ");
	bt_browser_select(b, (size_t)jl, H);
	bt_browser_apply(b, BT_ACT_ENTER, H);	/* a followed jump, to undo later */
	addr = cur(b)->addr;
	bt_browser_apply(b, BT_ACT_TIMELINE, H);
	bt_browser_apply(b, BT_ACT_HOME, H);
	bt_browser_apply(b, BT_ACT_MARK_FROM, H);
	for (i = 0; i < 9; i++)
		bt_browser_apply(b, BT_ACT_DOWN, H);
	bt_browser_apply(b, BT_ACT_MARK_TO, H);
	bt_browser_apply(b, BT_ACT_ENTER, H);
	assert_true(bt_selection_samples(bt_browser_selection(b)) < total);
	assert_string_equal(bt_browser_screen(b), "annotate");
	assert_int_equal(bt_browser_depth(b), 2);
	assert_non_null(strstr(bt_view_title(bt_browser_view(b)), "work_a"));
	assert_int_equal(cur(b)->addr, addr);
	assert_non_null(strstr(bt_browser_status(b), "window"));
	bt_browser_apply(b, BT_ACT_BACK, H);	/* the jump is still there to undo */
	assert_int_equal(cur(b)->addr, bt_view_row(bt_browser_view(b), (size_t)jl)->addr);
	/* the whole run again, from the timeline: still here */
	bt_browser_apply(b, BT_ACT_TIMELINE, H);
	bt_browser_apply(b, BT_ACT_CLEAR_WINDOW, H);
	assert_int_equal(bt_selection_samples(bt_browser_selection(b)), total);
	assert_string_equal(bt_browser_screen(b), "annotate");
	assert_int_equal(cur(b)->addr, bt_view_row(bt_browser_view(b), (size_t)jl)->addr);
	/* work_b, in a window with no sample of it: it stays open, with none */
	bt_browser_apply(b, BT_ACT_QUIT, H);
	bt_browser_select(b, 1, H);
	assert_string_equal(cur(b)->name, "work_b");
	bt_browser_apply(b, BT_ACT_ENTER, H);
	bt_browser_apply(b, BT_ACT_TIMELINE, H);
	bt_browser_apply(b, BT_ACT_HOME, H);
	bt_browser_apply(b, BT_ACT_MARK_FROM, H);
	bt_browser_apply(b, BT_ACT_MARK_TO, H);
	bt_browser_apply(b, BT_ACT_ENTER, H);
	assert_string_equal(bt_browser_screen(b), "annotate");
	assert_non_null(strstr(bt_view_title(bt_browser_view(b)), "work_b"));
	bt_browser_apply(b, BT_ACT_QUIT, H);
	/* on the list, the cursor on work_b still, which is in the table with none */
	assert_string_equal(cur(b)->name, "work_b");
	assert_int_equal(cur(b)->samples, 0);
	bt_browser_free(b);
	test_close(s);
	/* the session is shared by nothing else: no window to undo */
}

/* L, then T, then E: the timeline opened from the lint screen has no function */
static void
test_lint_timeline_export(void **state)
{
	struct bt_selection *s = open_session();
	struct bt_browser *b = bt_browser_new(s, NULL);
	char *name;

	bt_browser_apply(b, BT_ACT_LINT, H);
	bt_browser_apply(b, BT_ACT_TIMELINE, H);
	assert_string_equal(bt_browser_screen(b), "timeline");
	name = bt_browser_export_name(b);
	assert_string_equal(name, "timeline.txt");
	free(name);
	assert_non_null(strstr(bt_browser_hint(b), "Enter keep it"));
	bt_browser_free(b);
	test_close(s);
}

/*
 * Every action on every screen, in every order the first screens allow:
 * no screen may depend on another's state (each is a mode with its own
 * ops); the export name and hint exist everywhere.
 */
static void
test_every_action_everywhere(void **state)
{
	static const enum bt_action openers[] = { BT_ACT_ENTER, BT_ACT_SOURCE_VIEW,
		BT_ACT_LINT, BT_ACT_TIMELINE, BT_ACT_ZOOM_MODULE };
	struct bt_selection *s = open_session();
	uint64_t total = bt_selection_samples(s);
	size_t i, j, k;
	int a;

	for (i = 0; i < BT_ARRAY_SIZE(openers); i++)
		for (j = 0; j < BT_ARRAY_SIZE(openers); j++)
			for (a = BT_ACT_UP; a < BT_ACT_COUNT; a++) {
				struct bt_browser *b = bt_browser_new(s, NULL);
				char *name;

				bt_browser_apply(b, openers[i], H);
				bt_browser_apply(b, openers[j], H);
				for (k = 0; k < 3; k++) {
					if (a == BT_ACT_QUIT && bt_browser_depth(b) == 1)
						break;
					bt_browser_apply(b, (enum bt_action)a, H);
				}
				name = bt_browser_export_name(b);
				assert_true(strlen(name) > 4);
				free(name);
				assert_non_null(bt_browser_hint(b));
				assert_non_null(bt_browser_view(b));
				bt_browser_free(b);
				/* a window chosen in the timeline was the browser's own */
				assert_int_equal(bt_selection_samples(s), total);
			}
	test_close(s);
}

/*
 * Every registered screen (BROWSE_SCREENS) has what the browser calls
 * without asking, a name of its own, data it can free, and an opener for
 * the action it answers; an action is answered from anywhere by one
 * screen at most, and one that a screen keeps to itself opens none.
 */
static void
test_every_screen_ops(void **state)
{
#define ENTRY(name) &screen_##name,
	static const struct screen_ops *const all[] = { BROWSE_SCREENS(ENTRY) };
#undef ENTRY
	size_t i, j;
	const struct screen_key *k;

	for (i = 0; i < BT_ARRAY_SIZE(all); i++) {
		const struct screen_ops *o = all[i];

		assert_non_null(o->name);
		assert_non_null(o->build);
		assert_non_null(o->enter);
		assert_non_null(o->subject);
		assert_non_null(o->export_name);
		assert_non_null(o->hint);
		assert_true((o->init == NULL) == (o->free == NULL));
		assert_true((o->opens == BT_ACT_NONE) == (o->open == NULL));
		for (j = 0; j < i; j++) {
			assert_string_not_equal(o->name, all[j]->name);
			assert_true(o->opens == BT_ACT_NONE || o->opens != all[j]->opens);
		}
		for (k = o->keys; k != NULL && k->action != BT_ACT_NONE; k++) {
			assert_non_null(k->elsewhere);
			for (j = 0; j < BT_ARRAY_SIZE(all); j++)
				assert_int_not_equal(all[j]->opens, k->action);
		}
	}
}

static int
setup(void **state)
{
	char msg[256];
	char *specs[] = { (char *)"work_a+0x24=1000", (char *)"work_a+0x2b=500",
		(char *)"work_a+0x20=30", (char *)"work_b+0x24=300",
		(char *)"main+0x10=2", (char *)"kernel=5" };

	/* the committed binary: the offsets below are its instructions */
	if (test_tmpdir(dir) || realpath("tests/fixtures/prebuilt/split", bin) == NULL)
		return -1;
	snprintf(rec, sizeof(rec), "%s/split.data", dir);
	if (synth_recording(rec, bin, specs, 6, msg, sizeof(msg)) != 0) {
		fprintf(stderr, "%s\n", msg);
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
		cmocka_unit_test(test_functions_view),
		cmocka_unit_test(test_annotate_view),
		cmocka_unit_test(test_open_hot_back_quit),
		cmocka_unit_test(test_reopen_kept),
		cmocka_unit_test(test_follow_jump_and_back),
		cmocka_unit_test(test_call_opens_callee),
		cmocka_unit_test(test_toggles_keep_cursor),
		cmocka_unit_test(test_source_view_and_back),
		cmocka_unit_test(test_source_round_trips_bounded),
		cmocka_unit_test(test_zoom_and_annotate_keys),
		cmocka_unit_test(test_prompts_and_title),
		cmocka_unit_test(test_width_and_columns),
		cmocka_unit_test(test_window_keeps_place),
		cmocka_unit_test(test_search_move_page),
		cmocka_unit_test(test_regex_search),
		cmocka_unit_test(test_filter_and_export_name),
		cmocka_unit_test(test_timeline_window),
		cmocka_unit_test(test_lint_and_events),
		cmocka_unit_test(test_lint_timeline_export),
		cmocka_unit_test(test_region_share),
		cmocka_unit_test(test_every_action_everywhere),
		cmocka_unit_test(test_every_screen_ops),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
