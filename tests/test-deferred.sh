#!/bin/bash
# The browser reads a recording's call chains after its first screen
# (bt_profile_open_deferred, bt_session_read_chains; docs/callchains.md
# "Deferred chains"): what it then shows is what an eager read shows.
# tests/tools/defer-dump prints the export (header, table, the three
# hottest functions annotated, text and JSON) both ways; they must be
# byte-identical, on benchtui's default (hybrid) and -g recordings, perf's
# -g and DWARF ones, and one of several processes. Then the browser: the
# Children column once the chains are read.
. tests/lib.sh
need_recording
DD=$TOP/$BUILD/tools/defer-dump
[ -x "$DD" ] || { echo "   FAIL: $DD is not built (make tools)"; exit 1; }
export ASAN_OPTIONS=${ASAN_OPTIONS:-}
nofp=$(fixture chains)
procs=$(fixture procs)

# same NAME FILE: both ways, text and JSON, byte-identical
same() {
	for j in "" --json; do
		"$DD" $j "$2" >"$TMP/eager" 2>"$TMP/err" ||
			{ fail "$1${j:+ $j}: eager: $(head -c 200 "$TMP/err")"; continue; }
		"$DD" --deferred $j "$2" >"$TMP/deferred" 2>"$TMP/err" ||
			{ fail "$1${j:+ $j}: deferred: $(head -c 200 "$TMP/err")"; continue; }
		if cmp -s "$TMP/eager" "$TMP/deferred"; then
			ok "$1${j:+ $j}: $(wc -c <"$TMP/eager") bytes, the same both ways"
		else
			fail "$1${j:+ $j}: $(diff "$TMP/eager" "$TMP/deferred" | head -5 | tr '\n' ' ')"
		fi
	done
}

"$BT" -q -e cpu-clock -F 4000 -o "$TMP/hybrid.data" --stdio --top 0 "$nofp" 20000 >/dev/null 2>&1 ||
	fail "benchtui could not record chains"
same "benchtui's default (hybrid)" "$TMP/hybrid.data"
"$BT" -q -e cpu-clock -F 4000 -g -o "$TMP/g.data" --stdio --top 0 "$nofp" 10000 >/dev/null 2>&1 ||
	fail "benchtui -g could not record"
same "benchtui -g" "$TMP/g.data"
"$BT" -q -e cpu-clock -F 4000 -o "$TMP/procs.data" --stdio --top 0 "$procs" fork >/dev/null 2>&1 ||
	fail "benchtui could not record the processes"
same "several processes" "$TMP/procs.data"
if command -v perf >/dev/null; then
	oracle g perf record -q -e cpu-clock -F 4000 -g -o "$SHARE/g.data" "$nofp" 10000 >/dev/null 2>&1 &&
		same "perf record -g" "$SHARE/g.data"
	oracle dwarf perf record -q -e cpu-clock -F 4000 --call-graph dwarf -o "$SHARE/dwarf.data" \
		"$nofp" 10000 >/dev/null 2>&1 && same "perf record --call-graph dwarf" "$SHARE/dwarf.data"
else
	skipped "perf is not installed: perf's recordings"
fi

# the browser: the first screen, then the Children column from the chains
if command -v tmux >/dev/null; then
	tmux_init deferred
	$T new-session -d -s bt -x 150 -y 30 "$BT -i $TMP/hybrid.data"
	if wait_for "Children"; then
		if screen | grep -q " leaf$"; then
			ok "the browser: Children once the chains are read"
		else
			fail "the browser: no leaf row"; screen | sed 's/^/     | /' | head -8
		fi
	fi
	$T send-keys -t bt q
else
	skipped "tmux is not installed: the browser"
fi
finish
