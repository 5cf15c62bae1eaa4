# clusterrun: how each rank of `screen` starts the program (ScreenFlow). Parameters (after $0):
# SOURCE (the program's C source as the container sees it), BINARY (where the compiled program is
# kept, named from the source and the image), then the program's own words. The first use of an
# image compiles it: rank 0 runs the container's mpicc once, the other ranks wait for the binary
# (at most 120 s). The program runs as a child, not by exec, since it starts a session of its own
# (screen.c); the signals that stop a job are passed on to it. POSIX sh.
src=$1 bin=$2
shift 2
if [ ! -x "$bin" ]; then
  if [ "${OMPI_COMM_WORLD_RANK:-0}" = 0 ]; then
    if ! { mpicc -O3 -o "$bin.$$" "$src" && mv -f "$bin.$$" "$bin"; }; then
      echo "clusterrun-screen: mpicc could not compile $src" >&2
      exit 1
    fi
  else
    i=0
    while [ ! -x "$bin" ]; do
      i=$((i + 1))
      if [ $i -gt 1200 ]; then
        echo "clusterrun-screen: $bin did not appear" >&2
        exit 1
      fi
      sleep 0.1
    done
  fi
fi
"$bin" "$@" &
pid=$!
trap 'kill -TERM $pid 2>/dev/null' TERM INT HUP
wait $pid
rc=$?
while kill -0 $pid 2>/dev/null; do
  wait $pid
  rc=$?
done
exit $rc
