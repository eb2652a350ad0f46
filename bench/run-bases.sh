#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# The fork on its two bases, Open MPI 5.0.7 and 5.0.10, side by side in one
# run: the matched / plain and queued / plain 8-byte ping-pong ratios of
# bench/match_channels.c (the channel the framework chooses: sm on ob1,
# ucx on the UCX PML), the two bases alternated in each round, then the
# median of each over the rounds.  The instruction counts of the fork
# against its base's stock build are bench/callgrind-stock.sh's, run with
# OMPI_BASE for each base.
# Usage: bench/run-bases.sh [ROUNDS]  (default 3; needs both installs:
# make, and OMPI_BASE=5.0.10 make)

set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
rounds=${1:-3}
bases="5.0.7 5.0.10"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

one() {   # base pml: prints "matched queued" of one run
    OMPI_BASE=$1 bash -c '
        source "$0/bench/common.sh"
        bench_build match_channels
        if [ "$1" = ucx ]; then
            bench_run2 ucx match_channels --mca osc ^ucx --mca match ucx,pml --mca match_base_fallback 0
        else
            bench_run2 ob1 match_channels --mca osc ^ucx
        fi' "$root" "$2" \
        | sed -n 's|^ratio matched/plain=\([0-9.]*\) queued/plain=\([0-9.]*\) .*|\1 \2|p'
}

for r in $(seq "$rounds"); do
    for pml in ob1 ucx; do
        for b in $bases; do
            line=$(one "$b" "$pml")
            [ -n "$line" ] || { echo "round $r: $pml on $b printed no ratio" >&2; exit 1; }
            echo "round $r $pml $b matched/plain queued/plain $line"
            echo "$line" >> "$out/$pml.$b"
        done
    done
done

median() {   # column file
    cut -d' ' -f"$1" "$2" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
echo "== medians of $rounds rounds (8-byte ping-pong, ratio to plain persistent on the same base)"
for pml in ob1 ucx; do
    for b in $bases; do
        echo "$pml $b matched/plain $(median 1 "$out/$pml.$b") queued/plain $(median 2 "$out/$pml.$b")"
    done
done
