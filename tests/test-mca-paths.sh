#!/bin/bash
# X on loops with branches inside (docs/browser.md "Predicted vs
# measured"), on tests/fixtures/mcapath.c, and --view mca|data-types:
# - scan()'s loop has a block that never runs: llvm-mca predicts the
#   blocks with samples (its hot path), the screen says which, and the
#   oracle (llvm-mca on those instructions, same -mcpu) gives the same
#   cycles per iteration; the cold block's rows have no prediction;
# - mix()'s loop runs both sides: one straight-line pass, said so;
# - --view mca -s FUNC prints X's view as text and JSON (the same loops),
#   --view without -s or with a bad name is refused, --view data-types
#   prints D's;
# - perf's recording: the CPU is its CPUID header's (rewritten to another);
# - X at 80x24: Resource (then Press...) gives way before the instruction
#   is cut; every instruction row is whole, the status line has the rest.
. tests/lib.sh
need_recording
MCA=$(command -v llvm-mca || command -v llvm-mca-16 || command -v llvm-mca-15 ||
	command -v llvm-mca-14 || true)
[ -n "$MCA" ] || skip "no llvm-mca (Debian's llvm)"

bin=$(fixture mcapath) || exit 1
D=$TMP/m.data
"$BT" -q -o "$D" --export /dev/null --top 0 "$bin" 20000 >/dev/null 2>&1 || fail "recording mcapath"

"$BT" -i "$D" --view mca -s scan --stdio >"$TMP/scan.txt" || fail "--view mca -s scan"
"$BT" -i "$D" --view mca -s scan --format json --export "$TMP/scan.json" || fail "--view mca json"
"$BT" -i "$D" --view mca -s mix --stdio >"$TMP/mix.txt" || fail "--view mca -s mix"
"$BT" -i "$D" --view mca -s mix --format json --stdio >"$TMP/mix.json" || fail "--view mca -s mix json"

# (the blocks with samples: this VM's timer often puts every sample of the
# loop on one instruction, and then one block of the two that run is seen)
grep -q "^  the loop has 1 branch inside: predicted its hottest path, the [12] of its 3 blocks that ran ([0-9]* of [0-9]* instructions, in address order: [0-9a-f]*-[0-9a-f]*\(, [0-9a-f]*-[0-9a-f]*\)\?)$" "$TMP/scan.txt" &&
	ok "scan: $(grep -o 'predicted its hottest path.*' "$TMP/scan.txt")" ||
	{ fail "scan: no hot path"; sed 's/^/     | /' "$TMP/scan.txt"; }
grep -q "^  predicted as one straight-line pass through the loop's [0-9]* instructions; the loop has [0-9]* branch\(es\)\? inside: no path it takes is exactly this$" "$TMP/mix.txt" &&
	ok "mix: one straight-line pass, said so" ||
	{ fail "mix: no straight-line note"; sed 's/^/     | /' "$TMP/mix.txt"; }

# the oracle: llvm-mca on the hot path's instructions (rows with a
# prediction), with the same -mcpu, gives the cycles per iteration shown
python3 - "$TMP/scan.txt" "$TMP/scan.json" "$TMP/block.s" <<'PY' || fail "scan's rows and JSON"
import json, re, sys
t = open(sys.argv[1]).read()
rows = [l for l in t.splitlines() if re.search(r" [0-9a-f]+:  ", l)]
v = json.load(open(sys.argv[2]))["view"]
l = v["loops"][0]
pred = [r for r in rows if len(r.split(":  ")[0].split()) >= 6]
assert l["branches_inside"] == 1 and l["predicted_instructions"] == len(pred) < len(rows), (l, len(pred), len(rows))
assert l["prediction_note"] in t and l["predicted_path"] in l["prediction_note"]
ins = [r for r in v["rows"] if r["kind"] == "insn"]
assert len(ins) == len(rows) and sum("predicted" in r for r in ins) == len(pred)
# cold rows: no samples
assert all(r["samples"] == 0 for r in ins if "predicted" not in r)
with open(sys.argv[3], "w") as f:
    for r in pred:
        x = r.split(":  ", 1)[1].strip()
        f.write(re.sub(r"^(j[a-z]*\s+)([0-9a-f]+)$", r"\g<1>0x\2", x) + "\n")
PY
cpu=$(sed -n 's/.*llvm-mca -mcpu=\([a-z0-9-]*\)).*/\1/p' "$TMP/scan.txt" | head -1)
got=$(sed -n 's/.*: \([0-9.e+]*\) cycles\/iteration (block.*/\1/p' "$TMP/scan.txt" | head -1)
"$MCA" -mcpu="$cpu" -iterations=100 "$TMP/block.s" >"$TMP/mca.txt" 2>&1
want=$(awk '/^Iterations:/ { it = $2 } /^Total Cycles:/ { cy = $3 } END { printf "%.3g", cy / it }' "$TMP/mca.txt")
[ -n "$got" ] && [ "$got" = "$want" ] &&
	ok "scan's hot path: $got cycles/iteration, llvm-mca's own on those instructions (-mcpu=$cpu)" ||
	fail "scan's hot path: $got cycles/iteration, llvm-mca says $want"
