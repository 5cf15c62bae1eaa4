# shellcheck shell=sh
# clusterrun's logins from the head: `ssh NODE COMMAND` for every node, in parallel, as the job
# user with the names mpirun will use (SshLogins.java). Arguments, set by the prelude above:
#   $1 COMMAND   what each login runs (`true`, or the opening round's script)
#   $2 MARK      a random word no output line starts with by chance
#   $3 SECONDS   what each ssh may take in all: the login and its command
#   $4 PARALLEL  logins at a time (each takes a free slot as it starts)
#   $5 KEEP      1: keep each login as an OpenSSH master connection; 0: plain logins
#   $6 MASTERS   the masters' directory the caller chose ('' for one of mktemp's)
#   $7 TEMPLATE  mktemp's template for the masters' directory
#   $8 MAX_NAME  longest node name that gets a master (a socket path fits in 108 bytes)
#   $9 PERSIST   seconds an idle master waits before it exits by itself
#   $10...       the nodes
# Output: `@clusterrun-begin`, `ssh.masters=DIR` and `ssh.I.master=1` (node I has a master),
# `@clusterrun-end`, then each node's output and error output, each opened by a line naming the
# node (`@o-MARK I`, `@e-MARK I`), the error output closed by `@rc-MARK I EXIT`.
printf '%s\n' '@clusterrun-begin'
c=$1 m=$2 secs=$3 par=$4 keep=$5 want=$6 template=$7 maxname=$8 persist=$9
shift 9
t=$(mktemp -d 2>/dev/null) || {
  t=/tmp/clusterrun-ssh.$$
  mkdir -p "$t"
}
if command -v timeout >/dev/null 2>&1; then to="timeout -k 1 $secs"; else to=; fi
cm=
if [ "$keep" = 1 ]; then
  # The directory chosen by the caller when it is free (mkdir makes it 0700 or fails), else one of
  # mktemp's.
  if [ -n "$want" ]; then
    cm=$want
    mkdir -m 0700 -- "$cm" 2>/dev/null || cm=
  fi
  [ -n "$cm" ] || cm=$(mktemp -d "$template" 2>/dev/null) || cm=
  if [ -n "$cm" ]; then printf 'ssh.masters=%s\n' "$cm"; fi
fi
# A window of logins: each takes a slot (a line of a FIFO) as it starts and gives it back as it
# ends; without a FIFO, batches. `command exec`: a failed redirection of a plain exec would end
# the script.
s="$t/slots"
if mkfifo -- "$s" 2>/dev/null && command exec 3<>"$s"; then
  k=0
  while [ "$k" -lt "$par" ]; do
    echo >&3
    k=$((k + 1))
  done
else
  s=
fi
i=0
for n in "$@"; do
  mux=
  if [ -n "$cm" ] && [ ${#n} -le "$maxname" ]; then
    mux="-o ControlMaster=yes -o ControlPersist=$persist -o ControlPath=$cm/%n"
  fi
  printf '@o-%s %s\n' "$m" $i >"$t/$i.o"
  printf '@e-%s %s\n' "$m" $i >"$t/$i.e"
  if [ -n "$s" ]; then read -r _ <&3; fi
  (
    # $to and $mux unquoted on purpose: their words ($cm is mktemp's or the caller's checked name:
    # no blank, no glob).
    # shellcheck disable=SC2086
    $to ssh -n $mux -o BatchMode=yes -o ConnectTimeout=5 -- "$n" "$c" </dev/null \
      >>"$t/$i.o" 2>>"$t/$i.e" 3>&-
    printf '\n@rc-%s %s %s\n' "$m" $i $? >>"$t/$i.e"
    echo >>"$t/$i.o"
    if [ -n "$s" ]; then echo >&3; fi
  ) &
  i=$((i + 1))
  if [ -z "$s" ] && [ $((i % par)) -eq 0 ]; then wait; fi
done
wait
if [ -n "$s" ]; then exec 3>&-; fi
if [ -n "$cm" ]; then
  i=0
  for n in "$@"; do
    if [ -S "$cm/$n" ]; then printf 'ssh.%s.master=1\n' $i; fi
    i=$((i + 1))
  done
fi
printf '%s\n' '@clusterrun-end'
cat -- "$t"/*.o "$t"/*.e 2>/dev/null
rm -rf -- "$t"
exit 0
