#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Instructions per MPI_Start + MPI_Wait of an 8-byte persistent ping-pong
# (bench/channel_calls.c), rank 0 under callgrind: matched requests on the
# channel the match framework chooses, against plain persistent requests
# on the fork and on stock Open MPI 5.0.7, per PML.  Instruction counts do
# not depend on the machine's load as long as no wait polls for a message
# still on its way: rank 0 waits for the reply only once rank 1 says (in
# shared memory, outside MPI) that it was sent, and that spin is not counted.
# Also rank 0's starts and waits enqueued on a default queue ("queued",
# fenced once an iteration).
# Usage: bench/callgrind-channels.sh   (stock install: contrib/queue/build-stock.sh;
#        without one, the stock column is left out)

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
stock=$OMPI_STOCK_PREFIX
have_stock=1
[ -x "$stock/bin/mpicc" ] || { echo "no stock install in $stock (contrib/queue/build-stock.sh): the fork only"; have_stock=0; }
command -v valgrind > /dev/null || { echo "SKIP: valgrind is not installed"; exit 0; }

bench_build channel_calls
exe_stock=$BENCH_BIN/channel_calls.stock
[ 1 = "$have_stock" ] && "$stock/bin/mpicc" -O2 -o "$exe_stock" "$OMPI_QUEUE_ROOT/bench/channel_calls.c"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# ITERS in channel_calls.c, two start+wait pairs each
PAIRS=4000

count() {   # prefix exe transport mode [mpirun options] -> instructions per start+wait
    local prefix=$1 exe=$2 tr=$3 mode=$4 f=$out/$RANDOM
    shift 4
    # shellcheck disable=SC2086
    OPAL_PREFIX=$prefix timeout 900 "$prefix/bin/mpirun" ${TRANSPORT[$tr]} --mca osc ^ucx "$@" \
        -n 1 valgrind -q --tool=callgrind --callgrind-out-file="$f" "$exe" "$mode" \
        : -n 1 "$exe" "$mode" > /dev/null
    callgrind_annotate --inclusive=yes --threshold=100 "$f" 2> /dev/null \
        | awk -v n=$PAIRS '{ gsub(",", "", $1) }
                           /:pingpong / && !/=>/ { p = $1 }
                           /:await_reply / && !/=>/ { a = $1 }
                           END { printf "%.0f", (p - a) / n }'
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }

echo "instructions per MPI_Start+MPI_Wait, 8-byte ping-pong, rank 0 (callgrind)"
for tr in ob1 ucx; do
    # the framework's choice: the sm channel on one node
    m=$(count "$PREFIX" "$BENCH_BIN/channel_calls" "$tr" matched)
    q=$(count "$PREFIX" "$BENCH_BIN/channel_calls" "$tr" queued)
    p=$(count "$PREFIX" "$BENCH_BIN/channel_calls" "$tr" plain)
    s=0
    [ 1 = "$have_stock" ] && s=$(count "$stock" "$exe_stock" "$tr" plain)
    printf '%-4s matched %6s  queued %6s  plain %6s  stock plain %6s  matched/stock %s\n' "$tr" \
        "$m" "$q" "$p" "$s" "$(ratio "$m" "$s")"
    if [ "$tr" = ucx ]; then
        # the ucx channel, which the framework leaves to pairs sm does not take
        u=$(count "$PREFIX" "$BENCH_BIN/channel_calls" "$tr" matched \
            --mca match ucx,pml --mca match_base_fallback 0)
        printf '%-4s matched on the ucx channel %6s  matched/stock %s\n' "$tr" "$u" "$(ratio "$u" "$s")"
    fi
done
