#!/usr/bin/env bash
# install_test.sh BUILD_DIR CONSUMER_DIR: the installed suite works on its own.
#  1. `cmake --install BUILD_DIR` into a fresh prefix; the package's files are there, and its
#     CMake files name neither the build nor the source tree.
#  2. A copy of CONSUMER_DIR (examples/consumer), outside the source tree, configured with
#     CMAKE_PREFIX_PATH=<prefix> alone, built and tested: its ctest passes.
#  3. The same with -DPLANT_BUG=ON: exactly consumer.onnx.Div-14 fails, consumer.onnx.Mul-14
#     passes, and the failure output carries the finding's replay line.
#  4. The installed eltwise-validate runs every case source of `run --help` with the reference
#     (small --count; one block of exhaustive16) from a directory outside the source tree.
#  5. Its `list --backends` names commands inside the prefix (an install hint for each adapter
#     it cannot start), and it runs the numpy adapter and a C-ABI plugin adapter (oneDNN or
#     XNNPACK) from the installed files, judged by their installed expected.txt and profile.toml.
# CMAKE and CTEST name the tools (default: on PATH); ELTWISE_KEEP_TEST_DIR=1 keeps the work
# directory. Fails with the step and its log.
set -euo pipefail
build=$(cd "$1" && pwd)
consumer_src=$(cd "$2" && pwd)
cmake=${CMAKE:-cmake}
ctest=${CTEST:-ctest}
work=$(mktemp -d "${TMPDIR:-/tmp}/eltwise-install-test.XXXXXX")
[ -n "${ELTWISE_KEEP_TEST_DIR:-}" ] || trap 'rm -rf "$work"' EXIT
prefix=$work/prefix

