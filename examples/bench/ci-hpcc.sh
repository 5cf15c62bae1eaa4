#!/bin/sh
# A CI step: HPC Challenge across the nodes, a JUnit report for the CI server, and a gate that
# fails the step when HPL Gflops fell more than 10 % below the stored baseline.
#   HOSTS=hosts.txt IMAGE=/shared/images/hpcc.sqsh BASELINE=/shared/baselines/hpcc.json \
#     examples/bench/ci-hpcc.sh
# Exit: 0 passed; 1 FAILED, unreadable or regressed; 2 bad input; 3 a check failed (see
# docs/benchmarks.md). The first run, without a baseline, only records one.
set -eu
: "${HOSTS:?hostfile}" "${IMAGE:?hpcc image (.sqsh or enroot URI)}" "${BASELINE:?baseline path}"
mkdir -p reports
if [ -f "$BASELINE" ]; then
  exec clusterrun bench hpcc --nodes "$HOSTS" --container-image "$IMAGE" \
    --junit reports/hpcc.xml --baseline "$BASELINE" --max-regression 10
fi
clusterrun bench hpcc --nodes "$HOSTS" --container-image "$IMAGE" --junit reports/hpcc.xml
# keep this run's results.json (the newest run directory of an hpcc run) as the baseline
ws="${CLUSTERRUN_WORKSPACE:-$HOME/clusterrun}"
# (run ids start with their date and time, so the last in name order is the newest)
set -- "$ws"/runs/*-hpcc-*
for last; do :; done
[ -d "$last" ] || { echo "ci-hpcc.sh: no hpcc run under $ws/runs" >&2; exit 1; }
mkdir -p "$(dirname "$BASELINE")"
cp "$last/results.json" "$BASELINE"
echo "recorded baseline $BASELINE from $last"
