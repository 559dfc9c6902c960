#!/bin/bash
# Lint from each benchmark's measured phase (issue 26, docs/lint.md
# "Measured phase"): planted lies and healthy twins doing real work at a
# similar speed, built here, recorded with the harness's probes:
#  - Google Benchmark (tests/fixtures/lintphase.cc) and go test
#    (tests/fixtures/golint): a body the compiler removed is
#    optimized-away from the CPU time (GB's CPU column, the profile's for
#    Go) even where the wall clock of a busy machine says more than a
#    cycle; set-up between PauseTiming/StopTimer and the restart is
#    untimed-work, with its functions named; pausing around nothing every
#    iteration is timer-dominated, naming the harness's calls; each twin
#    gets none of these;
#  - machine-busy: the same programs beside a busy loop pinned to their
#    CPU (taskset both) are flagged; run alone, a benchmark whose own CPU
#    and real times (GB's columns) agree within 5% is not; and the lies
#    are still flagged the same on the busy machine.
#  - JMH (with BT_JMH, as tests/test-jmh.sh): jit-recompiled when the hot
#    code was compiled during the measurement iterations (-wi 0), not
#    when during the warm-up ones (-wi 3).
. tests/lib.sh
need_recording
command -v python3 >/dev/null || skip "python3 is missing"

cat >"$TMP/check.py" <<'EOF'
import json, re, sys

PHASE = {"optimized-away", "empty-loop", "untimed-work", "timer-dominated",
         "machine-busy"}

def bench(path, name):
    js = json.load(open(path))
    # Go's -GOMAXPROCS suffix: none when pinned to one CPU
    b = [x for x in js.get("benchmarks", [])
         if x["name"] == name or re.fullmatch(re.escape(name) + r"-\d+", x["name"])]
    if not b:
        print("no benchmark %s (%s)" % (name, [x["name"] for x in js.get("benchmarks", [])]))
        sys.exit(1)
    return b[0]

cmd, path, name = sys.argv[1], sys.argv[2], sys.argv[3]
b = bench(path, name)
got = {f["check"] for f in b["findings"]}
for f in b["findings"]:
    print("   | %s: %s" % (f["check"], f["message"][:400]))
if cmd == "has":
    # NAME CHECK TEXT...: a CHECK finding ("a|b": either) whose message says every TEXT
    want = sys.argv[4].split("|")
    m = [f["message"] for f in b["findings"] if f["check"] in want]
    sys.exit(0 if m and all(t in m[0] for t in sys.argv[5:]) else 1)
elif cmd == "quiet":
    # NAME [CHECK...]: none of the phase checks but the CHECKs named
    bad = (got & PHASE) - set(sys.argv[4:])
    sys.exit(1 if bad else 0)
elif cmd == "cpu":
    # NAME: GB's CPU time over its real time, as printed ("5.67 ns" each)
    out = open(sys.argv[4], errors="replace").read().splitlines()
    unit = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}
    for l in out:
        t = l.split()
        if len(t) >= 5 and t[0] == name and t[2] in unit and t[4] in unit:
            print("%.3f" % ((float(t[3]) * unit[t[4]]) / (float(t[1]) * unit[t[2]])))
            sys.exit(0)
    sys.exit(1)
EOF
check() { python3 "$TMP/check.py" "$@"; }

