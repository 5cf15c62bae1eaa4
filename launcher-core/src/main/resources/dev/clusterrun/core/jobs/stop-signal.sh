# clusterrun: the first round of `stop` on a node (JobsFlow): prints "found N", the number of the
# run's processes here, and signals the run's mpirun here (only the head has one), printing
# "signalled PID...", then waits up to GRACE tenths of a second for it to end. run_processes and
# pids_of come before (run-processes.sh).
# Parameters (set by the first line): RUN_ID SIGNAL GRACE. POSIX sh.
pids=$(pids_of "$(run_processes "$1" same)")
n=0; mp=''
for p in $pids; do
  n=$((n+1))
  case $(cat "/proc/$p/comm" 2>/dev/null) in mpirun|prterun|orterun|mpiexec) mp="$mp $p" ;; esac
done
printf 'found %s\n' "$n"
[ -n "$mp" ] || exit 0
# shellcheck disable=SC2086 # one PID a word
kill -"$2" $mp 2>/dev/null
printf 'signalled%s\n' "$mp"
i=0
while [ "$i" -lt "$3" ]; do
  alive=''
  for p in $mp; do [ -d "/proc/$p" ] && alive="$alive $p"; done
  [ -z "$alive" ] && exit 0
  sleep 0.1; i=$((i+1))
done
exit 0
