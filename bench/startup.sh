#!/usr/bin/env bash
# Start-up benchmark (not a test): median wall time of 10 runs of `clusterrun --version`
# next to `java -version`, on this machine. Build first: mvn -B -q package -DskipTests
set -euo pipefail
cd "$(dirname "$0")/.."
bin=launcher-cli/target/clusterrun
runs=${RUNS:-10}
[[ -x $bin ]] || { echo "startup.sh: $bin is missing; run: mvn -B -q package -DskipTests" >&2; exit 2; }

median() { sort -n | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else printf "%.4f\n", (a[NR/2]+a[NR/2+1])/2}'; }
time_runs() {
  local i s e
  for ((i = 0; i < runs; i++)); do
    s=$(date +%s%N); "$@" >/dev/null 2>&1; e=$(date +%s%N)
    awk -v d=$((e - s)) 'BEGIN {printf "%.4f\n", d / 1e9}'
  done
}
"$bin" --version >/dev/null 2>&1 # warm the page cache once
j=$(time_runs java -version | median)
c=$(time_runs "$bin" --version | median)
h=$(time_runs "$bin" --help | median)
printf '%-34s %8s\n' "command (median of $runs runs)" "seconds"
printf '%-34s %8s\n' "java -version" "$j"
printf '%-34s %8s\n' "clusterrun --version" "$c"
printf '%-34s %8s\n' "clusterrun --help" "$h"
awk -v c="$c" 'BEGIN {exit !(c <= 0.2)}' && echo "target (--version within 0.2 s): met" || echo "target (--version within 0.2 s): MISSED"
