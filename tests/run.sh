#!/bin/bash
# Run every script test (tests/test-*.sh); 77 means skipped. SKIP_TESTS
# lists names to leave out (the sanitizer pass of make check leaves out
# "fuzz long layout cache" and the planted-lint suites: see the
# Makefile). test-bench and
# test-harness run late: on a fresh machine they wait for criterion's
# build, which make check starts first (tests/prebuild.sh) and which goes
# on beside the others meanwhile. After them come the scripts the
# sanitizer pass leaves out (PLAIN_ONLY): that pass runs one script
# behind, and its test-bench (~90 s, the longest) runs beside them
# rather than after the plain pass has ended (make check's last ~35 s,
# measured idle). A test still running after a minute is
# said to be, every minute. Each script's time is said as it ends: wall
# seconds, and the CPU seconds (user+system) of it and every process it
# waited for (the machine is shared: the CPU time is the one to compare).
#
# make check runs the sanitizer pass beside the plain one, one script
# behind: RC_DIR (plain pass) names a directory where each script's exit
# status is written as it ends (NAME.rc; .done when run.sh ends), AFTER
# (sanitizer pass) one where run.sh waits for a script's status before
# running it, as the script reads what the plain pass left in BT_SHARE;
# a script the plain pass failed is not run again (and fails).
set -u
BUILD=${BUILD:-build}
SKIP_LOG=$(mktemp)
export BUILD SKIP_LOG
# the sanitizer pass's SKIP_TESTS (Makefile); the two whose oracles a
# loaded machine moves most (jit-warmup, CPU/real beside a busy loop) last,
# when the sanitizer pass has ended
PLAIN_ONLY="layout long fuzz lint-loops cache lint-phase lint-harnesses"
LAST="bench harness $PLAIN_ONLY"
tick=
trap 'rm -f "$SKIP_LOG" "$SKIP_LOG.cpu"; [ -z "$tick" ] || kill $tick 2>/dev/null' EXIT
tests=
for t in tests/test-*.sh; do
	[ -e "$t" ] || continue
	name=${t#tests/test-}
	name=${name%.sh}
	case " $LAST " in *" $name "*) ;; *) tests="$tests $t" ;; esac
done
for name in $LAST; do
	[ -e "tests/test-$name.sh" ] && tests="$tests tests/test-$name.sh"
done
RC_DIR=${RC_DIR:-}
AFTER=${AFTER:-}
if [ -n "$RC_DIR" ]; then
	mkdir -p "$RC_DIR"
	trap 'rm -f "$SKIP_LOG" "$SKIP_LOG.cpu"; [ -z "$tick" ] || kill $tick 2>/dev/null; : >"$RC_DIR/.done"' EXIT
fi
# cpu VAR: set VAR to the CPU seconds of the children waited for so far
# (user + system; times in this shell, not in a command substitution's)
cpu() {
	times >"$SKIP_LOG.cpu"
	eval "$1=\$(awk 'NR == 2 {
		n = 0
		for (i = 1; i <= 2; i++) { split(\$i, a, /[ms]/); n += a[1] * 60 + a[2] }
		printf \"%.1f\", n }' \"\$SKIP_LOG.cpu\")"
}
# plain_rc NAME: the plain pass's status for NAME, waited for (AFTER)
plain_rc() {
	while [ ! -e "$AFTER/$1.rc" ] && [ ! -e "$AFTER/.done" ]; do
		sleep 1
	done
	cat "$AFTER/$1.rc" 2>/dev/null || echo 0
}
fail=0
for t in $tests; do
	name=${t#tests/test-}
	name=${name%.sh}
	case " ${SKIP_TESTS:-} " in *" $name "*) continue ;; esac
	if [ -n "$AFTER" ]; then
		prc=$(plain_rc "$name")
		case $prc in
		0|77) ;;
		*) printf '== %s (%s)\n   FAILED: not run, failed without the sanitizers (%s)\n' \
			"$t" "$BUILD" "$prc"; fail=1; continue ;;
		esac
	fi
	printf '== %s (%s)\n' "$t" "$BUILD"
	start=$(date +%s)
	cpu cpu0
	(
		trap 'kill $s 2>/dev/null; exit 0' TERM
		while sleep 60 & s=$!; wait $s; do
			echo "   ... $t: still running ($(( $(date +%s) - start )) s)"
		done
	) &
	tick=$!
	bash "$t"
	rc=$?
	kill $tick 2>/dev/null
	wait $tick 2>/dev/null
	tick=
	[ -z "$RC_DIR" ] || echo $rc >"$RC_DIR/$name.rc"
	cpu cpu1
	secs="$(( $(date +%s) - start )) s, $(awk -v a="$cpu0" -v b="$cpu1" 'BEGIN { printf "%.1f", b - a }') s CPU"
	case $rc in
	0) echo "   passed in $secs" ;;
	77) echo "   (skipped)"; echo "$name: the whole test" >>"$SKIP_LOG" ;;
	*) echo "   FAILED ($rc) in $secs"; fail=1 ;;
	esac
done
if [ -s "$SKIP_LOG" ]; then
	echo "== skipped here, not passed:"
	sed 's/^/   /' "$SKIP_LOG"
fi
exit $fail
