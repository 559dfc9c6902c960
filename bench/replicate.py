#!/usr/bin/env python3
"""A perf.data file K times longer, made from a recording (bench/growth.sh):
its samples (and perf's round markers) repeated K times, each copy's times
shifted past the one before, the processes' EXIT records moved after the
last copy. For reading costs at sizes a shared machine cannot record in
reasonable time (10M samples: ~500 CPU seconds of work at 20 kHz); the
tables label such a file as replicated, not recorded.
    replicate.py IN OUT K
One event (attribute) only; perf's header features are copied unchanged
(their sample times and counts are the original's)."""
import struct
import sys

SAMPLE, EXIT, ROUND = 9, 4, 68	# ROUND: perf's FINISHED_ROUND
IDENT, IP, TID, TIME = 1 << 16, 1 << 0, 1 << 1, 1 << 2
ID, CPU, STREAM = 1 << 6, 1 << 7, 1 << 9


def main():
    src, dst, k = sys.argv[1], sys.argv[2], int(sys.argv[3])
    f = open(src, "rb").read()
    if f[:8] != b"PERFILE2":
        sys.exit("replicate: %s: not a perf.data file" % src)
    hsize, attr_size = struct.unpack_from("<QQ", f, 8)
    a_off, a_size, d_off, d_size = struct.unpack_from("<QQQQ", f, 24)
    if a_size != attr_size:
        sys.exit("replicate: more than one event")
    st = struct.unpack_from("<Q", f, a_off + 24)[0]
    # the time's offset in a sample, and from the end of another record
    # (sample_id_all: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER)
    t_sample = 8 + 8 * sum(1 for b in (IDENT, IP, TID) if st & b)
    t_tail = 8 * (1 + sum(1 for b in (ID, STREAM, CPU, IDENT) if st & b))
    if not st & TIME:
        sys.exit("replicate: samples without times")
    recs, at, end = [], d_off, d_off + d_size
    while at < end:
        typ, misc, size = struct.unpack_from("<IHH", f, at)
        if size == 0:
            break
        recs.append((typ, at, size))
        at += size
    # a copy: the samples and round markers, one block whose times are
    # shifted in place (the time's offsets in it kept), written as made:
    # a 100x file (4 GB) is never held whole
    block, offs = bytearray(), []
    for t, o, s in recs:
        if t == SAMPLE:
            offs.append(len(block) + t_sample)
            block += f[o:o + s]
        elif t == ROUND:
            block += f[o:o + s]
    q = struct.Struct("<Q")
    times = [q.unpack_from(block, o)[0] for o in offs]
    span = max(times) - min(times) + 1000000
    exits = [(o, s) for t, o, s in recs if t == EXIT]
    first = sum(s for t, o, s in recs if t != EXIT)
    size = first + (k - 1) * len(block) + sum(s for o, s in exits)
    delta = size - d_size
    # the feature sections follow the data: their table moves by delta
    nfeat = sum(bin(b).count("1") for b in f[72:104])
    tail = bytearray(f[end:])
    for i in range(nfeat):
        o, s = struct.unpack_from("<QQ", tail, 16 * i)
        struct.pack_into("<QQ", tail, 16 * i, o + delta, s)
    head = bytearray(f[:d_off])
    struct.pack_into("<Q", head, 48, size)
    put = q.pack_into
    with open(dst, "wb") as w:
        w.write(head)
        for t, o, s in recs:
            if t != EXIT:
                w.write(f[o:o + s])
        for c in range(1, k):
            d = c * span
            for o, v in zip(offs, times):
                put(block, o, v + d)
            w.write(block)
        for o, s in exits:
            r = bytearray(f[o:o + s])
            for p in (24, s - t_tail):	# the exit's time, its sample_id's
                v = struct.unpack_from("<Q", r, p)[0]
                struct.pack_into("<Q", r, p, v + (k - 1) * span)
            w.write(r)
        w.write(tail)


main()
