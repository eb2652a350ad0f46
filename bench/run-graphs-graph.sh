#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# MPIX graphs against plain MPI over ob1 and UCX (bench/graphs_graph.c): a
# 64-node graph of independent 8-byte sends vs 64 MPI_Isend + MPI_Waitall; a
# while-loop graph of 1000 neighbour exchanges vs an MPI_Sendrecv loop;
# build + def and execution time per node for 100, 1000, 10000 nodes.
# GRAPHS_CALLGRIND=1 adds instruction counts (one rank sending to itself, so
# that they are deterministic): per message of the fan-out, per iteration of
# the loop, each beside its plain-MPI baseline.
# Usage: bench/run-graphs-graph.sh

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
bench_build graphs_graph

for tr in ob1 ucx; do
    echo "== $tr"
    bench_run2 "$tr" graphs_graph
done

if [ "${GRAPHS_CALLGRIND:-0}" = 1 ] && command -v valgrind > /dev/null; then
    out=$(mktemp -d)
    for tr in ob1 ucx; do
        # shellcheck disable=SC2086
        timeout 600 "$PREFIX/bin/mpirun" -n 1 ${TRANSPORT[$tr]} valgrind --tool=callgrind \
            --callgrind-out-file="$out/cg.$tr" "$BENCH_BIN/graphs_graph" callgrind \
            > /dev/null 2>&1
        echo "== $tr instructions (callgrind, 1 rank to itself)"
        callgrind_annotate --inclusive=yes --threshold=100 "$out/cg.$tr" 2>/dev/null \
            | awk '/:cg_(fanout|while)_[a-z]+ / && !/=>/ {n=$1; gsub(",", "", n);
                   f=$0; sub(/.*:cg_/, "", f); sub(/ .*/, "", f);
                   d = (f ~ /^fanout/) ? 3200 : 1000; u = (f ~ /^fanout/) ? "message" : "iteration";
                   printf "  %-16s %7.0f per %s\n", f, n / d, u}'
    done
    rm -rf "$out"
fi
