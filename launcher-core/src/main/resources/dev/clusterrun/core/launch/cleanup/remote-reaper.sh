# clusterrun: stops every process of run RUN_ID on this node (RemoteReaper); reap_run comes before
# (reap.sh). Parameters (set by the first line): RUN_ID. POSIX sh.
reap_run "$1"
