#!/bin/bash
# The shapes of perf.data other perf commands write (issue 12), each read
# with perf's counts (DESIGN.md §9): compressed recordings (perf record -z),
# pipe mode (perf record -o -, from a file and from standard input, several
# events, after perf inject), hardware trace (AUXTRACE records with their
# payload, put around real samples: no PMU here), a recording cut inside
# a record, and perf record --threads's directory (data and data.N, with
# and without -g and -z; what is refused in one).
. tests/lib.sh
command -v perf >/dev/null || skip "perf is not installed (scripts/deps.sh installs linux-perf)"
need_recording
split=$(fixture split)
PD=$TOP/$BUILD/tools/pd-dump
# "samples dso symbol" of user-space functions, as perf report sees them
# (as in test-perf.sh; each function's own samples, also with call chains);
# with an event name, that event's section only
perf_funcs() {
	perf report -i "$1" --stdio --no-children -g none --sort dso,sym -F sample,dso,sym 2>/dev/null |
		awk -v ev="${2:-}" '/^# Samples: .* of event / { e = $NF; gsub("\047", "", e); next }
		     $3 == "[.]" && (ev == "" || e == ev) { print $1, $2, $4 }' | plt_as_init | sort -k2
}
# perf's sample count (all events, or one)
perf_total() {
	perf report -i "$1" --stdio --sort comm -F sample -g none 2>/dev/null |
		awk -v ev="${2:-}" '/^# Samples: .* of event / { e = $NF; gsub("\047", "", e); next }
		     !/^#/ && NF && (ev == "" || e == ev) { s += $1 } END { print s + 0 }'
}
# the same from a benchtui --stdio --top 1 report (PLT stubs summed as perf's _init;
# the symbol is the last column, C names here; with call chains a Children
# column, and rows of functions with no samples of their own, as perf's
# --children lists them)
report_funcs() {
	awk '/^#Percent/ { for (i = 1; i <= NF; i++) if ($i == "Module") m = i; t = 1; next }
	     t && NF == 0 { exit }
	     t && $2 != 0 && $m != "[kernel]" && $m != "[unknown]" {
		if ($NF ~ /@plt$/) { plt[$m] += $2; next }
		print $2, $m, $NF }
	     END { for (x in plt) print plt[x], x, "_init" }' "$1" | sort -k2
}
report_total() { awk '/^# samples:/ { sub(",", "", $3); print $3; exit }' "$1"; }
bt_report() {	# bt_report FILE OUT [benchtui options]
	f=$1 out=$2; shift 2
	"$BT" -i "$f" --stdio --top 1 "$@" >"$out" 2>"$TMP/err"
}

# agree WHAT PERF_FILE REPORT [EVENT]: functions and total as perf's
# (perf's reading of a recording in $SHARE is made once per make check)
agree() {
	memo perf_funcs "$2" "${4:-}" >"$TMP/p"
	report_funcs "$3" >"$TMP/b"
	pt=$(memo perf_total "$2" "${4:-}")
	bt=$(report_total "$3")
	if [ ! -s "$TMP/p" ]; then
		fail "$1: perf printed nothing"
	elif [ "$pt" != "$bt" ]; then
		fail "$1: $bt samples, perf $pt"
	elif ! diff "$TMP/p" "$TMP/b" >"$TMP/d"; then
		fail "$1: functions differ (< perf, > benchtui)"; head -20 "$TMP/d"
	else
		ok "$1: $bt samples and $(wc -l <"$TMP/p") functions, as perf"
	fi
}

# perf's recordings that are files (not the live pipes) are made once per
# make check, in $SHARE (lib.sh)
# --- compressed: perf record -z
oracle z perf record -q -z -e cpu-clock -F 4000 -o "$SHARE/z.data" "$split" >/dev/null 2>&1 ||
	skip "perf record -z failed here"
bt_report "$SHARE/z.data" "$TMP/z.txt"
agree "perf record -z" "$SHARE/z.data" "$TMP/z.txt"
"$PD" "$SHARE/z.data" | grep -q '^compressed 1' || fail "pd-dump: -z recording not seen as compressed"
# small rings drained often: many compressed records, records cut by the
# ring's end straddle two of them
oracle zm perf record -q -z -m 2 -e cpu-clock -F 20000 -o "$SHARE/zm.data" "$split" >/dev/null 2>&1
zstats() { perf report -i "$1" --stats 2>/dev/null | awk '/COMPRESSED events:/ { print $3; exit }'; }
n=$(memo zstats "$SHARE/zm.data")
bt_report "$SHARE/zm.data" "$TMP/zm.txt"
agree "perf record -z -m 2 -F 20000 (${n:-?} compressed records)" "$SHARE/zm.data" "$TMP/zm.txt"
# the same report as an uncompressed recording of the same program
oracle u perf record -q -e cpu-clock -F 4000 -o "$SHARE/u.data" "$split" >/dev/null 2>&1
bt_report "$SHARE/u.data" "$TMP/u.txt"
shape() { sed -n 's/^# \(event\|status\): //p' "$1"; awk '/^#Percent/ { getline; print $3, $4; exit }' "$1"; }
if [ "$(shape "$TMP/z.txt")" = "$(shape "$TMP/u.txt")" ]; then
	ok "-z and plain recordings: the same report shape ($(shape "$TMP/z.txt" | sed -n 3p) hottest)"
