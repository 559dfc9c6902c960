#!/bin/bash
# The tree reads as the pipeline (docs/architecture.md): no cycle between
# core/ folders, neither by #include nor by the symbols their objects call
# (tsort finds loops), no folder includes another's internal header, and
# the renderers (core/export, tui/) see public headers only.
. tests/lib.sh

# folder -> folder edges from #include "folder/..." lines
inc_edges() {
	for f in core/*/*.[ch]; do
		from=$(basename "$(dirname "$f")")
		sed -n 's|^#include "\([a-z]*\)/[^"]*"|\1|p' "$f" | while read -r to; do
			[ "$to" = benchtui ] || [ "$to" = "$from" ] || echo "$from $to"
		done
	done | sort -u
}
# folder -> folder edges from the symbols each folder's objects use
objs() {
	for c in core/*/*.c; do echo "$TOP/$BUILD/${c%.c}.o"; done
}
sym_edges() {
	for o in $(objs); do
		d=$(basename "$(dirname "$o")")
		nm --defined-only "$o" | awk -v d="$d" '$2 ~ /[TDRB]/ { print $3, d }'
	done | sort -u >"$TMP/defs"
	for o in $(objs); do
		d=$(basename "$(dirname "$o")")
		nm -u "$o" | awk -v d="$d" '{ print $2, d }'
	done | sort -u >"$TMP/uses"
	join "$TMP/uses" "$TMP/defs" | awk '$2 != $3 { print $2, $3 }' | sort -u
}

for kind in inc sym; do
	${kind}_edges >"$TMP/$kind"
	if [ ! -s "$TMP/$kind" ]; then
		fail "$kind: no edges found (build first)"
	elif tsort "$TMP/$kind" >"$TMP/order" 2>"$TMP/loop"; then
		ok "no $kind cycle between core folders: $(tac "$TMP/order" | tr '\n' ' ')"
	else
		fail "$kind: folders call each other in a cycle:"; cat "$TMP/loop"
	fi
done

# a folder's *-int.h is its own: the stages above read it through its
# other headers (core/session/query.h, core/profile/profile.h...)
bad=$(for f in core/*/*.[ch]; do
	d=$(basename "$(dirname "$f")")
	sed -n 's|^#include "\([a-z]*\)/[^"]*-int\.h"|\1|p' "$f" | while read -r to; do
		[ "$to" = "$d" ] || echo "$f includes $to's internal header"
	done
done)
[ -z "$bad" ] && ok "no core folder includes another's *-int.h" ||
	fail "a folder's internal header is included from another: $bad"

# sizes: a file of the product (core, tui, agent, include) under 800
# lines, a function under 120 (from its name at the start of a line to
# the brace that closes it there): split by concern past that
big=$(find core tui agent include -name '*.[ch]' | xargs wc -l | awk '$2 != "total" && $1 >= 800 { print $2 " (" $1 " lines)" }')
[ -z "$big" ] && ok "every file of the product is under 800 lines" ||
	fail "files of 800 lines or more: $big"
long=$(for f in $(find core tui agent -name '*.c'); do
	awk -v f="$f" '/^[a-zA-Z_][a-zA-Z0-9_]*\(/ { name = $0; sub(/\(.*/, "", name); start = NR }
		/^}/ && start { if (NR - start >= 120) print f ": " name " (" NR - start " lines)"; start = 0 }' "$f"
done)
[ -z "$long" ] && ok "every function of the product is under 120 lines" ||
	fail "functions of 120 lines or more: $long"

# renderers: public headers (benchtui/*), base.h and their own folder only
bad=$(grep -Hn '^#include "' core/export/*.[ch] tui/*.[ch] |
	grep -v -e '"benchtui/' -e '"base.h"' -e '"export/' -e '"cli.h"' -e '"keymap.h"' -e '"tui.h"' -e '"tui-int.h"' -e '"query.h"' -e '"front.h"')
[ -z "$bad" ] && ok "core/export and tui/ include public headers only" ||
	fail "a renderer includes an internal header: $bad"
finish
