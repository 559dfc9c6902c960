#!/bin/bash
# Inline frames as a tree and lambdas by their names (issue 27), on
# tests/fixtures/inltree.cc built with g++ and clang++ -O2 -g (and
# inltree.rs by rustc, inltree.go by go where installed): at every
# sampled address the inline chain of the JSON export, and the one its
# rows draw ("inlined f() from", "back in g()"), equal llvm-symbolizer
# --inlines' frame by frame (function names, call-site files and lines);
# the depth column of the text export is the chain's depth; the lambdas
# are named as llvm-symbolizer and addr2line -f name them.
. tests/lib.sh
need_recording
SYMB=$(command -v llvm-symbolizer || command -v llvm-symbolizer-15 ||
	command -v llvm-symbolizer-14) || skip "llvm-symbolizer is not installed"

check() {	# check NAME BINARY [ARGS...]
	name=$1 bin=$2
	shift 2
	"$BT" -q -o "$TMP/$name.data" --export "$TMP/$name.json" --format json --top 6 \
		"$bin" "$@" >/dev/null 2>&1 || { fail "$name: recording failed"; return; }
	"$BT" -i "$TMP/$name.data" --stdio --top 6 >"$TMP/$name.txt" 2>/dev/null ||
		{ fail "$name: --stdio failed"; return; }
	python3 - "$TMP/$name.json" "$bin" "$SYMB" "$TMP/$name.txt" "${DEEP:-3}" >"$TMP/$name.res" <<'PY'
import json, re, subprocess, sys

d = json.load(open(sys.argv[1]))
binary, symb, text = sys.argv[2], sys.argv[3], open(sys.argv[4]).read()
# GCC's clones: " [clone .constprop.0]" in C++, "f.part.0" in C (the symbol's; DWARF names f)
clone = re.compile(r" \[clone [^]]*\]|(\.(part|constprop|isra|cold)(\.[0-9]+)?)+$")
ours, bad, deepest, nleave, nrows = {}, [], 0, 0, 0
for a in d["annotations"]:
    if a["module"] != binary:
        continue
    stack = []     # the chain the rows have drawn so far
    for r in a["rows"]:
        if r["kind"] == "inline":
            nrows += 1
            if r.get("leave"):
                nleave += 1
                stack = stack[:r["depth"]]
            else:
                stack = stack[:r["depth"] - 1] + [(r["function"], r["call_file"], r["call_line"])]
        elif r["kind"] == "insn":
            chain = [(f["function"], f.get("call_file"), f.get("call_line")) for f in r.get("inlines", [])]
            if chain != stack:
                bad.append("%s %s: rows draw %s, the row's chain is %s" % (a["function"], r["address"], stack, chain))
                stack = chain
            if r["samples"]:
                ours[int(r["address"], 16)] = (a["function"], r.get("file"), r.get("line", 0), chain)
                deepest = max(deepest, len(chain))
# llvm-symbolizer, innermost frame first: name, file:line:column
# (its names demangled by c++filt: LLVM 14 spells gcc's lambdas 'lambda'(int))
out = subprocess.run([symb, "--inlines", "--no-demangle", "--obj=" + binary], input="".join(
    "0x%x\n" % x for x in sorted(ours)), capture_output=True, text=True).stdout
blocks = [b.split("\n") for b in out.strip("\n").split("\n\n")]
mangled = sorted({b[i] for b in blocks for i in range(0, len(b) - 1, 2)})
plain = subprocess.run(["c++filt"], input="".join(m + "\n" for m in mangled),
                       capture_output=True, text=True).stdout.split("\n")
# (Rust's legacy hashes go, as benchtui and perf drop them: "::h0123...")
rhash = re.compile(r"::h[0-9a-f]{16}$")
# (and v0 symbols' crate disambiguators, "std[e28293b1aa0f68bd]::", which
# benchtui drops as perf and rustc-demangle's short form do)
v0dis = re.compile(r"(?<=[A-Za-z0-9_])\[[0-9a-f]{1,16}\]")
demangled = {m: rhash.sub("", clone.sub("", v0dis.sub("", p) if m.startswith("_R") else p))
             for m, p in zip(mangled, plain)}
blocks = [[demangled.get(s, s) if i % 2 == 0 else s for i, s in enumerate(b)] for b in blocks]
def loc(s):   # line 0 is no line, whatever file the row names
    f, l = s.rsplit(":", 2)[:2] if s.count(":") >= 2 else (s, "0")
    return ("??", 0) if f == "??" or l == "0" else (f, int(l))
for x, b in zip(sorted(ours), blocks):
    fn, file, line, chain = ours[x]
    want = [(b[i], loc(b[i + 1])) for i in range(0, len(b) - 1, 2)]
    # ours, innermost first: the innermost frame at the instruction's line,
    # each outer one at the call site of the one inside it
    names = [c[0] for c in reversed(chain)] + [clone.sub("", fn)]
    locs = [(f, l) if f and l else ("??", 0) for f, l in
            [(file, line)] + [(c[1], c[2]) for c in reversed(chain)]]
    got = list(zip(names, locs))
    # a PLT stub has no symbol: llvm-symbolizer names the one before it
    # (_init), benchtui and perf name it from its relocation (memmove@plt)
    if fn.endswith("@plt") and not chain and [w[1] for w in want] == [("??", 0)]:
        continue
    if got != want:
        bad.append("0x%x: ours %s, llvm-symbolizer %s" % (x, got, want))
if len(blocks) != len(ours):
    bad.append("%d addresses, %d answers" % (len(ours), len(blocks)))
# the text export: the depth column of each instruction row is its depth
depth = {}
for a in d["annotations"]:
    if a["module"] != binary:
        continue
    for r in a["rows"]:
        if r["kind"] == "insn":
            depth[int(r["address"], 16)] = len(r.get("inlines", []))
seen, col, ours_sec = 0, None, False
base = binary.rsplit("/", 1)[-1]
for l in text.split("\n"):
    if l.startswith("## "):    # "## NAME  MODULE  P% of N samples": the fixture's only
        ours_sec = ("  %s  " % base) in l
        col = None
    if not ours_sec:
        continue
    if l.startswith("#Percent") and "\u00b195%" in l:
        col = l.index("\u00b195%") + 4 + 5    # the gutter's last column
        continue
    m = re.match(r"^.* ([0-9a-f]+):  ", l)
    if col is None or not m or int(m.group(1), 16) not in depth:
        continue
    want = depth[int(m.group(1), 16)]
    if l[col] != (" " if not want else "+" if want > 9 else str(want)):
        bad.append("text row %s: depth %r, want %d" % (m.group(1), l[col], want))
    seen += want > 0
for b in bad[:8]:
    print(b[:600])
print("%d sampled addresses, chains up to %d deep, %d inline rows (%d back), %d depth cells"
      % (len(ours), deepest, nrows, nleave, seen))
sys.exit(1 if bad or not ours or deepest < int(sys.argv[5]) or not nleave or not seen else 0)
PY
	if [ $? -eq 0 ]; then
		ok "$name: inline chains equal llvm-symbolizer's: $(tail -1 "$TMP/$name.res")"
	else
		fail "$name: inline chains differ from llvm-symbolizer's: $(tail -1 "$TMP/$name.res")"
		head -n -1 "$TMP/$name.res"
	fi
}

