# clusterrun: a look inside NVIDIA's HPC-Benchmarks container (HplProbe). Prints the paths the
# PATTERNs match (the hpl.sh candidates), "@@dat", the sample dat files when DATS is yes, "@@arch"
# and the architecture.
# Parameters (set by the first line): DATS (yes or no), then the PATTERNs, globs. POSIX sh.
dats=$1
shift
# Each pattern is expanded as a glob, whole: IFS empty splits none.
IFS=
for pattern in "$@"; do
  shift
  # shellcheck disable=SC2086 # a glob, expanded here on purpose (never split: IFS is empty)
  set -- "$@" $pattern
done
unset IFS
ls -d "$@" 2>/dev/null
echo @@dat
if [ "$dats" = yes ]; then
  find /workspace /opt/nvidia -path '*sample-dat*' -name '*.dat' 2>/dev/null
fi
echo @@arch
uname -m
true
