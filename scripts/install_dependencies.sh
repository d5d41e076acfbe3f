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
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install_dependencies: all ${#packages[@]} packages present"
  exit 0
fi
echo "install_dependencies: installing ${missing[*]}"
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
