#!/usr/bin/env bash
# The command-line contract of eltwise-validate: exit codes (0 ok, 1 failed or rejected,
# 2 usage or input error), messages that name what is wrong, and the output formats.
# Expected values are hand-computed from the specs.
set -uo pipefail
bin="$1"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect_exit CODE ARGS... : runs the binary, keeps stdout/stderr in $out/$err.
expect_exit() {
  local want=$1; shift
  "$bin" "$@" >"$work/out" 2>"$work/err"
  local got=$?
  out=$(cat "$work/out"); err=$(cat "$work/err")
  [ "$got" -eq "$want" ] || fail "'$*' exited $got, expected $want; stderr: $err"
}

# json_field EXPR : evaluates a Python expression on the JSON in $out (as j).
json_field() { /usr/bin/python3 -c "import json,sys; j=json.loads(sys.stdin.read()); print(json.dumps($1))" <<<"$out"; }

expect_equal() { [ "$1" == "$2" ] || fail "$3: got $1, expected $2"; }

# list: exactly the twelve op versions of docs/SEMANTICS.md section 1
expect_exit 0 list
expect_equal "$(grep -cE '^(onnx|openvino)\.' <<<"$out")" 12 "list version count"
expect_equal "$(grep -A1 '^onnx.Mul-13$' <<<"$out" | tail -1 | xargs)" \
  "element types: f16 f32 f64 i32 i64 u32 u64 bf16" "Mul-13 types"
expect_exit 0 list --json
expect_equal "$(json_field 'len(j)')" 12 "list --json length"

# --version: the project's version (what scripts/deb_test.sh prints from PATH)
expect_exit 0 --version
grep -qE '^eltwise-validate [0-9]+\.[0-9]+' <<<"$out" || fail "--version printed: $out"

# usage errors exit 2 and say what is wrong
expect_exit 2
expect_exit 2 frobnicate
expect_exit 2 spec --case no.such.case
grep -q "no.such.case" <<<"$err" || fail "unknown case not named: $err"
# a kernel set that does not exist stops before anything runs, naming it
ELTWISE_ISA=avx9000 expect_exit 2 run --backend optimized --cases spec --out "$work/isa"
grep -q "ELTWISE_ISA=avx9000" <<<"$err" || fail "bad ELTWISE_ISA not named: $err"
[ ! -e "$work/isa/results.jsonl" ] || fail "bad ELTWISE_ISA still wrote results"
expect_exit 2 eval --op onnx.Mul-99 --a i32:1:1 --b i32:1:1
grep -q "onnx.Mul-99" <<<"$err" || fail "unknown op not named: $err"
expect_exit 2 eval --op onnx.Mul-14 --a i32:2:1,2,3 --b i32:2:1,2
grep -q "i32:2:1,2,3" <<<"$err" || fail "bad inline tensor not quoted: $err"
expect_exit 2 eval --op onnx.Mul-14 --a missing.npy --b i32:1:1
grep -q "missing.npy" <<<"$err" || fail "missing file not named: $err"

# ONNX Div truncates: [-3,3,-3,3] / [2,2,-2,-2] = [-1,1,1,-1]
expect_exit 0 eval --op onnx.Div-14 --a i32:4:-3,3,-3,3 --b i32:4:2,2,-2,-2
expect_equal "$(json_field 'j["values"]')" "[-1, 1, 1, -1]" "Div-14 truncation"

# Divide-1 floors by default; a zero divisor is listed as undefined and has no value
expect_exit 0 eval --op openvino.Divide-1 --a i32:3:-7,2,7 --b i32:3:2,0,-2
expect_equal "$(json_field 'j["values"]')" "[-4, null, -4]" "Divide-1 floor with /0"
expect_equal "$(json_field 'j["undefined"]')" "[1]" "undefined list"
expect_exit 0 eval --op openvino.Divide-1 --attr m_pythondiv=false --a i32:2:-7,7 --b i32:2:2,-2
expect_equal "$(json_field 'j["values"]')" "[-3, -3]" "Divide-1 truncation"

# IEEE specials are spelled unambiguously: -0*5=-0, inf*0=nan, nan*1=nan, 1/-0 (Div) = -inf
expect_exit 0 eval --op onnx.Mul-14 --a f32:3:-0,inf,nan --b f32:3:5,0,1
# (any NaN matches: x86 produces the default NaN with its sign bit set)
expect_equal "$(json_field '[v in ("nan", "-nan") for v in j["values"][1:]]')" \
  '[true, true]' "inf*0 and nan*1"
expect_equal "$(json_field 'j["values"][0]')" '"-0"' "-0*5"
expect_equal "$(json_field 'j["bits"][0]')" '"0x80000000"' "-0 bits"

