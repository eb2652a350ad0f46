#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Instructions per call, fork against stock Open MPI 5.0.7, for the calls of
# bench/stock_calls.c (MPI_Send_init, MPI_Recv_init, MPI_Request_free,
# MPI_Waitall of 1024 completed receives), counted by callgrind over one
# round on one rank.  Instruction counts do not depend on the machine's
# load, so this is the figure to trust where bench/run-stock.sh's times
# are too noisy; they are not times (cache misses and branch
# mispredictions are not in them).
# Usage: bench/callgrind-stock.sh   (stock install: contrib/queue/build-stock.sh)

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
stock=$OMPI_STOCK_PREFIX
[ -x "$stock/bin/mpicc" ] || { echo "no stock install in $stock: run contrib/queue/build-stock.sh"; exit 1; }
command -v valgrind > /dev/null || { echo "SKIP: valgrind is not installed"; exit 0; }

bench_build stock_calls
exe_stock=$BENCH_BIN/stock_calls.stock
"$stock/bin/mpicc" -O2 -o "$exe_stock" "$OMPI_QUEUE_ROOT/bench/stock_calls.c"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# calls per round in stock_calls.c
declare -A CALLS=([Send_init]=20000 [Recv_init]=20000 [Request_free]=40000 [Waitall]=50)

count() {   # prefix exe transport -> "Send_init N Recv_init N Request_free N Waitall N"
    local f=$out/$RANDOM
    # shellcheck disable=SC2086
    OPAL_PREFIX=$1 timeout 900 "$1/bin/mpirun" -n 1 ${TRANSPORT[$3]} \
        valgrind -q --tool=callgrind --callgrind-out-file="$f" "$2" 1 > /dev/null
    callgrind_annotate --inclusive=yes --threshold=100 "$f" 2> /dev/null \
        | awk -v s="${CALLS[Send_init]}" -v r="${CALLS[Recv_init]}" \
              -v q="${CALLS[Request_free]}" -v w="${CALLS[Waitall]}" '
            { gsub(",", "", $1) }
            $0 ~ /[: ]P?MPI_Send_init[ \047]/    { a = $1 / s }
            $0 ~ /[: ]P?MPI_Recv_init[ \047]/    { b = $1 / r }
            $0 ~ /[: ]P?MPI_Request_free[ \047]/ { c = $1 / q }
            $0 ~ /[: ]P?MPI_Waitall[ \047]/      { d = $1 / w }
            END { printf "Send_init %.0f Recv_init %.0f Request_free %.0f Waitall %.0f\n", a, b, c, d }'
}

echo "instructions per call (callgrind, 1 round, 1 rank): fork, stock, fork/stock"
for t in ob1 ucx; do
    f=$(count "$PREFIX" "$BENCH_BIN/stock_calls" "$t")
    s=$(count "$stock" "$exe_stock" "$t")
    for k in Send_init Recv_init Request_free Waitall; do
        fv=$(awk -v k=$k '{for (i = 1; i < NF; i++) if ($i == k) print $(i+1)}' <<< "$f")
        sv=$(awk -v k=$k '{for (i = 1; i < NF; i++) if ($i == k) print $(i+1)}' <<< "$s")
        printf '%-4s MPI_%-13s fork %8s  stock %8s  fork/stock %s\n' "$t" "$k" "$fv" "$sv" \
            "$(awk -v a="$fv" -v b="$sv" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "n/a" }')"
    done
done
