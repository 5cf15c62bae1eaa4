# clusterrun: the watcher that ties a run to clusterrun's life (Lifeline). Waits for its input to
# end, then stops the run's processes twice, a second apart (reap_run comes before, reap.sh), and
# appends what it stopped to RECORD when it can write there (the run directory, which the nodes
# share; else nowhere); a first line DONE instead means the run ended in order: it exits, stops
# nothing and writes nothing. ROLE `head`: on clusterrun's own node, where the end of input means
# clusterrun ended; `node`: on another node, where it may also mean the connection was lost.
# Parameters (set by the first line): RUN_ID DONE RECORD ROLE. POSIX sh.
trap '' HUP INT TERM PIPE
IFS= read -r cr_line
[ "$cr_line" = "$2" ] && exit 0
if ( : >>"$3" ) 2>/dev/null; then
  exec >>"$3" 2>/dev/null </dev/null
else
  exec >/dev/null 2>&1 </dev/null
fi
if [ "$4" = head ]; then
  cr_why='the head: clusterrun ended without ending the run; stopping its processes'
else
  cr_why='its connection from clusterrun ended (clusterrun ended, or the connection was lost); stopping the run'"'"'s processes here'
fi
printf '%s watcher on %s, %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$(uname -n)" "$cr_why"
( reap_run "$1" )
sleep 1
( reap_run "$1" )
printf '%s watcher on %s: done\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$(uname -n)"
exit 0
