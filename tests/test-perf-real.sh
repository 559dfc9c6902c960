#!/bin/bash
# Real-world recordings read right (issue 12), each against perf's own
# reading of the same file (DESIGN.md §9): event names with perf's
# modifiers (also when the file has no EVENT_DESC names, as older perfs
# wrote), the default event when the first one is empty, mappings that
# overlap part of an older one, group sampling (PERF_SAMPLE_READ).
. tests/lib.sh
command -v perf >/dev/null || skip "perf is not installed (scripts/deps.sh installs linux-perf)"
need_recording
split=$(fixture split)
STRIP=$TOP/tests/tools/pd-strip-feature.py
# "name samples" of every event perf reports (events without samples are
# not listed by perf), in file order
perf_events() {
	perf report -i "$1" --stdio --no-group --sort comm -F sample -g none 2>/dev/null |
		awk '/^# Samples: .* of event/ { if (e != "") print e, s; e = $NF; gsub("\047", "", e); s = 0; next }
		     !/^#/ && NF { s += $1 } END { if (e != "") print e, s }'
}
# the same from benchtui: the header's list, or its one event
bt_events() {
	"$BT" -i "$1" --stdio --top 0 2>"$TMP/err" >"$TMP/ev.txt"
	if grep -q '^# note: [0-9]* events with samples: ' "$TMP/ev.txt"; then
		sed -n 's/^# note: [0-9]* events with samples: \(.*\); -e NAME.*/\1/p' "$TMP/ev.txt" |
			sed 's/), /)\n/g' | sed 's/^\(.*\) (\([0-9]*\))$/\1 \2/'
	else
		e=$(sed -n 's/^# event: \([^,]*\).*/\1/p' "$TMP/ev.txt")
		n=$(awk '/^# samples:/ { sub(",", "", $3); print $3; exit }' "$TMP/ev.txt")
		echo "$e $n"
	fi
}
# "samples dso symbol" of user-space functions, of one event
perf_funcs() {
	perf report -i "$1" --stdio --no-group --sort dso,sym -F sample,dso,sym 2>/dev/null |
		awk -v ev="$2" '/^# Samples: .* of events? / { e = $NF; gsub("\047", "", e); next }
		     $3 == "[.]" && e == ev { print $1, $2, $4 }' | plt_as_init | sort -k2
}
bt_funcs() {
	"$BT" -i "$1" --stdio --top 1 -e "$2" 2>/dev/null |
		awk '/^#Percent/ { t = 1; next } t && NF == 0 { exit }
		     t && $3 != "[kernel]" && $3 != "[unknown]" {
			if ($NF ~ /@plt$/) { plt[$3] += $2; next }
			print $2, $3, $NF }
		     END { for (m in plt) print plt[m], m, "_init" }' | sort -k2
}
compare() {	# compare WHAT PERF_OUT BT_OUT
	if [ ! -s "$2" ]; then
		fail "$1: perf printed nothing"
	elif diff "$2" "$3" >"$TMP/d"; then
		ok "$1: $(tr '\n' ' ' <"$2" | cut -c1-150)"
	else
		fail "$1 differs (< perf, > benchtui)"; head -20 "$TMP/d"
	fi
}

# perf's recordings of fixtures, and perf report's reading of them, are
# made once per make check ($SHARE, lib.sh); the sections that rewrite a
# program or a perf home make theirs in $TMP every time

# --- event names with modifiers, with and without EVENT_DESC
oracle mod perf record -q -e cpu-clock:u -e task-clock:k -e cpu-clock -e cpu-clock:G \
	-e cpu-clock:uk -e cpu-clock:h -F 1000 -o "$SHARE/mod.data" "$split" >/dev/null 2>&1 ||
	skip "perf record with modifiers failed here"
oracle nodesc python3 "$STRIP" "$SHARE/mod.data" "$SHARE/nodesc.data" 12 ||
	fail "pd-strip-feature: no EVENT_DESC in perf's recording"
for f in mod.data nodesc.data; do
	memo perf_events "$SHARE/$f" >"$TMP/p"
	bt_events "$SHARE/$f" >"$TMP/b"
	compare "$f: events and their samples as perf" "$TMP/p" "$TMP/b"
	# -e selects each by perf's name: the one with k/u bits, and plain
	while read -r ev n; do
		case $ev in cpu-clock|cpu-clock:u*) ;; *) continue ;; esac
		memo perf_funcs "$SHARE/$f" "$ev" >"$TMP/pf"
		bt_funcs "$SHARE/$f" "$ev" >"$TMP/bf"
		compare "$f: -e $ev: functions as perf's" "$TMP/pf" "$TMP/bf"
	done <"$TMP/p"
