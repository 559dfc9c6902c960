#!/bin/bash
# Benchmarks as the unit (DESIGN.md §7, docs/benchmarks.md), on real
# harness binaries built here and real recordings:
#  - the harness's output reaches our stdout unchanged, and the numbers
#    benchtui shows are exactly the ones the harness printed in that run;
#  - -i shows the same benchmarks as the live run;
#  - the split: each benchmark's hottest function and its share agree
#    (95% intervals, Wilson) with a run of that benchmark alone through
#    the harness's own filter (--benchmark_filter, -test.bench);
#  - lint per benchmark: the dead benchmarks are flagged with evidence,
#    the healthy ones next to them get no finding;
#  - -b restricts the reports to one benchmark.
# Google Benchmark, go test -bench and criterion; a missing toolchain
# skips its part.
. tests/lib.sh
need_recording
command -v python3 >/dev/null || skip "python3 is missing"
HB=$TOP/build/harness
mkdir -p "$HB"

# check.py ...: the oracles, over benchtui's JSON and the harness's own output
cat >"$TMP/check.py" <<'EOF'
import json, math, re, sys

def load(p):
    with open(p) as f:
        return json.load(f)

def printed(out):
    """The harness's output as a terminal shows it: escapes and \r gone."""
    t = open(out, encoding="utf-8", errors="replace").read()
    t = re.sub(r"\x1b\[[0-9;?]*[ -/]*[@-~]", "", t)
    t = re.sub(r"\x1b[()*+][0-9A-Za-z]", "", t)
    return [l.split("\r")[-1] for l in t.split("\n")]

def wilson(k, n):
    if n == 0:
        return (0.0, 100.0)
    z = 1.959964
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (100 * max(0.0, c - h), 100 * min(1.0, c + h))

cmd = sys.argv[1]
if cmd == "printed":
    # every benchmark's time and iterations are the text of its own line
    js, out = load(sys.argv[2]), printed(sys.argv[3])
    bad = 0
    for b in js["benchmarks"]:
        lines = [l for l in out if l.split() and l.split()[0] == b["name"]]
        if not lines:
            print("no printed line for %s" % b["name"]); bad += 1; continue
        l = lines[0]
        for k in ("time_text", "iterations_text"):
            v = b.get(k)
            if v is None or v not in l:
                print("%s: %s %r is not in the printed line %r" % (b["name"], k, v, l))
                bad += 1
        if k == "iterations_text" and v is not None and abs(float(v.replace(",", "")) - b["iterations"]) > 0:
            print("%s: iterations %r != %r" % (b["name"], b["iterations"], v)); bad += 1
    print("%d benchmarks" % len(js["benchmarks"]))
    sys.exit(1 if bad or not js["benchmarks"] else 0)
elif cmd == "same":
    a, b = load(sys.argv[2])["benchmarks"], load(sys.argv[3])["benchmarks"]
    strip = lambda l: [{k: v for k, v in x.items() if k != "functions"} for x in l]
    sys.exit(0 if strip(a) == strip(b) else 1)
elif cmd == "how":
    # NAME... : how each named benchmark's samples were told (its "split")
    js = load(sys.argv[2])
    got = {b["name"]: b.get("split") for b in js["benchmarks"]}
    print(", ".join("%s: %s" % (n, got.get(n)) for n in sys.argv[4:]))
    sys.exit(0 if all(got.get(n) == sys.argv[3] for n in sys.argv[4:]) else 1)
elif cmd == "split":
    # NAME: the benchmark's hottest function and share, in the run of all
    # (split by benchtui) and in a run of it alone
    js, alone, name = load(sys.argv[2]), load(sys.argv[3]), sys.argv[4]
    b = [x for x in js["benchmarks"] if x["name"] == name]
    if not b:
        print("no benchmark %s" % name); sys.exit(1)
    def table(funcs):
        # shares of the code the benchmarks run: the harness's and the
        # runtime's code (libbenchmark, Go's runtime and testing packages,
        # the clock in the vDSO), the kernel and the loader vary from run to run on this shared
        # machine (kernel: 20 to 60 of 2000 samples in two runs of one Go
        # benchmark; Go's scheduler locks: 1-3%) and are left out of both
        # node's own code (V8's builtins and inline caches: how much of it
        # runs depends on when the JIT tiers up, which varies run to run)
        # is the runtime's too
        def harness(f):
            return ("ld-linux" in f["module"] or f["module"] in ("[kernel]", "[vdso]") or
                    f["module"].rsplit("/", 1)[-1] in ("node", "libnode.so") or
                    "libbenchmark" in f["module"] or
                    f["name"].startswith(("runtime.", "testing.")))
        fs = [f for f in funcs if not harness(f)]
        n = sum(f["samples"] for f in fs)
        return fs, n
    # a JS task is an anonymous function known by its script position: the
    # same task in a one-task script is at another; name it the task
    def task(f):
        f = dict(f)
        f["name"] = re.sub(r"^JS:. file://\S+$", "JS:(the task)", f["name"])
        return f
    fa, na = table([task(f) for f in b[0]["functions"]])
    # alone, the run has one benchmark: its samples are the run's but
    # start-up and the harness's reporting (no neighbour to take from)
    ab = alone.get("benchmarks") or []
    fb, nb = table([task(f) for f in (ab[0]["functions"] if len(ab) == 1 else alone["functions"])])
    if not fa or not fb:
        print("%s: no samples (%d, %d)" % (name, na, nb)); sys.exit(1)
    top = fa[0]["name"]
    other = [f for f in fb if f["name"] == top]
    ka, kb = fa[0]["samples"], other[0]["samples"] if other else 0
    ia, ib = wilson(ka, na), wilson(kb, nb)
    # the shares agree: within the 95% intervals, or the two profiles
    # within 5 points of total variation distance (issue 24's oracle)
    pa, pb = {}, {}
    for f in fa:
        pa[f["name"]] = pa.get(f["name"], 0) + f["samples"] / na
    for f in fb:
        pb[f["name"]] = pb.get(f["name"], 0) + f["samples"] / nb
    tvd = 0.5 * sum(abs(pa.get(k, 0) - pb.get(k, 0)) for k in set(pa) | set(pb))
    agree = fb[0]["name"] == top and ((ia[0] <= ib[1] and ib[0] <= ia[1]) or tvd <= 0.05)
    print("%s: %s %.1f%% [%.1f, %.1f] of %d split, %.1f%% [%.1f, %.1f] of %d alone (alone's hottest: %s), TVD %.1f points"
          % (name, top, 100.0 * ka / na, ia[0], ia[1], na, 100.0 * kb / nb, ib[0], ib[1], nb, fb[0]["name"], 100 * tvd))
    sys.exit(0 if agree else 1)
