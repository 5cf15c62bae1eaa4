# clusterrun fact script: prints key=value facts about this node as the job user would see them.
# Generated prelude (above) sets: positional parameters = container names, CR_SYSCONF.
# Values are escaped ('\' -> '\\', newline -> '\n') so a value can never start a line of its own.
# No probe may stop the script: no `set -e`, every command guarded.
# Leaves for a script appended after it (CarriedProof.java): CR_HOSTNAME, the hostname it printed,
# and every ENROOT_*_PATH (and ENROOT_MOUNT_HOME, ENROOT_ALLOW_HTTP) exported as the effective value
# it printed (unset when empty), e.g. ENROOT_DATA_PATH.
exec </dev/null
CR_NL='
'
# Escaping in the shell itself (no process per value); a long value, where the shell's string
# copies would cost more than two processes, through sed and awk.
cr_kv() {
  case $2 in
    *"$CR_NL"* | *\\*)
      if [ "${#2}" -gt 1024 ]; then
        printf '%s=' "$1"
        printf '%s\n' "$2" | sed -e 's/\\/\\\\/g' | awk 'NR > 1 { printf "\\n" } { printf "%s", $0 } END { printf "\n" }'
        return
      fi
      cr_kv_i=$2
      cr_kv_o=
      while :; do
        case $cr_kv_i in
          *\\*) ;;
          *) break ;;
        esac
        cr_kv_o=$cr_kv_o${cr_kv_i%%\\*}"\\\\"
        cr_kv_i=${cr_kv_i#*\\}
      done
      cr_kv_i=$cr_kv_o$cr_kv_i
      cr_kv_o=
      while :; do
        case $cr_kv_i in
          *"$CR_NL"*) ;;
          *) break ;;
        esac
        cr_kv_o=$cr_kv_o${cr_kv_i%%"$CR_NL"*}'\n'
        cr_kv_i=${cr_kv_i#*"$CR_NL"}
      done
      printf '%s=%s%s\n' "$1" "$cr_kv_o" "$cr_kv_i"
      ;;
    *) printf '%s=%s\n' "$1" "$2" ;;
  esac
}
# A time limit for a command that may hang (a hung NFS mount, a wedged driver): `$cr_to5 CMD` or
# `$cr_to10 CMD` (unquoted: its words), written into the command substitution itself so that the
# shell's child execs timeout at once (a function there would keep one more shell alive).
if command -v timeout >/dev/null 2>&1; then
  cr_to5='timeout -k 1 5' cr_to10='timeout -k 1 10'
else
  cr_to5='' cr_to10=''
fi

printf '%s\n' '@clusterrun-facts-begin 1'
# hostname(1) prints the kernel's node name, which the shell reads itself.
cr_h=
{ read -r cr_h </proc/sys/kernel/hostname; } 2>/dev/null
[ -n "$cr_h" ] || cr_h=$(hostname 2>/dev/null) || cr_h=
if [ -z "$cr_h" ]; then
  cr_h=$(uname -n 2>/dev/null)
