#!/usr/bin/env bash
# Benchmark (not a test): what `clusterrun run` costs next to the command a user types by hand,
# on the local test cluster (examples/local-cluster, enroot stand-in), at 3, 8 and 32 nodes (64
# with --with-64). Issue 10's measuring stick: `clusterrun run` within 1.3x of the hand-typed
# command at every size, and an unnamed .sqsh job within 1.5x of the named one.
#
#   sudo bench/run-vs-raw.sh                       # build first: mvn -B -q package -DskipTests
#   sudo bench/run-vs-raw.sh --with-64
#   SIZES="3 8" RUNS=7 IMAGE_MB=188 sudo bench/run-vs-raw.sh
#   SIZES=64 TREE_SPAWN=off sudo bench/run-vs-raw.sh
#   JOB=output SIZES=3 sudo bench/run-vs-raw.sh     # issue 35: 120 MB of output, --label too
#   HOOK_SECONDS=0.8 SIZES="3 8 16" sudo bench/run-vs-raw.sh   # issue 36: GPU-like hooks
#
# What is timed, from a login outside the cluster (the machine itself, as the job user), each
# figure including one ssh login to the head (node1), with the job `hostname`, 2 ranks a node:
#   raw       ssh node1 enroot start --rw --mount WS:/app bench mpirun -np 2N
#                 --hostfile /app/hosts.txt hostname
#             the seed recipe exactly (README "How it works", examples/seed.yaml): the named
#             container `bench` already created, a drop-in with a shared ENROOT_DATA_PATH,
#             ENROOT_MOUNT_HOME yes and a per-user runtime path, and the seed's hook
#             hooks.d/ompi.sh writing OMPI_MCA_orte_launch_agent="enroot start --rw --mount
#             WS:/app ${ENROOT_ROOTFS##*/} orted" for exactly that command;
#   named     ssh node1 clusterrun run --nodes HOSTS --container-name=bench --np 2N hostname
#             after `clusterrun setup` (its drop-in and hook, same data path), same container;
#   unnamed   ssh node1 clusterrun run --nodes HOSTS --container-image=IMG.sqsh --np 2N hostname
#             the same image, no name: each node starts the image itself (enroot start
#             IMG.sqsh: squashfuse and an overlay), nothing is unpacked or removed.
# JOB=output times the output path instead (issue 35's measuring stick: at most 1.15x the
# hand-typed command, with and without --label): every rank prints 20 MB of 99-character lines
# (sh -c 'head -c 20000000 /dev/zero | tr "\0" x | fold -w 99'; 6 ranks: 121 212 120 bytes), each
# command's standard output into a file on the head, and the kinds are raw, named and labelled
# (named with --label: each line whole, prefixed NODE:RANK: ); a run counts when the file holds
# every byte (raw, named) or every x (labelled).
# TREE_SPAWN=on (Open MPI's default: daemons start further daemons, each over ssh from its own
# node, through the same launch agent) or off (mpirun's node starts every daemon itself:
# plm_rsh_no_tree_spawn = 1 in the job user's ~/.openmpi/mca-params.conf, which mpirun reads in the
# container for both kinds alike).
# HOOK_SECONDS (default none) gives every node one more enroot hook that sleeps that long
# (cluster.sh slow-hook all SECONDS), standing in for the NVIDIA hook a GPU node runs at every
# `enroot start`; both kinds pay it, and the seed's named container on the shared data path also
# meets enroot's rootfs lock, which enroot holds while the hooks run (docs/scale.md).
# The image is the stand-in's tiny image plus IMAGE_MB (default 188, the issue's image) of this
# machine's /usr (as one tar file), so that unpacking it costs what a real image's does.
#
# Fairness: the seed's hook and clusterrun's would fight (a hook that sets the launch agent makes
# `clusterrun check` fail, by design), so each node's /etc/enroot is switched between the two
# setups before every timed command (files moved on the machine, outside the timing): the raw run
# sees only the seed's files, the clusterrun runs only clusterrun's. Same nodes, same container,
# same data path, same hostfile. After one warm-up of each, the three alternate RUNS times
# (default 5, 5..7). Every output is checked (each node's name exactly twice) before it counts; a run
# that fails is not timed, and the table lists it.
#
# How to read it: per size, the median, min and max wall time of each kind, the ratio of medians
# (named / raw, unnamed / named) against the targets, and where clusterrun's time goes: the
# medians of the phases its summary.json records (`durations...`: checks (connecting, the node
# checks, the workspace proof), prepare, job, cleanup, total), and "outside", the wall time not in
# `total` (ssh login, JVM start); and, where the machine can count it (a cgroup v1 cpuacct or a
# cgroup v2 hierarchy), the CPU time the cluster spent on each command (bench_cpu_group in lib.sh).
# The load average of the machine (2 cores shared with other work) is printed before and after
# each size: repeat when it was high.
#
# Needs root (the cluster is namespaces + sshd). Takes the local cluster's machine-wide owner lock
# first (cluster.sh own), so it waits for integration tests of other builds instead of tearing
# their cluster down; brings the cluster up per size and takes it down at the end, leaving
# nothing behind.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"

