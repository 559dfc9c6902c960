#!/bin/bash
# benchtui diff (issue 28, docs/diff.md): the same Google Benchmark build
# (tests/fixtures/diffbench.cc) recorded three times with
# --benchmark_repetitions=5 (the false-positive rate over the three pairs'
# units, reported), a build with a dependent divide added to BM_chain's hot
# loop (BM_chain slower, benchmark and function; the others neither slower
# nor faster) and renames BM_xorshift's function (paired by diffmatch's
# control-flow hash), one run each (the time slices), --fail-on's exit statuses,
# --baseline, a go test -count 5 pair, a tinybench pair, a criterion pair, and the p- and q-values of the
# JSON against python's exact permutation test and Benjamini-Hochberg.
. tests/lib.sh
need_recording
command -v python3 >/dev/null || skip "python3 is missing"
[ -f /usr/include/benchmark/benchmark.h ] && command -v g++ >/dev/null ||
	skip "g++ or libbenchmark-dev is missing"
nfail=0 nskip=0
mkdir -p "$FIX"
src=$TOP/tests/fixtures/diffbench.cc
for v in A B; do
	if [ ! -x "$FIX/diff$v" ] || [ "$src" -nt "$FIX/diff$v" ]; then
		g++ -O2 -g -fno-omit-frame-pointer $([ $v = B ] && echo -DSLOW_DIV) \
			-o "$FIX/diff$v" "$src" -lbenchmark -lpthread ||
			{ fail "cannot build diffbench.cc ($v)"; finish; }
	fi
done
REPS="--benchmark_repetitions=5 --benchmark_min_time=0.02"
# The machine's own drift: a fixed loop (tests/fixtures/skid.c's divdep
# control, twelve chained adds) timed before and after each recording, the
# fastest of three. Two runs of one build differ by what the machine did
# between them too: on a virtual machine whose neighbours share its cores
# the loop's time moved 1.11-1.53 ns within seconds. A same-build pair's
# unit called slower or faster by no more than that drift (plus 2 points)
# is the machine's, not a false positive of the statistics: reported apart.
skid=$(fixture skid)
cal() {		# cal NAME: append the loop's time to $TMP/NAME.cal
	for _ in 1 2 3; do "$skid" divdep c; done |
		awk '$3 == "ns_per_iter" && (min == "" || $4 < min) { min = $4 } END { print min }' \
		>>"$TMP/$1.cal"
}
drift() {	# drift NAME...: max / min - 1 of their calibrations
	cat "${@/#/$TMP/}" 2>/dev/null | awk 'NF { if (min == "" || $1 < min) min = $1
		if ($1 > max) max = $1 } END { printf "%.3f", (min > 0 ? max / min - 1 : 0) }'
}
# steady DRIFT WHAT: true when the machine held still enough to judge an
# A/A pair that called too much (its loop within 10% before and after the
# runs); else that check is skipped, saying how far the machine moved. A
# pair within its bound passes whatever the machine did.
steady() {
	awk -v d="$1" 'BEGIN { exit !(d <= 0.10) }' && return 0
	skipped "$2: the machine's own speed moved $(awk -v d="$1" 'BEGIN { printf "%.0f%%", 100 * d }') between the runs (a fixed loop before and after each, or the harness's own times): an A/A comparison cannot tell the statistics' false positives from it"
	return 1
}
rec() {		# rec NAME BUILD ARGS...: record into $TMP/NAME.data
	name=$1 v=$2; shift 2
	cal "$name"
	"$BT" -q -o "$TMP/$name.data" "$FIX/diff$v" "$@" >"$TMP/$name.out" 2>&1 ||
		fail "recording $name failed: $(tail -3 "$TMP/$name.out")"
	cal "$name"
}
rec a1 A $REPS
rec a2 A $REPS
rec a3 A $REPS
rec b1 B $REPS
rec s1 A --benchmark_min_time=0.05
rec s2 B --benchmark_min_time=0.05

cat >"$TMP/check.py" <<'PY'
import itertools, json, math, re, statistics, sys

