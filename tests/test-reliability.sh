#!/bin/bash
# The reliability matrix (issue 7, docs/reliability.md): commands, binaries,
# kernel limits and files, each with its expected message and exit status,
# and the profile kept whenever anything was recorded.
. tests/lib.sh
need_recording
P=$(fixture procs -pthread)
split=$(fixture split)

# the checks on split's builds below need its hottest function and source
# lines: 20 of its 60 default rounds (~0.2 s, ~800 samples: work_a 3:1)
R="2000000 20"
# top FILE: the hottest function's name in a --stdio report
top() { awk '/^#Percent/ { getline; print $NF; exit }' "$1"; }
has() { grep -q -- "$2" "$1"; }
run() { "$BT" -q -o "$TMP/r.data" --stdio --top 1 "$@" >"$TMP/out" 2>"$TMP/err"; echo $? >"$TMP/rc"; }

# --- commands
mkdir -p "$TMP/adir"
run "$TMP/adir"
[ "$(cat "$TMP/rc")" = 2 ] && has "$TMP/err" "it is a directory" && ok "a directory: $(cat "$TMP/err")" ||
	fail "a directory: rc $(cat "$TMP/rc"): $(cat "$TMP/err")"
# execvp runs a file without #! with /bin/sh, as a shell would: profiled, its status kept
printf 'i=0\nwhile [ $i -lt 200000 ]; do i=$((i+1)); done\nexit 7\n' >"$TMP/noshebang"; chmod +x "$TMP/noshebang"
run "$TMP/noshebang"
[ "$(cat "$TMP/rc")" = 7 ] && has "$TMP/err" "exited with status 7" && has "$TMP/out" " dash \| sh " &&
	ok "a script without #!: run by /bin/sh, profiled, exit 7 passed on" ||
	fail "no shebang: rc $(cat "$TMP/rc"): $(cat "$TMP/err")"
printf '#!/bin/sh\ni=0\nwhile [ $i -lt 400000 ]; do i=$((i+1)); done\n' >"$TMP/script.sh"; chmod +x "$TMP/script.sh"
run "$TMP/script.sh"
[ "$(cat "$TMP/rc")" = 0 ] && awk '/^#Percent/ { t = 1; next } t && NF == 0 { exit } t' "$TMP/out" | grep -q ' dash \| sh \| bash ' &&
	ok "a #! script: the interpreter is profiled ($(top "$TMP/out"))" || fail "script: $(head -12 "$TMP/out")"
if cc -O2 -g -static -o "$TMP/static" tests/fixtures/split.c 2>/dev/null; then
	run "$TMP/static" $R
	[ "$(top "$TMP/out")" = work_a ] && ok "a static binary" || fail "static: top $(top "$TMP/out")"
else
	skipped "no static libc here: static binary not tried"
fi
if cc -m32 -O2 -g -o "$TMP/split32" tests/fixtures/split.c 2>/dev/null; then
	run "$TMP/split32" $R
	[ "$(top "$TMP/out")" = work_a ] && has "$TMP/out" "^## work_a" && has "$TMP/out" "%esp" &&
		has "$TMP/out" "split.c:18" && ok "a 32-bit binary: symbols, i386 code, lines" ||
		fail "32-bit: top $(top "$TMP/out")"
else
	skipped "no 32-bit C library here (gcc-multilib): 32-bit binary not tried"
fi
cc -O2 -g -no-pie -fno-pie -o "$TMP/nopie" tests/fixtures/split.c
run "$TMP/nopie" $R
[ "$(top "$TMP/out")" = work_a ] && has "$TMP/out" "^## work_a" && has "$TMP/out" "imul" &&
	ok "a non-PIE binary: symbols and code" || fail "non-PIE: top $(top "$TMP/out")"
run "$P" exec "$split" 2000000 40
has "$TMP/out" " before_exec$" && has "$TMP/out" " work_a$" &&
	ok "exec: code before and after exec both profiled" || fail "exec: $(head -14 "$TMP/out")"
run "$P" fork
has "$TMP/out" " worker_child$" && has "$TMP/out" " worker_parent$" &&
	ok "forked workers profiled with the parent" || fail "fork: $(head -14 "$TMP/out")"
run "$P" threads 16
[ "$(top "$TMP/out")" = thread_body ] && ok "16 threads: all in thread_body" || fail "threads: $(top "$TMP/out")"
run "$P" abort
[ "$(cat "$TMP/rc")" = 134 ] && has "$TMP/err" "killed by signal 6" && has "$TMP/out" "before_abort" &&
	ok "abort(): profile kept, exit 134" || fail "abort: rc $(cat "$TMP/rc") $(cat "$TMP/err")"
run "$P" noisy close
[ "$(cat "$TMP/rc")" = 0 ] && has "$TMP/out" "noisy_work" && ok "a benchmark that closes stdin/stdout/stderr" ||
	fail "noisy close: $(cat "$TMP/err")"
run "$P" noisy flood
[ "$(cat "$TMP/rc")" = 0 ] && has "$TMP/out" "^## noisy_work" && [ "$(grep -c '^line ' "$TMP/out")" = 20000 ] &&
	ok "a benchmark that floods stdout: its output, then the report" || fail "noisy flood"
run "$P" jit
awk '/^#Percent/ { getline; print; exit }' "$TMP/out" | grep -q 'anon' &&
	ok "JIT-like code in an anonymous mapping: shown as addresses ($(top "$TMP/out"))" ||
	fail "jit: $(head -12 "$TMP/out")"