done
grep -q "^cpu-clock:uH " "$TMP/p" || fail "perf did not name cpu-clock:u cpu-clock:uH without EVENT_DESC: $(cat "$TMP/p")"

# tracepoints: named from EVENT_DESC, or from the formats in TRACING_DATA
if oracle tp perf record -q -e sched:sched_switch -e cpu-clock -F 1000 -o "$SHARE/tp.data" "$split" >/dev/null 2>&1; then
	oracle tp-nodesc python3 "$STRIP" "$SHARE/tp.data" "$SHARE/tp-nodesc.data" 12
	for f in tp.data tp-nodesc.data; do
		memo perf_events "$SHARE/$f" >"$TMP/p"
		bt_events "$SHARE/$f" >"$TMP/b"
		compare "$f: tracepoint events named as perf names them" "$TMP/p" "$TMP/b"
	done
else
	skipped "perf record -e sched:sched_switch failed here (no tracefs?)"
fi

# --- the first event has no samples (cpu-clock:h: no hypervisor here)
oracle empty1 perf record -q -e cpu-clock:h -e cpu-clock -F 1000 -o "$SHARE/empty1.data" "$split" >/dev/null 2>&1
memo perf_events "$SHARE/empty1.data" >"$TMP/p"
if [ "$(wc -l <"$TMP/p")" != 1 ]; then
	skipped "cpu-clock:h has samples here: no empty first event ($(tr '\n' ' ' <"$TMP/p"))"
else
	bt_events "$SHARE/empty1.data" >"$TMP/b"
	compare "first event empty: the one with samples is shown" "$TMP/p" "$TMP/b"
	grep -q "^# note: only 'cpu-clock' has samples, of 2 events" "$TMP/ev.txt" &&
		ok "first event empty: $(grep '^# note: only' "$TMP/ev.txt")" ||
		fail "first event empty: no note: $(grep '^# note' "$TMP/ev.txt")"
fi

# --- a mapping over the middle of the program's code (mmap MAP_FIXED of
# an executable page): perf keeps the code on both sides of it
ovl=$(fixture overlap -fno-reorder-functions)
oracle ovl perf record -q -e cpu-clock -F 2000 -o "$SHARE/ovl.data" "$ovl" >/dev/null 2>&1
memo perf_funcs "$SHARE/ovl.data" cpu-clock >"$TMP/p"
bt_funcs "$SHARE/ovl.data" cpu-clock >"$TMP/b"
compare "mapping over part of an older one: functions as perf's" "$TMP/p" "$TMP/b"
grep -q " hot_a$" "$TMP/b" && grep -q " hot_b$" "$TMP/b" ||
	fail "overlap: hot_a and hot_b not both found: $(tr '\n' ' ' <"$TMP/b")"

# --- group sampling: the leader's samples carry every member's count
oracle grp perf record -q -e '{cpu-clock,task-clock}:S' -F 2000 -o "$SHARE/grp.data" "$split" >/dev/null 2>&1 ||
	skip "perf record of a group failed here"
memo perf_events "$SHARE/grp.data" >"$TMP/p"
bt_events "$SHARE/grp.data" >"$TMP/b"
compare "group {cpu-clock,task-clock}:S: events and samples as perf" "$TMP/p" "$TMP/b"
for ev in cpu-clock task-clock; do
	memo perf_funcs "$SHARE/grp.data" $ev >"$TMP/pf"
	bt_funcs "$SHARE/grp.data" $ev >"$TMP/bf"
	compare "group: -e $ev: functions as perf's" "$TMP/pf" "$TMP/bf"
done

# --- module paths that are not programs: a FIFO where the program was (it
# used to hang in open()), the kernel's files (/proc/self/exe is benchtui
# itself; libdw leaked on sysfs), a device: refused, samples kept
mkdir -p "$TMP/mods"
prog=$TMP/mods/a-program-with-a-long-name
cp "$split" "$prog"
perf record -q -N -e cpu-clock -F 1000 -o "$TMP/mp.data" "$prog" >/dev/null 2>&1
mkdir -p "$TMP/nohome"	# no build-id cache: the refusal itself is what is seen
n=$(perf_events "$TMP/mp.data" | awk '{ print $2 }')
for to in /proc/self/exe /sys/kernel/notes /dev/null //proc/./self/exe fifo; do
	if [ $to = fifo ]; then
		rm -f "$prog" && mkfifo "$prog" && cp "$TMP/mp.data" "$TMP/to.data"
	else
		python3 - "$TMP/mp.data" "$TMP/to.data" "$prog" "$to" <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
