#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# What PRRTE's ssh launcher runs in place of ssh (plm_ssh_agent) for
# tests/netns/run-netns.sh, and what that script starts mpirun with:
#   enter-node.sh NODE COMMAND...
# runs COMMAND, a shell command line as ssh would run it, on the "node" NODE:
# in the network namespace NODE, in UTS and IPC namespaces of its own with
# NODE as its hostname (Open MPI's locality and UCX's shared-memory reach
# then see another host), with the run's hosts file (QTEST_NETNS_HOSTS) in
# place of /etc/hosts.  The mount is made in the private mount namespace that
# `ip netns exec` makes, so /etc/hosts of the machine is not touched.

set -euo pipefail
[ $# -ge 2 ] || { echo "usage: enter-node.sh NODE COMMAND..." >&2; exit 2; }
node=$1
shift
exec ip netns exec "$node" unshare --uts --ipc /bin/bash -c '
    hostname "$1" && mount --bind "$2" /etc/hosts || exit 1
    shift 2
    exec /bin/bash -c "$*"' enter-node "$node" "${QTEST_NETNS_HOSTS:?}" "$@"
