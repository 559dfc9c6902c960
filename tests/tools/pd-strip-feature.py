#!/usr/bin/env python3
"""pd-strip-feature: a copy of a perf.data file without one feature section,
as an older perf (or another writer) would have written it:

  pd-strip-feature.py IN OUT BIT

The feature bit is cleared and its entry taken out of the section table
(the sections themselves stay where they are); perf and benchtui then read
the file as one that never had the feature. BIT 12 is EVENT_DESC: the
events then have no names in the file, and readers derive them from the
attributes. Exits 1 when the file does not have the feature.
"""
import struct
import sys


def main():
    src, dst, bit = sys.argv[1], sys.argv[2], int(sys.argv[3])
    data = bytearray(open(src, "rb").read())
    if data[:8] != b"PERFILE2":
        raise SystemExit("pd-strip-feature: not a little-endian perf.data file")
    hsize, = struct.unpack_from("<Q", data, 8)
    if hsize == 16:
        raise SystemExit("pd-strip-feature: pipe-mode file (no feature table)")
    doff, dsize = struct.unpack_from("<QQ", data, 40)
    words = list(struct.unpack_from("<4Q", data, 72))
    bits = [b for b in range(256) if words[b // 64] >> (b % 64) & 1]
    if bit not in bits:
        sys.exit(1)
    table = doff + dsize
    entries = [data[table + 16 * i:table + 16 * i + 16] for i in range(len(bits))]
    del entries[bits.index(bit)]
    data[table:table + 16 * len(bits)] = b"".join(entries) + bytes(16)
    words[bit // 64] &= ~(1 << (bit % 64))
    struct.pack_into("<4Q", data, 72, *words)
    open(dst, "wb").write(data)


main()
