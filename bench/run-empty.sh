#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# PaRSEC-style message rate: skipping MPI_REQUEST_EMPTY vs tracking every
# request in a pending list drained with MPI_Testsome, over ob1 (shared memory)
# and UCX; both measured in the same run, interleaved.
# Usage: bench/run-empty.sh

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../contrib/queue/common.sh"
mkdir -p "$OMPI_QUEUE_ROOT/bench/bin"
exe=$OMPI_QUEUE_ROOT/bench/bin/empty_rate
"$PREFIX/bin/mpicc" -O2 -o "$exe" "$OMPI_QUEUE_ROOT/bench/empty_rate.c"
[ "$(id -u)" = "0" ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

echo "8-byte MPI_Isend bursts of 16, windows of 256, best of 7 interleaved rounds"
for tr in ob1 ucx; do
    if [ "$tr" = ob1 ]; then
        args="--mca pml ob1 --mca btl self,sm"
    else
        args="--mca pml ucx --mca pml_ucx_tls any --mca pml_ucx_devices any"
    fi
    # shellcheck disable=SC2086
    printf '%-4s %s\n' "$tr" "$(timeout 300 "$PREFIX/bin/mpirun" -n 2 $args "$exe")"
done
