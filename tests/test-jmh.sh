#!/bin/bash
# JMH (docs/benchmarks.md "JMH", docs/jit.md "Once per JVM"):
#  1. the parser on transcripts of real JMH runs (tests/fixtures/jmh/*.txt:
#     plain, under benchtui, under benchtui with the agent before it loaded
#     once per JVM, and one with -bm sample,ss -prof gc): every row of the
#     final table is a result, its name, score, error, units and count as
#     printed (read apart from the C parser, with awk); the results do not
#     depend on how the output is cut into reads; and each result's forks
#     are its run's "# Fork:" lines, announced, measured and ended at the
#     byte offsets awk finds (fed one byte a read, a read's time is its
#     offset);
#     JMH's frames table on call chains as perf script prints them;
#  2. the JVMTI agent once per JVM: a JVM started with the agent twice
#     (JAVA_TOOL_OPTIONS and -agentpath; two copies of it) writes one dump
#     with no load twice, and ForkArgs (what JMH does with its host's
#     input arguments) under benchtui: neither JVM sees the agent in its
#     input arguments, each writes one dump, no load twice;
#  3. end to end, only with a JMH build (BT_JMH=DIR holding jmh-core.jar and
#     jmh-generator-annprocess.jar, as tests/tools/jmh-build.sh makes it;
#     else "skipped"): tests/fixtures/jmh/JmhBench.java under benchtui, its
#     four results as benchmarks, JMH's VM options "<none>", one dump per
#     JVM with no load twice.
. tests/lib.sh
export LC_ALL=C
PARSE=$TOP/$BUILD/tools/harness-parse
JD=$TOP/$BUILD/tools/jit-dump
AGENT=$TOP/$BUILD/libbenchtui-jvmti.so
FJ=$TOP/tests/fixtures/jmh
[ -x "$PARSE" ] && [ -x "$JD" ] || { echo "   FAIL: $PARSE or $JD is not built (make tools)"; exit 1; }

# --- 1. the parser on the transcripts ----------------------------------------

# the table's rows as printed: name (params as "# Parameters:" prints them,
# then ":label"), score, error, units, Cnt, line number
rows() {
	awk '
	function trim(s) { sub(/^ +/, "", s); sub(/ +$/, "", s); return s }
	/^Benchmark / && / Mode +Cnt +Score +Error +Units$/ {
		on = 1; np = 0
		for (i = 2; i <= NF && $i ~ /^\(.*\)$/; i++) key[++np] = substr($i, 2, length($i) - 2)
		next
	}
	on && NF == 0 { on = 0 }
	on {
		n = split($0, t, / +/)
		k = n; u = t[k--]; e = "-"
		# Java prints "?" for "±" and "≈" where the charset lacks them
		if (t[k - 1] == "\xc2\xb1" || (t[k - 1] == "?" && t[k - 2] ~ /^[0-9]/)) { e = t[k]; k -= 2 }
		s = t[k--]
		if (t[k] == "\xe2\x89\x88" || t[k] == "?") s = t[k--] " " s
		c = "-"
		if (t[k] !~ /^(thrpt|avgt|sample|ss)$/) c = t[k--]
		name = t[1]; label = ""
		if ((p = index(name, ":")) > 0) { label = substr(name, p); name = substr(name, 1, p - 1) }
		ps = ""
		for (i = 1; i <= np; i++) if (t[1 + i] != "N/A") ps = ps (ps == "" ? " (" : ", ") key[i] " = " t[1 + i]
		if (ps != "") ps = ps ")"
		printf "%s%s%s\t%s\t%s\t%s\t%s\t%d\n", name, ps, label, s, e, u, c, NR
	}' "$1"
}

# the same from harness-parse: name, score text, error text, units, Cnt, line
parsed_rows() {
	"$PARSE" "$1" | awk -F'\t' '{
		s = "-"; e = "-"; u = "-"
		n = split($22, cs, ";")
		for (i = 1; i <= n; i++) {
			split(cs[i], f, "|")
			if (f[1] ~ /^score=/) { u = f[2]; s = f[3] }
			if (f[1] ~ /^error=/) e = f[3]
		}
		printf "%s\t%s\t%s\t%s\t%s\t%s\n", $4, s, e, u, $21, $23
	}'
}

