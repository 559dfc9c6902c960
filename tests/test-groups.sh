#!/bin/bash
# Recording event groups (issue 25): -e '{a,b}', '{a,b}:S', several -e,
# groups mixed with plain events, modifiers on members and on the group.
# The oracle is perf record of the same program with the same list: perf
# evlist -g and -v read benchtui's file as perf's (the groups, the names,
# the bits of the list), perf report counts each event's samples in the
# same proportion, and benchtui reads its own file as perf report does.
. tests/lib.sh
command -v perf >/dev/null || skip "perf is not installed (scripts/deps.sh installs linux-perf)"
need_recording
split=$(fixture split)

# "name samples" of every event perf reports, in file order
perf_events() {
	perf report -i "$1" --stdio --no-group --sort comm -F sample -g none 2>/dev/null |
		awk '/^# Samples: .* of event/ { if (e != "") print e, s; e = $NF; gsub("\047", "", e); s = 0; next }
		     !/^#/ && NF { s += $1 } END { if (e != "") print e, s }'
}
# the same from benchtui: the header's list of events with samples
bt_events() {
	"$BT" -i "$1" --stdio --top 0 2>/dev/null |
		sed -n 's/^# note: [0-9]* events with samples: \(.*\); -e NAME.*/\1/p' |
		sed 's/), /)\n/g' | sed 's/^\(.*\) (\([0-9]*\))$/\1 \2/'
}
# "name: bits" of each event: what the list sets (the group's shape, what
# a member samples), not what differs between the recorders (benchtui's
# clock, exclude_hv, call chains, perf's ksymbol events)
attr_bits() {
	perf evlist -v -i "$1" 2>/dev/null | sed 's/{ sample_period, sample_freq }/period/' |
		tr -d ' ' | awk -F, '{
		n = $1; sub(":.*", "", n); line = n ":"
		for (i = 1; i <= NF; i++) {
			split($i, kv, ":"); k = kv[1]; v = kv[2]
			if (i == 1) { k = kv[2]; v = kv[3] }
			if (k ~ /^(exclude_user|exclude_kernel|disabled|enable_on_exec|mmap|comm)$/ ||
			    k == "period")
				line = line " " k "=" v
			if (k == "sample_type") line = line " read=" (v ~ /READ/)
			if (k == "read_format") line = line " group=" (v ~ /GROUP/)
		}
		print line }'
}
# the share of one event's samples that the other event has: A/B in %
ratio() {	# ratio FILE_OF_"name n" A B
	awk -v a="$2" -v b="$3" '$1 == a { x = $2 } $1 == b { y = $2 }
		END { if (y > 0) printf "%d\n", 100 * x / y; else print 0 }' "$1"
}
# work_a's share of work_a + work_b in one event's samples, in %, from benchtui
share_a() {
	"$BT" -i "$1" --stdio --top 0 -e "$2" 2>/dev/null |
		awk '$NF == "work_a" { a = $2 } $NF == "work_b" { b = $2 }
		     END { if (a + b > 0) printf "%d\n", 100 * a / (a + b); else print 0 }'
}

# --- {cpu-clock,task-clock}: each member samples on its own
for list in '{cpu-clock,task-clock}' '{cpu-clock,task-clock}:S'; do
	tag=$(echo "$list" | tr -dc 'a-zS')
	"$BT" -q -F 2000 -e "$list" -o "$TMP/b-$tag.data" "$split" >/dev/null 2>"$TMP/err" ||
		{ fail "benchtui -e '$list': $(cat "$TMP/err")"; continue; }
	oracle "p-$tag" perf record -q -F 2000 -e "$list" -o "$SHARE/p-$tag.data" "$split" \
		>/dev/null 2>&1 || { skipped "perf record -e '$list' failed here"; continue; }
	g=$(perf evlist -g -i "$TMP/b-$tag.data" 2>&1)
	pg=$(memo perf evlist -g -i "$SHARE/p-$tag.data")
	[ "$g" = "$pg" ] && [ "$g" = "{cpu-clock,task-clock}" ] &&
		ok "$list: perf evlist -g prints $g, as for perf's" ||
		fail "$list: perf evlist -g prints '$g', on perf's file '$pg'"
	attr_bits "$TMP/b-$tag.data" >"$TMP/bits-b"
	memo attr_bits "$SHARE/p-$tag.data" >"$TMP/bits-p"
	diff "$TMP/bits-p" "$TMP/bits-b" >"$TMP/d" &&
		ok "$list: the attrs' group bits as perf's: $(tr '\n' ';' <"$TMP/bits-b")" ||
		{ fail "$list: attrs differ from perf's (< perf, > benchtui)"; cat "$TMP/d"; }
	perf report --header-only -i "$TMP/b-$tag.data" 2>/dev/null | grep -q '^# group: {cpu-clock,task-clock}$' &&
		ok "$list: perf report --header-only: # group: {cpu-clock,task-clock}" ||
		fail "$list: perf report --header-only shows no group"
	# per-event samples: task-clock:cpu-clock as in perf's recording (~1:1)
	perf_events "$TMP/b-$tag.data" >"$TMP/pe-b"
	memo perf_events "$SHARE/p-$tag.data" >"$TMP/pe-p"
	rb=$(ratio "$TMP/pe-b" task-clock cpu-clock)
	rp=$(ratio "$TMP/pe-p" task-clock cpu-clock)
	if [ "$rb" -ge 90 ] && [ "$rb" -le 110 ] && [ "$rp" -ge 90 ] && [ "$rp" -le 110 ]; then
		ok "$list: task-clock is $rb% of cpu-clock's samples in perf report of benchtui's file, $rp% of perf's"
	else
		fail "$list: task-clock/cpu-clock samples: $rb% (benchtui's file), $rp% (perf's): $(tr '\n' ' ' <"$TMP/pe-b") / $(tr '\n' ' ' <"$TMP/pe-p")"
	fi
	# benchtui reads its file as perf report does, every event by its name
	bt_events "$TMP/b-$tag.data" >"$TMP/be-b"
	diff "$TMP/pe-b" "$TMP/be-b" >/dev/null &&
		ok "$list: benchtui -i counts each event as perf report: $(tr '\n' ' ' <"$TMP/be-b")" ||
		fail "$list: benchtui -i: $(tr '\n' ' ' <"$TMP/be-b"), perf report: $(tr '\n' ' ' <"$TMP/pe-b")"
	for ev in cpu-clock task-clock; do
		a=$(share_a "$TMP/b-$tag.data" $ev)
		[ "$a" -ge 65 ] && [ "$a" -le 85 ] &&
			ok "$list: -e $ev: work_a has $a% of work_a + work_b (3:1 is 75%)" ||
			fail "$list: -e $ev: work_a has $a% of work_a + work_b, want 75% +- 10"
	done
	"$BT" -i "$TMP/b-$tag.data" --stdio --top 0 -e task-clock 2>&1 | sed -n 3p >"$TMP/h"
	grep -q '^# event: task-clock, 2000 Hz, group {cpu-clock,task-clock}' "$TMP/h" &&
		ok "$list: the header names the group: $(cat "$TMP/h")" ||
		fail "$list: header: $(cat "$TMP/h")"
	perf script -i "$TMP/b-$tag.data" >"$TMP/script" 2>"$TMP/err"
	n=$(grep -c 'task-clock' "$TMP/script")
	[ "$n" -gt 0 ] && ok "$list: perf script reads it ($n task-clock lines)" ||
		fail "$list: perf script: $(head -3 "$TMP/err")"