# code no symbol covers keeps its name in every part of the run, so -s finds it
jit=$(top "$TMP/out")
n1=$("$BT" -i "$TMP/r.data" --stdio --top 0 --time 0,50% | awk '/^#Percent/ { getline; print $NF; exit }')
n2=$("$BT" -i "$TMP/r.data" --stdio --top 0 --time 50%,100% | awk '/^#Percent/ { getline; print $NF; exit }')
[ "$n1" = "$jit" ] && [ "$n2" = "$jit" ] && "$BT" -i "$TMP/r.data" --stdio --time 50%,100% -s "$jit" | grep -q "^## $jit\( \|$\)" &&
	ok "code without a symbol: one name in every window ($jit), and -s finds it" ||
	fail "unnamed code renamed by the window: '$jit', '$n1', '$n2'"
"$BT" -q -o "$TMP/forever.data" --stdio --top 1 "$P" forever >"$TMP/out" 2>"$TMP/err" &
pid=$!
for _ in $(seq 100); do c=$(pgrep -P $pid); [ -n "$c" ] && [ "$(cat /proc/$c/comm 2>/dev/null)" = procs ] && break; sleep 0.05; done
sleep 0.3
kill -TERM $pid
wait $pid
rc=$?
[ "$rc" = 143 ] && has "$TMP/out" "forever_work" && ok "runs forever, SIGTERM to benchtui: stopped, profile kept, exit 143" ||
	fail "forever: rc $rc $(cat "$TMP/err")"
"$BT" -q -o "$TMP/short.data" --stdio --top 0 "$split" 1000 1 >"$TMP/out" 2>&1
has "$TMP/out" "few-samples" && ok "a 0.01 s run: too few samples, said" || fail "short run: no few-samples finding"

# --- binaries
for flags in "-gdwarf-4" "-gdwarf-5" "-g -gz"; do
	cc -O2 $flags -o "$TMP/dw" tests/fixtures/split.c
	run "$TMP/dw" $R
	has "$TMP/out" "split.c:18" && ok "debug info $flags: source lines" || fail "$flags: no lines"
done
cc -O2 -g -o "$TMP/sep" tests/fixtures/split.c
objcopy --only-keep-debug "$TMP/sep" "$TMP/sep.debug"
objcopy --strip-debug --add-gnu-debuglink="$TMP/sep.debug" "$TMP/sep"
run "$TMP/sep" $R
has "$TMP/out" "split.c:18" && ok "a separate debug file (.gnu_debuglink): source lines" || fail "separate debug: no lines"
(cd "$TMP" && cc -O2 -g -gsplit-dwarf -o "$TMP/splitdw" "$TOP/tests/fixtures/split.c")
run "$TMP/splitdw" $R
if has "$TMP/out" "split.c:18"; then ok "split DWARF (.dwo): source lines"
else skipped "split DWARF (-gsplit-dwarf): no source lines (libdw 0.188 did not find the .dwo); symbols still shown"; fi
[ "$(top "$TMP/out")" = work_a ] || fail "split DWARF: top $(top "$TMP/out")"
cc -O2 -g -o "$TMP/rebuilt" tests/fixtures/split.c
"$BT" -q -o "$TMP/rebuilt.data" --stdio --top 0 "$TMP/rebuilt" $R >/dev/null 2>&1
cc -O2 -g -DREBUILT=1 -fno-inline -o "$TMP/rebuilt" tests/fixtures/split.c
"$BT" -i "$TMP/rebuilt.data" --stdio --top 1 >"$TMP/out" 2>&1
has "$TMP/out" "changed since it was recorded (build-id" && ok "binary rebuilt after recording: said, addresses shown" ||
	fail "rebuilt: $(grep note "$TMP/out")"
mkdir -p "$TMP/src"; cp tests/fixtures/split.c "$TMP/src/edited.c"
cc -O2 -g -o "$TMP/edited" "$TMP/src/edited.c"
touch -d '+1 minute' "$TMP/src/edited.c"
run "$TMP/edited" $R
has "$TMP/out" "is newer than" && ok "source edited after the build: warned" || fail "stale source not warned"
latin=$(fixture latin1)
"$BT" -q -o "$TMP/l1.data" --stdio --top 1 --format json "$latin" >"$TMP/l1.json" 2>&1
if command -v python3 >/dev/null && python3 -m json.tool "$TMP/l1.json" >/dev/null 2>&1 &&
    grep -q 'caf\\ufffd cr\\ufffdme' "$TMP/l1.json"; then
	ok "non-UTF-8 source: valid JSON, bad bytes as U+FFFD"
else
	fail "non-UTF-8 source in JSON"
fi

# --- what reaches a terminal (docs/reliability.md, Terminal): a program
# whose function name retitles and recolours the terminal (OSC, CSI, a C1
# CSI): --stdio (the table, the callers and callees, the hot path), the
# text export and the JSON export show it escaped; so does the browser
evilname=$(printf 'wa\033]0;PWNED\007\033[31m\302\233x')
cc -O2 -g -fno-omit-frame-pointer -o "$TMP/evil" tests/fixtures/split.c &&
	objcopy --redefine-sym "work_a=$evilname" "$TMP/evil" || fail "cannot build the crafted binary"
