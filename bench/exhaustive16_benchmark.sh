#!/usr/bin/env bash
# Exhaustive16 validation throughput: validated pairs/s of `eltwise-validate run --cases
# exhaustive16` for each distinct 16-bit function, in process (--backend optimized) and through
# eltwise-backend-host with the optimized plugin, against a parallel-memcpy copy ceiling
# (8 bytes per pair). Builds with the release preset, prints one markdown table; raw JSON lines
# stay in build/release/bench/results/exhaustive16-*.jsonl.
#
#   bench/exhaustive16_benchmark.sh [--smoke] [--reps N] [--no-install] [--no-build]
#                                   [--build-dir DIR]
#
#   --smoke          1 block (16.8 M pairs) per function, 1 repetition (seconds; numbers mean nothing)
#   --reps N         repetitions, in-process and host runs alternating, median reported (default 5)
#   --no-install     skip scripts/install_dependencies.sh
#   --no-build       use the binaries already in the build dir
#   --build-dir DIR  configure (Release) and use DIR instead of the release preset's build/release
#   --function LABEL only this function's row, e.g. --function 'f16 mul' (repeatable)
#   --blocks N       blocks per measurement, 1..16 (default 16)
#   --adapter NAME   also measure `--backend NAME` (an adapter, e.g. numpy; repeatable)
#
# A full run measures 16 blocks (268 M pairs) per function and mode: about 3 minutes with 5 reps
# on 2 cores. Smoke rates are far lower: one block is dominated by the process's first-block costs.
# Threads: OMP_NUM_THREADS defaults to all cores (nproc), for the validator, the optimized
# kernels (in process and in the host) and the copy.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
smoke=()
functions=()
reps=5
install=1
build=1
build_dir=""
while [ $# -gt 0 ]; do
  case "$1" in
    --smoke) smoke=(--smoke) ;;
    --reps) reps="$2"; shift ;;
    --no-install) install=0 ;;
    --no-build) build=0 ;;
    --build-dir) build_dir="$(realpath -m "$2")"; shift ;;
    --function) functions+=(--function "$2"); shift ;;
    --adapter) functions+=(--adapter "$2"); shift ;;
    --blocks) functions+=(--blocks "$2"); shift ;;
    -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
    *) echo "exhaustive16_benchmark: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

log() { echo "exhaustive16_benchmark: $*" >&2; }

[ "$install" -eq 0 ] || "$root/scripts/install_dependencies.sh" >&2

targets=(eltwise-validate eltwise-backend-host eltwise_optimized_plugin eltwise-copy-ceiling)
cd "$root"
if [ -z "$build_dir" ]; then
  build_dir="$root/build/release"
  if [ "$build" -eq 1 ]; then
    cmake --preset release >&2
    cmake --build --preset release --target "${targets[@]}" >&2
  fi
elif [ "$build" -eq 1 ]; then
  cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release >&2
  cmake --build "$build_dir" --target "${targets[@]}" -j2 >&2
fi

out="$build_dir/bench/results"
mkdir -p "$out"
if [ ${#smoke[@]} -gt 0 ]; then
  jsonl="$out/exhaustive16-smoke.jsonl"
else
  jsonl="$out/exhaustive16-$(date -u +%Y%m%dT%H%M%SZ).jsonl"
fi
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-$(nproc)}"
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"

# The driver needs only the standard library: any python3 will do.
status=0
python3 "$here/exhaustive16_bench.py" --build-dir "$build_dir" --jsonl "$jsonl" \
  --reps "$reps" "${smoke[@]}" "${functions[@]}" || status=$?
# Other jobs on the cores distort multi-threaded timings most: say how busy the machine was.
echo "- machine: $(nproc) cores, OMP_NUM_THREADS=$OMP_NUM_THREADS, load average before: $load_before, after: $(cut -d' ' -f1-3 /proc/loadavg)"
[ "$status" -eq 0 ] || log "a run failed or a block did not pass (see $jsonl)"
exit "$status"