# record OUT.json CMD...: record CMD with probes; its benchmarks as JSON
# (run as $PIN CMD: "taskset -c N" beside a busy loop, see busy)
PIN=
record() {
	out=$1; shift
	$PIN "$BT" -q -o "$TMP/r.data" "$@" >"${out%.json}.out" 2>"${out%.json}.err"
	"$BT" -i "$TMP/r.data" --format json --top 0 >"$out" 2>>"${out%.json}.err"
}
# busy record ARGS...: record pinned to one CPU beside a busy loop pinned there too
busy() {
	taskset -c "$CPU" sh -c 'while :; do :; done' &
	spin=$!
	PIN="taskset -c $CPU"
	"$@"
	PIN=
	kill "$spin"
	wait "$spin" 2>/dev/null
}
probed() {	# FILE: split by the harness's probes (else the checks cannot run here)
	python3 -c 'import json, sys
b = json.load(open(sys.argv[1])).get("benchmarks", [])
sys.exit(0 if b and all(x.get("split") == "probe" for x in b) else 1)' "$1"
}
# expect FILE NAME CHECK TEXT... / quiet FILE NAME [CHECK...]: said with the reason
expect() {
	if check has "$@" >"$TMP/msg"; then
		ok "$2: $3, saying '$4' ($(basename "$1" .json))"
	else
		fail "$2: no $3 saying '${*:4}' ($(basename "$1" .json)):"; sed 's/^/     /' "$TMP/msg"
	fi
}
quiet() {
	if check quiet "$@" >"$TMP/msg"; then
		ok "$2: no false alarm ($(basename "$1" .json))"
	else
		fail "$2: a false alarm ($(basename "$1" .json)):"; sed 's/^/     /' "$TMP/msg"
	fi
}

CPU=$(taskset -cp $$ 2>/dev/null | sed 's/.*: *//; s/[-,].*//')
CPU=${CPU:-0}

# --- Google Benchmark --------------------------------------------------------
GB=$FIX/lintphase
gb_build() {
	[ -x "$GB" ] && [ "$GB" -nt "$TOP/tests/fixtures/lintphase.cc" ] && return 0
	g++ -O2 -g -fno-omit-frame-pointer -o "$GB" "$TOP/tests/fixtures/lintphase.cc" \
		-lbenchmark -lpthread
}
GB_LIES='BM_search_dead BM_untimed BM_pause_tiny'
GB_TWINS='BM_search BM_timed BM_pause_big'
if [ ! -f /usr/include/benchmark/benchmark.h ] || ! command -v g++ >/dev/null; then
	skipped "Google Benchmark: g++ or libbenchmark-dev is missing"
elif ! gb_build; then
	fail "cannot build tests/fixtures/lintphase.cc"
else
	record "$TMP/gb.json" "$GB" --benchmark_min_time=0.1
	if ! probed "$TMP/gb.json"; then
		skipped "GB: not split by probes here: $(head -2 "$TMP/gb.err")"
	else
		for run in gb gbbusy; do
			[ $run = gbbusy ] && busy record "$TMP/gbbusy.json" "$GB" --benchmark_min_time=0.1
			f=$TMP/$run.json
			# one iteration of its loop is about a cycle of the clock
			# measured at recording (4.2 GHz here, where /proc/cpuinfo says
			# 2.6): below a cycle it is optimized-away from GB's CPU column,
			# else the loop that only counts is empty-loop; either way,
			# the DoNotOptimize advice
			if check has "$f" BM_search_dead optimized-away >/dev/null; then
				expect "$f" BM_search_dead optimized-away "less than one cycle" \
					"the harness's CPU column" "benchmark::DoNotOptimize"
			else
				expect "$f" BM_search_dead empty-loop "only count" \
					"benchmark::DoNotOptimize"
			fi
			expect "$f" BM_untimed untimed-work "PauseTiming" "BM_untimed" \
				"the number and the profile describe different code"
			expect "$f" BM_pause_tiny timer-dominated "state.PauseTiming()/ResumeTiming()" \
				"UseManualTime"
			# machine-busy is this shared machine's load: below
			for t in $GB_TWINS; do quiet "$f" "$t" machine-busy; done
		done
		# busy: the twins got about half of their CPU, and the lint says so
		for t in BM_search BM_timed; do
			r=$(check cpu "$TMP/gbbusy.json" "$t" "$TMP/gbbusy.out" | tail -1)
			expect "$TMP/gbbusy.json" "$t" machine-busy "% of a CPU" "taskset"
			echo "     ($t: CPU/real $r beside the busy loop)"
		done
		# alone, on a machine others share: where GB's own columns agree,
		# no machine-busy; where they say less than 80% of a CPU, it is said
		for t in $GB_TWINS; do
			r=$(check cpu "$TMP/gb.json" "$t" "$TMP/gb.out" | tail -1)
			case $r in
			0.9[5-9]*|1.*) quiet "$TMP/gb.json" "$t" ;;
			0.[0-7]*) expect "$TMP/gb.json" "$t" machine-busy "% of a CPU" \
				"its CPU time" ;;
			*) skipped "$t alone got $r of a CPU (GB's CPU/real): between the two" ;;
			esac
		done
		# the wall clock of the busy run alone would not have said it
		w=$(grep '^BM_search_dead' "$TMP/gbbusy.out" | awk '{ print $2 }')
		echo "     (BM_search_dead beside the busy loop: $w ns real, $(grep '^BM_search_dead' \
			"$TMP/gbbusy.out" | awk '{ print $4 }') ns CPU)"
	fi
