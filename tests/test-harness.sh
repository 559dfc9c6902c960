#!/bin/bash
# Benchmark harnesses (DESIGN.md §7, docs/benchmarks.md): build the
# fixtures (tests/fixtures/gbench.cc, gobench/, rustbench/, libtest.rs,
# js/), run each harness briefly under a pty (colours, '\r' progress), and
# check that tools/harness-parse reads every result line each harness
# printed, with the name and numbers as printed. The expected lines come
# from awk over the same output, written apart from the C parser. Then
# t-harness (cmocka) checks the parser's semantics on the same captures,
# and, where perf can record, the entry-frame tables are checked on real
# call chains of the fixtures, and each JS harness (tinybench, mitata,
# benchmark.js, bench-node) runs under benchtui --stdio, whose benchmark
# table must be that harness's, with every printed result.
#
# Builds and captures live in build/harness; criterion's benchmark, minutes
# to build the first time, comes from the machine's cache (tests/cache.sh:
# a fresh clone builds nothing; make check starts its build first, in the
# background, and this test waits for it, saying so). Under another
# BUILD (the sanitizer pass of make check) the captures of build/harness
# are parsed again rather than run again. A missing toolchain skips its
# harness ("skip: ..."); 77 only when every harness was skipped.
. tests/lib.sh
HB=$TOP/build/harness
OUT=$HB/out
PARSE=$TOP/$BUILD/tools/harness-parse
UNIT=$TOP/$BUILD/tests/t-harness
[ -x "$PARSE" ] || { echo "   FAIL: $PARSE is not built (make tools)"; exit 1; }
command -v script >/dev/null || skip "script(1) (util-linux) is missing: no pty"
mkdir -p "$OUT"
ran=0
skipped=0
RUN=1
if [ "$BUILD" != build ] && [ -f "$OUT/done" ] && [ -z "${BT_HARNESS_RERUN:-}" ]; then
	RUN=0
	echo "   (parsing the captures of build/harness/out again)"
fi
[ $RUN = 1 ] && rm -f "$OUT/done"

part_skip() { echo "   skip: $*"; skipped=$((skipped + 1)); }

# pty CMD...: run under a pseudo-terminal (line-buffered, coloured) as benchtui will
pty() {
	script -qfec "$(printf '%q ' "$@")" /dev/null
}

# the output as a terminal shows it: last '\r' segment of each line, escapes removed
clean() {
	sed -e 's/\r$//' -e 's/.*\r//' -e 's/\x1b\[[0-9;?]*[ -\/]*[@-~]//g' \
		-e 's/\x1b[()*+][0-9A-Za-z]//g' "$1"
}

AWK_UNIT='function f(u) { return u == "ps" ? 1e-3 : u == "ns" ? 1 : (u == "us" || u == "µs") ? 1e3 : u == "ms" ? 1e6 : u == "s" ? 1e9 : u == "m" ? 60e9 : u == "h" ? 3600e9 : 0 }'

# compare WHAT EXPECTED GOT: every expected line parsed, nothing else
compare() {
	if [ ! -s "$2" ]; then
		fail "$1: the harness printed no result line ($2 is empty)"
	elif diff -u "$2" "$3" >"$TMP/diff"; then
		ok "$1: $(wc -l <"$2") results, names and numbers as printed"
	else
		fail "$1: parsed results differ from the printed lines:"
		head -20 "$TMP/diff"
	fi
}

# parsed FILE FORMAT FIELDS...: harness-parse's columns (see tests/tools/harness-parse.c)
parsed() {
	file=$1 fmt=$2
	shift 2
	"$PARSE" "$file" | awk -F'\t' -v fmt="$fmt" -v cols="$*" '
		BEGIN { n = split(cols, c, " ") }
		fmt == "" || $3 == fmt { s = $c[1]; for (i = 2; i <= n; i++) s = s "\t" $c[i]; print s }'
}

# every chunking gives the same results
chunks() {
	# (the last three columns are times: chunk numbers here)
	"$PARSE" -c 1 "$1" >"$TMP/c1" && "$PARSE" -c 4096 "$1" >"$TMP/c4096" &&
		"$PARSE" -s 7 "$1" >"$TMP/crand" ||
		fail "harness-parse failed on $(basename "$1") (exit $?)"
	for f in c1 c4096 crand; do cut -f1-24 "$TMP/$f" >"$TMP/$f.cut"; done
	cmp -s "$TMP/c1.cut" "$TMP/c4096.cut" && cmp -s "$TMP/c1.cut" "$TMP/crand.cut" ||
		fail "$(basename "$1"): results depend on how the output is cut into reads"
}

ms() { date +%s%N | cut -c1-13; }

