#!/usr/bin/env bash
# A real multi-node cluster on one Linux machine, for clusterrun's integration tests and quick start.
#
# Each node is a network namespace on a bridge of its own (10.213.76.0/23, no route out), with its
# own UTS namespace (hostname nodeK) and mount namespace (its own /tmp, /run and /etc/enroot),
# held by one long-lived process whose PID is recorded. Every node runs its own OpenSSH sshd.
# enroot on the nodes is the stand-in (enroot-standin/, with its packaged configuration) or the
# host's real enroot started from ITS packaged configuration; /dev/fuse is usable by the job user
# on the nodes when the machine allows it (squashfuse, as enroot uses it for IMAGE.sqsh starts).
# /home and the shared directory are the host's and so are shared by all nodes, like NFS.
# Two image registries (Docker's distribution 2.8, plain HTTP, one open, one with basic auth) serve
# on the host's bridge address; `push` puts new versions of the tiny image into them.
# Everything made is recorded under the state directory; `down` removes exactly that.
#
# One local cluster per machine, owned by one process at a time: the owner holds a POSIX record lock
# on /run/clusterrun-lc.owner.lock (the lock LocalCluster.java takes in the test JVMs) from `up` to
# `down`. Commands that change the cluster act only for the owner (the process holding the lock, or
# one of its ancestors); a plain `up` from a shell starts a small process that holds the lock for
# the cluster until `down`, so integration tests started meanwhile wait instead of tearing it down.
#
# Needs root, network/UTS/mount namespaces, iproute2, util-linux, OpenSSH (see install-deps.sh).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
readonly HERE
readonly STANDIN_DIR=$HERE/enroot-standin
readonly STANDIN_TOOLS=(enroot enroot-mount enroot-switchroot)
readonly STATE_DIR=${CLUSTERRUN_LC_STATE:-/var/lib/clusterrun-lc}
readonly SHARED_ROOT=${CLUSTERRUN_LC_SHARED_ROOT:-/srv/clusterrun-lc}
readonly SHARED_DIR=$SHARED_ROOT/shared
readonly REGISTRY_DIR=$SHARED_ROOT/registry
readonly JOB_USER=crjob
readonly JOB_UID=4242
readonly JOB_HOME=/home/$JOB_USER
# A second job user (same uid on every node, own key and known_hosts), for jobs of two users at
# once. Its home is shared too, under the shared root.
readonly JOB2_USER=crjob2
readonly JOB2_UID=4243
readonly JOB2_HOME=$SHARED_ROOT/home/$JOB2_USER
# A /23 (10.213.76.0 .. 10.213.77.255): node1..node244 keep the addresses they had on the /24 that
# came before (10.213.77.11 .. .254); node245..node498 take 10.213.76.1 .. .254.
readonly SUBNET_PREFIX=10.213.77
readonly LOW_PREFIX=10.213.76
readonly PREFIX_LEN=23
readonly SUBNET=$LOW_PREFIX.0/$PREFIX_LEN
readonly HOST_ADDR=$SUBNET_PREFIX.1
readonly BRIDGE=crlc0
readonly NETNS_PREFIX=crlc-
readonly HOSTS_BEGIN="# BEGIN clusterrun-local-cluster (managed by examples/local-cluster/cluster.sh)"
readonly HOSTS_END="# END clusterrun-local-cluster"
# Addresses 10.213.77.11 .. .254, then 10.213.76.1 .. .254 (see node_addr).
readonly MAX_NODES=498
readonly OWNER_LOCK=/run/clusterrun-lc.owner.lock
# The cluster's own (Docker-like) bridge on every node with `up N --docker-bridge`.
readonly DOCKER_BRIDGE=docker0
readonly DOCKER_ADDR=172.17.0.1/16
# Two image registries on the host's bridge address (Debian's docker-registry, Docker's
# distribution 2.8, plain HTTP): an open one, and a private one with htpasswd basic auth for one
# test user whose password `up` makes and keeps in the state directory.
readonly REGISTRY_PORT=5000
readonly PRIVATE_REGISTRY_PORT=5001
readonly REGISTRY_USER=crlc-puller
# The hook 'slow-hook' installs in a node's own /etc/enroot/hooks.d.
readonly SLOW_HOOK=90-slow.sh

usage() {
  cat <<EOF
Usage: cluster.sh COMMAND [ARGS]

A multi-node cluster on this machine: nodes node1..nodeN as namespaces with their own sshd.

Commands:
  up N [--docker-bridge]    bring nodes node1..nodeN up (N up to $MAX_NODES; tears down a cluster
                            left without owner first, waits while another process owns one);
                            --docker-bridge gives every node a docker0 bridge with $DOCKER_ADDR
  down                      remove everything 'up' made (idempotent)
  status                    show nodes, holder and sshd PIDs, cut nodes
  env                       print KEY=VALUE facts (job users, key files, shared dir, nodes, ...)
  hostfile [SLOTS]          print an Open MPI hostfile for the nodes that are up (default 1 slot)
  exec NODE [--root|--user USER] -- CMD...
                            run CMD on NODE as the job user ($JOB_USER, or USER: $JOB_USER or
                            $JOB2_USER) or root, with a clean environment like a non-interactive
                            SSH session; its exit code is passed through
  isolate NODE PATH         hide PATH on NODE only (an empty tmpfs over it): PATH is not shared
  unisolate NODE PATH       undo 'isolate'
  share-etc-enroot          give every node one /etc/enroot (a copy of node1's, the same device
                            and inode everywhere), as diskless nodes with an NFS root have
  unshare-etc-enroot        undo 'share-etc-enroot': each node's own /etc/enroot again
  cut NODE [--arp]          drop NODE off the network without a reset (no RST, no ICMP; its
                            processes keep running); --arp lets ARP fail as on one Ethernet segment
  uncut NODE                undo 'cut'
  throttle NODE PERCENT     limit NODE's sshd, and every session it starts from now on, to PERCENT
                            of one CPU (a cgroup v1 cpu.cfs_quota_us, period 100 ms)
  unthrottle NODE           undo 'throttle' (the sessions started meanwhile too)
  limit NODE RATE [--to PEER]
                            limit what NODE sends on its eth0 to RATE (tc's units, e.g. 50mbit):
                            all of it (a tbf qdisc: NODE's link), or with --to only what it sends
                            to PEER's address (an htb class with a u32 filter on the destination;
                            the rest passes unlimited): the link between NODE and PEER alone
  unlimit NODE              undo 'limit'
  slow-hook NODE|all SECONDS
                            give NODE (or every node) an enroot hook that takes SECONDS (e.g. 0.8,
                            as the NVIDIA hook costs a GPU node): /etc/enroot/hooks.d/$SLOW_HOOK
                            in the node's own /etc/enroot, run by every enroot start there
  fast-hook NODE|all        undo 'slow-hook'
  push [--private] [--oci] [--arch ARCH[,ARCH...]] REPO:TAG [--add PATH=CONTENT]...
       [--remove PATH]... [--env KEY=VALUE]...
                            push a new version of the tiny image to the cluster's open registry
                            (--private: the private one) under REPO:TAG, moving the tag: the
                            tiny tree, one layer with the --add files, one of whiteouts for the
                            --remove paths, the config's Env; Docker v2 schema 2 (--oci: an OCI
                            manifest); several --arch: a manifest list. Prints the digest
  own -- CMD...             run CMD holding the machine-wide owner lock of the local cluster
                            (waiting for another owner first): what benchmarks and scripts use
  owner                     print the PID and command line of the owner lock's holder, if any
  owner-state               who may change the cluster: free, recorded (a plain up left it up:
                            up, down and the ITs replace it), or other PID (wait for it)
  check                     say whether this machine can run the cluster (exit 0 when it can)

Environment:
  CLUSTERRUN_LC_ENROOT=auto|standin|host
                            'standin' puts the enroot stand-in on the nodes' PATH, 'host' uses
                            the host's enroot (each node starting from enroot's packaged
                            configuration); 'auto' (default) uses the host's when there is one
  CLUSTERRUN_LC_SUDO=1|0    give the job user password-less sudo inside the nodes (default 1)
  CLUSTERRUN_LC_BASE_IMAGE=FILE.sqsh
                            build the registries' images on this image's files (with a host
                            enroot, the tiny tree alone has no shell or Open MPI for a job)
EOF
}

die() {
  echo "cluster.sh: $*" >&2
  exit 1
}

note() { [[ -n ${CLUSTERRUN_LC_QUIET:-} ]] || echo "cluster.sh: $*" >&2; }

require_root() {
  [[ $(id -u) -eq 0 ]] || die "must run as root (it creates namespaces, a bridge, a user and sshd's)"
}

# Prints one line per missing prerequisite; returns non-zero when anything is missing.
check_prereqs() {
  local missing=0 c
  if [[ $(id -u) -ne 0 ]]; then
    echo "not root (uid $(id -u)): the local cluster needs root"
    missing=1
  fi
  for c in ip bridge unshare nsenter setpriv sshd ssh ssh-keygen mksquashfs unsquashfs mpirun mpicc \
    findmnt mountpoint useradd userdel flock perl docker-registry skopeo umoci htpasswd curl jq; do
    if ! command -v "$c" >/dev/null 2>&1 && [[ ! -x /usr/sbin/$c ]]; then
      echo "missing command: $c (run examples/local-cluster/install-deps.sh)"
      missing=1
    fi
  done
  if [[ $(id -u) -eq 0 ]] && command -v unshare >/dev/null 2>&1; then
    if ! unshare --net --uts --mount true 2>/dev/null; then
      echo "network/UTS/mount namespaces are not available here (unshare --net --uts --mount failed)"
      missing=1
    fi
    if ! unshare --user --map-root-user --mount true 2>/dev/null; then
      echo "user namespaces are not available here (unshare --user failed)"
      missing=1
    fi
  fi
  return $missing
}

node_count() {
  if [[ -r $STATE_DIR/nodes.count ]]; then cat "$STATE_DIR/nodes.count"; else echo 0; fi
}

node_index() {
  local node=$1
  [[ $node =~ ^node([0-9]+)$ ]] || die "$node: not a node name (expected nodeK)"
  local k=${BASH_REMATCH[1]}
  ((k >= 1 && k <= $(node_count))) || die "$node: no such node is up (nodes up: $(node_count))"
  echo "$k"
}

node_addr() {
  if (($1 <= 244)); then echo "$SUBNET_PREFIX.$((10 + $1))"; else echo "$LOW_PREFIX.$(($1 - 244))"; fi
}

