#!/bin/bash
# A row cut at the screen's edge ends in ~, and ~ shows it whole
# (docs/browser.md "Nothing cut without a way to read it"), also when
# the row is a source line indented by tabs, which the screen expands:
# a tab counts its columns, not one. Headings never run together.
. tests/lib.sh
command -v tmux >/dev/null || skip "tmux is not installed"
bin=$(fixture tabline -O1)
"$TOP/$BUILD/tools/mkrec" "$TMP/t.data" "$bin" tabbed+0x0=50 main+0x0=5 || fail "mkrec"
tmux_init btcut
$T new-session -d -s keep
$T new-session -d -s bt -x 80 -y 24 -c "$TMP" \
	"env TERM=screen LC_ALL=C.UTF-8 $BT -i $TMP/t.data -s tabbed; exec sleep 60"
wait_for "^tabbed " || finish
$T send-keys -t bt / 'acc \+= \(i' Enter
wait_for "tabline.c:15"
row=$(screen | grep "tabline.c:15")
[ "${row: -1}" = "~" ] && ok "80x24: the tabbed source line cut at the edge ends in ~" ||
	fail "80x24: cut without ~: '$row'"
$T send-keys -t bt '~'
wait_for "cursor row"
screen | tr -s ' \n' ' ' | grep -q '(acc >> 3) ^ n; /\* END_OF \*/' &&
	ok "~: the cursor row whole, its tabs expanded" ||
	{ fail "~ lost the end of the row"; screen | sed 's/^/     | /'; }
$T send-keys -t bt q q
# headings never run into each other: D with no typed load has the
# narrowest Type column
$T kill-session -t bt 2>/dev/null
$T new-session -d -s bt -x 60 -y 16 -c "$TMP" \
	"env TERM=screen LC_ALL=C.UTF-8 $BT -i $TMP/t.data -s tabbed; exec sleep 60"
wait_for "^tabbed " || finish
$T send-keys -t bt D
wait_for "^data types: 0"
screen | sed -n 3p | grep -q "Type / member  *Hottest at" &&
	ok "D with no types: its headings apart" || fail "D headings: $(screen | sed -n 3p)"
finish
