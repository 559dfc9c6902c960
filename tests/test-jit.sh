#!/bin/bash
# JIT code (DESIGN.md §8; §9 "JIT names and code"): the jitdump and
# perf-PID.map readers and benchtui's JVMTI agent, on real runtimes.
#
# Node (--perf-prof) and Java (with the agent) each run once under
# `perf record -k 1`; `perf inject --jit` is the oracle. The jitted-PID-N.so
# files it writes must hold, load for load, the names (nm), code bytes
# (objdump -s) and line tables (objdump --dwarf=decodedline) that
# benchtui's reader parsed from the same dump; perf's attribution of every
# sample to a jitted-PID-N.so must name the load bt_jitdump_find() names;
# the hot function is the hottest JIT code. Then the perf maps of
# `node --perf-basic-prof` and of HotSpot's -XX:+DumpPerfMapAtExit, each
# from a run that also wrote a jitdump: every load of V8's dump is in its
# map (same address, size and name), every compiled method of HotSpot's
# map is a load of the agent's dump (same address and size); the hot
# function is in the map with a plausible size, and bt_perfmap_find finds
# it. Node's line tables are those the reader read as written (node 20
# writes some file names from freed memory: those the reader repairs are
# not compared).
. tests/lib.sh
export LC_ALL=C
JD=$TOP/$BUILD/tools/jit-dump
AGENT=$TOP/$BUILD/libbenchtui-jvmti.so
[ -x "$JD" ] || { echo "   $JD is missing: make tools"; exit 1; }

have_node=0 have_java=0 have_perf=0
if command -v node >/dev/null; then
	have_node=1
else
	echo "   skip: node is not installed (scripts/deps.sh installs nodejs)"
fi
if command -v java >/dev/null && command -v javac >/dev/null; then
	[ -f "$AGENT" ] || { echo "   $AGENT is missing: make agent"; exit 1; }
	have_java=1
else
	echo "   skip: no JDK (scripts/deps.sh installs openjdk-17-jdk-headless)"
fi
[ $have_node = 1 ] || [ $have_java = 1 ] || skip "neither node nor a JDK is installed"
if ! command -v perf >/dev/null; then
	echo "   skip: perf is not installed: no perf inject oracle"
elif ! perf record -q -k 1 -e cpu-clock -o "$TMP/probe.data" true >/dev/null 2>&1; then
	echo "   skip: perf record refused here: no perf inject oracle"
else
	have_perf=1
fi

# check_dump WHAT DUMP HOT: the reader reads all of it, and HOT (an ERE on
# the name) is a load with code and a line table
check_dump() {
	"$JD" dump "$2" >"$TMP/sum" 2>"$TMP/err"
	rc=$?
	if [ $rc -ne 0 ]; then
		fail "$1: jit-dump exited $rc: $(head -c 300 "$TMP/err") $(grep damage "$TMP/sum")"
		return 1
	fi
	nloads=$(grep -c '^load ' "$TMP/sum")
	ptime=$(sed -n 's/^parse_ms //p' "$TMP/sum")
	hot=$(grep -E "^load .* code 1 lines [1-9][0-9]* .* name $3" "$TMP/sum" | head -1)
	if [ -z "$hot" ]; then
		fail "$1: no load named /$3/ with code and lines among $nloads"
		return 1
	fi
	ok "$1: $nloads loads, $(grep -c 'lines [1-9]' "$TMP/sum") with lines, read in $ptime ms; hot: ${hot#* name }"
}

