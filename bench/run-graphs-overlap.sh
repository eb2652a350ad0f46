#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Overlap of the host's computation with a while-loop graph of N neighbour
# exchanges executing at MPIX_OFFLOAD_PTHREAD, beside the same at
# MPIX_LOC_INPLACE (bench/graphs_overlap.c), over ob1 and UCX.  Each rank
# runs two busy threads at PTHREAD (the host computing, the progress thread
# running the loop): NP defaults to 2 ranks where there are 4 cores or more,
# else 1 (the rank exchanges with itself), and each rank is bound to 2 cores
# (--map-by slot:PE=2).  mpirun's default binding puts a rank, and so its
# progress thread, on one core: the thread then runs only when the host
# thread leaves the core, and nothing overlaps.
# Usage: bench/run-graphs-overlap.sh [N]   (NP=2 to force two ranks)

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
bench_build graphs_overlap

cores=$(nproc)
np=${NP:-$([ "$cores" -ge 4 ] && echo 2 || echo 1)}
echo "cores $cores, ranks $np, load $(cut -d' ' -f1-3 /proc/loadavg)"
for tr in ob1 ucx; do
    echo "== $tr"
    # shellcheck disable=SC2086
    timeout 300 "$PREFIX/bin/mpirun" -n "$np" --map-by slot:PE=2 ${TRANSPORT[$tr]} \
        "$BENCH_BIN/graphs_overlap" "${1:-1000}"
done
