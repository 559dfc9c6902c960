# Shared by tests/test-*.sh: paths, fixture builds, skips and checks.
# Sourced with $BUILD set (default build); the binary is ./benchtui or $BUILD/benchtui.
set -u
BUILD=${BUILD:-build}
TOP=$(pwd)
if [ "$BUILD" = build ]; then BT=$TOP/benchtui; else BT=$TOP/$BUILD/benchtui; fi
# Fixtures are built with cc, c++, go, javac, never with the build's flags:
# one directory for every BUILD, so that the sanitizer pass of make check
# runs the binaries the plain pass built (each is rebuilt when its source
# is newer)
FIX=$TOP/build/fixtures
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bt-test.XXXXXX")
# At the end, nothing of the test's outlives it: a browser left in a tmux
# server the test killed exits on SIGHUP, but an ASan build's leak check
# at that exit can spin forever (LeakSanitizer's tracer waiting for a
# stop that never comes, seen twice: 20 CPU-minutes each); every process
# whose command line names the test's directory goes with it.
cleanup_tmp() {
	pkill -KILL -f -- "$TMP" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup_tmp EXIT

# Findings per benchmark, from benchtui's JSON export (the planted-lint
# suites).
# benches FILE.json: "name<TAB>check,check" per benchmark, then "(run)<TAB>check,..."
benches() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for b in d.get("benchmarks", []):
    print(b["name"], ",".join(f["check"] for f in b.get("findings", [])) or "-", sep="\t")
print("(run)", ",".join(f["check"] for f in d["findings"]) or "-", sep="\t")
' "$1"
}
# checks_of NAME FILE: the checks of benchmark NAME ("-": none)
checks_of() { benches "$2" | awk -F'\t' -v n="$1" '$1 == n { print $2 }'; }
# lie NAME FILE CHECK...: one of the CHECKs flags it
lie() {
	name=$1 f=$2; shift 2
	got=$(checks_of "$name" "$f")
	for c in "$@"; do
		case ",$got," in *",$c,"*) ok "$name: $c"; return ;; esac
	done
	fail "$name: not flagged ($*): '$got'"
}
# twin NAME FILE CHECK...: none of the CHECKs says anything of it
twin() {
	name=$1 f=$2; shift 2
	got=$(checks_of "$name" "$f")
	[ -n "$got" ] || { fail "$name: no such benchmark: $(benches "$f" | tr '\n\t' '; ')"; return; }
	for c in "$@"; do
		case ",$got," in *",$c,"*) fail "$name: false alarm $c: '$got'"; return ;; esac
	done
	ok "$name: quiet ($got)"
}

# tmux_init NAME: a tmux server of the test's own ($T), killed at the end
# with the rest; screen prints its pane "bt", wait_for PATTERN polls it
# (0.05 s steps, 10 s at most)
tmux_init() {
	T="tmux -L $1$$ -f/dev/null"
	trap '$T kill-server 2>/dev/null; cleanup_tmp' EXIT
}
screen() { $T capture-pane -p -t bt; }
wait_for() {
	for _ in $(seq 200); do
		screen | grep -q -- "$1" && return 0
		sleep 0.05
	done
	fail "timed out waiting for '$1'"; screen | sed 's/^/     | /'
	return 1
}
mkdir -p "$FIX"
nfail=0
nskip=0

# skip: the whole test cannot run here (77); skipped: one check cannot
# (counted, and tests/run.sh totals them: a check that could not run is
# never reported as passed)
skip() { echo "   skip: $*"; exit 77; }
skipped() { echo "   skipped: $*"; nskip=$((nskip + 1)); }
fail() { echo "   FAIL: $*"; nfail=$((nfail + 1)); }
ok() { echo "   ok: $*"; }
finish() {
	if [ "$nskip" -gt 0 ]; then
		echo "   ($nskip check(s) skipped)"
		[ -n "${SKIP_LOG:-}" ] && echo "$(basename "$0" .sh | sed 's/^test-//'): $nskip check(s)" >>"$SKIP_LOG"
	fi
	[ "$nfail" -eq 0 ] || exit 1
	exit 0
}