# oracle WHAT DIR DUMP PERFDATA HOT: perf inject --jit against the reader
oracle() {
	what=$1 dir=$2 dump=$3 data=$4 hot=$5
	pid=${dump##*/jit-}
	pid=${pid%.dump}
	if ! perf inject --jit -i "$data" -o "$dir/perf.jit.data" 2>"$TMP/err"; then
		fail "$what: perf inject --jit failed: $(head -c 300 "$TMP/err")"
		return
	fi
	(cd "$dir" && ls | sed -n "s/^jitted-$pid-\([0-9]*\)\.so$/\1/p" | sort) >"$TMP/perf.idx"
	if [ ! -s "$TMP/perf.idx" ]; then
		fail "$what: perf inject wrote no jitted-$pid-*.so: it did not find the dump through the mmap records"
		return
	fi
	"$JD" dump "$dump" hex | sort >"$TMP/ours.hex"
	cut -d' ' -f1 "$TMP/ours.hex" >"$TMP/ours.idx"
	if cmp -s "$TMP/perf.idx" "$TMP/ours.idx"; then
		ok "$what: perf inject wrote one ELF per load: $(wc -l <"$TMP/perf.idx")"
	else
		fail "$what: loads differ (< perf, > benchtui)"
		diff "$TMP/perf.idx" "$TMP/ours.idx" | head -5
	fi
	# names: the one symbol of each ELF
	(cd "$dir" && nm -A jitted-$pid-*.so 2>/dev/null) |
		sed -n "s/^jitted-$pid-\([0-9]*\)\.so:[0-9a-f]* [tT] /\1 /p" | sort >"$TMP/perf.names"
	"$JD" dump "$dump" loads | sed 's/^\([0-9]*\) [^ ]* [^ ]* [^ ]* /\1 /' | sort >"$TMP/ours.names"
	if cmp -s "$TMP/perf.names" "$TMP/ours.names"; then
		ok "$what: names equal perf's ($(wc -l <"$TMP/ours.names"))"
	else
		fail "$what: names differ (< perf, > benchtui)"
		diff "$TMP/perf.names" "$TMP/ours.names" | head -5
	fi
	# code bytes: .text of each ELF. objdump -s prints " ADDR HEX*4  ASCII":
	# the 35 columns after the address are the hex
	(cd "$dir" && objdump -s -j .text jitted-$pid-*.so 2>/dev/null) | awk '
		/^jitted-.*file format/ { if (n != "") print n, h
			n = $1; sub(/^jitted-[0-9]*-/, "", n); sub(/\.so:$/, "", n); h = "" }
		/^ [0-9a-f]+ / { s = substr($0, length($1) + 3, 35); gsub(/ /, "", s); h = h s }
		END { if (n != "") print n, h }' | sort >"$TMP/perf.hex"
	if cmp -s "$TMP/perf.hex" "$TMP/ours.hex"; then
		ok "$what: code bytes equal perf's ($(wc -c <"$TMP/ours.hex") hex chars)"
	else
		fail "$what: code bytes differ"
		diff "$TMP/perf.hex" "$TMP/ours.hex" | cut -c1-120 | head -4
	fi
	# line tables, as offsets into the code: perf puts the code at .text's
	# address and takes the runtime's line addresses as they are (V8's
	# included: the reader takes line_bias off, the oracle puts it back).
	# Tables the reader had to repair (file "") are not perf's to judge.
	text=0x$(objdump -h "$dir/jitted-$pid-$(head -1 "$TMP/perf.idx").so" |
		awk '$2 == ".text" { print $4 }')
	bias=$(sed -n 's/.* line_bias \(0x[0-9a-f]*\).*/\1/p' "$TMP/sum")
	"$JD" dump "$dump" lines >"$TMP/lines"
	awk 'NF < 6 { bad[$1] = 1 } { l[NR] = $0 }
	     END { for (i = 1; i <= NR; i++) { split(l[i], f, " ")
		if (!(f[1] in bad)) print f[1], f[3], f[4] } }' "$TMP/lines" | sort >"$TMP/ours.lines"
	cut -d' ' -f1 "$TMP/ours.lines" | uniq | sed "s/.*/jitted-$pid-&.so/" >"$TMP/withlines"
	(cd "$dir" && xargs objdump --dwarf=decodedline <"$TMP/withlines" 2>/dev/null) | awk '
		/^jitted-.*file format/ { n = $1; sub(/^jitted-[0-9]*-/, "", n); sub(/\.so:$/, "", n) }
		n != "" && NF >= 3 && $3 ~ /^0x/ && $2 ~ /^[0-9]+$/ { print n, $2, $3 }' |
		while read -r n line addr; do
			echo "$n $((addr - text - bias)) $line"
		done | sort >"$TMP/perf.lines"
	if [ ! -s "$TMP/ours.lines" ]; then
		fail "$what: no line table to compare"
	elif cmp -s "$TMP/perf.lines" "$TMP/ours.lines"; then
		ok "$what: line tables equal perf's ($(cut -d' ' -f1 "$TMP/ours.lines" | uniq | wc -l) loads, $(wc -l <"$TMP/ours.lines") rows)"
	else
		fail "$what: line tables differ (< perf, > benchtui: load offset line)"
		diff "$TMP/perf.lines" "$TMP/ours.lines" | head -6
	fi
	# samples: perf's jitted-PID-N.so for each sample, against bt_jitdump_find
	perf script -i "$dir/perf.jit.data" --ns -F time,ip,dso 2>/dev/null |
		sed -n "s/^ *\([0-9]*\)\.\([0-9]*\): *\([0-9a-f]*\) (.*\/jitted-$pid-\([0-9]*\)\.so)$/\1\2 \3 \4/p" \
		>"$TMP/perf.samples"
	cut -d' ' -f1,2 "$TMP/perf.samples" | "$JD" dump "$dump" findall |
		awk '{ print $1, $3 }' >"$TMP/ours.samples"
	awk '{ print $1, $3 }' "$TMP/perf.samples" >"$TMP/perf.s"
	nsamp=$(wc -l <"$TMP/perf.s")
	ndiff=$(paste -d' ' "$TMP/perf.s" "$TMP/ours.samples" | awk '$2 != $4' | wc -l)
	if [ "$nsamp" -eq 0 ]; then
		fail "$what: perf put no sample in JIT code"
	elif [ "$ndiff" -eq 0 ]; then
		ok "$what: $nsamp samples in JIT code: bt_jitdump_find names perf's load for each"
	else
		fail "$what: $ndiff of $nsamp samples in another load than perf's"
		paste -d' ' "$TMP/perf.s" "$TMP/ours.samples" | awk '$2 != $4' | head -3
	fi
	top=$(perf report -i "$dir/perf.jit.data" --stdio --sort dso,sym 2>/dev/null |
		awk '$2 ~ /^jitted-/ { $1 = $2 = $3 = ""; sub(/^ +/, ""); print; exit }')
	if printf '%s\n' "$top" | grep -Eq "$hot"; then
		ok "$what: the hottest JIT code in perf report is $top"
	else
		fail "$what: the hottest JIT code in perf report is '$top', not /$hot/"
	fi
}

# map_vs_dump WHAT MAP DUMP FILTER DIRECTION: the map's entries whose
# names match FILTER (an ERE) are loads of the dump, same address, same
# size (DIRECTION map); or every load of the dump is an entry of the map,
# same address, size and name (DIRECTION dump)
map_vs_dump() {
	"$JD" map "$2" >"$TMP/map" 2>"$TMP/err"
	rc=$?
	if [ $rc -ne 0 ]; then
		fail "$1: jit-dump map exited $rc: $(head -c 300 "$TMP/err")"
		return 1
	fi
	head -1 "$TMP/map" | grep -q ' bad 0 ' || fail "$1: lines not read: $(head -1 "$TMP/map")"
	if [ "$5" = map ]; then
		"$JD" dump "$3" loads | awk '{ printf "%s %d\n", $2, $3 }' | sort -u >"$TMP/d.ranges"
		tail -n +2 "$TMP/map" | awk -v re="$4" '{ s = $0; sub(/^[^ ]+ [^ ]+ [^ ]+ /, "", s)
			if (s ~ re) printf "%s %d\n", $1, $2 }' | sort -u >"$TMP/m.ranges"
		missing=$(comm -23 "$TMP/m.ranges" "$TMP/d.ranges" | wc -l)
		what="the $(wc -l <"$TMP/m.ranges") of compiled code are loads of the jitdump of the same run"
		wrong=$(comm -23 "$TMP/m.ranges" "$TMP/d.ranges" | head -3)
	else
		"$JD" dump "$3" loads | awk '{ a = $2; n = $3; $1 = $2 = $3 = $4 = ""
			sub(/^ +/, ""); printf "%s %d %s\n", a, n, $0 }' | sort -u >"$TMP/d.ranges"
		tail -n +2 "$TMP/map" | awk '{ a = $1; n = $2; $1 = $2 = $3 = ""
			sub(/^ +/, ""); printf "%s %d %s\n", a, n, $0 }' | sort -u >"$TMP/m.ranges"
		missing=$(comm -23 "$TMP/d.ranges" "$TMP/m.ranges" | wc -l)
		what="each of the $(wc -l <"$TMP/d.ranges") loads of the jitdump of the same run is one, with its name"
		wrong=$(comm -23 "$TMP/d.ranges" "$TMP/m.ranges" | head -3)
	fi
	if [ ! -s "$TMP/m.ranges" ] || [ ! -s "$TMP/d.ranges" ]; then
		fail "$1: nothing to compare"
	elif [ "$missing" -eq 0 ]; then
		ok "$1: $(tail -n +2 "$TMP/map" | wc -l) entries; $what"
	elif [ "$5" = map ] && [ "$missing" -le 2 ]; then
		# HotSpot writes its map at exit, after VM death, where the agent
		# closes its dump: a method compiled in between (seen in about one
		# run in three on this loaded machine) is in the map only
		ok "$1: $(tail -n +2 "$TMP/map" | wc -l) entries; $what but $missing compiled after the dump closed at VM death: $wrong"
	else
		fail "$1: $missing entries differ"
		printf '%s\n' "$wrong"
	fi
}