else
	fail "-z and plain reports differ: $(shape "$TMP/z.txt" | tr '\n' '|') vs $(shape "$TMP/u.txt" | tr '\n' '|')"
fi

# --- pipe mode: perf record -o -
rec_pipe() { perf record -q -e cpu-clock -F 4000 -o - "$split" 2>/dev/null >"$SHARE/p.data"; }
oracle p rec_pipe
bt_report "$SHARE/p.data" "$TMP/p.txt"
agree "perf record -o - > file; benchtui -i file" "$SHARE/p.data" "$TMP/p.txt"
"$PD" "$SHARE/p.data" | grep -q '^pipe 1' || fail "pd-dump: pipe-mode file not seen as such"
perf record -q -e cpu-clock -F 4000 -o - "$split" 2>/dev/null | tee "$TMP/t.data" |
	"$BT" -i - --stdio --top 1 >"$TMP/t.txt" 2>"$TMP/err"
agree "perf record -o - | benchtui -i -" "$TMP/t.data" "$TMP/t.txt"
# a --time window reads the samples again: standard input was kept
"$BT" -i - --stdio --top 0 --time 0,50% <"$TMP/t.data" >"$TMP/w.txt" 2>"$TMP/err" &&
	grep -q 'window 0.000-' "$TMP/w.txt" && [ "$(report_total "$TMP/w.txt")" -gt 0 ] &&
	ok "benchtui -i - < file --time 0,50%: $(report_total "$TMP/w.txt") samples in the window" ||
	fail "-i - with --time: $(cat "$TMP/err")"
perf record -q -z -e cpu-clock -F 4000 -o - "$split" 2>/dev/null | tee "$TMP/pz.data" |
	"$BT" -i - --stdio --top 1 >"$TMP/pz.txt" 2>"$TMP/err"
agree "perf record -z -o - | benchtui -i -" "$TMP/pz.data" "$TMP/pz.txt"
perf record -q -e cpu-clock -F 4000 -o - "$split" 2>/dev/null | perf inject -b 2>/dev/null |
	tee "$TMP/inj.data" | "$BT" -i - --stdio --top 1 >"$TMP/inj.txt" 2>"$TMP/err"
agree "perf record -o - | perf inject -b | benchtui -i -" "$TMP/inj.data" "$TMP/inj.txt"
grep -q "^buildid .*$(basename "$split")\$" <("$PD" "$TMP/inj.data") &&
	ok "perf inject -b: build-ids read from the stream" || fail "perf inject -b: no build-id for $split"
# several events, each by the name perf gives it
rec_pipe2() { perf record -q -e cpu-clock -e task-clock -F 4000 -o - "$split" 2>/dev/null >"$SHARE/m.data"; }
oracle m rec_pipe2
for ev in cpu-clock task-clock; do
	bt_report "$SHARE/m.data" "$TMP/m.txt" -e "$ev"
	agree "pipe mode, two events: $ev" "$SHARE/m.data" "$TMP/m.txt" "$ev"
done
# nothing left behind: the copy of standard input has no name (a private
# TMPDIR, where the copy is made: other programs share /tmp)
mkdir "$TMP/tmpdir"
TMPDIR=$TMP/tmpdir "$BT" -i - --stdio --top 0 <"$TMP/t.data" >/dev/null 2>&1 &&
	cat "$TMP/t.data" | TMPDIR=$TMP/tmpdir "$BT" -i - --stdio --top 0 >"$TMP/out" 2>&1
left=$(ls -A "$TMP/tmpdir")
[ -s "$TMP/out" ] && [ -z "$left" ] && ok "-i -: no temporary file left in TMPDIR" ||
	fail "-i -: left in TMPDIR: '$left' (report: $(head -c 200 "$TMP/out"))"
"$BT" -i - --stdio </dev/null >/dev/null 2>"$TMP/err"
[ $? = 2 ] && grep -q "standard input is empty" "$TMP/err" &&
	ok "-i - with nothing piped: $(cat "$TMP/err")" || fail "-i - empty: $(cat "$TMP/err")"
