#!/usr/bin/env python3
"""JIT code against perf's own attribution (DESIGN.md section 9: "JIT names
and code": perf after perf inject --jit on the same run).

usage: jit-agree.py BEFORE.txt AFTER.txt BENCHTUI.json

BEFORE.txt and AFTER.txt are `perf script -F ip,sym,dso` of the recording
and of its `perf inject --jit` output: the same samples in the same order.
A sample that perf saw in anonymous memory (//anon, [unknown], or the
/tmp/perf-PID.map perf names anonymous memory of a JIT process after) and
that inject put in a jitted-PID-N.so is JIT code; perf's (name, address)
of each such sample is counted. benchtui's export (--all) gives the
samples of every instruction of every function of module [jit], under its
name (without the "(loaded at ...)" that tells same-named versions apart).
Both counts must be equal, address by address, but for one documented
difference: a sample that perf leaves in anonymous memory because it came
before its code's JIT_CODE_LOAD record (HotSpot posts CompiledMethodLoad
from its service thread, after the code may have run) is given by
benchtui to the earliest load after it (docs/jit.md): benchtui may count
more at an address only by such samples of perf's at that same address.
Prints one summary line; exits 1 with the differences.
"""
import bisect
import collections
import json
import re
import sys

ANON = re.compile(r"^\((//anon|\[unknown\]|/tmp/perf-\d+\.map|\[anon.*\])\)$")
JITTED = re.compile(r"/jitted-\d+-\d+\.so\)$")
SUFFIX = re.compile(r" \((loaded (at|[0-9.]+ s before)|version \d+ at) [^)]*\)$")


def perf_lines(path):
    out = []
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip():
                continue
            m = re.match(r"^\s*([0-9a-f]+)\s+(.*?)\s+(\(.*\))$", line)
            if m is None:
                m2 = re.match(r"^\s*([0-9a-f]+)\s+(\(.*\))$", line)
                if m2 is None:
                    out.append((None, "", ""))
                    continue
                out.append((int(m2.group(1), 16), "", m2.group(2)))
                continue
            out.append((int(m.group(1), 16), m.group(2), m.group(3)))
    return out


def main():
    before = perf_lines(sys.argv[1])
    after = perf_lines(sys.argv[2])
    if len(before) != len(after):
        print("perf script gave %d samples before inject, %d after" %
              (len(before), len(after)))
        return 1
    perf = collections.Counter()
    left = collections.Counter()	# anonymous samples inject mapped to nothing
    for b, a in zip(before, after):
        if b[0] is None or b[0] != a[0]:
            print("sample order differs after inject: %r / %r" % (b, a))
            return 1
        if ANON.match(b[2]) and JITTED.search(a[2]):
            name = a[1]
            name = re.sub(r"\+0x[0-9a-f]+$", "", name)
            perf[(name, a[0])] += 1
        elif ANON.match(b[2]) and ANON.match(a[2]):
            left[a[0]] += 1
    with open(sys.argv[3]) as f:
        d = json.load(f)
    bt = collections.Counter()
    insns = collections.defaultdict(list)
    nfuncs = 0
    for ann in d["annotations"]:
        if ann["module"] != "[jit]":
            continue
        nfuncs += 1
        name = SUFFIX.sub("", ann["function"])
        for r in ann["rows"]:
            if r["kind"] != "insn":
                continue
            insns[name].append(int(r["address"], 16))
            if r["samples"]:
                bt[(name, int(r["address"], 16))] += r["samples"]
    # a sample between two instruction starts (code decoded out of step
    # with the runtime's, e.g. data in HotSpot's interpreter) counts for
    # the instruction it is in, in benchtui's annotation and here
    inside = 0
    for name in insns:
        insns[name].sort()
    moved = collections.Counter()
    for (name, ip), n in perf.items():
        a = insns.get(name)
        if not a:
            moved[(name, ip)] += n
            continue
        i = bisect.bisect_right(a, ip) - 1
        if i >= 0 and a[i] != ip:
            inside += n
            moved[(name, a[i])] += n
        else:
            moved[(name, ip)] += n
    perf = moved
    tb, tp = sum(bt.values()), sum(perf.values())
    diff = []
    early = 0
    for k in sorted(set(perf) | set(bt), key=lambda k: (k[0], k[1])):
        p, b = perf.get(k, 0), bt.get(k, 0)
        if p == b:
            continue
        if p < b <= p + left.get(k[1], 0):
            early += b - p
            left[k[1]] -= b - p
            continue
        diff.append((k, p, b))
    print("perf: %d JIT samples at %d addresses in %d functions; "
          "benchtui: %d samples at %d addresses in %d [jit] functions; "
          "%d between instruction starts; %d early samples perf leaves "
          "anonymous; %d addresses differ" %
          (tp, len(perf), len({k[0] for k in perf}), tb, len(bt), nfuncs,
           inside, early, len(diff)))
    for k, p, b in diff[:15]:
        print("  %s @ 0x%x: perf %d, benchtui %d" % (k[0], k[1], p, b))
    return 1 if diff or tp == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