# The holder PID of a node, checked to still be our holder (PIDs may be reused).
holder_pid() {
  local node=$1 pid arg0
  { read -r pid <"$STATE_DIR/nodes/$node/holder.pid"; } 2>/dev/null || return 1
  [[ -n $pid ]] || return 1
  { IFS= read -r -d '' arg0 <"/proc/$pid/cmdline"; } 2>/dev/null
  [[ $arg0 == "crlc-holder-$node" ]] || return 1
  echo "$pid"
}
# True when PID runs in the network namespace of our node NODE.
in_node_netns() {
  local pid=$1 node=$2
  [[ -e /run/netns/$NETNS_PREFIX$node && /proc/$pid/ns/net -ef /run/netns/$NETNS_PREFIX$node ]]
}
record() { echo "$*" >>"$STATE_DIR/created"; }

# ---------------------------------------------------------------------------------------------
# The owner lock: a POSIX record lock (fcntl F_SETLK, as Java's FileChannel.lock takes it; flock(1)
# takes a different kind of lock that does not exclude it) on OWNER_LOCK. Perl (perl-base) speaks
# fcntl; struct flock is { short type, whence; off_t start, len; pid_t pid } on Linux.
#   who FILE          print the PID holding the lock (nothing when it is free)
#   run FILE CMD...   wait for the lock, run CMD as a child while holding it, exit with its code
#   hold FILE         wait for the lock, say "locked" on stdout, keep it until killed
# shellcheck disable=SC2016 # Perl code: every $ in it is Perl's
readonly OWNER_PERL='
use strict; use warnings; use Fcntl; use POSIX ();
my ($mode, $file, @cmd) = @ARGV;
my $fmt = "s s x4 q q i x4";
open(my $fh, ">>", $file) or die "cluster.sh: $file: $!\n";
sub holder { my $lk = pack($fmt, F_WRLCK, 0, 0, 0, 0);
  fcntl($fh, F_GETLK, $lk) or die "cluster.sh: $file: F_GETLK: $!\n";
  my ($type, undef, undef, undef, $pid) = unpack($fmt, $lk); return $type == F_UNLCK ? 0 : $pid; }