# rawesc FILE: 0 when FILE holds an escape, a C1 control or a byte that is not UTF-8
rawesc() {
	python3 - "$1" <<'PY'
import sys
try:
    t = open(sys.argv[1], "rb").read().decode("utf-8")
except UnicodeDecodeError:
    sys.exit(0)
sys.exit(0 if [c for c in t if (ord(c) < 32 and c not in "\t\n") or 0x7f <= ord(c) <= 0x9f] else 1)
PY
}
"$BT" -q -o "$TMP/evil.data" --stdio --top 1 "$TMP/evil" $R >"$TMP/evil.txt" 2>&1
"$BT" -i "$TMP/evil.data" --export "$TMP/evil-x.txt" 2>&1 | tee -a "$TMP/evil.txt" >/dev/null
"$BT" -i "$TMP/evil.data" --export "$TMP/evil-x.json" --format json 2>&1 | tee -a "$TMP/evil.txt" >/dev/null
esc='wa\\x1b]0;PWNED\\x07\\x1b\[31m\\xc2\\x9bx'
if ! grep -q '^## callers and callees' "$TMP/evil.txt"; then
	fail "crafted symbol: no callers and callees section: $(head -c 300 "$TMP/evil.txt")"
elif rawesc "$TMP/evil.txt" || rawesc "$TMP/evil-x.txt" || rawesc "$TMP/evil-x.json"; then
	fail "crafted symbol: raw control bytes reached --stdio or an export: $(grep -a $'\e' "$TMP/evil.txt" "$TMP/evil-x.txt" | head -3 | od -c | head -5)"
elif grep -q "^$esc  [0-9.]*%  [0-9]*$" "$TMP/evil.txt" && grep -q "^$esc  [0-9.]*%  [0-9]*$" "$TMP/evil-x.txt" &&
    grep -qF 'wa\u001b]0;PWNED\u0007\u001b[31m\u009bx' "$TMP/evil-x.json"; then
	ok "crafted symbol (OSC, CSI, C1): escaped in --stdio's table and callers/callees, the text and JSON exports"
else
	fail "crafted symbol: the escaped name is missing: $(grep -a -m3 'wa' "$TMP/evil.txt")"
fi
# the live line while recording names the command: escaped too
if command -v script >/dev/null; then
	cp "$TMP/evil" "$TMP/$evilname"
	# the program by a glob: its name cannot cross script -c's command line
	printf '#!/bin/sh\nstty rows 30 cols 160\nexec "$1" -o "$2/pl.data" --top 0 --export "$2/pl.txt" "$2"/wa*x 2000000 80\n' >"$TMP/pl.sh"
	TERM=xterm timeout 60 script -q -c "sh $TMP/pl.sh $BT $TMP" "$TMP/pl.tty" >/dev/null 2>&1
	if ! grep -aq 'recording wa' "$TMP/pl.tty"; then
		skipped "no progress line within the run: $(head -c 300 "$TMP/pl.tty")"
	elif rawesc "$TMP/pl.tty" && grep -aq $'\e]0;PWNED\|\xc2\x9b' "$TMP/pl.tty"; then
		fail "the progress line wrote the command's escapes: $(grep -ao 'recording wa.\{0,20\}' "$TMP/pl.tty" | head -1 | od -c | head -3)"
	else
		ok "the progress line shows the command's name escaped: $(grep -ao 'recording wa[^:]*' "$TMP/pl.tty" | head -1)"
	fi
fi
if command -v tmux >/dev/null && command -v script >/dev/null; then
	T="tmux -L btrel$$ -f/dev/null"
	# the browser's bytes, as the terminal got them (script(1)), on its
	# function table and on the callers screen of the crafted function
	$T new-session -d -x 120 -y 30 -c "$TMP" "env TERM=screen LC_ALL=C.UTF-8 script -q -f -c '$BT -i $TMP/evil.data' $TMP/evil.tty; touch $TMP/evil.done; exec sleep 30"
	for _ in $(seq 200); do $T capture-pane -p | grep -q 'PWNED' && break; sleep 0.05; done
	$T send-keys C; sleep 0.5
	$T capture-pane -p >"$TMP/evil.screen"
	$T send-keys q; sleep 0.3; $T send-keys q; sleep 0.3; $T send-keys q
	for _ in $(seq 100); do [ -e "$TMP/evil.done" ] && break; sleep 0.05; done
	$T kill-server 2>/dev/null
	if grep -qa $'\e]0;PWNED\|\xc2\x9b\|\e\[31mx' "$TMP/evil.tty"; then
		fail "crafted symbol: the browser wrote its escapes to the terminal: $(grep -ao $'.\{0,8\}PWNED.\{0,16\}' "$TMP/evil.tty" | od -c | head -4)"
	elif grep -qF 'wa\x1b]0;PWNED\x07' "$TMP/evil.screen"; then
		ok "crafted symbol: the browser shows it escaped, writes none of its escapes (script(1) capture)"
	else
		fail "crafted symbol: the browser does not show the escaped name: $(head -12 "$TMP/evil.screen")"
	fi
fi

