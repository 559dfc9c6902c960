#!/bin/bash
# The benchmark's stdin, stdout and stderr are its own (issue 25): it gets
# what benchtui was given (a terminal, a pipe, a file), byte for byte, and
# sees from isatty() and fstat() what it sees without benchtui; the
# recording keeps what benchtui could read; benchtui's report never goes
# into a stdout that is the benchmark's, unless --stdio asks
# (docs/benchmarks.md "Reading the harness while it runs").
. tests/lib.sh
need_recording
fx=$(fixture stdio)
RO=$TOP/$BUILD/tools/rec-output
[ -x "$RO" ] || { echo "   FAIL: $RO is not built (make tools)"; exit 1; }
B="$BT -q -o $TMP/r.data"

# same WHAT A B: the files are equal
same() {
	if cmp -s "$2" "$3"; then
		ok "$1: $(wc -c <"$2") bytes, the same"
	else
		fail "$1: $(cmp "$2" "$3" 2>&1 | head -1)"
	fi
}
# kept WHAT STREAM EXPECTED: the recording keeps that stream's bytes
kept() {
	"$RO" "$TMP/r.data" "$2" >"$TMP/kept"
	if cmp -s "$TMP/kept" "$3"; then
		ok "$1: the recording keeps the $(wc -c <"$3") bytes of stream $2"
	else
		fail "$1: the recording's stream $2: $(cmp "$TMP/kept" "$3" 2>&1 | head -1)"
	fi
}

# --- gzip and xz, as typed: a file, stdin, /dev/null, a pipe, >> ----------
head -c 2000000 "$BT" >"$TMP/big"
head -c 300000 /dev/urandom >>"$TMP/big"
for z in "gzip -9" "xz -T1 -3"; do
	set -- $z
	if ! command -v "$1" >/dev/null; then
		skipped "$1 is not installed"
		continue
	fi
	$z -c -f "$TMP/big" >"$TMP/ref" 2>/dev/null
	$B $z -c -f "$TMP/big" >"$TMP/got" 2>"$TMP/err"
	same "$1 -c file > out" "$TMP/ref" "$TMP/got"
	kept "$1 -c file > out" 1 "$TMP/ref"
	[ -s "$TMP/err" ] && fail "$1 -c file > out, -q: stderr says $(head -c 200 "$TMP/err")"
	$z <"$TMP/big" >"$TMP/ref"
	$B $z <"$TMP/big" >"$TMP/got"
	same "$1 < in > out" "$TMP/ref" "$TMP/got"
	$B $z <"$TMP/big" >/dev/null 2>"$TMP/err"
	rc=$?
	[ $rc = 0 ] && [ ! -s "$TMP/err" ] &&
		ok "$1 < in > /dev/null: exit 0, nothing on stderr" ||
		fail "$1 < in > /dev/null: exit $rc, $(head -c 200 "$TMP/err")"
	$B $z <"$TMP/big" | cat >"$TMP/got"
	same "$1 < in | cat" "$TMP/ref" "$TMP/got"
	kept "$1 < in | cat" 1 "$TMP/ref"
	echo start >"$TMP/got"
	$B $z <"$TMP/big" >>"$TMP/got"
	{ echo start; cat "$TMP/ref"; } >"$TMP/ref2"
	same "$1 < in >> out" "$TMP/ref2" "$TMP/got"
	kept "$1 < in >> out (from the old end)" 1 "$TMP/ref"
done

# --- every byte value and escape sequences, stdout and stderr ---------------
"$fx" bytes 50 >"$TMP/ref.o" 2>"$TMP/ref.e"
$B "$fx" bytes 50 >"$TMP/got.o" 2>"$TMP/got.e"
same "bytes 0..255 and ESC sequences, stdout a file" "$TMP/ref.o" "$TMP/got.o"
same "bytes 0..255 and ESC sequences, stderr a file" "$TMP/ref.e" "$TMP/got.e"
kept "bytes to files" 1 "$TMP/ref.o"
kept "bytes to files" 2 "$TMP/ref.e"
"$fx" bytes 50 2>&1 | cat >"$TMP/ref.oe"
$B "$fx" bytes 50 2>&1 | cat >"$TMP/got.oe"
same "bytes, 2>&1 into a pipe (one stream, in order)" "$TMP/ref.oe" "$TMP/got.oe"
kept "bytes, 2>&1 into a pipe" 1 "$TMP/ref.oe"
"$fx" bytes 50 >"$TMP/ref.oe" 2>&1
$B "$fx" bytes 50 >"$TMP/got.oe" 2>&1
same "bytes, > file 2>&1" "$TMP/ref.oe" "$TMP/got.oe"
kept "bytes, > file 2>&1" 1 "$TMP/ref.oe"

