# clusterrun setup: reads the state of enroot's configuration on a node, or applies a plan and
# reads it back. Run as root (see as-root.sh), POSIX sh, plain ASCII.
# Parameters (set by the line above), one of:
#   read  PROBES
#   apply SYSCONF FAIL_AFTER NDIRS DIR... NCHANGES CHANGE... PROBES
# where PROBES is NPROBEDIRS DIR... FILE... (read as dir.0, dir.1, ..., file.0, file.1, ...) and
# each CHANGE is the 8 words PATH FINGERPRINT BACKUP(none|link|copy) BACKUP_PATH TEMPLATE MODE
# SHA256 CONTENT: the file's fingerprint when it was read, how its backup is made and where, the
# mktemp template beside it, the new content's mode, SHA-256 and text for printf %b.
# FAIL_AFTER is for tests: fail on purpose after that many renames (-1: never).
set -eu
umask 077
LC_ALL=C
export LC_ALL
fail() {
    printf 'clusterrun-setup-error: %s\n' "$1" >&2
    exit 1
}
for c in sha256sum base64 stat mktemp cut tr wc; do
    command -v "$c" >/dev/null 2>&1 || fail "$c is not installed on this node"
done
kind_of() {
    if [ -L "$1" ]; then echo symlink
    elif [ -f "$1" ]; then echo file
    elif [ -e "$1" ]; then echo other
    else echo missing
    fi
}
sha_of() {
    if [ -f "$1" ] && [ -r "$1" ]; then sha256sum < "$1" | cut -c1-64; fi
}
fingerprint() {
    printf '%s:%s' "$(kind_of "$1")" "$(sha_of "$1")"
}
probe_dir() {
    if [ -d "$2" ]; then echo "$1=dir"
    elif [ -e "$2" ] || [ -L "$2" ]; then echo "$1=other"
    else echo "$1=missing"
    fi
}
# probe_file KEY PATH: a file's kind, owner, mode, SHA-256 and size, and its content in base64
# up to 1 MiB (a larger file's checksum is still sent).
probe_file() {
    k=$(kind_of "$2")
    echo "$1.type=$k"
    if [ "$k" = missing ]; then return 0; fi
    echo "$1.owner=$(stat -c '%u:%g' -- "$2")"
    echo "$1.mode=$(stat -c '%a' -- "$2")"
    if [ -f "$2" ] && [ -r "$2" ]; then
        echo "$1.sha256=$(sha_of "$2")"
        size=$(wc -c < "$2" | tr -d ' ')
        echo "$1.size=$size"
        if [ "$size" -le 1048576 ]; then
            echo "$1.b64=$(base64 < "$2" | tr -d '\n')"
        fi
    fi
}
# probes NPROBEDIRS DIR... FILE...: the state, after its marker line. The first DIR is the sysconf
# dir, whose identity (device:inode) tells nodes that share it (diskless nodes, an NFS root).
probes() {
    echo clusterrun-setup-state
    echo "uid=$(id -u)"
    pn=$1
    shift
    if [ "$pn" -gt 0 ] && [ -d "$1" ]; then
        echo "sysconf.id=$(stat -L -c '%d:%i' -- "$1")"
    fi
    pi=0
    while [ "$pi" -lt "$pn" ]; do
        probe_dir "dir.$pi" "$1"
        shift
        pi=$((pi + 1))
    done
    pi=0
    for pf in "$@"; do
        probe_file "file.$pi" "$pf"
        pi=$((pi + 1))
    done
}
# Numbered variables (POSIX sh has no arrays): put NAME I VALUE sets NAME_I; get VAR NAME I sets
# VAR to NAME_I. Only literal names and counters are ever part of the evaluated text.
put() {
    eval "$1_$2=\$3"
}
get() {
    eval "$1=\${$2_$3}"
}
# What get sets, named here once.
p='' f='' h='' bp='' tmpl='' fm='' s='' text='' ti='' bi='' mi='' dj='' dir='' sk=''
# change I: the words of change I and whether it is skipped, into p f h bp tmpl fm s text sk.
change() {
    get p path "$1"
    get f fp "$1"
    get h how "$1"
    get bp backup "$1"
    get tmpl template "$1"
    get fm mode "$1"
    get s sha "$1"
    get text content "$1"
    get sk skip "$1"
}

verb=$1
shift
if [ "$verb" = read ]; then
    probes "$@"
    exit 0
fi
[ "$verb" = apply ] || fail "unknown mode $verb"

sysconf=$1
fail_after=$2
nd=$3
shift 3
j=0
while [ "$j" -lt "$nd" ]; do
    put dir "$j" "$1"
    put d "$j" ''
    shift
    j=$((j + 1))
