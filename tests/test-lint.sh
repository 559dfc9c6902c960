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
expect unoptimized work_a -- "$(fixture_as split-O0 split.c cc -O0 -g)" 20000000 10
expect unoptimized work_a -- "$(fixture_as split-noO split.c cc -g)" 20000000 10
expect no-debug-info work_a -- "$(fixture_as split-nodebug split.c cc -O2)"
expect kernel-dominated -- "$(fixture syscalls)"
expect few-samples -- /bin/true

silent "$(fixture split)"
silent "$(fixture divloop)"
silent "$(fixture_as split-Olast split.c cc -O2 -g -O0 -O2)"	# the last -O wins
if command -v clang >/dev/null; then	# clang records no flags: cannot decide, says nothing
	got=$(lint "$(fixture_as split-clang split.c clang -O0 -g)" 20000000 10)
	echo "$got" | grep -q unoptimized && fail "clang build: a guess where nothing can be known" ||
		ok "clang -O0 (no flags recorded): no unoptimized finding"
fi
silent "$(fixture_as cxx cxx.cc c++ -O2 -g)" 400000
# Go benchmarks: tests/test-go.sh
finish
