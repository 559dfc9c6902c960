/*
 * pd-swap: write a byte-swapped copy of a perf.data file (as a machine of
 * the other endianness would have written it), to test the reader's
 * swapped path. Knows the records and features benchtui writes; others are
 * dropped.
 *   pd-swap IN OUT
 */
#include <byteswap.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint8_t *buf;
static size_t len;

static void s16(size_t o) { uint16_t v; memcpy(&v, buf + o, 2); v = bswap_16(v); memcpy(buf + o, &v, 2); }
static void s32(size_t o) { uint32_t v; memcpy(&v, buf + o, 4); v = bswap_32(v); memcpy(buf + o, &v, 4); }
static void s64(size_t o) { uint64_t v; memcpy(&v, buf + o, 8); v = bswap_64(v); memcpy(buf + o, &v, 8); }
static uint32_t g32(size_t o) { uint32_t v; memcpy(&v, buf + o, 4); return v; }
static uint64_t g64(size_t o) { uint64_t v; memcpy(&v, buf + o, 8); return v; }

static uint8_t
rev(uint8_t b)
{
	uint8_t r = 0;
	for (int i = 0; i < 8; i++)
		if (b & (1u << i))
			r |= (uint8_t)(1u << (7 - i));
	return r;
}

/* A perf_event_attr of size sz at o, as perf_event__attr_swap() undoes it. */
static void
swap_attr(size_t o, size_t sz)
{
	size_t i;

	s32(o);
	s32(o + 4);
	for (i = 8; i < 40 && i + 8 <= sz; i += 8)
		s64(o + i);
	for (i = 40; i < 48 && i < sz; i++)
		buf[o + i] = rev(buf[o + i]);
	s32(o + 48);
	s32(o + 52);
	for (i = 56; i < 88 && i + 8 <= sz; i += 8)
		s64(o + i);
	if (sz >= 96) { s32(o + 88); s32(o + 92); }
	if (sz >= 104) s64(o + 96);
	if (sz >= 108) s32(o + 104);
	if (sz >= 110) s16(o + 108);
	if (sz >= 116) s32(o + 112);
	if (sz >= 128) s64(o + 120);
}

/* The sample_id trailer benchtui writes: tid, time, cpu. */
static void
swap_trailer(size_t end)
{
	s32(end - 24);
	s32(end - 20);
	s64(end - 16);
	s32(end - 8);
}

int
main(int argc, char **argv)
{
	FILE *f;
	uint64_t attr_size, attrs_off, attrs_sz, data_off, data_sz, bits[4];
	size_t o, i, nsec = 0;

	if (argc != 3 || (f = fopen(argv[1], "rb")) == NULL)
		return 1;
	fseek(f, 0, SEEK_END);
	len = (size_t)ftell(f);
	rewind(f);
	buf = malloc(len);
	if (fread(buf, 1, len, f) != len)
		return 1;
	fclose(f);
	attr_size = g64(16);
	attrs_off = g64(24);
	attrs_sz = g64(32);
	data_off = g64(40);
	data_sz = g64(48);
	memcpy(bits, buf + 72, 32);

	/* attributes and their id arrays */
	for (o = attrs_off; o < attrs_off + attrs_sz; o += attr_size) {
		uint64_t ids = g64(o + attr_size - 16), n = g64(o + attr_size - 8) / 8;
		/* samples are swapped field by field: IP, TID, TIME, CPU, PERIOD only */
		if (g64(o + 24) != 0x187) {
			fprintf(stderr, "pd-swap: sample_type 0x%llx: only 0x187 "
			    "(benchtui --call-graph none) is known\n",
			    (unsigned long long)g64(o + 24));
			return 1;
		}
		for (i = 0; i < n; i++)
			s64(ids + i * 8);
		swap_attr(o, attr_size - 16);
		s64(o + attr_size - 16);
		s64(o + attr_size - 8);
	}
	/* records */
	for (o = data_off; o < data_off + data_sz;) {
		uint32_t type = g32(o);
		uint16_t misc, size;
		memcpy(&misc, buf + o + 4, 2);
		memcpy(&size, buf + o + 6, 2);
		switch (type) {
		case 9:	/* SAMPLE: ip, pid/tid, time, cpu, period */
			s64(o + 8); s32(o + 16); s32(o + 20); s64(o + 24);
			s32(o + 32); s64(o + 40);
			break;
		case 10:	/* MMAP2 */
			s32(o + 8); s32(o + 12); s64(o + 16); s64(o + 24); s64(o + 32);
			if (!(misc & (1 << 14))) { s32(o + 40); s32(o + 44); s64(o + 48); s64(o + 56); }
			s32(o + 64); s32(o + 68);
			swap_trailer(o + size);
			break;
		case 3:	/* COMM */
			s32(o + 8); s32(o + 12);
			swap_trailer(o + size);
			break;
		case 4: case 7:	/* EXIT, FORK */
			s32(o + 8); s32(o + 12); s32(o + 16); s32(o + 20); s64(o + 24);
			swap_trailer(o + size);
			break;
		case 2:	/* LOST */
			s64(o + 8); s64(o + 16);
			swap_trailer(o + size);
			break;
		case 68:	/* FINISHED_ROUND */
			break;
		default:
			fprintf(stderr, "pd-swap: record type %u not supported\n", type);
			return 2;
		}
		s32(o);
		s16(o + 4);
		s16(o + 6);
		o += size;
	}
	/* features: the section table after the data, then each payload */
	for (i = 0; i < 256; i++) {
		size_t tab, off, end;
		if (!(bits[i / 64] & (1ULL << (i % 64))))
			continue;
		tab = data_off + data_sz + nsec++ * 16;
		off = g64(tab);
		end = off + g64(tab + 8);
		switch (i) {
		case 2:	/* BUILD_ID records */
			while (off + 36 <= end) {
				uint16_t sz;
				memcpy(&sz, buf + off + 6, 2);
				s32(off); s16(off + 4); s16(off + 6); s32(off + 8);
				off += sz;
			}
			break;
		case 3: case 4: case 5: case 6:	/* strings */
			s32(off);
			break;
		case 7:	/* NRCPUS */
			s32(off); s32(off + 4);
			break;
		case 11: {	/* CMDLINE */
			uint32_t n = g32(off), k;
			s32(off);
			off += 4;
			for (k = 0; k < n; k++) {
				uint32_t l = g32(off);
				s32(off);
				off += 4 + l;
			}
			break;
		}
		case 12: {	/* EVENT_DESC */
			uint32_t n = g32(off), asz = g32(off + 4), k;
			s32(off); s32(off + 4);
			off += 8;
			for (k = 0; k < n; k++) {
				uint32_t nids, l, j;
				swap_attr(off, asz);
				off += asz;
				nids = g32(off);
				s32(off);
				off += 4;
				l = g32(off);
				s32(off);
				off += 4 + l;
				for (j = 0; j < nids; j++)
					s64(off + j * 8);
				off += (size_t)nids * 8;
			}
			break;
		}
		case 21:	/* SAMPLE_TIME */
			s64(off); s64(off + 8);
			break;
		}
		s64(tab);
		s64(tab + 8);
	}
	for (i = 8; i < 72; i += 8)	/* size, attr_size, sections, flags */
		s64(i);
	for (i = 72; i < 104; i += 8)
		s64(i);
	s64(0);	/* the magic, read the other way */
	f = fopen(argv[2], "wb");
	if (f == NULL || fwrite(buf, 1, len, f) != len || fclose(f) != 0)
		return 1;
	return 0;
}
