# clusterrun: what this node runs of clusterrun's runs (RunScan), in one round. Prints
# "node USER BOOT HZ", then for each process of a run in this network namespace "proc PID PPID
# START RUN_ID COMM COMMAND", and for a head's mpirun "head RUN_ID PID START alive|gone": whether
# the clusterrun its mark names (PID and start ticks) still lives. Fields are tab-separated.
# run_processes comes before (run-processes.sh).
# Parameters (set by the first line): RUN_ID, or '' for every run. POSIX sh.
found=$(run_processes "$1" same)
hz=$(getconf CLK_TCK 2>/dev/null) || hz=100
bt=$(awk '/^btime /{print $2}' /proc/stat 2>/dev/null)
printf 'node\t%s\t%s\t%s\n' "$(id -un)" "${bt:-0}" "${hz:-100}"
# The head's mark: its name put together at run time too (see run-processes.sh).
hv=CLUSTERRUN_; hv=${hv}HEAD
for e in $found; do
  p=${e%%:*}; id=${e#*:}
  st=$(cat "/proc/$p/stat" 2>/dev/null) || continue
  # shellcheck disable=SC2086 # the fields of stat after the command, one a word
  set -- ${st##*) }
  [ "$1" = Z ] && continue
  pp=$2; shift 19; start=$1
  comm=$(cat "/proc/$p/comm" 2>/dev/null)
  c=$( { tr '\000' ' ' < "/proc/$p/cmdline"; } 2>/dev/null | cut -c1-300)
  printf 'proc\t%s\t%s\t%s\t%s\t%s\t%s\n' "$p" "$pp" "$start" "$id" "$comm" "$c"
  m=$( { printf '^%s=\n' "$hv" | grep -zE -f - "/proc/$p/environ"; } 2>/dev/null | tr -d '\000')
  m=${m#*=}
  [ -n "$m" ] || continue
  # shellcheck disable=SC2086 # the mark is "PID START", one a word
  set -- $m
  [ $# -eq 2 ] || continue
  hs=$(cat "/proc/$1/stat" 2>/dev/null); alive=gone
  # shellcheck disable=SC2086 # the fields of stat after the command, one a word
  if [ -n "$hs" ]; then set -- "$1" "$2" ${hs##*) }; [ "${22}" = "$2" ] && alive=alive; fi
  printf 'head\t%s\t%s\t%s\t%s\n' "$id" "$1" "$2" "$alive"
done
exit 0
