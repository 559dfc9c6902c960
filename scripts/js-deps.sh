#!/bin/sh
# The npm packages of the JS benchmark fixtures (tinybench, mitata,
# benchmark.js, bench-node and lodash:
# tests/fixtures/js/package-lock.json) for DIR (default build/js):
# DIR/node_modules links to the machine's cache (tests/cache.sh), where
# `npm ci` installs them once per machine and lock file (node's and npm's
# versions in the key). Exit 1 when npm is missing or the registry cannot
# be reached: tests/test-harness.sh then skips the JS harnesses.
set -u
dir=${1:-build/js}
src=tests/fixtures/js
. tests/cache.sh
command -v npm >/dev/null 2>&1 || { echo "js-deps: npm is not installed" >&2; exit 1; }
mkdir -p "$dir" || exit 1
log=$(cd "$dir" && pwd)/npm-ci.log

# npm_build OUT (cache_entry's builder)
npm_build() {
	cp "$src/package.json" "$src/package-lock.json" "$1/" || return 1
	if ! (cd "$1" && npm ci --no-audit --no-fund --loglevel=error >/dev/null 2>"$log"); then
		echo "js-deps: npm ci failed (see $log)"
		return 1
	fi
}

key="npm ci --no-audit --no-fund
$(cd "$src" && sha256sum package.json package-lock.json)
node $(node --version 2>/dev/null), npm $(npm --version 2>/dev/null)"
entry=$(cache_entry npm-packages "$key" npm_build) || exit 1
# (an older layout's directory, or a link to another entry, is replaced)
[ -L "$dir/node_modules" ] || rm -rf "$dir/node_modules"
ln -s "$entry/node_modules" "$dir/node_modules.$$" &&
	mv -T "$dir/node_modules.$$" "$dir/node_modules" || exit 1
cp "$src/package.json" "$src/package-lock.json" "$dir/"
