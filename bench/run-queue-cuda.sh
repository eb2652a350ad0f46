#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Stream-ordered ping-pong on a GPU: stream synchronize + MPI_Send/MPI_Recv vs
# the same exchange enqueued on a CUDA stream queue, and the bare
# memory-operation round trip as the floor; ob1 and UCX, 2 ranks sharing the
# GPU; then what the context and capture checks of each enqueue cost beside
# the enqueue (bench/cuda_enqueue_calls.c). Prints SKIP without a CUDA device.
# Usage: bench/run-queue-cuda.sh

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
bench_build queue_cuda_pingpong

echo "256 x uint32 ping-pong produced and consumed by stream work, half round trip, best of 5 rounds"
for tr in ob1 ucx; do
    printf '%-4s %s\n' "$tr" "$(bench_run2 "$tr" queue_cuda_pingpong)"
done

# the checks every enqueue makes (context, capture) beside the enqueue itself
bench_build cuda_enqueue_calls
"$BENCH_BIN/cuda_enqueue_calls"
