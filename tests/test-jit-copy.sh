#!/bin/bash
# Code bytes for runtimes that write only names (docs/jit.md "Code copied
# at exit", issue 15): benchtui holds the command at its exit (ptrace,
# PTRACE_O_TRACEEXIT) and copies the ranges its perf map names into
# FILE.jit/copy-PID.dump. Real java with benchtui's agent turned off
# (the -XX:+DumpPerfMapAtExit fallback): the hot method is annotated
# instruction by instruction; its copied bytes decode (objdump) to the
# instructions benchtui shows, and equal the bytes our JVMTI agent wrote
# for the same method in a run that has both. A command that is not a
# map-only runtime is never traced; exit status, signals and Ctrl-C are
# as without the copy.
. tests/lib.sh
export LC_ALL=C
JD=$TOP/$BUILD/tools/jit-dump
[ -x "$JD" ] || make -s "$BUILD/tools/jit-dump" >/dev/null 2>&1 || skip "cannot build jit-dump"
if ! "$BT" -q -o "$TMP/probe.bt" true >/dev/null 2>&1; then
	skip "benchtui cannot record here (perf_event_open refused)"
fi

# tracer CMD...: the TracerPid the command sees for itself
tracer() { "$BT" -q --stdio --top 0 -o "$TMP/tr.data" "$@" 2>/dev/null | sed -n 's/^TracerPid:[[:space:]]*//p' | head -1; }
t=$(tracer sh -c 'grep TracerPid /proc/$$/status')
[ "$t" = 0 ] && ok "a command that is not a JIT runtime is not traced" ||
	fail "sh traced without --jit-copy: TracerPid '$t'"
t=$(tracer --jit-copy sh -c 'grep TracerPid /proc/$$/status')
[ -n "$t" ] && [ "$t" != 0 ] && ok "--jit-copy: traced (by $t)" ||
	fail "--jit-copy: TracerPid '$t'"

# exit status and death by a signal are reported as without the copy
"$BT" -q --stdio --top 0 --jit-copy -o "$TMP/st.data" sh -c 'exit 3' >/dev/null 2>"$TMP/err"
grep -q "exited with status 3" "$TMP/err" && ok "--jit-copy: exit status 3 reported" ||
	fail "--jit-copy exit status: $(cat "$TMP/err")"
"$BT" -q --stdio --top 0 --jit-copy -o "$TMP/sig.data" sh -c 'kill -SEGV $$' >/dev/null 2>"$TMP/err"
grep -q "killed by signal 11" "$TMP/err" && ok "--jit-copy: killed by signal 11 reported" ||
	fail "--jit-copy signal: $(cat "$TMP/err")"
# a signal on its way to the traced child is delivered: its handler runs
"$BT" -q --stdio --top 0 --jit-copy -o "$TMP/usr.data" sh -c 'trap "echo got-usr1" USR1; kill -USR1 $$; exit 0' \
	>"$TMP/out" 2>"$TMP/err"
grep -q got-usr1 "$TMP/out" && ok "--jit-copy: a signal reaches the child's handler" ||
	fail "--jit-copy: SIGUSR1 lost: $(cat "$TMP/out" "$TMP/err")"
# Ctrl-C (SIGINT to benchtui and the child): the run stops, the profile is kept
"$BT" --jit-copy -o "$TMP/int.data" --stdio --top 0 sleep 20 >"$TMP/int.txt" 2>"$TMP/int.err" &
pid=$!
for i in $(seq 100); do
	child=$(pgrep -P $pid)
	[ -n "$child" ] && [ "$(cat /proc/"$child"/comm 2>/dev/null)" = sleep ] && break
	sleep 0.05
done
sleep 0.2
kill -INT $pid ${child:-}
start=$(date +%s)
wait $pid
rc=$?
if grep -q "interrupted" "$TMP/int.err" && [ -s "$TMP/int.data" ] && [ $(( $(date +%s) - start )) -lt 5 ]; then
	ok "--jit-copy, Ctrl-C: stopped, profile kept (exit $rc)"
else
	fail "--jit-copy, Ctrl-C (exit $rc): $(cat "$TMP/int.err")"
