#!/usr/bin/env bash
# A real multi-node cluster on one Linux machine, for clusterrun's integration tests and quick start.
#
# Each node is a network namespace on a bridge of its own (10.213.77.0/24, no route out), with its
# own UTS namespace (hostname nodeK) and mount namespace (its own /tmp, /run and /etc/enroot),
# held by one long-lived process whose PID is recorded. Every node runs its own OpenSSH sshd.
# enroot on the nodes is the stand-in (enroot-standin/, with its packaged configuration) or the
# host's real enroot started from ITS packaged configuration; /dev/fuse is usable by the job user
# on the nodes when the machine allows it (squashfuse, as enroot uses it for IMAGE.sqsh starts).
# /home and the shared directory are the host's and so are shared by all nodes, like NFS.
# Everything made is recorded under the state directory; `down` removes exactly that.
#
# Needs root, network/UTS/mount namespaces, iproute2, util-linux, OpenSSH (see install-deps.sh).
set -euo pipefail

readonly HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
readonly STANDIN_DIR=$HERE/enroot-standin
readonly STANDIN_TOOLS=(enroot enroot-mount enroot-switchroot)
readonly STATE_DIR=${CLUSTERRUN_LC_STATE:-/var/lib/clusterrun-lc}
readonly SHARED_ROOT=${CLUSTERRUN_LC_SHARED_ROOT:-/srv/clusterrun-lc}
readonly SHARED_DIR=$SHARED_ROOT/shared
readonly REGISTRY_DIR=$SHARED_ROOT/registry
readonly JOB_USER=crjob
readonly JOB_UID=4242
readonly JOB_HOME=/home/$JOB_USER
readonly SUBNET_PREFIX=10.213.77
readonly SUBNET=$SUBNET_PREFIX.0/24
readonly HOST_ADDR=$SUBNET_PREFIX.1
readonly BRIDGE=crlc0
readonly NETNS_PREFIX=crlc-
readonly HOSTS_BEGIN="# BEGIN clusterrun-local-cluster (managed by examples/local-cluster/cluster.sh)"
readonly HOSTS_END="# END clusterrun-local-cluster"
readonly MAX_NODES=50

usage() {
  cat <<EOF
Usage: cluster.sh COMMAND [ARGS]

A multi-node cluster on this machine: nodes node1..nodeN as namespaces with their own sshd.

Commands:
  up N                      bring nodes node1..nodeN up (tears down any earlier cluster first)
  down                      remove everything 'up' made (idempotent)
  status                    show nodes, holder and sshd PIDs
  env                       print KEY=VALUE facts (job user, key file, shared dir, nodes, ...)
  hostfile [SLOTS]          print an Open MPI hostfile for the nodes that are up (default 1 slot)
  exec NODE [--root] -- CMD...
                            run CMD on NODE as the job user (or root) with a clean environment
                            like a non-interactive SSH session; its exit code is passed through
  isolate NODE PATH         hide PATH on NODE only (an empty tmpfs over it): PATH is not shared
  unisolate NODE PATH       undo 'isolate'
  check                     say whether this machine can run the cluster (exit 0 when it can)

Environment:
  CLUSTERRUN_LC_ENROOT=auto|standin|host
                            'standin' puts the enroot stand-in on the nodes' PATH, 'host' uses
                            the host's enroot (each node starting from enroot's packaged
                            configuration); 'auto' (default) uses the host's when there is one
  CLUSTERRUN_LC_SUDO=1|0    give the job user password-less sudo inside the nodes (default 1)
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
  for c in ip unshare nsenter setpriv sshd ssh ssh-keygen mksquashfs unsquashfs mpirun mpicc \
    findmnt mountpoint useradd userdel flock perl; do
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

node_addr() { echo "$SUBNET_PREFIX.$((10 + $1))"; }

# The holder PID of a node, checked to still be our holder (PIDs may be reused).
holder_pid() {
  local node=$1 pid
  pid=$(cat "$STATE_DIR/nodes/$node/holder.pid" 2>/dev/null) || return 1
  [[ -n $pid && -r /proc/$pid/cmdline ]] || return 1
  [[ $(tr '\0' ' ' <"/proc/$pid/cmdline") == "crlc-holder-$node "* ]] || return 1
  echo "$pid"
}