fi
# The name the write probes below put in their file names (hostname prints uname's node name).
cr_un=$cr_h cr_un_set=1
cr_kv hostname "$cr_h"
# shellcheck disable=SC2034 # an output: read by the script appended after this one
CR_HOSTNAME=$cr_h
# One `id` (uid=N(NAME) gid=N(NAME) ... [euid=...] [egid=...]), read as `id -u`, `id -g` and
# `id -un` would: effective ids; a uid without a name asks `id -un` (GNU id prints the number
# then), and so does an unexpected form for all three.
cr_id=$(LC_ALL=C id 2>/dev/null)
case $cr_id in
  uid=[0-9]*" gid="[0-9]*)
    cr_x=${cr_id#uid=}
    case $cr_id in *" euid="[0-9]*) cr_x=${cr_id#*" euid="} ;; esac
    cr_uid=${cr_x%%[!0-9]*}
    cr_x=${cr_x#"$cr_uid"}
    case $cr_x in
      "("*")"*)
        cr_user=${cr_x#"("}
        cr_user=${cr_user%%")"*}
        ;;
      *) cr_user=$(id -un 2>/dev/null) ;;
    esac
    cr_x=${cr_id#*" gid="}
    case $cr_id in *" egid="[0-9]*) cr_x=${cr_id#*" egid="} ;; esac
    cr_gid=${cr_x%%[!0-9]*}
    ;;
  *)
    cr_uid=$(id -u 2>/dev/null)
    cr_gid=$(id -g 2>/dev/null)
    cr_user=$(id -un 2>/dev/null)
    ;;
esac
cr_kv uid "$cr_uid"
cr_kv gid "$cr_gid"
cr_kv user "$cr_user"
cr_kv home "${HOME-}"
if [ -n "${HOME-}" ]; then
  # The shell's own cd -P (no subshell), and back.
  cr_x=
  cr_pwd=$PWD
  if cd -P -- "$HOME" 2>/dev/null; then
    cr_x=$PWD
    cd -- "$cr_pwd" 2>/dev/null || cd /
  fi
  cr_kv home.real "$cr_x"
  if [ -d "$HOME/.ssh" ]; then cr_kv home.ssh_dir yes; else cr_kv home.ssh_dir no; fi
fi
cr_kv env.xdg_runtime_dir "${XDG_RUNTIME_DIR-}"
cr_kv env.path "${PATH-}"

# --- enroot ---------------------------------------------------------------------------------------
cr_e=$(command -v enroot 2>/dev/null)
cr_kv enroot.path "$cr_e"
cr_ev_known=
if [ -n "$cr_e" ]; then
  # `enroot version` prints a constant of the installed executable. A run gives the versions it read
  # before (CR_ENROOT_KNOWN set, possibly empty: lines "PATH ID VERSION", ID the executable's
  # device:inode:size:mtime:ctime, which any reinstall changes): an executable with a known ID is not
  # started again. CR_ENROOT_KNOWN unset: enroot is always started.
  cr_v=
  if [ -n "${CR_ENROOT_KNOWN+set}" ]; then
    cr_x=$(stat -L -c '%d:%i:%s:%Y:%Z' -- "$cr_e" 2>/dev/null)
    cr_kv enroot.id "$cr_x"
    if [ -n "$cr_x" ]; then
      case $CR_NL$CR_ENROOT_KNOWN in
        *"$CR_NL$cr_e $cr_x "?*)
          cr_v=$CR_NL$CR_ENROOT_KNOWN
          cr_v=${cr_v#*"$CR_NL$cr_e $cr_x "}
          cr_v=${cr_v%%"$CR_NL"*}
          ;;
      esac
    fi
  fi
  # cr_enroot_version: starts `enroot version` and prints what it said.
  cr_enroot_version() {
    # shellcheck disable=SC2086
    cr_v=$($cr_to10 enroot version 2>&1)
    cr_rc=$?
    if [ "$cr_rc" -eq 0 ]; then
      cr_kv enroot.version "$cr_v"
    else
      cr_kv enroot.version.error "exit $cr_rc: $cr_v"
    fi
  }
  # A remembered version is printed after the path probes below, and only when enroot's three
  # paths proved usable: where one is not, enroot is started after all, so that what it says
  # about it shows (enroot makes its directories before any command, `version` included).
  cr_ev_known=$cr_v
  [ -n "$cr_v" ] || cr_enroot_version
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
# The same for many files in one process, with the version in clusterrun's hook header (the first
# `# clusterrun-launch-agent-hook version N` line among the first 5): cr_scan FILE... prints, per
# FILE in order, `v N` (when found), `a LINE KIND NAME` (at most 20) and then `.`. Files are read
# with getline so an unreadable one gives nothing and the others are still read.
cr_scan() {
  awk -v re="$CR_AGENT_RE" -v hdr="# clusterrun-launch-agent-hook version " 'BEGIN {
    h = length(hdr)
    for (i = 1; i < ARGC; i++) {
      f = ARGV[i]
      n = 0
      a = 0
      v = ""
      while ((getline l < f) > 0) {
        n++
        if (n <= 5 && v == "" && substr(l, 1, h) == hdr && match(substr(l, h + 1), /^[0-9]+/)) {
          v = substr(l, h + 1, RLENGTH)
          print "v " v
        }
        if (a < 20 && match(l, re)) {
          a++
          k = (l ~ /^[ \t]*#/) ? "comment" : "code"
          print "a " n " " k " " substr(l, RSTART, RLENGTH)
        }
      }
      close(f)
      print "."
    }
    exit
  }' "$@" 2>/dev/null
}
# cr_take: the next file's results from cr_scan's output in cr_sc: cr_ver, cr_ag.
cr_take() {
  cr_ver=
  cr_ag=
  while [ -n "$cr_sc" ]; do
    cr_l=${cr_sc%%"$CR_NL"*}
    case $cr_sc in
      *"$CR_NL"*) cr_sc=${cr_sc#*"$CR_NL"} ;;
      *) cr_sc= ;;
    esac
    case $cr_l in
      .) return ;;
      "v "*) cr_ver=${cr_l#v } ;;
      "a "*) cr_ag=${cr_ag:+$cr_ag$CR_NL}${cr_l#a } ;;
    esac
  done
}
# cr_plain FILE: FILE's name prints as it is in sha256sum's and stat's lines (no backslash, no
# control character): such files are hashed, stat'ed and scanned together; the others alone.
cr_plain() {
  case $1 in
    *\\* | *[[:cntrl:]]*) return 1 ;;
  esac
  return 0
}
# cr_sum FILE: when the next line of `sha256sum -- FILE...` output in cr_sums is FILE's, takes
# it: cr_s is its checksum. A file sha256sum could not read has no line.
cr_sum() {
  cr_s=
  cr_l=${cr_sums%%"$CR_NL"*}
  [ -n "$cr_sums" ] && [ "${cr_l#*"  "}" = "$1" ] || return 1
  cr_s=${cr_l%%"  "*}
  case $cr_sums in
    *"$CR_NL"*) cr_sums=${cr_sums#*"$CR_NL"} ;;
    *) cr_sums= ;;
  esac
}
# cr_stat FILE: likewise from `stat -L -c '%n/%a %u %U %F' -- FILE...` output in cr_stats: cr_st.
cr_stat() {
  cr_st=
  cr_l=${cr_stats%%"$CR_NL"*}
  [ -n "$cr_stats" ] && [ "${cr_l%/*}" = "$1" ] || return 1
  cr_st=${cr_l##*/}
  case $cr_stats in
    *"$CR_NL"*) cr_stats=${cr_stats#*"$CR_NL"} ;;
    *) cr_stats= ;;
  esac
}

