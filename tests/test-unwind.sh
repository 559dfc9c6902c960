#!/bin/bash
# Call chains (core/unwind, docs/callchains.md) on real recordings of
# tests/fixtures/callers.c, against oracles nobody here wrote:
#  1. perf record --call-graph dwarf: our DWARF chains equal perf script's
#     (perf's own unwinder: libunwind in Debian's perf 6.1) sample by
#     sample, frame addresses compared; libdwfl's frame walk and the
#     cached-row path give the same chains
#  2. the hybrid (frame-pointer chain + registers + 512-byte stack):
#     leaf's callers come out 3:1, memcpy's caller is copier, strlen's
#     measurer, sigismember's (and its PLT stub's) plt_caller, with and
#     without frame pointers; perf record -g gets them wrong
#  3. the hybrid against the full DWARF chain of the same samples (8 KiB
#     copies cut to 512 bytes): immediate callers, and whole chains where
#     frame pointers allow
# and prints the numbers docs/callchains.md quotes: bytes per sample, rate.
. tests/lib.sh
command -v perf >/dev/null || skip "perf is not installed (scripts/deps.sh installs linux-perf)"
T=$TOP/$BUILD/tools
for t in unwind-dump unwind-record; do
	[ -x "$T/$t" ] || skip "$T/$t is not built (make tools)"
done
nofp=$(fixture callers)
fp=$FIX/callers-fp
if [ ! -x "$fp" ] || [ "$TOP/tests/fixtures/callers.c" -nt "$fp" ]; then
	cc -O2 -g -fno-omit-frame-pointer -o "$fp" "$TOP/tests/fixtures/callers.c" ||
		{ echo "cannot build callers-fp"; exit 1; }
fi
D=$T/unwind-dump
export ASAN_OPTIONS=${ASAN_OPTIONS:-}

# perf's recordings and perf script's chains: once per make check (lib.sh),
# made in the background beside benchtui's own recordings (what is compared
# is the chains and callers of each file's samples, never a time)
P=$SHARE
perf_records() {
	oracle dwarf perf record -q -e cpu-clock -F 4000 --call-graph dwarf -o "$P/dwarf.data" "$nofp" \
		>/dev/null 2>"$TMP/err"
	oracle g perf record -q -e cpu-clock -F 4000 -g -o "$P/g.data" "$nofp" >/dev/null 2>&1
	oracle gfp perf record -q -e cpu-clock -F 4000 -g -o "$P/gfp.data" "$fp" >/dev/null 2>&1
}
perf_records &
precs=$!
"$T/unwind-record" -g -s 512 -o "$TMP/hy.data" "$nofp" 2>"$TMP/hy.rec" ||
	{ wait $precs; skip "cannot record the hybrid: $(cat "$TMP/hy.rec")"; }
"$T/unwind-record" -g -s 512 -o "$TMP/hyfp.data" "$fp" 2>"$TMP/hyfp.rec"
"$T/unwind-record" -g -s 8192 -o "$TMP/big.data" "$nofp" 2>"$TMP/big.rec"
"$T/unwind-record" -g -s 8192 -o "$TMP/bigfp.data" "$fp" 2>"$TMP/bigfp.rec"
wait $precs
[ "$(cat "$P/dwarf.rc")" = 0 ] ||
	skip "perf record --call-graph dwarf failed here: $(head -c 200 "$TMP/err" 2>/dev/null)"

