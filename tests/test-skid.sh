#!/bin/bash
# The skid model against measured truth (issue 27's oracle): each kernel of
# tests/fixtures/skid.c has a costly instruction and a control, the same
# loop without it; the costly instruction's share of the time is then at
# least 1 - t_control / t_kernel (each time the program's own clock, the
# fastest of its runs). Each kernel is recorded with cpu-clock (the
# timer interrupt the model is calibrated on) and the skid-adjusted share
# of its costly instructions is checked against that truth; the raw share
# is printed beside it. Where the control's work waits on the costly
# instruction (divdep's adds chained on the quotient, the branch's next
# pass after a restart) the truth is the share, and the adjusted share
# must be within 10 points of it; where that work runs beside it (the
# join's other path, the loop's own counting under a div or a load) the
# truth is only a lower bound, and the adjusted share must not be more
# than 10 points under it (the join's cheap path, once in eight, hides
# under the divs: truth 88-90, adjusted 97-100).
# A kernel whose control is not clearly faster (a noisy machine) is
# skipped, said so. Where the control keeps the costly instruction (the
# branch, which predicts there) the control is recorded too: its adjusted
# share must stay within 10 points of its own truth, 0 (column ctl).
# SKID_BEFORE=path/to/benchtui also prints the adjusted share another
# build gives the same recordings (docs/architecture.md's table).
. tests/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the kernels are x86-64 assembly"
need_recording

skid=$(fixture skid)

# times KERNEL: "control kernel", the fastest ns per iteration of each in
# 8 rounds of the two run one after the other (a quarter of the kernel's
# default iterations a run), so that both see the same neighbours: the
# control's fastest of 15 beside the kernel's of 2 read truths of
# 68.4-72.6 for the branch where the two side by side read 63.5-65.0
times() {
	local n
	case $1 in
	chase) n=500000 ;; deps) n=25000000 ;; divchain) n=12500000 ;; divadd) n=20000000 ;;
	divdep) n=10000000 ;; join) n=15000000 ;; sqrt) n=10000000 ;; rep) n=62500 ;;
	branch) n=25000000 ;;
	esac
	for _ in 1 2 3 4 5 6 7 8; do "$skid" "$1" k $n; "$skid" "$1" c $n; done |
		awk '$3 == "ns_per_iter" { if (!($2 in min) || $4 < min[$2]) min[$2] = $4 }
		     END { print min["c"], min["k"] }'
}

# share JSON FUNCTION REGEX: "raw adjusted" percent of the instructions of
# FUNCTION (k_KERNEL or c_KERNEL) whose text matches REGEX
share() {
	python3 - "$@" <<'EOF'
import json, re, sys
d = json.load(open(sys.argv[1]))
for a in d["annotations"]:
    f = a["function"]
    if f != sys.argv[2] and not f.startswith(sys.argv[2] + "."):
        continue
    rows = [r for r in a["rows"] if r["kind"] == "insn"]
    tot = sum(r["samples"] for r in rows)
    hit = [r for r in rows if re.search(sys.argv[3], r["text"])]
    if tot == 0 or not hit:
        break
    print("%.1f %.1f" % (100.0 * sum(r["samples"] for r in hit) / tot,
                         100.0 * sum(r["adjusted_samples"] for r in hit) / tot))
    sys.exit(0)
print("none")
EOF
}

