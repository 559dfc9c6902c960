#!/bin/bash
# Data types on memory instructions (issue 27, docs/browser.md "Data
# types"), as perf annotate --data-type (perf 6.8+, not in Debian's 6.1)
# shows them: fixtures built here at -O2 -g (tests/fixtures/dtypes.c: C
# structs, nested members, an array of structs in a struct, a store, a
# union, a parameter inlined into another; dtypes.cc: methods reading
# through this, a base class's member, a namespace, a reference). Every
# data type the JSON export gives is checked against llvm-dwarfdump
# (tests/tools/dtypes-oracle.py: the variable's location at that address
# is the base register, its type the one shown, the member's offset
# DW_AT_data_member_location's); every load and store of these functions
# gets one; the text export shows the same text as the JSON; structs on
# the stack (DW_OP_fbreg: from the CFA, readelf -wF's rule at the address,
# for GCC; from a register, for clang's builds); D in tmux.
. tests/lib.sh
command -v llvm-dwarfdump >/dev/null || skip "no llvm-dwarfdump (Debian's llvm)"
need_recording

c=$(fixture dtypes) || exit 1
cxx=$(fixture_as dtypescc dtypes.cc c++ -O2 -g) || exit 1
"$BT" -q -o "$TMP/c.data" --export /dev/null --top 0 "$c" 2>/dev/null || fail "recording dtypes"
"$BT" -q -o "$TMP/cc.data" --export /dev/null --top 0 "$cxx" 2>/dev/null || fail "recording dtypescc"

# each function's annotation (-s opens sampled ones: the fixture gives each a
# divide, for samples in every run), JSON and text
export_funcs() {
	data=$1 tag=$2; shift 2
	for f in "$@"; do
		"$BT" -i "$data" --stdio --no-source --format json -s "$f" >"$TMP/$tag-$f.json" 2>/dev/null &&
		"$BT" -i "$data" --stdio --no-source -s "$f" >"$TMP/$tag-$f.txt" 2>/dev/null ||
			fail "export of $f"
	done
}
export_funcs "$TMP/c.data" c line_len line_sum poly_third point_store chase
export_funcs "$TMP/cc.data" cc geo::shape::area geo::square::grow span

python3 tests/tools/dtypes-oracle.py "$c" "$TMP"/c-*.json >"$TMP/c.oracle" &&
	ok "$(tail -1 "$TMP/c.oracle") (C)" || fail "$(tail -1 "$TMP/c.oracle")"
python3 tests/tools/dtypes-oracle.py "$cxx" "$TMP"/cc-*.json >"$TMP/cc.oracle" &&
	ok "$(tail -1 "$TMP/cc.oracle") (C++)" || fail "$(tail -1 "$TMP/cc.oracle")"

# clang: its frame base is a register (DW_OP_reg7 RSP), so main's structs
# on the stack (DW_OP_fbreg) have their types too; every sampled function
if command -v clang >/dev/null; then
	kc=$(fixture_as dtypes-clang dtypes.c clang -O2 -g) || exit 1
	kcc=$(fixture_as dtypescc-clang dtypes.cc clang++ -O2 -g) || exit 1
	for k in "$kc" "$kcc"; do
		n=$(basename "$k")
		"$BT" -q -o "$TMP/$n.data" --stdio --all --format json "$k" >"$TMP/$n.json" 2>/dev/null &&
			python3 tests/tools/dtypes-oracle.py "$k" "$TMP/$n.json" >"$TMP/$n.oracle" &&
			{ [ "$n" = dtypescc-clang ] || grep -q '^   main .* in RSP is .*: struct' "$TMP/$n.oracle"; } &&
			ok "$(tail -1 "$TMP/$n.oracle") ($n)" || fail "$n: $(tail -1 "$TMP/$n.oracle")"
	done
else
	skipped "no clang: a frame base in a register (DW_OP_fbreg of stack structs)"
fi

