# clusterrun: the one way to find a run's processes on a node (RunProcesses). Functions only: the
# script put after this one calls them. POSIX sh.
#
# A process of a run is one of this user's that carries the run id in its environment (the launch
# agent puts it there for every remote daemon, the head's `enroot start` for mpirun, and the ranks
# inherit it) or as a word of its command line (the head's ssh to a node while it starts the daemon
# there). The variable's name is put together when the script runs and reaches grep on its
# standard input: the shell running this, and the login shell around it, must not look like a
# process of a run. A run id is <time>-<job>-<hex>, job names are [A-Za-z0-9._-].

# run_id_lines NAME: every NAME=ID in every process's environment and command line, each as
# FILE:NAME=ID, NUL-terminated. One grep over them all: reading a few processes per PID took
# seconds on a node with hundreds.
run_id_lines() {
  # shellcheck disable=SC2062 # the files of a glob; the pattern comes on standard input (-f -)
  printf '^%s=[A-Za-z0-9._-]+$\n' "$1" | grep -zoEH -f - /proc/[0-9]*/environ
  # shellcheck disable=SC2062 # likewise
  printf '%s=[A-Za-z0-9._-]+\n' "$1" | grep -zoEH -f - /proc/[0-9]*/cmdline
}

# run_processes WANT NETWORK: prints the words PID:RUN_ID, one per process of this user (not this
# script's shell) that carries a run id; only WANT's when WANT is not empty. NETWORK `same`: only
# processes in this shell's network namespace (nodes that share one PID space, namespace nodes on
# one machine, then each see only their own; on a real node every process of a job is in the
# node's namespace, since enroot makes none); `any`: wherever they are.
run_processes() {
  want=$1
  v=CLUSTERRUN_; v=${v}RUN_ID
  me=$$
  net=$(readlink "/proc/$me/ns/net" 2>/dev/null)
  found=''
  for e in $( { run_id_lines "$v"; } 2>/dev/null | tr '\000' '\n'); do
    f=${e%%:*}
    id=${e#*:}
    id=${id#*=}
    [ -n "$id" ] || continue
    [ -z "$want" ] || [ "$id" = "$want" ] || continue
    d=${f%/*}
    p=${d#/proc/}
    [ "$p" = "$me" ] && continue
    [ -O "$d" ] || continue
    if [ "$2" = same ]; then
      [ "$(readlink "$d/ns/net" 2>/dev/null)" = "$net" ] || continue
    fi
    case " $found " in *" $p:"*) continue ;; esac
    found="$found $p:$id"
  done
  printf '%s\n' "$found"
}

# pids_of WORDS: the PIDs of run_processes' words.
pids_of() {
  pids=''
  for e in $1; do pids="$pids ${e%%:*}"; done
  printf '%s\n' "$pids"
}
