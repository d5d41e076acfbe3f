#!/usr/bin/env bash
# The ARM64 platform's install step (scripts/install_dependencies.sh --platform arm64 runs it):
# a Debian 12 arm64 root filesystem under .arm64/ (ELTWISE_ARM64 overrides the folder), run through
# qemu-user-static and binfmt_misc, with the adapters' Python packages from the same hashed lock
# (aarch64 wheels) in its /opt/venv. Idempotent: each stage leaves a stamp, and a second run with
# the same lock does nothing. Nothing else downloads: scripts/arm64_exec.sh only runs what is here.
#
# Wrinkles handled here (docs/platforms.md):
# - this machine may reach the package index through its own CA certificates
#   (/usr/local/share/ca-certificates): they are copied into the root filesystem;
# - the host's PIP_* and proxy settings must not leak into the chroot: pip runs under `env -i`;
# - some libraries (ONNX Runtime, LiteRT's XNNPACK) crash reading the host's x86 /proc/cpuinfo:
#   an ARM one is written here, and arm64_exec.sh binds it over /proc/cpuinfo;
# - mounts exist only in a private mount namespace (unshare), so nothing is left mounted.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
arm64="${ELTWISE_ARM64:-$root/.arm64}"
rootfs="$arm64/rootfs"
locks="$root/backends/adapters"
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)

say() { echo "install_arm64: $*"; }

install_host_packages() {
  local p missing=()
  for p in qemu-user-static binfmt-support debootstrap; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return
  say "installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}"
}

# binfmt_misc lets the kernel start aarch64 programs through qemu-aarch64-static (flag F: the
# interpreter is opened at registration, so it need not be inside the root filesystem).
enable_binfmt() {
  if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
    "${sudo_cmd[@]}" mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
  fi
  [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || "${sudo_cmd[@]}" update-binfmts --enable qemu-aarch64
}

# The mirror of this machine's own apt sources (deb822 or one-line format).
debian_mirror() {
  local uri
  uri="$(grep -h -E '^(URIs:|deb )' /etc/apt/sources.list.d/*.sources /etc/apt/sources.list \
    2>/dev/null | grep -v security | head -1 | awk '{print $2}')"
  echo "${uri:-http://deb.debian.org/debian}"
}

make_rootfs() {
  [ -f "$rootfs/.eltwise-debootstrap" ] && return
  say "debootstrap bookworm arm64 into $rootfs (several minutes, once)"
  "${sudo_cmd[@]}" rm -rf "$rootfs.partial"
  mkdir -p "$arm64"
  "${sudo_cmd[@]}" debootstrap --arch=arm64 --variant=minbase \
    --include=python3,python3-venv,python3-pip,ca-certificates \
    bookworm "$rootfs.partial" "$(debian_mirror)"
  "${sudo_cmd[@]}" rm -rf "$rootfs"
  "${sudo_cmd[@]}" mv "$rootfs.partial" "$rootfs"
  touch "$rootfs/.eltwise-debootstrap"
}

# Runs a command in the root filesystem with a clean environment (the host's PIP_* stays out).
in_rootfs() {
  "$root/scripts/arm64_exec.sh" --no-cpuinfo "$@"
}

copy_ca_certificates() {
  local ca=/usr/local/share/ca-certificates
  [ -d "$ca" ] || return 0
  "${sudo_cmd[@]}" cp -a "$ca/." "$rootfs$ca/"
  in_rootfs /usr/sbin/update-ca-certificates >/dev/null
}

# An ARM /proc/cpuinfo for the libraries that read it (the probe saw ONNX Runtime and LiteRT's
# XNNPACK crash on the host's x86 one). Part 0xd0c is Neoverse N1; the Features line lists the
# HWCAP names the emulated CPUs share. Libraries read the real features from HWCAP, not here.
write_cpuinfo() {
  local n
  : > "$arm64/cpuinfo"
  for n in $(seq 0 $(($(nproc) - 1))); do
    cat >> "$arm64/cpuinfo" <<EOF
processor	: $n
BogoMIPS	: 50.00
Features	: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp
CPU implementer	: 0x41
CPU architecture: 8
CPU variant	: 0x3
CPU part	: 0xd0c
CPU revision	: 1

EOF
  done
}

# The same locks and the same two steps as .venv/ (scripts/install_dependencies.sh): pip installs
# uv from uv-bootstrap.lock, uv syncs requirements.lock (universal: its aarch64 hashes too; the
# lines marked x86_64, without an aarch64 wheel of the locked release, are skipped).
install_python_packages() {
  local venv="$rootfs/opt/venv" stamp="$rootfs/opt/venv/.eltwise-lock-hash" want
  want="$(cat "$locks/uv-bootstrap.lock" "$locks/requirements.lock" | sha256sum | cut -d' ' -f1)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    say "$venv is up to date"
    return
  fi
  say "Python packages into $venv (aarch64 wheels, under emulation)"
  [ -x "$venv/bin/python" ] || in_rootfs /usr/bin/python3 -m venv /opt/venv
  "${sudo_cmd[@]}" cp "$locks/uv-bootstrap.lock" "$locks/requirements.lock" "$rootfs/opt/"
  in_rootfs /opt/venv/bin/python -m pip install -q --disable-pip-version-check --no-deps \
    --require-hashes -r /opt/uv-bootstrap.lock
  # uv trusts its own roots unless told: the root filesystem's store has this machine's CAs too.
  in_rootfs /usr/bin/env SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt /opt/venv/bin/uv pip sync -q --python /opt/venv/bin/python --require-hashes \
    /opt/requirements.lock
  echo "$want" | "${sudo_cmd[@]}" tee "$stamp" >/dev/null
}

install_host_packages
enable_binfmt
make_rootfs
write_cpuinfo
copy_ca_certificates
install_python_packages
say "ready: $rootfs"
