#!/usr/bin/env python3
"""fp-agree: benchtui's call chains against perf's frame-pointer chains of
the same samples.

    fp-agree.py PERF BENCHTUI [--root NAME]... [--outermost NAME]...
                [--through NAME]... [--min PCT] [--jit]

PERF: `perf script -F tid,time,ip,sym,dso --ns --no-inline` of the
recording's copy made by pd-fp-only.py (perf then prints the kernel's
frame-pointer chain of each sample, nothing of its own unwind), after
`perf inject --jit` where the recording has jitdumps (a perf map perf
reads from /tmp itself); BENCHTUI:
`unwind-dump REC --frames` of the recording itself. Samples are joined by
thread and time. Per sample, perf's user frames P and benchtui's B
(function names, leaf first; perf's jitted-PID-N.so and perf-PID.map
frames and benchtui's [jit] ones by the runtime's name):

  - whole: B ends where P ends (the last named frame; trailing [unknown]
    junk of either is left out, and both are cut after their first
    --outermost frame: a thread's first function, whose frame pointer
    the kernel's walk follows into stale memory, as Go's runtime.mstart)
  - same: P's frames are B's in order, B adding only frames the kernel's
    walk skips (a frameless leaf's caller found by CFI)

Prints the counts, the share of whole chains overall and among samples
whose perf chain ends in each --root NAME (and, of those, passes through
each --through NAME above its leaf), and, with --jit, the share a reader
that names no JIT frame but the leaf would get ("before": each chain
through a JIT frame above its leaf cut there). Exits 1 when, among the
samples rooted in a --root (or rooted and through a --through), fewer
than --min percent (default 99) are whole in benchtui, or no such sample
was found.
"""
import re
import sys


def plain(sym):
    """A C++ name without its parameter lists and clone suffixes, cut
    before a lambda: perf's short names and benchtui's differ there."""
    sym = re.sub(r" \[clone [^]]*\]", "", sym)
    prev = None
    while prev != sym:
        prev, sym = sym, re.sub(r"\([^()]*\)", "", sym)
    return sym.split("::{lambda", 1)[0]


def v8_builtin(sym):
    """V8's jitdump also describes its builtins embedded in node's own text:
    perf names them by the dump (Builtin:X, BytecodeHandler:X), benchtui
    by node's ELF symbols (Builtins_X, Builtins_XHandler): one name."""
    m = re.match(r"^\[jit\] (Builtin|BytecodeHandler):(\S+)$", sym)
    if m:
        return "Builtins_" + m.group(2) + ("Handler" if m.group(1) != "Builtin" else "")
    return sym


def perf_chains(path):
    out = {}
    key, frames = None, []
    for line in open(path, errors="replace"):
        if not line.startswith("\t") and line.strip():
            if key is not None:
                out[key] = frames
            m = re.match(r"^\s*(?:\S.*?\s+)?(\d+)\s+(\d+\.\d+):\s*$", line)
            key = (m.group(1), m.group(2)) if m else None
            frames = []
            continue
        m = re.match(r"^\t\s*([0-9a-f]+)\s+(.*)\s+\(([^()]*)\)\s*$", line)
        if key is None or not m:
            continue
        addr, sym, dso = m.groups()
        if len(addr) == 16 and addr.startswith("ffff"):
            continue	# the kernel's part
        sym = re.sub(r"\+0x[0-9a-f]+$", "", sym)
        if re.search(r"/jitted-\d+-\d+\.so$|^/tmp/perf-\d+\.map$", dso):
            sym = "[jit] " + sym
        frames.append(plain(v8_builtin(sym)))
    if key is not None:
        out[key] = frames
    return out


def our_chains(path):
    out = {}
    for line in open(path, errors="replace"):
        f = line.rstrip("\n").split("\t")
        if len(f) >= 2:
            out[(f[0], f[1])] = [plain(v8_builtin(re.sub(r" \((loaded|version) [^)]*\)$", "", x)))
                                 for x in f[2:]]
    return out


OUTERMOST = set()


def named(c):
    c = list(c)
    for k, x in enumerate(c):
        if x in OUTERMOST:
            c = c[:k + 1]
            break
    while c and c[-1].startswith("[unknown]"):
        c.pop()
    return c


def subseq(p, b):
    it = iter(b)
    return all(any(x == y for y in it) for x in p)


def main():
    args = sys.argv[1:]
    roots, through, minpct, jit = [], [], 99.0, False
    pos = []
    i = 0
    while i < len(args):
        if args[i] == "--root":
            roots.append(args[i + 1])
            i += 2
        elif args[i] == "--through":
            through.append(args[i + 1])
            i += 2
        elif args[i] == "--outermost":
            OUTERMOST.add(args[i + 1])
            i += 2
        elif args[i] == "--min":
            minpct = float(args[i + 1])
            i += 2
        elif args[i] == "--jit":
            jit = True
            i += 1
        else:
            pos.append(args[i])
            i += 1
    perf, ours = perf_chains(pos[0]), our_chains(pos[1])
    n = whole = same = before = 0
    rooted = {r: [0, 0, 0] for r in roots}	# samples, whole here, whole before
    thru = {t: [0, 0] for t in through}	# rooted samples through it, whole
    for key, p in perf.items():
        b = ours.get(key)
        if b is None or not p:
            continue
        n += 1
        pn, bn = named(p), named(b)
        w = bool(pn) and bool(bn) and pn[-1] == bn[-1]
        whole += w
        same += w and subseq(pn, bn)
        # a chain cut at its first JIT frame above the leaf
        cut = next((k for k in range(1, len(pn)) if pn[k].startswith("[jit] ")), None)
        wb = w and cut is None
        before += wb
        if pn and pn[-1] in rooted:
            rooted[pn[-1]][0] += 1
            rooted[pn[-1]][1] += w
            rooted[pn[-1]][2] += wb
            for t in through:
                if t in pn[1:]:
                    thru[t][0] += 1
                    thru[t][1] += w
    if n == 0:
        print("fp-agree: no sample in both")
        sys.exit(1)
    pct = lambda a, b: 100.0 * a / b if b else 0.0
    line = "%d samples: %.1f%% whole (perf's root), %.1f%% with perf's frames in order" % (
        n, pct(whole, n), pct(same, n))
    if jit:
        line += "; naming no JIT frame above the leaf: %.1f%% whole" % pct(before, n)
    print(line)
    bad = not any(v[0] for v in rooted.values()) if roots else False
    for r, (k, w, wb) in rooted.items():
        print("  rooted in %s by perf: %d samples, %.1f%% also in benchtui%s" % (
            r, k, pct(w, k), " (%.1f%% naming no JIT frame above the leaf)" % pct(wb, k) if jit else ""))
        if k and pct(w, k) < minpct:
            bad = True
    for t, (k, w) in thru.items():
        print("  rooted and through %s by perf: %d samples, %.1f%% whole in benchtui" % (
            t, k, pct(w, k)))
        if k == 0 or pct(w, k) < minpct:
            bad = True
    # the first few disagreements, for the log
    shown = 0
    for key, p in perf.items():
        b = ours.get(key)
        if b is None or not p or shown >= 3:
            continue
        pn, bn = named(p), named(b)
        if roots and (not pn or pn[-1] not in rooted):
            continue
        if not (pn and bn and pn[-1] == bn[-1]):
            print("  %s %s: perf %s | benchtui %s" % (key[0], key[1],
                  " <- ".join(pn[-6:]), " <- ".join(bn[-6:])))
            shown += 1
    sys.exit(1 if bad else 0)


main()
