#!/usr/bin/env bash
# Benchmark (not a test): wall time of `clusterrun check` next to `pdsh -R ssh -f 64 -w NODES true`
# on the local test cluster (examples/local-cluster) with 8 and then 32 nodes. Issue 10's target:
# clusterrun check within 1.5x of pdsh (the fan-out floor) while doing all its checks.
#
#   sudo bench/check-vs-pdsh.sh            # build first: mvn -B -q package -DskipTests
#   SIZES="8 32" RUNS=7 sudo bench/check-vs-pdsh.sh
#
# Needs root (the cluster is namespaces + sshd). Installs pdsh from Debian when it is missing.
# Both commands run as the job user on node1, in one session, alternating, each timed there; the
# cluster is brought up per size, `clusterrun setup` runs once, and it is taken down at the end.
# Runs as the owner of the local cluster (cluster.sh own: the machine-wide owner lock), so it waits
# for integration tests of other builds instead of tearing their cluster down.
#
# How to read it: per size, the medians of `clusterrun check` and of pdsh, their ratio against
# the target, then clusterrun's `--version` (JVM start-up alone), `check --skip ssh-from-head`
# (without the node-to-node SSH probe) and the phases of one `check --json` run (its "timings").
# The load average before and after each size is printed too: the machine's 2 cores are shared.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
sizes=${SIZES:-8 32}
target=1.5
runs=$(bench_runs 7 5 10)
bench_start "$@"
if ! command -v pdsh >/dev/null; then
  say "installing pdsh (Debian package)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q pdsh >/dev/null
fi
work=$(mktemp -d)
bench_traps "$work"

# Runs on node1 as the job user: one warm-up of each, then RUNS alternating timed runs.
# Prints "clusterrun SECONDS" / "pdsh SECONDS" lines, then one JSON report for the breakdown.
cat >"$work/bench-node.sh" <<'EOF'
set -u
launcher=$1 hosts=$2 nodes=$3 runs=$4
t() { local s e; s=$(date +%s%N); "$@" >/dev/null 2>&1; local rc=$?; e=$(date +%s%N); awk -v d=$((e - s)) 'BEGIN {printf "%.3f\n", d / 1e9}'; return $rc; }
"$launcher" check --nodes "$hosts" >/dev/null 2>&1 || { echo "clusterrun check failed:" >&2; "$launcher" check --nodes "$hosts" >&2; exit 1; }
pdsh -R ssh -f 64 -w "$nodes" true >/dev/null 2>&1 || { echo "pdsh failed:" >&2; pdsh -R ssh -f 64 -w "$nodes" true >&2; exit 1; }
for ((i = 0; i < runs; i++)); do
  echo "clusterrun $(t "$launcher" check --nodes "$hosts")"
  echo "pdsh $(t pdsh -R ssh -f 64 -w "$nodes" true)"
  echo "version $(t "$launcher" --version)"
  echo "noprobe $(t "$launcher" check --nodes "$hosts" --skip ssh-from-head)"
done
echo "json $("$launcher" check --nodes "$hosts" --json | tr -d '\n ')"
EOF

results=()
declare -A loads
for n in $sizes; do
  loads[$n]=$(load)
  bench_up "$n"
  shared=$(bench_env SHARED_DIR)
  launcher=$(bench_install "$shared" "$(bench_env JOB_USER)" cds)
  cluster hostfile 1 >"$shared/bench-hosts"
  cp "$work/bench-node.sh" "$shared/bench-node.sh"
  cluster exec node1 -- "$launcher" setup --nodes "$shared/bench-hosts" \
    --data-path "$shared/enroot-data" >/dev/null || die "clusterrun setup failed on $n nodes"
  out=$(cluster exec node1 -- bash "$shared/bench-node.sh" "$launcher" \
    "$shared/bench-hosts" "node[1-$n]" "$runs") || die "benchmark on $n nodes failed"
  c=$(awk '$1 == "clusterrun" {print $2}' <<<"$out" | median)
  p=$(awk '$1 == "pdsh" {print $2}' <<<"$out" | median)
  v=$(awk '$1 == "version" {print $2}' <<<"$out" | median)
  q=$(awk '$1 == "noprobe" {print $2}' <<<"$out" | median)
  json=$(sed -n 's/^json //p' <<<"$out")
  # Where clusterrun's time goes (one --json run): its own phases, the rest is JVM start-up,
  # ssh -G and connecting.
  t=$(grep -o '"timings":{[^}]*}' <<<"$json" | tr -d '"{}' | sed 's/timings://')
  results+=("$n $c $p $v $q $t")
  loads[$n]+=" -> $(load)"
  cluster down >/dev/null
done

echo
echo "clusterrun check vs pdsh -R ssh -f 64 -w NODES true, as the job user on node1 (median of $runs runs, seconds)"
printf '%-6s %10s %8s %8s %16s   %s\n' nodes clusterrun pdsh ratio target "--version, check --skip ssh-from-head, check's phases (one --json run)"
for r in "${results[@]}"; do
  read -r n c p v q t <<<"$r"
  x=$(ratio "$c" "$p")
  printf '%-6s %10s %8s %7sx %16s   %s s, %s s, %s\n' "$n" "$c" "$p" "$x" "${target}x $(met "$x" "$target")" "$v" "$q" "$t"
done
for n in $sizes; do echo "load average while measuring $n nodes: ${loads[$n]}"; done
