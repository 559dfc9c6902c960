/*
 * What reading DWARF's own encodings takes (dwfl-lineprog.c): LEB128
 * numbers, as libdw reads them (a signed one of at most 9 bytes), and
 * host-order fixed-size integers.
 */
#ifndef BENCHTUI_SYMBOLS_DWARF_READ_H
#define BENCHTUI_SYMBOLS_DWARF_READ_H

#include <stdint.h>
#include <string.h>

/* An unsigned LEB128 at *pp (before end), *pp moved past it: 0, or -1. */
static inline int
uleb(const uint8_t **pp, const uint8_t *end, uint64_t *out)
{
	const uint8_t *p = *pp;
	uint64_t v = 0;
	unsigned shift = 0;

	for (;;) {
		if (p >= end || shift > 63)
			return -1;
		v |= (uint64_t)(*p & 0x7f) << shift;
		shift += 7;
		if (!(*p++ & 0x80))
			break;
	}
	*pp = p;
	*out = v;
	return 0;
}

/* A signed LEB128 the same way. */
static inline int
sleb(const uint8_t **pp, const uint8_t *end, int64_t *out)
{
	const uint8_t *p = *pp;
	uint64_t v = 0;
	unsigned shift = 0;
	uint8_t b;

	do {	/* at most 9 bytes: libdw sign-extends a tenth one otherwise */
		if (p >= end || shift >= 63)
			return -1;
		b = *p++;
		v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	if (shift < 64 && (b & 0x40))
		v |= ~(uint64_t)0 << shift;
	*pp = p;
	*out = (int64_t)v;
	return 0;
}

/* The n-byte (1, 2, 4, 8) host-order integer at p. */
static inline uint64_t
rd(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;
	uint32_t v4;
	uint16_t v2;

	if (n == 8)
		memcpy(&v, p, 8);
	else if (n == 4) {
		memcpy(&v4, p, 4);
		v = v4;
	} else if (n == 2) {
		memcpy(&v2, p, 2);
		v = v2;
	} else
		v = *p;
	return v;
}

#endif
