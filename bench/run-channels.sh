#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Matched-request channels against plain persistent requests on ob1 (shared
# memory), each figure beside its baseline in the same run (medians of
# interleaved rounds): the channel the framework chooses (sm), then the pml
# channel (--mca match pml) for comparison.
# Usage: bench/run-channels.sh

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
bench_build match_channels

for chan in default pml; do
    echo "== match channel: $chan (PML ob1, btl self,sm)"
    if [ "$chan" = default ]; then
        bench_run2 ob1 match_channels --mca osc ^ucx
    else
        bench_run2 ob1 match_channels --mca osc ^ucx --mca match "$chan"
    fi
done
