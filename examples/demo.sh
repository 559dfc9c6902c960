#!/bin/sh
# make demo: build the example benchmark, record it, and browse it (or, on
# a non-terminal, print the report).
set -eu
BUILD=${BUILD:-build}
mkdir -p "$BUILD/examples"
cc -O2 -g -o "$BUILD/examples/bench" examples/bench.c
echo "benchtui: recording $BUILD/examples/bench (benchtui $BUILD/examples/bench)" >&2
exec ./benchtui -o "$BUILD/examples/bench.data" "$BUILD/examples/bench"
