#!/usr/bin/env bash
# Benchmark (not a test): issue 36's start-time ratios, all in one run and one table, on the local
# test cluster (examples/local-cluster, enroot stand-in). It runs the three benchmarks that measure
# them, one after the other, each with both of its commands alternating in the same run:
#   run       bench/run-vs-raw.sh: `clusterrun run` of the named container vs the hand-typed seed
#             command, at RUN_SIZES (default 3 8 16 128); target at most 1.1x, 1.0x from 128 nodes
#   check     bench/check-vs-pdsh.sh: `clusterrun check` vs `pdsh -R ssh -f 64 -w NODES true`, at
#             CHECK_SIZES (default 8 128); target at most 1.5x
#   registry  bench/registry-vs-sqsh.sh: an unchanged registry tag vs the same image as a .sqsh
#             file, at REGISTRY_SIZES (default 3); target at most 1.1x
# then prints each ratio beside its target. Each benchmark's own output (medians, min-max, phases,
# load) is kept in a directory it names at the end, for docs/performance.md.
#
#   sudo bench/start-ratios.sh                    # build first: mvn -B -q package -DskipTests
#   RUN_SIZES="3 8" CHECK_SIZES=8 REGISTRY_SIZES=3 RUNS=5 sudo bench/start-ratios.sh
#
# RUNS (default 5) goes to each benchmark. At 128 nodes on a 2-core machine the whole takes about
# half an hour. Needs root; takes the local cluster's owner lock through each benchmark.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
run_sizes=${RUN_SIZES:-3 8 16 128}
check_sizes=${CHECK_SIZES:-8 128}
registry_sizes=${REGISTRY_SIZES:-3}
runs=${RUNS:-5}
logs=$(mktemp -d /tmp/start-ratios.XXXXXX)

# measure NAME SIZES SCRIPT: runs bench/SCRIPT with SIZES, its output into LOGS/NAME.log.
measure() {
  local name=$1 sizes=$2 script=$3
  [[ -n $sizes ]] || return 0
  say "$name at $sizes nodes (bench/$script, RUNS=$runs); output in $logs/$name.log"
  SIZES=$sizes RUNS=$runs bash "bench/$script" >"$logs/$name.log" 2>&1 ||
    die "bench/$script failed; its output: $logs/$name.log"
}

# rows NAME: "SIZE RATIO" for each size in NAME's first table, its first ratio column (the
# figure the issue's target is about: named/raw, check/pdsh, registry/sqsh).
rows() {
  # Only the first table: run-vs-raw.sh prints a CPU table after it, whose rows look alike.
  awk '/^[0-9]+ / {seen = 1; for (i = 2; i <= NF; i++) if ($i ~ /^[0-9.]+x$/) {sub(/x$/, "", $i); print $1, $i; break}; next}
    seen && /^$/ {exit}' "$logs/$1.log"
}

measure run "$run_sizes" run-vs-raw.sh
measure check "$check_sizes" check-vs-pdsh.sh
measure registry "$registry_sizes" registry-vs-sqsh.sh

echo
echo "issue 36's start-time ratios (medians of $runs runs a size; each benchmark's own table in $logs)"
printf '%-10s %6s %8s %8s  %s\n' measure nodes ratio target verdict
verdicts=0
for name in run check registry; do
  [[ -s $logs/$name.log ]] || continue
  while read -r n x; do
    case $name in
      run) if ((n >= 128)); then t=1.0; else t=1.1; fi ;;
      check) t=1.5 ;;
      registry) t=1.1 ;;
    esac
    v=$(met "$x" "$t")
    [[ $v == met ]] || verdicts=$((verdicts + 1))
    printf '%-10s %6s %7sx %7sx  %s\n' "$name" "$n" "$x" "$t" "$v"
  done < <(rows "$name")
done
echo "what each ratio is: run = clusterrun run (named) / hand-typed; check = clusterrun check / pdsh"
echo "-f 64 true; registry = unchanged registry tag / .sqsh run; $verdicts missed"
