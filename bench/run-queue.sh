#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Queue benchmarks, over ob1 and UCX, each figure beside its baseline from
# the same run: matched ping-pong with MPI_Start/MPI_Wait vs enqueued, and
# the chapter's ring (Example 13.1) with MPI_Startall/MPI_Waitall vs enqueued.
# Usage: bench/run-queue.sh

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../contrib/queue/common.sh"
mkdir -p "$OMPI_QUEUE_ROOT/bench/bin"
for b in queue_pingpong queue_ring; do
    "$PREFIX/bin/mpicc" -O2 -o "$OMPI_QUEUE_ROOT/bench/bin/$b" "$OMPI_QUEUE_ROOT/bench/$b.c"
done
[ "$(id -u)" = "0" ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

echo "8-byte ping-pong on matched requests, half round trip, best of 7 interleaved rounds;"
echo "ring of 2 ranks, 1024 doubles each way, time per iteration, best of 5 interleaved rounds"
for tr in ob1 ucx; do
    if [ "$tr" = ob1 ]; then
        args="--mca pml ob1 --mca btl self,sm"
    else
        args="--mca pml ucx --mca pml_ucx_tls any --mca pml_ucx_devices any"
    fi
    # shellcheck disable=SC2086
    for b in queue_pingpong queue_ring; do
        # shellcheck disable=SC2086
        printf '%-4s %s\n' "$tr" "$(timeout 300 "$PREFIX/bin/mpirun" -n 2 $args "$OMPI_QUEUE_ROOT/bench/bin/$b")"
    done
done
