#!/bin/bash
# JIT code at the instruction level with no setup (DESIGN.md §8, issue 15):
# `benchtui node hot.js` and `benchtui java -cp . Hot`, with no flags, open
# on the hot JIT-compiled method, named as the runtime names it, module
# [jit], its instructions annotated with samples and source lines; the
# runtime's files are kept next to the recording, none left in the
# working directory or /tmp. Then perf as the oracle on the same run
# (§9 "JIT names and code"): `perf record -k 1` of the runtime writing
# jitdump, `perf inject --jit`, and perf's attribution of every JIT sample
# (perf script on both files) equals what `benchtui -i` shows of perf's
# recording, name and address by address (tests/tools/jit-agree.py); the
# hottest JIT symbol of `perf report` on the injected file is benchtui's
# hottest [jit] function. And a perf map (`node --perf-basic-prof` under
# perf record): benchtui's [jit] functions are perf report's names with
# perf's counts.
. tests/lib.sh
export LC_ALL=C
AGREE="python3 $TOP/tests/tools/jit-agree.py"

have_node=0 have_java=0 have_perf=0
command -v node >/dev/null && have_node=1 || skipped "node is not installed (scripts/deps.sh installs nodejs)"
if command -v java >/dev/null && command -v javac >/dev/null; then
	have_java=1
else
	skipped "no JDK (scripts/deps.sh installs openjdk-17-jdk-headless)"
fi
[ $have_node = 1 ] || [ $have_java = 1 ] || skip "neither node nor a JDK is installed"
if ! command -v perf >/dev/null; then
	skipped "perf is not installed: no perf inject oracle"
elif ! perf record -q -k 1 -e cpu-clock -o "$TMP/probe.data" true >/dev/null 2>&1; then
	skipped "perf record refused here: no perf inject oracle"
else
	have_perf=1
fi
if ! "$BT" -q -o "$TMP/probe.bt" true >/dev/null 2>&1; then
	skip "benchtui cannot record here (perf_event_open refused)"
fi

# top_jit WHAT JSON HOT SRC: the hottest function is [jit], named /HOT/,
# annotated: instructions with samples, and source lines of SRC
top_jit() {
	python3 - "$2" "$3" "$4" <<'PY' >"$TMP/top" 2>&1
import json, re, sys
d = json.load(open(sys.argv[1]))
f = d["functions"][0]
if f["module"] != "[jit]" or not re.search(sys.argv[2], f["name"]):
    print("top function is %r in %r (%.1f%%)" % (f["name"], f["module"], f["percent"]))
    sys.exit(1)
a = d["annotations"][0]
ins = [r for r in a["rows"] if r["kind"] == "insn"]
hot = [r for r in ins if r["samples"]]
src = [r for r in ins if r.get("file", "").endswith(sys.argv[3])]
if sum(r["samples"] for r in ins) != f["samples"] or len(hot) < 3 or not src:
    print("annotation of %r: %d instructions, %d with samples (%d of %d), %d with lines of %s" %
          (f["name"], len(ins), len(hot), sum(r["samples"] for r in ins), f["samples"],
           len(src), sys.argv[3]))
    sys.exit(1)
print("%s %.1f%%, %d instructions, %d with samples, %d with source lines" %
      (f["name"], f["percent"], len(ins), len(hot), len(src)))
PY
	if [ $? -eq 0 ]; then ok "$1: top function $(cat "$TMP/top")"; else fail "$1: $(cat "$TMP/top")"; fi
}

# noleft WHAT DIR PID: nothing the runtime wrote is left behind
noleft() {
	left=$(ls "$2"/jit-*.dump "$2"/isolate-*.log /tmp/perf-$3.map /tmp/jit-$3.dump 2>/dev/null)
	[ -z "$left" ] && ok "$1: no runtime file left in the working directory or /tmp" ||
		fail "$1: left behind: $left"
}

# the hottest JIT symbol of perf report on perf inject's output
perf_top_jit() {
	perf report -i "$1" --stdio --sort dso,sym 2>/dev/null |
		grep -E '^ +[0-9.]+% +jitted-[0-9]+-[0-9]+\.so ' | head -1 |
		sed -E 's/^ +[0-9.]+% +jitted-[0-9]+-[0-9]+\.so +\[\.\] //; s/ +$//'
}

