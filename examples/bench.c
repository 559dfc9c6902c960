/*
 * The bundled example for `make demo`: a microbenchmark in the style the
 * seeds of this project warn about. Three kernels are timed with a harness
 * that reads the clock around every call:
 *
 *   modsum    sums i % d: a division per element, the classic skid case
 *   popcount  counts bits with a loop the compiler may turn into popcnt
 *   noop      "measures" a computation whose result nobody uses
 *
 * Build: cc -O2 -g -o bench bench.c    Run: benchtui ./bench
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N 4096

static uint64_t data[N];
static volatile uint64_t sink;

static double
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

__attribute__((noinline)) static uint64_t
modsum(const uint64_t *v, size_t n, uint64_t d)
{
	uint64_t s = 0;

	for (size_t i = 0; i < n; i++)
		s += v[i] % d;
	return s;
}

__attribute__((noinline)) static uint64_t
popcount(const uint64_t *v, size_t n)
{
	uint64_t c = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t x = v[i];
		while (x) {
			x &= x - 1;
			c++;
		}
	}
	return c;
}

__attribute__((noinline)) static void
noop(const uint64_t *v, size_t n)
{
	uint64_t s = 0;

	for (size_t i = 0; i < n; i++)
		s += v[i] * 3;
	(void)s;	/* never used: the loop is gone, the timing is of nothing */
}

int
main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 5000;
	double t, tmod = 0, tpop = 0, tnoop = 0;
	uint64_t d = (uint64_t)rounds | 7;

	for (size_t i = 0; i < N; i++)
		data[i] = (uint64_t)rand() << 32 | (uint64_t)rand();
	for (int r = 0; r < rounds; r++) {
		t = now_ns();
		sink += modsum(data, N, d);
		tmod += now_ns() - t;
		t = now_ns();
		sink += popcount(data, N);
		tpop += now_ns() - t;
		t = now_ns();
		noop(data, N);
		tnoop += now_ns() - t;
	}
	printf("modsum   %8.3f ns/element\n", tmod / rounds / N);
	printf("popcount %8.3f ns/element\n", tpop / rounds / N);
	printf("noop     %8.3f ns/element  (too good to be true?)\n", tnoop / rounds / N);
	return 0;
}
