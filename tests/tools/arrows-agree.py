#!/usr/bin/env python3
"""Do the branch arrows of an annotation's text export connect what objdump says?

arrows-agree.py TEXT JSON OBJDUMP FUNC [SCREEN]

TEXT and JSON are benchtui's exports of one annotation (--stdio -s FUNC),
OBJDUMP is `objdump -d --disassemble=FUNC` of the same binary. Every
branch objdump shows from FUNC into FUNC must be a branch of the JSON
with a lane, and no other; in the text, that lane's column must draw it:
a corner or tee on the branch's row with a line across to the arrowheads'
column, a line down the column through every row (source rows too) to
the row of objdump's target, and there a corner or tee, a line across and
the head ('>'). The instruction text after the lanes is the JSON's, whole.

With SCREEN (tmux capture-pane of the browser, its first body row the
export's first row: E on that screen), each screen row, box-drawing
characters read as ASCII, is the export's row cut at the screen's width.
"""
import json
import re
import sys


def fail(msg):
    print("arrows-agree: " + msg)
    sys.exit(1)


def objdump_branches(path, func):
    out = set()
    for line in open(path, encoding="utf-8", errors="replace"):
        m = re.match(r"\s*([0-9a-f]+):\s+(j\w+)\s+([0-9a-f]+) <%s(\+0x[0-9a-f]+)?>" % re.escape(func), line)
        if m:
            out.add((int(m.group(1), 16), int(m.group(3), 16)))
    return out


def main():
    text = open(sys.argv[1], encoding="utf-8").read().split("\n")
    js = json.load(open(sys.argv[2]))
    func = sys.argv[4]
    if "view" in js:	# E's export of one view
        av = js["view"]
    else:
        ann = [a for a in js["annotations"] if a["function"] == func]
        if not ann:
            fail("no annotation of %s in the JSON" % func)
        av = ann[0]
    rows = av["rows"]
    if "arrow_column" not in av:
        fail("no arrow_column in the JSON")
    k = next(i for i, l in enumerate(text) if l.startswith("## " + func + "  "))
    while not (text[k].startswith("#Percent") or text[k].startswith("# Skid%")):
        k += 1
    head = " " + text[k][1:]
    ins_at = head.index("Instruction")
    trows = []
    k += 1
    while k < len(text) and text[k].strip():
        trows.append(text[k])
        k += 1
    if len(trows) != len(rows):
        fail("%d rows in the text, %d in the JSON" % (len(trows), len(rows)))
    at, width = av["arrow_column"], av["arrow_lanes"] + 1
    lanes = [r[at:at + width].ljust(width) for r in trows]
    hc = width - 1
    row_of = {int(r["address"], 16): i for i, r in enumerate(rows) if r["kind"] == "insn"}

    want = objdump_branches(sys.argv[3], func)
    got = {(int(r["address"], 16), int(r["target"], 16)) for r in rows if "lane" in r}
    if want != got:
        fail("branches: objdump has %s, benchtui %s" % (sorted(want - got)[:4], sorted(got - want)[:4]))
    if not want:
        fail("no branches in %s" % func)
    nl = width - 1
    for i, r in enumerate(rows):
        if r["kind"] == "insn" and not trows[i][ins_at:].startswith(r["text"]):
            fail("%s: text %r, json %r" % (r["address"], trows[i][ins_at:], r["text"]))
        if "lane" not in r:
            continue
        t = row_of[int(r["target"], 16)]
        c = nl - 1 - r["lane"]
        folded = r.get("lane_folded", False)
        for end in (i, t):
            ln = lanes[end]
            if ln[c] not in "/\\+":
                fail("%s: %r: no corner in lane %d on row %d" % (r["address"], ln, r["lane"], end))
            if any(ch not in "-+" for ch in ln[c + 1:hc]):
                fail("%s: %r: no line across on row %d" % (r["address"], ln, end))
        if lanes[t][hc] != ">":
            fail("%s: no arrowhead on its target's row %d: %r" % (r["address"], t, lanes[t]))
        if lanes[i][hc] not in "->":
            fail("%s: its row does not reach the text: %r" % (r["address"], lanes[i]))
        for m in range(min(i, t) + 1, max(i, t)):
            if lanes[m][c] not in ("|+:/\\" if folded else "|+"):
                fail("%s -> %s: lane %d broken on row %d: %r" % (r["address"], r["target"], r["lane"], m, lanes[m]))
    print("agree: %d branches, %d lanes, %d rows" % (len(want), nl, len(rows)))

    if len(sys.argv) > 5:
        box = str.maketrans("│┆─┌└├┼┬┴▶", "|:-/\\++++>")
        screen = open(sys.argv[5], encoding="utf-8").read().split("\n")
        cols = max(len(s) for s in screen)
        body = screen[3:-2]
        n = 0
        for s, t in zip(body, trows):
            s = s.translate(box).rstrip()
            t = t.expandtabs(8)[:cols].rstrip()
            if s.endswith("~"):	# cut at the edge: the rest as shown
                s, t = s[:-1].rstrip(), t[:len(s) - 1].rstrip()
            if s != t:
                fail("screen row %d:\n  %r\n  %r" % (n, s, t))
            n += 1
        print("screen: %d rows as exported" % n)


main()