# --- what the benchmark sees: isatty, the file's type, seek, O_APPEND -------
look() {
	desc=$1
	shift
	echo old >"$TMP/f.out"
	eval "\"$fx\" look \"$TMP/l.ref\" $*"
	echo old >"$TMP/f.out"
	eval "$B \"$fx\" look \"$TMP/l.got\" $*"
	if cmp -s "$TMP/l.ref" "$TMP/l.got"; then
		ok "$desc: $(cat "$TMP/l.got")"
	else
		fail "$desc: without benchtui '$(cat "$TMP/l.ref")', under it '$(cat "$TMP/l.got")'"
	fi
}
look "stdout a file" '>"$TMP/f.out" 2>"$TMP/f.err"'
look "stdout appended to" '>>"$TMP/f.out" 2>/dev/null'
look "stdout a pipe" '2>"$TMP/f.err" | cat >/dev/null'
look "stdout /dev/null, stdin a file" '<"$TMP/big" >/dev/null 2>&1'
look "stdout and stderr into one pipe" '2>&1 | cat >/dev/null'
look "stdout closed" '>&- 2>/dev/null'

# under a terminal (script(1)): the benchmark's terminal is a pty
if ! command -v script >/dev/null; then
	skipped "script(1) is missing: the terminal cases"
else
	tty() { script -qfec "$1" /dev/null; }
	for redir in "" ">$TMP/f.out" "2>$TMP/f.err" "</dev/null"; do
		tty "$fx look $TMP/l.ref $redir" >/dev/null 2>&1
		tty "$B --export /dev/null $fx look $TMP/l.got $redir" >/dev/null 2>&1
		if cmp -s "$TMP/l.ref" "$TMP/l.got"; then
			ok "a terminal${redir:+, $redir}: $(cat "$TMP/l.got")"
		else
			fail "a terminal $redir: without '$(cat "$TMP/l.ref")', under '$(cat "$TMP/l.got")'"
		fi
	done
	# the terminal gets the bytes unchanged (its own \n -> \r\n on both)
	tty "$fx bytes 20 2>/dev/null" >"$TMP/ref.t" 2>/dev/null
	tty "$B --export /dev/null $fx bytes 20 2>/dev/null" >"$TMP/got.t" 2>/dev/null
	same "bytes to a terminal" "$TMP/ref.t" "$TMP/got.t"
	"$fx" bytes 20 >"$TMP/ref.o" 2>/dev/null
	kept "bytes to a terminal" 1 "$TMP/ref.o"
fi

# --- benchtui's own report: never into the benchmark's stdout ---------------
"$fx" bytes 3 >"$TMP/ref.o" 2>/dev/null
"$BT" -o "$TMP/r.data" "$fx" bytes 3 >"$TMP/got.o" 2>"$TMP/err"
same "no --stdio, stdout a file: the benchmark's bytes, no report" "$TMP/ref.o" "$TMP/got.o"
"$BT" -o "$TMP/r.data" "$fx" look "$TMP/l.got" >"$TMP/got.o" 2>"$TMP/err"
summary=$(cat "$TMP/err")
if [ "$(wc -l <"$TMP/err")" = 1 ] &&
    grep -q "^benchtui: [0-9]* samples .* saved to '$TMP/r.data' (benchtui -i '$TMP/r.data' shows it)$" "$TMP/err"; then
	ok "the summary on stderr: $summary"
else
	fail "the summary on stderr: $summary"
fi
"$BT" -o "$TMP/r.data" "$fx" bytes 3 2>/dev/null | cat >"$TMP/got.o"
same "no --stdio, stdout a pipe: no report" "$TMP/ref.o" "$TMP/got.o"
"$BT" -q -o "$TMP/r.data" "$fx" bytes 3 >/dev/null 2>"$TMP/err"
grep -qa '^benchtui' "$TMP/err" && fail "-q: benchtui wrote to stderr: $(grep -a '^benchtui' "$TMP/err")" ||
	ok "-q: no summary"
"$BT" -o "$TMP/r.data" --stdio --top 0 "$fx" bytes 3 >"$TMP/got.o" 2>"$TMP/err"
if head -c "$(wc -c <"$TMP/ref.o")" "$TMP/got.o" | cmp -s - "$TMP/ref.o" &&
    tail -c +"$(($(wc -c <"$TMP/ref.o") + 1))" "$TMP/got.o" | head -1 | grep -q '^# benchtui ' &&
    ! grep -q "shows it)" "$TMP/err"; then
	ok "--stdio: the benchmark's bytes, then the report asked for"
else
	fail "--stdio: $(tail -c +"$(($(wc -c <"$TMP/ref.o") + 1))" "$TMP/got.o" | head -2)"
fi
"$BT" -o "$TMP/r.data" --export "$TMP/x.txt" "$fx" bytes 3 >"$TMP/got.o" 2>/dev/null
cmp -s "$TMP/ref.o" "$TMP/got.o" && grep -q '^# benchtui ' "$TMP/x.txt" &&
	ok "--export: the report in its file, stdout the benchmark's" ||
	fail "--export: stdout or the file differ"
"$BT" -i "$TMP/r.data" --top 0 >"$TMP/i.txt" 2>/dev/null
grep -q '^# benchtui ' "$TMP/i.txt" && ok "-i, stdout a file: the report (no benchmark there)" ||
	fail "-i, stdout a file: no report"

