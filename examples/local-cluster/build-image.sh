#!/usr/bin/env bash
# Builds a real enroot container image (squashfs) for running the local-cluster ITs against a
# REAL enroot instead of the stand-in: a minimal Debian (debootstrap) with openmpi-bin,
# openssh-client, python3 (per-node's rendezvous), hpcc (BenchIT) and libopenmpi-dev (mpicc, which
# `clusterrun screen` compiles its program with: ScreenIT), the same Open MPI as the Debian 12 host
# that compiles the test program.
#
#   sudo examples/local-cluster/build-image.sh [OUTPUT.sqsh]     (default: build/clusterrun-mpi.sqsh)
#   CLUSTERRUN_IT_REAL_ENROOT=1 CLUSTERRUN_IT_IMAGE=OUTPUT.sqsh mvn ... verify -DskipITs=false
#
# Opt-in only: it downloads Debian packages and takes minutes, so the default CI path never runs it.
# Environment: SUITE (default bookworm), MIRROR (default http://deb.debian.org/debian).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/build/clusterrun-mpi.sqsh}
suite=${SUITE:-bookworm}
mirror=${MIRROR:-http://deb.debian.org/debian}

[[ $(id -u) -eq 0 ]] || { echo "build-image.sh: must run as root (debootstrap)" >&2; exit 1; }
for c in debootstrap mksquashfs; do
  command -v "$c" >/dev/null || { echo "build-image.sh: missing $c (install-deps.sh --with-debootstrap)" >&2; exit 1; }
done

root=$(mktemp -d /var/tmp/clusterrun-image.XXXXXX)
chmod 0755 "$root"
cleanup() {
  # debootstrap may leave /proc or /sys mounted inside the tree when it fails
  for m in proc sys dev/pts dev; do umount -l "$root/$m" 2>/dev/null || true; done
  rm -rf --one-file-system "$root"
}
trap cleanup EXIT

echo "build-image.sh: debootstrap $suite into $root (this takes a few minutes)" >&2
debootstrap --variant=minbase --include=openmpi-bin,openssh-client,procps,python3,hpcc \
  "$suite" "$root" "$mirror" >"$root.log" 2>&1 || { tail -20 "$root.log" >&2; rm -f "$root.log"; exit 1; }
rm -f "$root.log"
# mpicc (and the gcc it calls) with apt, not debootstrap: debootstrap's --include cannot order the development packages'
# configuration (libltdl-dev fails there).
mount -t proc proc "$root/proc"
chroot "$root" sh -c 'apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends libopenmpi-dev gcc libc6-dev' \
  >"$root.log" 2>&1 || { tail -20 "$root.log" >&2; rm -f "$root.log"; exit 1; }
umount "$root/proc"
rm -f "$root.log"

# Keep the image small and unprivileged-friendly: no package caches, no device nodes (enroot
# provides /dev), mount points for the local cluster's shared directory.
chroot "$root" apt-get clean
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/* "$root"/var/log/*
find "$root/dev" -mindepth 1 -delete
mkdir -p "$root/srv/clusterrun-lc/shared" "$root/home"
echo "CLUSTERRUN_IMAGE=clusterrun-mpi:$suite" >>"$root/etc/environment"

mkdir -p "$(dirname "$out")"
rm -f "$out"
mksquashfs "$root" "$out" -noappend -quiet -no-progress >/dev/null
echo "$out"
