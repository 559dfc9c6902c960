#!/usr/bin/env python3
"""Oracle of tests/test-jit-depth.sh: V8's builtin tables read from a live node.

  v8-table.py NODE PID EXPORT...

PID is a node process of the binary NODE (running; gdb attaches to it for
a moment). gdb calls v8::Isolate::GetCurrent() (node's exported symbol)
and dumps the start of the isolate: IsolateData, whose root register r13
is isolate + 128 (kRootRegisterBias). The tables' entries are addresses of
node's embedded builtins (in node's text or V8's copy of it in its code
range: both file mappings of NODE), named by NODE's Builtins_ symbols.
Checks:
  - the tier-0 entry table (r13 - 0x38, 7 entries) holds the first 7
    Builtins_ symbols in address order, and a run of slots somewhere after
    it holds every Builtins_ symbol in address order (the full table: the
    builtin id is the symbol's rank);
  - every "call/jmp *DISP(%r13)" of a [jit] annotation of every EXPORT that
    benchtui names <Builtins_X>: the live slot at r13 + DISP holds X; and
    every such call whose DISP is a slot of either table is named.
Prints one line of counts; exits 1 on the first mismatch, 2 when there is
no named call to check, 3 when gdb could not read the isolate.
"""
import json
import os
import re
import struct
import subprocess
import sys
import tempfile


def main():
    node, pid, exports = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    syms = []
    for line in subprocess.run(['nm', '-n', node], capture_output=True, text=True).stdout.splitlines():
        f = line.split()
        if len(f) == 3 and f[2].startswith('Builtins_'):
            syms.append((int(f[0], 16), f[2]))
    by_addr = dict(syms)
    rank = {n: i for i, (a, n) in enumerate(syms)}
    # node's PT_LOAD segments: file offset -> link address
    segs = []
    for line in subprocess.run(['readelf', '-lW', node], capture_output=True, text=True).stdout.splitlines():
        f = line.split()
        if f and f[0] == 'LOAD':
            segs.append((int(f[1], 16), int(f[2], 16), int(f[4], 16)))
    real = os.path.realpath(node)
    maps = []
    for line in open('/proc/%d/maps' % pid):
        f = line.split()
        if len(f) >= 6 and os.path.realpath(f[5]) == real:
            lo, hi = (int(x, 16) for x in f[0].split('-'))
            maps.append((lo, hi, int(f[2], 16)))

    def name(v):
        for lo, hi, off in maps:
            if lo <= v < hi:
                fo = v - lo + off
                for so, va, fs in segs:
                    if so <= fo < so + fs:
                        return by_addr.get(fo - so + va)
        return None

    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, 'iso.bin')
        r = subprocess.run(['gdb', '-nx', '-batch', '-p', str(pid),
                            '-ex', "set $iso = (char *)'v8::Isolate::GetCurrent'()",
                            '-ex', 'printf "isolate %p\\n", $iso',
                            '-ex', 'dump binary memory %s $iso $iso+0x10000' % out],
                           capture_output=True, text=True, timeout=120)
        m = re.search(r'isolate (0x[0-9a-f]+)', r.stdout)
        if not m or not os.path.exists(out) or int(m.group(1), 16) == 0:
            print('gdb could not read the isolate: %s' % (r.stdout + r.stderr)[-300:])
            sys.exit(3)
        mem = open(out, 'rb').read()
    bias = 128

    def slot(disp):
        o = bias + disp
        if o < 0 or o + 8 > len(mem):
            return None
        return struct.unpack_from('<Q', mem, o)[0]

    tier0 = [name(slot(-0x38 + 8 * i)) for i in range(7)]
    if tier0 != [n for a, n in syms[:7]]:
        print('tier-0 table at r13-0x38 holds %s, not the first 7 builtins %s' % (tier0, [n for a, n in syms[:7]]))
        sys.exit(1)
    full = None
    for o in range(0, len(mem) - 8 * len(syms) + 1, 8):
        if name(struct.unpack_from('<Q', mem, o)[0]) != syms[0][1]:
            continue
        if all(name(v) == syms[i][1] for i, v in enumerate(struct.unpack_from('<%dQ' % len(syms), mem, o))):
            full = o - bias
            break
    if full is None:
        print('no run of %d slots holds the Builtins_ symbols in address order' % len(syms))
        sys.exit(1)

    def in_tables(disp):
        return disp % 8 == 0 and (-0x38 <= disp < 0 or full <= disp < full + 8 * len(syms))

    checked, names = 0, set()
    for e in exports:
        for a in json.load(open(e))['annotations']:
            if a['module'] != '[jit]':
                continue
            for r in a['rows']:
                if r['kind'] != 'insn':
                    continue
                m = re.match(r'(call|jmp)\s+\*(-?0x[0-9a-f]+)\(%r13\)$', r['text'])
                if not m:
                    continue
                disp = int(m.group(2), 16)
                live = name(slot(disp)) if in_tables(disp) else None
                got = r.get('target_name')
                if got is None and live is not None:
                    print('%s: %s at %s not named; the live slot holds %s' % (a['function'], r['text'], r['address'], live))
                    sys.exit(1)
                if got is None:
                    continue
                if got != live:
                    print('%s: %s at %s named %s; the live slot r13%+#x holds %s' %
                          (a['function'], r['text'], r['address'], got, disp, live))
                    sys.exit(1)
                checked += 1
                names.add('%s %s' % (m.group(2), got))
    if checked == 0:
        print('no call through r13 named in the exports')
        sys.exit(2)
    print('%d calls through r13 named as the live isolate\'s tables hold them (%s); tier-0 table at r13-0x38, full table at r13%+#x: all %d builtins in node\'s symbol order' %
          (checked, ', '.join(sorted(names)), full, len(syms)))


if __name__ == '__main__':
    main()