fi

# --- go test -----------------------------------------------------------------
if ! command -v go >/dev/null; then
	skipped "go: no Go toolchain"
else
	GO=$(go_fixture golint)
	for run in go gobusy; do
		f=$TMP/$run.json
		if [ $run = go ]; then
			record "$f" "$GO" -test.bench='Popcnt|Setup' -test.benchtime=0.2s
			probed "$f" || { skipped "go: not split by probes here: $(head -2 "$TMP/go.err")"; break; }
		else
			busy record "$f" "$GO" -test.bench='Popcnt|Setup' -test.benchtime=0.2s
		fi
		expect "$f" BenchmarkPopcntDead 'optimized-away|empty-loop' "package-level variable"
		expect "$f" BenchmarkSetupHeavy untimed-work "b.StopTimer()/b.StartTimer()" \
			"hottest: " "b.ResetTimer()"
		quiet "$f" BenchmarkPopcntKept machine-busy
		quiet "$f" BenchmarkSetupOnce machine-busy
	done
	if [ -s "$TMP/gobusy.json" ]; then
		expect "$TMP/gobusy.json" BenchmarkPopcntKept machine-busy "% of a CPU" \
			"samples of"
		# StartTimer's memory statistics stop the world every call: 50,000
		# calls, ~3 s. Go's timer measures only its clock reads around the
		# work: the few samples of that are timer-dominated in some runs;
		# the stop-the-world around them, untimed, in all (both name the calls)
		record "$TMP/gostop.json" "$GO" -test.bench=StopTiny -test.benchtime=50000x
		expect "$TMP/gostop.json" BenchmarkStopTiny 'timer-dominated|untimed-work' \
			"b.StopTimer()/b.StartTimer()" "b.ResetTimer()"
	fi
fi
# --- JMH ---------------------------------------------------------------------
# Code compiled during JMH's warm-up iterations is no finding; with none
# (-wi 0) the hot code is compiled while JMH measures
if [ -z "${BT_JMH:-}" ]; then
	skipped "JMH: no JMH build (BT_JMH=DIR, made by tests/tools/jmh-build.sh: docs/benchmarks.md)"
elif ! command -v javac >/dev/null; then
	skipped "JMH: no JDK"
else
	CP=$BT_JMH/jmh-core.jar:${JOPT:-/usr/share/java/joptsimple.jar}:${MATH3:-/usr/share/java/commons-math3.jar}
	mkdir -p "$TMP/jb"
	if ! javac -cp "$CP" -processorpath "$BT_JMH/jmh-generator-annprocess.jar:$CP" \
	    -d "$TMP/jb" "$TOP/tests/fixtures/jmh/JmhBench.java"; then
		fail "JMH: javac JmhBench.java with JMH's annotation processor"
	else
		for wi in 0 3; do
			record "$TMP/jmh$wi.json" java -cp "$TMP/jb:$CP" org.openjdk.jmh.Main \
				-f 1 -wi $wi -i 3 -w 300ms -r 300ms JmhBench.sum
		done
		expect "$TMP/jmh0.json" JmhBench.sum jit-recompiled "into the measured" "-wi N"
		if check quiet "$TMP/jmh3.json" JmhBench.sum machine-busy >"$TMP/msg" &&
		    ! grep -q "jit-" "$TMP/msg"; then
			ok "JmhBench.sum: no JIT finding after 3 warm-up iterations"
		else
			fail "JmhBench.sum -wi 3: a false alarm:"; sed 's/^/     /' "$TMP/msg"
		fi
	fi
fi
finish
