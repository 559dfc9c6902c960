#!/bin/bash
# Run every script test in tests/*.sh-style directories; 77 means skipped.
set -u
BUILD=${BUILD:-build}
export BUILD
fail=0
for t in tests/test-*.sh; do
	[ -e "$t" ] || continue
	printf '== %s\n' "$t"
	bash "$t"
	rc=$?
	case $rc in
	0) ;;
	77) echo "   (skipped)" ;;
	*) echo "   FAILED ($rc)"; fail=1 ;;
	esac
done
exit $fail
