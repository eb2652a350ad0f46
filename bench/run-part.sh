#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Partitioned bandwidth beside a plain persistent send of the same bytes
# (bench/part_bw.c: 16 partitions of 64 KiB, MPI_Pready in order and
# reversed, against one 1 MiB persistent send; medians of interleaved
# rounds), on ob1 (shared memory) and UCX, for the fork and, when it is
# installed (contrib/queue/build-stock.sh), stock Open MPI 5.0.7 built from
# the same source.
# Usage: bench/run-part.sh [ob1|ucx] (default: both)

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
bench_build part_bw
which=${1:-all}
stock=$OMPI_STOCK_PREFIX
exe_stock=""
if [ -x "$stock/bin/mpicc" ]; then
    exe_stock=$BENCH_BIN/part_bw.stock
    "$stock/bin/mpicc" -O2 -o "$exe_stock" "$OMPI_QUEUE_ROOT/bench/part_bw.c"
fi

for t in ob1 ucx; do
    [ "$which" = all ] || [ "$which" = "$t" ] || continue
    echo "== fork, PML $t"
    bench_run2 "$t" part_bw
    if [ -n "$exe_stock" ]; then
        echo "== stock 5.0.7, PML $t"
        # shellcheck disable=SC2086
        OPAL_PREFIX=$stock timeout 300 "$stock/bin/mpirun" -n 2 ${TRANSPORT[$t]} "$exe_stock" \
            || echo "stock: exit $? (stock part/persist: see docs/partitioned.md)"
    else
        echo "== stock 5.0.7: not installed ($stock; contrib/queue/build-stock.sh)"
    fi
done