# perf_oracle WHAT DIR HOT CMD...: perf record -k 1 of CMD, perf inject --jit,
# perf's attribution against benchtui -i of perf's recording. perf's side
# (the runtime's run, perf inject's and perf script's outputs) is made once
# per make check: DIR is in $SHARE (lib.sh)
perf_oracle() {
	what=$1 dir=$2 hot=$3; shift 3
	b=$TMP/$(basename "$dir")
	if [ ! -e "$dir/perf.made" ]; then
		mkdir -p "$dir"
		if ! (cd "$dir" && perf record -q -k 1 -e cpu-clock -F 4000 -o perf.data "$@" >/dev/null 2>"$TMP/err"); then
			fail "$what: perf record failed: $(head -c 300 "$TMP/err")"
			return
		fi
		if ! (cd "$dir" && perf inject --jit -i perf.data -o inj.data 2>"$TMP/err"); then
			fail "$what: perf inject --jit failed: $(head -c 300 "$TMP/err")"
			return
		fi
		perf script -i "$dir/perf.data" -F ip,sym,dso >"$dir/before.txt" 2>/dev/null
		perf script -i "$dir/inj.data" -F ip,sym,dso >"$dir/after.txt" 2>/dev/null
		: >"$dir/perf.made"
	fi
	"$BT" -i "$dir/perf.data" --format json --all --export "$b.bt.json" 2>"$TMP/err" ||
		{ fail "$what: benchtui -i perf.data failed: $(head -c 300 "$TMP/err")"; return; }
	if $AGREE "$dir/before.txt" "$dir/after.txt" "$b.bt.json" >"$TMP/agree"; then
		ok "$what: per-instruction counts equal perf's after perf inject --jit: $(head -1 "$TMP/agree")"
	else
		fail "$what: against perf inject --jit: $(cat "$TMP/agree")"
	fi
	# perf inject's output itself: each jitted-PID-N.so at its address, with perf's counts
	"$BT" -i "$dir/inj.data" --format json --top 3 --export "$b.inj.json" 2>"$TMP/err" ||
		{ fail "$what: benchtui -i of perf inject's output failed: $(head -c 300 "$TMP/err")"; return; }
	sed -n 's/^ *[0-9a-f]* \(.*[^ ]\) *(.*\/\(jitted-[0-9]*-[0-9]*\.so\))$/\2\t\1/p' "$dir/after.txt" |
		sed 's/+0x[0-9a-f]*$//' | sort | uniq -c | awk '{ n = $1; $1 = ""; print n "\t" substr($0, 2) }' |
		sort >"$TMP/perf.inj"
	python3 - "$b.inj.json" "$dir" >"$TMP/bt.inj" 2>"$TMP/inj.err" <<'PY'
import json, subprocess, sys
d = json.load(open(sys.argv[1]))
for f in d["functions"]:
    m = f["module"].rsplit("/", 1)[-1]
    if m.startswith("jitted-"):
        print("%d\t%s %s" % (f["samples"], m, f["name"]))
# the annotated code is at the symbol's address (nm), not at 0
for a in d["annotations"]:
    m = a["module"]
    if not m.rsplit("/", 1)[-1].startswith("jitted-"):
        continue
    nm = subprocess.run(["nm", m], capture_output=True, text=True).stdout.split()
    first = [r for r in a["rows"] if r["kind"] == "insn"][0]
    if int(first["address"], 16) != int(nm[0], 16):
        print("%s: first instruction at %s, symbol at 0x%s" % (m, first["address"], nm[0]), file=sys.stderr)
PY
	sort -o "$TMP/bt.inj" "$TMP/bt.inj"
	if [ -s "$TMP/perf.inj" ] && cmp -s "$TMP/perf.inj" "$TMP/bt.inj" && [ ! -s "$TMP/inj.err" ]; then
		ok "$what: -i of perf inject's output: jitted-PID-N.so functions at their symbol's address, counts equal perf's ($(wc -l <"$TMP/bt.inj") functions)"
	else
		fail "$what: -i of perf inject's output: $(head -3 "$TMP/inj.err") (< perf, > benchtui)"
		diff "$TMP/perf.inj" "$TMP/bt.inj" | head -6
	fi
	# the hottest JIT symbol of perf report on the injected file
	ptop=$(memo perf_top_jit "$dir/inj.data")
	btop=$(python3 -c '
import json, re, sys
d = json.load(open(sys.argv[1]))
f = [f for f in d["functions"] if f["module"] == "[jit]"][0]
print(re.sub(r" \((loaded|version) [^)]*\)$", "", f["name"]))' "$b.bt.json")
	if [ -n "$ptop" ] && [ "$ptop" = "$btop" ] && printf '%s' "$btop" | grep -qE "$hot"; then
		ok "$what: perf report's hottest JIT symbol is benchtui's: $btop"
	else
		fail "$what: perf report's hottest JIT symbol '$ptop', benchtui's '$btop' (want /$hot/)"
	fi
}

if [ $have_node = 1 ]; then
	d=$TMP/node
	mkdir -p "$d"
	(cd "$d" && "$BT" -o b.data --stdio node "$TOP/tests/fixtures/hot.js" >"$TMP/out" 2>"$TMP/err")
	rc=$?
	pid=$(ls "$d/b.data.jit" 2>/dev/null | sed -n 's/^jit-\([0-9]*\)\.dump$/\1/p' | head -1)
	if [ $rc -ne 0 ] || [ -z "$pid" ]; then
		fail "node: benchtui exited $rc, kept '$(ls "$d/b.data.jit" 2>/dev/null)': $(head -c 300 "$TMP/err")"
	else
		n=$(grep -c 'node: JIT code recorded with --perf-prof' "$TMP/err")
		[ "$n" = 1 ] && ok "node: one line says what was turned on" ||
			fail "node: stderr says: $(head -c 300 "$TMP/err")"
		noleft node "$d" "$pid"
		grep -q '^# note: JIT code of process [0-9]* (V8)' "$TMP/out" &&
			ok "node: the header names the runtime: $(grep -o 'JIT code of process [0-9]* (V8)[^#]*' "$TMP/out" | head -1)" ||
			fail "node: no note naming V8 in the report"
		(cd "$d" && "$BT" -i b.data --format json --top 1 --export top.json)
		top_jit "node hot.js (no flags)" "$d/top.json" '^JS:\*hotLoop ' hot.js
	fi
	# lint: the hot method was loaded after the measurement began; no ELF advice
	checks=$(python3 -c 'import json, sys; print(" ".join(f["check"] for f in json.load(open(sys.argv[1]))["findings"]))' "$d/top.json" 2>/dev/null)
	case " $checks " in
	*" no-debug-info "*) fail "node: ELF advice for JIT code: $checks" ;;
	*" jit-recompiled "*) ok "node: lint says the hot method was compiled during the measurement ($checks)" ;;
	*) fail "node: no jit-recompiled finding (findings: $checks)" ;;
	esac
	d=$TMP/nodenojit
	mkdir -p "$d"
	(cd "$d" && "$BT" -q --no-jit -o b.data --format json --top 0 --export b.json \
		node "$TOP/tests/fixtures/hot.js" >"$TMP/out" 2>"$TMP/err")
	if [ -e "$d/b.data.jit" ] || ls "$d"/jit-*.dump >/dev/null 2>&1 || grep -q '\[jit\]' "$d/b.json"; then
		fail "node --no-jit: JIT output was turned on anyway"
	else
		ok "node --no-jit: the command ran as given"
	fi
	checks=$(python3 -c 'import json, sys; print(" ".join(f["check"] for f in json.load(open(sys.argv[1]))["findings"]))' "$d/b.json" 2>/dev/null)
	case " $checks " in
	*" no-debug-info "*) fail "node --no-jit: ELF advice for anonymous JIT code: $checks" ;;
	*" jit-uncovered "*) ok "node --no-jit: lint says the JIT code is not covered by any map ($checks)" ;;
	*) fail "node --no-jit: no jit-uncovered finding (findings: $checks)" ;;
	esac
	if [ $have_perf = 1 ]; then
		perf_oracle "node (perf record -k 1, --perf-prof)" "$SHARE/pnode" '^JS:\*hotLoop ' \
			node --perf-prof --interpreted-frames-native-stack --logfile=/dev/null \
			"$TOP/tests/fixtures/hot.js"
		# a perf map, as perf record users make it: names and counts of perf report
		# perf's side once per make check (lib.sh): the map node wrote in
		# /tmp is kept beside the recording, and put back while benchtui reads it
		d=$SHARE/pmap
		mkdir -p "$d"
		pmap_perf() {
			(cd "$d" && perf record -q -e cpu-clock -F 4000 -o perf.data node --perf-basic-prof \
			    "$TOP/tests/fixtures/hot.js" >/dev/null 2>&1) || return 1
			perf script -i "$d/perf.data" -F ip,sym,dso 2>/dev/null >"$d/script.txt"
			map=$(grep -o '(/tmp/perf-[0-9]*\.map)$' "$d/script.txt" | head -1 | tr -d '()')
			[ -z "$map" ] || mv "$map" "$d/"
		}
		if oracle pmap pmap_perf; then
			map=$(grep -o '(/tmp/perf-[0-9]*\.map)$' "$d/script.txt" | head -1 | tr -d '()')
			[ -z "$map" ] || cp "$d/$(basename "$map")" "$map"
			sed -n 's/^ *[0-9a-f]* \(.*[^ ]\) *(\/tmp\/perf-[0-9]*\.map)$/\1/p' "$d/script.txt" |
				sort | uniq -c | awk '{ n = $1; $1 = ""; print n "\t" substr($0, 2) }' |
				sort >"$TMP/perf.map.counts"
			"$BT" -i "$d/perf.data" --format json --top 0 --export "$TMP/pmap.json"
			# versions of one name are rows of their own here, one symbol to perf
			python3 -c '
