# clusterrun: the proof of a run's launch agent. The agent runs it inside the container before
# the Open MPI daemon: it checks the run id and the job's mounts, prints one line on stderr for
# the head (ending "ok joined" in a container begun during the checks), and execs the daemon.
# Parameters (set by the line above): RUN_ID COUNT MOUNT_TARGET... (COUNT of them), then the
# daemon's command. POSIX sh, only builtins and readlink: the image may be minimal.
id=$1
n=$2
shift 2
why=''
if [ "${CLUSTERRUN_RUN_ID-}" != "$id" ]; then
  why="$why CLUSTERRUN_RUN_ID is '${CLUSTERRUN_RUN_ID-}';"
fi
i=0
while [ "$i" -lt "$n" ]; do
  m=$1
  shift
  i=$((i + 1))
  [ -n "$m" ] || continue
  found=''
  while read -r _ _ _ _ mp _; do
    if [ "$mp" = "$m" ]; then found=y; break; fi
  done < /proc/self/mountinfo
  [ -n "$found" ] || why="$why $m is not mounted;"
done
host=-
read -r host < /proc/sys/kernel/hostname 2>/dev/null || host=-
ns=$(readlink /proc/self/ns/mnt 2>/dev/null) || ns=''
[ -n "$ns" ] || ns=-
if [ -n "$why" ]; then
  printf '%s %s %s %s fail%s\n' clusterrun-proof "$id" "$host" "$ns" "$why" >&2
  exit 3
fi
# Joined: the container was begun during the checks (agent-join.sh), said after the verdict.
how=''
if [ "${CLUSTERRUN_JOINED-}" = 1 ]; then how=' joined'; fi
unset CLUSTERRUN_JOINED
printf '%s %s %s %s ok%s\n' clusterrun-proof "$id" "$host" "$ns" "$how" >&2
exec "$@"