# --- every signal that ends benchtui while it browses gives the terminal
# back: after it, stty in the same pane shows echo and icanon (Ctrl-\,
# SIGUSR1 and SIGPIPE used to leave it raw, echo off)
if command -v tmux >/dev/null; then
	T="tmux -L btsig$$ -f/dev/null"
	$T new-session -d -s keep
	for sig in QUIT USR1 PIPE TERM HUP ALRM SEGV; do
		rm -f "$TMP/sig.status" "$TMP/sig.stty"
		# the pane's shell outlives the signal (a trap, which benchtui
		# does not inherit), then reads the terminal's modes
		$T kill-session -t sig 2>/dev/null
		$T new-session -d -s sig -x 100 -y 30 -c "$TMP" "trap true INT QUIT TERM HUP; env TERM=screen LC_ALL=C.UTF-8 $BT -i $TMP/r.data; echo \$? >$TMP/sig.status.tmp; stty -a >$TMP/sig.stty; mv $TMP/sig.status.tmp $TMP/sig.status; exec sleep 30"
		for _ in $(seq 200); do $T capture-pane -p -t sig | grep -q 'hot functions' && break; sleep 0.05; done
		bt=$(pgrep -P "$($T display -p -t sig '#{pane_pid}')" | head -1)
		if [ $sig = QUIT ]; then $T send-keys -t sig 'C-\'; else kill -$sig "$bt"; fi
		for _ in $(seq 200); do [ -e "$TMP/sig.status" ] && break; sleep 0.05; done
		st=$(cat "$TMP/sig.status" 2>/dev/null)
		if [ -z "$st" ]; then
			fail "SIG$sig while browsing: benchtui did not end"
			[ -n "$bt" ] && kill -KILL "$bt" 2>/dev/null
		elif grep -qw -- '-echo\|-icanon' "$TMP/sig.stty" || ! grep -qw 'echo' "$TMP/sig.stty" ||
		    ! grep -qw icanon "$TMP/sig.stty"; then
			fail "SIG$sig while browsing: the terminal left raw (exit $st): $(grep -o -- '-\?icanon\|-\?echo ' "$TMP/sig.stty" | tr '\n' ' ')"
		elif [ "$st" != $((128 + $(kill -l $sig))) ]; then
			fail "SIG$sig while browsing: exit $st, not $((128 + $(kill -l $sig)))"
		else
			ok "SIG$sig while browsing: the terminal restored (echo, icanon), exit $st"
		fi
	done
	$T kill-server 2>/dev/null
fi

