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

tmux_init bt
wait_gone() {
	for _ in $(seq 200); do
		screen | grep -q -- "$1" || return 0
		sleep 0.05
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
	for _ in $(seq 200); do
		cursor_row | grep -q -- "$1" && return 0
		sleep 0.05
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
	for _ in $(seq 200); do
		[ -s "$TMP/status" ] && { cat "$TMP/status"; return; }
		sleep 0.05
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
wait_for "jumped back to +0x20" && cursor_row | grep -q "1240: .*  imul" &&
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
# an existing file: one key answers, y or n; other keys do not
echo old >"$TMP/work_a.txt"
$T send-keys -t bt E
wait_for "export to: work_a.txt"
$T send-keys -t bt Enter
wait_for "exists: overwrite it? (y/n)"
$T send-keys -t bt x j Enter Space
$T send-keys -t bt n
wait_for "not overwritten: 'work_a.txt'" && [ "$(cat "$TMP/work_a.txt")" = old ] &&
	ok "overwrite? (y/n): stray keys do not answer, n keeps the file" || fail "overwrite n"
$T send-keys -t bt E
wait_for "export to: work_a.txt"
$T send-keys -t bt Enter
wait_for "exists: overwrite it? (y/n)"
$T send-keys -t bt y
wait_for "exported .* rows to 'work_a.txt'" && grep -q "^## work_a" "$TMP/work_a.txt" &&
	ok "y alone overwrites it" || fail "overwrite y"
# P, as in perf: at once, never over an existing file
$T send-keys -t bt P
wait_for "exported .* rows to 'work_a.1.txt'" && grep -q "^## work_a" "$TMP/work_a.1.txt" &&
	ok "P prints the view to work_a.1.txt (work_a.txt exists)" || fail "P"

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
# the cursor stays in view through resizes, rows out of view are said
# ("↑first-last/rows"), and a taller window fills with rows, not blanks
$T send-keys -t bt G
sleep 0.3
last=$(cursor_row)
$T resize-window -t bt -x 80 -y 12
sleep 0.3
nrows=$(screen | sed -n 3p | grep -o "[0-9]*-[0-9]*/[0-9]*" | cut -d/ -f2)
[ -n "$last" ] && [ "$(cursor_row)" != "" ] && screen | sed -n 3p | grep -q "↑[0-9]*-$nrows/$nrows" &&
	ok "80x12: the cursor (last row) stays in view, rows above are said" ||
	fail "80x12: cursor '$(cursor_row)', heading '$(screen | sed -n 3p)'"
$T resize-window -t bt -x 120 -y 30
sleep 0.3
# (all $nrows rows fit in 26: the first is the top one, none blank)
blank=$(screen | sed -n "4,$((3 + nrows))p" | grep -c "^ *$")
[ -n "$(cursor_row)" ] && [ "$nrows" -le 26 ] && [ "$blank" = 0 ] &&
	! screen | sed -n 3p | grep -q "↑" &&
	ok "120x30 again: cursor in view, no blank rows ($nrows rows)" ||
	fail "120x30 again: cursor '$(cursor_row)', $blank blank rows"
$T send-keys -t bt H

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
for _ in $(seq 200); do [ "$(screen | sed -n 4p)" != "$first" ] && break; sleep 0.05; done
[ "$(screen | sed -n 4p)" != "$first" ] && ok "the wheel scrolls" || fail "wheel: the view did not move"
$T send-keys -t bt q q

# -s opens a function directly
start "$BT" -i "$TMP/t.data" -s work_b
wait_for "work_b  split  [0-9.]*% of" && ok "-s work_b opens it"
#
# Issue 16: the browser as a perf user expects it.
#
# the pane's height; rows [4, height) of the screen are the body
pane_h() { $T display -p -t bt '#{pane_height}'; }
body() { screen | sed -n "4,$(( $(pane_h) - 1 ))p"; }
# the status line, the screen's last
status_line() { screen | sed -n "$(pane_h)p"; }
# can this machine record (perf_event_open allowed)?
can_record() {
	out=$("$BT" -q -o "$TMP/probe.data" --export /dev/null --top 0 true 2>&1)
	case $out in *perf_event_open*|*perf_event_paranoid*) return 1 ;; esac
	[ -s "$TMP/probe.data" ]
}
"$TOP/$BUILD/tools/mkrec" "$TMP/few.data" "$split" work_a+0x24=20 work_b+0x24=6 kernel=3 ||
	fail "mkrec few"