def units(path):
    d = json.load(open(path))
    for b in d["benchmarks"]:
        yield b["name"], b["time"]
        for f in b["functions"]:
            yield b["name"], f

def exact_p(a, b):
    pool = a + b; n = len(pool); na = len(a); tot = sum(pool)
    obs = abs(statistics.mean(b) - statistics.mean(a))
    tol = 1e-9 * max(abs(x) for x in pool)
    hits = splits = 0
    for c in itertools.combinations(range(n), na):
        sa = sum(pool[i] for i in c)
        splits += 1
        hits += abs((tot - sa) / (n - na) - sa / na) >= obs - tol
    return hits / splits

def bh(ps):
    n = len(ps); order = sorted(range(n), key=lambda i: ps[i]); q = [0] * n; m = 1
    for k in range(n - 1, -1, -1):
        m = min(m, ps[order[k]] * n / (k + 1)); q[order[k]] = m
    return q

cmd = sys.argv[1]
if cmd == "rate":		# rate DRIFT FILE...: called units / all units
    # a unit called by no more than the machine's drift (DRIFT, a fraction)
    # plus 2 points: the machine's, counted apart
    drift = float(sys.argv[2]) + 0.02
    called = total = excused = 0
    for path in sys.argv[3:]:
        for bench, u in units(path):
            total += 1
            if u["verdict"] in ("slower", "faster"):
                within = abs(u["delta"]) <= drift
                excused += within
                called += not within
                print("drift:" if within else "called:", path.split("/")[-1], bench,
                      u["name"], u["verdict"], u["delta"], u["interval"], file=sys.stderr)
    quiet = sum(1 for p in sys.argv[3:] for _, u in units(p)
                if u["verdict"] in ("unchanged", "unresolved"))
    print(called, total, quiet, excused)
elif cmd == "verdict":		# verdict FILE BENCH KIND: the unit's verdict
    for bench, u in units(sys.argv[2]):
        if bench == sys.argv[3] and (u["kind"] == "benchmark") == (sys.argv[4] == "time") \
                and (sys.argv[4] == "time" or u["name"].startswith(sys.argv[4])):
            print(u["verdict"]); break
elif cmd == "others":		# others FILE BENCH: the other benchmarks' verdicts
    d = json.load(open(sys.argv[2]))
    print(" ".join("%s=%s" % (b["name"], b["verdict"]) for b in d["benchmarks"]
                   if b["name"] != sys.argv[3]))
elif cmd == "own":		# own KIND OUT1 OUT2 DRIFT: the larger of DRIFT and how far
    # the harness's own printed numbers moved between the two runs, per
    # benchmark (go: its ns/op medians; criterion: its estimates;
    # tinybench: each task row's first number, ops/sec or its average time)
    units = {"ps": 1e-3, "ns": 1, "\u00b5s": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}
    def numbers(path):
        t = {}
        for l in open(path, errors="replace"):
            if sys.argv[2] == "go":
                m = re.match(r"(Benchmark\S+)\s+\d+\s+([0-9.]+) ns/op", l)
                if m:
                    t.setdefault(m[1], []).append(float(m[2]))
            elif sys.argv[2] == "criterion":
                m = re.match(r"^(\S.*?)\s+time:\s+\[\S+ \S+ ([0-9.]+) (\S+) ", l)
                if m and m[3] in units:
                    t[m[1]] = [float(m[2]) * units[m[3]]]
            else:
                m = re.search(r"'([^']+)'\s*\W+\s*'?([0-9][0-9,.]*)", l)
                if m:
                    try:
                        t[m[1]] = [float(m[2].replace(",", ""))]
                    except ValueError:
                        pass
        return {k: statistics.median(v) for k, v in t.items()}
    a, b = numbers(sys.argv[3]), numbers(sys.argv[4])
    # tinybench's first number may be a rate: its change either way round
    d = [max(abs(b[k] / a[k] - 1), abs(a[k] / b[k] - 1) if sys.argv[2] == "tinybench" else 0)
         for k in a if k in b and a[k] > 0 and b[k] > 0]
    print("%.3f" % max(d + [float(sys.argv[5])]))
