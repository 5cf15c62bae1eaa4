#!/bin/sh
# make-cds.sh JAR ARCHIVE JOB HOSTFILE
#
# Makes a class-data-sharing archive of the classes a clusterrun start loads, from three training
# runs of JAR with the launcher script's JVM flags, each listing the classes it loads
# (-XX:DumpLoadedClassList):
#   1. `clusterrun plan JOB --nodes HOSTFILE --json`: picocli's command tree, the YAML loader, the
#      planner, the JSON renderer;
#   2. `clusterrun run` of a training job on a hostfile of this machine alone: the session, the
#      fact script and its parser, the checks, the check table (it stops where a check fails);
#   3. the same with --skip-checks: the launch, up to starting enroot (it fails there: the training
#      container does not exist, or enroot is not installed).
# The lists are merged into one static archive (-Xshare:dump), which also holds the JDK's own
# classes these runs use. The archive is tied to JAR (path, size, mtime) and to this JDK build: the
# launcher ignores a stale one silently, so run this again after either changes. The build runs it
# (make-launcher.sh) and so does the Debian package (postinst, also when a JDK under /usr/lib/jvm
# changes).
#
# Java: $JAVA_HOME/bin/java when set, else `java` from PATH (the launcher's rule). The archive is
# written atomically, mode 0644; on failure no archive is left behind and the exit code is 1.
# The training runs read only JOB and HOSTFILE and write only in a private temporary directory,
# removed afterwards: HOME, the working directory, the training job's workspace and every path
# enroot would use (ENROOT_*_PATH in the environment, which enroot and the fact script put before
# any configuration file). Runs 2 and 3 touch no other machine (the hostfile names this one only)
# and each has 60 seconds.
set -eu
if [ $# -ne 4 ]; then
  echo "usage: make-cds.sh JAR ARCHIVE JOB HOSTFILE" >&2
  exit 2
fi
# Absolute paths: the training runs elsewhere, and the archive records the jar's path as given
# (the launcher passes it resolved with readlink -f).
jar=$(readlink -f -- "$1") jsa=$(readlink -f -- "$2") job=$(readlink -f -- "$3")
hosts=$(readlink -f -- "$4")
java=java
if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then java=$JAVA_HOME/bin/java; fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/clusterrun-cds.XXXXXX")
part=$(mktemp "$jsa.XXXXXX")
trap 'rm -rf "$tmp"; rm -f "$part"' EXIT
rm -f "$part" # the JVM creates the archive itself

limit=
if command -v timeout >/dev/null 2>&1; then limit='timeout -k 5 60'; fi
# train N ARGS...: one training run, its class list in $tmp/N.classes, its output in $tmp/N.out.
# -XX:-UsePerfData: leaves no hsperfdata file behind.
train() {
  n=$1
  shift
  # shellcheck disable=SC2086
  (cd "$tmp" && env HOME="$tmp" ENROOT_DATA_PATH="$tmp/enroot/data" \
    ENROOT_CACHE_PATH="$tmp/enroot/cache" ENROOT_RUNTIME_PATH="$tmp/enroot/runtime" \
    ENROOT_CONFIG_PATH="$tmp/enroot/config" ENROOT_TEMP_PATH="$tmp/enroot/temp" \
    $limit "$java" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xss1m -XX:-UsePerfData \
    -XX:DumpLoadedClassList="$tmp/$n.classes" -jar "$jar" "$@" >"$tmp/$n.out" 2>&1)
}
planned=yes
train 1 plan "$job" --nodes "$hosts" --json || planned=no
cat >"$tmp/job.yaml" <<EOF
# clusterrun's class-data-sharing training job (make-cds.sh)
name: cds-training
container:
  name: cds-training
workspace:
  path: "$tmp/ws"
  mount: /workspace
command: [hostname]
EOF
printf 'localhost slots=1\n' >"$tmp/hosts"
train 2 run --nodes "$tmp/hosts" "$tmp/job.yaml" || true
train 3 run --skip-checks --nodes "$tmp/hosts" "$tmp/job.yaml" || true

# The plan's run must have worked; the other two end where they cannot go on, by design.
if [ "$planned" = yes ] && [ -s "$tmp/1.classes" ] && [ -s "$tmp/2.classes" ] && [ -s "$tmp/3.classes" ] &&
  awk '!/^#/ && !seen[$0]++' "$tmp/1.classes" "$tmp/2.classes" "$tmp/3.classes" >"$tmp/all.classes" &&
  "$java" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xss1m -XX:-UsePerfData -Xshare:dump \
    -XX:SharedClassListFile="$tmp/all.classes" -XX:SharedArchiveFile="$part" -Xlog:cds=off \
    -Xlog:cds+dynamic=off -cp "$jar" >"$tmp/dump.out" 2>&1 && [ -s "$part" ]; then
  chmod 0644 "$part"
  mv -f "$part" "$jsa"
  exit 0
fi
rm -f "$jsa"
echo "make-cds: no class-data-sharing archive was made; clusterrun starts without it (slower)" >&2
for f in 1.out 2.out 3.out dump.out; do
  if [ -s "$tmp/$f" ]; then sed 's/^/make-cds:   /' "$tmp/$f" | tail -n 5 >&2; fi
done
exit 1
