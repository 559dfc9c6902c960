#!/bin/bash
# Agreement with perf itself (issue 5): on a perf.data written by
# `perf record`, and on one written by benchtui, the per-function sample
# counts of user-space code equal `perf report`'s and the per-instruction
# counts equal `perf annotate`'s; `perf report` opens benchtui's file.
. tests/lib.sh
command -v perf >/dev/null || skip "perf is not installed (scripts/deps.sh installs linux-perf)"
need_recording
split=$(fixture split)
clk=$(fixture clock)
# "samples dso symbol" for user-space functions, as perf report sees them
perf_funcs() {
	perf report -i "$1" --stdio --no-children --sort dso,sym -F sample,dso,sym 2>/dev/null |
		awk '$3 == "[.]" { print $1, $2, $4 }' | plt_as_init | sort -k2
}
# the same from benchtui's hot-function table (its self samples: with call
# chains the table also lists callers with none, and a Children column
# comes before Module). perf 6.1 counts samples in
# PLT stubs for the symbol before .plt (_init); objdump and benchtui name
# the stubs (sym@plt): their sum per module is what perf calls _init.
bt_funcs() {
	"$BT" -i "$1" --stdio --top 1 2>/dev/null |
		awk '/^#Percent/ { t = 1; for (i = 1; i <= NF; i++) if ($i == "Module") m = i; next }
		     t && NF == 0 { exit }
		     t && $2 > 0 && $m != "[kernel]" && $m != "[unknown]" {
			if ($NF ~ /@plt$/) { plt[$m] += $2; next }
			print $2, $m, $NF }
		     END { for (m in plt) print plt[m], m, "_init" }' | sort -k2
}
# "address samples" of one function
perf_insns() {
	perf annotate -i "$1" --stdio -s "$2" --show-nr-samples 2>/dev/null |
		awk '$2 == ":" && $3 ~ /^[0-9a-f]+:$/ && $1 > 0 { sub(":", "", $3); print $3, $1 }'
}
bt_insns() {
	"$BT" -i "$1" --stdio -s "$2" --format json 2>/dev/null |
		sed -n 's/.*"kind": "insn", "address": "0x\([0-9a-f]*\)".*"samples": \([0-9]*\),.*/\1 \2/p' |
		awk '$2 > 0'
}

compare() {	# compare WHAT FILE_A FILE_B
	if [ ! -s "$2" ]; then
		fail "$1: perf printed nothing"
	elif diff "$2" "$3" >"$TMP/d"; then
		ok "$1: $(wc -l <"$2") rows equal"
	else
		fail "$1 differs (< perf, > benchtui)"; head -20 "$TMP/d"
	fi
}

# perf's recordings (perf*.data) and perf's reading of them are made once
# per make check, in $SHARE (lib.sh); benchtui's (bt*.data) every time
at() { case $1 in perf*) echo "$SHARE/$1" ;; *) echo "$TMP/$1" ;; esac; }
# perf's default recording, as users make it (the BPF side-band on: lib.sh)
oracle perf command perf record -q -e cpu-clock -F 4000 -o "$SHARE/perf.data" "$split" >/dev/null 2>&1 ||
	skip "perf record failed here"
oracle perfclk perf record -q -e cpu-clock -F 4000 -o "$SHARE/perfclk.data" "$clk" >/dev/null 2>&1
"$BT" -q -o "$TMP/bt.data" --stdio "$split" >/dev/null 2>&1
"$BT" -q -o "$TMP/btclk.data" --stdio "$clk" >/dev/null 2>&1

for f in perf.data perfclk.data bt.data btclk.data; do
	memo perf_funcs "$(at $f)" >"$TMP/p"
	bt_funcs "$(at $f)" >"$TMP/b"
	compare "$f: functions" "$TMP/p" "$TMP/b"
done
# per instruction: every user-space function with enough samples to be
# there in every run (50 of ~250-3000), in both kinds of file, the vDSO
# included (perf finds its image in the build-id cache perf record filled)
perf_hot() {
	perf report -i "$1" --stdio --sort dso,sym -F sample,dso,sym 2>/dev/null |
		awk '$3 == "[.]" && $1 >= 50 { print $4 }'
}
for f in perf.data bt.data perfclk.data btclk.data; do
	memo perf_hot "$(at $f)" >"$TMP/hot"
	[ -s "$TMP/hot" ] || { fail "$f: no function with 50 samples"; continue; }
	while read -r fn; do
		memo perf_insns "$(at $f)" "$fn" | sort >"$TMP/p"
		bt_insns "$(at $f)" "$fn" | sort >"$TMP/b"
		compare "$f: $fn instructions" "$TMP/p" "$TMP/b"
	done <"$TMP/hot"
done
# the text and JSON exports of perf's recording say the same (libc, the vDSO)
for f in perf.data perfclk.data; do
	"$BT" -i "$SHARE/$f" --stdio --top 10 >"$TMP/a.txt" 2>/dev/null
	"$BT" -i "$SHARE/$f" --stdio --top 10 --format json >"$TMP/a.json" 2>/dev/null
	out=$(python3 "$TOP/tests/tools/export-agree.py" "$TMP/a.txt" "$TMP/a.json") &&
		ok "$f: text and JSON $out" || fail "$f: text and JSON disagree: $out"