# -- keeping one's place --
start "$BT" -i "$TMP/t.data"
wait_for "hot functions"
$T send-keys -t bt Enter
wait_cursor "1500.*add    \$0x1,%rdx"
$T send-keys -t bt T
wait_for "timeline of work_a"
# the bar is work_a's share: full while it runs, empty after (cpu-clock: every slice as full)
screen | grep -q "  ################################$" && body | grep -Eq "^ +[0-9.]+-[0-9.]+ +[0-9]+ +0 +0.0% *$" &&
	screen | sed -n 3p | grep -q "Share" &&
	ok "timeline: the bar is the function's share, the counts are columns" || fail "timeline bar: $(body | head -3)"
$T send-keys -t bt g [ j j j j ]
wait_for "Enter keeps the marked part"
$T send-keys -t bt Enter
wait_for "window [0-9.]*-[0-9.]* s: [0-9]* samples" && screen | sed -n 2p | grep -q "^work_a  split" &&
	wait_cursor "add    \$0x1,%rdx" && ok "T, marks, Enter: back on work_a, on the same instruction" ||
	fail "window: $(screen | sed -n 2p) / $(cursor_row)"
screen | sed -n 1p | grep -q "^ *\(benchtui  \)\?window [0-9.]*-[0-9.]* s: [0-9]* samples\(, 0 lost\)\?, [0-9.]* s of [0-9.]* s |" &&
	ok "the header names the window, its samples and its own duration" ||
	fail "header in a window: $(screen | sed -n 1p)"
$T send-keys -t bt T c
wait_for "the whole run:" && wait_cursor "add    \$0x1,%rdx" && ok "T c: the whole run, still on the instruction" ||
	fail "whole run: $(cursor_row)"
# S, Enter, S, Enter... does not deepen the history: q q quits
for _ in 1 2 3 4 5; do
	$T send-keys -t bt S
	wait_for "(source of work_a)" >/dev/null
	$T send-keys -t bt Enter
	wait_for "^work_a  split" >/dev/null
done
$T send-keys -t bt q
wait_for "hot functions"
$T send-keys -t bt q
[ "$(dead_status)" = 0 ] && ok "S Enter five times, then q q quits" || fail "S/Enter cycles deepened the history"

# the filter: Esc clears it, / opens empty, nothing matching says so
start "$BT" -i "$TMP/few.data"
wait_for "hot functions"
$T send-keys -t bt /
	$T send-keys -t bt -l "work_b"
$T send-keys -t bt Enter
wait_for "filter: work_b" && [ "$(body | grep -c work_)" = 1 ] || fail "filter work_b"
$T send-keys -t bt /
wait_for "^filter: *$" && ok "/ opens the filter empty" || fail "/ prefilled: $(status_line)"
$T send-keys -t bt -l "nomatch"
$T send-keys -t bt Enter
wait_for "no function matches 'nomatch'" && body | grep -q "no function matches 'nomatch'" &&
	ok "an empty result says 'no function matches'" || fail "empty filter: $(body | head -3)"
$T send-keys -t bt Escape
wait_for "every function again" && body | grep -q work_a && body | grep -q work_b &&
	! screen | sed -n 2p | grep -q "filter:" && ok "Esc clears the filter" || fail "Esc: $(screen | sed -n 2p)"
# d: perf's zoom into a module, and out
$T send-keys -t bt d
wait_for "module: split" && ! body | grep -q "\[kernel\]" && ok "d: only the module's functions" ||
	fail "d: $(body | head -4)"
$T send-keys -t bt d
wait_for "every module again" && body | grep -q "\[kernel\]" && ok "d again: every module" || fail "d again"
# a: perf's annotate key; i: a perf key benchtui answers with its own
$T send-keys -t bt a
wait_for "^work_a  split" && ok "a annotates the function under the cursor" || fail "a"
$T send-keys -t bt i
wait_for "perf's i (header information)" && ok "perf's i says what benchtui shows instead"
$T send-keys -t bt f
wait_for "Offset" && ok "f (perf annotate's) toggles offsets" || fail "f"

# -- narrow terminals: 80x24 and 60x24 --
$T send-keys -t bt q
COLS_=80 LINES_=24 start "$BT" -i "$TMP/few.data"
wait_for "hot functions"
screen | sed -n 1p | grep -q "1 lint finding: L" && ok "80x24: the header keeps '1 lint finding: L'" ||
	fail "80x24 header: $(screen | sed -n 1p)"
