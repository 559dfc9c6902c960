#!/bin/bash
# Long C++ names that fit (issue 25, docs/browser.md "Long names"): a
# program with Eigen-like names of ~400 columns, four instantiations that
# differ only deep inside (tests/fixtures/longnames.cc). In --stdio (100
# columns in a file) and in the browser at 80x24 (tmux): every row of the
# function table fits, no two functions read the same, the hot path fits
# its line; what a row shows is the name folded or cut (its pieces, in
# order, are the short name's), and the whole names the JSON carries are
# nm -C's (an oracle nobody here wrote).
. tests/lib.sh
need_recording

ln=$(fixture_as longnames longnames.cc c++ -O2 -g -fno-omit-frame-pointer) || exit 1
"$BT" -q -o "$TMP/ln.data" --export /dev/null --top 0 "$ln" 40000000 2>/dev/null ||
	fail "recording longnames"
"$BT" -i "$TMP/ln.data" --stdio --top 1 >"$TMP/ln.txt" 2>/dev/null || fail "--stdio"
"$BT" -i "$TMP/ln.data" --stdio --top 1 --format json >"$TMP/ln.json" 2>/dev/null ||
	fail "--stdio --format json"
"$BT" -i "$TMP/ln.data" --export "$TMP/ln-x.txt" --top 1 2>/dev/null || fail "--export"

# the function table's rows: from "#Percent" to the first empty line
table() { awk '/^#Percent/ { on = 1; next } on && !NF { exit } on' "$1"; }
table "$TMP/ln.txt" >"$TMP/rows"
python3 - "$TMP/rows" "$TMP/ln.json" "$TMP/ln.txt" <<'PY' || fail "--stdio: the table's names"
import json, re, sys
rows = open(sys.argv[1], encoding="utf-8").read().splitlines()
js = json.load(open(sys.argv[2], encoding="utf-8"))
text = open(sys.argv[3], encoding="utf-8").read().splitlines()
funcs = js["functions"]
bad = []
if len(rows) != len(funcs):
    bad.append("%d rows, %d functions" % (len(rows), len(funcs)))
head = [l for l in text if l.startswith("#Percent")][0]
col = head.index("Symbol")
# 100 columns, the symbol at least 40 (a C name whole however wide the columns before it)
wide = [r for r in rows if len(r) > max(100, col + 40)]
if wide:
    bad.append("%d rows wider than 100 columns: %s" % (len(wide), wide[0][:120]))
shown = [r[col:] for r in rows]
def fitted(sym, name):
    pat = ""
    for k, piece in enumerate(sym.split("<\u2026>")):
        if k:
            pat += "<.*>"
        pat += ".*".join(re.escape(x) for x in piece.split("\u2026"))
    return re.fullmatch(pat, name, re.S) is not None
for s, f in zip(shown, funcs):
    short = f.get("short_name", f["name"])
    if s != short and not fitted(s, short):
        bad.append("%r is not %r fitted" % (s, short[:80]))
for i in range(len(funcs)):
    for j in range(i):
        a, b = funcs[i].get("short_name", funcs[i]["name"]), funcs[j].get("short_name", funcs[j]["name"])
        if a != b and shown[i] == shown[j]:
            bad.append("two functions read %r" % shown[i])
long = [s for s, f in zip(shown, funcs) if len(f.get("short_name", f["name"])) > 300]
if len(long) < 4:
    bad.append("%d names past 300 columns, not the fixture's 4" % len(long))
hp = [l for l in text if l.startswith("# hot path: ")]
if not hp or len(hp[0]) > 100 or "hot_path" not in js or len(js["hot_path"]) <= 100:
    bad.append("hot path: %r (JSON %d columns)" % (hp[:1], len(js.get("hot_path", ""))))
if bad:
    print("\n".join("     " + b for b in bad[:8]))
    sys.exit(1)
print("   ok: --stdio: %d rows within 100 columns, the symbol 40 at least (the longest %d), %d names of %d-%d columns "
      "shown in %d, all distinct; hot path %d columns (JSON's %d)" % (len(rows),
      max(len(r) for r in rows), len(long), min(len(f["short_name"]) for f in funcs[:4]),
      max(len(f["short_name"]) for f in funcs[:4]), max(len(s) for s in long), len(hp[0]),
      len(js["hot_path"])))
PY
# the text and JSON exports agree (a fitted symbol is its short name's pieces)
python3 "$TOP/tests/tools/export-agree.py" "$TMP/ln.txt" "$TMP/ln.json" >/dev/null &&
	ok "--stdio text and JSON agree" || fail "export-agree: $(python3 "$TOP/tests/tools/export-agree.py" "$TMP/ln.txt" "$TMP/ln.json" 2>&1 | head -3)"
