/*
 * Unit tests: the branch arrows' lanes (core/view/view-arrows.c) on views
 * made by hand: one arrow per target and kind, nested arrows outward,
 * disjoint ones sharing a lane, folding past the width, the ASCII the
 * text export shows, no cell of the rows overwritten; then random jumps,
 * every arrow's line checked row by row.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "benchtui/view.h"
#include "view/view-int.h"

#define AT 8	/* the lanes' column: after an 8-column number */

/*
 * A view of n instruction rows ("   12.34" then "  insn i"), row i
 * jumping to to[i] (-1: none), a back edge where loop[i]; source rows
 * (a blank of AT + 1 columns, then text) before the rows src[] marks.
 */
static struct bt_view *
make(size_t n, const long *to, const bool *loop, const bool *src, size_t width)
{
	struct bt_view *v = view_new(NULL);
	struct bt_view_opts o;
	long *rowof = calloc(n + 1, sizeof(*rowof));
	size_t i;

	bt_view_opts_init(&o);
	o.width = width;
	for (i = 0; i < n; i++) {
		struct bt_row *r;
		if (src != NULL && src[i]) {
			r = view_add_row(v, BT_ROW_SOURCE);
			view_add_cell(v, view_pad(v, "", AT + 1, false), BT_STYLE_NORMAL);
			view_add_cell(v, bt_strpool_addf(&v->pool, "src.c:%zu  line", i),
			    BT_STYLE_SOURCE);
		}
		rowof[i] = (long)v->rows.n;
		r = view_add_row(v, BT_ROW_INSN);
		r->text = bt_strpool_addf(&v->pool, "insn %zu", i);
		view_add_cell(v, view_pad(v, "12.34", AT, true), BT_STYLE_HOT);
		view_add_cell(v, view_cat(v, "  ", r->text), BT_STYLE_NORMAL);
	}
	for (i = 0; i < n; i++) {
		struct bt_row *r = &v->rows.v[rowof[i]];
		if (to == NULL || to[i] < 0)
			continue;
		r->flags |= BT_ROW_F_JUMP | (loop != NULL && loop[i] ? BT_ROW_F_BACK_EDGE : 0);
		r->target_row = rowof[to[i]];
	}
	free(rowof);
	view_seal(v);
	view_arrows_add(v, &o, AT, 1, AT + 2);
	return v;
}

/* Row i's cells as one line, its lanes cell left out when lanes is false. */
static const char *
line(const struct bt_view *v, size_t i, bool lanes)
{
	static char buf[512];
	const struct bt_row *r = bt_view_row(v, i);
	size_t k, n = 0;

	buf[0] = '\0';
	for (k = 0; k < r->ncells; k++)
		if (lanes || r->cells[k].style != BT_STYLE_ARROW)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s", r->cells[k].text);
	return buf;
}

/* The lanes cell of row i (after its lead space). */
static const char *
lanes(const struct bt_view *v, size_t i)
{
	const struct bt_row *r = bt_view_row(v, i);
	size_t k;

	for (k = 0; k < r->ncells; k++)
		if (r->cells[k].style == BT_STYLE_ARROW)
			return r->cells[k].text + 1;
	return NULL;
}

/* A loop: its target's top corner and head, its line, its jump's corner. */
static void
test_loop_ascii(void **state)
{
	long to[] = { -1, -1, -1, 1, -1 };
	bool loop[] = { false, false, false, true, false };
	struct bt_view *v = make(5, to, loop, NULL, 0);
	const struct bt_arrow *a;

	(void)state;
	assert_int_equal(bt_view_arrows(v, &a), 1);
	assert_true(a[0].flags & BT_ARROW_LOOP);
	assert_int_equal(a[0].target, 1);
	assert_int_equal(a[0].first, 1);
	assert_int_equal(a[0].last, 3);
	assert_int_equal(bt_view_row_arrow(v, 3), 0);
	assert_int_equal(bt_view_row_arrow(v, 1), -1);
	assert_string_equal(lanes(v, 0), "  ");
	assert_string_equal(lanes(v, 1), "/>");
	assert_string_equal(lanes(v, 2), "| ");
	assert_string_equal(lanes(v, 3), "\\-");
	assert_string_equal(lanes(v, 4), "  ");
	assert_int_equal(bt_view_arrow_col(v), AT + 1);
	/* the rows' own cells are whole, the lanes between them */
	assert_string_equal(line(v, 3, true), "   12.34 \\-  insn 3");
	assert_string_equal(line(v, 3, false), "   12.34  insn 3");
	bt_view_free(v);
}

