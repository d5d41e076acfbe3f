#!/usr/bin/env bash
# Fuzzes one target on top of its committed corpus and regression inputs:
#   run_fuzzer.sh BINARY NAME (--seconds S | --runs N) WORK_DIR
# New inputs go to WORK_DIR/NAME/corpus (the committed corpus is never written). A crash, a
# leak, a timeout (10 s) or an allocation over 2 GiB fails with the input saved under
# WORK_DIR/NAME/artifacts/ and the command that adds it to the regression inputs.
set -euo pipefail
binary="$1" name="$2" mode="$3" amount="$4" work="$5"
source_dir="$(cd "$(dirname "$0")" && pwd)"
case "$mode" in
  --seconds) limit=(-max_total_time="$amount") ;;
  --runs) limit=(-runs="$amount") ;;
  *) echo "run_fuzzer.sh: expected --seconds S or --runs N, got '$mode'" >&2; exit 2 ;;
esac
mkdir -p "$work/$name/corpus" "$work/$name/artifacts"
inputs=("$work/$name/corpus" "$source_dir/corpus/$name")
[ -d "$source_dir/regressions/$name" ] && inputs+=("$source_dir/regressions/$name")
dict=()
[ -f "$source_dir/dictionaries/$name.dict" ] && dict=(-dict="$source_dir/dictionaries/$name.dict")
status=0
"$binary" "${limit[@]}" "${dict[@]}" -timeout=10 -rss_limit_mb=2048 \
  -print_final_stats=1 -artifact_prefix="$work/$name/artifacts/" "${inputs[@]}" \
  2>"$work/$name/log.txt" || status=$?
grep -E "^#[0-9]+.*(DONE|INITED)|stat::number_of_executed_units|stat::peak_rss_mb|ERROR|SUMMARY" \
  "$work/$name/log.txt" || true
if [ "$status" -ne 0 ]; then
  tail -n 60 "$work/$name/log.txt"
  for f in "$work/$name/artifacts"/*; do
    [ -e "$f" ] || continue
    echo "fuzz $name: failing input $f"
    echo "  keep it as a regression: mkdir -p fuzz/regressions/$name && cp '$f' fuzz/regressions/$name/"
  done
  exit "$status"
fi