$T send-keys -t bt Enter
wait_for "^work_a  split"
if ! screen | sed -n 3p | grep -q "±95%\|Skid%" && screen | sed -n 3p | grep -q "Percent  *Samples" &&
    [ "$(screen | grep "split.c:18" | head -1 | sed 's/[│┌└─▶├┼┬┴┆]/|/g' |
    awk '{ print index($0, "split.c:18") }')" -le 16 ]; then
	ok "under 100 columns: no ±95% or skid column, source rows indented less (past the arrows)"
else
	fail "80x24 columns: $(screen | sed -n 3p)"
fi
# every number column says its base: under K the counts are raw, and say so
$T send-keys -t bt K
wait_for "\[skid\]"
screen | sed -n 3p | grep -q "Skid% *RawSmp" && ok "80x24, K: Skid% then RawSmp, no raw count under a skid heading" ||
	fail "K heading: $(screen | sed -n 3p)"
$T send-keys -t bt K
wait_for "\[raw\]"
$T send-keys -t bt w
wait_for "±95%" && screen | sed -n 3p | grep -q "Skid%" && ok "w brings every column back" || fail "w"
$T send-keys -t bt w
wait_for "compact: no skid" && ! screen | sed -n 3p | grep -q "±95%" || fail "w again: $(screen | sed -n 3p)"
$T resize-window -t bt -x 60 -y 24
wait_for "1 lint finding: L" && ok "60 columns: the findings indicator is still there"
$T resize-window -t bt -x 80 -y 24
# the lint screen: the cursor's finding whole, wrapped below the list
$T send-keys -t bt L
wait_for "lint: 1 finding"
screen | tr -s ' \n' '  ' | grep -q "Run the benchmark longer or raise -F for the precision the percentages show" &&
	ok "80x24: the lint message is shown whole, wrapped" || fail "lint pane: $(screen | tail -7)"
# help: long lines wrap rather than end at the edge
$T send-keys -t bt h
wait_for "benchtui keys"
for _ in $(seq 14); do $T send-keys -t bt j; done
wait_for "^  S "
screen | tr -s ' \n' '  ' | grep -q "in it, S picks another file (headers inlined into the function)" &&
	ok "80x24: help lines wrap" || fail "help cut: $(screen | grep -A2 '^  S ')"
$T send-keys -t bt x
# nothing cut without a way to read it: at 80x24 a status line that does
# not fit ends in ~, and ~ shows it whole; every screen's status line
# either fits or ends so
$T send-keys -t bt i
wait_for "perf's i (header"
screen | tail -1 | grep -q "~$" && ok "80x24: a cut status line ends in ~" ||
	fail "80x24: cut status line: $(screen | tail -1)"
$T send-keys -t bt '~'
wait_for "the screen's lines whole"
screen | tr -s ' \n' '  ' | grep -q "last message perf's i (header information): the bar at the top is the run; --stdio prints all of it" &&
	ok "~ shows the last message whole" || fail "~: $(screen | head -6)"
$T send-keys -t bt x
uncut=0 cut=""
for keys in "g" "Enter" "C" "q S" "q T" "q q z" "q L"; do
	$T send-keys -t bt $keys
	sleep 0.3
	st=$(screen | tail -1 | sed 's/ *$//')
	if [ "$(printf '%s' "$st" | wc -m)" -ge 80 ] && [ "${st: -1}" != "~" ]; then
		cut="$cut [$keys: $st]"
	else
		uncut=$((uncut + 1))
	fi
done
[ -z "$cut" ] && ok "80x24: every status line fits or ends in ~ ($uncut screens)" ||
	fail "80x24: status lines cut without ~:$cut"
$T send-keys -t bt q q q q q

# LANG=C: ASCII in place of …, arrows, ±, ×: the same screen, one column
# for one (what a UTF-8 terminal shows, transliterated)
for loc in C.UTF-8 C; do
	COLS_=80 LINES_=24 start env LANG=$loc LC_ALL=$loc "$BT" -i "$TMP/t.data"
	wait_for "hot functions"
	$T send-keys -t bt Enter
	wait_for "work_a  split  [0-9.]*% of"
	$T resize-window -t bt -x 80 -y 12
	sleep 0.3
	screen >"$TMP/screen.$loc"
	$T send-keys -t bt q q
done
sed 's/…/./g; s/↑/^/g; s/↓/v/g; s/▶/>/g; s/│/|/g; s/┆/:/g; s/─/-/g; s/┌/\//g; s/└/\\/g;
    s/[├┼┬┴]/+/g; s/±/+/g; s/×/x/g' \
	"$TMP/screen.C.UTF-8" >"$TMP/screen.translit"
