# clusterrun: what each rank of the canary prints (Canary): TAG, then its hostname, its mount
# namespace, the run id it sees and the token it reads from the run directory, NONE for one it
# lacks. Parameters (set by the first line): TOKEN_FILE (as the container sees it) TAG NONE.
# POSIX sh.
t=$(cat "$1" 2>/dev/null)
h=$(hostname 2>/dev/null || cat /proc/sys/kernel/hostname)
printf '%s %s %s %s %s\n' "$2" "$h" "$(readlink /proc/self/ns/mnt)" "${CLUSTERRUN_RUN_ID:-$3}" "${t:-$3}"
