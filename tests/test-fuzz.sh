#!/bin/bash
# A short libFuzzer run of every fuzz target over its seed corpus (small
# real recordings); `make fuzz` runs them longer. Crashes found become files
# in tests/fuzz/corpus/ (regression inputs, run here every time).
. tests/lib.sh
command -v clang >/dev/null || skip "clang is not installed (scripts/deps.sh installs it)"
make --no-print-directory fuzz-build >"$TMP/build.log" 2>&1 ||
	{ tail -20 "$TMP/build.log"; fail "the fuzz targets do not build"; finish; }
for f in build/fuzz/fuzz-*; do
	n=$(basename "$f")
	mkdir -p "$TMP/$n"
	if "$f" -max_total_time="${FUZZ_SECONDS:-8}" -rss_limit_mb=1024 -timeout=5 \
	    -artifact_prefix="$TMP/" "$TMP/$n" "tests/fuzz/corpus/${n#fuzz-}" >"$TMP/$n.log" 2>&1; then
		ok "$n: $(grep -o 'Done [0-9]* runs in [0-9]* second' "$TMP/$n.log" | tail -1)s, no crash"
	else
		fail "$n crashed: $(grep -m1 'ERROR\|runtime error' "$TMP/$n.log")"
		ls "$TMP"/crash-* "$TMP"/timeout-* "$TMP"/oom-* 2>/dev/null
	fi
done
finish
