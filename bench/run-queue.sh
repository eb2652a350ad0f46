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
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
bench_build queue_pingpong
bench_build queue_ring

echo "8-byte ping-pong on matched requests, half round trip, best of 15 interleaved rounds,"
echo "and the median of the per-round ratios;"
echo "ring of 2 ranks, 1024 doubles each way, time per iteration, best of 5 interleaved rounds"
for tr in ob1 ucx; do
    for b in queue_pingpong queue_ring; do
        printf '%-4s %s\n' "$tr" "$(bench_run2 "$tr" "$b")"
    done
done