lambda_names() {	# lambda_names NAME BINARY: the function table's lambda vs addr2line -f
	name=$1 bin=$2
	sym=$(nm "$bin" | awk '$3 ~ /^_ZZ.*clEi/ { print $1, $3; exit }')
	[ -n "$sym" ] || { fail "$name: no lambda symbol"; return; }
	want=$(addr2line -f -C -e "$bin" "0x${sym%% *}" | head -1 | sed 's/(int) const.*$//')
	got=$(awk -F'  +' '/operator\(\)/ { print $NF; exit }' "$TMP/$name.txt")
	case $want in
	drive\(long\)::*) ;;
	*) fail "$name: addr2line names the lambda '$want'"; return ;;
	esac
	[ "$got" = "$want" ] && ok "$name: the lambda is '$got', as addr2line -f names it" ||
		fail "$name: the lambda is '$got', addr2line -f says '$want'"
}

gcc=$(fixture_as inltree-gcc inltree.cc g++ -O2 -g) || exit 1
check g++ "$gcc"
lambda_names g++ "$gcc"

# -s NAME that two instantiations match: refused, the candidates listed as
# MODULE+0xADDR; each copied from the message, NAME@MODULE and 0xADDR pick one
"$BT" -i "$TMP/g++.data" --stdio -s ev::hash_all >/dev/null 2>"$TMP/s.err" &&
	fail "-s ev::hash_all was not refused"
cands=$(grep -o '(inltree-gcc+0x[0-9a-f]*)' "$TMP/s.err" | tr -d '()')
picked=""
for c in $cands "0x${cands##*+0x}"; do
	"$BT" -i "$TMP/g++.data" --stdio -s "$c" 2>/dev/null | grep '^## ev::hash_all<' >>"$TMP/picked"
done
"$BT" -i "$TMP/g++.data" --stdio -s 'ev::hash_all<unsigned int>@inltree-gcc' 2>/dev/null |
	grep '^## ev::hash_all<' >>"$TMP/picked"
picked=$(sed 's/^## //; s/  .*//' "$TMP/picked" | tr '\n' ' ')
[ "$(echo $cands | wc -w)" = 2 ] &&
	[ "$picked" = "ev::hash_all<unsigned long> ev::hash_all<unsigned int> ev::hash_all<unsigned int> ev::hash_all<unsigned int> " ] &&
	ok "-s ev::hash_all lists $(echo $cands); each, 0xADDR and NAME@MODULE pick one" ||
	fail "-s picking: $(cat "$TMP/s.err"); picked: $picked"
if command -v clang++ >/dev/null; then
	clang=$(fixture_as inltree-clang inltree.cc clang++ -O2 -g) || exit 1
	check clang++ "$clang"
	lambda_names clang++ "$clang"
else
	skipped "clang++ is not installed: the clang build is not checked"
fi
# Rust: closures and the standard library's iterators inlined
if command -v rustc >/dev/null; then
	rs=$(fixture_as inltree-rust inltree.rs rustc -C opt-level=2 -g) || exit 1
	check rustc "$rs" 20000
else
	skipped "rustc is not installed: no Rust inline chains checked"
fi
# Go: its compiler's inlining (DWARF's inlined subroutines since Go 1.12)
if command -v go >/dev/null; then
	goinl=$FIX/inltree-go
	if [ ! -x "$goinl" ] || [ "$TOP/tests/fixtures/inltree.go" -nt "$goinl" ]; then
		GOCACHE=$FIX/go/cache GOPATH=$FIX/go/path GOPROXY=off GOFLAGS= GOTOOLCHAIN=local \
			go build -o "$goinl" "$TOP/tests/fixtures/inltree.go" ||
			{ fail "cannot build tests/fixtures/inltree.go"; finish; }
	fi
	DEEP=2 check go "$goinl" 5000	# step and mix: two deep
else
	skipped "go is not installed: no Go inline chains checked"
fi
finish
