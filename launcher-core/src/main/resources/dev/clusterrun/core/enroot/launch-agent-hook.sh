#!/bin/sh
# clusterrun-launch-agent-hook version __VERSION__
# Managed by `clusterrun setup`; do not edit (it is replaced on upgrade, a backup is kept).
#
# enroot pre-start hook. Hooks see the environment of `enroot start`, the container does not.
# When __ENV_VAR__ is set there, pass that launch agent to Open MPI inside the
# container through $ENROOT_ENVIRON (one KEY=VALUE per line, taken verbatim):
#   __OMPI4_VAR__  Open MPI 4 (ORTE)
#   __OMPI5_VAR__  Open MPI 5 (PRRTE)
# Without the variable this hook does nothing: each job brings its own agent, so two users'
# or two jobs' agents never meet.
set -eu

agent=${__ENV_VAR__-}
if [ -z "$agent" ]; then
    exit 0
fi

newline='
'
case $agent in
*"$newline"*)
    echo "clusterrun: launch-agent hook: __ENV_VAR__ contains a newline; refusing to pass it to the container" >&2
    exit 1
    ;;
esac

if [ -z "${ENROOT_ENVIRON-}" ]; then
    echo "clusterrun: launch-agent hook: ENROOT_ENVIRON is not set; this hook must be run by enroot" >&2
    exit 1
fi

printf '%s=%s\n' __OMPI4_VAR__ "$agent" __OMPI5_VAR__ "$agent" >> "$ENROOT_ENVIRON"
