/*
 * Unit tests: the histogram accumulator (core/profile/hist.c) counts what
 * it is given, whatever the addresses: each (group, module, offset) once
 * in bt_hist_take's list, in that order, with its samples and periods
 * added up, against a plain sort of the same adds. Addresses in more
 * regions than a table takes spill and are added up at the end.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "profile/hist.h"

/* A small generator, the same sequence every run. */
static uint64_t
next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int
entry_cmp(const void *a, const void *b)
{
	const struct bt_hist_entry *x = a, *y = b;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	if (x->module != y->module)
		return x->module < y->module ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* The adds in v (n of them, samples 1 each) as bt_hist_take should list them. */
static size_t
expected(struct bt_hist_entry *v, size_t n)
{
	size_t i, k = 0;

	qsort(v, n, sizeof(*v), entry_cmp);
	for (i = 0; i < n; i++) {
		if (k > 0 && entry_cmp(&v[k - 1], &v[i]) == 0) {
			v[k - 1].samples += v[i].samples;
			v[k - 1].period += v[i].period;
		} else
			v[k++] = v[i];
	}
	return k;
}

/*
 * Add the n adds of v to a new histogram (spilling after regions, 0: the
 * default), and check what it takes.
 */
static void
check(struct bt_hist_entry *v, size_t n, size_t regions)
{
	struct bt_hist *h = bt_hist_new();
	struct bt_hist_entry *got;
	size_t i, m;

	if (regions > 0)
		bt_hist_limit_regions(h, regions);
	for (i = 0; i < n; i++)
		bt_hist_add(h, v[i].group, v[i].module, v[i].off, v[i].period);
	m = bt_hist_take(h, &got);
	n = expected(v, n);
	assert_int_equal(m, n);
	for (i = 0; i < n; i++) {
		assert_int_equal(got[i].group, v[i].group);
		assert_int_equal(got[i].module, v[i].module);
		assert_int_equal(got[i].off, v[i].off);
		assert_int_equal(got[i].samples, v[i].samples);
		assert_int_equal(got[i].period, v[i].period);
	}
	free(got);
	/* taken, it is empty, and counts again */
	assert_int_equal(bt_hist_take(h, &got), 0);
	assert_null(got);
	bt_hist_add(h, 3, 4, 5, 6);
	assert_int_equal(bt_hist_take(h, &got), 1);
	assert_int_equal(got[0].off, 5);
	assert_int_equal(got[0].period, 6);
	free(got);
	bt_hist_free(h);
}

/* Hot addresses and cold ones, in a few modules and groups, far apart. */
static void
test_random(void **state)
{
	size_t i, n = 300000;
	struct bt_hist_entry *v = bt_xcalloc(n, sizeof(*v));
	uint64_t s = 88172645463325252ULL;

	(void)state;
	for (i = 0; i < n; i++) {
		uint64_t r = next(&s);

		v[i].group = (uint32_t)(r % 3);
		v[i].module = (uint32_t)(r >> 8) % 5;
		if (r >> 60 < 4)	/* a quarter: a few hot addresses */
			v[i].off = 0x1000 + (r >> 20) % 16;
		else if (v[i].module == 4)	/* the kernel's, far up */
			v[i].off = 0xffffffff81000000ULL + (r >> 16) % (16 << 20);
		else
			v[i].off = (r >> 16) % 400000;
		v[i].samples = 1;
		v[i].period = (r >> 40) % 1000 + 1;
	}
	check(v, n, 0);
	free(v);
}

/* Dense keys (call chains' ids), and nothing at all. */
static void
test_dense(void **state)
{
	size_t i, n = 100000;
	struct bt_hist_entry *v = bt_xcalloc(n, sizeof(*v));
	struct bt_hist *h = bt_hist_new();
	struct bt_hist_entry *got;

	(void)state;
	for (i = 0; i < n; i++) {
		v[i].off = (i * 7919) % 30000;
		v[i].samples = 1;
		v[i].period = 1;
	}
	check(v, n, 0);
	free(v);
	assert_int_equal(bt_hist_take(h, &got), 0);
	assert_null(got);
	bt_hist_free(h);
}

/*
 * More regions than the table takes: spilled, then added up. The same
 * adds spill after 2, 7 and 64 regions: all of them, the random ones
 * with their several groups and modules, and the one hot region.
 */
static void
test_spill(void **state)
{
	static const size_t limits[] = { 2, 7, 64 };
	size_t i, k, n = 60000;
	struct bt_hist_entry *v = bt_xcalloc(n, sizeof(*v));
	uint64_t s = 2463534242ULL;

	(void)state;
	for (k = 0; k < BT_ARRAY_SIZE(limits); k++) {
		for (i = 0; i < n; i++) {
			uint64_t r = next(&s);

			v[i].group = (uint32_t)(r % 2);
			v[i].module = (uint32_t)(r >> 8) % 3;
			v[i].off = r >> 60 < 4 ? 0x1000 + (r >> 20) % 16 :
			    (r >> 16) % 300000;
			v[i].samples = 1;
			v[i].period = r >> 62 ? 7 : (r >> 40) % 1000 + 1;
		}
		check(v, n, limits[k]);
	}
	free(v);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_dense),
		cmocka_unit_test(test_spill),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
