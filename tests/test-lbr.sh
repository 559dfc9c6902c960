#!/bin/bash
# LBR call stacks read as call chains, as perf report reads them
# (docs/callchains.md "LBR call stacks"). This machine has no PMU, so no
# LBR can be recorded here: tests/tools/lbr-synth.py turns a real
# perf record -g recording of tests/fixtures/lbr.c (frame pointers
# everywhere: its chains are the truth) into the recording an LBR call
# stack of 8 entries would have given: the shallow and tail paths fit in
# the stack ("covered": their frame-pointer user frames are cut to the ip,
# so only a reader of the stack gets them), the deep path does not ("full":
# its whole frame-pointer chain is kept, and perf does not use it).
#  1. perf reads the stack on these files: perf script shows it; perf
#     report --children differs from its report on the same chains without
#     the stack; with a stack deep enough for every call, perf's report
#     equals its report on the original recording (tail aside: only the
#     stack sees the call to it; and spin, whose kernel samples on the tail
#     path perf credits to tail), so the synthesized stacks are the calls
#  2. benchtui's inclusive percents and leaf callers equal perf report's
#     (tests/tools/chains-oracle.py) on the synthesized files: 8 entries
#     with hw_idx, 4 entries without
#  3. the same chains without the stack do not give perf's answer (the
#     test cannot pass by reading the frame pointers)
#  4. benchtui --call-graph lbr's own recording against perf report, where
#     the PMU has an LBR (skipped here, with the reason)
. tests/lib.sh
command -v perf >/dev/null || skip "perf is not installed (scripts/deps.sh installs linux-perf)"
command -v python3 >/dev/null || skip "python3 is not installed"
need_recording
bin=$(fixture lbr -fno-omit-frame-pointer)
S=$TOP/tests/tools/lbr-synth.py
O=$TOP/tests/tools/chains-oracle.py
export ASAN_OPTIONS=${ASAN_OPTIONS:-}

perf_reports() {	# FILE: $FILE.children, $FILE.folded
	perf report -i "$1" --children --no-inline --stdio -g none --sort dso,sym 2>/dev/null >"$1.children"
	perf report -i "$1" --no-children --no-inline --stdio --sort dso,sym \
		-g folded,0,callee,function,count 2>/dev/null >"$1.folded"
}

# a fixed period (250 us of CPU): the sample count follows the work
perf record -q -e cpu-clock -c 250000 -g -o "$TMP/g.data" "$bin" 15000 >/dev/null 2>"$TMP/err" ||
	skip "perf record -g failed here: $(head -c 200 "$TMP/err")"
synth() {	# OUT ARGS...: one synthesized file, its counts printed and in OUT.synth
	out=$1; shift
	python3 "$S" "$TMP/g.data" "$out" "$@" >"$out.synth" 2>&1 ||
		{ fail "lbr-synth $*: $(cat "$out.synth")"; return 1; }
	sed 's/^/   /' "$out.synth"
}
synth "$TMP/lbr.data" || finish
synth "$TMP/lbr4.data" --depth 4 --no-hw-idx || finish
synth "$TMP/nolbr.data" --no-lbr || finish
synth "$TMP/deep.data" --depth 127 || finish
n=$(sed -n 's/^lbr-synth: \([0-9]*\) samples.*/\1/p' "$TMP/lbr.data.synth")
[ "${n:-0}" -ge 1000 ] || skip "only ${n:-no} samples in the recording: too few to compare percents to 0.01"
for f in g lbr lbr4 nolbr deep; do
	perf_reports "$TMP/$f.data"
done

# --- 1. perf reads the stack ---------------------------------------------
n=$(perf script -i "$TMP/lbr.data" -F ip,sym,brstack 2>/dev/null | grep -c '0x[0-9a-f]*/0x[0-9a-f]*/')
[ "$n" -gt 0 ] && ok "perf script shows the branch stack ($n samples)" ||
	fail "perf script shows no branch stack on the synthesized file"
python3 - "$TMP" >"$TMP/o" <<'PY'
import re, sys
d = sys.argv[1]
def children(name):
    out = {}
    for line in open("%s/%s.data.children" % (d, name), errors="replace"):
        m = re.match(r"^\s+([\d.]+)%\s+([\d.]+)%\s+(\S+)\s+\[\.\]\s+(.*?)\s*$", line)
        if m and not m.group(4).startswith("0x"):
            out[m.group(4)] = float(m.group(1))
    return out
g, lbr, nolbr, deep = (children(x) for x in ("g", "lbr", "nolbr", "deep"))
bad = []
def pct(t, k):
    return t.get(k, 0.0)
print("perf --children: main %.2f%% with the stack, %.2f%% with the same chains "
      "without it, %.2f%% on the frame-pointer recording; deep_9 %.2f%%, tail %.2f%% "
      "with the stack" % (pct(lbr, "main"), pct(nolbr, "main"), pct(g, "main"),
                          pct(lbr, "deep_9"), pct(lbr, "tail")))
diff = max(abs(pct(lbr, k) - pct(nolbr, k)) for k in set(lbr) | set(nolbr))
if diff < 10:
    bad.append("perf's report does not change with the branch stack (at most %.2f points)" % diff)