# Configuration files, in the order enroot reads them (enroot.in, config::init and config::load):
# enroot.conf, then enroot.conf.d/*.conf in glob order. A line is `NAME VALUE` (or NAME=VALUE),
# the value expanded with `eval echo` as this user; a setting already set, by the environment or by
# an earlier line, is kept: the FIRST non-empty value wins, the environment over every file.
# enroot's shell is bash, which sets UID (per-user values such as /shared/enroot/$UID); sh may not.
[ -n "${UID-}" ] || UID=$(id -u 2>/dev/null)
cr_names='RUNTIME_PATH CONFIG_PATH CACHE_PATH DATA_PATH TEMP_PATH MOUNT_HOME ALLOW_HTTP'
for cr_n in $cr_names; do
  eval "cr_env_$cr_n=\${ENROOT_$cr_n-}; cr_raw_$cr_n=; cr_src_$cr_n=; cr_line_$cr_n=; cr_val_$cr_n=; cr_err_$cr_n="
done
cr_conf=0
cr_read_conf() {
  cr_kv "conf.$cr_conf.path" "$1"
  if [ "$cr_p" = yes ] && cr_sum "$1"; then
    cr_kv "conf.$cr_conf.sha256" "$cr_s"
  else
    # Not hashed with the others (or it failed there): alone, for the exact error.
    if cr_s=$(sha256sum -- "$1" 2>&1); then cr_kv "conf.$cr_conf.sha256" "${cr_s%% *}"; else cr_kv "conf.$cr_conf.error" "$cr_s"; fi
  fi
  cr_ln=0
  cr_sets=
  while IFS=' 	=' read -r cr_k cr_val || [ -n "$cr_k" ]; do
    cr_ln=$((cr_ln + 1))
    case $cr_k in
      ENROOT_RUNTIME_PATH | ENROOT_CONFIG_PATH | ENROOT_CACHE_PATH | ENROOT_DATA_PATH | ENROOT_TEMP_PATH | ENROOT_MOUNT_HOME | ENROOT_ALLOW_HTTP)
        cr_sets="$cr_sets $cr_k:$cr_ln"
        cr_k=${cr_k#ENROOT_}
        eval "cr_have=\$cr_env_$cr_k\$cr_val_$cr_k"
        [ -z "$cr_have" ] || continue
        # In a subshell (the value may run commands, as enroot's eval does): one, not two.
        cr_x=$(eval "echo $cr_val" 2>/dev/null)
        cr_e=
        [ -n "$cr_x" ] || cr_e=$(eval "echo $cr_val" 2>&1 >/dev/null)
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
  if [ "$cr_p" = yes ]; then
    cr_take
    cr_kv "conf.$cr_conf.agent" "$cr_ag"
  else
    cr_kv "conf.$cr_conf.agent" "$(cr_agent "$1")"
  fi
  cr_conf=$((cr_conf + 1))
}
# The files first (cr_cf_N, cr_cp_N: plain), then one sha256sum and one scan for the plain ones.
cr_nc=0
cr_add_conf() {
  eval "cr_cf_$cr_nc=\$1"
  if cr_plain "$1"; then eval "cr_cp_$cr_nc=yes"; else eval "cr_cp_$cr_nc=no"; fi
  cr_nc=$((cr_nc + 1))
}
if [ -f "$CR_SYSCONF/enroot.conf" ]; then cr_add_conf "$CR_SYSCONF/enroot.conf"; fi
for cr_f in "$CR_SYSCONF"/enroot.conf.d/*.conf; do
  if [ -f "$cr_f" ]; then cr_add_conf "$cr_f"; fi
done
# cr_pick FILES KINDS N 'KIND...': appends to cr_args the files cr_FILES_J (J below N) whose
# cr_KINDS_J is one of the KINDs, as words for eval "CMD $cr_args": only names and counters are
# ever part of the evaluated text, never a file's name.
cr_pk='' cr_args=''
cr_pick() {
  cr_j=0
  while [ "$cr_j" -lt "$3" ]; do
    eval "cr_pk=\$cr_$2_$cr_j"
    case " $4 " in *" $cr_pk "*) cr_args="$cr_args \"\$cr_$1_$cr_j\"" ;; esac
    cr_j=$((cr_j + 1))
  done
}
# Whether a file is hashed in the batch: set with cr_f from the numbered pairs cr_cf_N, cr_cp_N.
cr_p=''
# cr_conf_batch FILE...: one sha256sum and one scan for the plain files.
cr_conf_batch() {
  cr_sums=
  cr_sc=
  if [ $# -gt 0 ]; then
    cr_sums=$(sha256sum -- "$@" 2>/dev/null)
    cr_sc=$(cr_scan "$@")
  fi
}
cr_args=
cr_pick cf cp "$cr_nc" yes
eval "cr_conf_batch $cr_args"
cr_j=0
while [ "$cr_j" -lt "$cr_nc" ]; do
  eval "cr_f=\$cr_cf_$cr_j cr_p=\$cr_cp_$cr_j"
  cr_read_conf "$cr_f"
  cr_j=$((cr_j + 1))
done

# Effective values: the environment, else the first file value, else enroot's default (expanded as
# this user); then, as enroot's config::fini, n/no/N/NO/No/f/false/F/False/FALSE unset a setting.
# cr_default NAME: enroot's default of setting NAME, unexpanded, in cr_def.
cr_default() {
  case $1 in
    RUNTIME_PATH) cr_def="\${XDG_RUNTIME_DIR:-/run}/enroot" ;;
    CONFIG_PATH) cr_def="\${XDG_CONFIG_HOME:-\$HOME/.config}/enroot" ;;
    CACHE_PATH) cr_def="\${XDG_CACHE_HOME:-\$HOME/.cache}/enroot" ;;
    DATA_PATH) cr_def="\${XDG_DATA_HOME:-\$HOME/.local/share}/enroot" ;;
    TEMP_PATH) cr_def="\${TMPDIR:-/tmp}" ;;
    *) cr_def='' ;;
  esac
}
for cr_n in $cr_names; do
  eval "cr_envv=\$cr_env_$cr_n; cr_raw=\$cr_raw_$cr_n; cr_src=\$cr_src_$cr_n; cr_line=\$cr_line_$cr_n; cr_val=\$cr_val_$cr_n; cr_err=\$cr_err_$cr_n"
  cr_default "$cr_n"
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
    # The defaults are this script's own words (parameter expansions only): no subshell needed.
    eval "cr_val=\"$cr_def\""
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
  cr_made=
  cr_probed=
  cr_ok=no
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
  # For the runtime path (node-local), directories this probe creates are removed again (after
  # the three probes), so the probe leaves the node as it was: a /run/enroot left by root would
  # change what enroot does later. The cache and data paths usually live on a shared filesystem
  # that every node probes at once; enroot creates them itself on first use, so they are kept
  # (removing them would pull the directory from under another node's probe).
  cr_probed=yes
  cr_q=$2
  while [ -n "$cr_q" ] && [ ! -e "$cr_q" ]; do cr_q=${cr_q%/*}; done
  # On a shared path (a home on NFS) another node's probe may remove a directory it created
  # between this mkdir and this touch: when the directory has vanished, make it again.
  [ -n "${cr_un_set-}" ] || {
    cr_un=$(uname -n 2>/dev/null)
    cr_un_set=1
  }
  cr_t="$2/.clusterrun-write-test.$cr_un.$$"
  cr_i=0
  cr_ok=no
  while [ "$cr_i" -lt 10 ]; do
    cr_i=$((cr_i + 1))
    # An existing directory needs no mkdir, and the shell creates the file itself (with `true`, not
    # `:`: a failed redirection of a special builtin ends the script); touch runs only
    # to say why the shell could not.
    cr_err=
    if { [ -d "$2" ] || cr_err=$(mkdir -p -- "$2" 2>&1); } &&
      { { true >"$cr_t"; } 2>/dev/null || cr_err=$(touch -- "$cr_t" 2>&1); }; then
      cr_made=$cr_t
      cr_ok=yes
      break
    fi
    # Retry only while the directory keeps vanishing (another node's probe removed it, even
    # midway through mkdir -p): not when it stands, nor when what stands of its path refuses this
    # user (permission, a read-only file system), which answers the same way every time.
    if [ -d "$2" ]; then break; fi
    cr_a=$2
    while [ -n "$cr_a" ] && [ ! -e "$cr_a" ]; do cr_a=${cr_a%/*}; done
    if [ ! -d "${cr_a:-/}" ] || [ ! -w "${cr_a:-/}" ]; then break; fi
  done
  cr_kv "$1.writable" "$cr_ok"
  if [ "$cr_ok" = no ]; then cr_kv "$1.error" "$cr_err"; fi
}
# The three test files go in one rm afterwards; then the directories the runtime probe made.
cr_probe probe.runtime "${ENROOT_RUNTIME_PATH-}"
cr_rt=$cr_made cr_rq=$cr_q cr_rp=$cr_probed cr_usable=$cr_ok
cr_probe probe.cache "${ENROOT_CACHE_PATH-}"
cr_ct=$cr_made cr_usable=$cr_usable$cr_ok
cr_probe probe.data "${ENROOT_DATA_PATH-}"
cr_dt=$cr_made cr_usable=$cr_usable$cr_ok
if [ -n "$cr_rt$cr_ct$cr_dt" ]; then
  rm -f -- ${cr_rt:+"$cr_rt"} ${cr_ct:+"$cr_ct"} ${cr_dt:+"$cr_dt"}
fi
if [ -n "$cr_rp" ]; then
  cr_x=${ENROOT_RUNTIME_PATH%/}
  while [ -n "$cr_x" ] && [ "$cr_x" != "$cr_rq" ] && rmdir -- "$cr_x" 2>/dev/null; do
    cr_x=${cr_x%/*}
  done
fi
if [ -n "${cr_ev_known-}" ]; then
  if [ "$cr_usable" = yesyesyes ]; then
    cr_kv enroot.version "$cr_ev_known"
    cr_kv enroot.version.remembered yes
  else
    cr_enroot_version
  fi
fi

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
  # shellcheck disable=SC2086
  cr_fs=$($cr_to5 df --output=fstype,target -- "$cr_q" 2>/dev/null)
  case $cr_fs in
    *"$CR_NL"*)
      cr_fs=${cr_fs#*"$CR_NL"}
      cr_fs=${cr_fs%%"$CR_NL"*}
      ;;
    *) cr_fs= ;;
  esac
  if [ -n "$cr_fs" ]; then
    cr_kv data.fstype "${cr_fs%% *}"
    cr_fs=${cr_fs#* }
    cr_kv data.mountpoint "${cr_fs#"${cr_fs%%[! ]*}"}"
  else
    # shellcheck disable=SC2086
    cr_kv data.fstype "$($cr_to5 stat -f -c %T -- "$cr_q" 2>/dev/null)"
  fi
fi

# --- hooks -----------------------------------------------------------------------------------------
# The hook files (cr_hf_N, scope cr_hs_N, kind cr_hk_N: f a plain regular file, d a plain
# directory, o any other) and the environ.d files (cr_ef_N, cr_es_N, cr_ek_N: f or o) first; then
# one stat and one sha256sum for the plain hooks and one scan for the plain regular files.
cr_nh=0
cr_add_hooks() {
  for cr_f in "$2"/*; do
    [ -e "$cr_f" ] || continue
    eval "cr_hf_$cr_nh=\$cr_f cr_hs_$cr_nh=\$1"
    if ! cr_plain "$cr_f"; then
      eval "cr_hk_$cr_nh=o"
    elif [ -f "$cr_f" ]; then
      eval "cr_hk_$cr_nh=f"
    elif [ -d "$cr_f" ]; then
      eval "cr_hk_$cr_nh=d"
    else
      eval "cr_hk_$cr_nh=o"
    fi
    cr_nh=$((cr_nh + 1))
  done
}
cr_add_hooks system "$CR_SYSCONF/hooks.d"
if [ -n "${ENROOT_CONFIG_PATH-}" ]; then cr_add_hooks user "$ENROOT_CONFIG_PATH/hooks.d"; fi
cr_ne=0
cr_add_environ() {
  for cr_f in "$2"/*.env; do
    [ -f "$cr_f" ] || continue
    eval "cr_ef_$cr_ne=\$cr_f cr_es_$cr_ne=\$1"
    if cr_plain "$cr_f"; then eval "cr_ek_$cr_ne=f"; else eval "cr_ek_$cr_ne=o"; fi
    cr_ne=$((cr_ne + 1))
  done
}
cr_add_environ system "$CR_SYSCONF/environ.d"
if [ -n "${ENROOT_CONFIG_PATH-}" ]; then cr_add_environ user "$ENROOT_CONFIG_PATH/environ.d"; fi
# cr_hook_batch FILE...: one stat and one sha256sum for the plain hooks.
cr_hook_batch() {
  cr_stats=
  cr_sums=
  if [ $# -gt 0 ]; then
    cr_stats=$(stat -L -c '%n/%a %u %U %F' -- "$@" 2>/dev/null)
    cr_sums=$(sha256sum -- "$@" 2>/dev/null)
  fi
}
# cr_plain_scan FILE...: one scan for the plain regular files, hooks and environ.d files alike.
cr_plain_scan() {
  cr_sc=
  if [ $# -gt 0 ]; then cr_sc=$(cr_scan "$@"); fi
}
cr_args=
cr_pick hf hk "$cr_nh" 'f d'
eval "cr_hook_batch $cr_args"
cr_args=
cr_pick hf hk "$cr_nh" f
cr_pick ef ek "$cr_ne" f
eval "cr_plain_scan $cr_args"
cr_hook=0
while [ "$cr_hook" -lt "$cr_nh" ]; do
  eval "cr_f=\$cr_hf_$cr_hook cr_k=\$cr_hk_$cr_hook cr_x=\$cr_hs_$cr_hook"
  cr_kv "hook.$cr_hook.scope" "$cr_x"
  cr_kv "hook.$cr_hook.path" "$cr_f"
  if [ "$cr_k" = o ]; then
    cr_kv "hook.$cr_hook.stat" "$(stat -L -c '%a %u %U %F' -- "$cr_f" 2>/dev/null)"
  else
    cr_stat "$cr_f"
    cr_kv "hook.$cr_hook.stat" "$cr_st"
  fi
  if [ -x "$cr_f" ]; then cr_kv "hook.$cr_hook.executable" yes; else cr_kv "hook.$cr_hook.executable" no; fi
  if [ "$cr_k" = o ]; then
    cr_s=$(sha256sum -- "$cr_f" 2>/dev/null)
    cr_s=${cr_s%% *}
  else
    cr_sum "$cr_f"
  fi
  cr_kv "hook.$cr_hook.sha256" "$cr_s"
  case $cr_k in
    f)
      cr_take
      if [ -n "$cr_ver" ]; then cr_kv "hook.$cr_hook.version" "$cr_ver"; fi
      cr_kv "hook.$cr_hook.agent" "$cr_ag"
      ;;
    o)
      cr_s=$(head -n 5 -- "$cr_f" 2>/dev/null | sed -n 's/^# clusterrun-launch-agent-hook version \([0-9][0-9]*\).*/\1/p' | head -n 1)
      if [ -n "$cr_s" ]; then cr_kv "hook.$cr_hook.version" "$cr_s"; fi
      if [ -f "$cr_f" ]; then cr_kv "hook.$cr_hook.agent" "$(cr_agent "$cr_f")"; fi
      ;;
  esac
  cr_hook=$((cr_hook + 1))
