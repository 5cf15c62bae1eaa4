#!/usr/bin/env bash
# Installs what examples/local-cluster/cluster.sh and the integration tests need on Debian 12
# (CI starts from a fresh Debian with only Java and Maven). Idempotent and quiet: installs only
# the packages that are missing. Run as root (or with sudo available).
set -euo pipefail

# chromium: BenchIT renders `clusterrun results report --html` in headless Chromium.
# python3: PerNodeIT's rendezvous program (the stand-in's containers use the node's /usr).
# strace: FactScriptGoldenTest counts the processes the fact script starts.
readonly PACKAGES=(openssh-server openssh-client openmpi-bin libopenmpi-dev iproute2 util-linux
  squashfs-tools procps psmisc sudo hpcc squashfuse fuse-overlayfs man-db bash-completion
  chromium python3 strace)
# squashfuse and fuse-overlayfs: what enroot uses to start a container from an IMAGE.sqsh (the
# stand-in too, when the machine lets the nodes open /dev/fuse; perl-base, always there, runs the
# stand-in's enroot-mount and enroot-switchroot). man-db and bash-completion: DebPackageIT reads
# the installed man pages and completion.
# debootstrap is needed only by build-image.sh (a real enroot image); ask with --with-debootstrap.

pkgs=("${PACKAGES[@]}")
if [[ ${1:-} == --with-debootstrap ]]; then pkgs+=(debootstrap); fi

missing=()
for p in "${pkgs[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi

sudo=()
if [[ $(id -u) -ne 0 ]]; then sudo=(sudo -n); fi
export DEBIAN_FRONTEND=noninteractive
echo "install-deps: installing ${missing[*]}" >&2
"${sudo[@]}" apt-get update -qq >/dev/null
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
# The Debian package starts sshd on the host at install; the cluster runs its own sshd per node
# and does not need the host's (leave it as the package set it up).
