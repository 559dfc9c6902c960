#!/bin/bash
# Every branch arrow at once (issue 27, docs/browser.md "Branch arrows"):
# an annotation's lanes drawn to objdump -d's branch targets, in the text
# export (four layouts) and on the screen at 80x24 and 200x50 in tmux,
# where each row is the export's row (box-drawing read as ASCII): no
# number, address or instruction overwritten; the cursor's arrow lit.
. tests/lib.sh
command -v objdump >/dev/null || skip "objdump is not installed"
arrows=$(fixture arrows)
"$TOP/$BUILD/tools/mkrec" "$TMP/a.data" "$arrows" branchy+0x0=100 main+0x0=5 || fail "mkrec"
objdump -d --no-show-raw-insn --disassemble=branchy "$arrows" >"$TMP/od" || fail "objdump"
AGREE="python3 $TOP/tests/tools/arrows-agree.py"

for opts in "" "--no-source" "-M intel" "--skid --percent global"; do
	# shellcheck disable=SC2086
	"$BT" -i "$TMP/a.data" --stdio -s branchy $opts >"$TMP/a.txt" &&
		"$BT" -i "$TMP/a.data" --stdio -s branchy --format json $opts >"$TMP/a.json" ||
		{ fail "export ($opts) failed"; continue; }
	if out=$($AGREE "$TMP/a.txt" "$TMP/a.json" "$TMP/od" branchy); then
		ok "text export${opts:+ ($opts)}: the arrows are objdump's branches: $out"
	else
		fail "text export ($opts): $out"
	fi
done

command -v tmux >/dev/null || { skipped "tmux is not installed"; finish; }
tmux_init btar
$T new-session -d -s keep
for size in 80x24 200x50; do
	$T kill-session -t bt 2>/dev/null
	rm -f "$TMP"/branchy*.txt "$TMP"/branchy*.json
	$T new-session -d -s bt -x "${size%x*}" -y "${size#*x}" -c "$TMP" \
		"env TERM=screen LC_ALL=C.UTF-8 $BT -i $TMP/a.data; exec sleep 60"
	wait_for "hot functions" || continue
	$T send-keys -t bt Enter
	wait_for "^branchy  arrows" || continue
	$T send-keys -t bt g
	# E writes what the screen shows (its width, its lanes), text and JSON
	$T send-keys -t bt E
	wait_for "export to: branchy.txt"
	$T send-keys -t bt Enter
	wait_for "exported .* rows to 'branchy.txt'"
	$T send-keys -t bt E C-u
	$T send-keys -t bt -l "branchy.json"
	$T send-keys -t bt Enter
	wait_for "exported .* rows to 'branchy.json'"
	screen >"$TMP/screen"
	if out=$($AGREE "$TMP/branchy.txt" "$TMP/branchy.json" "$TMP/od" branchy "$TMP/screen"); then
		ok "$size: the screen's arrows are objdump's branches, every row as exported: $(echo $out)"
	else
		fail "$size: $out"; sed 's/^/     | /' "$TMP/screen"
	fi
	# the cursor's arrow lit (bold red), from the loop's jump up to its head
	$T send-keys -t bt / 'jne +12a0' Enter
	wait_for "/jne +12a0" || continue
	$T capture-pane -p -e -t bt >"$TMP/esc"
	lit=$(grep -c $'\e\\[1m\e\\[31m[│┌└├┼┬┴─▶]' "$TMP/esc")
	other=$(grep "12c3:" "$TMP/esc" | grep -c $'\e\\[1m\e\\[31m[│┌└├┼┬┴─▶]')
	[ "$lit" -ge 6 ] && grep -q "12c3:" "$TMP/esc" && [ "$other" -eq 0 ] && ok "$size: the cursor's jump lit, $lit rows" ||
		fail "$size: lit rows $lit, outside it $other"
	$T send-keys -t bt q q
done

# / takes a regular expression (smart case), over instructions and source
# lines; an invalid one says why; n says when it wraps
cursor_row() {
	$T capture-pane -p -e -t bt | grep -E $'\e\\[([0-9]+;)*7(;[0-9]+)*m' | sed -n 2p |
		sed 's/\x1b\[[0-9;]*m//g'
}
status_line() { screen | tail -1; }
$T kill-session -t bt 2>/dev/null
$T new-session -d -s bt -x 120 -y 30 -c "$TMP" \
	"env TERM=screen LC_ALL=C.UTF-8 $BT -i $TMP/a.data; exec sleep 60"
wait_for "hot functions"
$T send-keys -t bt / '^bran.hy$' Enter
wait_for "1 function match" && ok "the list's filter: a regular expression" || fail "filter: $(status_line)"
$T send-keys -t bt Enter
wait_for "^branchy  arrows"
$T send-keys -t bt / 'acc (\+|-)= [a-z]+;$' Enter
wait_for "/acc" && cursor_row | grep -q "acc [-+]= [a-z]*;" &&
	ok "/ on a source line: $(cursor_row | sed 's/^ *//')" || fail "source search: $(cursor_row)"
$T send-keys -t bt / 'JNE +12a0' Enter
wait_for "pattern not found: 'JNE +12a0'" && ok "upper case: case matters" || fail "smart case: $(status_line)"
$T send-keys -t bt / 'JnE|jne +12a0' Enter
wait_for "JnE|jne +12a0'*$" && cursor_row | grep -q "jne    12a0" && ok "an alternation" ||
	fail "alternation: $(cursor_row)"
# two cmp with that constant: from the first, n wraps to the top, n again comes back
$T send-keys -t bt / 'cmp +\$0x3b9aca07' Enter
wait_for "^/cmp" && row1=$(cursor_row)
$T send-keys -t bt n
if wait_for "search wrapped to the top: 'cmp" && [ "$(cursor_row)" != "$row1" ]; then
	$T send-keys -t bt n
	wait_for "^/cmp" && [ "$(cursor_row)" = "$row1" ] &&
		ok "n goes on, and says when it wraps" || fail "n: $(status_line)"
else
	fail "n did not wrap: $(status_line)"
fi
$T send-keys -t bt / 'a(b' Enter
wait_for "invalid regular expression 'a(b'" && ok "an invalid pattern says why: $(status_line | sed 's/ *$//')" ||
	fail "invalid: $(status_line)"
$T send-keys -t bt q q q
finish