# --- event names as perf prints them (issue 25): every name perf evlist
# prints for an event of perf's recording, plain and in pipe mode (where
# perf derives the names from the attrs: cpu-clock:uH for cpu-clock:u), and
# every group perf evlist -g prints, selects that event with -e (the
# group: its leader); recording with -e and perf's modifiers sets the
# attr's bits as perf record does
if command -v perf >/dev/null; then
	# bt_names FILE: benchtui's names of the events, in the file's order
	bt_names() {
		"$BT" -i "$1" -e '?' --stdio 2>&1 | sed -n "s/.*(it has \(.*\))$/\1/p" | sed "s/', '/\n/g; s/^'//; s/'$//"
	}
	# perf's recordings: made once per make check (tests/lib.sh, oracle)
	perf_rec() {
		if [ "$2" = file ]; then
			perf record -q -e "$1" -o "$3" "$split" 200000 2 >/dev/null 2>&1
		else
			perf record -q -e "$1" -o - "$split" 200000 2 2>/dev/null >"$3"
		fi
	}
	nnames=0; bad=""; i=0
	for spec in cpu-clock:u cpu-clock:k cpu-clock:uk cpu-clock:h cpu-clock:S cpu-clock:H cpu-clock:G \
	    cpu-clock:p cpu-clock:ppp cpu-clock:uHp '{cpu-clock,task-clock}:S' '{cpu-clock:u,task-clock:k}' \
	    'cpu-clock:u,cpu-clock'; do
		for mode in file pipe; do
			i=$((i + 1))
			oracle ev$i perf_rec "$spec" $mode "$SHARE/ev$i.data" ||
				{ skipped "perf record -e '$spec' failed here"; continue; }
			cp "$SHARE/ev$i.data" "$TMP/ev.data"
			perf evlist -i "$TMP/ev.data" 2>/dev/null >"$TMP/pnames"
			bt_names "$TMP/ev.data" >"$TMP/bnames"
			k=0
			while IFS= read -r n; do
				k=$((k + 1))
				want=$(sed -n "${k}p" "$TMP/bnames")
				got=$("$BT" -i "$TMP/ev.data" -e "$n" --stdio --top 0 2>&1 | sed -n 's/^# event: \(.*\), [0-9]* Hz.*/\1/p')
				nnames=$((nnames + 1))
				[ "$got" = "$want" ] || bad="$bad; $spec ($mode): -e '$n' shows '$got', not '$want'"
			done <"$TMP/pnames"
			perf evlist -g -i "$TMP/ev.data" 2>/dev/null | grep '^{' | while IFS= read -r g; do
				lead=${g#\{}; lead=${lead%%,*}
				k=$(grep -n -x -F -- "$lead" "$TMP/pnames" | head -1 | cut -d: -f1)
				want=$(sed -n "${k}p" "$TMP/bnames")
				got=$("$BT" -i "$TMP/ev.data" -e "$g" --stdio --top 0 2>&1 | sed -n 's/^# event: \(.*\), [0-9]* Hz.*/\1/p')
				[ "$got" = "$want" ] || echo "; $spec ($mode): -e '$g' shows '$got', not '$want'"
			done >"$TMP/gbad"
			bad="$bad$(cat "$TMP/gbad")"
		done
	done
	[ -z "$bad" ] && ok "every event name perf evlist prints ($nnames, plain and pipe mode, and the groups of evlist -g) selects its event" ||
		fail "event names perf prints that -e does not select${bad}"
	"$BT" -i "$TMP/ev.data" -e cpu-clock:k --stdio >/dev/null 2>"$TMP/err"
	[ $? = 1 ] && has "$TMP/err" "no event 'cpu-clock:k'" && ok "-e cpu-clock:k selects neither cpu-clock:u nor cpu-clock" ||
		fail "-e cpu-clock:k: $(cat "$TMP/err")"
	# the browser: the same names
	if command -v tmux >/dev/null; then
		cp "$SHARE/ev2.data" "$TMP/evp.data"	# perf's cpu-clock:u, in pipe mode
		T="tmux -L btev$$ -f/dev/null"
		$T new-session -d -x 120 -y 30 -c "$TMP" "env TERM=screen LC_ALL=C.UTF-8 $BT -i $TMP/evp.data -e cpu-clock:uH; exec sleep 30"
		for _ in $(seq 200); do $T capture-pane -p | grep -q 'hot functions' && break; sleep 0.05; done
		$T capture-pane -p | grep -q 'cpu-clock:u' && ok "the browser opens on the event perf names cpu-clock:uH" ||
			fail "browser -e cpu-clock:uH: $($T capture-pane -p | head -5)"
		$T send-keys q
		$T kill-server 2>/dev/null
	fi
	# recording: perf's modifiers set the attr's bits as perf record sets them
	bits() { perf evlist -v -i "$1" 2>/dev/null | head -1 | grep -o 'exclude_[a-z]*: 1\|precise_ip: [0-9]\|pinned: 1' | sort | tr '\n' ' '; }
	bad=""; n=0
	for spec in cpu-clock:u cpu-clock:k cpu-clock:h cpu-clock:uk cpu-clock:p cpu-clock:ppp cpu-clock:uH cpu-clock:kH \
	    cpu-clock:G cpu-clock:H cpu-clock:uG cpu-clock:up cpu-clock:I cpu-clock:D task-clock:u; do
		"$BT" -q -o "$TMP/evb.data" --stdio --top 0 -e "$spec" "$split" 2000 1 >"$TMP/out" 2>"$TMP/err" ||
			{ bad="$bad; $spec: benchtui: $(cat "$TMP/err")"; continue; }
		i=$((i + 1))
		oracle ev$i perf record -q -e "$spec" -o "$SHARE/ev$i.data" "$split" 2000 1 >/dev/null 2>&1 || continue
		n=$((n + 1))
		[ "$(bits "$TMP/evb.data")" = "$(bits "$SHARE/ev$i.data")" ] && has "$TMP/out" "^# event: $spec, " &&
			[ "$(perf evlist -i "$TMP/evb.data" 2>/dev/null)" = "$spec" ] ||
			bad="$bad; $spec: benchtui's attr '$(bits "$TMP/evb.data")', perf's '$(bits "$SHARE/ev$i.data")', named '$(grep -m1 '^# event' "$TMP/out")'"
	done
	[ -z "$bad" ] && ok "-e with perf's modifiers when recording: the attr's bits as perf record's, the name as perf's ($n events)" ||
		fail "recording with modifiers${bad}"
	# (groups are recorded: tests/test-groups.sh)
	"$BT" -q -o "$TMP/evb.data" -e 'cpu-clock:W' true >/dev/null 2>"$TMP/err"
	[ $? = 1 ] && has "$TMP/err" "benchtui records without the W and b modifiers" && ok "recording with W: refused, $(cat "$TMP/err")" ||
		fail "recording with W: $(cat "$TMP/err")"
fi

# --- kernel limits: an unprivileged user (perf_event_paranoid, locked memory)
if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
	nb=$(mktemp -d /tmp/bt-nobody.XXXXXX)
	chmod 777 "$nb"
	chmod 755 "$TMP"
	# the clone may sit below a directory only root enters (mktemp -d's):
	# the program runs from where the user can reach it
	cp "$split" "$nb/split" && chmod 755 "$nb/split"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$BT" -q -o "$nb/nobody.data" --stdio --top 1 "$nb/split" $R \
		>"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ $rc = 0 ] && has "$TMP/out" "^## work_a"; then
		ok "as an unprivileged user: recorded ($(grep -o 'event: [^)]*)' "$TMP/out" | head -1))"
	elif has "$TMP/err" "perf_event_paranoid"; then
		ok "as an unprivileged user: refused with the paranoid hint: $(cat "$TMP/err")"
	else
		fail "unprivileged: rc $rc $(cat "$TMP/err")"
	fi
	chmod 700 "$TMP"
	rm -rf "$nb"
fi
"$BT" -q -o "$TMP/lost.data" -F 50000 -m 1 --stdio --top 0 "$P" threads 2 >"$TMP/out" 2>&1
lost=$(awk '/^# samples:/ { print $5; exit }' "$TMP/out")
if [ "${lost:-0}" -gt 0 ]; then
	has "$TMP/out" "lost-samples" && ok "one-page rings at 50 kHz: $lost samples lost, counted and flagged" ||
		fail "lost samples not flagged"
else
	skipped "no samples were lost with one-page rings at 50 kHz here"
fi

# --- files
for bad in "$TMP/adir" /dev/null "$TMP/noshebang" /nonexistent.data; do
	"$BT" -i "$bad" --stdio >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc = 2 ] && [ "$(wc -l <"$TMP/err")" = 1 ] && ok "-i $(basename "$bad"): $(cat "$TMP/err")" ||
		fail "-i $bad: rc $rc $(cat "$TMP/err")"
done
# -o "" (and --export ""): refused before the benchmark runs, which used to
# run and lose its recording
(cd "$TMP" && "$BT" -q -o "" --stdio touch "$TMP/ran" >"$TMP/out" 2>"$TMP/err")
rc=$?
[ $rc = 1 ] && [ ! -e "$TMP/ran" ] && has "$TMP/err" "-o needs a file name" && [ ! -e "$TMP/.tmp" ] &&
	ok "-o '': refused before the run: $(cat "$TMP/err")" || fail "-o '': rc $rc, ran: $(ls "$TMP/ran" 2>&1) $(cat "$TMP/err")"
