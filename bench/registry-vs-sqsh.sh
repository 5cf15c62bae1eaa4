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
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
sizes=${SIZES:-3 8}
target=1.2
runs=$(bench_runs 7 5 10)
bench_start "$@"
work=$(mktemp -d)
bench_traps "$work"

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
  loads[$n]=$(load)
  bench_up "$n"
  shared=$(bench_env SHARED_DIR)
  user=$(bench_env JOB_USER)
  registry=$(bench_env REGISTRY)
  install -d -o "$user" "$shared/reg-bench-ws"
  launcher=$(bench_install "$shared" "$user" cds)
  cluster hostfile 1 >"$shared/bench-hosts"
  cp "$work/bench-node.sh" "$shared/bench-node.sh"
  cluster push clusterrun/bench:1 --add /opt/bench/VERSION=1 >/dev/null
  image="docker://$registry#clusterrun/bench:1"
  cluster exec node1 -- "$launcher" setup --nodes "$shared/bench-hosts" \
    --data-path "$shared/enroot-data" >/dev/null || die "clusterrun setup failed on $n nodes"
  # After setup (enroot needs its per-user runtime path over SSH), the job user imports it into
  # a directory of theirs (the shared root is root's).
  sqsh=$shared/reg-bench-img/bench.sqsh
  install -d -o "$user" "$shared/reg-bench-img"
  rm -f "$sqsh"
  cluster exec node1 -- enroot import -o "$sqsh" "$image" >"$work/import.log" 2>&1 ||
    die "enroot import of $image failed: $(tail -5 "$work/import.log")"
  names=$(for ((k = 1; k <= n; k++)); do echo "node$k"; done | sort | tr '\n' ' ')
  out=$(cluster exec node1 -- bash "$shared/bench-node.sh" "$launcher" \
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
  loads[$n]+=" -> $(load)"
  cluster down >/dev/null
done

echo
echo "unnamed registry run vs unnamed .sqsh run, as the job user on node1 (median of $runs runs, seconds)"
printf '%-6s %8s %9s %8s %14s   %s\n' nodes sqsh registry ratio target "registry run's phases (medians)"
for x in "${results[@]}"; do
  read -r n s r ph <<<"$x"
  x=$(ratio "$r" "$s")
  printf '%-6s %8s %9s %7sx %14s   %s\n' "$n" "$s" "$r" "$x" "${target}x $(met "$x" "$target")" "$ph"
done
for n in $sizes; do echo "load average while measuring $n nodes: ${loads[$n]}"; done
