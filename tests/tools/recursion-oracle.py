#!/usr/bin/env python3
"""benchtui's call graph of a recursive program against perf report.

    recursion-oracle.py JSON CHILDREN MODULE FUNC...

JSON: benchtui's export (--format json --top 0) of a recording;
CHILDREN: `perf report --children --no-inline --stdio --sort dso,sym
-g folded,0,callee,function,count` of the same recording: each function
with its Children and Self percents, then the chains that count for it,
each from the function's innermost frame outwards, with their samples
(what -g callee draws as a tree). MODULE: the program's file name; FUNCs:
its functions to check (at least one sample each). For each, numerically:
  - Children = benchtui's inclusive percent, Self = its percent (both
    printed to 0.01)
  - the callers: each chain's second frame (the caller of the innermost
    frame) with its samples = benchtui's callers, samples for samples
    (so a recursive function is its own caller, as in perf)
  - the callees: a FUNC's chains hold every call to it (outwards from its
    innermost frame), so the samples of chains with a call from C to it
    anywhere = C's callee FUNC in benchtui, for C a FUNC or main (each
    pair once per sample: fib -> fib, main -> fib)
Prints what it compared; exits 1 on the first disagreement.
"""
import json
import re
import sys


def fail(msg):
    print("recursion-oracle: " + msg)
    sys.exit(1)


js = json.load(open(sys.argv[1]))
module = sys.argv[3]
want = sys.argv[4:]
ours = {f["name"]: f for f in js["functions"]
        if f["module"].rsplit("/", 1)[-1] == module}

perf = {}
cur = None
for line in open(sys.argv[2], errors="replace"):
    m = re.match(r"^\s+([\d.]+)%\s+([\d.]+)%\s+(\S+)\s+\[(.)\]\s+(.*?)\s*$", line)
    if m:
        cur = None
        if m.group(3) == module:
            cur = perf.setdefault(m.group(5), {
                "children": float(m.group(1)), "self": float(m.group(2)),
                "callers": {}, "samples": 0, "chains": []})
        continue
    m = re.match(r"^(\d+) (.*)$", line.rstrip("\n"))
    if m and cur is not None:
        frames = m.group(2).split(";")
        k = int(m.group(1))
        cur["samples"] += k
        cur["chains"].append((k, frames))
        if len(frames) > 1 and not frames[1].startswith("0x"):
            cur["callers"][frames[1]] = cur["callers"].get(frames[1], 0) + k

for name in want:
    p, f = perf.get(name), ours.get(name)
    if p is None:
        fail("%s: not in perf report --children" % name)
    if f is None:
        fail("%s: not in benchtui's table" % name)
    if abs(f["inclusive_percent"] - p["children"]) > 0.011:
        fail("%s: inclusive %.2f%%, perf Children %.2f%%" % (name, f["inclusive_percent"],
             p["children"]))
    if abs(f["percent"] - p["self"]) > 0.011:
        fail("%s: self %.2f%%, perf Self %.2f%%" % (name, f["percent"], p["self"]))
    mine = {c["name"]: c["samples"] for c in f["callers"]}
    if mine != p["callers"]:
        fail("%s: callers %s, perf %s" % (name, mine, p["callers"]))
    inc = f["inclusive_samples"]
    print("   %s: children %.2f%%, self %.2f%%, callers %s, as perf" % (
        name, p["children"], p["self"], ", ".join(
            "%s %.1f%%" % (c, 100.0 * k / inc) for c, k in
            sorted(mine.items(), key=lambda kv: -kv[1]))))
n = 0
for name in want:
    calls = {}
    for k, frames in perf[name]["chains"]:
        for c in {frames[i + 1] for i in range(len(frames) - 1) if frames[i] == name}:
            calls[c] = calls.get(c, 0) + k
    for c, k in calls.items():
        if c not in want and c != "main":
            continue
        mine = {e["name"]: e["samples"] for e in ours[c]["callees"]}
        if mine.get(name) != k:
            fail("%s -> %s: %s samples, perf's chains %d" % (c, name, mine.get(name), k))
        n += 1
print("   callees: %d calls to %s with perf's samples" % (n, ", ".join(want)))
