#!/usr/bin/env bash
# The scoreboard run: sets everything up on a fresh Debian 12 machine, builds the release
# preset, runs the default case sources with a fixed seed against every available backend (the
# built-in optimized one and the adapters of real libraries, see `eltwise-validate list
# --backends`), and merges their results into one report in reports/out/.
#   --long       larger random counts (--count 200 instead of 10)
#   --count N    random cases per (op version, type, rule) (default 10)
#   --seed N     the cases' seed (default 1): another seed checks that the profiles' behaviours,
#                not case lists, hold
#   --backends LIST  only these backends (comma-separated names of `eltwise-validate list
#                --backends`), in this order, instead of every available one
#   --no-setup   skip the install and build steps (a checkout already set up)
#   --shrink-budget N  backend calls per shrunk deviation (run's default: 1000); the graph forms
#                that compile a model per call shrink far slower than runtime
#   --out DIR    somewhere else than reports/out
#   --platforms LIST  run on each of these platforms (run --platform: host, avx2, x86-<CPU>,
#                arm64-<CPU>; default host): every backend that has the platform, one report
#                column per (backend, platform); x86-<CPU> and arm64-<CPU> need
#                scripts/install_dependencies.sh --platform x86 or arm64
#   --graph-forms LIST  run every case in these graph forms too (each backend: those its hello
#                lists; other forms' ids start with "<form>/", and an expected.txt line for the
#                runtime id also covers the same status in any other form)
set -euo pipefail
cd "$(dirname "$0")/.."
count=10
seed=1
out=reports/out
forms=runtime
only=""
platforms=host
setup=1
shrink=()
while [ $# -gt 0 ]; do
  case "$1" in
    --long) count=200 ;;
    --count) count="$2"; shift ;;
    --seed) seed="$2"; shift ;;
    --backends) only="$2"; shift ;;
    --no-setup) setup=0 ;;
    --shrink-budget) shrink=(--shrink-budget "$2"); shift ;;
    --out) out="$2"; shift ;;
    --graph-forms) forms="$2"; shift ;;
    --platforms) platforms="$2"; shift ;;
    *) echo "usage: scripts/conformance.sh [--long] [--count N] [--seed N] [--backends LIST] [--no-setup]" \
            "[--shrink-budget N] [--out DIR] [--graph-forms LIST] [--platforms LIST]" >&2; exit 2 ;;
  esac
  shift
done
if [ "$setup" -eq 1 ]; then
  scripts/install_dependencies.sh
  cmake --preset release
  cmake --build --preset release
fi
validate=build/release/bin/eltwise-validate

# The backends of one platform: those of `list --backends --platform P` that start there (the
# built-in optimized one and every adapter on the host), or --backends' names among them.
backends_on() {
  local platform="$1" name names
  mapfile -t names < <("$validate" list --backends --json --platform "$platform" | /usr/bin/python3 -c '
import json, sys
for b in json.load(sys.stdin):
    if b["available"] and b["name"] != "reference":
        print(b["name"])')
  if [ -z "$only" ]; then
    printf '%s\n' "${names[@]}"
    return
  fi
  IFS=, read -r -a wanted <<< "$only"
  for name in "${wanted[@]}"; do
    if printf '%s\n' "${names[@]}" | grep -qx -- "$name"; then
      echo "$name"
    elif [ "$platform" = host ]; then
      echo "conformance: backend '$name' is not available (eltwise-validate list --backends)" >&2
      exit 2
    fi
  done
}

# One backend on one platform: its results in $out/<name> (host) or $out/<name>@<platform>.
run_backend() {
  local name="$1" platform="$2" dir="$out/$1" status=0
  [ "$platform" = host ] || dir="$out/$name@$platform"
  echo "conformance: $name on $platform"
  # `run --backend NAME` applies the adapter's own expected.txt (its known deviations, marked as
  # expected: what is new stands out) and profile.toml (its declared behaviours with their
  # platform conditions, backends/PROTOCOL.md section 14); the run line records both.
  local start=$SECONDS
  "$validate" run --backend "$name" --platform "$platform" --seed "$seed" --count "$count" \
    --graph-forms "$forms" --out "$dir" "${shrink[@]}" \
    > "$dir.log" 2>&1 || status=$?
  tail -n 3 "$dir.log"
  echo "conformance: $name on $platform took $((SECONDS - start)) s"
  grep -E "stale:|now passes" "$dir.log" || true
  # 0: no new findings, 1: new findings; anything else is a failure of the run itself.
  [ "$status" -le 1 ] || { echo "conformance: the $name run on $platform failed (exit $status)" >&2; exit 1; }
}

rm -rf "$out"
mkdir -p "$out"
IFS=, read -r -a platform_list <<< "$platforms"
for platform in "${platform_list[@]}"; do
  found="$(backends_on "$platform")" || exit 2
  names=()
  [ -z "$found" ] || mapfile -t names <<< "$found"
  echo "conformance: on $platform: ${names[*]}"
  for name in "${names[@]}"; do
    run_backend "$name" "$platform"
  done
done
"$validate" report "$out"/*/results.jsonl --html "$out/report.html" --junit "$out/junit.xml" \
  --summary "$out/summary.json"
