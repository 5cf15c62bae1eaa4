# clusterrun: runs a script with /bin/sh as root: directly when already uid 0, else through
# `sudo -n` (never prompting). When neither works it exits 97 with one line on stderr.
# Parameters (set by the line above): SCRIPT.
p=$1
if [ "$(id -u)" = 0 ]; then
    exec /bin/sh -c "$p"
fi
if ! command -v sudo >/dev/null 2>&1; then
    echo 'clusterrun-needs-root: not root, and sudo is not installed' >&2
    exit 97
fi
if ! out=$(sudo -n true 2>&1); then
    printf 'clusterrun-needs-root: sudo -n failed: %s\n' "$out" >&2
    exit 97
fi
exec sudo -n /bin/sh -c "$p"
