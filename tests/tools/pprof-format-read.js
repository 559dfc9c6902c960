// A second decoder of benchtui's pprof export (tests/test-pprof.sh): the
// npm pprof-format package. Prints "NAME<TAB>SELF" per function (a
// location's outermost line's function: -noinlines' rule), then
// "#total<TAB>N", of the first sample type (samples/count).
// node pprof-format-read.js NODE_MODULES FILE
// With a third argument, instead: every location of the mappings whose
// file name ends with it, "ADDR<TAB>FUNC FILE:LINE:COLUMN<TAB>..." its
// lines innermost first.
'use strict';
const path = require('path');
const fs = require('fs');
const zlib = require('zlib');
const { Profile } = require(path.join(process.argv[2], 'pprof-format'));

const p = Profile.decode(zlib.gunzipSync(fs.readFileSync(process.argv[3])));
const str = (i) => p.stringTable.strings[Number(i)];
const funcs = new Map(p.function.map((f) => [Number(f.id), str(f.name)]));
const locs = new Map(p.location.map((l) => [Number(l.id), l]));
if (process.argv[4]) {
	const funcFile = new Map(p.function.map((f) => [Number(f.id), str(f.filename)]));
	const maps = new Set(p.mapping.filter((m) => str(m.filename).endsWith(process.argv[4]))
		.map((m) => Number(m.id)));
	for (const l of p.location) {
		if (!maps.has(Number(l.mappingId)))
			continue;
		console.log('0x' + Number(l.address).toString(16) + '\t' + l.line.map((x) =>
			funcs.get(Number(x.functionId)) + ' ' + funcFile.get(Number(x.functionId)) +
			':' + Number(x.line) + ':' + Number(x.column)).join('\t'));
	}
	process.exit(0);
}
const self = new Map();
let total = 0;
for (const s of p.sample) {
	const n = Number(s.value[0]);
	total += n;
	const leaf = locs.get(Number(s.locationId[0]));
	const line = leaf.line[leaf.line.length - 1];
	const name = line ? funcs.get(Number(line.functionId)) : '?';
	self.set(name, (self.get(name) || 0) + n);
}
for (const [k, v] of self) console.log(k + '\t' + v);
console.log('#total\t' + total);
