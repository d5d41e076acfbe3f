#!/usr/bin/env bash
# Installs what the build and the tests need, skipping what is already present: the Debian 12
# packages, the npm packages of two folders (pinned lockfiles), and the Python packages of the
# adapters from the package index (backends/adapters/requirements.lock, exact versions and hashes)
# into the project's own virtual environment .venv/ (ELTWISE_VENV overrides the folder), built on
# Debian's /usr/bin/python3, never into a system Python.
#
# --platform arm64: also (or, once the above is done, only) the ARM64 platform's root filesystem
# under .arm64/, emulated by QEMU (scripts/install_arm64.sh, docs/platforms.md).
# --platform x86: also QEMU's user-mode x86-64 emulator, for `run --platform x86-MODEL`.
# Opt-in: the default install and the default tests have no emulation.
set -euo pipefail

# Debian's QEMU user-mode emulators (qemu-x86_64-static, qemu-aarch64-static), once.
install_qemu_user() {
  dpkg-query -W -f='${Status}' qemu-user-static 2>/dev/null | grep -q "install ok installed" &&
    return
  local sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq \
    --no-install-recommends qemu-user-static
}

case "${1:-}" in
  "") ;;
  --platform)
    case "${2:-}" in
      arm64) "$0" && exec "$(dirname "$0")/install_arm64.sh" ;;
      x86) "$0" && install_qemu_user && exit 0 ;;
      *) echo "install_dependencies: --platform takes arm64 or x86" >&2; exit 2 ;;
    esac ;;
  *) echo "install_dependencies: unknown option '$1' (--platform arm64|x86)" >&2; exit 2 ;;
esac

packages=(
  build-essential cmake
  googletest libgtest-dev          # unit tests
  librapidcheck-dev                # property tests
  libboost-dev                     # Boost headers (Multiprecision for the oracle)
  libcli11-dev                     # command line of eltwise-validate
  libpugixml-dev                   # OpenVINO <layer> XML examples
  nlohmann-json3-dev               # JSON output
  libcpu-features-dev              # the platform facts of a run (CPU vendor, model, features)
  libtomlplusplus-dev              # backend profiles (declared behaviours), TOML
  libonnx-dev libprotobuf-dev protobuf-compiler  # ONNX TensorProto / ModelProto
  libonnx-testdata                 # ONNX's own Mul/Div node tests
  python3                          # CLI contract test reads .npy output
  python3-venv                     # .venv/: the adapters of libraries from the package index
  python3-numpy                    # the numpy example backend and the Python test backends
  libxml2-utils                    # xmllint checks junit.xml
  chromium                         # the HTML report's browser test (headless, via puppeteer-core)
  libvulkan1                       # the Vulkan loader: ncnn-vulkan on chromium's SwiftShader Vulkan driver
  pocl-opencl-icd ocl-icd-libopencl1  # an OpenCL driver on the CPU (PoCL) and the ICD loader: tinygrad-cl
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
install_npm_packages "$root/backends/kit/node"             # the Node adapter kit (protobufjs)
install_npm_packages "$root/backends/adapters/onnxruntime"  # onnxruntime-node for its adapter
PUPPETEER_SKIP_DOWNLOAD=1 install_npm_packages "$root/backends/kit/browser"  # the browser host: puppeteer-core, onnxruntime-web, TensorFlow.js

# The Python packages, into .venv/. A stamp holding both locks' hashes makes a second run a no-op.
install_python_packages() {
  local venv="${ELTWISE_VENV:-$root/.venv}" locks="$root/backends/adapters"
  local stamp="$venv/.eltwise-lock-hash" want
  want="$(cat "$locks/uv-bootstrap.lock" "$locks/requirements.lock" | sha256sum | cut -d' ' -f1)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    echo "install_dependencies: $venv is up to date"
    return
  fi
  echo "install_dependencies: Python packages into $venv"
  [ -x "$venv/bin/python" ] || /usr/bin/python3 -m venv "$venv"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-deps --require-hashes \
    -r "$locks/uv-bootstrap.lock"
  "$venv/bin/uv" pip sync -q --python "$venv/bin/python" --require-hashes "$locks/requirements.lock"
  echo "$want" > "$stamp"
}
install_python_packages
