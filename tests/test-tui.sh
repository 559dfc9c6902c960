#!/bin/bash
# The browser end to end: the real binary in tmux on a deterministic
# recording (STYLE.md §2.7: private socket, fixed size, polling, exit status).
. tests/lib.sh
command -v tmux >/dev/null || skip "tmux is not installed (scripts/deps.sh installs it)"
split=$TOP/tests/fixtures/prebuilt/split
# its DWARF names its source relative to the top of the tree; the browser runs in $TMP
mkdir -p "$TMP/tests" && ln -s "$TOP/tests/fixtures" "$TMP/tests/fixtures"
"$TOP/$BUILD/tools/mkrec" "$TMP/t.data" "$split" work_a+0x24=1500 work_a+0x2b=600 \
	work_a+0x20=30 work_b+0x24=500 main+0x10=4 || fail "mkrec"

T="tmux -L bt$$ -f/dev/null"
trap '$T kill-server 2>/dev/null; rm -rf "$TMP"' EXIT
screen() { $T capture-pane -p -t bt; }
# wait_for PATTERN: poll the screen (0.1 s steps, 10 s at most)
wait_for() {
	for _ in $(seq 100); do
		screen | grep -q -- "$1" && return 0
		sleep 0.1
	done
	fail "timed out waiting for '$1'"; screen | sed 's/^/     | /'
	return 1
}
wait_gone() {
	for _ in $(seq 100); do
		screen | grep -q -- "$1" || return 0
		sleep 0.1
	done
	fail "'$1' still on screen"
	return 1
}
# the row under the cursor: the one painted in reverse video
# (any SGR with parameter 7; the first such line is the header bar)
cursor_row() {
	$T capture-pane -p -e -t bt | grep -E $'\e\\[([0-9]+;)*7(;[0-9]+)*m' | sed -n 2p |
		sed 's/\x1b\[[0-9;]*m//g'
}
# wait_cursor PATTERN: poll until the cursor row matches
wait_cursor() {
	for _ in $(seq 100); do
		cursor_row | grep -q -- "$1" && return 0
		sleep 0.1
	done
	return 1
}
# a session that stays, so that the server outlives the browser
$T new-session -d -s keep
# The pane runs a shell that keeps benchtui's exit status in $TMP/status
# (tmux 3.3 does not always report #{pane_dead_status}); the shell itself
# survives Ctrl-C with a trap, which benchtui does not inherit, and then
# stays, so that the screen benchtui leaves behind can be checked.
start() {
	$T kill-session -t bt 2>/dev/null
	rm -f "$TMP/status"
	$T new-session -d -s bt -x "${COLS_:-120}" -y "${LINES_:-30}" -c "$TMP" \
		"trap true INT TERM; env TERM=screen LC_ALL=C.UTF-8 $*; echo \$? >$TMP/status.tmp; mv $TMP/status.tmp $TMP/status; exec sleep 60"
}
dead_status() {
	for _ in $(seq 100); do
		[ -s "$TMP/status" ] && { cat "$TMP/status"; return; }
		sleep 0.1
	done
}

start "$BT" -i "$TMP/t.data"
wait_for "hot functions" && ok "opens on the hot-function table"
screen | sed -n 4p | grep -q "work_a" && ok "hottest function first, under the cursor" ||
	fail "work_a is not the first row"

# open the hottest function: the hottest instruction under the cursor, with its source line
$T send-keys -t bt Enter
wait_for "work_a  split  [0-9.]*% of" && cursor_row | grep -q "1500.*add    \$0x1,%rdx" &&
	ok "Enter opens work_a on its hottest instruction" || { fail "cursor not on the hottest instruction: $(cursor_row)"; }
screen | grep -q "split.c:18.*for (long i = 0; i < 3 \* n; i++)" &&
	ok "source line shown above it" || fail "no source line"

# s toggles the source lines, keeping the cursor on the instruction
$T send-keys -t bt s
wait_gone "split.c:18" && cursor_row | grep -q "add    \$0x1,%rdx" &&
	ok "s hides source lines, cursor kept" || fail "s: $(cursor_row)"
$T send-keys -t bt s
wait_for "split.c:18"

