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
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
cluster=$root/examples/local-cluster/cluster.sh
runs=${RUNS:-7}
sizes=${SIZES:-8 32}
target=1.5

die() { echo "check-vs-pdsh.sh: $*" >&2; exit 2; }
[[ $(id -u) -eq 0 ]] || die "must run as root (the local cluster needs it)"
[[ -x launcher-cli/target/clusterrun && -f launcher-cli/target/clusterrun.jar ]] ||
  die "launcher-cli/target/clusterrun is missing; run: mvn -B -q package -DskipTests"
((runs >= 5 && runs <= 10)) || die "RUNS must be 5..10, got $runs"
if ! command -v pdsh >/dev/null; then
  echo "check-vs-pdsh.sh: installing pdsh (Debian package)" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q pdsh >/dev/null
fi
bash "$cluster" check >/dev/null || die "the local cluster cannot run here: $(bash "$cluster" check 2>&1 | tr '\n' ';')"

# The whole benchmark runs as the owner of the local cluster.
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
  loads[$n]=$(cut -d' ' -f1-3 /proc/loadavg)
  echo "check-vs-pdsh.sh: bringing up $n nodes (load ${loads[$n]})" >&2
  CLUSTERRUN_LC_QUIET=1 bash "$cluster" up "$n" >/dev/null
  shared=$(bash "$cluster" env | sed -n 's/^SHARED_DIR=//p')
  user=$(bash "$cluster" env | sed -n 's/^JOB_USER=//p')
  install -d -o "$user" "$shared/opt/clusterrun"
  install -m 0755 launcher-cli/target/clusterrun "$shared/opt/clusterrun/clusterrun"
  install -m 0644 launcher-cli/target/clusterrun.jar "$shared/opt/clusterrun/clusterrun.jar"
  # The class-data-sharing archive is tied to the jar's path: made for the installed jar (as the
  # Debian package's postinst does), else every timed start would run without it.
  sh launcher-cli/src/main/dist/make-cds.sh "$shared/opt/clusterrun/clusterrun.jar" \
    "$shared/opt/clusterrun/clusterrun.jsa" examples/seed.yaml hostfiles/2x8.txt ||
    die "could not make the class-data-sharing archive for the installed jar"
  bash "$cluster" hostfile 1 >"$shared/bench-hosts"
  cp "$work/bench-node.sh" "$shared/bench-node.sh"
  launcher=$shared/opt/clusterrun/clusterrun
  bash "$cluster" exec node1 -- "$launcher" setup --nodes "$shared/bench-hosts" \
    --data-path "$shared/enroot-data" >/dev/null || die "clusterrun setup failed on $n nodes"
  out=$(bash "$cluster" exec node1 -- bash "$shared/bench-node.sh" "$launcher" \
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
  loads[$n]+=" -> $(cut -d' ' -f1-3 /proc/loadavg)"
  bash "$cluster" down >/dev/null
done

echo
echo "clusterrun check vs pdsh -R ssh -f 64 -w NODES true, as the job user on node1 (median of $runs runs, seconds)"
printf '%-6s %10s %8s %8s %16s   %s\n' nodes clusterrun pdsh ratio target "--version, check --skip ssh-from-head, check's phases (one --json run)"
for r in "${results[@]}"; do
  read -r n c p v q t <<<"$r"
  ratio=$(awk -v c="$c" -v p="$p" 'BEGIN {printf "%.2f", c / p}')
  if awk -v x="$ratio" -v t="$target" 'BEGIN {exit !(x <= t)}'; then verdict=met; else verdict=MISSED; fi
  printf '%-6s %10s %8s %7sx %16s   %s s, %s s, %s\n' "$n" "$c" "$p" "$ratio" "${target}x $verdict" "$v" "$q" "$t"
done
for n in $sizes; do echo "load average while measuring $n nodes: ${loads[$n]}"; done
