#!/usr/bin/env bash
# Benchmark (not a test): `clusterrun screen` on the local test cluster (examples/local-cluster)
# with 3 and then 8 nodes (one slot each), RUNS screens in a row per size: the wall time of each,
# its verdict, the medians it judged against and how far repeats of one figure differed. Issue
# 28's targets: nothing flagged on a healthy cluster, an 8-node screen within 90 s.
#
#   sudo bench/screen.sh                   # build first: mvn -B -q package -DskipTests
#   SIZES="3 8 32" RUNS=3 sudo bench/screen.sh
#
# Needs root (the cluster is namespaces + sshd). Runs as the owner of the local cluster
# (cluster.sh own), so it waits for integration tests of other builds. The screens run as the job
# user on node1 in the cluster's tiny image (it sees the host's Open MPI and mpicc); the first
# screen of a size imports the image and compiles the program, so it is timed apart ("first").
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
sizes=${SIZES:-3 8}
target=90
runs=$(bench_runs 3 1 10)
bench_start "$@"
bench_traps

summary=()
for n in $sizes; do
  load0=$(load)
  bench_up "$n"
  shared=$(bench_env SHARED_DIR)
  registry=$(bench_env REGISTRY)
  launcher=$(bench_install "$shared" "$(bench_env JOB_USER)")
  cluster hostfile 1 >"$shared/screen-hosts"
  cluster exec node1 -- "$launcher" setup --nodes "$shared/screen-hosts" \
    --data-path "$shared/enroot-data" >/dev/null || die "clusterrun setup failed on $n nodes"
  for ((i = 0; i <= runs; i++)); do
    label=$([[ $i -eq 0 ]] && echo first || echo "$i")
    s=$(date +%s%N)
    rc=0
    out=$(cluster exec node1 -- "$launcher" screen --nodes "$shared/screen-hosts" \
      --container-image "docker://$registry#clusterrun/tiny" --workspace "$shared/screen-ws" 2>&1) || rc=$?
    e=$(date +%s%N)
    secs=$(awk -v d=$((e - s)) 'BEGIN {printf "%.1f", d / 1e9}')
    verdict=$(grep -E '^(nothing flagged|flagged:)' <<<"$out" || echo "no verdict (exit $rc)")
    echo "== $n nodes, screen $label: $secs s, exit $rc"
    if grep -qE '^(nothing flagged|flagged:)' <<<"$out"; then
      grep -E '^(medians|repeats|nothing flagged|flagged:)|^clusterrun: .*(could not|gave no|failed)' <<<"$out"
    else
      # no verdict: what stopped it (a check's table and reasons, a launch's error)
      tail -n 25 <<<"$out"
    fi
    summary+=("$n $label $secs $rc $verdict")
  done
  echo "load average while measuring $n nodes: $load0 -> $(load) ($(nproc) CPUs)"
  cluster down >/dev/null
done

echo
printf '%-6s %-6s %8s %5s  %s\n' nodes screen seconds exit verdict
for r in "${summary[@]}"; do
  read -r n label secs rc verdict <<<"$r"
  printf '%-6s %-6s %8s %5s  %s\n' "$n" "$label" "$secs" "$rc" "$verdict"
done
echo "target: an 8-node screen within ${target} s, nothing flagged on a healthy cluster"
