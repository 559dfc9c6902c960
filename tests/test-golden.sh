#!/bin/bash
# Golden exports: a deterministic recording of the split fixture (written by
# mkrec through benchtui's own perf.data writer: samples where we put them),
# rendered as text and JSON, compared exactly with tests/expected/. Paths are
# replaced by <fix> and <top>. Regenerate with GOLDEN_UPDATE=1 after
# checking the difference by eye.
. tests/lib.sh
split=$TOP/tests/fixtures/prebuilt/split	# the goldens need its code layout
MKREC=$TOP/$BUILD/tools/mkrec
"$MKREC" "$TMP/g.data" "$split" work_a+0x24=1500 work_a+0x2b=600 work_a+0x20=30 \
	work_b+0x24=500 work_b+0x2b=200 main+0x10=4 kernel=7 unknown=2 ||
	fail "mkrec failed"

check() {
	name=$1; shift
	if ! "$BT" -i "$TMP/g.data" "$@" >"$TMP/raw" 2>"$TMP/err" || [ ! -s "$TMP/raw" ]; then
		fail "$name: benchtui $* failed: $(cat "$TMP/err")"
		return
	fi
	sed -e "s|$FIX|<fix>|g" -e "s|$TOP|<top>|g" "$TMP/raw" >"$TMP/$name"
	if [ -n "${GOLDEN_UPDATE:-}" ]; then
		cp "$TMP/$name" "tests/expected/$name"
	fi
	if diff -u "tests/expected/$name" "$TMP/$name" >"$TMP/diff"; then
		ok "$name ($*)"
	else
		fail "$name differs from tests/expected/$name"; head -40 "$TMP/diff"
	fi
}
check golden.txt --stdio --top 2
check golden.json --stdio --top 2 --format json
check golden-skid.txt --stdio -s work_b --skid --no-source --percent global
check golden-intel.txt --stdio -s work_a -M intel
check golden-window.txt --stdio --top 1 --time 0,50%
check golden-regions.txt --stdio -s work_a --no-source --region-threshold 30 --region-margin 0
if command -v python3 >/dev/null; then
	python3 -m json.tool "$TMP/golden.json" >/dev/null && ok "golden.json is valid JSON" ||
		fail "golden.json is not valid JSON"
fi
# the same recording with every field byte-swapped (as a big-endian machine
# writes it) gives the same report
"$TOP/$BUILD/tools/pd-swap" "$TMP/g.data" "$TMP/swapped.data" || fail "pd-swap failed"
"$TOP/$BUILD/tools/pd-dump" "$TMP/swapped.data" | grep -q "^swapped 1" || fail "pd-swap did not swap"
if "$BT" -i "$TMP/swapped.data" --stdio --top 2 2>&1 | sed -e "s|$FIX|<fix>|g" -e "s|$TOP|<top>|g" |
    cmp -s - tests/expected/golden.txt; then
	ok "a byte-swapped recording reads the same"
else
	fail "the byte-swapped recording reads differently"
	"$BT" -i "$TMP/swapped.data" --stdio --top 2 2>&1 | sed -e "s|$FIX|<fix>|g" -e "s|$TOP|<top>|g" |
		diff tests/expected/golden.txt - | head -10
fi

# the text and JSON exports carry the same rows and numbers (one set of views)
agree() {	# agree WHAT FILE [OPTIONS...]
	what=$1; f=$2; shift 2
	"$BT" -i "$f" --stdio "$@" >"$TMP/agree.txt" 2>/dev/null &&
		"$BT" -i "$f" --stdio --format json "$@" >"$TMP/agree.json" 2>/dev/null ||
		{ fail "$what: export failed"; return; }
	if out=$(python3 "$TOP/tests/tools/export-agree.py" "$TMP/agree.txt" "$TMP/agree.json"); then
		ok "$what: text and JSON $out"
	else
		fail "$what: text and JSON disagree: $out"
	fi
}
agree "golden recording" "$TMP/g.data" --top 2
agree "golden recording, skid, global percent" "$TMP/g.data" --all --skid --percent global
agree "golden recording, a window" "$TMP/g.data" --all --time 0,50%
# C++: the text shows perf's short names, JSON has both (name, short_name)
if command -v c++ >/dev/null && c++ -O2 -g -o "$TMP/tmpl" tests/fixtures/tmpl.cc 2>/dev/null; then
	syms=$(nm "$TMP/tmpl" | awk '$3 ~ /6reduceI/ { print $3 "+0x0=" (++n * 50) }')
	"$MKREC" "$TMP/cxx.data" "$TMP/tmpl" $syms main+0x0=3 || fail "mkrec tmpl"
	agree "a templated C++ benchmark" "$TMP/cxx.data" --all
	"$BT" -i "$TMP/cxx.data" --stdio --top 0 --format json | grep -q '"short_name": "my::deeply::nested::Table<' &&
		ok "JSON: the whole name and perf's short_name" || fail "no short_name in the JSON"
else
	skipped "C++ names in the exports: no C++ compiler"
fi

# --export writes the same as --stdio
"$BT" -i "$TMP/g.data" --export "$TMP/exp.txt" --top 2 &&
	sed -e "s|$FIX|<fix>|g" -e "s|$TOP|<top>|g" "$TMP/exp.txt" | cmp -s - tests/expected/golden.txt &&
	ok "--export FILE writes what --stdio prints" || fail "--export differs from --stdio"
finish