elif cmd == "findings":
    # NAME [CHECK...]: the benchmark's findings are exactly these checks (none: no finding)
    js, name, want = load(sys.argv[2]), sys.argv[3], sorted(sys.argv[4:])
    b = [x for x in js["benchmarks"] if x["name"] == name]
    if not b:
        print("no benchmark %s" % name); sys.exit(1)
    # a CHECK may be "a|b": either (a time/op at one cycle is both)
    got = sorted(set(f["check"] for f in b[0]["findings"]))
    # machine-busy says how loaded this shared machine was, not what the
    # benchmark is (tests/test-lint-phase.sh tests it): only when asked
    if not any("machine-busy" in w for w in want):
        got = [g for g in got if g != "machine-busy"]
    for f in b[0]["findings"]:
        print("   | %s: %s" % (f["check"], f["message"][:300]))
    ok = len(got) == len(set(want)) and all(any(g in w.split("|") for g in got) for w in want)
    sys.exit(0 if ok else 1)
elif cmd == "message":
    # NAME CHECK TEXT...: its CHECK finding ("a|b": either) says every TEXT
    js, name, check = load(sys.argv[2]), sys.argv[3], sys.argv[4].split("|")
    b = [x for x in js["benchmarks"] if x["name"] == name][0]
    m = [f["message"] for f in b["findings"] if f["check"] in check]
    sys.exit(0 if m and all(t in m[0] for t in sys.argv[5:]) else 1)
elif cmd == "criterion":
    # each estimate and its interval are on one "time: [low estimate high]" line
    js, out = load(sys.argv[2]), printed(sys.argv[3])
    bad = 0
    for b in js["benchmarks"]:
        lo = b["ci_text"].strip("[]").split(" ")[:2]
        if not any("time:" in l and b["time_text"] in l and " ".join(lo) in l for l in out):
            print("%s: %s %s not on a time: line" % (b["name"], b["time_text"], b["ci_text"])); bad += 1
    print("%d benchmarks" % len(js["benchmarks"]))
    sys.exit(1 if bad or not js["benchmarks"] else 0)
elif cmd == "hottest":
    # NAME SUFFIX: the benchmark's hottest function's short name ends with SUFFIX
    js, name = load(sys.argv[2]), sys.argv[3]
    b = [x for x in js["benchmarks"] if x["name"] == name][0]
    f = b["functions"][0]
    sys.exit(0 if f.get("short_name", f["name"]).endswith(sys.argv[4]) else 1)
elif cmd == "consistent":
    # a benchmark's samples are the sum of its functions' self samples, and
    # every printed result line is one of a benchmark's results
    js, out = load(sys.argv[2]), printed(sys.argv[3])
    bad = 0
    for b in js["benchmarks"]:
        fs = sum(f["samples"] for f in b["functions"]) + \
             b.get("functions_omitted", {}).get("samples", 0)
        if "samples" in b and b["samples"] != fs:
            print("%s: %d samples, its functions %d" % (b["name"], b["samples"], fs)); bad += 1
        if len(b.get("runs", [])) != b["results"]:
            print("%s: %d results, %d runs" % (b["name"], b["results"], len(b.get("runs", [])))); bad += 1
    rows = sum(b["results"] for b in js["benchmarks"])
    want = int(sys.argv[4])
    if rows != want:
        print("%d results in benchmarks, %d printed" % (rows, want)); bad += 1
    print("%d benchmarks, %d results" % (len(js["benchmarks"]), rows))
    sys.exit(1 if bad else 0)
elif cmd == "untimed":
    # NAME: its untimed samples, and whether FUNC is among its measured functions' top
    js, name = load(sys.argv[2]), sys.argv[3]
    b = [x for x in js["benchmarks"] if x["name"] == name][0]
    print("%s: split %s, %d samples, %d untimed" % (name, b.get("split"), b.get("samples", 0),
          b.get("untimed_samples", 0)))
    sys.exit(0 if b.get("split") == "probe" and b.get("untimed_samples", 0) > 0 else 1)
elif cmd == "only":
    js = load(sys.argv[2])
    sys.exit(0 if [b["name"] for b in js["benchmarks"]] == [sys.argv[3]] else 1)
EOF
check() { python3 "$TMP/check.py" "$@"; }

# The sanitizer pass of make check (BT_SAN_PASS set) runs each harness's
# split oracle on its first benchmark only: the runs alone check what the
# split decides, code the plain pass has just checked on every benchmark;
# the sanitizers' worth is in reading the recordings, which the first does.
alone_more() {
	[ -n "${BT_SAN_PASS:-}" ] || return 0
	echo "   (sanitizer pass: the other runs alone are the plain pass's)"
	return 1
}

