#!/usr/bin/env bash
# Benchmark (not a test): what a registry image costs a run next to the same image as a .sqsh file,
# on the local test cluster (examples/local-cluster, enroot stand-in, its own registry over plain
# HTTP), at 3 and 8 nodes. Issue 25's target: an unnamed registry run (the tag asked on the head,
# the digest's cached import started directly on every node) within 1.2x of an unnamed .sqsh run.
#
#   sudo bench/registry-vs-sqsh.sh            # build first: mvn -B -q package -DskipTests
#   SIZES="3 8" RUNS=7 sudo bench/registry-vs-sqsh.sh
#
# What is timed, as the job user on node1 (the head), job `hostname`, one rank a node:
#   sqsh      clusterrun run --nodes H --container-image=IMG.sqsh hostname
#   registry  clusterrun run --nodes H --container-image=docker://REGISTRY#clusterrun/bench:1 hostname
# The same image: IMG.sqsh is the registry's image imported once by enroot (the stand-in) into the
# shared directory; the registry run's first (warm-up) run imports its digest into the workspace's
# cache, every timed one only asks the registry for the tag and starts the cached file. After one
# warm-up of each, the two alternate RUNS times (default 7, 5..10); every output is checked (each
# node's name once) before it counts.
#
# How to read it: per size, the medians of both, their ratio against the target, and the medians
# of the registry run's phases from summary.json (checks, prepare, job, total).
# Needs root (the cluster is namespaces + sshd). Takes the local cluster's owner lock (cluster.sh
# own), so it waits for integration tests of other builds; takes the cluster down at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
cluster=$root/examples/local-cluster/cluster.sh
runs=${RUNS:-7}
sizes=${SIZES:-3 8}
target=1.2

die() {
  echo "registry-vs-sqsh.sh: $*" >&2
  exit 2
}
[[ $(id -u) -eq 0 ]] || die "must run as root (the local cluster needs it)"
[[ -x launcher-cli/target/clusterrun && -f launcher-cli/target/clusterrun.jar ]] ||
  die "launcher-cli/target/clusterrun is missing; run: mvn -B -q package -DskipTests"
((runs >= 5 && runs <= 10)) || die "RUNS must be 5..10, got $runs"
bash "$cluster" check >/dev/null || die "the local cluster cannot run here"

if [[ ${CLUSTERRUN_LC_OWNER:-} != "$PPID" ]]; then
  exec bash "$cluster" own -- bash "$0" "$@"
fi

