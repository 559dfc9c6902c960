#!/bin/bash
# Lint truth, part B (issue 26), on fixtures built in the test run: loops
# that only count are found wherever the harness keeps its counter (GB's
# KeepRunning stores it to memory every iteration, a range-for keeps it in
# a register, Go compares with b.N in memory), and work kept in a register
# on the benchmark body's own source line is work (data += 1); no-debug-info
# only for the user's own code (a stripped distribution tool: a note);
# make demo's example, a harness of its own, gets the checks (its noop is
# optimized-away); and every screen counts the same findings: the header,
# L, the benchmark table's pane, --stdio and the JSON.
. tests/lib.sh
need_recording

# --- Google Benchmark: KeepRunning, range-for, data += 1, accumulation ----------
if [ ! -f /usr/include/benchmark/benchmark.h ] || ! command -v g++ >/dev/null; then
	skipped "Google Benchmark: g++ or libbenchmark-dev is missing"
else
	gb=$FIX/lintloops-gb
	if [ ! -x "$gb" ] || [ "$TOP/tests/fixtures/lintloops/loops.cc" -nt "$gb" ]; then
		g++ -O2 -g -fno-omit-frame-pointer -o "$gb" "$TOP/tests/fixtures/lintloops/loops.cc" \
			-lbenchmark -lpthread || fail "cannot build tests/fixtures/lintloops/loops.cc"
	fi
	"$BT" -q -o "$TMP/gb.data" --export "$TMP/gb.json" --format json "$gb" \
		--benchmark_min_time=0.2 >"$TMP/gb.out" 2>&1 ||
		fail "recording the GB loops failed: $(tail -3 "$TMP/gb.out")"
	lie BM_keeprunning_empty "$TMP/gb.json" empty-loop optimized-away
	lie BM_range_empty "$TMP/gb.json" empty-loop optimized-away
	# the sub-cycle check reads the time (part A's): the loop check is this test's
	twin 'Acc<uint64_t>/Inc' "$TMP/gb.json" empty-loop
	twin BM_reg_acc "$TMP/gb.json" empty-loop optimized-away
	# the KeepRunning loop is found by its memory counter, not by its time
	msg=$("$BT" -i "$TMP/gb.data" --stdio --top 0 -b BM_keeprunning_empty 2>/dev/null |
		grep "^# empty-loop\|^# optimized-away" | head -1)
	echo "$msg" | grep -q "instructions in its loop at 0x" &&
		ok "KeepRunning: its loop named (${msg:2:60}...)" ||
		fail "KeepRunning: no loop in '$msg'"
fi

# --- a plain C loop: data += 1 in a register beside the counter ---------------
cat >"$TMP/regadd.c" <<'EOF'
#include <stdlib.h>
__attribute__((noinline)) long
bench(long iters)
{
	long data = 0;
	for (long i = 0; i < iters; i++) {
		data += 1;
		__asm__ volatile("" : "+r"(data));
	}
	return data;
}
int main(int argc, char **argv) { return (int)bench(argc > 1 ? atol(argv[1]) : 400000000L) & 1; }
EOF
cc -O2 -g -o "$TMP/regadd" "$TMP/regadd.c" || fail "cannot build regadd.c"
"$BT" -q -o "$TMP/ra.data" --export "$TMP/ra.json" --format json "$TMP/regadd" >/dev/null 2>&1
got=$(benches "$TMP/ra.json")
[ "$got" = "$(printf "(run)\t-")" ] && ok "C: data += 1 in a register beside the counter: quiet" ||
	fail "C: data += 1 in a register: $got"
# the same loop stripped of its lines cannot be told from counting: said
cc -O2 -o "$TMP/regadd-nolines" "$TMP/regadd.c"
"$BT" -q -o "$TMP/ra2.data" --export "$TMP/ra2.json" --format json "$TMP/regadd-nolines" >/dev/null 2>&1
benches "$TMP/ra2.json" | grep -q "^(run)	.*empty-loop" &&
	ok "C: the same loop without -g: empty-loop (no line table to tell)" ||
	fail "C: without -g: $(benches "$TMP/ra2.json")"

# --- Go: the b.N loop left empty, data += 1 in registers ----------------------
if ! command -v go >/dev/null; then
	skipped "Go: no Go toolchain here"
elif gl=$(go_fixture goloops); then
	"$BT" -q -o "$TMP/go.data" --export "$TMP/go.json" --format json "$gl" \
		-test.bench . -test.benchtime 0.3s >"$TMP/go.out" 2>&1 ||
		fail "recording the Go loops failed: $(tail -3 "$TMP/go.out")"
	lie BenchmarkEmpty-2 "$TMP/go.json" empty-loop optimized-away
	twin BenchmarkInc-2 "$TMP/go.json" empty-loop optimized-away