# --- Google Benchmark --------------------------------------------------------
gb_build() {
	[ -x "$HB/gbench" ] && [ "$HB/gbench" -nt "$TOP/tests/fixtures/gbench.cc" ] && return 0
	g++ -O2 -g -fno-omit-frame-pointer -o "$HB/gbench" "$TOP/tests/fixtures/gbench.cc" \
		-lbenchmark -lpthread
}
GB_ALL='^(BM_sum/8|BM_dead|BM_memcpy_trap|BM_tmpl<double>|BM_counters|VecFixture/Sum)$'
GB_HEALTHY='BM_sum/8 BM_tmpl<double> BM_counters VecFixture/Sum'
if [ ! -f /usr/include/benchmark/benchmark.h ] || ! command -v g++ >/dev/null; then
	skipped "Google Benchmark: g++ or libbenchmark-dev is missing"
elif ! gb_build; then
	fail "cannot build tests/fixtures/gbench.cc"
else
	"$BT" -q -o "$TMP/gb.data" --export "$TMP/gb-live.json" --format json \
		"$HB/gbench" --benchmark_min_time=0.3 --benchmark_filter="$GB_ALL" \
		>"$TMP/gb.out" 2>"$TMP/gb.err"
	"$BT" -i "$TMP/gb.data" --format json --top 0 >"$TMP/gb.json" 2>"$TMP/gb.err2" ||
		fail "benchtui -i gb.data failed: $(head -3 "$TMP/gb.err2")"
	grep -q 'BM_tmpl<double>' "$TMP/gb.out" &&
		ok "the harness's output reached benchtui's stdout" ||
		fail "the benchmark's output is not on benchtui's stdout: $(head -3 "$TMP/gb.out")"
	if check printed "$TMP/gb.json" "$TMP/gb.out" >"$TMP/msg"; then
		ok "GB: time/op and iterations as the harness printed them ($(tail -1 "$TMP/msg"))"
	else
		fail "GB: numbers differ from the printed ones:"; sed 's/^/     /' "$TMP/msg"
	fi
	check same "$TMP/gb-live.json" "$TMP/gb.json" &&
		ok "GB: -i shows the benchmarks of the live run" ||
		fail "GB: -i and the live run show different benchmarks"
	# the harness's own timer, from probes on libbenchmark
	if check how "$TMP/gb.json" probe BM_sum/8 'BM_tmpl<double>' BM_counters VecFixture/Sum \
		BM_memcpy_trap BM_dead >"$TMP/msg"; then
		ok "GB: every benchmark's samples are those of its measured phase ($(cat "$TMP/msg"))"
		check consistent "$TMP/gb.json" "$TMP/gb.out" 6 >"$TMP/msg" &&
			ok "GB: JSON consistent: samples are its functions' sum ($(tail -1 "$TMP/msg"))" ||
			fail "GB: JSON inconsistent: $(cat "$TMP/msg")"
	elif grep -q "probe-note" "$TMP/gb.data"; then
		skipped "GB: probes refused here: $(strings "$TMP/gb.data" | grep -m1 probe-note)"
	else
		fail "GB: not split by probes: $(cat "$TMP/msg")"
	fi
	# without probes, call chains: each benchmark is its own code's
	"$BT" -q -o "$TMP/gbnp.data" --no-probes --export "$TMP/gbnp.json" --format json --top 0 \
		"$HB/gbench" --benchmark_min_time=0.1 --benchmark_filter="$GB_ALL" >"$TMP/run.out" 2>&1
	check how "$TMP/gbnp.json" chain BM_sum/8 'BM_tmpl<double>' BM_counters VecFixture/Sum \
		BM_memcpy_trap >"$TMP/msg" &&
		ok "GB --no-probes: every benchmark's samples are those through its entry frame ($(cat "$TMP/msg"))" ||
		fail "GB --no-probes: not split by call chains: $(cat "$TMP/msg")"
	# an unprivileged user may not probe every process: the chain split,
	# and the note says why
	if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ] &&
	    [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -gt 0 ]; then
		nb=$(mktemp -d /tmp/bt-nobody.XXXXXX)
		cp "$HB/gbench" "$nb/" && chmod -R a+rwx "$nb"
		(cd "$nb" && setpriv --reuid=65534 --regid=65534 --clear-groups "$BT" -q \
			-o "$nb/np.data" --export "$nb/np.json" --format json --top 0 \
			"$nb/gbench" --benchmark_min_time=0.05 --benchmark_filter='^(BM_sum/8|BM_counters)$') \
			>"$nb/out" 2>"$nb/err"
		if [ -s "$nb/np.json" ]; then
			# (unprivileged, the samples' clock may not be CLOCK_MONOTONIC either)
			! check how "$nb/np.json" probe BM_sum/8 BM_counters >"$TMP/msg" &&
				grep -aq "probe-note the kernel refused the harness's probes" "$nb/np.data" &&
				ok "GB as an unprivileged user: no probes, and the recording says why ($(cat "$TMP/msg"))" ||
				fail "GB unprivileged: $(cat "$TMP/msg")"
		else
			skipped "GB unprivileged: the recording itself was refused: $(head -c 200 "$nb/err")"
		fi
		rm -rf "$nb"
	fi
	# repetitions: one row, every printed line a result of it
	"$BT" -q -o "$TMP/gbrep.data" --export "$TMP/gbrep.json" --format json --top 0 \
		"$HB/gbench" --benchmark_min_time=0.05 --benchmark_repetitions=3 \
		--benchmark_filter='^(BM_sum/8|BM_counters)$' >"$TMP/gbrep.out" 2>&1
	nres=$(grep -cE '^BM_(sum/8|counters)' "$TMP/gbrep.out")
	check how "$TMP/gbrep.json" probe BM_sum/8 BM_counters >"$TMP/msg" &&
		check consistent "$TMP/gbrep.json" "$TMP/gbrep.out" "$nres" >>"$TMP/msg" &&
		[ "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["benchmarks"]))' "$TMP/gbrep.json")" = 2 ] &&
		ok "GB --benchmark_repetitions=3: 2 benchmarks holding all $nres printed lines ($(tr '\n' ';' <"$TMP/msg"))" ||
		fail "GB repetitions: $(tr '\n' ';' <"$TMP/msg")"
	# one name printed twice: two benchmarks registered under it, apart by
	# their reports; a benchmark on one and on two threads (built once
	# per change of its source, as gbench: both passes of make check run it)
	if { [ -x "$HB/gbdup" ] && [ "$HB/gbdup" -nt "$TOP/tests/fixtures/gbdup.cc" ]; } ||
	    g++ -O2 -g -fno-omit-frame-pointer -o "$HB/gbdup" "$TOP/tests/fixtures/gbdup.cc" \
		-lbenchmark -lpthread 2>"$TMP/msg"; then
		"$BT" -q -o "$TMP/gbdup.data" --export "$TMP/gbdup.json" --format json --top 0 \
			"$HB/gbdup" --benchmark_min_time=0.1 >"$TMP/gbdup.out" 2>&1
		python3 - "$TMP/gbdup.json" >"$TMP/msg" <<'PY' &&