sizes=${SIZES:-3 8 32}
image_mb=${IMAGE_MB:-188}
tree_spawn=${TREE_SPAWN:-on}
job=${JOB:-hostname}
hook_seconds=${HOOK_SECONDS:-}
args=("$@")
while [[ $# -gt 0 ]]; do
  case $1 in
    --with-64) sizes+=" 64" ;;
    -h | --help)
      sed -n '2,/^# shellcheck source/p' "$0" | sed '$d; s/^# \{0,1\}//'
      exit 0
      ;;
    *) die "unknown argument '$1' (usage: run-vs-raw.sh [--with-64])" ;;
  esac
  shift
done
runs=$(bench_runs 5 5 7)
[[ $image_mb =~ ^[0-9]+$ ]] || die "IMAGE_MB must be a number of MiB, got $image_mb"
[[ $tree_spawn == on || $tree_spawn == off ]] || die "TREE_SPAWN must be on or off, got $tree_spawn"
[[ $job == hostname || $job == output ]] || die "JOB must be hostname or output, got $job"
[[ -z $hook_seconds || $hook_seconds =~ ^[0-9]+(\.[0-9]+)?$ ]] ||
  die "HOOK_SECONDS must be a number of seconds such as 0.8, got $hook_seconds"
readonly PRINT='head -c 20000000 /dev/zero | tr "\0" x | fold -w 99'
if [[ $job == output ]]; then
  kinds=(raw named labelled)
  # The job's words as the head's login shell reads them (ssh joins its words with spaces).
  job_words=(sh -c "$(printf '%q' "$PRINT")")
else
  kinds=(raw named unnamed)
  job_words=(hostname)
fi
for n in $sizes; do
  if ! [[ $n =~ ^[0-9]+$ ]] || ((n < 2)); then die "SIZES: '$n' is not a node count >= 2"; fi
done

bench_start ${args[@]+"${args[@]}"}
work=$(mktemp -d /var/tmp/run-vs-raw.XXXXXX)
chmod 0755 "$work"
bench_traps "$work"

readonly CONTAINER=bench

minmax() { sort -n | awk 'NR==1 {min=$1} {max=$1} END {printf "%s %s\n", min, max}'; }

# Runs as the job user on the machine (the login outside the cluster): times one command, keeps
# its output. Prints "SECONDS EXIT".
cat >"$work/timed.sh" <<'EOF'
out=$1
shift
s=$(date +%s%N)
"$@" >"$out.out" 2>"$out.err" </dev/null
rc=$?
e=$(date +%s%N)
awk -v d=$((e - s)) -v rc=$rc 'BEGIN {printf "%.3f %d\n", d / 1e9, rc}'
EOF

# as_user CMD...: CMD as the job user on the machine, with a login's plain environment.
as_user() {
  setpriv --reuid="$JOB_UID" --regid="$JOB_UID" --init-groups env -i HOME="$JOB_HOME" \
    USER="$JOB_USER" LOGNAME="$JOB_USER" SHELL=/bin/bash PATH=/usr/local/bin:/usr/bin:/bin "$@"
}
on_head() { cluster exec node1 -- "$@"; }

# Switches every node's /etc/enroot to the seed's files (seed) or clusterrun's (clusterrun).
switch_to() {
  local want=$1 k etc st
  [[ $want != "$mode" ]] || return 0
  for ((k = 1; k <= n; k++)); do
    etc=$STATE_DIR/nodes/node$k/etc-enroot
    st=$work/stash/node$k
    if [[ $want == seed ]]; then
      mv "$etc/enroot.conf.d/50-clusterrun.conf" "$etc/hooks.d/50-clusterrun-launch-agent.sh" "$st/clusterrun/"
      mv "$st/seed/50-seed.conf" "$etc/enroot.conf.d/"
      mv "$st/seed/ompi.sh" "$etc/hooks.d/"
    else
      mv "$etc/enroot.conf.d/50-seed.conf" "$etc/hooks.d/ompi.sh" "$st/seed/"
      mv "$st/clusterrun/50-clusterrun.conf" "$etc/enroot.conf.d/"
      mv "$st/clusterrun/50-clusterrun-launch-agent.sh" "$etc/hooks.d/"
    fi
  done
  mode=$want
}