# --- 1. full DWARF chains against perf script ---------------------------
# perf script: "TIME<TAB>ADDR:SYM ..." with user frames only (perf prints
# link-time addresses, and return addresses minus one, as unwind-dump does)
perf_chains() {
	perf script -i "$1" -F tid,time,ip,sym --ns --no-inline 2>/dev/null | awk '
		/^ *[0-9]+ +[0-9]+\.[0-9]+: *$/ { if (t != "") print t "\t" f; t = $2; sub(":", "", t); f = ""; next }
		/^\t/ { if (length($1) == 16 && $1 ~ /^ffff/) next
			s = $2; for (i = 3; i <= NF; i++) s = s " " $i
			f = f (f == "" ? "" : " ") $1 ":" s; next }
		END { if (t != "") print t "\t" f }' | sort
}
memo perf_chains "$P/dwarf.data" >"$TMP/perf.chains"
"$D" "$P/dwarf.data" --chains | sort >"$TMP/bt.chains"
"$D" "$P/dwarf.data" --chains --libdw | sort >"$TMP/bt-libdw.chains"
if cmp -s "$TMP/bt.chains" "$TMP/bt-libdw.chains"; then
	ok "cached CFI rows and libdwfl's frame walk: the same chains for all $(wc -l <"$TMP/bt.chains") samples"
else
	fail "cached CFI rows and libdwfl's frame walk disagree:"; diff "$TMP/bt-libdw.chains" "$TMP/bt.chains" | head -6
fi
# every disagreement is printed with its kind: perf's chain a prefix of
# ours (perf stopped early), perf's last frame unresolvable, ours shorter,
# or different from frame N on
join -t "$(printf '\t')" "$TMP/perf.chains" "$TMP/bt.chains" | awk -F'\t' '
	{ n++; p = $2; b = $3; gsub(/:[^ ]*/, "", p); gsub(/:[^ ]*/, "", b)
	  if (p == b) { same++; next }
	  np = split(p, P, " "); nb = split(b, B, " ")
	  for (i = 1; i <= np && i <= nb && P[i] == B[i]; i++) ;
	  kind = i > np ? "perf stopped early" : i > nb ? "ours stopped early" : \
	      (i == np && $2 ~ /unknown\]$/) ? "perf ends in junk" : "frame " i " differs"
	  print "   " kind " at " $1 ":\n     perf: " $2 "\n     ours: " $3 >"/dev/stderr" }
	END { printf "%d %d\n", n, same }' >"$TMP/cmp" 2>"$TMP/diffs"
read -r n same <"$TMP/cmp"
total=$(wc -l <"$TMP/perf.chains")
if [ "${n:-0}" -gt 1000 ] && [ "$n" -eq "$total" ] && [ $((same * 100)) -ge $((n * 99)) ]; then
	ok "DWARF chains equal perf script's for $same of $n samples ($(awk -v s="$same" -v n="$n" 'BEGIN { printf "%.2f", 100 * s / n }')%)"
else
	fail "DWARF chains: $same of ${n:-0} samples equal perf script's ($total samples in perf script)"
fi
cat "$TMP/diffs"

