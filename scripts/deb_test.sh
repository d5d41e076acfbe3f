#!/usr/bin/env bash
# deb_test.sh [BUILD_DIR]: the Debian package of a built tree (default build/release) installs and
# works. `cpack -G DEB` in BUILD_DIR, `dpkg -i` (as root, else through sudo), then from PATH and
# from /tmp: eltwise-validate --version, list, and `run --backend reference --count 2` over the
# default case sources; `dpkg -r` at the end, also when a check fails.
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(cd "${1:-build/release}" && pwd)
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "deb_test: needs root or sudo for dpkg -i" >&2; exit 1; }
  sudo=sudo
fi

rm -f "$build"/eltwise-conformance_*.deb
(cd "$build" && cpack -G DEB) >"$build/cpack-deb.log" 2>&1 || { cat "$build/cpack-deb.log" >&2; exit 1; }
deb=$(ls "$build"/eltwise-conformance_*.deb)
dpkg-deb --field "$deb" Package Version Depends Recommends

$sudo dpkg -i "$deb"
out=$(mktemp -d /tmp/eltwise-deb-test.XXXXXX)
trap '$sudo dpkg -r eltwise-conformance >/dev/null; rm -rf "$out"' EXIT
cd /tmp
[ "$(command -v eltwise-validate)" = /usr/bin/eltwise-validate ] ||
  { echo "deb_test: eltwise-validate on PATH is $(command -v eltwise-validate)" >&2; exit 1; }
eltwise-validate --version
list=$(eltwise-validate list)
echo "eltwise-validate list: $(grep -cE '^(onnx|openvino)\.' <<<"$list") op versions"
eltwise-validate run --backend reference --count 2 --out "$out/run" | tail -n 4
echo "deb_test: ok: $(basename "$deb")"
