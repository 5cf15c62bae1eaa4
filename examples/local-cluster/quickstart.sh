#!/usr/bin/env bash
# clusterrun in one command, on one machine: a 3-node local cluster, `clusterrun setup`, then the
# real MPI job examples/hello-mpi.yaml with every rank inside an enroot container.
#
#   sudo examples/local-cluster/quickstart.sh            # fresh Debian 12, as root
#
# It installs what is missing (install-deps.sh; a JDK 17 and Maven when there are none), builds
# clusterrun (mvn package), brings up node1..node3 (cluster.sh up 3: replaces any local cluster
# already up), installs clusterrun into the shared directory, makes the test image, compiles the
# MPI ring program into the job's workspace, then, as the job user on node1 (the head):
#   clusterrun setup --nodes hosts.txt --data-path SHARED/enroot-data
#   clusterrun run examples/hello-mpi.yaml --nodes hosts.txt
# The cluster stays up afterwards to play with; `examples/local-cluster/cluster.sh down` removes it.
#
# Options: --skip-build (use the launcher already in launcher-cli/target), --nodes N (default 3).
# CLUSTERRUN_QS_IMAGE=/path/image.sqsh uses that image (e.g. from build-image.sh) instead of the
# stand-in's tiny test image. With a real enroot on the machine (cluster.sh picks it, see its
# CLUSTERRUN_LC_ENROOT) and no CLUSTERRUN_QS_IMAGE, build-image.sh makes the image once.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
readonly HERE
REPO=$(cd "$HERE/../.." && pwd)
readonly REPO
readonly CLUSTER=$HERE/cluster.sh

build=1
nodes=3
while [[ $# -gt 0 ]]; do
  case $1 in
  --skip-build) build=0 ;;
  --nodes)
    nodes=${2:?--nodes needs a number}
    shift
    ;;
  -h | --help)
    sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
  *)
    echo "quickstart: unknown argument '$1' (try --help)" >&2
    exit 2
    ;;
  esac
  shift
done

step() { printf '\n==> %s\n' "$*" >&2; }
die() {
  echo "quickstart: $*" >&2
  exit 1
}

[[ $(id -u) -eq 0 ]] || die "must run as root (it creates namespaces, a bridge and a user): sudo $0"

