#!/bin/bash
# A short libFuzzer run of every fuzz target over its seed corpus (small
# real recordings); `make fuzz` runs them longer. Crashes found become files
# in tests/fuzz/corpus/ (regression inputs, run here every time). The
# targets run side by side, one per CPU (FUZZ_JOBS): each still gets its
# FUZZ_SECONDS of fuzzing.
. tests/lib.sh
command -v clang >/dev/null || skip "clang is not installed (scripts/deps.sh installs it)"
make --no-print-directory fuzz-build >"$TMP/build.log" 2>&1 ||
	{ tail -20 "$TMP/build.log"; fail "the fuzz targets do not build"; finish; }
# fuzz TARGET: run it; its exit status in $TMP/NAME.rc
fuzz() {
	n=$(basename "$1")
	mkdir -p "$TMP/$n"
	"$1" -max_total_time="${FUZZ_SECONDS:-8}" -rss_limit_mb=1024 -timeout=5 \
		-artifact_prefix="$TMP/$n-" "$TMP/$n" "tests/fuzz/corpus/${n#fuzz-}" >"$TMP/$n.log" 2>&1
	echo $? >"$TMP/$n.rc"
}
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
running=0
for f in build/fuzz/fuzz-*; do
	if [ "$running" -ge "$jobs" ]; then
		wait -n
		running=$((running - 1))
	fi
	fuzz "$f" &
	running=$((running + 1))
done
wait
for f in build/fuzz/fuzz-*; do
	n=$(basename "$f")
	if [ "$(cat "$TMP/$n.rc" 2>/dev/null)" = 0 ]; then
		ok "$n: $(grep -o 'Done [0-9]* runs in [0-9]* second' "$TMP/$n.log" | tail -1)s, no crash"
	else
		fail "$n crashed: $(grep -m1 'ERROR\|runtime error' "$TMP/$n.log")"
		ls "$TMP/$n"-crash-* "$TMP/$n"-timeout-* "$TMP/$n"-oom-* 2>/dev/null
	fi
done
finish