sub cmdline { my $p = shift; open(my $c, "<", "/proc/$p/cmdline") or return "?";
  local $/; my $t = <$c> // ""; $t =~ s/\0+$//; $t =~ tr/\0\n/  /; return substr($t, 0, 160); }
if ($mode eq "who") { my $p = holder(); print "$p\n" if $p; exit 0; }
# Blocking (F_SETLKW), as Java waits too, so that the lock is ours at the first moment it is free;
# woken by an alarm every minute to say whom we wait for.
local $SIG{ALRM} = sub { };
while (!fcntl($fh, F_SETLK, pack($fmt, F_WRLCK, 0, 0, 0, 0))) {
  my $p = holder();
  print STDERR "cluster.sh: waiting for the owner of the local cluster: pid $p (" . cmdline($p) . ")\n" if $p;
  alarm 60;
  my $ok = fcntl($fh, F_SETLKW, pack($fmt, F_WRLCK, 0, 0, 0, 0));
  alarm 0;
  last if $ok;
  die "cluster.sh: $file: F_SETLKW: $!\n" unless $!{EINTR};
}
if ($mode eq "hold") {
  $0 = "crlc-owner";
  $| = 1; print "locked\n";
  open(STDIN, "<", "/dev/null"); open(STDOUT, ">", "/dev/null"); open(STDERR, ">", "/dev/null");
  $SIG{TERM} = $SIG{INT} = $SIG{HUP} = sub { exit 0 };
  sleep 3600 while 1;
}
$0 = "crlc-own " . join(" ", @cmd);
$ENV{CLUSTERRUN_LC_OWNER} = $$;
my $child = fork() // die "cluster.sh: fork: $!\n";
if (!$child) { exec { $cmd[0] } @cmd or die "cluster.sh: $cmd[0]: $!\n"; }
for my $s (qw(TERM INT HUP)) { $SIG{$s} = sub { kill $s, $child }; }
while (waitpid($child, 0) < 0) { last unless $!{EINTR}; }
my $st = $?;
exit(($st & 127) ? 128 + ($st & 127) : $st >> 8);
'

# The PID holding the owner lock, or nothing.
owner_pid() { perl -e "$OWNER_PERL" who "$OWNER_LOCK"; }

# True when PID is this process or one of its ancestors.
is_ancestor() {
  local want=$1 p=$$ stat
  while ((p > 1)); do
    [[ $p == "$want" ]] && return 0
    stat=$(cat "/proc/$p/stat" 2>/dev/null) || return 1
    stat=${stat##*) }
    read -r _ p _ <<<"$stat"
  done
  return 1
}

# The lock-holding process `up` started for a cluster brought up without an owner, when it still
# runs.
recorded_owner() {
  local pid
  pid=$(cat "$STATE_DIR/owner.pid" 2>/dev/null) || return 1
  [[ -n $pid && $(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null) == "crlc-owner"* ]] || return 1
  echo "$pid"
}

# Who may change the cluster: prints "ancestor" (we run for the lock's holder), "recorded" (the
# holder is the process a plain `up` left for this cluster), "free", or "other PID".
owner_state() {
  local pid
  pid=$(owner_pid) || die "cannot read the owner lock $OWNER_LOCK"
  if [[ -z $pid ]]; then echo free
  elif is_ancestor "$pid"; then echo ancestor
  elif [[ $pid == "$(recorded_owner || true)" ]]; then echo recorded
  else echo "other $pid"
  fi
}

# Commands that change the cluster refuse to act on a cluster another process owns.
require_owner() {
  local what=$1 state
  state=$(owner_state)
  [[ $state != other* ]] || die "$what: the local cluster belongs to pid ${state#other } ($(tr '\0\n' '  ' <"/proc/${state#other }/cmdline" 2>/dev/null | cut -c1-160)); it takes the cluster down itself when done (run your own commands under 'cluster.sh own -- CMD' to wait for it)"
}

# For `up`: makes sure the cluster will have an owner. When no ancestor owns the lock, starts a
# process that holds it for the cluster (waiting while another process owns it) and sets
# OWNER_HOLDER to its PID; `down` ends it.
OWNER_HOLDER=
take_ownership() {
  local state out pid
  state=$(owner_state)
  [[ $state == ancestor ]] && return 0
  if [[ $state == recorded ]]; then
    # A cluster brought up by a plain `up` earlier: ours to replace.
    take_lock
    do_down
    exec 9>&-
  fi
  out=$(mktemp /run/clusterrun-lc.owner.XXXXXX)
  setsid perl -e "$OWNER_PERL" hold "$OWNER_LOCK" >"$out" </dev/null 9>&- &
  pid=$!
  while ! grep -q locked "$out" 2>/dev/null; do
    if ! kill -0 "$pid" 2>/dev/null; then rm -f "$out"; die "cannot take the owner lock $OWNER_LOCK"; fi
    sleep 0.1
  done
  rm -f "$out"
  OWNER_HOLDER=$pid
}

# ---------------------------------------------------------------------------------------------
# down: undo what the records say, in reverse order of making; tolerant of half-made states.

# TERMs every PID given, waits up to 2 s for all of them to end, then KILLs what is left.
kill_and_wait() {
  local pid i left
  [[ $# -gt 0 ]] || return 0
  kill -TERM "$@" 2>/dev/null || true
  for ((i = 0; i < 100; i++)); do
    left=()
    for pid in "$@"; do if running "$pid"; then left+=("$pid"); fi; done
    [[ ${#left[@]} -gt 0 ]] || return 0
    sleep 0.02
  done
  kill -KILL "${left[@]}" 2>/dev/null || true
}

# The recorded sshd PID of NODE when it still is that node's sshd.
sshd_pid() {
  local node=$1 pid
  { read -r pid <"$STATE_DIR/nodes/$node/sshd.pid"; } 2>/dev/null || return 1
  [[ -n $pid && $(readlink "/proc/$pid/exe" 2>/dev/null) == */sshd ]] || return 1
  in_node_netns "$pid" "$node" || return 1
  echo "$pid"
}
# True while PID exists and is not a zombie (an exited process its reaper has not collected yet).
running() {
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  stat=${stat##*) }
  [[ ${stat:0:1} != Z ]]
}

remove_hosts_block() {
  grep -qF "$HOSTS_BEGIN" /etc/hosts 2>/dev/null || return 0
  local tmp
  tmp=$(mktemp /etc/.hosts.clusterrun-lc.XXXXXX)
  awk -v b="$HOSTS_BEGIN" -v e="$HOSTS_END" '$0==b{skip=1;next} $0==e{skip=0;next} !skip' \
    /etc/hosts >"$tmp"
  chmod 0644 "$tmp"
  mv -f "$tmp" /etc/hosts
}

do_down() {
  [[ -d $STATE_DIR ]] || return 0
  local kind arg node ns pid owner batch=""
  local -a nodes=() pids=()
  owner=$(recorded_owner || true)
  stop_registries
  if [[ -d $STATE_DIR/nodes ]]; then
    mapfile -t nodes < <(ls "$STATE_DIR/nodes")
    for node in "${nodes[@]}"; do
      if pid=$(sshd_pid "$node"); then pids+=("$pid"); fi
    done
    kill_and_wait "${pids[@]}"
    # Processes left in the nodes (job sessions, daemons): exactly those in a node's netns, but
    # not its holder; then the holders.
    pids=()
    for node in "${nodes[@]}"; do
      ns=$NETNS_PREFIX$node
      if [[ -e /run/netns/$ns ]]; then
        while read -r pid; do
          pids+=("$pid")
        done < <(ip netns pids "$ns" 2>/dev/null | grep -vx "$(holder_pid "$node" || echo none)" || true)
      fi
    done
    [[ ${#pids[@]} -eq 0 ]] || kill -KILL "${pids[@]}" 2>/dev/null || true
    pids=()
    for node in "${nodes[@]}"; do
      if pid=$(holder_pid "$node"); then pids+=("$pid"); fi
    done
    kill_and_wait "${pids[@]}"
  fi
  if [[ -r $STATE_DIR/created ]]; then
    # Namespaces first, in one `ip -batch`: the kernel then dismantles them, and the veth pairs in
    # them, in one batch of its own (deleting each veth first waits for the kernel once per link).
    # Then the links that are still there (the bridge, veths not yet gone).
    local links=""
    while read -r kind arg; do
      case $kind in
        netns) batch+="netns del $arg"$'\n' ;;
        link) links+="$arg"$'\n' ;;
      esac
    done < <(tac "$STATE_DIR/created")
    [[ -z $batch ]] || ip -force -batch - <<<"$batch" >/dev/null 2>&1 || true
    batch=""
    while read -r arg; do
      if [[ -n $arg && -e /sys/class/net/$arg ]]; then batch+="link del $arg"$'\n'; fi
    done <<<"$links"
    [[ -z $batch ]] || ip -force -batch - <<<"$batch" >/dev/null 2>&1 || true
    tac "$STATE_DIR/created" | while read -r kind arg; do
      case $kind in
        hosts) remove_hosts_block ;;
        user)
          userdel -r "$arg" >/dev/null 2>&1 || userdel "$arg" >/dev/null 2>&1 || true
          if getent group "$arg" >/dev/null; then groupdel "$arg" 2>/dev/null || true; fi
          ;;
        dir) rm -rf --one-file-system "$arg" ;;
        emptydir) rmdir "$arg" 2>/dev/null || true ;;
        *) ;;
      esac
    done
  fi
  rm -rf --one-file-system "$STATE_DIR"
  # Last: the process that held the owner lock for a cluster brought up by a plain `up`.
  if [[ -n $owner ]]; then kill -TERM "$owner" 2>/dev/null || true; fi
}

# ---------------------------------------------------------------------------------------------
# up

write_hosts_block() {
  local n=$1 tmp k
  remove_hosts_block
  tmp=$(mktemp /etc/.hosts.clusterrun-lc.XXXXXX)
  {
    cat /etc/hosts
    echo "$HOSTS_BEGIN"
    for ((k = 1; k <= n; k++)); do echo "$(node_addr "$k") node$k"; done
    echo "$HOSTS_END"
  } >"$tmp"
  chmod 0644 "$tmp"
  mv -f "$tmp" /etc/hosts
}

enroot_mode() {
  local mode=${CLUSTERRUN_LC_ENROOT:-auto}
  case $mode in
    standin | host) ;;
    auto) if command -v enroot >/dev/null 2>&1; then mode=host; else mode=standin; fi ;;
    *) die "CLUSTERRUN_LC_ENROOT=$mode: expected auto, standin or host" ;;
  esac
  if [[ $mode == host ]] && ! command -v enroot >/dev/null 2>&1; then
    die "CLUSTERRUN_LC_ENROOT=host but no enroot is on this machine's PATH"
  fi
  echo "$mode"
}

# make_user NAME UID HOME: a job user with its own group, an ed25519 key authorised for itself.
make_user() {
  local user=$1 uid=$2 home=$3
  if getent passwd "$user" >/dev/null; then
    [[ $(id -u "$user") == "$uid" ]] || die "user $user exists with a uid other than $uid"
    die "user $user already exists but was not made by this script; remove it first"
  fi
  if getent passwd "$uid" >/dev/null; then die "uid $uid is taken by $(getent passwd "$uid" | cut -d: -f1)"; fi
  if [[ ! -e $(dirname "$home") ]]; then
    record emptydir "$(dirname "$home")"
    mkdir -p "$(dirname "$home")"
  fi
  record user "$user"
  getent group "$uid" >/dev/null || groupadd -g "$uid" "$user"
  useradd -u "$uid" -g "$uid" -m -d "$home" -s /bin/bash "$user"
  # UsePAM is off in the nodes' sshd: a locked ('!') password field would refuse key logins.
  usermod -p '*' "$user"
  install -d -m 0700 -o "$uid" -g "$uid" "$home/.ssh"
  ssh-keygen -q -t ed25519 -N '' -C "$user@clusterrun-lc" -f "$home/.ssh/id_ed25519"
  cp "$home/.ssh/id_ed25519.pub" "$home/.ssh/authorized_keys"
  chown "$uid:$uid" "$home/.ssh"/*
  chmod 0600 "$home/.ssh/authorized_keys"
}

write_sshd_config() {
  local node=$1 addr=$2 dir=$STATE_DIR/nodes/$1
  cat >"$dir/sshd_config" <<EOF
# sshd of $node in the clusterrun local cluster
ListenAddress $addr:22
HostKey $dir/ssh_host_ed25519_key
PidFile $dir/sshd.pid
PubkeyAuthentication yes
AuthorizedKeysFile .ssh/authorized_keys
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
PermitRootLogin no
AllowUsers $JOB_USER $JOB2_USER
StrictModes yes
UseDNS no
PrintMotd no
PrintLastLog no
X11Forwarding no
MaxStartups 64:30:128
MaxSessions 64
Subsystem sftp /usr/lib/openssh/sftp-server
EOF
  chmod 0600 "$dir/sshd_config"
}

# The configuration directory the host's real enroot reads (its build's sysconfdir).
host_enroot_sysconf() {
  local f
  f=$(grep -o -m1 'config::init "[^"]*/enroot\.conf"' "$(command -v enroot)" 2>/dev/null || true)
  f=${f#config::init \"}
  f=${f%\"}
  if [[ -n $f ]]; then echo "${f%/enroot.conf}"; else echo /etc/enroot; fi
}

# The files enroot's `make install` puts in its configuration directory (used when no package
# manager owns the host's enroot, i.e. it was built from source).
readonly ENROOT_INSTALLED_CONFIG=(enroot.conf enroot.conf.d/README environ.d/10-terminal.env
  mounts.d/10-system.fstab mounts.d/20-config.fstab hooks.d/10-aptfix.sh hooks.d/10-cgroups.sh
  hooks.d/10-devices.sh hooks.d/10-home.sh hooks.d/10-localtime.sh hooks.d/10-shadow.sh
  hooks.d/98-nvidia.sh hooks.d/99-mellanox.sh)

# Copies the host enroot's PACKAGED configuration (what its package owns under SYSCONF; files an
# administrator modified since install are left out with a warning) into DEST, so that every node
# starts as a fresh enroot install would, not with whatever the host's SYSCONF has accumulated.
copy_packaged_enroot_config() {
  local sysconf=$1 dest=$2 pkg="" f rel sum want flags
  local -a files=() modified=() pkgs=()
  mkdir -p "$dest"
  if command -v dpkg-query >/dev/null && pkg=$(dpkg-query -S "$sysconf" 2>/dev/null | head -n1 | cut -d: -f1) && [[ -n $pkg ]]; then
    # "enroot" or "enroot, enroot+caps": every package that owns the directory.
    IFS=', ' read -r -a pkgs <<<"$pkg"
    while IFS= read -r f; do
      if [[ $f == "$sysconf"/* && -f $f && ! -L $f ]]; then files+=("$f"); fi
    done < <(dpkg-query -L "${pkgs[@]}" | sort -u)
    # Conffiles: " PATH MD5 [obsolete]"; another checksum means modified since install.
    while read -r f want _; do
      [[ $f == "$sysconf"/* && -f $f ]] || continue
      sum=$(md5sum <"$f" | cut -d' ' -f1)
      [[ $sum == "$want" ]] || modified+=("$f")
    done < <(dpkg-query -W -f='${Conffiles}\n' "${pkgs[@]}")
    note "host enroot: the nodes start from the files of package(s) ${pkgs[*]} in $sysconf"
  elif command -v rpm >/dev/null && pkg=$(rpm -qf "$sysconf" 2>/dev/null) && [[ -n $pkg ]]; then
    while IFS= read -r f; do
      if [[ $f == "$sysconf"/* && -f $f && ! -L $f ]]; then files+=("$f"); fi
    done < <(rpm -ql "$pkg")
    # rpm -V lists changed files: "S.5....T.  c PATH" (5: digest differs), "missing   c PATH".
    while read -r flags _ f; do
      if [[ $flags == ??5* || $flags == missing ]]; then modified+=("$f"); fi
    done < <(rpm -V "$pkg" 2>/dev/null | awk '$2 == "c" { print $1, $2, $3 }')
    note "host enroot: the nodes start from the files of package $pkg in $sysconf"
  else
    for rel in "${ENROOT_INSTALLED_CONFIG[@]}"; do
      if [[ -f $sysconf/$rel ]]; then files+=("$sysconf/$rel"); fi
    done
    note "host enroot: no package owns $sysconf; the nodes start from the files enroot's 'make install' puts there (not verified as unmodified)"
  fi
  for f in ${files[@]+"${files[@]}"}; do
    if [[ ${#modified[@]} -gt 0 ]] && printf '%s\n' "${modified[@]}" | grep -qxF -- "$f"; then
      echo "cluster.sh: warning: host enroot: $f was modified since it was installed; the nodes do not get it" >&2
      continue
    fi
    rel=${f#"$sysconf"/}
    mkdir -p "$dest/$(dirname "$rel")"
    cp -p "$f" "$dest/$rel"
  done
}

# A fuse device node the job user may open, bound over the nodes' /dev/fuse (squashfuse in a user
# namespace needs it; the host's /dev/fuse is left as it is). Prints fuse, or unpack when the
# machine cannot give the nodes a usable one (no /dev/fuse, no squashfuse, a device cgroup...).
make_fuse_device() {
  local majmin
  if [[ ! -c /dev/fuse ]] || ! command -v squashfuse >/dev/null; then
    echo unpack
    return
  fi
  majmin=$(stat -c '%t %T' /dev/fuse)
  if ! mknod -m 0666 "$STATE_DIR/fuse" c "$((16#${majmin% *}))" "$((16#${majmin#* }))" 2>/dev/null ||
    ! probe_fuse "$STATE_DIR/fuse"; then
    rm -f "$STATE_DIR/fuse"
    echo unpack
    return
  fi
  echo fuse
}

# True when the job user, in a user + mount namespace as enroot makes them, can mount a squashfs
# with squashfuse through the fuse device node DEV.
probe_fuse() {
  local dev=$1 d=$STATE_DIR/fuse-probe rc=0
  mkdir -p "$d/src" "$d/mnt"
  echo probe >"$d/src/probe"
  mksquashfs "$d/src" "$d/img.sqsh" -quiet -noappend -no-progress >/dev/null 2>&1 || rc=1
  cat >"$d/try.sh" <<'EOF'
squashfuse -f "$1/img.sqsh" "$1/mnt" 2>/dev/null &
p=$!
for i in $(seq 100); do
  if [ -e "$1/mnt/probe" ]; then kill "$p"; exit 0; fi
  kill -0 "$p" 2>/dev/null || exit 1
  sleep 0.05
done
kill "$p"
exit 1
EOF
  chmod -R a+rX "$d"
  if ((rc == 0)); then
    # shellcheck disable=SC2016 # the script's $1 and $2 are its own arguments
    unshare --mount --propagation private -- sh -c 'mount --bind "$1" /dev/fuse && exec setpriv \
      --reuid="$2" --regid="$2" --clear-groups unshare --user --map-user="$2" --map-group="$2" \
      --keep-caps --mount -- sh "$3/try.sh" "$3"' probe "$dev" "$JOB_UID" "$d" >/dev/null 2>&1 || rc=1
  fi
  rm -rf "$d"
  return "$rc"
}

# The fresh configuration every node's /etc/enroot starts from: the stand-in's packaged files, or
# the files the host enroot's package installed; made once, copied per node.
make_enroot_template() {
  local t=$STATE_DIR/etc-enroot.template
  mkdir -p "$t"
  if [[ $ENROOT_MODE == standin ]]; then
    cp -a "$STANDIN_DIR/etc/." "$t/"
    {
      echo ""
      echo "# Set by cluster.sh for the stand-in: its local image registry (no network here)."
      echo "ENROOT_STANDIN_REGISTRY     $REGISTRY_DIR"
      echo "# The node's /etc without the node's own mounts under it (for the stand-in's tiny images)."
      echo "ENROOT_STANDIN_HOST_ETC     $STATE_DIR/host-etc"
      if [[ $SQSH_MODE == unpack ]]; then
        echo "# No usable /dev/fuse or squashfuse on this machine: images are unpacked (SHORTCUT)."
        echo "ENROOT_STANDIN_SQSH         unpack"
      fi
    } >>"$t/enroot.conf"
  else
    cp -a "$STATE_DIR/packaged-enroot/." "$t/"
  fi
  mkdir -p "$t"/{enroot.conf.d,hooks.d,environ.d,mounts.d}
  # The site's own setting for its registries, which speak plain HTTP (as a site that runs its own
  # registry sets it; real enroot reads it the same way).
  {
    echo "# Set by cluster.sh: this cluster's image registries ($(registry_addr open), $(registry_addr private))"
    echo "# speak plain HTTP, which enroot refuses unless allowed."
    echo "ENROOT_ALLOW_HTTP yes"
  } >"$t/enroot.conf.d/10-site-registry.conf"
  chmod -R go-w "$t"
}

# One node. Few processes per node: at 64 nodes every fork counts on a small machine.
make_node() {
  local k=$1 node=node$1 addr dir ns pid i arg0 batch
  addr=$(node_addr "$k")
  dir=$STATE_DIR/nodes/$node
  ns=$NETNS_PREFIX$node
  cp -a "$STATE_DIR/etc-enroot.template" "$dir/etc-enroot"

  record netns "$ns"
  ip netns add "$ns"
  record link "crlc-v$k"
  ip link add "crlc-v$k" master "$BRIDGE" up type veth peer name eth0 netns "$ns"
  batch="link set lo up"$'\n'"addr add $addr/$PREFIX_LEN dev eth0"$'\n'"link set eth0 up"$'\n'
  if ((UP_DOCKER_BRIDGE)); then
    # What every GPU node with Docker has: docker0, the same 172.17.0.1/16 on every node, up (with
    # no container running it has no carrier, as on such a node). Gone with the namespace.
    batch+="link add $DOCKER_BRIDGE type bridge"$'\n'"addr add $DOCKER_ADDR dev $DOCKER_BRIDGE"$'\n'
    batch+="link set $DOCKER_BRIDGE up"$'\n'
  fi
  ip -n "$ns" -batch - <<<"$batch"

  # The holder: in the node's netns, new UTS + mount namespaces (private propagation), sleeping;
  # it renames itself only once its hostname is set.
  # shellcheck disable=SC2016 # the script's $1 is its own argument
  setsid nsenter --net="/run/netns/$ns" unshare --uts --mount --propagation private -- \
    bash -c 'hostname "$1"; exec -a "crlc-holder-$1" sleep infinity' holder "$node" \
    </dev/null >/dev/null 2>&1 9>&- &
  pid=$!
  echo "$pid" >"$dir/holder.pid"
  for ((i = 0; i < 500; i++)); do
    arg0=
    { IFS= read -r -d '' arg0 <"/proc/$pid/cmdline"; } 2>/dev/null || true
    [[ $arg0 == "crlc-holder-$node" ]] && break
    sleep 0.01
  done
  [[ $arg0 == "crlc-holder-$node" ]] || die "$node: the namespace holder did not start"

  # Node-local mounts, made inside the node's mount namespace.
  # shellcheck disable=SC2016 # the script's $1... are its own arguments
  nsenter -t "$pid" -m -- bash -euc '
    node_dir=$1 standin_bin=$2 fuse=$3 sysconf=$4 host_etc=$5 sudoers=$6
    # /run/netns holds references to all nodes; a node needs none of them. One lazy unmount takes
    # the whole tree (one umount per earlier node made `up` quadratic in the node count).
    if mountpoint -q /run/netns; then umount -l /run/netns; fi
    mount -t tmpfs -o mode=0755,nosuid,nodev tmpfs /run
    mkdir -p /run/sshd /run/lock /run/user
    chmod 1777 /run/lock
    mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs /tmp
    # /etc as it is before the node mounts anything under it (an overlay may use it as a layer);
    # the same path on every node, so that every node has the same enroot.conf.
    mount --bind /etc "$host_etc"
    mount --bind "$node_dir/etc-enroot" /etc/enroot
    if [[ -n $sysconf && $sysconf != /etc/enroot && -d $sysconf ]]; then mount --bind "$node_dir/etc-enroot" "$sysconf"; fi
    if [[ -n $standin_bin ]]; then mount --bind -o ro "$standin_bin" /usr/local/bin; fi
    if [[ -n $fuse ]]; then mount --bind "$fuse" /dev/fuse; fi
    if [[ -n $sudoers && -d /etc/sudoers.d ]]; then mount --bind -o ro "$sudoers" /etc/sudoers.d; fi
  ' nodesetup "$dir" "$NODE_STANDIN_BIN" "$NODE_FUSE" "$HOST_SYSCONF" "$STATE_DIR/host-etc" "$NODE_SUDOERS"

  ssh-keygen -q -t ed25519 -N '' -C "$node" -f "$dir/ssh_host_ed25519_key"
  write_sshd_config "$node" "$addr"
}
start_sshd() {
  local node=$1 dir=$STATE_DIR/nodes/$1 pid
  read -r pid <"$dir/holder.pid"
  nsenter -t "$pid" -n -u -m -- /usr/sbin/sshd -f "$dir/sshd_config" -E "$dir/sshd.log" 9>&-
}
# Waits until every node's sshd answers (probed from the host, over the bridge).
wait_sshds() {
  local n=$1 k i
  for ((k = 1; k <= n; k++)); do
    for ((i = 0; ; i++)); do
      if [[ -s $STATE_DIR/nodes/node$k/sshd.pid ]] &&
        (exec 3<>"/dev/tcp/$(node_addr "$k")/22") 2>/dev/null; then
        break
      fi
      ((i < 500)) || die "node$k: sshd did not come up (see $STATE_DIR/nodes/node$k/sshd.log)"
      sleep 0.02
    done
  done
}
make_registry() {
  # A tiny image for the enroot stand-in's local 'docker://' registry: clusterrun/tiny:latest.
  local img=$REGISTRY_DIR/clusterrun/tiny/latest
  mkdir -p "$img/etc" "$img/opt/tiny"
  printf 'CLUSTERRUN_IMAGE=clusterrun/tiny:latest\n' >"$img/etc/environment"
  printf 'clusterrun local-cluster tiny image\n' >"$img/opt/tiny/README"
}

# ---------------------------------------------------------------------------------------------
# The image registries: Debian's docker-registry (distribution 2.8) on HOST_ADDR over plain HTTP,
# an open one and a private one (htpasswd basic auth), started by `up` and stopped by `down` (their
# PIDs are recorded and checked to be ours). Storage, configuration, logs (with the access log), the
# private registry's password and the OCI layout images are built in live under REG_STATE.
readonly REG_STATE=$STATE_DIR/registry

registry_addr() { if [[ $1 == private ]]; then echo "$HOST_ADDR:$PRIVATE_REGISTRY_PORT"; else echo "$HOST_ADDR:$REGISTRY_PORT"; fi; }

# True when PID is a docker-registry serving configuration file CONFIG.
serves_config() {
  local arg
  [[ /proc/$1/exe -ef $(command -v docker-registry || echo /usr/bin/docker-registry) ]] || return 1
  while IFS= read -r -d '' arg; do
    [[ $arg != "$2" ]] || return 0
  done <"/proc/$1/cmdline" 2>/dev/null
  return 1
}

# The recorded PID of registry NAME (open|private) when it still is that registry.
registry_pid() {
  local name=$1 pid
  { read -r pid <"$REG_STATE/$name.pid"; } 2>/dev/null || return 1
  [[ -n $pid ]] && serves_config "$pid" "$REG_STATE/$name.yml" || return 1
  echo "$pid"
}

# Stops the registries: the recorded PIDs, and any docker-registry still serving one of our
# configuration files (e.g. left by a `down` whose script did not know about registries).
stop_registries() {
  local name pid exe bin pids=()
  bin=$(command -v docker-registry || echo /usr/bin/docker-registry)
  for exe in /proc/[0-9]*/exe; do
    [[ $exe -ef $bin ]] || continue
    pid=${exe#/proc/}
    pid=${pid%/exe}
    for name in open private; do
      if serves_config "$pid" "$REG_STATE/$name.yml"; then pids+=("$pid"); fi
    done
  done
  kill_and_wait "${pids[@]}"
}

# skopeo, curl on the host: straight to the bridge, never through a proxy.
no_proxy_env() { env -u http_proxy -u https_proxy -u HTTP_PROXY -u HTTPS_PROXY -u ALL_PROXY -u all_proxy "$@"; }

write_registry_config() {
  local name=$1 addr
  addr=$(registry_addr "$name")
  mkdir -p "$REG_STATE/storage/$name"
  {
    cat <<YML
# $name registry of the clusterrun local cluster (cluster.sh)
version: 0.1
log:
  level: warn
storage:
  filesystem:
    rootdirectory: $REG_STATE/storage/$name
  delete:
    enabled: true
  maintenance:
    uploadpurging:
      enabled: false
http:
  addr: $addr
  secret: $(head -c 24 /dev/urandom | base64 | tr -d '/+=')
YML
    if [[ $name == private ]]; then
      cat <<YML
auth:
  htpasswd:
    realm: clusterrun-lc
    path: $REG_STATE/htpasswd
YML
    fi
  } >"$REG_STATE/$name.yml"
}

# Starts both registries (they bind at once: HOST_ADDR must be up) and waits until they answer.
start_registries() {
  local name addr i password
  stop_registries
  mkdir -p "$REG_STATE"
  chmod 0700 "$REG_STATE"
  password=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
  (umask 077 && printf '%s\n' "$password" >"$REG_STATE/private.password")
  printf '%s\n' "$password" | htpasswd -iB -C 5 -c "$REG_STATE/htpasswd" "$REGISTRY_USER" 2>/dev/null
  (umask 077 && printf '{"auths":{"%s":{"auth":"%s"}}}\n' "$(registry_addr private)" \
    "$(printf '%s:%s' "$REGISTRY_USER" "$password" | base64 -w0)" >"$REG_STATE/auth.json")
  for name in open private; do
    addr=$(registry_addr "$name")
    if (exec 3<>"/dev/tcp/${addr%:*}/${addr#*:}") 2>/dev/null; then
      die "up: $addr is taken by another process (a docker-registry service of the machine? stop it: the cluster runs its own)"
    fi
    write_registry_config "$name"
    setsid docker-registry serve "$REG_STATE/$name.yml" </dev/null >>"$REG_STATE/$name.log" 2>&1 9>&- &
    echo $! >"$REG_STATE/$name.pid"
  done
  # A registry serves as soon as it listens (30 s at most: a loaded machine starts it slowly).
  for name in open private; do
    addr=$(registry_addr "$name")
    for ((i = 0; ; i++)); do
      if (exec 3<>"/dev/tcp/${addr%:*}/${addr#*:}") 2>/dev/null; then break; fi
      if ((i >= 1500)) || ! registry_pid "$name" >/dev/null; then
        die "up: the $name registry on $addr did not answer (see $REG_STATE/$name.log)"
      fi
      sleep 0.02
    done
  done
}

# The OCI layout pushes are built in, and its base image, tag "base": the tiny tree (see
# make_registry) as one layer, this machine's architecture, CLUSTERRUN_IMAGE=clusterrun/tiny:latest.
# With CLUSTERRUN_LC_BASE_IMAGE (a .sqsh), that image's files come first, as a layer of their own
# below the tiny tree: a host's real enroot runs the image as it is, and a job needs a shell and
# Open MPI in it (the stand-in runs the nodes' own).
make_base_image() {
  local layout=$REG_STATE/oci rootfs
  umoci init --layout "$layout"
  umoci new --image "$layout:base"
  if [[ -n ${CLUSTERRUN_LC_BASE_IMAGE:-} ]]; then
    rootfs=$(mktemp -d "$REG_STATE/rootfs.XXXXXX")
    unsquashfs -q -n -f -d "$rootfs" "$CLUSTERRUN_LC_BASE_IMAGE" >/dev/null
    add_layer "$layout:base" "$rootfs"
    rm -rf "$rootfs"
  fi
  add_layer "$layout:base" "$REGISTRY_DIR/clusterrun/tiny/latest"
  umoci config --history.created_by "cluster.sh up" --image "$layout:base" --architecture "$(host_arch)" \
    --os linux --config.env CLUSTERRUN_IMAGE=clusterrun/tiny:latest
}

# add_layer LAYOUT:TAG DIR: DIR's tree (owned by root) as the image's new top layer. GNU tar makes
# it: umoci's own `insert` writes layer tars without the end-of-archive blocks, which GNU tar (and
# so enroot) refuses with "Unexpected EOF in archive".
add_layer() {
  local tar
  tar=$(mktemp "$REG_STATE/layer.XXXXXX")
  tar -C "$2" --owner=0 --group=0 --numeric-owner --sort=name -cf "$tar" .
  umoci raw add-layer --history.created_by "cluster.sh" --image "$1" "$tar"
  rm -f "$tar"
}

# push_image REGISTRY(open|private) REPO:TAG ARCHES OCI(0|1) ADD_DIR REMOVES ENVS: builds the image
# from the base and pushes it; prints the manifest's (or the manifest list's) digest.
push_image() {
  local registry=$1 ref=$2 arches=$3 oci=$4 adds=$5 removes=$6 envs=$7
  local layout=$REG_STATE/oci tag arch t list="" entry path e
  local -a tags=() cfg=() copy=(--dest-tls-verify=false -q)
  tag=push-$$-$RANDOM
  for e in $envs; do cfg+=(--config.env "$e"); done
  for arch in ${arches//,/ }; do
    t=$tag-$arch
    tags+=("$t")
    umoci tag --image "$layout:base" "$t"
    if [[ $arches == *,* ]]; then
      mkdir -p "$adds/etc"
      echo "$arch" >"$adds/etc/clusterrun-arch"
    fi
    if [[ -n $(ls -A "$adds") ]]; then add_layer "$layout:$t" "$adds"; fi
    if [[ -n $removes ]]; then
      # One layer of whiteouts: an empty .wh.NAME removes NAME of the layers below.
      local wh
      wh=$(mktemp -d "$REG_STATE/wh.XXXXXX")
      for path in $removes; do
        mkdir -p "$wh$(dirname "$path")"
        : >"$wh$(dirname "$path")/.wh.$(basename "$path")"
      done
      add_layer "$layout:$t" "$wh"
      rm -rf "$wh"
    fi
    umoci config --history.created_by "cluster.sh push" --image "$layout:$t" --architecture "$arch" --os linux \
      --config.env "CLUSTERRUN_IMAGE=$ref" ${cfg[@]+"${cfg[@]}"}
    entry=$(jq -c --arg t "$t" --arg a "$arch" '.manifests[]
      | select(.annotations["org.opencontainers.image.ref.name"] == $t)
      | {mediaType, digest, size, platform: {architecture: $a, os: "linux"}}' "$layout/index.json")
    list+=${list:+,}$entry
  done
  if [[ $arches == *,* ]]; then
    # A multi-platform image: an OCI index naming every platform's manifest, tagged $tag.
    local blob digest
    blob=$(printf '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.index.v1+json","manifests":[%s]}' "$list")
    digest=$(printf '%s' "$blob" | sha256sum | cut -d' ' -f1)
    printf '%s' "$blob" >"$layout/blobs/sha256/$digest"
    jq --arg d "sha256:$digest" --argjson s "${#blob}" --arg t "$tag" '.manifests += [{
      mediaType: "application/vnd.oci.image.index.v1+json", digest: $d, size: $s,
      annotations: {"org.opencontainers.image.ref.name": $t}}]' "$layout/index.json" >"$layout/index.json.new"
    mv -f "$layout/index.json.new" "$layout/index.json"
    tags+=("$tag")
    copy+=(--all)
  else
    tag=${tags[0]}
  fi
  ((oci)) || copy+=(--format v2s2)
  [[ $registry != private ]] || copy+=(--authfile "$REG_STATE/auth.json")
  no_proxy_env skopeo copy "${copy[@]}" --digestfile "$REG_STATE/digest.$$" \
    "oci:$layout:$tag" "docker://$(registry_addr "$registry")/$ref" >&2
  cat "$REG_STATE/digest.$$"
  echo
  rm -f "$REG_STATE/digest.$$"
  for t in "${tags[@]}"; do umoci rm --image "$layout:$t"; done
}

# The images the ITs use, in both registries: clusterrun/tiny:latest (what the directory registry
# has; Docker v2 schema 2 as `docker push` makes it). Pushed once; the private registry gets a copy
# of the open one's storage (a registry reads its storage on every request).
seed_registries() {
  make_base_image
  no_proxy_env skopeo copy -q --dest-tls-verify=false --format v2s2 "oci:$REG_STATE/oci:base" \
    "docker://$(registry_addr open)/clusterrun/tiny:latest"
  cp -a "$REG_STATE/storage/open/." "$REG_STATE/storage/private/"
}

# This machine's architecture as registries name it.
host_arch() {
  case $(uname -m) in
    x86_64) echo amd64 ;;
    aarch64) echo arm64 ;;
    *) uname -m ;;
  esac
}

do_push() {
  local registry=open oci=0 ref="" arches removes="" envs="" spec path content adds
  arches=$(host_arch)
  require_up
  [[ -r $REG_STATE/open.pid ]] || die "push: the cluster has no registries (bring it up again)"
  adds=$(mktemp -d "$REG_STATE/add.XXXXXX")
  # shellcheck disable=SC2064
  trap "rm -rf '$adds'" EXIT
  while [[ $# -gt 0 ]]; do
    case $1 in
      --private) registry=private ;;
      --oci) oci=1 ;;
      --arch | --add | --remove | --env)
        [[ $# -ge 2 ]] || die "push: $1 needs a value"
        spec=$2
        case $1 in
          --arch)
            [[ $spec =~ ^[a-z0-9]+(,[a-z0-9]+)*$ ]] || die "push: --arch $spec: expected ARCH[,ARCH...] (amd64, arm64...)"
            arches=$spec ;;
          --add)
            [[ $spec == /?*=* ]] || die "push: --add $spec: expected /PATH=CONTENT"
            path=${spec%%=*} content=${spec#*=}
            [[ $path != */../* && $path != */.. ]] || die "push: --add $spec: no '..' in PATH"
            mkdir -p "$adds$(dirname "$path")"
            printf '%s\n' "$content" >"$adds$path" ;;
          --remove)
            [[ $spec == /?* && $spec != *[[:space:]]* ]] || die "push: --remove $spec: expected /PATH"
            removes+=" $spec" ;;
          --env)
            [[ $spec =~ ^[A-Za-z_][A-Za-z0-9_]*= && $spec != *[[:space:]]* ]] || die "push: --env $spec: expected KEY=VALUE without blanks"
            envs+=" $spec" ;;
        esac
        shift ;;
      -*) die "push: unknown option '$1'" ;;
      *)
        [[ -z $ref ]] || die "push: one REPO:TAG only"
        [[ $1 =~ ^[a-z0-9]+([._/-][a-z0-9]+)*:[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$ ]] ||
          die "push: $1: expected REPO:TAG (e.g. clusterrun/tiny:v2)"
        ref=$1 ;;
    esac
    shift
  done
  [[ -n $ref ]] || die "usage: cluster.sh push [--private] [--oci] [--arch ARCH[,ARCH...]] REPO:TAG [--add /PATH=CONTENT]... [--remove /PATH]... [--env KEY=VALUE]..."
  chmod -R a+rX "$adds"
  exec 8>"$REG_STATE/oci.lock"
  flock 8
  push_image "$registry" "$ref" "$arches" "$oci" "$adds" "$removes" "$envs"
}

# In do_up: waits for the next background job; a node's ends the wait (RUNNING counts one less),
# the registries' seeding is only noted (its status is checked after the nodes).
wait_node() {
  local rc=0
  while true; do
    rc=0
    wait -n -p done_pid || rc=$?
    if [[ -n $seed_pid && $done_pid == "$seed_pid" ]]; then
      ((rc == 0)) || die "up: pushing the registries' images failed: $(tail -n 5 "$REG_STATE/seed.log")"
      seed_pid=
      continue
    fi
    running=$((running - 1))
    return "$rc"
  done
}

# Parses `up`'s arguments into UP_NODES and UP_DOCKER_BRIDGE.
parse_up_args() {
  UP_NODES=""
  UP_DOCKER_BRIDGE=0
  while [[ $# -gt 0 ]]; do
    case $1 in
      --docker-bridge) UP_DOCKER_BRIDGE=1 ;;
      -*) die "up: unknown option '$1' (usage: cluster.sh up N [--docker-bridge])" ;;
      *)
        [[ -z $UP_NODES ]] || die "up: one node count only (usage: cluster.sh up N [--docker-bridge])"
        UP_NODES=$1
        ;;
    esac
    shift
  done
  if ! [[ $UP_NODES =~ ^[0-9]+$ ]] || ((UP_NODES < 1 || UP_NODES > MAX_NODES)); then
    die "up: N must be 1..$MAX_NODES, got '$UP_NODES'"
  fi
}