# each row's forks, from the run it is the result of (name, params and
# mode): "announce,measure,end,warmups,iterations[W][H]" at byte offsets
forks() {
	awk '
	# the dense name JMH prints (common packages cut, or cut to initials)
	function dense(full, d,    f, g, nf, ng, i, j, x, y) {
		nf = split(full, f, "."); ng = split(d, g, ".")
		if (ng > nf) return 0
		for (i = 0; i < ng; i++) {
			x = f[nf - i]; y = g[ng - i]
			if (x != y && !(i >= 2 && length(y) == 1 && substr(x, 1, 1) == y)) return 0
		}
		for (j = 1; j <= nf - ng; j++) if (f[j] != tolower(f[j])) return 0
		return 1
	}
	{ start = off; nl = off + length($0); off = nl + 1 }
	/^# Benchmark mode: / { mode = substr($0, 19) }
	/^# Benchmark: / {
		run++; name[run] = substr($0, 14); m[run] = mode; ps[run] = ""; nf[run] = 0
	}
	/^# Parameters: \(/ { ps[run] = " " substr($0, 15) }
	/^# (Warmup )?Fork: / {
		f = ++nf[run]; ann[run, f] = nl; meas[run, f] = "nan"; end[run, f] = "nan"
		w[run, f] = 0; it[run, f] = 0
		fl[run, f] = ($0 ~ /^# Warmup Fork/ ? "W" : "") ($0 ~ /N\/A/ ? "H" : "")
	}
	/^# Warmup Iteration +[0-9]+:/ { w[run, nf[run]]++ }
	/^Iteration +[0-9]+:/ {
		f = nf[run]
		if (it[run, f]++ == 0) meas[run, f] = start
		end[run, f] = nl
	}
	/^Benchmark / && / Mode +Cnt +Score +Error +Units$/ {
		on = 1; np = 0
		for (i = 2; i <= NF && $i ~ /^\(.*\)$/; i++) key[++np] = substr($i, 2, length($i) - 2)
		next
	}
	on && NF == 0 { on = 0 }
	on {
		n = split($0, t, / +/)
		for (k = n; t[k] !~ /^(thrpt|avgt|sample|ss)$/; k--) ;
		long = "Single shot"
		if (t[k] == "thrpt") long = "Throughput"
		if (t[k] == "avgt") long = "Average time"
		if (t[k] == "sample") long = "Sampling time"
		b = t[1]; sub(/:.*/, "", b)
		p = ""
		for (i = 1; i <= np; i++) if (t[1 + i] != "N/A") p = p (p == "" ? " (" : ", ") key[i] " = " t[1 + i]
		if (p != "") p = p ")"
		s = "-"
		for (r = 1; r <= run; r++) {
			nm = name[r]
			if (!dense(nm, b) || index(m[r], long) != 1 || ps[r] != p)
				continue
			s = ""
			for (f = 1; f <= nf[r]; f++)
				s = s (f > 1 ? ";" : "") sprintf("%.6f,%s,%s,%d,%d%s", ann[r, f],
				    meas[r, f] == "nan" ? "nan" : sprintf("%.6f", meas[r, f]),
				    end[r, f] == "nan" ? "nan" : sprintf("%.6f", end[r, f]),
				    w[r, f], it[r, f], fl[r, f])
			break
		}
		print t[1] "\t" (s == "" ? "-" : s)
	}' "$1"
}