# perf record without its BPF side-band thread: perf 6.1 polls for BPF
# events in a thread with a 1 s timeout and joins it at exit, so that every
# perf record outlived its workload by up to a second (~70 records a make
# check). --no-bpf-event only clears the attr's bpf_event bit: no test loads
# a BPF program, and benchtui reads no BPF record. (test-perf.sh keeps one
# recording as perf makes it by default: `command perf record`.)
if command -v perf >/dev/null; then
	perf() {
		if [ "${1:-}" = record ]; then
			shift
			command perf record --no-bpf-event "$@"
		else
			command perf "$@"
		fi
	}
fi
# python3 is called ~160 times a make check: where it is a version manager's
# shim (pyenv's is a bash script, ~0.1 s a call), call the interpreter it
# resolves to
if PYTHON3=$(command python3 -c 'import sys; print(sys.executable)' 2>/dev/null) &&
    [ -x "$PYTHON3" ]; then
	python3() { "$PYTHON3" "$@"; }
fi

# Oracles once per make check. make check gives both passes one directory,
# BT_SHARE: what an external oracle makes (perf's recordings of fixtures,
# perf's reports of them) is made there by the plain pass and read again by
# the sanitizer pass, which still runs every benchtui command and every
# check on it (and runs only when the plain pass passed). Run by hand
# (no BT_SHARE), a test makes everything afresh, in $TMP/share.
SHARE=${BT_SHARE:+$BT_SHARE/$(basename "$0" .sh)}
SHARE=${SHARE:-$TMP/share}
mkdir -p "$SHARE"
# oracle NAME CMD...: run CMD, an oracle's step that writes into $SHARE,
# once per make check; every pass gets its exit status (redirections of
# the call apply in every pass: a step that writes its standard output to
# a file is a function)
oracle() {
	o=$SHARE/$1.rc
	shift
	[ -e "$o" ] || { "$@"; echo $? >"$o"; }
	return "$(cat "$o")"
}
# memo CMD...: CMD's standard output and exit status, from the first pass
# that ran it: an oracle's reading of a file in $SHARE (perf report, perf
# script), never benchtui's
memo() {
	m=$SHARE/memo-$(printf '%s\n' "$@" | md5sum | cut -c1-32)
	[ -e "$m.rc" ] || { "$@" >"$m.out"; echo $? >"$m.rc"; }
	cat "$m.out"
	return "$(cat "$m.rc")"
}

# fixture NAME [CFLAGS...]: compile tests/fixtures/NAME.c into $FIX/NAME (once per change)
fixture() {
	name=$1; shift
	if [ ! -x "$FIX/$name" ] || [ "$TOP/tests/fixtures/$name.c" -nt "$FIX/$name" ]; then
		cc -O2 -g "$@" -o "$FIX/$name" "$TOP/tests/fixtures/$name.c" ||
			{ echo "cannot build fixture $name"; exit 1; }
	fi
	echo "$FIX/$name"
}

# fixture_as OUT SRC COMPILER [FLAGS...]: compile tests/fixtures/SRC with
# COMPILER and FLAGS into $FIX/OUT (once per change); prints the path
fixture_as() {
	out=$1 src=$TOP/tests/fixtures/$2 comp=$3
	shift 3
	if [ ! -x "$FIX/$out" ] || [ "$src" -nt "$FIX/$out" ]; then
		"$comp" "$@" -o "$FIX/$out" "$src" ||
			{ echo "cannot build fixture $out" >&2; exit 1; }
	fi
	echo "$FIX/$out"
}

# java_fixture NAME DIR: javac tests/fixtures/NAME.java into $FIX/java
# (once per change), then copy its classes into DIR
java_fixture() {
	if [ ! -f "$FIX/java/$1.class" ] || [ "$TOP/tests/fixtures/$1.java" -nt "$FIX/java/$1.class" ]; then
		mkdir -p "$FIX/java" && javac -d "$FIX/java" "$TOP/tests/fixtures/$1.java" || return 1
	fi
	cp "$FIX/java/$1"*.class "$2/"
}

