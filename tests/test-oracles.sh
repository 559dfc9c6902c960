#!/bin/bash
# Oracles, compared exactly: instruction starts against objdump -d, line
# tables and inline chains against addr2line (fixtures) and llvm-symbolizer
# (libc, where binutils 2.40's addr2line misreports files that #include .c
# templates; gdb and llvm agree with benchtui there), function bounds of a
# stripped binary against its unstripped symbols, C++ demangling.
. tests/lib.sh
command -v objdump >/dev/null || skip "objdump is not installed"
command -v addr2line >/dev/null || skip "addr2line is not installed"
DUMP=$TOP/$BUILD/tools/disasm-dump
SYMS=$TOP/$BUILD/tools/syms-dump
LIBC=/lib/x86_64-linux-gnu/libc.so.6
norm() { sed 's/ (discriminator [0-9]*)//; s/^??:?$/??:0/; s/^:?$/??:0/; s/^0x0*\([0-9a-f]\)/0x\1/' "$1"; }

# decoder vs objdump (instruction starts; the text is tests/test-objdump.sh's):
# fixtures (plain, AVX2/FMA, AVX-512, i386), then libc
for f in $(decode_fixtures); do
	if out=$("$DUMP" --objdump "$FIX/$f" 2>/dev/null); then
		ok "$f: $(echo "$out" | tail -1)"
	else
		fail "$f: $out"
	fi
done
if [ -r "$LIBC" ]; then
	dbg=$(debug_file "$LIBC")
	if [ -n "$dbg" ]; then
		if out=$("$DUMP" --objdump "$LIBC" "$dbg" 2>/dev/null); then
			ok "libc with libc6-dbg symbols: $(echo "$out" | tail -1)"
		else
			fail "libc: $(echo "$out" | tail -5)"
		fi
		nevex=$("$DUMP" "$LIBC" "$dbg" 2>/dev/null | awk '$5 ~ /_evex/ { f[$5] = 1 } END { print length(f) }')
		[ "$nevex" -gt 10 ] && ok "$nevex *_evex functions decoded without (bad)" ||
			fail "only $nevex *_evex functions found in libc's symbols"
	else
		skipped "libc6-dbg missing: libc compared over its dynamic symbols only"
		out=$("$DUMP" --objdump "$LIBC" 2>/dev/null) && ok "libc: $(echo "$out" | tail -1)" ||
			fail "libc: $(echo "$out" | tail -5)"
	fi
fi

# lines vs addr2line, inline chains vs addr2line -i -f (fixtures: exact)
fixture inl -I"$TOP/tests/fixtures" >/dev/null
fixture split >/dev/null
for f in inl split decode; do
	"$SYMS" lines "$FIX/$f" >"$TMP/ours" 2>/dev/null
	grep '^0x' "$TMP/ours" | addr2line -a -e "$FIX/$f" >"$TMP/a2l"
	n=$(grep -c '^0x' "$TMP/ours")
	if diff -u "$TMP/a2l" "$TMP/ours" >/dev/null || diff -u <(norm "$TMP/a2l") <(norm "$TMP/ours") >"$TMP/d" 2>&1; then
		ok "$f: lines of $n instructions equal addr2line's"
	else
		fail "$f: lines differ from addr2line"; head -20 "$TMP/d"
	fi
done
"$SYMS" inlines "$FIX/inl" >"$TMP/ours" 2>/dev/null
grep '^0x' "$TMP/ours" | addr2line -a -i -f -e "$FIX/inl" >"$TMP/a2l"
depth=$(grep -c '^header_mix$' "$TMP/ours")
if norm "$TMP/a2l" | diff - "$(norm "$TMP/ours" >"$TMP/ours.n"; echo "$TMP/ours.n")" >"$TMP/d"; then
	[ "$depth" -gt 0 ] && ok "inl: inline chains equal addr2line -i ($depth addresses two deep)" ||
		fail "inl: no two-deep inline chain found"
else
	fail "inl: inline chains differ from addr2line -i"; head -20 "$TMP/d"
fi

# libc: lines and inline chains vs llvm-symbolizer
SYMB=$(command -v llvm-symbolizer || command -v llvm-symbolizer-14 || true)
if [ -n "$SYMB" ] && [ -r "$LIBC" ]; then
	"$SYMS" inlines "$LIBC" >"$TMP/libc.i" 2>/dev/null
	grep '^0x' "$TMP/libc.i" | "$SYMB" --obj="$LIBC" --output-style=GNU --inlines \
		--functions=none --print-address >"$TMP/libc.llvm"
	awk '/^0x/ || /:[0-9]+$/ || /^\?\?:/' "$TMP/libc.i" >"$TMP/libc.loc"
	n=$(grep -c '^0x' "$TMP/libc.loc")
	norm "$TMP/libc.llvm" >"$TMP/a"; norm "$TMP/libc.loc" >"$TMP/b"
	if cmp -s "$TMP/a" "$TMP/b"; then
		ok "libc: lines and inline chains of $n instructions equal llvm-symbolizer's"
	else
		fail "libc: differs from llvm-symbolizer"; diff "$TMP/a" "$TMP/b" | head -10
	fi
