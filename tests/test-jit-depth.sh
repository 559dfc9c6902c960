#!/bin/bash
# Annotator depth for JIT code and sources (issue 27, part H), with real
# runtimes and the runtimes' own records as oracles:
# - call targets in JIT code named as the runtime's jitdump names them
#   (HotSpot's stubs, _new_instance_Java; every load of the dump), and
#   node's calls into V8's builtins named as node's symbol table names
#   them, and HotSpot's calls into the VM (movabs, call *%r10) as
#   libjvm.so's symbols name them (tests/tools/jit-depth.py); node's
#   calls through the isolate's builtin tables (call *-0x38(%r13)) as
#   the tables of a live node hold them (gdb, tests/tools/v8-table.py);
# - HotSpot inlining chains from benchtui's agent (jit-PID.inline): every
#   inline row of the annotation is a frame of the chain the agent wrote
#   for the instruction under it, java.lang.Integer::valueOf inlined into
#   Inl.run from Inl.java:16 (bci 13) among them; and every edge (caller,
#   bci of the call, callee) of the chains is an inlining of HotSpot's own
#   -XX:+PrintInlining tree of that compile (InlDeep.java); and every
#   sampled instruction's own bytecode index (perfasm's innermost
#   "valueOf@23") is an instruction of its method in javap -c whose
#   LineNumberTable line is the line shown (the fixtures' classes and
#   the JDK's), as the text export's "Inl.java:16 @13" rows say;
# - node code inlined from another script: shown in that script (node 20
#   names every line entry with the caller's script): every labelled
#   position lies inside its labelled line, some in the inlined script;
# - --source-path: a Java source found under DIR/src/main/java/ and in a
#   zip archive laid out as a JDK's src.zip (java.base/...), stored and
#   deflated; --prefix/--prefix-strip: a C program's moved build tree.
. tests/lib.sh
export LC_ALL=C
DEPTH="python3 $TOP/tests/tools/jit-depth.py"

if ! "$BT" -q -o "$TMP/probe.bt" true >/dev/null 2>&1; then
	skip "benchtui cannot record here (perf_event_open refused)"
fi

# --- java: stubs named, inlining chains, sources by --source-path ----------
if ! command -v java >/dev/null || ! command -v javac >/dev/null; then
	skipped "no JDK (scripts/deps.sh installs openjdk-17-jdk-headless)"
elif [ ! -f "$TOP/$BUILD/libbenchtui-jvmti.so" ]; then
	skipped "java: the JVMTI agent is not built (make agent)"