if command -v script >/dev/null; then
	script -qec "'$BT' -i - --stdio" /dev/null </dev/null >"$TMP/out" 2>&1
	rc=$?
	[ $rc = 2 ] && grep -q "standard input is a terminal" "$TMP/out" &&
		ok "-i - on a terminal: $(tr -d '\r' <"$TMP/out")" || fail "-i - on a terminal: rc $rc $(cat "$TMP/out")"
else
	skipped "no script(1): -i - on a terminal not tried"
fi

# --- hardware trace: AUXTRACE payloads between the samples
for kind in file pipe; do
	[ $kind = file ] && src=$SHARE/u.data || src=$SHARE/p.data
	set -- $(python3 "$TOP/tests/tools/pd-auxtrace.py" "$src" "$TMP/aux.data" 40)
	bt_report "$TMP/aux.data" "$TMP/aux.txt"
	agree "AUXTRACE in a $kind ($1 payloads, $2 bytes skipped)" "$src" "$TMP/aux.txt"
	"$PD" "$TMP/aux.data" | grep -q "^auxtrace Intel PT, $1 records, $2 bytes" &&
		ok "AUXTRACE in a $kind: the reader says what it skipped ($("$PD" "$TMP/aux.data" | grep '^auxtrace'))" ||
		fail "AUXTRACE in a $kind: $("$PD" "$TMP/aux.data" 2>&1 | grep -m1 'auxtrace\|pd-dump')"
	grep -q "^# note: the recording holds hardware trace (Intel PT, $1 records, $2 bytes)" "$TMP/aux.txt" &&
		ok "AUXTRACE in a $kind: the header says it is not decoded" ||
		fail "AUXTRACE in a $kind: no note in the header: $(grep -m3 '^note\|^status' "$TMP/aux.txt")"
done

# --- a recording cut inside a record (perf's file: the raw fast path;
# benchtui's, byte-swapped: the decoder; pd-swap knows its layout without
# call chains)
"$BT" -q --call-graph none -o "$TMP/bt.data" --stdio --top 0 "$split" >/dev/null 2>&1
"$TOP/$BUILD/tools/pd-swap" "$TMP/bt.data" "$TMP/sw.data" || fail "pd-swap failed"
for f in "$SHARE/u.data" "$TMP/sw.data"; do
	rm -f "$TMP/cut.data"
	python3 - "$f" "$TMP/cut.data" <<'EOF'
import struct, sys
d = open(sys.argv[1], "rb").read()
e = "<" if d[:8] == b"PERFILE2" else ">"
off, size = struct.unpack_from(e + "QQ", d, 40)
pos = off
# from the middle on, the first record longer than 12 bytes (not a FINISHED_ROUND)
while pos < off + size // 2 or struct.unpack_from(e + "H", d, pos + 6)[0] <= 12:
    pos += struct.unpack_from(e + "H", d, pos + 6)[0]
open(sys.argv[2], "wb").write(d[:pos + 12])
EOF
	"$BT" -i "$TMP/cut.data" --stdio >/dev/null 2>"$TMP/err"
	rc=$?
	[ $rc = 2 ] && grep -q "runs past the end of the data (truncated file?)" "$TMP/err" &&
		ok "$(basename "$f") cut inside a record: $(cat "$TMP/err")" || fail "$(basename "$f") cut: rc $rc: $(cat "$TMP/err")"