# --- heavy fixtures: built once per machine (tests/cache.sh) ------------------
. "$TOP/tests/cache.sh"

CARGO=/usr/bin/cargo
RUSTC=/usr/bin/rustc
# have_criterion: Debian's cargo, rustc and packaged criterion are installed
have_criterion() {
	[ -x $CARGO ] && [ -x $RUSTC ] && ls -d /usr/share/cargo/registry/criterion-0.3* >/dev/null 2>&1
}

# crit_fixture: the criterion benchmark binary of tests/fixtures/rustbench,
# from the machine's cache, built there the first time with cargo bench
# (Debian's packaged crates, offline, as Debian's own packaging builds:
# ~100 s of CPU on this machine); prints its path. Every test that runs
# criterion calls it: none depends on another having run. The key: the
# crate's sources, cargo's and rustc's versions, the packaged crates.
crit_fixture() {
	have_criterion || return 1
	crit_key="criterion: cargo bench --offline --no-run, /usr/share/cargo/registry
sources: $(cd "$TOP/tests/fixtures" && cache_sum rustbench)
$($CARGO -V); $($RUSTC -vV | tr '\n' ' ')
crates: $(dpkg-query -W -f '${db:Status-Abbrev} ${Package} ${Version}\n' 'librust-*' 2>/dev/null |
		grep '^ii' | sha256sum | cut -c1-32)"
	TICK_STATUS=crit_progress
	crit_dir=$(cache_entry criterion "$crit_key" crit_build)
	crit_rc=$?
	TICK_STATUS=
	[ $crit_rc = 0 ] && echo "$crit_dir/crit"
}

# crit_build OUT (cache_entry's builder): the crate is built from a copy
# beside the entry (CACHE_ENTRY.src: the binary's debug information names
# its files; cargo writes Cargo.lock there, never into the clone), into
# one target directory in the cache for every version of the crate, where
# cargo keeps the dependencies it built: a changed fixture rebuilds only
# itself (~15 s)
crit_build() {
	cb_src=$CACHE_ENTRY.src
	cb_root=$(cache_root) || return 1
	cb_home=$cb_root/cargo-home
	mkdir -p "$cb_home" "$cb_root/rustbench-target" || return 1
	printf '%s\n' '[source.crates-io]' 'replace-with = "debian-packages"' \
		'[source.debian-packages]' 'directory = "/usr/share/cargo/registry"' \
		'[net]' 'offline = true' >"$cb_home/config.toml.$$" &&
		mv "$cb_home/config.toml.$$" "$cb_home/config.toml" || return 1
	rm -rf "$cb_src" && cp -r "$TOP/tests/fixtures/rustbench" "$cb_src" &&
		rm -f "$cb_src/Cargo.lock" || return 1
	# (for crit_progress: how many crates the build has)
	(cd "$cb_src" && CARGO_HOME=$cb_home RUSTC=$RUSTC "$CARGO" tree --offline \
		-e normal,build,dev --prefix none 2>/dev/null | sed 's/ (\*)$//' | sort -u | wc -l \
		>.crates)
	(cd "$cb_src" && env -u RUSTFLAGS -u CARGO_ENCODED_RUSTFLAGS -u CARGO_BUILD_RUSTFLAGS \
		-u CARGO_BUILD_TARGET CARGO_HOME="$cb_home" CARGO_TARGET_DIR="$cb_root/rustbench-target" \
		RUSTC=$RUSTC "$CARGO" bench --offline --no-run -q --message-format=json \
		>build.json 2>build.log) ||
		{ tail -20 "$cb_src/build.log"; echo "(cargo's target directory: $cb_root/rustbench-target)"; return 1; }
	# (the binary is the one cargo names: other versions' builds share the target)
	cb_exe=$(sed -n 's/.*"executable":"\([^"]*\/crit-[^"]*\)".*/\1/p' "$cb_src/build.json" | tail -1)
	[ -x "$cb_exe" ] && cp "$cb_exe" "$1/crit"
}