old, new = sys.argv[3].encode() + b"\0", sys.argv[4].encode()
assert old in d
open(sys.argv[2], "wb").write(d.replace(old, new + b"\0" * (len(old) - len(new))))
PY
	fi
	HOME=$TMP/nohome PERF_BUILDID_DIR= timeout 60 "$BT" -i "$TMP/to.data" --stdio --top 1 >"$TMP/to.txt" 2>"$TMP/err"
	rc=$?
	got=$(awk '/^# samples:/ { sub(",", "", $3); print $3; exit }' "$TMP/to.txt")
	note=$(grep -m1 "^# note: '.*' is .*: its samples show as addresses" "$TMP/to.txt")
	if [ $rc = 0 ] && [ "$got" = "$n" ] && [ -n "$note" ]; then
		ok "module path $to: $n samples kept, ${note#\# note: }"
	else
		fail "module path $to: rc $rc, $got samples (perf $n), $(grep -m2 '^# note' "$TMP/to.txt") $(head -c 200 "$TMP/err")"
	fi
done

# --- terminal escapes in a recording (a program whose name retitles and
# recolours the terminal, and is not UTF-8): the text report and the
# messages on stderr carry them as \xNN; JSON keeps them as JSON escapes
evil=$TMP/mods/$(printf 'ev\033]0;PWNED\007il\033[31m\302\233\377')
cp "$split" "$evil"
(cd "$TMP/mods" && perf record -q -e cpu-clock -F 1000 -o "$TMP/evil.data" "$evil" >/dev/null 2>&1)
"$BT" -i "$TMP/evil.data" --stdio --top 1 >"$TMP/evil.txt" 2>&1
"$BT" -i "$TMP/evil.data" --stdio -e "$(printf 'x\033[2J')" >>"$TMP/evil.txt" 2>&1
rm -f "$evil" && mkfifo "$evil"
"$BT" -i "$TMP/evil.data" --stdio --top 1 >>"$TMP/evil.txt" 2>&1
if python3 - "$TMP/evil.txt" <<'PY'
import sys
t = open(sys.argv[1], "rb").read().decode("utf-8")   # strict: fails on invalid UTF-8
bad = [c for c in t if (ord(c) < 32 and c not in "\t\n") or 0x7f <= ord(c) <= 0x9f]
sys.exit(1 if bad else 0)
PY
then
	n=$(grep -c 'ev\\x1b\]0;PWNED\\x07il\\x1b\[31m\\xc2\\x9b\\xff' "$TMP/evil.txt")
	[ "$n" -ge 3 ] && ok "escapes from the recording shown as \\xNN in the report and in messages ($n lines)" ||
		fail "escapes: the escaped name is missing: $(head -c 400 "$TMP/evil.txt")"
else
	fail "escapes: raw control bytes or invalid UTF-8 reached the output: $(head -c 300 "$TMP/evil.txt" | od -c | head -5)"
fi

# --- perf's build-id cache: the program deleted or rebuilt since the
# recording, or the recording moved to another home after perf archive
mkdir -p "$TMP/bid" "$TMP/home1" "$TMP/home2"
cp "$split" "$TMP/bid/prog"
HOME=$TMP/home1 perf record -q -e cpu-clock -F 1000 -o "$TMP/bid/bid.data" "$TMP/bid/prog" >/dev/null 2>&1
HOME=$TMP/home1 perf_funcs "$TMP/bid/bid.data" cpu-clock >"$TMP/pbid"
for how in deleted rebuilt; do
	rm -f "$TMP/bid/prog"
	[ $how = rebuilt ] && cc -O0 -g -o "$TMP/bid/prog" "$TOP/tests/fixtures/split.c"
	HOME=$TMP/home1 bt_funcs "$TMP/bid/bid.data" cpu-clock >"$TMP/b"
	compare "program $how since the recording: names from perf's build-id cache" "$TMP/pbid" "$TMP/b"
	HOME=$TMP/home1 "$BT" -i "$TMP/bid/bid.data" --stdio --top 0 | grep -q "^# note: .*'$TMP/bid/prog'.*: read from perf's build-id cache" ||
		fail "program $how: no note about the build-id cache"
