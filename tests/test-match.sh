#!/bin/bash
# Matching code across builds (issue 28, core/diff/match.c), against an
# oracle nobody here wrote: tests/fixtures/match.c built by gcc -O2,
# recorded, and matched with the same source built by gcc -O3 and by
# clang -O2 (where installed), function by function; the key is the line
# table as addr2line reads it: the share of sampled instructions matched
# to an instruction of the same source line is reported and asserted.
# Then two known changes: a build that only moves code (a new function
# before, -falign-functions=64) matches every instruction of the
# unchanged functions, and a dependent divide added to scale()'s loop is
# inserted, the rest of scale() matched. Last, the aligned function as
# benchtui diff shows it: -s on the two recordings, and Enter from the
# browser's function row of tests/fixtures/diffbench.cc's two builds
# (Google Benchmark, 5 repetitions: cost per op), where the divided loop
# is the hottest change and slower.
. tests/lib.sh
MD=$TOP/$BUILD/tools/match-dump
[ -x "$MD" ] || { echo "missing $MD (make tools)"; exit 1; }
command -v addr2line >/dev/null || skip "addr2line is not installed"
A=$(fixture_as match-O2 match.c gcc -O2 -g)
O3=$(fixture_as match-O3 match.c gcc -O3 -g)
DIV=$(fixture_as match-div match.c gcc -O2 -g -DWITH_DIV)
MOVED=$(fixture_as match-moved match.c gcc -O2 -g -DWITH_NEW -falign-functions=64)
FUNCS="fill scale kernel sorted next"
nfail=0 nskip=0

# The samples of A, where the kernel lets us record; else each instruction once.
REC=$A
if "$BT" -q -F 10000 -o "$TMP/a.data" --stdio --top 0 "$A" 10000 >/dev/null 2>&1; then
	REC=$TMP/a.data
else
	skipped "no recording: every instruction weighs 1"
fi

# share NAME B MIN SMIN: sampled instructions of A matched to B's same line
# (addr2line), weighted by their samples (at least MIN), and every
# instruction of the functions once (at least SMIN: this share does not move
# with where the samples land, which differs between machines: gcc-clang's
# weighted share passed 0.60 on an AMD EPYC and is 0.53-0.57 on an Intel
# Xeon; every instruction once depends on the two binaries alone: 0.386)
share() {
	name=$1 b=$2 min=$3 smin=$4
	: >"$TMP/$name.pairs"
	for f in $FUNCS; do
		"$MD" pairs "$REC" "$b" "$f" >>"$TMP/$name.pairs" 2>"$TMP/err" ||
			{ fail "$name: match-dump $f: $(cat "$TMP/err")"; return; }
	done
	res=$(python3 - "$TMP/$name.pairs" "$A" "$b" <<'PY'
import os, subprocess, sys
rows = [l.split() for l in open(sys.argv[1])]
def lines(binary, addrs):
    out = subprocess.run(["addr2line", "-e", binary] + ["0x" + a for a in addrs],
                         capture_output=True, text=True).stdout.split("\n")
    key = lambda s: os.path.basename(s.split(" ")[0])   # "file:line (discriminator n)"
    return {a: key(l) for a, l in zip(addrs, out)}
la = lines(sys.argv[2], sorted({r[0] for r in rows if r[0] != "-"}))
lb = lines(sys.argv[3], sorted({r[1] for r in rows if r[1] != "-"}))
allw = matched = same = n = nsame = 0
for a, b, w, ma, mb in rows:
    if a == "-":
        continue
    w = int(w)
    ok = b != "-" and la[a] == lb[b] and not la[a].endswith(":0")
    n += 1
    nsame += ok
    allw += w
    matched += w if b != "-" else 0
    same += w if ok else 0
print("%.3f %.3f %d %.3f %d" % (same / allw if allw else 0, matched / allw if allw else 0, allw,
    nsame / n if n else 0, n))
PY
)
	read -r s m w st n <<<"$res"
	echo "   $name: $w sampled, $m matched, $s matched to the same line (addr2line); of all $n instructions, $st"
	if awk -v s="$s" -v min="$min" 'BEGIN { exit !(s >= min) }'; then
		ok "$name: same-line share $s >= $min"
	else
		fail "$name: same-line share $s < $min"
	fi
	if awk -v s="$st" -v min="$smin" 'BEGIN { exit !(s >= min) }'; then
		ok "$name: every instruction once: same-line share $st >= $smin"
	else
		fail "$name: every instruction once: same-line share $st < $smin"
	fi
}

share gcc-O2-O3 "$O3" 0.90 0.90
if command -v clang >/dev/null; then
	share gcc-clang "$(fixture_as match-clang match.c clang -O2 -g)" 0.45 0.35
else
	skipped "clang is not installed"
fi

# only moved: every instruction matched, on its own line
for f in $FUNCS; do
	out=$("$MD" lines "$A" "$MOVED" "$f" 2>&1)
	read -r _ _ _ all _ matched _ same _ deleted _ inserted _ <<<"$out"
	if [ "$all" -gt 0 ] && [ "$matched" = "$all" ] && [ "$same" = "$all" ] &&
		[ "$deleted" = 0 ] && [ "$inserted" = 0 ]; then
		ok "moved: $f: all $all instructions matched"
	else
		fail "moved: $f: $out"
	fi
done

