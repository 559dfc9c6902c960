#!/bin/bash
# Processes and threads (--comm, the process list, the JSON processes[])
# against perf report --sort comm,pid and --comms on the same recordings:
# a program that forks two workers, one whose threads rename themselves
# part way (prctl), one that execs another program (its comm changes at
# the exec), recorded by perf and by benchtui (perf report reads both).
. tests/lib.sh
command -v perf >/dev/null || skip "perf is not installed"
procs=$(fixture procs -pthread)
names=$(fixture threadnames -pthread)
other=$(fixture_as procs-exec procs.c cc -O2 -g -pthread)

oracle fork perf record -q -e cpu-clock -F 2000 -o "$SHARE/fork.data" "$procs" fork >/dev/null 2>&1 ||
	fail "perf record of procs fork failed"
oracle names perf record -q -e cpu-clock -F 2000 -o "$SHARE/names.data" "$names" 3 >/dev/null 2>&1 ||
	fail "perf record of threadnames failed"
oracle exec perf record -q -e cpu-clock -F 2000 -o "$SHARE/exec.data" "$procs" exec "$other" threads 2 \
	>/dev/null 2>&1 || fail "perf record of procs exec failed"
"$BT" -q -F 2000 -o "$TMP/btfork.data" --export "$TMP/x.txt" "$procs" fork >/dev/null 2>&1 ||
	fail "benchtui's recording of procs fork failed"
"$BT" -q -F 2000 -o "$TMP/btexec.data" --export "$TMP/x.txt" "$procs" exec "$other" fork >/dev/null 2>&1 ||
	fail "benchtui's recording of procs exec failed"

# perf's rows "samples comm tid" (perf report's comm column is cut to its
# heading's width when names differ in length: a prefix of the name)
perf_rows() {
	memo perf report -i "$1" --stdio --sort comm,pid -F sample,comm,pid -g none \
		--no-children -t '|' 2>/dev/null |
		awk -F'|' '!/^#/ && NF == 3 { gsub(/ /, "", $1); gsub(/ /, "", $2);
			split($3, t, ":"); gsub(/ /, "", t[1]); print $1, $2, t[1] }'
}
# benchtui's: from the JSON's processes[], "samples comm tid", and the run's samples
bt_rows() {
	"$BT" -i "$1" --stdio --top 0 --format json 2>/dev/null | python3 -c '
import json, sys
js = json.load(sys.stdin)
n = 0
for p in js["processes"]:
    if p["samples"] != sum(t["samples"] for t in p["threads"]):
        print("BAD process %d: %d samples, its threads %d" % (p["pid"], p["samples"],
              sum(t["samples"] for t in p["threads"])))
    for t in p["threads"]:
        print(t["samples"], t["comm"], t["tid"])
        n += t["samples"]
if n != js["samples"]:
    print("BAD the threads have %d samples, the run %d" % (n, js["samples"]))'
}
# do two lists of "samples comm tid" agree, perf's comm a prefix of ours?
same_rows() {
	python3 - "$1" "$2" <<'EOF'
import sys
perf = [l.split() for l in open(sys.argv[1]) if l.strip()]
ours = [l.split() for l in open(sys.argv[2]) if l.strip()]
left = list(ours)
for n, comm, tid in perf:
    m = [o for o in left if o[0] == n and o[2] == tid and o[1].startswith(comm)]
    if not m:
        print("perf's %s %s %s: not in benchtui's" % (n, comm, tid))
        sys.exit(1)
    left.remove(m[0])
if left:
    print("benchtui's %s: not in perf's" % left)
    sys.exit(1)
EOF
}
for rec in fork names exec btfork btexec; do
	f=$SHARE/$rec.data
	case $rec in bt*) f=$TMP/$rec.data ;; esac
	[ -s "$f" ] || continue
	perf_rows "$f" >"$TMP/pr"
	bt_rows "$f" >"$TMP/br"
	if grep -q BAD "$TMP/br"; then
		fail "$rec: $(grep BAD "$TMP/br")"
	elif [ -s "$TMP/pr" ] && same_rows "$TMP/pr" "$TMP/br" >"$TMP/d"; then
		ok "$rec: samples per thread and name as perf report --sort comm,pid ($(wc -l <"$TMP/br") rows)"
	else
		fail "$rec: rows differ from perf report's: $(cat "$TMP/d")"
		paste "$TMP/pr" "$TMP/br" | head -10 | sed 's/^/     | /'
	fi
	# --comm NAME: the samples of perf report --comms NAME, sorted by comm
	# too (sorted by pid alone, perf's entries merge a thread's names and
	# the filter reads its last one)
	for c in $(awk '{ print $2 }' "$TMP/br" | sort -u); do
		p=$(memo perf report -i "$f" --stdio --comms "$c" --sort comm,pid -F sample -g none \
			--no-children -t '|' 2>/dev/null | awk '!/^#/ && NF { s += $1 } END { print s + 0 }')
		b=$("$BT" -i "$f" --stdio --top 0 --comm "$c" 2>/dev/null |
			awk '/^# samples:/ { sub(",", "", $3); print $3 }')
		[ "$p" = "$b" ] && ok "$rec: --comm $c: $b samples, as perf report --comms" ||
			fail "$rec: --comm $c: $b samples, perf report --comms $p"
	done
