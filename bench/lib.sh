#!/usr/bin/env bash
# What the benchmarks in bench/ share; sourced, not run. Each benchmark starts with
#
#   # shellcheck source=/dev/null
#   . "$(dirname "$0")/lib.sh"
#
# and is then in the checkout's root with `set -euo pipefail`, and has the functions below:
# `cluster ARGS...` runs the local test cluster's cluster.sh; die and say speak in the benchmark's
# name. Values come out of functions on stdout, so that shellcheck (which does not follow the
# source line) sees every variable a benchmark uses assigned in the benchmark itself.
set -euo pipefail
cd "$(dirname "$0")/.."
bench_root=$PWD
bench_name=$(basename "$0")
bench_scratch=

cluster() { bash "$bench_root/examples/local-cluster/cluster.sh" "$@"; }
die() {
  echo "$bench_name: $*" >&2
  exit 2
}
say() { echo "$bench_name: $*" >&2; }
load() { cut -d' ' -f1-3 /proc/loadavg; }

# The median of the numbers on stdin, one a line ("-" when there is none), with DECIMALS (default
# 3) when it falls between two.
median() {
  sort -n | awk -v d="${1:-3}" '{a[NR]=$1} END {if (NR == 0) print "-"; else if (NR%2) print a[(NR+1)/2]; else printf "%.*f\n", d, (a[NR/2]+a[NR/2+1])/2}'
}

# ratio A B: A / B with two decimals ("-" when B is not above 0); met RATIO TARGET: "met" when
# RATIO is at most TARGET, else "MISSED".
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (b > 0) printf "%.2f", a / b; else print "-"}'; }
met() { awk -v x="$1" -v t="$2" 'BEGIN {print (x != "-" && x <= t ? "met" : "MISSED")}'; }

# Root, a build to measure, and a machine that can run the local cluster.
bench_prerequisites() {
  [[ $(id -u) -eq 0 ]] || die "must run as root (the local cluster needs it)"
  [[ -x launcher-cli/target/clusterrun && -f launcher-cli/target/clusterrun.jar ]] ||
    die "launcher-cli/target/clusterrun is missing; run: mvn -B -q package -DskipTests"
  cluster check >/dev/null || die "the local cluster cannot run here: $(cluster check 2>&1 | tr '\n' ';')"
}

# bench_runs DEFAULT MIN MAX: how many timed runs ($RUNS, else DEFAULT), checked to be MIN..MAX.
bench_runs() {
  local runs=${RUNS:-$1}
  if ! [[ $runs =~ ^[0-9]+$ ]] || ((runs < $2 || runs > $3)); then die "RUNS must be $2..$3, got $runs"; fi
  echo "$runs"
}

# bench_up N: brings N nodes up (quietly), saying so with the load average. The nodes use the
# enroot stand-in unless CLUSTERRUN_LC_ENROOT says otherwise: the benchmarks' images are built on
# the stand-in's tiny image, which has no shell or Open MPI of its own (a real enroot on the
# machine would otherwise be picked, and their jobs could not start).
bench_up() {
  say "bringing up $1 nodes (load $(load))"
  CLUSTERRUN_LC_ENROOT=${CLUSTERRUN_LC_ENROOT:-standin} CLUSTERRUN_LC_QUIET=1 cluster up "$1" >/dev/null
}

# bench_start ARGS...: checks the prerequisites, then runs the whole benchmark again (with ARGS)
# as the owner of the local cluster (cluster.sh own: the machine-wide owner lock), so it waits for
# integration tests of other builds instead of tearing their cluster down. Returns at once when it
# is the owner already.
bench_start() {
  bench_prerequisites
  if [[ ${CLUSTERRUN_LC_OWNER:-} != "$PPID" ]]; then
    exec bash "$bench_root/examples/local-cluster/cluster.sh" own -- bash "$0" "$@"
  fi
}

# bench_traps [DIR]: at exit the cluster is taken down (and DIR, a scratch directory, removed); an
# interrupt exits 130.
bench_traps() {
  bench_scratch=${1:-}
  trap bench_cleanup EXIT
  trap 'exit 130' INT TERM
}
bench_cleanup() {
  cluster down >/dev/null 2>&1 || true
  if [[ -n $bench_scratch ]]; then rm -rf --one-file-system "$bench_scratch"; fi
}

# bench_cpu_group: puts every process of the running local cluster's nodes (their sshd and
# whatever it runs later inherits the group) into a CPU-accounting cgroup of its own, and prints
# the file that counts its CPU time (cgroup v1 cpuacct.usage in ns, or v2 cpu.stat's usage_usec),
# or nothing when this machine has neither. What a command costs the cluster is then the
# difference of bench_cpu_ns before and after it: every node's sshd, shells, enroot and daemons,
# and clusterrun's JVM (it runs on node1), but not the ssh client outside the cluster.
bench_cpu_group() {
  local g file ns p
  if [[ -d /sys/fs/cgroup/cpuacct && -w /sys/fs/cgroup/cpuacct ]]; then
    g=/sys/fs/cgroup/cpuacct/clusterrun-bench
    file=$g/cpuacct.usage
  elif [[ -f /sys/fs/cgroup/cgroup.controllers ]]; then
    g=/sys/fs/cgroup/clusterrun-bench
    file=$g/cpu.stat
  else
    return 0
  fi
  mkdir -p "$g" 2>/dev/null || return 0
  for ns in $(ip netns list | awk -v p="$(cluster env | sed -n 's/^NETNS_PREFIX=//p')" 'index($1, p) == 1 {print $1}'); do
    for p in $(ip netns pids "$ns"); do echo "$p" >"$g/cgroup.procs" 2>/dev/null || true; done
  done
  echo "$file"
}

# bench_cpu_ns FILE: the CPU time FILE (from bench_cpu_group) counts, in ns.
bench_cpu_ns() {
  case $1 in
    *cpu.stat) awk '$1 == "usage_usec" {printf "%d\n", $2 * 1000}' "$1" ;;
    *) cat "$1" ;;
  esac
}

# bench_install SHARED USER [cds]: installs the build under SHARED/opt/clusterrun (the directory
# owned by USER) and prints the launcher's path; with `cds`, makes the class-data-sharing archive
# for the installed jar too (it is tied to the jar's path, as the Debian package's postinst makes
# it), else every timed start would run without it.
bench_install() {
  local shared=$1 user=$2 cds=${3:-}
  install -d -o "$user" "$shared/opt/clusterrun"
  install -m 0755 launcher-cli/target/clusterrun "$shared/opt/clusterrun/clusterrun"
  install -m 0644 launcher-cli/target/clusterrun.jar "$shared/opt/clusterrun/clusterrun.jar"
  if [[ $cds == cds ]]; then
    sh launcher-cli/src/main/dist/make-cds.sh "$shared/opt/clusterrun/clusterrun.jar" \
      "$shared/opt/clusterrun/clusterrun.jsa" examples/seed.yaml hostfiles/2x8.txt >&2 ||
      die "could not make the class-data-sharing archive for the installed jar"
  fi
  echo "$shared/opt/clusterrun/clusterrun"
}

# bench_env KEY: one fact of the running cluster (cluster.sh env), e.g. SHARED_DIR.
bench_env() { cluster env | sed -n "s/^$1=//p"; }
