#!/usr/bin/env bash
# Start-up benchmark (not a test): median wall time of 10 runs of `clusterrun --version` and
# `clusterrun --help`, next to `java -version`, on this machine.
#
#   bench/startup.sh                 # the build (launcher-cli/target/clusterrun) and, when the
#                                    # Debian package is installed, /usr/bin/clusterrun
#   bench/startup.sh LAUNCHER...     # these launchers instead (e.g. a jpackage image's bin/clusterrun,
#                                    # see bench/jpackage-image.sh)
#
# Build first: mvn -B -q package -DskipTests. RUNS=N changes the number of runs.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-10}

labels=()
bins=()
if [[ $# -gt 0 ]]; then
  for b in "$@"; do
    [[ -x $b ]] || { echo "startup.sh: $b: not an executable" >&2; exit 2; }
    labels+=("$b")
    bins+=("$b")
  done
else
  if [[ -x launcher-cli/target/clusterrun ]]; then
    labels+=("build")
    bins+=(launcher-cli/target/clusterrun)
  fi
  if [[ -x /usr/bin/clusterrun ]] && dpkg -S /usr/bin/clusterrun >/dev/null 2>&1; then
    labels+=("package $(dpkg-query -W -f '${Version}' clusterrun 2>/dev/null)")
    bins+=(/usr/bin/clusterrun)
  fi
  if [[ ${#bins[@]} -eq 0 ]]; then
    echo "startup.sh: no clusterrun to time: build it (mvn -B -q package -DskipTests) or install the package" >&2
    exit 2
  fi
fi

median() { sort -n | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2}'; }
# Prints "wall cpu" seconds of one run (cpu: user + system of the command and its children).
time_one() {
  local t
  t=$( { TIMEFORMAT='%R %U %S'; time "$@" >/dev/null 2>&1; } 2>&1)
  awk '{printf "%.3f %.3f\n", $1, $2 + $3}' <<<"$t"
}
row() { printf '%-46s %8s %8s\n' "$1" "$2" "$3"; }

# The commands to time: java -version, then --version and --help of each launcher.
cmd=(java)
arg=(-version)
for b in "${bins[@]}"; do
  "$b" --version >/dev/null 2>&1 # warm the page cache once
  cmd+=("$b" "$b")
  arg+=(--version --help)
done
# Round robin: run k of every command, then run k+1 of every command, so that a change in the
# machine's load (other builds) hits every command alike.
samples=$(mktemp -d)
trap 'rm -rf "$samples"' EXIT
for ((k = 0; k < runs; k++)); do
  for j in "${!cmd[@]}"; do
    time_one "${cmd[$j]}" "${arg[$j]}" >>"$samples/$j"
  done
done
medians() { echo "$(cut -d' ' -f1 "$samples/$1" | median) $(cut -d' ' -f2 "$samples/$1" | median)"; }

# Wall time suffers when other builds share the CPUs; CPU time much less: both are printed.
row "command (median of $runs runs)" "wall s" "cpu s"
read -r jw jc <<<"$(medians 0)"
row "java -version" "$jw" "$jc"
verdicts=()
for i in "${!bins[@]}"; do
  read -r vw vc <<<"$(medians $((1 + 2 * i)))"
  read -r hw hc <<<"$(medians $((2 + 2 * i)))"
  if [[ ${#labels[$i]} -gt 24 ]]; then
    echo "${labels[$i]}:"
    row "  clusterrun --version" "$vw" "$vc"
    row "  clusterrun --help" "$hw" "$hc"
  else
    row "${labels[$i]}: clusterrun --version" "$vw" "$vc"
    row "${labels[$i]}: clusterrun --help" "$hw" "$hc"
  fi
  if awk -v c="$vw" 'BEGIN {exit !(c <= 0.2)}'; then
    verdicts+=("${labels[$i]}: met")
  else
    verdicts+=("${labels[$i]}: MISSED")
  fi
done
echo "load average after measuring: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) CPUs)"
all=$(IFS=,; echo "${verdicts[*]}")
echo "target (--version within 0.2 s): ${all//,/, }"