for f in "$FJ"/*.txt; do
	b=$(basename "$f")
	rows "$f" >"$TMP/want"
	parsed_rows "$f" >"$TMP/got"
	if [ ! -s "$TMP/want" ]; then
		fail "$b: awk finds no table rows"
	elif diff -u "$TMP/want" "$TMP/got" >"$TMP/diff"; then
		ok "$b: $(wc -l <"$TMP/want") table rows, each a result with its name, score, error, units and count as printed"
	else
		fail "$b: results differ from the table's rows:"
		head -20 "$TMP/diff"
	fi
	"$PARSE" -c 1 "$f" >"$TMP/c1" && "$PARSE" -c 4096 "$f" >"$TMP/c4096" &&
		"$PARSE" -s 7 "$f" >"$TMP/crand" || fail "$b: harness-parse failed"
	for c in c1 c4096 crand; do cut -f1-24 "$TMP/$c" >"$TMP/$c.cut"; done
	if cmp -s "$TMP/c1.cut" "$TMP/c4096.cut" && cmp -s "$TMP/c1.cut" "$TMP/crand.cut"; then
		ok "$b: the same results however the output is cut into reads"
	else
		fail "$b: results depend on how the output is cut into reads"
	fi
	# one byte a read: times are byte offsets
	forks "$f" >"$TMP/fwant"
	cut -f4,29 "$TMP/c1" >"$TMP/fgot.raw"
	paste <(cut -f1 "$TMP/fwant") <(cut -f2 "$TMP/fgot.raw") >"$TMP/fgot"
	if [ "$(grep -c . "$TMP/fwant")" != "$(grep -c . "$TMP/fgot.raw")" ]; then
		fail "$b: $(grep -c . "$TMP/fgot.raw") results for $(grep -c . "$TMP/fwant") rows"
	elif diff -u "$TMP/fwant" "$TMP/fgot" >"$TMP/diff"; then
		ok "$b: $(cut -f2 "$TMP/fwant" | tr ';' '\n' | grep -c .) forks' announcement, first and last measurement iteration, by byte offset"
	else
		fail "$b: forks differ (row, then announce,measure,end,warmups,iterations per fork):"
		head -20 "$TMP/diff"
	fi
done

# names JMH abbreviates (benchmarks of two packages: the common one cut to
# its initial) and a method whose name begins another's: each row its run
{
	for b in bt.alpha.X.sum bt.alpha.X.s bt.beta.Y.m; do
		printf '# Benchmark mode: Average time, time/op\n# Benchmark: %s\n\n# Fork: 1 of 1\n' "$b"
		printf '# Warmup Iteration   1: 1.000 ns/op\nIteration   1: 2.000 ns/op\n\n'
	done
	printf 'Benchmark        Mode  Cnt  Score   Error  Units\n'
	printf 'b.alpha.X.s      avgt       3.000          ns/op\n'
	printf 'b.alpha.X.sum    avgt       1.000          ns/op\n'
	printf 'b.beta.Y.m       avgt       5.000          ns/op\n'
} >"$TMP/dense.txt"
forks "$TMP/dense.txt" >"$TMP/fwant"
"$PARSE" -c 1 "$TMP/dense.txt" | cut -f4,29 >"$TMP/fgot"
if [ "$(cut -f2 "$TMP/fwant" | sort -u | wc -l)" = 3 ] && diff -u "$TMP/fwant" "$TMP/fgot" >"$TMP/diff"; then
	ok "abbreviated packages (b.alpha.X.s) and a method named like another's beginning: each row its own run"
else
	fail "abbreviated names matched to the wrong runs:"
	cat "$TMP/fwant" "$TMP/diff"
fi

# call chains as perf script prints them (a fork's, -XX:+PreserveFramePointer,
# perf inject --jit): the stub is the runner; what it calls of the user's
# code, the entry
STUB='bt.jmh_generated.JmhBench_sum_jmhTest.sum_avgt_jmhStub(Lorg/openjdk/jmh/runner/InfraControl;Lorg/openjdk/jmh/results/RawResults;Lorg/openjdk/jmh/infra/BenchmarkParams;Lorg/openjdk/jmh/infra/IterationParams;Lorg/openjdk/jmh/infra/ThreadParams;Lorg/openjdk/jmh/infra/Blackhole;Lorg/openjdk/jmh/infra/Control;Lbt/jmh_generated/JmhBench_jmhType;)V [c2 L4 OSR@13 #373]'
TAIL="	             760 Interpreter (jitted-1-2.so)
	             10a call_stub (jitted-1-3.so)
	          8282d2 JavaCalls::call_helper (libjvm.so)
	          cbacd4 Reflection::invoke_method (libjvm.so)
	            4ada Interpreter (jitted-1-2.so)
	           891f5 start_thread (libc.so.6)"
{
	printf '  1.000001: \n\t             2d1 %s (jitted-1-9.so)\n%s\n\n' "$STUB" "$TAIL"
	printf '  1.000002: \n\t              40 bt.JmhBench.sumLoop([I)I [c2 L4 #370] (jitted-1-8.so)\n'
	printf '\t             2d1 %s (jitted-1-9.so)\n%s\n\n' "$STUB" "$TAIL"
	printf '  1.000003: \n\t             40 java.util.Arrays.fill([II)V [c2 L4 #12] (jitted-1-7.so)\n'
	printf '\t             2d1 %s (jitted-1-9.so)\n%s\n\n' "$STUB" "$TAIL"
	printf '  1.000004: \n\t          8282d2 JavaCalls::call_helper (libjvm.so)\n\t           891f5 start_thread (libc.so.6)\n\n'
} >"$TMP/chains"
"$PARSE" -C jmh <"$TMP/chains" >"$TMP/places"
printf '1.000001\tharness\t-\t-\n1.000002\tbenchmark\t-\tbt.JmhBench.sumLoop([I)I [c2 L4 #370]\n1.000003\tharness\t-\t-\n1.000004\toutside\t-\t-\n' >"$TMP/places.want"
if diff -u "$TMP/places.want" "$TMP/places" >"$TMP/diff"; then
	ok "chains: in the stub (benchmark inlined) under the runner, its callee the entry, JDK code passed, the rest outside"
else
	fail "chains placed wrongly:"
	cat "$TMP/diff"
fi

# --- 2. the agent once per JVM -----------------------------------------------

# dumps DIR: "N dumps, D duplicated loads" (a load: address, size, name)
dumps() {
	nd=0 dup=0
	for d in "$1"/jit-*.dump; do
		[ -e "$d" ] || continue
		nd=$((nd + 1))
		dup=$((dup + $("$JD" dump "$d" loads | awk '{ print $2, $3, $5 }' | sort | uniq -d | wc -l)))
	done
	echo "$nd dumps, $dup duplicated loads"
}

if ! command -v java >/dev/null || ! command -v javac >/dev/null; then
	skipped "no JDK: the agent's loads per JVM (scripts/deps.sh installs openjdk-17-jdk-headless)"
elif [ ! -f "$AGENT" ]; then
	fail "$AGENT is missing (make agent)"
else
	mkdir -p "$TMP/fa"
	javac -d "$TMP/fa" "$FJ/ForkArgs.java" || fail "javac ForkArgs.java"
	# twice in one JVM: the environment and the command line, the same file
	mkdir -p "$TMP/twice"
	JAVA_TOOL_OPTIONS="-agentpath:$AGENT=dir=$TMP/twice" java -agentpath:"$AGENT=dir=$TMP/twice" \
		-cp "$TMP/fa" ForkArgs child >"$TMP/twice.out" 2>&1
	got=$(dumps "$TMP/twice")
	[ "$got" = "1 dumps, 0 duplicated loads" ] &&
		ok "agent in JAVA_TOOL_OPTIONS and -agentpath: loaded once ($got)" ||
		fail "agent in JAVA_TOOL_OPTIONS and -agentpath: $got, want 1 dumps, 0 duplicated loads"
	# two copies of it
	cp "$AGENT" "$TMP/copy.so"
	mkdir -p "$TMP/copies"
	java -agentpath:"$AGENT=dir=$TMP/copies" -agentpath:"$TMP/copy.so=dir=$TMP/copies" \
		-cp "$TMP/fa" ForkArgs child >"$TMP/copies.out" 2>&1
	got=$(dumps "$TMP/copies")
	[ "$got" = "1 dumps, 0 duplicated loads" ] &&
		ok "two copies of the agent in one JVM: one writes ($got)" ||
		fail "two copies of the agent in one JVM: $got, want 1 dumps, 0 duplicated loads"
	# a host that copies its input arguments into its child's command line
	"$BT" --stdio --top 0 -q -o "$TMP/fa.data" java -cp "$TMP/fa" ForkArgs >"$TMP/fa.out" 2>"$TMP/fa.err" ||
		fail "benchtui java ForkArgs (exit $?)"
	got=$(dumps "$TMP/fa.data.jit")
	if [ "$got" = "2 dumps, 0 duplicated loads" ]; then
		ok "ForkArgs under benchtui: host and child, each its own dump ($got)"
	else
		fail "ForkArgs under benchtui: $got, want 2 dumps, 0 duplicated loads"
	fi
	n=$(grep -c '^\(host\|child\) pid .* input arguments: \[\]$' "$TMP/fa.out")
	if [ "$n" = 2 ]; then
		ok "ForkArgs under benchtui: the agent in neither JVM's input arguments"
	else
		fail "ForkArgs under benchtui: the input arguments are:"
		grep 'input arguments' "$TMP/fa.out"
	fi
	# given on the command line alone, it stays there (the child gets it so)
	mkdir -p "$TMP/cl"
	java -agentpath:"$AGENT=dir=$TMP/cl" -cp "$TMP/fa" ForkArgs >"$TMP/cl.out" 2>&1
	got=$(dumps "$TMP/cl")
	if [ "$got" = "2 dumps, 0 duplicated loads" ] &&
	    [ "$(grep -c 'input arguments: \[-agentpath:' "$TMP/cl.out")" = 2 ]; then
		ok "-agentpath on the command line stays in the input arguments ($got)"
	else
		fail "-agentpath on the command line: $got; $(grep 'input arguments' "$TMP/cl.out" | head -2)"
	fi
fi

# --- 3. end to end, with a JMH build -------------------------------------------

if [ -z "${BT_JMH:-}" ]; then
	skipped "JMH end to end: no JMH build (BT_JMH=DIR, made by tests/tools/jmh-build.sh: docs/benchmarks.md)"
elif ! command -v javac >/dev/null || [ ! -f "$AGENT" ]; then
	skipped "JMH end to end: no JDK or no agent"
else
	JOPT=${JOPT:-/usr/share/java/joptsimple.jar}
	MATH3=${MATH3:-/usr/share/java/commons-math3.jar}
	CP=$BT_JMH/jmh-core.jar:$JOPT:$MATH3
	mkdir -p "$TMP/jb"
	if ! javac -cp "$CP" -processorpath "$BT_JMH/jmh-generator-annprocess.jar:$CP" \
	    -d "$TMP/jb" "$FJ/JmhBench.java"; then
		fail "JMH end to end: javac JmhBench.java with JMH's annotation processor"
	else
		"$BT" --stdio --top 0 -o "$TMP/jmh.data" java -cp "$TMP/jb:$CP" org.openjdk.jmh.Main \
			-f 2 -wi 1 -i 2 -w 300ms -r 300ms >"$TMP/jmh.out" 2>"$TMP/jmh.err" ||
			fail "JMH end to end: benchtui exit $?"
		awk '/^# benchtui /{exit} {print}' "$TMP/jmh.out" >"$TMP/jmh.txt"
		nrow=$(rows "$TMP/jmh.txt" | wc -l)
		nb=$(awk '/^## benchmarks: /{on=1; next} on && /^#/{next} on && NF==0{exit} on && !/^\(outside\)/{n++} END{print n+0}' "$TMP/jmh.out")
		[ "$nrow" = 4 ] && [ "$nb" = 4 ] &&
			ok "JMH end to end: 4 rows in JMH's table, 4 benchmarks in benchtui's" ||
			{ fail "JMH end to end: $nrow table rows, $nb benchmarks (want 4 and 4)"; grep -A6 "^## benchmarks" "$TMP/jmh.out"; tail -3 "$TMP/jmh.err"; }
		n=$(grep -c '^# VM options: <none>$' "$TMP/jmh.txt")
		[ "$n" = 4 ] && ok "JMH end to end: every run's VM options are <none>" ||
			fail "JMH end to end: VM options: $(grep '^# VM options' "$TMP/jmh.txt" | sort | uniq -c)"
		# each benchmark: its forks' processes while they measured, its
		# own generated stub the hottest, its samples its functions'
		"$BT" -i "$TMP/jmh.data" --export "$TMP/jmh.json" --format json --top 0 2>/dev/null
		python3 - "$TMP/jmh.json" >"$TMP/msg" <<'PY' &&
import json, re, sys
bs = json.load(open(sys.argv[1]))["benchmarks"]
bad = 0
for b in bs:
    m = re.match(r"JmhBench\.(\w+)", b["name"])
    top = b["functions"][0]["name"] if b["functions"] else ""
    own = m and ("JmhBench_%s_jmhTest" % m.group(1)) in top
    fs = sum(f["samples"] for f in b["functions"]) + b.get("functions_omitted", {}).get("samples", 0)
    print("%s: %s, %s samples, %s untimed, hottest %s" % (b["name"], b.get("split"),
          b.get("samples"), b.get("untimed_samples"), top[:60]))
    if b.get("split") != "process" or not own or fs != b.get("samples"):
        bad += 1
sys.exit(1 if bad or len(bs) != 4 else 0)
PY
			ok "JMH end to end: each benchmark its forks' measurement, its own stub hottest ($(tr '\n' ';' <"$TMP/msg"))" ||
			fail "JMH end to end: split by fork: $(tr '\n' ';' <"$TMP/msg")"
		got=$(dumps "$TMP/jmh.data.jit")
		# the host, JMH's probe JVMs and 8 forks
		case $got in
		*" dumps, 0 duplicated loads") ok "JMH end to end: $got" ;;
		*) fail "JMH end to end: $got" ;;
		esac
	fi
fi
finish
