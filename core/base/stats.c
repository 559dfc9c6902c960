/* Statistics every number shown needs: the 95% interval of a share. */
#include <math.h>

#include "base.h"

void
bt_wilson(uint64_t k, uint64_t n, double *lo, double *hi)
{
	const double z = 1.959964;
	double p, d, c, h;

	if (n == 0) {
		*lo = *hi = 0;
		return;
	}
	if (k == 0) {	/* the common case in a big function: no sqrt needed */
		*lo = 0;
		*hi = 100 * z * z / ((double)n + z * z);
		return;
	}
	p = (double)k / (double)n;
	d = 1 + z * z / (double)n;
	c = (p + z * z / (2.0 * (double)n)) / d;
	h = z * sqrt(p * (1 - p) / (double)n + z * z / (4.0 * (double)n * (double)n)) / d;
	*lo = 100 * BT_MAX(0.0, c - h);
	*hi = 100 * BT_MIN(1.0, c + h);
}
