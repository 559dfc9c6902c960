#!/bin/bash
# The first-screen rows of make bench (bench/run.sh; issue 30): the
# browser's first screen (bench/first-screen.c) on perf's and benchtui's
# recordings of bench/gen.sh's program, against perf report then perf
# annotate of the hottest function, in CPU time (user + system: others
# share this machine), medians of RUNS. Prints a markdown section; sets
# fs_top1, fs_mem (for run.sh's targets table) in the file FS_VARS if set.
#   B=build/bench BT=./benchtui bench/first-screen.sh [RUNS] [SIZES...]
set -eu
RUNS=${1:-5}
shift || true
SIZES=${*:-10000 100000 1000000}
B=${B:-build/bench}
BT=${BT:-./benchtui}
m() { "$B/measure" -c "$@"; }	# prints "median_cpu_s maxrss_kib"
# each first screen as a first opening reads it (the first-read cache off),
# but "again ms": the same file opened again, its first read from the cache
export BENCHTUI_READ_CACHE=0
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "-" }'; }
ms() { awk -v s="$1" 'BEGIN { printf "%.1f", s * 1000 }'; }
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
samples() { "$BT" -i "$1" --stdio --top 0 | awk '/^# samples:/ { sub(",", "", $3); print $3 }'; }
# limits FILE: the first screen's steps (first-screen --phases), medians
# of RUNS, the two largest first: "read 57, annotate 18"
limits() {
	for _ in $(seq "$RUNS"); do "$B/first-screen" --phases --open "$1" 2>&1 >/dev/null; done |
	grep -v '^free ' | sort -k1,1 -k2,2g | awk '{ v[$1, ++n[$1]] = $2 }
		END { for (k in n) printf "%s %.0f\n", k, v[k, int((n[k] + 1) / 2)] }' |
	sort -k2 -rn | head -2 | awk '{ printf "%s%s %s ms", (NR > 1 ? ", " : ""), $1, $2 }'
}

echo "## First screen: hot-function table and the hottest function annotated"
echo
echo "What the browser builds before its first paint (bench/first-screen.c: the"
echo "recording read, the hot-function table, the header with the lint findings:"
echo "\"table ms\"), then with the hottest function annotated as Enter opens it"
echo "(\"first screen ms\"), vs \`perf report -i F --stdio\` then"
echo "\`perf annotate -i F --stdio -s huge\` (target: under 50 ms at 1M samples)."
echo "The hottest function here is the 30,000-instruction \`huge\`. The browser"
echo "paints before it unwinds (docs/callchains.md \"Deferred chains\"): \"+ chains"
echo "ms\" is the first screen and then the chains read and the screen built"
echo "again with Children and callers, \"eager ms\" the same first screen with"
echo "the chains read first (as --stdio and the exports read). CPU time"
echo "(user + system), medians of $RUNS; \"limited by\": the two largest steps of"
echo "the first screen (first-screen --phases: read, selection, table, header,"
echo "annotate). \"again ms\": the first screen when the file is opened again,"
echo "its first read kept from the first opening (docs/formats.md \"First-read"
echo "cache\": recordings of 8 MiB or more); the other columns as a first opening."
echo "\"first \`-i\` after recording\": benchtui's own recording opened as its"
echo "recorder leaves it (the read back after recording keeps the first read:"
echo "first-screen --eager --recorded, what \`benchtui -o F --stdio\` does once"
echo "the run ends, in a cache of its own), then the browser's first opening."
echo
echo "| recording | samples | table ms | first screen ms | again ms | + chains ms | eager ms | perf ms | ratio | benchtui MiB | perf report MiB | ratio | limited by |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for n in $SIZES; do
	for kind in perf bt; do
		f=$B/$kind-$n.data
		[ -s "$f" ] || continue
		read -r t0 _ < <(m "$RUNS" "$B/first-screen" "$f")
		read -r tb rb < <(m "$RUNS" "$B/first-screen" --open "$f")
		read -r tc _ < <(m "$RUNS" "$B/first-screen" --open --chains "$f")
		read -r te _ < <(m "$RUNS" "$B/first-screen" --open --eager "$f")
		BENCHTUI_READ_CACHE= "$B/first-screen" "$f"	# kept, if big enough
		read -r tg _ < <(BENCHTUI_READ_CACHE= m "$RUNS" "$B/first-screen" --open "$f")
		read -r tr rr < <(m "$RUNS" perf report -i "$f" --stdio)
		read -r ta ra < <(m "$RUNS" perf annotate -i "$f" --stdio -s huge)
		tp=$(awk -v a="$tr" -v b="$ta" 'BEGIN { print a + b }')
		rp=$(( rr > ra ? rr : ra ))
		[ -n "${FS_VARS:-}" ] && {
			[ "$n" = 1000000 ] && echo "fs_top1=\"\${fs_top1:-} $(ms "$tb")\"" >>"$FS_VARS"
			echo "mem_ratio=\"\${mem_ratio:-} $(ratio "$rp" "$rb")\"" >>"$FS_VARS"
		}
		echo "| $kind-$n.data | $(samples "$f") | $(ms "$t0") | $(ms "$tb") | $(ms "$tg") | $(ms "$tc") | $(ms "$te") | $(ms "$tp") | $(ratio "$tp" "$tb") | $(mib "$rb") | $(mib "$rp") | $(ratio "$rp" "$rb") | $(limits "$f") |"
		[ "$kind" = bt ] || continue
		# the cache as benchtui's recorder leaves it, then the first -i
		rc=$(mktemp -d)
		(
		export XDG_CACHE_HOME=$rc BENCHTUI_READ_CACHE=
		"$B/first-screen" --eager --recorded "$f" >/dev/null
		read -r t0 _ < <(m "$RUNS" "$B/first-screen" "$f")
		read -r tb rb < <(m "$RUNS" "$B/first-screen" --open "$f")
		read -r tc _ < <(m "$RUNS" "$B/first-screen" --open --chains "$f")
		echo "| $kind-$n.data, first \`-i\` after recording | $(samples "$f") | $(ms "$t0") | $(ms "$tb") | - | $(ms "$tc") | - | $(ms "$tp") | $(ratio "$tp" "$tb") | $(mib "$rb") | $(mib "$rp") | $(ratio "$rp" "$rb") | $(limits "$f") |"
		[ -n "${FS_VARS:-}" ] && [ "$n" = 1000000 ] &&
			echo "fs_rec1=\"$(ms "$tb")\"" >>"$FS_VARS"
		true
		)
		rm -rf "$rc"
	done
done
