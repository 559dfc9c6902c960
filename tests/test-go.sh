#!/bin/bash
# Go, a seed's ecosystem (issue 11): a real go test -c binary of
# tests/fixtures/gobench. Lines of every instruction of the package equal
# go tool objdump's, inline chains equal llvm-symbolizer's (binutils'
# addr2line names the outer function at an inlined range's first address);
# the workshop's emptied popcnt benchmark is an empty loop and its fix is
# not; -N -l is an unoptimized build; -ldflags=-w has no debug info.
. tests/lib.sh
command -v go >/dev/null || skip "no Go toolchain here (scripts/deps.sh installs golang-go)"
SYMS=$TOP/$BUILD/tools/syms-dump
gb=$(go_fixture gobench) || exit 1
P=benchtui.test/gobench	# the package's path: its functions are P.Name

# lines: go tool objdump prints "file:line addr" per instruction
go tool objdump -s "^$P\\." "$gb" | awk '/^  [^ ]+:[0-9]+\t+0x/ { print $2, $1 }' |
	sed 's/^0x0*/0x/' | sort >"$TMP/go"
"$SYMS" lines "$gb" "$P." 2>/dev/null | paste - - |
	awk '{ a = $1; sub(/^0x0*/, "0x", a); f = $2; sub(/.*\//, "", f); print a, f }' | sort >"$TMP/ours"
n=$(wc -l <"$TMP/go")
if [ "$n" -gt 50 ] && diff "$TMP/go" "$TMP/ours" >"$TMP/d"; then
	ok "lines of all $n instructions of package gobench equal go tool objdump's"
else
	fail "Go lines differ from go tool objdump's ($n instructions):"; head -10 "$TMP/d"
fi

# inline chains (popcnt inlined into its benchmarks) against llvm-symbolizer
SYMB=$(command -v llvm-symbolizer || command -v llvm-symbolizer-14 || true)
if [ -n "$SYMB" ]; then
	"$SYMS" inlines "$gb" "$P." 2>/dev/null >"$TMP/inl"
	grep '^0x' "$TMP/inl" | "$SYMB" --obj="$gb" --inlining --functions=linkage 2>/dev/null |
		sed 's/:[0-9]*$//' | awk 'NF' >"$TMP/llvm"
	grep -v '^0x' "$TMP/inl" >"$TMP/ours"
	ninl=$(grep -c "^$P.popcnt" "$TMP/ours")
	if [ "$ninl" -gt 5 ] && diff "$TMP/llvm" "$TMP/ours" >"$TMP/d"; then
		ok "inline chains equal llvm-symbolizer's ($ninl frames of the inlined popcnt)"
	else
		fail "Go inline chains differ from llvm-symbolizer's ($ninl inlined frames):"; head -10 "$TMP/d"
	fi
else
	skipped "no llvm-symbolizer here: Go inline chains not compared"
fi

need_recording
run() {	# run OUT BINARY BENCH: record one benchmark, print the text report
	"$BT" -q -o "$TMP/$1.data" --stdio --top 1 "$2" -test.run='^$' -test.bench="$3" \
		-test.benchtime=400ms >"$TMP/$1.out" 2>/dev/null
}
run dead "$gb" '^BenchmarkPopcnt$'
grep -q "^# empty-loop in $P.BenchmarkPopcnt " "$TMP/dead.out" &&
	ok "the emptied popcnt benchmark is an empty loop: $(grep -o '[0-9.]*% of the samples are in a loop of [0-9]* instructions' "$TMP/dead.out")" ||
	fail "no empty-loop finding on BenchmarkPopcnt: $(sed -n '/^#Percent/,/^$/p' "$TMP/dead.out" | head -4)"
# the jmp into the loop's condition runs once per call: skid gives it
# nothing, the loop it enters everything (which of the loop's instructions
# the samples land on is the CPU's: the branch back on Intel's, the load
# of b.N on AMD's)
"$BT" -i "$TMP/dead.data" --stdio -s "$P.BenchmarkPopcnt" --format json 2>/dev/null |
	sed -n 's/.*"kind": "insn", "address": "[^"]*", "text": "\([a-z]*\) [^"]*", "samples": \([0-9]*\),.*"adjusted_samples": \([0-9.]*\),.*/\1 \3 &/p' >"$TMP/insns"
entry=$(awk '$1 == "jmp" { print $2; exit }' "$TMP/insns")
inloop=$(awk '/"loop_depth": [1-9]/ { s += $2 } END { print s + 0 }' "$TMP/insns")
[ -n "$entry" ] && awk -v e="$entry" -v l="$inloop" 'BEGIN { exit !(e < 1 && l > 10) }' &&
	ok "Go's loop entry jmp takes no skid weight ($entry), the loop it enters does ($inloop)" ||
	fail "Go loop entry: jmp $entry, the loop $inloop"
