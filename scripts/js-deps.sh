#!/bin/sh
# Install the npm packages of the JS benchmark fixtures (tinybench, mitata:
# tests/fixtures/js/package-lock.json) into DIR (default build/js), with
# `npm ci`. Nothing is done when DIR already holds that lock file's
# packages. Exit 1 when npm is missing or the registry cannot be reached:
# tests/test-harness.sh then skips the JS harnesses.
set -u
dir=${1:-build/js}
src=tests/fixtures/js
command -v npm >/dev/null 2>&1 || { echo "js-deps: npm is not installed" >&2; exit 1; }
mkdir -p "$dir" || exit 1
if [ -d "$dir/node_modules" ] && cmp -s "$src/package-lock.json" "$dir/package-lock.json"; then
	exit 0
fi
rm -rf "$dir/node_modules" "$dir/package-lock.json"
cp "$src/package.json" "$dir/package.json" || exit 1
cp "$src/package-lock.json" "$dir/package-lock.json.new" || exit 1
mv "$dir/package-lock.json.new" "$dir/package-lock.json"
if ! (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null 2>npm-ci.log); then
	echo "js-deps: npm ci failed (see $dir/npm-ci.log)" >&2
	rm -rf "$dir/node_modules" "$dir/package-lock.json"
	exit 1
fi