# check_map WHAT MAP NAME: an entry named NAME (ERE), 16 B to 64 KiB long,
# that bt_perfmap_find finds in its middle
check_map() {
	e=$(tail -n +2 "$TMP/map" | awk -v re="$3" '{ s = $0; sub(/^[^ ]+ [^ ]+ [^ ]+ /, "", s)
		if (s ~ re) print }' | tail -1)
	if [ -z "$e" ]; then
		fail "$1: no entry named /$3/"
		return
	fi
	set -- "$1" "$2" $e
	size=$(($4))
	if [ "$size" -lt 16 ] || [ "$size" -gt 65536 ]; then
		fail "$1: '$e' has an implausible size"
		return
	fi
	mid=$(printf '%#x' $(($3 + size / 2)))
	got=$("$JD" map "$2" find "$mid")
	if [ "${got%% *}" = "$3" ]; then
		ok "$1: ${e#* * * } at $3, $size bytes"
	else
		fail "$1: find $mid gave '$got', want the entry at $3"
	fi
}

if [ $have_node = 1 ]; then
	d=$TMP/node
	mkdir -p "$d"
	# V8 writes ./jit-PID.dump; --logfile=/dev/null keeps it from writing
	# an isolate-*-v8.log beside it
	nodeargs="--perf-prof --interpreted-frames-native-stack --logfile=/dev/null"
	if [ $have_perf = 1 ]; then
		(cd "$d" && perf record -q -k 1 -e cpu-clock -o perf.data -- \
			node $nodeargs "$TOP/tests/fixtures/hot.js" >/dev/null 2>"$TMP/err") ||
			fail "node: perf record failed: $(head -c 300 "$TMP/err")"
	else
		(cd "$d" && node $nodeargs "$TOP/tests/fixtures/hot.js" >/dev/null)
	fi
	dump=$(ls "$d"/jit-*.dump 2>/dev/null | head -1)
	if [ -z "$dump" ]; then
		fail "node: no jit-PID.dump in the working directory"
	else
		ls "$d"/isolate-*.log >/dev/null 2>&1 && fail "node: --logfile=/dev/null left an isolate log"
		check_dump "node --perf-prof" "$dump" 'JS:\*hotLoop ' &&
			[ $have_perf = 1 ] &&
			oracle "node" "$d" "$dump" "$d/perf.data" 'JS:\*hotLoop '
	fi
	# a map and a dump from one run
	d=$TMP/nodemap
	mkdir -p "$d"
	(cd "$d" && exec node --perf-basic-prof --perf-prof --logfile=/dev/null \
		"$TOP/tests/fixtures/hot.js" >/dev/null) &
	pid=$!
	wait $pid
	map=/tmp/perf-$pid.map
	if [ ! -f "$map" ]; then
		fail "node --perf-basic-prof wrote no $map"
	else
		map_vs_dump "node --perf-basic-prof" "$map" "$d/jit-$pid.dump" '' dump
		check_map "node --perf-basic-prof" "$map" '^JS:\*hotLoop '
		rm -f "$map"
	fi
