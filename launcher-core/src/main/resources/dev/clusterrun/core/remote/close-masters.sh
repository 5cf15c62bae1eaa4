# shellcheck shell=sh
# Ends the head's OpenSSH masters in a directory clusterrun made (SshMasters.java), and removes it.
#   $1 DIR  the masters' directory (checked by the caller: /dev/shm/clusterrun-ssh.XXXXXX)
d=$1
for s in "$d"/*; do
  if [ -S "$s" ]; then
    ssh -F /dev/null -o ControlPath="$s" -O exit clusterrun </dev/null >/dev/null 2>&1 &
  fi
done
wait
rm -rf -- "$d"