# follow the loop's jump and come back
$T send-keys -t bt / 'jl ' Enter
wait_for "/jl" && cursor_row | grep -q "jl     1240" || fail "search for jl: $(cursor_row)"
$T send-keys -t bt Enter
wait_for "jumped to work_a+0x20" && cursor_row | grep -q "1240:  imul" &&
	ok "Enter on jl goes to its target" || fail "jump: $(cursor_row)"
$T send-keys -t bt Left
wait_cursor "jl     1240" && ok "Left comes back to the jump" || fail "back: $(cursor_row)"

# source view and back from a line
$T send-keys -t bt H S
wait_for "(source of work_a)" && cursor_row | grep -q "for (long i = 0; i < 3 \* n; i++)" &&
	ok "S opens the source view on the current line" || fail "S: $(cursor_row)"
$T send-keys -t bt Enter
wait_for "work_a  split  [0-9.]*% of" && cursor_row | grep -q "1500.*add" &&
	ok "Enter on a source line shows its hottest instruction" || fail "line -> code: $(cursor_row)"

# export what is on screen
$T send-keys -t bt E
wait_for "export to: work_a.txt"
$T send-keys -t bt Enter
wait_for "exported .* rows to 'work_a.txt'"
if grep -q "^## work_a" "$TMP/work_a.txt" && grep -q "1500.*add    \$0x1,%rdx" "$TMP/work_a.txt"; then
	ok "E writes the view to work_a.txt"
else
	fail "export file"; head -20 "$TMP/work_a.txt"
fi
$T send-keys -t bt E
wait_for "export to: work_a.txt"
$T send-keys -t bt Enter
wait_for "exists; overwrite"
$T send-keys -t bt n Enter
wait_for "not overwritten" && ok "an existing file needs a second confirmation"

# help, generated from the key table
$T send-keys -t bt h
wait_for "benchtui keys" && screen | grep -q "Tab.*next hot instruction" &&
	ok "h shows the keys" || fail "help"
$T send-keys -t bt x
wait_for "work_a  split  [0-9.]*% of"

# resize: smaller, too small, back
$T resize-window -t bt -x 80 -y 24
wait_for "Percent" && ok "80x24 works"
$T resize-window -t bt -x 40 -y 8
wait_for "needs at least" && ok "too small: says so"
$T resize-window -t bt -x 120 -y 30
wait_for "work_a  split  [0-9.]*% of" && ok "recovers when enlarged"

# quit: q goes back screen by screen to the list, then out, with a clean terminal and exit 0
for _ in 1 2 3; do
	screen | grep -q "hot functions" && break
	title=$(screen | sed -n 2p)
	$T send-keys -t bt q
	for _ in $(seq 50); do [ "$(screen | sed -n 2p)" != "$title" ] && break; sleep 0.05; done
done
wait_for "hot functions"
$T send-keys -t bt q
st=$(dead_status)
[ "$st" = 0 ] && ok "q q quits with status 0" || fail "exit status $st"
screen | grep -q "hot functions" && fail "the browser is still on the terminal after quitting" ||
	ok "terminal restored (alternate screen left)"

# Ctrl-C and SIGTERM restore the terminal too
start "$BT" -i "$TMP/t.data"
wait_for "hot functions"
$T send-keys -t bt C-c
st=$(dead_status)
[ "$st" = 130 ] && ! screen | grep -q "hot functions" && ok "Ctrl-C: exit 130, terminal restored" ||
	fail "Ctrl-C: status $st"
start "$BT" -i "$TMP/t.data"
wait_for "hot functions"
kill -TERM "$(pgrep -P "$($T display -p -t bt '#{pane_pid}')" benchtui)"
st=$(dead_status)
[ "$st" = 143 ] && ! screen | grep -q "hot functions" && ok "SIGTERM: exit 143, terminal restored" ||
	fail "SIGTERM: status $st"

# NO_COLOR: attributes only
start env NO_COLOR=1 "$BT" -i "$TMP/t.data"
wait_for "hot functions"
if $T capture-pane -p -e -t bt | grep -q $'\e\\[3[0-7]m\|\e\\[38;'; then
	fail "NO_COLOR still paints colours"
else
	ok "NO_COLOR: no colours"
fi

