#!/bin/bash
# Call chains through JIT code (docs/callchains.md "Through JIT code", issue
# 24): on benchtui's own recordings of node (the tinybench fixture; with its
# jitdump, and with a perf map) and java (tests/fixtures/Hot.java), every
# frame of a chain in jitdump or perf-map code is its
# JIT function, so callers, callees, inclusive samples and
# --benchmark-frames work as on native code. Oracle: the kernel's
# frame-pointer chains of the same samples, as perf script prints them on a
# copy of the recording without its stack copies (tests/tools/pd-fp-only.py)
# after `perf inject --jit`; benchtui's chains of the recording itself
# (unwind-dump --frames) must be rooted where perf's are, with every JIT
# frame named as perf names it (tests/tools/fp-agree.py).
. tests/lib.sh
export LC_ALL=C
AGREE="python3 $TOP/tests/tools/fp-agree.py"
UD=$TOP/$BUILD/tools/unwind-dump
[ -x "$UD" ] || skip "$UD is not built (make tools)"
command -v perf >/dev/null || skip "perf is not installed: no oracle"
perf record -q -e cpu-clock -o "$TMP/probe.data" true >/dev/null 2>&1 ||
	skip "perf record refused here: no oracle"
need_recording

# perf_chains WHAT DIR REC: the kernel's frame-pointer chains of REC's
# samples, JIT frames named by perf inject (the dump where the recording
# mapped it, the jitted-PID-N.so files beside it) into DIR/perf.txt
perf_chains() {
	python3 "$TOP/tests/tools/pd-fp-only.py" "$3" "$2/fp.data" >/dev/null &&
		perf inject --jit -i "$2/fp.data" -o "$2/inj.data" 2>"$TMP/err" &&
		perf script -i "$2/inj.data" -F tid,time,ip,sym,dso --ns --no-inline \
			>"$2/perf.txt" 2>/dev/null && [ -s "$2/perf.txt" ] ||
		{ fail "$1: no perf chains: $(head -c 300 "$TMP/err")"; return 1; }
}

# agree WHAT DIR REC ROOTS...: benchtui's chains against perf's
agree() {
	what=$1 dir=$2 rec=$3; shift 3
	"$UD" "$rec" --frames >"$dir/bt.txt"
	if $AGREE "$dir/perf.txt" "$dir/bt.txt" --jit --min 98 "$@" >"$dir/agree"; then
		ok "$what: chains rooted where perf's frame-pointer chains are, every JIT frame named:$(sed -n '1s/^[^:]*://p' "$dir/agree");$(sed -n '2,$s/ by perf//p' "$dir/agree" | head -2 | tr -s ' \n' ' ')"
	else
		fail "$what: chains differ from perf's frame-pointer chains:"
		sed 's/^/      /' "$dir/agree"
	fi
}

# --- node: the tinybench fixture -----------------------------------------
if ! command -v node >/dev/null; then
	skipped "node is not installed"
elif ! (cd "$TOP" && sh scripts/js-deps.sh "$TMP/js") >"$TMP/deps" 2>&1; then
	skipped "node: the tinybench package cannot be installed: $(head -c 200 "$TMP/deps")"
else
	d=$TMP/js
	cp "$TOP"/tests/fixtures/js/*.mjs "$d/"
	(cd "$d" && "$BT" -q -o tb.data --export tb.json --format json --top 0 \
		node tinybench.mjs tinybench 100 >/dev/null 2>"$TMP/err") ||
		fail "node: benchtui failed: $(head -c 300 "$TMP/err")"
	# the task running fib: tinybench's loop its caller, fib its callee
	python3 - "$d/tb.json" >"$TMP/task" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
# the task's version with the most samples under it
for f in sorted(d["functions"], key=lambda f: -f["inclusive_samples"]):
    callees = [c for c in f["callees"] if c["name"].startswith("JS:") and c["name"].split(" ")[0][4:] == "fib"]
    if "tinybench.mjs:" not in f["name"] or not callees:
        continue
    loop = [c for c in f["callers"] if "/node_modules/tinybench/" in c["name"]]
    print("%s: %d samples, %d inclusive; callers: tinybench's loop %d of %d; callee fib %d" % (
        f["name"].rsplit("/", 1)[-1], f["samples"], f["inclusive_samples"],
        sum(c["samples"] for c in loop), sum(c["samples"] for c in f["callers"]),
        sum(c["samples"] for c in callees)))
    ok = (f["inclusive_samples"] > 5 * max(f["samples"], 1) and loop and
          sum(c["samples"] for c in loop) * 10 >= sum(c["samples"] for c in f["callers"]) * 9)
    sys.exit(0 if ok else 1)
print("no function of tinybench.mjs calls fib")
sys.exit(1)
PY
	if [ $? = 0 ]; then ok "node tinybench: $(cat "$TMP/task")"; else fail "node tinybench: $(cat "$TMP/task")"; fi
	# --benchmark-frames on the task's position: fib is its hottest function
	pos=$(sed -n 's/^.*\(tinybench\.mjs:[0-9]*:[0-9]*\): .*/\1/p' "$TMP/task")
	(cd "$d" && "$BT" -i tb.data --export bf.json --format json --top 0 \
		--benchmark-frames "*$pos" 2>/dev/null)
	python3 - "$d/bf.json" >"$TMP/bf" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
