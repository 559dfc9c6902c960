#!/usr/bin/env python3
"""Compare go tool pprof's reading of benchtui's pprof export with
benchtui's own JSON export of the same recording (tests/test-pprof.sh).

    pprof-oracle.py top    EXPORT.json PPROF_TOP.txt [BENCH]
    pprof-oracle.py traces EXPORT.json PPROF_TRACES.txt
    pprof-oracle.py disasm EXPORT.json PPROF_DISASM.txt FUNC
    pprof-oracle.py skid   EXPORT.json PPROF_DISASM_NS.txt FUNC  (-sample_index=2 -unit=ns)
    pprof-oracle.py lines  EXPORT.json PPROF_LINES.txt FUNC
    pprof-oracle.py bmf    BMF.json EXPORT.json

Each prints what differs and exits 1, or prints one summary line.
"""
import json
import re
import sys
from collections import Counter, defaultdict


def die(msgs):
    for m in msgs[:20]:
        print("   " + m)
    sys.exit(1 if msgs else 0)


def top_rows(path):
    """flat samples per name from `pprof -top` (samples as the value)."""
    rows, on = {}, False
    for line in open(path, encoding="utf-8", errors="replace"):
        if line.lstrip().startswith("flat"):
            on = True
            continue
        if not on or not line.strip():
            continue
        f = line.split(None, 5)
        if len(f) < 6:
            continue
        rows[f[5].rstrip("\n")] = rows.get(f[5].rstrip("\n"), 0) + int(f[0])
    return rows


def cmd_top(export, top, bench=None):
    d = json.load(open(export))
    funcs = d["functions"]
    if bench is not None:
        funcs = next(b for b in d["benchmarks"] if b["name"] == bench)["functions"]
    want = Counter()
    for f in funcs:
        if f["samples"]:
            want[f["name"]] += f["samples"]
    got = top_rows(top)
    bad = []
    for name, n in want.items():
        if got.get(name, 0) != n:
            bad.append("%s: pprof %s, benchtui %d" % (name, got.get(name), n))
    if bench is None:
        for name, n in got.items():
            if n and name not in want:
                bad.append("%s: pprof %d, not in benchtui's table" % (name, n))
    if not bad:
        print("%d functions, %d samples" % (len(want), sum(want.values())))
    die(bad)


def traces(path):
    """(count, [functions leaf first]) per trace of `pprof -traces`."""
    out, cur, n = [], None, 0
    for line in open(path, encoding="utf-8", errors="replace"):
        if line.startswith("-----------"):
            if cur is not None:
                out.append((n, cur))
            cur, n = [], 0
            continue
        if cur is None or not line.strip() or ":" in line.split()[0] and \
                not re.match(r"^\s+\d", line):
            continue
        m = re.match(r"^\s+(\d+)\s+(.*)$", line)
        if m and not cur:
            n = int(m.group(1))
            cur.append(re.sub(r" \(inline\)$", "", m.group(2).strip()))
        elif cur is not None and line.startswith(" "):
            cur.append(re.sub(r" \(inline\)$", "", line.strip()))
    if cur:
        out.append((n, cur))
    return out


def cmd_traces(export, path):
    d = json.load(open(export))
    inc, callers = Counter(), defaultdict(Counter)
    for n, fr in traces(path):
        for f in set(fr):
            inc[f] += n
        seen = set()
        for k in range(len(fr) - 1):
            if (fr[k], fr[k + 1]) not in seen:
                seen.add((fr[k], fr[k + 1]))
                callers[fr[k]][fr[k + 1]] += n
    # benchtui's functions by name, as pprof shows them (two _start: ld.so's, the program's)
    winc, wcallers = Counter(), defaultdict(Counter)
    most, entries = Counter(), Counter()
    for f in d["functions"]:
        if "inclusive_samples" not in f or f["module"] == "[kernel]":
            continue
        winc[f["name"]] += f["inclusive_samples"]
        most[f["name"]] = max(most[f["name"]], f["inclusive_samples"])
        entries[f["name"]] += 1
        for c in f.get("callers", []):
            wcallers[f["name"]][c["name"]] += c["samples"]
    bad = []
    checked = 0
    for name, n in winc.items():
        # one name for two functions (ld.so's and libc's call_init, or two
        # static call_init of one module): a trace through both counts once
        # by name in pprof, once in each for benchtui
        twice = entries[name] > 1
        if (inc[name] != n) if not twice else not most[name] <= inc[name] <= n:
            bad.append("%s: inclusive pprof %d, benchtui %d" % (name, inc[name], n))
        for c, k in wcallers[name].items():
            if (callers[name][c] != k) if not twice else callers[name][c] > k:
                bad.append("%s <- %s: pprof %d, benchtui %d" % (name, c, callers[name][c], k))
            checked += 1
    if not bad:
        print("%d caller edges, %d traces" % (checked, len(traces(path))))
    die(bad)


def annotation(d, func):
    for a in d["annotations"]:
        if a["function"] == func:
            return a
    raise SystemExit("   no annotation of %s in the JSON export" % func)


