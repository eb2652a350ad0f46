#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# The fork against stock Open MPI 5.0.7 on calls every program makes
# (bench/stock_calls.c): MPI_Send_init + MPI_Request_free, MPI_Recv_init +
# MPI_Request_free, MPI_Waitall of 1024 completed requests.  The same source
# is built against both installs and run in alternation; each pair of runs
# gives a fork/stock ratio, and the median of those ratios is printed.
# Usage: bench/run-stock.sh [PAIRS]   (stock install: contrib/queue/build-stock.sh)

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
pairs=${1:-7}
stock=$OMPI_STOCK_PREFIX
[ -x "$stock/bin/mpicc" ] || { echo "no stock install in $stock: run contrib/queue/build-stock.sh"; exit 1; }

bench_build stock_calls
exe_stock=$BENCH_BIN/stock_calls.stock
"$stock/bin/mpicc" -O2 -o "$exe_stock" "$OMPI_QUEUE_ROOT/bench/stock_calls.c"

run_one() {   # prefix exe transport
    # shellcheck disable=SC2086
    OPAL_PREFIX=$1 timeout 120 "$1/bin/mpirun" -n 1 ${TRANSPORT[$3]} "$2"
}

median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

echo "fork/stock per call, $pairs alternating pairs of runs, median of the pair ratios"
for t in ob1 ucx; do
    declare -A ratios=([send_init]="" [recv_init]="" [waitall]="")
    for ((p = 0; p < pairs; ++p)); do
        f=$(run_one "$PREFIX" "$BENCH_BIN/stock_calls" "$t")
        s=$(run_one "$stock" "$exe_stock" "$t")
        for k in send_init recv_init waitall; do
            fv=$(awk -v k=$k '{for (i = 1; i < NF; i++) if ($i == k) print $(i+1)}' <<< "$f")
            sv=$(awk -v k=$k '{for (i = 1; i < NF; i++) if ($i == k) print $(i+1)}' <<< "$s")
            ratios[$k]+="$(awk -v a="$fv" -v b="$sv" 'BEGIN {printf "%.4f", a / b}') "
        done
        echo "  $t pair $p: fork [$f] stock [$s]"
    done
    for k in send_init recv_init waitall; do
        printf '%-4s %-10s fork/stock median %s (pairs: %s)\n' "$t" "$k" \
            "$(tr ' ' '\n' <<< "${ratios[$k]}" | grep . | median)" "${ratios[$k]}"
    done
done
