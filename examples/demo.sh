#!/bin/sh
# make demo: build the example benchmark, record it, and browse it (or, on
# a non-terminal, print the report). One line a step.
set -eu
BUILD=${BUILD:-build}
mkdir -p "$BUILD/examples"
echo "demo: building $BUILD/examples/bench (cc -O2 -g examples/bench.c)" >&2
cc -O2 -g -o "$BUILD/examples/bench" examples/bench.c
echo "demo: recording it (benchtui -o $BUILD/examples/bench.data $BUILD/examples/bench)" >&2
exec ./benchtui -o "$BUILD/examples/bench.data" "$BUILD/examples/bench"