python3 - "$TMP/mix.json" <<'PY' && ok "mix's JSON: every instruction predicted, the note" || fail "mix's JSON"
import json, sys
l = json.load(open(sys.argv[1]))["view"]["loops"][0]
assert l["branches_inside"] >= 1 and l["predicted_instructions"] == l["instructions"]
assert "predicted_path" not in l and l["prediction_note"].startswith("predicted as one straight-line pass")
PY

# perf's own recording: the CPU is its CPUID header's. The header says
# another CPU (the string rewritten in place: perf report reads it back),
# and X models that one and says so.
if command -v perf >/dev/null &&
    perf record -q -o "$TMP/p.data" "$bin" 20000 >/dev/null 2>&1; then
	here=$(perf report --header-only -i "$TMP/p.data" 2>/dev/null | sed -n 's/^# cpuid : //p')
	python3 - "$TMP/p.data" "$here" <<'PY'
import sys
p, old = sys.argv[1], sys.argv[2].encode()
new = b"GenuineIntel,6,85"
d = open(p, "rb").read()
# perf pads its header strings: a shorter one fits where the old one was
assert old and d.count(old + b"\0") == 1 and len(new) <= len(old), old
i = d.index(old)
open(p, "wb").write(d[:i] + new.ljust(len(old), b"\0") + d[i + len(old):])
PY
	perf report --header-only -i "$TMP/p.data" 2>/dev/null | grep -q "^# cpuid : GenuineIntel,6,85$" ||
		fail "rewriting the CPUID header ($here)"
	"$BT" -i "$TMP/p.data" --view mca -s scan --stdio >"$TMP/pscan.txt" 2>&1
	grep -q "the recording's CPU, GenuineIntel family 0x6 model 0x55" "$TMP/pscan.txt" &&
		ok "perf's recording: X models its CPUID header's CPU ($here -> GenuineIntel,6,85: $(grep -o -- '-mcpu=[a-z0-9-]*' "$TMP/pscan.txt" | head -1))" ||
		{ fail "perf's recording: the CPUID header not used"; sed 's/^/     | /' "$TMP/pscan.txt" | head; }
else
	skipped "perf record: perf's CPUID header"
fi

# --view's refusals, and D's view
"$BT" -i "$D" --view mca --stdio >/dev/null 2>"$TMP/err" ; rc=$?
[ "$rc" != 0 ] && grep -q "name it with -s FUNC" "$TMP/err" &&
	ok "--view mca without -s: refused, saying why" || fail "--view mca without -s ($rc)"
"$BT" -i "$D" --view nope --stdio >/dev/null 2>"$TMP/err" && fail "--view nope accepted" ||
	{ grep -q "unknown view 'nope'" "$TMP/err" && ok "--view nope: refused"; }
"$BT" -i "$D" --view mca -s scan --format flamegraph --stdio >/dev/null 2>&1 &&
	fail "--view with --format flamegraph" || ok "--view with --format flamegraph: refused"
"$BT" -i "$D" --view data-types --stdio >"$TMP/dt.txt" &&
	grep -q "^## data types: " "$TMP/dt.txt" &&
	"$BT" -i "$D" --view data-types --format json --stdio |
	python3 -c 'import json,sys; v = json.load(sys.stdin)["view"]; assert v["title"].startswith("data types")' &&
	ok "--view data-types: D's view, text and JSON" || fail "--view data-types"

# X at 80x24: columns by priority, the instruction whole
if command -v tmux >/dev/null; then
	tmux_init mcap
	$T new-session -d -s bt -x 80 -y 24 -c "$TMP" \
		"env TERM=screen LC_ALL=C.UTF-8 $BT -i $D -s scan; exec sleep 60"
	wait_for "Percent"
	$T send-keys -t bt X
	if wait_for "cycles/iteration"; then
		s=$(screen)
		rows=$(grep -E ' [0-9a-f]+:  ' <<<"$s")
		! grep -q "Resource" <<<"$s" && grep -q "Press" <<<"$s" &&
			! grep -q '~$' <<<"$rows" && [ -n "$rows" ] &&
			ok "X at 80 columns: Resource gives way, $(wc -l <<<"$rows") instruction rows whole" ||
			{ fail "X at 80 columns"; sed 's/^/     | /' <<<"$s"; }
		# down to a predicted row: the status line holds its prediction
		st="uOps [0-9]* Lat [0-9]* RThru [0-9.]* Press [0-9.]* [A-Za-z]"
		for _ in $(seq 12); do
			screen | tail -1 | grep -q "$st" && break
			$T send-keys -t bt Down
			sleep 0.2
		done
		wait_for "$st" &&
			ok "X at 80 columns: the status line has the row's prediction: $(screen | tail -1)" ||
			fail "X's status line"
	fi
else
	skipped "no tmux: X at 80 columns"
fi
finish
