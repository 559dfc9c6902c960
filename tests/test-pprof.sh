#!/bin/bash
# --format pprof and --format bmf (docs/formats.md), against readers nobody
# here wrote:
#  1. go tool pprof on a real recording of tests/fixtures/chains.c (call
#     chains, inlined code in ld.so): -raw parses; -top (self samples per
#     function) equals benchtui's table; -traces' callers and inclusive
#     samples equal benchtui's call graph; -disasm=leaf (the binary
#     present) gives the annotation's per-instruction samples; -lines
#     gives the source view's per-line samples; the third sample type,
#     per instruction, the annotation's skid-adjusted samples; with
#     --time and --pid, -top equals that selection's table
#  2. the npm pprof-format package (a second decoder) reads the same
#     self samples and total; every location's Line[] of a program with
#     inline chains equals llvm-symbolizer --inlines' frames (functions,
#     lines, columns); node's JIT code: its frames in the chains, the
#     same self samples
#  3. Google Benchmark (probes): -tagfocus=bench.name=X -top equals the
#     benchmark's table; bench.phase=untimed its untimed samples; bench.rep
#     its result line's; -b NAME: its table, all labelled; --format bmf has Bencher's shape and the
#     harness's numbers (a python check)
#  3b. benchtui diff --format pprof: both sides, labelled side=a/b;
#     -tagfocus=side=X -top equals each side's table; -diff_base runs
#  4. bad input: a name with control bytes is kept as data in pprof
#     (escaped in the text export); an export overwrites an existing file;
#     a failed export leaves no file, and an existing one as it was
. tests/lib.sh
command -v python3 >/dev/null || skip "python3 is not installed"
need_recording
O=$TOP/tests/tools/pprof-oracle.py
export ASAN_OPTIONS=${ASAN_OPTIONS:-}
export GOFLAGS=-mod=mod GOTOOLCHAIN=local
PPROF="go tool pprof -sample_index=samples -nodefraction=0 -edgefraction=0 -nodecount=1000000"
have_go=1
command -v go >/dev/null && go tool pprof -h >/dev/null 2>&1 || have_go=0

ch=$(fixture chains)
"$BT" -q -o "$TMP/ch.data" --stdio "$ch" 30000 >/dev/null 2>"$TMP/err" ||
	fail "benchtui record: $(head -c 300 "$TMP/err")"
"$BT" -i "$TMP/ch.data" --export "$TMP/ch.json" --format json --all 2>"$TMP/err" ||
	fail "json export: $(cat "$TMP/err")"
if "$BT" -i "$TMP/ch.data" --export "$TMP/ch.pb.gz" --format pprof 2>"$TMP/err"; then
	ok "pprof export: $(stat -c %s "$TMP/ch.pb.gz") bytes"
else
	fail "pprof export: $(cat "$TMP/err")"
fi
[ "$(head -c 2 "$TMP/ch.pb.gz" | od -An -tx1 | tr -d ' ')" = 1f8b ] ||
	fail "the pprof export is not gzip data"

# --- 1. go tool pprof
pp() {	# NAME ARGS...: go tool pprof ARGS into $TMP/NAME, a failure said
	local out=$1; shift
	if ! $PPROF "$@" >"$TMP/$out" 2>"$TMP/$out.err"; then
		fail "go tool pprof $*: $(head -c 300 "$TMP/$out.err")"
		return 1
	fi
}
oracle_check() {	# WHAT ARGS...: the python check, its line said
	local what=$1 out; shift
	if out=$(python3 "$O" "$@"); then ok "$what: $out"; else fail "$what:"; echo "$out"; fi
}
if [ $have_go = 0 ]; then
	skipped "go tool pprof: go is not installed (golang-go)"