done
# --- perf record --threads: a directory, "data" (header, features, what
# perf's main thread wrote) and data.N (each CPU's ring buffer), merged in
# time order (docs/formats.md). procs migrate: a process and its child,
# each on every CPU in turn, their mappings in the file of the CPU that
# ran the exec, their samples in every file; procs fork: three processes
P=$(fixture procs -pthread)
Pfp=$(fixture_as procs-fp procs.c cc -O2 -g -fno-omit-frame-pointer -pthread)
thr_rec() {	# NAME PROGRAM MODE [PERF_OPTIONS...]: perf record --threads of PROGRAM MODE
	n=$1 prog=$2 mode=$3; shift 3
	rm -rf "$SHARE/$n.data"
	perf record -q --threads -e cpu-clock -F 4000 "$@" -o "$SHARE/$n.data" "$prog" "$mode" >/dev/null 2>&1
}
perf_reports() {	# FILE: $FILE.children, $FILE.folded (tests/tools/chains-oracle.py)
	perf report -i "$1" --children --no-inline --stdio -g none --sort dso,sym 2>/dev/null >"$1.children"
	perf report -i "$1" --no-children --no-inline --stdio --sort dso,sym \
		-g folded,0,callee,function,count 2>/dev/null >"$1.folded"
}
# which files hold which records: "data.0: 4 mmaps, 1180 samples; ..."
dir_files() {
	python3 - "$1" <<'PY'
import os, struct, sys
out = []
for name in sorted(os.listdir(sys.argv[1])):
    if not name.startswith("data."):
        continue
    d = open(os.path.join(sys.argv[1], name), "rb").read()
    pos = n = m = 0
    while pos + 8 <= len(d):
        t, sz = struct.unpack_from("<I2xH", d, pos)
        if sz < 8:
            break
        n += t == 9
        m += t in (1, 10)
        pos += sz
    out.append("%s: %d mmaps, %d samples" % (name, m, n))
print("; ".join(out))
PY
}
if oracle thr thr_rec thr "$P" migrate; then
	files=$(dir_files "$SHARE/thr.data")
	case $files in
	*"0 mmaps, "[1-9]*) ;;
	*) [ "$(nproc)" -gt 1 ] && fail "procs migrate: no file with samples and none of their mappings: $files" ;;
	esac
	bt_report "$SHARE/thr.data" "$TMP/thr.txt"
	agree "perf record --threads ($files)" "$SHARE/thr.data" "$TMP/thr.txt"
	oracle thrz thr_rec thrz "$P" fork -z
	bt_report "$SHARE/thrz.data" "$TMP/thrz.txt"
	agree "perf record --threads -z, three processes" "$SHARE/thrz.data" "$TMP/thrz.txt"
	oracle thrg thr_rec thrg "$Pfp" migrate -g
	oracle thrg-reports perf_reports "$SHARE/thrg.data"
	bt_report "$SHARE/thrg.data" "$TMP/thrg.txt"
	agree "perf record --threads -g ($(dir_files "$SHARE/thrg.data"))" "$SHARE/thrg.data" "$TMP/thrg.txt"
	if "$BT" -i "$SHARE/thrg.data" --export "$TMP/thrg.json" --format json --top 0 2>"$TMP/err"; then
		python3 "$TOP/tests/tools/chains-oracle.py" "$TMP/thrg.json" "$SHARE/thrg.data.children" \
		    "$SHARE/thrg.data.folded" >"$TMP/o" &&
			{ cat "$TMP/o"; ok "perf record --threads -g: perf report --children's inclusive percents and callers"; } ||
			fail "perf record --threads -g: $(cat "$TMP/o")"
	else
		fail "benchtui -i thrg.data: $(cat "$TMP/err")"
	fi
	# what is not perf's directory, or a file of it that is not a regular
	# file, missing or cut: exit 2, one line that names it
	refused() {	# WHAT DIR PATTERN
		timeout 20 "$BT" -i "$2" --stdio >/dev/null 2>"$TMP/err"
		rc=$?
		if [ $rc = 2 ] && [ "$(wc -l <"$TMP/err")" = 1 ] && grep -q -- "$3" "$TMP/err"; then
			ok "$1: $(cat "$TMP/err")"
		else
			fail "$1: exit $rc, want 2 and one line with '$3': $(head -c 300 "$TMP/err")"
		fi
	}
	mkdir "$TMP/empty.data"
	refused "a directory without 'data'" "$TMP/empty.data" "is not a regular file, nor a perf record --threads directory"
	mkdir "$TMP/plain.data" && cp "$SHARE/u.data" "$TMP/plain.data/data"
	refused "a directory whose 'data' has no DIR_FORMAT" "$TMP/plain.data" "/data' has no DIR_FORMAT feature"
	refused "the directory's 'data' alone" "$SHARE/thr.data/data" "is the header of a perf record --threads directory"
	d=$TMP/copy.data
	cp -r "$SHARE/thr.data" "$d" && mv "$d/data.1" "$TMP/data.1" && ln -s "$TMP/data.1" "$d/data.1"
	refused "data.1 a symbolic link" "$d" "/data.1' is a symbolic link, not a regular file"
	rm "$d/data.1" && mkfifo "$d/data.1"
	refused "data.1 a FIFO (never opened: it would block)" "$d" "/data.1' is not a regular file"
	rm "$d/data.1"
	refused "data.1 missing" "$d" "/data.1' is missing (perf record --threads wrote data.0 to data.1)"
	# the largest data.N cut inside its last record
	cp "$TMP/data.1" "$d/data.1"
	big=$(ls -S "$d"/data.* | head -1)
	truncate -s -5 "$big"
	refused "$(basename "$big") cut inside a record" "$d" \
		"$(basename "$big")': record at offset .* runs past the end of the data (truncated file?)"
	# a name from the directory reaches the terminal escaped
	e=$TMP/$'esc\e]0;owned\a.data'
	mkdir "$e"
	"$BT" -i "$e" --stdio >/dev/null 2>"$TMP/err"
	if grep -q $'\e' "$TMP/err" || ! grep -qF 'esc\x1b]0;owned\x07.data' "$TMP/err"; then
		fail "escape sequences in the directory's name reach the terminal: $(od -c "$TMP/err" | head -3)"
	else
		ok "the directory's name escaped: $(cat "$TMP/err")"
	fi
else
	skipped "perf record --threads failed here (perf older than 5.18?)"
fi
finish