fail() {
  echo "install_test: FAIL: $1" >&2
  [ $# -lt 2 ] || { echo "--- $2:" >&2; tail -n 80 "$2" >&2; }
  exit 1
}
step() { echo "install_test: $* ($SECONDS s)"; }

step "installing $build into $prefix"
"$cmake" --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1 ||
  fail "cmake --install" "$work/install.log"
config=$(find "$prefix" -name EltwiseConformanceConfig.cmake)
for f in bin/eltwise-validate bin/eltwise-backend-host include/eltwise_backend.h \
  share/eltwise-conformance/op_table.json share/doc/eltwise-conformance/SEMANTICS.md \
  share/doc/eltwise-conformance/PROTOCOL.md share/doc/eltwise-conformance/CONTRIBUTING.md; do
  [ -e "$prefix/$f" ] || fail "not installed: $f" "$work/install.log"
done
[ -n "$config" ] || fail "not installed: EltwiseConformanceConfig.cmake" "$work/install.log"
for f in EltwiseConformanceConfigVersion.cmake EltwiseConformanceFunctions.cmake; do
  [ -e "$(dirname "$config")/$f" ] || fail "not installed: $f" "$work/install.log"
done
# Relocatable: the package computes its paths, it names neither tree it came from.
source_root=$(cd "$consumer_src/../.." && pwd)
if grep -rlF -e "$build" -e "$source_root" "$(dirname "$config")"; then
  fail "the installed package names the build or source tree"
fi

# The consumer sees the prefix and nothing else of ours: a copy, no package registries.
cp -r "$consumer_src" "$work/consumer"
consumer() { # consumer NAME [CMAKE ARGS...]: configure and build into $work/NAME
  local dir=$work/$1
  shift
  "$cmake" -S "$work/consumer" -B "$dir" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF \
    "$@" >"$dir.log" 2>&1 || fail "configuring the consumer $*" "$dir.log"
  grep -qx "EltwiseConformance_DIR:PATH=$(dirname "$config")" "$dir/CMakeCache.txt" ||
    fail "the consumer found the package elsewhere: $(grep EltwiseConformance_DIR "$dir/CMakeCache.txt")"
  "$cmake" --build "$dir" -j2 >>"$dir.log" 2>&1 || fail "building the consumer $*" "$dir.log"
}

step "consumer, clean"
consumer clean -DPLANT_BUG=OFF
(cd "$work/clean" && "$ctest" --output-on-failure) >"$work/clean-ctest.log" 2>&1 ||
  fail "the clean consumer's ctest fails" "$work/clean-ctest.log"
grep -q "100% tests passed, 0 tests failed out of 2" "$work/clean-ctest.log" ||
  fail "the clean consumer did not run its two tests" "$work/clean-ctest.log"

step "consumer, PLANT_BUG=ON"
consumer planted -DPLANT_BUG=ON
if (cd "$work/planted" && "$ctest" --output-on-failure) >"$work/planted-ctest.log" 2>&1; then
  fail "the planted bug went unnoticed" "$work/planted-ctest.log"
fi
failed=$(sed 's/^[0-9]*://' "$work/planted/Testing/Temporary/LastTestsFailed.log")
[ "$failed" = "consumer.onnx.Div-14" ] ||
  fail "expected exactly consumer.onnx.Div-14 to fail, failed: $failed" "$work/planted-ctest.log"
grep -qE "consumer\.onnx\.Mul-14 \.+ +Passed" "$work/planted-ctest.log" ||
  fail "consumer.onnx.Mul-14 did not pass" "$work/planted-ctest.log"
grep -qE "^ *eltwise-validate run --backend-cmd .*my_plugin.* --case '?[a-z0-9]+:onnx\.Div-14:f32" \
  "$work/planted-ctest.log" || fail "no replay line in the failure output" "$work/planted-ctest.log"

step "installed eltwise-validate, every case source, from $work/cwd"
validate=$prefix/bin/eltwise-validate
onnx_data=${ELTWISE_ONNX_TESTDATA_DIR:-/usr/share/libonnx-testdata/data/node}
mkdir "$work/cwd"
cd "$work/cwd"
sources=$("$validate" run --help | sed -n 's/.*Case sources: \(.*\) (default.*/\1/p' | tr -d ',')
[ -n "$sources" ] || fail "no case sources in 'eltwise-validate run --help'"
for source in $sources; do
  select=(--cases "$source" --count 1)
  if [ "$source" = exhaustive16 ]; then # 2^32 pairs per function: its first block only
    "$validate" run --backend reference "${select[@]}" --list-cases >"$source.ids"
    block=$(head -n 1 "$source.ids")
    select=(--case "$block")
  fi
  "$validate" run --backend reference "${select[@]}" --out "runs/$source" >"$source.log" 2>&1 ||
    fail "installed eltwise-validate, source $source" "$source.log"
  cases=$(($(wc -l <"runs/$source/results.jsonl") - 1))
  # onnx reads Debian's libonnx-testdata: no cases without it.
  [ "$cases" -gt 0 ] || { [ "$source" = onnx ] && [ ! -d "$onnx_data" ]; } ||
    fail "source $source ran no case" "$source.log"
  echo "install_test:   $source: $cases cases passed"
done

step "installed adapters, from $work/cwd"
# The installed tree lists its adapters with commands inside the prefix, and runs the numpy
# adapter (Debian's numpy, the installed kit) and the first C-ABI plugin adapter it has.
"$validate" list --backends --json >backends.json 2>backends.log || fail "list --backends" backends.log
plugin=$(/usr/bin/python3 - "$prefix" backends.json <<'PY'
import json, sys
prefix, rows = sys.argv[1], {b["name"]: b for b in json.load(open(sys.argv[2]))}
numpy = rows.get("numpy", {})
if not numpy.get("available") or prefix not in numpy.get("command", ""):
    sys.exit(f"the numpy adapter is not available from {prefix}: {numpy}")
for row in rows.values():
    if "command" in row and prefix not in row["command"]:
        sys.exit(f"{row['name']} runs outside the prefix: {row['command']}")
    if not row["available"] and not row.get("install"):
        sys.exit(f"{row['name']} is unavailable without an install hint: {row}")
plugins = [n for n in ("onednn", "xnnpack") if rows.get(n, {}).get("available")]
print(plugins[0] if plugins else "")
PY
) || fail "list --backends of the installed tree: $plugin" backends.json
for backend in numpy $plugin; do
  "$validate" run --backend "$backend" --cases spec,invalid --dtype f32 --count 1 \
    --out "runs/adapter-$backend" >"adapter-$backend.log" 2>&1 ||
    fail "installed adapter $backend" "adapter-$backend.log"
  echo "install_test:   adapter $backend: $(tail -n 3 "adapter-$backend.log" | head -n 1)"
  # It judged by the installed adapter's own profile.toml and expected.txt, recorded as applied.
  /usr/bin/python3 - "$prefix" "$backend" "runs/adapter-$backend/results.jsonl" <<'PY' ||
import glob, json, os, sys
prefix, name, results = sys.argv[1:]
folder = glob.glob(os.path.join(prefix, "share", "*", "adapters", name))[0]
own = {role: os.path.join(folder, f) for role, f in (("profile", "profile.toml"),
       ("expected", "expected.txt")) if os.path.exists(os.path.join(folder, f))}
run = json.loads(open(results).readline())["run"]
applied = {f["role"]: f["path"] for f in run.get("applied_files", []) if f["from"] == "adapter"}
if not own or applied != own:
    sys.exit(f"{name}: applied {applied}, the installed adapter's own files are {own}")
PY
    fail "installed adapter $backend: its own files not applied" "runs/adapter-$backend/results.jsonl"
done
[ -n "$plugin" ] || echo "install_test:   no plugin adapter (neither libdnnl nor libxnnpack found at build time)"
step "ok"
