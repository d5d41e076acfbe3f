#!/usr/bin/env bash
# What QEMU's user-mode x86-64 emulation does with instructions (label x86-emulated; needs
# scripts/install_dependencies.sh --platform x86): docs/platforms.md builds its claims on these.
#   emulated_isa_test.sh PROBE CPU_PROBE
# 1. EPYC-Milan's CPUID has AVX2 and no AVX-512, as eltwise-cpu-probe reads it;
# 2. an AVX-512 instruction is SIGILL on it (TCG has no AVX-512): no library can take an AVX-512
#    path there unnoticed;
# 3. an AVX2 instruction is SIGILL on SandyBridge (AVX, no AVX2) and executes on Haswell: QEMU
#    enforces the model for this encoding too, so a library that ignored CPUID would crash.
set -uo pipefail
probe="$1" cpu_probe="$2"
run="$(dirname "$0")/../../scripts/x86_exec.sh"
fail() { echo "FAIL: $*" >&2; exit 1; }

features="$("$run" --cpu EPYC-Milan "$cpu_probe")" || fail "eltwise-cpu-probe on EPYC-Milan"
grep -qw avx2 <<< "$features" || fail "EPYC-Milan without avx2: $features"
! grep -qw avx512f <<< "$features" || fail "EPYC-Milan with avx512f: $features"

"$run" --cpu EPYC-Milan "$probe" avx512 >/dev/null 2>&1
status=$?
[ "$status" -eq 132 ] || fail "an AVX-512 instruction on EPYC-Milan exited $status, not SIGILL (132)"

"$run" --cpu SandyBridge "$probe" avx2 >/dev/null 2>&1
status=$?
[ "$status" -eq 132 ] || fail "an AVX2 instruction on SandyBridge exited $status, not SIGILL (132)"
out="$("$run" --cpu Haswell "$probe" avx2)" || fail "an AVX2 instruction on Haswell faulted"
[ "$out" = "executed avx2: 2" ] || fail "Haswell avx2: '$out'"
echo "emulated x86: CPUID as modelled; AVX-512 faults on every model, AVX2 on models before Haswell"
