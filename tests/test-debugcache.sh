#!/bin/bash
# The debug file cache (issue 30, core/symbols/debugcache.c, docs/formats.md
# "Debug file cache"): a separate debug file with its DWARF compressed is
# copied once, inflated, to $XDG_CACHE_HOME/benchtui/debug/<build-id>.debug
# and that copy is what libdw reads after; the reports are the same with
# and without it, a copy that does not match (its debug file changed, the
# file truncated, writable by others) is made again, a cache that cannot
# be written is no error, and the directory is kept under its bound.
. tests/lib.sh
need_recording
command -v objcopy >/dev/null || skip "objcopy is not installed"

mkdir -p "$TMP/dbg" "$TMP/keep"
cc -O2 -g -o "$TMP/dbg/prog" tests/fixtures/split.c
objcopy --only-keep-debug --compress-debug-sections=zlib "$TMP/dbg/prog" "$TMP/keep/prog.dbg"
objcopy --strip-debug "$TMP/dbg/prog"
bid=$(readelf -n "$TMP/dbg/prog" 2>/dev/null | awk '/Build ID/ { print $3 }')
[ -n "$bid" ] || skip "cc makes no build-id here"
root=$TMP/root
src=$root/.build-id/$(echo "$bid" | cut -c1-2)/$(echo "$bid" | cut -c3-).debug
mkdir -p "$(dirname "$src")"
cp "$TMP/keep/prog.dbg" "$src"
readelf -S -W "$src" 2>/dev/null | grep -q '\.debug_info .* C ' || skip "objcopy did not compress the DWARF"
"$BT" -q -o "$TMP/prog.data" --stdio --top 0 "$TMP/dbg/prog" 2000000 20 >/dev/null 2>&1 ||
	skip "recording failed"
export BENCHTUI_DEBUGINFO_PATH="+:$root"
copy=$TMP/cache/benchtui/debug/$bid.debug

# run NAME [CACHE]: the text and JSON reports with XDG_CACHE_HOME=CACHE
run() {
	XDG_CACHE_HOME=${2:-$TMP/cache} "$BT" -i "$TMP/prog.data" --stdio >"$TMP/$1.txt" 2>&1 &&
	XDG_CACHE_HOME=${2:-$TMP/cache} "$BT" -i "$TMP/prog.data" --export "$TMP/$1.json" --format json 2>>"$TMP/$1.txt"
}
same() { cmp -s "$TMP/ref.txt" "$TMP/$1.txt" && cmp -s "$TMP/ref.json" "$TMP/$1.json"; }
ino() { stat -c %i "$copy" 2>/dev/null; }

# the reference: no cache directory can be made (its place is a file):
# a cache that cannot be written is no error
mkdir -p "$TMP/nocache/benchtui"
: >"$TMP/nocache/benchtui/debug"
run ref "$TMP/nocache" && grep -q "split.c:" "$TMP/ref.txt" &&
	ok "no cache directory of ours: the debug file read as it is, source lines" ||
	fail "without a cache: rc $?, $(head -c 300 "$TMP/ref.txt")"

run cold
if [ -f "$copy" ] && same cold; then
	ok "first run: the copy made ($(stat -c %s "$copy") bytes), the same reports"
else
	fail "first run: copy $(ls -la "$copy" 2>&1), $(diff "$TMP/ref.txt" "$TMP/cold.txt" | head -5)"
fi
# the copy: the same sections, the DWARF stored inflated, mode 0600
flags=$(readelf -S -W "$copy" 2>/dev/null | awk '$2 ~ /^\.debug_/ && $0 ~ / C / { print $2 }')
objcopy --decompress-debug-sections "$src" "$TMP/ref.debug"
diffs=
for s in $(readelf -S -W "$TMP/ref.debug" 2>/dev/null | awk '$2 ~ /^\.debug_/ { print $2 }'); do
	objcopy -O binary --only-section="$s" "$TMP/ref.debug" "$TMP/a.bin" 2>/dev/null
	objcopy -O binary --only-section="$s" "$copy" "$TMP/b.bin" 2>/dev/null
	cmp -s "$TMP/a.bin" "$TMP/b.bin" || diffs="$diffs $s"
done
[ -z "$flags" ] && [ -z "$diffs" ] && [ "$(stat -c %a "$copy")" = 600 ] &&
	[ "$(readelf -n "$copy" 2>/dev/null | awk '/Build ID/ { print $3 }')" = "$bid" ] &&
	ok "the copy: every .debug_* section as objcopy --decompress-debug-sections makes it, the build-id, mode 600" ||
	fail "the copy: compressed:$flags differ:$diffs mode $(stat -c %a "$copy")"