done

# --- environ.d: *.env files enroot reads into every container (runtime::_do_environ) ------------
# (listed and scanned with the hooks above)
cr_env=0
cr_j=0
while [ "$cr_j" -lt "$cr_ne" ]; do
  eval "cr_f=\$cr_ef_$cr_j cr_k=\$cr_ek_$cr_j cr_x=\$cr_es_$cr_j"
  cr_j=$((cr_j + 1))
  if [ "$cr_k" = f ]; then
    cr_take
    cr_a=$cr_ag
  else
    cr_a=$(cr_agent "$cr_f")
  fi
  [ -n "$cr_a" ] || continue
  cr_kv "environ.$cr_env.scope" "$cr_x"
  cr_kv "environ.$cr_env.path" "$cr_f"
  cr_kv "environ.$cr_env.agent" "$cr_a"
  cr_env=$((cr_env + 1))
done
# Agent variables in this session's environment (hooks see it; enroot clears it for the container).
# One `env`, its lines matched by the shell: the names of CR_AGENT_RE, at most 20 (the case
# patterns below are CR_AGENT_RE for a whole name; change both together).
cr_x=
cr_i=0
while IFS= read -r cr_l; do
  cr_n=${cr_l%%=*}
  [ "$cr_n" != "$cr_l" ] || continue
  case $cr_n in
    *[!A-Za-z0-9_]*) continue ;;
    OMPI_MCA_*launch_agent | OMPI_MCA_*rsh_agent | OMPI_MCA_*ssh_agent) ;;
    PRTE_MCA_*launch_agent | PRTE_MCA_*rsh_agent | PRTE_MCA_*ssh_agent) ;;
    *) continue ;;
  esac
  cr_x=${cr_x:+$cr_x$CR_NL}$cr_n
  cr_i=$((cr_i + 1))
  [ "$cr_i" -lt 20 ] || break