# True when PID runs in the network namespace of our node NODE.
in_node_netns() {
  local pid=$1 node=$2
  [[ -e /run/netns/$NETNS_PREFIX$node ]] || return 1
  [[ $(stat -L -c %i "/proc/$pid/ns/net" 2>/dev/null) == $(stat -L -c %i "/run/netns/$NETNS_PREFIX$node") ]]
}

record() { echo "$*" >>"$STATE_DIR/created"; }

# ---------------------------------------------------------------------------------------------
# down: undo what the records say, in reverse order of making; tolerant of half-made states.

kill_pid_file() {
  # kill_pid_file FILE NODE CHECK: TERM the recorded PID when CHECK says it is still ours.
  local file=$1 node=$2 what=$3 pid
  pid=$(cat "$file" 2>/dev/null) || return 0
  [[ -n $pid && -d /proc/$pid ]] || return 0
  case $what in
    holder) holder_pid "$node" >/dev/null || return 0 ;;
    sshd)
      [[ $(readlink "/proc/$pid/exe" 2>/dev/null) == */sshd ]] || return 0
      in_node_netns "$pid" "$node" || return 0
      ;;
  esac
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 100); do running "$pid" || return 0; sleep 0.02; done
  kill -KILL "$pid" 2>/dev/null || true
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
  local line kind arg node ns pids
  if [[ -d $STATE_DIR/nodes ]]; then
    for node in $(ls "$STATE_DIR/nodes"); do
      kill_pid_file "$STATE_DIR/nodes/$node/sshd.pid" "$node" sshd
    done
    for node in $(ls "$STATE_DIR/nodes"); do
      # Processes left in the node (job sessions, daemons): exactly those in the node's netns.
      ns=$NETNS_PREFIX$node
      if [[ -e /run/netns/$ns ]]; then
        pids=$(ip netns pids "$ns" 2>/dev/null | grep -vx "$(holder_pid "$node" || echo none)" || true)
        [[ -z $pids ]] || kill -KILL $pids 2>/dev/null || true
      fi
      kill_pid_file "$STATE_DIR/nodes/$node/holder.pid" "$node" holder
    done
  fi
  if [[ -r $STATE_DIR/created ]]; then
    tac "$STATE_DIR/created" | while read -r kind arg; do
      case $kind in
        netns) ip netns del "$arg" 2>/dev/null || true ;;
        link) ip link del "$arg" 2>/dev/null || true ;;
        hosts) remove_hosts_block ;;
        user)
          userdel -r "$arg" >/dev/null 2>&1 || userdel "$arg" >/dev/null 2>&1 || true
          getent group "$arg" >/dev/null && groupdel "$arg" 2>/dev/null || true
          ;;
        dir) rm -rf --one-file-system "$arg" ;;
        emptydir) rmdir "$arg" 2>/dev/null || true ;;
        *) ;;
      esac
    done
  fi
  rm -rf --one-file-system "$STATE_DIR"
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

