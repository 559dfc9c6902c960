#!/bin/bash
# Build the fixtures of the machine's cache (tests/cache.sh) that take
# minutes the first time, today criterion's benchmark (tests/lib.sh,
# crit_fixture). make check starts this first, in the background at nice
# 10 (below the C build and the tests, above the sanitizer build), so that
# on a fresh machine it builds beside them; the tests that need it
# (test-bench, test-harness: tests/run.sh runs them last) take it from the
# cache, or wait for this build and say so. Its output: build/prebuild.log.
# With the cache warm it only checks the entries (well under a second).
. tests/lib.sh
rc=0
if have_criterion; then
	crit_fixture >/dev/null || rc=1
fi
exit $rc
