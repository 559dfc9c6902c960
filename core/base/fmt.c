/*
 * Numbers as printf writes them, without printf: a big function's view
 * formats tens of thousands of them, and vsnprintf's "%.2f" (multiple
 * precision arithmetic for every number) was most of its time.
 */
#include <float.h>
#include <math.h>

#include "base.h"

size_t
bt_fmt_u64(char *buf, uint64_t x)
{
	char tmp[20];
	size_t n = 0, i;

	do {
		tmp[n++] = (char)('0' + x % 10);
		x /= 10;
	} while (x);
	for (i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	buf[n] = '\0';
	return n;
}

int
bt_fmt_2f(char *buf, size_t size, double x)
{
#if LDBL_MANT_DIG >= 60
	/*
	 * x * 100 needs 53 + 7 bits: exact in long double, so rintl rounds
	 * the exact value, in the current rounding mode, as printf does
	 * (to nearest, ties to even). Negative zero, NaN, infinities and
	 * big numbers are left to snprintf.
	 */
	if (!signbit(x) && x < 1e15 && size >= 24) {
		uint64_t n = (uint64_t)rintl((long double)x * 100);
		size_t k = bt_fmt_u64(buf, n / 100);

		buf[k++] = '.';
		buf[k++] = (char)('0' + n % 100 / 10);
		buf[k++] = (char)('0' + n % 10);
		buf[k] = '\0';
		return (int)k;
	}
#endif
	return snprintf(buf, size, "%.2f", x);
}