done <<EOF_CR_ENV
$(env 2>/dev/null)
EOF_CR_ENV
cr_kv env.agent "$cr_x"

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
  # shellcheck disable=SC2086
  cr_g=$($cr_to10 nvidia-smi -L 2>&1)
  cr_kv gpu.rc "$?"
  cr_kv gpu.list "$cr_g"
fi
cr_kv mntns "$(readlink /proc/self/ns/mnt 2>/dev/null)"
# The kernel's boot id: nodes that print the head's share its processors (the local test cluster's
# namespaces), which is when a busy head leaves the other nodes' starts to their daemons.
cr_b=
{ read -r cr_b </proc/sys/kernel/random/boot_id; } 2>/dev/null
cr_kv boot "$cr_b"
# The host's Open MPI, which only `check --json` shows (the job's is the container's): asked only
# when CR_HOST_MPI is 1 (`check`), not for a run's checks.
if [ "${CR_HOST_MPI-}" = 1 ] && command -v mpirun >/dev/null 2>&1; then
  cr_kv mpi.path "$(command -v mpirun)"
  # shellcheck disable=SC2086
  cr_x=$($cr_to5 mpirun --version 2>&1)
  cr_kv mpi.version "${cr_x%%"$CR_NL"*}"
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
  # `ip -o` prints one line an address: "N: IFACE inet ADDR/LEN ..."; read by the shell itself.
  cr_x=
  while read -r _ cr_ip2 cr_ip3 cr_ip4 _; do
    [ "$cr_ip3" = inet ] || continue
    cr_x=${cr_x:+$cr_x$CR_NL}"$cr_ip2 $cr_ip4"
  done <<EOF_CR_IP
