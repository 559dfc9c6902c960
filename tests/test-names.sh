#!/bin/bash
# Names that fit and stay distinct (issue 25): Go's hash/crc32 benchmarks
# (names with / and =, alike but for their end) each read differently in
# --stdio's benchmark table, every hottest cell keeps its percentage, and
# an export to a file (E in the browser too) carries the names whole, and
# O links the output's result lines to their benchmarks; C++ names folded
# (tests/fixtures/tmpl.cc, cxx.cc) never read the same for two functions.
. tests/lib.sh
need_recording

# the benchmark rows of --stdio's table: between its column line and "(outside)"
bench_rows() {
	sed -n '/^#Benchmark /,/^(outside)/p' "$1" | sed '1d;$d'
}

if command -v go >/dev/null; then
	crc=$FIX/crc32.test
	if [ ! -x "$crc" ]; then
		(cd "$(go env GOROOT)/src/hash/crc32" && GOCACHE=$FIX/go/cache GOPATH=$FIX/go/path \
			GOPROXY=off GOFLAGS= GOTOOLCHAIN=local go test -c -vet=off -o "$crc" .) >&2 ||
			fail "cannot build GOROOT's hash/crc32 tests"
	fi
fi
if [ -x "${crc:-}" ]; then
	"$BT" -q -o "$TMP/crc.data" --stdio "$crc" -test.run='^$' -test.bench=. \
		-test.benchtime=200x >"$TMP/crc.out" 2>/dev/null || fail "recording crc32"
	bench_rows "$TMP/crc.out" >"$TMP/rows"
	n=$(wc -l <"$TMP/rows")
	names=$(grep -c '^Benchmark.* ns/op' "$TMP/crc.out")
	distinct=$(awk '{ print $1 }' "$TMP/rows" | sort -u | wc -l)
	long=$(grep '^Benchmark.* ns/op' "$TMP/crc.out" | awk 'length($1) > 40' | wc -l)
	if [ "$n" -ge 30 ] && [ "$n" = "$names" ] && [ "$distinct" = "$n" ] && [ "$long" -gt 0 ]; then
		ok "$n crc32 benchmarks ($long names past 40 columns) read as $distinct distinct rows"
	else
		fail "crc32 rows: $n rows for $names benchmarks, $distinct distinct:"; head -5 "$TMP/rows"
	fi
	# every row's name cell ends as the benchmark's name does (the middle is cut)
	bad=$(grep '^Benchmark.* ns/op' "$TMP/crc.out" | awk '{ print $1 }' | while read -r b; do
		grep -qF -- "${b: -12}" "$TMP/rows" || echo "$b"; done)
	[ -z "$bad" ] && ok "every cut name keeps its end (align=N-2)" ||
		fail "names lost their end: $bad"
	# the hottest cell: its percentage always
	col=$(grep '^#Benchmark ' "$TMP/crc.out" | awk '{ print index($0, "Hottest function") }')
	sed 's/×/x/g; s/…/~/g; s/±/+/g' "$TMP/rows" |	# one byte a column, for awk
		awk -v c="$col" '{ h = substr($0, c); sub(/  .*$/, "", h); sub(/ +$/, "", h); if (h != "") print h }' \
		>"$TMP/hot"
	nhot=$(wc -l <"$TMP/hot")
	nperc=$(grep -cE ' [0-9]+%$' "$TMP/hot")
	[ "$nhot" -gt 0 ] && [ "$nhot" = "$nperc" ] &&
		ok "$nperc of $nhot hottest cells show their percentage" ||
		fail "hottest cells without a percentage: $(grep -vE ' [0-9]+%$' "$TMP/hot" | head -3)"
	# an export to a file: the names whole
	"$BT" -i "$TMP/crc.data" --export "$TMP/crc.txt" 2>/dev/null || fail "export crc32"
	whole=$(bench_rows "$TMP/crc.txt" | awk '{ print $1 }' | sort)
	want=$(grep '^Benchmark.* ns/op' "$TMP/crc.out" | awk '{ sub(/-[0-9]+$/, "", $1); print $1 }' | sort)
	got=$(printf '%s\n' "$whole" | sed 's/-[0-9]*$//')
	[ -n "$want" ] && [ "$got" = "$want" ] && ! grep -q '…' "$TMP/crc.txt" &&
		ok "the text export carries all $(printf '%s\n' "$whole" | wc -l) names whole" ||
		fail "the export cut names: $(bench_rows "$TMP/crc.txt" | head -3)"
	# the browser's E: the format from the extension, every name whole
	if command -v tmux >/dev/null; then
		tmux_init bt
		$T new-session -d -s keep
		$T new-session -d -s bt -x 100 -y 30 -c "$TMP" \
			"env TERM=screen LC_ALL=C.UTF-8 $BT -i $TMP/crc.data; exec sleep 60"
		wait_for "benchmarks: 36"
		$T send-keys -t bt E
		wait_for "export to: "
		$T send-keys -t bt C-u
		for _ in $(seq 40); do $T send-keys -t bt BSpace; done
		$T send-keys -t bt -l "e.json"
		$T send-keys -t bt Enter
		wait_for "exported .* rows to 'e.json' as JSON" &&
			python3 -m json.tool "$TMP/e.json" >/dev/null 2>&1 &&
			grep -q '"BenchmarkCRC32/poly=Castagnoli/size=15/align=0-2"' "$TMP/e.json" &&
			ok "E to e.json writes JSON" || fail "E e.json: $(head -c 300 "$TMP/e.json")"
		$T send-keys -t bt E
		wait_for "export to: "
		for _ in $(seq 40); do $T send-keys -t bt BSpace; done
		$T send-keys -t bt -l "e.txt"
		$T send-keys -t bt Enter
		wait_for "exported .* rows to 'e.txt'"
		n=$(grep -c '^BenchmarkCRC32/poly=[A-Za-z]*/size=[0-9kB]*/align=[01]-2 ' "$TMP/e.txt")
		[ "$n" = 36 ] && ! grep -q '…' "$TMP/e.txt" &&
			ok "E to e.txt: text, the 36 names whole" ||
			fail "E e.txt: $n whole names: $(head -3 "$TMP/e.txt")"
		# O: the output, its result lines linked to their benchmarks
		$T send-keys -t bt O
		wait_for "result lines of 36 benchmarks" &&
			ok "O: $($T capture-pane -p -t bt | sed -n 2p | sed 's/ *\[.*//')"
		$T send-keys -t bt Tab
		$T send-keys -t bt Enter
		wait_for "BenchmarkCRC32/poly=IEEE/size=15/align=0-2: [0-9]* samples" &&
			wait_for "hot functions" &&
			ok "Enter on the first result line opens BenchmarkCRC32/poly=IEEE/size=15/align=0-2"
		$T send-keys -t bt q
		wait_for "result lines of 36 benchmarks" && ok "q: back to the output"
		$T send-keys -t bt q
	else
		skipped "no tmux: E and O not checked"
	fi
