# clusterrun fact script: prints key=value facts about this node as the job user would see them.
# Generated prelude (above) sets: positional parameters = container names, CR_SYSCONF.
# Values are escaped ('\' -> '\\', newline -> '\n') so a value can never start a line of its own.
# No probe may stop the script: no `set -e`, every command guarded.
exec </dev/null
CR_NL='
'
cr_kv() {
  case $2 in
    *"$CR_NL"* | *\\*)
      printf '%s=' "$1"
      printf '%s\n' "$2" | sed -e 's/\\/\\\\/g' | awk 'NR > 1 { printf "\\n" } { printf "%s", $0 } END { printf "\n" }'
      ;;
    *) printf '%s=%s\n' "$1" "$2" ;;
  esac
}
if command -v timeout >/dev/null 2>&1; then
  cr_to() { timeout -k 1 "$@"; }
else
  cr_to() { shift; "$@"; }
fi

printf '%s\n' '@clusterrun-facts-begin 1'
cr_h=$(hostname 2>/dev/null) || cr_h=
[ -n "$cr_h" ] || cr_h=$(uname -n 2>/dev/null)
cr_kv hostname "$cr_h"
cr_kv uid "$(id -u 2>/dev/null)"
cr_kv gid "$(id -g 2>/dev/null)"
cr_kv user "$(id -un 2>/dev/null)"
cr_kv home "${HOME-}"
if [ -n "${HOME-}" ]; then
  cr_kv home.real "$(cd -- "$HOME" 2>/dev/null && pwd -P)"
  if [ -d "$HOME/.ssh" ]; then cr_kv home.ssh_dir yes; else cr_kv home.ssh_dir no; fi
fi
cr_kv env.xdg_runtime_dir "${XDG_RUNTIME_DIR-}"
cr_kv env.path "${PATH-}"

# --- enroot ---------------------------------------------------------------------------------------
cr_e=$(command -v enroot 2>/dev/null)
cr_kv enroot.path "$cr_e"
if [ -n "$cr_e" ]; then
  cr_v=$(cr_to 10 enroot version 2>&1)
  cr_rc=$?
  if [ "$cr_rc" -eq 0 ]; then
    cr_kv enroot.version "$cr_v"
  else
    cr_kv enroot.version.error "exit $cr_rc: $cr_v"
  fi
fi
cr_kv enroot.sysconf "$CR_SYSCONF"

# Open MPI's launch and rsh/ssh agents, by MCA variable name: OMPI_MCA_orte_launch_agent,
# PRTE_MCA_prte_launch_agent, OMPI_MCA_plm_rsh_agent, PRTE_MCA_plm_ssh_agent and their synonyms.
CR_AGENT_RE='(OMPI|PRTE)_MCA_[A-Za-z0-9_]*(launch|rsh|ssh)_agent'
# cr_agent FILE: one line per line of FILE that names an agent variable: LINE KIND NAME, KIND being
# `comment` (the line starts with #) or `code`.
cr_agent() {
  awk -v re="$CR_AGENT_RE" '{
    if (match($0, re)) {
      k = ($0 ~ /^[ \t]*#/) ? "comment" : "code"
      print NR " " k " " substr($0, RSTART, RLENGTH)
    }
  }' "$1" 2>/dev/null | head -n 20
}

# Configuration files, in the order enroot reads them (enroot.in, config::init and config::load):
# enroot.conf, then enroot.conf.d/*.conf in glob order. A line is `NAME VALUE` (or NAME=VALUE),
# the value expanded with `eval echo` as this user; a setting already set, by the environment or by
# an earlier line, is kept: the FIRST non-empty value wins, the environment over every file.
cr_names='RUNTIME_PATH CONFIG_PATH CACHE_PATH DATA_PATH TEMP_PATH MOUNT_HOME'
for cr_n in $cr_names; do
  eval "cr_env_$cr_n=\${ENROOT_$cr_n-}; cr_raw_$cr_n=; cr_src_$cr_n=; cr_line_$cr_n=; cr_val_$cr_n=; cr_err_$cr_n="