# numpy broadcasting: (2,1) x (3) -> (2,3)
expect_exit 0 eval --op onnx.Mul-7 --a f32:2x1:1,2 --b f32:3:1,2,3
expect_equal "$(json_field 'j["shape"]')" "[2, 3]" "broadcast shape"
expect_equal "$(json_field 'j["values"]')" "[1.0, 2.0, 3.0, 2.0, 4.0, 6.0]" "broadcast values"

# the spec rejects: i8 is not a Mul-13 type (exit 1, message names the type)
expect_exit 1 eval --op onnx.Mul-13 --a i8:1:1 --b i8:1:1
grep -q "i8" <<<"$err" || fail "rejection does not name the type: $err"
expect_exit 1 eval --op onnx.Mul-6 --attr broadcast=1 --attr axis=1 --a f32:2x3x4x5:0 --b f32:3x1:1,2,3
grep -q "(3,1)" <<<"$err" || fail "shape rejection does not name B's shape: $err"

# .npy output feeds back in as input; u8 multiply wraps: 200*2 = 144
expect_exit 0 eval --op onnx.Mul-14 --a u8:2:200,3 --b u8:2:2,5 --out "$work/r.npy"
expect_equal "$(json_field 'j["written"]')" "\"$work/r.npy\"" "npy written"
expect_exit 0 eval --op onnx.Mul-14 --a "$work/r.npy" --b u8:2:1,1
expect_equal "$(json_field 'j["values"]')" "[144, 15]" "npy round trip"

# bf16 .npy files hold raw <u2 bits; --dtype bf16 reads them back
expect_exit 0 eval --op onnx.Mul-13 --dtype bf16 --a 1:3 --b 1:0.5 --out "$work/h.npy"
expect_exit 0 eval --op onnx.Mul-13 --dtype bf16 --a "$work/h.npy" --b 1:1
expect_equal "$(json_field 'j["values"]')" "[1.5]" "bf16 npy round trip"

# .json output
expect_exit 0 eval --op onnx.Mul-14 --a i64::-3 --b i64::7 --out "$work/r.json"
out=$(cat "$work/r.json")
expect_equal "$(json_field 'j["values"]')" "[-21]" "json file"

# a failing run leaves an existing output file untouched
echo keep >"$work/keep.npy"
expect_exit 1 eval --op onnx.Mul-13 --a i8:1:1 --b i8:1:1 --out "$work/keep.npy"
expect_equal "$(cat "$work/keep.npy")" keep "existing output preserved"
expect_exit 2 eval --op onnx.Mul-14 --a i32:1:1 --b i32:1:1 --out "$work/no/such/dir/x.npy"

# Platforms (docs/platforms.md): an unknown one, and one the adapter's manifest does not list, are
# usage errors naming what is wrong; nothing runs.
expect_exit 2 run --backend optimized --platform bogus --out "$work/platform-run"
grep -q "unknown platform 'bogus' (host, avx2, arm64, arm64-<QEMU CPU model>, x86-<QEMU CPU model>)" <<<"$err" || fail "unknown platform: $err"
expect_exit 2 run --backend numpy --platform arm64-max --out "$work/platform-run"
grep -q "adapter 'numpy' does not run on arm64-max" <<<"$err" || fail "platform not listed: $err"
expect_exit 2 list --platform bogus
grep -q "unknown platform 'bogus'" <<<"$err" || fail "list, unknown platform: $err"
expect_exit 2 run --backend optimized --platform arm64 --out "$work/platform-run"
grep -q "runs adapters by name" <<<"$err" || fail "built-in on arm64: $err"
ELTWISE_ARM64=/nonexistent expect_exit 2 run --backend numpy-2 --platform arm64 --out "$work/platform-run"
grep -q "no arm64 root filesystem .* at /nonexistent; install: scripts/install_dependencies.sh --platform arm64" <<<"$err" ||
  fail "arm64 not installed: $err"
expect_exit 2 run --backend optimized --platform x86-EPYC-Milan --out "$work/platform-run"
grep -q "runs adapters by name" <<<"$err" || fail "built-in on an emulated x86 CPU: $err"
expect_exit 2 run --backend onnxruntime-python --platform avx2 --out "$work/platform-run"
grep -q "needs an adapter whose library has an ISA knob (.*numpy-2.*), not 'onnxruntime-python'" \
  <<<"$err" || fail "cap without a knob: $err"
# Which kernel sets this CPU runs: portable always.
expect_exit 0 list --kernel-sets
grep -q "^kernel sets run: portable" <<<"$out" || fail "list --kernel-sets: $out"

echo "cli contract: $failures failed"
[ "$failures" -eq 0 ]
