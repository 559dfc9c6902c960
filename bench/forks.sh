#!/bin/bash
# make bench's section on many short processes (issue 25), benchtui against
# perf: recording 1,000 forks one after another (tests/fixtures/procs.c
# forks), each ~2 ms of work, RUNS times: samples, lost samples and FORK
# records kept, and the recorder's own peak RSS; then reading a recording
# of 1,000 such processes with 8 KiB stack copies (--call-graph dwarf).
# Markdown on stdout. Also on its own: B=build/bench BT=./benchtui bash bench/forks.sh [RUNS]
set -eu
B=${B:-build/bench}
BT=${BT:-./benchtui}
RUNS=${1:-3}
N=1000
mkdir -p "$B"
[ -x "$B/measure" ] || cp build/tools/measure "$B/measure"
cc -O2 -g -pthread -o "$B/procs" tests/fixtures/procs.c
m() { "$B/measure" "$@" 2>/dev/null; }	# "median_s maxrss_kib"
lim() { B="$B" BT="$BT" bash bench/selfprof.sh "$@"; }
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
# FILE: "samples lost forks" (benchtui's reader for the first two, which
# reads both tools' files; perf report --stats for the FORK records)
counts() {
	s=$("$BT" -i "$1" --stdio --top 0 2>/dev/null | awk '/^# samples:/ { gsub(",", ""); print $3, $5 }')
	f=$(perf report -i "$1" --stats 2>/dev/null | awk '/FORK events:/ { print $3; exit }')
	echo "${s:-? ?} ${f:-0}"
}

echo "## 1,000 short processes"
echo
echo "Recording \`procs forks $N\` (tests/fixtures/procs.c: $N children one after"
echo "another, ~2 ms of work each) with \`perf record\` and with benchtui at their"
echo "defaults (perf: no stack copy; benchtui: a 512-byte stack copy a sample, so"
echo "records ~10x larger), $RUNS runs each; load average at the start:"
echo "$(cut -d' ' -f1-3 /proc/loadavg). Lost: samples the kernel dropped"
echo "(ring full: the recorder did not drain in time); FORK: fork records kept"
echo "(of $N); MiB: the recorder's own peak RSS (not the benchmark's)."
echo
echo "Loaded: as many busy loops as CPUs ($(nproc)) run beside the recorder and"
echo "the benchmark, at the same priority (issue 25: under load, perf lost none)."
echo
echo "| run | perf samples | perf lost | perf FORK | perf MiB | benchtui samples | benchtui lost | benchtui FORK | benchtui MiB |"
echo "|---|---|---|---|---|---|---|---|---|"
busy=
burn() { for _ in $(seq "$(nproc)"); do sh -c 'while :; do :; done' & busy="$busy $!"; done; }
trap '[ -z "$busy" ] || kill $busy 2>/dev/null' EXIT
for load in idle loaded; do
	[ $load = loaded ] && burn
	for i in $(seq "$RUNS"); do
		read -r _ rp < <(m 1 perf record -q -o "$B/forks-perf.data" "$B/procs" forks $N)
		read -r _ rb < <(m 1 "$BT" -q -o "$B/forks-bt.data" --stdio --top 0 "$B/procs" forks $N)
		read -r ps pl pf < <(counts "$B/forks-perf.data")
		read -r bs bl bf < <(counts "$B/forks-bt.data")
		echo "| $i, $load | $ps | $pl | $pf | $(mib "$rp") | $bs | $bl | $bf | $(mib "$rb") |"
	done
done
kill $busy; busy=
bash bench/selfprof.sh --head
lim "recording, idle" "$BT" -q -o "$B/self-forks.data" --stdio --top 0 "$B/procs" forks $N
echo
# a recorder the machine runs late, made reproducible: stopped (SIGSTOP)
# 1.5 s into the run for STALL seconds while the benchmark goes on
stalled() {	# STALL OUT TOOL ARGS...: "samples lost forks"
	st=$1 f=$2
	shift 2
	"$@" >/dev/null 2>&1 & p=$!
	sleep 1.5; kill -STOP $p; sleep "$st"; kill -CONT $p; wait $p || true
	counts "$f"
}
echo "The recorder stopped (SIGSTOP) 1.5 s into the run, for 1.5 s and 3 s,"
echo "while the forks go on (a machine that runs it late, reproducibly):"
echo "samples / lost / FORK records. benchtui -m 128 is its ring before"
echo "issue 25 (128 pages a CPU; now 512)."
echo
echo "| stopped | perf record | benchtui -m 128 | benchtui |"
echo "|---|---|---|---|"
for st in 1.5 3; do
	a=$(stalled $st "$B/stall-perf.data" perf record -q -o "$B/stall-perf.data" "$B/procs" forks $N)
	b=$(stalled $st "$B/stall-bt.data" "$BT" -q -m 128 -o "$B/stall-bt.data" --stdio --top 0 "$B/procs" forks $N)
	c=$(stalled $st "$B/stall-bt.data" "$BT" -q -o "$B/stall-bt.data" --stdio --top 0 "$B/procs" forks $N)
	echo "| $st s | ${a// / / } | ${b// / / } | ${c// / / } |"
done
echo
perf record -q --call-graph dwarf -o "$B/forks-dwarf.data" "$B/procs" forks $N >/dev/null 2>&1
read -r tb rb < <(m 1 "$BT" -i "$B/forks-dwarf.data" --stdio --top 1)
read -r tp rp < <(m 1 perf report -i "$B/forks-dwarf.data" --stdio)
read -r ds _ _ < <(counts "$B/forks-dwarf.data")
echo "Reading \`perf record --call-graph dwarf\` of the same $N processes ($ds"
echo "samples, 8 KiB stack copies, $(mib $(( $(stat -c %s "$B/forks-dwarf.data") / 1024 ))) MiB):"
echo "benchtui \`-i F --stdio\` $(mib "$rb") MiB in $tb s, \`perf report -i F --stdio\`"
echo "$(mib "$rp") MiB in $tp s (peak RSS; before the unwinder kept the sessions"
echo "of its 64 most recent processes only: 302 MiB, perf report 109 MiB)."
bash bench/selfprof.sh --head
lim "forks-dwarf.data" "$BT" -i "$B/forks-dwarf.data" --stdio --top 1