else
	skipped "no Go toolchain here: crc32's names not checked"
fi

# C++: --names folded never shows two functions as one name
tmpl=$(fixture_as tmpl tmpl.cc c++ -O2 -g) || exit 1
cxx=$(fixture_as cxx cxx.cc c++ -O2 -g) || exit 1
# the table's rows as "module symbol" (the symbol last, after two spaces)
func_names() {
	sed -n '/^#Percent/,/^$/p' "$1" | sed '1d' | awk 'NF' |
		awk '{ m = $4; sub(/^.*  /, ""); print m, $0 }'
}
for prog in "$tmpl 20000" "$cxx 300000"; do
	# shellcheck disable=SC2086
	"$BT" -q -o "$TMP/c.data" --stdio --top 0 --names folded $prog >"$TMP/c.out" 2>/dev/null ||
		fail "recording $prog"
	"$BT" -i "$TMP/c.data" --stdio --top 0 --names full >"$TMP/c.full" 2>/dev/null
	func_names "$TMP/c.out" >"$TMP/fn"
	n=$(sort -u "$TMP/fn" | wc -l)
	d=$(func_names "$TMP/c.full" | sort -u | wc -l)	# a static name twice in ld.so is one name
	[ "$n" -gt 2 ] && [ "$n" = "$d" ] &&
		ok "${prog%% *}: $d distinct functions, $n distinct names folded" ||
		fail "${prog%% *}: $d distinct functions read as $n names: $(sort "$TMP/fn" | uniq -d | head -3)"
done
# the fold of a lone instantiation stays
"$BT" -i "$TMP/c.data" --stdio --names folded 2>/dev/null | grep -q 'ns::Acc<…>::add' &&
	ok "a lone instantiation stays folded (ns::Acc<…>::add)" ||
	fail "ns::Acc<int>::add not folded"
finish