# known_hosts for USER (UID, HOME): every node by name and by address, from the host keys.
write_known_hosts() {
  local uid=$1 home=$2 n=$3 kh k
  kh=$home/.ssh/known_hosts
  for ((k = 1; k <= n; k++)); do
    echo "node$k,$(node_addr "$k") $(cut -d' ' -f1,2 "$STATE_DIR/nodes/node$k/ssh_host_ed25519_key.pub")"
  done >"$kh"
  chown "$uid:$uid" "$kh"
  chmod 0644 "$kh"
}

do_up() {
  local n=$UP_NODES k node
  local t_start=$SECONDS
  if [[ -d $STATE_DIR ]]; then
    note "found an earlier cluster's state in $STATE_DIR; taking it down first"
    do_down
  fi
  ENROOT_MODE=$(enroot_mode)
  mkdir -p "$STATE_DIR/nodes"
  chmod 0755 "$STATE_DIR"
  : >"$STATE_DIR/created"
  if [[ -n $OWNER_HOLDER ]]; then echo "$OWNER_HOLDER" >"$STATE_DIR/owner.pid"; fi
  echo "$ENROOT_MODE" >"$STATE_DIR/enroot.mode"
  if ((UP_DOCKER_BRIDGE)); then echo "$DOCKER_BRIDGE $DOCKER_ADDR" >"$STATE_DIR/docker.bridge"; fi

  if [[ ! -e /etc/enroot ]]; then
    record emptydir /etc/enroot
    mkdir -p /etc/enroot
  fi
  local t
  mkdir -p "$STATE_DIR/host-etc"
  if [[ $ENROOT_MODE == standin ]]; then
    mkdir -p "$STATE_DIR/bin"
    for t in "${STANDIN_TOOLS[@]}"; do install -m 0755 "$STANDIN_DIR/$t" "$STATE_DIR/bin/$t"; done
    HOST_SYSCONF=""
  else
    HOST_SYSCONF=$(host_enroot_sysconf)
    copy_packaged_enroot_config "$HOST_SYSCONF" "$STATE_DIR/packaged-enroot"
  fi

  if [[ ! -e $SHARED_ROOT ]]; then record dir "$SHARED_ROOT"; fi
  mkdir -p "$SHARED_DIR" "$REGISTRY_DIR"
  chmod 0755 "$SHARED_ROOT" "$REGISTRY_DIR"
  make_user "$JOB_USER" "$JOB_UID" "$JOB_HOME"
  make_user "$JOB2_USER" "$JOB2_UID" "$JOB2_HOME"
  chown "$JOB_UID:$JOB_UID" "$SHARED_DIR"
  SQSH_MODE=$(make_fuse_device)
  echo "$SQSH_MODE" >"$STATE_DIR/sqsh.mode"
  if [[ $SQSH_MODE == unpack ]]; then
    if [[ $ENROOT_MODE == standin ]]; then
      note "no usable /dev/fuse or squashfuse: the stand-in unpacks IMAGE.sqsh on start (SHORTCUT)"
    else
      note "no usable /dev/fuse or squashfuse: enroot start IMAGE.sqsh will fail on the nodes"
    fi
  fi
  make_registry

  record link "$BRIDGE"
  ip link add "$BRIDGE" type bridge
  ip addr add "$HOST_ADDR/$PREFIX_LEN" dev "$BRIDGE"
  ip link set "$BRIDGE" up
  start_registries
  # The registries' images are pushed while the nodes are made (joined below).
  seed_registries >"$REG_STATE/seed.log" 2>&1 &
  local seed_pid=$! done_pid

  record hosts
  write_hosts_block "$n"
  echo "$n" >"$STATE_DIR/nodes.count"

  # What every node gets the same of: its fresh enroot configuration (copied per node), the
  # host's sudoers.d plus a rule for the job user (one directory, bound read-only on every node),
  # the stand-in's tools and the fuse device node (bound on every node).
  make_enroot_template
  NODE_SUDOERS=
  if [[ ${CLUSTERRUN_LC_SUDO:-1} == 1 ]]; then
    NODE_SUDOERS=$STATE_DIR/sudoers.d
    mkdir -p "$NODE_SUDOERS"
    cp -a /etc/sudoers.d/. "$NODE_SUDOERS/" 2>/dev/null || true
    echo "$JOB_USER ALL=(ALL:ALL) NOPASSWD: ALL" >"$NODE_SUDOERS/clusterrun-lc"
    chmod 0440 "$NODE_SUDOERS/clusterrun-lc"
  fi
  NODE_STANDIN_BIN=
  if [[ $ENROOT_MODE == standin ]]; then NODE_STANDIN_BIN=$STATE_DIR/bin; fi
  NODE_FUSE=
  if [[ $SQSH_MODE == fuse ]]; then NODE_FUSE=$STATE_DIR/fuse; fi
  # A few nodes at a time: making a node is mostly short processes and kernel work, so overlapping
  # them keeps both cores busy (CLUSTERRUN_LC_PARALLEL, default 8; 1 makes them one by one).
  local parallel=${CLUSTERRUN_LC_PARALLEL:-8} running=0 failed=0
  [[ $parallel =~ ^[1-9][0-9]*$ ]] || die "CLUSTERRUN_LC_PARALLEL=$parallel: expected a positive number"
  for ((k = 1; k <= n; k++)); do
    mkdir -p "$STATE_DIR/nodes/node$k"
    make_node "$k" &
    if ((++running >= parallel)); then
      wait_node || failed=1
    fi
    ((failed == 0)) || break
  done
  while ((running > 0)); do
    wait_node || failed=1
  done
  ((failed == 0)) || die "up: a node could not be made (see the messages above)"
  if [[ -n $seed_pid ]]; then
    wait "$seed_pid" || die "up: pushing the registries' images failed: $(tail -n 5 "$REG_STATE/seed.log")"
  fi

  write_known_hosts "$JOB_UID" "$JOB_HOME" "$n"
  write_known_hosts "$JOB2_UID" "$JOB2_HOME" "$n"
  cp "$JOB_HOME/.ssh/known_hosts" "$STATE_DIR/known_hosts"

  for ((k = 1; k <= n; k++)); do start_sshd "node$k"; done
  wait_sshds "$n"
  note "up: $n node(s): $(seq -f 'node%g' -s ' ' 1 "$n") (enroot: $ENROOT_MODE$( ((UP_DOCKER_BRIDGE)) && echo ", $DOCKER_BRIDGE $DOCKER_ADDR on every node")) in $((SECONDS - t_start)) s"
}

