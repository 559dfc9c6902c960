#!/bin/bash
# (bad) is never made by cutting an instruction at the end of a code range
# (docs/disasm.md "Range ends"): tests/fixtures/cutrange.s has a symbol
# whose size ends inside an instruction and code with no symbol and no
# FDE (a range guessed from the samples); built as is and stripped,
# recorded, and every instruction of every annotation of the program
# checked against objdump -d on the same bytes: an instruction objdump
# decodes there, with objdump's text, and no (bad) (the stripped build's
# two loops in .text are one guessed range: they lie closer than 256
# bytes); where the section itself ends inside an instruction, a note
# says so and the cut bytes are left out.
. tests/lib.sh
command -v objdump >/dev/null || skip "objdump is not installed"
command -v python3 >/dev/null || skip "python3 is not installed"
need_recording
export ASAN_OPTIONS=${ASAN_OPTIONS:-}
for v in cutrange cutrange-s; do
	case $v in *-s) flags=-s ;; *) flags= ;; esac
	# shellcheck disable=SC2086
	bin=$(fixture_as $v cutrange.s cc $flags) || { fail "cannot build $v"; continue; }
	if ! "$BT" -q -e cpu-clock -o "$TMP/$v.data" --export "$TMP/$v.json" --format json --top 6 \
	    "$bin" 2>"$TMP/err"; then
		fail "benchtui $v: $(cat "$TMP/err")"
		continue
	fi
	objdump -d --no-show-raw-insn "$bin" >"$TMP/$v.objdump"
	python3 - "$TMP/$v.json" "$TMP/$v.objdump" "$v" >"$TMP/o" <<'PY'
import json, re, sys
js = json.load(open(sys.argv[1]))
od = {}
for line in open(sys.argv[2]):
    m = re.match(r"^\s+([0-9a-f]+):\s+(.*?)\s*$", line)
    if m:
        od[int(m.group(1), 16)] = m.group(2)
def plain(t):   # the text without objdump's <sym+off> and # comments
    return re.sub(r"\s+#.*$", "", re.sub(r"\s*<[^>]*>", "", t)).strip()
bad, n, over = [], 0, []
mine = [a for a in js["annotations"] if a["module"].endswith("/" + sys.argv[3])]
for a in mine:
    rows = [r for r in a["rows"] if r["kind"] == "insn"]
    for r in rows:
        addr = int(r["address"], 16)
        n += 1
        if "(bad)" in r["text"]:
            bad.append("%s %x: (bad) where objdump has '%s'" % (a["function"], addr, od.get(addr)))
        elif addr not in od:
            bad.append("%s %x: no instruction of objdump's starts there" % (a["function"], addr))
        elif plain(r["text"]) != plain(od[addr]):
            bad.append("%s %x: '%s', objdump '%s'" % (a["function"], addr, r["text"], od[addr]))
    if rows and rows[-1]["text"].startswith("movabs"):
        over.append("%s ends with %s" % (a["function"], plain(rows[-1]["text"])))
want = 2 if sys.argv[3].endswith("-s") else 3    # stripped: main's loops are one range
if len(mine) < want:
    bad.append("%d annotations of the program (want %d)" % (len(mine), want))
print("%d instructions in %d annotations%s; %s" % (
    n, len(mine), "" if bad else " as objdump decodes them, no (bad)",
    "; ".join(over) or "no range ends in a movabs"))
if bad:
    print("\n".join(bad[:10]))
sys.exit(1 if bad else 0)
PY
	if [ $? -eq 0 ]; then
		ok "$v: $(cat "$TMP/o")"
	else
		fail "$v: $(cat "$TMP/o")"
	fi
done
grep -q "the symbol's size ends inside its last instruction" "$TMP/cutrange.json" &&
	ok "wrongsize: a note says its symbol's size ends inside an instruction" ||
	fail "no note on wrongsize's size"
for v in cutrange cutrange-s; do
	grep -q "the code ends inside the instruction at [0-9a-f]* (4 of its bytes): left out" "$TMP/$v.json" &&
		ok "$v: the section's cut instruction is left out, and a note says so" ||
		fail "$v: no note on the section's cut instruction"
done
finish
