# clusterrun: the last round of `stop` on a node (JobsFlow): prints the PIDs of the run's processes
# still here, on one line (nothing when none is). run_processes and pids_of come before
# (run-processes.sh).
# Parameters (set by the first line): RUN_ID. POSIX sh.
pids=$(pids_of "$(run_processes "$1" any)")
# shellcheck disable=SC2086 # one PID a word, printed on one line
echo $pids