done
if (cd "$TMP/bid" && HOME=$TMP/home1 perf archive bid.data >/dev/null 2>&1) && [ -s "$TMP/bid/bid.data.tar.bz2" ]; then
	mkdir -p "$TMP/elsewhere" "$TMP/home2/.debug"
	tar xjf "$TMP/bid/bid.data.tar.bz2" -C "$TMP/home2/.debug"
	mv "$TMP/bid/bid.data" "$TMP/elsewhere/"
	rm -f "$TMP/bid/prog"
	HOME=$TMP/home2 bt_funcs "$TMP/elsewhere/bid.data" cpu-clock >"$TMP/b"
	compare "moved after perf archive (unpacked into a new ~/.debug)" "$TMP/pbid" "$TMP/b"
else
	skipped "perf archive did not make a tarball here"
fi

# --- kernel samples named from /proc/kallsyms (the kernel that recorded)
if [ "$(awk 'NR == 1 { print $1 }' /proc/kallsyms 2>/dev/null)" = 0000000000000000 ] || [ ! -r /proc/kallsyms ]; then
	skipped "/proc/kallsyms shows no addresses here (kernel.kptr_restrict): kernel names not compared"
else
	sysc=$(fixture syscalls)
	oracle k perf record -q -e cpu-clock -F 2000 -o "$SHARE/k.data" "$sysc" >/dev/null 2>&1
	perf_kfuncs() {
		perf report -i "$1" --stdio --sort dso,sym -F sample,dso,sym 2>/dev/null |
			awk '$2 == "[kernel.kallsyms]" && $3 == "[k]" { print $1, $4 }' | sort -k2
	}
	perf_ksamples() {
		perf report -i "$1" --stdio --sort sym -F sample,sym 2>/dev/null | awk '$2 == "[k]" { s += $1 } END { print s + 0 }'
	}
	memo perf_kfuncs "$SHARE/k.data" >"$TMP/pk"
	# names through the per-boot cache of kallsyms (docs/formats.md), first
	# written (cold), then mapped (warm): the same output either way
	xdg=$TMP/xdg
	XDG_CACHE_HOME=$xdg "$BT" -i "$SHARE/k.data" --stdio --top 0 >"$TMP/kcold.txt" 2>/dev/null
	awk '/^#Percent/ { t = 1; next } t && NF == 0 { exit } t && $3 == "[kernel]" { print $2, $NF }' \
		"$TMP/kcold.txt" | sort -k2 >"$TMP/bk"
	# kernel modules' functions are perf's [module] dsos, benchtui's [kernel]
	join -1 2 -2 2 -o 2.1,2.2 "$TMP/pk" "$TMP/bk" >"$TMP/bk2"
	compare "kernel functions named from /proc/kallsyms as perf names them" "$TMP/pk" "$TMP/bk2"
	pt=$(memo perf_ksamples "$SHARE/k.data")
	bt=$(awk '{ s += $1 } END { print s + 0 }' "$TMP/bk")
	[ "$pt" = "$bt" ] && ok "kernel samples: $bt, as perf" || fail "kernel samples: benchtui $bt, perf $pt"
	kc=$xdg/benchtui/kallsyms
	if [ ! -r /proc/sys/kernel/random/boot_id ]; then
		skipped "no /proc/sys/kernel/random/boot_id here: no kallsyms cache"
	elif [ ! -f "$kc" ]; then
		fail "no kallsyms cache written in \$XDG_CACHE_HOME/benchtui"
	else
		[ "$(stat -c %a "$kc") $(stat -c %a "$xdg/benchtui")" = "600 700" ] &&
			ok "kallsyms cache written, mode 600 in a 700 directory" ||
			fail "kallsyms cache modes: $(stat -c %a "$kc") in $(stat -c %a "$xdg/benchtui")"
		ino=$(stat -c %i "$kc")
		XDG_CACHE_HOME=$xdg "$BT" -i "$SHARE/k.data" --stdio --top 0 >"$TMP/kwarm.txt" 2>/dev/null
		[ "$(stat -c %i "$kc")" = "$ino" ] || fail "a warm run wrote the kallsyms cache again"
		diff "$TMP/kcold.txt" "$TMP/kwarm.txt" >"$TMP/d" &&
			ok "kernel names the same with a cold and a warm kallsyms cache ($(wc -l <"$TMP/bk") functions)" ||
			{ fail "kernel names differ with a warm kallsyms cache (< cold, > warm)"; head -20 "$TMP/d"; }
		# a damaged cache is refused and written again, the names unchanged
		printf X | dd of="$kc" bs=1 seek=0 conv=notrunc 2>/dev/null
		XDG_CACHE_HOME=$xdg "$BT" -i "$SHARE/k.data" --stdio --top 0 >"$TMP/kbad.txt" 2>/dev/null
		[ "$(head -c 7 "$kc")" = BTKSYMS ] && cmp -s "$TMP/kcold.txt" "$TMP/kbad.txt" &&
			ok "a damaged kallsyms cache: refused, written again, the same names" ||
			fail "a damaged kallsyms cache: $(head -c 7 "$kc" | od -c | head -1)"
		# no place for a cache: kallsyms read as before
		HOME=$TMP/khome XDG_CACHE_HOME= "$BT" -i "$SHARE/k.data" --stdio --top 0 >"$TMP/knone.txt" 2>/dev/null
		cmp -s "$TMP/kcold.txt" "$TMP/knone.txt" && [ ! -e "$TMP/khome" ] &&
			ok "no cache directory (\$HOME missing): the same names, nothing written" ||
			fail "no cache directory: the names differ or $TMP/khome was made"
	fi
