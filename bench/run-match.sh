#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Matched vs plain persistent 8-byte ping-pong (MPI_Start/MPI_Wait), over
# ob1 (shared memory) and UCX; both measured in the same run, interleaved.
# Usage: bench/run-match.sh

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../contrib/queue/common.sh"
mkdir -p "$OMPI_QUEUE_ROOT/bench/bin"
exe=$OMPI_QUEUE_ROOT/bench/bin/match_pingpong
"$PREFIX/bin/mpicc" -O2 -o "$exe" "$OMPI_QUEUE_ROOT/bench/match_pingpong.c"
[ "$(id -u)" = "0" ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

echo "8-byte ping-pong, half round trip, best of 7 interleaved rounds of 20000"
for tr in ob1 ucx; do
    if [ "$tr" = ob1 ]; then
        args="--mca pml ob1 --mca btl self,sm"
    else
        args="--mca pml ucx --mca pml_ucx_tls any --mca pml_ucx_devices any"
    fi
    # shellcheck disable=SC2086
    printf '%-4s %s\n' "$tr" "$(timeout 300 "$PREFIX/bin/mpirun" -n 2 $args "$exe")"
done
