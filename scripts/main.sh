#!/usr/bin/env bash
# Sets everything up on a fresh Debian 12 machine, builds the release preset, and runs the main
# job: `eltwise-validate run --backend optimized` over the default case sources, which prints the
# summary per op version and writes results.jsonl and repro files to eltwise-results/.
# Extra arguments go to `run` (e.g. --backend-cmd "...", --cases spec,edge, --out DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_dependencies.sh
cmake --preset release
cmake --build --preset release
if [[ " $* " == *" --backend"* ]]; then
  exec build/release/bin/eltwise-validate run "$@"
fi
exec build/release/bin/eltwise-validate run --backend optimized "$@"
