/*
 * Rust's libtest (nightly #[bench], and criterion --output-format bencher):
 *	test bench_fib   ... bench:       7,136 ns/iter (+/- 2,000) = 2842 MB/s
 * Newer toolchains print fractions ("57.28 ns/iter (+/- 0.54)").
 */
#include <math.h>
#include <string.h>

#include "harness-int.h"

#define MAX_TOKENS 32

static void
libtest_line(struct bt_harness_parser *p, void *state, const struct hline *l)
{
	struct tok t[MAX_TOKENS];
	const char *at, *name, *rest;
	size_t n, namelen;
	struct bt_bench_result *r;
	double v, e;

	if (l->transient || !hp_starts(l->s, l->len, "test "))
		return;
	at = hp_find(l->s, l->len, " ... bench:");
	if (at == NULL)
		return;
	name = l->s + 5;
	namelen = (size_t)(at - name);
	hp_trim(&name, &namelen);
	rest = at + 11;
	n = hp_tokens(rest, (size_t)(l->s + l->len - rest), t, MAX_TOKENS);
	/* N ns/iter (+/- M) [= X MB/s] */
	if (n < 4 || !hp_eq(&t[1], "ns/iter") || !hp_eq(&t[2], "(+/-") ||
	    t[3].len < 2 || t[3].s[t[3].len - 1] != ')' ||
	    !hp_number(t[0].s, t[0].len, &v) || !hp_number(t[3].s, t[3].len - 1, &e) ||
	    namelen == 0)
		return;
	r = hp_result_new(p, BT_HARNESS_LIBTEST, "console", name, namelen, l);
	{
		const char *sep = hp_find(r->name, namelen, "::");

		if (sep != NULL)
			hp_set_family(p, r, (size_t)(sep - r->name));
	}
	hp_set_num(p, &r->time, v, t[0].s, (size_t)(t[1].s + t[1].len - t[0].s));
	hp_set_num(p, &r->err, e, t[3].s, t[3].len - 1);
	if (n >= 7 && hp_eq(&t[4], "=") && hp_number(t[5].s, t[5].len, &v))
		hp_counter(p, r, t[6].s, t[6].len, t[6].s, t[6].len, v, t[5].s,
		    (size_t)(t[6].s + t[6].len - t[5].s));
}

/*
 * libtest: test::bench::benchmark -> catch_unwind -> Bencher::bench -> the
 * #[bench] fn (often a tail call to Bencher::iter, so absent) ->
 * test::bench::Bencher::iter -> ns_iter_inner -> crate::bench_x::{{closure}}.
 */
static const char *const lt_runner[] = {
	"test::bench::benchmark*",
	"test::bench::Bencher::*",
	NULL,
};
static const char *const lt_pass[] = {
	"test::*", "std::*", "<std::*", "core::*", "<core::*", "alloc::*", "<alloc::*",
	NULL,
};

static const struct bt_harness_frames libtest_frames = {
	.harness = BT_HARNESS_LIBTEST,
	.runner = lt_runner,
	.pass = lt_pass,
	.pass_modules = hp_system_modules,
	.entry = "crate::bench_x or crate::bench_x::{{closure}}",
};

const struct harness_ops harness_libtest = {
	.harness = BT_HARNESS_LIBTEST,
	.name = "libtest",
	.also = BT_HARNESS_CRITERION,
	.line = libtest_line,
	.frames = &libtest_frames,
};