done

# --- several -e, a group among plain events, modifiers on a member and the group
list='page-faults,{cpu-clock:u,task-clock}:S'
"$BT" -q -F 2000 -e page-faults -e '{cpu-clock:u,task-clock}:S' -o "$TMP/mix.data" "$split" \
	>/dev/null 2>"$TMP/err" || fail "benchtui -e page-faults -e '{cpu-clock:u,task-clock}:S': $(cat "$TMP/err")"
if oracle mix perf record -q -F 2000 -e page-faults -e '{cpu-clock:u,task-clock}:S' \
	-o "$SHARE/mix.data" "$split" >/dev/null 2>&1; then
	g=$(perf evlist -g -i "$TMP/mix.data" 2>&1 | tr '\n' ' ')
	pg=$(memo perf evlist -g -i "$SHARE/mix.data" | tr '\n' ' ')
	[ "$g" = "$pg" ] && ok "$list: perf evlist -g: $g" ||
		fail "$list: perf evlist -g: '$g', on perf's file '$pg'"
	attr_bits "$TMP/mix.data" >"$TMP/bits-b"
	memo attr_bits "$SHARE/mix.data" >"$TMP/bits-p"
	diff "$TMP/bits-p" "$TMP/bits-b" >"$TMP/d" &&
		ok "$list: attrs' bits as perf's: $(tr '\n' ';' <"$TMP/bits-b")" ||
		{ fail "$list: attrs differ from perf's (< perf, > benchtui)"; cat "$TMP/d"; }
else
	skipped "perf record -e '$list' failed here"
fi
perf evlist -v -i "$TMP/mix.data" 2>/dev/null | grep -q 'IDENTIFIER' &&
	ok "$list: layouts differ: samples carry IDENTIFIER" ||
	fail "$list: no IDENTIFIER in $(perf evlist -v -i "$TMP/mix.data" 2>&1 | head -3)"
perf_events "$TMP/mix.data" >"$TMP/pe-b"
bt_events "$TMP/mix.data" >"$TMP/be-b"
diff "$TMP/pe-b" "$TMP/be-b" >/dev/null && grep -q '^cpu-clock:u ' "$TMP/be-b" &&
	ok "$list: benchtui -i counts each event as perf report: $(tr '\n' ' ' <"$TMP/be-b")" ||
	fail "$list: benchtui -i: $(tr '\n' ' ' <"$TMP/be-b"), perf report: $(tr '\n' ' ' <"$TMP/pe-b")"
n=$("$BT" -i "$TMP/mix.data" --stdio --top 0 -e '{cpu-clock:u,task-clock}:S' 2>&1 | sed -n 's/^# event: //p')
case $n in
"cpu-clock:u, 2000 Hz, group {cpu-clock:u,task-clock}"*) ok "$list: -e with the group's name selects its leader: $n" ;;
*) fail "$list: -e '{cpu-clock:u,task-clock}:S' shows '$n'" ;;
esac

# --- a bad list: one line, exit 1 (as an unknown event), nothing recorded
for bad in '{cpu-clock' '{cpu-clock,task-clock}x' 'cpu-clock,,task-clock' '{cpu-clock,{task-clock}}' '{cpu-clock,nosuch}'; do
	"$BT" -q -e "$bad" -o "$TMP/bad.data" "$split" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ "$rc" = 1 ] && [ "$(wc -l <"$TMP/err")" = 1 ] && [ ! -e "$TMP/bad.data" ]; then
		ok "-e '$bad': $(cat "$TMP/err")"
	else
		fail "-e '$bad': exit $rc, $(cat "$TMP/err")"
	fi
done
finish
