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
# Usage: bench/run-graphs-graph.sh

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
bench_build graphs_graph

for tr in ob1 ucx; do
    echo "== $tr"
    bench_run2 "$tr" graphs_graph
done