# --- a pipe's reader gone: the benchmark gets SIGPIPE, as it would --------
timeout 20 "$BT" -q -o "$TMP/r.data" yes 2>/dev/null | head -1 >/dev/null
rc=${PIPESTATUS[0]}
[ "$rc" = 141 ] && ok "yes | head -1: the benchmark ended by SIGPIPE (exit $rc)" ||
	fail "yes | head -1: exit $rc (124: still running after 20 s)"

# a slow reader: the benchmark waits for it (nothing lost), the copy is whole
seq 1 500000 >"$TMP/ref"
$B seq 1 500000 | { sleep 1; cat; } >"$TMP/got"
same "seq into a pipe read after 1 s" "$TMP/ref" "$TMP/got"
kept "seq into a pipe read after 1 s" 1 "$TMP/ref"

# --- a harness's lines still read, with their times ------------------------
GB=$FIX/gbench-stdio
if [ ! -f /usr/include/benchmark/benchmark.h ] || ! command -v g++ >/dev/null; then
	skipped "Google Benchmark: g++ or libbenchmark-dev is missing"
elif ! { [ "$GB" -nt "$TOP/tests/fixtures/gbench.cc" ] ||
    g++ -O2 -g -fno-omit-frame-pointer -o "$GB" "$TOP/tests/fixtures/gbench.cc" \
	-lbenchmark -lpthread; }; then
	fail "cannot build tests/fixtures/gbench.cc"
else
	filter='--benchmark_filter=^(BM_sum/8|BM_tmpl<double>)$'
	nb() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
print(" ".join(b["name"] for b in d.get("benchmarks", [])))' "$1"; }
	if command -v script >/dev/null; then
		script -qfec "$BT -q -o $TMP/r.data --export $TMP/t.json --format json --top 0 $GB --benchmark_min_time=0.1 '$filter'" \
			/dev/null >/dev/null 2>&1
		n=$(nb "$TMP/t.json")
		chunks=$("$RO" "$TMP/r.data" chunks | awk '$3 == 1' | wc -l)
		[ "$n" = "BM_sum/8 BM_tmpl<double>" ] && [ "$chunks" -ge 2 ] &&
			ok "GB, stdout a terminal: its benchmarks read ($n), $chunks chunks with their times" ||
			fail "GB, stdout a terminal: benchmarks '$n', $chunks chunks"
	fi
	"$BT" -q -o "$TMP/r.data" --export "$TMP/f.json" --format json --top 0 "$GB" \
		--benchmark_min_time=0.1 "$filter" >"$TMP/gb.out" 2>"$TMP/gb.err"
	n=$(nb "$TMP/f.json")
	chunks=$("$RO" "$TMP/r.data" chunks | awk '$3 == 1' | wc -l)
	[ "$n" = "BM_sum/8 BM_tmpl<double>" ] && [ "$chunks" -ge 2 ] &&
		ok "GB, stdout a file: its benchmarks read back from the file ($n), $chunks chunks with their times" ||
		fail "GB, stdout a file: benchmarks '$n', $chunks chunks"
	kept "GB, stdout a file" 1 "$TMP/gb.out"
	kept "GB, stderr a file" 2 "$TMP/gb.err"
	# stdout /dev/null: not read, so no table; the recording says why
	"$BT" -q -o "$TMP/r.data" --export "$TMP/n.json" --format json --top 0 "$GB" \
		--benchmark_min_time=0.05 "$filter" >/dev/null 2>"$TMP/gb.err"
	n=$(nb "$TMP/n.json")
	note=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
print("\n".join(x for x in d.get("notes", []) if "standard output" in x))' "$TMP/n.json")
	[ -z "$n" ] && [ "$note" = "the benchmark's standard output was /dev/null: not read, so Google Benchmark's results, and the benchmark table, are missing (run with stdout to a file, a pipe or a terminal)" ] &&
		"$BT" -i "$TMP/r.data" --stdio --top 0 | grep -qF "# note: $note" &&
		ok "GB, stdout /dev/null: no table, and the JSON and --stdio notes say why ($note)" ||
		fail "GB, stdout /dev/null: benchmarks '$n', note '$note'"
fi
# a program that is no harness, stdout /dev/null or closed: said, without a table to miss
for to in /dev/null closed; do
	if [ $to = closed ]; then
		"$BT" -q -o "$TMP/r.data" --export "$TMP/n.json" --format json --top 0 "$fx" look "$TMP/look" >&- 2>/dev/null
	else
		"$BT" -q -o "$TMP/r.data" --export "$TMP/n.json" --format json --top 0 "$fx" look "$TMP/look" >$to 2>/dev/null
	fi
	grep -qF "\"the benchmark's standard output was $to: not read, no harness results (run with stdout to a file, a pipe or a terminal)\"" "$TMP/n.json" &&
		ok "no harness, stdout $to: the JSON notes say it was not read" ||
		fail "no harness, stdout $to: $(grep -o '"notes": [^]]*' "$TMP/n.json" | head -c 300)"
done
"$BT" -q -o "$TMP/r.data" --export "$TMP/n.json" --format json --top 0 "$fx" look "$TMP/look" >"$TMP/o" 2>/dev/null
! grep -q "standard output was" "$TMP/n.json" && ok "stdout a file: no such note" || fail "stdout a file: noted as not read"
finish
