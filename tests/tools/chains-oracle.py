#!/usr/bin/env python3
"""benchtui's call graph against perf report on the same recording.

    chains-oracle.py JSON CHILDREN FOLDED

JSON: benchtui's export (--format json --top 0); CHILDREN: the output of
`perf report --children --no-inline --stdio -g none --sort dso,sym`;
FOLDED: `perf report --no-children --no-inline --stdio --sort dso,sym
-g folded,0,callee,function,count`. Functions are (module basename,
name); perf's unresolved addresses (0x...) are left out (benchtui names
no frame there). Checks, for user functions:
  - inclusive percent = perf's Children column (both round to 0.01)
  - for a leaf (no callees in benchtui's graph but the kernel), each
    caller's samples = perf's samples whose first user frame is the leaf
    and whose next frame is that caller (or whose first user frame is
    that caller: an LBR call stack's chain starts at the last call's
    target, which is not the leaf after a tail call or a PLT stub)
Prints what it compared; exits 1 on the first disagreement.
"""
import json
import re
import sys


def fail(msg):
    print("chains-oracle: " + msg)
    sys.exit(1)


js = json.load(open(sys.argv[1]))
funcs = {(f["module"].rsplit("/", 1)[-1], f["name"]): f for f in js["functions"]}

children = {}
for line in open(sys.argv[2], errors="replace"):
    m = re.match(r"^\s+([\d.]+)%\s+([\d.]+)%\s+(\S+)\s+\[\.\]\s+(.*?)\s*$", line)
    if m and not m.group(4).startswith("0x"):
        children[(m.group(3), m.group(4))] = float(m.group(1))
if not children:
    fail("no user functions in perf report --children")
n = 0
unnamed = []
for name, pct in children.items():
    f = funcs.get(name)
    if f is None and pct < 0.5:
        # perf names NOTYPE labels (ld.so's _start) that benchtui's
        # symbol index (FUNC symbols, FDEs) does not: listed, not failed
        unnamed.append("%s:%s %.2f%%" % (name[0], name[1], pct))
        continue
    if f is None:
        fail("perf's %s (%.2f%% children) is not in benchtui's table" % (name, pct))
    if abs(f["inclusive_percent"] - pct) > 0.011:
        fail("%s: inclusive %.2f%%, perf --children %.2f%%" % (name, f["inclusive_percent"], pct))
    n += 1
print("   inclusive percent equal to perf report --children for %d functions%s" % (
    n, "; not named by benchtui: " + ", ".join(unnamed) if unnamed else ""))
unames = {}
for key in children:
    unames.setdefault(key[1], []).append(key)

# each sample's first user frame and the frame after it: a kernel
# sample's chain goes through kernel frames first (benchtui counts its
# user leaf's caller the same way)
folded = {}
cur = None
for line in open(sys.argv[3], errors="replace"):
    m = re.match(r"^\s+([\d.]+)%\s+(\S+)\s+\[(.)\]\s+(.*?)\s*$", line)
    if m:
        cur = ("k", None) if m.group(3) == "k" else \
            None if m.group(4).startswith("0x") else (m.group(2), m.group(4))
        continue
    m = re.match(r"^(\d+) (.*)$", line.rstrip("\n"))
    if m and cur is not None:
        frames = m.group(2).split(";")
        key, i = cur, 0
        if cur[0] == "k":
            i = next((j for j, x in enumerate(frames) if len(unames.get(x, [])) == 1), None)
            if i is None:
                continue
            key = unames[frames[i]][0]
        # perf's chain starts at the leaf itself (the sample's ip), except
        # with an LBR call stack: there it starts at the target of the last
        # call, which is another function when the leaf was reached by a
        # tail call or through a PLT stub: that function is the caller
        if cur[0] != "k" and frames[i] != cur[1]:
            caller = frames[i]
        else:
            caller = frames[i + 1] if len(frames) > i + 1 else None
        d = folded.setdefault(key, {})
        d[caller] = d.get(caller, 0) + int(m.group(1))
n = 0
total = js["samples"]
for name, callers in folded.items():
    f = funcs.get(name)
    # a leaf: no callees but the kernel's (one [kernel] function, or named
    # from kallsyms)
    if f is None or any(c["module"] != "[kernel]" for c in f["callees"]) or \
            sum(callers.values()) * 100 < total:
        continue	# split only for leaves with 1% of the samples
    ours = {c["name"]: c["samples"] for c in f["callers"]}
    name = "%s:%s" % name
    theirs = {c: k for c, k in callers.items() if c is not None}
    if ours != theirs:
        fail("%s: callers %s, perf %s" % (name, ours, theirs))
    print("   %s: callers %s, as perf" % (name, ", ".join("%s %d" % kv for kv in
          sorted(ours.items(), key=lambda kv: -kv[1]))))
    n += 1
if n == 0:
    fail("no function to compare callers on")
