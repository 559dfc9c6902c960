#!/bin/bash
# make bench-growth (issue 30: "time and memory at 10k, 100k, 1M, 10M and
# 100M samples, and at 1, 10, 100, 1,000 processes: the cost should grow
# linearly or better, and the table says where it does not"). Not part of
# make bench: perf report alone reads 10M samples for tens of seconds.
#
# Recordings of bench/gen.sh's program (perf record -e cpu-clock -F 20000,
# the sizes make bench records; 10M: replicated, below), and of `procs forks N`
# (tests/fixtures/procs.c: N short processes one after another) recorded
# by benchtui at its defaults (a 512-byte stack copy a sample) and by perf
# record --call-graph dwarf (8 KiB); on each, the CPU time (user + system)
# and peak RSS, medians of RUNS, of the browser's first screen
# (bench/first-screen.c --open: the table and the hottest function
# annotated), `benchtui -i F --stdio`, `benchtui -i F --export F.json
# --format json`, and `perf report -i F --stdio` beside. Then the growth
# per decade: each reader's time and memory at the size over the size
# before, beside the samples' growth. Markdown on stdout; the raw
# measurements in $B/growth.raw.
#   B=build/bench BT=./benchtui bash bench/growth.sh [RUNS] [SIZES...]
# SIZES: samples recorded by perf (10000 ... 10000000), bt:N: by benchtui
# at its defaults (with call chains), or Nx: the 1M-sample
# recording's samples repeated N / 1M times (bench/replicate.py: 10M
# samples is ~500 CPU seconds of work to record at 20 kHz, an hour of a
# shared machine), and procs:N; default 10000 100000 1000000 10000000x
# procs:1 procs:10 procs:100 procs:1000 bt:10000 bt:100000 bt:1000000.
# G100M=1 adds 100000000x to the default (opt-in: a 3.9 GB file, and its
# perf report runs for minutes and GBs). A recording is made once and kept
# in $B (1M samples: 40 MB; 10M: 400 MB), but a replicated one of 100x or
# more is removed after its row (replicate.py makes it again in half a
# minute). KEEP=1 keeps the rows of
# $B/growth.raw that this run does not measure (a row measured again
# replaces its own), and the tables are of all of them.
set -eu
B=${B:-build/bench}
BT=${BT:-./benchtui}
RUNS=${1:-3}
shift || true
SIZES=${*:-10000 100000 1000000 10000000x ${G100M:+100000000x} procs:1 procs:10 procs:100 procs:1000 bt:10000 bt:100000 bt:1000000}
export LC_ALL=C
# every opening a first one, as the rows before the first-read cache
# (docs/formats.md): with it, the first screen's runs after the first
# read no sample
export BENCHTUI_READ_CACHE=0
mkdir -p "$B"
[ "$B/measure" -nt build/tools/measure ] || cp build/tools/measure "$B/measure"
[ "$B/first-screen" -nt build/libbenchtui.a ] || cc -O2 -Iinclude -o "$B/first-screen" \
	bench/first-screen.c build/libbenchtui.a $(pkg-config --libs libdw libelf libzstd zlib) \
	-lZydis -lZycore -liberty -lm -ldl
if [ ! -x "$B/big" ] || [ bench/gen.sh -nt "$B/big" ]; then
	sh bench/gen.sh 3000 6000 >"$B/big.c"
	cc -O2 -g -pthread -o "$B/big" "$B/big.c"
fi
[ "$B/procs" -nt tests/fixtures/procs.c ] || cc -O2 -g -pthread -o "$B/procs" tests/fixtures/procs.c
m() { "$B/measure" -c "$@" 2>/dev/null || echo "- -"; }	# "median_cpu_s maxrss_kib"
samples() { "$BT" -i "$1" --stdio --top 0 2>/dev/null | awk '/^# samples:/ { sub(",", "", $3); print $3 }'; }
t=$("$B/measure" -c 1 "$B/big" 20000 | cut -d' ' -f1)
per_s=$(awk -v t="$t" 'BEGIN { printf "%d", 20000 / t }')
load=$(cut -d' ' -f1-3 /proc/loadavg)
start=$(date +%s)

# the recordings: "kind size file" lines
recs=
for s in $SIZES; do
	case $s in
	procs:*)
		n=${s#procs:}
		f=$B/procs-bt-$n.data
		[ -s "$f" ] || "$BT" -q -o "$f" "$B/procs" forks "$n" </dev/null >/dev/null 2>&1
		recs="$recs bt-procs:$n:$f"
		f=$B/procs-dwarf-$n.data
		[ -s "$f" ] || perf record -q --call-graph dwarf -o "$f" "$B/procs" forks "$n" >/dev/null 2>&1
		recs="$recs dwarf-procs:$n:$f"
		;;
	bt:*)
		# benchtui's own default recording (call chains: a 512-byte
		# stack copy a sample), as make bench records bt-N.data
		n=${s#bt:}
		rounds=$(awk -v n="$n" -v r="$per_s" 'BEGIN { printf "%d", n / 20000 * r * 0.75 }')
		f=$B/bt-$n.data
		[ -s "$f" ] || "$BT" -q -e cpu-clock -F 20000 -o "$f" "$B/big" "$rounds" </dev/null >/dev/null 2>&1
		recs="$recs bt:$n:$f"
		;;
	*x)
		# too many to record here: the 1M-sample recording's samples
		# repeated (bench/replicate.py), labelled as such
		n=${s%x}
		f=$B/perf-$s.data
		[ -s "$f" ] || python3 bench/replicate.py "$B/perf-1000000.data" "$f" $(( n / 1000000 ))
		recs="$recs perf:$s:$f"
		;;
	*)
		# cpu-clock samples CPU time: rounds for s samples at 20 kHz,
		# less the sampling's own kernel time (0.75, as make bench)
		rounds=$(awk -v n="$s" -v r="$per_s" 'BEGIN { printf "%d", n / 20000 * r * 0.75 }')
		f=$B/perf-$s.data
		[ -s "$f" ] || perf record -q -e cpu-clock -F 20000 -o "$f" "$B/big" "$rounds" >/dev/null 2>&1
		recs="$recs perf:$s:$f"
		;;
	esac
