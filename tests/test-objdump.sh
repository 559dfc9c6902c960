#!/bin/bash
# Instruction text against objdump -d (AT&T) and objdump -d -M intel, every
# instruction of libc, libm and libstdc++ and of the decode fixtures (plain,
# AVX2/FMA, AVX-512, i386); and capstone's aarch64 text against
# aarch64-linux-gnu-objdump -d (the decode fixture cross-compiled, the
# arm64 cross libc). One objdump run per file and syntax; disasm-dump
# --text compares the two streams address by address (docs/disasm.md).
#
# Normalisation, on objdump's side only: its "<sym+off>" after a branch
# target and its "# addr <sym>" comment after a PC-relative operand are
# removed (benchtui's annotate layer adds them, not the decoder), and so
# are trailing blanks. Except with --comments (the decode fixtures,
# tests/fixtures/ripnames.cc with and without -fno-plt, libstdc++):
# objdump -d -C keeps its "        # 2060 <rip::table+0x40>" and benchtui
# adds its own, named as the annotate layer names it (bt_msyms_addr_name:
# the nearest symbol before, a GOT slot by its dynamic relocation). libc
# and libm go without: benchtui names by libc6-dbg's symbols, objdump by
# the stripped file's .dynsym. Nothing else: the mnemonic column, the blanks and
# the "," between operands must be objdump's own. aarch64: objdump's
# "// ..." comments go too, and the tab after its mnemonic counts as
# benchtui's column (padded to six, one blank) as on x86.
#
# Which instructions: those of every function of the symbol table (libc
# and libm: libc6-dbg's symbols, aliases once), decoded by benchtui from
# the function's start; libstdc++ and the arm64 libc have only their
# exported symbols, so there every address objdump's sweep prints
# (--sweep). Fails under 99.5%.
. tests/lib.sh
command -v objdump >/dev/null || skip "objdump is not installed"
DUMP=$TOP/$BUILD/tools/disasm-dump
MIN=99.5

# compare NAME FILE [SYMFILE] [--sweep] [--comments]; SYNTAXES (default "att intel")
compare() {
	name=$1 file=$2 syms=${3:-} mode="${4:-} ${5:-}"
	for syntax in ${SYNTAXES:-att intel}; do
		# shellcheck disable=SC2086
		if out=$("$DUMP" --text "$syntax" --min "$MIN" $mode --diffs "$TMP/diffs" "$file" $syms 2>&1); then
			ok "$name $out"
		else
			fail "$name $out (under $MIN%); first differences, objdump then benchtui:"
			head -5 "$TMP/diffs"
		fi
	done
}

for f in $(decode_fixtures); do
	compare "$f" "$FIX/$f" "" "" --comments
done
compare "ripnames.cc" "$(fixture_as ripnames ripnames.cc c++ -O2 -g)" "" --sweep --comments
compare "ripnames.cc -fno-plt" "$(fixture_as ripnames-noplt ripnames.cc c++ -O2 -g -fno-plt)" "" \
    --sweep --comments
for lib in /lib/x86_64-linux-gnu/libc.so.6 /lib/x86_64-linux-gnu/libm.so.6; do
	[ -r "$lib" ] || { echo "   skip: $lib is not here"; continue; }
	dbg=$(debug_file "$lib")
	if [ -n "$dbg" ]; then
		compare "$(basename "$lib")" "$lib" "$dbg"
	else
		echo "   note: no libc6-dbg symbols for $lib: objdump's whole sweep instead"
		compare "$(basename "$lib")" "$lib" "" --sweep
	fi
done
STDCXX=/usr/lib/x86_64-linux-gnu/libstdc++.so.6
if [ -r "$STDCXX" ]; then
	compare libstdc++.so.6 "$STDCXX" "" --sweep --comments
else
	echo "   skip: $STDCXX is not here"
fi

# aarch64 (capstone): binutils-aarch64-linux-gnu and libc6-arm64-cross (in
# scripts/deps.sh); the fixture only where gcc-aarch64-linux-gnu is
# installed, which Debian 12 refuses beside gcc-multilib (the i386 fixture)
if command -v aarch64-linux-gnu-objdump >/dev/null; then
	if command -v aarch64-linux-gnu-gcc >/dev/null; then
		if [ ! -x "$FIX/decode-aarch64" ] || [ tests/fixtures/decode.c -nt "$FIX/decode-aarch64" ]; then
			aarch64-linux-gnu-gcc -O2 -g -o "$FIX/decode-aarch64" tests/fixtures/decode.c ||
				fail "cannot cross-compile tests/fixtures/decode.c for aarch64"
		fi
		SYNTAXES=att compare decode-aarch64 "$FIX/decode-aarch64"
	else
		echo "   skip: aarch64-linux-gnu-gcc is not installed (the aarch64 fixture; it conflicts with gcc-multilib)"
	fi
	A64LIBC=/usr/aarch64-linux-gnu/lib/libc.so.6
	if [ -r "$A64LIBC" ]; then
		SYNTAXES=att compare "arm64 libc.so.6" "$A64LIBC" "" --sweep
	else
		echo "   skip: $A64LIBC is not here (libc6-arm64-cross)"
	fi
else
	echo "   skip: aarch64-linux-gnu-objdump is not installed"
fi
finish