step "1/8 installing what is missing"
"$HERE/install-deps.sh"
extra=()
command -v javac >/dev/null 2>&1 || extra+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null 2>&1 || extra+=(maven)
command -v mpicc >/dev/null 2>&1 || extra+=(libopenmpi-dev)
if [[ ${#extra[@]} -gt 0 ]]; then
  echo "quickstart: installing ${extra[*]}" >&2
  DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${extra[@]}" >/dev/null
fi
"$CLUSTER" check || die "this machine cannot run the local cluster (see the lines above)"

if [[ $build -eq 1 ]]; then
  step "2/8 building clusterrun (mvn -B -q package -DskipTests)"
  (cd "$REPO" && mvn -B -q package -DskipTests)
else
  step "2/8 using the launcher already built (--skip-build)"
fi
[[ -x $REPO/launcher-cli/target/clusterrun && -f $REPO/launcher-cli/target/clusterrun.jar ]] ||
  die "launcher-cli/target/clusterrun is missing: build first (without --skip-build)"

step "3/8 bringing up node1..node$nodes (cluster.sh up $nodes)"
"$CLUSTER" up "$nodes"
# The facts of the cluster: JOB_USER, SHARED_DIR, SUBNET, ...
eval "$("$CLUSTER" env | grep -E '^(JOB_USER|JOB_HOME|SHARED_DIR|SUBNET|ENROOT_MODE)=')"
as_job() { "$CLUSTER" exec node1 -- "$@"; }
readonly S=$SHARED_DIR
readonly CR=$S/opt/clusterrun/clusterrun
readonly WS=$S/ws

step "4/8 installing clusterrun into the shared directory ($S/opt/clusterrun)"
install -d -m 0755 "$S/opt/clusterrun"
install -m 0755 "$REPO/launcher-cli/target/clusterrun" "$S/opt/clusterrun/clusterrun"
install -m 0644 "$REPO/launcher-cli/target/clusterrun.jar" "$S/opt/clusterrun/clusterrun.jar"
# The class-data-sharing archive (a faster start) is tied to the jar's path: made for the installed
# one, as the Debian package does. Without it clusterrun still runs, only slower to start.
sh "$REPO/launcher-cli/src/main/dist/make-cds.sh" "$S/opt/clusterrun/clusterrun.jar" \
  "$S/opt/clusterrun/clusterrun.jsa" "$REPO/examples/seed.yaml" "$REPO/hostfiles/2x8.txt" || true
as_job "$CR" --version

step "5/8 the job: hostfile, examples/hello-mpi.yaml, the ring program compiled into the workspace"
as_job mkdir -p "$WS" "$S/examples" "$S/images" "$JOB_HOME/.openmpi"
"$CLUSTER" hostfile 1 | as_job sh -c "cat > $S/hosts.txt"
as_job sh -c "cat > $S/examples/hello-mpi.yaml" <"$REPO/examples/hello-mpi.yaml"
as_job sh -c "cat > $WS/ring.c" <"$HERE/mpi/ring.c"
as_job mpicc -O2 -o "$WS/ring" "$WS/ring.c"
# Open MPI on the cluster network only (the host may have docker0, a VPN...): read by mpirun and by
# every orted from the home directory, which the containers mount.
printf 'btl_tcp_if_include = %s\noob_tcp_if_include = %s\n' "$SUBNET" "$SUBNET" |
  as_job sh -c "cat > $JOB_HOME/.openmpi/mca-params.conf"
cat "$S/hosts.txt"

step "6/8 clusterrun setup (as $JOB_USER on node1; root on every node through sudo -n)"
as_job "$CR" setup --nodes "$S/hosts.txt" --data-path "$S/enroot-data"

step "7/8 the test image"
if [[ -n ${CLUSTERRUN_QS_IMAGE:-} ]]; then
  install -m 0644 "$CLUSTERRUN_QS_IMAGE" "$S/images/mpi.sqsh"
  image=$S/images/mpi.sqsh
  echo "using $CLUSTERRUN_QS_IMAGE" >&2
elif [[ $ENROOT_MODE == standin ]]; then
  image=$S/images/tiny.sqsh
  as_job rm -f "$image"
  as_job enroot import -o "$image" docker://clusterrun/tiny
else
  # A real enroot: its containers see the image's /usr only, and the tiny image has no Open MPI.
  # build-image.sh makes a Debian image with the host's Open MPI (once; kept in its build/).
  built=$HERE/build/clusterrun-mpi.sqsh
  if [[ ! -s $built ]]; then
    echo "quickstart: enroot here is a real one ($ENROOT_MODE): building a Debian image with Open MPI (build-image.sh, a few minutes, once)" >&2
    command -v debootstrap >/dev/null 2>&1 || "$HERE/install-deps.sh" --with-debootstrap
    "$HERE/build-image.sh" "$built"
  fi
  install -m 0644 "$built" "$S/images/mpi.sqsh"
  image=$S/images/mpi.sqsh
  echo "using $built" >&2
fi
ls -l "$image" >&2

step "8/8 clusterrun run examples/hello-mpi.yaml (as $JOB_USER on node1)"
runcmd="cd $S && exec $CR run examples/hello-mpi.yaml --nodes hosts.txt --workspace $WS --container-image $image"
echo "$runcmd" >&2
log=$(mktemp)
set +e
as_job sh -c "$runcmd" 2> >(tee "$log" >&2)
code=$?
set -e
sleep 0.2
rundir=$(sed -n 's/.*run directory \([^ ]*\)$/\1/p' "$log" | tail -n 1)
rm -f "$log"

echo
if [[ $code -eq 0 ]]; then
  echo "quickstart: hello-mpi ran on $nodes nodes, every rank inside the container (exit 0)."
else
  echo "quickstart: hello-mpi FAILED (exit $code); see the output above."
fi
[[ -n $rundir ]] && echo "  run directory: $rundir (summary.json, stdout.log, plan.txt...)"
cat <<EOF

The cluster is still up (enroot: $ENROOT_MODE). Try, as root:
  $CLUSTER exec node1 -- $CR check --nodes $S/hosts.txt
  $CLUSTER exec node1 -- sh -c 'cd $S && $CR run examples/hello-mpi.yaml --nodes hosts.txt --workspace $WS --container-image $image'
  $CLUSTER exec node1 -- sh -c 'cd $S && $CR run examples/hello-mpi.yaml --nodes hosts.txt --workspace $WS --container-image $image -- hostname'
  $CLUSTER exec node1 -- bash       # a shell as $JOB_USER on node1 (ssh node2 works from there)
Tear it all down (nodes, bridge, job user, $S):
  $CLUSTER down
EOF
exit "$code"
