#!/usr/bin/env bash
# Installs the Debian 12 packages the build and the tests need, skipping those already present.
set -euo pipefail

packages=(
  build-essential cmake
  googletest libgtest-dev          # unit tests
  librapidcheck-dev                # property tests
  libboost-dev                     # Boost headers (Multiprecision for the oracle)
  libcli11-dev                     # command line of eltwise-validate
  libpugixml-dev                   # OpenVINO <layer> XML examples
  nlohmann-json3-dev               # JSON output
  libonnx-dev libprotobuf-dev protobuf-compiler  # ONNX TensorProto / ModelProto
  libonnx-testdata                 # ONNX's own Mul/Div node tests
  python3                          # CLI contract test reads .npy output
  python3-numpy                    # the numpy example backend and the Python test backends
  libxml2-utils                    # xmllint checks junit.xml
  chromium                         # the HTML report's browser test (headless, via puppeteer-core)
  python3-torch                    # the PyTorch adapter
  libdnnl-dev                      # the oneDNN adapter
  libxnnpack-dev libpthreadpool-dev  # the XNNPACK adapter (xnnpack.h includes pthreadpool.h)
  clang libclang-rt-14-dev libomp-14-dev  # the fuzz preset: libFuzzer and sanitizers, OpenMP
)
# Node.js and npm drive the report checks; the machine's own Node.js is kept when it has one.
command -v npm >/dev/null || packages+=(nodejs npm)

# The npm packages of one folder, from its pinned lockfile, without install scripts.
install_npm_packages() {
  local dir="$1"
  # npm writes node_modules/.package-lock.json last: newer than the lockfile means up to date.
  if [ "$dir/node_modules/.package-lock.json" -nt "$dir/package-lock.json" ]; then
    return
  fi
  echo "install_dependencies: npm ci in $dir"
  (cd "$dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
}

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install_dependencies: all ${#packages[@]} packages present"
else
  echo "install_dependencies: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
install_npm_packages "$root/reports/tests"                # the report checks
install_npm_packages "$root/backends/adapters/onnxruntime"  # onnxruntime-node for its adapter
