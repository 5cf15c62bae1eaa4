# clusterrun: prints "port P" for one TCP port nobody has bound on this node, among the PORTS
# ports from FIRST on, starting at a random offset so two runs at once rarely pick the same one.
# Parameters (set by the line above): FIRST PORTS. POSIX sh.
first=$1
ports=$2
# The bound ports, in hex as /proc/net/tcp* shows them, each with a space on both sides.
used=" $(cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk '$2 ~ /:/ {split($2, a, ":"); printf "%s ", a[2]}')"
off=$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')
i=0
while [ "$i" -lt "$ports" ]; do
  p=$((first + (off + i) % ports))
  h=$(printf '%04X' "$p")
  case "$used" in *" $h "*) ;; *) echo "port $p"; exit 0 ;; esac
  i=$((i + 1))
done
echo 'no free port' >&2
exit 1
