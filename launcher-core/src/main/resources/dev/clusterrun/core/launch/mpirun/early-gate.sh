# clusterrun: what the head's container runs when it is started early, during the checks
# (EarlyStart): it reads one line and runs it only when it is an exec; the end of its input, or any
# other line, exits 125 and runs nothing. The line holds the job's command on one line, each
# newline inside a word written as "$cr_nl". No parameters. POSIX sh.
IFS= read -r cr_go || exit 125
# shellcheck disable=SC2034 # read by the line that eval runs, not by this text
cr_nl='
'
case $cr_go in 'exec '*) eval "$cr_go" ;; esac
exit 125