else
	skipped "llvm-symbolizer missing: libc lines not compared"
fi

# a stripped binary: function bounds from .eh_frame equal the symbols' bounds
cp "$FIX/split" "$TMP/split-stripped"
strip --strip-all "$TMP/split-stripped"
for fn in work_a work_b; do
	line=$(nm -S "$FIX/split" | awk -v f="$fn" '$4 == f { print $1, $2 }')
	start=$(echo "$line" | cut -d' ' -f1 | sed 's/^0*//')
	size=$(echo "$line" | cut -d' ' -f2)
	end=$(printf '%x' $((0x$start + 0x$size)))
	got=$("$SYMS" func "$TMP/split-stripped" "$start")
	if [ "$got" = "$start $end split-stripped+0x$start fde" ]; then
		ok "stripped $fn: [$start, $end) from its FDE, named split-stripped+0x$start"
	else
		fail "stripped $fn: got '$got', want '$start $end split-stripped+0x$start fde'"
	fi
done

# code labels (NOTYPE symbols in a text section, not hidden) name the code
# they head when no function covers it, as perf report names samples there
# and objdump heads them: ld.so's _start and _dl_start_user, from readelf's
# view of its libc6-dbg symbols
LDSO=/lib64/ld-linux-x86-64.so.2
ldbg=$(debug_file "$LDSO")
if [ -z "$ldbg" ]; then
	skipped "code labels: no debug file for $LDSO (libc6-dbg)"
else
	readelf -SW "$ldbg" >"$TMP/ld.sec" 2>/dev/null
	readelf -sW "$ldbg" >"$TMP/ld.sym" 2>/dev/null
	python3 - "$TMP/ld.sec" "$TMP/ld.sym" >"$TMP/ld.want" <<'PY'
import re, sys
text = set()
for l in open(sys.argv[1]):
    m = re.match(r"\s*\[\s*(\d+)\]\s+(\S+)\s+\S+\s+[0-9a-f]+\s+[0-9a-f]+\s+[0-9a-f]+\s+\S+\s+(\S*)", l)
    if m and "X" in m.group(3) and "text" in m.group(2):
        text.add(m.group(1))
funcs, labels = [], []
for l in open(sys.argv[2]):
    f = l.split()
    if len(f) < 8 or not f[0].endswith(":") or f[6] not in text:
        continue
    addr, size = int(f[1], 16), int(f[2], 0)
    if f[3] == "FUNC" and size:
        funcs.append((addr, addr + size))
    elif f[3] == "NOTYPE" and f[5] == "DEFAULT":
        labels.append((addr, f[7]))
for a, n in labels:
    if not any(lo <= a < hi for lo, hi in funcs):
        print("%x %s" % (a, n))
PY
	n=0; bad=""
	while read -r a name; do
		got=$("$SYMS" func "$LDSO" "$a" | cut -d' ' -f3)
		n=$((n + 1))
		[ "$got" = "$name" ] || bad="$bad $name@$a:$got"
	done <"$TMP/ld.want"
	grep -qw _start "$TMP/ld.want" && [ -z "$bad" ] &&
		ok "code labels of ld.so named as perf names them ($n: $(cut -d' ' -f2 "$TMP/ld.want" | tr '\n' ' '))" ||
		fail "code labels: want $(tr '\n' ' ' <"$TMP/ld.want"); wrong:$bad"
fi

