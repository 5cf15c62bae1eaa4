# clusterrun: starts a command on the head with its standard output and error in two regular files
# (Spool) instead of pipes. Open MPI's mpirun (ORTE, PRRTE and PMIx alike) makes one last
# non-blocking write of the output it still holds when it ends and drops the rest when that write
# is short, which a full pipe makes it; a file takes every byte. Parameters: the output file, the
# error file, then the command's words. POSIX sh.
cr_out=$1
cr_err=$2
shift 2
exec "$@" >>"$cr_out" 2>>"$cr_err"