done
n=$1
shift
i=0
while [ "$i" -lt "$n" ]; do
    put path "$i" "$1"
    put fp "$i" "$2"
    put how "$i" "$3"
    put backup "$i" "$4"
    put template "$i" "$5"
    put mode "$i" "$6"
    put sha "$i" "$7"
    put content "$i" "$8"
    put skip "$i" ''
    put t "$i" ''
    put b "$i" ''
    put m "$i" ''
    shift 8
    i=$((i + 1))
done

# The undo, newest first (set +e: undo as much as possible), armed on any exit.
rollback() {
    set +e
    i=$n
    while [ "$i" -gt 0 ]; do
        i=$((i - 1))
        get p path "$i"
        get mi m "$i"
        get bi b "$i"
        if [ -n "$mi" ]; then
            if [ -n "$bi" ]; then mv -f -- "$bi" "$p" && put b "$i" ''; else rm -f -- "$p"; fi
        fi
    done
    i=0
    while [ "$i" -lt "$n" ]; do
        get ti t "$i"
        get bi b "$i"
        [ -z "$ti" ] || rm -f -- "$ti"
        [ -z "$bi" ] || rm -f -- "$bi"
        i=$((i + 1))
    done
    j=$nd
    while [ "$j" -gt 0 ]; do
        j=$((j - 1))
        get dj d "$j"
        get dir dir "$j"
        [ -z "$dj" ] || rmdir -- "$dir"
    done
}
on_exit() {
    rc=$?
    trap - EXIT
    if [ "$rc" -ne 0 ]; then rollback; fi
    exit "$rc"
}
trap on_exit EXIT
trap 'exit 1' HUP INT TERM

# 1. Everything is still as it was read, and nothing is in the way. A file that changed since
# into exactly the new content (another node that shares it wrote it) is left alone: skipped.
[ -d "$sysconf" ] || fail "$sysconf is not a directory"
i=0
while [ "$i" -lt "$n" ]; do
    change "$i"
    now=$(fingerprint "$p")
    if [ "$now" = "file:$s" ] && [ "$now" != "$f" ]; then
        put skip "$i" 1
        echo "clusterrun-setup-already: $i"
    elif [ "$now" != "$f" ]; then
        fail "$p changed since it was read; run setup again"
    elif [ "$h" != none ]; then
        # A backup is never overwritten: its name is the node's own and the second's.
        if [ -e "$bp" ] || [ -L "$bp" ]; then fail "$bp already exists"; fi
    fi
    i=$((i + 1))
done

# 2. Directories.
j=0
while [ "$j" -lt "$nd" ]; do
    get dir dir "$j"
    if [ ! -d "$dir" ]; then
        if [ -e "$dir" ] || [ -L "$dir" ]; then fail "$dir exists but is not a directory"; fi
        mkdir -- "$dir"
        put d "$j" 1
        chown 0:0 "$dir"
        chmod 0755 "$dir"
    fi
    j=$((j + 1))
done

# 3. New contents beside their targets, checked.
i=0
while [ "$i" -lt "$n" ]; do
    change "$i"
    if [ -n "$sk" ]; then i=$((i + 1)); continue; fi
    ti=$(mktemp "$tmpl")
    put t "$i" "$ti"
    printf '%b' "$text" > "$ti"
    chown 0:0 "$ti"
    chmod "$fm" "$ti"
    [ "$(sha256sum < "$ti" | cut -c1-64)" = "$s" ] \
        || fail "$p: the new content arrived altered; nothing was written"
    i=$((i + 1))
done

# 4. Backups of the files about to be replaced: a hard link keeps the old file as it was (owner,
# mode, times) at no cost; a symbolic link is copied as a link.
i=0
while [ "$i" -lt "$n" ]; do
    change "$i"
    [ -z "$sk" ] || h=none
    case $h in
        link) ln -- "$p" "$bp" ;;
        copy) cp -P -p -- "$p" "$bp" ;;
        *) bp='' ;;
    esac
    [ -z "$bp" ] || put b "$i" "$bp"
    i=$((i + 1))
done

# 5. Renames: each one atomic.
i=0
while [ "$i" -lt "$n" ]; do
    change "$i"
    get ti t "$i"
    if [ -z "$sk" ]; then
        mv -f -- "$ti" "$p"
        put t "$i" ''
        put m "$i" 1
    fi
    i=$((i + 1))
    if [ "$i" -eq "$fail_after" ]; then fail 'failing on purpose (test)'; fi
done

trap - EXIT HUP INT TERM
echo clusterrun-setup-applied
probes "$@"
