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
		echo "   note: libc6-dbg missing: libc compared over its dynamic symbols only"
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
	echo "   note: llvm-symbolizer missing: libc lines not compared"
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

# C++: demangled
cxx=$FIX/cxx
[ "$TOP/tests/fixtures/cxx.cc" -nt "$cxx" ] || [ ! -x "$cxx" ] && c++ -O2 -g -o "$cxx" tests/fixtures/cxx.cc
addr=$(nm "$cxx" | awk '/AccIiE3add/ { print $1 }' | sed 's/^0*//')
got=$("$SYMS" func "$cxx" "$addr" | cut -d' ' -f3-)
[ "$got" = "ns::Acc<int>::add(int) symtab" ] && ok "C++ name demangled: $got" ||
	fail "C++ name: got '$got'"
finish