import json, sys
b = json.load(open(sys.argv[1]))["benchmarks"]
hot = lambda x: x["functions"][0]["name"].split("(")[0] if x["functions"] else None
print("; ".join("%s: %s, %s, hottest %s" % (x["name"], x.get("split"), x.get("samples"), hot(x)) for x in b))
same = [x for x in b if x["name"] == "BM_same"]
ok = len(b) == 4 and all(x.get("split") == "probe" for x in b) and \
     sorted(hot(x) for x in same) == ["work_a", "work_b"] and \
     all(x["results"] == 1 for x in b)
sys.exit(0 if ok else 1)
PY
			ok "GB: one name printed twice is two benchmarks, each its own code ($(cat "$TMP/msg"))" ||
			fail "GB: duplicate names: $(cat "$TMP/msg")"
	else
		fail "cannot build tests/fixtures/gbdup.cc: $(head -3 "$TMP/msg")"
	fi
	# the split against each benchmark run alone
	for name in BM_sum/8 'BM_tmpl<double>' BM_counters VecFixture/Sum BM_memcpy_trap; do
		re=$(printf '%s' "$name" | sed 's/[][*^$.]/\\&/g')
		"$BT" -q -o "$TMP/alone.data" --export "$TMP/alone.json" --format json --top 0 \
			"$HB/gbench" --benchmark_min_time=0.3 --benchmark_filter="^$re\$" \
			>"$TMP/run.out" 2>&1
		if check split "$TMP/gb.json" "$TMP/alone.json" "$name" >"$TMP/msg"; then
			ok "GB split agrees with --benchmark_filter: $(cat "$TMP/msg")"
		else
			fail "GB split disagrees with the run alone: $(cat "$TMP/msg")"
		fi
		alone_more || break
	done
	# lint: the dead ones flagged with their numbers, the healthy ones quiet
	check findings "$TMP/gb.json" BM_dead optimized-away >"$TMP/msg" &&
		check message "$TMP/gb.json" BM_dead optimized-away "1000000000 iterations" \
			"less than one cycle" "benchmark::DoNotOptimize" &&
		ok "GB: BM_dead is optimized-away, with its time, iterations and the cycle" ||
		{ fail "GB: BM_dead not flagged as optimized away:"; cat "$TMP/msg"; }
	# its loop is two instructions: about one cycle an iteration, so its
	# time per op falls either side of a cycle from run to run
	trap=
	for c in empty-loop optimized-away; do
		check findings "$TMP/gb.json" BM_memcpy_trap $c >"$TMP/msg" &&
			check message "$TMP/gb.json" BM_memcpy_trap $c "instructions in its loop" \
				"ClobberMemory" "DoNotOptimize(buf)" && { trap=$c; break; }
	done
	[ -n "$trap" ] &&
		ok "GB: BM_memcpy_trap is flagged ($trap: its loop), and the advice names the ClobberMemory trap" ||
		{ fail "GB: BM_memcpy_trap not flagged as an empty loop:"; cat "$TMP/msg"; }
	for name in $GB_HEALTHY; do
		check findings "$TMP/gb.json" "$name" >"$TMP/msg" &&
			ok "GB: no finding on healthy $name next to the dead ones" ||
			{ fail "GB: a finding on healthy $name:"; cat "$TMP/msg"; }
	done
	# -b: any output restricted to one benchmark
	"$BT" -i "$TMP/gb.data" -b 'BM_tmpl<double>' --format json --top 1 >"$TMP/b.json" &&
		check only "$TMP/b.json" 'BM_tmpl<double>' &&
		python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d['functions'][0]['short_name'].startswith('BM_tmpl<double>') else 1)" "$TMP/b.json" &&
		ok "GB: -b restricts the JSON report to one benchmark" ||
		fail "GB: -b 'BM_tmpl<double>' did not restrict the report"
	"$BT" -i "$TMP/gb.data" -b BM_nope --stdio >/dev/null 2>"$TMP/err"
	[ $? -eq 1 ] && grep -q "BM_sum/8" "$TMP/err" &&
		ok "GB: -b with an unknown name is a usage error that lists the benchmarks" ||
		fail "GB: -b BM_nope: $(cat "$TMP/err")"
	# the text report: results fastest first, then each benchmark
	"$BT" -i "$TMP/gb.data" --stdio --top 0 >"$TMP/gb.txt"
	awk '/^## benchmarks/ { t = 1; next } t && /^#/ { next } t && /^$/ { exit } t { print $1 }' \
		"$TMP/gb.txt" >"$TMP/order"
	python3 - "$TMP/gb.json" "$TMP/order" <<'EOF' &&
import json, sys
js = json.load(open(sys.argv[1]))["benchmarks"]
order = [l.strip() for l in open(sys.argv[2]) if l.strip() and l.strip() != "(outside)"]
timed = sorted([b for b in js if b.get("ratio") is not None], key=lambda b: b["time_per_op_ns"])
sys.exit(0 if order[:len(timed)] == [b["name"] for b in timed] else 1)
EOF
		grep -q '^## benchmark BM_sum/8: ' "$TMP/gb.txt" &&
		ok "GB: the text report lists the results fastest first, then each benchmark" ||
		fail "GB: the text report's order: $(tr '\n' ' ' <"$TMP/order")"
