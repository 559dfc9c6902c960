#!/bin/bash
# make bench's section on a benchmark that writes a lot (issue 25): 100 MB
# of short lines (bench/lines.c) to a terminal (script(1)'s pty, its copy
# to /dev/null: the terminal is not what is measured), a pipe and a file;
# bare, under perf record, and under benchtui, which reads the benchmark's
# output as it is written (docs/benchmarks.md "Reading the harness while it
# runs") and parses it for harness results when the recording is opened
# (--export: the run and the report). Markdown on stdout. Also on its own:
# B=build/bench BT=./benchtui bash bench/output.sh [RUNS]
set -eu
B=${B:-build/bench}
BT=${BT:-./benchtui}
RUNS=${1:-3}
mkdir -p "$B"
[ -x "$B/measure" ] || cp build/tools/measure "$B/measure"
cc -O2 -o "$B/lines" bench/lines.c
m() { "$B/measure" "$@" 2>/dev/null | cut -d' ' -f1; }	# median s
added() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a - b }'; }

echo "## A benchmark that writes 100 MB"
echo
echo "\`lines\` (bench/lines.c) prints 100 MB of 45-byte lines through stdio;"
echo "median wall seconds of $RUNS runs, bare, under \`perf record\` and under"
echo "benchtui (the run, then its export: the output parsed for results)."
echo "The terminal is script(1)'s pty copied to /dev/null. Target: benchtui's"
echo "added time within 2x perf record's. perf record writes no report: the"
echo "ratio is of benchtui's recording alone (its run and export, less the"
echo "same export from the recording, measured apart: the report column)."
echo "Load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "| stdout | bare s | perf record s | benchtui s | report s | perf added | benchtui added (recording) | ratio |"
echo "|---|---|---|---|---|---|---|---|"
P="perf record -q -o $B/out-perf.data"
T="$BT -q -o $B/out-bt.data --export $B/out-bt.txt"
for to in terminal pipe file; do
	case $to in
	terminal) run() { m "$RUNS" script -q -e -c "$*" /dev/null; } ;;
	pipe) run() { m "$RUNS" sh -c "$* | cat >/dev/null"; } ;;
	file) run() { m "$RUNS" sh -c "$* >$B/out.file"; } ;;
	esac
	t0=$(run "$B/lines")
	tp=$(run "$P $B/lines")
	tb=$(run "$T $B/lines")
	tr=$(m "$RUNS" "$BT" -q -i "$B/out-bt.data" --export "$B/out-bt.txt")
	ap=$(added "$tp" "$t0")
	ab=$(added "$tb" "$(awk -v a="$t0" -v b="$tr" 'BEGIN { print a + b }')")
	echo "| $to | $t0 | $tp | $tb | $tr | $ap | $ab | $(awk -v a="$ab" -v b="$ap" 'BEGIN { if (b > 0.05) printf "%.1fx", a / b; else print "-" }') |"
done
rm -f "$B/out.file"
# the report column (the recording of the benchmark to a pipe or a
# terminal needs a shell around benchtui: not profiled here)
bash bench/selfprof.sh --head
B="$B" BT="$BT" bash bench/selfprof.sh "report" "$BT" -q -i "$B/out-bt.data" --export "$B/out-bt.txt"
