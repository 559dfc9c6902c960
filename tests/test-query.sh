#!/bin/bash
# benchtui query (issue 29): a scripted JSON-RPC session (MCP's
# initialize, tools/list, tools/call) on a Google Benchmark recording;
# every tool's answer equals the part of the JSON export of the same
# selection (--export --format json, -b, -s), the diff tool's the JSON
# export of benchtui diff against a second recording; errors as JSON-RPC says;
# a benchmark's flame graph (--format flamegraph -b) holds its samples,
# and so do its differential one and its pprof (benchtui diff ... -b).
. tests/lib.sh
need_recording
if [ ! -f /usr/include/benchmark/benchmark.h ] || ! command -v g++ >/dev/null; then
	skip "g++ or libbenchmark-dev is missing"
fi
gb=$FIX/query-gbench
if [ ! -x "$gb" ] || [ tests/fixtures/gbench.cc -nt "$gb" ]; then
	g++ -O2 -g -fno-omit-frame-pointer -o "$gb" tests/fixtures/gbench.cc -lbenchmark -lpthread ||
		fail "cannot build tests/fixtures/gbench.cc"
fi
"$BT" -q -o "$TMP/gb.data" --stdio --top 0 "$gb" --benchmark_min_time=0.1 \
	--benchmark_filter='^(BM_sum/8|BM_dead|BM_tmpl<double>)$' >"$TMP/gb.out" 2>&1 || fail "recording gbench"
ex() { out=$1; shift; "$BT" -i "$TMP/gb.data" --export "$TMP/$out.json" --format json --top 0 "$@" ||
	fail "export $out"; }
ex all
ex sum -b BM_sum/8
ex ann -b BM_sum/8 -s BM_sum
ex annall -s BM_sum
# a second recording of the same build: the diff tool against it
"$BT" -q -o "$TMP/gb2.data" --stdio --top 0 "$gb" --benchmark_min_time=0.1 \
	--benchmark_filter='^(BM_sum/8|BM_dead|BM_tmpl<double>)$' >"$TMP/gb2.out" 2>&1 || fail "recording gbench again"