else
	pp raw -raw "$TMP/ch.pb.gz" && grep -q '^Mappings' "$TMP/raw" &&
		grep -q '\[FN\]\[FL\]\[LN\]\[IN\]' "$TMP/raw" && ok "-raw parses, mappings symbolised" ||
		fail "-raw: no symbolised mapping"
	grep -q "^Comment: command: $ch 30000" "$TMP/raw" || fail "-raw: no command comment"
	pp top -top -noinlines "$TMP/ch.pb.gz" && oracle_check "-top = the function table" top "$TMP/ch.json" "$TMP/top"
	pp traces -traces "$TMP/ch.pb.gz" && oracle_check "-traces = the call graph" traces "$TMP/ch.json" "$TMP/traces"
	pp disasm -disasm=leaf "$TMP/ch.pb.gz" &&
		oracle_check "-disasm=leaf = the annotation" disasm "$TMP/ch.json" "$TMP/disasm" leaf
	pp skid -disasm=leaf -sample_index=2 -unit=ns "$TMP/ch.pb.gz" &&
		oracle_check "-disasm=leaf of the skid-adjusted type = the annotation's" skid \
			"$TMP/ch.json" "$TMP/skid" leaf
	pp lines -top -lines -noinlines "$TMP/ch.pb.gz" &&
		oracle_check "-lines = the source view" lines "$TMP/ch.json" "$TMP/lines" leaf
fi

# a selection's samples only: --time, --pid, -b (every sample labelled)
if [ $have_go = 1 ]; then
	pid=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["processes"][0]["pid"])' "$TMP/ch.json")
	for sel in "--time 0.1,0.4" "--pid $pid"; do
		"$BT" -i "$TMP/ch.data" $sel --export "$TMP/sel.json" --format json --top 0 2>/dev/null &&
			"$BT" -i "$TMP/ch.data" $sel --export "$TMP/sel.pb.gz" --format pprof 2>"$TMP/err" ||
			{ fail "$sel: $(cat "$TMP/err")"; continue; }
		pp sel -top -noinlines "$TMP/sel.pb.gz" || continue
		python3 "$O" top "$TMP/sel.json" "$TMP/sel" >"$TMP/sel.out" &&
			ok "$sel: -top = its function table: $(cat "$TMP/sel.out")" ||
			{ fail "$sel:"; cat "$TMP/sel.out"; }
	done
fi

# benchtui diff --format pprof: both sides in one profile, labelled side;
# -tagfocus=side=a -top is A's function table, side=b B's; each side cut
# out with -proto reads back, and -diff_base compares them
if [ $have_go = 1 ]; then
	"$BT" -q -o "$TMP/ch2.data" --stdio "$ch" 20000 >/dev/null 2>"$TMP/err" ||
		fail "benchtui record (B): $(head -c 300 "$TMP/err")"
	"$BT" -i "$TMP/ch2.data" --export "$TMP/ch2.json" --format json --top 0 2>/dev/null ||
		fail "json export (B)"
	if "$BT" diff "$TMP/ch.data" "$TMP/ch2.data" --export "$TMP/d.pb.gz" --format pprof 2>"$TMP/err"; then
		for side in a b; do
			[ $side = a ] && js=$TMP/ch.json || js=$TMP/ch2.json
			pp "d$side" -top -noinlines -tagfocus=side=$side "$TMP/d.pb.gz" &&
				python3 "$O" top "$js" "$TMP/d$side" >"$TMP/d$side.out" &&
				ok "diff pprof: -tagfocus=side=$side -top = side $side's table: $(cat "$TMP/d$side.out")" ||
				{ fail "diff pprof side $side:"; cat "$TMP/d$side.out"; }
			$PPROF -proto -tagfocus=side=$side "$TMP/d.pb.gz" >"$TMP/d$side.pb.gz" 2>"$TMP/err" ||
				fail "-proto -tagfocus=side=$side: $(head -c 300 "$TMP/err")"
		done
		pp tags -tags "$TMP/d.pb.gz" && grep -q '^ side: Total' "$TMP/tags" ||
			fail "diff pprof: no side label: $(head -5 "$TMP/tags")"
		pp dd -top -noinlines -diff_base="$TMP/da.pb.gz" "$TMP/db.pb.gz" &&
			grep -q 'of [0-9]* total' "$TMP/dd" && ok "-diff_base=side a's profile side b's: $(grep -o 'Showing.*' "$TMP/dd")" ||
			fail "-diff_base of the two sides"
	else
		fail "diff --format pprof: $(cat "$TMP/err")"
	fi