# a dependent divide: the divide inserted, every other instruction of A matched
"$MD" pairs "$A" "$DIV" scale >"$TMP/div.pairs" 2>&1 || fail "divide: match-dump failed"
if awk '$5 ~ /div/ && $1 != "-" { bad = 1 } $5 ~ /div/ { div = 1 }
	$1 != "-" && $2 == "-" && $4 !~ /^(nop|xchg)/ { bad = 1 }
	END { exit !(div && !bad) }' "$TMP/div.pairs"; then
	ok "divide: inserted ($(awk '$1 == "-"' "$TMP/div.pairs" | wc -l) instructions), the rest matched"
else
	fail "divide: $(cat "$TMP/div.pairs")"
fi
for f in fill kernel sorted next; do
	out=$("$MD" lines "$A" "$DIV" "$f" 2>&1)
	case $out in
	*" deleted 0 inserted 0 "*) ok "divide: $f unchanged, all matched" ;;
	*) fail "divide: $f: $out" ;;
	esac
done
# benchtui diff OLD NEW -s scale: the aligned function exported, every unit
if [ "$REC" != "$A" ] &&
	"$BT" -q -F 10000 -o "$TMP/b.data" --stdio --top 0 "$DIV" 10000 >/dev/null 2>&1; then
	"$BT" diff "$REC" "$TMP/b.data" -s scale --export "$TMP/m.json" --format json 2>"$TMP/err" ||
		fail "diff -s: $(cat "$TMP/err")"
	"$BT" diff "$REC" "$TMP/b.data" -s scale --stdio >"$TMP/m.txt" 2>&1 ||
		fail "diff -s --stdio: $(cat "$TMP/m.txt")"
	res=$(python3 - "$TMP/m.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
u = d["units"]
bad = []
if d["kind"] != "match" or d["function_b"] != "scale":
    bad.append("kind/function")
if not any(x["kind"] == "inserted" and "div" in x["code_b"]["text"] for x in u):
    bad.append("no divide inserted")
if any(x["kind"] == "deleted" and "nop" not in x["code_a"]["text"] and "xchg" not in x["code_a"]["text"] for x in u):
    bad.append("an instruction deleted")
for x in u:
    if x["tested"] and not all(k in x for k in ("delta", "interval", "mde", "q", "verdict")):
        bad.append("a unit without its statistics")
        break
hot = [x for x in u if x.get("hottest")]
if len(hot) != 1 or hot[0]["inserted"] < 2:
    bad.append("hottest block %s" % hot)
print("; ".join(bad) or "ok %d units, hottest block %s (%s, delta %s)" % (
    len(u), hot[0]["block"], hot[0]["verdict"], hot[0]["delta"]))
PY
)
	case $res in
	ok*) ok "diff -s scale: $res" ;;
	*) fail "diff -s scale: $res" ;;
	esac
	grep -q '^+ .*div' "$TMP/m.txt" && ok "diff -s --stdio: the divide marked +" ||
		fail "diff -s --stdio: no '+ ... div' row"
else
	skipped "diff -s: no recordings"
fi
# the browser: Enter on BM_chain, Enter on its function: the aligned screen
if [ -f /usr/include/benchmark/benchmark.h ] && command -v g++ >/dev/null && [ "$REC" != "$A" ]; then
	for v in A B; do
		if [ ! -x "$FIX/diff$v" ] || [ "$TOP/tests/fixtures/diffbench.cc" -nt "$FIX/diff$v" ]; then
			g++ -O2 -g -fno-omit-frame-pointer $([ $v = B ] && echo -DSLOW_DIV) \
				-o "$FIX/diff$v.tmp$$" "$TOP/tests/fixtures/diffbench.cc" -lbenchmark -lpthread &&
				mv "$FIX/diff$v.tmp$$" "$FIX/diff$v"
		fi
		"$BT" -q -o "$TMP/d$v.data" "$FIX/diff$v" --benchmark_repetitions=5 \
			--benchmark_min_time=0.05 --benchmark_filter=BM_chain >"$TMP/d$v.out" 2>&1 ||
			fail "recording diff$v: $(tail -2 "$TMP/d$v.out")"
	done
	out=$("$MD" browse "$TMP/dA.data" "$TMP/dB.data" BM_chain BM_chain 2>&1)
	case $out in
	"screen match"*"cursor ── block"*"hottest change"*"ns/op over 5+5 repetitions"*)
		ok "diff browser: Enter on BM_chain's function opens the aligned screen on its hottest change" ;;
	*) fail "diff browser: $out" ;;
	esac
	"$MD" view "$TMP/dA.data" "$TMP/dB.data" BM_chain json 0 BM_chain >"$TMP/d.json" 2>&1
	res=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
hot = [u for u in d["units"] if u.get("hottest")]
div = [u for u in d["units"] if u["kind"] == "inserted" and "div" in u["code_b"]["text"]]
ok = d["unit"] == "ns/op" and d["vectors"] == "repetitions" and len(hot) == 1 and \
    hot[0]["verdict"] == "slower" and div and div[0]["block"] == hot[0]["block"]
print(("ok " if ok else "bad ") + "%s %s: hottest %s" % (d["unit"], d["vectors"],
    [(h["block"], h["verdict"], h["delta"]) for h in hot]))' "$TMP/d.json" 2>&1)
	case $res in
	ok*) ok "BM_chain aligned: the divide in the hottest block, slower ($res)" ;;
	*) fail "BM_chain aligned: $res" ;;
	esac
else
	skipped "the diff browser: g++, libbenchmark-dev or recording missing"
fi
finish
