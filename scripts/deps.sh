#!/bin/sh
# Install (as root) or list (otherwise) the Debian packages benchtui needs.
# Usage: scripts/deps.sh [--check]   --check only reports, never installs.
set -u
PKGS="gcc make pkg-config libdw-dev libelf-dev libzydis-dev libcapstone-dev libzstd-dev zlib1g-dev
libncurses-dev libcmocka-dev binutils elfutils tmux linux-perf libc6-dbg clang llvm libclang-rt-14-dev gcc-multilib
python3 nodejs openjdk-17-jdk-headless zstd libiberty-dev rustc
g++ libbenchmark-dev golang-go cargo librust-criterion-dev
binutils-aarch64-linux-gnu libc6-arm64-cross chromium python3-jsonschema gdb openssl"
# Debian's nodejs has npm apart; NodeSource's nodejs (20, here) brings it along.
command -v npm >/dev/null 2>&1 || PKGS="$PKGS npm"
# (aarch64: objdump and the arm64 libc for tests/test-objdump.sh; not
# gcc-aarch64-linux-gnu, which Debian 12 will not install beside gcc-multilib)

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0
if [ "${1:-}" = "--check" ]; then
	echo "benchtui: missing packages:$missing" >&2
	exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "benchtui: missing packages; run as root: apt-get install$missing" >&2
	exit 1
fi
echo "benchtui: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q $missing >/dev/null 2>&1 ||
	{ apt-get update -q >/dev/null 2>&1 && apt-get install -y -q $missing >/dev/null; } ||
	{ echo "benchtui: apt-get install$missing failed" >&2; exit 1; }