done
cr_conf=0
cr_read_conf() {
  cr_kv "conf.$cr_conf.path" "$1"
  cr_s=$(sha256sum -- "$1" 2>&1)
  if [ $? -eq 0 ]; then cr_kv "conf.$cr_conf.sha256" "${cr_s%% *}"; else cr_kv "conf.$cr_conf.error" "$cr_s"; fi
  cr_ln=0
  cr_sets=
  while IFS=' 	=' read -r cr_k cr_val || [ -n "$cr_k" ]; do
    cr_ln=$((cr_ln + 1))
    case $cr_k in
      ENROOT_RUNTIME_PATH | ENROOT_CONFIG_PATH | ENROOT_CACHE_PATH | ENROOT_DATA_PATH | ENROOT_TEMP_PATH | ENROOT_MOUNT_HOME)
        cr_sets="$cr_sets $cr_k:$cr_ln"
        cr_k=${cr_k#ENROOT_}
        eval "cr_have=\$cr_env_$cr_k\$cr_val_$cr_k"
        [ -z "$cr_have" ] || continue
        cr_x=$( (eval "echo $cr_val") 2>/dev/null)
        cr_e=
        [ -n "$cr_x" ] || cr_e=$( (eval "echo $cr_val") 2>&1 >/dev/null)
        if [ -n "$cr_x" ]; then
          eval "cr_raw_$cr_k=\$cr_val; cr_src_$cr_k=\$1; cr_line_$cr_k=\$cr_ln; cr_val_$cr_k=\$cr_x; cr_err_$cr_k="
          eval "ENROOT_$cr_k=\$cr_x; export ENROOT_$cr_k"
        elif [ -n "$cr_e" ]; then
          # enroot carries on with an empty value: a later line, or the default, applies.
          eval "cr_err_$cr_k=\"\$1:\$cr_ln: \$cr_e\""
        fi
        ;;
    esac
  done <"$1"
  cr_kv "conf.$cr_conf.sets" "${cr_sets# }"
  cr_kv "conf.$cr_conf.agent" "$(cr_agent "$1")"
  cr_conf=$((cr_conf + 1))
}
if [ -f "$CR_SYSCONF/enroot.conf" ]; then cr_read_conf "$CR_SYSCONF/enroot.conf"; fi
for cr_f in "$CR_SYSCONF"/enroot.conf.d/*.conf; do
  if [ -f "$cr_f" ]; then cr_read_conf "$cr_f"; fi
done

# Effective values: the environment, else the first file value, else enroot's default (expanded as
# this user); then, as enroot's config::fini, n/no/N/NO/No/f/false/F/False/FALSE unset a setting.
cr_def_RUNTIME_PATH='${XDG_RUNTIME_DIR:-/run}/enroot'
cr_def_CONFIG_PATH='${XDG_CONFIG_HOME:-$HOME/.config}/enroot'
cr_def_CACHE_PATH='${XDG_CACHE_HOME:-$HOME/.cache}/enroot'
cr_def_DATA_PATH='${XDG_DATA_HOME:-$HOME/.local/share}/enroot'
cr_def_TEMP_PATH='${TMPDIR:-/tmp}'
cr_def_MOUNT_HOME=
for cr_n in $cr_names; do
  eval "cr_envv=\$cr_env_$cr_n; cr_raw=\$cr_raw_$cr_n; cr_src=\$cr_src_$cr_n; cr_line=\$cr_line_$cr_n; cr_val=\$cr_val_$cr_n; cr_err=\$cr_err_$cr_n; cr_def=\$cr_def_$cr_n"
  if [ -n "$cr_envv" ]; then
    cr_src=environment
    cr_raw=$cr_envv
    cr_val=$cr_envv
    cr_line=
    cr_err=
  elif [ -z "$cr_src" ]; then
    cr_src=default
    cr_raw=$cr_def
    cr_line=
    cr_val=$(eval "printf '%s' \"$cr_def\"" 2>/dev/null)
  fi
  case $cr_val in
    n | no | N | NO | No | f | false | F | False | FALSE) cr_val= ;;
  esac
  if [ -n "$cr_val" ]; then
    eval "ENROOT_$cr_n=\$cr_val; export ENROOT_$cr_n"
  else
    unset "ENROOT_$cr_n"
  fi
  cr_kv "enroot.ENROOT_$cr_n" "$cr_val"
  cr_kv "enroot.ENROOT_$cr_n.source" "$cr_src"
  if [ -n "$cr_line" ]; then cr_kv "enroot.ENROOT_$cr_n.line" "$cr_line"; fi
  cr_kv "enroot.ENROOT_$cr_n.raw" "$cr_raw"
  if [ -n "$cr_err" ]; then cr_kv "enroot.ENROOT_$cr_n.error" "$cr_err"; fi
done

# --- paths: creatable and writable by this user ----------------------------------------------------
cr_probe() {
  if [ -z "$2" ]; then
    cr_kv "$1.writable" no
    cr_kv "$1.error" "not set"
    return
  fi
  case $2 in
    /*) ;;
    *)
      cr_kv "$1.writable" no
      cr_kv "$1.error" "not an absolute path"
      return
      ;;
  esac
  # For the runtime path (node-local), directories this probe creates are removed again, so
  # the probe leaves the node as it was: a /run/enroot left by root would change what enroot
  # does later. The cache and data paths usually live on a shared filesystem that every node
  # probes at once; enroot creates them itself on first use, so they are kept (removing them
  # would pull the directory from under another node's probe).
  cr_q=$2
  while [ -n "$cr_q" ] && [ ! -e "$cr_q" ]; do cr_q=${cr_q%/*}; done
  # On a shared path (a home on NFS) another node's probe may remove a directory it created
  # between this mkdir and this touch: when the directory has vanished, make it again.
  cr_t="$2/.clusterrun-write-test.$(uname -n).$$"
  cr_i=0
  cr_ok=no
  while [ "$cr_i" -lt 10 ]; do
    cr_i=$((cr_i + 1))
    if cr_err=$(mkdir -p -- "$2" 2>&1) && cr_err=$(touch -- "$cr_t" 2>&1); then
      rm -f -- "$cr_t"
      cr_ok=yes
      break
    fi
    # Retry only while the directory keeps vanishing (another node's probe removed it, even
    # midway through mkdir -p); a real permission problem answers the same way every time.
    if [ -d "$2" ]; then break; fi
  done
  cr_kv "$1.writable" "$cr_ok"
  if [ "$cr_ok" = no ]; then cr_kv "$1.error" "$cr_err"; fi
  [ "${3-}" = keep ] && return
  cr_x=${2%/}
  while [ -n "$cr_x" ] && [ "$cr_x" != "$cr_q" ] && rmdir -- "$cr_x" 2>/dev/null; do
    cr_x=${cr_x%/*}
  done
}
cr_probe probe.runtime "${ENROOT_RUNTIME_PATH-}"
cr_probe probe.cache "${ENROOT_CACHE_PATH-}" keep
cr_probe probe.data "${ENROOT_DATA_PATH-}" keep

# Filesystem of the data path (or of its nearest existing parent) and its real path.
cr_d=${ENROOT_DATA_PATH-}
if [ -n "$cr_d" ]; then
  cr_q=$cr_d
  while [ -n "$cr_q" ] && [ ! -e "$cr_q" ]; do cr_q=${cr_q%/*}; done
  [ -n "$cr_q" ] || cr_q=/
  cr_r=$(cd -- "$cr_q" 2>/dev/null && pwd -P)
  if [ -n "$cr_r" ]; then
    cr_rest=${cr_d#"$cr_q"}
    cr_kv data.real "${cr_r%/}$cr_rest"
  fi
  cr_fs=$(cr_to 5 df --output=fstype,target -- "$cr_q" 2>/dev/null | sed -n 2p)
  if [ -n "$cr_fs" ]; then
    cr_kv data.fstype "${cr_fs%% *}"
    cr_fs=${cr_fs#* }
    cr_kv data.mountpoint "${cr_fs#"${cr_fs%%[! ]*}"}"
  else
    cr_kv data.fstype "$(cr_to 5 stat -f -c %T -- "$cr_q" 2>/dev/null)"
  fi
fi

# --- hooks -----------------------------------------------------------------------------------------
cr_hook=0
cr_hooks() {
  for cr_f in "$2"/*; do
    [ -e "$cr_f" ] || continue
    cr_kv "hook.$cr_hook.scope" "$1"
    cr_kv "hook.$cr_hook.path" "$cr_f"
    cr_kv "hook.$cr_hook.stat" "$(stat -L -c '%a %u %U %F' -- "$cr_f" 2>/dev/null)"
    if [ -x "$cr_f" ]; then cr_kv "hook.$cr_hook.executable" yes; else cr_kv "hook.$cr_hook.executable" no; fi
    cr_s=$(sha256sum -- "$cr_f" 2>/dev/null)
    cr_kv "hook.$cr_hook.sha256" "${cr_s%% *}"
    cr_s=$(head -n 5 -- "$cr_f" 2>/dev/null | sed -n 's/^# clusterrun-launch-agent-hook version \([0-9][0-9]*\).*/\1/p' | head -n 1)
    if [ -n "$cr_s" ]; then cr_kv "hook.$cr_hook.version" "$cr_s"; fi
    if [ -f "$cr_f" ]; then cr_kv "hook.$cr_hook.agent" "$(cr_agent "$cr_f")"; fi
    cr_hook=$((cr_hook + 1))
  done
}
cr_hooks system "$CR_SYSCONF/hooks.d"
if [ -n "${ENROOT_CONFIG_PATH-}" ]; then cr_hooks user "$ENROOT_CONFIG_PATH/hooks.d"; fi