elif cmd == "renamed":		# renamed FILE BENCH: its functions' "A -> B (how)"
    d = json.load(open(sys.argv[2]))
    for b in d["benchmarks"]:
        if b["name"] == sys.argv[3]:
            for f in b["functions"]:
                print("%s -> %s (%s)" % (f.get("name_a") or f["name"], f["name"], f["match"]))
elif cmd == "pq":		# pq FILE: p (exact) and q (BH) as python computes them
    us = [u for _, u in units(sys.argv[2])]
    bad = []
    for u in us:
        if len(u["va"]) + len(u["vb"]) <= 12 and u["va"] and u["vb"]:
            p = exact_p(u["va"], u["vb"])
            if abs(p - u["p"]) > 1e-9:
                bad.append("%s p %s, python %s" % (u["name"], u["p"], p))
    for u, q in zip(us, bh([u["p"] for u in us])):
        if abs(q - u["q"]) > 1e-9:
            bad.append("%s q %s, python %s" % (u["name"], u["q"], q))
    print("; ".join(bad) if bad else "ok %d" % len(us))
PY

d() {	# d A B OUT: the JSON export of benchtui diff A B
	"$BT" diff "$TMP/$1.data" "$TMP/$2.data" --export "$TMP/$3.json" --format json \
		2>"$TMP/$3.err" || fail "diff $1 $2: $(head -3 "$TMP/$3.err")"
}
d a1 a2 aa12
d a1 a3 aa13
d a2 a3 aa23
d a1 b1 ab
d s1 s2 ss

# --- the same build three times: called units are false positives ---------
dr=$(drift a1.cal a2.cal a3.cal)
read -r called total quiet excused < <(python3 "$TMP/check.py" rate "$dr" "$TMP"/aa*.json 2>"$TMP/called")
echo "   same build, 3 pairs: $called of $total units slower/faster" \
	"($(python3 -c "print('%.1f%%' % (100 * $called / max($total, 1)))")), $quiet unchanged or unresolved;" \
	"$excused more within the machine's drift of $dr"
[ "$total" -gt 0 ] || fail "no units compared"
if [ $((called * 100)) -le $((total * 5)) ]; then
	ok "same build: false positives at most 5% of units"
elif steady "$dr" "same build, 3 pairs: $called of $total units called"; then
	fail "same build: $called of $total units called: $(cat "$TMP/called")"
fi
[ $(((quiet + excused) * 2)) -gt "$total" ] && ok "same build: most units unchanged, unresolved or within the drift" ||
	fail "same build: only $quiet of $total unchanged or unresolved"
# the same without the noise floor (reported, not checked: separate runs
# differ by more than their repetitions say, docs/diff.md "The noise floor")
for p in "a1 a2" "a1 a3" "a2 a3"; do
	set -- $p
	"$BT" diff "$TMP/$1.data" "$TMP/$2.data" --noise 0 --export "$TMP/n$1$2.json" \
		--format json 2>/dev/null
done
read -r called0 total0 _ < <(python3 "$TMP/check.py" rate -1 "$TMP"/na*.json 2>/dev/null)
echo "   (with --noise 0: $called0 of $total0 units slower/faster)"

# --- a dependent divide in BM_chain's loop --------------------------------
v=$(python3 "$TMP/check.py" verdict "$TMP/ab.json" BM_chain time)
[ "$v" = slower ] && ok "divide: BM_chain's time slower" || fail "divide: BM_chain's time $v"
v=$(python3 "$TMP/check.py" verdict "$TMP/ab.json" BM_chain BM_chain)
[ "$v" = slower ] && ok "divide: BM_chain's function slower" || fail "divide: BM_chain() $v"
o=$(python3 "$TMP/check.py" others "$TMP/ab.json" BM_chain)
case $o in
*=slower*|*=faster*) fail "divide: another benchmark called: $o" ;;
*) ok "divide: the others neither slower nor faster ($o)" ;;
esac
r=$(python3 "$TMP/check.py" renamed "$TMP/ab.json" BM_xorshift)
case $r in
"xorshift_step(unsigned long) -> xorshift_next(unsigned long) ("*) ok "renamed: $r" ;;
*) fail "renamed: xorshift_step not paired with xorshift_next: $r" ;;
esac
v=$(python3 "$TMP/check.py" verdict "$TMP/ss.json" BM_chain BM_chain)
[ "$v" = slower ] && ok "one run each: BM_chain's function slower (time slices)" ||
	fail "one run each: BM_chain() $v"