grep -q "^## $P.BenchmarkPopcnt " "$TMP/dead.out" && grep -q 'gobench_test.go:[0-9]' "$TMP/dead.out" &&
	ok "its annotation has source lines" || fail "no source lines in the Go annotation"
run kept "$gb" '^BenchmarkPopcntKept$'
! grep -q '^# empty-loop' "$TMP/kept.out" && grep -q "inlined $P.popcnt() from gobench_test.go" "$TMP/kept.out" &&
	ok "its fix is not, and shows popcnt inlined" || fail "BenchmarkPopcntKept: $(grep '^# ' "$TMP/kept.out" | head -8)"
gbN=$(go_fixture gobench -gcflags=-N\ -l) || exit 1
run unopt "$gbN" '^BenchmarkPopcntKept$'
grep -q "^# unoptimized in $P\..*-gcflags" "$TMP/unopt.out" &&
	ok "-gcflags='-N -l': unoptimized ($(grep -o 'DW_AT_producer "[^"]*"' "$TMP/unopt.out" | head -1))" ||
	fail "no unoptimized finding on a -N -l build: $(grep '^# ' "$TMP/unopt.out" | head -8)"
gbw=$(go_fixture gobench -ldflags=-w) || exit 1
run nodbg "$gbw" '^BenchmarkPopcntKept$'
grep -q "^# no-debug-info in $P\..*-ldflags=-w" "$TMP/nodbg.out" &&
	ok "-ldflags=-w: no debug info, with Go's advice" ||
	fail "no Go no-debug-info finding: $(grep '^# ' "$TMP/nodbg.out" | head -8)"

# --- chains through the g0 stack switch, against perf's frame-pointer chains
if ! command -v perf >/dev/null; then
	skipped "perf is not installed: Go's chains not compared with perf's"
elif [ ! -x "$TOP/$BUILD/tools/unwind-dump" ]; then
	skipped "$BUILD/tools/unwind-dump is not built (make tools)"
else
	gs=$(go_fixture gostop) || exit 1
	"$BT" -q -o "$TMP/stop.data" --export "$TMP/stop.json" --format json --top 0 \
		"$gs" -test.run='^$' -test.bench=. -test.benchtime=300ms >/dev/null 2>"$TMP/err" ||
		fail "gostop: benchtui failed: $(head -c 300 "$TMP/err")"
	python3 "$TOP/tests/tools/pd-fp-only.py" "$TMP/stop.data" "$TMP/stop.fp" >/dev/null &&
		perf script -i "$TMP/stop.fp" -F tid,time,ip,sym,dso --ns --no-inline \
			>"$TMP/stop.perf" 2>/dev/null
	"$TOP/$BUILD/tools/unwind-dump" "$TMP/stop.data" --frames >"$TMP/stop.bt"
	# perf's chain of a new thread goes on past runtime.mstart (TOPFRAME)
	# into stale memory: both are cut at the outermost frames Go marks
	top=
	for f in runtime.mstart runtime.rt0_go runtime.goexit; do
		top="$top --outermost $f --outermost $f.abi0"
	done
	# shellcheck disable=SC2086
	if python3 "$TOP/tests/tools/fp-agree.py" "$TMP/stop.perf" "$TMP/stop.bt" $top \
	    --root runtime.goexit.abi0 --root runtime.goexit \
	    --through runtime.systemstack.abi0 --min 98 >"$TMP/agree"; then
		ok "gostop: chains rooted where perf's frame-pointer chains are: $(head -1 "$TMP/agree" | cut -d: -f2-); $(grep -o 'through runtime.systemstack.abi0 by perf: .*' "$TMP/agree" | sed 's/ by perf//')"
	else
		fail "gostop: chains differ from perf's frame-pointer chains:"; sed 's/^/      /' "$TMP/agree"
	fi
	# the call graph: what ReadMemStats runs on g0 is under it (through
	# systemstack), and under the benchmark
	python3 - "$TMP/stop.json" >"$TMP/split" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
f = {f["name"]: f for f in d["functions"]}
r = f.get("runtime.ReadMemStats", {})
sw = [c["samples"] for c in r.get("callees", []) if c["name"].startswith("runtime.systemstack")]
b = f.get("benchtui.test/gostop.BenchmarkStopStart", {})
print("runtime.ReadMemStats: %d samples inclusive, %d through runtime.systemstack; "
      "BenchmarkStopStart %d inclusive" % (r.get("inclusive_samples", 0), sum(sw),
      b.get("inclusive_samples", 0)))
sys.exit(0 if sw and sum(sw) * 2 > r["inclusive_samples"] and
         b.get("inclusive_samples", 0) >= r["inclusive_samples"] else 1)
PY
	if [ $? = 0 ]; then ok "gostop: $(cat "$TMP/split")"; else fail "gostop: $(cat "$TMP/split")"; fi
fi
finish
