#!/bin/bash
# make bench's timer floor (issue 30: "recording at 4 kHz adds at most 1.5x
# the bare timer cost on this machine"). The same work (bench/gen.sh's
# program, two threads, ~WORK CPU seconds) run RUNS times in interleaved
# rounds: bare; under cpu-clock sampling at HZ whose samples the kernel
# takes and drops (bench/floor.c drop: the floor); whose samples it writes
# to a ring nobody reads (ring), with benchtui's default stack copy
# (stack); under benchtui recording and saving; under benchtui with the
# text report (make bench's "Recording overhead" command); under perf
# record. Each run's wall time and CPU time (user + system of the whole
# tree: the work, the recorder, and the interrupts the tick charges to
# them), the time each adds over the bare run of its round, medians.
# Markdown on stdout; sets fl_ratio, fl_ratio_perf in FL_VARS if set.
# Also on its own: B=build/bench BT=./benchtui bash bench/floor.sh [RUNS] [HZ] [WORK]
set -eu
B=${B:-build/bench}
BT=${BT:-./benchtui}
RUNS=${1:-7}
HZ=${2:-4000}
WORK=${3:-4}
export LC_ALL=C
mkdir -p "$B"
cc -O2 -Ibench -o "$B/floor" bench/floor.c
if [ ! -x "$B/big" ] || [ bench/gen.sh -nt "$B/big" ]; then
	sh bench/gen.sh 3000 6000 >"$B/big.c"
	cc -O2 -g -pthread -o "$B/big" "$B/big.c"
fi
[ "$B/measure" -nt build/tools/measure ] || cp build/tools/measure "$B/measure"
t=$("$B/measure" -c 1 "$B/big" 20000 | cut -d' ' -f1)
rounds=$(awk -v t="$t" -v w="$WORK" 'BEGIN { printf "%d", 20000 / t * w }')
load=$(cut -d' ' -f1-3 /proc/loadavg)

names="bare drop ring stack bt bt-none bt-stdio perf"
run() {	# NAME: "wall cpu samples lost"
	case $1 in
	bare) "$B/floor" none "$B/big" "$rounds" ;;
	drop|ring|stack) "$B/floor" "$1" "$HZ" "$B/big" "$rounds" ;;
	bt) "$B/floor" none "$BT" -q -e cpu-clock -F "$HZ" -o "$B/floor-bt.data" \
		"$B/big" "$rounds" ;;
	bt-none) "$B/floor" none "$BT" -q -e cpu-clock -F "$HZ" --call-graph none \
		-o "$B/floor-none.data" "$B/big" "$rounds" ;;
	bt-stdio) "$B/floor" none "$BT" -q -e cpu-clock -F "$HZ" -o "$B/floor-bt.data" \
		--stdio --top 0 "$B/big" "$rounds" ;;
	perf) "$B/floor" none perf record -q -e cpu-clock -F "$HZ" -o "$B/floor-perf.data" \
		"$B/big" "$rounds" ;;
	esac
}
raw=$B/floor.raw
: >"$raw"
for i in $(seq "$RUNS"); do
	for n in $names; do
		echo "$i $n $(run $n)" >>"$raw"
	done
