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

# The deferred read keeps a big recording's first read in a cache
# (docs/formats.md "First-read cache"): here every recording's, in a
# cache of this test's own. What is read from it must be what the samples
# say: the same export as the eager read.
export XDG_CACHE_HOME=$TMP/xdg BENCHTUI_READ_CACHE=1
mkdir -p "$XDG_CACHE_HOME"

# same NAME FILE: both ways (the deferred one twice: kept in the cache,
# then read from it), text and JSON, byte-identical
same() {
	for j in "" --json; do
		"$DD" $j "$2" >"$TMP/eager" 2>"$TMP/err" ||
			{ fail "$1${j:+ $j}: eager: $(head -c 200 "$TMP/err")"; continue; }
		for way in deferred cached; do
			"$DD" --deferred $j "$2" >"$TMP/$way" 2>"$TMP/err" ||
				{ fail "$1${j:+ $j}: $way: $(head -c 200 "$TMP/err")"; continue 2; }
		done
		if cmp -s "$TMP/eager" "$TMP/deferred" && cmp -s "$TMP/eager" "$TMP/cached"; then
			ok "$1${j:+ $j}: $(wc -c <"$TMP/eager") bytes, the same every way (eager, deferred, cached)"
		else
			fail "$1${j:+ $j}: $(diff "$TMP/eager" "$TMP/deferred" | head -5 | tr '\n' ' ')" \
			    "$(diff "$TMP/eager" "$TMP/cached" | head -5 | tr '\n' ' ')"
		fi
	done
}

# (recorded with the cache off: the recorder's own entry is checked below)
BENCHTUI_READ_CACHE=0 "$BT" -q -e cpu-clock -F 4000 -o "$TMP/hybrid.data" --stdio --top 0 \
	"$nofp" 20000 >/dev/null 2>&1 || fail "benchtui could not record chains"
same "benchtui's default (hybrid)" "$TMP/hybrid.data"
BENCHTUI_READ_CACHE=0 "$BT" -q -e cpu-clock -F 4000 -g -o "$TMP/g.data" --stdio --top 0 \
	"$nofp" 10000 >/dev/null 2>&1 || fail "benchtui -g could not record"
same "benchtui -g" "$TMP/g.data"
BENCHTUI_READ_CACHE=0 "$BT" -q -e cpu-clock -F 4000 -o "$TMP/procs.data" --stdio --top 0 \
	"$procs" fork >/dev/null 2>&1 || fail "benchtui could not record the processes"
same "several processes" "$TMP/procs.data"
n=$(ls "$XDG_CACHE_HOME/benchtui/reads" 2>/dev/null | wc -l)
[ "$n" -ge 3 ] && ok "the first reads kept: $n entries" ||
	fail "the first-read cache has $n entries, not 3"

# an entry that no longer fits its file is not used: the file changed
# (its time, then one byte of a sample), the entry damaged
cp "$TMP/procs.data" "$TMP/changed.data"
"$DD" --deferred --json "$TMP/changed.data" >"$TMP/before" 2>&1
touch -d '2001-01-01' "$TMP/changed.data"
"$DD" --deferred --json "$TMP/changed.data" >"$TMP/after" 2>&1
cmp -s "$TMP/before" "$TMP/after" && ok "a file with a new time: read again, the same" ||
	fail "a file with a new time: $(diff "$TMP/before" "$TMP/after" | head -3 | tr '\n' ' ')"