make_user() {
  if getent passwd "$JOB_USER" >/dev/null; then
    [[ $(id -u "$JOB_USER") == "$JOB_UID" ]] || die "user $JOB_USER exists with a uid other than $JOB_UID"
    die "user $JOB_USER already exists but was not made by this script; remove it first"
  fi
  if getent passwd "$JOB_UID" >/dev/null; then die "uid $JOB_UID is taken by $(getent passwd "$JOB_UID" | cut -d: -f1)"; fi
  record user "$JOB_USER"
  getent group "$JOB_UID" >/dev/null || groupadd -g "$JOB_UID" "$JOB_USER"
  useradd -u "$JOB_UID" -g "$JOB_UID" -m -d "$JOB_HOME" -s /bin/bash "$JOB_USER"
  # UsePAM is off in the nodes' sshd: a locked ('!') password field would refuse key logins.
  usermod -p '*' "$JOB_USER"
  install -d -m 0700 -o "$JOB_UID" -g "$JOB_UID" "$JOB_HOME/.ssh"
  ssh-keygen -q -t ed25519 -N '' -C "$JOB_USER@clusterrun-lc" -f "$JOB_HOME/.ssh/id_ed25519"
  cp "$JOB_HOME/.ssh/id_ed25519.pub" "$JOB_HOME/.ssh/authorized_keys"
  chown "$JOB_UID:$JOB_UID" "$JOB_HOME/.ssh"/*
  chmod 0600 "$JOB_HOME/.ssh/authorized_keys"
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
AllowUsers $JOB_USER
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
    unshare --mount --propagation private -- sh -c 'mount --bind "$1" /dev/fuse && exec setpriv \
      --reuid="$2" --regid="$2" --clear-groups unshare --user --map-user="$2" --map-group="$2" \
      --keep-caps --mount -- sh "$3/try.sh" "$3"' probe "$dev" "$JOB_UID" "$d" >/dev/null 2>&1 || rc=1
  fi
  rm -rf "$d"
  return "$rc"
}

make_node() {
  local k=$1 node=node$1 addr dir ns pid i
  addr=$(node_addr "$k")
  dir=$STATE_DIR/nodes/$node
  ns=$NETNS_PREFIX$node
  mkdir -p "$dir/etc-enroot"
  # Every node starts from a fresh install's configuration: the stand-in's packaged files, or the
  # files the host enroot's package installed (collected once by do_up).
  if [[ $ENROOT_MODE == standin ]]; then
    cp -a "$STANDIN_DIR/etc/." "$dir/etc-enroot/"
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
    } >>"$dir/etc-enroot/enroot.conf"
  else
    cp -a "$STATE_DIR/packaged-enroot/." "$dir/etc-enroot/"
  fi
  mkdir -p "$dir/etc-enroot"/{enroot.conf.d,hooks.d,environ.d,mounts.d}
  chmod -R go-w "$dir/etc-enroot"

  record netns "$ns"
  ip netns add "$ns"
  record link "crlc-v$k"
  ip link add "crlc-v$k" type veth peer name "crlc-p$k"
  ip link set "crlc-p$k" netns "$ns"
  ip link set "crlc-v$k" master "$BRIDGE" up
  ip -n "$ns" link set lo up
  ip -n "$ns" link set "crlc-p$k" name eth0
  ip -n "$ns" addr add "$addr/24" dev eth0
  ip -n "$ns" link set eth0 up

  # The holder: in the node's netns, new UTS + mount namespaces (private propagation), sleeping.
  setsid nsenter --net="/run/netns/$ns" unshare --uts --mount --propagation private -- \
    bash -c 'hostname "$1"; exec -a "crlc-holder-$1" sleep infinity' holder "$node" \
    </dev/null >/dev/null 2>&1 9>&- &
  pid=$!
  echo "$pid" >"$dir/holder.pid"
  for i in $(seq 200); do
    holder_pid "$node" >/dev/null && [[ $(nsenter -t "$pid" -u hostname 2>/dev/null) == "$node" ]] && break
    sleep 0.01
  done
  holder_pid "$node" >/dev/null || die "$node: the namespace holder did not start"

  # Node-local mounts, made inside the node's mount namespace.
  nsenter -t "$pid" -m -- bash -euc '
    node_dir=$1 standin_bin=$2 fuse=$3 sysconf=$4 host_etc=$5
    # /run/netns holds references to all nodes; a node needs none of them.
    for m in $(findmnt -rn -o TARGET | grep "^/run/netns/" || true); do umount -l "$m" || true; done
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
    if [[ -d $node_dir/sudoers.d && -d /etc/sudoers.d ]]; then mount --bind -o ro "$node_dir/sudoers.d" /etc/sudoers.d; fi
  ' nodesetup "$dir" "$([[ $ENROOT_MODE == standin ]] && echo "$STATE_DIR/bin" || true)" \
    "$([[ $SQSH_MODE == fuse ]] && echo "$STATE_DIR/fuse" || true)" "$HOST_SYSCONF" "$STATE_DIR/host-etc"

  ssh-keygen -q -t ed25519 -N '' -C "$node" -f "$dir/ssh_host_ed25519_key"
  write_sshd_config "$node" "$addr"
}

start_sshd() {
  local node=$1 dir=$STATE_DIR/nodes/$1 pid
  pid=$(holder_pid "$node")
  nsenter -t "$pid" -n -u -m -- /usr/sbin/sshd -f "$dir/sshd_config" -E "$dir/sshd.log" 9>&-
}

wait_sshd() {
  local node=$1 k=$2 dir=$STATE_DIR/nodes/$1 i
  for i in $(seq 300); do
    if [[ -s $dir/sshd.pid ]] && nsenter --net="/run/netns/$NETNS_PREFIX$node" \
      bash -c "exec 3<>/dev/tcp/$(node_addr "$k")/22" 2>/dev/null; then
      return 0
    fi
    sleep 0.02
  done
  die "$node: sshd did not come up (see $dir/sshd.log)"
}

make_registry() {
  # A tiny image for the enroot stand-in's local 'docker://' registry: clusterrun/tiny:latest.
  local img=$REGISTRY_DIR/clusterrun/tiny/latest
  mkdir -p "$img/etc" "$img/opt/tiny"
  printf 'CLUSTERRUN_IMAGE=clusterrun/tiny:latest\n' >"$img/etc/environment"
  printf 'clusterrun local-cluster tiny image\n' >"$img/opt/tiny/README"
}

do_up() {
  local n=$1 k node
  [[ $n =~ ^[0-9]+$ ]] && ((n >= 1 && n <= MAX_NODES)) || die "up: N must be 1..$MAX_NODES, got '$n'"
  require_root
  local why
  if ! why=$(check_prereqs); then die "cannot bring the cluster up: ${why//$'\n'/; }"; fi
  if [[ -d $STATE_DIR ]]; then
    note "found an earlier cluster's state in $STATE_DIR; taking it down first"
    do_down
  fi
  ENROOT_MODE=$(enroot_mode)
  mkdir -p "$STATE_DIR/nodes"
  chmod 0755 "$STATE_DIR"
  : >"$STATE_DIR/created"
  echo "$ENROOT_MODE" >"$STATE_DIR/enroot.mode"

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

  make_user
  SQSH_MODE=$(make_fuse_device)
  echo "$SQSH_MODE" >"$STATE_DIR/sqsh.mode"
  if [[ $SQSH_MODE == unpack ]]; then
    if [[ $ENROOT_MODE == standin ]]; then
      note "no usable /dev/fuse or squashfuse: the stand-in unpacks IMAGE.sqsh on start (SHORTCUT)"
    else
      note "no usable /dev/fuse or squashfuse: enroot start IMAGE.sqsh will fail on the nodes"
    fi
  fi
  if [[ ! -e $SHARED_ROOT ]]; then record dir "$SHARED_ROOT"; fi
  mkdir -p "$SHARED_DIR" "$REGISTRY_DIR"
  chmod 0755 "$SHARED_ROOT" "$REGISTRY_DIR"
  chown "$JOB_UID:$JOB_UID" "$SHARED_DIR"
  make_registry

  record link "$BRIDGE"
  ip link add "$BRIDGE" type bridge
  ip addr add "$HOST_ADDR/24" dev "$BRIDGE"
  ip link set "$BRIDGE" up

  record hosts
  write_hosts_block "$n"
  echo "$n" >"$STATE_DIR/nodes.count"

  for ((k = 1; k <= n; k++)); do
    node=node$k
    mkdir -p "$STATE_DIR/nodes/$node"
    if [[ ${CLUSTERRUN_LC_SUDO:-1} == 1 ]]; then
      mkdir -p "$STATE_DIR/nodes/$node/sudoers.d"
      cp -a /etc/sudoers.d/. "$STATE_DIR/nodes/$node/sudoers.d/" 2>/dev/null || true
      echo "$JOB_USER ALL=(ALL:ALL) NOPASSWD: ALL" >"$STATE_DIR/nodes/$node/sudoers.d/clusterrun-lc"
      chmod 0440 "$STATE_DIR/nodes/$node/sudoers.d/clusterrun-lc"
    fi
    make_node "$k"
  done

  # known_hosts: every node by name and by address, from the host keys just made.
  local kh=$JOB_HOME/.ssh/known_hosts
  : >"$kh"
  for ((k = 1; k <= n; k++)); do
    echo "node$k,$(node_addr "$k") $(cut -d' ' -f1,2 "$STATE_DIR/nodes/node$k/ssh_host_ed25519_key.pub")" >>"$kh"
  done
  chown "$JOB_UID:$JOB_UID" "$kh"
  chmod 0644 "$kh"
  cp "$kh" "$STATE_DIR/known_hosts"

  for ((k = 1; k <= n; k++)); do start_sshd "node$k"; done
  for ((k = 1; k <= n; k++)); do wait_sshd "node$k" "$k"; done
  note "up: $n node(s): $(seq -f 'node%g' -s ' ' 1 "$n") (enroot: $ENROOT_MODE)"
}

# ---------------------------------------------------------------------------------------------
# using a running cluster

require_up() {
  [[ -r $STATE_DIR/nodes.count ]] || die "no cluster is up (run: cluster.sh up N)"
}

do_exec() {
  local node=$1
  shift
  local as_root=0
  while [[ $# -gt 0 ]]; do
    case $1 in
      --root) as_root=1 ;;
      --) shift; break ;;
      *) die "exec: unexpected '$1' (usage: exec NODE [--root] -- CMD...)" ;;
    esac
    shift
  done
  [[ $# -gt 0 ]] || die "exec: no command given (usage: exec NODE [--root] -- CMD...)"
  require_up
  node_index "$node" >/dev/null
  local pid
  pid=$(holder_pid "$node") || die "$node: its namespace holder is gone (run: cluster.sh up N)"
  if ((as_root)); then
    exec nsenter -t "$pid" -n -u -m -- env -i -C /root HOME=/root USER=root LOGNAME=root \
      SHELL=/bin/bash PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
  fi
  exec nsenter -t "$pid" -n -u -m -- setpriv --reuid="$JOB_UID" --regid="$JOB_UID" --init-groups \
    env -i -C "$JOB_HOME" HOME="$JOB_HOME" USER="$JOB_USER" LOGNAME="$JOB_USER" SHELL=/bin/bash \
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

do_hostfile() {
  local slots=${1:-1} k
  [[ $slots =~ ^[1-9][0-9]*$ ]] || die "hostfile: SLOTS must be a positive number, got '$slots'"
  require_up
  for ((k = 1; k <= $(node_count); k++)); do echo "node$k slots=$slots"; done
}

do_env() {
  local n nodes=""
  n=$(node_count)
  for ((k = 1; k <= n; k++)); do nodes+="${nodes:+,}node$k"; done
  cat <<EOF
JOB_USER=$JOB_USER
JOB_UID=$JOB_UID
JOB_GID=$JOB_UID
JOB_HOME=$JOB_HOME
KEY_FILE=$JOB_HOME/.ssh/id_ed25519
KNOWN_HOSTS=$JOB_HOME/.ssh/known_hosts
SHARED_DIR=$SHARED_DIR
REGISTRY_DIR=$REGISTRY_DIR
STATE_DIR=$STATE_DIR
SUBNET=$SUBNET
HOST_ADDR=$HOST_ADDR
BRIDGE=$BRIDGE
NETNS_PREFIX=$NETNS_PREFIX
ENROOT_MODE=$(cat "$STATE_DIR/enroot.mode" 2>/dev/null || echo none)
SQSH_MODE=$(cat "$STATE_DIR/sqsh.mode" 2>/dev/null || echo none)
NODES=$nodes
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
    printf '%-8s %-14s %-8s %-8s %s\n' "$node" "$(node_addr "$k")" "$hp" "$sp" "$state"
  done
}

# One up/down at a time. Processes that outlive us (holders, sshd) must not inherit fd 9.
take_lock() {
  exec 9>/run/clusterrun-lc.lock
  flock -w 120 9 || die "another cluster.sh up/down holds /run/clusterrun-lc.lock"
}

main() {
  [[ $# -gt 0 ]] || { usage >&2; exit 2; }
  local cmd=$1
  shift
  case $cmd in
    up) [[ $# -eq 1 ]] || die "usage: cluster.sh up N"; do_up "$1" ;;
    down)
      require_root
      take_lock
      do_down
      ;;
    status) do_status ;;
    env) do_env ;;
    hostfile) [[ $# -le 1 ]] || die "usage: cluster.sh hostfile [SLOTS]"; do_hostfile "$@" ;;
    exec)
      [[ $# -ge 1 ]] || die "usage: cluster.sh exec NODE [--root] -- CMD..."
      require_root
      do_exec "$@"
      ;;
    isolate | unisolate)
      [[ $# -eq 2 ]] || die "usage: cluster.sh $cmd NODE PATH"
      require_root
      "do_$cmd" "$1" "$2"
      ;;
    check) check_prereqs ;;
    -h | --help | help) usage ;;
    *) usage >&2; die "unknown command '$cmd'" ;;
  esac
}

if [[ $# -gt 0 && $1 == up ]]; then
  require_root
  take_lock
fi
main "$@"
