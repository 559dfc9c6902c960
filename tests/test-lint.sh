#!/bin/bash
# Benchmark lint on real recordings: every check that must fire does, with
# the function and what to change; healthy benchmarks get no finding at all.
. tests/lib.sh
need_recording

# lint FILE ARGS...: record and print the findings as "check function"
lint() {
	"$BT" -q -o "$TMP/l.data" --stdio --top 0 --format json "$@" 2>/dev/null |
		sed -n '/"findings": \[/,/"annotations"/p' |
		sed -n 's/.*"check": "\([^"]*\)"\(, "function": "\([^"]*\)"\)\?.*/\1 \3/p'
}
expect() {	# expect CHECK [FUNCTION] -- CMD...: the finding must be there
	want=$1; shift
	fn=""
	[ "$1" != -- ] && { fn=$1; shift; }
	shift
	got=$(lint "$@")
	if echo "$got" | grep -q "^$want ${fn}"; then
		ok "$want fires on $(basename "$1")${fn:+ ($fn)}"
	else
		fail "$want did not fire on $*: got '$got'"
	fi
}
silent() {
	got=$(lint "$@")
	[ -z "$got" ] && ok "no finding on healthy $(basename "$1")" ||
		fail "false alarm on $(basename "$1"): $got"
}

expect empty-loop bench -- "$(fixture emptyloop)"
expect timer-dominated -- "$(fixture clock)"
cc -O0 -g -o "$FIX/split-O0" tests/fixtures/split.c
expect unoptimized work_a -- "$FIX/split-O0" 20000000 10
cc -g -o "$FIX/split-noO" tests/fixtures/split.c
expect unoptimized work_a -- "$FIX/split-noO" 20000000 10
cc -O2 -o "$FIX/split-nodebug" tests/fixtures/split.c
expect no-debug-info work_a -- "$FIX/split-nodebug"
expect kernel-dominated -- "$(fixture syscalls)"
expect few-samples -- /bin/true

silent "$(fixture split)"
silent "$(fixture divloop)"
cc -O2 -g -O0 -O2 -o "$FIX/split-Olast" tests/fixtures/split.c	# the last -O wins
silent "$FIX/split-Olast"
if command -v clang >/dev/null; then	# clang records no flags: cannot decide, says nothing
	clang -O0 -g -o "$FIX/split-clang" tests/fixtures/split.c
	got=$(lint "$FIX/split-clang" 20000000 10)
	echo "$got" | grep -q unoptimized && fail "clang build: a guess where nothing can be known" ||
		ok "clang -O0 (no flags recorded): no unoptimized finding"
fi
c++ -O2 -g -o "$FIX/cxx" tests/fixtures/cxx.cc
silent "$FIX/cxx" 400000
# Go benchmarks: tests/test-go.sh
finish
