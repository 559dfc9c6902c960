#!/usr/bin/env python3
"""pd-auxtrace: put hardware-trace records into a real perf.data recording,
as `perf record -e intel_pt//` (or cs_etm, arm_spe) would have them around
its samples, for the tests of a machine without such a PMU:

  pd-auxtrace.py IN OUT [EVERY]

An AUXTRACE_INFO record (type 1, Intel PT) first, then after every EVERY
records (default 50) an AUXTRACE record followed by its payload (zero
bytes: read as records, they are "a record of size 0") and an AUX record
(with the sample_id trailer of the file's first side-band record). Works on
a file (the data section grows; the feature sections after it move) and on
pipe-mode data. Prints the number of AUXTRACE records and payload bytes.
"""
import struct
import sys

MAGIC = b"PERFILE2"
SAMPLE, AUX = 9, 11
AUXTRACE_INFO, AUXTRACE = 70, 71


def records(data, pos, end, payload_of):
    """(offset, type, size, payload) of each record in data[pos:end]."""
    while pos + 8 <= end:
        typ, _misc, size = struct.unpack_from("<IHH", data, pos)
        if size < 8 or pos + size > end:
            raise SystemExit("pd-auxtrace: bad record at offset %d" % pos)
        payload = payload_of(typ, pos)
        yield pos, typ, size, payload
        pos += size + payload


def trailer_size(attr):
    """Bytes of the sample_id trailer of an attr's side-band records."""
    sample_type, = struct.unpack_from("<Q", attr, 24)
    flags, = struct.unpack_from("<Q", attr, 40)
    if not flags & (1 << 18):  # sample_id_all
        return 0
    bits = (1 << 1, 1 << 2, 1 << 6, 1 << 9, 1 << 7, 1 << 16)  # TID TIME ID STREAM_ID CPU IDENTIFIER
    return 8 * sum(1 for b in bits if sample_type & b)


def main():
    src, dst = sys.argv[1], sys.argv[2]
    every = int(sys.argv[3]) if len(sys.argv) > 3 else 50
    data = open(src, "rb").read()
    if data[:8] != MAGIC:
        raise SystemExit("pd-auxtrace: not a little-endian perf.data file")
    hsize, = struct.unpack_from("<Q", data, 8)
    pipe = hsize == 16

    def payload_of(typ, pos):
        if typ == AUXTRACE:
            return struct.unpack_from("<Q", data, pos + 8)[0]
        if typ == 66:  # HEADER_TRACING_DATA
            return struct.unpack_from("<I", data, pos + 8)[0]
        return 0

    if pipe:
        start, end = 16, len(data)
        attr = None
        for pos, typ, size, _ in records(data, start, end, payload_of):
            if typ == 64:  # HEADER_ATTR
                attr = data[pos + 8:pos + size]
                break
    else:
        aoff, = struct.unpack_from("<Q", data, 24)
        start, dsize = struct.unpack_from("<QQ", data, 40)
        end = start + dsize
        attr = data[aoff:]
    tsize = trailer_size(attr)
    trailer = b"\0" * tsize
    for pos, typ, size, _ in records(data, start, end, payload_of):
        if typ not in (SAMPLE, 64) and typ < 64 and size >= 8 + tsize:
            trailer = data[pos + size - tsize:pos + size]
            break

    out = bytearray()
    info = struct.pack("<II", 1, 0) + b"\0" * 64
    out += struct.pack("<IHH", AUXTRACE_INFO, 0, 8 + len(info)) + info
    n = nbytes = 0
    for k, (pos, typ, size, payload) in enumerate(records(data, start, end, payload_of)):
        out += data[pos:pos + size + payload]
        if (k + 1) % every:
            continue
        n += 1
        length = 64 + 8 * (n % 13)
        nbytes += length
        body = struct.pack("<QQQIIII", length, nbytes - length, n, 0, 0, 0, 0)
        out += struct.pack("<IHH", AUXTRACE, 0, 8 + len(body)) + body
        out += b"\0" * length
        aux = struct.pack("<QQQ", nbytes - length, length, 0) + trailer
        out += struct.pack("<IHH", AUX, 0, 8 + len(aux)) + aux

    if pipe:
        new = data[:start] + out
    else:
        delta = len(out) - dsize
        head = bytearray(data[:start])
        struct.pack_into("<Q", head, 48, len(out))
        rest = bytearray(data[end:])
        bits = int.from_bytes(data[72:104], "little")
        for i in range(bin(bits).count("1")):
            off, = struct.unpack_from("<Q", rest, i * 16)
            if off >= end:
                struct.pack_into("<Q", rest, i * 16, off + delta)
        new = bytes(head) + bytes(out) + bytes(rest)
    open(dst, "wb").write(new)
    print(n, nbytes)


main()