import collections, json, re, sys
c = collections.Counter()
for f in json.load(open(sys.argv[1]))["functions"]:
    if f["module"] == "[jit]":
        c[re.sub(r" \((loaded|version) [^)]*\)$", "", f["name"])] += f["samples"]
for n, k in c.items():
    print("%d\t%s" % (k, n))' "$TMP/pmap.json" | sort >"$TMP/bt.map.counts"
			if [ -s "$TMP/perf.map.counts" ] && cmp -s "$TMP/perf.map.counts" "$TMP/bt.map.counts" &&
			    sort -rn "$TMP/bt.map.counts" | head -1 | grep -q 'JS:\*hotLoop'; then
				ok "node --perf-basic-prof (perf's recording): [jit] names and counts equal perf's: $(wc -l <"$TMP/bt.map.counts") functions, hottest $(sort -rn "$TMP/bt.map.counts" | head -1)"
			else
				fail "node --perf-basic-prof: names and counts differ (< perf, > benchtui)"
				diff "$TMP/perf.map.counts" "$TMP/bt.map.counts" | head -6
			fi
			[ -n "$map" ] && rm -f "$map"
		else
			fail "node --perf-basic-prof: perf record failed"
		fi
	fi
fi

if [ $have_java = 1 ]; then
	d=$TMP/java
	mkdir -p "$d"
	java_fixture Hot "$d" || fail "javac failed"
	cp "$TOP/tests/fixtures/Hot.java" "$d/"
	if [ ! -f "$TOP/$BUILD/libbenchtui-jvmti.so" ]; then
		skipped "java: the JVMTI agent is not built (make agent)"
	else
		(cd "$d" && "$BT" -o b.data --stdio java -cp . Hot >"$TMP/out" 2>"$TMP/err")
		rc=$?
		pid=$(ls "$d/b.data.jit" 2>/dev/null | sed -n 's/^jit-\([0-9]*\)\.dump$/\1/p' | head -1)
		if [ $rc -ne 0 ] || [ -z "$pid" ]; then
			fail "java: benchtui exited $rc, kept '$(ls "$d/b.data.jit" 2>/dev/null)': $(head -c 300 "$TMP/err")"
		else
			grep -q "java: JIT code recorded by benchtui's JVMTI agent" "$TMP/err" &&
				ok "java: one line says what was turned on" ||
				fail "java: stderr says: $(head -c 300 "$TMP/err")"
			noleft java "$d" "$pid"
			(cd "$d" && "$BT" -i b.data --format json --top 1 --export top.json)
			top_jit "java -cp . Hot (no flags)" "$d/top.json" '^Hot\.run\(I\)D \[c2 L4 (OSR@[0-9]+ )?#[0-9]+\]$' Hot.java
			checks=$(python3 -c 'import json, sys; print(" ".join(f["check"] for f in json.load(open(sys.argv[1]))["findings"]))' "$d/top.json" 2>/dev/null)
			case " $checks " in
			*" no-debug-info "*) fail "java: ELF advice for JIT code: $checks" ;;
			*" jit-recompiled "*) ok "java: lint says the hot method was compiled during the measurement ($checks)" ;;
			*) fail "java: no jit-recompiled finding (findings: $checks)" ;;
			esac
		fi
		if [ $have_perf = 1 ]; then
			perf_oracle "java (perf record -k 1, agent)" "$SHARE/pjava" '^Hot\.run\(I\)D \[c2 L4 ' \
				java "-agentpath:$TOP/$BUILD/libbenchtui-jvmti.so" -cp "$d" Hot
		fi
	fi
fi
finish