fi

if ! command -v java >/dev/null || ! command -v javac >/dev/null; then
	skipped "no JDK (scripts/deps.sh installs openjdk-17-jdk-headless): no java copy"
	finish
fi
J=$TMP/java
mkdir -p "$J"
cp "$TOP/tests/fixtures/Hot.java" "$J/" && java_fixture Hot "$J" || { fail "javac Hot.java"; finish; }

# java, agent turned off: names from DumpPerfMapAtExit, code copied at exit
(cd "$J" && BENCHTUI_JVMTI=/nonexistent "$BT" -o map.data --format json --export map.json \
	--top 1 java -cp . Hot >/dev/null 2>map.err)
pid=$(sed -n 's/.*copy-\([0-9]*\)\.dump.*/\1/p' "$J/map.err" | head -1)
if grep -q "JIT code copied at exit: [1-9]" "$J/map.err" && [ -n "$pid" ] &&
    [ -s "$J/map.data.jit/copy-$pid.dump" ]; then
	ok "java without the agent: $(grep -o 'JIT code copied at exit: [^;]*KiB' "$J/map.err")"
else
	fail "java without the agent: no copy: $(cat "$J/map.err")"
	finish
fi
left=$(ls /tmp/perf-$pid.map "$J"/*.dump "$J"/map.data.jit/*.tmp 2>/dev/null)
[ -z "$left" ] && ok "nothing left in /tmp or the working directory" || fail "left behind: $left"
python3 - "$J/map.json" >"$TMP/top" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
f = d["functions"][0]
a = d["annotations"][0]
ins = [r for r in a["rows"] if r["kind"] == "insn"]
hot = [r for r in ins if r["samples"]]
if f["module"] != "[jit]" or "Hot.run" not in f["name"] or len(hot) < 3 or \
   sum(r["samples"] for r in ins) != f["samples"]:
    print("top %r in %r: %d instructions, %d with samples" % (f["name"], f["module"], len(ins), len(hot)))
    sys.exit(1)
print("%s %.1f%%, %d instructions, %d with samples" % (f["name"], f["percent"], len(ins), len(hot)))
for r in ins:
    print("I", int(r["address"], 16))
PY
if [ $? -eq 0 ]; then
	ok "java without the agent: top $(head -1 "$TMP/top")"
else
	fail "java without the agent: $(cat "$TMP/top")"
	finish
fi
# oracle: objdump of the copied bytes of that function gives the same instructions
first=$(awk '$1=="I"{print $2; exit}' "$TMP/top")
"$JD" dump "$J/map.data.jit/copy-$pid.dump" loads >"$TMP/loads"
"$JD" dump "$J/map.data.jit/copy-$pid.dump" hex >"$TMP/hex"
idx=$(while read -r i a n rest; do case $i in *[!0-9]*|"") continue;; esac; [ $((a)) = "$first" ] && { echo $i; break; }; done <"$TMP/loads")
if [ -z "$idx" ]; then
	fail "no copied load at the top function's address $(printf %x "$first")"
elif ! command -v objdump >/dev/null; then
	skipped "objdump is not installed: copied bytes not decoded"
else
	awk -v i="$idx" '$1 == i {print $2}' "$TMP/hex" | xxd -r -p >"$TMP/code.bin"
	objdump -D -b binary -m i386:x86-64 --adjust-vma="$first" "$TMP/code.bin" |
		sed -n 's/^ *\([0-9a-f]*\):\t[^\t]*\t.*/\1/p' | while read -r a; do echo $((16#$a)); done >"$TMP/od"
	awk '$1=="I"{print $2}' "$TMP/top" >"$TMP/bt"
	if cmp -s "$TMP/od" "$TMP/bt"; then
		ok "objdump of the copied bytes: the same $(wc -l <"$TMP/bt") instruction addresses"
	else
		fail "objdump of the copied bytes and benchtui's instructions differ"
		diff "$TMP/od" "$TMP/bt" | head -10
	fi
fi

# oracle: one run with both the agent's jitdump and the exit map; the bytes
# copied for each compiled method equal the agent's for the same address and size
# (the agent is never built with sanitizers: the one of the plain build serves)
agent=$TOP/$BUILD/libbenchtui-jvmti.so
[ -f "$agent" ] || agent=$TOP/build/libbenchtui-jvmti.so
if [ ! -f "$agent" ]; then
	skipped "benchtui's JVMTI agent is not built: no byte comparison"
	finish
fi
(cd "$J" && BENCHTUI_JVMTI=$agent "$BT" -q --stdio --top 0 --jit-copy -o both.data java -XX:+UnlockDiagnosticVMOptions \
	-XX:+DumpPerfMapAtExit -cp . Hot >/dev/null 2>both.err)
cp=$(ls "$J"/both.data.jit/copy-*.dump 2>/dev/null | head -1)
ag=$(ls "$J"/both.data.jit/jit-*.dump 2>/dev/null | head -1)
if [ -z "$cp" ] || [ -z "$ag" ]; then
	fail "agent and copy in one run: $(ls "$J"/both.data.jit 2>&1) $(cat "$J/both.err")"
	finish
fi
python3 - "$JD" "$cp" "$ag" >"$TMP/cmp" 2>&1 <<'PY'
import subprocess, sys
jd, cp, ag = sys.argv[1:]
def loads(f):
    hx = {}
    for l in subprocess.run([jd, "dump", f, "hex"], capture_output=True, text=True).stdout.splitlines():
        p = l.split(" ")
        if len(p) == 2:
            hx[p[0]] = p[1]
    out = {}
    for l in subprocess.run([jd, "dump", f, "loads"], capture_output=True, text=True).stdout.splitlines():
        p = l.split(" ", 4)
        if len(p) == 5 and p[0].isdigit():
            out[(int(p[1], 16), int(p[2]))] = (p[4], hx.get(p[0], ""))
    return out
c, a = loads(cp), loads(ag)
both = [k for k in c if k in a]
c2 = [k for k in both if " [c2 " in a[k][0] and a[k][0].startswith("Hot.run")]
same = [k for k in both if c[k][1] == a[k][1]]
bad = [k for k in c2 if c[k][1] != a[k][1] or not c[k][1]]
print("%d copied, %d at an address and size of the agent's dump, %d byte for byte equal; "
      "Hot.run by C2: %d version(s), %d differ" % (len(c), len(both), len(same), len(c2), len(bad)))
for k in both:
    if c[k][1] != a[k][1]:
        n = sum(1 for i in range(0, len(c[k][1]), 2) if c[k][1][i:i+2] != a[k][1][i:i+2])
        print("  differs: %s: %d of %d bytes (patched since it was loaded)" % (a[k][0], n, len(c[k][1]) // 2))
sys.exit(1 if not c2 or bad else 0)
PY
if [ $? -eq 0 ]; then
	ok "copied bytes against the agent's jitdump: $(cat "$TMP/cmp")"
else
	fail "copied bytes against the agent's jitdump: $(cat "$TMP/cmp")"
fi

# node --perf-basic-prof (names only), --no-jit --jit-copy: V8 frees its
# code before the process exits, so nothing is left to copy; the names stay
if command -v node >/dev/null; then
	N=$TMP/node
	mkdir -p "$N"
	(cd "$N" && "$BT" --stdio --top 0 --no-jit --jit-copy -o n.data node --perf-basic-prof \
		"$TOP/tests/fixtures/hot.js" >n.txt 2>n.err)
	if grep -q "JIT code copied at exit: 0 of" "$N/n.err" && grep -q "JS:\*hotLoop" "$N/n.txt"; then
		ok "node --perf-basic-prof: named, nothing to copy at exit (V8 freed its code)"
	elif grep -q "JIT code copied at exit: [1-9]" "$N/n.err"; then
		ok "node --perf-basic-prof: $(grep -o 'JIT code copied at exit: [^;]*KiB' "$N/n.err")"
	else
		fail "node --perf-basic-prof --jit-copy: $(cat "$N/n.err")"
	fi
else
	skipped "node is not installed"
fi
finish