done

raw=$B/growth.raw
[ -n "${KEEP:-}" ] && [ -f "$raw" ] || : >"$raw"
for r in $recs; do
	kind=${r%%:*}
	rest=${r#*:}
	case $kind in
	*-procs) kind=${kind%-procs}; size=procs:${rest%%:*}; rest=${rest#*:} ;;
	*) size=${rest%%:*}; rest=${rest#*:} ;;
	esac
	f=$rest
	ns=$(samples "$f")
	bytes=$(stat -c %s "$f")
	read -r tf rf < <(m "$RUNS" "$B/first-screen" --open "$f")
	read -r ts rs < <(m "$RUNS" "$BT" -i "$f" --stdio)
	read -r tj rj < <(m "$RUNS" "$BT" -i "$f" --export "$B/growth.json" --format json)
	read -r tp rp < <(m "$RUNS" perf report -i "$f" --stdio)
	line="$kind $size $ns $bytes $tf $rf $ts $rs $tj $rj $tp $rp"
	# KEEP: a row measured again takes its old row's place
	awk -v l="$line" -v k="$kind" -v s="$size" '$1 == k && $2 == s { print l; done = 1; next }
		{ print } END { if (!done) print l }' "$raw" >"$raw.tmp"
	mv "$raw.tmp" "$raw"
	case $size in
	*x) [ "${size%x}" -lt 100000000 ] || rm -f "$f" ;;
	esac
done

echo "## Growth curves"
echo
echo "Made by \`make bench-growth\` (bench/growth.sh), $(date -u '+%Y-%m-%d %H:%M') UTC, in"
echo "$(( ($(date +%s) - start) / 60 )) minutes, its recordings included. CPU time (user + system, s) and peak RSS"
echo "(MiB) of each reader, medians of $RUNS, on recordings of growing size:"
echo "the browser's first screen (bench/first-screen.c --open: the table and"
echo "the hottest function annotated), \`benchtui -i F --stdio\`, \`benchtui -i F"
echo "--export F.json --format json\`, and \`perf report -i F --stdio\` beside."
echo "perf-N.data: \`perf record -e cpu-clock -F 20000\` of bench/gen.sh's"
echo "program (3,000 functions and a 30,000-instruction one, two threads);"
echo "perf-Nx.data (**replicated**, not recorded): perf-1000000.data's samples"
echo "repeated N / 1M times, each copy's times after the last (bench/replicate.py:"
echo "the same functions, so the per-sample reading cost, not more symbols);"
echo "procs: \`procs forks N\` (tests/fixtures/procs.c), recorded by benchtui at"
echo "its defaults (bt: a 512-byte stack copy a sample) and by \`perf record"
echo "--call-graph dwarf\` (8 KiB); bt-N: benchtui's own recording of the program"
echo "of perf-N (\`-e cpu-clock -F 20000\`, its default call chains: the first"
echo "screen reads them after its first paint, --stdio and the exports before). Every"
echo "opening a first one (\`BENCHTUI_READ_CACHE=0\`). Load average at the start: $load (2 CPUs)."
echo
echo "| recording | samples | file MiB | first screen s | MiB | --stdio s | MiB | json s | MiB | perf report s | MiB |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
awk '{ printf "| %s-%s | %s | %.1f | %s | %.1f | %s | %.1f | %s | %.1f | %s | %.1f |\n",
	$1, $2, $3, $4 / 1048576, $5, $6 / 1024, $7, $8 / 1024, $9, $10 / 1024, $11, $12 / 1024 }' "$raw"
echo
echo "Growth from the row before (same kind): the samples' factor, then each"
echo "reader's time and memory factors. Linear in the samples is a time factor"
echo "equal to the samples'; **bold**: more than 1.2x the samples' factor"
echo "(the cost per sample grew: worse than linear)."
echo
echo "| recording | samples × | first screen time × | mem × | --stdio time × | mem × | json time × | mem × | perf report time × | mem × |"
echo "|---|---|---|---|---|---|---|---|---|---|"
awk 'function f(a, b, lin) { if (b <= 0 || a == "-" || b == "-") return "-"
		x = a / b; return (lin > 0 && x > 1.2 * lin) ? sprintf("**%.1f**", x) : sprintf("%.1f", x) }
	# a curve: the kind, and samples or processes (bt has both)
	{ k = $1 ($2 ~ /^procs:/ ? "p" : "s")
	  if ((k, 3) in p) { sx = $3 / p[k, 3]
		printf "| %s-%s | %.1f | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, sx,
			f($5, p[k, 5], sx), f($6, p[k, 6], sx), f($7, p[k, 7], sx), f($8, p[k, 8], sx),
			f($9, p[k, 9], sx), f($10, p[k, 10], sx), f($11, p[k, 11], sx), f($12, p[k, 12], sx) }
	  for (i = 1; i <= NF; i++) p[k, i] = $i }' "$raw"