else
	d=$TMP/java
	mkdir -p "$d"
	java_fixture Inl "$d" || fail "javac failed"
	(cd "$d" && "$BT" -q -o b.data java -cp . Inl >/dev/null 2>"$TMP/err")
	dump=$(ls "$d"/b.data.jit/jit-*.dump 2>/dev/null | head -1)
	inl=${dump%.dump}.inline
	if [ -z "$dump" ] || [ ! -s "$inl" ]; then
		fail "java: no dump and inline file kept: $(ls "$d/b.data.jit" 2>&1) $(head -c 300 "$TMP/err")"
	else
		ok "java: the agent wrote $(basename "$inl") ($(stat -c %s "$inl") bytes) beside the dump"
		(cd "$d" && "$BT" -i b.data --format json --top 5 --export top.json 2>"$TMP/err") ||
			fail "java: export: $(head -c 300 "$TMP/err")"
		out=$($DEPTH targets "$d/top.json" "$dump") && ok "java: $out" || fail "java: $out"
		grep -q '"target_name": "_new_instance_Java"' "$d/top.json" &&
			ok "java: calls to the runtime stub _new_instance_Java are named" ||
			fail "java: no call named _new_instance_Java"
		libjvm=$(dirname "$(readlink -f "$(command -v java)")")/../lib/server/libjvm.so
		if [ -f "$libjvm" ]; then
			out=$($DEPTH runtime "$d/top.json" "$libjvm") && ok "java: $out" || fail "java: $out"
		else
			skipped "java: no $libjvm to check calls into the VM against"
		fi
		out=$($DEPTH inline "$d/top.json" "$inl") && ok "java: $out" || fail "java: $out"
		# the innermost frame's bci against javap -c -l of the classes
		out=$($DEPTH javap "$d/top.json" "$d") && ok "java: $out" || fail "java: $out"
		(cd "$d" && "$BT" -i b.data --stdio --top 5 >top.txt 2>/dev/null)
		out=$(python3 - "$d/top.json" "$d/top.txt" <<'PY'
import json, re, sys
want = ['%s:%d @%d' % (r['file'].rsplit('/', 1)[-1], r['line'], r['bci'])
        for a in json.load(open(sys.argv[1]))['annotations'] for r in a['rows']
        if r['kind'] == 'source' and 'bci' in r]
got = re.findall(r'(?:^| )(\S+:\d+ @\d+)(?:  |$)', open(sys.argv[2]).read(), re.M)
if not want or want != got:
    print('source rows with a bci: JSON %d %s, text %d %s' % (len(want), want[:4], len(got), got[:4]))
    sys.exit(1)
print('%d source rows with a bci, the text\'s "FILE:LINE @BCI" as JSON\'s, in order (%s, ...)' %
      (len(want), want[0]))
PY
) && ok "java: $out" || fail "java: $out"
		# the browser at 80 columns: source rows "FILE:LINE @BCI" within
		# the width, and on them the status line gives perfasm's frames
		# (and the call chains, read after the first screen, add modules:
		# JIT code; the browser crashed on them)
		if command -v tmux >/dev/null; then
			name=$(python3 -c 'import json, re, sys
print([a["function"] for a in json.load(open(sys.argv[1]))["annotations"]
       if re.search(r" \[c[12] ", a["function"])][0])' "$d/top.json")
			tmux_init jd
			$T new-session -d -s bt -x 80 -y 30 -c "$d" \
				"env TERM=screen LC_ALL=C.UTF-8 $BT -i b.data -s '$name'; sleep 60"
			st=
			if wait_for "@[0-9]"; then
				for _ in $(seq 80); do
					st=$(screen | tail -1)
					echo "$st" | grep -Eq '^[^ ]+::[^ ]+@[0-9]+ \(line [0-9]+\)( / [^ ]+::[^ ]+@[0-9]+ \(line [0-9]+\))*$' && break
					st=
					$T send-keys -t bt Up
					sleep 0.05
				done
			fi
			wide=$(screen | python3 -c 'import sys
print("\n".join(l for l in sys.stdin.buffer.read().decode().split("\n") if len(l) > 80))')
			[ -n "$st" ] && [ -z "$wide" ] && screen | grep -Eq ' [^ ]+\.java:[0-9]+ @[0-9]+' &&
				ok "java: browser at 80 columns: source rows with a bci fit; on one, the status line reads '$st'" ||
				fail "java: browser: status '$st', rows past 80 columns: '$wide'"
			$T kill-session -t bt 2>/dev/null
		else
			skipped "java: no tmux for the browser's check"
		fi
		grep -q '"text": "inlined java.lang.Integer::valueOf() from Inl.java:16 (bci 13)", "call_file": "Inl.java", "call_line": 16, "bci": 13,' "$d/top.json" &&
			ok "java: Integer.valueOf inlined into Inl.run at Inl.java:16, bci 13" ||
			fail "java: no inline row for Integer.valueOf at Inl.java:16, bci 13"
		# the bytecode indexes against HotSpot's own inlining trees
		# (-XX:+PrintInlining after each -XX:+PrintCompilation line;
		# -Xbatch: one compile at a time, so no tree is printed under
		# another compile's line)
		java_fixture InlDeep "$d" || fail "javac failed"
		(cd "$d" && "$BT" -q -o deep.data java -Xbatch -XX:+UnlockDiagnosticVMOptions \
			-XX:+PrintCompilation -XX:+PrintInlining -cp . InlDeep >pi.txt 2>"$TMP/err")
		(cd "$d" && "$BT" -i deep.data --format json --top 5 --export deep.json 2>"$TMP/err") ||
			fail "java: export: $(head -c 300 "$TMP/err")"
		out=$($DEPTH printinlining "$d/deep.json" "$d/pi.txt") && ok "java: $out" || fail "java: $out"
		dinl=$(ls "$d"/deep.data.jit/jit-*.inline 2>/dev/null | head -1)
		out=$($DEPTH inline "$d/deep.json" "$dinl") && ok "java (deep): $out" || fail "java (deep): $out"
		out=$($DEPTH javap "$d/deep.json" "$d") && ok "java (deep): $out" || fail "java (deep): $out"

		# sources: Inl.java under src/main/java/, Integer.java in a zip
		# laid out as a JDK's (module directory first), one entry stored,
		# one deflated; read from another directory, so that the
		# recorded relative paths miss
		mkdir -p "$d/proj/src/main/java" "$d/elsewhere"
		cp "$TOP/tests/fixtures/Inl.java" "$d/proj/src/main/java/"
		python3 - "$d/src.zip" <<'PY'
import sys, zipfile
text = ''.join('integer source line %d\n' % i for i in range(1, 3001))
with zipfile.ZipFile(sys.argv[1], 'w') as z:
    z.writestr(zipfile.ZipInfo('java.base/java/lang/Integer.java'), text, zipfile.ZIP_DEFLATED)
    z.writestr(zipfile.ZipInfo('java.base/java/lang/Object.java'), text, zipfile.ZIP_STORED)
PY
		(cd "$d/elsewhere" && "$BT" -i ../b.data --format json --top 5 --export nosrc.json \
			2>/dev/null)
		(cd "$d/elsewhere" && "$BT" -i ../b.data --format json --top 5 --export src.json \
			--source-path "$d/proj:$d/src.zip" 2>"$TMP/err")
		out=$(INL_JAVA=$TOP/tests/fixtures/Inl.java python3 - "$d/elsewhere/nosrc.json" "$d/elsewhere/src.json" <<'PY'
import json, sys
def texts(p):
    a = [a for a in json.load(open(p))['annotations'] if a['function'].startswith('Inl.run(I)J [c2')][0]
    return a['function'], [(r['file'], r['line'], r['text']) for r in a['rows'] if r['kind'] == 'source']
f0, before = texts(sys.argv[1])
f1, after = texts(sys.argv[2])
inl = [l.rstrip('\n') for l in open(__import__('os').environ['INL_JAVA'])]
bad = [r for r in after if r[0] == 'Inl.java' and r[2] != inl[r[1] - 1]]
bad += [r for r in after if r[0] == 'java/lang/Integer.java' and r[2] != 'integer source line %d' % r[1]]
had = sum(1 for r in before if r[2])
java = sum(1 for r in after if r[0] == 'Inl.java' and r[2])
integer = sum(1 for r in after if r[0] == 'java/lang/Integer.java' and r[2])
if bad or had or not java or not integer:
    print('%s: %d source rows with text before --source-path; after, Inl.java %d, Integer.java %d, wrong %s' %
          (f1, had, java, integer, bad[:3]))
    sys.exit(1)
print('%s: no source text without --source-path; with it %d rows of Inl.java (src/main/java/) and %d of java/lang/Integer.java (zip), each the file\'s line' %
      (f1, java, integer))
PY
) && ok "java: $out" || fail "java: $out"
	fi
fi

# --- node: calls into V8's builtins, named from node's symbols ---------------
if ! command -v node >/dev/null; then
	skipped "node is not installed (scripts/deps.sh installs nodejs)"
else
	d=$TMP/node
	mkdir -p "$d"
	(cd "$d" && "$BT" -q -o b.data node "$TOP/tests/fixtures/hot.js" >/dev/null 2>"$TMP/err")
	dump=$(ls "$d"/b.data.jit/jit-*.dump 2>/dev/null | head -1)
	if [ -z "$dump" ]; then
		fail "node: no dump kept: $(head -c 300 "$TMP/err")"
	else
		(cd "$d" && "$BT" -i b.data --format json --top 5 --export top.json 2>/dev/null)
		node_bin=$(readlink -f "$(command -v node)")
		out=$($DEPTH builtins "$d/top.json" "$dump" "$node_bin")
		case $? in
		0) ok "node: $out" ;;
		2) skipped "node: no call into a builtin in the hot functions ($out)" ;;
		*) fail "node: $out" ;;
		esac
		out=$($DEPTH targets "$d/top.json" "$dump")
		[ $? -ne 1 ] && ok "node: $out" || fail "node: $out"
	fi
	# calls through the isolate's builtin tables (call *-0x38(%r13)):
	# named from node's binary, checked against the tables of a live
	# node read by gdb (v8::Isolate::GetCurrent, exported by node)
	d2=$TMP/node-table
	mkdir -p "$d2"
	(cd "$d2" && "$BT" -q -o b.data node --no-opt --no-sparkplug \
		"$TOP/tests/fixtures/js/builtin-table.js" >/dev/null 2>"$TMP/err")
	(cd "$d2" && "$BT" -i b.data --format json --top 5 --export top.json 2>/dev/null) ||
		fail "node: export: $(head -c 300 "$TMP/err")"
	grep -q '"text": "call   \*-0x38(%r13)", .*"target_name": "Builtins_DeoptimizationEntry_Eager"' "$d/top.json" &&
		ok "node: call *-0x38(%r13) named Builtins_DeoptimizationEntry_Eager (tier-0 table)" ||
		fail "node: no call *-0x38(%r13) named Builtins_DeoptimizationEntry_Eager"
	if ! command -v gdb >/dev/null; then
		skipped "node: no gdb to read a live node's builtin tables"
	else
		node -e 'console.log("up"); setInterval(() => {}, 1000)' >"$TMP/up" 2>&1 &
		npid=$!
		for i in $(seq 100); do [ -s "$TMP/up" ] && break; sleep 0.1; done
		out=$(python3 "$TOP/tests/tools/v8-table.py" "$(readlink -f "$(command -v node)")" "$npid" \
			"$d/top.json" "$d2/top.json")
		rc=$?
		kill "$npid" 2>/dev/null
		wait "$npid" 2>/dev/null
		case $rc in
		0) ok "node: $out" ;;
		3) skipped "node: $out" ;;
		*) fail "node: $out" ;;
		esac
	fi
	# a function of another script inlined into the hot loop: its lines
	# are shown in its own script, not the caller's
	d=$TMP/node2
	mkdir -p "$d"
	(cd "$d" && "$BT" -q -o b.data node "$TOP/tests/fixtures/js/inlined.cjs" >/dev/null 2>"$TMP/err")
	dump=$(ls "$d"/b.data.jit/jit-*.dump 2>/dev/null | head -1)
	if [ -z "$dump" ]; then
		fail "node: no dump kept: $(head -c 300 "$TMP/err")"
	else
		(cd "$d" && "$BT" -i b.data --format json --top 3 --export top.json 2>/dev/null)
		out=$($DEPTH v8scripts "$d/top.json" "$dump" geometry-helpers.cjs) &&
			ok "node: $out" || fail "node: $out"
	fi
	# the same as ES modules: names intact (file: URLs), the caller's
	# script on the inlined lines all the same; the sources read
	d=$TMP/node3
	mkdir -p "$d"
	(cd "$d" && "$BT" -q -o b.data node "$TOP/tests/fixtures/js/inlined.mjs" >/dev/null 2>"$TMP/err")
	dump=$(ls "$d"/b.data.jit/jit-*.dump 2>/dev/null | head -1)
	if [ -z "$dump" ]; then
		fail "node (ES module): no dump kept: $(head -c 300 "$TMP/err")"
	else
		(cd "$d" && "$BT" -i b.data --format json --top 3 --export top.json 2>/dev/null)
		out=$($DEPTH v8scripts "$d/top.json" "$dump" geometry-helpers.mjs) &&
			ok "node (ES module): $out" || fail "node (ES module): $out"
		(cd "$d" && "$BT" -i b.data --stdio --top 3 2>/dev/null) | grep -q "geometry-helpers.mjs:5[[:space:]]*return y + (y >> 3);" &&
			ok "node (ES module): the inlined script's line read from its file: URL" ||
			fail "node (ES module): no text of geometry-helpers.mjs:5"
	fi
