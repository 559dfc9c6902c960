#!/bin/bash
# Recording end to end: a known 3:1 split, the vDSO, and every error path of
# the command (missing, not executable, crash, non-zero exit).
. tests/lib.sh
need_recording

split=$(fixture split)
"$BT" -q -o "$TMP/split.data" --stdio --top 2 "$split" >"$TMP/split.txt" 2>"$TMP/err" ||
	fail "recording split failed: $(cat "$TMP/err")"
# hot-function table rows: "  72.35%   1234  split  work_a  split.c:17"
pa=$(awk '$NF == "work_a" { sub("%", "", $1); print $1; exit }' "$TMP/split.txt")
pb=$(awk '$NF == "work_b" { sub("%", "", $1); print $1; exit }' "$TMP/split.txt")
if [ -z "$pa" ] || [ -z "$pb" ]; then
	fail "work_a/work_b missing from the hot-function table"
	sed -n 1,20p "$TMP/split.txt"
else
	# 3:1 within 20% (the split is of the work, sampling noise is ~2% here)
	if awk -v a="$pa" -v b="$pb" 'BEGIN { r = a / b; exit !(r > 2.4 && r < 3.6) }'; then
		ok "work_a:work_b = $pa:$pb (want 3:1 within 20%)"
	else
		fail "work_a:work_b = $pa:$pb, want 3:1 within 20%"
	fi
fi
# the annotated section of the hottest function has instructions with percentages and source
if grep -q '^## work_a' "$TMP/split.txt" && grep -q 'split.c:[0-9]' "$TMP/split.txt"; then
	ok "work_a annotated with source lines"
else
	fail "no annotated work_a with source lines"
fi

# the vDSO resolves
clk=$(fixture clock)
"$BT" -q -o "$TMP/clock.data" --stdio --top 1 "$clk" >"$TMP/clock.txt" 2>&1
if grep -q '__vdso_clock_gettime' "$TMP/clock.txt"; then
	ok "__vdso_clock_gettime resolves"
else
	fail "__vdso_clock_gettime not in the report"; sed -n 1,15p "$TMP/clock.txt"
fi

# a missing command: one line, exit 2, nothing saved
rm -f "$TMP/none.data"
if expect_status 2 "$BT" -o "$TMP/none.data" --stdio "$TMP/no-such-bench"; then
	if [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q "cannot execute.*no-such-bench" "$TMP/err"; then
		ok "missing command: $(cat "$TMP/err")"
	else
		fail "missing command message: $(cat "$TMP/err")"
	fi
	[ ! -e "$TMP/none.data" ] || fail "a recording was left for a missing command"
fi

# not executable
printf 'not a program\n' >"$TMP/notexec"
chmod 644 "$TMP/notexec"
if expect_status 2 "$BT" -o "$TMP/none.data" --stdio "$TMP/notexec"; then
	grep -q "cannot execute.*Permission denied" "$TMP/err" &&
		ok "not executable: $(cat "$TMP/err")" ||
		fail "not executable message: $(cat "$TMP/err")"
fi

# crash: profile kept and shown, exit 128+11
crash=$(fixture crash)
if expect_status 139 "$BT" -q -o "$TMP/crash.data" --stdio "$crash"; then
	grep -q "killed by signal 11" "$TMP/err" || fail "crash message: $(cat "$TMP/err")"
	grep -q "busy_before_crash" "$TMP/out" &&
		ok "crashed benchmark: profile shown, exit 139" ||
		fail "crashed benchmark's profile not shown"
	[ -s "$TMP/crash.data" ] || fail "crashed benchmark's recording not saved"
fi

# non-zero exit: benchtui exits with it
if expect_status 3 "$BT" -q -o "$TMP/exit.data" --stdio "$split" 100000 5 3; then
	grep -q "exited with status 3" "$TMP/err" &&
		ok "exit 3 passed through with a message" ||
		fail "exit 3 message: $(cat "$TMP/err")"
fi

# (the builds of split below: 20 of its 60 rounds, ~800 samples, tell its
# hottest function and show its code and lines)
R="2000000 20"
# a stripped benchmark: its hot loop is still one entry, with annotated code
cp "$split" "$TMP/split-stripped" && strip --strip-all "$TMP/split-stripped"
"$BT" -q -o "$TMP/strip.data" --stdio --top 1 "$TMP/split-stripped" $R >"$TMP/strip.txt" 2>&1
top=$(awk '/^#Percent/ { getline; print $NF; exit }' "$TMP/strip.txt")
case $top in
split-stripped+0x*)
	if grep -q "^## $top" "$TMP/strip.txt" && grep -q 'imul' "$TMP/strip.txt"; then
		ok "stripped: hottest entry $top, annotated"
	else
		fail "stripped: $top not annotated"
	fi ;;
*) fail "stripped: hottest entry is '$top'"; sed -n 1,15p "$TMP/strip.txt" ;;
esac

# source moved away after the build: a note, instructions and line numbers still there
mkdir -p "$TMP/src"
cp tests/fixtures/split.c "$TMP/src/moved.c"
cc -O2 -g -o "$TMP/moved" "$TMP/src/moved.c"
rm -rf "$TMP/src"
"$BT" -q -o "$TMP/moved.data" --stdio --top 1 "$TMP/moved" $R >"$TMP/moved.txt" 2>&1
if grep -q "note: source file '$TMP/src/moved.c' not found" "$TMP/moved.txt" &&
    grep -q 'moved.c:[0-9]' "$TMP/moved.txt" && grep -q 'imul' "$TMP/moved.txt"; then
	ok "missing source: noted, instructions and lines shown"
else
	fail "missing source"; sed -n 1,30p "$TMP/moved.txt"
fi