# perf reads the stack alone: the deep path's whole frame-pointer chain is
# in the file, but neither deep_9 nor main is credited with it
if pct(lbr, "deep_9") > 0.5 or pct(lbr, "main") > pct(g, "main") - 20:
    bad.append("perf credits frames above a full stack")
# a stack deep enough for every call: perf's report of the original
# recording (left out samples move percents a little), but for tail,
# which only the stack sees, and spin: a kernel sample's first user frame
# is the stack's top call, so on the tail path perf credits tail, not spin
# the samples left out (no call in their chain), and those whose
# frame-pointer chain may skip a caller where the stack does not (lbr-synth
# counts them: kernel samples, a function's prologue or ret), move any
# percent by at most their share; 0.02 for the rounding of the two
m = re.match(r"lbr-synth: (\d+) samples.* (\d+) left out.* (\d+) unsure",
             open(d + "/deep.data.synth").read())
nd, left, unsure = int(m.group(1)), int(m.group(2)), int(m.group(3))
tol = 100.0 * (left + unsure) / nd + 0.02
for k in set(g) | set(deep):
    if k in ("tail", "spin") or max(pct(g, k), pct(deep, k)) < 0.5:
        continue
    if abs(pct(g, k) - pct(deep, k)) > tol:
        bad.append("%s: %.2f%% from the stacks, %.2f%% from the frame pointers" % (
            k, pct(deep, k), pct(g, k)))
if bad:
    print("\n".join(bad))
    sys.exit(1)
print("with 127 entries every function but tail and spin within %.2f points "
      "of the frame-pointer recording's percents" % tol)
PY
if [ $? -eq 0 ]; then
	sed 's/^/   /' "$TMP/o"
	ok "perf report reads the LBR call stack of the synthesized files, and only it"
else
	fail "perf on the synthesized files: $(cat "$TMP/o")"
fi

# --- 2. benchtui against perf report ---------------------------------------
for f in lbr lbr4; do
	d=$TMP/$f.data
	if "$BT" -i "$d" --export "$d.json" --format json --top 0 2>"$TMP/err"; then
		python3 "$O" "$d.json" "$d.children" "$d.folded" >"$TMP/o" &&
			{ cat "$TMP/o"; ok "$f: perf report's inclusive percents and callers"; } ||
			fail "$f: $(cat "$TMP/o")"
	else
		fail "benchtui -i $f.data: $(cat "$TMP/err")"
	fi
done
python3 - "$TMP/lbr.data.json" <<'PY' | sed 's/^/   /'
import json, sys
f = {x["name"]: x for x in json.load(open(sys.argv[1]))["functions"]}
print("benchtui: " + ", ".join("%s %.2f%%" % (k, f[k]["inclusive_percent"]) for k in
      ("spin", "main", "shallow", "tail", "deep_1", "deep_8") if k in f) +
      "; deep_9 %s" % ("%.2f%%" % f["deep_9"]["inclusive_percent"] if "deep_9" in f else "absent"))
PY

# --- 3. the frame pointers alone do not give perf's answer -----------------
d=$TMP/nolbr.data
if "$BT" -i "$d" --export "$d.json" --format json --top 0 2>"$TMP/err"; then
	if python3 "$O" "$d.json" "$TMP/lbr.data.children" "$TMP/lbr.data.folded" >"$TMP/o"; then
		fail "the chains without the stack give perf's answer too: the test proves nothing"
	else
		m=$(python3 -c 'import json,sys
f={x["name"]:x for x in json.load(open(sys.argv[1]))["functions"]}
print("main %.2f%%, tail %.2f%%" % tuple(f[k]["inclusive_percent"] if k in f else 0 for k in ("main","tail")))' "$d.json")
		ok "a reader of the frame-pointer chains alone disagrees with perf ($m): $(tail -1 "$TMP/o")"
	fi
else
	fail "benchtui -i nolbr.data: $(cat "$TMP/err")"
fi

# --- 4. benchtui's own --call-graph lbr ------------------------------------
if "$BT" -q --call-graph lbr -o "$TMP/bt.data" --export "$TMP/bt.json" --format json \
    --top 0 "$bin" 15000 2>"$TMP/err" >/dev/null; then
	if perf evlist -v -i "$TMP/bt.data" 2>/dev/null | grep -q CALL_STACK; then
		perf_reports "$TMP/bt.data"
		python3 "$O" "$TMP/bt.json" "$TMP/bt.data.children" "$TMP/bt.data.folded" >"$TMP/o" &&
			{ cat "$TMP/o"; ok "benchtui --call-graph lbr: perf report's inclusive percents and callers"; } ||
			fail "benchtui --call-graph lbr: $(cat "$TMP/o")"
	else
		note=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("event_note", ""))' \
			"$TMP/bt.json" 2>/dev/null)
		skipped "benchtui --call-graph lbr recorded no LBR call stack here: ${note:-no note}"
	fi
else
	fail "benchtui --call-graph lbr: $(head -c 300 "$TMP/err")"
fi
finish