# ---------------------------------------------------------------------------------------------
# using a running cluster

require_up() {
  [[ -r $STATE_DIR/nodes.count ]] || die "no cluster is up (run: cluster.sh up N)"
}

do_exec() {
  local node=$1
  shift
  local as=user user=$JOB_USER uid=$JOB_UID home=$JOB_HOME
  while [[ $# -gt 0 ]]; do
    case $1 in
      --root) as=root ;;
      --user)
        [[ $# -ge 2 ]] || die "exec: --user needs a name ($JOB_USER or $JOB2_USER)"
        case $2 in
          "$JOB_USER") ;;
          "$JOB2_USER") user=$JOB2_USER uid=$JOB2_UID home=$JOB2_HOME ;;
          *) die "exec: --user $2: not a job user of the cluster ($JOB_USER or $JOB2_USER)" ;;
        esac
        shift
        ;;
      --) shift; break ;;
      *) die "exec: unexpected '$1' (usage: exec NODE [--root|--user USER] -- CMD...)" ;;
    esac
    shift
  done
  [[ $# -gt 0 ]] || die "exec: no command given (usage: exec NODE [--root|--user USER] -- CMD...)"
  require_up
  node_index "$node" >/dev/null
  local pid
  pid=$(holder_pid "$node") || die "$node: its namespace holder is gone (run: cluster.sh up N)"
  if [[ $as == root ]]; then
    exec nsenter -t "$pid" -n -u -m -- env -i -C /root HOME=/root USER=root LOGNAME=root \
      SHELL=/bin/bash PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
  fi
  exec nsenter -t "$pid" -n -u -m -- setpriv --reuid="$uid" --regid="$uid" --init-groups \
    env -i -C "$home" HOME="$home" USER="$user" LOGNAME="$user" SHELL=/bin/bash \
    PATH=/usr/local/bin:/usr/bin:/bin "$@"
}

do_isolate() {
  local node=$1 path=$2 pid
  require_up
  node_index "$node" >/dev/null
  [[ $path == /* ]] || die "isolate: PATH must be absolute, got '$path'"
  pid=$(holder_pid "$node") || die "$node: its namespace holder is gone"
  mkdir -p "$path"
  local owner mode
  owner=$(stat -c %u:%g "$path")
  mode=$(stat -c %a "$path")
  nsenter -t "$pid" -m -- mount -t tmpfs -o "mode=$mode,uid=${owner%:*},gid=${owner#*:}" \
    "crlc-isolated" "$path"
  echo "$path" >>"$STATE_DIR/nodes/$node/isolated"
}

do_unisolate() {
  local node=$1 path=$2 pid
  require_up
  node_index "$node" >/dev/null
  pid=$(holder_pid "$node") || die "$node: its namespace holder is gone"
  local src
  src=$(nsenter -t "$pid" -m -- findmnt -n -o SOURCE --mountpoint "$path" | tail -n1 || true)
  [[ $src == crlc-isolated ]] || die "unisolate: $path is not isolated on $node"
  nsenter -t "$pid" -m -- umount "$path"
  if [[ -f $STATE_DIR/nodes/$node/isolated ]]; then
    grep -vxF -- "$path" "$STATE_DIR/nodes/$node/isolated" >"$STATE_DIR/nodes/$node/isolated.new" || true
    mv -f "$STATE_DIR/nodes/$node/isolated.new" "$STATE_DIR/nodes/$node/isolated"
  fi
}

# ---------------------------------------------------------------------------------------------
# share-etc-enroot / unshare-etc-enroot: every node sees one /etc/enroot, as diskless nodes with an
# NFS root do (the same directory, the same device and inode on every node), instead of its own.
# The shared directory starts as a copy of node1's; it is bound over each node's own /etc/enroot
# (and over the host enroot's configuration directory, when that is elsewhere), in the node's mount
# namespace. 'unshare' takes the bind away again: each node sees its own /etc/enroot as it was.
readonly SHARED_ETC_ENROOT_DIR=etc-enroot-shared

node_sysconf_dirs() {
  local sysconf=""
  if [[ $(cat "$STATE_DIR/enroot.mode" 2>/dev/null) == host ]]; then sysconf=$(host_enroot_sysconf); fi
  echo /etc/enroot
  if [[ -n $sysconf && $sysconf != /etc/enroot ]]; then echo "$sysconf"; fi
}

do_share_etc_enroot() {
  require_up
  local shared=$STATE_DIR/$SHARED_ETC_ENROOT_DIR k node pid dir
  [[ ! -e $STATE_DIR/etc-enroot.shared ]] || die "share-etc-enroot: /etc/enroot is shared already"
  rm -rf "$shared"
  cp -a "$STATE_DIR/nodes/node1/etc-enroot" "$shared"
  for ((k = 1; k <= $(node_count); k++)); do
    node=node$k
    pid=$(holder_pid "$node") || die "$node: its namespace holder is gone"
    while read -r dir; do
      nsenter -t "$pid" -m -- mount --bind "$shared" "$dir"
    done < <(node_sysconf_dirs)
  done
  touch "$STATE_DIR/etc-enroot.shared"
}

do_unshare_etc_enroot() {
  require_up
  local k node pid dir
  [[ -e $STATE_DIR/etc-enroot.shared ]] || die "unshare-etc-enroot: /etc/enroot is not shared"
  for ((k = 1; k <= $(node_count); k++)); do
    node=node$k
    pid=$(holder_pid "$node") || die "$node: its namespace holder is gone"
    while read -r dir; do
      nsenter -t "$pid" -m -- umount "$dir"
    done < <(node_sysconf_dirs)
  done
  rm -f "$STATE_DIR/etc-enroot.shared"
  rm -rf "${STATE_DIR:?}/$SHARED_ETC_ENROOT_DIR"
}

# ---------------------------------------------------------------------------------------------
# cut / uncut: a node drops off the network without a reset, as a cut link, a dead switch port or a
# power loss look from the others. Its bridge port is disabled (carrier stays up on both sides, as
# behind a switch): every frame to and from it is dropped in silence, nobody gets an RST or an
# ICMP, its processes keep running. Unless --arp, every node's (and the host's) neighbour entry
# for it, and its own for every other node, is pinned first, so no kernel ever gives up on ARP:
# established connections and new ones alike just hang (SYNs retried for minutes), as on a routed
# network. With --arp, the neighbour entries age as usual: established connections still hang,
# but a new connection fails after ~3 s of unanswered ARP ("No route to host"), as a dead node on
# the same Ethernet segment looks.

node_mac() { ip -n "$NETNS_PREFIX$1" -o link show eth0 | grep -o 'link/ether [0-9a-f:]*' | cut -d' ' -f2; }

# pin_neighbours K ACTION: ACTION=replace pins, ACTION=del unpins, node K's entries both ways
# (skipping pairs with another node that is still cut and pinned).
pin_neighbours() {
  local k=$1 action=$2 n j addr_k mac_k addr_j mac_j batch_k=""
  n=$(node_count)
  addr_k=$(node_addr "$k")
  mac_k=$(node_mac "node$k")
  for ((j = 1; j <= n; j++)); do
    ((j == k)) && continue
    if [[ $action == del && $(cat "$STATE_DIR/nodes/node$j/cut" 2>/dev/null) == pinned ]]; then continue; fi
    addr_j=$(node_addr "$j")
    if [[ $action == replace ]]; then
      mac_j=$(node_mac "node$j")
      ip -n "${NETNS_PREFIX}node$j" neigh replace "$addr_k" lladdr "$mac_k" dev eth0 nud permanent
      batch_k+="neigh replace $addr_j lladdr $mac_j dev eth0 nud permanent"$'\n'
    else
      ip -n "${NETNS_PREFIX}node$j" neigh del "$addr_k" dev eth0 2>/dev/null || true
      batch_k+="neigh del $addr_j dev eth0"$'\n'
    fi
  done
  if [[ $action == replace ]]; then
    ip neigh replace "$addr_k" lladdr "$mac_k" dev "$BRIDGE" nud permanent
    batch_k+="neigh replace $HOST_ADDR lladdr $(cat "/sys/class/net/$BRIDGE/address") dev eth0 nud permanent"$'\n'
    ip -n "${NETNS_PREFIX}node$k" -batch - <<<"$batch_k"
  else
    ip neigh del "$addr_k" dev "$BRIDGE" 2>/dev/null || true
    batch_k+="neigh del $HOST_ADDR dev eth0"$'\n'
    ip -force -n "${NETNS_PREFIX}node$k" -batch - <<<"$batch_k" >/dev/null 2>&1 || true
  fi
}

do_cut() {
  local node=$1 how=${2:-} k
  require_up
  k=$(node_index "$node")
  case $how in
    "") how=pinned ;;
    --arp) how=arp ;;
    *) die "cut: unknown option '$how' (usage: cut NODE [--arp])" ;;
  esac
  [[ ! -e $STATE_DIR/nodes/$node/cut ]] || die "cut: $node is already cut (uncut it first)"
  holder_pid "$node" >/dev/null || die "$node: its namespace holder is gone"
  if [[ $how == pinned ]]; then pin_neighbours "$k" replace; fi
  echo "$how" >"$STATE_DIR/nodes/$node/cut"
  bridge link set dev "crlc-v$k" state 0
}

do_uncut() {
  local node=$1 k how
  require_up
  k=$(node_index "$node")
  how=$(cat "$STATE_DIR/nodes/$node/cut" 2>/dev/null) || die "uncut: $node is not cut"
  bridge link set dev "crlc-v$k" state 3
  rm -f "$STATE_DIR/nodes/$node/cut"
  if [[ $how == pinned ]]; then pin_neighbours "$k" del; fi
}

# The cgroup v1 cpu controller's mount, and the group of NODE's sshd in it ("/" or "/a/b").
readonly CPU_CGROUP=/sys/fs/cgroup/cpu
sshd_cpu_group() {
  local line
  line=$(grep -E '^[0-9]+:([^:]*,)?cpu(,[^:]*)?:' "/proc/$1/cgroup") || return 1
  echo "${line#*:*:}"
}

# A group under the sshd's own (so limits above it still hold), with a CPU quota; the sshd moves
# into it, and every session it starts from then on is born there. The group it came from is kept
# for `unthrottle`.
do_throttle() {
  local node=$1 pct=$2 pid from dir
  require_up
  node_index "$node" >/dev/null
  [[ $pct =~ ^[1-9][0-9]?$ ]] || die "throttle: PERCENT must be from 1 to 99, got '$pct'"
  [[ -w $CPU_CGROUP/cgroup.procs ]] || die "throttle: no cgroup v1 cpu controller at $CPU_CGROUP"
  [[ ! -e $STATE_DIR/nodes/$node/throttled ]] || die "throttle: $node is throttled already"
  pid=$(sshd_pid "$node") || die "$node: its sshd is not running"
  from=$(sshd_cpu_group "$pid") || die "throttle: cannot read the cpu group of $node's sshd"
  dir=$CPU_CGROUP${from%/}/crlc-$node
  mkdir -p "$dir"
  record emptydir "$dir"
  echo 100000 >"$dir/cpu.cfs_period_us"
  echo $((pct * 1000)) >"$dir/cpu.cfs_quota_us"
  echo "$pid" >"$dir/cgroup.procs"
  echo "$from $dir" >"$STATE_DIR/nodes/$node/throttled"
}

do_unthrottle() {
  local node=$1 from dir pid
  require_up
  node_index "$node" >/dev/null
  read -r from dir 2>/dev/null <"$STATE_DIR/nodes/$node/throttled" || die "unthrottle: $node is not throttled"
  while read -r pid; do
    echo "$pid" >"$CPU_CGROUP$from/cgroup.procs" 2>/dev/null || true
  done <"$dir/cgroup.procs"
  rmdir "$dir"
  rm -f "$STATE_DIR/nodes/$node/throttled"
}

# A token bucket on NODE's eth0 (egress): all of it, or (--to PEER) only packets to PEER's address,
# through an htb class (unclassified packets go htb's direct queue, unlimited). tc has tbf and htb
# here, no netem.
do_limit() {
  local node=$1 rate=$2 to=${3:-} peer=${4:-} ns
  require_up
  node_index "$node" >/dev/null
  [[ $rate =~ ^[1-9][0-9]*(bit|kbit|mbit|gbit)$ ]] || die "limit: RATE must be a number with bit, kbit, mbit or gbit (e.g. 50mbit), got '$rate'"
  [[ ! -e $STATE_DIR/nodes/$node/limited ]] || die "limit: $node is limited already (unlimit it first)"
  ns=$NETNS_PREFIX$node
  if [[ -z $to ]]; then
    tc -n "$ns" qdisc add dev eth0 root tbf rate "$rate" burst 32kbit latency 50ms
    echo "all $rate" >"$STATE_DIR/nodes/$node/limited"
    return
  fi
  [[ $to == --to && -n $peer ]] || die "usage: cluster.sh limit NODE RATE [--to PEER]"
  [[ $peer != "$node" ]] || die "limit: --to $peer: the node itself"
  local addr
  addr=$(node_addr "$(node_index "$peer")")
  tc -n "$ns" qdisc add dev eth0 root handle 1: htb
  tc -n "$ns" class add dev eth0 parent 1: classid 1:10 htb rate "$rate" ceil "$rate" burst 32kbit quantum 1514
  tc -n "$ns" filter add dev eth0 parent 1: protocol ip prio 1 u32 match ip dst "$addr/32" flowid 1:10
  echo "to $peer $rate" >"$STATE_DIR/nodes/$node/limited"
}

do_unlimit() {
  local node=$1
  require_up
  node_index "$node" >/dev/null
  [[ -e $STATE_DIR/nodes/$node/limited ]] || die "unlimit: $node is not limited"
  tc -n "$NETNS_PREFIX$node" qdisc del dev eth0 root
  rm -f "$STATE_DIR/nodes/$node/limited"
}

# The nodes a command names: one node, or every node up with 'all'.
nodes_named() {
  if [[ $1 == all ]]; then
    local k
    for ((k = 1; k <= $(node_count); k++)); do echo "node$k"; done
  else
    node_index "$1" >/dev/null
    echo "$1"
  fi
}

# A hook of SECONDS on NODE (or every node): each node's /etc/enroot is its own directory under the
# state directory, bound there in the node's mount namespace, so the file is written from here.
do_slow_hook() {
  local target=$1 seconds=$2 node dir
  require_up
  [[ $seconds =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "slow-hook: SECONDS must be a number such as 0.8, got '$seconds'"
  while read -r node; do
    dir=$STATE_DIR/nodes/$node/etc-enroot/hooks.d
    mkdir -p "$dir"
    printf '#!/bin/sh\n# cluster.sh slow-hook: a hook that costs what a GPU node'"'"'s does\nsleep %s\n' \
      "$seconds" >"$dir/$SLOW_HOOK.tmp"
    chmod 0755 "$dir/$SLOW_HOOK.tmp"
    mv -f "$dir/$SLOW_HOOK.tmp" "$dir/$SLOW_HOOK"
  done < <(nodes_named "$target")
}

do_fast_hook() {
  local node
  require_up
  while read -r node; do
    rm -f "$STATE_DIR/nodes/$node/etc-enroot/hooks.d/$SLOW_HOOK"
  done < <(nodes_named "$1")
}

do_hostfile() {
  local slots=${1:-1} k
  [[ $slots =~ ^[1-9][0-9]*$ ]] || die "hostfile: SLOTS must be a positive number, got '$slots'"
  require_up
  for ((k = 1; k <= $(node_count); k++)); do echo "node$k slots=$slots"; done
}

do_env() {
  local n k node_list=""
  n=$(node_count)
  for ((k = 1; k <= n; k++)); do node_list+="${node_list:+,}node$k"; done
  cat <<EOF
JOB_USER=$JOB_USER
JOB_UID=$JOB_UID
JOB_GID=$JOB_UID
JOB_HOME=$JOB_HOME
KEY_FILE=$JOB_HOME/.ssh/id_ed25519
KNOWN_HOSTS=$JOB_HOME/.ssh/known_hosts
SHARED_DIR=$SHARED_DIR
REGISTRY_DIR=$REGISTRY_DIR
REGISTRY=$(registry_addr open)
PRIVATE_REGISTRY=$(registry_addr private)
PRIVATE_REGISTRY_USER=$REGISTRY_USER
PRIVATE_REGISTRY_PASSWORD_FILE=$REG_STATE/private.password
REGISTRY_LOG=$REG_STATE/open.log
PRIVATE_REGISTRY_LOG=$REG_STATE/private.log
STATE_DIR=$STATE_DIR
SUBNET=$SUBNET
HOST_ADDR=$HOST_ADDR
BRIDGE=$BRIDGE
NETNS_PREFIX=$NETNS_PREFIX
JOB2_USER=$JOB2_USER
JOB2_UID=$JOB2_UID
JOB2_GID=$JOB2_UID
JOB2_HOME=$JOB2_HOME
KEY2_FILE=$JOB2_HOME/.ssh/id_ed25519
KNOWN_HOSTS2=$JOB2_HOME/.ssh/known_hosts
DOCKER_BRIDGE=$(cat "$STATE_DIR/docker.bridge" 2>/dev/null || echo none)
OWNER_LOCK=$OWNER_LOCK
ENROOT_MODE=$(cat "$STATE_DIR/enroot.mode" 2>/dev/null || echo none)
SQSH_MODE=$(cat "$STATE_DIR/sqsh.mode" 2>/dev/null || echo none)
NODES=$node_list
EOF
  for ((k = 1; k <= n; k++)); do
    echo "NODE${k}_ADDR=$(node_addr "$k")"
    echo "NODE${k}_PID=$(holder_pid "node$k" || echo)"
    echo "NODE${k}_ENROOT_DIR=$STATE_DIR/nodes/node$k/etc-enroot"
  done
}

do_status() {
  if [[ ! -r $STATE_DIR/nodes.count ]]; then
    echo "no cluster is up"
    return 0
  fi
  local n k node hp sp
  n=$(node_count)
  printf '%-8s %-14s %-8s %-8s %s\n' NODE ADDRESS HOLDER SSHD STATE
  for ((k = 1; k <= n; k++)); do
    node=node$k
    hp=$(holder_pid "$node" || echo -)
    sp=$(cat "$STATE_DIR/nodes/$node/sshd.pid" 2>/dev/null || echo -)
    local state=up
    if [[ $hp == - ]]; then state="holder gone"; fi
    if [[ $sp == - ]] || ! running "$sp"; then
      if [[ $state == up ]]; then state="sshd gone"; else state+=", sshd gone"; fi
    fi
    if [[ -e $STATE_DIR/nodes/$node/cut ]]; then state+=", CUT ($(cat "$STATE_DIR/nodes/$node/cut"))"; fi
    printf '%-8s %-14s %-8s %-8s %s\n' "$node" "$(node_addr "$k")" "$hp" "$sp" "$state"
  done
  local name
  for name in open private; do
    printf 'registry %-8s %s %s\n' "$name" "$(registry_addr "$name")" \
      "$(registry_pid "$name" || echo "gone (see $REG_STATE/$name.log)")"
  done
}

# One up/down at a time. Processes that outlive us (holders, sshd) must not inherit fd 9.
take_lock() {
  exec 9>/run/clusterrun-lc.lock
  flock -w 120 9 || die "another cluster.sh up/down holds /run/clusterrun-lc.lock"
}

# `up` run without an owner: when it fails, it takes down what it made and lets the lock go.
up_failed() {
  local rc=$?
  ((rc != 0)) || return 0
  echo "cluster.sh: up failed; taking down what it made" >&2
  do_down || true
  if [[ -n $OWNER_HOLDER ]]; then kill -TERM "$OWNER_HOLDER" 2>/dev/null || true; fi
  exit "$rc"
}

main() {
  [[ $# -gt 0 ]] || { usage >&2; exit 2; }
  local cmd=$1
  shift
  case $cmd in
    up)
      parse_up_args "$@"
      require_root
      local why
      if ! why=$(check_prereqs); then die "cannot bring the cluster up: ${why//$'\n'/; }"; fi
      take_ownership
      take_lock
      if [[ -n $OWNER_HOLDER ]]; then trap up_failed EXIT; fi
      do_up
      trap - EXIT
      ;;
    down)
      [[ $# -eq 0 ]] || die "usage: cluster.sh down"
      require_root
      require_owner down
      take_lock
      do_down
      ;;
    own)
      [[ ${1:-} == -- ]] && shift
      [[ $# -ge 1 ]] || die "usage: cluster.sh own -- CMD..."
      require_root
      exec perl -e "$OWNER_PERL" run "$OWNER_LOCK" "$@"
      ;;
    owner)
      local p
      p=$(owner_pid)
      if [[ -n $p ]]; then echo "$p $(tr '\0\n' '  ' <"/proc/$p/cmdline" 2>/dev/null | cut -c1-300)"; fi
      ;;
    owner-state) owner_state ;;
    status) do_status ;;
    env) do_env ;;
    hostfile) [[ $# -le 1 ]] || die "usage: cluster.sh hostfile [SLOTS]"; do_hostfile "$@" ;;
    exec)
      [[ $# -ge 1 ]] || die "usage: cluster.sh exec NODE [--root|--user USER] -- CMD..."
      require_root
      do_exec "$@"
      ;;
    isolate | unisolate)
      [[ $# -eq 2 ]] || die "usage: cluster.sh $cmd NODE PATH"
      require_root
      require_owner "$cmd"
      "do_$cmd" "$1" "$2"
      ;;
    share-etc-enroot | unshare-etc-enroot)
      [[ $# -eq 0 ]] || die "usage: cluster.sh $cmd"
      require_root
      require_owner "$cmd"
      "do_${cmd//-/_}"
      ;;
    cut)
      [[ $# -eq 1 || $# -eq 2 ]] || die "usage: cluster.sh cut NODE [--arp]"
      require_root
      require_owner cut
      do_cut "$@"
      ;;
    uncut)
      [[ $# -eq 1 ]] || die "usage: cluster.sh uncut NODE"
      require_root
      require_owner uncut
      do_uncut "$1"
      ;;
    throttle)
      [[ $# -eq 2 ]] || die "usage: cluster.sh throttle NODE PERCENT"
      require_root
      require_owner throttle
      do_throttle "$1" "$2"
      ;;
    unthrottle)
      [[ $# -eq 1 ]] || die "usage: cluster.sh unthrottle NODE"
      require_root
      require_owner unthrottle
      do_unthrottle "$1"
      ;;
    limit)
      [[ $# -eq 2 || $# -eq 4 ]] || die "usage: cluster.sh limit NODE RATE [--to PEER]"
      require_root
      require_owner limit
      do_limit "$@"
      ;;
    unlimit)
      [[ $# -eq 1 ]] || die "usage: cluster.sh unlimit NODE"
      require_root
      require_owner unlimit
      do_unlimit "$1"
      ;;
    slow-hook)
      [[ $# -eq 2 ]] || die "usage: cluster.sh slow-hook NODE|all SECONDS"
      require_root
      require_owner slow-hook
      do_slow_hook "$1" "$2"
      ;;
    fast-hook)
      [[ $# -eq 1 ]] || die "usage: cluster.sh fast-hook NODE|all"
      require_root
      require_owner fast-hook
      do_fast_hook "$1"
      ;;
    push)
      require_root
      require_owner push
      do_push "$@"
      ;;
    check) check_prereqs ;;
    -h | --help | help) usage ;;
    *) usage >&2; die "unknown command '$cmd'" ;;
  esac
}

main "$@"
