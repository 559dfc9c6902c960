#!/bin/bash
# Run every script test (tests/test-*.sh); 77 means skipped. SKIP_TESTS
# lists names to leave out (the sanitizer pass of make check leaves out
# "fuzz long layout cache" and the planted-lint suites: see the
# Makefile). test-bench and
# test-harness run last: on a fresh machine they wait for criterion's
# build, which make check starts first (tests/prebuild.sh) and which goes
# on beside the others meanwhile. A test still running after a minute is
# said to be, every minute.
set -u
BUILD=${BUILD:-build}
SKIP_LOG=$(mktemp)
export BUILD SKIP_LOG
LAST="bench harness"
tick=
trap 'rm -f "$SKIP_LOG"; [ -z "$tick" ] || kill $tick 2>/dev/null' EXIT
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
fail=0
for t in $tests; do
	name=${t#tests/test-}
	name=${name%.sh}
	case " ${SKIP_TESTS:-} " in *" $name "*) continue ;; esac
	printf '== %s (%s)\n' "$t" "$BUILD"
	start=$(date +%s)
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
	case $rc in
	0) echo "   passed in $(( $(date +%s) - start )) s" ;;
	77) echo "   (skipped)"; echo "$name: the whole test" >>"$SKIP_LOG" ;;
	*) echo "   FAILED ($rc)"; fail=1 ;;
	esac
done
if [ -s "$SKIP_LOG" ]; then
	echo "== skipped here, not passed:"
	sed 's/^/   /' "$SKIP_LOG"
fi
exit $fail