"$BT" -q -o "$TMP/e.data" --export "" touch "$TMP/ran" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc = 1 ] && [ ! -e "$TMP/ran" ] && ok "--export '': refused before the run" || fail "--export '': rc $rc $(cat "$TMP/err")"
# a recording with call chains and no sample (an event that does not fire):
# read (under make check's ASan+UBSan pass: no memcpy from NULL)
"$BT" -e major-faults -o "$TMP/zero.data" --stdio true >"$TMP/out" 2>"$TMP/err"
if has "$TMP/err" "^benchtui: 0 samples of major-faults"; then
	"$BT" -i "$TMP/zero.data" --stdio --children >"$TMP/out" 2>"$TMP/err" &&
		"$BT" -i "$TMP/zero.data" --export "$TMP/zero.json" --format json 2>>"$TMP/err" &&
		! has "$TMP/err" "runtime error" && ok "0 samples with call chains: read, exported" ||
		fail "0 samples with call chains: $(head -c 300 "$TMP/err")"
else
	skipped "'true' had a major fault: no recording without samples"
fi
# perf's rule: a recording another user owns (not us, not root) is refused
# without -f (perf report: "File x not owned by current user or root (use
# -f to override)"); as root here, a file of nobody's is refused by perf too
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	cp "$TMP/r.data" "$TMP/theirs.data" && chown nobody "$TMP/theirs.data"
	mkdir -p "$TMP/theirs.d" && cp "$TMP/r.data" "$TMP/theirs.d/data" && chown nobody "$TMP/theirs.d/data"
	"$BT" -i "$TMP/theirs.data" --stdio >"$TMP/out" 2>"$TMP/err"
	rc=$?
	"$BT" -i "$TMP/theirs.d" --stdio >/dev/null 2>>"$TMP/err"
	rc2=$?
	"$BT" -f -i "$TMP/theirs.data" --stdio --top 0 >"$TMP/out" 2>/dev/null
	rc3=$?
	if command -v perf >/dev/null; then
		perf report -i "$TMP/theirs.data" --stdio >/dev/null 2>"$TMP/perr"
		grep -q "not owned by current user or root" "$TMP/perr" || fail "perf reads a file of nobody's as root here: the rule to match changed"
	fi
	[ $rc = 2 ] && [ $rc2 = 2 ] && [ $rc3 = 0 ] && has "$TMP/err" "is owned by nobody (uid [0-9]*), not by you or root: -f reads it anyway" &&
		[ "$(grep -c 'is owned by' "$TMP/err")" = 2 ] && has "$TMP/out" "^# samples:" &&
		ok "a recording owned by another user: refused as perf does, -f reads it ($(head -1 "$TMP/err"))" ||
		fail "another user's recording: rc $rc $rc2 $rc3: $(cat "$TMP/err")"
fi
# a module path of the recording that is now a symbolic link to a FIFO, a
# device or a file of /proc: refused without being opened (it used to be
# opened, non-blocking, then refused: the FIFO's writer saw a reader)
mkdir -p "$TMP/mods"
cp "$split" "$TMP/mods/prog"
"$BT" -q -o "$TMP/mods.data" --stdio --top 0 "$TMP/mods/prog" 2000000 5 >/dev/null 2>&1
mkfifo "$TMP/fifo"
for to in "$TMP/fifo" /dev/zero /proc/self/mem; do
	rm -f "$TMP/mods/prog" "$TMP/opened" && ln -s "$to" "$TMP/mods/prog"
	if [ "$to" = "$TMP/fifo" ]; then
		# a writer, blocked until a reader opens the FIFO (the interpreter
		# itself: lib.sh's python3 function would be a subshell, and kill
		# would leave the writer behind; never holding the test's output
		# open, and gone by itself if the test is killed)
		timeout 60 "${PYTHON3:-python3}" -c 'import os, sys; os.open(sys.argv[1], os.O_WRONLY); open(sys.argv[2], "w").close()' \
			"$TMP/fifo" "$TMP/opened" </dev/null >/dev/null 2>&1 &
		writer=$!
	fi
	HOME=$TMP/nohome "$BT" -i "$TMP/mods.data" --stdio --top 1 >"$TMP/out" 2>"$TMP/err"
	rc=$?
	# LeakSanitizer does not run under ptrace: the run above checks leaks
	HOME=$TMP/nohome ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -e trace=open,openat -o "$TMP/strace" \
		"$BT" -i "$TMP/mods.data" --stdio --top 1 >/dev/null 2>&1
	if [ "$to" = "$TMP/fifo" ]; then
		sleep 0.2
		kill $writer 2>/dev/null; wait $writer 2>/dev/null
	fi
	note=$(grep -m1 "^# note: '$TMP/mods/prog' is .*: its samples show as addresses" "$TMP/out")
	if [ $rc = 0 ] && [ -n "$note" ] && [ ! -e "$TMP/opened" ] && ! grep -q "\"$TMP/mods/prog\"\|\"$to\"" "$TMP/strace"; then
		ok "module path a symlink to $to: never opened, ${note#\# note: }"
	else
		fail "module path a symlink to $to: rc $rc, opened: $(ls "$TMP/opened" 2>/dev/null) $(grep "mods/prog\|\"$to\"" "$TMP/strace" | head -2) $(grep -m1 '^# note' "$TMP/out")"
	fi