v=$(python3 "$TMP/check.py" verdict "$TMP/ss.json" BM_chain time)
[ "$v" = unresolved ] && ok "one run each: its time unresolved (one result)" ||
	fail "one run each: BM_chain's time $v"
grep -q '"vectors": "slices"' "$TMP/ss.json" && ok "one run each: the functions' vectors are slices" ||
	fail "one run each: no slices in the JSON"

# --- go test -count 5, twice (tests/fixtures/gobench) ----------------------
if command -v go >/dev/null && G=$(go_fixture gobench); then
	for r in g1 g2; do
		cal $r
		"$BT" -q -o "$TMP/$r.data" "$G" -test.run='^$' -test.bench='Fib20|PopcntKept' \
			-test.count=5 -test.benchtime=50ms >"$TMP/$r.out" 2>&1 ||
			fail "recording $r failed: $(tail -3 "$TMP/$r.out")"
		cal $r
	done
	d g1 g2 gg
	# the drift: the fixed loop's, or go's own ns/op (its medians per
	# benchmark) between the runs, whichever moved more: a throughput-bound
	# benchmark moves with a neighbour on its core's other thread where a
	# chain of adds does not (PopcntKept 18.5% with the loop within 4%)
	dr=$(python3 "$TMP/check.py" own go "$TMP/g1.out" "$TMP/g2.out" "$(drift g1.cal g2.cal)")
	# go prints wall-clock ns/op (a busy machine moves it between runs):
	# the benchmarks' times and functions' cost are the profile's CPU time
	v=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
drift = float(sys.argv[2]) + 0.02
fs = [f for b in d["benchmarks"] for f in b["functions"]]
called = [f for f in fs if f["verdict"] in ("slower", "faster")]
print(" ".join("%s=%s" % (b["name"], b["verdict"]) for b in d["benchmarks"]))
print(sum(abs(f["delta"]) > drift for f in called), len(fs), sum(abs(f["delta"]) <= drift for f in called),
      " ".join("%s:%s:%.3f" % (f["name"], f["verdict"], f["delta"]) for f in called) or "-")' "$TMP/gg.json" "$dr")
	echo "   go -count 5 twice, time per op (CPU, from the profile): $(echo "$v" | head -1)"
	read -r called total excused which <<<"$(echo "$v" | tail -1)"
	[ "$total" -gt 0 ] || fail "go -count 5 twice: no function units"
	if [ "$called" = 0 ]; then
		ok "go -count 5 twice: $called of $total function units slower/faster ($excused within the machine's drift of $dr: $which)"
	elif steady "$dr" "go -count 5 twice: $which called"; then
		fail "go -count 5 twice: $called of $total function units called (the machine's drift $dr): $which"
	fi
	n=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join("%d+%d" % (len(b["time"]["va"]), len(b["time"]["vb"])) for b in d["benchmarks"]))' "$TMP/gg.json")
	[ "$n" = "5+5 5+5" ] && ok "go: each -count line one value of the vectors ($n)" ||
		fail "go: the -count lines are not the vectors: $n"
	v=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(sorted(set(b["time"]["vectors"] for b in d["benchmarks"]))))' "$TMP/gg.json")
	[ "$v" = "repetitions (CPU, from the profile)" ] &&
		ok "go: the benchmarks' times are the profile's CPU time per op ($v)" ||
		fail "go: the benchmarks' vectors are '$v'"
else
	skipped "go test -count: go or the gobench fixture is missing"
fi

# --- a JS harness twice: tinybench (tests/fixtures/js) -----------------------
# one result line a task (no repetitions: its time one value a side); its
# tasks told apart by their entry frames: their functions over time slices
# of each task's own samples
if ! command -v node >/dev/null; then
	skipped "tinybench twice: node is missing"