# every load and store with a base register in these functions has one
# (objdump: the instructions with a (%reg) operand; nops, lea and %rip aside)
for t in c cc; do
	bin=$c; [ $t = cc ] && bin=$cxx
	want=0
	for j in "$TMP/$t"-*.json; do
		f=$(basename "$j" .json); f=${f#"$t"-}
		start=$(python3 -c 'import json,sys; a=json.load(open(sys.argv[1]))["annotations"][0]; print(a["rows"][[r["kind"] for r in a["rows"]].index("insn")]["address"])' "$j")
		n=$(objdump -d --no-show-raw-insn "$bin" | awk -v s="$(printf '%x' "$start"):" '
			$1 == s { on = 1 } on && !NF { exit }
			on && /\(%r[a-z0-9]+\)/ && !/lea|nop|%rip/' | wc -l)
		want=$((want + n))
	done
	got=$(cat "$TMP/$t"-*.json | grep -o '"data_type"' | wc -l)
	[ "$got" -eq "$want" ] && [ "$got" -gt 0 ] &&
		ok "$t: all $want loads and stores through a register have their type" ||
		fail "$t: $got data types for $want loads and stores through a register"
done

# the text and JSON exports of every sampled function say the same
"$BT" -i "$TMP/c.data" --stdio --all >"$TMP/all.txt" 2>/dev/null &&
	"$BT" -i "$TMP/c.data" --stdio --all --format json >"$TMP/all.json" 2>/dev/null &&
	python3 tests/tools/export-agree.py "$TMP/all.txt" "$TMP/all.json" >"$TMP/agree" &&
	ok "--all: $(cat "$TMP/agree")" || fail "--all: $(cat "$TMP/agree")"
# GCC's frame base is the CFA: main's structs on the stack, at the CFA
# plus N, are at rsp plus what the CFI says the CFA is there (readelf -wF)
python3 tests/tools/dtypes-oracle.py "$c" "$TMP/all.json" >"$TMP/all.oracle" &&
	grep -q '^   main .* in RSP is .*: struct' "$TMP/all.oracle" &&
	ok "--all: $(tail -1 "$TMP/all.oracle"), main's stack structs among them" ||
	fail "--all: $(tail -1 "$TMP/all.oracle")"

# what a perf user expects to read, where it is expected
expect() {
	dt=${2##*# }	# the JSON's data_type.text
	grep -qF -- "$2" "$TMP/$1.txt" && grep -qF -- "\"text\": \"$dt\"" "$TMP/$1.json" &&
		ok "$1: $2" || fail "$1: no '$2' in text and JSON: $(grep '  # ' "$TMP/$1.txt" | head -3)"
}
expect c-line_len "# struct line +16 (b.x)"
expect c-line_len "# struct line +32 (tag)"
expect c-line_sum "# struct line +24 (b.y)"	# l, not the inlined q: its location is empty there
expect c-poly_third "# struct poly +48 (pts[2].y)"
expect c-point_store "mov    %rsi,0x8(%rdi)  # struct point +8 (y)"	# a store
expect c-chase "# struct node +16 (w)"	# a union: l and d both at +16, no one member
expect cc-geo::shape::area "# class geo::shape +32 (size.y)"
expect cc-geo::square::grow "# class geo::square +8 (origin.x)"	# the base class's
expect cc-span "# struct geo::vec2 +8 (y)"

# --view data-types: D's view without the browser, text and JSON alike
"$BT" -i "$TMP/c.data" --view data-types --stdio >"$TMP/dv.txt" &&
	"$BT" -i "$TMP/c.data" --view data-types --format json --export "$TMP/dv.json" &&
	python3 - "$TMP/dv.txt" "$TMP/dv.json" <<'EOF' && ok "--view data-types: D's types and members, text and JSON the same" || fail "--view data-types"
import json, sys
t = [l for l in open(sys.argv[1]) if not l.startswith("#")]
v = json.load(open(sys.argv[2]))["view"]
rows = [r for r in v["rows"] if r["kind"] in ("type", "member")]
assert len(rows) == len(t) and any(r["type"] == "struct node" for r in rows), (len(rows), len(t))
for r, l in zip(rows, t):
    assert (r.get("member") or r["type"]) in l, (r, l)
EOF

# D at 80x24: per type then member; Enter opens the hottest access's annotation on it
if command -v tmux >/dev/null; then
	tmux_init dt
	$T new-session -d -s bt -x 80 -y 24 -c "$TMP" \
		"env TERM=screen LC_ALL=C.UTF-8 $BT -i $TMP/c.data; exec sleep 60"
	wait_for "hot functions"
	$T send-keys -t bt D
	if wait_for "data types: "; then
		s=$(screen)
		# every type a row, its members right under it (which types are
		# on the first screen is the samples': struct node is fourth of
		# four on one machine, first on another)
		grep -qE '^ +[0-9.]+ +[0-9]+  struct node ' <<<"$s" &&
			grep -A1 -E '^ +[0-9.]+ +[0-9]+  (struct|class) ' <<<"$s" |
			grep -qE '^ +[0-9.]+ +[0-9]+      \+[0-9]+ \([^)]+\) +[a-z_]' &&
			ok "D: $(grep -c '  struct\|  class' <<<"$s") types, members under them" ||
			fail "D: $s"
		# the pane: the cursor row's instructions, hottest first (the cursor
		# is on the first type, the hottest: struct node or struct line,
		# as the machine and its load share the samples)
		ty=$(grep -m1 -oE '^ +[0-9.]+ +[0-9]+  (struct|class|union) [^ ]+' <<<"$s" |
			sed -E 's/^ +[0-9.]+ +[0-9]+  //')
		[ -n "$ty" ] && grep -qE "^ $ty: [0-9]+ samples \([0-9.]+%\) in [0-9]+ instructions?\$" <<<"$s" &&
			grep -A1 "^ $ty: " <<<"$s" | tail -1 | grep -qE '^ [a-z_]+(\+0x[0-9a-f]+)?  [a-z]+ ' &&
			ok "D's pane: $(grep -A1 "^ $ty: " <<<"$s" | tr -s ' ' | tr '\n' ' ')" ||
			fail "D's pane of '$ty': $(tail -8 <<<"$s")"
		# the first member row of the hottest type
		row=$(grep -nE '^ +[0-9.]+ +[0-9]+      \+' <<<"$s" | head -1)
		member=$(sed -E 's/^[0-9]+: +[0-9.]+ +[0-9]+ +(\+[0-9]+ \([^)]*\)).*/\1/' <<<"$row")
		down=$(( ${row%%:*} - 4 ))
		for _ in $(seq "$down"); do $T send-keys -t bt Down; done
		$T send-keys -t bt Enter
		wait_for "the hottest access to" &&
			screen | grep -qF -- "# struct" && screen | tail -1 | grep -qF -- "$member" &&
			ok "Enter on '$member': its annotation, $(screen | tail -1)" ||
			fail "Enter: $(screen | tail -3)"
	fi
else
	skipped "no tmux: the D screen"
fi
finish
