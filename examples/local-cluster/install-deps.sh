#!/usr/bin/env bash
# Installs what examples/local-cluster/cluster.sh and the integration tests need on Debian 12
# (CI starts from a fresh Debian with only Java and Maven). Idempotent and quiet: installs only
# the packages that are missing. Run as root (or with sudo available).
set -euo pipefail

# chromium: BenchIT renders `clusterrun results report --html` in headless Chromium.
# python3: PerNodeIT's rendezvous program (the stand-in's containers use the node's /usr).
# strace: FactScriptGoldenTest counts the processes the fact script starts.
# And ShellcheckTest (in `mvn verify`) runs shellcheck on every shell script of the repository.
readonly PACKAGES=(openssh-server openssh-client openmpi-bin libopenmpi-dev iproute2 util-linux
  squashfs-tools procps psmisc sudo hpcc squashfuse fuse-overlayfs man-db bash-completion
  chromium python3 strace docker-registry skopeo umoci apache2-utils curl jq zstd shellcheck)
# squashfuse and fuse-overlayfs: what enroot uses to start a container from an IMAGE.sqsh (the
# stand-in too, when the machine lets the nodes open /dev/fuse; perl-base, always there, runs the
# stand-in's enroot-mount and enroot-switchroot). man-db and bash-completion: DebPackageIT reads
# the installed man pages and completion.
# docker-registry (Docker's distribution 2.8), skopeo, umoci and apache2-utils (htpasswd): the
# cluster's own image registries, and the images pushed into them. curl, jq and zstd: the enroot
# stand-in's import from a registry (what enroot's import needs).
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
# The docker-registry package starts its own registry service on port 5000 of every address, which
# would take the cluster's address and port: stop it and keep it off (the cluster runs its own).
if printf '%s\n' "${missing[@]}" | grep -qx docker-registry && command -v systemctl >/dev/null &&
  systemctl is-enabled docker-registry >/dev/null 2>&1; then
  "${sudo[@]}" systemctl disable --now docker-registry >/dev/null 2>&1 || true
fi