# libtest's #[bench] fixture (nightly only: built with RUSTC_BOOTSTRAP=1)
lt_build() {
	[ -x "$HB/libtest" ] && [ "$HB/libtest" -nt "$TOP/tests/fixtures/libtest.rs" ] && return 0
	# stable rustc refuses #![feature(test)] (E0554): say so, then build anyway
	if $RUSTC --test -o "$TMP/lt-stable" "$TOP/tests/fixtures/libtest.rs" 2>"$TMP/lt.err"; then
		echo "   note: this rustc builds #[bench] without RUSTC_BOOTSTRAP"
	else
		echo "   note: stable rustc says: $(grep -m1 'E0554' "$TMP/lt.err" | head -c 100)"
	fi
	t0=$(ms)
	RUSTC_BOOTSTRAP=1 $RUSTC --test -O -g -o "$HB/libtest" "$TOP/tests/fixtures/libtest.rs" ||
		return 1
	echo "   built libtest (RUSTC_BOOTSTRAP=1) in $(( $(ms) - t0 )) ms"
}
JS=$TOP/build/js

# The slowest captures, libtest's and the JS harnesses' (~17 s), are made in
# the background while the sections before theirs build and capture; their
# sections wait for them. Captures are parsed, never timed: two harnesses
# at once change the numbers printed, not what is checked of them.
bg_captures() {
	if [ -x $RUSTC ]; then
		lt_build
		echo $? >"$OUT/lt.build"
		[ "$(cat "$OUT/lt.build")" = 0 ] && pty "$HB/libtest" --bench >"$OUT/libtest.pty" 2>&1
	fi
	if command -v node >/dev/null; then
		(cd "$TOP" && sh scripts/js-deps.sh build/js)
		echo $? >"$OUT/js.deps"
		if [ "$(cat "$OUT/js.deps")" = 0 ]; then
			cp "$TOP"/tests/fixtures/js/*.mjs "$JS/"
			# 30 ms a task (tinybench's default is 1 s): its table is what is read
			(cd "$JS" && pty node tinybench.mjs tinybench 30) >"$OUT/tinybench.pty" 2>&1
			(cd "$JS" && pty node tinybench.mjs tinybench2 30) >"$OUT/tinybench2.pty" 2>&1
			(cd "$JS" && pty node mitata.mjs 'fib|dead') >"$OUT/mitata.pty" 2>&1
			# 0.2 s a benchmark (benchmark.js's default is 5 s); bench-node
			# needs V8's natives syntax (%NeverOptimizeFunction)
			(cd "$JS" && pty node benchmarkjs.mjs 0.2) >"$OUT/benchmarkjs.pty" 2>&1
			(cd "$JS" && pty node --allow-natives-syntax benchnode.mjs 0.05) \
				>"$OUT/benchnode.pty" 2>&1
			(cd "$JS" && pty node --allow-natives-syntax benchnode.mjs 0.02 . pretty) \
				>"$OUT/benchnode-pretty.pty" 2>&1
		fi
	fi
}
BG=
if [ $RUN = 1 ]; then
	rm -f "$OUT/lt.build" "$OUT/js.deps"
	bg_captures >"$TMP/bg.log" 2>&1 &
	BG=$!
fi
# bg_wait: the background captures are done (and what they said is shown)
bg_wait() {
	[ -n "$BG" ] || return 0
	wait "$BG"
	BG=
	cat "$TMP/bg.log"
}

# --- Google Benchmark -------------------------------------------------------
gb_build() {
	[ -x "$HB/gbench" ] && [ "$HB/gbench" -nt "$TOP/tests/fixtures/gbench.cc" ] && return 0
	t0=$(ms)
	g++ -O2 -g -fno-omit-frame-pointer -o "$HB/gbench" "$TOP/tests/fixtures/gbench.cc" \
		-lbenchmark -lpthread || return 1
	echo "   built gbench in $(( $(ms) - t0 )) ms"
}
if [ ! -f /usr/include/benchmark/benchmark.h ] || ! command -v g++ >/dev/null; then
	part_skip "gbench: g++ or libbenchmark-dev is missing"
elif [ $RUN = 1 ] && ! gb_build; then
	fail "gbench: cannot build tests/fixtures/gbench.cc"
else
	if [ $RUN = 1 ]; then
		pty "$HB/gbench" --benchmark_min_time=0.05 --benchmark_out="$OUT/gb-out.json" \
			--benchmark_out_format=json >"$OUT/gb.pty" 2>&1
		pty "$HB/gbench" --benchmark_min_time=0.01 --benchmark_filter='BM_sum/8|BM_counters' \
			--benchmark_repetitions=3 --benchmark_format=json >"$OUT/gb-json.pty" 2>&1
		"$HB/gbench" --benchmark_min_time=0.01 --benchmark_filter='BM_sum|BM_counters|BM_memcpy$' \
			--benchmark_counters_tabular=true >"$OUT/gb-tab.txt" 2>/dev/null
		# the CSV reporter aborts when benchmarks have different counters: one family
		"$HB/gbench" --benchmark_min_time=0.01 --benchmark_filter='BM_counters' \
			--benchmark_repetitions=2 --benchmark_out="$OUT/gb-out.csv" \
			--benchmark_out_format=csv >/dev/null 2>&1
	fi
	ran=$((ran + 1))
	gb_console() {
		clean "$1" | awk "$AWK_UNIT"'
			/^Benchmark +Time +CPU +Iterations/ { on = 1; next }
			on && NF >= 6 && $2 ~ /^[0-9.e+-]+$/ && $4 ~ /^[0-9.e+-]+$/ && $3 == $5 {
				if ($3 == "%") printf "%s\t-\t-\t%s\n", $1, $6
				else printf "%s\t%s %s\t%.17g\t%s\n", $1, $2, $3, $2 * f($3), $6
			}'
	}
	gb_console "$OUT/gb.pty" >"$TMP/exp"
	parsed "$OUT/gb.pty" console 4 9 8 21 >"$TMP/got"
	compare "gbench console (pty)" "$TMP/exp" "$TMP/got"
	gb_console "$OUT/gb-tab.txt" >"$TMP/exp"
	parsed "$OUT/gb-tab.txt" console 4 9 8 21 >"$TMP/got"
	compare "gbench console, tabular counters" "$TMP/exp" "$TMP/got"
	gb_json() {
		clean "$1" | awk "$AWK_UNIT"'
			/"name": / { n = $0; sub(/^ *"name": "/, "", n); sub(/",$/, "", n); pct = 0 }
			/"aggregate_unit": "percentage"/ { pct = 1 }
			/"iterations": / { it = $2; sub(/,$/, "", it) }
			/"real_time": / { rt = $2; sub(/,$/, "", rt) }
			/"time_unit": / { u = $2; gsub(/[",]/, "", u)
				if (pct) printf "%s\t-\t-\t%s\n", n, it
				else printf "%s\t%s %s\t%.17g\t%s\n", n, rt, u, rt * f(u), it }'
	}
	gb_json "$OUT/gb-json.pty" >"$TMP/exp"
	parsed "$OUT/gb-json.pty" json 4 9 8 21 >"$TMP/got"
	compare "gbench JSON (pty, repetitions and aggregates)" "$TMP/exp" "$TMP/got"
	gb_json "$OUT/gb-out.json" >"$TMP/exp"
	"$PARSE" -f "$OUT/gb-out.json" | awk -F'\t' '{ print $4 "\t" $9 "\t" $8 "\t" $21 }' >"$TMP/got"
	compare "gbench --benchmark_out JSON file" "$TMP/exp" "$TMP/got"
	# the console and the JSON file of one run: GB's console rounds the JSON's times
	paste <(parsed "$OUT/gb.pty" console 4 9) \
		<("$PARSE" -f "$OUT/gb-out.json" | awk -F'\t' '{ print $4 "\t" $8 }') |
		awk -F'\t' '{ split($2, a, " "); t = $4
			fmt = t < 1 ? "%.3f" : t < 10 ? "%.2f" : t < 100 ? "%.1f" : "%.0f"
			if ($1 != $3 || sprintf(fmt, t) != a[1]) { print; bad = 1 } }
			END { exit bad }' >"$TMP/cross" &&
		ok "gbench console times are the JSON file's, rounded as GB prints them" ||
		{ fail "gbench console and JSON of one run disagree:"; head -5 "$TMP/cross"; }
	awk -F, 'NR > 1 && $1 ~ /^"/ { n = $1; gsub(/"/, "", n)
		print n "\t" (n ~ /_cv$/ ? "-" : $3 " " $5) "\t" $2 }' "$OUT/gb-out.csv" >"$TMP/exp"
	"$PARSE" -f "$OUT/gb-out.csv" | awk -F'\t' '{ print $4 "\t" $9 "\t" $21 }' >"$TMP/got"
	compare "gbench --benchmark_out CSV file" "$TMP/exp" "$TMP/got"
	chunks "$OUT/gb.pty"
	chunks "$OUT/gb-json.pty"
	t=$(parsed "$OUT/gb.pty" console 4 9 | awk -F'\t' '$1 == "BM_memcpy_trap" { print $2 }')
	echo "   note: BM_memcpy_trap (memcpy into a static buffer, then ClobberMemory()): $t per iteration"
fi

# --- go test -bench ----------------------------------------------------------
if ! command -v go >/dev/null; then
	part_skip "go: golang-go is missing"
elif [ $RUN = 1 ] && ! GOBENCH=$(go_fixture gobench); then
	fail "go: cannot build tests/fixtures/gobench"
else
	if [ $RUN = 1 ]; then
		pty "$GOBENCH" -test.run='^$' -test.bench='^Benchmark(Popcnt|PopcntKept|Fib20|Sum|Alloc)$' -test.benchtime=20ms \
			-test.benchmem >"$OUT/go.pty" 2>&1
		# -v prints lone name lines; -count and -cpu repeat names (with and without -P)
		"$GOBENCH" -test.run='^$' -test.bench='Sum|Popcnt$' -test.benchtime=5ms \
			-test.v -test.count=2 -test.cpu=1,2 >"$OUT/go-v.txt" 2>&1
	fi
	ran=$((ran + 1))
	go_exp() {
		clean "$1" | awk '/^Benchmark[^ \t]*[ \t]+[0-9]+[ \t]/ {
			for (i = 3; i < NF; i++) if ($(i + 1) == "ns/op")
				printf "%s\t%s ns\t%.17g\t%s\n", $1, $i, $i, $2 }'
	}
	for f in go.pty go-v.txt; do
		go_exp "$OUT/$f" >"$TMP/exp"
		parsed "$OUT/$f" console 4 9 8 21 >"$TMP/got"
		compare "go test -bench ($f)" "$TMP/exp" "$TMP/got"
		chunks "$OUT/$f"
	done
	t=$(parsed "$OUT/go.pty" console 4 9 | awk -F'\t' '$1 ~ /^BenchmarkPopcnt-?[0-9]*$/ { print $2 }')
	echo "   note: BenchmarkPopcnt (result discarded): $t"
fi

# --- criterion -------------------------------------------------------------
# (the binary from the machine's cache: tests/lib.sh, crit_fixture)
if ! have_criterion; then
	part_skip "criterion: Debian's cargo, rustc or librust-criterion-dev is missing"
elif [ $RUN = 1 ] && ! CRIT=$(crit_fixture); then
	fail "criterion: cannot build tests/fixtures/rustbench"
else
	if [ $RUN = 1 ]; then
		mkdir -p "$HB/rust"
		# criterion 0.3 takes whole seconds; one benchmark per kind: a short
		# name, the dead one, a long (>23 characters) name with throughput
		(cd "$HB/rust" && CRITERION_HOME=$HB/rust/criterion pty "$CRIT" --bench \
			--warm-up-time 1 --measurement-time 1 --sample-size 10 --noplot \
			'^fib 15$|popcnt_dead|sum_of_squares_over_vec/64$') >"$OUT/crit.pty" 2>&1
	fi
	ran=$((ran + 1))
	clean "$OUT/crit.pty" | awk "$AWK_UNIT"'
		/time: +\[/ {
			i = index($0, "time:"); name = substr($0, 1, i - 1); sub(/ +$/, "", name)
			if (name == "") name = prev
			s = substr($0, i); sub(/^time: +\[/, "", s); sub(/\].*/, "", s)
			split(s, v, " ")
			if (f(v[4]) > 0)
				printf "%s\t%s %s\t%.17g\t%s %s\t%s %s\n", name, v[3], v[4],
				    v[3] * f(v[4]), v[1], v[2], v[5], v[6]
		}
		{ prev = $0 }' >"$TMP/exp"
	parsed "$OUT/crit.pty" console 4 9 8 17 19 >"$TMP/got"
	compare "criterion (pty)" "$TMP/exp" "$TMP/got"
	chunks "$OUT/crit.pty"
	t=$(parsed "$OUT/crit.pty" console 4 9 | awk -F'\t' '$1 == "popcnt_dead" { print $2 }')
	echo "   note: criterion popcnt_dead (black_box missing): $t"
