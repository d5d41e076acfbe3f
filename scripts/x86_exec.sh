#!/usr/bin/env bash
# Runs one command on an emulated x86-64 CPU model: QEMU's user mode (qemu-x86_64-static) with
# `-cpu MODEL`, on this machine's files and environment. `run --platform x86-MODEL` starts
# adapters with it, for libraries that pick kernels by CPUID and have no ISA knob.
#   x86_exec.sh --cpu MODEL COMMAND ARGS...
# What the emulation does and does not change (docs/platforms.md): CPUID reports MODEL's
# features; AVX-512 is SIGILL on every model (TCG has none), and AVX2 on models without it; a
# program the command starts with exec runs natively; /proc/cpuinfo is the host's.
set -euo pipefail

if [ "${1:-}" != --cpu ] || [ $# -lt 3 ]; then
  echo "usage: x86_exec.sh --cpu MODEL COMMAND ARGS... (models: qemu-x86_64-static -cpu help)" >&2
  exit 2
fi
cpu="$2"
shift 2
qemu=/usr/bin/qemu-x86_64-static
if [ ! -x "$qemu" ]; then
  echo "x86_exec.sh: $qemu is missing; install: scripts/install_dependencies.sh --platform x86" >&2
  exit 127
fi
# qemu-user loads a file, it does not search PATH.
program="$(command -v "$1")" || { echo "x86_exec.sh: no program '$1'" >&2; exit 127; }
shift
# TCG warns once per feature of the model that it does not emulate (pcid, x2apic, spec-ctrl...):
# system features no library picks arithmetic kernels by, so the warnings are left out.
exec "$qemu" -cpu "$cpu" "$program" "$@" 2> >(grep -v --line-buffered "TCG doesn't support requested feature" >&2)
