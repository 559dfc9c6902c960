#!/bin/bash
# A long recording (LONG_SECONDS, default 60, at 4 kHz on two threads):
# memory stays bounded (about the peak of a run a third as long), and every
# sample is accounted for: the samples the recorder counted, the records in
# the file and the report agree, and samples + lost match the CPU time the
# benchmark used at 4000 per second.
. tests/lib.sh
need_recording
L=${LONG_SECONDS:-60}
lr=$(fixture longrun -pthread)
M=$TOP/$BUILD/tools/measure

rec() {	# rec SECONDS NAME: record, keep stderr, print peak RSS (KiB)
	"$M" 1 "$BT" -F 4000 -o "$TMP/$2.data" --stdio --top 0 "$lr" "$1" 2>"$TMP/$2.err" | cut -d' ' -f2
}
short=$(rec "$(awk -v l="$L" 'BEGIN { print l / 3 }')" short)
long=$(rec "$L" long)
# three times the samples may not cost more than 25% more memory (+8 MiB slack)
if [ -n "$short" ] && [ -n "$long" ] && [ "$long" -lt $((short * 5 / 4 + 8192)) ]; then
	ok "memory bounded: peak RSS $((long / 1024)) MiB for ${L} s, $((short / 1024)) MiB for a third of it"
else
	fail "memory grows with the run: ${long} KiB for ${L} s, ${short} KiB for a third"
fi
counted=$(sed -n 's/^benchtui: \([0-9]*\) samples.*lost \([0-9]*\);.*/\1 \2/p' "$TMP/long.err")
n=${counted% *}; lost=${counted#* }
file=$("$TOP/$BUILD/tools/pd-dump" "$TMP/long.data" | awk '/^records type 9:/ { print $4 }')
report=$("$BT" -i "$TMP/long.data" --stdio --top 0 | awk '/^# samples:/ { sub(",", "", $3); print $3, $5 }')
cpu=$(awk '/^cpu_ns/ { print $2 }' "$TMP/long.err")
want=$(awk -v c="$cpu" 'BEGIN { printf "%d", c / 1e9 * 4000 }')
if [ -n "$n" ] && [ "$n" = "$file" ] && [ "$n $lost" = "$report" ]; then
	ok "$n samples and $lost lost: the recorder, the file and the report agree"
else
	fail "recorder '$n $lost', file '$file', report '$report'"
fi
if awk -v s="$n" -v l="$lost" -v w="$want" 'BEGIN { d = (s + l) / w; exit !(d > 0.9 && d < 1.1) }'; then
	ok "samples + lost = $((n + lost)), CPU time x 4000 Hz = $want (within 10%)"
else
	fail "samples + lost = $((n + lost)), expected about $want from the CPU time"
fi
finish