/*
 * Nested arrows nest outward; disjoint ones share the innermost lane;
 * two jumps to one row are one arrow, a loop's and a forward jump's to
 * one row two.
 */
static void
test_packing(void **state)
{
	/* 0 -> 9 around 2 -> 4 and 5 -> 7; 8 -> 9 too */
	long to[12] = { 9, -1, 4, -1, -1, 7, -1, -1, 9, -1, -1, 10 };
	bool loop[12] = { [11] = true };
	struct bt_view *v = make(12, to, loop, NULL, 0);
	const struct bt_arrow *a;
	size_t n = bt_view_arrows(v, &a), i;
	long outer = bt_view_row_arrow(v, 0);

	(void)state;
	assert_int_equal(n, 4);
	assert_int_equal(bt_view_row_arrow(v, 8), outer);
	assert_int_equal(a[outer].first, 0);
	assert_int_equal(a[outer].last, 9);
	assert_int_equal(a[bt_view_row_arrow(v, 2)].lane, 0);
	assert_int_equal(a[bt_view_row_arrow(v, 5)].lane, 0);
	assert_int_equal(a[outer].lane, 1);
	/* 11 -> 10, a loop, beside nothing: the innermost lane */
	assert_true(a[bt_view_row_arrow(v, 11)].flags & BT_ARROW_LOOP);
	assert_int_equal(a[bt_view_row_arrow(v, 11)].lane, 0);
	for (i = 0; i < n; i++)
		assert_false(a[i].flags & BT_ARROW_FOLDED);
	assert_string_equal(lanes(v, 0), "/--");
	assert_string_equal(lanes(v, 2), "|/-");
	assert_string_equal(lanes(v, 4), "|\\>");
	assert_string_equal(lanes(v, 8), "+--");
	assert_string_equal(lanes(v, 9), "\\->");
	bt_view_free(v);

	/* a loop's jump and a forward jump to one row: two arrows */
	{
		long t2[] = { 2, -1, -1, -1, 2 };
		bool l2[] = { false, false, false, false, true };
		v = make(5, t2, l2, NULL, 0);
		assert_int_equal(bt_view_arrows(v, &a), 2);
		assert_int_not_equal(a[0].lane, a[1].lane);
		assert_int_not_equal(bt_view_row_arrow(v, 0), bt_view_row_arrow(v, 4));
		bt_view_free(v);
	}
}

/* Past what the width allows, the outer arrows share the outermost lane, marked. */
static void
test_folding(void **state)
{
	/* ten nested arrows: i -> 19 - i */
	long to[20];
	size_t i, n, folded = 0;
	const struct bt_arrow *a;
	struct bt_view *v, *wide;

	(void)state;
	for (i = 0; i < 20; i++)
		to[i] = i < 10 ? (long)(19 - i) : -1;
	wide = make(20, to, NULL, NULL, 0);
	n = bt_view_arrows(wide, &a);
	assert_int_equal(n, 10);
	for (i = 0; i < n; i++)
		assert_false(a[i].flags & BT_ARROW_FOLDED);
	/* 60 columns: AT + 2 before the text, 46 for it, the rest 3 lanes */
	v = make(20, to, NULL, NULL, 60);
	n = bt_view_arrows(v, &a);
	for (i = 0; i < n; i++) {
		assert_true(a[i].lane < 60 - (AT + 2) - 46 - 1);
		folded += (a[i].flags & BT_ARROW_FOLDED) != 0;
	}
	assert_true(folded > 1);
	assert_int_equal(strlen(lanes(v, 0)), 60 - (AT + 2) - 46 - 1 + 1);
	/* the folded lane's line is dashed in ASCII too */
	assert_int_equal(lanes(v, 8)[0], ':');
	/* and the text of every row whole */
	for (i = 0; i < bt_view_nrows(v); i++)
		assert_string_equal(line(v, i, false), line(wide, i, false));
	bt_view_free(v);
	bt_view_free(wide);
}