done
bt_n=$("$BT" -i "$B/floor-bt.data" --stdio --top 0 | awk '/^# samples:/ { sub(",", "", $3); print $3 }')
none_n=$("$BT" -i "$B/floor-none.data" --stdio --top 0 | awk '/^# samples:/ { sub(",", "", $3); print $3 }')
perf_n=$("$BT" -i "$B/floor-perf.data" --stdio --top 0 | awk '/^# samples:/ { sub(",", "", $3); print $3 }')
# NAME FIELD: the median of FIELD (3 wall, 4 cpu) less the bare run of the
# same round ("add"), or of the value itself ("abs")
med() {
	awk -v n="$1" -v f="$2" -v how="$3" '$2 == "bare" { b[$1] = $f } $2 == n { v[$1] = $f }
		END { for (r in v) print (how == "add" ? v[r] - b[r] : v[r]) }' "$raw" |
	sort -g | awk '{ v[NR] = $1 } END { printf "%.4f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
ring_n=$(awk '$2 == "ring" { print $5 }' "$raw" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
stack_n=$(awk '$2 == "stack" { print $5 }' "$raw" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
lost=$(awk '$2 == "ring" || $2 == "stack" { s += $6 } END { print s + 0 }' "$raw")
bw=$(med bare 3 abs)
bc=$(med bare 4 abs)
dc=$(med drop 4 add)
dw=$(med drop 3 add)
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.1f%%", a / b * 100 }'; }
us() { awk -v a="$1" -v n="$2" 'BEGIN { if (n > 0) printf "%.1f", a / n * 1e6; else print "-" }'; }
x() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }

echo "## The timer floor"
echo
echo "What taking a \`cpu-clock\` sample at $HZ Hz costs a program on this machine"
echo "before any recorder does anything (bench/floor.c, bench/floor.sh): the"
echo "same work (two threads, ~$WORK CPU seconds, $rounds rounds) bare, then under"
echo "per-CPU cpu-clock events opened as benchtui opens them, whose samples"
echo "the kernel takes (the hrtimer interrupt, the sample prepared) and drops"
echo "for want of a ring buffer (**drop: the floor**), writes to a ring nobody"
echo "reads, sized so that none is lost ($lost lost), with perf's and"
echo "benchtui's default sample (ring, stack: benchtui's call chain and"
echo "512-byte stack copy), then under benchtui recording and saving"
echo "(\`-e cpu-clock -F $HZ -o F\`, no report; \`--call-graph none\`: no call chain"
echo "nor stack copy, ring's sample), benchtui with the text report"
echo "(\`--stdio --top 0\`: make bench's \"Recording overhead\" command) and"
echo "\`perf record -e cpu-clock -F $HZ\`. CPU time is user + system of the"
echo "whole tree (the work, the recorder, and the interrupts, which the tick"
echo "charges to whatever it finds running): on a shared machine the more"
echo "stable of the two; wall time beside. $RUNS interleaved rounds, each"
echo "run's added time against the bare run of its own round, medians. Load"
echo "average at the start: $load (2 CPUs)."
echo
echo "Bare run: $bc s CPU, $bw s wall."
echo
echo "| run | samples | added CPU s | added CPU | µs CPU/sample | × floor (CPU) | added wall s | × floor (wall) |"
echo "|---|---|---|---|---|---|---|---|"
for n in drop ring stack bt bt-none bt-stdio perf; do
	c=$(med $n 4 add)
	w=$(med $n 3 add)
	case $n in
	drop|ring) s=$ring_n ;;
	stack) s=$stack_n ;;
	bt|bt-stdio) s=$bt_n ;;
	bt-none) s=$none_n ;;
	perf) s=$perf_n ;;
	esac
	case $n in
	drop) label="drop (the floor)" ;;
	ring) label="ring, 48-byte samples" ;;
	stack) label="stack, benchtui's default sample" ;;
	bt) label="benchtui -o F" ;;
	bt-none) label="benchtui -o F --call-graph none" ;;
	bt-stdio) label="benchtui -o F --stdio --top 0" ;;
	perf) label="perf record" ;;
	esac
	echo "| $label | $s | $c | $(pct "$c" "$bc") | $(us "$c" "$s") | $(x "$c" "$dc") | $w | $(x "$w" "$dw") |"
	[ -n "${FL_VARS:-}" ] && case $n in
		bt) echo "fl_ratio=$(x "$c" "$dc")" >>"$FL_VARS" ;;
		perf) echo "fl_ratio_perf=$(x "$c" "$dc")" >>"$FL_VARS" ;;
	esac
done
echo
echo "Samples: drop takes as many as ring (the same events; it cannot count"
echo "them); benchtui's rows are its recording's count, perf's perf's."
