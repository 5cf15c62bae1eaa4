#!/usr/bin/env bash
# Standard pre-start hook of the enroot STAND-IN (our own code, a smaller counterpart of enroot
# 4.1.2's packaged hooks.d/10-shadow.sh): the caller (as the host knows them) gets an entry in the
# container's /etc/passwd and /etc/group, and a home directory inside the container made from its
# /etc/skel, so that login defaults, ssh and `id` work there. Unlike enroot's hook it only adds
# what is missing (enroot rewrites both files with root, nobody and the caller first).
set -eu

read -r _ uid _ </proc/self/uid_map
read -r _ gid _ </proc/self/gid_map
pwent=$(getent passwd "$uid") || { echo "[ERROR] No passwd entry for uid $uid" >&2; exit 1; }
grent=$(getent group "$gid") || grent="$(id -gn 2>/dev/null || echo "g$gid"):x:$gid:"
IFS=: read -r user _ _ _ gecos home shell <<<"$pwent"
IFS=: read -r group _ _ _ <<<"$grent"

root=$ENROOT_ROOTFS
[ -x "$root$shell" ] || shell=/bin/sh
has_id() { [ -f "$2" ] && awk -F: -v id="$1" '$3 == id { found = 1 } END { exit !found }' "$2"; }
if ! has_id "$uid" "$root/etc/passwd"; then
    mkdir -p "$root/etc"
    printf '%s:x:%s:%s:%s:%s:%s\n' "$user" "$uid" "$gid" "$gecos" "$home" "$shell" >>"$root/etc/passwd"
fi
if ! has_id "$gid" "$root/etc/group"; then
    printf '%s:x:%s:\n' "$group" "$gid" >>"$root/etc/group"
fi
if [ ! -e "$root$home" ]; then
    # With the container's UMASK from its login.defs (077 without one), as enroot's hook.
    mask=$(awk '$1 == "UMASK" { print $2; exit }' "$root/etc/login.defs" 2>/dev/null || true)
    (umask "${mask:-077}" && mkdir -p "$root$home")
    if [ -d "$root/etc/skel" ]; then cp -Lpr "$root/etc/skel/." "$root$home" 2>/dev/null || :; fi
fi