/* Source rows between: the lines run through them, their text moved, not cut. */
static void
test_source_rows(void **state)
{
	long to[] = { -1, -1, -1, 0 };
	bool src[] = { true, true, false, true };
	struct bt_view *v = make(4, to, NULL, src, 0);
	size_t i;

	(void)state;
	for (i = 0; i < bt_view_nrows(v); i++) {
		const struct bt_row *r = bt_view_row(v, i);
		if (r->kind == BT_ROW_SOURCE) {
			/* blank, the lanes, the blank's rest, the text */
			assert_int_equal(r->ncells, 4);
			assert_int_equal(strlen(r->cells[0].text), AT);
			assert_string_equal(r->cells[2].text, " ");
		}
	}
	assert_string_equal(lanes(v, 2), "| ");	/* the source row of insn 1 */
	assert_string_equal(line(v, 2, true), "         |  src.c:1  line");
	bt_view_free(v);
}

/* No jump, no lanes: the rows as they were. */
static void
test_no_jumps(void **state)
{
	struct bt_view *v = make(3, NULL, NULL, NULL, 0);
	const struct bt_arrow *a;
	size_t n;

	(void)state;
	assert_int_equal(bt_view_arrows(v, &a), 0);
	assert_null(bt_view_lanes(v, 0, &n));
	assert_int_equal(n, 0);
	assert_int_equal(bt_view_arrow_col(v), -1);
	assert_string_equal(line(v, 1, true), "   12.34  insn 1");
	bt_view_free(v);
}

/*
 * Random jumps: arrows of one lane never share a row unless folded; each
 * arrow's column has a line on every row of it, a corner or tee where
 * it starts and ends, a line across to the head on its jumps' rows and
 * its target's, and the head there.
 */
static void
test_random(void **state)
{
	unsigned seed = 12345;
	int round;

	(void)state;
	for (round = 0; round < 40; round++) {
		size_t n = 30 + (size_t)(round * 7), i, k, nl, na;
		long *to = calloc(n, sizeof(*to));
		bool *loop = calloc(n, sizeof(*loop)), *src = calloc(n, sizeof(*src));
		const struct bt_arrow *a;
		struct bt_view *v;

		for (i = 0; i < n; i++) {
			seed = seed * 1103515245 + 12345;
			to[i] = (seed >> 16) % 4 == 0 ? (long)((seed >> 4) % n) : -1;
			loop[i] = to[i] >= 0 && (size_t)to[i] <= i && (seed & 1);
			src[i] = (seed >> 8) % 3 == 0;
		}
		v = make(n, to, loop, src, round % 3 == 0 ? 0 : round % 3 == 1 ? 60 : 70);
		na = bt_view_arrows(v, &a);
		for (i = 0; i < na; i++)
			for (k = 0; k < na; k++)
				if (i != k && a[i].lane == a[k].lane &&
				    !(a[i].flags & a[k].flags & BT_ARROW_FOLDED))
					assert_true(a[i].last < a[k].first || a[k].last < a[i].first);
		for (i = 0; i < na; i++) {
			long r;
			const struct bt_lane *l = bt_view_lanes(v, 0, &nl);
			size_t c = nl - 2 - (size_t)a[i].lane;
			for (r = a[i].first; r <= a[i].last; r++) {
				l = bt_view_lanes(v, (size_t)r, &nl);
				if (r > a[i].first)
					assert_true(l[c].mask & BT_LANE_UP);
				if (r < a[i].last)
					assert_true(l[c].mask & BT_LANE_DOWN);
				if (r == a[i].target || bt_view_row_arrow(v, (size_t)r) == (long)i) {
					assert_true(l[c].mask & BT_LANE_RIGHT);
					for (k = c + 1; k < nl; k++)
						assert_true(l[k].mask & BT_LANE_LEFT);
				}
				if (r == a[i].target)
					assert_true(l[nl - 1].mask & BT_LANE_HEAD);
			}
		}
		/* every jump's arrow spans it and lands on its target */
		for (i = 0; i < bt_view_nrows(v); i++) {
			const struct bt_row *r = bt_view_row(v, i);
			long x = bt_view_row_arrow(v, i);
			if (r->kind != BT_ROW_INSN || !(r->flags & BT_ROW_F_JUMP)) {
				assert_int_equal(x, -1);
				continue;
			}
			assert_true(x >= 0 && (size_t)x < na);
			assert_int_equal(a[x].target, r->target_row);
			assert_true(a[x].first <= (long)i && a[x].last >= (long)i);
		}
		bt_view_free(v);
		free(to);
		free(loop);
		free(src);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loop_ascii),
		cmocka_unit_test(test_packing),
		cmocka_unit_test(test_folding),
		cmocka_unit_test(test_source_rows),
		cmocka_unit_test(test_no_jumps),
		cmocka_unit_test(test_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