! LC_ALL=C grep -q "[^ -~]" "$TMP/screen.C" && cmp -s "$TMP/screen.translit" "$TMP/screen.C" &&
	grep -q "\^[0-9]*-[0-9]*/[0-9]*" "$TMP/screen.C" &&
	ok "LANG=C: ASCII only, columns as under UTF-8" ||
	{ fail "LANG=C screen:"; diff "$TMP/screen.translit" "$TMP/screen.C" | head -10; }

# -- long C++ names, a header's source, the next event: a real templated benchmark --
tmpl=$FIX/tmpl
if [ ! -x "$tmpl" ] || [ "$TOP/tests/fixtures/tmpl.cc" -nt "$tmpl" ] || [ "$TOP/tests/fixtures/tmpl.h" -nt "$tmpl" ]; then
	c++ -O2 -g -o "$tmpl" "$TOP/tests/fixtures/tmpl.cc" || fail "cannot build tests/fixtures/tmpl.cc"
fi
if ! can_record; then
	skipped "C++ names, header sources, events, progress line: the kernel refuses perf_event_open"
else
	"$BT" -q -o "$TMP/tmpl.data" --export /dev/null --top 0 "$tmpl" 20000 2>/dev/null ||
		fail "recording tmpl"
	COLS_=80 LINES_=24 start "$BT" -i "$TMP/tmpl.data"
	wait_for "hot functions"
	first=$(screen | sed -n 4p)
	if echo "$first" | grep -q "  my::deeply::.*reduce<std::plus<.*> >$" &&
	    ! body | grep -q "long) const\|^double"; then
		ok "C++ names as perf prints them, the symbol last, folded to fit"
	else
		fail "C++ row: $first"
	fi
	status_line | grep -q "^double my::deeply::nested::Table<.*long) const" &&
		ok "the cursor row's whole name is on the status line" || fail "status: $(status_line)"
	# the filter (a regular expression) matches the whole name and the short one
	$T send-keys -t bt /
	$T send-keys -t bt -l "\(std::plus<double>, long\)"
	$T send-keys -t bt Enter
	wait_for "1 function match" && body | grep -q "reduce<std::plus" || fail "filter by the whole name"
	$T send-keys -t bt Escape
	wait_for "every function again"
	$T send-keys -t bt /
	$T send-keys -t bt -l "::reduce<std::plus<double> >"
	$T send-keys -t bt Enter
	wait_for "1 function match" && ok "/ filters on the whole name and on perf's form" || fail "filter by the short name"
	$T send-keys -t bt Escape W
	# folded, but for what tells the two instantiations of reduce apart
	wait_for "names with template arguments folded" &&
		body | sed -n 1p | grep -q "plus<double> >" && body | sed -n 2p | grep -q "#1}>" &&
		ok "W folds template arguments, the two reduce<> told apart" ||
		fail "W: $(body | head -3)"
	$T send-keys -t bt W W g Enter
	wait_for "% of [0-9]* samples"
	title=$(screen | sed -n 2p)
	echo "$title" | grep -q "^my::deeply::nested::.*plus<double> >  tmpl  [0-9.]*% of [0-9]* samples" &&
		ok "80x24 title: the name shortened in its middle, the share kept" || fail "title: $title"
	# every instruction row fits in 80 columns: nothing to scroll sideways for
	long=0 ninsn=0
	while IFS= read -r line; do
		case $line in *[0-9a-f]:\ \ *) ninsn=$((ninsn + 1)); [ ${#line} -ge 80 ] && long=$((long + 1)) ;; esac
	done < <(body | LC_ALL=C.UTF-8 cat)
	[ "$ninsn" -gt 5 ] && [ "$long" = 0 ] && ! screen | grep -q "±95%" &&
		ok "80x24: all $ninsn instruction rows on screen fit, no ±95% column" ||
		fail "80x24 annotation: $long of $ninsn rows cut"
	screen | grep -Eq "<\+0x[0-9a-f]+> (↑|↓)$" && ! body | grep -q "<my::deeply.*+0x" &&
		ok "local jumps: <+0x..> and a direction, not the function's name" || fail "jump targets"
	# S: its own file; S again: the files; Enter on tmpl.h: its lines with their samples
	$T send-keys -t bt H S
	wait_for "tmpl.cc  (source of"
	$T send-keys -t bt S
	wait_for "files of my::"
	body | grep -q "stl_vector.h" && ok "S S lists the files the code comes from (STL headers too)" ||
		fail "files: $(body | head -5)"
	$T send-keys -t bt /
	$T send-keys -t bt -l "tmpl.h"
	$T send-keys -t bt Enter Enter
	wait_for "tmpl.h  (source of"
	body | grep -Eq "^ +[0-9]+\.[0-9]+ +[0-9]+ +1[2-6] .*(acc \* k|y > 1e12|y \*= 1e-12|return y)" &&
		ok "the header's lines with their samples (code inlined from tmpl.h)" ||
		fail "tmpl.h source: $(body | sed -n 10,16p)"
	$T send-keys -t bt q q q
	# e: the next event keeps the place (a recording with two events, made by perf)
	if command -v perf >/dev/null && perf record -q -e cpu-clock,task-clock -o "$TMP/two.data" \
	    "$tmpl" 20000 >/dev/null 2>&1; then
		start "$BT" -i "$TMP/two.data"
		wait_for "hot functions"
		$T send-keys -t bt Enter H
		wait_for "hot 1 of"
		before=$(cursor_row | grep -o "[0-9a-f]*:  [a-z].*")
		$T send-keys -t bt e
		wait_for "event task-clock" && screen | sed -n 2p | grep -q "reduce" &&
			wait_cursor "$(printf '%s' "$before" | sed 's/[][\.*^$]/\\&/g')" &&
			ok "e: the next event, on the same function and instruction" ||
			fail "e: $(cursor_row) (was $before)"
		$T send-keys -t bt q q
	else
		skipped "e keeps the place: perf cannot record two events here"
	fi
	# the live line while a long benchmark records; none with -q or into a
	# file (it shows once a run has lasted 1 s: runs of 2 s and 1.5 s leave
	# a second and half a second of 0.1 s polls to see it)
	longrun=$(fixture longrun -pthread)
	start "$BT" -o "$TMP/lr.data" --export "$TMP/lr.txt" --top 0 "$longrun" 2
	wait_for "^benchtui: recording longrun: [0-9.]* s, [0-9]* samples, [0-9]* lost" &&
		ok "a long recording shows elapsed time, samples and lost on the last line" ||
		fail "no progress line"
	wait_for "benchtui: [0-9]* samples of "
	! screen | grep -q "benchtui: recording" && ok "the line is gone when the run ends" ||
		fail "the progress line stayed: $(screen | grep 'benchtui: recording')"
	start "$BT" -q -o "$TMP/lr.data" --export "$TMP/lr.txt" --top 0 "$longrun" 1.5
	seen=0
	for _ in $(seq 600); do	# 30 s: a loaded machine
		screen | grep -q "benchtui: recording" && seen=1
		[ -s "$TMP/status" ] && break
		sleep 0.05
	done
	[ -s "$TMP/status" ] && [ $seen = 0 ] && ok "-q: no progress line" || fail "-q: progress line shown"
	# another file: the run above may still be writing its own
	"$BT" -o "$TMP/lr2.data" --export "$TMP/lr2.txt" --top 0 "$longrun" 1.5 >/dev/null 2>"$TMP/lr.err"
	! grep -q "recording\|$(printf '\033')" "$TMP/lr.err" && grep -q "samples of" "$TMP/lr.err" &&
		ok "stderr not a terminal: no progress line" || fail "progress into a file: $(cat -v "$TMP/lr.err")"
	# z: the processes of a forking program; Enter on the hottest selects
	# it: the function list of its samples only, the header saying which;
	# q comes back to the processes
	procs=$(fixture procs -pthread)
	"$BT" -q -o "$TMP/fork.data" --export /dev/null --top 0 "$procs" fork 2>/dev/null ||
		fail "recording procs fork"
	start "$BT" -i "$TMP/fork.data"
	wait_for "hot functions"
	$T send-keys -t bt z
	wait_for "^processes: 3, threads: 3, [0-9]* samples of" && ok "z lists the 3 processes and their threads" ||
		fail "z: $(screen | sed -n 2p)"
	row=$(cursor_row)
	pid=$(echo "$row" | awk '{ print $3 }') n=$(echo "$row" | awk '{ print $2 }')
	$T send-keys -t bt Enter
	wait_for "hot functions"
	k=$(body | grep -c " worker_child$\| worker_parent$")
	screen | sed -n 1p | grep -q "pid $pid: $n samples\(, 0 lost\)\?, [0-9.]* s of [0-9.]* s" && [ "$k" = 1 ] &&
		ok "Enter on process $pid: its $n samples only (header: pid $pid), one worker function" ||
		fail "Enter on process $pid ($n samples): $(screen | sed -n 1p), $k worker functions"
	$T send-keys -t bt q
	wait_for "^processes: 3" && ok "q comes back to the processes" || fail "q: $(screen | sed -n 2p)"
	$T send-keys -t bt q q
fi
finish
