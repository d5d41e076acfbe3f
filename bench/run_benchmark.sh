#!/usr/bin/env bash
# The throughput benchmark: installs what it needs (only what is missing), builds eltwise-bench
# with the release preset, runs it and its numpy and onnxruntime-node peers, and prints one
# markdown table. Raw JSON lines stay in build/release/bench/results/.
#
#   bench/run_benchmark.sh [--smoke] [--reps N] [--no-install] [--isa LIST] [--only ROW_ID]...
#
#   --smoke       every row at a tiny shape, 1 repetition (seconds; numbers mean nothing)
#   --reps N      timed repetitions per implementation, median reported (default 7)
#   --no-install  skip apt-get / npm (peers that are missing report n/a)
#   --isa LIST    also time optimized with these kernel sets: comma-separated portable, avx2,
#                 avx512, or all (every one this CPU runs); default: only the active one
#   --only ID     run only this row of bench/rows.json (repeatable)
#
# Threads: OMP_NUM_THREADS defaults to all cores (nproc) for eltwise-bench (optimized, Eigen
# slices, oneDNN, copy); ORT gets intra-op threads = all cores; numpy ufuncs and the reference
# are single-threaded.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
smoke=()
reps=7
install=1
only=()
isa=()
while [ $# -gt 0 ]; do
  case "$1" in
    --smoke) smoke=(--smoke) ;;
    --reps) reps="$2"; shift ;;
    --no-install) install=0 ;;
    --only) only+=(--only "$2"); shift ;;
    --isa) isa=(--isa "$2"); shift ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "run_benchmark: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

log() { echo "run_benchmark: $*" >&2; }

if [ "$install" -eq 1 ]; then
  "$root/scripts/install_dependencies.sh" >&2  # the project's own build dependencies
  missing=()
  for p in python3-numpy libeigen3-dev libdnnl-dev; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  command -v node >/dev/null 2>&1 || missing+=(nodejs)
  command -v npm >/dev/null 2>&1 || missing+=(npm)
  if [ ${#missing[@]} -gt 0 ]; then
    log "installing ${missing[*]}"
    sudo_cmd=()
    [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    export DEBIAN_FRONTEND=noninteractive
    "${sudo_cmd[@]}" apt-get update -qq
    "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2 ||
      log "apt-get install failed; the missing peers will report n/a"
  fi
  kit="$root/backends/kit/node"  # the Node adapter kit: the peer's one-node ONNX models
  if command -v npm >/dev/null 2>&1 && [ ! -f "$kit/node_modules/protobufjs/package.json" ]; then
    log "npm ci --ignore-scripts in backends/kit/node (protobufjs, pinned in its package-lock.json)"
    (cd "$kit" && npm ci --ignore-scripts --no-audit --no-fund >&2) ||
      log "npm ci failed; the ORT peer will report n/a"
  fi
  if command -v npm >/dev/null 2>&1 && { [ ! -f "$here/node_modules/onnxruntime-node/package.json" ] ||
       [ ! -e "$here/node_modules/eltwise-adapter-kit" ]; }; then
    log "npm ci --ignore-scripts (onnxruntime-node and the kit, pinned in bench/package-lock.json)"
    (cd "$here" && npm ci --ignore-scripts --no-audit --no-fund >&2) ||
      log "npm ci failed; the ORT peer will report n/a"
  fi
fi

cd "$root"
cmake --preset release >&2
cmake --build --preset release --target eltwise-bench >&2

out="$root/build/release/bench/results"
mkdir -p "$out"
rm -f "$out"/*.jsonl
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-$(nproc)}"
status=0
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"

log "eltwise-bench (optimized, reference, Eigen, oneDNN, copy ceiling)"
"$root/build/release/bin/eltwise-bench" "${smoke[@]}" --reps "$reps" "${isa[@]}" "${only[@]}" \
  > "$out/cpp.jsonl" || { status=$?; log "eltwise-bench exited $status"; }

# Debian's numpy is installed for /usr/bin/python3, which a pyenv or venv python3 may not see.
python=python3
/usr/bin/python3 -c 'import numpy' 2>/dev/null && python=/usr/bin/python3
if "$python" -c 'import numpy' 2>/dev/null; then
  log "numpy peer"
  # It lowers pdpd with the Python adapter kit's lowering.py.
  PYTHONPATH="$root/backends/kit/python${PYTHONPATH:+:$PYTHONPATH}" \
    "$python" "$here/numpy_peer.py" "${smoke[@]}" --reps "$reps" "${only[@]}" > "$out/numpy.jsonl" ||
    log "numpy peer failed"
else
  log "numpy not importable: numpy column n/a"
fi

if [ -f "$here/node_modules/onnxruntime-node/package.json" ] && command -v node >/dev/null 2>&1; then
  log "onnxruntime-node peer"
  node "$here/onnxruntime_peer.mjs" "${smoke[@]}" --reps "$reps" "${only[@]}" > "$out/onnxruntime.jsonl" ||
    log "onnxruntime peer failed"
else
  log "onnxruntime-node not installed: ORT column n/a"
fi

python3 "$here/results_table.py" "$out/cpp.jsonl" "$out/numpy.jsonl" "$out/onnxruntime.jsonl"
# Other processes on the cores distort multi-threaded timings most: say how busy the machine was.
echo "- machine: $(nproc) cores, OMP_NUM_THREADS=$OMP_NUM_THREADS, load average before: $load_before, after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$status"
