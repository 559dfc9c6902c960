#!/bin/bash
# make install and make uninstall (the Makefile): into a DESTDIR staging
# tree, the binary, the JVMTI agent in benchtui's own lib dir, the man page
# and the docs; the installed benchtui finds the installed agent (its java
# note names the agent's path: core/jit/setup.c agent_path()); make
# uninstall leaves no file behind.
. tests/lib.sh
D=$TMP/stage
P=/usr/local
# (run from make check: not its jobserver, nor its flags)
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -s BUILD="$BUILD" "$@"; }
agent=$TOP/$BUILD/libbenchtui-jvmti.so
mk install DESTDIR="$D" PREFIX=$P >"$TMP/install.out" 2>&1 ||
	{ fail "make install: $(cat "$TMP/install.out")"; finish; }
want="bin/benchtui share/man/man1/benchtui.1 share/doc/benchtui/README.md share/doc/benchtui/reliability.md"
[ -f "$agent" ] && want="$want lib/benchtui/libbenchtui-jvmti.so"
missing=""
for f in $want; do [ -f "$D$P/$f" ] || missing="$missing $f"; done
[ -z "$missing" ] && ok "make install DESTDIR PREFIX=$P: $(find "$D" -type f | wc -l) files ($want)" ||
	fail "not installed:$missing ($(find "$D" -type f | sed "s|^$D||" | tr '\n' ' '))"
[ -x "$D$P/bin/benchtui" ] && cmp -s "$D$P/bin/benchtui" "$BT" && ok "the installed binary is the build's" ||
	fail "installed binary differs from $BT"

if [ ! -f "$agent" ]; then
	skipped "no JVMTI agent built (no JDK headers): the installed agent not checked"
elif ! command -v java >/dev/null; then
	skipped "no java: the installed benchtui's agent not checked"
else
	(cd "$TMP" && env -u BENCHTUI_JVMTI -u JAVA_TOOL_OPTIONS "$D$P/bin/benchtui" --stdio --top 0 \
		-o j.data java -version >j.out 2>j.err)
	if grep -q "agentpath:$D$P/lib/benchtui/libbenchtui-jvmti.so)" "$TMP/j.err"; then
		ok "the installed benchtui runs java with the installed agent"
	else
		fail "installed benchtui on java: $(head -c 600 "$TMP/j.err")"
	fi
fi

mk uninstall DESTDIR="$D" PREFIX=$P >"$TMP/uninstall.out" 2>&1 || fail "make uninstall: $(cat "$TMP/uninstall.out")"
left=$(find "$D" ! -type d | sed "s|^$D||")
[ -z "$left" ] && ok "make uninstall leaves no file ($(find "$D" -type d | wc -l) empty shared directories)" ||
	fail "left after make uninstall: $left"
[ ! -e "$D$P/lib/benchtui" ] && [ ! -e "$D$P/share/doc/benchtui" ] &&
	ok "make uninstall removes benchtui's own directories" || fail "benchtui's lib or doc directory left"
finish
