#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Strong progress: overlap and latency cost, thread off vs on, interleaved in
# one run (off, on, off, on, ...), over ob1 and UCX; prints the best of each.
# Usage: bench/run-progress.sh [REPEATS]

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
repeats=${1:-3}
bench_build progress

field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p"; }

printf '%-4s %-10s %12s %12s %14s\n' pml progress send_ms overlap_pct latency_us
for tr in ob1 ucx; do
    declare -A best_send=() best_lat=() best_ovl=()
    for ((i = 0; i < repeats; i++)); do
        for mode in 0 1; do
            out=$(bench_run2 "$tr" progress --mca mpi_async_progress "$mode")
            s=$(field send_ms <<< "$out"); l=$(field latency_us <<< "$out"); o=$(field overlap_pct <<< "$out")
            if [ -z "${best_send[$mode]:-}" ] || awk "BEGIN{exit !($s < ${best_send[$mode]})}"; then
                best_send[$mode]=$s; best_ovl[$mode]=$o
            fi
            if [ -z "${best_lat[$mode]:-}" ] || awk "BEGIN{exit !($l < ${best_lat[$mode]})}"; then
                best_lat[$mode]=$l
            fi
        done
    done
    printf '%-4s %-10s %12s %12s %14s\n' "$tr" weak "${best_send[0]}" "${best_ovl[0]}" "${best_lat[0]}"
    printf '%-4s %-10s %12s %12s %14s\n' "$tr" strong "${best_send[1]}" "${best_ovl[1]}" "${best_lat[1]}"
    awk -v a="${best_lat[1]}" -v b="${best_lat[0]}" -v t="$tr" \
        'BEGIN { printf "%-4s latency ratio strong/weak: %.2f\n", t, a / b }'
done
