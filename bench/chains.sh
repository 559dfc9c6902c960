#!/bin/bash
# The call-chain rows of make bench (bench/run.sh; DESIGN.md §5, issue 13):
# reading a recording's call chains (benchtui -i F --stdio --no-source
# --top 0: read, unwind, intern and aggregate every chain, the table with
# inclusive samples, perf's columns) against perf report --children --stdio
# on the same frame-pointer and DWARF recordings, and the browser's first
# screen as it opens by default; and recording with the default call chains against
# perf record -g and --call-graph dwarf: wall time over the bare run, and
# bytes per sample. Prints a markdown section; sets nothing.
#   bench/chains.sh [RUNS] [SECONDS]
set -eu
RUNS=${1:-5}
SECS=${2:-4}
B=${B:-build/bench}
BT=${BT:-./benchtui}
mkdir -p "$B"
[ "$B/measure" -nt build/tools/measure ] || cp build/tools/measure "$B/measure"
# (run alone, not from bench/run.sh: built again when the library is newer)
[ "$B/first-screen" -nt build/libbenchtui.a ] || cc -O2 -Iinclude -o "$B/first-screen" bench/first-screen.c \
	build/libbenchtui.a $(pkg-config --libs libdw libelf libzstd zlib) -lZydis -lZycore \
	-liberty -lm -ldl
m() { "$B/measure" "$@"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "-" }'; }
ms() { awk -v s="$1" 'BEGIN { printf "%.1f", s * 1000 }'; }
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
samples() { "$BT" -i "$1" --stdio --top 0 | awk '/^# samples:/ { sub(",", "", $3); print $3 }'; }
met() { awk "BEGIN { exit !($1) }" && echo "met" || echo "**not met**"; }
lim() { B="$B" BT="$BT" bash bench/selfprof.sh "$@"; }

cc -O2 -g -o "$B/chains" tests/fixtures/chains.c
cc -O2 -g -fno-omit-frame-pointer -o "$B/chains-fp" tests/fixtures/chains.c
t=$("$B/measure" 1 "$B/chains" 20000 | cut -d' ' -f1)
rounds=$(awk -v t="$t" -v s="$SECS" 'BEGIN { printf "%d", 20000 / t * s }')

# reading: ~80k samples (20 kHz for SECS seconds)
[ -s "$B/cc-fp.data" ] || perf record -q -e cpu-clock -F 20000 -g -o "$B/cc-fp.data" \
	"$B/chains-fp" "$rounds" >/dev/null 2>&1
[ -s "$B/cc-dwarf.data" ] || perf record -q -e cpu-clock -F 20000 --call-graph dwarf \
	-o "$B/cc-dwarf.data" "$B/chains" "$rounds" >/dev/null 2>&1
[ -s "$B/cc-bt.data" ] || "$BT" -q -e cpu-clock -F 20000 -o "$B/cc-bt.data" --stdio --top 0 \
	"$B/chains" "$rounds" >/dev/null 2>&1
echo "## Call chains"
echo
echo "Reading: \`benchtui -i F --stdio --no-source --top 0\` (read, unwind, intern"
echo "and aggregate every chain; print the table with self and inclusive samples,"
echo "callers, callees, the lint: perf's columns) against"
echo "\`perf report -i F --children --stdio\` on tests/fixtures/chains.c recorded"
echo "at 20 kHz by perf record -g (built with frame pointers), perf record"
echo "--call-graph dwarf (8 KiB stacks, built without) and benchtui's default"
echo "(built without). Target: ≥ 5× faster in ≤ 1/4 of perf's memory. Also the"
echo "browser's first screen (bench/first-screen.c), as it opens by default: its"
echo "table's Source column reads each hot library's DWARF (libc's is 10 MB once"
echo "decompressed), which perf report does not print."
echo
echo "| recording | samples | MB | --stdio --no-source ms | first screen ms | perf ms | ratio | --stdio --no-source MiB | first screen MiB | perf MiB | perf/benchtui |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
rr=""; mr=""; lims=
for k in fp dwarf bt; do
	f=$B/cc-$k.data
	read -r tb rb < <(m "$RUNS" "$BT" -i "$f" --stdio --no-source --top 0)
	read -r tf rf < <(m "$RUNS" "$B/first-screen" "$f")
	read -r tp rp < <(m "$RUNS" perf report -i "$f" --children --stdio)
	[ $k != bt ] && { rr="$rr $(ratio "$tp" "$tb")"; mr="$mr $(ratio "$rp" "$rb")"; }
	lims="$lims$(lim "$(basename "$f")" "$BT" -i "$f" --stdio --no-source --top 0)