done
# separate debug files where libdw looks for them (by build-id under a
# debug root, by .gnu_debuglink beside the program) that are a FIFO or a
# link to a device: never opened (libdw's own search opened them: a FIFO
# blocked it), said in a note; a regular debug file there gives the lines
mkdir -p "$TMP/dbg" "$TMP/dbgkeep"
cc -O2 -g -o "$TMP/dbg/prog" tests/fixtures/split.c
objcopy --only-keep-debug "$TMP/dbg/prog" "$TMP/dbgkeep/prog.dbg"
objcopy --strip-debug --add-gnu-debuglink="$TMP/dbgkeep/prog.dbg" "$TMP/dbg/prog"
"$BT" -q -o "$TMP/dbg.data" --stdio --top 0 "$TMP/dbg/prog" $R >/dev/null 2>&1
bid=$(readelf -n "$TMP/dbg/prog" | awk '/Build ID/ { print $3 }')
root=$TMP/dbgroot
mkdir -p "$root/.build-id/$(echo "$bid" | cut -c1-2)"
for where in build-id debuglink; do
	if [ $where = build-id ]; then
		at=$root/.build-id/$(echo "$bid" | cut -c1-2)/$(echo "$bid" | cut -c3-).debug; how="by its build-id"
	else
		at=$TMP/dbg/prog.dbg; how="by its .gnu_debuglink"
	fi
	for what in fifo /dev/zero regular; do
		rm -f "$at" "$TMP/opened"
		case $what in
		fifo)
			mkfifo "$at"
			timeout 60 "${PYTHON3:-python3}" -c 'import os, sys; os.open(sys.argv[1], os.O_WRONLY); open(sys.argv[2], "w").close()' \
				"$at" "$TMP/opened" </dev/null >/dev/null 2>&1 &
			writer=$! ;;
		regular) cp "$TMP/dbgkeep/prog.dbg" "$at" ;;
		*) ln -s "$what" "$at" ;;
		esac
		BENCHTUI_DEBUGINFO_PATH="+:.debug:$root" HOME=$TMP/nohome timeout 60 \
			"$BT" -i "$TMP/dbg.data" --stdio --top 1 >"$TMP/out" 2>"$TMP/err"
		rc=$?
		BENCHTUI_DEBUGINFO_PATH="+:.debug:$root" HOME=$TMP/nohome \
			ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
			strace -f -qq -e trace=open,openat -o "$TMP/strace" \
			"$BT" -i "$TMP/dbg.data" --stdio --top 1 >/dev/null 2>&1
		if [ $what = fifo ]; then
			sleep 0.2
			kill $writer 2>/dev/null; wait $writer 2>/dev/null
		fi
		if [ $what = regular ]; then
			[ $rc = 0 ] && has "$TMP/out" "split.c:18" && grep -q "\"$at\".* = [0-9]" "$TMP/strace" &&
				ok "a regular debug file found $how: source lines" ||
				fail "debug file $how: rc $rc, no lines: $(grep -m2 '^# note' "$TMP/out")"
			continue
		fi
		note=$(grep -m1 "^# note: '$at' (a debug file of '$TMP/dbg/prog' $how) is a .*: not opened" "$TMP/out")
		if [ $rc = 0 ] && [ -n "$note" ] && [ ! -e "$TMP/opened" ] && ! has "$TMP/out" "split.c:18" &&
			! grep -q "\"$at\"\|\"$what\"" "$TMP/strace"; then
			ok "debug file $how a $what: never opened, ${note#\# note: }"
		else
			fail "debug file $how a $what: rc $rc, opened: $(ls "$TMP/opened" 2>/dev/null) $(grep "\"$at\"\|\"$what\"" "$TMP/strace" | head -2) $(grep -m1 '^# note' "$TMP/out")"
		fi
	done
	rm -f "$at"
