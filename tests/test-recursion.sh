#!/bin/bash
# Recursion in the call graph (docs/callchains.md "Recursion"), on real
# recordings of tests/fixtures/recur.c (fib, is_even/is_odd, a tree walk),
# against perf report on the same files:
#  1. perf record -g (built -O1 and -O2 with frame pointers) and
#     --call-graph dwarf (built without): each function's Children and
#     Self percents, its callers (the caller of its innermost frame: fib's
#     is fib) and the calls to it (fib -> fib, main -> fib) numerically
#     equal to perf report --children's (tests/tools/recursion-oracle.py)
#     and the hot path names who entered each recursion (fib from main)
#  2. benchtui -g: perf report on benchtui's own file gives the same
#  3. the browser: C on fib's hottest instruction lists its entry stacks
#     with the recursion's depth (fib ×N <- main)
. tests/lib.sh
command -v perf >/dev/null || skip "perf is not installed (scripts/deps.sh installs linux-perf)"
command -v python3 >/dev/null || skip "python3 is not installed"
need_recording
O=$TOP/tests/tools/recursion-oracle.py
FUNCS="fib is_even is_odd walk main"
for o in 1 2; do
	fixture_as recur-O$o recur.c cc -O$o -g >/dev/null
	fixture_as recur-O$o-fp recur.c cc -O$o -g -fno-omit-frame-pointer >/dev/null
done
export ASAN_OPTIONS=${ASAN_OPTIONS:-}

children() {	# FILE: $FILE.children
	perf report -i "$1" --children --no-inline --stdio --sort dso,sym \
		-g folded,0,callee,function,count 2>/dev/null >"$1.children"
}

# --- 1. perf's recordings ----------------------------------------------------
for r in O1-fp O2-fp O1 O2; do
	case $r in *-fp) how="-g" ;; *) how="--call-graph dwarf" ;; esac
	f=$SHARE/$r.data
	# shellcheck disable=SC2086
	oracle "$r" perf record -q -e cpu-clock -F 4000 $how -o "$f" "$FIX/recur-$r" 150 \
		>/dev/null 2>"$TMP/err" || { fail "perf record $how recur-$r: $(head -c 200 "$TMP/err")"; continue; }
	oracle "$r-children" children "$f"
	if "$BT" -i "$f" --export "$TMP/$r.json" --format json --top 0 2>"$TMP/err"; then
		# shellcheck disable=SC2086
		python3 "$O" "$TMP/$r.json" "$f.children" "recur-$r" $FUNCS >"$TMP/o" &&
			{ cat "$TMP/o"; ok "perf record $how, -$r: perf report --children's percents, callers and calls"; } ||
			fail "perf record $how, -$r: $(cat "$TMP/o")"
	else
		fail "benchtui -i $r.data: $(cat "$TMP/err")"
	fi
done

# the hot path names who entered each recursion; text and JSON agree
if [ -s "$TMP/O2-fp.json" ]; then
	hp=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["hot_path"])' "$TMP/O2-fp.json")
	case "$hp" in
	*"fib "*"% from fib"* | *"walk "*"% from walk"*) fail "hot path: a recursion runs for itself: $hp" ;;
	*"fib "*"% from main"*) ok "hot path: $hp" ;;
	*) fail "hot path: fib not from main: $hp" ;;
	esac
	"$BT" -i "$SHARE/O2-fp.data" --export "$TMP/e.txt" --top 0 &&
		python3 "$TOP/tests/tools/export-agree.py" "$TMP/e.txt" "$TMP/O2-fp.json" >"$TMP/o" &&
		ok "text and JSON agree: $(cat "$TMP/o")" || fail "exports disagree: $(cat "$TMP/o")"
fi

# --- 2. benchtui -g, read by perf -------------------------------------------
if "$BT" -q -g -e cpu-clock -o "$TMP/btg.data" --export "$TMP/btg.json" --format json --top 0 \
    "$FIX/recur-O2-fp" 150 2>"$TMP/err"; then
	children "$TMP/btg.data"
	# shellcheck disable=SC2086
	python3 "$O" "$TMP/btg.json" "$TMP/btg.data.children" recur-O2-fp $FUNCS >"$TMP/o" &&
		{ cat "$TMP/o"; ok "benchtui -g: perf report on benchtui's file gives the same call graph"; } ||
		fail "benchtui -g: $(cat "$TMP/o")"
else
	fail "benchtui -g: $(cat "$TMP/err")"
fi

# --- 3. entry stacks in the browser -----------------------------------------
if [ -s "$SHARE/O2-fp.data" ] && command -v tmux >/dev/null; then
	tmux_init recur
	$T new-session -d -s bt -x 120 -y 40 -c "$TMP" \
		"env TERM=screen LC_ALL=C.UTF-8 $BT -i $SHARE/O2-fp.data -s fib; exec sleep 60"
	if wait_for "fib"; then
		$T send-keys -t bt C
		if wait_for "entry stacks of"; then
			screen >"$TMP/scr"
			grep -Eq -- "<- fib (<- fib )*<- main|<- fib ×[0-9]+ <- main" "$TMP/scr" &&
				ok "C on fib's hottest instruction: its entry stacks through fib's recursion to main" ||
				{ fail "no recursive entry stack"; sed 's/^/     | /' "$TMP/scr"; }
			grep -Eq -- "^ *[0-9.]+% +[0-9]+ +<- recur-O2-fp +fib$" "$TMP/scr" &&
				ok "fib is among its own callers" ||
				{ fail "fib is not its own caller"; sed 's/^/     | /' "$TMP/scr"; }
		fi
	fi
else
	skipped "tmux, or perf's -O2 recording, is missing: no browser check"
fi
finish