fi

# --- --prefix/--prefix-strip: a build tree moved after the build ------------
mkdir -p "$TMP/a/b/build"
cat >"$TMP/a/b/build/moved.c" <<'EOF2'
#include <stdlib.h>
static volatile unsigned long sink;
/* moved.c: a loop whose source is found only through --prefix */
int main(int argc, char **argv)
{
	unsigned long s = 0, n = argc > 1 ? strtoul(argv[1], NULL, 10) : 30000000;
	for (unsigned long i = 0; i < n; i++)
		s += i * i ^ (s >> 3);
	sink = s;
	return 0;
}
EOF2
if cc -O1 -g -o "$TMP/moved" "$TMP/a/b/build/moved.c"; then
	"$BT" -q -o "$TMP/moved.data" "$TMP/moved" >/dev/null 2>&1
	mkdir -p "$TMP/new"
	mv "$TMP/a/b/build" "$TMP/new/tree"
	strip=$(echo "$TMP/a/b/build" | tr -cd / | wc -c)
	"$BT" -i "$TMP/moved.data" --format json --top 1 -s main --export "$TMP/m0.json" 2>/dev/null
	"$BT" -i "$TMP/moved.data" --format json --top 1 -s main --export "$TMP/m1.json" \
		--prefix "$TMP/new/tree" --prefix-strip "$strip" 2>/dev/null
	out=$(python3 - "$TMP/m0.json" "$TMP/m1.json" "$TMP/new/tree/moved.c" <<'PY'
import json, sys
def rows(p):
    return [r for r in json.load(open(p))['annotations'][0]['rows'] if r['kind'] == 'source']
src = [l.rstrip('\n') for l in open(sys.argv[3])]
before, after = rows(sys.argv[1]), rows(sys.argv[2])
if any(r['text'] for r in before):
    print('source text without --prefix'); sys.exit(1)
good = [r for r in after if r['text'] and r['text'] == src[r['line'] - 1]]
if not good or len(good) != len([r for r in after if r['text']]):
    print('with --prefix: %d rows, %d with the moved file\'s text' % (len(after), len(good))); sys.exit(1)
print('moved.c not found at its recorded path; with --prefix/--prefix-strip %d source rows read from the moved tree' % len(good))
PY
) && ok "$out" || fail "$out"
	"$BT" -i "$TMP/moved.data" --stdio --prefix-strip 2 >/dev/null 2>"$TMP/err"
	[ $? -ne 0 ] && grep -q -- "--prefix-strip needs --prefix" "$TMP/err" &&
		ok "--prefix-strip alone is refused" || fail "--prefix-strip alone: $(cat "$TMP/err")"
else
	skipped "no C compiler"
fi
finish
