#!/bin/bash
# Where a recording goes, and what is left when benchtui dies (issue 12):
# -o naming a directory, FIFO, device or symlink is checked before the
# benchmark starts (a device is written through, a symlink's target
# written); benchtui killed by SIGKILL takes the benchmark with it, and
# the recording written so far opens (perf reads the same records); with
# -i the recorded benchmark's status is shown, not returned.
. tests/lib.sh
need_recording
split=$(fixture split)
lr=$(fixture longrun -pthread)
count() { awk '/^# samples:/ { sub(",", "", $3); print $3; exit }' "$1"; }

# --- -o: checked before the benchmark runs (it would create $TMP/ran)
mkdir "$TMP/adir"
mkfifo "$TMP/fifo"
for out in "$TMP/adir" "$TMP/fifo"; do
	rm -f "$TMP/ran"
	"$BT" -q -o "$out" --stdio sh -c ": >'$TMP/ran'" >/dev/null 2>"$TMP/err"
	rc=$?
	if [ $rc = 2 ] && [ ! -e "$TMP/ran" ] && [ "$(wc -l <"$TMP/err")" = 1 ]; then
		ok "-o $(basename "$out"): refused before the benchmark ran: $(cat "$TMP/err")"
	else
		fail "-o $out: rc $rc, ran: $([ -e "$TMP/ran" ] && echo yes || echo no), $(cat "$TMP/err")"
	fi
done
[ -d "$TMP/adir" ] && [ -p "$TMP/fifo" ] && [ ! -e "$TMP/adir.tmp" ] && [ ! -e "$TMP/fifo.tmp" ] ||
	fail "-o: the directory or FIFO was changed, or a .tmp left"

# a device: written through (the node stays a device), nothing to show
if [ -c /dev/null ] && [ -w /dev/null ]; then
	"$BT" -q -o /dev/null --stdio sh -c 'exit 3' >/dev/null 2>"$TMP/err"
	rc=$?
	if [ $rc = 3 ] && [ -c /dev/null ] && [ ! -e /dev/null.tmp ] && grep -q "cannot be read back" "$TMP/err"; then
		ok "-o /dev/null: written through, still a device, the benchmark's status 3: $(cat "$TMP/err")"
	else
		fail "-o /dev/null: rc $rc, $(ls -l /dev/null), $(cat "$TMP/err")"
	fi
else
	skipped "/dev/null is not a writable character device here"
fi

# a symlink: its target is written, the link stays
ln -s target.data "$TMP/link.data"
"$BT" -q -o "$TMP/link.data" --stdio --top 0 "$split" >"$TMP/l.txt" 2>"$TMP/err"
rc=$?
if [ $rc = 0 ] && [ -L "$TMP/link.data" ] && [ -f "$TMP/target.data" ] &&
    [ "$("$BT" -i "$TMP/target.data" --stdio --top 0 | count /dev/stdin)" = "$(count "$TMP/l.txt")" ]; then
	ok "-o a symlink: its target written ($(count "$TMP/l.txt") samples), the link kept"
else
	fail "-o a symlink: rc $rc, $(ls -l "$TMP"/link.data "$TMP"/target.data* 2>&1 | tr '\n' ' ') $(cat "$TMP/err")"
fi

# --- benchtui killed: the benchmark dies with it, the recording opens
"$BT" -q -o "$TMP/k.data" --stdio "$lr" 60 >/dev/null 2>&1 &
bt=$!
child=
for _ in $(seq 200); do
	child=$(pgrep -P $bt)
	[ -n "$child" ] && [ "$(stat -c %s "$TMP/k.data.tmp" 2>/dev/null || echo 0)" -gt 65536 ] && break
	sleep 0.05
done
kill -9 $bt
wait $bt 2>/dev/null
for _ in $(seq 100); do kill -0 "$child" 2>/dev/null || break; sleep 0.05; done
if [ -z "$child" ]; then
	fail "benchtui killed: the benchmark was never seen running"
elif kill -0 "$child" 2>/dev/null; then
	fail "benchtui killed: the benchmark $child still runs"; kill -9 "$child"
else
	ok "benchtui killed by SIGKILL: the benchmark died with it"
fi
"$BT" -i "$TMP/k.data.tmp" --stdio --top 0 >"$TMP/k.txt" 2>"$TMP/err"
rc=$?
n=$(count "$TMP/k.txt")
if [ $rc = 0 ] && [ "${n:-0}" -gt 0 ] && grep -q "^# note: the recording was not finished" "$TMP/k.txt"; then
	ok "the killed recording opens: $n samples, $(grep '^# note: the recording was not' "$TMP/k.txt")"
else
	fail "the killed recording: rc $rc, ${n:-no} samples, $(cat "$TMP/err")"
fi
# perf 6.1 refuses a data size of 0; with the size of its whole records
# filled in, it reads the same records: the same count (-g none: the call
# graph's lines are not counts; an unresolved frame's 0x1040000000 was
# summed as one, ~1 run in 7)
if command -v perf >/dev/null; then
	python3 - "$TMP/k.data.tmp" "$TMP/kfix.data" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
off, = struct.unpack_from("<Q", d, 40)
pos = off
while pos + 8 <= len(d):
    size, = struct.unpack_from("<H", d, pos + 6)
    if size < 8 or pos + size > len(d):
        break
    pos += size
struct.pack_into("<Q", d, 48, pos - off)
open(sys.argv[2], "wb").write(d[:pos])
PY
	p=$(perf report -i "$TMP/kfix.data" --stdio --sort comm -F sample -g none 2>/dev/null |
		awk '!/^#/ && NF { s += $1 } END { print s + 0 }')
	[ "$p" = "$n" ] && ok "the killed recording: perf counts $p samples in its whole records too" ||
		fail "the killed recording: benchtui $n samples, perf $p"
else
	skipped "perf is not installed: the killed recording's count not compared"
fi

# --- -i: the recorded status is shown, not returned
"$BT" -q -o "$TMP/s.data" --stdio --top 0 sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; exit 3' \
	>/dev/null 2>&1
rc=$?
"$BT" -i "$TMP/s.data" --stdio --top 0 >"$TMP/s.txt" 2>&1
irc=$?
[ $rc = 3 ] && [ $irc = 0 ] && grep -q "^# status: exit 3" "$TMP/s.txt" &&
	ok "a benchmark that exited 3: the run exits 3, -i exits 0 and shows '$(grep '^# status' "$TMP/s.txt")'" ||
	fail "status: the run $rc, -i $irc, $(grep '^# status' "$TMP/s.txt")"
finish