else
	fail "cannot build tests/fixtures/goloops"
fi

# --- no-debug-info: a distribution's stripped tool is a note ------------------
head -c 20000000 /dev/urandom | od -An -tx1 | head -c 40000000 >"$TMP/big.txt"
if command -v gzip >/dev/null; then
	"$BT" -q -o "$TMP/gz.data" --export "$TMP/gz.json" --format json \
		sh -c "gzip -c $TMP/big.txt >$TMP/big.gz" >/dev/null 2>&1
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
checks = [f["check"] for f in d["findings"]]
notes = [n for n in d["notes"] if n.startswith("no debug info for") and "gzip" in n]
sys.exit(0 if "no-debug-info" not in checks and notes else 1)
' "$TMP/gz.json" && ok "gzip from the distribution: a note, no no-debug-info finding" ||
		fail "gzip: $(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["findings"], d["notes"])' "$TMP/gz.json")"
fi
cc -O2 -s -o "$TMP/split-stripped" "$TOP/tests/fixtures/split.c"
"$BT" -q -o "$TMP/st.data" --export "$TMP/st.json" --format json "$TMP/split-stripped" >/dev/null 2>&1
benches "$TMP/st.json" | grep -q "^(run)	.*no-debug-info" &&
	ok "a stripped binary built here (the user's): no-debug-info" ||
	fail "stripped user binary: $(benches "$TMP/st.json")"

# --- a custom harness: make demo's example ------------------------------------
cc -O2 -g -o "$TMP/demo" "$TOP/examples/bench.c" || fail "cannot build examples/bench.c"
"$BT" -q -o "$TMP/demo.data" --export "$TMP/demo.json" --format json "$TMP/demo" 3000 \
	>"$TMP/demo.out" 2>&1
benches "$TMP/demo.json" >"$TMP/demo.b"
[ "$(grep -c -v '^(run)' "$TMP/demo.b")" = 3 ] &&
	ok "demo: 3 benchmarks from its own lines ($(head -c 80 "$TMP/demo.b" | tr '\n' ';'))" ||
	fail "demo: $(cat "$TMP/demo.b")"
lie noop "$TMP/demo.json" optimized-away
twin modsum "$TMP/demo.json" optimized-away empty-loop
twin popcount "$TMP/demo.json" optimized-away empty-loop
grep -q '"harness": "custom"' "$TMP/demo.json" && ok "demo: harness custom in the JSON" ||
	fail "demo: no custom harness in the JSON"

# --- one source of findings: header, L, the table's pane, --stdio, JSON ------
# total FILE.json: the run's findings and every benchmark's
total() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(len(d["findings"]) + sum(len(b.get("findings", [])) for b in d.get("benchmarks", [])))
' "$1"
}
if ! command -v tmux >/dev/null; then
	skipped "the screens at 80x24: tmux is not installed"
else
	tmux_init btll
	$T new-session -d -s keep
	for rec in demo gb; do
		[ -s "$TMP/$rec.data" ] || continue
		n=$(total "$TMP/$rec.json")
		stdio=$("$BT" -i "$TMP/$rec.data" --stdio --top 0 2>/dev/null |
			grep -c "^# [a-z-]\+\( in .*\)\? ([0-9.]\+%): ")
		$T new-session -d -s bt -x 80 -y 24 -c "$TMP" \
			"env TERM=screen LC_ALL=C.UTF-8 $BT -i $TMP/$rec.data; exec sleep 60"
		if wait_for "benchmarks: "; then
			screen | sed -n 1p | grep -q "| $n lint finding" &&
				ok "$rec: the header counts $n findings, the JSON's run and benchmarks" ||
				fail "$rec: header '$(screen | sed -n 1p)' vs $n in the JSON"
			# the pane: the cursor's benchmark's finding, its check and its name
			first=$(screen | sed -n 4p | awk '{ print $1 }')
			screen | grep -q "^ [a-z-]*, [0-9.]*% of benchmark $first\| $first: [0-9]* findings\| $first: no findings" &&
				ok "$rec: the table's pane holds $first's findings" ||
				{ fail "$rec: no pane for $first"; screen | sed 's/^/     | /'; }
			$T send-keys -t bt L
			if wait_for "^lint: "; then
				screen | grep -q "^lint: $n finding" &&
					ok "$rec: L lists the same $n findings" ||
					{ fail "$rec: L does not say $n"; screen | sed 's/^/     | /'; }
				[ "$n" -eq 0 ] || [ "$stdio" -eq "$n" ] &&
					ok "$rec: --stdio says the same $n" ||
					fail "$rec: --stdio has $stdio findings, the JSON $n"
			fi
		fi
		$T kill-session -t bt 2>/dev/null
	done
fi
finish
