#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Matched vs plain persistent 8-byte ping-pong (MPI_Start/MPI_Wait), over
# ob1 (shared memory) and UCX; both measured in the same run, interleaved.
# Usage: bench/run-match.sh

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
bench_build match_pingpong

echo "8-byte ping-pong, half round trip, best of 7 interleaved rounds of 20000"
for tr in ob1 ucx; do
    printf '%-4s %s\n' "$tr" "$(bench_run2 "$tr" match_pingpong)"
done
