#!/bin/bash
# Run every script test (tests/test-*.sh); 77 means skipped. SKIP_TESTS
# lists names to leave out (the sanitizer pass of make check leaves out
# "fuzz long layout": see the Makefile).
set -u
BUILD=${BUILD:-build}
SKIP_LOG=$(mktemp)
export BUILD SKIP_LOG
trap 'rm -f "$SKIP_LOG"' EXIT
fail=0
for t in tests/test-*.sh; do
	[ -e "$t" ] || continue
	name=${t#tests/test-}
	name=${name%.sh}
	case " ${SKIP_TESTS:-} " in *" $name "*) continue ;; esac
	printf '== %s (%s)\n' "$t" "$BUILD"
	start=$(date +%s)
	bash "$t"
	rc=$?
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
