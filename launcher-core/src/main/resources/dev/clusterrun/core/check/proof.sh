# shellcheck shell=sh
# The shared-path proof's steps (SharedPathProof.java and ProofRounds.java), as functions the
# commands of its rounds call with positional arguments. Each answers with `kv` lines (kv.sh,
# defined before) keyed `pINDEX.WHAT`, INDEX being the directory's place among those proven at once.

# cr_proof_dir DIR: sets D to DIR without its trailing slashes (the root stays /).
cr_proof_dir() {
  D=$1
  while [ ${#D} -gt 1 ] && [ "${D%/}" != "$D" ]; do D=${D%/}; done
}

# cr_proof_write INDEX DIR CREATE ID TOKEN: the head's write. DIR is made first when CREATE is 1
# (pINDEX.mkdir); the probe DIR/ID/head holds TOKEN (pINDEX.write: ok, or why not).
cr_proof_write() {
  cr_proof_dir "$2"
  if [ "$3" = 1 ]; then
    if e=$(mkdir -p -- "$D" 2>&1); then kv "p$1.mkdir" ok; else kv "p$1.mkdir" "$e"; fi
  fi
  d="$D/$4"
  if [ -z "$D" ]; then
    kv "p$1.write" 'not set'
  elif e=$({ mkdir -p -- "$d" && printf '%s\n' "$5" >"$d/head"; } 2>&1); then
    kv "p$1.write" ok
  else
    kv "p$1.write" "$e"
  fi
}

# cr_proof_read INDEX DIR ID HEAD_TOKEN NODE_TOKEN FILE [HOSTNAME]: a node's read of the head's
# probe DIR/ID/head (pINDEX.seen: match, other, missing, no-data-path or error; pINDEX.detail) and,
# when it holds HEAD_TOKEN, the node's own answer NODE_TOKEN in DIR/ID/FILE, or with HOSTNAME in
# DIR/ID/node-HOSTNAME (pINDEX.write). An empty DIR: ENROOT_DATA_PATH is not set.
cr_proof_read() {
  cr_proof_dir "$2"
  d="$D/$3"
  s=
  if [ -z "$D" ]; then
    kv "p$1.seen" error
    kv "p$1.detail" 'ENROOT_DATA_PATH is not set'
  elif [ ! -d "$D" ]; then
    kv "p$1.seen" no-data-path
  elif [ ! -e "$d/head" ]; then
    kv "p$1.seen" missing
  elif { IFS= read -r s <"$d/head"; } 2>/dev/null || [ -n "$s" ]; then
    if [ "$s" = "$4" ]; then
      kv "p$1.seen" match
      cr_proof_answer "$@"
    else
      kv "p$1.seen" other
      kv "p$1.detail" "$s"
    fi
  else
    kv "p$1.seen" error
    kv "p$1.detail" "cannot read $d/head"
  fi
}

# cr_proof_answer (cr_proof_read's arguments): writes the node's own answer beside the head's.
cr_proof_answer() {
  f=$6
  if [ $# -ge 7 ]; then
    case $7 in
      '' | *[!A-Za-z0-9._-]*)
        kv "p$1.write" "no hostname to name its answer after: '$7'"
        return
        ;;
    esac
    f=node-$7
  fi
  if e=$({ printf '%s\n' "$5" >"$d/$f"; } 2>&1); then kv "p$1.write" ok; else kv "p$1.write" "$e"; fi
}

# cr_proof_collect KEY FILE: the head reads back a node's answer FILE (waiting up to 3 s for it to
# appear) as KEY.
cr_proof_collect() {
  t=0
  while [ ! -e "$2" ] && [ $t -lt 3 ]; do
    sleep 1
    t=$((t + 1))
  done
  s=
  { IFS= read -r s <"$2"; } 2>/dev/null
  kv "$1" "$s"
}

# cr_proof_remove INDEX DIR: the head removes the probe directory DIR (pINDEX.cleanup).
cr_proof_remove() {
  if e=$(rm -rf -- "$2" 2>&1); then kv "p$1.cleanup" ok; else kv "p$1.cleanup" "$e"; fi
}

# cr_proof_rename INDEX FROM TO: the head renames a probe directory (pINDEX.renamed when it did).
cr_proof_rename() {
  if mv -- "$2" "$3" 2>/dev/null; then kv "p$1.renamed" ok; fi
}

# cr_proof_discard FILE DIR: a node removes the answer FILE the head could not see, and DIR if empty.
cr_proof_discard() {
  rm -f -- "$1"
  rmdir -- "$2" 2>/dev/null
}

# cr_proof_identity: the session user's identity as enroot expands a per-user path with it.
cr_proof_identity() {
  kv uid "$(id -u)"
  kv gid "$(id -g)"
  kv user "${USER-}"
  kv home "${HOME-}"
}