"$BT" diff "$TMP/gb2.data" "$TMP/gb.data" --export "$TMP/diff.json" --format json || fail "diff export"
"$BT" diff "$TMP/gb.data" "$TMP/gb2.data" --export "$TMP/rdiff.json" --format json || fail "diff export (reversed)"
python3 - "$BT" "$TMP" <<'PY'
import json, subprocess, sys
bt, tmp = sys.argv[1], sys.argv[2]
calls = [
    ("list_benchmarks", {}, "all", ["benchmarks"]),
    ("hot_functions", {}, "all", ["samples", "functions"]),
    ("hot_functions", {"benchmark": "BM_sum/8"}, "sum", ["samples", "functions"]),
    ("findings", {}, "all", ["findings"]),
    ("findings", {"benchmark": "BM_sum/8"}, "sum", ["findings"]),
    ("annotate", {"function": "BM_sum", "benchmark": "BM_sum/8"}, "ann", ["annotations"]),
    ("annotate", {"function": "BM_sum"}, "annall", ["annotations"]),
]
msgs = [{"jsonrpc": "2.0", "id": 0, "method": "initialize",
         "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}]
for i, (name, args, _, _) in enumerate(calls):
    msgs.append({"jsonrpc": "2.0", "id": 10 + i, "method": "tools/call", "params": {"name": name, "arguments": args}})
msgs.append({"jsonrpc": "2.0", "id": "d", "method": "tools/call", "params": {"name": "diff", "arguments": {"baseline": tmp + "/gb2.data"}}})
msgs.append({"jsonrpc": "2.0", "id": "d2", "method": "tools/call", "params": {"name": "diff", "arguments": {"a": tmp + "/gb.data", "b": tmp + "/gb2.data"}}})
msgs.append({"jsonrpc": "2.0", "id": "d0", "method": "tools/call", "params": {"name": "diff", "arguments": {}}})
msgs.append({"jsonrpc": "2.0", "id": "dx", "method": "tools/call", "params": {"name": "diff", "arguments": {"baseline": tmp + "/nosuch.data"}}})
msgs.append({"jsonrpc": "2.0", "id": "u", "method": "tools/call", "params": {"name": "nosuch", "arguments": {}}})
msgs.append({"jsonrpc": "2.0", "id": "b", "method": "tools/call", "params": {"name": "hot_functions", "arguments": {"benchmark": "BM_nosuch"}}})
msgs.append({"jsonrpc": "2.0", "id": "m", "method": "resources/list"})
text = "".join(json.dumps(m) + "\n" for m in msgs) + "{not json\n"
p = subprocess.run([bt, "query", tmp + "/gb.data"], input=text.encode(), capture_output=True, timeout=120)
lines = p.stdout.decode().splitlines()
replies = [json.loads(l) for l in lines]
byid = {r.get("id"): r for r in replies}
bad = []
def check(cond, what):
    print("   ok: " + what if cond else "   FAIL: " + what)
    if not cond: bad.append(what)
check(p.returncode == 0 and len(replies) == len(msgs) - 1 + 1,
      "%d replies to %d requests (none to the notification), exit %d" % (len(replies), len(msgs) - 1 + 1, p.returncode))
check(byid[0]["result"]["serverInfo"]["name"] == "benchtui" and "tools" in byid[0]["result"]["capabilities"], "initialize")
names = [t["name"] for t in byid[1]["result"]["tools"]]
check(names == ["list_benchmarks", "hot_functions", "annotate", "findings", "diff"], "tools/list: " + ", ".join(names))
for i, (name, args, exp, keys) in enumerate(calls):
    r = byid[10 + i]["result"]
    e = json.load(open("%s/%s.json" % (tmp, exp)))
    sc = r.get("structuredContent", {})
    same = not r["isError"] and all(sc.get(k) == e.get(k, []) for k in keys) and \
        json.loads(r["content"][0]["text"]) == sc and set(sc) == set(keys)
    check(same, "%s %s equals the JSON export's %s (%s)" % (name, json.dumps(args), "+".join(keys),
          ", ".join("%d %s" % (len(sc.get(k)), k) if isinstance(sc.get(k), list) else k for k in keys)))
check(len(byid[10]["result"]["structuredContent"]["benchmarks"]) == 3, "three benchmarks listed")
for i, exp, what in (("d", "diff", "baseline gb2 (A), the open recording (B)"), ("d2", "rdiff", "a gb, b gb2")):
    r = byid[i]["result"]
    e = json.load(open("%s/%s.json" % (tmp, exp)))
    check(not r["isError"] and r.get("structuredContent") == e and json.loads(r["content"][0]["text"]) == e,
          "diff {%s} equals benchtui diff's JSON export (%d units, %d benchmarks)" % (what, e["units"], len(e["benchmarks"])))
check(byid["d0"]["result"]["isError"] and "baseline" in byid["d0"]["result"]["content"][0]["text"], "diff without a baseline: a tool error")
check(byid["dx"]["result"]["isError"] and "nosuch.data" in byid["dx"]["result"]["content"][0]["text"], "diff with a missing baseline: a tool error naming it")
check(byid["u"].get("error", {}).get("code") == -32602, "unknown tool: error -32602")
check(byid["b"]["result"]["isError"] and "BM_nosuch" in byid["b"]["result"]["content"][0]["text"], "unknown benchmark: a tool error naming it")
check(byid["m"].get("error", {}).get("code") == -32601, "unknown method: error -32601")
check(byid[None].get("error", {}).get("code") == -32700, "a line that is not JSON: error -32700, id null")
sys.exit(1 if bad else 0)
PY
[ $? = 0 ] || nfail=$((nfail + 1))
expect_status 1 "$BT" query
# --format flamegraph -b: that benchmark's samples, named in the title
"$BT" -i "$TMP/gb.data" --export "$TMP/sum.svg" --format flamegraph -b BM_sum/8 || fail "flamegraph -b"
root=$(grep -o '<svg [^>]*data-samples="[0-9]*"' "$TMP/sum.svg" | grep -o '[0-9]*"$' | tr -d '"')
want=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["samples"])' "$TMP/sum.json")
[ -n "$root" ] && [ "$root" = "$want" ] && grep -q 'id="title"[^>]*>Flame graph: .*benchmark BM_sum/8' "$TMP/sum.svg" &&
	ok "flamegraph -b BM_sum/8: its $root samples (the JSON's), named in the title" ||
	fail "flamegraph -b: root ${root:-?} samples, JSON $want"
# benchtui diff --format flamegraph -b: B's benchmark, its samples
"$BT" diff "$TMP/gb2.data" "$TMP/gb.data" --export "$TMP/dsum.svg" --format flamegraph -b BM_sum/8 ||
	fail "diff flamegraph -b"
root=$(grep -o '<svg [^>]*data-samples="[0-9]*"' "$TMP/dsum.svg" | grep -o '[0-9]*"$' | tr -d '"')
[ -n "$root" ] && [ "$root" = "$want" ] && grep -q 'id="title"[^>]*>Differential flame graph: .*benchmark BM_sum/8' "$TMP/dsum.svg" &&
	grep -q 'data-name="BM_sum[("]' "$TMP/dsum.svg" &&
	ok "diff flamegraph -b BM_sum/8: B's $root samples of it, BM_sum's frame, named in the title" ||
	fail "diff flamegraph -b: root ${root:-?} samples, B's JSON $want"
# benchtui diff --format pprof -b: that pair's samples, side b's B's
if command -v go >/dev/null && "$BT" diff "$TMP/gb2.data" "$TMP/gb.data" --export "$TMP/dsum.pb.gz" \
	--format pprof -b BM_sum/8 2>"$TMP/err"; then
	got=$(GOFLAGS=-mod=mod GOTOOLCHAIN=local go tool pprof -sample_index=samples -tags \
		-tagfocus=side=b "$TMP/dsum.pb.gz" 2>/dev/null | awk '/^ side:/ { print int($3) }')
	[ "$got" = "$want" ] && ok "diff pprof -b BM_sum/8: side b holds B's $want samples of it" ||
		fail "diff pprof -b: side b ${got:-?} samples, B's JSON $want"
fi
# the exports with benchmarks validate against the schema too
if python3 -c 'import jsonschema' 2>/dev/null; then
	python3 - docs/benchtui.schema.json "$TMP"/all.json "$TMP"/sum.json "$TMP"/ann.json <<'PY' &&
import json, sys, jsonschema
v = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
errs = [e for f in sys.argv[2:] for e in v.iter_errors(json.load(open(f)))]
for e in errs[:5]:
    print(e.message, list(e.path))
sys.exit(1 if errs else 0)
PY
	ok "the exports with benchmarks validate against docs/benchtui.schema.json" ||
	fail "the exports with benchmarks do not validate"
fi
finish
