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
    *) echo "usage: scripts/conformance.sh [--long] [--count N] [--seed N] [--backends LIST] [--no-setup]" \
            "[--shrink-budget N] [--out DIR] [--graph-forms LIST]" >&2; exit 2 ;;
  esac
  shift
done
if [ "$setup" -eq 1 ]; then
  scripts/install_dependencies.sh
  cmake --preset release
  cmake --build --preset release
fi
validate=build/release/bin/eltwise-validate

# The available backends: the built-in optimized one, and every adapter that starts.
mapfile -t names < <("$validate" list --backends --json | /usr/bin/python3 -c '
import json, sys
for b in json.load(sys.stdin):
    if b["available"] and b["name"] != "reference":
        print(b["name"])')
if [ -n "$only" ]; then
  IFS=, read -r -a wanted <<< "$only"
  for name in "${wanted[@]}"; do
    printf '%s\n' "${names[@]}" | grep -qx -- "$name" ||
      { echo "conformance: backend '$name' is not available (eltwise-validate list --backends)" >&2; exit 2; }
  done
  names=("${wanted[@]}")
fi
echo "conformance: backends ${names[*]}"

rm -rf "$out"
mkdir -p "$out"
for name in "${names[@]}"; do
  echo "conformance: $name"
  status=0
  # An adapter's known deviations (its findings) are marked as expected; what is new stands out.
  expected=()
  [ -f "backends/adapters/$name/expected.txt" ] &&
    expected=(--expected "backends/adapters/$name/expected.txt")
  # Its declared behaviours (backends/PROTOCOL.md section 14).
  [ -f "backends/adapters/$name/profile.toml" ] &&
    expected+=(--profile "backends/adapters/$name/profile.toml")
  "$validate" run --backend "$name" --seed "$seed" --count "$count" --graph-forms "$forms" \
    --out "$out/$name" "${expected[@]}" "${shrink[@]}" \
    > "$out/$name.log" 2>&1 || status=$?
  tail -n 3 "$out/$name.log"
  grep -E "stale:|now passes" "$out/$name.log" || true
  # 0: no new findings, 1: new findings; anything else is a failure of the run itself.
  [ "$status" -le 1 ] || { echo "conformance: the $name run failed (exit $status)" >&2; exit 1; }
done
"$validate" report "$out"/*/results.jsonl --html "$out/report.html" --junit "$out/junit.xml" \
  --summary "$out/summary.json"