work=$(mktemp -d)
cleanup() {
  bash "$cluster" down >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

median() { sort -n | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2}'; }

# On node1 as the job user: warm-ups, then RUNS alternating timed runs of both kinds.
cat >"$work/bench-node.sh" <<'EOF'
set -u
launcher=$1 hosts=$2 ws=$3 sqsh=$4 image=$5 nodes=$6 runs=$7
t() {
  local s e out rc
  s=$(date +%s%N)
  out=$("$@" 2>"$ws/last.err")
  rc=$?
  e=$(date +%s%N)
  if [ "$rc" -ne 0 ] || [ "$(printf '%s\n' "$out" | sort | tr '\n' ' ')" != "$nodes" ]; then
    echo "failed: $* (exit $rc): $out" >&2
    cat "$ws/last.err" >&2
    return 1
  fi
  awk -v d=$((e - s)) 'BEGIN {printf "%.3f\n", d / 1e9}'
}
run() { "$launcher" run --nodes "$hosts" --workspace "$ws" --container-image="$1" hostname; }
summary() { sed -n 's/.*run directory \([^ ]*\).*/\1/p' "$ws/last.err" | tail -1; }
t run "$sqsh" >/dev/null || exit 1
t run "$image" >/dev/null || exit 1
for ((i = 0; i < runs; i++)); do
  echo "sqsh $(t run "$sqsh")" || exit 1
  echo "registry $(t run "$image")" || exit 1
  d=$(summary)
  echo "phases $(tr -d '\n ' <"$d/summary.json" | grep -o '"durationsSeconds":{[^}]*}')"
done
EOF

results=()
declare -A loads
for n in $sizes; do
  loads[$n]=$(cut -d' ' -f1-3 /proc/loadavg)
  echo "registry-vs-sqsh.sh: bringing up $n nodes (load ${loads[$n]})" >&2
  CLUSTERRUN_LC_QUIET=1 bash "$cluster" up "$n" >/dev/null
  env_of() { bash "$cluster" env | sed -n "s/^$1=//p"; }
  shared=$(env_of SHARED_DIR)
  user=$(env_of JOB_USER)
  registry=$(env_of REGISTRY)
  install -d -o "$user" "$shared/opt/clusterrun" "$shared/reg-bench-ws"
  install -m 0755 launcher-cli/target/clusterrun "$shared/opt/clusterrun/clusterrun"
  install -m 0644 launcher-cli/target/clusterrun.jar "$shared/opt/clusterrun/clusterrun.jar"
  sh launcher-cli/src/main/dist/make-cds.sh "$shared/opt/clusterrun/clusterrun.jar" \
    "$shared/opt/clusterrun/clusterrun.jsa" examples/seed.yaml hostfiles/2x8.txt ||
    die "could not make the class-data-sharing archive for the installed jar"
  bash "$cluster" hostfile 1 >"$shared/bench-hosts"
  cp "$work/bench-node.sh" "$shared/bench-node.sh"
  launcher=$shared/opt/clusterrun/clusterrun
  bash "$cluster" push clusterrun/bench:1 --add /opt/bench/VERSION=1 >/dev/null
  image="docker://$registry#clusterrun/bench:1"
  bash "$cluster" exec node1 -- "$launcher" setup --nodes "$shared/bench-hosts" \
    --data-path "$shared/enroot-data" >/dev/null || die "clusterrun setup failed on $n nodes"
  # After setup (enroot needs its per-user runtime path over SSH), the job user imports it into
  # a directory of theirs (the shared root is root's).
  sqsh=$shared/reg-bench-img/bench.sqsh
  install -d -o "$user" "$shared/reg-bench-img"
  rm -f "$sqsh"
  bash "$cluster" exec node1 -- enroot import -o "$sqsh" "$image" >"$work/import.log" 2>&1 ||
    die "enroot import of $image failed: $(tail -5 "$work/import.log")"
  names=$(for ((k = 1; k <= n; k++)); do echo "node$k"; done | sort | tr '\n' ' ')
  out=$(bash "$cluster" exec node1 -- bash "$shared/bench-node.sh" "$launcher" \
    "$shared/bench-hosts" "$shared/reg-bench-ws" "$sqsh" "$image" "$names" "$runs") ||
    die "benchmark on $n nodes failed"
  s=$(awk '$1 == "sqsh" {print $2}' <<<"$out" | median)
  r=$(awk '$1 == "registry" {print $2}' <<<"$out" | median)
  ph=""
  for p in checks prepare job total; do
    v=$(sed -n 's/^phases //p' <<<"$out" | grep -o "\"$p\":[0-9.]*" | cut -d: -f2 | median)
    ph+="$p $v s  "
  done
  results+=("$n $s $r $ph")
  loads[$n]+=" -> $(cut -d' ' -f1-3 /proc/loadavg)"
  bash "$cluster" down >/dev/null
done

echo
echo "unnamed registry run vs unnamed .sqsh run, as the job user on node1 (median of $runs runs, seconds)"
printf '%-6s %8s %9s %8s %14s   %s\n' nodes sqsh registry ratio target "registry run's phases (medians)"
for x in "${results[@]}"; do
  read -r n s r ph <<<"$x"
  ratio=$(awk -v a="$r" -v b="$s" 'BEGIN {printf "%.2f", a / b}')
  if awk -v x="$ratio" -v t="$target" 'BEGIN {exit !(x <= t)}'; then verdict=met; else verdict=MISSED; fi
  printf '%-6s %8s %9s %7sx %14s   %s\n' "$n" "$s" "$r" "$ratio" "${target}x $verdict" "$ph"
done
for n in $sizes; do echo "load average while measuring $n nodes: ${loads[$n]}"; done