# crit_progress: how far crit_build is (said every 30 s)
crit_progress() {
	printf '%s of %s crates compiled' \
		"$(grep '"reason":"compiler-artifact"' "$CACHE_ENTRY.src/build.json" 2>/dev/null |
			sed 's/.*"package_id":"\([^"]*\)".*/\1/' | sort -u | wc -l)" \
		"$(cat "$CACHE_ENTRY.src/.crates" 2>/dev/null || echo '?')"
}

# go_fixture NAME [go build flags...]: build the Go test package tests/fixtures/NAME
# with go test -c into $FIX/NAME[-flags].test, offline, caches in the build
# directory (no HOME, no module proxy); prints the path
go_fixture() {
	name=$1; shift
	out=$FIX/$name$(printf '%s' "$*" | tr -c 'A-Za-z0-9=\n' '-').test
	src=$TOP/tests/fixtures/$name
	if [ ! -x "$out" ] || [ -n "$(find "$src" -newer "$out")" ]; then
		(cd "$src" && GOCACHE=$FIX/go/cache GOPATH=$FIX/go/path GOPROXY=off GOFLAGS= \
			GO111MODULE=on GOTOOLCHAIN=local go test -c -vet=off "$@" -o "$out" .) >&2 ||
			{ echo "cannot build Go fixture $name $*" >&2; exit 1; }
	fi
	echo "$out"
}

# decode_fixtures: build tests/fixtures/decode.c plain, with AVX2+FMA, with
# AVX-512 and as i386 (where -m32 links) into $FIX (once per change); echo the names
decode_fixtures() {
	for v in "decode:" "decode-avx2:-mavx2 -mfma" \
	    "decode-avx512:-mavx512f -mavx512bw -mavx512vl" "decode-i386:-m32"; do
		name=${v%%:*}
		if [ ! -x "$FIX/$name" ] || [ "$TOP/tests/fixtures/decode.c" -nt "$FIX/$name" ]; then
			# shellcheck disable=SC2086
			cc -O2 -g ${v#*:} -o "$FIX/$name" "$TOP/tests/fixtures/decode.c" 2>/dev/null ||
				continue
		fi
		echo "$name"
	done
}

# perf_funcs | plt_as_init: perf 6.1 names a PLT stub sym@plt in some
# modules (ld.so) and counts it as _init in others, and leaves the PLT's
# first entry unnamed (a raw address) where _init has a size (libc);
# benchtui names every stub sym@plt and the first PLT0@plt: all are summed
# as _init per module ("samples dso symbol" lines)
plt_as_init() {
	awk '{ s = $3; if (s ~ /@plt$/ || s ~ /^0x[0-9a-f]+$/) s = "_init"; n[$2 " " s] += $1 }
	     END { for (k in n) print n[k], k }'
}

# debug_file LIB: the separate debug file of LIB under /usr/lib/debug/.build-id, if installed
debug_file() {
	bid=$(readelf -n "$1" 2>/dev/null | awk '/Build ID/ { print $3 }')
	f=/usr/lib/debug/.build-id/$(echo "$bid" | cut -c1-2)/$(echo "$bid" | cut -c3-).debug
	[ -n "$bid" ] && [ -r "$f" ] && echo "$f"
}

# Skip (77) when the kernel refuses perf_event_open here.
need_recording() {
	out=$("$BT" -q -o "$TMP/probe.data" --stdio true 2>&1 >/dev/null)
	case $out in
	*perf_event_open*|*perf_event_paranoid*) skip "the kernel refuses perf_event_open: $out" ;;
	esac
}

# expect_status WANT CMD...: run, compare the exit status
expect_status() {
	want=$1; shift
	"$@" >"$TMP/out" 2>"$TMP/err"
	got=$?
	if [ "$got" -ne "$want" ]; then
		fail "$* exited $got, want $want; stderr: $(head -c 300 "$TMP/err")"
		return 1
	fi
	return 0
}
