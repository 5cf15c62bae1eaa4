#!/usr/bin/env bash
# Builds the two jpackage alternatives to the Debian package, for bench/startup.sh to time (the
# comparison in docs/install.md). Not part of the build: the project ships the jdeb package.
#
#   bench/jpackage-image.sh [DIR]      # default DIR: target/jpackage (two app images in it)
#   bench/startup.sh DIR/default/clusterrun/bin/clusterrun DIR/minimal/clusterrun/bin/clusterrun
#
# default: jpackage's own runtime image (jlink of the default modules) with the launcher's JVM
#          flags; jlink leaves out the JDK's class-data-sharing archive.
# minimal: a jlink runtime of the modules jdeps finds (plus the providers sshj needs), its CDS
#          archive dumped, and the application's AppCDS archive, as the package's postinst makes it.
# Build first: mvn -B -q package -DskipTests. Needs a JDK 17 with jpackage and jlink.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mkdir -p "${1:-target/jpackage}" && cd "${1:-target/jpackage}" && pwd)
jar=launcher-cli/target/clusterrun.jar
[[ -f $jar ]] || { echo "jpackage-image.sh: $jar is missing; run: mvn -B -q package -DskipTests" >&2; exit 2; }
for tool in jpackage jlink jdeps; do
  command -v "$tool" >/dev/null || { echo "jpackage-image.sh: $tool is missing (a full JDK 17 has it)" >&2; exit 2; }
done
flags=(-XX:TieredStopAtLevel=1 -XX:CICompilerCount=1 -XX:+UseSerialGC -Xss1m) # the launcher script's
rm -rf "${out:?}"/{input,runtime,default,minimal}
mkdir -p "$out/input"
cp "$jar" "$out/input/"

jpackage --type app-image --name clusterrun --input "$out/input" --main-jar clusterrun.jar \
  --main-class dev.clusterrun.cli.Main --dest "$out/default" --java-options "${flags[*]}"

modules=$(jdeps --multi-release 17 --ignore-missing-deps --print-module-deps "$jar")
jlink --add-modules "$modules,jdk.crypto.ec,jdk.charsets" --strip-debug --no-header-files \
  --no-man-pages --output "$out/runtime"
"$out/runtime/bin/java" -Xshare:dump >/dev/null
jpackage --type app-image --name clusterrun --input "$out/input" --main-jar clusterrun.jar \
  --main-class dev.clusterrun.cli.Main --runtime-image "$out/runtime" --dest "$out/minimal" \
  --java-options "${flags[*]} -XX:SharedArchiveFile=\$APPDIR/clusterrun.jsa -Xlog:cds=off -Xlog:cds+dynamic=off"
app=$out/minimal/clusterrun/lib/app
JAVA_HOME=$out/minimal/clusterrun/lib/runtime sh launcher-cli/src/main/dist/make-cds.sh \
  "$app/clusterrun.jar" "$app/clusterrun.jsa" examples/seed.yaml hostfiles/2x8.txt
du -sh "$out/default" "$out/minimal"
