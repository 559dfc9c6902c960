#!/bin/bash
# The documentation cannot drift from the code: every key of the key table
# (tui/keymap.c, which the help screen is made from) and every long option
# of the command line (tui/cli.c) is in the man page, and --help lists the
# options too.
. tests/lib.sh
man=docs/benchtui.1
keys=$(sed -n 's/.*}, "\([^"]*\)", TUI_CMD_.*/\1/p' tui/keymap.c)
[ -n "$keys" ] || fail "no keys found in tui/keymap.c"
missing=""
while IFS= read -r names; do
	for k in $names; do
		grep -q "^\.B .*$(printf '%s' "$k" | sed 's/[][\.*^$]/\\&/g')" "$man" || missing="$missing $k"
	done
done <<<"$keys"
[ -z "$missing" ] && ok "every key of the key table is in the man page ($(echo "$keys" | wc -l) entries)" ||
	fail "keys missing from $man:$missing"
opts=$(sed -n 's/^\t{ "\([a-z-]*\)", .*/\1/p' tui/cli.c)
missing=""; nohelp=""
for o in $opts; do
	grep -q -- "$(echo "\\-\\-$o" | sed 's/-/\\\\-/g')" "$man" || missing="$missing --$o"
	"$BT" --help | grep -q -- "--$o" || nohelp="$nohelp --$o"
done
[ -z "$missing" ] && ok "every long option is in the man page ($(echo $opts | wc -w))" ||
	fail "options missing from $man:$missing"
[ -z "$nohelp" ] && ok "every long option is in --help" || fail "options missing from --help:$nohelp"
# each option described once (--no-source was twice, the second saying less)
dup=$(awk 'prev == ".TP" && /^\.BR? / { if (match($0, /\\-\\-[a-z\\-]*[a-z]/)) print substr($0, RSTART, RLENGTH) }
	{ prev = $0 }' "$man" | sort | uniq -d | sed 's/\\//g' | tr '\n' ' ')
[ -z "$dup" ] && ok "no option described twice in the man page" || fail "described twice in $man: $dup"
man -l "$man" >/dev/null 2>"$TMP/man.err" && [ ! -s "$TMP/man.err" ] && ok "the man page renders without warnings" ||
	fail "man page: $(cat "$TMP/man.err")"
finish