fi

# --- libtest #[bench] (nightly only: built with RUSTC_BOOTSTRAP=1) ----------
bg_wait
if [ ! -x $RUSTC ]; then
	part_skip "libtest: Debian's rustc is missing"
elif [ $RUN = 1 ] && [ "$(cat "$OUT/lt.build" 2>/dev/null)" != 0 ]; then
	fail "libtest: cannot build tests/fixtures/libtest.rs"
else
	ran=$((ran + 1))
	clean "$OUT/libtest.pty" | awk '/^test .* \.\.\. bench: / {
		for (i = 1; i <= NF; i++) if ($i == "ns/iter") { t = $(i - 1); e = $(i + 2) }
		sub(/\)$/, "", e); tv = t; ev = e; gsub(/,/, "", tv); gsub(/,/, "", ev)
		printf "%s\t%s ns/iter\t%.17g\t%s\t%.17g\n", $2, t, tv, e, ev }' >"$TMP/exp"
	parsed "$OUT/libtest.pty" console 4 9 8 13 12 >"$TMP/got"
	compare "libtest bench: (pty)" "$TMP/exp" "$TMP/got"
	chunks "$OUT/libtest.pty"
fi

# --- tinybench, mitata, benchmark.js, bench-node -----------------------------
if ! command -v node >/dev/null; then
	part_skip "JS harnesses: node is missing"
