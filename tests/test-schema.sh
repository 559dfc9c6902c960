#!/bin/bash
# The JSON export's schema (docs/benchtui.schema.json, issue 29): every
# golden export and fresh exports of a recording (whole, every function,
# a window, one function) validate against it, with python3's jsonschema
# (Draft 2020-12).
. tests/lib.sh
python3 -c 'import jsonschema' 2>/dev/null ||
	skip "python3 has no jsonschema (scripts/deps.sh installs python3-jsonschema)"
validate() {
	python3 - docs/benchtui.schema.json "$@" <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
v = jsonschema.Draft202012Validator(schema)
bad = 0
for f in sys.argv[2:]:
    for e in v.iter_errors(json.load(open(f))):
        print("%s: %s at %s" % (f, e.message, "/".join(map(str, e.path))))
        bad += 1
sys.exit(1 if bad else 0)
PY
}
n=$(ls tests/expected/*.json | wc -l)
validate tests/expected/*.json && ok "the schema is valid Draft 2020-12; $n golden export(s) validate" ||
	fail "golden exports do not validate"
need_recording
split=$(fixture split -fno-omit-frame-pointer)
"$BT" -q -o "$TMP/s.data" --stdio --top 0 "$split" >/dev/null 2>&1 || fail "recording split"
"$BT" -i "$TMP/s.data" --export "$TMP/all.json" --format json --all
"$BT" -i "$TMP/s.data" --export "$TMP/win.json" --format json --time 10%,60%
"$BT" -i "$TMP/s.data" --export "$TMP/one.json" --format json -s work_b
"$BT" -i "$TMP/s.data" --export "$TMP/table.json" --format json --top 0
validate "$TMP"/all.json "$TMP"/win.json "$TMP"/one.json "$TMP"/table.json &&
	ok "fresh exports validate (--all, --time, -s, --top 0)" || fail "fresh exports do not validate"
finish
