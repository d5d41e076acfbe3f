#!/usr/bin/env bash
# Fuzzing beyond CI's bounded runs (README "Fuzzing"):
#   scripts/fuzz.sh (--seconds S | --runs N) [--fast] [TARGET...]
# Builds the fuzz preset (clang, libFuzzer, ASan + UBSan) and fuzzes each target (default: all
# nine), two at a time, on top of fuzz/corpus and fuzz/regressions. --fast fuzzes a build
# without ASan (UBSan only, -O2: several times the executions per second) and then replays
# everything it found under the ASan build. New inputs stay in build/<preset>/fuzz/work/TARGET/
# corpus; a failing input is left in .../artifacts with the command that keeps it as a
# regression. Ends with executions, coverage and corpus size per target.
set -euo pipefail
cd "$(dirname "$0")/.."
mode="" amount="" fast=0 targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds|--runs) mode="$1" amount="${2:?$1 needs a number}"; shift 2 ;;
    --fast) fast=1; shift ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[ -n "$mode" ] || { echo "usage: scripts/fuzz.sh (--seconds S | --runs N) [--fast] [TARGET...]" >&2; exit 2; }
[ ${#targets[@]} -gt 0 ] || targets=($(ls fuzz/corpus))
scripts/install_dependencies.sh
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz
build=build/fuzz
if [ "$fast" -eq 1 ]; then
  build=build/fuzz-fast
  cmake --preset fuzz -B "$build" -DCMAKE_BUILD_TYPE=Release \
    "-DCMAKE_CXX_FLAGS=-fsanitize=undefined,fuzzer-no-link -fno-sanitize-recover=all" \
    -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=undefined >/dev/null
  cmake --build "$build" --target fuzz_targets -j2
fi
work="$build/fuzz/work"
export work build mode amount
printf '%s\n' "${targets[@]}" | xargs -P2 -I{} sh -c \
  'fuzz/run_fuzzer.sh "$build/bin/fuzz_{}" {} "$mode" "$amount" "$work" >"$work/{}.summary" 2>&1 \
   || { echo "fuzz {}: FAILED"; cat "$work/{}.summary"; exit 255; }'
if [ "$fast" -eq 1 ]; then  # what the fast build found, replayed with ASan
  for t in "${targets[@]}"; do
    build/fuzz/bin/fuzz_"$t" -runs=0 "$work/$t/corpus" 2>"$work/$t/asan_replay.txt" \
      || { echo "fuzz $t: the ASan replay failed"; tail -n 40 "$work/$t/asan_replay.txt"; exit 1; }
  done
fi
printf '%-14s %14s %8s %8s %8s\n' target executions cov ft corpus
for t in "${targets[@]}"; do
  runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$work/$t/log.txt" | tail -1 | cut -d' ' -f2)
  done_line=$(grep -E '^#[0-9]+.*DONE' "$work/$t/log.txt" | tail -1)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$done_line")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$done_line")
  printf '%-14s %14s %8s %8s %8s\n' "$t" "${runs:-?}" "${cov:-?}" "${ft:-?}" \
    "$(ls "$work/$t/corpus" | wc -l)"
done