fi

if [ $have_java = 1 ]; then
	d=$TMP/java
	mkdir -p "$d"
	java_fixture Hot "$d" || fail "javac failed"
	agent="-agentpath:$AGENT=dir=$d"
	if [ $have_perf = 1 ]; then
		perf record -q -k 1 -e cpu-clock -o "$d/perf.data" -- \
			java "$agent" -cp "$d" Hot >/dev/null 2>"$TMP/err" ||
			fail "java: perf record failed: $(head -c 300 "$TMP/err")"
	else
		java "$agent" -cp "$d" Hot >/dev/null 2>"$TMP/err"
	fi
	[ -s "$TMP/err" ] && fail "java: the agent said: $(head -c 300 "$TMP/err")"
	dump=$(ls "$d"/jit-*.dump 2>/dev/null | head -1)
	if [ -z "$dump" ]; then
		fail "java: the agent wrote no jit-PID.dump in $d"
	else
		check_dump "java + agent" "$dump" 'Hot\.run\(I\)D \[c2 L4 #[0-9]+\]$'
		grep -q ' closed 1' "$TMP/sum" || fail "java: no JIT_CODE_CLOSE at exit"
		"$JD" dump "$dump" lines | grep -q ' Hot.java$' ||
			fail "java: no line of Hot.java in the line tables"
		[ $have_perf = 1 ] &&
			oracle "java" "$d" "$dump" "$d/perf.data" '^Hot\.run\(I\)D \[c2 L4 '
	fi
	# HotSpot's own map, with the agent's dump of the same run
	d=$TMP/javamap
	mkdir -p "$d"
	java -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit \
		"-agentpath:$AGENT=dir=$d" -cp "$TMP/java" Hot >/dev/null &
	pid=$!
	wait $pid
	map=/tmp/perf-$pid.map
	if [ ! -f "$map" ]; then
		fail "java -XX:+DumpPerfMapAtExit wrote no $map"
	else
		# compiled methods: "RET pkg.Class.method(ARGS)"
		map_vs_dump "java -XX:+DumpPerfMapAtExit" "$map" "$d/jit-$pid.dump" \
			'^[^ (]+ [^ (]+\.[^ (]+\(' map
		check_map "java -XX:+DumpPerfMapAtExit" "$map" '^double Hot\.run\(int\)$'
		rm -f "$map"
	fi
fi
finish
