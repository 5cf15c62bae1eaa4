#!/usr/bin/env bash
# Runs at `mvn package`: puts the launcher script beside the shaded jar and records a dynamic
# AppCDS archive of the classes a typical start loads. The archive is tied to this jar and this
# JDK; the launcher ignores it silently when either changed.
set -euo pipefail
target=$1
here=$(cd "$(dirname "$0")" && pwd)
install -m 0755 "$here/clusterrun" "$target/clusterrun"
jar="$target/clusterrun.jar"
jsa="$target/clusterrun.jsa"
rm -f "$jsa"
java=java
if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]]; then java=$JAVA_HOME/bin/java; fi
# Train on a typical command: picocli's command tree, the YAML loader, the planner and the JSON
# renderer. Failures here must not fail the build.
root=$(cd "$here/../../../.." && pwd)
"$java" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:ArchiveClassesAtExit="$jsa" \
  -Xlog:cds=off -Xlog:cds+dynamic=off -jar "$jar" \
  plan "$root/examples/seed.yaml" --nodes "$root/hostfiles/2x8.txt" --json >/dev/null 2>&1 || true
if [[ ! -s "$jsa" ]]; then
  echo "make-launcher: note: no CDS archive was made; clusterrun starts without it" >&2
fi
