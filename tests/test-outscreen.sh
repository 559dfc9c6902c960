#!/bin/bash
# The output screen (O, issue 25): the benchmark's recorded output, a row
# a line with its time; hostile bytes escaped, never written to the
# terminal (an OSC title, colours, C0 controls, bytes that are not
# UTF-8); a progress line shows its last text; E exports it (JSON: the
# output rows). Result lines linked to their benchmark: tests/test-names.sh
# (Go's crc32). Standard output and error go to pipes: read, and recorded.
. tests/lib.sh
command -v tmux >/dev/null || skip "tmux is not installed (scripts/deps.sh installs it)"
need_recording

cat >"$TMP/emit.sh" <<'EOF'
printf 'plain line\n'
printf '\033]0;PWNED\007titled\n'
printf '\033[31mred\033[0m text\n'
printf 'tab\there\n'
printf 'ctl \001\002\177 end\n'
printf 'bad \377\376 utf8\n'
printf 'progress 1\rprogress 2\rprogress done\n'
printf 'to stderr\n' >&2
printf 'no newline at the end'
EOF
"$BT" -q -o "$TMP/o.data" --export /dev/null sh "$TMP/emit.sh" 2>"$TMP/o.err" | cat >"$TMP/o.out" ||
	fail "recording sh emit.sh"

tmux_init bt
$T new-session -d -s keep
$T new-session -d -s bt -x 100 -y 30 -c "$TMP" \
	"env TERM=screen LC_ALL=C.UTF-8 $BT -i $TMP/o.data; exec sleep 60"
wait_for "hot functions"
title0=$($T display-message -p -t bt '#{pane_title}')
$T send-keys -t bt O
wait_for "output: 8 lines and standard error" && ok "O opens the output: $(screen | sed -n 2p | sed 's/  *\[.*//')"
s=$(screen)
grep -q '      1  plain line' <<<"$s" && grep -q '      8  no newline at the end' <<<"$s" &&
	ok "lines numbered as the harness parser counts them, the last without its newline" ||
	fail "line numbers: $s"
grep -qE '^ +[0-9]+\.[0-9]{3} s +1  plain line' <<<"$s" && ok "each line with its time into the run" ||
	fail "no time: $(grep plain <<<"$s")"
grep -q '  2  titled' <<<"$s" && [ "$($T display-message -p -t bt '#{pane_title}')" = "$title0" ] &&
	ok "an OSC title sequence is dropped: the pane's title is unchanged" ||
	fail "title: $($T display-message -p -t bt '#{pane_title}')"
grep -q '  3  red text' <<<"$s" && ok "colours dropped" || fail "colours: $(grep red <<<"$s")"
grep -q '  4  tab     here' <<<"$s" && ok "tabs expanded" || fail "tab: $(grep tab <<<"$s")"
# C0 controls show nothing on a terminal (the harness parser drops them too)
grep -qF 'ctl \x7f end' <<<"$s" && grep -qF 'bad \xff\xfe utf8' <<<"$s" &&
	ok "DEL and bytes that are not UTF-8 escaped as \\xNN, C0 controls dropped" ||
	fail "escapes: $(grep -e ctl -e bad <<<"$s")"
grep -q '  7  progress done' <<<"$s" && ! grep -q 'progress 1' <<<"$s" &&
	ok "a line rewritten with \\r shows its last text" || fail "progress: $(grep progress <<<"$s")"
grep -q '  err  to stderr' <<<"$s" && ok "standard error's lines marked err" ||
	fail "stderr: $s"
# E: JSON by the extension
$T send-keys -t bt E
wait_for "export to: output.txt"
for _ in $(seq 12); do $T send-keys -t bt BSpace; done
$T send-keys -t bt -l "out.json"
$T send-keys -t bt Enter
wait_for "exported 9 rows to 'out.json' as JSON" &&
	python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))["view"]["rows"]
assert all(r["kind"] == "output" for r in rows), rows
out = [r for r in rows if r["stream"] == "stdout"]
assert out[0]["line"] == 1 and out[0]["text"] == "plain line", out[0]
assert out[-1]["line"] == 8 and "time" in out[-1], out[-1]
assert any(r["stream"] == "stderr" for r in rows)
' "$TMP/out.json" && ok "E out.json: the output rows as JSON" || fail "out.json: $(head -c 400 "$TMP/out.json")"
# Enter on a line that is no result says so; q goes back
$T send-keys -t bt g Enter
wait_for "no result of the harness" && ok "Enter on a plain line says it is no result"
$T send-keys -t bt q
wait_for "hot functions" && ok "q goes back"
$T send-keys -t bt q
finish
