#!/bin/bash
# Call chains end to end (DESIGN.md §6, §9; docs/callchains.md), on real
# recordings of tests/fixtures/chains.c (a frameless leaf called 3:1 from
# two functions, memcpy from a third), against oracles nobody here wrote:
#  1. perf record -g (built with frame pointers) and --call-graph dwarf
#     (built without): inclusive percents equal perf report --children,
#     each leaf's callers equal perf report --no-children's chains
#  2. benchtui -g records what perf -g does: perf report --children on
#     benchtui's own file gives benchtui's numbers
#  3. benchtui's default (frame pointers + registers + 512 bytes of stack)
#     on the -O2 -g build without frame pointers: leaf's callers 3:1
#     (inside the 99.9% Wilson interval of the share; the 95% one is
#     printed: it misses the truth one run in twenty by construction),
#     main at ~100% inclusive, memcpy attributed to copier; text and JSON
#     exports agree
. tests/lib.sh
command -v perf >/dev/null || skip "perf is not installed (scripts/deps.sh installs linux-perf)"
command -v python3 >/dev/null || skip "python3 is not installed"
need_recording
nofp=$(fixture chains)
fp=$FIX/chains-fp
if [ ! -x "$fp" ] || [ "$TOP/tests/fixtures/chains.c" -nt "$fp" ]; then
	cc -O2 -g -fno-omit-frame-pointer -o "$fp" "$TOP/tests/fixtures/chains.c" ||
		{ echo "cannot build chains-fp"; exit 1; }
fi
export ASAN_OPTIONS=${ASAN_OPTIONS:-}
O=$TOP/tests/tools/chains-oracle.py

perf_reports() {	# FILE: $FILE.children, $FILE.folded
	perf report -i "$1" --children --no-inline --stdio -g none --sort dso,sym 2>/dev/null >"$1.children"
	perf report -i "$1" --no-children --no-inline --stdio --sort dso,sym \
		-g folded,0,callee,function,count 2>/dev/null >"$1.folded"
}

# --- 1. perf's recordings (and perf report's): once per make check (lib.sh)
oracle g perf record -q -e cpu-clock -F 4000 -g -o "$SHARE/g.data" "$fp" 30000 >/dev/null 2>"$TMP/err" ||
	skip "perf record -g failed here: $(head -c 200 "$TMP/err")"
oracle dwarf perf record -q -e cpu-clock -F 4000 --call-graph dwarf -o "$SHARE/dwarf.data" "$nofp" 30000 \
	>/dev/null 2>"$TMP/err" || fail "perf record --call-graph dwarf: $(head -c 200 "$TMP/err")"
for r in g dwarf; do
	f=$SHARE/$r.data
	[ -s "$f" ] || continue
	oracle "$r-reports" perf_reports "$f"
	if "$BT" -i "$f" --export "$TMP/$r.json" --format json --top 0 2>"$TMP/err"; then
		python3 "$O" "$TMP/$r.json" "$f.children" "$f.folded" >"$TMP/o" &&
			{ cat "$TMP/o"; ok "perf record $(test $r = g && echo -g || echo --call-graph dwarf): perf report's inclusive percents and callers"; } ||
			fail "perf record $r: $(cat "$TMP/o")"
	else
		fail "benchtui -i $r.data: $(cat "$TMP/err")"
	fi
done

# --- 2. benchtui -g, read by perf ------------------------------------------
if "$BT" -q -g -e cpu-clock -o "$TMP/btg.data" --export "$TMP/btg.json" --format json --top 0 \
    "$fp" 30000 2>"$TMP/err"; then
	perf_reports "$TMP/btg.data"
	python3 "$O" "$TMP/btg.json" "$TMP/btg.data.children" "$TMP/btg.data.folded" >"$TMP/o" &&
		{ cat "$TMP/o"; ok "benchtui -g: perf report on benchtui's file gives the same call graph"; } ||
		fail "benchtui -g: $(cat "$TMP/o")"
else
	fail "benchtui -g: $(cat "$TMP/err")"
fi

# --- 3. benchtui's default on code without frame pointers ------------------
if "$BT" -q -e cpu-clock -o "$TMP/bt.data" --export "$TMP/bt.json" --format json --top 2 \
    "$nofp" 30000 2>"$TMP/err"; then
	"$BT" -i "$TMP/bt.data" --export "$TMP/bt.txt" --top 2 &&
		python3 "$TOP/tests/tools/export-agree.py" "$TMP/bt.txt" "$TMP/bt.json" >"$TMP/o" &&
		ok "text and JSON agree: $(cat "$TMP/o")" || fail "exports disagree: $(cat "$TMP/o")"
	python3 - "$TMP/bt.json" >"$TMP/o" <<'PY'
import json, math, sys
js = json.load(open(sys.argv[1]))
f = {x["name"]: x for x in js["functions"]}
def wilson(k, n, z):
    p = k / n; d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d; h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h
bad = []
c = {e["name"]: e["samples"] for e in f["leaf"]["callers"]}
k, n = c.get("caller_three", 0), c.get("caller_three", 0) + c.get("caller_one", 0)
if n < 100:
    bad.append("leaf: only %d samples through its callers" % n)
else:
    lo, hi = wilson(k, n, 3.29)
    lo95, hi95 = wilson(k, n, 1.96)
    print("leaf: caller_three %d, caller_one %d: %.1f%% (95%%: %.1f-%.1f%%)" % (
        k, n - k, 100 * k / n, 100 * lo95, 100 * hi95))
    if not lo <= 0.75 <= hi:
        bad.append("leaf's callers are not 3:1 (99.9%% interval %.3f-%.3f)" % (lo, hi))
    if sum(c.values()) != n:
        bad.append("leaf has other callers: %s" % c)
m = f.get("main", {}).get("inclusive_percent", 0)
print("main: %.2f%% inclusive" % m)
if m < 97:
    bad.append("main is %.2f%% inclusive, not ~100%%" % m)
mem = [x for x in js["functions"] if ("memmove" in x["name"] or "memcpy" in x["name"])
       and x["samples"] * 100 >= js["samples"]]
if not mem:
    bad.append("no memcpy with 1% of the samples")
for x in mem:
    top = x["callers"][0] if x["callers"] else {"name": None, "percent": 0}
    print("%s: %.1f%% through %s" % (x["name"], top["percent"], top["name"]))
    if top["name"] != "copier" or top["percent"] < 99:
        bad.append("%s is not attributed to copier: %s" % (x["name"], x["callers"][:3]))
if bad:
    print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
	if [ $? -eq 0 ]; then
		sed 's/^/   /' "$TMP/o"
		ok "default call chains without frame pointers: leaf's callers, main, memcpy's caller right"
	else
		fail "default call chains: $(cat "$TMP/o")"
	fi
else
	fail "benchtui recording: $(cat "$TMP/err")"
fi
finish