# --- 2. the hybrid: callers ----------------------------------------------
# callers FILE FUNC: "COUNT CALLER" lines, hottest first
callers() { "$D" "$1" --callers "$2" | sort -rn; }
# only CALLER FILE FUNC: every sample of FUNC has CALLER as its immediate caller
# only CALLER FILE FUNC [MIN] [ALSO]: every one of FUNC's samples (at least
# MIN, 20) was called from CALLER, or from ALSO, another function the
# fixture calls FUNC from (callers.c's main reads CALLERS_TIME with getenv,
# which calls strlen: one sample of 413 landed there in a CI run)
only() {
	callers "$2" "$3" | awk -v also="${5:-}" '$2 != also' >"$TMP/c"
	top=$(awk 'NR == 1 { print $2 }' "$TMP/c")
	n=$(awk '{ s += $1 } END { print s + 0 }' "$TMP/c")
	if [ "$n" -eq 0 ] && [ "${4:-20}" -le 1 ]; then
		skipped "$(basename "$2"): no sample in $3 here: its callers not checked"
	elif [ "$n" -ge "${4:-20}" ] && [ "$top" = "$1" ] && [ "$(wc -l <"$TMP/c")" -eq 1 ]; then
		ok "$(basename "$2"): $3's caller is $1 in all $n samples"
	else
		fail "$(basename "$2"): $3's callers are not only $1:"; head -5 "$TMP/c"
	fi
}
three_to_one() {
	callers "$1" leaf >"$TMP/c"
	n3=$(awk '$2 == "caller_three" { print $1 }' "$TMP/c")
	n1=$(awk '$2 == "caller_one" { print $1 }' "$TMP/c")
	other=$(awk '$2 != "caller_three" && $2 != "caller_one" { s += $1 } END { print s + 0 }' "$TMP/c")
	if [ -z "$n3" ] || [ -z "$n1" ]; then
		fail "$(basename "$1"): leaf's callers are not both there:"; cat "$TMP/c"
		return
	fi
	# Wilson intervals for caller_three's share; 3:1 is 0.75. A 95%
	# interval misses the truth one run in twenty by construction, so the
	# test fails only outside the 99.9% interval and says which held.
	awk -v a="$n3" -v b="$n1" -v o="$other" -v f="$(basename "$1")" 'BEGIN {
		n = a + b; p = a / n
		for (k = 1; k <= 2; k++) {
			z = k == 1 ? 1.96 : 3.29
			c = (p + z * z / (2 * n)) / (1 + z * z / n)
			h = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
			lo[k] = c - h; hi[k] = c + h
		}
		in95 = lo[1] <= 0.75 && 0.75 <= hi[1]; in999 = lo[2] <= 0.75 && 0.75 <= hi[2]
		printf "%s %s: leaf called from caller_three %d, caller_one %d, other %d: %.2f:1, share %.3f, 95%% interval [%.3f, %.3f]%s\n",
		    in999 && o == 0 ? "ok:" : "FAIL:", f, a, b, o, a / b, p, lo[1], hi[1],
		    in95 ? " holds 0.75" : sprintf(" misses 0.75 (99.9%% interval [%.3f, %.3f] holds it)", lo[2], hi[2])
		exit !(in999 && o == 0) }' | sed 's/^/   /'
	[ "${PIPESTATUS[0]}" -eq 0 ] || nfail=$((nfail + 1))
}
for f in hy hyfp; do
	three_to_one "$TMP/$f.data"
	only copier "$TMP/$f.data" '__memmove*'
	only measurer "$TMP/$f.data" '__strlen*' 20 getenv
	only plt_caller "$TMP/$f.data" sigismember
	# the stub is one jmp: some CPUs (AMD's) put a few samples on it, Intel's dozens
	only plt_caller "$TMP/$f.data" 'sigismember@plt' 1
done
"$D" "$TMP/hy.data" --stats | sed 's/^/   hybrid, no frame pointers: /'
"$D" "$TMP/hyfp.data" --stats | sed 's/^/   hybrid, frame pointers: /'

# what perf's frame-pointer chains say about the same callers
perf_callers() {	# FILE: "COUNT LEAF <- CALLER" for leaf and memmove samples
	perf script -i "$1" -F ip,sym 2>/dev/null | awk 'BEGIN { RS = "" } {
		n = split($0, L, "\n"); u = 0
		for (i = 1; i <= n; i++) { split(L[i], a, " "); if (length(a[1]) == 16 && a[1] ~ /^ffff/) continue; s[++u] = a[2] }
		if (u >= 1 && (s[1] == "leaf" || s[1] ~ /^__memmove/)) c[s[1] " <- " (u >= 2 ? s[2] : "(no caller)")]++ }
		END { for (k in c) print c[k], k }' | sort -rn
}
for f in g gfp; do
	memo perf_callers "$P/$f.data" >"$TMP/pc"
	echo "   perf record -g ($([ $f = g ] && echo no frame pointers || echo -fno-omit-frame-pointer)), perf script says:"
	sed 's/^/     /' "$TMP/pc"
	if grep -q -e 'leaf <- caller_' -e '__memmove.* <- copier' "$TMP/pc"; then
		fail "perf -g found the frameless leaves' callers: the fixture no longer shows the problem"
	else
		ok "perf -g misses every frameless leaf's immediate caller (the hybrid finds them)"
	fi
