#!/usr/bin/env bash
# Sets everything up on a fresh Debian 12 machine, builds the release preset, and runs the main
# job: every spec case through the reference (`eltwise-validate spec`).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_dependencies.sh
cmake --preset release
cmake --build --preset release
build/release/bin/eltwise-validate spec "$@"