fi
# --- --pid and --tid: each process's and thread's samples, as perf report --pid/--tid
procs=$(fixture procs -pthread)
oracle pids perf record -q -e cpu-clock -F 2000 -o "$SHARE/pids.data" "$procs" fork >/dev/null 2>&1 ||
	fail "perf record of procs fork failed"
oracle tids perf record -q -e cpu-clock -F 2000 -o "$SHARE/tids.data" "$procs" threads 3 >/dev/null 2>&1 ||
	fail "perf record of procs threads 3 failed"
# "samples dso symbol" perf reports for the processes or threads of $2
# (--pid or --tid). perf filters hist entries by the thread that made
# them, so the entries are per thread (sort pid first), summed here.
perf_funcs_of() {
	memo perf report -i "$1" "$2=$3" --stdio --no-group --sort pid,dso,sym \
		-F sample,pid,dso,sym 2>/dev/null |
		awk '!/^#/ && $4 == "[.]" { n[$3 " " $5] += $1 }
		     END { for (k in n) print n[k], k }' | plt_as_init | sort -k2
}
bt_funcs_of() {
	"$BT" -i "$1" --stdio --top 0 "$2" "$3" 2>/dev/null |
		awk '/^#Percent/ { t = 1; next } t && NF == 0 { exit }
		     t && $3 != "[kernel]" && $3 != "[unknown]" {
			if ($NF ~ /@plt$/) { plt[$3] += $2; next }
			print $2, $3, $NF }
		     END { for (m in plt) print plt[m], m, "_init" }' | sort -k2
}
for rec in pids:--pid tids:--tid; do
	f=$SHARE/${rec%%:*}.data opt=${rec#*:}
	[ -s "$f" ] || continue
	# the busiest two processes (threads), and each alone
	ids=$(memo perf script -i "$f" -F pid,tid 2>/dev/null | tr '/' ' ' |
		awk -v k="$opt" '{ n[k == "--pid" ? $1 : $2]++ } END { for (i in n) print n[i], i }' |
		sort -rn | head -2 | awk '{ print $2 }')
	[ "$(echo "$ids" | wc -w)" = 2 ] || { fail "$opt: fewer than two ${opt#--}s in $f"; continue; }
	for id in $ids "$(echo $ids | tr ' ' ',')"; do
		perf_funcs_of "$f" "$opt" "$id" >"$TMP/pf"
		bt_funcs_of "$f" "$opt" "$id" >"$TMP/bf"
		compare "$opt $id: functions as perf report $opt's" "$TMP/pf" "$TMP/bf"
	done
	whole=$("$BT" -i "$f" --stdio --top 0 2>/dev/null | awk '/^# samples:/ { sub(",", "", $3); print $3 }')
	n=0
	for id in $(memo perf script -i "$f" -F pid,tid 2>/dev/null | tr '/' ' ' |
		awk -v k="$opt" '{ print k == "--pid" ? $1 : $2 }' | sort -u); do
		m=$("$BT" -i "$f" --stdio --top 0 "$opt" "$id" 2>/dev/null | awk '/^# samples:/ { sub(",", "", $3); print $3 }')
		n=$((n + m))
	done
	[ "$n" = "$whole" ] && ok "$opt: every ${opt#--}'s samples add up to the run's ($whole)" ||
		fail "$opt: the ${opt#--}s' samples add up to $n, the run has $whole"
done
"$BT" -i "$SHARE/pids.data" --stdio --top 0 --pid 1,x >/dev/null 2>"$TMP/e"; rc=$?
[ $rc = 1 ] && grep -q "bad --pid value '1,x'" "$TMP/e" && ok "--pid 1,x: a usage error" ||
	fail "--pid 1,x: exit $rc, $(cat "$TMP/e")"

finish