"
	echo "| $(basename "$f") | $(samples "$f") | $(awk -v b="$(stat -c %s "$f")" 'BEGIN { printf "%.1f", b / 1e6 }') | $(ms "$tb") | $(ms "$tf") | $(ms "$tp") | $(ratio "$tp" "$tb") | $(mib "$rb") | $(mib "$rf") | $(mib "$rp") | $(ratio "$rp" "$rb") |"
done
echo
# recording: 4 kHz, the same work (SECS/2 seconds bare)
bash bench/selfprof.sh --head
printf '%s' "$lims"
echo
r2=$(( rounds / 2 ))
read -r t0 _ < <(m "$RUNS" "$B/chains" "$r2")
echo "Recording: wall time of the whole command at 4 kHz for work that takes"
echo "$(ms "$t0") ms bare (median of $RUNS), and the file's bytes per sample. benchtui"
echo "records (and saves) only: \`-o F --export /dev/null --top 0\` includes reading it back."
echo
echo "| recorder | ms | added | samples | bytes/sample | MiB RSS |"
echo "|---|---|---|---|---|---|"
declare -A add bps
lims=
for c in perf-g perf-dwarf bt-default bt-g bt-none; do
	f=$B/rec-$c.data
	case $c in
	perf-g) cmd=(perf record -q -e cpu-clock -F 4000 -g -o "$f" "$B/chains-fp" "$r2") ;;
	perf-dwarf) cmd=(perf record -q -e cpu-clock -F 4000 --call-graph dwarf -o "$f" "$B/chains" "$r2") ;;
	bt-default) cmd=("$BT" -q -e cpu-clock -F 4000 -o "$f" --export /dev/null --top 0 "$B/chains" "$r2") ;;
	bt-g) cmd=("$BT" -q -e cpu-clock -F 4000 -g -o "$f" --export /dev/null --top 0 "$B/chains-fp" "$r2") ;;
	bt-none) cmd=("$BT" -q -e cpu-clock -F 4000 --call-graph none -o "$f" --export /dev/null --top 0 "$B/chains" "$r2") ;;
	esac
	read -r tc rc < <(m "$RUNS" "${cmd[@]}")
	n=$(samples "$f")
	add[$c]=$(awk -v a="$tc" -v b="$t0" 'BEGIN { printf "%.1f", (a / b - 1) * 100 }')
	bps[$c]=$(awk -v b="$(stat -c %s "$f")" -v n="$n" 'BEGIN { printf "%d", b / n }')
	case $c in bt-*) lims="$lims$(lim "$c" "${cmd[@]}")
"
	esac
	echo "| $c | $(ms "$tc") | +${add[$c]}% | $n | ${bps[$c]} | $(mib "$rc") |"
done
bash bench/selfprof.sh --head
printf '%s' "$lims"
minof() { echo "$1" | tr ' ' '\n' | grep . | sort -g | head -1; }
echo
echo "| target | measured | |"
echo "|---|---|---|"
echo "| reading chains ≥ 5× faster than perf report --children (fp, DWARF) | $(minof "$rr")× at least | $(met "$(minof "$rr") >= 5") |"
echo "| ... in ≤ 1/4 of perf's memory | perf/benchtui $(minof "$mr")× at least | $(met "$(minof "$mr") >= 4") |"
echo "| default chains add less time than perf record -g | +${add[bt-default]}% vs +${add[perf-g]}% | $(met "${add[bt-default]} < ${add[perf-g]}") |"
echo "| file ≥ 10× smaller than perf's DWARF one | ${bps[bt-default]} vs ${bps[perf-dwarf]} bytes/sample: $(ratio "${bps[perf-dwarf]}" "${bps[bt-default]}")× | $(met "${bps[perf-dwarf]} >= 10 * ${bps[bt-default]}") |"