# stripped code at scale: every FDE of a stripped program (zstd), looked up
# at its first, middle and last byte, gives that FDE's bounds and its
# start as the name (oracle: readelf --debug-dump=frames); never the
# narrower CFI row an address falls in
if z=$(command -v zstd) && [ -z "$(nm "$z" 2>/dev/null | head -1)" ]; then
	readelf --debug-dump=frames "$z" 2>/dev/null |
		sed -n 's/.* FDE .*pc=\([0-9a-f]*\)\.\.\([0-9a-f]*\)$/\1 \2/p' |
		while read -r s e; do
			s=$((16#$s)); e=$((16#$e))
			[ "$e" -gt "$s" ] && printf '%x %x %x %x %x\n' $s $e $s $((s + (e - s) / 2)) $((e - 1))
		done >"$TMP/fdes"
	awk '{ print $3; print $4; print $5 }' "$TMP/fdes" | xargs "$SYMS" func "$z" >"$TMP/got"
	awk -v b="$(basename "$z")" '{ w = $1 " " $2 " " b "+0x" $1 " fde"; print w; print w; print w }' \
		"$TMP/fdes" >"$TMP/want"
	# the PLT has one FDE for all its stubs; the stubs are named sym@plt
	paste -d'|' "$TMP/want" "$TMP/got" | grep -v '@plt symtab$' >"$TMP/pairs"
	n=$(wc -l <"$TMP/fdes")
	if [ "$n" -gt 100 ] && awk -F'|' '$1 != $2 { print; bad = 1 } END { exit bad }' \
	    "$TMP/pairs" >"$TMP/d"; then
		ok "stripped $z: all $n FDEs (but the PLT's), at their start, middle and end, give their bounds"
	else
		fail "stripped $z: $n FDEs; bounds differ from readelf's:"; head -6 "$TMP/d"
	fi
else
	skipped "no stripped zstd here: FDE bounds checked on the fixture only"
fi

# C++: demangled
cxx=$FIX/cxx
[ "$TOP/tests/fixtures/cxx.cc" -nt "$cxx" ] || [ ! -x "$cxx" ] && c++ -O2 -g -o "$cxx" tests/fixtures/cxx.cc
addr=$(nm "$cxx" | awk '/AccIiE3add/ { print $1 }' | sed 's/^0*//')
got=$("$SYMS" func "$cxx" "$addr" | cut -d' ' -f3-)
[ "$got" = "ns::Acc<int>::add(int) symtab" ] && ok "C++ name demangled: $got" ||
	fail "C++ name: got '$got'"
# PLT stubs: named as objdump -d -C names them (operator new(unsigned long)@plt)
objdump -d -C "$cxx" | sed -n 's/^0*\([0-9a-f]*\) <\(.*@plt\)>:$/\1|\2/p' >"$TMP/plt"
bad=0
while IFS='|' read -r a name; do
	got=$("$SYMS" func "$cxx" "$a" | cut -d' ' -f3- | sed 's/ symtab$//')
	[ "$got" = "$name" ] || { bad=1; echo "     $a: '$got', objdump '$name'"; }
done <"$TMP/plt"
[ -s "$TMP/plt" ] && [ "$bad" = 0 ] && ok "C++ PLT stubs named as objdump -C: $(grep -c . "$TMP/plt") ($(grep -m1 operator "$TMP/plt" | cut -d'|' -f2))" ||
	fail "C++ PLT stub names differ from objdump -C's"

# Rust, legacy and v0 manglings: every function of the crate named as nm -C names it
rc=/usr/bin/rustc
[ -x "$rc" ] || rc=$(command -v rustc)
if [ -n "$rc" ]; then
	cat >"$TMP/r.rs" <<'RUST'
#[inline(never)]
fn work(n: u64) -> u64 { let mut x = 0u64; for i in 0..n { x = x.wrapping_mul(31).wrapping_add(i); } x }
mod inner { #[inline(never)] pub fn helper<T: Copy + Into<u64>>(v: T) -> u64 { v.into() * 3 } }
fn main() { let n = std::env::args().count() as u64 * 1000; println!("{}", work(n) + inner::helper(7u32)); }
RUST
	for m in legacy v0; do
		"$rc" -O -g -C symbol-mangling-version=$m -o "$TMP/r-$m" "$TMP/r.rs" 2>/dev/null ||
			"$rc" -O -g -o "$TMP/r-$m" "$TMP/r.rs" 2>/dev/null || { fail "rustc failed"; continue; }
		nm -C "$TMP/r-$m" | awk '$2 ~ /^[tT]$/ && $3 ~ /^r::/ { a = $1; sub(/^0+/, "", a); $1 = $2 = ""; sub(/^  /, ""); print a "|" $0 }' >"$TMP/rs"
		bad=0
		while IFS='|' read -r a name; do
			got=$("$SYMS" func "$TMP/r-$m" "$a" | cut -d' ' -f3- | sed 's/ symtab$//')
			[ "$got" = "$name" ] || { bad=1; echo "     $a: '$got', nm '$name'"; }
		done <"$TMP/rs"
		[ -s "$TMP/rs" ] && [ "$bad" = 0 ] && ok "Rust $m mangling: $(grep -c . "$TMP/rs") functions named as nm -C ($(tail -1 "$TMP/rs" | cut -d'|' -f2))" ||
			fail "Rust $m names differ from nm -C"
	done
else
	skipped "no rustc here: Rust demangling not compared"
fi
finish
