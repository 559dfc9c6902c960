#!/bin/bash
# Build the fixtures of the machine's cache (tests/cache.sh) that take
# minutes the first time, today criterion's benchmark (tests/lib.sh,
# crit_fixture). make check starts this first, in the background at nice
# 19 (as the sanitizer build: the tests, some of them timed or racing a
# JIT, keep their CPU), so that on a fresh machine it builds beside the C
# build and the tests; the tests that need it
# (test-bench, test-harness: tests/run.sh runs them last) take it from the
# cache, or wait for this build and say so. Its output, with the builder's
# progress every 30 s, goes to build/prebuild.log; when it builds, its
# start and end are also said on fd 3 (make check's terminal), if open.
# With the cache warm it only checks the entries (well under a second).
. tests/lib.sh
{ true >&3; } 2>/dev/null || exec 3>/dev/null
rc=0
if have_criterion; then
	crit_fixture 2>&1 >/dev/null | while IFS= read -r l; do
		echo "$l"
		case $l in
		*"building criterion into "*)
			echo "== criterion's benchmark builds in the background, once per machine (minutes: build/prebuild.log)" >&3 ;;
		*"built criterion in "*)
			echo "== criterion's benchmark built in the background in ${l#*built criterion in }" >&3 ;;
		*"cannot build criterion"*)
			echo "== criterion's benchmark could not be built in the background (build/prebuild.log)" >&3 ;;
		esac
	done
	rc=${PIPESTATUS[0]}
fi
exit $rc
