#!/bin/bash
# make bench's section on memory at scale (issue 30): peak RSS and CPU time
# reading a binary with 100,000 functions, and 1,000 short processes
# (benchtui's default recording, 512-byte stack copies, and perf record
# --call-graph dwarf, 8 KiB ones), benchtui against perf report on the same
# file in the same run. CPU time (user + system, measure -c): on a machine
# others share, what the tool itself costs. Markdown on stdout. Also on its
# own: B=build/bench BT=./benchtui bash bench/memory.sh [RUNS]
set -eu
B=${B:-build/bench}
BT=${BT:-./benchtui}
RUNS=${1:-3}
NF=100000
mkdir -p "$B"
[ "$B/measure" -nt build/tools/measure ] || cp build/tools/measure "$B/measure"
[ "$B/first-screen" -nt build/libbenchtui.a ] || cc -O2 -Iinclude -o "$B/first-screen" bench/first-screen.c \
	build/libbenchtui.a $(pkg-config --libs libdw libelf libzstd zlib) -lZydis -lZycore \
	-liberty -lm -ldl
m() { "$B/measure" -c "$@" 2>/dev/null; }	# "median_cpu_s maxrss_kib"
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "-" }'; }
lim() { B="$B" BT="$BT" bash bench/selfprof.sh "$@"; }
samples() { "$BT" -i "$1" --stdio --top 0 2>/dev/null | awk '/^# samples:/ { sub(",", "", $3); print $3 }'; }

# 100,000 small functions (bench/gen.sh; -O0: -O2 takes over 20 minutes
# of CPU on one file this size, -O0 under 2), two threads calling them for
# ~2 s at perf's default 4 kHz
if [ ! -x "$B/big$NF" ] || [ bench/gen.sh -nt "$B/big$NF" ]; then
	echo "bench: generating and building a program of $NF functions (minutes)" >&2
	sh bench/gen.sh $NF 6000 >"$B/big$NF.c"
	cc -O0 -g -pthread -o "$B/big$NF" "$B/big$NF.c"
	rm -f "$B/funcs-$NF.data"
fi
[ -s "$B/funcs-$NF.data" ] || perf record -q -o "$B/funcs-$NF.data" "$B/big$NF" 80000 >/dev/null 2>&1
cc -O2 -g -pthread -o "$B/procs" tests/fixtures/procs.c
[ -s "$B/forks-bt.data" ] || "$BT" -q -o "$B/forks-bt.data" --stdio --top 0 "$B/procs" forks 1000 >/dev/null 2>&1
[ -s "$B/forks-dwarf.data" ] || perf record -q --call-graph dwarf -o "$B/forks-dwarf.data" \
	"$B/procs" forks 1000 >/dev/null 2>&1

echo "## Memory at scale"
echo
echo "Peak RSS and CPU time (user + system, median of $RUNS) of \`benchtui -i F"
echo "--stdio\`, of the browser's first screen (bench/first-screen.c, with the"
echo "hottest function opened), and of \`perf report -i F --stdio\` on the same"
echo "file. Target: benchtui at most half of perf report's memory. Load average at"
echo "the start: $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "| recording | samples | benchtui --stdio s | MiB | first screen s | MiB | perf report s | MiB | perf/benchtui MiB |"
echo "|---|---|---|---|---|---|---|---|---|"
lims=
for f in funcs-$NF forks-bt forks-dwarf; do
	read -r ts rs < <(m "$RUNS" "$BT" -i "$B/$f.data" --stdio)
	read -r tf rf < <(m "$RUNS" "$B/first-screen" --open "$B/$f.data")
	read -r tp rp < <(m "$RUNS" perf report -i "$B/$f.data" --stdio)
	big=$(( rs > rf ? rs : rf ))
	lims="$lims$(lim "$f.data" "$BT" -i "$B/$f.data" --stdio)
"
	echo "| $f.data | $(samples "$B/$f.data") | $ts | $(mib "$rs") | $tf | $(mib "$rf") | $tp | $(mib "$rp") | $(ratio "$rp" "$big") |"
done
echo
echo "funcs-$NF.data: \`perf record\` (4 kHz) of bench/gen.sh's program with $NF"
echo "functions ($(nm "$B/big$NF" | grep -c ' T f[0-9]') in its symbol table, one compilation unit); forks-bt.data:"
echo "benchtui's default recording of \`procs forks 1000\` (tests/fixtures/procs.c);"
echo "forks-dwarf.data: \`perf record --call-graph dwarf\` of the same."
bash bench/selfprof.sh --head
printf '%s' "$lims"