for e in "$XDG_CACHE_HOME"/benchtui/reads/*; do
	printf 'X' | dd of="$e" bs=1 seek=100 conv=notrunc status=none
done
"$DD" --deferred --json "$TMP/procs.data" >"$TMP/after" 2>&1
"$DD" --json "$TMP/procs.data" >"$TMP/eager" 2>&1
cmp -s "$TMP/eager" "$TMP/after" && ok "damaged entries: not used, the file read again" ||
	fail "damaged entries: $(diff "$TMP/eager" "$TMP/after" | head -3 | tr '\n' ' ')"
BENCHTUI_READ_CACHE=0 "$DD" --deferred --json "$TMP/changed.data" >"$TMP/after" 2>&1
cmp -s "$TMP/before" "$TMP/after" && ok "BENCHTUI_READ_CACHE=0: read afresh" ||
	fail "BENCHTUI_READ_CACHE=0: $(diff "$TMP/before" "$TMP/after" | head -3 | tr '\n' ' ')"
# benchtui's own recording leaves its first read in the cache whatever
# follows it (--stdio, --export and --baseline read it back eagerly, the
# pprof export keeps its samples, -o alone reads nothing back): the entry is the one
# the deferred read keeps, byte for byte; the next opening uses it (the
# entry not written again: the same inode) and shows what the eager read
# shows; a changed file is read afresh. A cache of each recording's own.
# recorded NAME FILE: the entry the recording of FILE left
recorded() {
	local R=$XDG_CACHE_HOME/benchtui/reads e ino
	e=$(ls "$R"/* 2>/dev/null)
	if [ -z "$e" ] || [ "$(echo "$e" | wc -l)" != 1 ]; then
		fail "$1: the recording left ${e:-no entry} in the cache"
		return
	fi
	ino=$(stat -c %i "$e")
	"$DD" --json "$2" >"$TMP/eager" 2>&1
	"$DD" --deferred --json "$2" >"$TMP/cached" 2>&1
	if [ "$(stat -c %i "$e")" = "$ino" ] && cmp -s "$TMP/eager" "$TMP/cached"; then
		ok "$1: the next opening reads from the recorder's entry, the export the eager read's"
	else
		fail "$1: the recorder's entry $( [ "$(stat -c %i "$e")" = "$ino" ] &&
		    echo used || echo 'not used')," "$(diff "$TMP/eager" "$TMP/cached" | head -3 | tr '\n' ' ')"
	fi
	mv "$e" "$TMP/recorder.entry"
	"$DD" --deferred --json "$2" >/dev/null 2>&1
	cmp -s "$TMP/recorder.entry" "$e" &&
		ok "$1: the recorder's entry is the deferred read's, byte for byte ($(wc -c <"$e") bytes)" ||
		fail "$1: the recorder's entry differs from the deferred read's"
}
export XDG_CACHE_HOME=$TMP/rec-stdio; mkdir -p "$XDG_CACHE_HOME"
"$BT" -q -e cpu-clock -F 4000 -o "$TMP/r-stdio.data" --stdio --top 0 "$nofp" 20000 >/dev/null 2>&1 ||
	fail "benchtui --stdio could not record"
recorded "recorded, --stdio" "$TMP/r-stdio.data"
touch -d '2001-01-01' "$TMP/r-stdio.data"
ino=$(stat -c %i "$XDG_CACHE_HOME"/benchtui/reads/*)
"$DD" --json "$TMP/r-stdio.data" >"$TMP/eager" 2>&1
"$DD" --deferred --json "$TMP/r-stdio.data" >"$TMP/after" 2>&1
if [ "$(stat -c %i "$XDG_CACHE_HOME"/benchtui/reads/*)" != "$ino" ] && cmp -s "$TMP/eager" "$TMP/after"; then
	ok "recorded, then changed: read afresh (its entry written again), the same export"
else
	fail "recorded, then changed: $(diff "$TMP/eager" "$TMP/after" | head -3 | tr '\n' ' ')"
fi
export XDG_CACHE_HOME=$TMP/rec-json; mkdir -p "$XDG_CACHE_HOME"
"$BT" -q -e cpu-clock -F 4000 -o "$TMP/r-json.data" --export "$TMP/r.json" --format json \
	"$nofp" 20000 >/dev/null 2>&1 || fail "benchtui --export could not record"
recorded "recorded, --export" "$TMP/r-json.data"
export XDG_CACHE_HOME=$TMP/rec-pprof; mkdir -p "$XDG_CACHE_HOME"
"$BT" -q -e cpu-clock -F 4000 -o "$TMP/r-pprof.data" --export "$TMP/r.pb.gz" --format pprof \
	"$nofp" 20000 >/dev/null 2>&1 || fail "benchtui --format pprof could not record"
recorded "recorded, --format pprof" "$TMP/r-pprof.data"
export XDG_CACHE_HOME=$TMP/rec-o; mkdir -p "$XDG_CACHE_HOME"
"$BT" -q -e cpu-clock -F 4000 -o "$TMP/r-o.data" "$procs" fork >/dev/null 2>&1 ||
	fail "benchtui -o could not record"
recorded "recorded, -o alone (several processes)" "$TMP/r-o.data"
export XDG_CACHE_HOME=$TMP/rec-base; mkdir -p "$XDG_CACHE_HOME"
"$BT" -q -e cpu-clock -F 4000 -o "$TMP/r-base.data" --baseline "$TMP/r-json.data" --stdio \
	"$nofp" 20000 >/dev/null 2>&1 || fail "benchtui --baseline could not record"
recorded "recorded, --baseline" "$TMP/r-base.data"
export XDG_CACHE_HOME=$TMP/xdg

if command -v perf >/dev/null; then
	oracle g perf record -q -e cpu-clock -F 4000 -g -o "$SHARE/g.data" "$nofp" 10000 >/dev/null 2>&1 &&
		same "perf record -g" "$SHARE/g.data"
	oracle dwarf perf record -q -e cpu-clock -F 4000 --call-graph dwarf -o "$SHARE/dwarf.data" \
		"$nofp" 10000 >/dev/null 2>&1 && same "perf record --call-graph dwarf" "$SHARE/dwarf.data"
	# the eager read that keeps its first read (benchtui's read back of its
	# own recording) on perf's DWARF chains: frames in no mapping ask the
	# JIT code and find none, and the entry is the deferred read's
	export XDG_CACHE_HOME=$TMP/rec-dwarf; mkdir -p "$XDG_CACHE_HOME"
	[ -s "$SHARE/dwarf.data" ] && "$DD" --recorded "$SHARE/dwarf.data" >/dev/null 2>&1 &&
		recorded "perf's --call-graph dwarf read back as benchtui's own" "$SHARE/dwarf.data"
	export XDG_CACHE_HOME=$TMP/xdg
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
