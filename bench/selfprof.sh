#!/bin/bash
# What limits a make bench row (issue 30: "each row says what limits it (a
# profile of benchtui itself, recorded with benchtui)"): benchtui records
# CMD (cpu-clock at 20 kHz, kernel included, its default call chains) and
# exports the profile as JSON, then reads it again keeping only the
# threads named as CMD's program (benchtui's own, not the benchmark a
# recording runs under it). Printed: the two functions with the most self
# samples, with their share of those threads' samples; then the two of
# benchtui's own functions (CMD's program's) with the most samples under them (inclusive,
# below 90%, which main and the wrappers everything runs under have: the
# phases); the count:
#   B=build/bench BT=./benchtui bash bench/selfprof.sh LABEL CMD [ARGS...]
#   -> "- LABEL: self inflate 9%, clear_page_erms 8%; under bt_view_annotate
#       20%, put_view 12% (1,804 samples)"
# (a markdown list item). With FOCUS=FUNC set, the profile is of the part
# of the run under FUNC (a bench program that reads a recording before
# each step it times): FUNC's share of the run, then its two callees with
# the most samples under them, as shares of FUNC's. --head prints the paragraph that goes above
# such lines, under a table. The profile is kept in $B/self-LABEL.data
# and .json (LABEL's spaces as -).
set -eu
if [ "${1:-}" = --head ]; then
	echo
	echo "Limited by (benchtui profiled by benchtui, bench/selfprof.sh: the two"
	echo "functions with the most self samples; under: the two of its own with the"
	echo "most samples under them, the phases):"
	echo
	exit 0
fi
B=${B:-build/bench}
BT=${BT:-./benchtui}
label=$1
shift
f=$B/self-$(echo "$label" | tr ' /' '--')
comm=$(basename "$1" | cut -c1-15)
"$BT" -q -e cpu-clock -F 20000 -o "$f.data" --export "$f.json" --format json --top 0 \
	"$@" </dev/null >/dev/null 2>&1 ||
	{ echo "- $label: (the profile failed)"; exit 0; }
"$BT" -i "$f.data" --comm "$comm" --export "$f.json" --format json --top 0 2>/dev/null ||
	{ echo "- $label: (no samples of $comm)"; exit 0; }
FOCUS=${FOCUS:-} python3 - "$f.json" "$label" "$(basename "$1")" <<'EOF'
import os
import json, sys
d = json.load(open(sys.argv[1]))
n = d.get("samples", 0)
fs = d.get("functions", [])
def names(l, key):
	return ", ".join("%s %.0f%%" % (f["name"], 100.0 * f.get(key, 0) / n) for f in l[:2])
own = [f for f in fs if f["module"].split("/")[-1] == sys.argv[3]]
inc = sorted([f for f in own if f.get("inclusive_samples", 0) < 0.9 * n],
	key=lambda f: -f.get("inclusive_samples", 0))
focus = [f for f in own if f["name"] == os.environ["FOCUS"]]
if focus:
	fo = focus[0]
	k = fo.get("inclusive_samples", 0)
	cs = sorted(fo.get("callees", []), key=lambda c: -c["samples"])
	print("- %s: %s %.0f%% of the run, under it %s (%s samples)" % (sys.argv[2],
		fo["name"], 100.0 * k / n, ", ".join("%s %.0f%%" % (c["name"],
		100.0 * c["samples"] / k) for c in cs[:2]), format(n, ",")))
	sys.exit(0)
line = "self %s" % names(sorted(fs, key=lambda f: -f["samples"]), "samples") if n else "-"
if inc:
	line += "; under %s" % names(inc, "inclusive_samples")
print("- %s: %s (%s samples)" % (sys.argv[2], line, format(n, ",")))
EOF
