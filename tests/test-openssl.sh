#!/bin/bash
# openssl speed as a harness (core/harness/openssl.c): Debian's openssl,
# its results on standard error read into benchmarks, checked against
# what openssl printed (names, counts, seconds: the time per operation is
# their quotient), and each benchmark's window against the harness's own
# filter: openssl speed run with one algorithm alone, whose hottest
# function is the one the combined run's benchmark must have.
. tests/lib.sh
command -v openssl >/dev/null || skip "openssl is not installed"
nfail=0 nskip=0
ALGS="sha256 md5"

# bench LABEL ARGS...: benchtui records openssl speed ARGS, stderr to a file
bench() {
	label=$1
	shift
	"$BT" -q -o "$TMP/$label.data" --export "$TMP/$label.json" --format json \
		openssl speed -seconds 1 -bytes 64 "$@" >"$TMP/$label.out" 2>"$TMP/$label.err" ||
		{ fail "$label: benchtui exited $?: $(tail -2 "$TMP/$label.err")"; return 1; }
}

# The combined run: its results as openssl printed them
if bench both $ALGS; then
	python3 - "$TMP/both.err" "$TMP/both.json" <<'EOF' && ok "openssl speed $ALGS: $(cat "$TMP/both.names")" || fail "openssl speed $ALGS: the benchmarks"
import json, re, sys
want = {}
for l in open(sys.argv[1]):
    m = re.match(r"Doing (\S+) for \d+s on (\d+) size blocks: (\d+) \S+ in ([0-9.]+)s$", l.strip())
    if m:
        want[m[1] + "/" + m[2]] = (int(m[3]), float(m[4]))
got = {b["name"]: b for b in json.load(open(sys.argv[2]))["benchmarks"]}
assert len(want) == 2 and set(got) == set(want), (want, list(got))
for name, (n, s) in want.items():
    b = got[name]
    assert b["harness"] == "openssl" and b["iterations"] == n, b
    assert abs(b["time_per_op_ns"] - s * 1e9 / n) <= 1e-9 * b["time_per_op_ns"], b
    assert b["split"] == "window" and b["samples"] > 0, b
open(sys.argv[1].replace(".err", ".names"), "w").write(", ".join(
    "%s %d ops in %.2fs = %.1f ns" % (k, v[0], v[1], got[k]["time_per_op_ns"]) for k, v in want.items()))
EOF
	# each benchmark's hottest function is its algorithm's alone
	for a in $ALGS; do
		bench "$a" "$a" || continue
		alone=$(python3 -c '
import json, sys
fs = json.load(open(sys.argv[1]))["functions"]
print(fs[0]["name"] if fs else "-")' "$TMP/$a.json")
		in_both=$(python3 -c '
import json, sys
b = [b for b in json.load(open(sys.argv[1]))["benchmarks"] if b["name"] == sys.argv[2]]
print(b[0]["functions"][0]["name"] if b and b[0].get("functions") else "-")' "$TMP/both.json" "$a/64")
		[ "$alone" != - ] && [ "$alone" = "$in_both" ] &&
			ok "$a/64's window: its hottest function $in_both, as openssl speed $a alone" ||
			fail "$a/64's window: hottest $in_both, openssl speed $a alone: $alone"
	done
fi

# -mr: "+DT:ALG:SECS:BLOCK" then "+R:COUNT:ALG:SECS"
if bench mr -mr sha256; then
	python3 - "$TMP/mr.err" "$TMP/mr.json" <<'EOF' && ok "openssl speed -mr: $(grep '^+R:' "$TMP/mr.err")" || fail "openssl speed -mr"
import json, sys
r = [l.strip().split(":") for l in open(sys.argv[1]) if l.startswith("+R:")]
b = json.load(open(sys.argv[2]))["benchmarks"]
assert len(r) == 1 and len(b) == 1, (r, b)
assert b[0]["name"] == "sha256/64" and b[0]["iterations"] == int(r[0][1]), b[0]
EOF
fi
finish
