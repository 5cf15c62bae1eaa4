# clusterrun: the watcher that ties a run to clusterrun's life (Lifeline). Waits for its input to
# end, then stops the run's processes twice, a second apart (reap_run comes before, reap.sh); a
# first line DONE instead means the run ended in order: it exits and stops nothing.
# Parameters (set by the first line): RUN_ID DONE. POSIX sh.
trap '' HUP INT TERM PIPE
IFS= read -r cr_line
[ "$cr_line" = "$2" ] && exit 0
exec >/dev/null 2>&1 </dev/null
( reap_run "$1" )
sleep 1
( reap_run "$1" )
exit 0
