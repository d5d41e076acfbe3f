#!/usr/bin/env bash
# Runs one command inside the arm64 root filesystem that scripts/install_arm64.sh made, emulated
# by qemu-aarch64 through binfmt_misc: `run --platform arm64[-CPU]` starts adapters with it.
#   arm64_exec.sh [--cpu MODEL] [--no-cpuinfo] COMMAND ARGS...
# --cpu: QEMU's CPU model (QEMU_CPU), default `max`. The mounts live in a private mount namespace
# (unshare), so they vanish with the command: nothing to tear down, nothing left behind. Inside:
# /proc (the output region is a memfd the adapter opens through /proc/<pid>/fd), /dev (with
# /dev/shm, the scratch folder of the tensors), /sys, this project's folder and /tmp at their
# host paths (the command starts in the current folder when it is in one of them, else in /),
# and an ARM /proc/cpuinfo (--no-cpuinfo: the host's). The environment is emptied
# (the host's PIP_* and proxies stay out) but for PYTHONPATH, which carries the adapter kit.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
arm64="${ELTWISE_ARM64:-$root/.arm64}"
rootfs="$arm64/rootfs"
cpu=max
cpuinfo=1
while [ $# -gt 0 ]; do
  case "$1" in
    --cpu) cpu="$2"; shift 2 ;;
    --no-cpuinfo) cpuinfo=0; shift ;;
    --) shift; break ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || { echo "arm64_exec.sh: no command given" >&2; exit 2; }
if [ ! -x "$rootfs/usr/bin/python3" ]; then
  echo "arm64_exec.sh: no arm64 root filesystem at $rootfs; run scripts/install_dependencies.sh --platform arm64" >&2
  exit 2
fi
if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
  echo "arm64_exec.sh: qemu-aarch64 is not registered with binfmt_misc; run scripts/install_dependencies.sh --platform arm64" >&2
  exit 2
fi
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo -E)

# The mounts, then the command, in one shell inside the new namespace.
inner='set -e
r="$ELTWISE_ROOTFS"
mount -t proc proc "$r/proc"
mount --rbind /dev "$r/dev" && mount --make-rslave "$r/dev"
mount -t sysfs sysfs "$r/sys"
for d in "$ELTWISE_PROJECT" /tmp; do mkdir -p "$r$d" && mount --bind "$d" "$r$d"; done
[ "$ELTWISE_CPUINFO" = 1 ] && mount --bind "$ELTWISE_ARM64/cpuinfo" "$r/proc/cpuinfo"
case "$ELTWISE_CWD" in "$ELTWISE_PROJECT"|"$ELTWISE_PROJECT"/*|/tmp|/tmp/*) ;; *) ELTWISE_CWD=/ ;; esac
cp /etc/resolv.conf "$r/etc/resolv.conf" 2>/dev/null || true
exec unshare --root="$r" --wd="$ELTWISE_CWD" /usr/bin/env -i PATH=/opt/venv/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
  LANG=C.UTF-8 QEMU_CPU="$ELTWISE_QEMU_CPU" PYTHONPATH="$ELTWISE_PYTHONPATH" "$@"'
exec "${sudo_cmd[@]}" env ELTWISE_ROOTFS="$rootfs" ELTWISE_PROJECT="$root" ELTWISE_ARM64="$arm64" \
  ELTWISE_CPUINFO="$cpuinfo" ELTWISE_CWD="$PWD" ELTWISE_QEMU_CPU="$cpu" ELTWISE_PYTHONPATH="${PYTHONPATH:-}" \
  unshare --mount --propagation private sh -c "$inner" arm64_exec "$@"
