#!/bin/bash
# Call chains (docs/callchains.md): what recording them costs and how fast
# they are read back, for frame pointers (perf record -g), DWARF (perf
# record --call-graph dwarf, 8 KiB stacks) and benchtui's hybrid (frame
# pointers + bp/sp/ip + 512 bytes of stack, written by unwind-record).
#   bench/callchains.sh [RUNS] [ROUNDS]   (make tools first)
# Recording: median of RUNS runs of tests/fixtures/callers.c, the
# configurations interleaved run by run (the machine is shared), at 4 kHz
# cpu-clock: the benchmark's own time (its harness, timed inside: what
# sampling costs the benchmark), its CPU time (user + system: the kernel's
# work per sample is charged to it, and other load on the machine is not)
# and the whole command's wall time (the recorder's start and finish
# included). Reading: perf report --children --stdio against
# unwind-dump --stats (read every record, unwind every sample) on the same
# files; time and peak RSS.
set -u
RUNS=${1:-5}
ROUNDS=${2:-2000}
BUILD=${BUILD:-build}
T=$BUILD/tools
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bt-cc.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
cc -O2 -g -o "$TMP/callers" tests/fixtures/callers.c || exit 1
B=$TMP/callers
now() { date +%s.%N; }

configs="bare perf-ip perf-g perf-dwarf hybrid-512 bt-g bt-ip"
run() {
	case $1 in
	bare) "$B" "$ROUNDS" ;;
	perf-ip) perf record -q -e cpu-clock -F 4000 -o "$TMP/$1.data" "$B" "$ROUNDS" ;;
	perf-g) perf record -q -e cpu-clock -F 4000 -g -o "$TMP/$1.data" "$B" "$ROUNDS" ;;
	perf-dwarf) perf record -q -e cpu-clock -F 4000 --call-graph dwarf -o "$TMP/$1.data" "$B" "$ROUNDS" ;;
	hybrid-512) "$T/unwind-record" -g -s 512 -o "$TMP/$1.data" "$B" "$ROUNDS" ;;
	bt-g) "$T/unwind-record" -g -o "$TMP/$1.data" "$B" "$ROUNDS" ;;
	bt-ip) "$T/unwind-record" -o "$TMP/$1.data" "$B" "$ROUNDS" ;;
	esac
}
export CALLERS_TIME=1
for i in $(seq "$RUNS"); do
	for c in $configs; do
		t0=$(now)
		run "$c" >/dev/null 2>"$TMP/err"
		echo "$c $(awk -v a="$(now)" -v b="$t0" 'BEGIN { print a - b }') $(awk '/^harness/ { print $2, $3 }' "$TMP/err")" >>"$TMP/times"
	done
done
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
echo "# recording: median wall of $RUNS runs, callers $ROUNDS rounds, load $(cut -d' ' -f1-3 /proc/loadavg)"
bare=$(awk '$1 == "bare" { print $3 }' "$TMP/times" | median)
barew=$(awk '$1 == "bare" { print $2 }' "$TMP/times" | median)
barec=$(awk '$1 == "bare" { print $4 }' "$TMP/times" | median)
printf "%-11s %-19s %-19s %-19s %s\n" "" "benchmark's time" "benchmark's CPU" "command's wall" "file"
for c in $configs; do
	m=$(awk -v c="$c" '$1 == c { print $3 }' "$TMP/times" | median)
	w=$(awk -v c="$c" '$1 == c { print $2 }' "$TMP/times" | median)
	u=$(awk -v c="$c" '$1 == c { print $4 }' "$TMP/times" | median)
	n=""
	if [ -f "$TMP/$c.data" ]; then
		s=$("$T/unwind-dump" "$TMP/$c.data" --stats | awk '/^samples/ { print $2 }')
		n=$(awk -v b="$(stat -c %s "$TMP/$c.data")" -v s="$s" 'BEGIN { printf "%d samples, %d bytes/sample", s, b / s }')
	fi
	awk -v c="$c" -v m="$m" -v b="$bare" -v w="$w" -v bw="$barew" -v u="$u" -v bc="$barec" -v n="$n" 'BEGIN {
		printf "%-11s %7.3f s %+6.1f%%   %7.3f s %+6.1f%%   %7.3f s %+6.1f%%   %s\n", c, m, 100 * (m - b) / b,
		    u, 100 * (u - bc) / bc, w, 100 * (w - bw) / bw, n }'
done
echo "# reading: time and peak RSS"
for c in perf-g perf-dwarf hybrid-512; do
	t0=$(now)
	/usr/bin/time -f "%M" -o "$TMP/t1" perf report -i "$TMP/$c.data" --children --stdio >/dev/null 2>&1
	t1=$(now)
	/usr/bin/time -f "%M" -o "$TMP/t2" "$T/unwind-dump" "$TMP/$c.data" --stats >"$TMP/st"
	t2=$(now)
	pt=$(awk -v a="$t1" -v b="$t0" 'BEGIN { print a - b }'); bt=$(awk -v a="$t2" -v b="$t1" 'BEGIN { print a - b }')
	pm=$(cat "$TMP/t1"); bm=$(cat "$TMP/t2")
	rate=$(awk '/^samples/ { print $9 }' "$TMP/st")
	awk -v c="$c" -v pt="$pt" -v pm="$pm" -v bt="$bt" -v bm="$bm" -v r="$rate" 'BEGIN {
		printf "%-11s perf report --children %.3f s %d MiB; unwind-dump %.3f s %d MiB (%.1fx faster; unwinding alone %s samples/s)\n",
		    c, pt, pm / 1024, bt, bm / 1024, (bt > 0 ? pt / bt : 0), r }'
done
