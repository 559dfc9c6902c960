#!/bin/bash
# AVX-512 and AMX instruction text against objdump -d (AT&T) and
# objdump -d -M intel, every instruction equal (docs/disasm.md):
# - tests/fixtures/avx512.s, written by hand: embedded rounding and SAE,
#   broadcasts, compares into masks, {%k}{z}, gathers and scatters,
#   compress and expand, the vcvt* families, FP16, BF16, AMX tiles;
# - tests/fixtures/avx512k.c, kernels compiled with gcc -O3 and clang -O3
#   (where installed) and every AVX-512 extension and AMX;
# - the sweep of tests/tools/x86-sweep: every opcode of EVEX maps 1-6
#   with each pp, W, length, broadcast, masking and register set, and of
#   VEX maps 1-3 (mask instructions, AMX), that benchtui decodes (~100,000
#   instructions), one function each; and again in i386 code (~56,000).
# Nothing runs them: decoding needs no CPU support. The normalisation is
# test-objdump.sh's (objdump's "<sym+off>" and "# addr" comments go).
. tests/lib.sh
command -v objdump >/dev/null || skip "objdump is not installed"
DUMP=$TOP/$BUILD/tools/disasm-dump
ISA="-mavx512f -mavx512bw -mavx512vl -mavx512dq -mavx512cd -mavx512vnni -mavx512ifma
 -mavx512vbmi -mavx512vbmi2 -mavx512bitalg -mavx512vpopcntdq -mavx512bf16 -mavx512fp16
 -mgfni -mvaes -mvpclmulqdq -mamx-tile -mamx-int8 -mamx-bf16"

# compare NAME FILE: both syntaxes, every instruction
compare() {
	for syntax in att intel; do
		if out=$("$DUMP" --text "$syntax" --min 100 --diffs "$TMP/diffs" "$2" 2>&1); then
			ok "$1 $out"
		else
			fail "$1 $out; first differences, objdump then benchtui:"
			head -5 "$TMP/diffs"
		fi
	done
}

compare "avx512.s" "$(fixture_as avx512-hand.so avx512.s cc -shared -nostdlib)"
# shellcheck disable=SC2086
compare "avx512k.c, gcc -O3" "$(fixture_as avx512k-gcc.so avx512k.c cc -O3 -g -fPIC -shared $ISA)"
if command -v clang >/dev/null; then
	# shellcheck disable=SC2086
	compare "avx512k.c, clang -O3" \
	    "$(fixture_as avx512k-clang.so avx512k.c clang -O3 -g -fPIC -shared $ISA)"
else
	skipped "clang is not installed (the kernels as clang compiles them)"
fi
if "$TOP/$BUILD/tools/x86-sweep" >"$TMP/sweep.s" 2>"$TMP/sweep.log" &&
    cc -shared -nostdlib -o "$TMP/sweep.so" "$TMP/sweep.s"; then
	compare "EVEX and VEX sweep ($(sed 's/^x86-sweep: //' "$TMP/sweep.log"))" "$TMP/sweep.so"
else
	fail "cannot build the EVEX and VEX sweep: $(cat "$TMP/sweep.log")"
fi
# the same in i386 code (registers up to 7), where cc -m32 assembles
if "$TOP/$BUILD/tools/x86-sweep" --32 >"$TMP/sweep32.s" 2>"$TMP/sweep32.log" &&
    cc -m32 -shared -nostdlib -o "$TMP/sweep32.so" "$TMP/sweep32.s" 2>/dev/null; then
	compare "i386 sweep ($(sed 's/^x86-sweep: //' "$TMP/sweep32.log"))" "$TMP/sweep32.so"
else
	skipped "the i386 sweep: cc -m32 does not assemble here"
fi
finish
