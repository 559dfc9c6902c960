#!/usr/bin/env python3
"""pd-fp-only: a copy of a perf.data file whose samples carry no user stack,
so that perf reads their frame-pointer chains alone:

  pd-fp-only.py IN OUT

perf script and perf report append a DWARF unwind of the stack copy
(PERF_SAMPLE_REGS_USER + STACK_USER) to the recorded callchain: on
benchtui's hybrid recordings (frame-pointer chain + 512 bytes of stack)
each chain is then the kernel's walk followed by a few frames of perf's
own unwind. Every sample's dyn_size (the stack copy's valid bytes) is set
to 0 in place, nothing else moves: perf then skips its unwind ("nothing
was captured") and prints the kernel's frame-pointer chain as recorded,
the oracle the call-chain tests compare benchtui's chains with.

File-mode, little-endian files whose attributes all have STACK_USER as
their last sample field (benchtui's and perf's --call-graph dwarf ones);
with several attributes, PERF_SAMPLE_IDENTIFIER must be set. Exits 2 with
a message on anything else. Prints the samples changed.
"""
import struct
import sys

PERF_SAMPLE_ID = 1 << 6
PERF_SAMPLE_STACK_USER = 1 << 13
PERF_SAMPLE_IDENTIFIER = 1 << 16
# fields a sample record has after STACK_USER (perf_event.h's order)
AFTER = ((1 << 14) | (1 << 15) | (1 << 17) | (1 << 18) | (1 << 19) |
         (1 << 21) | (1 << 22) | (1 << 23) | (1 << 24) | (1 << 25))


def die(msg):
    sys.stderr.write("pd-fp-only: %s\n" % msg)
    sys.exit(2)


def main():
    src, dst = sys.argv[1], sys.argv[2]
    data = bytearray(open(src, "rb").read())
    if data[:8] != b"PERFILE2":
        die("not a little-endian perf.data file")
    hsize, attr_size = struct.unpack_from("<QQ", data, 8)
    if hsize == 16:
        die("pipe-mode file")
    aoff, asize, doff, dsize = struct.unpack_from("<QQQQ", data, 24)
    types = {}
    for i in range(asize // attr_size):
        a = aoff + i * attr_size
        st, = struct.unpack_from("<Q", data, a + 24)
        ids_off, ids_size = struct.unpack_from("<QQ", data, a + attr_size - 16)
        for k in range(ids_size // 8):
            types[struct.unpack_from("<Q", data, ids_off + 8 * k)[0]] = st
        types.setdefault(None, st)
    sts = set(types.values())
    if len(sts) > 1 and not all(st & PERF_SAMPLE_IDENTIFIER for st in sts):
        die("several attributes without PERF_SAMPLE_IDENTIFIER")
    if any(st & AFTER for st in sts):
        die("a sample field after STACK_USER")
    pos, end, changed = doff, doff + dsize, 0
    while pos + 8 <= end:
        typ, misc, size = struct.unpack_from("<IHH", data, pos)
        if size < 8:
            die("record of size %d at %d" % (size, pos))
        if typ == 9:	# PERF_RECORD_SAMPLE
            st = types[None]
            if len(sts) > 1:
                st = types.get(struct.unpack_from("<Q", data, pos + 8)[0], st)
            # the last word is dyn_size when the copy is not empty
            if st & PERF_SAMPLE_STACK_USER and size >= 24:
                struct.pack_into("<Q", data, pos + size - 8, 0)
                changed += 1
        pos += size
    open(dst, "wb").write(data)
    print(changed)


main()
