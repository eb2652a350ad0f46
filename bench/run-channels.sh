#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Matched-request channels against plain persistent requests, each figure
# beside its baseline in the same run (medians of interleaved rounds): on
# ob1 (shared memory) the channel the framework chooses (sm), then the pml
# channel (--mca match pml) for comparison; on the UCX PML the ucx channel
# (--mca match ucx,pml: both ranks share this node, so sm is left out), then
# the pml channel; on pml cm over libfabric's tcp provider (the path of
# libfabric networks) the ofi channel over the same provider (--mca match
# ofi,pml, match_ofi_same_node=1), then the pml channel, after the
# provider's own floor (bench/ofi_floor.c: tagged message vs RMA write).
# Usage: bench/run-channels.sh [ob1|ucx|cm] (default: all three)

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
bench_build match_channels

which=${1:-all}

if [ "$which" = all ] || [ "$which" = ob1 ]; then
    for chan in default pml; do
        echo "== match channel: $chan (PML ob1, btl self,sm)"
        if [ "$chan" = default ]; then
            bench_run2 ob1 match_channels --mca osc ^ucx
        else
            bench_run2 ob1 match_channels --mca osc ^ucx --mca match "$chan"
        fi
    done
fi

if [ "$which" = all ] || [ "$which" = ucx ]; then
    for chan in ucx,pml pml; do
        echo "== match channel: ${chan%,pml} (PML ucx)"
        bench_run2 ucx match_channels --mca osc ^ucx --mca match "$chan" \
            --mca match_base_fallback 0
    done
fi

if [ "$which" = all ] || [ "$which" = cm ]; then
    # the provider alone: what a tagged message (the MTL's) and an RMA write
    # (the channel's) cost without Open MPI, the floor under both
    exe=$BENCH_BIN/ofi_floor
    if [ ! -x "$exe" ] || [ "$OMPI_QUEUE_ROOT/bench/ofi_floor.c" -nt "$exe" ]; then
        "${CC:-cc}" -O2 -o "$exe" "$OMPI_QUEUE_ROOT/bench/ofi_floor.c" -lfabric
    fi
    echo "== libfabric alone (no MPI), tcp provider"
    timeout 300 "$exe" tcp
    for chan in ofi,pml pml; do
        echo "== match channel: ${chan%,pml} (PML cm, mtl ofi, libfabric tcp)"
        bench_run2 cm match_channels --mca osc ^ucx --mca match "$chan" \
            --mca match_base_fallback 0 --mca match_ofi_same_node 1 \
            --mca match_ofi_provider_include tcp
    done
fi
