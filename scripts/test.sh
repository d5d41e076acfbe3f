#!/usr/bin/env bash
# Sets everything up on a fresh Debian 12 machine, builds one preset (default: release) and runs
# the whole test suite through ctest. Extra arguments go to ctest (e.g. -L spec, -R core).
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-release}"
[ $# -gt 0 ] && shift
scripts/install_dependencies.sh
cmake --preset "$preset"
cmake --build --preset "$preset"
# Which of our kernel sets this CPU runs: the per-ISA tests of the others are skipped (docs/ci.md).
validate="build/$preset/bin/eltwise-validate"
[ ! -x "$validate" ] || echo "test: $("$validate" list --kernel-sets)"
# The OpenMP policy eltwise-validate would set for itself (runner/openmp_wait_policy.hpp), so
# that its many runs in the suite do not each start twice (run.OpenMpWaitPolicy checks the default).
export OMP_WAIT_POLICY="${OMP_WAIT_POLICY:-passive}"
ctest --preset "$preset" "$@"
