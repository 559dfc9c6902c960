#!/bin/bash
# Flame graphs (issue 29): --format flamegraph opens in headless Chromium
# with no script error, the frames of the hottest path are there, each as
# wide as its inclusive samples (the JSON export's), zoom and search run;
# a name with control bytes is escaped and the SVG is well-formed XML;
# benchtui diff's differential flame graph: the changed path red and blue;
# the F screen at 80x24 in tmux: bars, status line, zoom in and out.
. tests/lib.sh
need_recording

split=$(fixture split -fno-omit-frame-pointer)
"$BT" -q -o "$TMP/s.data" --stdio --top 0 "$split" >/dev/null 2>&1 || fail "recording split"
"$BT" -i "$TMP/s.data" --export "$TMP/s.svg" --format flamegraph || fail "flamegraph export"
"$BT" -i "$TMP/s.data" --export "$TMP/s.json" --format json --top 0 || fail "json export"

# frames: name samples width x depth, one a line, from an SVG or a DOM
frames() {
	python3 - "$1" <<'PY'
import re, sys, html
t = open(sys.argv[1], encoding="utf-8").read()
for g in re.finditer(r'<g class="f[^"]*"([^>]*)>.*?<rect ([^>]*)>', t):
    a = dict(re.findall(r'([\w-]+)="([^"]*)"', g.group(1)))
    r = dict(re.findall(r'([\w-]+)="([^"]*)"', g.group(2)))
    print(html.unescape(a["data-name"]), a["data-samples"], r["width"], r["x"], a["data-depth"], sep="\t")
PY
}