fi

# --- the browser on the GB recording (tmux, as tests/test-tui.sh) -------------
if [ ! -s "$TMP/gb.data" ]; then
	:
elif ! command -v tmux >/dev/null; then
	skipped "the benchmark table in the browser: tmux is not installed"
else
	tmux_init btb
	$T new-session -d -s keep
	$T new-session -d -s bt -x 160 -y 30 -c "$TMP" \
		"env TERM=screen LC_ALL=C.UTF-8 $BT -i $TMP/gb.data; echo \$? >$TMP/status; exec sleep 60"
	wait_for "benchmarks: 6 (gbench, split: probe)" && screen | grep -q "BM_dead .*optimized-away" &&
		screen | grep -q "(outside)" &&
		ok "browser: opens on the benchmark table, BM_dead flagged" ||
		fail "browser: no benchmark table"
	# 80 columns: the columns of least priority go, the finding stays;
	# side by side, two headings as distinct as the names
	$T resize-window -t bt -x 80 -y 24
	sleep 0.3
	screen | sed -n 3p | grep -q "^Benchmark *Time/op .*Finding" && screen | grep -q "^BM_dead .*optimized-away" &&
		ok "browser: at 80 columns the table keeps its Finding column" ||
		fail "browser: 80 columns: $(screen | sed -n 3p)"
	$T send-keys -t bt g m Down Enter
	wait_for "× the time"
	h=$(screen | sed -n 3p)
	a=$(echo "$h" | awk '{ print $1 }') b=$(echo "$h" | awk '{ print $2 }')
	[ "$a" != "$b" ] && echo "$h" | grep -q "Diff *Module *Symbol" &&
		ok "browser: side by side at 80 columns, distinct headings ($a, $b), Module before Symbol" ||
		fail "browser: side by side at 80 columns: $h"
	$T send-keys -t bt q
	$T resize-window -t bt -x 160 -y 30
	wait_for "benchmarks: 6 (gbench, split: probe)" && $T send-keys -t bt g
	sleep 0.2
	# down to BM_tmpl<double> (the rows are in the order printed), Enter
	row=$(screen | grep -n "^BM_tmpl<double>" | cut -d: -f1)
	first=$(screen | grep -n "^BM_" | head -1 | cut -d: -f1)
	for _ in $(seq $((row - first))); do $T send-keys -t bt Down; done
	$T send-keys -t bt Enter
	wait_for "benchmark BM_tmpl<double>\|BM_tmpl<double>: [0-9]* samples" &&
		screen | grep -q "BM_tmpl<double>" && ! screen | grep -q "BM_sum " &&
		ok "browser: Enter opens the benchmark's own functions" ||
		fail "browser: Enter on BM_tmpl<double>"
	screen | sed -n 1p | grep -q "^ *\(benchtui  \)\?BM_tmpl<double>: [0-9]* samples\(, 0 lost\)\?, [0-9.]* s of [0-9.]* s |" &&
		ok "browser: the header names the benchmark, its samples and its own duration" ||
		fail "browser: header in BM_tmpl<double>: $(screen | sed -n 1p)"
	$T resize-window -t bt -x 80 -y 24
	sleep 0.3
	screen | sed -n 1p | grep -q "^ *BM_tmpl<double>: [0-9]* samples, [0-9.]* s of [0-9.]* s" &&
		ok "browser: at 80x24 too" || fail "browser: 80x24 header: $(screen | sed -n 1p)"
	$T resize-window -t bt -x 200 -y 50
	sleep 0.3
	screen | sed -n 1p | grep -q "^ *\(benchtui  \)\?BM_tmpl<double>: [0-9]* samples\(, 0 lost\)\?, [0-9.]* s of [0-9.]* s | .*gbench .* | cpu-clock" &&
		ok "browser: at 200x50, with the command and the event" ||
		fail "browser: 200x50 header: $(screen | sed -n 1p)"
	$T resize-window -t bt -x 160 -y 30
	$T send-keys -t bt B
	wait_for "benchmarks: 6 (gbench, split: probe)" && ok "browser: B returns to the table" ||
		fail "browser: B"
	# mark the first row, compare with the next
	$T send-keys -t bt g m Down Enter
	wait_for "× the time" && ok "browser: m, then Enter on another: side by side" ||
		fail "browser: compare"
	screen | sed -n 1p | grep -q "BM_[a-z_/0-9]* ([0-9]* samples, [0-9.]* s) vs [A-Za-z_/0-9]* ([0-9]* samples" &&
		ok "browser: side by side, the header names both, each with its samples" ||
		fail "browser: header side by side: $(screen | sed -n 1p)"
	$T send-keys -t bt q q
	for _ in $(seq 100); do [ -s "$TMP/status" ] && break; sleep 0.05; done
	[ "$(cat "$TMP/status" 2>/dev/null)" = 0 ] && ok "browser: q q quits with status 0" ||
		fail "browser: exit status $(cat "$TMP/status" 2>/dev/null)"
	# two benchmarks of one function (->Arg): Enter on it in the comparison
	# shows its instructions with a column for each
	# (into a file: what goes to /dev/null is not read, and gives no table)
	"$BT" -q -o "$TMP/sum.data" --stdio --top 0 "$HB/gbench" --benchmark_min_time=0.2 \
		--benchmark_filter='^BM_sum/(8|64)$' >"$TMP/sum.out" 2>&1
	rm -f "$TMP/status"
	$T kill-session -t bt 2>/dev/null
	$T new-session -d -s bt -x 160 -y 30 -c "$TMP" \
		"env TERM=screen LC_ALL=C.UTF-8 $BT -i $TMP/sum.data; echo \$? >$TMP/status; exec sleep 60"
	# T on the table: the benchmark's share of each slice of the run
	wait_for "benchmarks: 2 (gbench, split: probe)" && $T send-keys -t bt g T &&
		wait_for "timeline of benchmark BM_sum/8" &&
		screen | grep -q "Samples *Benchmark *Share" &&
		screen | grep -q " 100.0%" && screen | grep -q " 0.0%" &&
		ok "browser: T on a benchmark: its share of each slice" ||
		{ fail "browser: T on the benchmark table"; screen | sed 's/^/     | /'; }
	$T send-keys -t bt q
	wait_for "benchmarks: 2 (gbench, split: probe)" && $T send-keys -t bt g m Down Enter &&
		wait_for "× the time" && $T send-keys -t bt g Enter &&
		wait_for "BM_sum.*samples in BM_sum/8, [0-9]* in BM_sum/64" &&
		screen | grep -q "BM_sum/8 *BM_sum/64 *Diff *Address" &&
		[ "$(screen | grep -c '^ *[0-9.]* *[0-9.]* *[-+][0-9.]* *[0-9a-f]*: ')" -ge 1 ] &&
		ok "browser: a function both benchmarks ran, instruction by instruction, a column each" ||
		{ fail "browser: the function in the comparison"; screen | sed 's/^/     | /'; }
	# -s naming several functions: the whole run's list, filtered, over the
	# table (not the table with a filter nobody sees)
	$T kill-session -t bt 2>/dev/null
	$T new-session -d -s bt -x 80 -y 24 -c "$TMP" \
		"env TERM=screen LC_ALL=C.UTF-8 $BT -i $TMP/gb.data -s BM_; exec sleep 60"
	wait_for "names [0-9]* functions" && screen | sed -n 2p | grep -q "^hot functions *filter: BM_" &&
		[ "$(screen | grep -c ' BM_[a-z]')" -ge 2 ] && $T send-keys -t bt q q &&
		wait_for "benchmarks: 6 (gbench" &&
		ok "browser: -s naming several functions lists them, q q goes to the table" ||
		{ fail "browser: -s BM_"; screen | sed 's/^/     | /'; }
	$T kill-server 2>/dev/null
