#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# MPIX graphs and streams overhead, over ob1 and UCX, each figure beside its
# plain-MPI baseline from the same run: 64 eight-byte sends as 64 tokens on
# a stream vs 64 MPI_Send; MPIX_Iexecute of a one-send token + MPI_Wait vs
# MPI_Isend + MPI_Wait.  With valgrind installed, also instructions per
# message of each (callgrind): GRAPHS_CALLGRIND=1 bench/run-graphs.sh
# (GRAPHS_CALLGRIND_PML="ob1 ucx" for both transports, ob1 alone by default)
# Usage: bench/run-graphs.sh

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
bench_build graphs_overhead

echo "8-byte sends, time per message, best of 15 interleaved rounds and the median of the"
echo "per-round ratios (stream: 64 tokens + sync vs 64 MPI_Send; iexecute: vs MPI_Isend+MPI_Wait)"
for tr in ob1 ucx; do
    printf '%-4s %s\n' "$tr" "$(bench_run2 "$tr" graphs_overhead)"
done

# instructions per message of the sender's batch functions (rank 0 under
# callgrind, 50 batches of 64 messages each), over the transports named in
# GRAPHS_CALLGRIND_PML (default ob1; e.g. "ob1 ucx")
if [ "${GRAPHS_CALLGRIND:-0}" = 1 ] && command -v valgrind > /dev/null; then
    out=$(mktemp -d)
    for tr in ${GRAPHS_CALLGRIND_PML:-ob1}; do
        # shellcheck disable=SC2086
        timeout 600 "$PREFIX/bin/mpirun" ${TRANSPORT[$tr]} \
            -n 1 valgrind --tool=callgrind --callgrind-out-file="$out/cg.$tr" \
            "$BENCH_BIN/graphs_overhead" callgrind \
            : -n 1 "$BENCH_BIN/graphs_overhead" callgrind > /dev/null 2>&1
        echo "instructions per message (callgrind, $tr, sender):"
        callgrind_annotate --inclusive=yes --threshold=100 "$out/cg.$tr" 2>/dev/null \
            | awk '/:batch_(send|stream|isend|iexecute) / && !/=>/ {n=$1; gsub(",", "", n);
                   f=$0; sub(/.*:batch_/, "", f); sub(/ .*/, "", f); printf "  %-9s %6.0f\n", f, n / 3200}'
    done
    rm -rf "$out"
fi
