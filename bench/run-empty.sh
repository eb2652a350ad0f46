#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# PaRSEC-style message rate: skipping MPI_REQUEST_EMPTY vs tracking every
# request in a pending list drained with MPI_Testsome, over ob1 (shared memory)
# and UCX; both measured in the same run, interleaved.
# Usage: bench/run-empty.sh

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
bench_build empty_rate

echo "8-byte MPI_Isend bursts of 16, windows of 256, best of 7 interleaved rounds"
for tr in ob1 ucx; do
    printf '%-4s %s\n' "$tr" "$(bench_run2 "$tr" empty_rate)"
done