# check_output FILE N KIND: every node's name exactly twice, nothing else that looks like a host;
# with JOB=output every byte (every x with --label) of 2N ranks.
check_output() {
  local file=$1 n=$2 kind=$3
  if [[ $job == output ]]; then
    if [[ $kind == labelled ]]; then
      (($(tr -cd x <"$file" | wc -c) == 2 * n * 20000000))
    else
      (($(stat -c %s "$file") == 2 * n * 20202020))
    fi
    return
  fi
  awk -v n="$n" '/^node[0-9]+$/ {c[$1]++; lines++}
    END {if (lines != 2 * n) exit 1; for (k = 1; k <= n; k++) if (c["node" k] != 2) exit 1}' "$file"
}

# The phases of a clusterrun run, from the summary.json its stderr names: "name seconds" lines.
phases() {
  local err=$1 dir
  dir=$(sed -n 's/.*; run directory \(.*\)$/\1/p' "$err" | tail -n1)
  [[ -n $dir && -r $dir/summary.json ]] || return 0
  awk '/"durations[A-Za-z]*" *: *\{/ {on=1; next} on && /\}/ {exit}
    on {gsub(/[",]/, ""); split($0, f, ":"); gsub(/ /, "", f[1]); gsub(/ /, "", f[2]); print f[1], f[2]}' \
    "$dir/summary.json"
}

# timed KIND I: one timed command of KIND (raw, named, unnamed); appends to $work/times.
timed() {
  local kind=$1 i=$2 out res secs rc cpu0=0 cpu1=0
  out=$work/out/$kind-$n-$i
  case $kind in raw) switch_to seed ;; *) switch_to clusterrun ;; esac
  if [[ -n $cpu_file ]]; then cpu0=$(bench_cpu_ns "$cpu_file"); fi
  case $kind in
    raw)
      res=$(as_user bash "$work/timed.sh" "$out" ssh -o BatchMode=yes node1 enroot start --rw \
        --mount "$WS:/app" "$CONTAINER" mpirun -np "$np" --hostfile /app/hosts.txt "${job_words[@]}")
      ;;
    named)
      res=$(as_user bash "$work/timed.sh" "$out" ssh -o BatchMode=yes node1 "$CR" run --nodes \
        "$HOSTS" "--container-name=$CONTAINER" --np "$np" "${job_words[@]}")
      ;;
    labelled)
      res=$(as_user bash "$work/timed.sh" "$out" ssh -o BatchMode=yes node1 "$CR" run --nodes \
        "$HOSTS" "--container-name=$CONTAINER" --np "$np" --label "${job_words[@]}")
      ;;
    unnamed)
      res=$(as_user bash "$work/timed.sh" "$out" ssh -o BatchMode=yes node1 "$CR" run --nodes \
        "$HOSTS" "--container-image=$IMG" --np "$np" hostname)
      ;;
  esac
  if [[ -n $cpu_file ]]; then cpu1=$(bench_cpu_ns "$cpu_file"); fi
  read -r secs rc <<<"$res"
  if [[ $rc != 0 ]] || ! check_output "$out.out" "$n" "$kind"; then
    # Counted and shown, not timed: a loaded 2-core machine running 64 nodes can fail a launch
    # (e.g. Open MPI: "unable to complete a TCP connection"); the table says how many failed.
    echo "run-vs-raw.sh: $kind on $n nodes (run $i) failed (exit $rc); its output:" >&2
    tail -n 30 "$out.out" "$out.err" >&2
    echo "$n $kind $i $rc" >>"$work/failed"
    return 0
  fi
  if ((i > 0)); then
    echo "$n $kind $secs" >>"$work/times"
    if [[ -n $cpu_file ]]; then
      awk -v n="$n" -v k="$kind" -v d=$((cpu1 - cpu0)) 'BEGIN {printf "%s %s %.3f\n", n, k, d / 1e9}' >>"$work/cpu"
    fi
    if [[ $kind != raw ]]; then
      phases "$out.err" | while read -r p s; do echo "$n $kind $p $s"; done >>"$work/phases"
      echo "$n $kind outside $(awk -v w="$secs" -v t="$(phases "$out.err" | awk '$1 == "total" {print $2}')" \
        'BEGIN {if (t != "") printf "%.3f", w - t; else print "-"}')" >>"$work/phases"
    fi
  fi
}