# the costly instructions, by their text: a load through its own base
# register is the pointer chase
chase='^mov +\((%r[a-z0-9]+)\),\1$'
printf '   %-9s %6s %6s %6s %6s %s\n' kernel truth raw adjust ctl "(percent of the kernel's samples)"
# measure KERNEL REGEX: record the kernel (and the branch's control), time
# both, and set truth, raw, adj and ctl; 1 when the kernel cannot be measured
measure() {
	k=$1 re=$2
	if ! "$BT" -q -e cpu-clock -o "$TMP/$k.data" --export "$TMP/$k.json" --format json --top 3 \
	    "$skid" "$k" k >"$TMP/$k.out" 2>"$TMP/err"; then
		fail "$k: recording failed: $(cat "$TMP/err")"
		return 1
	fi
	set -- $(times "$k")
	tc=$1 tk=$2
	set -- $(share "$TMP/$k.json" "k_$k" "$re")
	if [ "$1" = none ]; then
		fail "$k: no annotation of k_$k with its costly instruction"
		return 1
	fi
	raw=$1 adj=$2 ctl=-
	if [ $k = branch ]; then
		if ! "$BT" -q -e cpu-clock -o "$TMP/$k.c.data" --export "$TMP/$k.c.json" --format json \
		    --top 3 "$skid" "$k" c >/dev/null 2>"$TMP/err"; then
			fail "$k: recording the control failed: $(cat "$TMP/err")"
			return 1
		fi
		set -- $(share "$TMP/$k.c.json" "c_$k" "$re" | sed 's/^none$/none none/')
		ctl=$2
		[ "$1" = none ] && fail "$k: no annotation of c_$k with its branch"
	fi
	truth=$(awk -v a="$tc" -v b="$tk" 'BEGIN { printf "%.1f", 100 * (1 - a / b) }')
	before=
	if [ -n "${SKID_BEFORE:-}" ]; then
		"$SKID_BEFORE" -q -i "$TMP/$k.data" --export "$TMP/$k.before.json" --format json --top 3 &&
			before=" (before: $(share "$TMP/$k.before.json" "k_$k" "$re" | cut -d' ' -f2))"
	fi
	printf '   %-9s %6s %6s %6s %6s  %s ns control, %s ns kernel%s\n' "$k" "$truth" "$raw" "$adj" "$ctl" \
	    "$tc" "$tk" "$before"
}

# within: the adjusted share within 10 points of the truth (divdep,
# branch), or not more than 10 under it where it is a lower bound
within() {
	case $k in divdep | branch) exact=1 ;; *) exact=0 ;; esac
	awk -v t="$truth" -v a="$adj" -v e=$exact 'BEGIN { d = a - t; exit !((d <= 10 || !e) && d >= -10) }'
}

for k in chase deps divchain divadd divdep join sqrt rep branch; do
	case $k in
	chase | deps) re=$chase ;;
	divchain | divadd | divdep | join) re='^div ' ;;
	sqrt) re='^sqrtsd ' ;;
	rep) re='^rep movsb' ;;
	branch) re='^je ' ;;
	esac
	measure $k "$re" || continue
	# the truth is a difference of two times, and a neighbour that slows
	# the control more than the kernel (front-end work beside a divide:
	# divdep's control took 1.72 ns in a CI run, 0.86-1.15 alone) moves
	# it by 10 points or more: a kernel outside is measured again, the
	# recording and both times, up to three times in all, each printed
	for attempt in 2 3; do
		within && break
		echo "   ($k outside by more than 10 points: measured again, attempt $attempt of 3)"
		measure $k "$re" || continue 2
	done
	if ! awk -v a="$tc" -v b="$tk" 'BEGIN { exit !(a < 0.8 * b) }'; then
		skipped "$k: the control ($tc ns) is not clearly faster than the kernel ($tk ns): too noisy to measure"
	elif within; then
		ok "$k: adjusted $adj% $([ $exact = 1 ] && echo within || echo "not more than") 10 points $([ $exact = 1 ] && echo of || echo under) the truth $truth% (raw $raw%)"
	else
		fail "$k: adjusted $adj%, truth $truth% (raw $raw%)"
	fi
	# the control predicts its branch: the branch costs it nothing
	case $ctl in
	- | none) ;;
	*)	if awk -v c="$ctl" 'BEGIN { exit !(c <= 10) }'; then
			ok "$k: the control's predicted branch adjusted $ctl%, within 10 points of 0"
		else
			fail "$k: the control's predicted branch is given $ctl% (truth 0%)"
		fi ;;
	esac
done
finish
