#!/bin/bash
# The diff rows of make bench (bench/run.sh; issue 28): benchtui diff of
# two 1M-sample recordings of bench/gen.sh's program (3,000 sampled
# functions, no harness: the whole runs, 10 time slices a side) against
# perf diff on the same two files, and of two recordings of
# tests/fixtures/diffbench.cc (4 Google Benchmark benchmarks x 10
# repetitions, ~350k samples each: each repetition's samples split out),
# in CPU time (user + system: others share this machine), medians of RUNS.
# Prints a markdown section; sets df_big (ms) in the file DF_VARS if set.
#   B=build/bench BT=./benchtui bench/diff.sh [RUNS]
set -eu
RUNS=${1:-5}
B=${B:-build/bench}
BT=${BT:-./benchtui}
m() { "$B/measure" -c "$@"; }	# prints "median_cpu_s maxrss_kib"
ms() { awk -v s="$1" 'BEGIN { printf "%.0f", s * 1000 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "-" }'; }
lim() { B="$B" BT="$BT" bash bench/selfprof.sh "$@"; }
samples() { "$BT" -i "$1" --stdio --top 0 | awk '/^# samples:/ { sub(",", "", $3); print $3 }'; }

# the same work as run.sh's 1M-sample recording, recorded a second time
if [ ! -s "$B/perf-1000000b.data" ]; then
	t=$("$B/measure" -c 1 "$B/big" 20000 | cut -d' ' -f1)
	rounds=$(awk -v t="$t" 'BEGIN { printf "%d", 1000000 / 20000 * 20000 / t * 0.75 }')
	for f in perf-1000000 perf-1000000b; do
		[ -s "$B/$f.data" ] || perf record -q -e cpu-clock -F 20000 -o "$B/$f.data" \
			"$B/big" "$rounds" >/dev/null 2>&1
	done
fi
if [ ! -x "$B/diffbench" ] || [ tests/fixtures/diffbench.cc -nt "$B/diffbench" ]; then
	g++ -O2 -g -fno-omit-frame-pointer -o "$B/diffbench" tests/fixtures/diffbench.cc \
		-lbenchmark -lpthread
	rm -f "$B"/diffbench-[12].data
fi
for i in 1 2; do
	[ -s "$B/diffbench-$i.data" ] || "$BT" -q -F 20000 -o "$B/diffbench-$i.data" \
		"$B/diffbench" --benchmark_repetitions=10 --benchmark_min_time=0.4 >/dev/null 2>&1
done
a=$B/perf-1000000.data b=$B/perf-1000000b.data
nfa=$("$BT" -i "$a" --stdio --top 0 | awk '/^#Percent/ { t = 1; next } t && NF == 0 { exit } t' | wc -l)
read -r tb rb < <(m "$RUNS" "$BT" diff "$a" "$b" --stdio)
read -r tp rp < <(m "$RUNS" perf diff "$a" "$b")
read -r tg rg < <(m "$RUNS" "$BT" diff "$B/diffbench-1.data" "$B/diffbench-2.data" --stdio)
[ -n "${DF_VARS:-}" ] && echo "df_big=$(ms "$tb")" >"$DF_VARS"

echo "## Comparing two recordings (benchtui diff)"
echo
echo "\`benchtui diff A B --stdio\` (every sample of each recording read once,"
echo "split by repetition or time slice; the tests per unit) against \`perf diff"
echo "A B\` on the same files; CPU time, median of $RUNS; target: under 2 s at 1M samples."
echo
echo "| recordings | samples | benchtui ms | perf diff ms | ratio | benchtui MiB | perf MiB |"
echo "|---|---|---|---|---|---|---|"
echo "| perf-1000000.data, perf-1000000b.data ($nfa functions; whole runs, 10 slices) | $(samples "$a") + $(samples "$b") | $(ms "$tb") | $(ms "$tp") | $(ratio "$tp" "$tb") | $(awk -v k="$rb" 'BEGIN { printf "%.1f", k / 1024 }') | $(awk -v k="$rp" 'BEGIN { printf "%.1f", k / 1024 }') |"
lim_a=$(lim "perf-1000000 pair" "$BT" diff "$a" "$b" --stdio)
lim_b=$(lim "diffbench pair" "$BT" diff "$B/diffbench-1.data" "$B/diffbench-2.data" --stdio)
echo "| diffbench-1.data, diffbench-2.data (4 benchmarks x 10 repetitions) | $(samples "$B/diffbench-1.data") + $(samples "$B/diffbench-2.data") | $(ms "$tg") | - | - | $(awk -v k="$rg" 'BEGIN { printf "%.1f", k / 1024 }') | - |"
bash bench/selfprof.sh --head
echo "$lim_a"
echo "$lim_b"