elif ! (cd "$TOP" && sh scripts/js-deps.sh build/js) >"$TMP/msg" 2>&1; then
	skipped "tinybench twice: its npm package cannot be installed: $(head -1 "$TMP/msg")"
else
	JS=$TOP/build/js
	cp "$TOP"/tests/fixtures/js/*.mjs "$JS/"
	for r in j1 j2; do	# 100 ms a task
		cal $r
		(cd "$JS" && "$BT" -q -o "$TMP/$r.data" node tinybench.mjs tinybench 100) \
			>"$TMP/$r.out" 2>&1 || fail "recording $r failed: $(tail -3 "$TMP/$r.out")"
		cal $r
	done
	d j1 j2 jj
	# the drift: the fixed loop's, or tinybench's own numbers (each task
	# row's first number: ops/sec or its average time) between the runs,
	# whichever moved more (as go's below)
	dr=$(python3 "$TMP/check.py" own tinybench "$TMP/j1.out" "$TMP/j2.out" "$(drift j1.cal j2.cal)")
	read -r called total quiet excused < <(python3 "$TMP/check.py" rate "$dr" "$TMP/jj.json" 2>"$TMP/called")
	echo "   tinybench twice: $called of $total units slower/faster" \
		"($(python3 -c "print('%.1f%%' % (100 * $called / max($total, 1)))")), $quiet unchanged or unresolved;" \
		"$excused more within the machine's drift of $dr"
	[ "$total" -gt 3 ] || fail "tinybench twice: $total units"
	if [ $((called * 100)) -le $((total * 5)) ]; then
		ok "tinybench twice: false positives at most 5% of units"
	elif steady "$dr" "tinybench twice: $called of $total units called"; then
		fail "tinybench twice: $called of $total units called: $(cat "$TMP/called")"
	fi
	v=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(sorted(set([b["time"]["vectors"] for b in d["benchmarks"]] +
    [f["vectors"] for b in d["benchmarks"] for f in b["functions"] if len(f["va"]) > 1]))))' "$TMP/jj.json")
	[ "$v" = "one result slices" ] &&
		ok "tinybench twice: its times one result a side, its functions over slices" ||
		fail "tinybench twice: the vectors are '$v'"
fi

# --- criterion twice (tests/fixtures/rustbench) ------------------------------
# its one estimate a benchmark (no repetitions: one value a side), its
# functions over time slices of each benchmark's measured phase
if ! have_criterion; then
	skipped "criterion twice: Debian's cargo, rustc or librust-criterion-dev is missing"
elif ! CRIT=$(crit_fixture); then
	fail "criterion twice: cannot build tests/fixtures/rustbench"
else
	for r in c1 c2; do
		cal $r
		(cd "$TMP" && CRITERION_HOME=$TMP/criterion-$r "$BT" -q -o "$TMP/$r.data" "$CRIT" \
			--bench --warm-up-time 1 --measurement-time 1 --sample-size 10 --noplot \
			'^fib 15$|^popcnt_kept$') >"$TMP/$r.out" 2>&1 ||
			fail "recording $r failed: $(tail -3 "$TMP/$r.out")"
		cal $r
	done
	d c1 c2 cc
	# the drift: the fixed loop's, or criterion's own estimates between
	# the runs, whichever moved more (as go's above)
	dr=$(python3 "$TMP/check.py" own criterion "$TMP/c1.out" "$TMP/c2.out" "$(drift c1.cal c2.cal)")
	read -r called total quiet excused < <(python3 "$TMP/check.py" rate "$dr" "$TMP/cc.json" 2>"$TMP/called")
	echo "   criterion twice: $called of $total units slower/faster" \
		"($(python3 -c "print('%.1f%%' % (100 * $called / max($total, 1)))")), $quiet unchanged or unresolved;" \
		"$excused more within the machine's drift of $dr"
	[ "$total" -gt 1 ] || fail "criterion twice: $total units"
	if [ $((called * 100)) -le $((total * 5)) ]; then
		ok "criterion twice: false positives at most 5% of units"
	elif steady "$dr" "criterion twice: $called of $total units called"; then
		fail "criterion twice: $called of $total units called: $(cat "$TMP/called")"
	fi
fi

# --- recordings without a harness's results: their whole runs -------------
"$BT" -q -o "$TMP/w1.data" "$FIX/diffA" --benchmark_min_time=0.02 \
	--benchmark_filter=BM_rotate >/dev/null 2>&1	# stdout /dev/null: no results kept
"$BT" diff "$TMP/w1.data" "$TMP/w1.data" --stdio >"$TMP/w.txt" 2>&1
grep -q '^(whole run) .* no harness' "$TMP/w.txt" &&
	grep -Eq '^BM_rotate .* [0-9]+\+[0-9]+ slices' "$TMP/w.txt" &&
	grep -q 'functions by Δ share of the samples' "$TMP/w.txt" &&
	ok "no benchmarks: the whole runs, the functions' shares of time slices" ||
	fail "no benchmarks: $(head -8 "$TMP/w.txt")"

# --- the statistics against python ----------------------------------------
for j in aa12 ab; do
	r=$(python3 "$TMP/check.py" pq "$TMP/$j.json")
	case $r in ok*) ok "$j: p exact and q (BH) as python's ($r units)" ;;
	*) fail "$j: $r" ;; esac
done

# --- --fail-on, --baseline, text, usage -----------------------------------
expect_status 3 "$BT" diff "$TMP/a1.data" "$TMP/b1.data" --fail-on slower --stdio &&
	ok "--fail-on slower: 3 with the divide"
expect_status 0 "$BT" diff "$TMP/a1.data" "$TMP/b1.data" --fail-on slower=10000 --stdio &&
	ok "--fail-on slower=10000: 0"
expect_status 0 "$BT" diff "$TMP/b1.data" "$TMP/a1.data" --fail-on slower --stdio &&
	ok "--fail-on slower: 0 the other way round (faster)"
expect_status 1 "$BT" diff "$TMP/a1.data" --stdio && ok "diff with one recording: usage error"
expect_status 1 "$BT" diff "$TMP/a1.data" "$TMP/b1.data" --fail-on faster &&
	ok "--fail-on faster: usage error"
expect_status 3 "$BT" --baseline "$TMP/a1.data" --fail-on slower -q -o "$TMP/b2.data" \
	"$FIX/diffB" --benchmark_repetitions=5 --benchmark_min_time=0.02 &&
	ok "--baseline OLD --fail-on slower: 3 after recording the divide"
"$BT" diff "$TMP/a1.data" "$TMP/b1.data" --stdio >"$TMP/ab.txt" 2>&1
grep -q '^#Benchmark .*Verdict' "$TMP/ab.txt" && grep -q '^BM_chain .* slower ' "$TMP/ab.txt" &&
	grep -q '^## diff BM_chain: .*functions by Δ cost per op' "$TMP/ab.txt" &&
	ok "--stdio: the benchmark table and each benchmark's functions" ||
	fail "--stdio: $(head -5 "$TMP/ab.txt")"
# --- the browser: the benchmark table, Enter its functions -----------------
if command -v tmux >/dev/null; then
	tmux_init diff
	$T new-session -d -s keep
	$T new-session -d -s bt -x 140 -y 30 -c "$TMP" \
		"env TERM=screen LC_ALL=C.UTF-8 $BT diff $TMP/a1.data $TMP/b1.data; exec sleep 60"
	if wait_for "diff: 4 benchmarks: 1 slower"; then
		screen | grep -q '^BM_chain .* slower ' && ok "browser: the benchmark table, BM_chain slower" ||
			fail "browser: no BM_chain row: $(screen | sed -n 2,5p)"
		$T send-keys -t bt Enter
		wait_for "diff BM_chain: .*functions by Δ cost per op" &&
			ok "browser: Enter opens the benchmark's functions"
		$T send-keys -t bt q
		wait_for "diff: 4 benchmarks" && ok "browser: q back to the table"
	fi
else
	skipped "browser: tmux is missing"
fi
finish