# an unknown terminal type, and a dumb one: the report is printed instead
for term in no-such-terminal dumb; do
	$T kill-session -t bt 2>/dev/null
	rm -f "$TMP/status"
	$T new-session -d -s bt -x 120 -y 30 -c "$TMP" \
		"env TERM=$term $BT -i $TMP/t.data --top 0; echo \$? >$TMP/status; exec sleep 60"
	st=$(dead_status)
	if [ "$st" = 0 ] && screen | grep -q "printing the report instead" && screen | grep -q "work_a"; then
		ok "TERM=$term: falls back to printing, with a note"
	else
		fail "TERM=$term: status $st"; screen | head -5
	fi
done

# 20x5: too small, says so; a resize storm; then normal again
COLS_=20 LINES_=5 start "$BT" -i "$TMP/t.data"
wait_for "needs at" && ok "20x5: says it needs more room"
for i in $(seq 30); do $T resize-window -t bt -x $((40 + i * 3)) -y $((8 + i % 20)); done
$T resize-window -t bt -x 120 -y 30
wait_for "hot functions" && ok "a storm of 30 resizes: still drawing" 
$T send-keys -t bt Enter
wait_for "work_a  split  [0-9.]*% of" && ok "and still working"

$T send-keys -t bt q q
[ "$(dead_status)" = 0 ] && ok "and quits normally"

# suspend and resume (Ctrl-Z, fg) under a job-control shell: the terminal is
# given back while stopped, the browser redrawn on fg
$T kill-session -t bt 2>/dev/null
$T new-session -d -s bt -x 120 -y 30 -c "$TMP" "env PS1='prompt$ ' TERM=screen LC_ALL=C.UTF-8 bash --norc -i"
wait_for 'prompt\$'
$T send-keys -t bt "$BT -i $TMP/t.data" Enter
wait_for "hot functions"
$T send-keys -t bt Enter
wait_for "work_a  split  [0-9.]*% of"
$T send-keys -t bt C-z
wait_for "Stopped" && ! screen | grep -q "work_a  split" &&
	ok "Ctrl-Z: stopped, the shell's screen is back" || fail "Ctrl-Z: the browser is still on screen"
$T send-keys -t bt fg Enter
wait_for "work_a  split  [0-9.]*% of" && ok "fg: the browser is redrawn where it was"
$T send-keys -t bt q q
wait_for 'prompt\$.*$' && ok "and quits back to the shell"

# the mouse: X10 mouse reports, as a terminal sends them (TERM=screen)
mouse() {	# mouse BUTTON X Y (0-based cell)
	$T send-keys -t bt -l "$(printf '\033[M%b%b%b' "\\$(printf '%03o' $((32 + $1)))" \
		"\\$(printf '%03o' $((33 + $2)))" "\\$(printf '%03o' $((33 + $3)))")"
}
click() { mouse 0 "$1" "$2"; mouse 3 "$1" "$2"; }
start "$BT" -i "$TMP/t.data"
wait_for "hot functions"
click 20 4	# the second function's row (rows start under three lines of headings)
wait_cursor "work_b" && ok "a click selects the row" || fail "click: $(cursor_row)"
click 20 4; click 20 4
wait_for "work_b  split  [0-9.]*% of" && ok "a double click opens it"
# not a wait for the screen: ncurses itself holds keys until the click
# interval (mouseinterval, 166 ms) has passed, and a key sent sooner is
# read as part of the click
sleep 0.3
$T send-keys -t bt q
wait_for "hot functions"
$T send-keys -t bt g Enter
wait_for "work_a  split  [0-9.]*% of"
$T resize-window -t bt -x 100 -y 12
first=$(screen | sed -n 4p)
mouse 65 10 6	# wheel down
mouse 65 10 6
for _ in $(seq 100); do [ "$(screen | sed -n 4p)" != "$first" ] && break; sleep 0.1; done
[ "$(screen | sed -n 4p)" != "$first" ] && ok "the wheel scrolls" || fail "wheel: the view did not move"
$T send-keys -t bt q q

# -s opens a function directly
start "$BT" -i "$TMP/t.data" -s work_b
wait_for "work_b  split  [0-9.]*% of" && ok "-s work_b opens it"
finish
