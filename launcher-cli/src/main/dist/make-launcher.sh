#!/usr/bin/env bash
# Runs at `mvn package`: puts the launcher script beside the shaded jar and records a dynamic
# AppCDS archive of the classes a typical start loads (make-cds.sh, which the Debian package's
# postinst runs too). The archive is tied to this jar and this JDK; the launcher ignores it
# silently when either changed. A failure to make it does not fail the build.
set -euo pipefail
target=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
install -m 0755 "$here/clusterrun" "$target/clusterrun"
sh "$here/make-cds.sh" "$target/clusterrun.jar" "$target/clusterrun.jsa" \
  "$root/examples/seed.yaml" "$root/hostfiles/2x8.txt" || true