$(ip -o -4 addr show 2>/dev/null)
EOF_CR_IP
  cr_kv net.addrs "$cr_x"
fi
# SSH_CONNECTION is "CLIENT_ADDR CLIENT_PORT SERVER_ADDR SERVER_PORT": the third is this node's
# address as the head reached it.
cr_kv net.ssh "${SSH_CONNECTION-}"
cr_r=0
for cr_f in /sys/class/infiniband/*; do
  if [ -e "$cr_f" ]; then cr_r=$((cr_r + 1)); fi
done
cr_kv net.rdma "$cr_r"
# Interface selection and the ssh that starts the daemons, as the user keeps them in Open MPI's own
# file (read by mpirun in the container when the home is mounted): clusterrun then leaves them alone.
if [ -n "${HOME-}" ] && [ -f "$HOME/.openmpi/mca-params.conf" ]; then
  cr_kv net.mca_file "$(awk '/^[ 	]*([a-z_]*_if_[a-z]*clude|plm_(rsh|ssh)_(args|agent)|orte_rsh_agent)[ 	]*=/ { sub(/^[ 	]*/, ""); sub(/[ 	]*=.*/, ""); print; if (++n == 10) exit }' "$HOME/.openmpi/mca-params.conf" 2>/dev/null)"
fi
printf '%s\n' '@clusterrun-facts-end'
