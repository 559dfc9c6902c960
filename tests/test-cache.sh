#!/bin/bash
# The machine's fixture cache (tests/cache.sh), on a toy builder in a
# cache of its own: an entry is built once and reused; a damaged entry is
# built again; another key is another entry; two runs at once build it
# once (the second waits); a builder killed half-way leaves nothing a
# later run trusts. No benchtui code runs: the sanitizer pass leaves it out.
. tests/lib.sh
export XDG_CACHE_HOME=$TMP/xdg
N=$TMP/builds
: >"$N"
# toy OUT: counts its builds; TOY_SLEEP seconds between its two files
cat >"$TMP/toy.sh" <<'EOF'
. tests/cache.sh
toy() {
	echo build >>"$TOY_COUNT"
	echo one >"$1/a"
	sleep "${TOY_SLEEP:-0}"
	mkdir "$1/d" && echo two >"$1/d/b c"
}
cache_entry toy "${TOY_KEY:-k1}" toy
EOF
toy() { TOY_COUNT=$N bash "$TMP/toy.sh" 2>>"$TMP/err"; }
builds() { wc -l <"$N"; }

e=$(toy) && [ "$(cat "$e/a" "$e/d/b c")" = "one
two" ] && [ "$(builds)" = 1 ] &&
	ok "an entry is built into the cache: $(basename "$e")" ||
	fail "first build: entry '$e', $(builds) builds: $(cat "$TMP/err")"
case $e in "$XDG_CACHE_HOME"/benchtui/fixtures/toy-*) ;; *) fail "entry outside \$XDG_CACHE_HOME: $e" ;; esac
e2=$(toy) && [ "$e2" = "$e" ] && [ "$(builds)" = 1 ] &&
	ok "a second run reuses it" || fail "second run: '$e2', $(builds) builds"

echo damaged >"$e/d/b c"
e2=$(toy) && [ "$e2" = "$e" ] && [ "$(builds)" = 2 ] && [ "$(cat "$e/d/b c")" = two ] &&
	ok "a damaged file: the entry is built again" || fail "damaged entry: $(builds) builds"
rm "$e/a"
e2=$(toy) && [ "$(builds)" = 3 ] && [ -f "$e/a" ] &&
	ok "a missing file: built again" || fail "missing file: $(builds) builds"
echo x >>"$e/.manifest"
e2=$(toy) && [ "$(builds)" = 4 ] && ok "a changed manifest: built again" ||
	fail "changed manifest: $(builds) builds"

e2=$(TOY_KEY=k2 toy) && [ "$e2" != "$e" ] && [ -d "$e" ] && [ "$(builds)" = 5 ] &&
	ok "another key is another entry, beside the first" || fail "another key: '$e2', $(builds) builds"

# two at once: one builds, the other waits for it and builds nothing
rm -rf "$e"
TOY_SLEEP=2 toy >"$TMP/r1" &
p1=$!
sleep 0.5
toy >"$TMP/r2"
wait $p1
[ "$(cat "$TMP/r1")" = "$e" ] && [ "$(cat "$TMP/r2")" = "$e" ] && [ "$(builds)" = 6 ] &&
	grep -q "waiting for toy: another run is building it" "$TMP/err" &&
	ok "two runs at once: one builds, the other waits for it and says so" ||
	fail "two runs at once: $(builds) builds; $(cat "$TMP/r1" "$TMP/r2")"

# a builder killed half-way: its lock goes with it, its directory is not an entry
rm -rf "$e"
TOY_SLEEP=30 TOY_COUNT=$N setsid bash "$TMP/toy.sh" >/dev/null 2>&1 &
p1=$!
for _ in $(seq 100); do [ -f "$(ls -d "$e".tmp.*/a 2>/dev/null | head -1)" ] && break; sleep 0.05; done
kill -TERM -$p1
wait $p1 2>/dev/null
e2=$(toy) && [ "$e2" = "$e" ] && [ "$(builds)" = 8 ] && [ -f "$e/d/b c" ] &&
	! ls -d "$e".tmp.* >/dev/null 2>&1 &&
	ok "a builder killed half-way: the next run builds the entry whole" ||
	fail "after a killed builder: '$e2', $(builds) builds"
finish