b = sorted((b for b in d["benchmarks"] if b["harness"] == "frames"), key=lambda b: -b["samples"])
if not b or not b[0]["functions"]:
    print("no benchmark from --benchmark-frames")
    sys.exit(1)
top = b[0]["functions"][0]
print("--benchmark-frames on the task: %d samples, hottest %s %.0f%%" % (
    b[0]["samples"], top["name"].split(" ")[0], top["percent"]))
sys.exit(0 if top["name"].startswith("JS:") and top["name"].split(" ")[0][4:] == "fib" else 1)
PY
	if [ $? = 0 ]; then ok "node tinybench: $(cat "$TMP/bf")"; else fail "node tinybench: $(cat "$TMP/bf")"; fi
	# perf inject finds the dump where V8 wrote it (benchtui moved it)
	cp "$d"/tb.data.jit/jit-*.dump "$d/"
	perf_chains node "$d" "$d/tb.data" &&
		agree "node tinybench" "$d" "$d/tb.data" --root __libc_start_call_main \
			--root start_thread --outermost start_thread
	# a perf map instead (node --perf-basic-prof as given, /tmp/perf-PID.map):
	# perf script reads the map itself
	m=$TMP/jsmap
	mkdir -p "$m"
	(cd "$d" && "$BT" -q --no-jit -o "$m/pm.data" node --perf-basic-prof \
		tinybench.mjs tinybench 50 >/dev/null 2>"$TMP/err") ||
		fail "node --perf-basic-prof: benchtui failed: $(head -c 300 "$TMP/err")"
	python3 "$TOP/tests/tools/pd-fp-only.py" "$m/pm.data" "$m/fp.data" >/dev/null &&
		perf script -i "$m/fp.data" -F tid,time,ip,sym,dso --ns --no-inline \
			>"$m/perf.txt" 2>/dev/null
	if grep -q '(/tmp/perf-[0-9]*\.map)$' "$m/perf.txt"; then
		agree "node --perf-basic-prof (a perf map)" "$m" "$m/pm.data" \
			--root __libc_start_call_main --root start_thread --outermost start_thread
	else
		fail "node --perf-basic-prof: perf names no frame from a perf map"
	fi
	rm -f $(grep -o '(/tmp/perf-[0-9]*\.map)$' "$m/perf.txt" | sort -u | tr -d '()')
fi

# --- java: Hot.java --------------------------------------------------------
if ! command -v java >/dev/null || ! command -v javac >/dev/null; then
	skipped "no JDK"
elif [ ! -f "$TOP/$BUILD/libbenchtui-jvmti.so" ]; then
	skipped "java: the JVMTI agent is not built (make agent)"
else
	d=$TMP/java
	mkdir -p "$d"
	java_fixture Hot "$d" || fail "javac failed"
	(cd "$d" && "$BT" -q -o hot.data --export hot.json --format json --top 0 \
		java -cp . Hot >/dev/null 2>"$TMP/err") ||
		fail "java: benchtui failed: $(head -c 300 "$TMP/err")"
	python3 - "$d/hot.json" >"$TMP/run" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
f = [f for f in d["functions"] if f["name"].startswith("Hot.run(I)D [c2")][0]
c = {c["name"]: c["samples"] for c in f["callers"]}
i = [g for g in d["functions"] if g["name"] == "Interpreter"]
print("%s: %d samples, called from the Interpreter (main) in %d; the Interpreter %d inclusive" % (
    f["name"], f["samples"], c.get("Interpreter", 0), i[0]["inclusive_samples"] if i else 0))
sys.exit(0 if c.get("Interpreter", 0) * 10 >= f["samples"] * 9 and i and
         i[0]["inclusive_samples"] >= f["inclusive_samples"] else 1)
PY
	if [ $? = 0 ]; then ok "java Hot: $(cat "$TMP/run")"; else fail "java Hot: $(cat "$TMP/run")"; fi
	perf_chains java "$d" "$d/hot.data" &&
		agree "java Hot" "$d" "$d/hot.data" --root start_thread --outermost start_thread
fi
finish