# widths FILE: the hottest path's frames as wide as the JSON's inclusive samples say
widths() {
	python3 - "$1" "$TMP/s.json" <<'PY'
import json, re, sys, html
svg = open(sys.argv[1]).read()
d = json.load(open(sys.argv[2]))
total = int(re.search(r'<svg [^>]*data-samples="(\d+)"', svg).group(1))
fr = {}
for g in re.finditer(r'<g class="f"([^>]*)>.*?<rect ([^>]*)>', svg):
    a = dict(re.findall(r'([\w-]+)="([^"]*)"', g.group(1)))
    r = dict(re.findall(r'([\w-]+)="([^"]*)"', g.group(2)))
    fr.setdefault(html.unescape(a["data-name"]), []).append((int(a["data-samples"]), float(r["width"])))
inc = {f["name"]: f["inclusive_samples"] for f in d["functions"] if "inclusive_samples" in f}
bad = []
for name in ("main", "work_a", "work_b"):
    if name not in fr:
        bad.append(name + " missing"); continue
    s, w = max(fr[name])
    if s != inc.get(name):
        bad.append("%s: %d samples, JSON %s" % (name, s, inc.get(name)))
    if abs(w - 1180.0 * s / total) > 0.01:
        bad.append("%s: width %.2f, want %.2f" % (name, w, 1180.0 * s / total))
if total > d["samples"]:
    bad.append("root %d > samples %d" % (total, d["samples"]))
print("\n".join(bad), file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}
widths "$TMP/s.svg" && ok "main, work_a, work_b: widths are their inclusive samples (JSON's) of 1180 px" ||
	fail "flame widths"

# headless Chromium: the script runs (data-ready), no console message,
# zoomed into work_a it fills the width; a screenshot
CHROME=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROME" ]; then
	skipped "chromium is not installed (scripts/deps.sh installs it)"
else
	chrome() {
		timeout 60 "$CHROME" --headless --no-sandbox --disable-gpu --no-first-run \
			--user-data-dir="$TMP/chrome" --enable-logging=stderr --v=0 "$@"
	}
	chrome --dump-dom "file://$TMP/s.svg" >"$TMP/dom0.svg" 2>"$TMP/chrome.err"
	widths "$TMP/dom0.svg" && ok "in Chromium's DOM too: the hottest path's frames, their widths" ||
		fail "widths in Chromium's DOM"
	chrome --dump-dom "file://$TMP/s.svg#zoom=work_a&search=^work_b\$" >"$TMP/dom.svg" 2>>"$TMP/chrome.err"
	chrome --screenshot="$TMP/s.png" --window-size=1200,400 "file://$TMP/s.svg" \
		>/dev/null 2>>"$TMP/chrome.err"
	if grep -q ':CONSOLE' "$TMP/chrome.err"; then
		fail "console messages: $(grep ':CONSOLE' "$TMP/chrome.err" | head -3)"
	elif ! grep -q 'data-ready="1"' "$TMP/dom.svg"; then
		fail "the script did not run: $(head -c 300 "$TMP/dom.svg")"
	else
		ok "Chromium ran the SVG's script, no console message"
	fi
	frames "$TMP/dom.svg" >"$TMP/dom.tsv"
	wa=$(awk -F'\t' '$1 == "work_a" { print $3; exit }' "$TMP/dom.tsv")
	[ "$wa" = "1180.00" ] && ok "zoomed into work_a, it is 1180 px wide" ||
		fail "zoom: work_a is ${wa:-missing} wide"
	grep -q 'id="matched"[^>]*>Matched: [0-9.]*%' "$TMP/dom.svg" &&
		ok "search: $(grep -o 'Matched: [0-9.]*%' "$TMP/dom.svg")" || fail "search did not say what matched"
	[ -s "$TMP/s.png" ] && [ "$(stat -c %s "$TMP/s.png")" -gt 2000 ] &&
		ok "screenshot taken ($(stat -c %s "$TMP/s.png") bytes)" || fail "no screenshot"
fi

# a name with control bytes (OSC, CSI, a C1 CSI): escaped, well-formed XML
evilname=$(printf 'wa\033]0;PWNED\007\033[31m\302\233x<&>"')
cp "$split" "$TMP/evil" && objcopy --redefine-sym "work_a=$evilname" "$TMP/evil" ||
	fail "cannot build the crafted binary"
"$BT" -q -o "$TMP/e.data" --stdio --top 0 "$TMP/evil" >/dev/null 2>&1
"$BT" -i "$TMP/e.data" --export "$TMP/e.svg" --format flamegraph || fail "crafted export"
python3 - "$TMP/e.svg" <<'PY' && ok "crafted name: no raw control byte, escaped (\\x1b), valid XML" || fail "crafted name in the SVG"
import sys, xml.etree.ElementTree as ET
raw = open(sys.argv[1], "rb").read()
t = raw.decode("utf-8")
bad = [c for c in t if (ord(c) < 32 and c not in "\t\n") or 0x7f <= ord(c) <= 0x9f]
ET.fromstring(raw)
ok = 'wa\\x1b]0;PWNED\\x07\\x1b[31m\\xc2\\x9bx&lt;&amp;&gt;&quot;' in t
sys.exit(0 if not bad and ok else 1)
PY

# benchtui diff --format flamegraph: split against split with work_a and
# work_b's names swapped (the 3:1 work moves from work_a to work_b): B's
# frames, red where the share grew (work_b), blue where it shrank (work_a),
# near white where it held (main); in Chromium, no script error
objcopy --redefine-sym work_a=swap_tmp --redefine-sym work_b=work_a "$split" "$TMP/swap1" &&
	objcopy --redefine-sym swap_tmp=work_b "$TMP/swap1" "$TMP/swap" || fail "cannot build the swapped binary"
"$BT" -q -o "$TMP/w.data" --stdio --top 0 "$TMP/swap" >/dev/null 2>&1 || fail "recording the swapped split"
"$BT" diff "$TMP/s.data" "$TMP/w.data" --export "$TMP/d.svg" --format flamegraph 2>"$TMP/d.err" ||
	fail "diff --format flamegraph: $(cat "$TMP/d.err")"
# diffcolours FILE: work_b red, work_a blue, main near white, sized by B
diffcolours() {
	python3 - "$1" <<'PY'
import re, sys, html
svg = open(sys.argv[1]).read()
total = int(re.search(r'<svg [^>]*data-samples="(\d+)"', svg).group(1))
fr = {}
for g in re.finditer(r'<g class="f[^"]*"([^>]*)>.*?<rect ([^>]*)>', svg):
    a = dict(re.findall(r'([\w-]+)="([^"]*)"', g.group(1)))
    r = dict(re.findall(r'([\w-]+)="([^"]*)"', g.group(2)))
    fr.setdefault(html.unescape(a["data-name"]), (a, r))
bad = []
def rgb(r):
    return tuple(int(x) for x in re.findall(r'\d+', r["fill"]))
for name, want in (("work_b", "red"), ("work_a", "blue")):
    if name not in fr:
        bad.append(name + " missing"); continue
    a, r = fr[name]
    c, d = rgb(r), float(a["data-delta"])
    if want == "red" and not (c[0] == 255 and c[1] < 150 and d > 20):
        bad.append("%s: %s, delta %+.1f, want red and > +20" % (name, c, d))
    if want == "blue" and not (c[2] == 255 and c[0] < 150 and d < -20):
        bad.append("%s: %s, delta %+.1f, want blue and < -20" % (name, c, d))
    if abs(float(r["width"]) - 1180.0 * int(a["data-samples"]) / total) > 0.01:
        bad.append("%s: not as wide as its B samples" % name)
a, r = fr.get("main", ({}, {}))
if not r or min(rgb(r)) < 200:
    bad.append("main: %s, want near white" % (rgb(r) if r else "missing"))
if "Differential flame graph" not in svg:
    bad.append("no differential title")
print("\n".join(bad), file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}
diffcolours "$TMP/d.svg" && ok "diff flamegraph: work_b red (its share grew), work_a blue, main white, widths B's" ||
	fail "diff flamegraph colours"
if [ -n "$CHROME" ]; then
	: >"$TMP/chrome.err"
	chrome --dump-dom "file://$TMP/d.svg" >"$TMP/ddom.svg" 2>"$TMP/chrome.err"
	if grep -q ':CONSOLE' "$TMP/chrome.err"; then
		fail "diff flamegraph: console messages: $(grep ':CONSOLE' "$TMP/chrome.err" | head -3)"
	elif ! grep -q 'data-ready="1"' "$TMP/ddom.svg"; then
		fail "diff flamegraph: the script did not run"
	else
		diffcolours "$TMP/ddom.svg" && ok "diff flamegraph in Chromium: script ran, no console message, the changed path coloured" ||
			fail "diff flamegraph colours in Chromium's DOM"
	fi
fi
expect_status 2 "$BT" diff "$TMP/s.data" "$TMP/w.data" --export "$TMP/nob.svg" --format flamegraph -b nosuch
[ -e "$TMP/nob.svg" ] && fail "diff -b nosuch left a file" || ok "diff -b with no such benchmark: an error, no file"

# the F screen at 80x24
if command -v tmux >/dev/null; then
	tmux_init fl
	$T new-session -d -s keep
	$T new-session -d -s bt -x 80 -y 24 "TERM=xterm-256color $BT -i $TMP/s.data; sleep 60"
	wait_for "hot functions" && $T send-keys -t bt F
	if wait_for "flame graph: all"; then
		screen | grep -q '^work_a  *|work_b' && ok "F: work_a and work_b side by side as bars" ||
			fail "F: no work_a/work_b bars: $(screen | sed -n 4,12p)"
		wait_for ": work_a (split)" &&
			ok "F from the function list: the cursor on work_a's hottest frame"
		$T send-keys -t bt g Down Down Down Down Down
		wait_for "of main, .* samples.*: work_a (split)" &&
			ok "status line: the frame's share and whole name ($(screen | tail -1))"
		$T send-keys -t bt Tab
		wait_for ": work_b (split)" && ok "Tab: the frame beside (work_b)"
		$T send-keys -t bt Enter
		wait_for "flame graph: work_b" && ok "Enter zooms into work_b"
		$T send-keys -t bt Left
		wait_for "flame graph: all" && ok "Left zooms out"
		$T send-keys -t bt Left
		wait_for "hot functions" && ok "Left again leaves the screen"
	fi
else
	skipped "tmux is not installed"
fi
finish
