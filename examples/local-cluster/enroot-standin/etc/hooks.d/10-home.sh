#!/usr/bin/env bash
# Standard pre-start hook of the enroot STAND-IN (our own code; it behaves like enroot 4.1.2's
# packaged hooks.d/10-home.sh): with ENROOT_MOUNT_HOME set, the caller's home directory is bound
# into the container (x-create=dir,bind,rw,nosuid) at the same path, or at /root with
# ENROOT_REMAP_ROOT, and HOME is set to that path in the container.
set -eu

[ -n "${ENROOT_MOUNT_HOME-}" ] || exit 0
command -v getent >/dev/null || { echo "[ERROR] Command not found: getent" >&2; exit 1; }

if [ -z "${HOME-}" ]; then
    read -r _ outside_uid _ </proc/self/uid_map
    HOME=$(getent passwd "$outside_uid" | cut -d: -f6)
fi
if [ -n "${ENROOT_REMAP_ROOT-}" ]; then
    target=/root
else
    target=$HOME
fi
printf '%s %s none x-create=dir,bind,rw,nosuid\n' "$HOME" "$target" >>"$ENROOT_MOUNTS"
printf 'HOME=%s\n' "$target" >>"$ENROOT_ENVIRON"