def cmd_disasm(export, path, func):
    a = annotation(json.load(open(export)), func)
    want = {int(r["address"], 16): r["samples"] for r in a["rows"]
            if r["kind"] == "insn" and r["samples"]}
    got = {}
    for line in open(path, encoding="utf-8", errors="replace"):
        m = re.match(r"^\s+(\d+|\.)\s+(\d+|\.)\s+([0-9a-f]+):", line)
        if m and m.group(1) != ".":
            got[int(m.group(3), 16)] = int(m.group(1))
    bad = ["%#x: pprof %s, benchtui %s" % (k, got.get(k), want.get(k))
           for k in sorted(set(want) | set(got)) if got.get(k) != want.get(k)]
    if not bad:
        print("%d instructions, %d samples" % (len(want), sum(want.values())))
    die(bad)


def cmd_skid(export, path, func):
    """The third sample type: the annotation's skid-adjusted samples times
    the period (cpu-clock: 1e9 / frequency ns), per instruction."""
    d = json.load(open(export))
    a = annotation(d, func)
    period = 1e9 / d["frequency"]
    want = {int(r["address"], 16): r["adjusted_samples"] for r in a["rows"]
            if r["kind"] == "insn" and r["adjusted_samples"] * period >= 0.5}
    got = {}
    for line in open(path, encoding="utf-8", errors="replace"):
        m = re.match(r"^\s*(\d+)ns\s+(\d+)ns\s+([0-9a-f]+):", line)
        if m:
            got[int(m.group(3), 16)] = int(m.group(1)) / period
    bad = ["%#x: pprof %s, benchtui %s" % (k, got.get(k), want.get(k))
           for k in sorted(set(want) | set(got))
           if abs(got.get(k, 0) - want.get(k, 0)) > 0.006]
    if not bad:
        print("%d instructions credited, %.2f samples" % (len(want), sum(want.values())))
    die(bad)


def cmd_lines(export, path, func):
    """The source view: samples per line of the function's own file, an
    inlined instruction's at its call site there (the outermost frame)."""
    a = annotation(json.load(open(export)), func)
    want = Counter()
    for r in a["rows"]:
        if r["kind"] != "insn" or not r["samples"] or "line" not in r:
            continue
        inl = r.get("inlines")
        if inl:
            want[(inl[0]["call_file"].rsplit("/", 1)[-1], inl[0]["call_line"])] += r["samples"]
        else:
            want[(r["file"].rsplit("/", 1)[-1], r["line"])] += r["samples"]
    got = Counter()
    for name, n in top_rows(path).items():
        m = re.match(r"^(\S+) (\S+):(\d+)$", name)
        if m and m.group(1) == func and n:
            got[(m.group(2).rsplit("/", 1)[-1], int(m.group(3)))] += n
    bad = ["%s:%d: pprof %d, benchtui %d" % (k[0], k[1], got[k], want[k])
           for k in sorted(set(want) | set(got)) if got[k] != want[k]]
    if not bad:
        print("%d lines, %d samples" % (len(want), sum(want.values())))
    die(bad)


def cmd_bmf(bmf, export):
    """Bencher's Metric Format: {benchmark: {measure: {value, lower_value?,
    upper_value?}}}, numbers only, lower <= value <= upper."""
    b = json.load(open(bmf))
    d = json.load(open(export))
    bad = []
    if not isinstance(b, dict):
        die(["the top level is not an object"])
    for name, measures in b.items():
        if not isinstance(measures, dict) or not measures:
            bad.append("%s: no measures" % name)
            continue
        for m, v in measures.items():
            if not re.match(r"^[a-z0-9][a-z0-9-]*$", m):
                bad.append("%s: measure %r is not a slug" % (name, m))
            if not isinstance(v, dict) or set(v) - {"value", "lower_value", "upper_value"} \
                    or not isinstance(v.get("value"), (int, float)):
                bad.append("%s/%s: not a metric: %r" % (name, m, v))
                continue
            lo, hi = v.get("lower_value", v["value"]), v.get("upper_value", v["value"])
            if not (lo <= v["value"] <= hi):
                bad.append("%s/%s: not lower <= value <= upper" % (name, m))
    for bench in d.get("benchmarks", []):
        if "time_per_op_ns" not in bench:
            continue
        lat = b.get(bench["name"], {}).get("latency")
        if lat is None or abs(lat["value"] - bench["time_per_op_ns"]) > 1e-9 * max(1, lat["value"]):
            bad.append("%s: latency %r, JSON %r" % (bench["name"], lat, bench["time_per_op_ns"]))
        elif "ci_ns" in bench and abs(lat["upper_value"] - lat["value"] - bench["ci_ns"]) > 1e-6:
            bad.append("%s: upper_value %r, JSON ± %r" % (bench["name"], lat, bench["ci_ns"]))
    if not bad:
        print("%d benchmarks" % len(b))
    die(bad)


if __name__ == "__main__":
    cmd = sys.argv[1]
    {"top": cmd_top, "traces": cmd_traces, "disasm": cmd_disasm, "skid": cmd_skid,
     "lines": cmd_lines, "bmf": cmd_bmf}[cmd](*sys.argv[2:])
