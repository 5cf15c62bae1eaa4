# clusterrun: the launch agent's first step on a node, before the container (WarmStart). When the
# run's container was begun on this node during the checks (warm-hold.sh) with the same words, the
# daemon joins it (enroot exec PID: its namespaces and environment, the hooks already run);
# otherwise the container starts as it always did. Parameters (set by the line above): KEY COUNT,
# then the agent's own words: enroot start FLAGS... CONTAINER (COUNT words) and the command. Runs
# on the node's host with the run id in its environment. POSIX sh.
key=$1 n=$2
shift 2
run=${CLUSTERRUN_RUN_ID-}
d=${XDG_RUNTIME_DIR:-/tmp}/clusterrun-$(id -u)
f=$d/$run.warm
if [ -n "$run" ] && [ -d "$d" ] && [ ! -L "$d" ] && [ -O "$d" ]; then
  # A start still under way is waited for while its shell runs (at most 10 minutes).
  i=0
  while [ ! -e "$f" ] && [ "$i" -lt 12000 ]; do
    w=''
    { IFS= read -r w <"$f.starting"; } 2>/dev/null || break
    kill -0 "$w" 2>/dev/null || break
    sleep 0.05
    i=$((i + 1))
  done
  pid='' k='' st=''
  { read -r pid k st <"$f"; } 2>/dev/null
  if [ -n "$pid" ] && [ "$k" = "$key" ] && kill -0 "$pid" 2>/dev/null; then
    j=0 c=-
    for w in "$@"; do
      j=$((j + 1))
      if [ "$j" -eq "$n" ]; then c=$w; fi
    done
    now=$(stat -L -c '%d.%i.%s.%Y' -- "$c" 2>/dev/null) || now=-
    mine=$(readlink /proc/self/ns/mnt)
    its=$(readlink "/proc/$pid/ns/mnt" 2>/dev/null) || its=$mine
    if [ "$now" = "$st" ] && [ "$its" != "$mine" ]; then
      shift "$n"
      CLUSTERRUN_JOINED=1
      export CLUSTERRUN_JOINED
      exec enroot exec -e CLUSTERRUN_RUN_ID -e CLUSTERRUN_JOINED "$pid" "$@"
    fi
  fi
fi
exec "$@"
