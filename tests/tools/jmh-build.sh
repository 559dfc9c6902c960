#!/bin/bash
# jmh-build.sh SRC OUT: build JMH's core and its annotation processor with
# javac alone (no maven), from a checkout of JMH's public repository at SRC,
# into OUT/jmh-core.jar and OUT/jmh-generator-annprocess.jar. JMH needs
# jopt-simple and commons-math3: Debian's libjoptsimple-java and
# libcommons-math3-java (/usr/share/java); set JOPT and MATH3 to other jars.
# Prints the class path to run JMH with. See docs/benchmarks.md, "running the
# JMH end-to-end check by hand".
set -eu
[ $# = 2 ] || { echo "usage: $0 JMH-SOURCE-DIR OUT-DIR" >&2; exit 2; }
SRC=$(cd "$1" && pwd)
mkdir -p "$2"
OUT=$(cd "$2" && pwd)
JOPT=${JOPT:-/usr/share/java/joptsimple.jar}
MATH3=${MATH3:-/usr/share/java/commons-math3.jar}
for j in "$JOPT" "$MATH3"; do
	[ -f "$j" ] || { echo "$0: $j is missing (apt-get install libjoptsimple-java libcommons-math3-java)" >&2; exit 1; }
done
[ -d "$SRC/jmh-core/src/main/java" ] || { echo "$0: $SRC is no JMH checkout" >&2; exit 1; }

# build MODULE CLASSPATH: javac the module's sources, copy its resources, jar it
build() {
	mod=$1 cp=$2
	rm -rf "$OUT/$mod"
	mkdir -p "$OUT/$mod"
	find "$SRC/$mod/src/main/java" -name '*.java' >"$OUT/$mod.files"
	javac -nowarn -encoding UTF-8 --release 8 -cp "$cp" -d "$OUT/$mod" "@$OUT/$mod.files" 2>&1 |
		grep -v -e '^warning:' -e '^Note:' -e '^[0-9]* warning' || true
	cp -r "$SRC/$mod/src/main/resources/." "$OUT/$mod/"
	(cd "$OUT/$mod" && jar cf "$OUT/$mod.jar" .)
	rm -rf "$OUT/$mod" "$OUT/$mod.files"
}

build jmh-core "$JOPT:$MATH3"
# jmh.properties holds maven placeholders: give JMH a version to print
ver=$(sed -n 's:.*<version>\(.*\)</version>.*:\1:p' "$SRC/pom.xml" | head -1)
mkdir -p "$OUT/props"
printf 'jmh.version=%s\njmh.buildDate=%s\n' "${ver:-unknown}" "$(date -u +%Y/%m/%d)" >"$OUT/props/jmh.properties"
(cd "$OUT/props" && jar uf "$OUT/jmh-core.jar" jmh.properties)
rm -rf "$OUT/props"
build jmh-generator-annprocess "$OUT/jmh-core.jar"
echo "$OUT/jmh-core.jar:$JOPT:$MATH3"
