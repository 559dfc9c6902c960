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
finish