done

# a thread renamed part way: its two names, each with the samples of its time
f=$SHARE/names.data
if [ -s "$f" ]; then
	"$BT" -i "$f" --stdio --top 0 >"$TMP/n.txt" 2>&1
	sed -n '/^## processes: 1, threads: 4/,/^$/p' "$TMP/n.txt" >"$TMP/ns"
	grep -q " work-0 " "$TMP/ns" && grep -q " threadnames " "$TMP/ns" && grep -q " boss " "$TMP/ns" &&
		ok "## processes: one process, 4 threads, each under its names" ||
		{ fail "## processes of threadnames"; sed 's/^/     | /' "$TMP/ns"; }
	"$BT" -i "$f" --stdio --top 0 --comm work-0,work-1 >"$TMP/w.txt" 2>&1
	grep -q "^# threads: comm work-0, work-1 (their samples only)" "$TMP/w.txt" &&
		ok "--comm a,b: the header says which" || fail "--comm header: $(grep threads "$TMP/w.txt")"
	"$BT" -i "$f" --stdio --top 0 --comm nosuch >/dev/null 2>"$TMP/e"; rc=$?
	[ $rc != 0 ] && grep -q "no thread named 'nosuch' in the recording (it has .*'work-0'" "$TMP/e" &&
		ok "--comm nosuch: an error naming the recording's names" || fail "--comm nosuch: exit $rc, $(cat "$TMP/e")"
fi
"$BT" -i "$SHARE/fork.data" --stdio --top 0 --comm abcdefghijklmnopq >/dev/null 2>"$TMP/e"; rc=$?
[ $rc = 1 ] && grep -q "longer than a thread's name" "$TMP/e" && ok "--comm of 17 characters: a usage error" ||
	fail "--comm too long: exit $rc, $(cat "$TMP/e")"
"$BT" -i "$SHARE/fork.data" --stdio --top 0 --comm a,,b >/dev/null 2>"$TMP/e"; rc=$?
[ $rc = 1 ] && grep -q "bad --comm value 'a,,b'" "$TMP/e" && ok "--comm a,,b: a usage error" ||
	fail "--comm a,,b: exit $rc, $(cat "$TMP/e")"

# text and JSON say the same, the processes too
for rec in fork names exec; do
	f=$SHARE/$rec.data
	[ -s "$f" ] || continue
	"$BT" -i "$f" --stdio --top 1 >"$TMP/a.txt" 2>/dev/null
	"$BT" -i "$f" --stdio --top 1 --format json >"$TMP/a.json" 2>/dev/null
	out=$(python3 "$TOP/tests/tools/export-agree.py" "$TMP/a.txt" "$TMP/a.json") &&
		echo "$out" | grep -q "processes" && ok "$rec: text and JSON agree: ${out#agree: }" ||
		fail "$rec: $out"
done

# Scale: reading a recording of many short processes with stack copies
# costs memory that does not grow with them (core/unwind/unwinder.c keeps
# the unwinding sessions of the 64 most recent processes only: before, each
# held its libdwfl session, files and rows to the end, ~75 KiB a process
# here, ~0.3 MB with 8 KiB copies). The peak RSS of reading 20 and 400,
# --no-source: the Source column reads the DWARF of the libraries whose
# functions the table shows, ~18 MiB for libc's and ld.so's (libdw
# decompresses their .debug sections), once whatever the number of
# processes; 20 short processes' samples show none of their functions now
# and then (no sample under fork), and that 18 MiB counted as growth read
# 58-62 KiB a process where it is 13-15.
# (the plain build only: ASan keeps what is freed in its quarantine)
M=$TOP/$BUILD/tools/measure
if [ "$BUILD" != build ]; then
	skipped "memory per process: measured in the plain build (ASan's quarantine keeps freed memory)"
elif [ ! -x "$M" ]; then
	skipped "memory per process: $M is not built (make tools)"
else
	for n in 20 400; do
		"$BT" -q --call-graph dwarf,1024 -o "$TMP/forks$n.data" --stdio --top 0 \
			"$procs" forks $n >/dev/null 2>&1 || fail "recording $n forks failed"
	done
	r20=$("$M" 1 "$BT" -i "$TMP/forks20.data" --stdio --top 1 --no-source | cut -d' ' -f2)
	r400=$("$M" 1 "$BT" -i "$TMP/forks400.data" --stdio --top 1 --no-source | cut -d' ' -f2)
	per=$(( (r400 - r20) / 380 ))
	# perf report takes ~125 KiB a process reading such a recording (1,000
	# processes: 125 MB, bench/forks.sh); benchtui took ~80 KiB before it
	# kept 64 processes' unwinders (~300 KiB with 8 KiB copies), 13-15 since
	[ "$per" -le 30 ] &&
		ok "400 short processes with stack copies read in $((r400 / 1024)) MiB, 20 in $((r20 / 1024)) MiB: $per KiB a process" ||
		fail "reading 400 short processes: $((r400 / 1024)) MiB, 20: $((r20 / 1024)) MiB: $per KiB a process (at most 30; perf's ~125)"
fi
finish
