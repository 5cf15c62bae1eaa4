# clusterrun: a node's container begun during the checks (WarmStart), held for the run's daemon to
# join (agent-join.sh). Runs on the node over clusterrun's connection, its standard input a pipe
# only clusterrun holds: the container's first process writes nothing and reads that input, so it
# ends when clusterrun closes it or ends, however it ends. The container carries no run id: the
# search for a run's leftovers never meets it; the daemon that joins it gets the run id itself.
# Parameters (set by the first line): RUN KEY, then the words that start the container (env
# SETTING... enroot start FLAGS... CONTAINER). Leaves, while the container runs, the file
# DIR/RUN.warm ("PID KEY STAT": its first process, the words' key, the container file's identity)
# in a directory of this user only; DIR/RUN.warm.starting names this shell while it starts. POSIX
# sh.
run=$1 key=$2
shift 2
d=${XDG_RUNTIME_DIR:-/tmp}/clusterrun-$(id -u)
mkdir -m 0700 "$d" 2>/dev/null
# A directory of this user's own, never one that another user made or a link.
if [ ! -d "$d" ] || [ -L "$d" ] || [ ! -O "$d" ]; then exit 0; fi
f=$d/$run.warm
for w in "$@"; do c=$w; done
st=$(stat -L -c '%d.%i.%s.%Y' -- "$c" 2>/dev/null) || st=-
printf '%s\n' "$$" >"$f.starting"
# The container's first process: its PID (the same on the host: enroot makes no PID namespace),
# then a wait for the end of its input.
# shellcheck disable=SC2016 # $$ is the container's shell's own
"$@" /bin/sh -c 'echo "$$"; while read -r _; do :; done' 2>/dev/null | {
  if IFS= read -r pid; then
    printf '%s %s %s\n' "$pid" "$key" "$st" >"$f.part" && mv -f "$f.part" "$f"
  fi
  rm -f "$f.starting"
  cat >/dev/null
}
rm -f "$f" "$f.part" "$f.starting"
