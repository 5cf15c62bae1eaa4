# clusterrun: stops what a run left on a node (RemoteReaper). A function only: the script put after
# this one calls it; run_processes comes before (run-processes.sh). POSIX sh.
#
# reap_run RUN_ID: prints "leftover PID COMMAND" for each process of the run (COMMAND "(exiting)"
# for one that ended while it was read, "(no command line)" for a running one without), sends
# them SIGTERM,
# and after 2 s prints "survivor PID" for each still running and sends it SIGKILL; then exits 0.
# Processes are found and killed by PID, never by pattern.
reap_run() {
  found=$(pids_of "$(run_processes "$1" any)")
  for p in $found; do
    c=$( { tr '\000' ' ' < "/proc/$p/cmdline"; } 2>/dev/null | cut -c1-300)
    # No command line: gone or a zombie since it was found (it was ending by itself), or a running
    # process that cleared its own.
    if [ -z "$c" ]; then
      if running "$p"; then c='(no command line)'; else c='(exiting)'; fi
    fi
    printf 'leftover %s %s\n' "$p" "$c"
  done
  [ -n "$found" ] || exit 0
  # shellcheck disable=SC2086 # one PID a word
  kill -TERM $found 2>/dev/null
  i=0
  while [ "$i" -lt 20 ]; do
    alive=''
    for p in $found; do running "$p" && alive="$alive $p"; done
    [ -z "$alive" ] && exit 0
    sleep 0.1; i=$((i+1))
  done
  for p in $alive; do printf 'survivor %s\n' "$p"; done
  # shellcheck disable=SC2086 # one PID a word
  kill -KILL $alive 2>/dev/null
  exit 0
}

# running PID: whether PID still runs. A process that has ended but that its parent has not reaped
# yet (a zombie: its parent busy or stopped, or init slow to reap) is still in /proc, and would
# otherwise be waited for and named a survivor.
running() {
  { IFS= read -r cr_stat <"/proc/$1/stat"; } 2>/dev/null || return 1
  cr_stat=${cr_stat##*) }
  [ "${cr_stat%% *}" != Z ]
}
