#!/usr/bin/env python3
"""Do a text export and a JSON export of the same recording say the same?

    export-agree.py TEXT JSON

Both are made from the same views (core/export), so every function row,
finding, annotation, hot region and instruction row of one must be in the
other with the same numbers (the text rounds: percents to 2 decimals,
findings to 1). The text is read by its column headings, which the view
pads exactly as it pads the rows. Prints a summary; exits 1 on the first
disagreement (with both sides).
"""
import json
import re
import sys


def fail(msg):
    print("export-agree: " + msg)
    sys.exit(1)


def columns(header):
    """Column (start, end) by heading: headings are left-aligned to their
    column or right-aligned to its end, as the view pads them. The '#' that
    starts the heading line stands in for the first column's leading space."""
    spans = []
    for m in re.finditer(r"\S+", " " + header[1:]):
        spans.append([m.group(0), m.start(), m.end()])
    return spans


def cut(row, start, end):
    return row[start:end].strip() if start < len(row) else ""


def num(s):
    s = s.strip().rstrip("%")
    return float(s) if s else 0.0


def close(a, b, tol):
    return abs(a - b) <= tol


def main():
    text = open(sys.argv[1], encoding="utf-8", errors="replace").read().split("\n")
    js = json.load(open(sys.argv[2], encoding="utf-8"))

    # header
    samples = None
    for line in text:
        m = re.match(r"# samples: (\d+), lost: (\d+)", line)
        if m:
            samples = int(m.group(1))
            if int(m.group(2)) != js["lost"]:
                fail("lost differs")
            break
    if samples != js["samples"]:
        fail("samples: text %s, json %s" % (samples, js["samples"]))

    def fitted(sym, name):
        """sym is name fitted to its column: lists folded ("<…>"), cuts ("…")."""
        if "\u2026" not in sym:
            return False
        pat = ""
        for k, piece in enumerate(sym.split("<\u2026>")):
            if k:
                pat += "<.*>"
            pat += ".*".join(re.escape(x) for x in piece.split("\u2026"))
        return re.fullmatch(pat, name, re.S) is not None

    # the function table: from "#Percent" to the first empty line
    i = next(k for k, l in enumerate(text) if l.startswith("#Percent") or l.startswith("#Period"))
    head = text[i]
    pos = {h: (s, e) for h, s, e in columns(head)}
    # Module, Symbol, Source are left-aligned: each reaches the next heading
    starts = sorted(pos.values())
    left = {}
    for name in ("Module", "Symbol", "Source"):
        s = pos[name][0]
        nxt = [x for x, _ in starts if x > s]
        left[name] = (s, nxt[0] if nxt else 10**6)
    rows = []
    k = i + 1
    while k < len(text) and text[k].strip():
        rows.append(text[k])
        k += 1
    funcs = js["functions"]
    if len(rows) != len(funcs):
        fail("%d function rows in text, %d in json" % (len(rows), len(funcs)))
    for r, f in zip(rows, funcs):
        # the text shows perf's short form of a C++ name (JSON: short_name)
        sym = cut(r, *left["Symbol"])
        if sym not in (f["name"], f.get("short_name")) and \
                not fitted(sym, f.get("short_name", f["name"])):
            fail("function %r in text, %r in json" % (sym, f["name"]))
        if int(cut(r, pos["Percent"][1], pos["Samples"][1])) != f["samples"]:
            fail("%s: samples differ" % sym)
        if not close(num(cut(r, 0, pos["Percent"][1])), f["percent"], 0.006):
            fail("%s: percent differs: %s vs %s" % (sym, cut(r, 0, pos["Percent"][1]), f["percent"]))
        if "Children" in pos:
            if not close(num(cut(r, pos["Samples"][1], pos["Children"][1])), f["inclusive_percent"], 0.006):
                fail("%s: inclusive percent differs" % sym)
        elif "inclusive_percent" in f:
            fail("%s: inclusive in json, no Children column in text" % sym)
        src = cut(r, *left["Source"])
        want = "%s:%d" % (f["file"].rsplit("/", 1)[-1], f["line"]) if "file" in f else ""
        if src != want:
            fail("%s: source %r in text, %r in json" % (sym, src, want))

    # callers and callees: "## callers and callees", a line per function
    # with call-graph edges, then "  <- " callers and "  -> " callees
    ncg = 0
    if any(f.get("callers") or f.get("callees") for f in funcs):
        k = text.index("## callers and callees") + 1
        # in the table's order: two functions may share a name (call_init
        # is ld.so's and libc's)
        entries = []
        while text[k].strip():
            line = text[k]
            if line.startswith("  <- ") or line.startswith("  -> "):
                m = re.match(r"  (<-|->)\s+([0-9.]+)%\s+(\d+)  (.*)$", line)
                entries[-1][m.group(1)].append((float(m.group(2)), int(m.group(3)), m.group(4)))
            else:
                m = re.match(r"(.*)  ([0-9.]+)%  (\d+)$", line)
                entries.append({"name": m.group(1), "incl": (float(m.group(2)), int(m.group(3))),
                                "<-": [], "->": []})
            k += 1
        withedges = [f for f in funcs if f.get("callers") or f.get("callees")]
        if len(entries) != len(withedges):
            fail("%d functions with callers or callees in text, %d in json" % (len(entries), len(withedges)))
        for f, t in zip(withedges, entries):
            if t["name"] != f["name"]:
                fail("callers and callees: %s in text where json has %s" % (t["name"], f["name"]))
            if t["incl"][1] != f["inclusive_samples"] or not close(t["incl"][0], f["inclusive_percent"], 0.006):
                fail("%s: inclusive differs: %s vs %s" % (f["name"], t["incl"], f["inclusive_samples"]))
            for arrow, key in (("<-", "callers"), ("->", "callees")):
                if len(t[arrow]) != len(f[key]):
                    fail("%s: %d %s in text, %d in json" % (f["name"], len(t[arrow]), key, len(f[key])))
                for (p, n, name), e in zip(t[arrow], f[key]):
                    if name != e["name"] or n != e["samples"] or not close(p, e["percent"], 0.006):
                        fail("%s: %s differ: %s vs %s" % (f["name"], key, (p, n, name), e))
                ncg += len(f[key])

    # findings
    found = [l for l in text if re.match(r"# [a-z-]+( in .*)? \(\d+\.\d%\): ", l)]
    if len(found) != len(js["findings"]):
        fail("%d findings in text, %d in json" % (len(found), len(js["findings"])))
    for l, f in zip(found, js["findings"]):
        # the text rounds the percent to 1 decimal, JSON to 2: compare as numbers
        m = re.match(r"# ([a-z-]+)(?: in (.*))? \((\d+\.\d)%\): (.*)$", l)
        if (m is None or m.group(1) != f["check"] or m.group(2) != f.get("function")
                or not close(float(m.group(3)), f["percent"], 0.056) or m.group(4) != f["message"]):
            fail("finding differs:\n  %s\n  %s" % (l, f))

    # processes: "## processes: ..." when more than one thread (or name)
    # has samples, its rows by the column headings; JSON always has them
    nproc = 0
    procs = js.get("processes", [])
    jrows = []
    for p in procs:
        jrows.append(("p", p["pid"], p["comm"], p["samples"], p["percent"]))
        for t in p["threads"]:
            jrows.append(("t", t["tid"], t["comm"], t["samples"], None))
    sec = [k for k, l in enumerate(text) if l.startswith("## processes: ")]
    if sec:
        k = sec[0] + 1
        end = {c[0]: c[2] for c in columns(text[k])}
        start = {c[0]: c[1] for c in columns(text[k])}
        k += 1
        trows = []
        while k < len(text) and text[k].strip():
            r = text[k]
            pid = cut(r, end["Samples"], end["PID"])
            tid = cut(r, end["PID"], end["TID"])
            comm = r[start["Command"]:start["Time"]].strip() if "Time" in start else r[start["Command"]:].strip()
            trows.append(("p" if pid else "t", int(pid or tid), comm,
                          int(cut(r, end["Percent"], end["Samples"])), num(r[:end["Percent"]])))
            k += 1
        if len(trows) != len(jrows):
            fail("%d process and thread rows in text, %d in json" % (len(trows), len(jrows)))
        for t, j in zip(trows, jrows):
            if t[:4] != j[:4] or (j[4] is not None and not close(t[4], j[4], 0.006)):
                fail("processes differ: %s in text, %s in json" % (t, j))
        nproc = len(procs)
    elif sum(len(p["threads"]) for p in procs) > 1:
        fail("no processes in text, %d threads in json" % sum(len(p["threads"]) for p in procs))

    # annotations: "## " sections in order
    secs = [k for k, l in enumerate(text) if l.startswith("## ") and not l.startswith("## lint")
            and not l.startswith("## callers and callees") and not l.startswith("## processes: ")]
    anns = js["annotations"]
    def titled(line, a):
        return any(line.startswith("## " + n + "  ") for n in (a["function"], a.get("short_name")) if n)
    secs = [k for k in secs if not text[k + 1].startswith("# note: ") or
            any(titled(text[k], a) for a in anns)]
    if len(secs) != len(anns):
        fail("%d annotated functions in text, %d in json" % (len(secs), len(anns)))
    ninsn = 0
    for k, a in zip(secs, anns):
        if not titled(text[k], a):
            fail("annotation %r in text, %r in json" % (text[k], a["function"]))
        k += 1
        regions = []
        while text[k].startswith("# hot region"):
            m = re.match(r"# hot region \d+: ([0-9a-f]+)-([0-9a-f]+): ([0-9.]+)% \(([0-9.]+)% skid-adjusted\), (\d+) samples", text[k])
            regions.append(m.groups())
            k += 1
        if len(regions) != len(a["regions"]):
            fail("%s: %d regions in text, %d in json" % (a["function"], len(regions), len(a["regions"])))
        for t, g in zip(regions, a["regions"]):
            if (int(t[0], 16), int(t[1], 16), int(t[4])) != (int(g["start"], 16), int(g["end"], 16), g["samples"]) \
                    or not close(float(t[2]), g["percent"], 0.006) \
                    or not close(float(t[3]), g["adjusted_percent"], 0.006):
                fail("%s: region differs: %s vs %s" % (a["function"], t, g))
        notes = []
        while text[k].startswith("# note: "):
            notes.append(text[k][8:])
            k += 1
        if notes != a["notes"]:
            fail("%s: notes differ" % a["function"])
        head = text[k]
        cols = columns(head)
        names = [c[0] for c in cols]
        # number columns end where their headings end; the address ends at "Address:"
        end = {c[0]: c[2] for c in cols}
        k += 1
        insns = [r for r in a["rows"] if r["kind"] == "insn"]
        trows = []
        while k < len(text) and text[k].strip():
            trows.append(text[k])
            k += 1
        # instruction rows carry "ADDR:  " after the gutter; the rest are source/inline
        addr_end = end["Address"] if "Address" in end else end["Offset"]
        ins_at = next(c[1] for c in cols if c[0] == "Instruction")
        got = [r for r in trows if len(r) >= addr_end and r[addr_end - 1] == ":"]
        if len(got) != len(insns):
            fail("%s: %d instruction rows in text, %d in json" % (a["function"], len(got), len(insns)))
        for r, j in zip(got, insns):
            addr = int(r[:addr_end].rsplit(None, 1)[-1].rstrip(":"), 16)
            if addr != int(j["address"], 16):
                fail("%s: address %x vs %s" % (a["function"], addr, j["address"]))
            if names[0] == "Percent":
                p = num(r[:end["Percent"]])
                s = r[end["Skid%"]:end["Samples"]].strip()
                if not close(p, j["percent"], 0.006) or int(s or 0) != j["samples"]:
                    fail("%s %s: %s%% %s samples in text, %s%% %s in json" %
                         (a["function"], j["address"], p, s, j["percent"], j["samples"]))
                if not close(num(r[end["Percent"]:end["Skid%"]]), j["adjusted_percent"], 0.006):
                    fail("%s %s: skid-adjusted percent differs" % (a["function"], j["address"]))
            # after the address, the branch arrows' lanes, then the text
            lanes = r[addr_end:ins_at]
            if set(lanes) - set(" |:/\\+->"):
                fail("%s %s: %r in the arrows' lanes" % (a["function"], j["address"], lanes))
            if not r[ins_at:].startswith(j["text"]):
                fail("%s %s: %r vs %r" % (a["function"], j["address"], r, j["text"]))
            # the data type a load or store reaches: its text after the instruction's
            dt = j.get("data_type")
            if (dt is not None) != r.rstrip().endswith("  # " + (dt or {}).get("text", "\0")):
                fail("%s %s: data type %r in json, row %r" % (a["function"], j["address"], dt, r))
            ninsn += 1
    print("agree: %d functions, %d call-graph edges, %d findings, %d annotations, %d instructions%s"
          % (len(funcs), ncg, len(found), len(anns), ninsn,
             ", %d processes" % nproc if nproc else ""))


main()