# --export: whole, as before
n=$(table "$TMP/ln-x.txt" | grep -c '  bench::internal::Evaluator<bench::linalg::Product<.*Align<[0-9]*> >, 8, 8> >, bench::linalg::Kernel<bench::linalg::Packet<double, [48]>, bench::linalg::UnrollBy<4> > >::run<bench::Policy<true> >$')
[ "$n" = 4 ] && ! table "$TMP/ln-x.txt" | grep -q '…' &&
	grep -q '^# hot path: .\{300\}' "$TMP/ln-x.txt" &&
	ok "--export: the 4 names and the hot path whole" || fail "--export: $n whole names"
# oracle: the whole names are nm -C's (but for functions that exist only
# inlined, frames of call chains: atol when a sample lands in strtol)
nm -C "$ln" | sed 's/^[0-9a-f]* [A-Za-z] //' | sort -u >"$TMP/nm"
python3 -c '
import json, sys
for f in json.load(open(sys.argv[1]))["functions"]:
    if f["module"] == sys.argv[2] and not f.get("inlined"):
        print(f["name"])' "$TMP/ln.json" "$ln" | sort -u >"$TMP/names"
missing=$(comm -23 "$TMP/names" "$TMP/nm")
[ -s "$TMP/names" ] && [ -z "$missing" ] &&
	ok "the JSON's $(wc -l <"$TMP/names") whole names of longnames are nm -C's" ||
	fail "names nm -C does not print: $(echo "$missing" | head -2 | cut -c1-120)"

# a call's target in an annotation: folded to what its row leaves it
m=$(python3 -c '
import json, sys
print([f["short_name"] for f in json.load(open(sys.argv[1]))["functions"]
       if f.get("short_name", "").endswith("::measure")][0])' "$TMP/ln.json")
"$BT" -i "$TMP/ln.data" --stdio -s "$m" 2>/dev/null | grep -a ' call ' >"$TMP/call"
"$BT" -i "$TMP/ln.data" --export "$TMP/call-x.txt" -s "$m" 2>/dev/null
if grep -q '<bench::internal::Evaluator<.*>::run<.*>>$' "$TMP/call" &&
    [ "$(awk '{ print length($0) }' "$TMP/call" | sort -n | tail -1)" -le 110 ] &&
    grep -q ' call .*<bench::internal::Evaluator<bench::linalg::Product<.*Policy<true> >>$' "$TMP/call-x.txt"; then
	ok "the call's target: $(sed 's/^ *//' "$TMP/call"); whole in --export"
else
	fail "the call's target: $(cat "$TMP/call")"
fi

# the browser at 80x24
if command -v tmux >/dev/null; then
	tmux_init btln
	$T new-session -d -s keep
	$T new-session -d -s bt -x 80 -y 24 -c "$TMP" \
		"env TERM=screen LC_ALL=C.UTF-8 $BT -i $TMP/ln.data; exec sleep 60"
	wait_for "hot functions"
	screen >"$TMP/s80"
	rows=$(sed -n '4,23p' "$TMP/s80" | grep '%')
	ev=$(printf '%s\n' "$rows" | grep -c 'bench.*run<')
	cut=$(printf '%s\n' "$rows" | grep -c '~$')
	distinct=$(printf '%s\n' "$rows" | grep 'bench.*run<' | sed 's/^.*%  [^ ]*  *//' | sort -u | wc -l)
	if [ "$ev" = 4 ] && [ "$distinct" = 4 ] && [ "$cut" = 0 ]; then
		ok "80x24: the 4 instantiations in 4 distinct rows, none cut at the edge"
	else
		fail "80x24: $ev rows, $distinct distinct, $cut cut:"; sed 's/^/     | /' "$TMP/s80"
	fi
	tail -1 "$TMP/s80" | grep -q '^double bench::internal::Evaluator<bench.*~$' &&
		ok "the status line has the cursor's whole name (~ reads it)" ||
		fail "status line: $(tail -1 "$TMP/s80")"
	$T send-keys -t bt '~'
	wait_for "the screen's lines whole" &&
		screen | tr -d ' \n' | grep -q 'Align<[0-9]*>>,8,8>>,bench::linalg::Kernel<bench::linalg::Packet<double,[48]>' &&
		ok "~ shows the whole name" || fail "~: $(screen | head -5)"
	$T send-keys -t bt q
	$T send-keys -t bt q
else
	skipped "no tmux: the browser at 80 columns not checked"
fi
finish