: >"$work/times"
: >"$work/cpu"
: >"$work/failed"
: >"$work/phases"
mkdir -p "$work/out"
declare -A load_before load_after
for n in $sizes; do
  np=$((2 * n))
  load_before[$n]=$(load)
  say "$n nodes: bringing the cluster up (load $(load))"
  CLUSTERRUN_LC_QUIET=1 CLUSTERRUN_LC_ENROOT=${CLUSTERRUN_LC_ENROOT:-standin} cluster up "$n"
  eval "$(cluster env | grep -E '^(JOB_USER|JOB_UID|JOB_HOME|SHARED_DIR|STATE_DIR|REGISTRY_DIR)=')"
  chown "$JOB_UID" "$work/out"
  S=$SHARED_DIR
  WS=$S/ws
  HOSTS=$S/hosts
  IMG=$S/img.sqsh
  install -d -o "$JOB_UID" -g "$JOB_UID" "$WS" "$S/opt/clusterrun"
  CR=$(bench_install "$S" "$JOB_UID" cds)
  cluster hostfile 2 >"$HOSTS"
  if [[ $tree_spawn == off ]]; then
    install -d -o "$JOB_UID" -g "$JOB_UID" "$JOB_HOME/.openmpi"
    echo "plm_rsh_no_tree_spawn = 1" >"$JOB_HOME/.openmpi/mca-params.conf"
    chown "$JOB_UID:$JOB_UID" "$JOB_HOME/.openmpi/mca-params.conf"
  fi
  cp "$HOSTS" "$WS/hosts.txt"
  chown "$JOB_UID:$JOB_UID" "$HOSTS" "$WS/hosts.txt"

  # clusterrun's setup, as the job user on the head (sudo on the nodes).
  on_head "$CR" setup --nodes "$HOSTS" --data-path "$S/enroot-data" >/dev/null ||
    die "clusterrun setup failed on $n nodes"
  mode=clusterrun
  if [[ -n $hook_seconds ]]; then cluster slow-hook all "$hook_seconds"; fi
  # The image (made once, kept for the next sizes) and the named container.
  if [[ ! -f $work/img.sqsh ]]; then
    say "making the image: the tiny image plus $image_mb MiB of this machine's /usr"
    mkdir -p "$REGISTRY_DIR/clusterrun/bench"
    cp -a "$REGISTRY_DIR/clusterrun/tiny/latest" "$REGISTRY_DIR/clusterrun/bench/latest"
    mkdir -p "$REGISTRY_DIR/clusterrun/bench/latest/opt/pad"
    # Real binaries and libraries, as an image's layers hold: they compress as those do, so that
    # unpacking costs what it costs with a real image (random bytes would be stored uncompressed).
    { tar -cf - -C / usr 2>/dev/null || true; } | head -c "${image_mb}M" \
      >"$REGISTRY_DIR/clusterrun/bench/latest/opt/pad/usr.tar" || true
    (($(stat -c %s "$REGISTRY_DIR/clusterrun/bench/latest/opt/pad/usr.tar") == image_mb * 1048576)) ||
      die "this machine's /usr is smaller than IMAGE_MB=$image_mb MiB"
    chmod -R a+rX "$REGISTRY_DIR/clusterrun/bench"
    on_head enroot import -o "$IMG" docker://clusterrun/bench >/dev/null 2>&1 ||
      die "enroot import of the bench image failed"
    cp "$IMG" "$work/img.sqsh"
  else
    install -m 0644 -o "$JOB_UID" "$work/img.sqsh" "$IMG"
  fi
  on_head enroot create -n "$CONTAINER" "$IMG" >/dev/null 2>&1 || die "enroot create failed"
  cpu_file=$(bench_cpu_group)

  # The seed's files, kept aside until a raw run needs them.
  for ((k = 1; k <= n; k++)); do
    mkdir -p "$work/stash/node$k/seed" "$work/stash/node$k/clusterrun"
    cat >"$work/stash/node$k/seed/50-seed.conf" <<EOF
# The seed recipe's enroot settings (what clusterrun setup also writes, by hand).
ENROOT_DATA_PATH $S/enroot-data
ENROOT_MOUNT_HOME yes
ENROOT_RUNTIME_PATH \${XDG_RUNTIME_DIR:-/tmp/enroot-runtime-\$(id -u)}/enroot
EOF
    cat >"$work/stash/node$k/seed/ompi.sh" <<EOF