fi

# --- --benchmark-frames: any function as a benchmark, by its call chains
"$BT" -q -o "$TMP/fr.data" --stdio --top 0 "$(fixture split)" >/dev/null 2>&1
"$BT" -i "$TMP/fr.data" --format json --top 0 --benchmark-frames 'work_*' >"$TMP/fr.json" 2>&1
if python3 - "$TMP/fr.json" >"$TMP/msg" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
f = {x["name"]: x for x in d["functions"]}
b = d.get("benchmarks", [])
print(", ".join("%s %d samples (inclusive %d, %s)" % (x["name"], x["samples"],
      f[x["name"]]["inclusive_samples"], x.get("split")) for x in b))
sys.exit(0 if sorted(x["name"] for x in b) == ["work_a", "work_b"] and all(
    x["split"] == "chain" and x["samples"] == f[x["name"]]["inclusive_samples"] > 0
    for x in b) else 1)
PY
then
	ok "--benchmark-frames 'work_*': each function a benchmark with its inclusive samples ($(cat "$TMP/msg"))"
else
	fail "--benchmark-frames: $(cat "$TMP/msg") $(head -c 300 "$TMP/fr.json")"
fi

# --- go test -bench --------------------------------------------------------------
if ! command -v go >/dev/null; then
	skipped "go test -bench: golang-go is missing"
elif ! GOB=$(go_fixture gobench); then
	fail "cannot build tests/fixtures/gobench"
else
	GO_ALL='^Benchmark(Popcnt|PopcntKept|Fib20|Sum|Alloc)$'
	"$BT" -q -o "$TMP/go.data" "$GOB" -test.run='^$' -test.bench="$GO_ALL" \
		-test.benchtime=0.3s >"$TMP/go.out" 2>"$TMP/go.err"
	"$BT" -i "$TMP/go.data" --format json --top 0 >"$TMP/go.json" 2>"$TMP/go.err2" ||
		fail "benchtui -i go.data failed: $(head -3 "$TMP/go.err2")"
	if check printed "$TMP/go.json" "$TMP/go.out" >"$TMP/msg"; then
		ok "Go: ns/op and iterations as go test printed them ($(tail -1 "$TMP/msg"))"
	else
		fail "Go: numbers differ from the printed ones:"; sed 's/^/     /' "$TMP/msg"
	fi
	# the text report's heading of each: "NAME: N ns/op", N as go test printed it
	"$BT" -i "$TMP/go.data" --stdio --top 0 >"$TMP/go.txt" 2>/dev/null
	bad=$(awk '$1 ~ /^Benchmark/ && $4 == "ns/op" { print $1 ": " $3 " ns/op," }' "$TMP/go.out" |
		while read -r want; do grep -qF "## benchmark $want" "$TMP/go.txt" || echo "$want"; done)
	[ -z "$bad" ] && [ "$(grep -c '^## benchmark ' "$TMP/go.txt")" -ge 4 ] &&
		ok "Go: the text report heads each benchmark with its ns/op as printed ($(grep -m1 '^## benchmark ' "$TMP/go.txt"))" ||
		fail "Go: headings: not found: $bad; have: $(grep '^## benchmark ' "$TMP/go.txt" | head -3)"
	# Fib20 has its own code; b.Run's cases are one closure: their windows
	names=$(python3 -c "import json,sys; print('\n'.join(b['name'] for b in json.load(open(sys.argv[1]))['benchmarks']))" "$TMP/go.json")
	fib=$(printf '%s\n' "$names" | grep '^BenchmarkFib20-')
	sums=$(printf '%s\n' "$names" | grep '^BenchmarkSum/')
	check how "$TMP/go.json" probe $names >"$TMP/msg" &&
		check consistent "$TMP/go.json" "$TMP/go.out" "$(printf '%s\n' "$names" | wc -l)" >>"$TMP/msg" &&
		ok "Go: every benchmark by its timer's phases ($(tr '\n' ';' <"$TMP/msg"))" ||
		fail "Go: split: $(tr '\n' ';' <"$TMP/msg")"
	"$BT" -q --no-probes -o "$TMP/gonp.data" --export "$TMP/gonp.json" --format json --top 0 \
		"$GOB" -test.run='^$' -test.bench="$GO_ALL" -test.benchtime=0.1s >"$TMP/run.out" 2>&1
	check how "$TMP/gonp.json" chain "$fib" >"$TMP/msg" &&
		check how "$TMP/gonp.json" window $sums >>"$TMP/msg" &&
		ok "Go --no-probes: a benchmark by its entry frame, b.Run's cases (one closure) by window ($(tr '\n' ';' <"$TMP/msg"))" ||
		fail "Go --no-probes: split: $(tr '\n' ';' <"$TMP/msg")"
	# StopTimer: the work between StopTimer and StartTimer is untimed
	"$BT" -q -o "$TMP/gost.data" --export "$TMP/gost.json" --format json --top 0 \
		"$GOB" -test.run='^$' -test.bench='^BenchmarkStopTimer$' -test.benchtime=0.3s >"$TMP/run.out" 2>&1
	st=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['benchmarks'][0]['name'])" "$TMP/gost.json" 2>/dev/null)
	check untimed "$TMP/gost.json" "$st" >"$TMP/msg" &&
		ok "Go: StopTimer's work is shown apart ($(cat "$TMP/msg"))" ||
		fail "Go: StopTimer: $(cat "$TMP/msg")"
	# a lone sub-benchmark: its own phases, not 4 samples
	"$BT" -q -o "$TMP/gosub.data" --export "$TMP/gosub.json" --format json --top 0 \
		"$GOB" -test.run='^$' -test.bench='^BenchmarkSum$/^n=512$' -test.benchtime=0.3s >"$TMP/run.out" 2>&1
	python3 - "$TMP/gosub.json" >"$TMP/msg" <<'PY' &&