# --- environ.d: *.env files enroot reads into every container (runtime::_do_environ) ------------
cr_env=0
cr_environ() {
  for cr_f in "$2"/*.env; do
    [ -f "$cr_f" ] || continue
    cr_a=$(cr_agent "$cr_f")
    [ -n "$cr_a" ] || continue
    cr_kv "environ.$cr_env.scope" "$1"
    cr_kv "environ.$cr_env.path" "$cr_f"
    cr_kv "environ.$cr_env.agent" "$cr_a"
    cr_env=$((cr_env + 1))
  done
}
cr_environ system "$CR_SYSCONF/environ.d"
if [ -n "${ENROOT_CONFIG_PATH-}" ]; then cr_environ user "$ENROOT_CONFIG_PATH/environ.d"; fi
# Agent variables in this session's environment (hooks see it; enroot clears it for the container).
cr_kv env.agent "$(env 2>/dev/null | awk -F= -v re="^$CR_AGENT_RE\$" '$1 ~ re { print $1 }' | head -n 20)"

# --- named containers ------------------------------------------------------------------------------
cr_c=0
for cr_name in "$@"; do
  cr_kv "container.$cr_c.name" "$cr_name"
  if [ -n "$cr_d" ] && [ -d "$cr_d/$cr_name" ]; then
    cr_kv "container.$cr_c.present" yes
  else
    cr_kv "container.$cr_c.present" no
  fi
  cr_c=$((cr_c + 1))
done

# --- GPUs, namespaces, MPI, fuse -----------------------------------------------------------------------
if command -v nvidia-smi >/dev/null 2>&1; then
  cr_g=$(cr_to 10 nvidia-smi -L 2>&1)
  cr_kv gpu.rc "$?"
  cr_kv gpu.list "$cr_g"
fi
cr_kv mntns "$(readlink /proc/self/ns/mnt 2>/dev/null)"
if command -v mpirun >/dev/null 2>&1; then
  cr_kv mpi.path "$(command -v mpirun)"
  cr_kv mpi.version "$(cr_to 5 mpirun --version 2>&1 | head -n 1)"
fi
cr_kv squashfuse "$(command -v squashfuse 2>/dev/null)"
if [ ! -e /dev/fuse ]; then
  cr_kv fuse missing
elif [ -r /dev/fuse ] && [ -w /dev/fuse ]; then
  cr_kv fuse rw
else
  cr_kv fuse no-access
fi

# --- network: IPv4 addresses by interface, the address this SSH session reached, RDMA devices ----
if command -v ip >/dev/null 2>&1; then
  cr_kv net.addrs "$(cr_to 5 ip -o -4 addr show 2>/dev/null | awk '{ print $2, $4 }')"
fi
# SSH_CONNECTION is "CLIENT_ADDR CLIENT_PORT SERVER_ADDR SERVER_PORT": the third is this node's
# address as the head reached it.
cr_kv net.ssh "${SSH_CONNECTION-}"
cr_r=0
for cr_f in /sys/class/infiniband/*; do
  if [ -e "$cr_f" ]; then cr_r=$((cr_r + 1)); fi
done
cr_kv net.rdma "$cr_r"
# Interface selection the user keeps in Open MPI's own file (read by mpirun in the container when
# the home is mounted): clusterrun then leaves it alone.
if [ -n "${HOME-}" ] && [ -f "$HOME/.openmpi/mca-params.conf" ]; then
  cr_kv net.mca_file "$(sed -n 's/^[ 	]*\([a-z_]*_if_[a-z]*clude\)[ 	]*=.*/\1/p' "$HOME/.openmpi/mca-params.conf" 2>/dev/null | head -n 10)"
fi
printf '%s\n' '@clusterrun-facts-end'