elif [ $RUN = 1 ] && [ "$(cat "$OUT/js.deps" 2>/dev/null)" != 0 ]; then
	part_skip "JS harnesses: their npm packages cannot be installed"
elif [ $RUN = 0 ] && [ ! -f "$OUT/benchnode.pty" ]; then
	part_skip "JS harnesses: no captures"
else
	ran=$((ran + 1))
	for f in tinybench tinybench2; do
		clean "$OUT/$f.pty" | awk -F'│' '
			function trim(s) { gsub(/^ +| +$/, "", s); return s }
			function unq(s) { s = trim(s); if (s ~ /^'"'"'.*'"'"'$/) s = substr(s, 2, length(s) - 2); return s }
			/Task [Nn]ame/ { for (i = 1; i <= NF; i++) { h = trim($i)
				if (h ~ /^Task [Nn]ame$/) cn = i
				if (h ~ /^(Latency avg|Average Time)/) { ct = i
					u = h; sub(/.*\(/, "", u); sub(/\).*/, "", u) }
				if (h == "Samples") cs = i }
				on = 1; next }
			/└/ { on = 0 }
			on && NF > 3 { t = unq($ct); sub(/ .*/, "", t)
				printf "%s\t%s %s\t%.17g\t%s\n", unq($cn), t, u, t, trim($cs) }' >"$TMP/exp"
		parsed "$OUT/$f.pty" table 4 9 8 21 >"$TMP/got"
		compare "$f console.table (pty)" "$TMP/exp" "$TMP/got"
		chunks "$OUT/$f.pty"
	done
	clean "$OUT/mitata.pty" | awk "$AWK_UNIT"'
		/^benchmark .*avg \(min/ { on = 1; next }
		on && /\/iter/ { for (i = 2; i <= NF; i++) if ($i ~ /\/iter$/) {
			u = $i; sub(/\/iter$/, "", u); name = $0
			sub(/ +[0-9.]+ +[^ ]+\/iter.*/, "", name)
			printf "%s\t%s %s\t%.17g\n", name, $(i - 1), u, $(i - 1) * f(u); break } }' >"$TMP/exp"
	parsed "$OUT/mitata.pty" table 4 9 8 >"$TMP/got"
	compare "mitata (pty, coloured)" "$TMP/exp" "$TMP/got"
	chunks "$OUT/mitata.pty"
	# the first benchmark begins when the header's rule is complete (t_start):
	# fed a byte at a time, a time is the byte's offset, here the rule's '\n'
	rule=$(awk '{ off += length($0) + 1 } /^-+ -+\r?$/ { print off - 1; exit }' "$OUT/mitata.pty")
	"$PARSE" -c 1 "$OUT/mitata.pty" | awk -F'\t' -v rule="$rule" '
		NR == 1 { good = rule != "" && $28 == rule && $28 < $25 }
		NR > 1 && $28 != "nan" { good = 0 }
		END { exit !good }' &&
		ok "mitata: its first result starts where its header's rule ends (byte $rule), no other has a start" ||
		fail "mitata: t_start of the first result is not the end of the header's rule (byte $rule)"
	# benchmark.js: NAME x 1,234 ops/sec ±1.50% (90 runs sampled), from the cycle event
	clean "$OUT/benchmarkjs.pty" | awk '
		/ x [0-9][0-9,.]* ops\/sec ±[0-9.]+% \([0-9]+ runs? sampled\)$/ {
			i = match($0, / x [0-9][0-9,.]* ops\/sec ±/); name = substr($0, 1, i - 1)
			split(substr($0, i + 3), a, " "); v = a[1]; gsub(/,/, "", v)
			pm = a[3]; sub(/^±/, "", pm)
			printf "%s\t%s ops/sec\t%.17g\t%s\n", name, a[1], 1e9 / v, pm }' >"$TMP/exp"
	parsed "$OUT/benchmarkjs.pty" console 4 9 8 15 >"$TMP/got"
	compare "benchmark.js cycle lines (pty)" "$TMP/exp" "$TMP/got"
	chunks "$OUT/benchmarkjs.pty"
	# bench-node: NAME<padding> x 1,234 ops/sec (11 runs sampled) min..max=(A...B)
	clean "$OUT/benchnode.pty" | awk '
		/ x [0-9][0-9,.]* ops\/sec \([0-9]+ runs? sampled\) .*min\.\.max=\(/ {
			i = match($0, / x [0-9][0-9,.]* ops\/sec /); name = substr($0, 1, i - 1)
			sub(/ +$/, "", name)
			split(substr($0, i + 3), a, " "); v = a[1]; gsub(/,/, "", v)
			printf "%s\t%s ops/sec\t%.17g\n", name, a[1], 1e9 / v }' >"$TMP/exp"
	parsed "$OUT/benchnode.pty" console 4 9 8 >"$TMP/got"
	compare "bench-node text reporter (pty, coloured)" "$TMP/exp" "$TMP/got"
	chunks "$OUT/benchnode.pty"
	# its pretty reporter: a tree of the names' '/'-separated parts
	clean "$OUT/benchnode-pretty.pty" | awk '
		/^Benchmark results \(/ { on = 1; next }
		on && /^$/ { on = 0 }
		on { d = 0; s = $0
			while (substr(s, 1, 4) == "│ " || substr(s, 1, 2) == "  ") {
				s = substr(s, substr(s, 1, 2) == "  " ? 3 : 5); d++ }
			if (substr(s, 1, 7) != "├─ " && substr(s, 1, 7) != "└─ ") next
			s = substr(s, 8)
			if (s !~ / ops\/sec \(/) { g[d] = s; sub(/ +$/, "", g[d]); next }
			i = match(s, /[0-9][0-9,.]* ops\/sec \(/); name = substr(s, 1, i - 1)
			sub(/ +$/, "", name)
			split(substr(s, i), a, " "); v = a[1]; gsub(/,/, "", v)
			path = ""; for (k = 0; k < d; k++) path = path g[k] "/"
			printf "%s%s\t%s ops/sec\t%.17g\n", path, name, a[1], 1e9 / v }' >"$TMP/exp"
	parsed "$OUT/benchnode-pretty.pty" console 4 9 8 >"$TMP/got"
	compare "bench-node pretty reporter (pty, coloured tree)" "$TMP/exp" "$TMP/got"
	chunks "$OUT/benchnode-pretty.pty"
fi

[ $RUN = 1 ] && [ "$nfail" -eq 0 ] && touch "$OUT/done"

# --- the parser's semantics on these captures (cmocka) -----------------------
if [ -x "$UNIT" ]; then
	BT_HARNESS_OUT=$OUT "$UNIT" >"$TMP/unit" 2>&1 &&
		ok "t-harness on the captures: $(grep -c '^\[       OK \]' "$TMP/unit") tests" ||
		{ fail "t-harness on the captures:"; grep -E 'FAIL|ERROR|error' "$TMP/unit" | head; }
fi

# --- entry frames on real call chains ---------------------------------------
# chains HARNESS DATA: "place phase entry" counts of harness-parse -C
chains() {
	perf script -i "$2" -F time,ip,sym,dso 2>/dev/null | "$PARSE" -C "$1" |
		awk -F'\t' '{ n[$2 "\t" $3 "\t" $4]++ } END { for (k in n) print n[k] "\t" k }' |
		sort -rn >"$OUT/chains-$1.txt"
}
# has HARNESS PLACE ENTRY-GLOB WHAT: at least 5 samples placed so
has() {
	c=$(awk -F'\t' -v p="$2" -v e="$3" '$2 == p && $4 ~ e { s += $1 } END { print s + 0 }' \
		"$OUT/chains-$1.txt")
	[ "$c" -ge 5 ] && ok "$1 frames: $4 ($c samples)" ||
		{ fail "$1 frames: $4: $c samples (see $OUT/chains-$1.txt)"; return 1; }
}
# bt_js NAME HARNESS CMD...: benchtui --stdio on CMD in $JS; its table is
# HARNESS's, a row per printed result line, with the printed name and time
bt_js() {
	n=$1 h=$2
	shift 2
	(cd "$JS" && "$BT" -q -o "$TMP/bt-$n.data" --stdio --top 0 "$@") >"$TMP/bt-$n.txt" 2>&1 ||
		{ fail "benchtui --stdio $*: exit $? ($(tail -3 "$TMP/bt-$n.txt"))"; return; }
	# what the harness printed (benchtui copies it first), then the report
	sed '/^# benchtui /,$d' "$TMP/bt-$n.txt" >"$TMP/bt-$n.out"
	"$PARSE" "$TMP/bt-$n.out" | awk -F'\t' '{ print $4 "\t" $9 }' >"$TMP/bt-$n.exp"
	awk -F'\t' -v h="$h" -v n="$(wc -l <"$TMP/bt-$n.exp")" '
		NR == FNR { name[NR] = $1; t[NR] = $2; next }
		/^## benchmarks: / { split($0, w, " ")	# "N (HARNESS), ..." or "N (HARNESS, split: ...)"
			hd = (w[3] == n && (w[4] == "(" h ")," || w[4] == "(" h ","))
			on = 1; next }
		on && /^$/ { on = 0 }
		on && !/^#/ { for (i in name) if (index($0, name[i]) == 1 &&
			index(substr($0, length(name[i]) + 1), t[i]) > 0) { seen[i] = 1 } }
		END { for (i in name) if (!seen[i]) exit 1; exit !(hd && n > 0) }' \
		"$TMP/bt-$n.exp" "$TMP/bt-$n.txt" &&
		ok "benchtui --stdio: $h's $(wc -l <"$TMP/bt-$n.exp") results in the benchmark table, names and times as printed" ||
		{ fail "benchtui --stdio: no $h table with its printed results:"
		  grep -A6 '^## benchmarks' "$TMP/bt-$n.txt" | head -8; }
}
# the JS harnesses under benchtui (it adds node's JIT flags)
js_stdio() {
	bt_js tinybench tinybench node tinybench.mjs tinybench 30
	bt_js mitata mitata node mitata.mjs 'fib|dead'
	bt_js benchmarkjs benchmark.js node benchmarkjs.mjs 0.2
	bt_js benchnode bench-node node --allow-natives-syntax benchnode.mjs 0.05
	# mitata's first window starts at its header, after node's start-up
	"$BT" -i "$TMP/bt-mitata.data" --format json --top 1 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
b = [b for b in d["benchmarks"] if b["name"] == "fib(15)"][0]
print("%.2f" % b["window_s"][0])
sys.exit(0 if b["window_s"][0] > 0 else 1)' >"$TMP/mi-start" &&
		ok "mitata: the first window starts at $(cat "$TMP/mi-start") s (its header), not at 0" ||
		fail "mitata: the first window starts at 0 s: $(cat "$TMP/mi-start")"
}
if [ $RUN = 0 ]; then
	:
elif ! command -v perf >/dev/null || ! perf record -q -o "$TMP/probe.data" true >/dev/null 2>&1; then
	echo "   skip: entry frames: perf cannot record here"
else
	if [ -x "$HB/gbench" ]; then
		perf record -q -F 499 --call-graph dwarf,8192 -o "$TMP/gb.data" -- "$HB/gbench" \
			--benchmark_min_time=0.1 --benchmark_filter='BM_sum/64|VecFixture|lambda|BM_memcpy$' \
			>/dev/null 2>&1
		chains gbench "$TMP/gb.data"
		has gbench benchmark '^BM_sum$' "BM_sum entered from libbenchmark"
		has gbench benchmark '^VecFixture_Sum_Benchmark::BenchmarkCase$' "fixture body below Fixture::Run"
		# perf script names the lambda's inline frame "Run", leafward of LambdaBenchmark<...>::Run
		has gbench benchmark '^(benchmark::internal::LambdaBenchmark<.*>::)?Run$' "lambda inlined into LambdaBenchmark::Run"
		has gbench benchmark '^BM_memcpy$' "BM_memcpy (DWARF recovers memmove's caller)"
		# Arg variants share one function: which one a sample is in is
		# told by time, the sample's against its result line's arrival
		# (harness-parse -T reads the output through a pty, as benchtui will)
		perf record -q -k mono -F 999 -g -o "$TMP/join.data" -- "$PARSE" -T "$HB/gbench" \
			--benchmark_min_time=0.1 --benchmark_filter='BM_sum|BM_tmpl' \
			>"$OUT/join-results.txt" 2>/dev/null
		perf script -i "$TMP/join.data" -F time,ip,sym,dso 2>/dev/null |
			"$PARSE" -C gbench >"$OUT/join-samples.txt"
		awk -F'\t' 'NR == FNR { n++; name[n] = $4; end[n] = $27; next }
			$2 == "benchmark" { for (i = 1; i <= n && $1 > end[i]; i++) ;
				c[$4 "\t" (i <= n ? name[i] : "(after)")]++ }
			END { for (k in c) print c[k] "\t" k }' \
			"$OUT/join-results.txt" "$OUT/join-samples.txt" | sort -rn >"$OUT/join.txt"
		# count, entry frame, the result whose window holds the sample
		if awk -F'\t' '{ tot[$2] += $1 }
			($2 == "BM_sum" && $3 ~ /^BM_sum\//) || ($2 == "BM_tmpl<unsigned int>" &&
			    $3 == "BM_tmpl<uint32_t>") || ($2 == "BM_tmpl<double>" && $3 == $2) {
				good[$2] += $1; win[$3] += $1 }
			END { for (f in tot) if (good[f] < 0.9 * tot[f]) bad = 1
			    if (win["BM_sum/8"] < 20 || win["BM_sum/64"] < 20) bad = 1
			    exit bad }' "$OUT/join.txt"; then
			ok "gbench: samples of BM_sum split into BM_sum/8 and BM_sum/64 by the time their lines arrived"
		else
			fail "gbench: samples and result lines do not join by time:"
			head -8 "$OUT/join.txt"
		fi
	fi
	# criterion's and libtest's recordings (~7 s) are made in the background,
	# beside go's and tinybench's (the gbench join above, timed, ran alone):
	# what is checked is the frames of their samples, never a time
	rec_rust() {
		if [ -n "${CRIT:-}" ] && [ -x "$CRIT" ]; then
			(cd "$HB/rust" && CRITERION_HOME=$HB/rust/criterion perf record -q -F 299 \
				--call-graph dwarf,8192 -o "$TMP/crit.data" -- "$CRIT" --bench --warm-up-time 1 \
				--measurement-time 1 --sample-size 10 --noplot '^fib 15$' >/dev/null 2>&1)
		fi
		if [ -x "$HB/libtest" ]; then
			perf record -q -F 499 --call-graph dwarf,8192 -o "$TMP/lt.data" -- "$HB/libtest" \
				--bench bench_fib >/dev/null 2>&1
		fi
	}
	rec_rust &
	rust=$!
	if [ -x "$GOBENCH" ]; then
		perf record -q -F 499 -g -o "$TMP/go.data" -- "$GOBENCH" -test.run='^$' \
			-test.bench='Popcnt$|Sum' -test.benchtime=100ms >/dev/null 2>&1
		chains go "$TMP/go.data"
		has go benchmark '^benchtui.test/gobench.BenchmarkPopcnt$' "BenchmarkPopcnt below runN or launch"
		has go benchmark '^benchtui.test/gobench.BenchmarkSum.func1$' "b.Run closure BenchmarkSum.func1"
	fi
	if [ -f "$OUT/tinybench.pty" ] && [ -d "$JS/node_modules" ]; then
		# JIT frames: names from the /tmp/perf-PID.map node writes
		# 150 ms a task: on a busy machine 50 gave 2-10 samples in them
		(cd "$JS" && perf record -q -F 499 -g -o "$TMP/tb.data" -- node --perf-basic-prof \
			tinybench.mjs tinybench 150 >"$OUT/perf-tinybench.out" 2>&1)
		chains tinybench "$TMP/tb.data"
		pid=$(perf script -i "$TMP/tb.data" -F pid 2>/dev/null | head -1 | tr -d ' ')
		[ -n "$pid" ] && rm -f "/tmp/perf-$pid.map"
		rm -f "$JS"/isolate-*-v8.log
		has tinybench benchmark '^JS:.* file://.*/tinybench\.mjs:[0-9]+:[0-9]+$' \
			"task functions (tinybench.mjs:LINE:COL) below tinybench's loop" ||
			tail -3 "$OUT/perf-tinybench.out"
		# benchmark.js and bench-node run the function given to add() from a
		# loop they compile (Function(): "JS:^ :LINE:COL", a runner frame)
		for h in benchmark.js:benchmarkjs bench-node:benchnode; do
			f=${h#*:} h=${h%%:*}
			natives=
			[ "$f" = benchnode ] && natives=--allow-natives-syntax
			(cd "$JS" && perf record -q -F 499 -g -o "$TMP/$f.data" -- node --perf-basic-prof \
				$natives $f.mjs 0.1 >"$OUT/perf-$f.out" 2>&1)
			chains "$h" "$TMP/$f.data"
			pid=$(perf script -i "$TMP/$f.data" -F pid 2>/dev/null | head -1 | tr -d ' ')
			[ -n "$pid" ] && rm -f "/tmp/perf-$pid.map"
			has "$h" benchmark "^JS:.* file://.*/$f\\.mjs:[0-9]+:[0-9]+\$" \
				"the functions given to add() ($f.mjs:LINE:COL) below $h's loop" ||
				tail -3 "$OUT/perf-$f.out"
		done
		rm -f "$JS"/isolate-*-v8.log
		js_stdio
	fi
	wait $rust
	if [ -n "${CRIT:-}" ] && [ -x "$CRIT" ]; then
		chains criterion "$TMP/crit.data"
		has criterion benchmark 'bench_fib::\{\{closure\}\}$' "bench_fib's closure, measuring"
		awk -F'\t' '$2 == "benchmark" { p[$3] += $1 } END { exit !(p["warmup"] > 0 && p["measure"] > 0) }' \
			"$OUT/chains-criterion.txt" && ok "criterion frames: warm-up and measurement told apart" ||
			fail "criterion frames: no warm-up or no measurement phase"
	fi
	if [ -x "$HB/libtest" ]; then
		chains libtest "$TMP/lt.data"
		has libtest benchmark '^libtest::bench_fib(::\{\{closure\}\})?$' "bench_fib's closure below Bencher::iter"
	fi
fi

[ $ran -eq 0 ] && skip "no harness could be built here"
finish