done
# -s takes the names perf prints (C++ without return type or parameters)
cxx=$(fixture_as cxx cxx.cc c++ -O2 -g)
oracle cxx perf record -q -e cpu-clock -F 4000 -o "$SHARE/cxx.data" "$cxx" 300000 >/dev/null 2>&1
# (a name perf prints twice is an overload, found by the next check; perf's
# _init is its name for PLT stubs, which benchtui names sym@plt)
perf_names() {
	perf report -i "$1" --stdio --sort dso,sym -F sample,dso,sym 2>/dev/null |
		awk '$2 == "cxx" && $3 == "[.]" { $1 = $2 = $3 = ""; sub(/^ +/, ""); print }' |
		grep -v '^_init$' | sort | uniq -u
}
memo perf_names "$SHARE/cxx.data" >"$TMP/names"
bad=""
while read -r name; do
	"$BT" -i "$SHARE/cxx.data" --stdio -s "$name" >"$TMP/s.out" 2>"$TMP/s.err" &&
		grep -q "^## $name" "$TMP/s.out" || bad="$bad '$name'"
done <"$TMP/names"
[ -s "$TMP/names" ] && [ -z "$bad" ] && ok "-s takes perf's names: $(tr '\n' ';' <"$TMP/names")" ||
	fail "-s does not find perf's names:$bad"
if ! "$BT" -i "$SHARE/cxx.data" --stdio -s ns::mix >/dev/null 2>"$TMP/s.err" &&
    grep -q "'ns::mix' names 2 functions: 'ns::mix(" "$TMP/s.err"; then
	ok "-s with an overloaded name says which functions: $(cat "$TMP/s.err")"
else
	fail "-s ns::mix: $(cat "$TMP/s.err")"
fi
# inline rows name C++ functions once, with their parameters: no "()()"
"$BT" -i "$SHARE/cxx.data" --stdio --all 2>/dev/null | grep 'inlined ' >"$TMP/inl"
[ -s "$TMP/inl" ] && ! grep -q '()()' "$TMP/inl" &&
	ok "inline rows of C++ code without '()()' ($(grep -c . "$TMP/inl") rows, e.g. $(head -1 "$TMP/inl" | sed 's/^ *//'))" ||
	fail "inline rows: $(grep -m2 '()()' "$TMP/inl")"

# every perf tool takes benchtui's recordings, and counts what benchtui counts
nb=$("$BT" -i "$TMP/bt.data" --stdio --top 0 2>/dev/null | awk '/^# samples:/ { sub(",", "", $3); print $3 }')
pcount() {	# samples perf report counts in FILE
	perf report -i "$1" --stdio --sort comm -F sample -g none 2>/dev/null | awk '!/^#/ && NF { s += $1 } END { print s + 0 }'
}
for c in "report --stdio" "report --children --stdio" "script" "annotate --stdio -s work_a" \
    "inject -o $TMP/inj.data" "inject -b -o $TMP/injb.data" "inject --jit -o $TMP/injj.data" \
    "buildid-list"; do
	# shellcheck disable=SC2086
	perf $c -i "$TMP/bt.data" >"$TMP/p.out" 2>&1 && ok "perf $c: exit 0" ||
		fail "perf $c on benchtui's recording: exit $? ($(tail -1 "$TMP/p.out"))"
done
n=$(perf script -i "$TMP/bt.data" -F ip -G 2>/dev/null | grep -c .)
[ "$n" = "$nb" ] && ok "perf script: $n samples, as benchtui" || fail "perf script: $n samples, benchtui $nb"
for f in inj injb injj; do
	[ "$(pcount "$TMP/$f.data")" = "$nb" ] && ok "perf inject ($f): the same $nb samples" ||
		fail "perf inject ($f): $(pcount "$TMP/$f.data") samples, benchtui $nb"
done
(cd "$TMP" && perf archive bt.data >/dev/null 2>&1) && [ -s "$TMP/bt.data.tar.bz2" ] &&
	ok "perf archive: $(tar tjf "$TMP/bt.data.tar.bz2" | grep -c .) files" || fail "perf archive on benchtui's recording"
# a binary without a GNU build-id: no empty build-id entry, so perf names its functions
cc -O2 -g -Wl,--build-id=none -o "$TMP/nobid" tests/fixtures/split.c
"$BT" -q -o "$TMP/nobid.data" --stdio --top 0 "$TMP/nobid" >/dev/null 2>&1
perf report -i "$TMP/nobid.data" --stdio --sort sym 2>/dev/null | grep -q '\[\.\] work_a' &&
	ok "perf names the functions of a binary without a build-id" ||
	fail "perf report shows no work_a for a binary without a build-id"

# perf opens benchtui's recording and sees the same event and sample count
n=$(perf report -i "$TMP/bt.data" --stdio --sort comm -F sample -g none 2>/dev/null |
	awk '!/^#/ && NF { s += $1 } END { print s }')
want=$("$BT" -i "$TMP/bt.data" --stdio 2>/dev/null | awk '/^# samples:/ { sub(",", "", $3); print $3 }')
[ -n "$n" ] && [ "$n" = "$want" ] && ok "perf report -i benchtui.data: $n samples, as benchtui" ||
	fail "perf report -i benchtui.data: '$n' samples, benchtui '$want'"
finish