done
# split DWARF: libdw opens a skeleton unit's .dwo itself; one that is a
# FIFO or a link to a device is refused (and the module's DWARF with it)
# before libdw could open it; a regular one gives source lines
mkdir -p "$TMP/dwo"
cp "$TOP/tests/fixtures/split.c" "$TMP/dwo/"
if (cd "$TMP/dwo" && cc -O2 -g -gsplit-dwarf -o prog split.c) 2>/dev/null &&
    ls "$TMP"/dwo/*.dwo >/dev/null 2>&1; then
	dwo=$(ls "$TMP"/dwo/*.dwo | head -1)
	"$BT" -q -o "$TMP/dwo.data" --export /dev/null "$TMP/dwo/prog" $R >/dev/null 2>&1
	"$BT" -i "$TMP/dwo.data" --stdio --top 1 >"$TMP/out" 2>&1
	has "$TMP/out" "split.c:18" && ok "split DWARF: a regular .dwo gives source lines" ||
		fail "split DWARF: no lines from a regular .dwo: $(grep -m2 '^# note' "$TMP/out")"
	for what in fifo /dev/zero; do
		rm -f "$dwo" "$TMP/opened"
		if [ $what = fifo ]; then
			mkfifo "$dwo"
			timeout 60 "${PYTHON3:-python3}" -c 'import os, sys; os.open(sys.argv[1], os.O_WRONLY); open(sys.argv[2], "w").close()' \
				"$dwo" "$TMP/opened" </dev/null >/dev/null 2>&1 &
			writer=$!
		else
			ln -s $what "$dwo"
		fi
		HOME=$TMP/nohome timeout 60 "$BT" -i "$TMP/dwo.data" --stdio --top 1 >"$TMP/out" 2>&1
		rc=$?
		if [ $what = fifo ]; then
			sleep 0.2
			kill $writer 2>/dev/null; wait $writer 2>/dev/null
		fi
		note=$(grep -m1 "^# note: '$dwo' (a debug file of '$TMP/dwo/prog': a split DWARF unit's .dwo file) is a .*: not opened" "$TMP/out")
		[ $rc = 0 ] && [ -n "$note" ] && [ ! -e "$TMP/opened" ] &&
			ok "split DWARF: a .dwo that is a $what is never opened: ${note#\# note: }" ||
			fail "split DWARF, .dwo a $what: rc $rc, opened: $(ls "$TMP/opened" 2>/dev/null) $(grep -m2 '^# note' "$TMP/out")"
	done
	rm -f "$dwo"
else
	skipped "split DWARF: cc -gsplit-dwarf made no .dwo here"
fi
# debuginfod asked as libdw asks it, when DEBUGINFOD_URLS names a server
# (a local one here, serving the debug file by build-id), not otherwise
mkdir -p "$TMP/dsrv/buildid/$bid"
cp "$TMP/dbgkeep/prog.dbg" "$TMP/dsrv/buildid/$bid/debuginfo"
(cd "$TMP/dsrv" && exec "${PYTHON3:-python3}" -c '
import http.server, sys
s = http.server.HTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
open(sys.argv[1], "w").write(str(s.server_port))
s.serve_forever()' "$TMP/dsrv.port" >/dev/null 2>&1) &
srv=$!
for i in 1 2 3 4 5 6 7 8 9 10; do [ -s "$TMP/dsrv.port" ] && break; sleep 0.3; done
BENCHTUI_DEBUGINFO_PATH="+:.debug:$root" DEBUGINFOD_URLS=http://127.0.0.1:$(cat "$TMP/dsrv.port") no_proxy=127.0.0.1 NO_PROXY=127.0.0.1 \
	DEBUGINFOD_CACHE_PATH=$TMP/dcache timeout 60 "$BT" -i "$TMP/dbg.data" --stdio --top 1 >"$TMP/out" 2>&1
BENCHTUI_DEBUGINFO_PATH="+:.debug:$root" DEBUGINFOD_URLS= DEBUGINFOD_CACHE_PATH=$TMP/dcache \
	"$BT" -i "$TMP/dbg.data" --stdio --top 1 >"$TMP/out2" 2>&1
kill $srv 2>/dev/null; wait $srv 2>/dev/null
has "$TMP/out" "split.c:18" && ! has "$TMP/out2" "split.c:18" &&
	ok "debuginfod: the debug file from the server DEBUGINFOD_URLS names, none without it" ||
	fail "debuginfod: lines with it $(grep -c split.c:18 "$TMP/out"), without $(grep -c split.c:18 "$TMP/out2")"
# without a build-id the .gnu_debuglink's CRC decides, as in libdw
cc -O2 -g -Wl,--build-id=none -o "$TMP/dbg/nobid" tests/fixtures/split.c
objcopy --only-keep-debug "$TMP/dbg/nobid" "$TMP/dbgkeep/nobid.dbg"
objcopy --strip-debug --add-gnu-debuglink="$TMP/dbgkeep/nobid.dbg" "$TMP/dbg/nobid"
"$BT" -q -o "$TMP/nobid.data" --stdio --top 0 "$TMP/dbg/nobid" $R >/dev/null 2>&1
cp "$TMP/dbgkeep/nobid.dbg" "$TMP/dbg/.debug/nobid.dbg" 2>/dev/null || { mkdir -p "$TMP/dbg/.debug" && cp "$TMP/dbgkeep/nobid.dbg" "$TMP/dbg/.debug/nobid.dbg"; }
BENCHTUI_DEBUGINFO_PATH="+:.debug:$root" "$BT" -i "$TMP/nobid.data" --stdio --top 1 >"$TMP/out" 2>&1
printf 'x' >>"$TMP/dbg/.debug/nobid.dbg"
BENCHTUI_DEBUGINFO_PATH="+:.debug:$root" "$BT" -i "$TMP/nobid.data" --stdio --top 1 >"$TMP/out2" 2>&1
has "$TMP/out" "split.c:18" && ! has "$TMP/out2" "split.c:18" && has "$TMP/out2" "no debug info for '$TMP/dbg/nobid'" &&
	ok "no build-id: the debug file in .debug/ used when its CRC matches the .gnu_debuglink's, not when it differs" ||
	fail "debuglink CRC: $(grep -c split.c:18 "$TMP/out") $(grep -c split.c:18 "$TMP/out2")"
"$BT" -i "$TMP/r.data" --export "$TMP/adir" >/dev/null 2>"$TMP/err"
[ $? = 2 ] && has "$TMP/err" "cannot write" && ok "export to a directory: $(cat "$TMP/err")" || fail "export to a directory"
if [ -w /dev/full ]; then
	"$BT" -i "$TMP/r.data" --export /dev/full >/dev/null 2>"$TMP/err"
	[ $? = 2 ] && has "$TMP/err" "No space left" && ok "export to a full disk: $(cat "$TMP/err")" || fail "export to /dev/full: $(cat "$TMP/err")"
	"$BT" -i "$TMP/r.data" --stdio >/dev/full 2>"$TMP/err"
	[ $? = 2 ] && has "$TMP/err" "cannot write" && ok "report to a full stdout: exit 2 with a message" || fail "stdout full"
fi
finish