fi

# pf_same JSON PPROF WHAT: pprof-format's self samples and total = the JSON's
pf_same() {
	node "$TOP/tests/tools/pprof-format-read.js" "$nm/node_modules" "$2" \
		>"$TMP/pf" 2>"$TMP/pf.err" || { fail "pprof-format: $(head -c 300 "$TMP/pf.err")"; return; }
	python3 - "$1" "$TMP/pf" <<'EOF' && ok "pprof-format reads the same self samples$3" || fail "pprof-format's totals differ$3"
import json, sys
from collections import Counter
d = json.load(open(sys.argv[1]))
want = Counter()
for f in d["functions"]:
    if f["samples"]:
        want[f["name"]] += f["samples"]
got = dict(l.rstrip("\n").split("\t") for l in open(sys.argv[2]))
total = int(got.pop("#total"))
got = {k: int(v) for k, v in got.items()}
bad = [k for k in set(want) | set(got) if want.get(k, 0) != got.get(k, 0)]
for k in bad[:10]:
    print("   %s: pprof-format %s, benchtui %s" % (k, got.get(k), want.get(k)))
if total != d["samples"]:
    print("   total: pprof-format %d, benchtui %d" % (total, d["samples"]))
sys.exit(1 if bad or total != d["samples"] else 0)
EOF
}
# --- 2. the npm pprof-format package
pprof_format_build() {	# OUT
	(cd "$1" && npm install --no-save --no-audit --no-fund --loglevel=error \
		pprof-format@2.3.2 >/dev/null 2>"$1/npm.log") || { cat "$1/npm.log"; return 1; }
}
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	skipped "pprof-format: node or npm is not installed"
elif ! nm=$(. tests/cache.sh && cache_entry npm-pprof-format "npm install pprof-format@2.3.2
node $(node --version), npm $(npm --version)" pprof_format_build 2>"$TMP/npm"); then
	skipped "pprof-format: cannot be installed: $(head -c 200 "$TMP/npm")"
else
	pf_same "$TMP/ch.json" "$TMP/ch.pb.gz" ""
fi

# every location of a program with inline chains two deep: its Line[]
# (functions, lines, columns) equal llvm-symbolizer --inlines' frames
SYMB=$(command -v llvm-symbolizer || command -v llvm-symbolizer-14 || true)
if [ -z "${nm:-}" ] || [ -z "$SYMB" ]; then
	skipped "Line[] against llvm-symbolizer: pprof-format or llvm-symbolizer is missing"
else
	inl=$FIX/inl-pprof
	if [ ! -x "$inl" ] || [ "$TOP/tests/fixtures/inl.c" -nt "$inl" ]; then
		cc -O2 -g -I"$TOP/tests/fixtures" -o "$inl" "$TOP/tests/fixtures/inl.c" ||
			fail "cannot build inl"
	fi
	"$BT" -q -o "$TMP/inl.data" --stdio --top 0 "$inl" 20000000 >/dev/null 2>&1 &&
		"$BT" -i "$TMP/inl.data" --export "$TMP/inl.pb.gz" --format pprof --top 1 2>"$TMP/err" ||
		fail "inl: $(cat "$TMP/err")"
	node "$TOP/tests/tools/pprof-format-read.js" "$nm/node_modules" "$TMP/inl.pb.gz" /inl-pprof \
		>"$TMP/inl.locs" 2>"$TMP/err" || fail "pprof-format: $(cat "$TMP/err")"
	cut -f1 "$TMP/inl.locs" | "$SYMB" --obj="$inl" --inlines >"$TMP/inl.symb" 2>/dev/null
	python3 - "$TMP/inl.locs" "$TMP/inl.symb" <<'EOF' && ok "Line[] = llvm-symbolizer --inlines (functions, lines, columns): $(wc -l <"$TMP/inl.locs") locations" || fail "Line[] differs from llvm-symbolizer"
import sys
locs = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
blocks = open(sys.argv[2]).read().strip("\n").split("\n\n")
bad = 0
for loc, blk in zip(locs, blocks):
    ls = blk.split("\n")
    # ??: no file known; line 0 is no line, whatever file it names (as
    # test-inline reads it: crtstuff.c:0:0 has no location to write)
    want = ["%s %s" % (ls[i], ls[i + 1].replace("??", "", 1) if ls[i + 1].startswith("??:")
            else ":0:0" if ls[i + 1].endswith(":0:0") else ls[i + 1])
            for i in range(0, len(ls) - 1, 2)]
    if loc[1:] != want:
        bad += 1
        if bad < 5:
            print("   %s: pprof %s, llvm-symbolizer %s" % (loc[0], loc[1:], want))
inl = sum(1 for l in locs if len(l) > 2)
if inl == 0:
    print("   no location with inline frames"); bad += 1
sys.exit(1 if bad or len(locs) != len(blocks) else 0)
EOF
fi

# JIT code (node's perf map, no setup: docs/jit.md): its frames in the
# chains, the same self samples
if [ -n "${nm:-}" ] && [ $have_go = 1 ]; then
	mkdir -p "$TMP/js"
	if (cd "$TMP/js" && "$BT" -q -o hot.data node "$TOP/tests/fixtures/hot.js" >/dev/null 2>&1) &&
	    "$BT" -i "$TMP/js/hot.data" --export "$TMP/hot.json" --format json --top 0 2>/dev/null &&
	    "$BT" -i "$TMP/js/hot.data" --export "$TMP/hot.pb.gz" --format pprof 2>"$TMP/err"; then
		pf_same "$TMP/hot.json" "$TMP/hot.pb.gz" " (node, JIT code)"
		pp hot -traces "$TMP/hot.pb.gz" &&
			awk '/^-----/ { n = 0; next } { n++ } n > 1 && / JS:[*^~]/ { f = 1 } END { exit !f }' \
			"$TMP/hot" && ok "JIT frames in the call chains (JS:...)" ||
			fail "no JIT frame as a caller in -traces"
	else
		skipped "node's JIT: cannot record node $(head -c 200 "$TMP/err")"
	fi
fi

# --- 3. Google Benchmark: benchmark labels, bmf
gb=$FIX/gbench-pprof
if [ ! -f /usr/include/benchmark/benchmark.h ] || ! command -v g++ >/dev/null; then
	skipped "gbench: g++ or libbenchmark-dev is missing"
else
	if [ ! -x "$gb" ] || [ "$TOP/tests/fixtures/gbench.cc" -nt "$gb" ]; then
		g++ -O2 -g -fno-omit-frame-pointer -o "$gb" "$TOP/tests/fixtures/gbench.cc" \
			-lbenchmark -lpthread || fail "cannot build gbench"
	fi
	"$BT" -q -o "$TMP/gb.data" "$gb" --benchmark_min_time=0.05 \
		--benchmark_filter='BM_sum|BM_tmpl|VecFixture' --benchmark_repetitions=2 \
		>"$TMP/gb.out" 2>"$TMP/err" || fail "gbench record: $(head -c 300 "$TMP/err")"
	"$BT" -i "$TMP/gb.data" --export "$TMP/gb.json" --format json --top 0 2>"$TMP/err" ||
		fail "gbench json: $(cat "$TMP/err")"
	"$BT" -i "$TMP/gb.data" --export "$TMP/gb.pb.gz" --format pprof 2>"$TMP/err" ||
		fail "gbench pprof: $(cat "$TMP/err")"
	if [ $have_go = 1 ]; then
		n=0
		for b in $(python3 -c '
import json, sys
for b in json.load(open(sys.argv[1])).get("benchmarks", []):
    if b.get("samples"): print(b["name"])' "$TMP/gb.json"); do
			re=$(python3 -c 'import re, sys; print("^" + re.escape(sys.argv[1]) + "$")' "$b")
			pp "tf" -top -noinlines -tagfocus="bench.name=$re" \
				-tagignore=bench.phase=untimed "$TMP/gb.pb.gz" || continue
			python3 "$O" top "$TMP/gb.json" "$TMP/tf" "$b" >"$TMP/tf.out" ||
				{ fail "-tagfocus=bench.name=$b:"; cat "$TMP/tf.out"; }
			n=$((n + 1))
		done
		[ $n -gt 2 ] && ok "-tagfocus=bench.name=X -top = each benchmark's table ($n benchmarks)" ||
			fail "only $n benchmarks with samples"
		pp tags -tags "$TMP/gb.pb.gz" && pp utags -tags -tagfocus=bench.phase=untimed "$TMP/gb.pb.gz" &&
			python3 - "$TMP/gb.json" "$TMP/utags" <<'EOF' && ok "bench.phase=untimed = each benchmark's untimed samples" || fail "untimed samples differ"
import json, re, sys
d = json.load(open(sys.argv[1]))
got, on = {}, False
for l in open(sys.argv[2]):
    if l.startswith(" bench.name:"):
        on = True
        continue
    if on and not l.strip():
        break
    m = re.match(r"^\s+([\d.]+) \([^)]*\): (.*)$", l)	# -sample_index=samples: counts
    if on and m:
        got[m.group(2)] = int(float(m.group(1)))
bad = 0
for b in d["benchmarks"]:
    if got.get(b["name"], 0) != b.get("untimed_samples", 0):
        print("   %s: pprof %s untimed, benchtui %s" % (b["name"], got.get(b["name"]),
              b.get("untimed_samples", 0)))
        bad += 1
sys.exit(bad > 0)
EOF
		# -b NAME: that benchmark's samples only, every one labelled with it
		b=$(python3 -c '
import json, sys
print(max(json.load(open(sys.argv[1]))["benchmarks"], key=lambda b: b.get("samples", 0))["name"])' "$TMP/gb.json")
		"$BT" -i "$TMP/gb.data" -b "$b" --export "$TMP/b.json" --format json --top 0 2>/dev/null &&
			"$BT" -i "$TMP/gb.data" -b "$b" --export "$TMP/b.pb.gz" --format pprof 2>"$TMP/err" ||
			fail "-b $b: $(cat "$TMP/err")"
		pp b -top -noinlines -tagignore=bench.phase=untimed "$TMP/b.pb.gz" &&
			pp bu -tags "$TMP/b.pb.gz" &&
			python3 "$O" top "$TMP/b.json" "$TMP/b" >"$TMP/b.out" &&
			[ "$(awk '/^ bench.name:/ { t = 1; next } t && NF == 0 { exit } t' "$TMP/bu" | wc -l)" = 1 ] &&
			ok "-b $b: -top = its table, one bench.name: $(cat "$TMP/b.out")" ||
			{ fail "-b $b:"; cat "$TMP/b.out"; }
		# bench.rep: each result line's own samples (GB's repetitions)
		b=$(python3 -c '
import json, sys
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    if sum(1 for r in b["runs"] if "samples" in r) > 1: print(b["name"]); break' "$TMP/gb.json")
		if [ -n "$b" ]; then
			re=$(python3 -c 'import re, sys; print("^" + re.escape(sys.argv[1]) + "$")' "$b")
			$PPROF -traces -tagfocus="bench.name=$re" "$TMP/gb.pb.gz" 2>/dev/null |
				python3 -c '
import json, re, sys
from collections import Counter
reps, rep = Counter(), None
for l in sys.stdin:
    m = re.match(r"^\s+bench.rep:\s+(\d+)", l)
    if m: rep = int(m.group(1))
    m = re.match(r"^\s+(\d+)\s+\S", l)
    if m and rep is not None and not l.strip().startswith("bench"):
        reps[rep] += int(m.group(1)); rep = None
d = json.load(open(sys.argv[1]))
b = next(b for b in d["benchmarks"] if b["name"] == sys.argv[2])
want = {i + 1: r["samples"] for i, r in enumerate(b["runs"]) if "samples" in r}
if dict(reps) != want:
    print("   pprof", dict(reps), "benchtui", want); sys.exit(1)' "$TMP/gb.json" "$b" &&
				ok "bench.rep = each result line's samples ($b)" || fail "bench.rep differs ($b)"
		else
			skipped "bench.rep: no benchmark with two result lines' samples"
		fi
	fi
	if "$BT" -i "$TMP/gb.data" --export "$TMP/gb.bmf.json" --format bmf 2>"$TMP/err"; then
		oracle_check "--format bmf has Bencher's shape" bmf "$TMP/gb.bmf.json" "$TMP/gb.json"
	else
		fail "bmf export: $(cat "$TMP/err")"
	fi
fi

# --- 4. bad input
# a function name that would retitle a terminal: pprof's strings are data,
# written as the program has them (the text exports escape them)
evilname=$(printf 'wa\033]0;PWNED\007\033[31m\302\233x')
if cc -O2 -g -o "$TMP/evil" tests/fixtures/split.c &&
    objcopy --redefine-sym "work_a=$evilname" "$TMP/evil" &&
    "$BT" -q -o "$TMP/evil.data" --stdio --top 0 "$TMP/evil" 2000000 20 >/dev/null 2>&1 &&
    "$BT" -i "$TMP/evil.data" --export "$TMP/evil.pb.gz" --format pprof 2>"$TMP/err"; then
	if [ -n "${nm:-}" ]; then
		node "$TOP/tests/tools/pprof-format-read.js" "$nm/node_modules" "$TMP/evil.pb.gz" >"$TMP/evil.pf" &&
			grep -qF "$evilname" "$TMP/evil.pf" && ok "a name with control bytes is kept as data in pprof" ||
			fail "the crafted name is not in the pprof export as it was"
	fi
	"$BT" -i "$TMP/evil.data" --export "$TMP/evil.txt" 2>/dev/null
	grep -qF 'wa\x1b]0;PWNED' "$TMP/evil.txt" && ! grep -qaF "$evilname" "$TMP/evil.txt" ||
		fail "the text export of the same recording does not escape the name"
else
	fail "cannot record the crafted binary: $(cat "$TMP/err")"
fi
echo old >"$TMP/exists"
"$BT" -i "$TMP/ch.data" --export "$TMP/exists" --format pprof 2>/dev/null &&
	[ "$(head -c 2 "$TMP/exists" | od -An -tx1 | tr -d ' ')" = 1f8b ] &&
	ok "an existing file is overwritten (as --export does)" || fail "the existing file was not overwritten"
echo old >"$TMP/kept"
if "$BT" -i "$TMP/ch.data" --export "$TMP/kept" --format json -s no_such_function 2>/dev/null; then
	fail "an export of a missing function succeeded"
elif [ "$(cat "$TMP/kept")" != old ] || ls "$TMP" | grep -q '^kept.'; then
	fail "a failed export left a partial file: $(ls "$TMP" | grep kept)"
else
	ok "a failed export leaves the existing file as it was, and no temporary"
fi
"$BT" -i "$TMP/ch.data" --export "$TMP/new" --format json -s no_such_function 2>/dev/null
[ -e "$TMP/new" ] && fail "a failed export left a file" || ok "a failed export leaves no file"
"$BT" -i "$TMP/ch.data" --stdio --format pprof 2>/dev/null | gzip -dc >/dev/null &&
	ok "--stdio --format pprof to a pipe" || fail "--stdio --format pprof to a pipe"
if command -v script >/dev/null; then
	script -qec "$BT -i $TMP/ch.data --stdio --format pprof" /dev/null >"$TMP/tty" 2>&1
	grep -q 'binary (gzip): not to a terminal' "$TMP/tty" && ! grep -qa $'\x1f\x8b' "$TMP/tty" &&
		ok "--stdio --format pprof refuses a terminal" || fail "pprof went to a terminal"
fi
"$BT" -i "$TMP/ch.data" --export /dev/null --format pprof 2>"$TMP/err" &&
	ok "an export to a device is written through" || fail "--export /dev/null: $(cat "$TMP/err")"
finish