import json, sys
b = json.load(open(sys.argv[1]))["benchmarks"]
print("; ".join("%s: %s, %s samples, findings %s" % (x["name"], x.get("split"), x.get("samples"),
      [f["check"] for f in x["findings"]]) for x in b))
ok = len(b) == 1 and b[0].get("split") == "probe" and b[0].get("samples", 0) > 200 and \
     not any(f["check"] == "few-samples" for f in b[0]["findings"]) and \
     b[0]["functions"][0]["name"].endswith("BenchmarkSum.func1")
sys.exit(0 if ok else 1)
PY
		ok "Go: a lone sub-benchmark gets its measured phase ($(cat "$TMP/msg"))" ||
		fail "Go: lone sub-benchmark: $(cat "$TMP/msg")"
	for name in BenchmarkFib20 BenchmarkPopcntKept; do
		full=$(python3 -c "import json,sys; print([b['name'] for b in json.load(open(sys.argv[1]))['benchmarks'] if b['name'].split('-')[0] == sys.argv[2]][0])" "$TMP/go.json" "$name" 2>/dev/null)
		"$BT" -q -o "$TMP/alone.data" --export "$TMP/alone.json" --format json --top 0 \
			"$GOB" -test.run='^$' -test.bench="^$name\$" -test.benchtime=0.3s >"$TMP/run.out" 2>&1
		if [ -n "$full" ] && check split "$TMP/go.json" "$TMP/alone.json" "$full" >"$TMP/msg"; then
			ok "Go split agrees with -test.bench: $(cat "$TMP/msg")"
		else
			fail "Go split disagrees with the run alone: $full $(cat "$TMP/msg")"
		fi
		alone_more || break
	done
	pop=$(python3 -c "import json,sys; print([b['name'] for b in json.load(open(sys.argv[1]))['benchmarks'] if b['name'].split('-')[0] == 'BenchmarkPopcnt'][0])" "$TMP/go.json")
	kept=$(python3 -c "import json,sys; print([b['name'] for b in json.load(open(sys.argv[1]))['benchmarks'] if b['name'].split('-')[0] == 'BenchmarkPopcntKept'][0])" "$TMP/go.json")
	# 0.3-0.7 ns/op here: an empty loop, or under one cycle at 2.3 GHz
	check findings "$TMP/go.json" "$pop" 'empty-loop|optimized-away' >"$TMP/msg" &&
		check message "$TMP/go.json" "$pop" 'empty-loop|optimized-away' "package-level variable" \
			"the work was removed by the compiler" &&
		ok "Go: $pop is flagged as optimized away (its loop), with b.N sink advice" ||
		{ fail "Go: $pop not flagged:"; cat "$TMP/msg"; }
	check findings "$TMP/go.json" "$kept" >"$TMP/msg" &&
		ok "Go: no finding on the fixed $kept next to it" ||
		{ fail "Go: a finding on healthy $kept:"; cat "$TMP/msg"; }
fi
# --- tinybench: its table comes at the end; each task by the order its
# entry frame (a JIT function) first ran
if ! command -v node >/dev/null; then
	skipped "tinybench: node is missing"
elif ! (cd "$TOP" && sh scripts/js-deps.sh build/js) >"$TMP/msg" 2>&1; then
	skipped "tinybench: its npm package cannot be installed: $(head -1 "$TMP/msg")"