# no debug info: symbols and code, a note instead of lines
cc -O2 -o "$TMP/nodebug" tests/fixtures/split.c
"$BT" -q -o "$TMP/nodebug.data" --stdio --top 1 "$TMP/nodebug" $R >"$TMP/nodebug.txt" 2>&1
if grep -q "no debug info for '$TMP/nodebug'" "$TMP/nodebug.txt" &&
    grep -q '^## work_a' "$TMP/nodebug.txt" && grep -q 'imul' "$TMP/nodebug.txt"; then
	ok "no debug info: noted, work_a annotated without lines"
else
	fail "no debug info"; sed -n 1,30p "$TMP/nodebug.txt"
fi

# Ctrl-C (SIGINT to benchtui): the benchmark stops, the profile is kept and shown
"$BT" -o "$TMP/int.data" --stdio --top 1 "$split" 100000000 1000 >"$TMP/int.txt" 2>"$TMP/int.err" &
pid=$!
# poll until the benchmark runs (it is benchtui's child), then let it sample a little
for i in $(seq 100); do
	child=$(pgrep -P $pid)
	[ -n "$child" ] && [ "$(cat /proc/"$child"/comm 2>/dev/null)" = split ] && break
	sleep 0.05
done
sleep 0.3
kill -INT $pid
wait $pid
rc=$?
if grep -q "interrupted" "$TMP/int.err" && grep -q "^## work_" "$TMP/int.txt" && [ -s "$TMP/int.data" ]; then
	ok "interrupted: profile kept and shown (exit $rc)"
else
	fail "interrupted run (exit $rc): $(cat "$TMP/int.err")"
fi
[ ! -e "$TMP/int.data.tmp" ] || fail "a temporary recording was left behind"

# a real div loop: raw samples land after the div, the skid-adjusted view puts the div on top
dl=$(fixture divloop)
"$BT" -q -o "$TMP/div.data" --stdio -s divchain --format json "$dl" 2>/dev/null |
	sed -n 's/.*"kind": "insn", "address": "\(0x[0-9a-f]*\)", "text": "\([a-z]*\)[^"]*", "samples": \([0-9]*\),.*"adjusted_samples": \([0-9.]*\),.*/\1 \2 \3 \4/p' >"$TMP/div.rows"
top_raw=$(sort -k3 -n -r "$TMP/div.rows" | head -1 | cut -d' ' -f2)
top_adj=$(sort -k4 -g -r "$TMP/div.rows" | head -1 | cut -d' ' -f2)
if [ "$top_adj" = div ] && [ "$top_raw" != div ]; then
	ok "div loop: raw samples peak on '$top_raw', skid-adjusted on 'div'"
else
	fail "div loop: raw top '$top_raw', adjusted top '$top_adj'"; cat "$TMP/div.rows"
fi

# a memcpy benchmark: glibc's erms memmove copies with rep movsb, which an
# interrupt stops at its own address: skid adjustment leaves its samples on it
mc=$(fixture memcpy)
"$BT" -q -o "$TMP/memcpy.data" --stdio --top 0 "$mc" 30000 >"$TMP/mc.out" 2>/dev/null
hot=$(awk '/^#Percent/ { getline; print $NF; exit }' "$TMP/mc.out")
"$BT" -i "$TMP/memcpy.data" --stdio -s "$hot" --format json 2>/dev/null |
	sed -n 's/.*"kind": "insn", "address": "\(0x[0-9a-f]*\)", "text": "\(rep[^"]*\)", "samples": \([0-9]*\),.*"adjusted_samples": \([0-9.]*\),.*/\3 \4/p' |
	sort -n -r | head -1 >"$TMP/rep"
read -r raw adj <"$TMP/rep" 2>/dev/null
if [ -z "${raw:-}" ] || [ "$raw" -lt 50 ]; then
	skipped "memcpy: $hot has no rep instruction with 50 samples here (raw '${raw:-}')"
elif awk -v r="$raw" -v a="$adj" 'BEGIN { exit !(a >= r) }'; then
	ok "memcpy: the rep in $hot keeps its $raw samples when skid-adjusted ($adj)"
else
	fail "memcpy: skid adjustment moved samples off the rep in $hot: raw $raw, adjusted $adj"
fi

# --delay: no sample in the first 300 ms after exec
"$BT" -q -o "$TMP/delay.data" --delay 300 --stdio "$split" 2000000 100 >/dev/null 2>&1
d=$("$TOP/$BUILD/tools/pd-dump" "$TMP/delay.data" times)
[ -n "$d" ] && [ "$d" -ge 300000000 ] && ok "--delay 300: first sample $((d / 1000000)) ms after exec" ||
	fail "--delay 300: first sample after $d ns"

# where benchtui's output is a file, the benchmark's is that file: no
# terminal, no colours, as without benchtui (tests/test-stdio.sh has the
# rest: every byte, pipes, terminals)
"$BT" -q -o "$TMP/color.data" --stdio --top 0 sh -c \
	'[ -t 1 ] && printf "\033[31mred\033[0m \033]0;title\007tty\n" || echo "no tty"' \
	>"$TMP/color.out" 2>/dev/null
first=$(head -1 "$TMP/color.out")
[ "$first" = "no tty" ] &&
	ok "stdout a file: the benchmark sees no terminal: '$first'" ||
	fail "stdout a file: the benchmark wrote '$(head -1 "$TMP/color.out" | od -c | head -2)'"

# reopening the saved recording gives the same table
"$BT" -i "$TMP/split.data" --stdio --top 2 >"$TMP/split2.txt" 2>&1
if cmp -s "$TMP/split.txt" "$TMP/split2.txt"; then
	ok "-i gives the same report as the live run"
else
	fail "-i differs from the live run"; diff "$TMP/split.txt" "$TMP/split2.txt" | head
fi
finish
