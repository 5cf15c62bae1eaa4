#!/bin/sh
# make-cds.sh JAR ARCHIVE JOB HOSTFILE
#
# Records a dynamic AppCDS archive of the classes a typical clusterrun start loads (picocli's
# command tree, the YAML loader, the planner, the JSON renderer) by running
# `clusterrun plan JOB --nodes HOSTFILE --json` once, with the JVM flags of the launcher script.
# The archive is tied to JAR (path, size, mtime) and to this JDK build: the launcher ignores a
# stale one silently, so run this again after either changes. The build runs it (make-launcher.sh)
# and so does the Debian package (postinst, also when a JDK under /usr/lib/jvm changes).
#
# Java: $JAVA_HOME/bin/java when set, else `java` from PATH (the launcher's rule). The archive is
# written atomically, mode 0644; on failure no archive is left behind and the exit code is 1.
# The training run reads only JOB and HOSTFILE, with HOME and the working directory in a private
# temporary directory that is removed afterwards.
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

# -XX:-UsePerfData: leave no hsperfdata file behind; it does not affect the archive.
if (cd "$tmp" && HOME=$tmp "$java" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xss1m \
  -XX:-UsePerfData -XX:ArchiveClassesAtExit="$part" -Xlog:cds=off -Xlog:cds+dynamic=off \
  -jar "$jar" plan "$job" --nodes "$hosts" --json >/dev/null 2>"$tmp/err") && [ -s "$part" ]; then
  chmod 0644 "$part"
  mv -f "$part" "$jsa"
  exit 0
fi
rm -f "$jsa"
echo "make-cds: no class-data-sharing archive was made; clusterrun starts without it (slower)" >&2
sed 's/^/make-cds:   /' "$tmp/err" | head -n 5 >&2
exit 1