else
	JS=$TOP/build/js
	cp "$TOP"/tests/fixtures/js/*.mjs "$JS/"
	(cd "$JS" && "$BT" -q -o "$TMP/tb.data" --export "$TMP/tb.json" --format json --top 0 \
		node tinybench.mjs tinybench 300) >"$TMP/run.out" 2>&1
	check how "$TMP/tb.json" chain 'fib(15)' 'sum squares 256' 'popcnt dead' >"$TMP/msg" &&
		check hottest "$TMP/tb.json" 'fib(15)' "work.mjs:2:20" &&
		ok "tinybench: each task through its own function ($(cat "$TMP/msg"))" ||
		fail "tinybench: $(cat "$TMP/msg")"
	# tinybench 2.x (installed as tinybench2): its own loop, the same split
	(cd "$JS" && "$BT" -q -o "$TMP/tb2.data" --export "$TMP/tb2.json" --format json --top 0 \
		node tinybench.mjs tinybench2 300) >"$TMP/run.out" 2>&1
	check how "$TMP/tb2.json" chain 'fib(15)' 'sum squares 256' 'popcnt dead' >"$TMP/msg" &&
		ok "tinybench 2.x: each task through its own function ($(cat "$TMP/msg"))" ||
		fail "tinybench 2.x: $(cat "$TMP/msg")"
	for name in 'fib(15)' 'sum squares 256'; do
		(cd "$JS" && "$BT" -q -o "$TMP/alone.data" --export "$TMP/alone.json" --format json \
			--top 0 node tinybench-one.mjs "$name" 300) >"$TMP/run.out" 2>&1
		if check split "$TMP/tb.json" "$TMP/alone.json" "$name" >"$TMP/msg"; then
			ok "tinybench split agrees with the task alone: $(cat "$TMP/msg")"
		else
			fail "tinybench split disagrees with the task alone: $(cat "$TMP/msg")"
		fi
		alone_more || break
	done
fi
# --- bench-node: its lines come at the end too (the same split)
if [ -n "${JS:-}" ] && [ -d "$JS/node_modules/bench-node" ]; then
	(cd "$JS" && "$BT" -q -o "$TMP/bn.data" --export "$TMP/bn.json" --format json --top 0 \
		node --allow-natives-syntax benchnode.mjs 0.3) >"$TMP/run.out" 2>&1
	check how "$TMP/bn.json" chain 'fib(15)' 'sum squares 256' 'lodash camelCase' 'popcnt dead' \
		>"$TMP/msg" && check hottest "$TMP/bn.json" 'fib(15)' "work.mjs:2:20" &&
		ok "bench-node: each benchmark through its own function ($(cat "$TMP/msg"))" ||
		fail "bench-node: $(cat "$TMP/msg")"
	(cd "$JS" && "$BT" -q -o "$TMP/alone.data" --export "$TMP/alone.json" --format json \
		--top 0 node --allow-natives-syntax benchnode.mjs 0.3 '^fib') >"$TMP/run.out" 2>&1
	if check split "$TMP/bn.json" "$TMP/alone.json" 'fib(15)' >"$TMP/msg"; then
		ok "bench-node split agrees with its run alone: $(cat "$TMP/msg")"
	else
		fail "bench-node split disagrees with the run alone: $(cat "$TMP/msg")"
	fi
fi
# --- criterion (the binary from the machine's cache: tests/lib.sh, crit_fixture)
if ! have_criterion; then
	skipped "criterion: Debian's cargo, rustc or librust-criterion-dev is missing"
elif ! CRIT=$(crit_fixture); then
	fail "criterion: cannot build tests/fixtures/rustbench"
else
	(cd "$TMP" && CRITERION_HOME=$TMP/criterion "$BT" -q -o "$TMP/crit.data" "$CRIT" --bench \
		--warm-up-time 1 --measurement-time 1 --sample-size 10 --noplot \
		'^fib 15$|popcnt_dead') >"$TMP/crit.out" 2>&1
	"$BT" -i "$TMP/crit.data" --format json --top 0 >"$TMP/crit.json" 2>"$TMP/crit.err" ||
		fail "benchtui -i crit.data failed: $(head -3 "$TMP/crit.err")"
	check criterion "$TMP/crit.json" "$TMP/crit.out" >"$TMP/msg" &&
		ok "criterion: estimates and intervals as printed ($(tail -1 "$TMP/msg"))" ||
		{ fail "criterion: numbers differ from the printed ones:"; cat "$TMP/msg"; }
	check how "$TMP/crit.json" probe 'fib 15' popcnt_dead >"$TMP/msg" &&
		check untimed "$TMP/crit.json" 'fib 15' >>"$TMP/msg" &&
		ok "criterion: measured by Routine::sample, warm-up and analysis apart ($(tr '\n' ';' <"$TMP/msg"))" ||
		fail "criterion: $(tr '\n' ';' <"$TMP/msg")"
	# its measurement is ~0 s: nothing measured, and said so
	check findings "$TMP/crit.json" popcnt_dead optimized-away >"$TMP/msg" &&
		check message "$TMP/crit.json" popcnt_dead optimized-away "black_box" &&
		ok "criterion: popcnt_dead optimized away (0 ps), black_box advice" ||
		{ fail "criterion: popcnt_dead:"; cat "$TMP/msg"; }
	# the split against fib 15 alone, through criterion's own filter
	(cd "$TMP" && CRITERION_HOME=$TMP/criterion "$BT" -q -o "$TMP/alone.data" \
		--export "$TMP/alone.json" --format json --top 0 "$CRIT" --bench \
		--warm-up-time 1 --measurement-time 1 --sample-size 10 --noplot '^fib 15$') \
		>"$TMP/run.out" 2>&1
	if check split "$TMP/crit.json" "$TMP/alone.json" 'fib 15' >"$TMP/msg"; then
		ok "criterion split agrees with its filter: $(cat "$TMP/msg")"
	else
		fail "criterion split disagrees with the run alone: $(cat "$TMP/msg")"
	fi
	check findings "$TMP/crit.json" 'fib 15' >"$TMP/msg" &&
		check hottest "$TMP/crit.json" 'fib 15' fib &&
		ok "criterion: fib 15 beside it: fib is its hottest function, no finding" ||
		{ fail "criterion: fib 15:"; cat "$TMP/msg"; }
fi
finish