# second run: the copy is read (opened), not made again
i1=$(ino)
# (LeakSanitizer's own ptrace cannot run under strace)
XDG_CACHE_HOME=$TMP/cache ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -f -qq -e trace=open,openat -o "$TMP/strace" \
	"$BT" -i "$TMP/prog.data" --stdio >"$TMP/warm.txt" 2>&1
XDG_CACHE_HOME=$TMP/cache "$BT" -i "$TMP/prog.data" --export "$TMP/warm.json" --format json
if same warm && [ "$(ino)" = "$i1" ] && grep -q "\"$copy\".* = [0-9]" "$TMP/strace" &&
    ! grep -q "debug/\.debug\." "$TMP/strace"; then
	ok "second run: the copy read, not made again, the same reports"
else
	fail "second run: inode $i1 -> $(ino), $(grep "$TMP/cache" "$TMP/strace" | head -3)"
fi

# the debug file changed since (its time): the copy made again
touch -d '2001-01-01' "$src"
run touched
[ "$(ino)" != "$i1" ] && same touched &&
	ok "debug file's time changed: the copy made again" ||
	fail "debug file touched: inode $i1 -> $(ino)"

# a copy cut short, one writable by others, a link, garbage: made again
for what in truncated writable link garbage; do
	i1=$(ino)
	case $what in
	truncated) truncate -s 4096 "$copy" ;;
	writable) chmod 666 "$copy" ;;
	link) cp "$copy" "$TMP/elsewhere.debug"; ln -sf "$TMP/elsewhere.debug" "$copy" ;;
	garbage) head -c 100000 /dev/urandom >"$copy" ;;
	esac
	run "$what"
	[ -f "$copy" ] && [ ! -L "$copy" ] && [ "$(stat -c %a "$copy")" = 600 ] && same "$what" &&
		[ "$(readelf -n "$copy" 2>/dev/null | awk '/Build ID/ { print $3 }')" = "$bid" ] &&
		ok "a copy $what: not used, made again, the same reports" ||
		fail "a copy $what: $(ls -la "$copy"), $(diff "$TMP/ref.txt" "$TMP/$what.txt" | head -3)"
done

# the bound (1 GiB): a copy not used for a while, 1 GiB (sparse), goes
# to make room for a new one; the copies of others' build-ids stay when
# there is room
rm -f "$copy"
truncate -s 1G "$TMP/cache/benchtui/debug/00old.debug"
touch -d '2001-01-01' "$TMP/cache/benchtui/debug/00old.debug"
: >"$TMP/cache/benchtui/debug/01small.debug"
touch -d '2001-01-01' "$TMP/cache/benchtui/debug/.debug.abandoned"
run bound
[ -f "$copy" ] && [ ! -e "$TMP/cache/benchtui/debug/00old.debug" ] &&
	[ -e "$TMP/cache/benchtui/debug/01small.debug" ] &&
	[ ! -e "$TMP/cache/benchtui/debug/.debug.abandoned" ] && same bound &&
	ok "bounded: the least recently used copy removed to make room, an abandoned temporary file too" ||
	fail "bound: $(ls -la "$TMP/cache/benchtui/debug")"

# the system's debug files (libc6-dbg: ld.so's, libc's), when installed:
# the same annotations through the copies as through the compressed files
sys=
for lib in $(ldd "$TMP/dbg/prog" | awk '$3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
	f=$(debug_file "$lib") && sys="$sys $(readelf -n "$lib" 2>/dev/null | awk '/Build ID/ { print $3 }')"
done
if [ -n "$sys" ]; then
	unset BENCHTUI_DEBUGINFO_PATH
	XDG_CACHE_HOME=$TMP/nocache "$BT" -i "$TMP/prog.data" --all --export "$TMP/sys-ref.txt"
	XDG_CACHE_HOME=$TMP/cache "$BT" -i "$TMP/prog.data" --all --export "$TMP/sys-cold.txt"
	XDG_CACHE_HOME=$TMP/cache "$BT" -i "$TMP/prog.data" --all --export "$TMP/sys-warm.txt"
	made=$(for b in $sys; do [ -f "$TMP/cache/benchtui/debug/$b.debug" ] && echo "$b"; done | wc -l)
	[ "$made" -gt 0 ] && cmp -s "$TMP/sys-ref.txt" "$TMP/sys-cold.txt" &&
		cmp -s "$TMP/sys-ref.txt" "$TMP/sys-warm.txt" &&
		ok "the system's debug files: $made copied, every annotation the same" ||
		fail "the system's debug files: $made copied of$sys, $(diff "$TMP/sys-ref.txt" "$TMP/sys-warm.txt" | head -3)"
else
	skipped "no system debug file installed (libc6-dbg)"
fi
finish