#!/bin/bash
# The seed recipe's hook: the launch agent for exactly the command typed on the head.
echo "OMPI_MCA_orte_launch_agent=enroot start --rw --mount $WS:/app \${ENROOT_ROOTFS##*/} orted" >> "\$ENROOT_ENVIRON"
EOF
    chmod 0644 "$work/stash/node$k/seed/50-seed.conf"
    chmod 0755 "$work/stash/node$k/seed/ompi.sh"
  done

  say "$n nodes: one warm-up of each, then $runs alternating runs of ${kinds[*]}"
  for ((i = 0; i <= runs; i++)); do
    for kind in "${kinds[@]}"; do timed "$kind" "$i"; done
    # 120 MB a run: only the last run's output is kept.
    ((i == runs)) || rm -f "$work/out/"*-"$n-$i".out
  done
  switch_to clusterrun
  load_after[$n]=$(load)
  cluster down >/dev/null
  rm -rf "$work/stash"
done

echo
echo "clusterrun run vs the hand-typed seed command, job $job, 2 ranks a node, each with one ssh"
echo "login to the head; median (min-max) of $runs runs, seconds; enroot: ${CLUSTERRUN_LC_ENROOT:-standin}, image $image_mb MiB,"
echo "Open MPI tree spawn $tree_spawn${hook_seconds:+, a hook of $hook_seconds s on every node}"
if [[ $job == output ]]; then
  second_ratio="labelled/raw"
  targets=(1.15 1.15)
else
  second_ratio="unnamed/named"
  targets=(1.3 1.5)
fi
printf '%-6s %-20s %-20s %-20s %-14s %-14s %s\n' nodes "${kinds[@]}" "named/raw" "$second_ratio" "load before -> after"
for n in $sizes; do
  row=()
  declare -A med=()
  for kind in "${kinds[@]}"; do
    vals=$(awk -v n="$n" -v k="$kind" '$1 == n && $2 == k {print $3}' "$work/times")
    m=$(median 2 <<<"$vals")
    read -r lo hi < <(minmax <<<"$vals")
    row+=("$m ($lo-$hi)")
    med[$kind]=$m
  done
  r1=$(ratio "${med[named]}" "${med[raw]}")
  if [[ $job == output ]]; then
    r2=$(ratio "${med[labelled]}" "${med[raw]}")
  else
    r2=$(ratio "${med[unnamed]}" "${med[named]}")
  fi
  v1=$(met "$r1" "${targets[0]}")
  v2=$(met "$r2" "${targets[1]}")
  printf '%-6s %-20s %-20s %-20s %-14s %-14s %s\n' "$n" "${row[0]}" "${row[1]}" "${row[2]}" \
    "${r1}x $v1" "${r2}x $v2" "${load_before[$n]} -> ${load_after[$n]}"
done
echo "(targets: named/raw <= ${targets[0]}x, $second_ratio <= ${targets[1]}x)"
if [[ -s $work/failed ]]; then
  echo "FAILED runs (not in the medians above; their output is above the table):"
  awk '{printf "  %s nodes, %s, run %s: exit %s\n", $1, $2, $3, $4}' "$work/failed"
fi
echo
echo "where clusterrun's time goes: medians of summary.json's phases, seconds (outside = wall - total:"
echo "ssh login, JVM start; the node checks are the checks phase)"
phase_names=$(awk '{print $3}' "$work/phases" | awk '!seen[$1]++' | tr '\n' ' ')
printf '%-6s %-8s' nodes kind
for p in $phase_names; do printf ' %8s' "$p"; done
echo
for n in $sizes; do
  for kind in "${kinds[@]:1}"; do
    printf '%-6s %-8s' "$n" "$kind"
    for p in $phase_names; do
      printf ' %8s' "$(awk -v n="$n" -v k="$kind" -v p="$p" '$1 == n && $2 == k && $3 == p {print $4}' "$work/phases" | median 2)"
    done
    echo
  done
done
if [[ -s $work/cpu ]]; then
  echo
  echo "CPU time the cluster spent per command: every node's processes and clusterrun's JVM, not"
  echo "the ssh client outside (medians, CPU seconds); on a machine whose cores all nodes share, the"
  echo "wall time of a command can fall below its CPU time only by the cores it keeps busy"
  printf '%-6s' nodes
  for kind in "${kinds[@]}"; do printf ' %10s' "$kind"; done
  printf ' %10s\n' "${kinds[1]}/raw"
  for n in $sizes; do
    printf '%-6s' "$n"
    declare -A cmed=()
    for kind in "${kinds[@]}"; do
      cmed[$kind]=$(awk -v n="$n" -v k="$kind" '$1 == n && $2 == k {print $3}' "$work/cpu" | median 3)
      printf ' %10s' "${cmed[$kind]}"
    done
    printf ' %9sx\n' "$(ratio "${cmed[${kinds[1]}]}" "${cmed[raw]}")"
  done
fi
