/* What bench/'s timing programs share: the clock, and doubles in order. */
#ifndef BENCHTUI_BENCH_CLOCK_H
#define BENCHTUI_BENCH_CLOCK_H

#include <time.h>

/* Seconds of CLOCK_MONOTONIC. */
static inline double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* qsort's comparison of doubles. */
static inline int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

#endif