done

# --- 3. hybrid against full DWARF on the same samples ----------------------
"$D" "$TMP/big.data" --sweep 0,8,16,32,64,128,256,512,1024 >"$TMP/sweep"
"$D" "$TMP/bigfp.data" --sweep 0,8,16,32,64,128,256,512,1024 >"$TMP/sweepfp"
echo "   % right immediate caller / % right chain up to main, by stack bytes copied"
echo "   no frame pointers:"; sed 's/^/     /' "$TMP/sweep"
echo "   -fno-omit-frame-pointer:"; sed 's/^/     /' "$TMP/sweepfp"
# at 512 bytes (column 8): the callers of every frameless leaf right; with
# frame pointers, whole chains right
awk -v f=no-fp 'NR > 1 && $1 ~ /^(leaf|__memmove|__strlen|sigismember)/ { split($10, a, "/"); if (a[1] + 0 < 99) { print "FAIL: " f ": " $1 " caller right in " a[1] "%"; bad = 1 } }
	END { exit bad }' "$TMP/sweep" && ok "512 bytes: every frameless leaf's caller right (no frame pointers)" ||
	fail "512 bytes, no frame pointers: a caller is wrong"
awk 'NR > 1 { split($10, a, "/"); if (a[2] + 0 < 99) { print "   " $1 " chain right in " a[2] "%"; bad = 1 } } END { exit bad }' \
	"$TMP/sweepfp" && ok "512 bytes with frame pointers: every chain right up to main" ||
	fail "512 bytes with frame pointers: chains differ from DWARF"

# --- a rebuilt binary is not trusted ---------------------------------------
cp "$nofp" "$TMP/stale"
"$T/unwind-record" -g -s 512 -o "$TMP/stale.data" "$TMP/stale" 300 2>/dev/null
cp "$fp" "$TMP/stale"	# another build-id at the same path
"$D" "$TMP/stale.data" --stats >"$TMP/st"
"$D" "$TMP/stale.data" --callers leaf >"$TMP/c"
# (counted per region reported: a file may be reported again at a second
# bias, or after its region was dropped, so 1 or more)
if grep -q "files-with-another-build-id [1-9]" "$TMP/st" && ! grep -q caller_ "$TMP/c"; then
	ok "a binary rebuilt after the recording is refused (its build-id differs): no made-up callers"
else
	fail "a rebuilt binary was used: $(tail -1 "$TMP/st"); $(head -3 "$TMP/c")"
fi

# --- numbers ---------------------------------------------------------------
persample() {	# FILE: bytes per sample
	n=$("$D" "$1" --stats | awk '/^samples/ { print $2 }')
	awk -v b="$(stat -c %s "$1")" -v n="$n" 'BEGIN { printf "%d bytes/sample (%d samples)", b / n, n }'
}
echo "   file size: perf -g $(persample "$P/g.data"), perf --call-graph dwarf $(persample "$P/dwarf.data"), hybrid 512 $(persample "$TMP/hy.data")"
bd=$(stat -c %s "$P/dwarf.data"); bh=$(stat -c %s "$TMP/hy.data")
[ $((bh * 10)) -le "$bd" ] && ok "hybrid file at least 10x smaller than perf's DWARF one" ||
	fail "hybrid file $bh bytes, perf's DWARF one $bd"
"$D" "$P/dwarf.data" --stats --repeat 5 | sed -n 's/^samples/   rate, DWARF 8 KiB (perf'"'"'s recording): samples/p'
"$D" "$P/dwarf.data" --stats --repeat 5 --libdw | sed -n 's/^samples/   rate, same through libdwfl'"'"'s frame walk: samples/p'
"$D" "$TMP/hy.data" --stats --repeat 5 | sed -n 's/^samples/   rate, hybrid 512: samples/p'
finish
