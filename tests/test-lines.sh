#!/bin/bash
# benchtui's own reader of .debug_line programs (issue 30,
# core/symbols/dwfl-lineprog.c) against libdw's dwarf_getsrclines: for
# every compilation unit of real binaries, the rows benchtui keeps
# (address, line, column, file) and the file tables must be identical
# (tests/tools/lines-check). Binaries: libc's debug file (libc6-dbg),
# benchtui itself, a C++ program by g++ and by clang++ (DWARF 5), one by
# g++ -gdwarf-4, -gdwarf-2 and 64-bit DWARF, a Go and a Rust program (4
# or 5), and bench/big.c: every unit read by benchtui. A unit the reader
# gives up on goes to libdw: split DWARF's skeleton units (g++
# -gsplit-dwarf), whose rows must still be libdw's.
. tests/lib.sh
CHECK=$TOP/$BUILD/tools/lines-check
[ -x "$CHECK" ] || { fail "no $CHECK (make tools)"; finish; }

check() {	# check NAME FILE... [LIBDW]: LIBDW units read by libdw (default 0)
	name=$1 want=${want:-0}
	shift
	if ! out=$("$CHECK" "$@" 2>&1); then
		fail "$name: $(echo "$out" | tr '\n' ' ')"
		return
	fi
	# every unit read by benchtui, not libdw
	if echo "$out" | grep -qv " $want read by libdw"; then
		fail "$name: units read by libdw: $(echo "$out" | tr '\n' ' ')"
		return
	fi
	ok "$name: $(echo "$out" | sed 's|^.*/||' | tr '\n' ' ')"
}

libc=$(readlink -f /lib/x86_64-linux-gnu/libc.so.6 2>/dev/null)
id=$(readelf -n "$libc" 2>/dev/null | awk '/Build ID/ { print $3 }')
dbg=/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug
if [ -n "$id" ] && [ -f "$dbg" ]; then
	check libc "$dbg"
else
	skipped "libc6-dbg is not installed: no libc"
fi
check benchtui "$BT"
check gcc-dwarf5 "$(fixture_as inltree-gcc inltree.cc g++ -O2 -g)"
check gcc-dwarf4 "$(fixture_as inltree-gcc4 inltree.cc g++ -O2 -gdwarf-4)"
check gcc-dwarf2 "$(fixture_as inltree-gcc2 inltree.cc g++ -O1 -gdwarf-2)"
check gcc-dwarf64 "$(fixture_as inltree-gcc64 inltree.cc g++ -O2 -gdwarf-4 -gdwarf64)"
# split DWARF: its .dwo beside the binary (g++ writes it where the output goes)
if [ ! -x "$FIX/lines-split" ] || [ "$TOP/tests/fixtures/inltree.cc" -nt "$FIX/lines-split" ]; then
	(cd "$FIX" && g++ -O2 -g -gsplit-dwarf -o lines-split "$TOP/tests/fixtures/inltree.cc") ||
		fail "cannot build the split-DWARF fixture"
fi
want=1 check gcc-split-dwarf "$FIX/lines-split"
check gcc-templates "$(fixture_as lines-tmpl tmpl.cc g++ -O2 -g -I"$TOP/tests/fixtures")"
if command -v clang++ >/dev/null; then
	check clang "$(fixture_as inltree-clang inltree.cc clang++ -O2 -g)"
	check clang-dwarf4 "$(fixture_as inltree-clang4 inltree.cc clang++ -O2 -gdwarf-4)"
else
	skipped "clang++ is not installed"
fi
if command -v rustc >/dev/null; then
	check rustc "$(fixture_as inltree-rust inltree.rs rustc -C opt-level=2 -g)"
else
	skipped "rustc is not installed"
fi
if command -v go >/dev/null; then
	goinl=$FIX/inltree-go
	if [ ! -x "$goinl" ] || [ "$TOP/tests/fixtures/inltree.go" -nt "$goinl" ]; then
		GOCACHE=$FIX/go/cache GOPATH=$FIX/go/path GOPROXY=off GOFLAGS= GOTOOLCHAIN=local \
			go build -o "$goinl" "$TOP/tests/fixtures/inltree.go" ||
			{ fail "cannot build tests/fixtures/inltree.go"; finish; }
	fi
	check go "$goinl"
else
	skipped "go is not installed"
fi
# Mutated programs: 150 copies of the clang++ and g++ fixtures with 1-4
# bytes of .debug_line changed (a fixed seed; most in the first unit's
# header and tables): each unit either read alike or left to libdw, never read
# otherwise (what found default_is_stmt's and the entry formats' limits)
mutants() {	# mutants FILE SEED
	python3 - "$1" "$CHECK" "$TMP/mut" "$2" <<'PY'
import random, re, subprocess, sys
src, tool, out, seed = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
sec = subprocess.run(["readelf", "-SW", src], capture_output=True, text=True).stdout
m = re.search(r"\.debug_line\s+\S+\s+[0-9a-f]+\s+([0-9a-f]+)\s+([0-9a-f]+)", sec)
off, size = int(m.group(1), 16), int(m.group(2), 16)
data = open(src, "rb").read()
rnd = random.Random(seed)
own = libdw = 0
for i in range(150):
    b = bytearray(data)
    for _ in range(rnd.randint(1, 4)):
        u = rnd.random()	# the header's fields, its tables, anywhere
        p = off + rnd.randrange(min(size, 40 if u < 0.3 else 400 if u < 0.6 else size))
        b[p] = rnd.choice([0, 1, 0x7f, 0x80, 0xff, rnd.randrange(256), b[p] ^ (1 << rnd.randrange(8))])
    open(out, "wb").write(b)
    r = subprocess.run([tool, out], capture_output=True, text=True)
    if r.returncode not in (0, 2):
        print("mutant %d: %s" % (i, (r.stdout + r.stderr).strip().replace("\n", " ")[-400:]))
        sys.exit(1)
    if " 0 read by libdw" in r.stdout:
        own += 1
    else:
        libdw += 1
print("150 mutants: %d read alike, %d left to libdw" % (own, libdw))
PY
}
for f in inltree-clang inltree-gcc; do
	if res=$(mutants "$FIX/$f" 30); then ok "$f: $res"; else fail "$f: $res"; fi
done

# bench/gen.sh's program (big.c), smaller: its one unit's thousands of functions
if [ ! -x "$FIX/lines-big" ] || [ "$TOP/bench/gen.sh" -nt "$FIX/lines-big" ]; then
	sh "$TOP/bench/gen.sh" 3000 2000 >"$TMP/big.c" &&
		cc -O1 -g -pthread -o "$FIX/lines-big" "$TMP/big.c" || { fail "cannot build big.c"; finish; }
fi
check big.c "$FIX/lines-big"
finish
